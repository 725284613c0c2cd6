package fit_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/fit"
	"gonum.org/v1/gonum/floats/scalar"
)

// MonotoneRatio is 1 + 3·√2·σ (the package documentation).
func TestMonotoneRatio(t *testing.T) {
	for _, tc := range []struct{ sigma, want float64 }{
		{0, 1},
		{0.01, 1.0424264068711928}, // 1 + 0.03·√2
		{0.05, 1.2121320343559643},
	} {
		if got := fit.MonotoneRatio(tc.sigma); !scalar.EqualWithinAbs(got, tc.want, 1e-15) {
			t.Errorf("MonotoneRatio(%g) = %.16g, want %.16g", tc.sigma, got, tc.want)
		}
	}
}

// flatSamples is T = 10 us + S/(100 GB/s) at 1 KiB..1 GiB, every power of 2:
// a noise-free regime, so its noise is the floor, 1%, and the margin 4.24%.
func flatSamples() []fit.Sample {
	var out []fit.Sample
	for e := 10; e <= 30; e++ {
		s := math.Ldexp(1, e)
		out = append(out, fit.Sample{Size: s, Time: 10e-6 + s/100e9})
	}
	return out
}

// The rule of the package documentation on a noise-free regime with samples
// made slow by hand: a sample is set aside when it is more than 4.24% slower
// than any larger size, and it names the smallest such size.
func TestNonMonotoneRule(t *testing.T) {
	samples := flatSamples()
	at := func(e int) int { return e - 10 } // index of 2^e B
	// 4 KiB at 10.53 us: 4.5% slower than 8 KiB (10.08 us), 3.6% slower
	// than 16 KiB (10.16 us): it contradicts 8 KiB.
	samples[at(12)].Time = 10.53e-6
	// 64 KiB at 11.9 us: 5.2% slower than 128 KiB (11.31 us), faster than
	// 256 KiB (12.62 us).
	samples[at(16)].Time = 11.9e-6
	// 1 KiB at 10.42 us: 3.99% slower than 2 KiB (10.02 us), inside the
	// margin: kept, and left to the robust loss.
	samples[at(10)].Time = 10.42e-6
	// Given out of order: the fit sorts by size.
	samples[0], samples[len(samples)-1] = samples[len(samples)-1], samples[0]
	r, err := fit.Piecewise(samples, &fit.Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ size, contradicts float64 }{
		{4 << 10, 8 << 10},
		{64 << 10, 128 << 10},
	}
	if len(r.NonMonotone) != len(want) {
		t.Fatalf("%d non-monotone samples %+v, want %d", len(r.NonMonotone), r.NonMonotone, len(want))
	}
	for i, w := range want {
		nm := r.NonMonotone[i]
		if nm.Sample.Size != w.size || nm.Contradicts.Size != w.contradicts {
			t.Errorf("non-monotone %d: %g B against %g B, want %g B against %g B", i, nm.Sample.Size, nm.Contradicts.Size, w.size, w.contradicts)
		}
		if got := r.Predict(w.size); nm.Predicted != got || nm.RelErr != (got-nm.Sample.Time)/nm.Sample.Time {
			t.Errorf("non-monotone %d: predicted %g s, rel. err %g; Predict gives %g s", i, nm.Predicted, nm.RelErr, got)
		}
		for _, s := range r.Samples {
			if s.Size == w.size {
				t.Errorf("%g B is both fitted and set aside", w.size)
			}
		}
	}
	if len(r.Samples)+len(r.NonMonotone) != len(samples) {
		t.Errorf("%d fitted + %d set aside, want %d", len(r.Samples), len(r.NonMonotone), len(samples))
	}
	// The rest is the noise-free regime again (1 KiB's 4% aside).
	if g := r.Regimes[0]; len(r.Regimes) != 1 || !scalar.EqualWithinAbs(g.Alpha, 10e-6, 0.01*10e-6) || !scalar.EqualWithinAbs(g.BW, 100e9, 0.01*100e9) {
		t.Errorf("regimes %+v, want one of 10 us, 100 GB/s", r.Regimes)
	}
	// KeepNonMonotone fits them all.
	k, err := fit.Piecewise(samples, &fit.Settings{Bootstrap: -1, KeepNonMonotone: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(k.NonMonotone) != 0 || len(k.Samples) != len(samples) {
		t.Errorf("KeepNonMonotone: %d set aside, %d fitted; want 0, %d", len(k.NonMonotone), len(k.Samples), len(samples))
	}
}

// Samples of one size are compared with larger sizes only, never with each
// other; a repeat of a size that a larger size contradicts is set aside with it.
func TestNonMonotoneRepeatedSizes(t *testing.T) {
	samples := append(flatSamples(), fit.Sample{Size: 1 << 10, Time: 11e-6}, fit.Sample{Size: 1 << 30, Time: 12e-3})
	r, err := fit.AlphaBeta(samples, &fit.Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	// 1 KiB at 11 us is 9.9% slower than 2 KiB (10.02 us); 1 GiB at 12 ms
	// and 10.74 ms has no larger size.
	if len(r.NonMonotone) != 1 || r.NonMonotone[0].Sample.Time != 11e-6 || r.NonMonotone[0].Contradicts.Size != 2<<10 {
		t.Errorf("set aside %+v, want 1 KiB at 11 us against 2 KiB", r.NonMonotone)
	}
}

// Three samples of which the first is ten times slower than the others
// leave two: the documented error, saying what was set aside.
func TestNonMonotoneTooFew(t *testing.T) {
	samples := []fit.Sample{{1 << 10, 100e-6}, {2 << 10, 10e-6}, {4 << 10, 10.1e-6}}
	_, err := fit.Piecewise(samples, nil)
	if !errors.Is(err, fit.ErrTooFewSamples) {
		t.Fatalf("error %v, want ErrTooFewSamples", err)
	}
	if want := "after setting aside 1 of 3 samples"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
}

// The synthetic three-regime curve steps down at 4 MiB, from the LL128-like
// regime (12 us + S/(120 GB/s), 46.95 us at 4 MiB) to the next (30 us +
// S/(350 GB/s), 42.00 us at 4 MiB + 4 KiB): a late switch, 11.8% slower
// than the next size, beyond the 4.24% margin of a noise-free curve.
func TestNonMonotoneStepDown(t *testing.T) {
	sizes := append(powersOfTwo(3, 33), 4<<20+4<<10)
	r, err := fit.Piecewise(threeRegimeSamples(sizes, 0, 1), &fit.Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.NonMonotone) != 1 || r.NonMonotone[0].Sample.Size != 4<<20 || r.NonMonotone[0].Contradicts.Size != 4<<20+4<<10 {
		t.Fatalf("set aside %+v, want 4 MiB against 4 MiB + 4 KiB", r.NonMonotone)
	}
	if len(r.Regimes) != 3 || r.MaxRelErr > 1e-6 {
		t.Errorf("%d regimes, worst %.2g; want the 3 regimes exactly", len(r.Regimes), r.MaxRelErr)
	}
}
