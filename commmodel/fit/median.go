package fit

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Median returns the median of x: the middle of its sorted values, or the
// mean of the two middle ones when len(x) is even, which is quantile(x, 1/2)
// to rounding. It is NaN for an empty x or one holding NaN, and leaves x as
// it is. It is commlab's one median: the robust scale of the fits and their
// error summaries use it, and so do the measured claims and the analyses of
// the notebooks.
func Median(x []float64) float64 {
	return sortedMedian(slices.Clone(x))
}

// medianAbs returns the median of |x|.
func medianAbs(x []float64) float64 {
	a := make([]float64, len(x))
	for i, v := range x {
		a[i] = math.Abs(v)
	}
	return sortedMedian(a)
}

// sortedMedian sorts s and returns its median, NaN if s is empty or holds
// NaN (which slices.Sort puts first).
func sortedMedian(s []float64) float64 {
	slices.Sort(s)
	n := len(s)
	if n == 0 || math.IsNaN(s[0]) {
		return math.NaN()
	}
	return (s[(n-1)/2] + s[n/2]) / 2
}

// quantile returns the p quantile of x (sorting x), 0 <= p <= 1,
// interpolating linearly between its order statistics: with x sorted and
// h = p·(n-1),
//
//	x[⌊h⌋] + (h - ⌊h⌋)·(x[⌊h⌋+1] - x[⌊h⌋])
//
// (Hyndman and Fan's type 7, the default of R and NumPy), so that the 1/2
// quantile is the Median. It is gonum's stat.Quantile with LinInterp, which
// places x[k] at the cumulative fraction (k+1)/n (type 4), asked for
// p' = (1 + p·(n-1))/n, where type 4 is type 7, to rounding. It is NaN for
// an empty x or one holding NaN.
func quantile(x []float64, p float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	slices.Sort(x)
	n := float64(len(x))
	return stat.Quantile((1+p*(n-1))/n, stat.LinInterp, x, nil)
}
