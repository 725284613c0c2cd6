package commmodel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Units of text in and out follow nccl-tests: decimal prefixes are powers of
// 1000 (GB/s = 1e9 B/s), binary prefixes powers of 1024.

var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
}

var durationUnits = map[string]float64{
	"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1,
}

var bandwidthUnits = map[string]float64{
	"b/s": 1, "kb/s": 1e3, "mb/s": 1e6, "gb/s": 1e9, "tb/s": 1e12,
	"kib/s": 1 << 10, "mib/s": 1 << 20, "gib/s": 1 << 30,
	"gbit/s": 1e9 / 8, "gbps": 1e9 / 8, "mbit/s": 1e6 / 8,
}

// splitNumber splits "12.5 MiB" into 12.5 and "MiB".
func splitNumber(s string) (float64, string, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '+' || s[i] == '-' ||
		(s[i] == 'e' || s[i] == 'E') && i > 0 && i+1 < len(s) && (s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] == '-' || s[i+1] == '+')) {
		i++
	}
	if i == 0 {
		return 0, "", fmt.Errorf("%q does not start with a number", s)
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "", fmt.Errorf("%q: bad number %q", s, s[:i])
	}
	return v, strings.TrimSpace(s[i:]), nil
}

// ParseSize reads a byte count such as "4096", "64KB" (64000), "64 KiB" (65536)
// or "1.5MiB". The result must be a non-negative whole number of bytes.
func ParseSize(s string) (int64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, fmt.Errorf("size %w", err)
	}
	f, ok := sizeUnits[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown unit %q (want B, KB, MB, GB, KiB, MiB, GiB)", s, unit)
	}
	b := v * f
	if b < 0 || b > math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q: out of range", s)
	}
	if b != math.Trunc(b) {
		return 0, fmt.Errorf("size %q: %g is not a whole number of bytes", s, b)
	}
	return int64(b), nil
}

// ParseSizes reads a comma-separated list of sizes.
func ParseSizes(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := ParseSize(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// ParseDuration reads a duration such as "2us", "15 µs", "0.5ms" or "1e-6s"
// and returns seconds. A bare number is an error: the unit must be named.
func ParseDuration(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, fmt.Errorf("duration %w", err)
	}
	f, ok := durationUnits[strings.ToLower(unit)]
	if !ok {
		return 0, fmt.Errorf("duration %q: unknown or missing unit %q (want ns, us, µs, ms, s)", s, unit)
	}
	if v < 0 {
		return 0, fmt.Errorf("duration %q is negative", s)
	}
	if math.IsInf(v*f, 0) {
		return 0, fmt.Errorf("duration %q: out of range", s)
	}
	return v * f, nil
}

// ParseBandwidth reads a bandwidth such as "350GB/s" (3.5e11 B/s), "20 GiB/s"
// or "400Gb/s" (bits: 5e10 B/s) and returns bytes per second. "Gb/s" with a
// lower-case b is bits, as network line rates are written; "GB/s" is bytes.
func ParseBandwidth(s string) (float64, error) {
	v, unit, err := splitNumber(s)
	if err != nil {
		return 0, fmt.Errorf("bandwidth %w", err)
	}
	var f float64
	var ok bool
	if strings.HasSuffix(unit, "b/s") && !strings.HasSuffix(unit, "B/s") && len(unit) > 3 {
		// Gb/s, Mb/s: bits per second.
		f, ok = bandwidthUnits[strings.ToLower(strings.TrimSuffix(unit, "b/s"))+"bit/s"]
	} else {
		f, ok = bandwidthUnits[strings.ToLower(unit)]
	}
	if !ok {
		return 0, fmt.Errorf("bandwidth %q: unknown or missing unit %q (want GB/s, GiB/s, Gb/s)", s, unit)
	}
	if v <= 0 {
		return 0, fmt.Errorf("bandwidth %q must be positive", s)
	}
	if math.IsInf(v*f, 0) {
		return 0, fmt.Errorf("bandwidth %q: out of range", s)
	}
	return v * f, nil
}
