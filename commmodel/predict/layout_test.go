package predict

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestReadLayout reads the layout from the header of Together's
// all_reduce_ring.log ("# nThread 1 nGpus 8 ... graph: 0": one process, one
// thread, 8 GPUs), rewritten as nccl-tests prints other runs of the same
// 8 GPUs, and checks that pins override it field by field.
func TestReadLayout(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(pairedDir, "h100-sxm-1x8-together", "all_reduce_ring.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if !strings.Contains(log, "# nThread 1 nGpus 8 ") || !strings.Contains(log, " graph: 0") {
		t.Fatal("all_reduce_ring.log: the header is not -t 1 -g 8 without graphs")
	}
	cases := []struct {
		name     string
		from, to string // the header rewritten
		pins     Pins
		want     Layout
	}{
		{"as measured: -g 8", "", "", Pins{}, Layout{1, 8, 0}},
		{"-t 8 -g 1", "# nThread 1 nGpus 8 ", "# nThread 8 nGpus 1 ", Pins{}, Layout{8, 1, 0}},
		{"-g 8 -G 10", " graph: 0", " graph: 10", Pins{}, Layout{1, 8, 10}},
		{"pinned threads=2:g=4", "", "", Pins{Layout: Layout{ThreadsPerProcess: 2, GPUsPerThread: 4}}, Layout{2, 4, 0}},
		{"pinned graph=0 on -G 10", " graph: 0", " graph: 10", Pins{Layout: Layout{Graphs: NoGraphs}}, Layout{1, 8, 0}},
	}
	for _, c := range cases {
		text := log
		if c.from != "" {
			text = strings.Replace(log, c.from, c.to, 1)
		}
		tabs, _, err := ReadBytes([]byte(text), "all_reduce_ring.log", func(int) Pins { return c.pins })
		if err != nil || len(tabs) != 1 {
			t.Fatalf("%s: %d tables, %v", c.name, len(tabs), err)
		}
		if got := tabs[0].Layout; got != c.want {
			t.Errorf("%s: layout %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestLayoutPhysics calibrates on Together's two Ring AllReduce tables (one
// thread driving 8 GPUs, -g 8) and checks that predictions follow the
// launch floor of the package documentation, T = max(φ·G, L + W): the floor
// scales with the GPUs of one thread, not with the threads (threads launch
// in parallel), CUDA graphs drop it, and bandwidth-bound calls do not see
// the layout at all.
func TestLayoutPhysics(t *testing.T) {
	h, tables := togetherTables(t, "all_reduce_ring", "all_reduce_nvls")
	m, err := Calibrate(h, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	phi := m.Params[parLaunch].Value
	at := func(l Layout, size float64) Prediction {
		t.Helper()
		p, err := m.Predict(Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Layout: l}, []float64{size})
		if err != nil {
			t.Fatal(err)
		}
		return p[0]
	}
	const small, large = 1 << 10, 1 << 30
	tables8, one := at(Layout{}, small), at(Layout{GPUsPerThread: 1}, small)
	// The floor binds at 1 KiB with -g 8: the smooth maximum (sharpness 16)
	// of 8φ and an L+W under half of it is 8φ to a part in 10⁴.
	if !(one.Time < 0.5*8*phi) {
		t.Fatalf("1 KiB with -g 1: %.3g us, want under half of 8φ = %.3g us for the floor to bind", one.Time*1e6, 8*phi*1e6)
	}
	if !scalar.EqualWithinAbs(tables8.Time, 8*phi, 1e-4*8*phi) {
		t.Errorf("1 KiB with the tables' -g 8: %.4g us, want 8φ = %.4g us", tables8.Time*1e6, 8*phi*1e6)
	}
	for _, c := range []struct {
		name string
		l    Layout
		want Prediction // the same time
	}{
		{"-g 8, stated", Layout{ThreadsPerProcess: 1, GPUsPerThread: 8, Graphs: NoGraphs}, tables8},
		{"-t 8 -g 1: threads launch in parallel", Layout{ThreadsPerProcess: 8, GPUsPerThread: 1}, one},
		{"-g 8 -G 1: graphs drop the floor", Layout{GPUsPerThread: 8, Graphs: 1}, at(Layout{GPUsPerThread: 1, Graphs: 1}, small)},
	} {
		if got := at(c.l, small); got.Time != c.want.Time {
			t.Errorf("%s: 1 KiB in %.4g us, want %.4g us", c.name, got.Time*1e6, c.want.Time*1e6)
		}
	}
	if g := at(Layout{GPUsPerThread: 1, Graphs: 1}, small); !(g.Time <= one.Time) {
		t.Errorf("1 KiB with graphs: %.4g us, want no more than -g 1's %.4g us", g.Time*1e6, one.Time*1e6)
	}
	base := at(Layout{}, large)
	for _, l := range []Layout{{GPUsPerThread: 1}, {ThreadsPerProcess: 8, GPUsPerThread: 1}, {Graphs: 1}} {
		if got := at(l, large); !scalar.EqualWithinAbs(got.Time, base.Time, 1e-6*base.Time) {
			t.Errorf("1 GiB in %+v: %.4g ms, want the tables' %.4g ms", l, got.Time*1e3, base.Time*1e3)
		}
	}
	// A layout no table ran widens the interval (interval.go, layoutSpread).
	if w, w8 := one.High/one.Low, tables8.High/tables8.Low; !(w > w8) {
		t.Errorf("interval at -g 1 spans %.3g, at the tables' -g 8 %.3g; want it wider beyond the tables", w, w8)
	}
}

// TestLayoutAllToAllEnqueue: a thread enqueues a send and a receive to
// every other rank for each GPU it drives, so an AllToAll's launch floor is
// G·(1 + 2(n-1)·p2pEnqueue) launches, G the GPUs of one thread. Calibrated
// on SuperBench's -g 8 AllGather (8 A100s, a real log), the AllToAll of its
// twin fixture, whose table p2pEnqueue came from, is predicted at its
// median of 87.33 us within 5% from 32 B to 2 MiB; one process a GPU takes
// an eighth of the floor, and CUDA graphs none.
func TestLayoutAllToAllEnqueue(t *testing.T) {
	const dir = "../../data/nccltests/testdata/real/"
	h, ag := pinnedTable(t, dir+"a100_1x8_g8_allgather_oldcolumns_superbench.log", Pins{})
	a2a := firstTable(t, dir+"a100_1x8_g8_alltoall_oldcolumns_superbench.log")
	m, err := Calibrate(h, []Table{ag}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []float64
	for s := 32.0; s <= 2<<20; s *= 2 {
		sizes = append(sizes, s)
	}
	preds, err := m.Predict(a2a.Query(), sizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range preds {
		if math.Abs(p.Time/87.33e-6-1) > 0.05 || p.Bound != TermLaunch {
			t.Errorf("AllToAll of %g B: %.4g us bound by %s, want 87.33 us within 5%%, by the launch", p.Size, p.Time*1e6, p.Bound)
		}
	}
	floor := m.Params[parLaunch].Value * 8 * (1 + 14*p2pEnqueue)
	if !scalar.EqualWithinAbs(preds[0].Time, floor, 1e-3*floor) {
		t.Errorf("AllToAll of 32 B: %.4g us, want the floor 8φ(1 + 14·%.3f) = %.4g us", preds[0].Time*1e6, p2pEnqueue, floor*1e6)
	}
	at := func(l Layout) float64 {
		q := a2a.Query()
		q.Layout = l
		p, err := m.Predict(q, sizes[:1])
		if err != nil {
			t.Fatal(err)
		}
		return p[0].Time
	}
	if one := at(Layout{GPUsPerThread: 1}); !(one < floor/4) {
		t.Errorf("one process a GPU: %.4g us, want under a quarter of the -g 8 floor %.4g us", one*1e6, floor*1e6)
	}
	if g := at(Layout{Graphs: 1}); !(g < floor/4) {
		t.Errorf("-G 1: %.4g us, want the floor dropped", g*1e6)
	}
}

// TestLayoutGraphTables: tables measured with CUDA graphs have no launch
// floor, so they say nothing of the launch time, which stays at its prior
// and is named in the notes.
func TestLayoutGraphTables(t *testing.T) {
	h, tables := togetherTables(t, "all_reduce_ring", "all_reduce_nvls")
	for i := range tables {
		tables[i].Graphs = 1
	}
	m, err := Calibrate(h, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Params[parLaunch]; p.Value != p.Prior || p.Identified {
		t.Errorf("launch %.3g s (prior %.3g s, identified %v); want the prior, unidentified", p.Value, p.Prior, p.Identified)
	}
	if l := m.Layout(Query{PerNode: 8}); l != (Layout{1, 8, 1}) {
		t.Errorf("the tables' layout %+v, want 1 thread of 8 GPUs with graphs", l)
	}
	if l := m.Layout(Query{PerNode: 8, Layout: Layout{Graphs: NoGraphs}}); l != (Layout{1, 8, 0}) {
		t.Errorf("NoGraphs on the tables' layout: %+v, want 1 thread of 8 GPUs without graphs", l)
	}
	noted := false
	for _, n := range m.Notes {
		noted = noted || strings.HasPrefix(n, "no table depends on launch")
	}
	if !noted {
		t.Errorf("notes %q: want launch among those no table depends on", m.Notes)
	}
}

// TestLayoutErrors: a layout the query gives whose processes do not fill
// a node, and negative counts, are ErrLayout; the tables' layout that does
// not fill the query's node falls back to one GPU per thread, which Beyond
// names.
func TestLayoutErrors(t *testing.T) {
	h, tables := togetherTables(t, "all_reduce_ring")
	m, err := Calibrate(h, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []Query{
		{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Layout: Layout{ThreadsPerProcess: 3}}, // 3·8 GPUs per process
		{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Layout: Layout{GPUsPerThread: -1}},
		{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Layout: Layout{Graphs: -2}},
	} {
		if _, err := m.Predict(q, []float64{1024}); !errors.Is(err, ErrLayout) {
			t.Errorf("%+v: %v, want ErrLayout", q, err)
		}
	}
	four := Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 4} // the tables' -g 8 on 4 GPUs per node
	if l := m.Layout(four); l != (Layout{1, 1, 0}) {
		t.Errorf("the tables' -g 8 on 4 GPUs per node: %+v, want 1 thread of 1 GPU", l)
	}
	if b, err := m.Beyond(four); err != nil || !slices.ContainsFunc(b, func(s string) bool { return strings.Contains(s, "1 thread a process of 1 GPU each") }) {
		t.Errorf("the tables' -g 8 on 4 GPUs per node: Beyond %q, %v; want the layout named", b, err)
	}
	if got := (Layout{ThreadsPerProcess: 2, GPUsPerThread: 4}).Processes(16); got != 2 {
		t.Errorf("16 ranks of 2 threads of 4 GPUs: %d processes, want 2", got)
	}
}

// TestLayoutAcrossNodes: Together's tables ran one thread driving a node's
// 8 GPUs (-g 8, the header's nGpus 8). A query on that node keeps it; a
// query across 2 nodes runs one process per GPU, as a job across nodes
// does unless told otherwise, and -g given in the query wins.
func TestLayoutAcrossNodes(t *testing.T) {
	h, tables := togetherTables(t, "all_reduce_ring", "all_gather_ring")
	m, err := Calibrate(h, tables, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	if ls := m.TablesLayouts(); len(ls) != 1 || ls[0].GPUsPerThread != 8 || ls[0].ThreadsPerProcess != 1 {
		t.Fatalf("tables' layouts %+v, want one: 1 thread of 8 GPUs", ls)
	}
	one := Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}
	if l := m.Layout(one); l.GPUsPerThread != 8 {
		t.Errorf("one node: %+v, want the tables' 8 GPUs per thread", l)
	}
	two := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	if l := m.Layout(two); l.GPUsPerThread != 1 || l.ThreadsPerProcess != 1 || l.Processes(16) != 16 {
		t.Errorf("two nodes: %+v, want 16 processes of 1 GPU", l)
	}
	two.Layout = Layout{GPUsPerThread: 8}
	if l := m.Layout(two); l.GPUsPerThread != 8 {
		t.Errorf("two nodes with -g 8: %+v, want 8 GPUs per thread", l)
	}
}

// TestLayoutGraphCounts: two tables that both ran the timed loop as CUDA
// graphs, replayed 10 and 1 times (nccl-tests -G 10, -G 1), share a
// layout, since graphs count alike whatever their number: the prediction
// runs with graphs, and no note says that no table ran its layout.
func TestLayoutGraphCounts(t *testing.T) {
	tr := truth(t)
	sizes := []float64{1 << 10, 1 << 20, 1 << 26}
	a := timedTable(t, tr, "g10", commmodel.AllReduce, 1, 8, 1, sizes)
	b := timedTable(t, tr, "g1", commmodel.AllGather, 1, 8, 1, sizes)
	a.Layout.Graphs, b.Layout.Graphs = 10, 1
	m, err := Calibrate(tr.Hardware, []Table{a, b}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}
	if ls, l := m.TablesLayouts(), m.Layout(q); len(ls) != 1 || l.Graphs == 0 {
		t.Errorf("tables' layouts %+v, prediction's %+v; want one, and graphs", ls, l)
	}
	if b, err := m.Beyond(q); err != nil || len(b) != 0 {
		t.Errorf("Beyond = %q, %v; want nothing", b, err)
	}
}

// TestBoundNotLaunchUnderTime: the bound is the launch floor only where the
// floor sets the time, not where it is merely the largest single term: an
// AllToAll of 1 MiB on 2 x 8 A100s takes as long with -g 4 as with -g 1
// (its latency and bytes together outlast the floor of 4 launches and
// their sends), and both name the same bound.
func TestBoundNotLaunchUnderTime(t *testing.T) {
	h, err := Describe("NVIDIA A100-SXM4-40GB", "")
	if err != nil {
		t.Fatal(err)
	}
	m := Uncalibrated(h)
	at := func(g int) Prediction {
		p, err := m.Predict(Query{Collective: commmodel.AllToAll, Ranks: 16, PerNode: 8, Layout: Layout{GPUsPerThread: g}}, []float64{1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return p[0]
	}
	one, four := at(1), at(4)
	if math.Abs(four.Time/one.Time-1) > 0.01 || four.Bound != one.Bound || four.Bound == TermLaunch {
		t.Errorf("-g 4: %.4g us bound by %s; -g 1: %.4g us by %s; want the same time and bound, not the launch", four.Time*1e6, four.Bound, one.Time*1e6, one.Bound)
	}
}

// TestTableNoGraphs: NoGraphs asks a Query or Pins for no graphs; in a
// Table 0 says none, and -1 was taken as a layout (red team D §12). It is
// ErrBadTable.
func TestTableNoGraphs(t *testing.T) {
	h := h100(t)
	tab := timedTable(t, Uncalibrated(h), "ar", commmodel.AllReduce, 1, 8, 1, []float64{1 << 10, 1 << 20, 1 << 30})
	tab.Graphs = NoGraphs
	if _, err := Calibrate(h, []Table{tab}, nil); !errors.Is(err, ErrBadTable) || !strings.Contains(err.Error(), "-1 graphs") {
		t.Errorf("Table.Graphs NoGraphs: Calibrate: %v, want ErrBadTable", err)
	}
}
