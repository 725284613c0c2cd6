package nccltests

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the Reader: it must never panic or
// hang, must fail only with a *ParseError, and what it returns must be well
// formed (each test has rows; every time and bandwidth finite and
// non-negative; every problem a *ParseError whose Column lies in its line).
// Seed corpus: testdata/fuzz/FuzzReader, plus three fixtures and package
// data's public logs.
func FuzzReader(f *testing.F) {
	files := []string{"testdata/mpirun_noisy_allreduce.log", "testdata/multi_tests.log", "testdata/late2025_cputime_timestamp.log"}
	for _, name := range publicLogNames(f) {
		files = append(files, "../logs/"+name)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := read(bytes.NewReader(b), "fuzz", Options{})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || l != nil {
				t.Fatalf("error %v (%T) with log %v; want a *ParseError and no log", err, err, l)
			}
			return
		}
		if len(l.Tests) == 0 {
			t.Fatal("no error and no test")
		}
		for _, tt := range l.Tests {
			if len(tt.Rows) == 0 {
				t.Fatal("a test without rows")
			}
			if tt.Ranks < 0 || tt.Nodes < 0 {
				t.Fatalf("ranks %d nodes %d", tt.Ranks, tt.Nodes)
			}
			for _, r := range tt.Rows {
				if r.Size < 0 {
					t.Fatalf("line %d: size %d", r.Line, r.Size)
				}
				for _, h := range []Result{r.OutOfPlace, r.InPlace} {
					for _, v := range []float64{h.Time, h.AlgBW, h.BusBW} {
						if !(v >= 0) || math.IsInf(v, 0) {
							t.Fatalf("line %d: value %g", r.Line, v)
						}
					}
				}
			}
			for _, s := range tt.Samples(OutOfPlace) {
				if !(s.Time > 0) {
					t.Fatalf("sample %+v", s)
				}
			}
		}
		lines := strings.Split(string(b), "\n")
		for _, p := range l.Problems {
			var pe *ParseError
			if !errors.As(p, &pe) {
				t.Fatalf("problem %v is not a *ParseError", p)
			}
			if pe.Line < 1 || pe.Line > len(lines) || pe.Column < 0 || pe.Column > len(lines[pe.Line-1]) {
				t.Fatalf("problem %v: line %d column %d outside the input", p, pe.Line, pe.Column)
			}
		}
	})
}
