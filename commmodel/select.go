package commmodel

import "math"

// Fastest returns the quickest of c's single-level algorithms (Algorithms)
// for p ranks and S = size bytes on l, and its time in seconds. Ties go to
// the algorithm listed first. It returns nil and NaN if no time is defined
// (size negative or NaN, l not Valid).
func Fastest(c Collective, p int, size float64, l Link) (Algorithm, float64) {
	return FastestOf(Algorithms(c), p, size, l)
}

// FastestOf is Fastest over the given candidates.
func FastestOf(algs []Algorithm, p int, size float64, l Link) (Algorithm, float64) {
	best, bestT := Algorithm(nil), math.NaN()
	for _, a := range algs {
		t := Time(a, p, size, l)
		if t < bestT || (best == nil && !math.IsNaN(t)) {
			best, bestT = a, t
		}
	}
	return best, bestT
}

// ClusterFastest returns the quickest of algs on c for S = size bytes and
// its time in seconds (Cluster.Time); ties go to the one listed first, and nil
// and NaN mean no time is defined. On one node it is FastestOf on c.Intra.
func ClusterFastest(algs []Algorithm, c Cluster, size float64) (Algorithm, float64) {
	best, bestT := Algorithm(nil), math.NaN()
	for _, a := range algs {
		if t := c.Time(a, size); t < bestT || (best == nil && !math.IsNaN(t)) {
			best, bestT = a, t
		}
	}
	return best, bestT
}

// RegimeMap records which algorithm wins where over a grid of rank counts and
// sizes. It satisfies gonum/plot's plotter.GridXYZ (columns are sizes, rows
// rank counts, Z the winner's index in Algorithms), so it can be drawn as a
// heat map directly.
type RegimeMap struct {
	// Algorithms are the candidates; Winner holds indices into it.
	Algorithms []Algorithm
	// P are the rank counts of the rows.
	P []int
	// Sizes are the message sizes of the columns, in bytes.
	Sizes []float64
	// Winner is the index of the fastest algorithm at row i, column j, at
	// i·len(Sizes)+j; -1 where no time is defined.
	Winner []int
	// Time is the winner's time there, in seconds.
	Time []float64
}

// NewRegimeMap evaluates every candidate of c (Algorithms) at every rank count
// of ps and every size of sizes on l.
func NewRegimeMap(c Collective, ps []int, sizes []float64, l Link) *RegimeMap {
	return NewRegimeMapOf(Algorithms(c), ps, sizes, l)
}

// NewRegimeMapOf is NewRegimeMap over the given candidates.
func NewRegimeMapOf(algs []Algorithm, ps []int, sizes []float64, l Link) *RegimeMap {
	m := &RegimeMap{
		Algorithms: algs,
		P:          ps,
		Sizes:      sizes,
		Winner:     make([]int, len(ps)*len(sizes)),
		Time:       make([]float64, len(ps)*len(sizes)),
	}
	for i, p := range ps {
		for j, s := range sizes {
			k := i*len(sizes) + j
			m.Winner[k], m.Time[k] = -1, math.NaN()
			for a, alg := range algs {
				if t := Time(alg, p, s, l); t < m.Time[k] || (m.Winner[k] < 0 && !math.IsNaN(t)) {
					m.Winner[k], m.Time[k] = a, t
				}
			}
		}
	}
	return m
}

// At returns the winning algorithm at rank count index i and size index j
// (nil where no time is defined).
func (m *RegimeMap) At(i, j int) Algorithm {
	w := m.Winner[i*len(m.Sizes)+j]
	if w < 0 {
		return nil
	}
	return m.Algorithms[w]
}

// Dims returns the grid's columns (sizes) and rows (rank counts).
func (m *RegimeMap) Dims() (c, r int) { return len(m.Sizes), len(m.P) }

// X returns the size of column c, in bytes.
func (m *RegimeMap) X(c int) float64 { return m.Sizes[c] }

// Y returns the rank count of row r.
func (m *RegimeMap) Y(r int) float64 { return float64(m.P[r]) }

// Z returns the winner's index at column c, row r (NaN where undefined).
func (m *RegimeMap) Z(c, r int) float64 {
	w := m.Winner[r*len(m.Sizes)+c]
	if w < 0 {
		return math.NaN()
	}
	return float64(w)
}

// LogSizes returns n sizes spaced evenly in log from lo to hi bytes.
func LogSizes(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		if n == 1 {
			out[i] = lo
			continue
		}
		out[i] = lo * math.Pow(hi/lo, float64(i)/float64(n-1))
	}
	return out
}
