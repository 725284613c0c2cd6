package units

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// The parsers never panic; what they accept is a finite, non-negative
// amount (positive for bandwidths) in SI units, and what they refuse is an
// AmountError with one of the four causes. A size with a unit is the same
// amount per second as a bandwidth. The seed corpus is in
// testdata/fuzz/FuzzParseUnits.
func FuzzParseUnits(f *testing.F) {
	for _, s := range []string{"64KiB", "1.5MiB", "2us", "15 µs", "350GB/s", "400Gb/s", "1e3", "-1", "NaN", "1e309GB/s", "1e308TB/s", "0x10", "  7 s ", "8Gb", "kb", "0.01ns/B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkErr := func(name string, err error) {
			var ae *AmountError
			if err != nil && (!errors.As(err, &ae) || ae.Text != s ||
				!errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnit) && !errors.Is(err, ErrRange) && !errors.Is(err, ErrFraction)) {
				t.Errorf("%s(%q): error %v is not an AmountError with a known cause", name, s, err)
			}
		}
		n, err := ParseSize(s)
		checkErr("ParseSize", err)
		if err == nil && !(n >= 0 && n < MaxSize) {
			t.Errorf("ParseSize(%q) = %d", s, n)
		}
		d, err := ParseDuration(s)
		checkErr("ParseDuration", err)
		if err == nil && !(d >= 0 && !math.IsInf(d, 0)) {
			t.Errorf("ParseDuration(%q) = %g", s, d)
		}
		b, err := ParseBandwidth(s)
		checkErr("ParseBandwidth", err)
		if err == nil && !(b > 0 && !math.IsInf(b, 0)) {
			t.Errorf("ParseBandwidth(%q) = %g", s, b)
		}
		g, err := ParseTimePerByte(s)
		checkErr("ParseTimePerByte", err)
		if err == nil && !(g >= 0 && !math.IsInf(g, 0)) {
			t.Errorf("ParseTimePerByte(%q) = %g", s, g)
		}
		if _, unit, err := splitAmount(s); err == nil && unit != "" && n > 0 && ncclTestsSuffix[unit] == 0 {
			per := strings.TrimSpace(s) + "/s"
			if bw, err := ParseBandwidth(per); err != nil || !scalar.EqualWithinRel(bw, float64(n), 1e-15) {
				t.Errorf("ParseSize(%q) = %d but ParseBandwidth(%q) = %g, %v", s, n, per, bw, err)
			}
		}
	})
}

// roundTrip is the largest relative error of Parse(Format(v)): Format keeps
// three significant digits, so the rounding is at most half a unit in the
// third digit of a number of at least 1.
const roundTrip = 5e-3 * (1 + 1e-9)

// Every formatter's text reads back, through the parser of its kind, as
// the amount it was formatted from, to within roundTrip. FormatSize may
// name a fraction of a byte, which ParseSize refuses with ErrFraction; the
// bandwidth parser reads the same size units as a float. The seed corpus is
// in testdata/fuzz/FuzzFormatRoundTrip.
func FuzzFormatRoundTrip(f *testing.F) {
	for _, v := range []float64{0, 1, 512, 1023, 56e3, 65536, 2.8e-5, 999.7e-6, 350e9, 1e-11, 1e300, 1e-300} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		v = math.Abs(v)
		if v != 0 && (v < 1e-300 || v > 1e300) || math.IsNaN(v) {
			return // subnormals carry fewer digits than Format writes; near MaxFloat64 the rounding overflows
		}
		check := func(name, text string, got float64, err error) {
			if err != nil || !scalar.EqualWithinAbs(got, v, roundTrip*v) {
				t.Errorf("%s(%g) = %q, read back as %g, %v", name, v, text, got, err)
			}
		}
		text := FormatDuration(v)
		d, err := ParseDuration(text)
		check("FormatDuration", text, d, err)
		text = FormatTimePerByte(v)
		g, err := ParseTimePerByte(text)
		check("FormatTimePerByte", text, g, err)
		if v > 0 {
			text = FormatBandwidth(v)
			b, err := ParseBandwidth(text)
			check("FormatBandwidth", text, b, err)
		}
		if v <= MaxSize {
			text = FormatSize(v)
			n, err := ParseSize(text)
			if errors.Is(err, ErrFraction) {
				if v == 0 {
					t.Errorf("FormatSize(0) = %q, refused", text)
				}
				b, err := ParseBandwidth(text + "/s")
				check("FormatSize", text, b, err)
			} else {
				check("FormatSize", text, float64(n), err)
			}
			if !strings.HasSuffix(text, "B") {
				t.Errorf("FormatSize(%g) = %q", v, text)
			}
		}
	})
}

// FuzzParseSizes: any list is read or refused without a panic, and what is
// read is sizes below 2^62 bytes (MaxSize), no more than maxRange per item.
func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"1KiB..1GiB", "8..128M:x4", "64MiB, 1K..4K", "1..2:x", "1KiB....2", "1e3..1e6:x10"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseSizes(s)
		if err != nil {
			return
		}
		if len(got) > maxRange*(strings.Count(s, ",")+1) {
			t.Fatalf("ParseSizes(%q): %d sizes", s, len(got))
		}
		for _, n := range got {
			if n < 0 || n >= MaxSize {
				t.Fatalf("ParseSizes(%q): size %d", s, n)
			}
		}
	})
}
