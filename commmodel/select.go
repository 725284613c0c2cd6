package commmodel

import (
	"math"
	"math/bits"
)

// Fastest returns the quickest of algs on t for S = size bytes, and its time
// in seconds. Ties go to the algorithm listed first. It returns nil and NaN
// if no time is defined (size negative or NaN, a link not Valid).
//
// For the single-level algorithms of a collective c on P ranks of one link:
//
//	Fastest(Algorithms(c), Flat{P: p, Link: l}, size)
func Fastest[T Timer](algs []Algorithm, t T, size float64) (Algorithm, float64) {
	i, bt := fastest(len(algs), func(i int) float64 { return t.Time(algs[i], size) })
	if i < 0 {
		return nil, bt
	}
	return algs[i], bt
}

// fastest returns the index of the least of time(0), ..., time(n-1) that is
// not NaN, the first on ties, and that time; -1 and NaN if all are NaN. It is
// the one selection rule of Fastest, WinnerChanges and NewRegimeGrid, and
// gonum's floats.MinIdx's rule for values in a slice; it takes a function so
// that choosing allocates nothing.
func fastest(n int, time func(i int) float64) (int, float64) {
	best, bestT := -1, math.NaN()
	for i := range n {
		if t := time(i); t < bestT || (best < 0 && !math.IsNaN(t)) {
			best, bestT = i, t
		}
	}
	return best, bestT
}

// RegimeGrid records which algorithm wins where over a grid of timers (the
// rows: rank counts on one link, say) and sizes (the columns).
type RegimeGrid struct {
	// Algorithms are the candidates; Winner holds indices into it.
	Algorithms []Algorithm
	// P are the rank counts of the rows (Timer.Ranks).
	P []int
	// Sizes are the message sizes of the columns, in bytes.
	Sizes []float64
	// Winner is the index of the fastest algorithm at row i, column j, at
	// i·len(Sizes)+j; -1 where no time is defined.
	Winner []int
	// Time is the winner's time there, in seconds.
	Time []float64
}

// NewRegimeGrid evaluates every candidate of algs on every timer of rows at
// every size of sizes, and keeps the fastest (as Fastest does). For the
// single-level algorithms of c on one link l at the rank counts ps:
//
//	NewRegimeGrid(Algorithms(c), Flats(ps, l), sizes)
//
// Each candidate's time on a row is computed once as a Line or its stages'
// Lines (TimeCurve) and evaluated at every size, so Time holds the times to
// within 2^-50 relative of the Timer's, and a tie within that is decided by
// the Lines.
func NewRegimeGrid[T Timer](algs []Algorithm, rows []T, sizes []float64) *RegimeGrid {
	return RegimeGridInto(nil, algs, rows, sizes)
}

// RegimeGridInto is NewRegimeGrid into dst, whose P, Winner and Time it
// reuses where they are long enough, and returns dst (a new RegimeGrid if
// dst is nil): a program that recomputes a map, as a notebook's slider
// does, then leaves the garbage collector nothing to do.
func RegimeGridInto[T Timer](dst *RegimeGrid, algs []Algorithm, rows []T, sizes []float64) *RegimeGrid {
	m := dst
	if m == nil {
		m = new(RegimeGrid)
	}
	n := len(sizes)
	m.Algorithms, m.Sizes = algs, sizes
	m.P = resize(m.P, len(rows))
	m.Winner = resize(m.Winner, len(rows)*n)
	m.Time = resize(m.Time, len(rows)*n)
	cs := make([]curve, len(algs))
	lines, which := make([]Line, 0, len(algs)), make([]int, 0, len(algs))
	var sw lineSweep
	sorted := ascending(sizes)
	for i, t := range rows {
		m.P[i] = t.Ranks()
		for a, alg := range algs {
			cs[a] = curveOf(alg, t)
		}
		win, best := m.Winner[i*n:(i+1)*n], m.Time[i*n:(i+1)*n]
		var ok bool
		if lines, which, ok = definedLines(lines[:0], which[:0], cs); !ok {
			fastestOfCurves(win, best, cs, sizes)
			continue
		}
		if sorted && len(lines) > 0 {
			sw.fill(win, best, lines, which, sizes)
			continue
		}
		fastestOfLines(win, best, lines, which, sizes)
		for j, s := range sizes {
			if !(s >= 0 && s < math.Inf(1)) {
				win[j], best[j] = fastest(len(cs), func(a int) float64 { return cs[a].at(s) })
			}
		}
	}
	return m
}

// ascending reports whether sizes are finite, at least 0 and in increasing
// order, as LogSizes makes them.
func ascending(sizes []float64) bool {
	prev := 0.0
	for _, s := range sizes {
		if !(s >= prev) || math.IsInf(s, 1) {
			return false
		}
		prev = s
	}
	return true
}

// A lineSweep finds the fastest of some Lines at sizes in increasing order
// with fastestOfLines' answers, to the bit, in a fraction of its work: a
// Line slower than another by more than 1e-9 relative at both ends of a run
// of sizes is slower throughout (their difference, less 1e-9 of the slower,
// is a Line, positive at both ends), and by far more than the rounding of
// either, so it cannot win or tie anywhere in the run and is dropped. A run
// left with one Line is that Line's times; one left with more is halved,
// down to runs of minRun sizes, which compare the Lines left size by size.
// With a few crossovers in a row, nearly every size costs one multiply and
// one add.
type lineSweep struct {
	win   []int
	best  []float64
	lines []Line
	which []int
	sizes []float64
	buf   []int // the Lines left, len(lines) per level of halving
}

const (
	// minRun is the shortest run of sizes that a lineSweep halves.
	minRun = 16
	// sweepMargin is how much slower a Line must be, relative, to be dropped.
	sweepMargin = 1e-9
)

// fill is fastestOfLines for sizes that are ascending.
func (w *lineSweep) fill(win []int, best []float64, lines []Line, which []int, sizes []float64) {
	w.win, w.best, w.lines, w.which, w.sizes = win[:len(sizes)], best[:len(sizes)], lines, which, sizes
	levels := bits.Len(uint(len(sizes))) + 2
	if need := levels * len(lines); cap(w.buf) < need {
		w.buf = make([]int, need)
	}
	all := w.buf[:len(lines)]
	for k := range all {
		all[k] = k
	}
	w.run(0, len(sizes), all, 1)
}

// run fills sizes[lo:hi] from the Lines alive (indices into lines, in order).
func (w *lineSweep) run(lo, hi int, alive []int, level int) {
	if lo == hi {
		return
	}
	a, b := w.sizes[lo], w.sizes[hi-1]
	m := len(w.lines)
	keep := w.buf[level*m : level*m : (level+1)*m]
	for _, k := range alive {
		if !w.slower(k, alive, a, b) {
			keep = append(keep, k)
		}
	}
	sizes, win, best := w.sizes[lo:hi], w.win[lo:hi], w.best[lo:hi]
	switch {
	case len(keep) == 1:
		l, k := w.lines[keep[0]], w.which[keep[0]]
		for j, s := range sizes {
			win[j], best[j] = k, l.T0+l.T1*s
		}
	case hi-lo <= minRun:
		for j, s := range sizes {
			k0 := keep[0]
			bt := w.lines[k0].T0 + w.lines[k0].T1*s
			for _, k := range keep[1:] {
				if t := w.lines[k].T0 + w.lines[k].T1*s; t < bt {
					k0, bt = k, t
				}
			}
			win[j], best[j] = w.which[k0], bt
		}
	default:
		mid := lo + (hi-lo)/2
		w.run(lo, mid, keep, level+1)
		w.run(mid, hi, keep, level+1)
	}
}

// slower reports whether Line k is slower than another of alive by more
// than sweepMargin relative at sizes a and b, a <= b.
func (w *lineSweep) slower(k int, alive []int, a, b float64) bool {
	lk := w.lines[k]
	ka, kb := lk.T0+lk.T1*a, lk.T0+lk.T1*b
	for _, i := range alive {
		if i == k {
			continue
		}
		li := w.lines[i]
		if ka-(li.T0+li.T1*a) > sweepMargin*ka && kb-(li.T0+li.T1*b) > sweepMargin*kb {
			return true
		}
	}
	return false
}

// resize returns s with length n, in place if its capacity is enough.
func resize[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]E, n)
}

// definedLines appends to lines the Lines of cs that are not NaN, and to
// which their indices in cs; ok is false if a curve of cs is not one Line.
func definedLines(lines []Line, which []int, cs []curve) (_ []Line, _ []int, ok bool) {
	for a := range cs {
		if !cs[a].isLine() {
			return lines, which, false
		}
		if l := cs[a].line; !math.IsNaN(l.T0) && !math.IsNaN(l.T1) {
			lines, which = append(lines, l), append(which, a)
		}
	}
	return lines, which, true
}

// fastestOfLines puts into win and best the index (which[k]) and time of
// the fastest of lines at each of sizes, the first on ties, as fastest
// does; -1 and NaN if there are no lines. Sizes that are negative, NaN or
// +Inf are left to the caller: at the others a Line that is not NaN has a
// finite time, so the loops compare times and nothing else. They run over
// the sizes once per line, each size on its own, which keeps the CPU's
// pipelines full.
func fastestOfLines(win []int, best []float64, lines []Line, which []int, sizes []float64) {
	win, best = win[:len(sizes)], best[:len(sizes)]
	if len(lines) == 0 {
		for j := range sizes {
			win[j], best[j] = -1, math.NaN()
		}
		return
	}
	l, w := lines[0], which[0]
	for j, s := range sizes {
		win[j], best[j] = w, l.T0+l.T1*s
	}
	for k := 1; k < len(lines); k++ {
		l, w := lines[k], which[k]
		for j, s := range sizes {
			if t := l.T0 + l.T1*s; t < best[j] {
				win[j], best[j] = w, t
			}
		}
	}
}

// fastestOfCurves puts into win and best the index and time of the fastest
// of cs at each of sizes, as fastest decides.
func fastestOfCurves(win []int, best []float64, cs []curve, sizes []float64) {
	for j, s := range sizes {
		win[j], best[j] = fastest(len(cs), func(a int) float64 { return cs[a].at(s) })
	}
}

// At returns the winning algorithm at row i and column j (nil where no time
// is defined).
func (m *RegimeGrid) At(i, j int) Algorithm {
	w := m.Winner[i*len(m.Sizes)+j]
	if w < 0 {
		return nil
	}
	return m.Algorithms[w]
}
