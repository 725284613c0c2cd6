package fit

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
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
		if got := rho(1e-4, loss, 0.01, s); !scalar.EqualWithinAbs(got, 1e-8, 1e-10) {
			t.Errorf("%v: rho(1e-4) = %g, want ~1e-8", loss, got)
		}
	}
	cs := 4.685 * 0.01
	if got := rho(1, Bisquare, 0.01, s); !scalar.EqualWithinAbs(got, cs*cs/3, 1e-15) {
		t.Errorf("bisquare cap %g, want %g", got, cs*cs/3)
	}
}

func TestLossRhoWeight(t *testing.T) {
	// Values of the definitions (Rho's doc) at threshold c = 2.
	const c = 2
	for _, tc := range []struct {
		loss     Loss
		r        float64
		rho, wgt float64
	}{
		{Squared, 3, 4.5, 1},
		{Huber, 1, 0.5, 1},        // inside: r²/2
		{Huber, -4, 2*4 - 2, 0.5}, // beyond: c|r| − c²/2, c/|r|
		{Bisquare, 1, 4.0 / 6 * (1 - 0.75*0.75*0.75), 0.75 * 0.75}, // 1 − (r/c)² = 0.75
		{Bisquare, 3, 4.0 / 6, 0},                                  // capped at c²/6, rejected
	} {
		if got := tc.loss.Rho(tc.r, c); !scalar.EqualWithinAbs(got, tc.rho, 1e-15) {
			t.Errorf("%v.Rho(%g, %d) = %g, want %g", tc.loss, tc.r, c, got, tc.rho)
		}
		if got := tc.loss.Weight(tc.r, c); !scalar.EqualWithinAbs(got, tc.wgt, 1e-15) {
			t.Errorf("%v.Weight(%g, %d) = %g, want %g", tc.loss, tc.r, c, got, tc.wgt)
		}
	}
	// The weight is ψ(r)/r with ψ = ρ': a central difference of Rho.
	for _, loss := range []Loss{Squared, Huber, Bisquare} {
		for _, r := range []float64{-3.1, -1.3, -0.4, 0.7, 1.9, 2.6} {
			const h = 1e-6
			psi := (loss.Rho(r+h, c) - loss.Rho(r-h, c)) / (2 * h)
			if w := loss.Weight(r, c); !scalar.EqualWithinAbs(psi, w*r, 1e-6) {
				t.Errorf("%v at r = %g: ρ' = %g, weight·r = %g", loss, r, psi, w*r)
			}
		}
	}
}

func TestLossCurvature(t *testing.T) {
	// The curvature is ρ″ = ψ': a central difference of ψ = Weight·r
	// (Rho's doc), away from the kinks at ±c = ±2, where ρ″ jumps.
	const c, h = 2, 1e-6
	for _, loss := range []Loss{Squared, Huber, Bisquare} {
		for _, r := range []float64{-3.1, -1.3, -0.4, 0.7, 0.95, 1.9, 2.6} {
			psi := func(r float64) float64 { return loss.Weight(r, c) * r }
			want := (psi(r+h) - psi(r-h)) / (2 * h)
			if got := loss.Curvature(r, c); !scalar.EqualWithinAbs(got, want, 1e-6) {
				t.Errorf("%v.Curvature(%g, %d) = %g, want ψ' = %g", loss, r, c, got, want)
			}
		}
	}
}
