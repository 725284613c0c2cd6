package data

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
)

// FuzzReadMeasurements feeds arbitrary bytes to the sniffing reader, which
// hands them to the tidy CSV reader or to nccltests.Reader (fuzzed on its
// own by nccltests.FuzzReader): it must never panic or hang, must fail only
// with a *nccltests.ParseError, and what it returns must be well formed.
// An error or problem is a *nccltests.ParseError whose line and column lie in
// the input: the column, 1-based, at most one past the line's last byte,
// where an empty CSV field at the line's end begins (seed
// empty_size_field_at_line_end). Seed corpus: testdata/fuzz/FuzzReadMeasurements
// (size_bytes_float_spellings holds sizes as gota and pandas write them,
// and two they must not pass), plus the
// embedded CSVs and a public log cut to its first KiB (its "# Source:"
// lines dropped).
func FuzzReadMeasurements(f *testing.F) {
	for _, name := range []string{"article_h20.csv", "kernels_public.csv"} {
		b, err := Files.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	b, err := os.ReadFile(filepath.Join("logs", "h20_2x8_allreduce_nvls_nccl1244.log"))
	if err != nil {
		f.Fatal(err)
	}
	var log []byte
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if len(log)+len(line) > 1024 {
			break
		}
		if !strings.HasPrefix(line, "# Source:") {
			log = append(log, line...)
		}
	}
	f.Add(log)
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := ReadMeasurements(bytes.NewReader(b), "fuzz", nil)
		if err != nil {
			var pe *nccltests.ParseError
			if !errors.As(err, &pe) || l != nil {
				t.Fatalf("error %v (%T) with log %v; want a *nccltests.ParseError and no log", err, err, l)
			}
			if lines := strings.Split(string(b), "\n"); pe.Line > len(lines) || pe.Line >= 1 && (pe.Column < 0 || pe.Column > len(lines[pe.Line-1])+1) {
				t.Fatalf("error %v: line %d column %d outside the input", err, pe.Line, pe.Column)
			}
			return
		}
		if len(l.Tests) == 0 {
			t.Fatal("no error and no test")
		}
		for _, tt := range l.Tests {
			if len(tt.Rows) == 0 || tt.Ranks < 0 || tt.Nodes < 0 {
				t.Fatalf("%d rows, ranks %d nodes %d", len(tt.Rows), tt.Ranks, tt.Nodes)
			}
			for _, r := range tt.Rows {
				for _, h := range []nccltests.Result{r.OutOfPlace, r.InPlace} {
					for _, v := range []float64{float64(r.Size), h.Time, h.AlgBW, h.BusBW} {
						if !(v >= 0) || math.IsInf(v, 0) {
							t.Fatalf("line %d: value %g", r.Line, v)
						}
					}
				}
			}
		}
		lines := strings.Split(string(b), "\n")
		for _, p := range l.Problems {
			var pe *nccltests.ParseError
			if !errors.As(p, &pe) || pe.Line < 1 || pe.Line > len(lines) || pe.Column < 0 || pe.Column > len(lines[pe.Line-1])+1 {
				t.Fatalf("problem %v: want a *nccltests.ParseError at a line and column of the input", p)
			}
		}
	})
}
