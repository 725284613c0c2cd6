package predict

import (
	"errors"
	"fmt"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/units"
)

// A Point is one measured size of a table.
type Point struct {
	// Size is nccl-tests' size column, in bytes (nBytes as NCCL counts it).
	Size float64
	// Time is the measured time of one call, in seconds.
	Time float64
	// InPlace is the same call's in-place time in the same run, seconds,
	// 0 where the log gives none: it tells a stalled row (withoutStalls).
	InPlace float64
}

// Fastest is the faster of the point's out-of-place and in-place times:
// the call ran that fast.
func (p Point) Fastest() float64 {
	if p.InPlace > 0 {
		return min(p.Time, p.InPlace)
	}
	return p.Time
}

// Samples returns t's points as samples for package fit (a regime fit of
// the measured times).
func (t *Table) Samples() []fit.Sample {
	out := make([]fit.Sample, len(t.Points))
	for i, p := range t.Points {
		out[i] = fit.Sample{Size: p.Size, Time: p.Time}
	}
	return out
}

// A Table is one nccl-tests run: one collective over a range of sizes on one
// shape of one machine, with what the run pinned. Its zero Algo and Proto
// mean NCCL's tuner chose.
type Table struct {
	// Name identifies the table in errors and scores ("all_reduce.log#0").
	Name string
	// GPU is the GPU name the run's Rank lines print; tables of one machine
	// share it.
	GPU string
	// Collective is the collective measured.
	Collective commmodel.Collective
	// Nodes and PerNode are the hosts and the GPUs used on each (one rank
	// per GPU); Hardware.Domain regroups hosts into NVLink domains.
	Nodes, PerNode int
	// Layout is how nccl-tests ran the ranks: threads per process, GPUs
	// per thread and CUDA graphs.
	Layout
	// Algo and Proto are NCCL_ALGO and NCCL_PROTO as the run set them, in
	// NCCL's syntax ("Ring", "^NVLS,NVLSTree", "LL128"); "" is the tuner's
	// choice.
	Algo, Proto string
	// Version is the NCCL release of the run; the zero value is unknown
	// (Latest is assumed, and said in the machine's notes). A version
	// that is no release (nccl.Version.Release) is refused, as a Query's
	// is; a release outside those the tuner model follows is said and
	// replaced by the nearest it follows.
	Version nccl.Version
	// Points are the measured sizes; 0-byte rows (an empty call) do not
	// belong here.
	Points []Point
	// Evidence is what the log says of the machine beside the table: its
	// Rank lines and NCCL's NCCL_DEBUG=INFO lines (Hardware.WithEvidence
	// takes the NICs and NVLS from them).
	Evidence nccltests.Evidence
	// GPUFrom and ShapeFrom say where GPU and the shape (Nodes, PerNode)
	// came from, for the machine's facts: SourceLog where the log printed
	// them, SourceUser where the user pinned them (Pins), SourceAssumed
	// where neither did (UnnamedGPU; the predicted run's hosts taken for
	// a log that does not place its ranks, Pins.Hosts). TablesOf sets
	// them; a Table built in code leaves them "", the caller's own
	// (SourceUser). CollectiveFrom says so of Collective: SourceAssumed
	// where the log left a choice between collectives its table fits
	// alike (an AllGather or an AllToAll of no binary's name) and the
	// reader took the first. VersionFrom says so of Version: SourceNCCLDebug
	// where NCCL's "NCCL version" line gave it, SourceLog where the
	// header's nccl-library did, SourceUser where Pins did.
	GPUFrom, ShapeFrom, CollectiveFrom, VersionFrom Source
}

// orUser returns s, or SourceUser for "": a Table built in code has its
// GPU and shape from its caller.
func (s Source) orUser() Source {
	if s == "" {
		return SourceUser
	}
	return s
}

// Ranks returns Nodes·PerNode.
func (t *Table) Ranks() int { return t.Nodes * t.PerNode }

// Errors of Calibrate and Predict, for errors.Is.
var (
	// ErrMixedMachines: the tables come from more than one machine (their
	// GPU names differ).
	ErrMixedMachines = errors.New("predict: tables of different machines")
	// ErrTooFew: no table to calibrate on, or too few points for the
	// one-link baseline's two parameters.
	ErrTooFew = errors.New("predict: too few tables or points for the parameters")
	// ErrBadTable: a table that cannot be modelled (no points, bad counts,
	// one rank, a size or time that is not finite and positive, a Version
	// that is no NCCL release).
	ErrBadTable = errors.New("predict: bad table")
	// ErrShape: a rank count that is not a multiple of the GPUs per node,
	// or hosts that do not split equally into NVLink domains.
	ErrShape = errors.New("predict: ranks not a multiple of GPUs per node")
	// ErrLayout: a launch layout the shape cannot run (a node's GPUs not a
	// whole number of processes), or negative counts.
	ErrLayout = errors.New("predict: a launch layout the shape cannot run")
	// ErrPin: an algorithm pin (Query.Algo, Table.Algo) that leaves only
	// an algorithm the user said the machine lacks: CollNet where
	// Hardware.CollNet is false and Sources.CollNet is SourceUser
	// (Describe's collnet=false). Where false has another source (assumed,
	// by default), the pin runs as CollNet set up (NCCL runs it only where
	// the job set it up), and Machine.Beyond says so.
	ErrPin = errors.New("predict: a pinned algorithm the machine does not run")
	// ErrHardware: a fact of a Hardware built in code out of the range
	// Describe takes (a negative count, a NaN or infinite rate or ratio),
	// which Calibrate and Predict refuse; Describe's own errors name the
	// spec's key instead.
	ErrHardware = errors.New("predict: a hardware fact out of range")
	// ErrSettings: a Settings field that is negative, NaN or infinite.
	ErrSettings = errors.New("predict: a setting out of range")
	// ErrQuery: a query or size that cannot be predicted (a size that is
	// NaN, below 1 B or 2^62 B or more, a collective the model does not
	// know, one rank, a Version that is no NCCL release, grouped sends to
	// NCCL's own model, or what NCCL's model of the run refuses: an
	// unknown pin, pins that leave no algorithm, more ranks than NCCL
	// counts); the error's text says which.
	ErrQuery = errors.New("predict: a query out of range")
)

// shapeError is an error that errors.Is takes for ErrShape, with a text
// of its own (a shape whose ranks are a multiple of its GPUs a node, but
// whose hosts do not fill NVLink domains equally).
type shapeError string

func (e shapeError) Error() string        { return string(e) }
func (e shapeError) Is(target error) bool { return target == ErrShape }

// queryError is an error of text s that errors.Is takes for ErrQuery.
func queryError(s string) error { return refusedQuery{errors.New(s)} }

// check reports what makes t unusable.
func (t *Table) check() error {
	if t.Nodes < 1 || t.PerNode < 1 {
		return fmt.Errorf("%w: %s: %d nodes of %d GPUs", ErrBadTable, t.Name, t.Nodes, t.PerNode)
	}
	if len(t.Points) == 0 {
		return fmt.Errorf("%w: %s: no points", ErrBadTable, t.Name)
	}
	if t.Ranks() < 2 {
		// One rank communicates with no one: its times are the launch's
		// and a copy's, which no parameter of the model describes.
		return fmt.Errorf("%w: %s: one rank, which communicates with no other", ErrBadTable, t.Name)
	}
	// Its layout is held to what a query's is (Machine.run), but for
	// NoGraphs, which asks a query or pins for none where a table's 0
	// says it.
	if err := t.Layout.check(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrBadTable, t.Name, err)
	}
	if t.Graphs < 0 {
		return fmt.Errorf("%w: %s: %d graphs: want a count, 0 for none (NoGraphs is a Query's or Pins')", ErrBadTable, t.Name, t.Graphs)
	}
	if l := t.Layout.norm(); !l.fills(t.PerNode) {
		return fmt.Errorf("%w: %s: %d GPUs per node are not a whole number of processes (threads per process %d, GPUs per thread %d)",
			ErrBadTable, t.Name, t.PerNode, l.ThreadsPerProcess, l.GPUsPerThread)
	}
	if t.Version != (nccl.Version{}) && !t.Version.Release() {
		return fmt.Errorf("%w: %s: Version %v is no NCCL release: want 2.MINOR.PATCH, or the zero Version for an unknown one", ErrBadTable, t.Name, t.Version)
	}
	if _, err := nccl.ParseFunc(t.Collective.String()); err != nil && !grouped(t.Collective) {
		return fmt.Errorf("%w: %s: collective %v", ErrBadTable, t.Name, t.Collective)
	}
	// The bounds a log's reader holds a row to (units.MaxSize,
	// nccltests.MinTime and MaxTime): a time below 0.01 µs is no
	// measurement, and one such point, a billion times too fast, would
	// stretch every interval.
	measured := func(t float64) bool { return t >= nccltests.MinTime && t <= nccltests.MaxTime }
	for i, p := range t.Points {
		if !(p.Size >= 1 && p.Size < units.MaxSize) || !measured(p.Time) || p.InPlace != 0 && !measured(p.InPlace) {
			return fmt.Errorf("%w: %s: point %d (%g B, %g s, in place %g s) is not a size of 1 B to 2^62 B and times of %g to %g s",
				ErrBadTable, t.Name, i, p.Size, p.Time, p.InPlace, nccltests.MinTime, nccltests.MaxTime)
		}
	}
	return nil
}

// tableError is err, met in modelling table t (NCCL's model of its run:
// its pins, its ranks), as an ErrBadTable naming it; an ErrPin, which
// names the setting that lifts it, stays one.
func tableError(t *Table, err error) error {
	if errors.Is(err, ErrPin) {
		return fmt.Errorf("%s: %w", t.Name, err)
	}
	var q refusedQuery
	if errors.As(err, &q) {
		err = q.err // a query's refusal, here the table's
	}
	return fmt.Errorf("%w: %s: %w", ErrBadTable, t.Name, err)
}

// SameMachine returns ErrMixedMachines, naming every table and its GPU, when
// the tables' GPU names differ: Calibrate takes the tables of one machine.
func SameMachine(tables []Table) error {
	for _, t := range tables {
		if t.GPU != tables[0].GPU {
			var b strings.Builder
			for i, u := range tables {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s: %q", u.Name, u.GPU)
			}
			return fmt.Errorf("%w: %s", ErrMixedMachines, b.String())
		}
	}
	return nil
}

// Query returns the query that describes t, its hosts grouped into NVLink
// domains as its log says NCCL grouped them (runDomains), so that what
// holds t to the model (Diagnose, Expect) times the run NCCL made, as its
// calibration does (tableRun).
func (t *Table) Query() Query {
	q := Query{Collective: t.Collective, Ranks: t.Ranks(), PerNode: t.PerNode, Layout: t.Layout.explicit(),
		Algo: t.Algo, Proto: t.Proto, Version: t.Version}
	if d, hosts, ok := runDomains(t); ok {
		q.ran = shape{d, hosts * t.PerNode, hosts}
	}
	return q
}
