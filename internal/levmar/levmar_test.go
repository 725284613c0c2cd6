package levmar

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestRosenbrock(t *testing.T) {
	// Rosenbrock's function as residuals, r = (10(x₂ − x₁²), 1 − x₁), from
	// its classic start (−1.2, 1): the minimum is F = 0 at (1, 1) (Moré,
	// Garbow and Hillstrom 1981, problem 1).
	p := Problem{M: 2, Residuals: func(r, x []float64) {
		r[0] = 10 * (x[1] - x[0]*x[0])
		r[1] = 1 - x[0]
	}}
	x0 := []float64{-1.2, 1}
	res := Minimize(p, x0)
	if !scalar.EqualWithinAbs(res.X[0], 1, 1e-4) || !scalar.EqualWithinAbs(res.X[1], 1, 1e-4) || res.F > 1e-9 {
		t.Errorf("minimum at %v with F = %g after %d iterations, want (1, 1) and 0", res.X, res.F, res.Iterations)
	}
	if x0[0] != -1.2 || x0[1] != 1 {
		t.Errorf("start changed to %v", x0)
	}
}

func TestExponentialFit(t *testing.T) {
	// Exact data y = 2·exp(−0.5·t) at t = 0..9: least squares recovers a = 2
	// and b = −0.5 from (1, 0), with a residual sum of 0.
	const a, b = 2.0, -0.5
	ts := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	p := Problem{M: len(ts), Residuals: func(r, x []float64) {
		for i, t := range ts {
			r[i] = x[0]*math.Exp(x[1]*t) - a*math.Exp(b*t)
		}
	}}
	res := Minimize(p, []float64{1, 0})
	if !scalar.EqualWithinAbs(res.X[0], a, 1e-6) || !scalar.EqualWithinAbs(res.X[1], b, 1e-6) {
		t.Errorf("a, b = %v, want %g, %g", res.X, a, b)
	}
}

func TestPrior(t *testing.T) {
	// One residual x − 3 and a prior N(0, 1): F = (x−3)²/2 + x²/2 is least
	// at x = 1.5 with curvature 2, so the covariance is 1/2.
	p := Problem{M: 1, Residuals: func(r, x []float64) { r[0] = x[0] - 3 },
		Mean: []float64{0}, Width: []float64{1}}
	res := Minimize(p, []float64{0})
	if !scalar.EqualWithinAbs(res.X[0], 1.5, 1e-6) || res.Cov == nil || !scalar.EqualWithinAbs(res.Cov.At(0, 0), 0.5, 1e-6) {
		t.Errorf("x = %v, covariance %v, want 1.5 and 0.5", res.X, res.Cov)
	}
	// Without residuals the prior's mean is the minimum.
	p = Problem{Residuals: func(r, x []float64) {}, Mean: []float64{-2, 5}, Width: []float64{1, 3}}
	if res := Minimize(p, []float64{1, 1}); !scalar.EqualWithinAbs(res.X[0], -2, 1e-9) || !scalar.EqualWithinAbs(res.X[1], 5, 1e-9) {
		t.Errorf("prior alone: x = %v, want [-2 5]", res.X)
	}
}

// huberLocation is Huber's location estimate of {0, 0, 0, 0, 10} at
// threshold 1 as a Problem, with Huber's loss and weights.
func huberLocation() Problem {
	ys := []float64{0, 0, 0, 0, 10}
	const c = 1.0
	return Problem{M: len(ys),
		Residuals: func(r, x []float64) {
			for i, y := range ys {
				r[i] = x[0] - y
			}
		},
		Loss: func(_ int, r float64) float64 {
			if a := math.Abs(r); a > c {
				return c*a - c*c/2
			}
			return r * r / 2
		},
		Weight: func(_ int, r float64) float64 { return min(1, c/math.Abs(r)) },
	}
}

func TestHuberLocation(t *testing.T) {
	// Huber's location estimate of {0, 0, 0, 0, 10} at threshold 1: the four
	// zeros pull 4x inside the threshold and the outlier pulls a constant −1
	// beyond it, so Σψ = 4x − 1 = 0 at x = 0.25 (the mean would be 2).
	p := huberLocation()
	if res := Minimize(p, []float64{2}); !scalar.EqualWithinAbs(res.X[0], 0.25, 1e-6) {
		t.Errorf("x = %v, want 0.25", res.X)
	}
}

func TestNoParameters(t *testing.T) {
	// With nothing to fit the start is the answer and no iteration runs.
	p := Problem{M: 1, Residuals: func(r, x []float64) { r[0] = 2 }}
	res := Minimize(p, nil)
	if len(res.X) != 0 || res.F != 2 || res.Iterations != 0 || res.Cov != nil {
		t.Errorf("got %+v, want no parameters, F = 2, no iteration", res)
	}
}

func TestCurvature(t *testing.T) {
	// TestHuberLocation's problem from x = 0.5 with Huber's curvature in H
	// (1 inside the threshold, 0 beyond): the same minimum x = 0.25, reached
	// in fewer iterations, since H is then F's own second derivative, 4. The
	// covariance keeps the weights: 1/(4 + c/|0.25 − 10|) = 1/(4 + 1/9.75).
	p := huberLocation()
	reweighted := Minimize(p, []float64{0.5})
	p.Curvature = func(_ int, r float64) float64 {
		if math.Abs(r) > 1 {
			return 0
		}
		return 1
	}
	curved := Minimize(p, []float64{0.5})
	if !scalar.EqualWithinAbs(curved.X[0], 0.25, 1e-6) {
		t.Errorf("x = %v, want 0.25", curved.X)
	}
	if curved.Iterations >= reweighted.Iterations {
		t.Errorf("%d iterations with curvatures, %d with weights: want fewer", curved.Iterations, reweighted.Iterations)
	}
	// From x = 2 every residual is beyond the threshold and H is 0: the
	// weights' damping still moves x.
	if res := Minimize(p, []float64{2}); !scalar.EqualWithinAbs(res.X[0], 0.25, 1e-6) {
		t.Errorf("from 2: x = %v, want 0.25", res.X)
	}
	want := 1 / (4 + 1/9.75)
	for _, res := range []Result{reweighted, curved} {
		if res.Cov == nil || !scalar.EqualWithinAbs(res.Cov.At(0, 0), want, 1e-6) {
			t.Errorf("covariance %v, want %g", res.Cov, want)
		}
	}
}

// TestUpper: least squares of r = (x₀ − 3, x₁ − 1) with x₀ ≤ 2 ends on the
// bound, x₀ = 2, held there (F falls towards 3), and x₁, free, at its
// minimum 1; from a start above the bound too (x₀ = 5 is clipped to 2
// first). With x₀ ≤ 4 the bound does not bind and holds nothing.
func TestUpper(t *testing.T) {
	p := Problem{M: 2, Residuals: func(r, x []float64) { r[0], r[1] = x[0]-3, x[1]-1 },
		Upper: []float64{2, math.Inf(1)}}
	for _, x0 := range [][]float64{{0, 0}, {5, 0}} {
		res := Minimize(p, x0)
		if res.X[0] != 2 || !scalar.EqualWithinAbs(res.X[1], 1, 1e-9) || !scalar.EqualWithinAbs(res.F, 0.5, 1e-9) || !res.Held[0] || res.Held[1] {
			t.Errorf("from %v: x = %v, F = %g, held %v; want [2 1], 0.5, [true false]", x0, res.X, res.F, res.Held)
		}
	}
	p.Upper[0] = 4
	if res := Minimize(p, []float64{0, 0}); !scalar.EqualWithinAbs(res.X[0], 3, 1e-9) || res.Held[0] {
		t.Errorf("bound 4: x = %v, held %v; want x₀ = 3, not held", res.X, res.Held)
	}
}
