package figure

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/plot/vg"

	"github.com/inframethod/commlab/internal/imgtest"
)

// ringModel is the textbook ring AllReduce time 2(P-1)·α + 2(P-1)/P·S/BW at
// P = 8, α = 2 µs, BW = 350 GB/s (the article's intra-node defaults).
func ringModel(sizes []float64) []float64 {
	ts := make([]float64, len(sizes))
	for i, s := range sizes {
		ts[i] = 14*2e-6 + 1.75*s/350e9
	}
	return ts
}

func sizes() []float64 {
	var s []float64
	for v := 1024.0; v <= 1<<30; v *= 4 {
		s = append(s, v)
	}
	return s
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

func TestFigurePNG(t *testing.T) {
	xs := sizes()
	f := Figure{
		Title: "ring",
		X:     Axis{Label: "message size S", Unit: Bytes, Log: true},
		Y:     Axis{Label: "time", Unit: Seconds, Log: true},
		Series: []Series{
			{Name: "ring", X: xs, Y: ringModel(xs)},
			{Name: "measured", X: xs[:3], Y: []float64{3e-5, 3.1e-5, 3.3e-5}, Style: Points},
		},
		Marks: []Mark{{X: 133e3, Label: "one-shot | two-shot"}, {X: 1 << 20, Y: 3.3e-5, Label: "point"}},
	}
	b, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	// DefaultWidth x DefaultHeight is 7 x 4.5 in at plot.WriterTo's 96 DPI.
	if got := decode(t, b).Bounds().Size(); got != (image.Point{X: 672, Y: 432}) {
		t.Errorf("PNG is %v, want 672x432", got)
	}
	// The golden at 4.5 x 3 in: both series, their legend, the dashed mark
	// with its label near the top and the labelled point, the log ticks in
	// the units (1 KiB .. 1 GiB, 50 µs .. 5 ms).
	f.Width, f.Height = 4.5*vg.Inch, 3*vg.Inch
	b, err = f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if got := decode(t, b).Bounds().Size(); got != (image.Point{X: 432, Y: 288}) {
		t.Errorf("4.5x3 in PNG is %v, want 432x288", got)
	}
	imgtest.Check(t, "figure", b)
}

func TestFigureErrors(t *testing.T) {
	logAxes := func(s ...Series) Figure {
		return Figure{X: Axis{Unit: Bytes, Log: true}, Y: Axis{Unit: Seconds, Log: true}, Series: s}
	}
	cases := []struct {
		name string
		f    Figure
		msg  string
	}{
		{"length mismatch", logAxes(Series{Name: "ring", X: []float64{1, 2}, Y: []float64{1}}), `series "ring": 2 x values but 1 y values`},
		{"empty", logAxes(Series{Name: "e"}), `series "e": no points`},
		{"zero on log axis", logAxes(Series{Name: "z", X: []float64{0, 1}, Y: []float64{1, 1}}), "not positive on a log axis"},
		{"NaN", Figure{Series: []Series{{Name: "n", X: []float64{1}, Y: []float64{math.NaN()}}}}, `series "n": point 0 is (1, NaN)`},
		{"mark off a log axis", Figure{X: Axis{Log: true}, Series: []Series{{X: []float64{1}, Y: []float64{1}}}, Marks: []Mark{{X: -1, Label: "m"}}}, `mark "m"`},
	}
	for _, c := range cases {
		_, err := c.f.PNG()
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.msg)
		}
	}
}

func TestRegimeMapPNG(t *testing.T) {
	xs := sizes()
	m := RegimeMap{
		Title: "fastest AllReduce",
		X:     Axis{Label: "message size S", Unit: Bytes, Log: true},
		Y:     Axis{Label: "GPUs P", Log: true},
		Xs:    xs, Ys: []float64{2, 4, 8},
		Names: []string{"one-shot", "two-shot", "ring"},
		Lines: []Series{{Name: "threshold", X: []float64{1e5, 2e5, 4e5}, Y: []float64{2, 4, 8}}},
	}
	for j := range m.Ys {
		row := make([]int, len(xs))
		for i := range row {
			row[i] = min(2, i/(2+j))
		}
		m.Cells = append(m.Cells, row)
	}
	m.Cells[0][0] = -1 // blank cell allowed
	m.Width, m.Height = 4.5*vg.Inch, 3*vg.Inch
	b, err := m.PNG()
	if err != nil {
		t.Fatal(err)
	}
	// The golden: the three regimes' fills (each its algorithm's colour
	// lightened), the blank cell at (1 KiB, 2), the threshold line over the
	// cells, the legend at the bottom right.
	imgtest.Check(t, "regime-map", b)

	bad := m
	bad.Cells = [][]int{{0}}
	if _, err := bad.PNG(); err == nil || !strings.Contains(err.Error(), "1 rows of cells for 3 Ys") {
		t.Errorf("wrong row count: err = %v", err)
	}
	bad = m
	bad.Cells = [][]int{m.Cells[0], m.Cells[1], append([]int{3}, m.Cells[2][1:]...)}
	if _, err := bad.PNG(); err == nil || !strings.Contains(err.Error(), "want -1 or an index into 3 names") {
		t.Errorf("bad index: err = %v", err)
	}
	bad = m
	bad.Ys = []float64{2, 8, 4}
	if _, err := bad.PNG(); err == nil || !strings.Contains(err.Error(), "increasing") {
		t.Errorf("unsorted Ys: err = %v", err)
	}
}

func TestEdges(t *testing.T) {
	// Geometric midpoints on a log axis: between 1 KiB and 4 KiB lies 2 KiB.
	e := edges([]float64{1024, 4096, 16384}, true)
	want := []float64{512, 2048, 8192, 32768}
	for i := range want {
		if !scalar.EqualWithinAbs(e[i], want[i], 1e-9*want[i]) {
			t.Errorf("log edges %v, want %v", e, want)
			break
		}
	}
	e = edges([]float64{2, 4, 8}, false)
	want = []float64{1, 3, 6, 10}
	for i := range want {
		if e[i] != want[i] {
			t.Errorf("linear edges %v, want %v", e, want)
			break
		}
	}
}

func TestColors(t *testing.T) {
	// "measured" is not an algorithm: it must not take ring's blue (palette 0)
	// nor two-shot's vermillion (palette 1), so it gets palette 2.
	got := Colors([]string{"measured", "ring", "two-shot", "fit"})
	want := []int{2, 0, 1, 3}
	for i, k := range want {
		if got[i] != palette[k] {
			t.Errorf("colour %d = %v, want palette[%d] %v", i, got[i], k, palette[k])
		}
	}
	// Nine names without algorithms cycle through the eight colours.
	many := Colors([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i"})
	if many[8] != palette[0] || many[7] != palette[7] {
		t.Errorf("cycling: %v", many)
	}
}
