package predict

import (
	"fmt"
	"math"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/units"
)

// A Query asks for the time of one collective on a shape of the machine.
type Query struct {
	// Collective is the collective.
	Collective commmodel.Collective
	// Ranks and PerNode are the GPUs in all and per host (one rank per
	// GPU); Ranks must be a multiple of PerNode.
	Ranks, PerNode int
	// Layout is the run's threads per process, GPUs per thread and CUDA
	// graphs, as in Table; each zero field means the calibration tables'
	// when they all share it, and 1 thread, 1 GPU per thread and no graphs
	// otherwise (Machine.Layout).
	Layout
	// Algo and Proto are NCCL_ALGO and NCCL_PROTO ("" for the tuner). An
	// Algo that leaves only CollNet is ErrPin where the user said the
	// machine has none (Sources.CollNet SourceUser, CollNet false), and
	// otherwise runs it as set up, whatever else gave CollNet (ErrPin).
	Algo, Proto string
	// Version is the NCCL release; zero means the calibration's newest. A
	// release the model does not follow is modelled with the nearest it
	// does (nccl.Oldest before 2.18, nccl.Latest after 2.30); one that is
	// not 2.MINOR.PATCH is an error.
	Version nccl.Version
	// ran is the NVLink domains NCCL grouped the run's hosts into where
	// the log of the table the query describes says so (Table.Query,
	// runDomains); the zero shape leaves them to the machine's domain
	// (shapeOf), as for any query built by hand.
	ran shape
}

// A Prediction is the model's time of one call.
type Prediction struct {
	// Size is the call's size, bytes (nccl-tests' size column).
	Size float64
	// Time is the calibrated model's time, s; Low and High are an 80%
	// interval of the measured time, which holds Time (interval.go says
	// how it is built).
	Time, Low, High float64
	// Algorithm and Protocol are what NCCL runs at this size: the pins,
	// or NCCL's tuner's choice on the machine ("Ring", "LL128"; "P2P" for
	// AllToAll and SendRecv, which NCCL runs as grouped sends outside its
	// tuner).
	Algorithm, Protocol string
	// Channels is the most channels NCCL runs it on at this size
	// (nccl.Model.MaxChannels); 0 for grouped sends.
	Channels int
	// Bound names the largest term of the calibrated time at this size
	// (TermLaunch, TermLatency, TermLinks, TermNetwork or TermChannels):
	// what a faster launch, fewer steps, a faster link or more channels
	// would shorten. It is
	// "" for Reference.
	Bound string
}

// Holds reports whether a measured time lies within p's interval.
func (p Prediction) Holds(time float64) bool { return p.Low <= time && time <= p.High }

// Predict returns the calibrated time of q at each size, bytes. It is
// ErrShape for a rank count that is not a multiple of the GPUs per node,
// ErrLayout for a layout whose processes do not fill a node's GPUs,
// ErrHardware for a Hardware out of range, and an error for a collective
// that is not one, a rank count beyond NCCL's int, pins NCCL would refuse
// or that leave nothing to run, and a size that is NaN, below 1 B or 2^62
// B or more (ErrQuery). q is checked before any size, with no sizes too.
// A query of one rank is an error (oneRank), as it is to Reference.
//
// Each interval is the calibrated model's own, for the hardware as
// described: commlab predict widens it to hold what the alternatives of
// the facts the evidence does not settle predict (Guesses, HoldGuesses),
// and so is wider where a fact is assumed.
func (m *Machine) Predict(q Query, sizes []float64) ([]Prediction, error) {
	if err := oneRank(q); err != nil {
		return nil, err
	}
	rn, err := m.run(q)
	if err != nil {
		return nil, err
	}
	fx := m.floorParams()
	out := make([]Prediction, len(sizes))
	for i, size := range sizes {
		if err := checkSize(size); err != nil {
			return nil, err
		}
		t, err := m.refs.termOf(rn, size)
		if err != nil {
			return nil, err
		}
		p := Prediction{Size: size, Time: t.time(&m.x)}
		if w := m.NCCLWeight; t.nccl > 0 && w > 0 {
			p.Time = math.Exp((1-w)*math.Log(p.Time) + w*math.Log(t.nccl))
		}
		p.Low, p.High = m.interval(&t, p.Time, rn)
		p.aboveFloor(floor(&t, &fx))
		p.Algorithm, p.Protocol, p.Channels = algoName(t.ch), nccl.ProtocolName(t.ch.proto), t.maxChannels
		p.Bound = m.dominant(&t)
		out[i] = p
	}
	return out, nil
}

// aboveFloor keeps p at or above f, the least time the line rates allow
// (floor): where most of its interval beats them, which no call does, the
// model is off there, and the interval moves up to start at f, as wide as
// it was; else its low end stops at f.
func (p *Prediction) aboveFloor(f float64) {
	switch {
	case math.Sqrt(p.Low*p.High) < f:
		r := f / p.Low
		p.Time, p.Low, p.High = max(p.Time, f), f, r*p.High
	case p.Low < f:
		p.Time, p.Low = max(p.Time, f), f
	}
}

// Curve returns the calibrated time of q as a function of size, seconds,
// NaN where Predict fails (a size below 1 B among them): the form plotting
// and data.WithModel take.
func (m *Machine) Curve(q Query) func(size float64) float64 {
	return func(size float64) float64 {
		p, err := m.Predict(q, []float64{size})
		if err != nil {
			return math.NaN()
		}
		return p[0].Time
	}
}

// oneRank says why a query of one rank is not predicted. NCCL runs a
// collective on a communicator of one rank as no collective at all: its
// tuner gives Ring/Simple a time of 0 (src/enqueue.cc,
// updateCollCostTable), and the call copies the send buffer to the receive
// buffer on the GPU, or does nothing in place (ncclLaunchOneRank,
// src/device/onerank.cu). Its time is a device copy's and the launch's,
// which no table calibrates (the reader leaves tables of one rank out), so
// Reference gave 0 s in an interval of [0, 0] and Predict a time that did
// not grow with the size.
func oneRank(q Query) error {
	if q.Ranks == 1 {
		return queryError("predict: 1 rank: NCCL copies the buffer locally, exchanging nothing, which the model does not time; want 2 ranks or more, such as 2 on one node")
	}
	return nil
}

// checkSize says why size, bytes, cannot be predicted, if it cannot: it
// must be at least 1 B, a call's least (a table's least too: Table's
// check), and below 2^62 B, the most NCCL's model counts (and
// units.ParseSize reads).
func checkSize(size float64) error {
	if !(size >= 1 && size < units.MaxSize) {
		near := ""
		if size == units.MaxSize {
			near = "; a size within 256 B of it rounds to it as a float64"
		}
		return queryError(fmt.Sprintf("predict: size %g B: want a size from 1 B to below 2^62 B (4194304 TiB%s), such as 1048576", size, near))
	}
	return nil
}

func algoName(ch choice) string {
	if ch.p2p {
		return "P2P"
	}
	return ch.algo.String()
}

// Reference returns NCCL's own, uncalibrated prediction of q on h at each
// size: its tuner's choice and that choice's time (nccl.Model.Choose), with
// an 80% interval that no table narrows (referenceBias, referenceSpread).
// Grouped sends (AllToAll, SendRecv) have no NCCL model and give an error,
// and so do, as to Predict, a query of one rank (oneRank) and a size out
// of range (checkSize).
func Reference(h Hardware, q Query, sizes []float64) ([]Prediction, error) {
	m := &Machine{Hardware: h, refs: &references{hw: &h, m: map[runKey]*reference{}}}
	if grouped(q.Collective) {
		return nil, queryError(fmt.Sprintf("predict: NCCL's tuner has no model of %v (it runs as grouped sends); calibrate on measured tables", q.Collective))
	}
	if err := oneRank(q); err != nil {
		return nil, err
	}
	rn, err := m.run(q)
	if err != nil {
		return nil, err
	}
	ref, err := m.refs.get(rn)
	if err != nil {
		return nil, err
	}
	f, err := nccl.FuncOf(q.Collective)
	if err != nil {
		return nil, err
	}
	out := make([]Prediction, len(sizes))
	for i, size := range sizes {
		if err := checkSize(size); err != nil {
			return nil, err
		}
		e, err := ref.tuned(f, size)
		if err != nil {
			return nil, err
		}
		out[i] = Prediction{Size: size, Time: e.Time,
			Low:       e.Time * math.Exp(referenceBias-z80*referenceSpread),
			High:      e.Time * math.Exp(referenceBias+z80*referenceSpread),
			Algorithm: e.Algo.String(), Protocol: nccl.ProtocolName(e.Proto)}
		out[i].Channels, _ = ref.full.MaxChannels(e.Algo, e.Proto, size)
	}
	return out, nil
}

// Untabled returns the prediction of q on h that no table calibrates:
// NCCL's own (Reference) where NCCL's tuning model times the run, and
// otherwise the model at its priors (Uncalibrated), with why saying
// which and why ("" for NCCL's): for grouped sends (AllToAll, SendRecv),
// which NCCL's tuner does not model, on a GPU whose links NCCL's tables do not hold as h describes
// them (InNCCLTables), where NCCL's model would time another machine's.
// Across nodes of a network whose latency h gives (NetLatency k), NCCL's
// time takes k−1 more of NCCL's network latency for the run, its interval
// moved with it: k = 1 is NCCL's own. Its low end stops at the least time
// the line rates allow, as the calibrated model's does (aboveFloor).
//
// NCCL's model times the kernels, not the host that launches them: a
// thread that drives several GPUs launches their kernels one after the
// other, and a call takes at least that long (the launch floor the
// calibrated model has, at the launch parameter's prior for the GPU's
// vendor: RCCL's host adds launches of its own). Where the floor
// is above NCCL's time, it is the prediction, its interval moved with it,
// and its Bound is TermLaunch. As for Machine.Predict, the interval is not
// widened for the assumed facts' alternatives: HoldGuesses does that.
func Untabled(h Hardware, q Query, sizes []float64) (preds []Prediction, why string, err error) {
	switch why = WhyNotNCCL(h, q); why {
	case "":
		if preds, err = Reference(h, q, sizes); err != nil {
			return nil, "", err
		}
		m := Uncalibrated(h)
		rn, err := m.run(q)
		if err != nil {
			return nil, "", err
		}
		fx := m.floorParams()
		for i := range preds {
			t, err := m.refs.termOf(rn, preds[i].Size)
			if err != nil {
				return nil, "", err
			}
			p := &preds[i]
			if k := h.netLatency(); k != 1 && q.Ranks > q.PerNode {
				extra := (k - 1) * t.lat[2]
				p.Time, p.Low, p.High = p.Time+extra, p.Low+extra, p.High+extra
			}
			p.aboveFloor(floor(&t, &fx))
			if launch, _, _, _ := t.parts(&m.x); p.Time < launch {
				r := launch / p.Time
				p.Time, p.Low, p.High, p.Bound = launch, r*p.Low, r*p.High, TermLaunch
			}
		}
		return preds, "", nil
	}
	preds, err = Uncalibrated(h).Predict(q, sizes)
	return preds, why, err
}

// WhyNotNCCL says why Untabled predicts q on h with the model at its
// priors, not NCCL's tuning model: "" where NCCL's model times the run.
func WhyNotNCCL(h Hardware, q Query) string {
	switch {
	case grouped(q.Collective):
		return fmt.Sprintf("NCCL's tuning model has no %v (it runs as grouped sends)", q.Collective)
	case !h.InNCCLTables():
		return h.notInNCCLTables()
	}
	return ""
}

// notInNCCLTables says why NCCL's tuning tables do not time h
// (InNCCLTables).
func (h *Hardware) notInNCCLTables() string {
	g, err := nccl.ParseGPU(h.GPU.Name)
	switch {
	case h.GPU.Name == UnnamedGPU || h.GPU.Name == "":
		return "NCCL's tuning tables do not hold a GPU the logs do not name"
	case err != nil || !h.GPU.Known:
		return fmt.Sprintf("NCCL's tuning tables do not hold %s, which commlab's catalog lacks", h.GPU.Name)
	case g.ISA != "":
		return fmt.Sprintf("NCCL's tuning tables hold NVIDIA's NVLink, not %s's Infinity Fabric", h.GPU.Name)
	case h.Fabric != FabricNVSwitch && h.Fabric != FabricMesh:
		src := string(h.Sources.Fabric)
		if !h.given(h.Sources.Fabric) {
			src = string(SourceAssumed)
		}
		return fmt.Sprintf("commlab takes NCCL's tuning model for NVLink hosts alone, and %s's GPUs are joined by %s (%s)", h.GPU.Name, h.Fabric, src)
	}
	if h.Sources.NVLinks == SourceTopo && h.NVLinks > 0 && h.NVLinks < g.NVLinks {
		// A capture of fewer links than the GPU has (a link down) says so.
		return fmt.Sprintf("NCCL's tuning tables hold %s's %d NVLinks, not the %d the capture gives", h.GPU.Name, g.NVLinks, h.NVLinks)
	}
	return fmt.Sprintf("NCCL's tuning tables hold %s's links otherwise than the description gives them", h.GPU.Name)
}

// predictTable predicts t's own run at its sizes.
func (m *Machine) predictTable(t *Table) ([]Prediction, error) {
	sizes := make([]float64, len(t.Points))
	for j, p := range t.Points {
		sizes[j] = p.Size
	}
	return m.Predict(t.Query(), sizes)
}
