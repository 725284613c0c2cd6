package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestMedianAbs(t *testing.T) {
	// The median of |x| is the middle of the sorted |x|, or the mean of the
	// two middle values for an even count (the definition), with many ties.
	rng := rand.New(rand.NewPCG(1, 1))
	for n := 1; n < 60; n++ {
		for range 50 {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(rng.IntN(7)) - 3
			}
			a := make([]float64, n)
			for i, v := range x {
				a[i] = math.Abs(v)
			}
			slices.Sort(a)
			want := a[n/2]
			if n%2 == 0 {
				want = (a[n/2-1] + a[n/2]) / 2
			}
			if got := medianAbs(x); got != want {
				t.Fatalf("medianAbs(%v) = %g, want %g", x, got, want)
			}
		}
	}
}

func TestRhoSmallResiduals(t *testing.T) {
	// Every loss is normalised so that rho(r) ≈ r² for r much smaller than
	// c·scale (Piecewise's doc), and Bisquare is capped at (c·scale)²/3.
	s := (&Settings{}).withDefaults()
	for _, loss := range []Loss{Squared, Huber, Bisquare} {
		if got := rho(1e-4, loss, 0.01, s); math.Abs(got-1e-8) > 1e-10 {
			t.Errorf("%v: rho(1e-4) = %g, want ~1e-8", loss, got)
		}
	}
	cs := 4.685 * 0.01
	if got := rho(1, Bisquare, 0.01, s); math.Abs(got-cs*cs/3) > 1e-15 {
		t.Errorf("bisquare cap %g, want %g", got, cs*cs/3)
	}
}
