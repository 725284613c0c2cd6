package fit_test

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data/nccltests"
)

// FuzzFitPiecewise feeds arbitrary samples (pairs of float64 read from the
// input) to the fits: each must return an error from the documented set or a
// result whose every number is finite, with alpha >= 0 and BW > 0 in every
// regime; never a panic or a NaN. Seeds: the samples below and the tables
// of two public logs.
func FuzzFitPiecewise(f *testing.F) {
	enc := func(xs ...float64) []byte {
		b := make([]byte, 0, 8*len(xs))
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		return b
	}
	f.Add(enc(1e3, 1e-5, 1e6, 2e-5, 1e9, 1e-2))
	f.Add(enc(4, 47.5e-6, 64, 46.3e-6, 512, 46.2e-6, 4096, 46e-6))
	f.Add(enc(1<<20, 32.42e-6, 2<<20, 290.73e-6, 4<<20, 59.43e-6, 8<<20, 90.51e-6, 16<<20, 135.68e-6))
	f.Add(enc(8, 1e-5, 8, 1e-5, 8, 1e-5))
	f.Add(enc(1e300, 1e-300, 1e-300, 1e300, 1, 1))
	// The real tables: every test of two public logs, its out-of-place
	// times (the sizes and times a fit of a log is given).
	for _, name := range []string{"h20_2x8_allreduce_nvls_nccl1244.log", "h20-3e_2x2_alltoall_nccltests321.log"} {
		in, err := os.Open(filepath.Join("..", "..", "data", "logs", name))
		if err != nil {
			f.Fatal(err)
		}
		rd := nccltests.NewReader(in)
		for {
			tt, err := rd.Read()
			if err != nil {
				break
			}
			var xs []float64
			for _, r := range tt.Rows {
				xs = append(xs, float64(r.Size), r.OutOfPlace.Time)
			}
			f.Add(enc(xs...))
		}
		in.Close()
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var samples []fit.Sample
		for len(b) >= 16 && len(samples) < 200 {
			s := math.Float64frombits(binary.LittleEndian.Uint64(b))
			tm := math.Float64frombits(binary.LittleEndian.Uint64(b[8:]))
			samples = append(samples, fit.Sample{Size: s, Time: tm})
			b = b[16:]
		}
		for _, fitter := range []func([]fit.Sample, *fit.Settings) (*fit.Result, error){
			fit.AlphaBeta, fit.Piecewise,
		} {
			r, err := fitter(samples, &fit.Settings{Bootstrap: 20})
			if err != nil {
				if !errors.Is(err, fit.ErrTooFewSamples) && !errors.Is(err, fit.ErrBadSample) && !errors.Is(err, fit.ErrOneSize) {
					t.Fatalf("undocumented error %v", err)
				}
				continue
			}
			finite := func(what string, x float64) {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%s = %g for samples %v", what, x, samples)
				}
			}
			for _, g := range r.Regimes {
				finite("alpha", g.Alpha)
				finite("BW", g.BW)
				if g.Alpha < 0 || !(g.BW > 0) {
					t.Fatalf("regime %+v breaks the bounds", g)
				}
			}
			for i := range r.Samples {
				finite("predicted", r.Predicted[i])
				finite("rel. err", r.RelErr[i])
				finite("LOO rel. err", r.LOORelErr[i])
			}
			// Every sample is fitted or set aside as slower than a larger
			// size by more than the margin of some noise level (at least
			// the floor's).
			if len(r.Samples)+len(r.NonMonotone) != len(samples) {
				t.Fatalf("%d fitted + %d set aside of %d samples", len(r.Samples), len(r.NonMonotone), len(samples))
			}
			for _, nm := range r.NonMonotone {
				finite("predicted (non-monotone)", nm.Predicted)
				if !(nm.Contradicts.Size > nm.Sample.Size) || !(nm.Sample.Time > fit.MonotoneRatio(0.01)*nm.Contradicts.Time) {
					t.Fatalf("%+v is not slower than a larger size by the margin", nm)
				}
			}
			finite("median", r.MedianRelErr)
			finite("LOO median", r.LOOMedianRelErr)
		}
	})
}
