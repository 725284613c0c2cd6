package predict

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/inframethod/commlab/data"
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

// TestGradMatchesTime checks grad, the calibration's Jacobian, against
// central differences of ln time in ln x_k (step 1e-5, whose error is far
// below the tolerance of 1e-6: smax's curvature is at most of order
// sharpness), on every point of the paired machines' tables at their
// calibrated parameters and at 20 random draws about them (each parameter
// times e^N(0,1)), so that every term of the model binds somewhere. The
// same points run again with a fabric above their nodes (leave 0.5, so
// that fabric_oversubscription binds where it is large) and with
// Broadcast's network efficiency (chain_efficiency), which no paired table
// across nodes lacks but which every point then takes. grad's time is
// time's, to the last bit.
func TestGradMatchesTime(t *testing.T) {
	rows, err := data.PairedManifest()
	if err != nil {
		t.Fatal(err)
	}
	var terms []term
	var xs [][numParams]float64
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r.Machine] {
			continue
		}
		seen[r.Machine] = true
		h, tables := pairedTables(t, r.Machine)
		m, err := Calibrate(h, tables, &Settings{NoIntervals: true})
		if err != nil {
			t.Fatal(err)
		}
		d, _, err := m.design(tables)
		if err != nil {
			t.Fatal(err)
		}
		for _, tm := range d.terms {
			terms = append(terms, tm)
			xs = append(xs, m.x)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	const h = 1e-5
	checked := 0
	for i, tm := range terms {
		variants := []term{tm, tm}
		variants[1].leave = 0.5
		if tm.net > 0 {
			v := tm
			v.netEff = parChain
			variants = append(variants, v)
		}
		for draw := range 21 {
			x := xs[i]
			if draw > 0 {
				for k := range x {
					x[k] *= math.Exp(rng.NormFloat64())
				}
			}
			for _, v := range variants {
				var g [numParams]float64
				if got, want := v.grad(&x, &g), v.time(&x); got != want {
					t.Fatalf("point %d: grad's time %.17g, time's %.17g", i, got, want)
				}
				for k := range numParams {
					hi, lo := x, x
					hi[k] *= math.Exp(h)
					lo[k] *= math.Exp(-h)
					want := (math.Log(v.time(&hi)) - math.Log(v.time(&lo))) / (2 * h)
					if !scalar.EqualWithinAbs(g[k], want, 1e-6) {
						t.Errorf("point %d (%+v) at %v: ∂ln T/∂ln %s = %.9g, central difference %.9g",
							i, v, x, params[k].name, g[k], want)
					}
				}
				checked++
			}
		}
	}
	if checked < 10000 {
		t.Errorf("%d points checked, want the paired tables' thousands", checked)
	}
}
