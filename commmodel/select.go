package commmodel

import "math"

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
// the one selection rule of Fastest, WinnerChanges and NewRegimeGrid.
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
func NewRegimeGrid[T Timer](algs []Algorithm, rows []T, sizes []float64) *RegimeGrid {
	m := &RegimeGrid{
		Algorithms: algs,
		P:          make([]int, len(rows)),
		Sizes:      sizes,
		Winner:     make([]int, len(rows)*len(sizes)),
		Time:       make([]float64, len(rows)*len(sizes)),
	}
	for i, t := range rows {
		m.P[i] = t.Ranks()
		for j, s := range sizes {
			k := i*len(sizes) + j
			m.Winner[k], m.Time[k] = fastest(len(algs), func(a int) float64 { return t.Time(algs[a], s) })
		}
	}
	return m
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
