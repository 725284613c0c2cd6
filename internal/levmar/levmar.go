// Package levmar minimises a robust sum of residual losses with an optional
// Gaussian prior by Levenberg-Marquardt (Levenberg 1944, Marquardt 1963):
//
//	F(x) = Σᵢ ρᵢ(rᵢ(x)) + Σⱼ (xⱼ − μⱼ)²/(2σⱼ²)
//
// with r(x) the residuals, ρᵢ their losses (r²/2 for least squares) and μ,
// σ the prior's means and widths. Each iteration linearises r, J = ∂r/∂x
// from the problem's Jacobian or by forward differences with step 10⁻⁶
// (suited to parameters of order 1, such as logarithms), weighs residual i
// by wᵢ = ρᵢ'(rᵢ)/rᵢ (iteratively
// reweighted least squares; 1 for squares) and solves
//
//	(H + λ·D)·δ = g,   H = JᵀVJ + diag(1/σ²),   g = JᵀWr + (x − μ)/σ²
//
// with V = W, or the losses' curvatures vᵢ = ρᵢ″(rᵢ) where the problem
// gives them, and D the diagonal of JᵀWJ + diag(1/σ²). g is the gradient of
// F either way, so both stop at the same minimum, but for a loss that is
// linear in the tails (Huber's) the curvatures make H the Gauss-Newton
// Hessian of F itself, and the steps converge in a few iterations where the
// reweighted ones creep towards it. D damps by the weights, which stay
// positive where every residual is in a tail and H has no curvature left.
//
// It takes the step x − δ when that lowers F, dividing λ by 10 (down to
// 10⁻⁹), and otherwise multiplies λ by 10 and solves again, up to 20 times.
// λ starts at 10⁻³. It stops after 200 iterations, when no step lowers F,
// when a step lowers F by less than 10⁻¹⁰ of F, when λ exceeds 10¹², or when
// |g|∞ < 10⁻⁹.
//
// Upper bounds, where given, hold x ≤ u throughout (projected
// Levenberg-Marquardt): x0 and every trial step are clipped to them, so that
// a parameter the data push past its bound stays on it.
package levmar

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// The constants of the iteration (see the package documentation).
const (
	maxIter   = 200
	maxTries  = 20
	diffStep  = 1e-6
	lambda0   = 1e-3
	minLambda = 1e-9
	maxLambda = 1e12
	relTol    = 1e-10
	gradTol   = 1e-9
)

// A Problem is the objective F to minimise.
type Problem struct {
	// M is the number of residuals.
	M int
	// Residuals sets r, of length M, to the residuals at x.
	Residuals func(r, x []float64)
	// Jacobian, where given, sets jac to ∂rᵢ/∂xⱼ at x, row i of M rows of
	// len(x) after one another. Nil means forward differences of
	// Residuals, len(x) more evaluations of them per iteration.
	Jacobian func(jac, x []float64)
	// Loss is ρᵢ(r), the term of residual i of value r in F, and Weight is
	// ρᵢ'(r)/r. Both nil mean least squares: r²/2 and 1.
	Loss, Weight func(i int, r float64) float64
	// Curvature is ρᵢ″(r), which the steps use in H in place of the
	// weight (see the package documentation); it must not be negative.
	// Nil means Weight.
	Curvature func(i int, r float64) float64
	// Mean and Width are the prior's μ and σ, one per parameter; a nil Mean
	// means no prior.
	Mean, Width []float64
	// Upper are upper bounds of the parameters, one per parameter (+Inf
	// for none); nil means none.
	Upper []float64
}

// A Result is the outcome of Minimize.
type Result struct {
	// X is the minimiser found and F the objective there.
	X []float64
	F float64
	// Cov is (JᵀWJ + diag(1/σ²))⁻¹ at the start of the last iteration,
	// with the weights W whatever Curvature is: the curvature estimate of
	// the covariance of X, in which every residual counts by its weight;
	// nil when that matrix is singular or no iteration ran.
	Cov *mat.SymDense
	// Iterations is the number of iterations run.
	Iterations int
	// Held reports, per parameter, that X lies on its upper bound and F
	// falls beyond it (∂F/∂x < 0 there): the bound, not the data, set it.
	// It is nil without bounds.
	Held []bool
}

// Minimize minimises p's objective from x0, which it leaves as it is. With
// no parameter it returns x0 and F there.
func Minimize(p Problem, x0 []float64) Result {
	s := newSolver(p, len(x0))
	x := slices.Clone(x0)
	s.clip(x)
	cur := s.objective(x, s.r)
	k := len(x)
	lambda := lambda0
	iter := 0
	for ; iter < maxIter && k > 0; iter++ {
		s.linearise(x)
		next, v, ok := s.step(x, cur, &lambda)
		converged := false
		if ok {
			converged = cur-v < relTol*cur
			x, cur = next, v
			copy(s.r, s.rt)
		}
		if !ok || converged || lambda > maxLambda {
			iter++
			break
		}
		if mat.Norm(s.g, math.Inf(1)) < gradTol {
			iter++
			break
		}
	}
	res := Result{X: x, F: cur, Iterations: iter}
	res.Held = s.held(x)
	if iter > 0 {
		var ch mat.Cholesky
		var cov mat.SymDense
		if ch.Factorize(s.cov) && ch.InverseTo(&cov) == nil {
			res.Cov = &cov
		}
	}
	return res
}

// solver holds the work space of one minimisation: the residuals r at the
// current point and rt at a trial point, the Jacobian (M rows of k, row
// after row), the weights and curvatures, and the Gauss-Newton H and g of
// the current point; cov is JᵀWJ + diag(1/σ²), H itself without
// Curvature.
type solver struct {
	p            Problem
	r, rt        []float64
	jac          []float64
	weight, curv []float64
	h, cov       *mat.SymDense
	g            *mat.VecDense
}

func newSolver(p Problem, k int) *solver {
	if p.Loss == nil {
		p.Loss = func(_ int, r float64) float64 { return r * r / 2 }
	}
	if p.Weight == nil {
		p.Weight = func(int, float64) float64 { return 1 }
	}
	s := &solver{p: p, r: make([]float64, p.M), rt: make([]float64, p.M),
		jac: make([]float64, p.M*k), weight: make([]float64, p.M),
		h: mat.NewSymDense(max(k, 1), nil), g: mat.NewVecDense(max(k, 1), nil)}
	s.curv, s.cov = s.weight, s.h
	if p.Curvature != nil {
		s.curv, s.cov = make([]float64, p.M), mat.NewSymDense(max(k, 1), nil)
	}
	return s
}

// objective sets r to the residuals at x and returns F(x).
func (s *solver) objective(x, r []float64) float64 {
	s.p.Residuals(r, x)
	f := 0.0
	for i, v := range r {
		f += s.p.Loss(i, v)
	}
	if s.p.Mean != nil {
		for j := range x {
			w2 := s.p.Width[j] * s.p.Width[j]
			f += (x[j] - s.p.Mean[j]) * (x[j] - s.p.Mean[j]) / (2 * w2)
		}
	}
	return f
}

// linearise sets the Jacobian, the weights, H and g at x, whose residuals
// are s.r.
func (s *solver) linearise(x []float64) {
	k := len(x)
	if s.p.Jacobian != nil {
		s.p.Jacobian(s.jac, x)
	} else {
		xx := slices.Clone(x)
		for j := range x {
			xx[j] = x[j] + diffStep
			s.p.Residuals(s.rt, xx)
			xx[j] = x[j]
			for i := range s.r {
				s.jac[i*k+j] = (s.rt[i] - s.r[i]) / diffStep
			}
		}
	}
	for i, v := range s.r {
		s.weight[i] = s.p.Weight(i, v)
		if s.p.Curvature != nil {
			s.curv[i] = s.p.Curvature(i, v)
		}
	}
	// g starts from the prior's gradient; H and cov take the prior's
	// precision after the residuals' sums.
	g, prec := make([]float64, k), make([]float64, k)
	if s.p.Mean != nil {
		for a := range x {
			w2 := s.p.Width[a] * s.p.Width[a]
			g[a], prec[a] = (x[a]-s.p.Mean[a])/w2, 1/w2
		}
	}
	h, cov := make([]float64, k*k), []float64(nil)
	if s.cov != s.h {
		cov = make([]float64, k*k)
	}
	for i, ri := range s.r {
		row := s.jac[i*k : (i+1)*k]
		wi, vi := s.weight[i], s.curv[i]
		for a, ja := range row {
			g[a] += wi * ja * ri
			for b := a; b < k; b++ {
				h[a*k+b] += vi * ja * row[b]
			}
			if cov != nil {
				for b := a; b < k; b++ {
					cov[a*k+b] += wi * ja * row[b]
				}
			}
		}
	}
	for a := range x {
		s.g.SetVec(a, g[a])
		s.h.SetSym(a, a, h[a*k+a]+prec[a])
		for b := a + 1; b < k; b++ {
			s.h.SetSym(a, b, h[a*k+b])
		}
		if cov != nil {
			s.cov.SetSym(a, a, cov[a*k+a]+prec[a])
			for b := a + 1; b < k; b++ {
				s.cov.SetSym(a, b, cov[a*k+b])
			}
		}
	}
}

// step looks for a damped step from x that lowers F below cur, adjusting
// *lambda, and returns the new point and F there, whose residuals are
// s.rt; ok is false when none of maxTries dampings gives one.
func (s *solver) step(x []float64, cur float64, lambda *float64) (next []float64, f float64, ok bool) {
	k := len(x)
	for range maxTries {
		damped := mat.NewSymDense(k, nil)
		damped.CopySym(s.h)
		for a := range k {
			damped.SetSym(a, a, s.h.At(a, a)+*lambda*s.cov.At(a, a))
		}
		var delta mat.VecDense
		var ch mat.Cholesky
		if !ch.Factorize(damped) || ch.SolveVecTo(&delta, s.g) != nil {
			*lambda *= 10
			continue
		}
		next = slices.Clone(x)
		for a := range k {
			next[a] -= delta.AtVec(a)
		}
		s.clip(next)
		if f = s.objective(next, s.rt); f < cur {
			*lambda = max(*lambda/10, minLambda)
			return next, f, true
		}
		*lambda *= 10
	}
	return nil, 0, false
}

// clip sets each parameter of x above its upper bound to the bound.
func (s *solver) clip(x []float64) {
	for j := range s.p.Upper {
		x[j] = min(x[j], s.p.Upper[j])
	}
}

// held returns Result.Held at x, whose residuals are s.r; it linearises at x
// only when a parameter lies on its bound.
func (s *solver) held(x []float64) []bool {
	if s.p.Upper == nil {
		return nil
	}
	out := make([]bool, len(x))
	if !slices.ContainsFunc(s.p.Upper, func(u float64) bool { return slices.Contains(x, u) }) {
		return out
	}
	s.linearise(x)
	for j := range x {
		out[j] = x[j] == s.p.Upper[j] && s.g.AtVec(j) < 0
	}
	return out
}
