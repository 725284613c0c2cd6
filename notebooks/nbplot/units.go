package nbplot

import (
	"math"
	"strconv"
)

// Unit is the physical unit of an axis; it decides how tick values are labelled.
type Unit int

const (
	Plain          Unit = iota // a pure number, such as a rank count
	Bytes                      // B, labelled with binary prefixes: KiB, MiB, GiB
	Seconds                    // s, labelled ns, µs, ms or s
	BytesPerSecond             // B/s, labelled with decimal prefixes: MB/s, GB/s (1e9 B/s)
	Ratio                      // a dimensionless ratio, labelled "1.5x"
)

// Symbol returns the unit's symbol for an axis label ("B", "s", "B/s"); empty for Plain.
func (u Unit) Symbol() string {
	switch u {
	case Bytes:
		return "B"
	case Seconds:
		return "s"
	case BytesPerSecond:
		return "B/s"
	case Ratio:
		return "x"
	}
	return ""
}

// Format writes v (in the unit's SI base) with a prefix that keeps the number
// between 1 and 1000 (1024 for Bytes) and at most three significant digits:
// Bytes.Format(65536) is "64 KiB", Seconds.Format(2.8e-5) is "28 µs".
func (u Unit) Format(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	switch u {
	case Bytes:
		return prefixed(v, 1024, []string{"B", "KiB", "MiB", "GiB", "TiB"})
	case Seconds:
		return scaled(v, []float64{1e-9, 1e-6, 1e-3, 1}, []string{"ns", "µs", "ms", "s"})
	case BytesPerSecond:
		return prefixed(v, 1000, []string{"B/s", "KB/s", "MB/s", "GB/s", "TB/s"})
	case Ratio:
		return short(v) + "x"
	}
	return short(v)
}

// prefixed divides v by base until it is below base, naming each step.
func prefixed(v, base float64, names []string) string {
	i := 0
	for i < len(names)-1 && math.Abs(v) >= base {
		v /= base
		i++
	}
	return short(v) + " " + names[i]
}

// scaled picks the largest scale not above |v| (the smallest for tiny v).
func scaled(v float64, scales []float64, names []string) string {
	i := 0
	for i < len(scales)-1 && math.Abs(v) >= scales[i+1]*(1-1e-9) {
		i++
	}
	if v == 0 {
		return "0 " + names[len(names)-1]
	}
	return short(v/scales[i]) + " " + names[i]
}

// short formats with at most three significant digits and no exponent for
// values of ordinary size: 64, 1.5, 0.25, 1e+09 for huge values.
func short(v float64) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if f, err := strconv.ParseFloat(s, 64); err == nil && math.Abs(f) >= 1 && math.Abs(f) < 1e6 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return s
}

// FormatSize, FormatTime and FormatBW are Bytes.Format, Seconds.Format and
// BytesPerSecond.Format, for table cells.
func FormatSize(b float64) string { return Bytes.Format(b) }

// FormatTime formats a duration in seconds: FormatTime(2.8e-5) is "28 µs".
func FormatTime(s float64) string { return Seconds.Format(s) }

// FormatBW formats a bandwidth in B/s: FormatBW(3.5e11) is "350 GB/s".
func FormatBW(bps float64) string { return BytesPerSecond.Format(bps) }
