package commmodel

import (
	"math"
	"testing"
)

// The unit parsers never panic, and what they accept is a finite,
// non-negative quantity (positive for bandwidths) in SI units.
func FuzzParseUnits(f *testing.F) {
	for _, s := range []string{"64KiB", "1.5MiB", "2us", "15 µs", "350GB/s", "400Gb/s", "1e3", "-1", "NaN", "1e309GB/s", "1e308TB/s", "0x10", "  7 s "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := ParseSize(s); err == nil && n < 0 {
			t.Errorf("ParseSize(%q) = %d", s, n)
		}
		if d, err := ParseDuration(s); err == nil && !(d >= 0 && !math.IsInf(d, 0)) {
			t.Errorf("ParseDuration(%q) = %g", s, d)
		}
		if b, err := ParseBandwidth(s); err == nil && !(b > 0 && !math.IsInf(b, 0)) {
			t.Errorf("ParseBandwidth(%q) = %g", s, b)
		}
	})
}
