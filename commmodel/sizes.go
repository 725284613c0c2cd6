package commmodel

import "math"

// LogSizes returns n sizes spaced evenly in log from lo to hi bytes,
//
//	Sᵢ = lo·2^(i/(n-1)·log2(hi/lo)),  i = 0, ..., n-1
//
// with S₀ = lo and Sₙ₋₁ = hi exactly (n = 1 gives lo alone). Where the spacing
// falls on a power-of-two multiple of lo the size is exact: LogSizes(1<<10,
// 1<<30, 21) is the powers of two from 1 KiB to 1 GiB, which gonum's
// floats.LogSpan (exp of evenly spaced logs) misses by up to 1e-6 B. It is
// the one log spacing of commlab. It is nil where n < 1 or lo or hi is not
// a finite positive size, which have no log spacing, and where n is above
// 65536 (1<<16), the most sizes one range of units.ParseSizes gives: it
// makes its n points at once, and a count far beyond would exhaust memory.
func LogSizes(lo, hi float64, n int) []float64 {
	if n < 1 || n > maxLogSizes || !finitePositive(lo) || !finitePositive(hi) {
		return nil
	}
	out := make([]float64, n)
	octaves := math.Log2(hi / lo)
	for i := range out {
		out[i] = lo * math.Exp2(octaves*float64(i)/float64(max(n-1, 1)))
	}
	if n > 1 {
		out[n-1] = hi
	}
	return out
}

// maxLogSizes is the most points LogSizes gives.
const maxLogSizes = 1 << 16

// finitePositive reports 0 < x < +Inf.
func finitePositive(x float64) bool { return x > 0 && !math.IsInf(x, 1) }
