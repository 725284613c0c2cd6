package commmodel

import (
	"math"
	"sort"
)

// A Crossover is a size at which one algorithm overtakes another: A is faster
// below Size and B above it.
type Crossover struct {
	A, B Algorithm
	// Size is the message size at which the two take equal time, in bytes.
	Size float64
}

// Crossover range searched when a time is not linear in the size, in bytes.
const (
	minCrossoverSize = 1.0
	maxCrossoverSize = 1 << 50 // 1 PiB
)

// Crossovers returns every size in (0, 1 PiB] at which one of algs overtakes
// another on t, sorted by size. Each pair is solved in closed form when both
// times are linear in S, T(S) = T0 + T1·S, as every time on a Flat link is:
//
//	S* = (T0_b - T0_a) / (T1_a - T1_b)
//
// and otherwise (a Cluster, whose stages last as long as their slower level,
// so that times are piecewise linear; a user's algorithm whose cost is not
// linear in S) by scanning a logarithmic grid for sign changes of T_a - T_b
// and bisecting each. Pairs that never cross are left out.
func Crossovers[T Timer](algs []Algorithm, t T) []Crossover {
	xs := pairCrossings(curves(algs, t))
	out := make([]Crossover, len(xs))
	for k, x := range xs {
		out[k] = Crossover{A: algs[x.a], B: algs[x.b], Size: x.size}
	}
	return out
}

// WinnerChanges returns the crossovers at which the fastest of algs on t
// changes, by size: the edges of the regimes of Fastest. (Most of the
// crossovers Crossovers lists are between two algorithms neither of which
// is the fastest there.) Ties go to the algorithm listed first, as in
// Fastest, so of two identical times only the first can win.
func WinnerChanges[T Timer](algs []Algorithm, t T) []Crossover {
	cs := curves(algs, t)
	at := func(s float64) int {
		i, _ := fastest(len(cs), func(i int) float64 { return cs[i](s) })
		return i
	}
	var out []Crossover
	for _, x := range pairCrossings(cs) {
		if at(x.size*(1-1e-6)) == x.a && at(x.size*(1+1e-6)) == x.b {
			out = append(out, Crossover{A: algs[x.a], B: algs[x.b], Size: x.size})
		}
	}
	return out
}

// Crossings returns the sizes in (0, 1 PiB] at which the times f and g, in
// seconds for S = size bytes, cross (f - g changes sign), by size, found as
// Crossovers finds them. It serves times that are not one Timer's, such as
// two algorithms each on a link fitted to its own measurements.
func Crossings(f, g func(size float64) float64) []float64 {
	xs := crossings(f, g)
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x.size
	}
	return out
}

// curves returns each algorithm's time on t as a function of the size.
func curves[T Timer](algs []Algorithm, t T) []func(float64) float64 {
	out := make([]func(float64) float64, len(algs))
	for i, a := range algs {
		out[i] = func(s float64) float64 { return t.Time(a, s) }
	}
	return out
}

// A pairCrossing is a crossover by index: curve a is faster below size, b above.
type pairCrossing struct {
	a, b int
	size float64
}

// pairCrossings returns every crossing of every pair of curves, by size.
func pairCrossings(curves []func(float64) float64) []pairCrossing {
	var out []pairCrossing
	for i := range curves {
		for j := i + 1; j < len(curves); j++ {
			for _, x := range crossings(curves[i], curves[j]) {
				a, b := i, j
				if !x.firstFaster {
					a, b = j, i
				}
				out = append(out, pairCrossing{a, b, x.size})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].size < out[j].size })
	return out
}

// A crossing is a size where f - g changes sign; firstFaster says f < g below it.
type crossing struct {
	size        float64
	firstFaster bool
}

// crossings returns the sizes where f and g cross.
func crossings(f, g func(float64) float64) []crossing {
	if s, firstFaster, ok := linearCrossing(f, g); ok {
		if s > 0 && s <= maxCrossoverSize {
			return []crossing{{s, firstFaster}}
		}
		return nil
	}
	return scanCrossings(f, g, minCrossoverSize, maxCrossoverSize)
}

// linearCrossing solves f = g in closed form if both are linear in S. ok is
// false if either is not (or is NaN); s is +Inf for parallel lines.
func linearCrossing(f, g func(float64) float64) (s float64, firstFaster, ok bool) {
	const s1, s2 = 1 << 20, 1 << 40
	lin := func(h func(float64) float64) (t0, t1 float64, ok bool) {
		t0 = h(0)
		t1 = (h(s2) - t0) / s2
		mid := t0 + t1*s1
		return t0, t1, math.Abs(h(s1)-mid) <= 1e-9*math.Abs(mid)+1e-18
	}
	f0, f1, okf := lin(f)
	g0, g1, okg := lin(g)
	if !okf || !okg {
		return 0, false, false
	}
	if f1 == g1 {
		return math.Inf(1), false, true
	}
	return (g0 - f0) / (f1 - g1), f0 < g0, true
}

// scanCrossings finds the sign changes of f - g on a grid of 16 points per
// octave of [lo, hi] and bisects each in log space to a relative width of
// 1e-12. Where f = g exactly at grid points (the curves touch or coincide),
// a crossing is reported only if the sign on the far side differs from the
// sign before: touching is not overtaking.
func scanCrossings(f, g func(float64) float64, lo, hi float64) []crossing {
	const perOctave = 16
	d := func(s float64) float64 { return f(s) - g(s) }
	var out []crossing
	step := math.Pow(2, 1.0/perOctave)
	// last is the latest grid point where d was not zero, dl its value.
	last, dl := 0.0, 0.0
	for s := lo; ; s = min(s*step, hi) {
		ds := d(s)
		if math.IsNaN(ds) {
			return nil
		}
		if ds != 0 {
			if dl != 0 && (ds < 0) != (dl < 0) {
				out = append(out, crossing{bisect(d, last, s, dl), dl < 0})
			}
			last, dl = s, ds
		}
		if s >= hi {
			return out
		}
	}
}

// bisect narrows a sign change of d in [a, b] (d(a) = da) geometrically.
func bisect(d func(float64) float64, a, b, da float64) float64 {
	for b/a-1 > 1e-12 {
		m := math.Sqrt(a * b)
		dm := d(m)
		if dm == 0 {
			return m
		}
		if (dm < 0) == (da < 0) {
			a, da = m, dm
		} else {
			b = m
		}
	}
	return math.Sqrt(a * b)
}
