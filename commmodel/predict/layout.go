package predict

import (
	"fmt"
	"slices"

	"github.com/inframethod/commlab/data/nccltests"
)

// A Layout is how nccl-tests ran a table's ranks, as its header prints it:
// each process runs threads (nccl-tests -t), each thread drives GPUs (-g),
// and the timed loop may run as a CUDA graph (-G). nccl-tests runs
// processes·threads·GPUs per thread ranks, so the processes follow from the
// ranks (Processes).
//
// In a Table, 0 threads or GPUs per thread mean 1, and 0 graphs none
// (NoGraphs there is ErrBadTable). In a Query or in Pins, a zero field is
// taken from elsewhere (the calibration tables', the log's header), and
// Graphs = NoGraphs asks for none.
type Layout struct {
	// ThreadsPerProcess is nccl-tests' -t (the header's nThread): the
	// threads of one process. Each launches its own GPUs' kernels, in
	// parallel with the others.
	ThreadsPerProcess int
	// GPUsPerThread is nccl-tests' -g (the header's nGpus): the GPUs one
	// thread drives. It launches their kernels one after the other, so a
	// call costs at least that many launches.
	GPUsPerThread int
	// Graphs is nccl-tests' -G (the header's "graph:"): how many times the
	// CUDA graph captured from the timed loop is launched; 0 for none.
	Graphs int
}

// NoGraphs, as Query.Graphs or Pins.Graphs, asks for a run without CUDA
// graphs where the tables or the log ran with them.
const NoGraphs = -1

// Processes returns the processes of a run of ranks ranks in layout l, 0
// when the ranks are not a whole number of processes.
func (l Layout) Processes(ranks int) int {
	if !l.fills(ranks) {
		return 0
	}
	l = l.norm()
	return ranks / l.ThreadsPerProcess / l.GPUsPerThread
}

// fills reports whether gpus GPUs are a whole, non-zero number of
// processes of layout l.
func (l Layout) fills(gpus int) bool {
	l = l.norm()
	return gpus > 0 && gpus%l.ThreadsPerProcess == 0 && gpus/l.ThreadsPerProcess%l.GPUsPerThread == 0
}

// norm spells l's defaults out: at least 1 thread and 1 GPU per thread,
// and 0 graphs for none.
func (l Layout) norm() Layout {
	return Layout{max(l.ThreadsPerProcess, 1), max(l.GPUsPerThread, 1), max(l.Graphs, 0)}
}

// over returns l with each zero field taken from base.
func (l Layout) over(base Layout) Layout {
	if l.ThreadsPerProcess == 0 {
		l.ThreadsPerProcess = base.ThreadsPerProcess
	}
	if l.GPUsPerThread == 0 {
		l.GPUsPerThread = base.GPUsPerThread
	}
	if l.Graphs == 0 {
		l.Graphs = base.Graphs
	}
	return l
}

// explicit is l as a Query states it when it must not take the tables':
// every field set, NoGraphs for none.
func (l Layout) explicit() Layout {
	l = l.norm()
	if l.Graphs == 0 {
		l.Graphs = NoGraphs
	}
	return l
}

// launches is the host launches that bound one call of a run in layout l,
// the launch floor's multiple of the launch time (Machine.Params[0]), under
// RCCL where rccl is set (references.runsRCCL) and NVIDIA's NCCL otherwise.
//
// A thread launches its GPUs' kernels one after the other, and threads in
// parallel, so without graphs the floor is the GPUs of one thread,
// whatever the threads and processes. RCCL's host adds rcclLaunches to
// every call, whatever the GPUs: its floor is c0 + c1·G, not c1·G. With -G,
// nccl-tests' BenchTime (src/common.cu) captures the whole timed loop
// (iters calls, or iters·agg-iters in groups) into one CUDA graph per GPU,
// instantiates it before the timer starts, and divides the time of the
// graph launches by every call they replay: the host launches one graph
// per GPU for every iters calls, so its share of a call is a small
// fraction of a launch, and the floor is dropped. The GPUs' own per-call
// latency stays in L.
func (l Layout) launches(rccl bool) float64 {
	if l.Graphs > 0 {
		return 0
	}
	n := float64(max(l.GPUsPerThread, 1))
	if rccl {
		n += rcclLaunches
	}
	return n
}

// rcclLaunches is the launches RCCL's host adds to every call without
// graphs, c0/c1 of its floor c0 + c1·G (G the GPUs of one thread), c1
// being launchPriorRCCL: from the public AMD AllReduce logs without
// graphs (data/nccltests/testdata/real), one GPU a process runs 1 to 64 KiB
// in 13.67 us at the median (ROCm's blog's and AMD AAC8's MI300X, 14 rows;
// the blog's run with graphs takes 6.0 to 9.1 us there, so the host sets
// it), and one process driving 8 GPUs runs up to 64 KiB in 45.99 us (the
// Radeon host's and Azure's MI300X VF, 29 rows): c1 = 4.6 us a GPU, c0 =
// 9.1 us, 2.0 launches. NVIDIA's public logs of -g 2, 4 and 8 fit c0
// under a quarter of a launch (TestNCCLLaunchFloor): 0 for NCCL.
const rcclLaunches = 2.0

// check says why a query's layout l cannot be run, if it cannot.
func (l Layout) check() error {
	if l.ThreadsPerProcess < 0 || l.GPUsPerThread < 0 || l.Graphs < NoGraphs {
		return fmt.Errorf("%w: %d threads per process, %d GPUs per thread, %d graphs: want counts, 0 for the tables' or NoGraphs",
			ErrLayout, l.ThreadsPerProcess, l.GPUsPerThread, l.Graphs)
	}
	return nil
}

// layoutOf is the layout of test t as its header and Rank lines give it.
// Where the header is missing but the Rank lines name the processes, each
// process is taken to run one thread (nccl-tests' default -t 1) that drives
// all its GPUs.
func layoutOf(t *nccltests.Test) Layout {
	l := Layout{ThreadsPerProcess: t.Threads, GPUsPerThread: t.GPUsPerThread, Graphs: t.Graphs}
	if t.Threads == 0 && t.GPUsPerThread == 0 && t.Processes > 0 && t.Ranks%t.Processes == 0 {
		l.GPUsPerThread = t.Ranks / t.Processes
	}
	return l
}

// commonLayout is the layout the tables share: each field the tables agree
// on, and where they differ 1 thread, 1 GPU per thread and no graphs.
func commonLayout(layouts []Layout) Layout {
	if len(layouts) == 0 {
		return Layout{}.norm()
	}
	c := layouts[0].norm()
	for _, l := range layouts[1:] {
		l = l.norm()
		if l.ThreadsPerProcess != c.ThreadsPerProcess {
			c.ThreadsPerProcess = 1
		}
		if l.GPUsPerThread != c.GPUsPerThread {
			c.GPUsPerThread = 1
		}
		if min(l.Graphs, 1) != min(c.Graphs, 1) {
			c.Graphs = 0 // graphs count alike whatever their number (launchKey)
		}
	}
	return c
}

// Layout returns the layout Predict runs q in: q's fields, each zero one
// taken from the calibration tables when they all share it (the run's
// layout carries over to the prediction), else 1 thread per process, 1 GPU
// per thread and no graphs; NoGraphs is 0. A query across nodes takes its
// threads and GPUs per thread from the tables across nodes alone: one
// process driving a node's GPUs (nccl-tests -g 8) is how one node is often
// measured, while across nodes a job runs one process per GPU unless told
// otherwise. Threads and GPUs per thread taken from the tables that do
// not divide q's GPUs per node (a table of 16 GPUs in one process, a query
// of 8 per node) fall back to 1, and Beyond says that no table ran the
// layout.
func (m *Machine) Layout(q Query) Layout {
	tables := commonLayout(m.spread.layouts)
	if q.Ranks > q.PerNode {
		across := commonLayout(m.spread.acrossLayouts)
		across.Graphs = tables.Graphs
		tables = across
	}
	if l := q.Layout.over(tables).norm(); l.fills(q.PerNode) {
		return l
	}
	return q.Layout.over(Layout{Graphs: tables.Graphs}).norm()
}

// TablesLayouts returns the layouts the calibration tables ran, each once
// (CUDA graphs counting alike whatever their number), in the tables'
// order: one where they share it.
func (m *Machine) TablesLayouts() []Layout { return slices.Clone(m.spread.layouts) }

// seen reports whether a table ran in layout l, graphs counting alike
// whatever their number.
func (s *spread) seen(l Layout) bool {
	return slices.ContainsFunc(s.layouts, func(t Layout) bool { return t.launchKey() == l.launchKey() })
}

// launchKey is l normalised with graphs as 0 or 1: what tells layouts apart
// for the interval.
func (l Layout) launchKey() Layout {
	l = l.norm()
	l.Graphs = min(l.Graphs, 1)
	return l
}
