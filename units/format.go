package units

import (
	"math"
	"strconv"
)

// This file holds one formatter per kind of amount, all under FormatNumber's
// precision.

// FormatNumber writes v under the precision rule of every formatter here:
// three significant digits, trailing zeros dropped, and no exponent from 1
// to 1e6: 64, 1.5, 0.25, 1020, 1e+09. NaN and infinities are "NaN", "+Inf"
// and "-Inf".
func FormatNumber(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if f, err := strconv.ParseFloat(s, 64); err == nil && math.Abs(f) >= 1 && math.Abs(f) < 1e6 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

// A scale is the prefixed units of one kind of amount, in increasing size.
type scale struct {
	steps []float64 // the size of each unit, in the SI base unit
	names []string
}

var (
	sizeScale      = scale{[]float64{1, 1 << 10, 1 << 20, 1 << 30, 1 << 40}, []string{"B", "KiB", "MiB", "GiB", "TiB"}}
	bandwidthScale = scale{[]float64{1, 1e3, 1e6, 1e9, 1e12}, []string{"B/s", "KB/s", "MB/s", "GB/s", "TB/s"}}
	durationScale  = scale{[]float64{1e-9, 1e-6, 1e-3, 1}, []string{"ns", "µs", "ms", "s"}}
)

// format writes v in the largest unit not above |v| (the smallest for
// smaller v), moving up one unit when rounding reaches it: 999.7e-6 s is
// "1 ms", not "1000 µs". NaN and infinities have no unit.
func (sc scale) format(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return FormatNumber(v)
	}
	i := 0
	for i+1 < len(sc.steps) && math.Abs(v) >= sc.steps[i+1] {
		i++
	}
	s := FormatNumber(v / sc.steps[i])
	if f, _ := strconv.ParseFloat(s, 64); i+1 < len(sc.steps) && math.Abs(f)*sc.steps[i] >= sc.steps[i+1] {
		i++
		s = FormatNumber(v / sc.steps[i])
	}
	return s + " " + sc.names[i]
}

// FormatSize writes a size in bytes with a binary prefix (the sizes of
// nccl-tests sweeps are powers of two) and FormatNumber's precision:
// FormatSize(65536) is "64 KiB", FormatSize(56e3) "54.7 KiB", FormatSize(512)
// "512 B". The text may name a fraction of a byte, which ParseSize refuses.
func FormatSize(b float64) string { return sizeScale.format(b) }

// FormatBandwidth writes a bandwidth in bytes per second with a decimal
// prefix (GB/s is 1e9 B/s, as nccl-tests prints) and FormatNumber's
// precision: FormatBandwidth(3.5e11) is "350 GB/s".
func FormatBandwidth(bps float64) string { return bandwidthScale.format(bps) }

// FormatDuration writes a duration in seconds in ns, µs, ms or s, whichever
// keeps the number from 1 to 1000, with FormatNumber's precision:
// FormatDuration(2.8e-5) is "28 µs", FormatDuration(5e-10) "0.5 ns",
// FormatDuration(0) "0 s".
func FormatDuration(s float64) string {
	if s == 0 {
		return "0 s"
	}
	return durationScale.format(s)
}

// FormatTimePerByte writes seconds per byte as FormatDuration does, per
// byte: FormatTimePerByte(1e-11) is "0.01 ns/B".
func FormatTimePerByte(v float64) string { return FormatDuration(v) + "/B" }
