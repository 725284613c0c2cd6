package article

import (
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

func TestOneShotThresholdFigure(t *testing.T) {
	f, err := OneShotThresholdFigure(figure.Ranks(2, 16), presets.H20Intra)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Series[0]
	// P = 2 has no crossover (+Inf: one-shot never sends more); 3..16 remain.
	if len(s.X) != 14 || s.X[0] != 3 || s.X[13] != 16 {
		t.Fatalf("X = %v", s.X)
	}
	// S*(P) = α·BW/((P-1) - 2(P-1)/P): 1.05e6 B at P = 3, 53333 B at P = 16.
	for i, p := range s.X {
		want := 2e-6 * 350e9 / ((p - 1) - 2*(p-1)/p)
		if !scalar.EqualWithinAbs(s.Y[i], want, 1e-9*want) {
			t.Errorf("S*(%g) = %g, want %g", p, s.Y[i], want)
		}
	}
	if len(f.Marks) != 1 || f.Marks[0].X != 8 {
		t.Errorf("marks %+v", f.Marks)
	}
	if _, err := OneShotThresholdFigure([]int{1, 2}, presets.H20Intra); err == nil {
		t.Error("no error without a rank count above 2")
	}
}

func TestAllReduceFigureTitles(t *testing.T) {
	algs := commmodel.Algorithms(commmodel.AllReduce)
	sizes := figure.Sizes(1<<10, 1<<20, 1)
	// The title carries P and the link: the article's α = 2 µs, BW = 350 GB/s.
	if f := AllReduceTimes(algs, 8, presets.H20Intra, sizes); f.Title != "AllReduce on one 8 x H20 node (model: α = 2 µs, BW = 350 GB/s)" || len(f.Series) != 4 {
		t.Errorf("times: %q, %d series", f.Title, len(f.Series))
	}
	cases := []struct {
		algs []commmodel.Algorithm
		l    commmodel.Link
		want string
	}{
		{algs, presets.H20Intra, "Fastest AllReduce (model, H20 intra-node link)"},
		{RingAndHD, presets.H20Intra, "Ring or halving-doubling? (model, H20 intra-node link)"},
		{algs[2:], commmodel.Link{Alpha: 1e-6, BW: 400e9}, "Fastest of two-shot, one-shot (model, α = 1 µs, BW = 400 GB/s)"},
	}
	for _, c := range cases {
		if got := RegimesFigure(c.algs, figure.Ranks(2, 4), sizes, c.l).Title; got != c.want {
			t.Errorf("regimes title %q, want %q", got, c.want)
		}
	}
}

// The time figure names an H20 node only on the article's link: notebook
// 01's input cell may set another.
func TestAllReduceTimesTitle(t *testing.T) {
	algs := commmodel.Algorithms(commmodel.AllReduce)
	other := commmodel.Link{Alpha: 1e-6, BW: 450e9}
	for l, want := range map[commmodel.Link]string{presets.H20Intra: "AllReduce on one 8 x H20 node (model: α = 2 µs, BW = 350 GB/s)",
		other: "AllReduce on one node of 8 GPUs (model: α = 1 µs, BW = 450 GB/s)"} {
		if got := AllReduceTimes(algs, 8, l, []float64{1, 2}).Title; got != want {
			t.Errorf("title %q, want %q", got, want)
		}
	}
}

// Notebook 01 sets the article's sentences about its measured AllReduce
// beside the model: at P = 8 on the article's link one-shot is 1.31x as fast
// as two-shot at 64 KiB, where the article measured a tie (the measured
// ~10 µs floor hides the step count); two-shot is faster at 256 KiB (the
// crossover is 130 KiB), and the three lower-bound algorithms are within
// 10% at 256 MiB, as measured.
func TestMeasuredAllReduceTable(t *testing.T) {
	tab, err := MeasuredAllReduceTable(8, presets.H20Intra)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 3 {
		t.Fatalf("%d rows, want 3", len(tab.Rows))
	}
	for i, want := range []struct{ model, agree string }{
		{"two-shot / one-shot = 1.31 at 64 KiB", "no"},
		{"two-shot / one-shot = 0.73 at 256 KiB (crossover 130 KiB)", "yes"},
		{"slowest / fastest = 1.018 at 256 MiB", "yes"},
	} {
		if r := tab.Rows[i]; !strings.HasPrefix(r[1], want.model) || r[2] != want.agree {
			t.Errorf("row %d %q, want %q, agree %s", i, r, want.model, want.agree)
		}
	}
}
