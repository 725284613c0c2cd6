package predict

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestSmax(t *testing.T) {
	// smax is (a^k + b^k)^(1/k) with k = sharpness (its doc): compared with
	// the formula through math.Pow to 1e-12 relative over ratios b/a from
	// 1e-6 to 1e6 and scales from 1e-9 (s) to 1e12 (B/s); 2^(1/16) where
	// a = b; a itself where b is 0 or negligible.
	pow := func(a, b float64) float64 {
		return math.Pow(math.Pow(a, sharpness)+math.Pow(b, sharpness), 1.0/sharpness)
	}
	for _, scale := range []float64{1e-9, 1e-6, 1, 1e12} {
		for e := -6.0; e <= 6; e += 0.125 {
			a, b := scale, scale*math.Pow(10, e)
			want := pow(1, b/a) * a // a^16 of 1e12 overflows: scale out first
			if got := smax(a, b); !scalar.EqualWithinAbs(got, want, 1e-12*want) {
				t.Errorf("smax(%g, %g) = %.17g, want %.17g", a, b, got, want)
			}
			if smax(a, b) != smax(b, a) {
				t.Errorf("smax(%g, %g) = %g but smax(%g, %g) = %g", a, b, smax(a, b), b, a, smax(b, a))
			}
		}
	}
	if got, want := smax(3, 3), 3*math.Pow(2, 1.0/16); !scalar.EqualWithinAbs(got, want, 1e-15*want) {
		t.Errorf("smax(3, 3) = %.17g, want 3·2^(1/16) = %.17g", got, want)
	}
	for _, b := range []float64{0, 1e-30} {
		if got := smax(2e-6, b); got != 2e-6 {
			t.Errorf("smax(2e-6, %g) = %g, want 2e-6", b, got)
		}
	}
}
