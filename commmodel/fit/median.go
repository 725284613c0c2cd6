package fit

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// Median returns the median of x: the middle of its sorted values, or the
// mean of the two middle ones when len(x) is even. It is NaN for an empty x
// or one holding NaN, and leaves x as it is. It is commlab's one median:
// the robust scale of the fits and their error summaries use it, and so do
// the measured claims and the analyses of the notebooks.
func Median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	return sortedMedian(slices.Clone(x))
}

// medianAbs returns the median of |x| for a non-empty x.
func medianAbs(x []float64) float64 {
	a := make([]float64, len(x))
	for i, v := range x {
		a[i] = math.Abs(v)
	}
	return sortedMedian(a)
}

// sortedMedian sorts s and returns its median.
func sortedMedian(s []float64) float64 {
	slices.Sort(s)
	// The empirical quantile at 1/2 is the lower middle, s[(n-1)/2]; for an
	// odd n it is also the upper one, s[n/2].
	return (stat.Quantile(0.5, stat.Empirical, s, nil) + s[len(s)/2]) / 2
}
