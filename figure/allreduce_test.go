package figure

import (
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

var arAlgs = commmodel.Algorithms(commmodel.AllReduce)

func TestModelTable(t *testing.T) {
	tb := ModelTable(arAlgs, 8, presets.H20Intra, []float64{1 << 20})
	want := [][]string{
		// The algorithm table (docs/model.md, the article and MPICH) at P = 8: steps 2(P-1) = 14, 2·log2 P = 6, 2, 1;
		// bytes 2(P-1)/P = 1.75 S, or (P-1) = 7 S for one-shot; peers 2, log2 P, P-1, P-1.
		// Times on α = 2 µs, BW = 350 GB/s: ring 14·2 µs + 1.75·2^20 B / BW = 33.2 µs.
		{"ring", "14", "1.75 S", "2", "33.2 µs"},
		{"halving-doubling", "6", "1.75 S", "3", "17.2 µs"},
		{"two-shot", "2", "1.75 S", "7", "9.24 µs"},
		{"one-shot", "1", "7 S", "7", "23 µs"},
	}
	if len(tb.Rows) != len(want) || len(tb.Header) != 5 || tb.Header[4] != "T(1 MiB)" {
		t.Fatalf("table %v", tb)
	}
	for i := range want {
		if !equal(tb.Rows[i], want[i]) {
			t.Errorf("row %d = %v, want %v", i, tb.Rows[i], want[i])
		}
	}
}

func TestWinnerChanges(t *testing.T) {
	// On one link the only change of winner at P = 8 is one-shot -> two-shot at
	// the article's S* = α·BW/((P-1) - 2(P-1)/P) = 2e-6·350e9/5.25 = 133333 B.
	cs := commmodel.WinnerChanges(arAlgs, commmodel.Flat{P: 8, Link: presets.H20Intra})
	if len(cs) != 1 || cs[0].A.Name() != "one-shot" || cs[0].B.Name() != "two-shot" ||
		!scalar.EqualWithinAbs(cs[0].Size, 2e-6*350e9/5.25, 1e-6*cs[0].Size) {
		t.Fatalf("winner changes %+v", cs)
	}
	// Every pair crosses somewhere; most of those crossings are not changes of winner.
	if all := commmodel.Crossovers(arAlgs, commmodel.Flat{P: 8, Link: presets.H20Intra}); len(all) <= len(cs) {
		t.Errorf("%d crossovers in all, %d changes: the filter removed nothing", len(all), len(cs))
	}
	f := TimeFigure("t", arAlgs, commmodel.Flat{P: 8, Link: presets.H20Intra}, Sizes(1024, 1<<30, 1))
	if len(f.Marks) != 1 || f.Marks[0].Label != "one-shot | two-shot 130 KiB" || len(f.Series) != 4 {
		t.Errorf("figure marks %+v, %d series", f.Marks, len(f.Series))
	}
}

func TestRegimeFigure(t *testing.T) {
	sizes := Sizes(1024, 1<<30, 1)
	m := RegimeFigure("r", arAlgs, Ranks(2, 16), sizes, presets.H20Intra)
	// Only the winners are named: two-shot and one-shot (ring and
	// halving-doubling send the same bytes as two-shot in more steps).
	if !equal(m.Names, []string{"two-shot", "one-shot"}) {
		t.Fatalf("names %v", m.Names)
	}
	// P = 8 (row 6): one-shot at 1 KiB, two-shot at 1 GiB.
	if m.Cells[6][0] != 1 || m.Cells[6][len(sizes)-1] != 0 {
		t.Errorf("P = 8 row %v", m.Cells[6])
	}
	hd := RegimeFigure("r", []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}}, Ranks(2, 16), sizes, presets.H20Intra)
	// The article: halving-doubling needs P = 2^k. At 1 GiB ring wins at
	// P = 5 (row 3, the fold adds 2S) and halving-doubling at P = 8 (row 6).
	last := len(sizes) - 1
	if hd.Names[hd.Cells[3][last]] != "ring" || hd.Names[hd.Cells[6][last]] != "halving-doubling" {
		t.Errorf("ring/HD at 1 GiB: P = 5 %s, P = 8 %s", hd.Names[hd.Cells[3][last]], hd.Names[hd.Cells[6][last]])
	}
	if _, err := m.PNG(); err != nil {
		t.Fatal(err)
	}
}

func TestSizes(t *testing.T) {
	// 256 B .. 1 GiB is 22 doublings: 4 per doubling gives 89 sizes, both ends included.
	s := Sizes(256, 1<<30, 4)
	if len(s) != 89 || s[0] != 256 || !scalar.EqualWithinAbs(s[88], 1<<30, 1e-6) {
		t.Errorf("%d sizes from %g to %g", len(s), s[0], s[len(s)-1])
	}
}

func TestTimeTableCluster(t *testing.T) {
	// A Cluster is a Timer too. The flat ring over 2 x 8 H20 runs its
	// 2(16-1) = 30 steps at the network's α = 15 µs and sends 2(P-1)/P·S =
	// 1.875·S per GPU at the network's 20 GB/s: at 64 KiB 450 µs + 6.14 µs.
	c := presets.H20Cluster(2)
	algs := []commmodel.Algorithm{commmodel.Ring{}, commmodel.HierarchicalAllReduce{PerNode: 8}}
	tb := TimeTable(algs, c, []float64{64 << 10}, func(a commmodel.Algorithm) string { return "x " + a.Name() })
	if !equal(tb.Header, []string{"algorithm", "T(64 KiB)"}) || len(tb.Rows) != 2 {
		t.Fatalf("table %v", tb)
	}
	if !equal(tb.Rows[0], []string{"x ring", "456 µs"}) {
		t.Errorf("ring row %v, want [x ring 456 µs]", tb.Rows[0])
	}
	ss := TimeSeries(algs, c, []float64{64 << 10, 1 << 20}, nil)
	want := 30*15e-6 + 1.875*(64<<10)/20e9
	if len(ss) != 2 || ss[0].Name != "ring" || !scalar.EqualWithinAbs(ss[0].Y[0], want, 1e-12) || ss[1].Y[0] != c.Time(algs[1], 64<<10) {
		t.Errorf("series %+v, want ring at %g s first", ss, want)
	}
}

// TestRanksFromOne holds Ranks to rank counts a model runs on: Ranks(0, 4)
// listed 0 (and Ranks(-8, 2) negative counts), on which RegimeFigure's
// models panic.
func TestRanksFromOne(t *testing.T) {
	if ps := Ranks(0, 4); !slices.Equal(ps, []int{1, 2, 3, 4}) {
		t.Errorf("Ranks(0, 4) = %v, want [1 2 3 4]", ps)
	}
	if ps := Ranks(-8, 2); !slices.Equal(ps, []int{1, 2}) {
		t.Errorf("Ranks(-8, 2) = %v, want [1 2]", ps)
	}
	RegimeFigure("r", commmodel.Algorithms(commmodel.AllReduce), Ranks(0, 4), []float64{1 << 20}, presets.H20Intra)
}
