package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// The grammar is stated once, in the package documentation. This file holds
// its one parser per kind of amount: sizes, durations, bandwidths and times
// per byte.

// The causes of an AmountError; errors.Is finds them in its Err.
var (
	// ErrSyntax: the text does not start with a decimal number.
	ErrSyntax = errors.New("not a number")
	// ErrUnit: the unit is missing where one is required, unknown, or
	// ambiguous (such as "kb" or "mb").
	ErrUnit = errors.New("bad unit")
	// ErrRange: the amount is negative (zero for a bandwidth), too large,
	// or too small to represent.
	ErrRange = errors.New("out of range")
	// ErrFraction: a size is not a whole number of bytes (such as "12b",
	// 1.5 B).
	ErrFraction = errors.New("not a whole number of bytes")
)

// An AmountError reports an amount that could not be read.
type AmountError struct {
	Kind string // what was read: "size", "duration", "bandwidth" or "time per byte"
	Text string // the text as given
	Err  error  // why, wrapping ErrSyntax, ErrUnit, ErrRange or ErrFraction
}

func (e *AmountError) Error() string {
	return e.Kind + " " + strconv.Quote(e.Text) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *AmountError) Unwrap() error { return e.Err }

// cause is an error whose message is msg and which wraps one of the sentinels.
type cause struct {
	kind error
	msg  string
}

func (c *cause) Error() string { return c.msg }
func (c *cause) Unwrap() error { return c.kind }

func causef(kind error, format string, args ...any) error {
	return &cause{kind, fmt.Sprintf(format, args...)}
}

// MaxSize bounds every size commlab reads, bytes: a size is below it,
// 2^62 B, as NCCL's model counts sizes in an int64, and sums and products
// of a few sizes stay within int64. Every check compares the size it holds
// with it the same way, size < MaxSize: a whole number of bytes (ParseSize,
// nccl-tests' rows, the tidy CSV) as the int64, so that 2^62 − 1 B is a
// size, and a float64 size (NCCL's model, predict) as the float. A float64
// cannot hold the sizes from 2^62 − 256 B up: converted, they round to 2^62
// itself, which the float checks refuse.
const MaxSize = 1 << 62

// The unit names, in the order the error messages list them.
const (
	sizeUnits     = "B, kB/KB, MB, GB, TB, KiB, MiB, GiB, TiB, or bits: b, Kb, Mb, Gb, Tb, Kib, ..., Gbit"
	durationUnits = "ns, us, µs, ms, s"
)

// prefixes maps a size prefix to its multiplier. Lower-case k is SI's
// spelling and K the common one; m, g and t are not prefixes (m is milli).
var prefixes = map[string]int64{
	"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
	"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40,
}

// durationSeconds maps a duration unit to seconds.
var durationSeconds = map[string]float64{
	"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1,
}

// splitAmount splits s, spaces trimmed, into its number literal and its
// unit: "12.5 MiB" is "12.5" and "MiB". The literal is
//
//	[+-] (digits [. digits] | . digits) [(e|E) [+-] digits]
//
// so that "Inf", "NaN", "0x10" and "1_000" are not numbers.
func splitAmount(s string) (num, unit string, err error) {
	s = strings.TrimSpace(s)
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return "", "", causef(ErrSyntax, "does not start with a number")
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	return s[:i], strings.TrimSpace(s[i:]), nil
}

// amount splits s and reads its number: the literal, its value and the unit.
func amount(s string) (num string, v float64, unit string, err error) {
	if num, unit, err = splitAmount(s); err == nil {
		v, err = number(num)
	}
	return num, v, unit, err
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number reads a literal from splitAmount as a float64: finite, not
// negative, and never the zero of an underflow.
func number(num string) (float64, error) {
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, causef(ErrRange, "%s is too large", num)
	}
	if v == 0 && strings.ContainsAny(strings.SplitN(strings.ToLower(num), "e", 2)[0], "123456789") {
		return 0, causef(ErrRange, "%s is too small", num)
	}
	if v < 0 {
		return 0, causef(ErrRange, "negative")
	}
	return v + 0, nil // -0 is 0
}

// sizeUnit reads a size unit: a prefix and B (byte), b or bit (bit). The
// unit is mult bytes, or mult bits when bits is set.
func sizeUnit(u string) (mult int64, bits bool, err error) {
	base := ""
	switch {
	case strings.HasSuffix(u, "bit"):
		base = "bit"
	case strings.HasSuffix(u, "B"):
		base = "B"
	case strings.HasSuffix(u, "b"):
		base = "b"
	}
	p := strings.TrimSuffix(u, base)
	m, ok := prefixes[p]
	if base == "" || !ok || p == "k" && base == "b" {
		return 0, false, sizeUnitError(u)
	}
	return m, base != "B", nil
}

// sizeUnitError explains why u is not a size unit, naming what the writer
// may have meant when only the case is wrong ("mb", "GIB") or the base is
// missing ("M").
func sizeUnitError(u string) error {
	l := strings.ToLower(u)
	l = strings.TrimSuffix(strings.TrimSuffix(l, "bit"), "b")
	if l == "k" || l == "m" || l == "g" || l == "t" || l == "ki" || l == "mi" || l == "gi" || l == "ti" {
		p := strings.ToUpper(l[:1])
		if len(l) == 2 {
			return causef(ErrUnit, "%q is ambiguous: write %siB for bytes or %sib for bits (units are case-sensitive; b is a bit)", u, p, p)
		}
		return causef(ErrUnit, "%q is ambiguous: write %sB (bytes), %siB (binary bytes) or %sb (bits) (units are case-sensitive; b is a bit)", u, p, p, p)
	}
	if u == "" {
		return causef(ErrUnit, "missing unit (want %s)", sizeUnits)
	}
	return causef(ErrUnit, "unknown unit %q (want %s)", u, sizeUnits)
}

// ParseSize reads a size and returns it in bytes: "4096" (a bare number is
// bytes), "64KB" (64000), "64 KiB" (65536), "1.5MiB", "8Gb" (bits: 1e9 B).
// The result is a whole number of bytes from 0 to below 2^62: a size in bits that
// is not ("12b") is refused with ErrFraction, never rounded.
func ParseSize(s string) (int64, error) {
	n, err := parseSize(s)
	if err != nil {
		return 0, &AmountError{"size", s, err}
	}
	return n, nil
}

func parseSize(s string) (int64, error) {
	num, v, unit, err := amount(s)
	if err != nil {
		return 0, err
	}
	mult, bits, err := sizeUnit(unit)
	if m, ok := ncclTestsSuffix[unit]; ok || unit == "" {
		mult, bits, err = max(m, 1), false, nil
	}
	if err != nil {
		return 0, err
	}
	if v == 0 {
		return 0, nil
	}
	if v*float64(mult) > 8*MaxSize {
		return 0, causef(ErrRange, "2^62 bytes or more (want less than 4194304TiB)")
	}
	// Exact arithmetic: "0.3KB" is 300 B, not 300.00000000000006. The
	// literal's exponent is bounded, since v is neither 0 nor an underflow
	// nor too large.
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, causef(ErrSyntax, "bad number %q", num)
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	if bits {
		r.Quo(r, big.NewRat(8, 1))
	}
	if !r.IsInt() {
		f, _ := r.Float64()
		return 0, causef(ErrFraction, "%s B is not a whole number of bytes", strconv.FormatFloat(f, 'g', -1, 64))
	}
	// The bound is the whole number's (MaxSize), not its float64's.
	if r.Num().Cmp(big.NewInt(MaxSize)) >= 0 {
		return 0, causef(ErrRange, "2^62 bytes or more (want less than 4194304TiB)")
	}
	return r.Num().Int64(), nil
}

// ncclTestsSuffix are the bare suffixes nccl-tests reads in its sizes
// (parsesize in src/common.cu): K, M and G, either case, for powers of 1024.
var ncclTestsSuffix = map[string]int64{"K": 1 << 10, "k": 1 << 10, "M": 1 << 20, "m": 1 << 20, "G": 1 << 30, "g": 1 << 30}

// maxRange bounds the sizes one range may give.
const maxRange = 1 << 16

// ParseSizes reads a comma-separated list of sizes and ranges of sizes: a
// size as ParseSize reads it ("64KiB,1MB, 1GiB"), and a range A..B, the
// sizes from A to at most B in steps of x2, or A..B:xF in steps of xF
// ("1KiB..1GiB", "8..1M:x4", as nccl-tests' -b, -e and -f).
func ParseSizes(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		if strings.Contains(f, "..") {
			r, err := parseRange(f)
			if err != nil {
				return nil, &AmountError{"size range", f, err}
			}
			out = append(out, r...)
			continue
		}
		n, err := ParseSize(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// parseRange reads A..B or A..B:xF.
func parseRange(s string) ([]int64, error) {
	lo, rest, _ := strings.Cut(s, "..")
	hi, step, stepped := strings.Cut(rest, ":")
	a, err := parseSize(strings.TrimSpace(lo))
	if err != nil {
		return nil, err
	}
	b, err := parseSize(strings.TrimSpace(hi))
	if err != nil {
		return nil, err
	}
	f := int64(2)
	if stepped {
		step = strings.TrimSpace(step)
		v, err := strconv.ParseInt(strings.TrimPrefix(step, "x"), 10, 64)
		if !strings.HasPrefix(step, "x") || err != nil || v < 2 {
			return nil, causef(ErrSyntax, "step %q: want x and a whole factor of 2 or more, such as x2", step)
		}
		f = v
	}
	if a < 1 || b < a {
		return nil, causef(ErrRange, "want 1 B <= A <= B, such as 1KiB..1GiB")
	}
	var out []int64
	for v := a; v <= b; v *= f {
		if len(out) == maxRange {
			return nil, causef(ErrRange, "more than %d sizes", maxRange)
		}
		out = append(out, v)
		if v > b/f {
			break
		}
	}
	return out, nil
}

// durationUnit reads a duration unit and returns it in seconds.
func durationUnit(u string) (float64, error) {
	if f, ok := durationSeconds[u]; ok {
		return f, nil
	}
	if u == "" {
		return 0, causef(ErrUnit, "missing unit (want %s)", durationUnits)
	}
	return 0, causef(ErrUnit, "unknown unit %q (want %s)", u, durationUnits)
}

// ParseDuration reads a duration such as "2us", "15 µs", "0.5ms" or "1e-6s"
// and returns seconds. The unit is required: a bare number is an error.
func ParseDuration(s string) (float64, error) {
	v, err := parseScaled(s, func(u string) (float64, error) { return durationUnit(u) })
	if err != nil {
		return 0, &AmountError{"duration", s, err}
	}
	return v, nil
}

// ParseBandwidth reads a bandwidth, a size unit per second, and returns
// bytes per second: "350GB/s" (3.5e11), "20 GiB/s", "400Gb/s" (bits: 5e10).
// The unit is required and the bandwidth must be positive.
func ParseBandwidth(s string) (float64, error) {
	v, err := parseScaled(s, bandwidthUnit)
	if err == nil && v == 0 {
		err = causef(ErrRange, "must be positive")
	}
	if err != nil {
		return 0, &AmountError{"bandwidth", s, err}
	}
	return v, nil
}

func bandwidthUnit(u string) (float64, error) {
	size, ok := strings.CutSuffix(u, "/s")
	if !ok || size == "" {
		if u == "" {
			return 0, causef(ErrUnit, "missing unit (want a size per second: GB/s, GiB/s, Gb/s)")
		}
		if p, ok := strings.CutSuffix(u, "ps"); ok {
			return 0, causef(ErrUnit, "unknown unit %q (write %s/s)", u, p)
		}
		return 0, causef(ErrUnit, "unknown unit %q (want a size per second: GB/s, GiB/s, Gb/s)", u)
	}
	return bytesPer(size)
}

// bytesPer returns the bytes in one size unit, a fraction for bits.
func bytesPer(u string) (float64, error) {
	mult, bits, err := sizeUnit(u)
	if err != nil {
		return 0, err
	}
	if bits {
		return float64(mult) / 8, nil
	}
	return float64(mult), nil
}

// ParseTimePerByte reads a time per byte, such as the reduction cost γ of a
// Link, and returns seconds per byte. It is a duration unit, a slash and a
// size unit: "0.01ns/B" (1e-11 s/B), "10 ns/KB" (1e-11 s/B), "1us/MiB". A
// bare number is seconds per byte ("1e-11").
func ParseTimePerByte(s string) (float64, error) {
	v, err := parseScaled(s, func(u string) (float64, error) {
		if u == "" {
			return 1, nil
		}
		d, size, ok := strings.Cut(u, "/")
		if !ok {
			return 0, causef(ErrUnit, "unknown unit %q (want a duration per size: ns/B, us/MB)", u)
		}
		sec, err := durationUnit(d)
		if err != nil {
			return 0, err
		}
		b, err := bytesPer(size)
		if err != nil {
			return 0, err
		}
		return sec / b, nil
	})
	if err != nil {
		return 0, &AmountError{"time per byte", s, err}
	}
	return v, nil
}

// parseScaled reads a number and a unit that scale returns the size of.
func parseScaled(s string, scale func(unit string) (float64, error)) (float64, error) {
	_, v, unit, err := amount(s)
	if err != nil {
		return 0, err
	}
	f, err := scale(unit)
	if err != nil {
		return 0, err
	}
	x := v * f
	switch {
	case math.IsInf(x, 0):
		return 0, causef(ErrRange, "too large")
	case x == 0 && v != 0:
		return 0, causef(ErrRange, "too small")
	}
	return x, nil
}
