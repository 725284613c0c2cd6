package nccltests

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/internal/parseerr"
)

// A Test is one table: one nccl-tests run (one binary over a range of sizes).
type Test struct {
	// Name is the nccl-tests binary (all_reduce_perf, ...) as the log names
	// it, or "" when the log does not say.
	Name string
	// Op is the operation: the binary's stem (all_reduce, alltoall, reduce,
	// sendrecv, ...), or the collective column of the tidy CSV that package
	// data groups into tests; "" when unknown.
	Op string
	// Version is the "# nccl-tests version" line's version, "" if absent.
	Version string
	// Line is the first line of the test in the file.
	Line int

	// Collective is the collective the test measures, one of those commlab
	// models; it means something only when CollectiveFrom is not Unknown.
	Collective commmodel.Collective
	// CollectiveFrom says how Collective was found: Options (FromOverride),
	// the binary's name (FromName), the table's columns (FromTable, or
	// FromCheckColumn when the in-place #wrong column decided), the file's
	// name (FromFileName), or a guess among Candidates (FromGuess).
	CollectiveFrom Inference
	// Candidates lists every collective the table's columns are consistent
	// with when the file does not name its binary: AllGather and AllToAll
	// print the same columns but for the in-place #wrong one, so both may
	// be listed. Collective is one of them.
	Candidates []commmodel.Collective

	// Ranks is the number of ranks, 0 when unknown: the highest rank of the
	// Rank lines plus one, or the table's where the table cannot fit that
	// many and fits more (Rank lines a poster cut short; the node count is
	// then unknown).
	Ranks int
	// RanksFrom says how Ranks was found.
	RanksFrom Inference
	// Nodes is the number of nodes (distinct host names), 0 when unknown.
	Nodes int
	// NodesFrom says how Nodes was found.
	NodesFrom Inference
	// Hosts are the distinct host names of the "#  Rank" lines in order.
	Hosts []string

	// Processes is the number of processes: the distinct (host, Pid) pairs
	// of the "#  Rank" lines when they list every rank, else
	// Ranks/(Threads·GPUsPerThread); 0 when unknown.
	Processes int
	// Threads and GPUsPerThread are the header's nThread and nGpus
	// (nccl-tests -t and -g): the threads of each process, and the GPUs
	// each thread drives (nccl-tests ranks = processes·threads·GPUs per
	// thread); 0 when the header is absent.
	Threads, GPUsPerThread int
	// ProcessGPUs is the GPUs a process drives where the output gives them
	// but not its threads and GPUs a thread (rccl-tests' CSV and JSON: the
	// gpusPerRank or gpus column, whose Threads and GPUsPerThread are taken
	// as 1 of them all), 0 otherwise.
	ProcessGPUs int
	// Graphs is the header's "graph:" count (nccl-tests -G): how many
	// times the CUDA graph of each timed loop was launched, 0 for none.
	// nccl-tests prints it since 2022; before, it is 0.
	Graphs int
	// AggIters is the header's "agg iters:" count (nccl-tests -m): the
	// calls grouped into one ncclGroupStart/End per timed iteration; 0 when
	// the header does not print it (before 2022).
	AggIters int

	// Evidence is what the log says of the machine beside the table:
	// its Rank lines and NCCL's debug lines (NCCL_DEBUG=INFO), each fact
	// with its line.
	Evidence Evidence

	// Source, System and Algorithm describe the data: for a log, the
	// Reader's Name, the GPU model of the Rank lines and ""; for a tidy CSV,
	// its columns.
	Source, System, Algorithm string

	// Columns are the table's column names as its header prints them, or
	// the names the reader assumed when the header was missing.
	Columns []string
	// Rows are the table's rows in file order.
	Rows []Row

	// AvgBusBW is the "# Avg bus bandwidth" trailer, in bytes per second
	// (nccl-tests' mean over all cells, not the peak); 0 when absent.
	AvgBusBW float64
	// OutOfBounds is the "# Out of bounds values" count; -1 when absent.
	OutOfBounds int
}

// A Row is one size of an nccl-tests table.
type Row struct {
	// Line is the row's 1-based line number in the file.
	Line int
	// jsonCol is the column of its record in a JSON input's line, which
	// the problems found after the row was read name (0 in text).
	jsonCol int
	// Size is the message size in bytes (nccl-tests' size column).
	Size int64
	// Count is the element count as printed (per rank for AllGather,
	// ReduceScatter and AllToAll), in elements; 0 when absent. Its
	// elements make fewer than 2^62 bytes, as a size does: a row whose
	// count makes more is a bad number, left out.
	Count int64
	// Type and RedOp are the data type and reduction operation columns;
	// RedOp is empty where the table has none or the row left it blank.
	Type, RedOp string
	// Root is the root rank, -1 when the test has none or the column is absent.
	Root int
	// OutOfPlace and InPlace are the two halves of the row.
	OutOfPlace, InPlace Result
}

// A Result is one half (out-of-place or in-place) of an nccl-tests row.
type Result struct {
	// Time is the mean time of one operation, in seconds; 0 when the row
	// lacks this half.
	Time float64
	// AlgBW is the algorithm bandwidth size/Time, in bytes per second.
	AlgBW float64
	// BusBW is the bus bandwidth AlgBW·BusFactor, in bytes per second.
	BusBW float64
	// Wrong is the validation column as printed: a #wrong count ("0"), an
	// error ("0e+00", "4e-07"), "N/A", or "" when absent.
	Wrong string
}

// OK reports whether r holds a measurement.
func (r Result) OK() bool { return r.Time > 0 }

// Get returns the half of the row that p names.
func (r Row) Get(p Placement) Result {
	if p == InPlace {
		return r.InPlace
	}
	return r.OutOfPlace
}

// Ambiguous reports whether the collective was guessed among several the
// table fits alike (CollectiveFrom is FromGuess).
func (t *Test) Ambiguous() bool { return t.CollectiveFrom == FromGuess }

// BusFactor is the ratio of bus bandwidth to algorithm bandwidth (size
// over time) that nccl-tests prints for t: its operation's factor over
// t.Ranks, as commmodel.Collective.BusFactor gives it for the collective
// whose formula the operation's GetBw uses (reduce's is broadcast's, 1;
// gather's and scatter's allgather's, (n-1)/n). ok is false where the
// rank count is unknown, or the operation is and the collectives the table
// fits alike have different factors.
func (t *Test) BusFactor() (f float64, ok bool) {
	if t.Ranks < 1 {
		return 0, false
	}
	if o, known := opByStem(t.Op); known {
		return o.bus.BusFactor(t.Ranks), true
	}
	if t.CollectiveFrom == Unknown {
		return 0, false
	}
	f = t.Collective.BusFactor(t.Ranks)
	for _, c := range t.Candidates {
		if c.BusFactor(t.Ranks) != f {
			return 0, false
		}
	}
	return f, true
}

// Placement names a half of an nccl-tests row.
type Placement int

const (
	// OutOfPlace: separate send and receive buffers (the first half).
	OutOfPlace Placement = iota
	// InPlace: the receive buffer is the send buffer (the second half).
	InPlace
)

func (p Placement) String() string {
	if p == InPlace {
		return "in-place"
	}
	return "out-of-place"
}

// ParsePlacement reads "out-of-place" or "in-place" (also "oop", "ip").
func ParsePlacement(s string) (Placement, error) {
	switch s {
	case "out-of-place", "oop", "outofplace", "out_of_place":
		return OutOfPlace, nil
	case "in-place", "ip", "inplace", "in_place":
		return InPlace, nil
	}
	return 0, fmt.Errorf("unknown placement %q (want out-of-place or in-place)", parseerr.Excerpt(s))
}

// Inference says where a test's collective, rank count or node count came from.
type Inference int

const (
	// Unknown: the file does not say and the table does not tell.
	Unknown Inference = iota
	// FromOverride: Options set it.
	FromOverride
	// FromName: the binary name (all_reduce_perf) or a tidy CSV column.
	FromName
	// FromRankLines: the "#  Rank N Group G Pid P on HOST device D" lines.
	FromRankLines
	// FromHosts: the distinct host names of the Rank lines.
	FromHosts
	// FromCounts: size/(count·type size), which is the rank count for the
	// collectives whose count column is per rank.
	FromCounts
	// FromTable: the redop and root columns (before 2022, which of them a
	// test printed, and a redop left blank) and the busbw/algbw ratio.
	FromTable
	// FromCheckColumn: the table's columns with the in-place "#wrong"
	// column, which prints "N/A" in every AllToAll row and a count in
	// every AllGather row (see Reader); the other columns alone fit both.
	FromCheckColumn
	// FromFileName: the file's name, which names one of the collectives
	// the table fits alike ("..._alltoall_..."), when nothing inside the
	// file tells them apart.
	FromFileName
	// FromGuess: the table fits several collectives alike and nothing
	// tells them apart; the first of Candidates was taken, and Problems
	// holds an ErrAmbiguous warning.
	FromGuess
	// FromLayout: the header's (or command line's) threads and GPUs per
	// thread, which make every rank one process's: one host.
	FromLayout
	// FromColumns: the rank columns of rccl-tests' CSV output (-Z csv),
	// a communicator's processes times the GPUs each drives.
	FromColumns
)

var inferenceNames = [...]string{"unknown", "override", "name", "rank lines", "host names", "counts", "table",
	"check column", "file name", "guess", "layout", "CSV columns"}

func (i Inference) String() string {
	if i < 0 || int(i) >= len(inferenceNames) {
		return fmt.Sprintf("Inference(%d)", int(i))
	}
	return inferenceNames[i]
}

// Options override what the reader infers. The zero value infers all.
type Options struct {
	// Collective, when not "", is the collective of every test, as
	// commmodel.ParseCollective reads it.
	Collective string
	// Ranks, when positive, is the rank count of every test.
	Ranks int
	// Nodes, when positive, is the node count of every test.
	Nodes int
	// MaxRows, when positive, bounds the rows of the whole input: the
	// reader stops at the first row past it with ErrTooManyRows, so that a
	// file of millions of rows costs no more memory than MaxRows do.
	MaxRows int
}
