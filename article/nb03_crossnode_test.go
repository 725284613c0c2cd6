package article

import (
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
	"gonum.org/v1/gonum/floats/scalar"
)

// The article: hierarchical AllReduce cuts the network bytes to ~1/P_intra;
// the exact ratio (HierarchicalAllReduce's doc) is (N-1)/(Np-1), 1/15 at 2 x 8.
func TestNetworkBytesRatio(t *testing.T) {
	nodes := []int{2, 3, 4, 8, 16, 64}
	tab := NetworkBytesTable(presets.H20Cluster(1), nodes)
	if len(tab.Rows) != len(nodes) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(nodes))
	}
	for i, n := range nodes {
		c := presets.H20Cluster(n)
		const s = 64 << 20
		flat := c.NetworkBytes(commmodel.Ring{}, s)
		hier := c.NetworkBytes(commmodel.HierarchicalAllReduce{PerNode: 8}, s)
		// flat ring: 2(Np-1)/(Np)·S; hierarchical: 2(N-1)/N·S/p (the article's three steps)
		np := float64(8 * n)
		if !scalar.EqualWithinAbs(flat, 2*(np-1)/np*s, 1e-12*(2*(np-1)/np*s)) || !scalar.EqualWithinAbs(hier, 2*float64(n-1)/float64(n)*s/8, 1e-12*(2*float64(n-1)/float64(n)*s/8)) {
			t.Errorf("N = %d: network bytes flat %g, hierarchical %g", n, flat, hier)
		}
		if want := float64(n-1) / (np - 1); !scalar.EqualWithinAbs(hier/flat, want, 1e-12*want) {
			t.Errorf("N = %d: ratio %g, want (N-1)/(Np-1) = %g", n, hier/flat, want)
		}
		if tab.Rows[i][4] != tab.Rows[i][5] {
			t.Errorf("N = %d: table ratio %q differs from the closed form %q", n, tab.Rows[i][4], tab.Rows[i][5])
		}
	}
	if got := tab.Rows[0][4]; !strings.HasPrefix(got, "1/15.0") {
		t.Errorf("2 x 8 ratio cell %q, want 1/15.0 (the brief: 1/15 at 2 x 8)", got)
	}
}

// Flat two-shot against flat halving-doubling on 2 x 8 with the article's links:
//
//	two-shot: 2 network steps, each α_net + (8/16)·S/BW_net       = 30 µs + S/20 GB/s
//	HD:       3 + 3 NVLink steps of 2 µs and 1.75·S/350 GB/s, plus
//	          2 network steps of 15 µs carrying S/8 at 20 GB/s      = 42 µs + S·(5 + 6.25) ps
//
// so the fastest changes at S* = 12 µs / (50 - 11.25) ps = 309,677 B.
func TestCrossNodeTimesMarksCrossover(t *testing.T) {
	c := presets.H20Cluster(2)
	algs := CrossNodeAlgorithms(8)
	f := CrossNodeTimes(c, algs, figure.Sizes(1<<10, 1<<30, 2))
	if len(f.Series) != len(algs) {
		t.Fatalf("%d series for %d algorithms", len(f.Series), len(algs))
	}
	want := 12e-6 / (1/20e9 - 1.75/350e9 - 1/160e9)
	if len(f.Marks) != 1 || !scalar.EqualWithinAbs(f.Marks[0].X, want, 1e-6*want) {
		t.Fatalf("marks %v, want one at %.0f B", f.Marks, want)
	}
	below, _ := commmodel.Fastest(algs, c, want*0.9)
	above, _ := commmodel.Fastest(algs, c, want*1.1)
	if below.Name() != "two-shot" || above.Name() != "halving-doubling" {
		t.Errorf("fastest %s below and %s above the mark, want two-shot and halving-doubling", below.Name(), above.Name())
	}
	if _, err := f.PNG(); err != nil {
		t.Fatal(err)
	}
}

// On one node commmodel.Fastest on the cluster is Fastest on the intra link.
func TestFastestOneNode(t *testing.T) {
	algs := commmodel.Algorithms(commmodel.AllReduce)
	for _, p := range []int{2, 3, 4, 8} {
		c := commmodel.Cluster{Nodes: 1, PerNode: p, Intra: presets.H20Intra, Inter: presets.H20Inter}
		for _, s := range []float64{0, 1 << 10, 56 << 10, 1 << 20, 1 << 30} {
			a, ta := commmodel.Fastest(algs, c, s)
			b, tb := commmodel.Fastest(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: p, Link: presets.H20Intra}, s)
			if a.Name() != b.Name() || !scalar.EqualWithinAbs(ta, tb, 1e-12*tb) {
				t.Errorf("P = %d, S = %g: %s %g, Fastest %s %g", p, s, a.Name(), ta, b.Name(), tb)
			}
		}
	}
}

// The article: egress ÷17.5 and α ×7.5 across nodes. The NIC arithmetic:
// 18 NVLinks × 20.6 GB/s (NCCL's SM90 NVLink) = 370.8 GB/s inside; a 2 x 200
// Gb/s bond (50 GB/s) shared by the 2 GPUs of a NIC = 25 GB/s across: ÷14.83.
func TestLinkComparison(t *testing.T) {
	lc, err := CompareLinks(topo.H20Article(), topo.H20Figures, presets.H20Intra, presets.H20Inter)
	if err != nil {
		t.Fatal(err)
	}
	if r := lc.ArticleIntra.BW / lc.ArticleInter.BW; !scalar.EqualWithinAbs(r, 17.5, 1e-12*17.5) {
		t.Errorf("article BW ratio %g, want 17.5", r)
	}
	if r := lc.ArticleInter.Alpha / lc.ArticleIntra.Alpha; !scalar.EqualWithinAbs(r, 7.5, 1e-12*7.5) {
		t.Errorf("article α ratio %g, want 7.5", r)
	}
	if !scalar.EqualWithinAbs(lc.Levels.Intra.BW, 18*20.6e9, 1e-12*18*20.6e9) || !scalar.EqualWithinAbs(lc.Levels.Inter.BW, 25e9, 1e-12*25e9) || lc.Levels.GPUsPerNIC != 2 {
		t.Errorf("NIC arithmetic: intra %g, inter %g, %d GPUs per NIC; want 370.8e9, 25e9, 2", lc.Levels.Intra.BW, lc.Levels.Inter.BW, lc.Levels.GPUsPerNIC)
	}
	tab := lc.Table()
	if got := tab.Rows[2]; got[1] != "÷17.5" || got[2] != "÷14.8" {
		t.Errorf("ratio row %q, want ÷17.5 and ÷14.8", got)
	}
	art, der := lc.clusters(2)
	if art != presets.H20Cluster(2) || der.Inter.BW != 25e9 {
		t.Errorf("clusters %+v, %+v", art, der)
	}
	if _, err := CompareLinks(mustTopology(t, 0), topo.H20Figures, presets.H20Intra, presets.H20Inter); err == nil {
		t.Error("a topology without NICs: want an error")
	}
}

func mustTopology(t *testing.T, nics int) *topo.Topology {
	t.Helper()
	var gpus, ns []topo.Device
	for i := range 2 {
		gpus = append(gpus, topo.Device{Kind: topo.GPU, Index: i, Name: "GPU" + string(rune('0'+i)), NUMA: -1})
	}
	for i := range nics {
		ns = append(ns, topo.Device{Kind: topo.NIC, Index: i, Name: "NIC" + string(rune('0'+i)), NUMA: -1})
	}
	tp, err := topo.New(gpus, ns)
	if err != nil {
		t.Fatal(err)
	}
	tp.SetPath(gpus[0], gpus[1], topo.NV(18))
	return tp
}

// The hierarchical stages on 2 x 8 at 64 MiB (the article's three steps):
// reduce-scatter on NVLink, 7 steps, 7/8·S = 56 MiB, 7·2 µs + 56 MiB/350 GB/s;
// AllReduce of S/8 on the network, 2 steps, 8 MiB, 2·15 µs + 8 MiB/20 GB/s;
// all-gather as the reduce-scatter.
func TestStagesTable(t *testing.T) {
	c := presets.H20Cluster(2)
	const s = 64 << 20
	hier := commmodel.HierarchicalAllReduce{PerNode: 8}
	tab := StagesTable(c, []commmodel.Algorithm{commmodel.Ring{}, hier}, s)
	if len(tab.Rows) != 2+4 {
		t.Fatalf("%d rows, want 2 (flat ring) + 4 (hierarchical)", len(tab.Rows))
	}
	rs, net := tab.Rows[2], tab.Rows[3]
	if rs[2] != "NVLink" || rs[3] != "7" || rs[4] != "56 MiB" || rs[8] != units.FormatDuration(14e-6+7.0/8*s/350e9) {
		t.Errorf("reduce-scatter row %q", rs)
	}
	if net[2] != "network" || net[3] != "2" || net[5] != "8 MiB" || net[8] != units.FormatDuration(30e-6+s/8/20e9) {
		t.Errorf("network row %q", net)
	}
	if tot := tab.Rows[5]; tot[8] != units.FormatDuration(c.Time(hier, s)) || tot[5] != "8 MiB" {
		t.Errorf("total row %q, want %s", tot, units.FormatDuration(c.Time(hier, s)))
	}
	if flat := tab.Rows[0]; flat[2] != "both at once" || flat[3] != "30" {
		t.Errorf("flat ring row %q, want both levels at once, 2(16-1) = 30 steps", flat)
	}
}

// At S = 0 both are step counts: flat ring 2(Np-1) network steps; hierarchical
// 2(p-1) NVLink steps and 2(N-1) network steps. On one node they are the same.
func TestNodeSweep(t *testing.T) {
	w := NodeSweep{Cluster: presets.H20Cluster(1), Flat: commmodel.Ring{}, Hier: commmodel.HierarchicalAllReduce{PerNode: 8},
		Nodes: []int{1, 2, 64}, Sizes: []float64{0, 1 << 28}}
	for _, n := range w.Nodes {
		fl, h := w.times(n, 0)
		a, ai := presets.H20Inter.Alpha, presets.H20Intra.Alpha
		wantF, wantH := float64(2*(8*n-1))*a, float64(2*(n-1))*a+14*ai
		if n == 1 {
			wantF = 14 * ai
		}
		if !scalar.EqualWithinAbs(fl, wantF, 1e-12*wantF) || !scalar.EqualWithinAbs(h, wantH, 1e-12*wantH) {
			t.Errorf("N = %d: flat %g, hierarchical %g; want %g, %g", n, fl, h, wantF, wantH)
		}
	}
	f := w.SpeedupFigure()
	if len(f.Series) != 2 || f.Series[0].Y[0] != 1 || f.Series[1].Y[0] != 1 {
		t.Errorf("speed-up on one node %v, want 1", f.Series)
	}
	if tab := w.Table(); len(tab.Rows) != 3 || len(tab.Header) != 2+3*2 {
		t.Errorf("table %d rows x %d columns", len(tab.Rows), len(tab.Header))
	}
}

func TestCrossNodeLabel(t *testing.T) {
	for a, want := range map[commmodel.Algorithm]string{
		commmodel.Ring{}: "flat ring",
		commmodel.HierarchicalAllReduce{PerNode: 8}:                                     "hierarchical + ring",
		commmodel.HierarchicalAllReduce{PerNode: 8, Inter: commmodel.HalvingDoubling{}}: "hierarchical + halving-doubling",
	} {
		if got := CrossNodeLabel(a); got != want {
			t.Errorf("%#v: %q, want %q", a, got, want)
		}
	}
}

func TestExhibits03(t *testing.T) {
	t.Parallel()
	checkExhibits(t, "03_crossnode", 9)
}

// TestExecutedTable: on 2 x 8 GPUs at 1 MiB every algorithm of notebook 03
// runs right, its executed steps are the model's, and its replayed time is
// Cluster.Time to 1e-12: the schedules' replay and the formulas are two
// routes to one time (the replay is held to Cluster.Time for every
// algorithm in commmodel/schedule's tests; this holds the table to them).
func TestExecutedTable(t *testing.T) {
	t.Parallel()
	algs := CrossNodeAlgorithms(8)
	tab, err := ExecutedTable(presets.H20Cluster(2), algs, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != len(algs) {
		t.Fatalf("%d rows, want %d", len(tab.Rows), len(algs))
	}
	for _, row := range tab.Rows {
		steps := strings.Split(row[2], " / ")
		diff, err := strconv.ParseFloat(row[6], 64)
		if row[1] != "yes" || len(steps) != 2 || steps[0] != steps[1] || err != nil || diff > 1e-12 {
			t.Errorf("%v", row)
		}
	}
}

// Notebook 03's sweep at 256 MiB: the speed-up peaks at N = 2 (8.3x), falls
// to its least near N = 16 (6.1x), above the bandwidth terms' 5.7 (2/20 ÷
// (1.75/350 + 2/(8·20))), and climbs again (6.4x at N = 64): at any fixed
// size the flat ring's 2(Np-1) network steps against the hierarchy's 2(N-1)
// take it towards p = 8 as N grows, which the notebook's prose says.
func TestNodeSweepLargeSize(t *testing.T) {
	nodes := []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 1 << 12}
	w := NodeSweep{Cluster: presets.H20Cluster(1), Flat: commmodel.Ring{}, Hier: commmodel.HierarchicalAllReduce{PerNode: 8},
		Nodes: nodes, Sizes: []float64{1 << 28}}
	sp := map[int]float64{}
	least := 2
	for _, n := range nodes {
		fl, h := w.times(n, 1<<28)
		sp[n] = fl / h
		if n > 1 && n <= 64 && sp[n] < sp[least] {
			least = n
		}
	}
	bw := (2.0 / 20) / (1.75/350 + 2.0/(8*20))
	if !scalar.EqualWithinAbs(bw, 5.714, 1e-3) {
		t.Errorf("bandwidth-only limit %.3f, want 5.714", bw)
	}
	if least != 16 || !scalar.EqualWithinAbs(sp[16], 6.1, 0.05) || sp[16] <= bw {
		t.Errorf("least speed-up at N = %d (%.2fx), want N = 16, 6.1x, above %.2f", least, sp[least], bw)
	}
	if !scalar.EqualWithinAbs(sp[2], 8.3, 0.05) || !scalar.EqualWithinAbs(sp[64], 6.4, 0.05) || !(sp[1<<12] > 7.5 && sp[1<<12] < 8) {
		t.Errorf("speed-up %.2fx at N = 2, %.2fx at 64, %.2fx at 4096; want 8.3, 6.4 and towards 8", sp[2], sp[64], sp[1<<12])
	}
}
