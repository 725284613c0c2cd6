package fit_test

import (
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"gonum.org/v1/gonum/floats/scalar"
)

// publicLogSamples returns the out-of-place samples of every test of the
// embedded public log name, 0-byte rows left out: they time an empty call
// (the launch floor), not a transfer, and AlphaBeta rejects size 0.
func publicLogSamples(t *testing.T, name string) []fit.Sample {
	t.Helper()
	l, err := data.PublicLog(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []fit.Sample
	for _, ts := range l.Tests {
		sized, _ := fit.SplitEmpty(data.TestSamples(ts, nccltests.OutOfPlace))
		out = append(out, sized...)
	}
	return out
}

// TestFitPublicLogs checks the piecewise fit's targets on the public logs (data/logs:
// H20 from NVIDIA/nccl-tests #321, DeepEP #303 and NVIDIA/nccl #1244, H200
// from sdambo-git/spc-x-host-configuration): piecewise median |relative error| <= 3%, worst <= 15% and
// leave-one-out median <= 8%. The single alpha-beta fit's errors are logged
// beside it. The NVLS log (#1244) is not alpha-beta shaped (busBW falls from
// 269 GB/s at 64 MiB to 227 GB/s at 128 MiB); its piecewise fit holds the
// worst and LOO targets but only a 4% median, checked as such.
func TestFitPublicLogs(t *testing.T) {
	median := map[string]float64{"h20_2x8_allreduce_nvls_nccl1244.log": 0.04}
	names := data.PublicLogNames()
	if len(names) < 5 {
		t.Fatalf("%d public logs, want the 5 of data/logs", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			samples := publicLogSamples(t, name)
			single, err := fit.AlphaBeta(samples, nil)
			if err != nil {
				t.Fatal(err)
			}
			pw, err := fit.Piecewise(samples, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("n=%d single: alpha %.2f us BW %.1f GB/s median %.2f%% max %.2f%% LOO %.2f%% | %d regimes: median %.2f%% max %.2f%% LOO %.2f%%",
				len(samples), single.Regimes[0].Alpha*1e6, single.Regimes[0].BW/1e9,
				100*single.MedianRelErr, 100*single.MaxRelErr, 100*single.LOOMedianRelErr,
				len(pw.Regimes), 100*pw.MedianRelErr, 100*pw.MaxRelErr, 100*pw.LOOMedianRelErr)
			wantMedian := 0.03
			if m, ok := median[name]; ok {
				wantMedian = m
			}
			if pw.MedianRelErr > wantMedian {
				t.Errorf("piecewise median rel. err %.2f%% > %.0f%%", 100*pw.MedianRelErr, 100*wantMedian)
			}
			if pw.MaxRelErr > 0.15 {
				t.Errorf("piecewise worst rel. err %.2f%% > 15%%", 100*pw.MaxRelErr)
			}
			if pw.LOOMedianRelErr > 0.08 {
				t.Errorf("piecewise LOO median rel. err %.2f%% > 8%%", 100*pw.LOOMedianRelErr)
			}
			for _, g := range pw.Regimes {
				if !(g.Alpha >= 0) || !(g.BW > 0) || g.N < 3 {
					t.Errorf("regime %+v breaks alpha >= 0, BW > 0, N >= 3", g)
				}
			}
		})
	}
}

// tritonSamples are the NCCL AllReduce times on 8 x H100 of
// ByteDance-Seed/Triton-distributed issue #57 (data/kernels_public.csv),
// whose 2 MiB row (290.73 us among neighbours of 32 and 59 us) is wild.
func tritonSamples(t *testing.T) (all, clean []fit.Sample, wild int) {
	t.Helper()
	all = data.Kernels().Select(data.Filter{Source: "ByteDance-Seed/Triton-distributed issue #57"}).Samples()
	if len(all) != 13 {
		t.Fatalf("%d Triton-distributed rows, want 13", len(all))
	}
	wild = -1
	for i, s := range all {
		if s.Size == 2<<20 {
			wild = i
			continue
		}
		clean = append(clean, s)
	}
	if wild < 0 || all[wild].Time != 290.73e-6 {
		t.Fatalf("no 290.73 us row at 2 MiB")
	}
	return all, clean, wild
}

func TestFitRobustToWildPoint(t *testing.T) {
	all, clean, _ := tritonSamples(t)
	// The wild row is slower than the next sizes (so set aside as
	// non-monotone by default, see TestNonMonotoneWildRow); kept here to
	// test the losses.
	fitOne := func(s []fit.Sample, loss fit.Loss) fit.Regime {
		r, err := fit.AlphaBeta(s, &fit.Settings{Loss: loss, Bootstrap: -1, KeepNonMonotone: true})
		if err != nil {
			t.Fatal(err)
		}
		return r.Regimes[0]
	}
	for _, tc := range []struct {
		loss fit.Loss
		// tol bounds how far the wild row may move alpha and BW relative to
		// the fit without it; the least-squares row shows it does move them.
		tolA, tolB float64
	}{
		{fit.Bisquare, 0.002, 0.002},
		{fit.Huber, 0.01, 0.02},
	} {
		ref, got := fitOne(clean, tc.loss), fitOne(all, tc.loss)
		if !scalar.EqualWithinAbs(got.Alpha, ref.Alpha, tc.tolA*ref.Alpha) {
			t.Errorf("%v: alpha moved %.1f%% by the wild row (%g vs %g s)", tc.loss, 100*(got.Alpha/ref.Alpha-1), got.Alpha, ref.Alpha)
		}
		if !scalar.EqualWithinAbs(got.BW, ref.BW, tc.tolB*ref.BW) {
			t.Errorf("%v: BW moved %.1f%% by the wild row (%g vs %g B/s)", tc.loss, 100*(got.BW/ref.BW-1), got.BW, ref.BW)
		}
	}
	ls, lsRef := fitOne(all, fit.Squared), fitOne(clean, fit.Squared)
	rb, rbRef := fitOne(all, fit.Bisquare), fitOne(clean, fit.Bisquare)
	t.Logf("least squares: alpha moved %.2f%%, BW %.2f%%; bisquare: %.2f%%, %.2f%%",
		100*(ls.Alpha/lsRef.Alpha-1), 100*(ls.BW/lsRef.BW-1), 100*(rb.Alpha/rbRef.Alpha-1), 100*(rb.BW/rbRef.BW-1))
	// Relative error already bounds a too-slow row's residual by 1, so least
	// squares moves BW by only ~2%; the check is that it does move.
	if scalar.EqualWithinAbs(ls.BW, lsRef.BW, 0.01*lsRef.BW) {
		t.Errorf("least squares BW moved only %.2f%%: the data no longer has a wild row", 100*(ls.BW/lsRef.BW-1))
	}
}

func TestFitPiecewiseRejectsWildPoint(t *testing.T) {
	all, clean, wild := tritonSamples(t)
	keep := &fit.Settings{KeepNonMonotone: true} // as in TestFitRobustToWildPoint
	r, err := fit.Piecewise(all, keep)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := fit.Piecewise(clean, keep)
	if err != nil {
		t.Fatal(err)
	}
	// Samples are sorted by size; the Triton rows already are, so the wild
	// row keeps its index.
	if w := r.Weight[wild]; w > 0.01 {
		t.Errorf("wild 2 MiB row has weight %.3f, want ~0", w)
	}
	if len(r.Regimes) != len(ref.Regimes) {
		t.Fatalf("%d regimes with the wild row, %d without: %+v vs %+v", len(r.Regimes), len(ref.Regimes), r.Regimes, ref.Regimes)
	}
	// Away from the wild row the two fits predict alike.
	for _, s := range clean {
		if got, want := r.Predict(s.Size), ref.Predict(s.Size); !scalar.EqualWithinAbs(got, want, 0.03*want) {
			t.Errorf("at %g B the fits differ by %.1f%%", s.Size, 100*(got/want-1))
		}
	}
	t.Logf("%d regimes; median %.2f%% (clean: %.2f%%); the wild row's error %.0f%%",
		len(r.Regimes), 100*r.MedianRelErr, 100*ref.MedianRelErr, 100*r.RelErr[wild])
}

// By default the wild Triton-distributed row is set aside before the fit:
// 290.73 us at 2 MiB is slower than 4 MiB's 59.43 us, the next size. The fit
// is then the fit of the other rows.
func TestNonMonotoneWildRow(t *testing.T) {
	all, clean, wild := tritonSamples(t)
	r, err := fit.Piecewise(all, nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := fit.Piecewise(clean, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NonMonotone) != 1 || r.NonMonotone[0].Sample != all[wild] ||
		r.NonMonotone[0].Contradicts != (fit.Sample{Size: 4 << 20, Time: 59.43e-6}) {
		t.Fatalf("set aside %+v, want the 2 MiB row against 4 MiB at 59.43 us", r.NonMonotone)
	}
	if !slices.Equal(r.Regimes, ref.Regimes) || !slices.Equal(r.Samples, ref.Samples) || r.MaxRelErr != ref.MaxRelErr {
		t.Errorf("fit %+v differs from the fit without the row %+v", r.Regimes, ref.Regimes)
	}
}

// The article's 8 x H20 NCCL AllToAll points (data/article_h20.csv: 64 KiB
// 9.5 us, 1 MiB 14.8 us, 16 MiB 72 us, 64 MiB 216 us) fitted through direct
// AllToAll at P = 8: the article says alpha ~10 us and BW ~280 GB/s fit
// better than its defaults.
func TestThroughArticleAllToAll(t *testing.T) {
	samples := data.Article().Select(data.Filter{Collective: "alltoall", NRanks: 8}).Samples()
	if len(samples) != 4 {
		t.Fatalf("%d article AllToAll points on 8 GPUs, want 4", len(samples))
	}
	f, err := fit.Through(commmodel.Direct{}, 8, samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := f.Regimes[0].Link()
	t.Logf("alpha %.2f us, BW %.1f GB/s, median %.1f%%", l.Alpha*1e6, l.BW/1e9, 100*f.MedianRelErr)
	// "alpha ~10 us, BW ~280 GB/s": within 15% of each.
	if !scalar.EqualWithinAbs(l.Alpha, 10e-6, 0.15*10e-6) || !scalar.EqualWithinAbs(l.BW, 280e9, 0.15*280e9) {
		t.Errorf("alpha %g s, BW %g B/s; the article says ~10 us, ~280 GB/s", l.Alpha, l.BW)
	}
	for i, s := range f.Samples {
		if got := commmodel.Time(commmodel.Direct{}, 8, s.Size, l); !scalar.EqualWithinAbs(got, f.Predicted[i], 1e-12*f.Predicted[i]) {
			t.Errorf("Time on the fitted link %g s, fit predicted %g s", got, f.Predicted[i])
		}
		// Predict is the model that was fitted: Steps·α + Bytes/BW.
		if got := f.Predict(s.Size); !scalar.EqualWithinAbs(got, f.Predicted[i], 1e-12*f.Predicted[i]) {
			t.Errorf("Predict(%g B) = %g s, fit predicted %g s", s.Size, got, f.Predicted[i])
		}
	}
	// At 64 MiB direct AllToAll sends (P-1)/P·S = 7/8·S (commmodel.Direct's
	// bytes), so α + S/BW (what Predict returned before it knew the model)
	// is 14% above Steps·α + Bytes/BW: (α + S/BW)/(α + 7/8·S/BW) = 1.14 on
	// this link.
	const s64 = 64 << 20
	plain := l.Alpha + s64/l.BW
	if got := f.Predict(s64); !scalar.EqualWithinAbs(plain/got, 1.14, 0.01*1.14) {
		t.Errorf("α + S/BW = %g s is %.3fx Predict(64 MiB) = %g s, want 1.14x", plain, plain/got, got)
	}
}
