package units

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// The expected values follow from the definitions the grammar states: SI
// prefixes are powers of 1000 (k = 1e3), IEC 80000-13 binary prefixes powers
// of 1024 (Ki = 2^10), and a byte is 8 bits.

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"4096": 4096, "0": 0, "-0": 0, "128B": 128, "64KB": 64000, "64kB": 64000, "64 KiB": 65536,
		"1.5MiB": 1572864, "1GB": 1e9, "2GiB": 2 << 30, "1TiB": 1 << 40, "3TB": 3e12, "1e3": 1000,
		"+7 B": 7, "5.KB": 5000, " 0.3KB ": 300, "0.1 MB": 1e5, ".5KiB": 512,
		// Bits: 8 Gb = 8e9 bits = 1e9 B.
		"8Gb": 1e9, "8b": 1, "16 bit": 2, "1Kib": 128, "1Mbit": 125000, "4Tb": 5e11, "8Gib": 1 << 30,
		"4611686018427387392": 1<<62 - 512, // the largest size whose float64 is below 2^62
		// 2^62 - 1, the largest size below MaxSize: the bound is the whole
		// number's, where its float64 (2^62) refused it before.
		"4611686018427387903": 1<<62 - 1, "4611686018427387903B": 1<<62 - 1,
		// A bare K, M or G, either case, as nccl-tests reads it (parsesize in its src/common.cu): powers of 1024.
		"1K": 1 << 10, "64k": 64 << 10, "1M": 1 << 20, "4m": 4 << 20, "1G": 1 << 30, "2g": 2 << 30,
	} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, cause := range map[string]error{
		"": ErrSyntax, "KB": ErrSyntax, "--1": ErrSyntax, "NaN": ErrSyntax, "Inf": ErrSyntax, "0x10": ErrUnit,
		"1_000": ErrUnit, "12XB": ErrUnit, "1 byte": ErrUnit,
		// Case decides: kb, mb and gb are used for both bytes and bits, and m is milli.
		"56kb": ErrUnit, "1mb": ErrUnit, "1gb": ErrUnit, "1mB": ErrUnit, "1kib": ErrUnit, "1GIB": ErrUnit,
		// A binary prefix without B or b, and T, which nccl-tests does not read.
		"1Gi": ErrUnit, "1T": ErrUnit,
		"-1": ErrRange, "1e30": ErrRange, "4611686018427387904": ErrRange, "4194304TiB": ErrRange, "1e-400": ErrRange, "1e309KB": ErrRange,
		"1.5B": ErrFraction, "12b": ErrFraction, "1b": ErrFraction, "1e-5": ErrFraction, "0.0001KB": ErrFraction,
	} {
		_, err := ParseSize(in)
		var ae *AmountError
		if !errors.Is(err, cause) || !errors.As(err, &ae) || ae.Kind != "size" || ae.Text != in {
			t.Errorf("ParseSize(%q): error %v, want an AmountError of kind size wrapping %v", in, err, cause)
		}
	}
	// A huge exponent on a zero is 0, read without building 10^999999999.
	if got, err := ParseSize("0e999999999KB"); err != nil || got != 0 {
		t.Errorf("ParseSize(0e999999999KB) = %d, %v", got, err)
	}
}

// The messages say what was wrong and what to write instead.
func TestParseSizeMessages(t *testing.T) {
	for in, want := range map[string]string{
		"56kb": `size "56kb": "kb" is ambiguous: write KB (bytes), KiB (binary bytes) or Kb (bits)`,
		"1mb":  `write MB (bytes), MiB (binary bytes) or Mb (bits)`,
		"1gib": `write GiB for bytes or Gib for bits`,
		"1Mi":  `"Mi" is ambiguous: write MiB for bytes`,
		"12b":  `size "12b": 1.5 B is not a whole number of bytes`,
		"12XB": `unknown unit "XB" (want B, kB/KB, MB`,
	} {
		if _, err := ParseSize(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSize(%q): error %v, want it to contain %q", in, err, want)
		}
	}
}

func TestParseSizes(t *testing.T) {
	got, err := ParseSizes("1KiB,2MB, 3,8Gb")
	if want := []int64{1024, 2e6, 3, 1e9}; err != nil || len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("ParseSizes = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "1KiB,", "1KiB,,2", "1KiB,2kb"} {
		if _, err := ParseSizes(bad); err == nil {
			t.Errorf("ParseSizes(%q) succeeded", bad)
		}
	}
}

// TestParseSizeRanges: A..B doubles from A to at most B, A..B:xF steps by F,
// as nccl-tests' -b, -e and -f; and bad ranges say what works.
func TestParseSizeRanges(t *testing.T) {
	for in, want := range map[string][]int64{
		"1KiB..8KiB":                {1024, 2048, 4096, 8192},
		"1K..5K":                    {1024, 2048, 4096},
		"8..1M:x16":                 {8, 128, 2048, 32768, 524288},
		"64MiB,1KiB..2KiB":          {64 << 20, 1024, 2048},
		"1GiB..1GiB":                {1 << 30},
		"1..4611686018427387392:x2": nil, // 62 sizes, checked by count below
	} {
		got, err := ParseSizes(in)
		if err != nil {
			t.Errorf("ParseSizes(%q): %v", in, err)
			continue
		}
		if want == nil {
			if len(got) != 62 || got[61] != 1<<61 {
				t.Errorf("ParseSizes(%q): %d sizes, last %d", in, len(got), got[len(got)-1])
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("ParseSizes(%q) = %v, want %v", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"2KiB..1KiB":    "1 B <= A <= B",
		"0..1KiB":       "1 B <= A <= B",
		"1KiB..1MiB:2":  "want x and a whole factor",
		"1KiB..1MiB:x1": "factor of 2 or more",
		"1kb..1MiB":     `"kb" is ambiguous`,
	} {
		if _, err := ParseSizes(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSizes(%q): %v, want an error with %q", in, err, want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]float64{
		"2us": 2e-6, "15 µs": 15e-6, "15μs": 15e-6, "0.5ms": 5e-4, "1s": 1, "300ns": 3e-7, "1e-6s": 1e-6, "0s": 0, "-0ns": 0,
	} {
		got, err := ParseDuration(in)
		if err != nil || !scalar.EqualWithinRel(got, want, 1e-12) || math.Signbit(got) {
			t.Errorf("ParseDuration(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	for in, cause := range map[string]error{
		"2": ErrUnit, "2 hours": ErrUnit, "2US": ErrUnit, "2 Ms": ErrUnit, "us": ErrSyntax, "Inf s": ErrSyntax,
		"-1us": ErrRange, "1e309s": ErrRange, "1e-320ns": ErrRange,
	} {
		if _, err := ParseDuration(in); !errors.Is(err, cause) {
			t.Errorf("ParseDuration(%q): error %v, want %v", in, err, cause)
		}
	}
}

func TestParseBandwidth(t *testing.T) {
	for in, want := range map[string]float64{
		"350GB/s": 350e9, "20 GB/s": 20e9, "20 kB/s": 20e3, "1GiB/s": 1 << 30, "5e9B/s": 5e9,
		// Bits: a 400G NIC's line rate is 400 Gb/s = 50 GB/s.
		"400Gb/s": 50e9, "400 Gbit/s": 50e9, "100 Mb/s": 12.5e6, "8b/s": 1, "1 Kib/s": 128,
	} {
		got, err := ParseBandwidth(in)
		if err != nil || !scalar.EqualWithinRel(got, want, 1e-12) {
			t.Errorf("ParseBandwidth(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	for in, cause := range map[string]error{
		"350": ErrUnit, "350GB": ErrUnit, "3 parsecs": ErrUnit, "400Gbps": ErrUnit, "10gb/s": ErrUnit, "1kb/s": ErrUnit,
		"GB/s": ErrSyntax, "0GB/s": ErrRange, "-1GB/s": ErrRange, "1e308TB/s": ErrRange,
	} {
		if _, err := ParseBandwidth(in); !errors.Is(err, cause) {
			t.Errorf("ParseBandwidth(%q): error %v, want %v", in, err, cause)
		}
	}
	if _, err := ParseBandwidth("400Gbps"); err == nil || !strings.Contains(err.Error(), "write Gb/s") {
		t.Errorf("ParseBandwidth(400Gbps): error %v, want the hint Gb/s", err)
	}
}

// b is a bit and B a byte in sizes and bandwidths alike: "8Gb" is the same
// amount as a size and, per second, as a bandwidth.
func TestSizeAndBandwidthAgree(t *testing.T) {
	for _, s := range []string{"8Gb", "8GB", "1KiB", "64 kB", "16 bit", "2Mib", "1.5TB"} {
		n, err := ParseSize(s)
		bw, err2 := ParseBandwidth(s + "/s")
		if err != nil || err2 != nil || float64(n) != bw {
			t.Errorf("ParseSize(%q) = %d, %v but ParseBandwidth(%q) = %g, %v", s, n, err, s+"/s", bw, err2)
		}
	}
}

func TestParseTimePerByte(t *testing.T) {
	for in, want := range map[string]float64{
		"0.01ns/B": 1e-11, "10 ns/KB": 1e-11, "1us/MiB": 1e-6 / (1 << 20), "1ns/b": 8e-9, "1e-11": 1e-11, "0": 0, "2.5 µs/GB": 2.5e-15,
	} {
		got, err := ParseTimePerByte(in)
		if err != nil || !scalar.EqualWithinRel(got, want, 1e-12) {
			t.Errorf("ParseTimePerByte(%q) = %g, %v; want %g", in, got, err, want)
		}
	}
	for in, cause := range map[string]error{
		"1ns": ErrUnit, "1ns/": ErrUnit, "1/B": ErrUnit, "1 hour/B": ErrUnit, "1ns/kb": ErrUnit, "1s/B/s": ErrUnit,
		"-1ns/B": ErrRange, "1e-320ns/TB": ErrRange, "ns/B": ErrSyntax,
	} {
		if _, err := ParseTimePerByte(in); !errors.Is(err, cause) {
			t.Errorf("ParseTimePerByte(%q): error %v, want %v", in, err, cause)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{FormatSize(65536), "64 KiB"},  // 2^16 B
		{FormatSize(1 << 20), "1 MiB"}, // 2^20 B
		{FormatSize(56e3), "54.7 KiB"}, // the article's ~56 KB decode AllReduce, 56000/1024
		{FormatSize(512), "512 B"},     // below 1 KiB
		{FormatSize(1023), "1020 B"},   // three digits of 1023
		{FormatSize(1.5 * (1 << 30)), "1.5 GiB"},
		{FormatSize(0), "0 B"},
		{FormatSize(math.NaN()), "NaN"},
		{FormatDuration(2.8e-5), "28 µs"},     // article: ring P=8, 14 steps x 2 us
		{FormatDuration(3.1e-6), "3.1 µs"},    // public H20 log: empty-call floor
		{FormatDuration(4.409e-3), "4.41 ms"}, // article: AllToAll 2x8 at 128 MB, 4409 us
		{FormatDuration(5e-10), "0.5 ns"},     // below the smallest prefix
		{FormatDuration(999.7e-6), "1 ms"},    // rounds up to the next prefix, not "1000 µs"
		{FormatDuration(-2.8e-5), "-28 µs"},
		{FormatDuration(2), "2 s"},
		{FormatDuration(0), "0 s"},
		{FormatBandwidth(350e9), "350 GB/s"}, // article's intra-node BW, GB/s = 1e9 B/s
		{FormatBandwidth(20e9), "20 GB/s"},   // article's inter-node BW
		{FormatBandwidth(12.5e6), "12.5 MB/s"},
		{FormatBandwidth(999.9e9), "1 TB/s"},
		{FormatTimePerByte(1e-11), "0.01 ns/B"},
		{FormatTimePerByte(0), "0 s/B"},
		{FormatNumber(8), "8"},
		{FormatNumber(0.25), "0.25"},
		{FormatNumber(1234), "1230"},
		{FormatNumber(1e9), "1e+09"},
		{FormatNumber(math.Inf(1)), "+Inf"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
