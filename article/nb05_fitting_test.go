package article

import (
	"math"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
	"gonum.org/v1/gonum/floats/scalar"
)

// Every embedded public log is fitted; the DeepEP log's five 0-byte rows
// (3.07-3.20 µs, data/logs/h20_1x8_alltoall_or_allgather_deepep303.log) are
// kept apart as the empty-call floor.
func TestPublicLogFits(t *testing.T) {
	t.Parallel()
	fits, err := PublicLogFits(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fits) != len(data.PublicLogNames()) {
		t.Fatalf("%d fits for %d logs", len(fits), len(data.PublicLogNames()))
	}
	rows := 0
	for _, lf := range fits {
		// The 2 x 8 NVLS AllReduce run (data/logs/h20_2x8_allreduce_nvls_nccl1244.log)
		// bends at 128 MiB: one alpha-BW pair misses it by a median 7.4%,
		// two regimes by half that or less.
		if strings.Contains(lf.Name, "nvls_") && !(len(lf.Piecewise.Regimes) >= 2 && lf.Piecewise.MedianRelErr < lf.Single.MedianRelErr/2) {
			t.Errorf("%s: %d regimes, median %.4f against single %.4f", lf.Name, len(lf.Piecewise.Regimes), lf.Piecewise.MedianRelErr, lf.Single.MedianRelErr)
		}
		rows += 1 + len(lf.Piecewise.Regimes)
		if len(lf.Piecewise.Regimes) == 1 {
			rows-- // one row says both
		}
		if strings.Contains(lf.Name, "deepep") {
			if len(lf.Empty) != 5 || lf.Empty[0].Time != 3.18e-6 {
				t.Errorf("%s: empty rows %v, want the five 0-byte rows", lf.Name, lf.Empty)
			}
			// Its columns fit AllGather and AllToAll alike (redop none,
			// busbw/algbw 7/8) but for the in-place #wrong column, a count:
			// AllGather (alltoall_perf prints N/A there, src/alltoall.cu).
			if !strings.HasPrefix(lf.label(), "allgather, 8 ranks") {
				t.Errorf("label %q, want allgather over 8 ranks", lf.label())
			}
		}
		for _, f := range []figure.Figure{LogFitFigure(lf), ResidualFigure(lf)} {
			if _, err := f.PNG(); err != nil {
				t.Errorf("%s: %v", lf.Name, err)
			}
		}
	}
	regimes, err := RegimeTable(fits)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(regimes.Rows); got != rows {
		t.Errorf("regime table has %d rows, want %d (a single row and one per regime for each log, one row when they agree)", got, rows)
	}
}

// The public H200 2 x 8 AllReduce (data/logs/h200_2x8_allreduce_spectrumx_openshift.log)
// has four rows slower than a larger size: 64 KiB (70.32 us) and 128 KiB
// (81.24 us) against 256 KiB (63.59 us), 512 KiB (80.78 us) against 1 MiB
// (76.86 us), 16 MiB (304.32 us) against 32 MiB (276.88 us). Both fits set
// them aside; the residual figure marks them, at their error under the
// piecewise fit, and the sizes they contradict; the runs table counts them.
// The other public logs have none, and their figures only the two fits.
func TestResidualFigureNonMonotone(t *testing.T) {
	fits, err := PublicLogFits(nil)
	if err != nil {
		t.Fatal(err)
	}
	runs := RunsTable(fits)
	for i, lf := range fits {
		f := ResidualFigure(lf)
		count := runs.Rows[i][len(runs.Rows[i])-1]
		if !strings.HasPrefix(lf.Name, "h200_") {
			if len(f.Series) != 2 || count != "0" {
				t.Errorf("%s: %d series, %s non-monotone rows; want 2 and 0", lf.Name, len(f.Series), count)
			}
			continue
		}
		if len(f.Series) != 4 || count != "4" {
			t.Fatalf("%s: %d series, %s non-monotone rows; want 4 and 4", lf.Name, len(f.Series), count)
		}
		set, against := f.Series[2], f.Series[3]
		wantSet := []float64{64 << 10, 128 << 10, 512 << 10, 16 << 20}
		wantAgainst := []float64{256 << 10, 256 << 10, 1 << 20, 32 << 20}
		for k := range wantSet {
			if set.X[k] != wantSet[k] || against.X[k] != wantAgainst[k] {
				t.Errorf("%s: mark %d at %g B against %g B, want %g B against %g B", lf.Name, k, set.X[k], against.X[k], wantSet[k], wantAgainst[k])
			}
			nm := lf.Piecewise.NonMonotone[k]
			if got := 100 * (lf.Piecewise.Predict(nm.Sample.Size) - nm.Sample.Time) / nm.Sample.Time; !scalar.EqualWithinAbs(set.Y[k], got, 1e-9) {
				t.Errorf("%s: mark %d at %g%%, want the piecewise error %g%%", lf.Name, k, set.Y[k], got)
			}
			if lf.Single.NonMonotone[k].Sample != nm.Sample {
				t.Errorf("%s: the single fit set aside %+v, the piecewise %+v", lf.Name, lf.Single.NonMonotone[k].Sample, nm.Sample)
			}
		}
		if _, err := f.PNG(); err != nil {
			t.Error(err)
		}
	}
}

// The regime marks sit where fit.Result.Predict switches regime: the
// geometric mean of the neighbouring regimes' sizes (fit.Result.Boundaries).
func TestRegimeMarks(t *testing.T) {
	r := &fit.Result{Regimes: []fit.Regime{
		{MinSize: 1 << 10, MaxSize: 1 << 20, Alpha: 1e-5, BW: 1e9},
		{MinSize: 1 << 22, MaxSize: 1 << 30, Alpha: 1e-4, BW: 1e11}}}
	ms := regimeMarks(r)
	if len(ms) != 1 || ms[0].X != 1<<21 {
		t.Fatalf("marks %+v, want one at 2 MiB", ms)
	}
	below, above := r.Predict(ms[0].X*0.999), r.Predict(ms[0].X*1.001)
	if !scalar.EqualWithinAbs(below, 1e-5+ms[0].X*0.999/1e9, 1e-15) || !scalar.EqualWithinAbs(above, 1e-4+ms[0].X*1.001/1e11, 1e-15) {
		t.Errorf("Predict does not switch at the mark: %g, %g", below, above)
	}
}

// vllm-project/vllm PR #24111 (data/kernels_public.csv): at 6 GPUs one-shot
// takes 13 µs and two-shot 15 µs at 512 KiB, 21 and 17 µs at 1 MiB; linear in
// log size the difference d = -2, +4 µs is 0 one third of the way:
// 512 KiB · 2^(1/3) = 645 KiB. At 8 GPUs 26/27 µs at 1.5 MiB and 31/28 µs at
// 2 MiB cross at 1.5 MiB · (4/3)^(1/4); at 3 MiB one-shot is 1 µs faster
// again. At 4 GPUs one-shot is never slower up to 4 MiB; at 2 GPUs there is
// no two-shot row.
func TestKernelCrossovers(t *testing.T) {
	t.Parallel()
	kcs, err := KernelCrossovers(data.Kernels().Frame(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(kcs) != 3 || kcs[0].P != 4 || kcs[1].P != 6 || kcs[2].P != 8 {
		t.Fatalf("rank counts %v, want 4, 6, 8", kcs)
	}
	if kcs[0].MeasuredIn || !strings.Contains(kcs[0].Note, "4 MiB") {
		t.Errorf("P = 4: %+v, want no crossing up to 4 MiB", kcs[0])
	}
	if want := 512 * 1024 * math.Cbrt(2); !kcs[1].MeasuredIn || !scalar.EqualWithinAbs(kcs[1].Measured, want, 1e-9*want) {
		t.Errorf("P = 6: measured %g, want %g", kcs[1].Measured, want)
	}
	if want := 1.5 * (1 << 20) * math.Pow(4.0/3, 0.25); !kcs[2].MeasuredIn || !scalar.EqualWithinAbs(kcs[2].Measured, want, 1e-9*want) {
		t.Errorf("P = 8: measured %g, want %g", kcs[2].Measured, want)
	}
	if !strings.Contains(kcs[2].Note, "3 MiB") {
		t.Errorf("P = 8: note %q, want the one-shot win at 3 MiB", kcs[2].Note)
	}
	for _, k := range kcs {
		// The model crossover is a crossing of the two fitted curves.
		t1 := commmodel.Time(commmodel.OneShot{}, k.P, k.Model, k.OneFit.Link())
		t2 := commmodel.Time(commmodel.TwoShot{}, k.P, k.Model, k.TwoFit.Link())
		if !scalar.EqualWithinAbs(t1, t2, 1e-9*t2) {
			t.Errorf("P = %d: fitted times at the model crossover differ: %g, %g", k.P, t1, t2)
		}
		// The fitted model agrees with the measurement on the side: within a
		// factor 1.5 where both cross, beyond the rows where neither does.
		if k.MeasuredIn && (k.Model/k.Measured > 1.5 || k.Measured/k.Model > 1.5) {
			t.Errorf("P = %d: model %g against measured %g", k.P, k.Model, k.Measured)
		}
		if !k.MeasuredIn && k.Model < 4<<20 {
			t.Errorf("P = %d: model crossover %g inside the rows where none was measured", k.P, k.Model)
		}
		if _, err := KernelFigure(k).PNG(); err != nil {
			t.Errorf("P = %d: %v", k.P, err)
		}
	}
}

// measuredCrossing on hand-made rows (times in µs at 1, 2, 4 MiB): a size
// of equal times takes neither side, so one-shot's -2 µs at 1 MiB and +4 µs
// at 4 MiB cross a third of the way in log size, at 1 MiB · 4^(1/3); equal
// times then a two-shot win is no crossing but two-shot already faster.
func TestMeasuredCrossingTies(t *testing.T) {
	rows := func(us ...float64) data.Points {
		var ps data.Points
		for i, x := range us {
			ps = append(ps, data.Point{Size: 1 << (20 + i), Time: x * 1e-6})
		}
		return ps
	}
	two := rows(10, 10, 10)
	x, in, note := measuredCrossing(rows(8, 10, 14), two)
	if want := (1 << 20) * math.Cbrt(4); !in || !scalar.EqualWithinAbs(x, want, 1e-9*want) || note != "" {
		t.Errorf("through a tie: %g %v %q, want %g within the rows", x, in, note, want)
	}
	if _, in, note := measuredCrossing(rows(10, 12, 9), two); in || !strings.Contains(note, "already faster at 2 MiB") {
		t.Errorf("tie then two-shot: %v %q, want two-shot already faster at 2 MiB", in, note)
	}
	if _, in, note := measuredCrossing(rows(10, 10, 10), two); in || !strings.Contains(note, "at least as fast up to 4 MiB") {
		t.Errorf("equal throughout: %v %q, want one-shot at least as fast", in, note)
	}
	if _, in, note := measuredCrossing(rows(8, 12, 10), two); !in || !strings.Contains(note, "as fast again at 4 MiB") {
		t.Errorf("two-shot wins then ties: %v %q, want one-shot as fast again at 4 MiB", in, note)
	}
}

// Notebook 05's "Your own log" reads a file by path, relative to the
// notebook's folder (which article's tests share: both are one level under
// the module). Its example, a 2 x 8 H100 A3 Mega AllReduce from
// data/nccltests/testdata/real, is one test of 31 sizes, 8 B to 8 GiB; a log
// whose tests all have two sizes (GB300, eight tests of 8 and 16 GiB) is an
// error that names each test and why, and in a log with a test too short to
// fit beside others, the others are still fitted.
func TestLogFitsOwnLog(t *testing.T) {
	t.Parallel()
	l, err := data.ReadFile("../data/nccltests/testdata/real/h100_2x8_allreduce_gcp_a3mega.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	fits, skipped, err := LogFits(l, nil)
	if err != nil || len(skipped) != 0 || len(fits) != 1 {
		t.Fatalf("fits %d, skipped %v, err %v; want one fit", len(fits), skipped, err)
	}
	lf := fits[0]
	if lf.Name != "h100_2x8_allreduce_gcp_a3mega.log" || lf.Test.Ranks != 16 || len(lf.Samples) != 31 {
		t.Errorf("%s: %d ranks, %d samples; want the file's name, 16 ranks, 31 sizes", lf.Name, lf.Test.Ranks, len(lf.Samples))
	}
	for _, f := range []figure.Figure{LogFitFigure(lf), ResidualFigure(lf)} {
		if _, err := f.PNG(); err != nil {
			t.Error(err)
		}
	}
	if _, err := RegimeTable(fits); err != nil {
		t.Error(err)
	}

	l, err = data.ReadFile("../data/nccltests/testdata/real/gb300_1to32nodes_elided_rank_lines.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	fits, skipped, err = LogFits(l, nil)
	if err == nil || len(fits) != 0 || len(skipped) != 8 || !strings.Contains(err.Error(), "test 8 of 8") || !strings.Contains(err.Error(), "too few samples") {
		t.Errorf("GB300: fits %d, skipped %d, err %v; want an error naming all eight tests", len(fits), len(skipped), err)
	}

	// One log of two tests: the NVLS run's table, then one of two sizes.
	nvls, err := data.Files.ReadFile("logs/h20_2x8_allreduce_nvls_nccl1244.log")
	if err != nil {
		t.Fatal(err)
	}
	short := "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n" +
		"#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n" +
		"     1048576        262144     float     sum      -1    120.0    8.74   16.39      0    120.0    8.74   16.39      0\n" +
		"     2097152        524288     float     sum      -1    130.0   16.13   30.25      0    130.0   16.13   30.25      0\n"
	l, err = data.ReadMeasurements(strings.NewReader(string(nvls)+short), "two.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tests) != 2 {
		t.Fatalf("%d tests, want 2", len(l.Tests))
	}
	fits, skipped, err = LogFits(l, nil)
	if err != nil || len(fits) != 1 || len(skipped) != 1 || !strings.HasPrefix(skipped[0], "test 2 of 2") {
		t.Errorf("fits %d, skipped %v, err %v; want the first test fitted and the second named", len(fits), skipped, err)
	}
}
