package fit_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/inframethod/commlab/commmodel/fit"
)

// BenchmarkFitPiecewise fits the three-regime curve with 1% noise: 40 sizes
// spaced evenly in log size (a long nccl-tests sweep), and 10,000
// log-uniform sizes. Targets (docs/performance.md): <= 5 ms and <= 200 ms.
func BenchmarkFitPiecewise(b *testing.B) {
	for _, n := range []int{40, 10000} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		sizes := make([]float64, n)
		for i := range sizes {
			if n <= 40 {
				sizes[i] = math.Round(math.Exp2(3 + 30*float64(i)/float64(n-1)))
			} else {
				sizes[i] = math.Round(math.Exp2(3 + 30*rng.Float64()))
			}
		}
		samples := threeRegimeSamples(sizes, 0.01, 1)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := fit.Piecewise(samples, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFitPiecewiseCandidates fits the three-regime curve with 1% noise
// at 5,000 and 20,000 log-uniform sizes with the default Candidates and with
// the most a fit takes (fit.MaxCandidates): the regime search costs
// O(K·M²) for M candidates in each of its reweighting iterations, so M bounds
// a call's time (docs/performance.md: <= 1 s at the most).
func BenchmarkFitPiecewiseCandidates(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		sizes := make([]float64, n)
		for i := range sizes {
			sizes[i] = math.Round(math.Exp2(3 + 30*rng.Float64()))
		}
		samples := threeRegimeSamples(sizes, 0.01, 1)
		for _, m := range []int{0, fit.MaxCandidates} {
			b.Run(strconv.Itoa(n)+"/"+strconv.Itoa(m), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := fit.Piecewise(samples, &fit.Settings{Candidates: m, Bootstrap: -1}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
