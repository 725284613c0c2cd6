package commmodel

import (
	"math"
	"slices"
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
// another on t, sorted by size. Each pair is solved in closed form from its
// Lines: on a Flat link, where T(S) = T0 + T1·S (Flat.Line),
//
//	S* = (T0_b - T0_a) / (T1_a - T1_b)
//
// and on a Cluster, whose times are piecewise linear (Cluster.Lines), the
// same on each piece between the sizes where a stage's slower level changes,
// from 1 B (sub-byte pieces are not sizes).
// Where a time is not known to be linear (another Timer, a user's
// algorithm) the pair is solved as Crossings solves it. Pairs that never
// cross are left out.
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
		i, _ := fastest(len(cs), func(i int) float64 { return cs[i].at(s) })
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
// seconds for S = size bytes, cross (f - g changes sign), by size. It serves
// times that are not one Timer's, such as two algorithms each on a link
// fitted to its own measurements. If f and g are linear in S at 0, 1 MiB and
// 1 TiB the crossing is solved in closed form from those samples; otherwise
// by scanning a logarithmic grid from 1 B for sign changes of f - g and
// bisecting each.
func Crossings(f, g func(size float64) float64) []float64 {
	xs := crossings(f, g)
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x.size
	}
	return out
}

// A pairCrossing is a crossover by index: curve a is faster below size, b above.
type pairCrossing struct {
	a, b int
	size float64
}

// pairCrossings returns every crossing of every pair of curves, by size.
func pairCrossings(cs []curve) []pairCrossing {
	var out []pairCrossing
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			for _, x := range curveCrossings(&cs[i], &cs[j]) {
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

// curveCrossings returns the sizes in (0, 1 PiB] where curves f and g cross:
// in closed form where both are Lines or stages' Lines, else as crossings
// finds them.
func curveCrossings(f, g *curve) []crossing {
	switch {
	case f.isLine() && g.isLine():
		return lineCrossing(f.line, g.line)
	case f.time == nil && g.time == nil:
		return piecewiseCrossings(f, g)
	}
	return crossings(f.at, g.at)
}

// lineCrossing returns where lines f and g cross in (0, 1 PiB], if they do:
//
//	S* = (g.T0 - f.T0) / (f.T1 - g.T1)
func lineCrossing(f, g Line) []crossing {
	if f.T1 == g.T1 {
		return nil // parallel, or NaN
	}
	s := (g.T0 - f.T0) / (f.T1 - g.T1)
	if s > 0 && s <= maxCrossoverSize {
		return []crossing{{s, f.T0 < g.T0}}
	}
	return nil
}

// piecewiseCrossings returns where the piecewise-linear curves f and g cross
// in [1 B, 1 PiB], the range of scanCrossings. Between consecutive sizes at which a stage of either changes
// its slower level, f - g is one Line: its sign at those sizes tells where
// the curves cross, and the Line of the piece where the sign changes tells
// the size, in closed form. As in scanCrossings, curves that meet and part
// on the same side do not cross.
func piecewiseCrossings(f, g *curve) []crossing {
	xs := append(append([]float64{minCrossoverSize, maxCrossoverSize}, f.bends()...), g.bends()...)
	slices.Sort(xs)
	xs = slices.Compact(xs)
	var out []crossing
	last, dl := -1, 0.0 // the latest point where f - g was not zero, and its value
	for i, x := range xs {
		d := f.at(x) - g.at(x)
		if math.IsNaN(d) {
			return nil
		}
		if d == 0 {
			continue
		}
		if last >= 0 && (d < 0) != (dl < 0) {
			// f - g leaves zero in the piece after the last point.
			a, b := xs[last], xs[last+1]
			diff := f.lineOn(a, b).minus(g.lineOn(a, b))
			s := -diff.T0 / diff.T1
			if !(s >= a) { // rounding can put it just outside, or make it 0/0
				s = a
			}
			s = min(s, b)
			out = append(out, crossing{s, dl < 0})
		}
		last, dl = i, d
	}
	return out
}

// bends returns the sizes in (1 B, 1 PiB) at which a stage of the curve
// changes its slower level: where its two Lines cross.
func (c *curve) bends() []float64 {
	var out []float64
	for _, s := range c.stages {
		for _, x := range lineCrossing(s.Intra, s.Inter) {
			if x.size > minCrossoverSize && x.size < maxCrossoverSize {
				out = append(out, x.size)
			}
		}
	}
	return out
}

// lineOn returns the curve as one Line on the piece (a, b), between two
// consecutive bends: in each stage the Line that is the slower at its middle.
func (c *curve) lineOn(a, b float64) Line {
	if c.stages == nil {
		return c.line
	}
	m := a + (b-a)/2
	var l Line
	for _, s := range c.stages {
		slow := s.Intra
		if s.Inter.At(m) > s.Intra.At(m) {
			slow = s.Inter
		}
		l.T0 += slow.T0
		l.T1 += slow.T1
	}
	return l
}

// minus returns the Line l - m.
func (l Line) minus(m Line) Line { return Line{T0: l.T0 - m.T0, T1: l.T1 - m.T1} }

// crossings returns the sizes where f and g cross: in closed form from
// their secants if both are on them at 1 MiB too, else by scanCrossings.
func crossings(f, g func(float64) float64) []crossing {
	lf, lg := secant(f), secant(g)
	if onLine(f, lf) && onLine(g, lg) {
		return lineCrossing(lf, lg)
	}
	return scanCrossings(f, g, minCrossoverSize, maxCrossoverSize)
}

// secantSize is the size at which secant reads a slope, in bytes: 1 TiB,
// large enough that the slope's term dwarfs any intercept, and small enough
// that no time overflows.
const secantSize = 1 << 40

// secant returns the Line through time at 0 and secantSize: time itself if
// it is linear, to the rounding of those two values.
func secant(time func(size float64) float64) Line {
	t0 := time(0)
	return Line{T0: t0, T1: (time(secantSize) - t0) / secantSize}
}

// onLine reports whether time is on l at 1 MiB, to within 1e-9 relative: a
// test that a time seen at 0 and 1 TiB (secant) is linear, which a time that
// bends between the three sizes can pass. It is false if either is NaN.
func onLine(time func(float64) float64, l Line) bool {
	const s = 1 << 20
	at := l.T0 + l.T1*s
	return math.Abs(time(s)-at) <= 1e-9*math.Abs(at)+1e-18
}

// scanCrossings finds the sign changes of f - g on a grid of 16 points per
// octave of [lo, hi] (signChanges: where f = g exactly at grid points, the
// curves touch or coincide, a crossing is reported only if the sign on the
// far side differs from the sign before, for touching is not overtaking)
// and bisects each in log space to a relative width of 1e-12.
func scanCrossings(f, g func(float64) float64, lo, hi float64) []crossing {
	const perOctave = 16
	d := func(s float64) float64 { return f(s) - g(s) }
	var sizes, ds []float64
	step := math.Pow(2, 1.0/perOctave)
	for s := lo; ; s = min(s*step, hi) {
		sizes, ds = append(sizes, s), append(ds, d(s))
		if s >= hi {
			break
		}
	}
	var out []crossing
	for _, c := range signChanges(ds, 0) {
		out = append(out, crossing{bisect(d, sizes[c.i], sizes[c.j], ds[c.i]), ds[c.i] < 0})
	}
	return out
}

// SampledCrossings returns the sizes at which a curve d, sampled at the
// increasing sizes, changes sign: between the last sample with |d| > tol
// on one side and the first on the other, interpolated linearly in ln size
// to d = 0. Samples within tol of zero take neither side, so curves that
// touch, or run within tol of each other, and part on the side they came
// from do not cross. d is typically the difference of two times, or the log
// of their ratio, at the sizes of measurements. It returns none if a sample
// is NaN, and panics if the lengths of sizes and d differ.
func SampledCrossings(sizes, d []float64, tol float64) []float64 {
	if len(sizes) != len(d) {
		panic("commmodel: SampledCrossings: slice length mismatch")
	}
	var out []float64
	for _, c := range signChanges(d, tol) {
		la, lb := math.Log(sizes[c.i]), math.Log(sizes[c.j])
		f := d[c.i] / (d[c.i] - d[c.j])
		out = append(out, math.Exp(la+f*(lb-la)))
	}
	return out
}

// A signChange is a pair of samples i < j on opposite sides of zero with
// none between them beyond the tolerance.
type signChange struct{ i, j int }

// signChanges returns where the samples d change sign beyond tol: each
// sample with |d| > tol that is on the other side of zero from the latest
// such sample before it. It returns nil if a sample is NaN.
func signChanges(d []float64, tol float64) []signChange {
	var out []signChange
	last := -1
	for i, x := range d {
		if math.IsNaN(x) {
			return nil
		}
		if math.Abs(x) <= tol {
			continue
		}
		if last >= 0 && (x < 0) != (d[last] < 0) {
			out = append(out, signChange{last, i})
		}
		last = i
	}
	return out
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
