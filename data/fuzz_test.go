package data

import (
	"bytes"
	"errors"
	"math"
	"testing"
)

// FuzzReadMeasurements feeds arbitrary bytes to the sniffing reader: it must
// never panic or hang, must fail only with a *ParseError, and what it returns
// must be well formed (each test has rows; every time and bandwidth finite
// and non-negative). Seed corpus: testdata/fuzz/FuzzReadMeasurements, plus
// the fixtures and public logs.
func FuzzReadMeasurements(f *testing.F) {
	for _, name := range []string{"testdata/mpirun_noisy_allreduce.log", "testdata/multi_tests.log", "testdata/late2025_cputime_timestamp.log"} {
		if b, err := readTestFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, name := range PublicLogNames() {
		b, err := Files.ReadFile("logs/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := ReadMeasurements(bytes.NewReader(b), "fuzz", nil)
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
		for _, p := range l.Problems {
			var pe *ParseError
			if !errors.As(p, &pe) {
				t.Fatalf("problem %v is not a *ParseError", p)
			}
		}
	})
}
