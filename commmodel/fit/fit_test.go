package fit_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"gonum.org/v1/gonum/floats/scalar"
)

// modelSamples returns T = alpha + S/BW (the model of AlphaBeta) at
// sizes 2^lo..2^hi B, each time multiplied by (1 + noise·N(0,1)) from a
// seeded generator.
func modelSamples(alpha, bw float64, lo, hi int, noise float64, seed uint64) []fit.Sample {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []fit.Sample
	for e := lo; e <= hi; e++ {
		s := math.Ldexp(1, e)
		out = append(out, fit.Sample{Size: s, Time: (alpha + s/bw) * (1 + noise*rng.NormFloat64())})
	}
	return out
}

func TestFitAlphaBetaRecoversModel(t *testing.T) {
	// The article's fitted figures for 8 x H20 AllToAll: alpha ~10 us, BW ~280 GB/s.
	const alpha, bw = 10e-6, 280e9
	for _, tc := range []struct {
		name       string
		noise      float64
		loss       fit.Loss
		tolA, tolB float64
	}{
		{"exact/squared", 0, fit.Squared, 1e-9, 1e-9},
		{"exact/bisquare", 0, fit.Bisquare, 1e-9, 1e-9},
		// 2% multiplicative noise on 31 points: the relative standard error
		// of each parameter is about 0.02/sqrt(31/2) ~ 0.5%; allow 4x.
		{"noise2%/squared", 0.02, fit.Squared, 0.03, 0.03},
		{"noise2%/bisquare", 0.02, fit.Bisquare, 0.03, 0.03},
	} {
		t.Run(tc.name, func(t *testing.T) {
			samples := modelSamples(alpha, bw, 3, 33, tc.noise, 7)
			r, err := fit.AlphaBeta(samples, &fit.Settings{Loss: tc.loss, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Regimes) != 1 {
				t.Fatalf("%d regimes, want 1", len(r.Regimes))
			}
			g := r.Regimes[0]
			if !scalar.EqualWithinAbs(g.Alpha, alpha, tc.tolA*alpha) {
				t.Errorf("alpha = %g s, want %g (rel. diff %.2g > %g)", g.Alpha, alpha, math.Abs(g.Alpha/alpha-1), tc.tolA)
			}
			if !scalar.EqualWithinAbs(g.BW, bw, tc.tolB*bw) {
				t.Errorf("BW = %g B/s, want %g (rel. diff %.2g > %g)", g.BW, bw, math.Abs(g.BW/bw-1), tc.tolB)
			}
			if tc.noise > 0 {
				if !(g.AlphaCI.Lo <= alpha && alpha <= g.AlphaCI.Hi) {
					t.Errorf("alpha %g outside its 95%% CI %+v", alpha, g.AlphaCI)
				}
				if !(g.BWCI.Lo <= bw && bw <= g.BWCI.Hi) {
					t.Errorf("BW %g outside its 95%% CI %+v", bw, g.BWCI)
				}
				// The median |relative error| of N(0, 0.02) noise is 0.6745·0.02.
				if r.MedianRelErr > 2*0.6745*tc.noise {
					t.Errorf("median rel. err %.4f, want about %.4f", r.MedianRelErr, 0.6745*tc.noise)
				}
			} else if r.MaxRelErr > 1e-9 || r.LOOMedianRelErr > 1e-9 {
				t.Errorf("exact data: max rel. err %g, LOO %g, want 0", r.MaxRelErr, r.LOOMedianRelErr)
			}
			for i, s := range r.Samples {
				if p := r.Predict(s.Size); !scalar.EqualWithinAbs(p, r.Predicted[i], 1e-12*r.Predicted[i]) {
					t.Errorf("Predict(%g) = %g, Predicted[%d] = %g", s.Size, p, i, r.Predicted[i])
				}
			}
		})
	}
}

func TestFitAlphaBetaBounds(t *testing.T) {
	t.Run("alpha at 0", func(t *testing.T) {
		// T = S/BW - 2 us is best fitted with a negative alpha; the bound
		// alpha >= 0 must hold and BW stay near 100 GB/s.
		var samples []fit.Sample
		for _, s := range []float64{1e6, 2e6, 4e6, 8e6} {
			samples = append(samples, fit.Sample{Size: s, Time: s/100e9 - 2e-6})
		}
		r, err := fit.AlphaBeta(samples, &fit.Settings{Loss: fit.Squared})
		if err != nil {
			t.Fatal(err)
		}
		g := r.Regimes[0]
		if g.Alpha != 0 {
			t.Errorf("alpha = %g, want exactly 0 (bound active)", g.Alpha)
		}
		if !(g.BW > 0) || !scalar.EqualWithinAbs(g.BW, 100e9, 0.2*100e9) {
			t.Errorf("BW = %g, want near 1e11", g.BW)
		}
	})
	t.Run("flat", func(t *testing.T) {
		// The NVLS-tree log's rows 4..512 B are flat at ~46-47 us
		// (data/public/h20_2x8_allreduce_nvlstree_nccl1244.log); a time that
		// falls with size has its BW at the cap, finite, and flagged.
		samples := []fit.Sample{{Size: 4, Time: 47.5e-6}, {Size: 64, Time: 46.3e-6}, {Size: 512, Time: 46.2e-6}}
		r, err := fit.AlphaBeta(samples, &fit.Settings{Loss: fit.Squared})
		if err != nil {
			t.Fatal(err)
		}
		g := r.Regimes[0]
		if !g.BWAtBound || math.IsInf(g.BW, 0) || !(g.BW > 0) {
			t.Errorf("BW = %g (at bound %v), want finite, positive, at bound", g.BW, g.BWAtBound)
		}
		// At the cap S/BW is at most 0.1% of every time (AlphaBeta's doc).
		for _, s := range samples {
			if s.Size/g.BW > 1e-3*s.Time*(1+1e-9) {
				t.Errorf("S/BW = %g s at %g B exceeds 0.1%% of %g s", s.Size/g.BW, s.Size, s.Time)
			}
		}
		if !scalar.EqualWithinAbs(g.Alpha, 46.6e-6, 0.02*46.6e-6) {
			t.Errorf("alpha = %g s, want ~46.6 us (mean level)", g.Alpha)
		}
		if !(commmodel.Link{Alpha: g.Alpha, BW: g.BW}).Valid() {
			t.Error("fitted link is not Valid")
		}
	})
}

func TestFitErrors(t *testing.T) {
	ok := []fit.Sample{{Size: 1e3, Time: 1e-5}, {Size: 1e6, Time: 2e-5}, {Size: 1e9, Time: 1e-2}}
	with := func(i int, s fit.Sample) []fit.Sample {
		c := append([]fit.Sample(nil), ok...)
		c[i] = s
		return c
	}
	for _, tc := range []struct {
		name    string
		samples []fit.Sample
		want    error
	}{
		{"none", nil, fit.ErrTooFewSamples},
		{"two", ok[:2], fit.ErrTooFewSamples},
		{"zero time", with(1, fit.Sample{Size: 1e6, Time: 0}), fit.ErrBadSample},
		{"negative time", with(1, fit.Sample{Size: 1e6, Time: -1}), fit.ErrBadSample},
		{"NaN time", with(2, fit.Sample{Size: 1e9, Time: math.NaN()}), fit.ErrBadSample},
		{"Inf time", with(2, fit.Sample{Size: 1e9, Time: math.Inf(1)}), fit.ErrBadSample},
		{"zero size", with(0, fit.Sample{Size: 0, Time: 3e-6}), fit.ErrBadSample},
		{"NaN size", with(0, fit.Sample{Size: math.NaN(), Time: 3e-6}), fit.ErrBadSample},
		{"one size", []fit.Sample{{Size: 8, Time: 1e-5}, {Size: 8, Time: 2e-5}, {Size: 8, Time: 3e-5}}, fit.ErrOneSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, fitter := range []func([]fit.Sample, *fit.Settings) (*fit.Result, error){
				fit.AlphaBeta, fit.Piecewise,
			} {
				r, err := fitter(tc.samples, nil)
				if !errors.Is(err, tc.want) || r != nil {
					t.Errorf("got (%v, %v), want error %v", r, err, tc.want)
				}
			}
		})
	}
	// A ring over one rank moves no bytes at any size: ErrOneSize, whose
	// text says so rather than that the sizes are one (red team 43).
	if _, err := fit.Through(commmodel.Ring{}, 1, ok, nil); !errors.Is(err, fit.ErrOneSize) || strings.Contains(err.Error(), "same size") {
		t.Errorf("Through a ring of one rank: %v, want ErrOneSize saying no bytes move", err)
	}
	var se *fit.SampleError
	if _, err := fit.AlphaBeta(with(1, fit.Sample{Size: 1e6, Time: 0}), nil); !errors.As(err, &se) || se.Index != 1 {
		t.Errorf("error %v does not name sample 1", err)
	}
	if _, err := fit.Piecewise(ok, &fit.Settings{Regimes: 2}); !errors.Is(err, fit.ErrTooFewSamples) {
		t.Errorf("2 regimes of 3 samples: error %v, want ErrTooFewSamples", err)
	}
}

// TestSettingsRefused: a Settings field out of its range (Settings' doc) is
// refused by every fit with ErrSettings naming the field, where before a
// NaN Level panicked inside the bootstrap's quantile and the others were
// replaced by their defaults without a word (a red team's report).
func TestSettingsRefused(t *testing.T) {
	samples := []fit.Sample{{Size: 8, Time: 20e-6}, {Size: 1 << 20, Time: 30e-6}, {Size: 1 << 24, Time: 200e-6}, {Size: 1 << 28, Time: 3e-3}}
	nan := math.NaN()
	for _, tc := range []struct {
		field string
		s     fit.Settings
	}{
		{"Level", fit.Settings{Level: nan}},
		{"Level", fit.Settings{Level: 2}},
		{"Level", fit.Settings{Level: 1}},
		{"Level", fit.Settings{Level: -0.5}},
		{"Tuning", fit.Settings{Tuning: nan}},
		{"Tuning", fit.Settings{Tuning: -1}},
		{"ScaleFloor", fit.Settings{ScaleFloor: nan}},
		{"NoiseFloor", fit.Settings{NoiseFloor: math.Inf(1)}},
		{"Loss", fit.Settings{Loss: 99}},
		{"Loss", fit.Settings{Loss: -1}},
		{"Regimes", fit.Settings{Regimes: -2}},
		{"MaxRegimes", fit.Settings{MaxRegimes: -1}},
		{"MinPoints", fit.Settings{MinPoints: -3}},
		{"MaxIter", fit.Settings{MaxIter: -1}},
		{"MaxIter", fit.Settings{MaxIter: fit.MaxIterations + 1}},
		{"Bootstrap", fit.Settings{Bootstrap: fit.MaxBootstrap + 1}},
		{"Bootstrap", fit.Settings{Bootstrap: math.MaxInt}},
		{"Candidates", fit.Settings{Candidates: 1}},
		{"Candidates", fit.Settings{Candidates: -5}},
		{"Candidates", fit.Settings{Candidates: fit.MaxCandidates + 1}},
		{"Candidates", fit.Settings{Candidates: 5000}},
	} {
		for name, fitter := range map[string]func() error{
			"AlphaBeta": func() error { _, err := fit.AlphaBeta(samples, &tc.s); return err },
			"Piecewise": func() error { _, err := fit.Piecewise(samples, &tc.s); return err },
			"Through":   func() error { _, err := fit.Through(commmodel.Ring{}, 8, samples, &tc.s); return err },
		} {
			err := fitter()
			if !errors.Is(err, fit.ErrSettings) || !strings.Contains(err.Error(), "Settings."+tc.field) {
				t.Errorf("%s with %+v: error %v, want ErrSettings naming Settings.%s", name, tc.s, err, tc.field)
			}
		}
	}
	// The edges of the ranges are fits: zero fields are defaults, a
	// negative Bootstrap runs none, and a Level just inside (0, 1) is one.
	for _, s := range []fit.Settings{{}, {Bootstrap: -1}, {Level: 0.5, Bootstrap: 20}, {Loss: fit.Squared, Candidates: 2}, {Candidates: fit.MaxCandidates}, {MaxIter: fit.MaxIterations}} {
		if _, err := fit.AlphaBeta(samples, &s); err != nil {
			t.Errorf("AlphaBeta with %+v: %v", s, err)
		}
	}
}

// threeRegimes is a synthetic NCCL-like curve: three protocol regimes, each
// T = alpha + S/BW (Piecewise's model), with their own alpha and BW.
var threeRegimes = []struct {
	upTo, alpha, bw float64
}{
	{64 << 10, 5e-6, 20e9},  // LL-like: low latency, low bandwidth
	{4 << 20, 12e-6, 120e9}, // LL128-like
	{math.Inf(1), 30e-6, 350e9},
}

func threeRegimeSamples(sizes []float64, noise float64, seed uint64) []fit.Sample {
	rng := rand.New(rand.NewPCG(seed, 2))
	out := make([]fit.Sample, len(sizes))
	for i, s := range sizes {
		k := 0
		for s > threeRegimes[k].upTo {
			k++
		}
		g := threeRegimes[k]
		out[i] = fit.Sample{Size: s, Time: (g.alpha + s/g.bw) * (1 + noise*rng.NormFloat64())}
	}
	return out
}

func powersOfTwo(lo, hi int) []float64 {
	var s []float64
	for e := lo; e <= hi; e++ {
		s = append(s, math.Ldexp(1, e))
	}
	return s
}

func TestFitPiecewiseRecoversRegimes(t *testing.T) {
	for _, noise := range []float64{0, 0.01} {
		samples := threeRegimeSamples(powersOfTwo(3, 33), noise, 11)
		r, err := fit.Piecewise(samples, &fit.Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Regimes) != 3 {
			t.Fatalf("noise %g: %d regimes %+v, want 3 (BIC %v)", noise, len(r.Regimes), r.Regimes, r.BIC)
		}
		// The regimes' edges are the generating breakpoints 64 KiB and 4 MiB.
		if r.Regimes[0].MaxSize != 64<<10 || r.Regimes[1].MinSize != 128<<10 ||
			r.Regimes[1].MaxSize != 4<<20 || r.Regimes[2].MinSize != 8<<20 {
			t.Errorf("noise %g: regimes %+v, want edges at 64 KiB and 4 MiB", noise, r.Regimes)
		}
		tol := 1e-9
		if noise > 0 {
			tol = 0.1 // 1% noise on 11-14 points per regime
		}
		for k, g := range r.Regimes {
			if !scalar.EqualWithinAbs(g.Alpha, threeRegimes[k].alpha, tol*threeRegimes[k].alpha) || !scalar.EqualWithinAbs(g.BW, threeRegimes[k].bw, tol*threeRegimes[k].bw) {
				t.Errorf("noise %g regime %d: alpha %g BW %g, want %g %g", noise, k, g.Alpha, g.BW, threeRegimes[k].alpha, threeRegimes[k].bw)
			}
		}
		single, err := fit.AlphaBeta(samples, nil)
		if err != nil {
			t.Fatal(err)
		}
		if single.MedianRelErr < 3*r.MedianRelErr {
			t.Errorf("noise %g: single fit median %.3f not clearly worse than piecewise %.3f", noise, single.MedianRelErr, r.MedianRelErr)
		}
	}
}

func TestFitPiecewiseFixedRegimes(t *testing.T) {
	samples := threeRegimeSamples(powersOfTwo(3, 33), 0, 1)
	for k := 1; k <= 5; k++ {
		r, err := fit.Piecewise(samples, &fit.Settings{Regimes: k, Bootstrap: -1})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Regimes) != k || r.BIC != nil {
			t.Errorf("Regimes %d: got %d regimes, BIC %v", k, len(r.Regimes), r.BIC)
		}
		n := 0
		for i, g := range r.Regimes {
			n += g.N
			if g.N < 3 || !(g.Alpha >= 0) || !(g.BW > 0) || math.IsInf(g.BW, 0) {
				t.Errorf("Regimes %d: regime %d %+v breaks the bounds", k, i, g)
			}
			if i > 0 && !(g.MinSize > r.Regimes[i-1].MaxSize) {
				t.Errorf("Regimes %d: regimes %d and %d overlap", k, i-1, i)
			}
		}
		if n != len(samples) {
			t.Errorf("Regimes %d: regimes hold %d samples, want %d", k, n, len(samples))
		}
	}
}

func TestFitPiecewiseManyPoints(t *testing.T) {
	// 3000 log-uniform sizes, more than Candidates: the grid search plus
	// refinement must still find the generating breakpoints within a few
	// percent of size.
	rng := rand.New(rand.NewPCG(5, 5))
	sizes := make([]float64, 3000)
	for i := range sizes {
		sizes[i] = math.Round(math.Exp2(3 + 30*rng.Float64()))
	}
	samples := threeRegimeSamples(sizes, 0.01, 9)
	// The curve steps down 11% at 4 MiB (see TestNonMonotoneStepDown); the
	// samples just below are kept to test the breakpoint search itself.
	r, err := fit.Piecewise(samples, &fit.Settings{Bootstrap: -1, KeepNonMonotone: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Regimes) != 3 {
		t.Fatalf("%d regimes, want 3: %+v", len(r.Regimes), r.Regimes)
	}
	for k, edge := range []float64{64 << 10, 4 << 20} {
		if !scalar.EqualWithinAbs(r.Regimes[k].MaxSize, edge, 0.05*edge) {
			t.Errorf("regime %d ends at %g B, want ~%g", k, r.Regimes[k].MaxSize, edge)
		}
	}
	if r.MedianRelErr > 0.01 {
		t.Errorf("median rel. err %.4f on 1%% noise", r.MedianRelErr)
	}
}

func TestFitLeaveOneOut(t *testing.T) {
	// Three points on one line: leaving any out, the other two give the same
	// line, so the LOO error is 0 (up to rounding).
	samples := []fit.Sample{{Size: 1e3, Time: 10e-6 + 1e3/1e10}, {Size: 1e5, Time: 10e-6 + 1e5/1e10}, {Size: 1e7, Time: 10e-6 + 1e7/1e10}}
	r, err := fit.AlphaBeta(samples, &fit.Settings{Loss: fit.Squared})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range r.LOORelErr {
		if !scalar.EqualWithinAbs(e, 0, 1e-9) {
			t.Errorf("LOO error of sample %d = %g, want 0", i, e)
		}
	}
	// Moving the middle point up by 10%: its LOO prediction is the line
	// through the others, so its LOO error is 1/1.1 - 1.
	samples[1].Time *= 1.1
	r, err = fit.AlphaBeta(samples, &fit.Settings{Loss: fit.Squared})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1/1.1 - 1; !scalar.EqualWithinAbs(r.LOORelErr[1], want, 1e-9) {
		t.Errorf("LOO error of the moved sample = %g, want %g", r.LOORelErr[1], want)
	}
}

func TestFitBootstrapSeeded(t *testing.T) {
	samples := modelSamples(10e-6, 280e9, 10, 30, 0.03, 4)
	ci := func(seed uint64) fit.Regime {
		r, err := fit.AlphaBeta(samples, &fit.Settings{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return r.Regimes[0]
	}
	a, b, c := ci(1), ci(1), ci(2)
	if a.AlphaCI != b.AlphaCI || a.BWCI != b.BWCI {
		t.Errorf("same seed, different intervals: %+v %+v", a, b)
	}
	if a.AlphaCI == c.AlphaCI {
		t.Errorf("different seeds, identical intervals %+v", a.AlphaCI)
	}
	if !(a.AlphaCI.Lo < a.Alpha && a.Alpha < a.AlphaCI.Hi && a.BWCI.Lo < a.BW && a.BW < a.BWCI.Hi) {
		t.Errorf("estimates outside their intervals: %+v", a)
	}
	r, err := fit.AlphaBeta(samples, &fit.Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if (r.Regimes[0].AlphaCI != fit.Interval{}) {
		t.Errorf("Bootstrap -1 gave an interval %+v", r.Regimes[0].AlphaCI)
	}
}

// stepsAlgo is a test-only Algorithm whose cost has a fixed number of steps
// and sends 2(P-1)/P·S bytes, like ring AllReduce (commmodel.Ring).
type stepsAlgo struct{}

func (stepsAlgo) Name() string                     { return "test-ring" }
func (stepsAlgo) Collective() commmodel.Collective { return commmodel.AllReduce }
func (stepsAlgo) Cost(p int, size float64) commmodel.Cost {
	n := float64(p)
	return commmodel.Cost{Steps: 2 * (p - 1), Bytes: 2 * (n - 1) / n * size}
}

func TestThroughRecoversLink(t *testing.T) {
	// "If this is ring AllReduce at P = 16, what are alpha and BW?": times
	// made by Cost.Time on a known link must give that link back.
	want := commmodel.Link{Alpha: 2e-6, BW: 350e9} // the article's intra-node defaults
	for _, a := range []commmodel.Algorithm{stepsAlgo{}, commmodel.Ring{}} {
		var samples []fit.Sample
		for _, s := range powersOfTwo(10, 32) {
			samples = append(samples, fit.Sample{Size: s, Time: commmodel.Time(a, 16, s, want)})
		}
		f, err := fit.Through(a, 16, samples, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l := f.Regimes[0].Link(); !scalar.EqualWithinAbs(l.Alpha, want.Alpha, 1e-9*want.Alpha) || !scalar.EqualWithinAbs(l.BW, want.BW, 1e-9*want.BW) {
			t.Errorf("%s: link %+v, want %+v", a.Name(), l, want)
		}
		// Predict is the time on the link found: Cost.Time at any size.
		for _, s := range []float64{1, 3 << 20, 1 << 40} {
			if got, w := f.Predict(s), commmodel.Time(a, 16, s, want); !scalar.EqualWithinAbs(got, w, 1e-9*w) {
				t.Errorf("%s: Predict(%g B) = %g s, Time on the link %g s", a.Name(), s, got, w)
			}
		}
		// The same samples read as plain alpha + S/BW: alpha = 30 steps·alpha,
		// BW = link BW / (2·15/16).
		single, err := fit.AlphaBeta(samples, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g := single.Regimes[0]; !scalar.EqualWithinAbs(g.Alpha, 30*want.Alpha, 1e-9*30*want.Alpha) || !scalar.EqualWithinAbs(g.BW, want.BW*16/30, 1e-9*want.BW*16/30) {
			t.Errorf("%s: plain fit %g s, %g B/s; want %g, %g", a.Name(), g.Alpha, g.BW, 30*want.Alpha, want.BW*16/30)
		}
	}
}

// TestFitPiecewiseSmoothCurves holds the piecewise fit's targets (median <= 3%, worst
// <= 15%, leave-one-out median <= 8%) on curves that are not piecewise
// alpha-beta, as real sweeps are not (NCCL adds channels gradually), over
// nccl-tests' usual 8 B..8 GiB in factors of 2, with noise of 0, 1% and 3%.
// The curves are made-up shapes, each a formula: a latency floor of ~10 us
// that bends into a 300 GB/s bandwidth limit.
func TestFitPiecewiseSmoothCurves(t *testing.T) {
	curves := []struct {
		name string
		time func(s float64) float64
	}{
		{"hypot", func(s float64) float64 { return math.Hypot(10e-6, s/300e9) }},
		{"p-norm 1.5", func(s float64) float64 { return math.Pow(math.Pow(10e-6, 1.5)+math.Pow(s/300e9, 1.5), 1/1.5) }},
		{"bandwidth ramp", func(s float64) float64 { return 8e-6 + s/(300e9*(1-math.Exp(-s/4e6))+1e9) }},
		{"log latency", func(s float64) float64 { return 20e-6 + 5e-6*math.Log2(1+s/1e5) + s/250e9 }},
	}
	for _, c := range curves {
		for _, noise := range []float64{0, 0.01, 0.03} {
			rng := rand.New(rand.NewPCG(1, 2))
			var samples []fit.Sample
			for _, s := range powersOfTwo(3, 33) {
				samples = append(samples, fit.Sample{Size: s, Time: c.time(s) * (1 + noise*rng.NormFloat64())})
			}
			r, err := fit.Piecewise(samples, &fit.Settings{Bootstrap: -1})
			if err != nil {
				t.Fatal(err)
			}
			if r.MedianRelErr > 0.03 || r.MaxRelErr > 0.15 || r.LOOMedianRelErr > 0.08 {
				t.Errorf("%s, noise %g: %d regimes, median %.2f%% worst %.2f%% LOO %.2f%%", c.name, noise,
					len(r.Regimes), 100*r.MedianRelErr, 100*r.MaxRelErr, 100*r.LOOMedianRelErr)
			}
		}
	}
}

func TestSplitEmpty(t *testing.T) {
	// nccl-tests' 0-byte rows (the empty call) go to empty, every other
	// sample, a bad one included, to sized, both in their order.
	in := []fit.Sample{{Size: 0, Time: 3.1e-6}, {Size: 8, Time: 10e-6}, {Size: 0, Time: 3.2e-6}, {Size: -1, Time: 1e-6}, {Size: 16, Time: 11e-6}}
	sized, empty := fit.SplitEmpty(in)
	if want := []fit.Sample{in[1], in[3], in[4]}; !slices.Equal(sized, want) {
		t.Errorf("sized %v, want %v", sized, want)
	}
	if want := []fit.Sample{in[0], in[2]}; !slices.Equal(empty, want) {
		t.Errorf("empty %v, want %v", empty, want)
	}
}

func TestMedian(t *testing.T) {
	// The middle value, or the mean of the two middle ones: the definition.
	for _, tc := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{-1, 5, 5, 0}, 2.5},
	} {
		x := slices.Clone(tc.x)
		if got := fit.Median(x); got != tc.want {
			t.Errorf("Median(%v) = %g, want %g", tc.x, got, tc.want)
		}
		if !slices.Equal(x, tc.x) {
			t.Errorf("Median reordered its input: %v", x)
		}
	}
	for _, x := range [][]float64{nil, {1, math.NaN(), 2}} {
		if got := fit.Median(x); !math.IsNaN(got) {
			t.Errorf("Median(%v) = %g, want NaN", x, got)
		}
	}
}

func TestBoundariesAndNotes(t *testing.T) {
	// Two regimes of the three-regime curve's first two: 8 B..8 KiB and
	// 16 KiB..64 KiB. Predict switches at √(8 KiB·16 KiB) (Boundaries), and
	// the second regime spans 4x, the first 1024x: neither is Narrow; a
	// regime of 1..1.5 MiB would be.
	r := &fit.Result{Regimes: []fit.Regime{
		{MinSize: 8, MaxSize: 8 << 10, Alpha: 5e-6, BW: 1e9},
		{MinSize: 16 << 10, MaxSize: 64 << 10, Alpha: 20e-6, BW: 50e9}}}
	b := r.Boundaries()
	if want := math.Sqrt(8 << 10 * 16 << 10); len(b) != 1 || !scalar.EqualWithinAbs(b[0], want, 1e-15*want) {
		t.Fatalf("Boundaries %v, want [%g]", b, want)
	}
	below, above := r.Predict(b[0]*(1-1e-9)), r.Predict(b[0]*(1+1e-9))
	if !scalar.EqualWithinAbs(below, 5e-6+b[0]/1e9, 1e-6*(5e-6+b[0]/1e9)) || !scalar.EqualWithinAbs(above, 20e-6+b[0]/50e9, 1e-6*(20e-6+b[0]/50e9)) {
		t.Errorf("Predict does not switch at the boundary: %g, %g", below, above)
	}
	if r.Regimes[0].Narrow() || r.Regimes[1].Narrow() || !(fit.Regime{MinSize: 1 << 20, MaxSize: 3 << 19}).Narrow() {
		t.Error("Narrow wrong")
	}
	// A fit whose one regime spans 1..1.75 MiB carries the note.
	var samples []fit.Sample
	for _, s := range []float64{1 << 20, 5 << 18, 3 << 19, 7 << 18} {
		samples = append(samples, fit.Sample{Size: s, Time: 10e-6 + s/100e9})
	}
	f, err := fit.AlphaBeta(samples, &fit.Settings{Bootstrap: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "1048576..1835008 B spans less than 2x") {
		t.Errorf("notes %q, want one on the regime 1048576..1835008 B", f.Notes)
	}
}

func TestLinkOfPiecewisePanics(t *testing.T) {
	r := &fit.Result{Regimes: make([]fit.Regime, 2)}
	defer func() {
		if recover() == nil {
			t.Error("Link of a two-regime fit did not panic")
		}
	}()
	r.Link()
}
