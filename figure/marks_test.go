package figure

import (
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TestFreeRow: a line's label takes its turn's row, else the next row with
// room, else none.
func TestFreeRow(t *testing.T) {
	var taken [labelRows][]span
	taken[1] = []span{{10, 20}}
	taken[2] = []span{{0, 5}, {15, 30}}
	for _, c := range []struct {
		first int
		at    span
		row   int
	}{
		{1, span{25, 40}, 1}, // row 1 has room right of 20
		{1, span{12, 18}, 3}, // rows 1 and 2 are taken there
		{0, span{12, 18}, 0}, // row 0 is empty
		{2, span{6, 14}, 2},  // between row 2's labels
	} {
		if r, ok := freeRow(&taken, c.first, c.at); !ok || r != c.row {
			t.Errorf("freeRow(first %d, %v) = %d, %v; want %d", c.first, c.at, r, ok, c.row)
		}
	}
	for r := range taken {
		taken[r] = append(taken[r], span{0, 100})
	}
	if r, ok := freeRow(&taken, 0, span{40, 50}); ok {
		t.Errorf("every row taken: row %d, want none", r)
	}
}

// TestLabelSpan: a label past the right edge moves left of its line, and one
// that then runs past the left edge does not fit.
func TestLabelSpan(t *testing.T) {
	c := draw.New(vgimg.New(2*vg.Inch, 2*vg.Inch))
	sty := plot.New().X.Tick.Label
	w := sty.Width("regime break 5.66 MiB")
	if at, fits := labelSpan(c, sty, c.Min.X+vg.Points(10), "regime break 5.66 MiB"); !fits || at.lo != c.Min.X+vg.Points(10)-labelPad {
		t.Errorf("a label from the left: %v, %v; want it where asked", at, fits)
	}
	if at, fits := labelSpan(c, sty, c.Max.X-vg.Points(5), "regime break 5.66 MiB"); !fits || at.hi > c.Max.X {
		t.Errorf("a label at the right edge: %v, %v; want it moved left of its line", at, fits)
	}
	long := "Ring/LL128 | NVLSTree/Simple 2 MiB and more text than two inches hold"
	if sty.Width(long) < 2*vg.Inch || w > 2*vg.Inch {
		t.Fatalf("label widths %v and %v: the test needs one longer than the canvas and one shorter", sty.Width(long), w)
	}
	if _, fits := labelSpan(c, sty, c.Max.X-vg.Points(5), long); fits {
		t.Error("a label wider than the canvas fits")
	}
}
