package article

import (
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

// The article's points (data/article_h20.csv) against direct AllToAll on the
// default links. On one node the model is T = α + (P-1)/P·S/BW with the
// article's α = 2 µs and BW = 350 GB/s (presets.H20Intra); the article puts
// the gap at "1.3-4x" (data statement alltoall-model-too-fast).
func TestDirectRatios(t *testing.T) {
	rs, err := DirectRatios(presets.H20Cluster(2), data.Article().Select(data.Filter{Collective: "alltoall"}).Frame())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 7 {
		t.Fatalf("%d points, want the article's 4 + 3", len(rs))
	}
	for _, r := range rs[:4] {
		s := float64(r.Point.Size)
		want := r.Point.Time / (2e-6 + 7.0/8*s/350e9)
		if !scalar.EqualWithinAbs(r.Ratio, want, 1e-12*want) {
			t.Errorf("8 GPUs, %g B: ratio %g, want %g", s, r.Ratio, want)
		}
	}
	// 2 x 8: the network half of S at 20 GB/s after 15 µs (the article: the
	// 128 MB point is 4409 µs measured against 3.4 ms from the network half).
	last := rs[6]
	if want := 15e-6 + float64(last.Point.Size)/2/20e9; !scalar.EqualWithinAbs(last.Model, want, 1e-12*want) {
		t.Errorf("2 x 8, 128 MiB: model %g s, want %g", last.Model, want)
	}
	lo, hi := RatioRange(rs)
	// The article's 1.3-4x, read at the ends: 64 MiB on 8 GPUs is 216 µs
	// against 169.8 µs (1.27x) and 64 KiB is 9.5 µs against 2.16 µs (4.39x).
	if !scalar.EqualWithinAbs(lo, 1.27, 0.01) || !scalar.EqualWithinAbs(hi, 4.39, 0.01) {
		t.Errorf("ratios %.3f-%.3f, want 1.27-4.39", lo, hi)
	}
}

// The article: alpha ~10 µs and BW ~280 GB/s fit the 8-GPU points better
// (data statements alltoall-fit-alpha, alltoall-fit-bw). The fit through
// direct AllToAll must land within 10% of both and beat the default link.
func TestFitThroughDirect(t *testing.T) {
	df := articleAllToAll(1)
	samples, err := data.Samples(df)
	if err != nil {
		t.Fatal(err)
	}
	f, err := fit.Through(commmodel.Direct{}, 8, samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	refit, err := ArticleRefit()
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbs(refit.Alpha, 10e-6, 1e-9*10e-6) || !scalar.EqualWithinAbs(refit.BW, 280e9, 1e-9*280e9) {
		t.Errorf("article's refit link %+v, want 10 µs and 280 GB/s", refit)
	}
	if l := f.Link(); !scalar.EqualWithinAbs(l.Alpha, refit.Alpha, 0.1*refit.Alpha) || !scalar.EqualWithinAbs(l.BW, refit.BW, 0.1*refit.BW) {
		t.Errorf("fitted %+v, want within 10%% of %+v", l, refit)
	}
	if f.MaxRelErr > 0.15 {
		t.Errorf("fit's largest relative error %.3f, want <= 15%%", f.MaxRelErr)
	}
	joined, err := FitFrame(presets.H20Intra, f, refit, df)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := FitTable(joined)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FitTable(df); err == nil {
		t.Error("FitTable of a frame without model columns: no error")
	}
	if len(tab.Rows) != 4 || tab.Rows[0][3] != "-77.2%" {
		// 2.164 µs against 9.5 µs: (2.164-9.5)/9.5 = -77.2%.
		t.Errorf("fit table rows %v", tab.Rows)
	}
}

// In the pure alpha-beta model hierarchical AllToAll has one more step and
// (p-1)/p·S more NVLink bytes than direct and the same network bytes, so it
// never wins. With a per-message network overhead o (direct sends p·(N-1) = 8
// network messages, hierarchical N-1 = 1) the difference is
//
//	T_direct - T_hier = 7·o - α_intra - (7/8)·S/BW_intra
//
// so hierarchical wins below S* = (7·o - α_intra)·BW_intra·8/7.
func TestHierarchicalCrossover(t *testing.T) {
	c := presets.H20Cluster(2)
	if x, ok := HierarchicalCrossover(c); ok {
		t.Errorf("hierarchical beats direct below %g B without overhead", x)
	}
	for _, o := range []float64{5e-6, 10e-6, 20e-6} {
		c.Inter.Overhead = o
		want := (7*o - c.Intra.Alpha) * c.Intra.BW * 8 / 7
		got, ok := HierarchicalCrossover(c)
		if !ok || !scalar.EqualWithinAbs(got, want, 1e-6*want) {
			t.Errorf("o = %g: crossover %g (%v), want %g", o, got, ok, want)
		}
		// The root finder's answer is a crossing of the two curves.
		d := c.Time(commmodel.Direct{}, got) - c.Time(commmodel.HierarchicalAllToAll{PerNode: 8}, got)
		if !scalar.EqualWithinAbs(d, 0, 1e-12) {
			t.Errorf("o = %g: curves differ by %g s at the crossover", o, d)
		}
	}
	c.Inter.Overhead = 0
	o, ok := OverheadFor(c, ArticleHierarchicalLoses)
	c.Inter.Overhead = o
	if x, _ := HierarchicalCrossover(c); !ok || !scalar.EqualWithinAbs(x, ArticleHierarchicalLoses, 1e-6*ArticleHierarchicalLoses) {
		t.Errorf("OverheadFor(16 MiB) = %g (%v) gives a crossover at %g B", o, ok, x)
	}
}

// The overhead fit keeps direct's time: α_inter + m·o must equal the fitted
// constant, so direct on the fitted cluster reproduces the fit's predictions
// at the article's 2 x 8 points (data/article_h20.csv).
func TestFitOverhead(t *testing.T) {
	c := presets.H20Cluster(2)
	samples, err := data.Samples(articleAllToAll(2))
	if err != nil {
		t.Fatal(err)
	}
	of, err := FitOverhead(c, samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	if of.Messages != 8 { // p·(N-1) = 8 remote GPUs (the article: 64 messages per node pair)
		t.Errorf("direct sends %d network messages per GPU, want 8", of.Messages)
	}
	for i, s := range of.Fit.Samples {
		if got := of.Cluster.Time(commmodel.Direct{}, s.Size); !scalar.EqualWithinAbs(got, of.Fit.Predicted[i], 1e-9*of.Fit.Predicted[i]) {
			t.Errorf("%g B: direct on the fitted cluster %g s, fit predicts %g", s.Size, got, of.Fit.Predicted[i])
		}
	}
	if of.Cluster.Inter.Overhead <= 0 || of.Cluster.Inter.Alpha != c.Inter.Alpha {
		t.Errorf("fitted inter link %+v", of.Cluster.Inter)
	}
}

// On one node the rail gather is the whole of hierarchical AllToAll, a
// direct AllToAll among the node's GPUs (its network stage is empty), so the
// figure shows one line for both and says so.
func TestAllToAllFigureOneNode(t *testing.T) {
	one := presets.H20Cluster(1)
	f := AllToAllFigure("one node", AllToAllAlgorithms(8), one, figure.Sizes(1<<10, 1<<20, 1), nil)
	if len(f.Series) != 3 || !strings.Contains(f.Title, "hierarchical = direct") {
		t.Errorf("series %d, title %q; want direct, pairwise, bruck and the equality in the title", len(f.Series), f.Title)
	}
	f = AllToAllFigure("two nodes", AllToAllAlgorithms(8), presets.H20Cluster(2), figure.Sizes(1<<10, 1<<20, 1), nil)
	if len(f.Series) != 4 {
		t.Errorf("2 x 8: %d series, want all four algorithms", len(f.Series))
	}
}

func TestExhibits04(t *testing.T) {
	t.Parallel()
	ex, err := notebookExhibits("04_alltoall")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ex {
		if !strings.HasPrefix(e.Name, "04-") {
			t.Errorf("exhibit %q lacks the notebook prefix", e.Name)
		}
		if e.Figure != nil {
			if _, err := e.Figure.PNG(); err != nil {
				t.Errorf("%s: %v", e.Name, err)
			}
		}
	}
	f := HierarchicalFigure(commmodel.Cluster{Nodes: 2, PerNode: 8, Intra: presets.H20Intra,
		Inter: commmodel.Link{Alpha: 15e-6, BW: 20e9, Overhead: 10e-6}}, figure.Sizes(1<<10, 1<<30, 2), nil)
	want := (7*10e-6 - 2e-6) * 350e9 * 8 / 7 // the closed form above
	found := false
	for _, m := range f.Marks {
		found = found || scalar.EqualWithinAbs(m.X, want, 1e-6*want)
	}
	if !found {
		t.Errorf("no mark at the crossover %g B: %+v", want, f.Marks)
	}
}

// Notebook 04 takes its node size from one cell (perNode); the article's
// points ran on nodes of 8 whatever it says. RanksPerNode reads the 8 from
// the points, and DirectRatios sets each point against the GPUs it ran on:
// on a cluster of nodes of 4, the same ratios as on nodes of 8.
func TestMeasuredNodeSize(t *testing.T) {
	all := data.Article().Select(data.Filter{Collective: "alltoall"}).Frame()
	if per, err := RanksPerNode(all); err != nil || per != 8 {
		t.Errorf("RanksPerNode = %d, %v; want 8", per, err)
	}
	want, err := DirectRatios(presets.H20Cluster(2), all)
	if err != nil {
		t.Fatal(err)
	}
	c := presets.H20Cluster(2)
	c.PerNode = 4
	got, err := DirectRatios(c, all)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i].Model != want[i].Model {
			t.Errorf("%s on nodes of 4: model %g s, want %g (the point's own 8 GPUs per node)", gpus(got[i].Point), got[i].Model, want[i].Model)
		}
	}
	// Points of two node sizes have no one size.
	mixed := data.Points{{Collective: "alltoall", NRanks: 8, NNodes: 1, Size: 1, Time: 1}, {Collective: "alltoall", NRanks: 8, NNodes: 2, Size: 1, Time: 1}}
	if _, err := RanksPerNode(mixed.Frame()); err == nil {
		t.Error("RanksPerNode of nodes of 8 and of 4: no error")
	}
}
