package fit

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// quantile is Hyndman and Fan's type 7, numpy.quantile's default: for
// 1, ..., 5 at p the order statistic at h = 4p, interpolated (0.1 -> 1.4,
// 0.25 -> 2, 0.975 -> 4.9); for 1, ..., 40 at 0.025 and 0.975, h = 0.975
// and 38.025, so 1.975 and 39.025. At 1/2 it is the Median.
func TestQuantile(t *testing.T) {
	five := []float64{5, 3, 1, 4, 2}
	forty := make([]float64, 40)
	for i := range forty {
		forty[i] = float64(40 - i)
	}
	for _, c := range []struct {
		x       []float64
		p, want float64
	}{
		{five, 0, 1}, {five, 0.1, 1.4}, {five, 0.25, 2}, {five, 0.5, 3}, {five, 0.975, 4.9}, {five, 1, 5},
		{forty, 0.025, 1.975}, {forty, 0.5, 20.5}, {forty, 0.975, 39.025},
		{[]float64{7}, 0.3, 7},
	} {
		if got := quantile(c.x, c.p); !scalar.EqualWithinRel(got, c.want, 1e-14) {
			t.Errorf("quantile(%v, %g) = %v, want %v", c.x, c.p, got, c.want)
		}
	}
	for _, x := range [][]float64{nil, {1, math.NaN()}} {
		if got := quantile(x, 0.5); !math.IsNaN(got) {
			t.Errorf("quantile(%v, 0.5) = %v, want NaN", x, got)
		}
	}
}
