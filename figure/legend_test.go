package figure

import (
	"math"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// rising is n straight lines on log axes from (1 KiB, k² us) to (1 GiB,
// k²·2^20 us), k = 1..n: times that grow with size as a bandwidth-bound
// collective's do, the figure's top left and bottom right empty.
func rising(n int) []Series {
	var ss []Series
	for k := 1; k <= n; k++ {
		var s Series
		s.Name = string(rune('a' + k - 1))
		for x := 1 << 10; x <= 1<<30; x <<= 1 {
			s.X = append(s.X, float64(x))
			s.Y = append(s.Y, 1e-6*float64(k*k)*float64(x)/1024)
		}
		ss = append(ss, s)
	}
	return ss
}

// TestLegendSharedName: series of one name share one legend row, their
// marks drawn band, line, marker in that order.
func TestLegendSharedName(t *testing.T) {
	s := rising(1)[0]
	measured, model := s, s
	measured.Style = Points
	model.Low, model.High = make([]float64, len(s.Y)), make([]float64, len(s.Y))
	for i, y := range s.Y {
		model.Low[i], model.High[i] = y/2, y*2
	}
	f := Figure{X: Axis{Log: true, Unit: Bytes}, Y: Axis{Log: true, Unit: Seconds}, Series: []Series{measured, model}}
	_, leg, err := f.plotLegend(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(leg.entries) != 1 {
		t.Fatalf("%d legend entries, want 1 for two series of one name", len(leg.entries))
	}
	var layers []int
	for _, th := range leg.entries[0].thumbs {
		layers = append(layers, thumbLayer(th))
	}
	if len(layers) != 3 || layers[0] != 0 || layers[1] != 1 || layers[2] != 2 {
		t.Errorf("the entry's marks are layered %v, want [0 1 2]: band, line, marker", layers)
	}
}

// TestLegendLeastCovering: the legend goes to a corner that covers none
// of the series' points; where every corner covers some, the Y axis rises
// until a top corner is clear, unless the figure fixes its range.
func TestLegendLeastCovering(t *testing.T) {
	for _, c := range []struct {
		n          int
		flat, fixY bool
	}{{1, false, false}, {6, false, false}, {6, true, false}, {6, true, true}} {
		ss := rising(c.n)
		if c.flat {
			// Two flat lines near the top and the bottom edge, as a
			// stalled run's and a latency-bound one's: every corner is
			// crossed.
			top, bottom := ss[0], ss[0]
			top.Name, bottom.Name = "top", "bottom"
			top.Y, bottom.Y = make([]float64, len(top.X)), make([]float64, len(top.X))
			for i := range top.Y {
				top.Y[i], bottom.Y[i] = ss[len(ss)-1].Y[len(top.X)-1]/2, 2*ss[0].Y[0]
			}
			ss = append(ss, top, bottom)
		}
		f := Figure{X: Axis{Log: true, Unit: Bytes}, Y: Axis{Log: true, Unit: Seconds}, Series: ss, Legend: LeastCovering}
		if c.fixY {
			f.Y.Min, f.Y.Max = 1e-6, 40
		}
		p, leg, err := f.plotLegend(nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		var all plotter.XYs
		for _, s := range f.Series {
			for i := range s.X {
				all = append(all, plotter.XY{X: s.X[i], Y: s.Y[i]})
			}
		}
		n := leg.covered(p, all, leg.pos, DefaultWidth, DefaultHeight)
		switch {
		case c.fixY:
			if p.Y.Max != 40 {
				t.Errorf("%d series, Y fixed at 40 s: the axis rose to %g", c.n, p.Y.Max)
			}
		case n != 0:
			t.Errorf("%d series: the legend at %v covers %d points", c.n, leg.pos, n)
		case c.flat && !(p.Y.Max > 36*1.0486 && (leg.pos == TopLeft || leg.pos == TopRight)):
			// The sixth line ends at 36·2^20 us = 37.7 s.
			t.Errorf("flat lines: legend at %v, Y up to %g; want a top corner over a raised axis", leg.pos, p.Y.Max)
		case !c.flat && p.Y.Max != 1e-6*float64(c.n*c.n)*(1<<20):
			t.Errorf("%d rising lines: Y up to %g, want the last line's end: a clear corner needs no room", c.n, p.Y.Max)
		}
		if math.IsNaN(p.Y.Max) {
			t.Errorf("%d series: Y max NaN", c.n)
		}
	}
}
