package main

import (
	"encoding/json"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// modelJSON runs commlab model with args and -json and decodes the result.
func modelJSON(t *testing.T, args ...string) modelResult {
	t.Helper()
	code, out, stderr := runCLI(append(append([]string{"model", "-p", "8"}, args...), "-json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var res modelResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return res
}

// b is a bit and B a byte in -size and -bw alike: 8 Gb = 1e9 B, and
// 8 Gb/s = 1e9 B/s.
func TestAmountFlagsBits(t *testing.T) {
	t.Parallel()
	res := modelJSON(t, "-alpha", "2us", "-bw", "8Gb/s", "-size", "8Gb,1GB", "-algo", "ring")
	if res.BWBps != 1e9 || len(res.Rows) != 2 || res.Rows[0].SizeBytes != 1e9 || res.Rows[1].SizeBytes != 1e9 || res.Rows[0].TimeS != res.Rows[1].TimeS {
		t.Errorf("-bw 8Gb/s -size 8Gb,1GB: %+v", res)
	}
}

// -gamma takes a time per byte with its unit, or a bare number of seconds
// per byte as before: 0.01 ns/B = 10 ns/KB = 1e-11 s/B.
func TestAmountFlagsGamma(t *testing.T) {
	t.Parallel()
	base := []string{"-link", "h20-intra", "-size", "1MiB", "-algo", "one-shot"}
	var times []float64
	for _, g := range []string{"0.01ns/B", "10 ns/KB", "1e-11"} {
		res := modelJSON(t, append(base, "-gamma", g)...)
		times = append(times, res.Rows[0].TimeS)
	}
	none := modelJSON(t, base...).Rows[0].TimeS
	// One-shot at P = 8 reduces (P-1)·S bytes on each rank.
	want := none + 7*(1<<20)*1e-11
	for i, got := range times {
		if !scalar.EqualWithinAbs(got, want, 1e-15) {
			t.Errorf("gamma form %d: time %g s, want %g s", i, got, want)
		}
	}
}

// Bad amounts name the flag, the text and the cause.
func TestAmountFlagsErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"model", "-p", "8", "-link", "h20-intra", "-size", "12b"}, `-size: size "12b": 1.5 B is not a whole number of bytes`},
		{[]string{"model", "-p", "8", "-link", "h20-intra", "-size", "56kb"}, `"kb" is ambiguous`},
		{[]string{"model", "-p", "8", "-link", "h20-intra", "-size", "64kb"}, `"kb" is ambiguous`},
		{[]string{"model", "-p", "8", "-alpha", "2us", "-bw", "10gb/s", "-size", "1"}, `-bw: bandwidth "10gb/s"`},
		{[]string{"model", "-p", "8", "-alpha", "2us", "-bw", "1GB/s", "-gamma", "-1ns/B", "-size", "1"}, `-gamma: time per byte "-1ns/B": negative`},
		{[]string{"model", "-p", "8", "-alpha", "2us", "-bw", "1GB/s", "-gamma", "0.01ns", "-size", "1"}, `-gamma: time per byte "0.01ns": unknown unit`},
		{[]string{"simulate", "-algo", "ring", "-p", "8", "-size", "1MiB", "-max-mem", "8gb"}, `-max-mem: size "8gb"`},
		{[]string{"simulate", "-algo", "ring", "-p", "8", "-size", "1MiB", "-elem", "3b"}, `-elem: size "3b"`},
		{[]string{"simulate", "-algo", "ring", "-p", "8", "-size", "1MiB", "-max-mem", "1MB"}, "more than the limit of 977 KiB (-max-mem)"},
	} {
		code, out, stderr := runCLI(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error containing %q\n%s", tc.args, code, stderr, tc.want, out)
		}
	}
}

// -max-mem and -elem take units; bare numbers are bytes, as before.
func TestAmountFlagsSimulate(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-max-mem", "8GB"}, {"-max-mem", "8GiB"}, {"-max-mem", "8e9"}, {"-elem", "4B"}, {"-elem", "32b"}, {"-elem", "4"},
	} {
		code, out, stderr := runCLI(append([]string{"simulate", "-algo", "ring", "-p", "8", "-size", "1MiB", "-json"}, args...)...)
		var r struct {
			Correct   bool `json:"correct"`
			ElemBytes int  `json:"elem_bytes"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.Correct || r.ElemBytes != 4 {
			t.Errorf("%v: exit %d, %s%s", args, code, out, stderr)
		}
	}
}
