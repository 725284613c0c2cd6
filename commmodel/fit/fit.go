package fit

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/inframethod/commlab/commmodel"
)

// Sample is one measured point: a collective of Size bytes that took Time seconds.
type Sample struct {
	// Size is the message size in bytes, as nccl-tests prints it.
	Size float64
	// Time is the measured duration, in seconds.
	Time float64
}

// SplitEmpty splits samples into those a fit can take and the 0-byte ones,
// keeping their order. nccl-tests' 0-byte rows time an empty call (NCCL
// returns before launching a transfer): they are the launch floor, not a
// point of T = α + S/BW. Samples of any other size, bad ones included, go
// to sized, where a fit reports what is wrong with them.
func SplitEmpty(samples []Sample) (sized, empty []Sample) {
	for _, s := range samples {
		if s.Size == 0 {
			empty = append(empty, s)
		} else {
			sized = append(sized, s)
		}
	}
	return sized, empty
}

// Errors the fits return for data they cannot fit. A *SampleError wraps
// ErrBadSample and names the offending sample.
var (
	// ErrTooFewSamples: fewer samples than the fit has parameters to determine.
	ErrTooFewSamples = errors.New("fit: too few samples to fit")
	// ErrBadSample: a size or time that is not a finite positive number.
	ErrBadSample = errors.New("fit: bad sample")
	// ErrOneSize: every sample has the same size (or the same regressors), so
	// latency and bandwidth cannot be told apart.
	ErrOneSize = errors.New("fit: all samples have the same size; alpha and BW cannot be separated")
	// ErrSettings: a Settings field outside its range (see Settings); the
	// error names the field and the range.
	ErrSettings = errors.New("fit: a setting out of range")
)

// A SampleError reports the sample a fit rejected. It wraps ErrBadSample
// (Unwrap), so errors.Is(err, ErrBadSample) holds for it.
type SampleError struct {
	// Index is the position of the sample in the caller's slice.
	Index int
	// Sample is the rejected sample.
	Sample Sample
	// Reason says what is wrong with it.
	Reason string
}

func (e *SampleError) Error() string {
	return fmt.Sprintf("fit: sample %d (size %g B, time %g s): %s", e.Index, e.Sample.Size, e.Sample.Time, e.Reason)
}

// Unwrap returns ErrBadSample.
func (e *SampleError) Unwrap() error { return ErrBadSample }

// Loss selects how a fit treats samples that disagree with it.
type Loss int

const (
	// Bisquare is Tukey's biweight: iteratively reweighted least squares with
	// weight (1-(r/cs)²)² for |r| < cs and 0 beyond, where r is a sample's
	// relative residual, s the robust scale and c the tuning constant (4.685).
	// The iteration starts from Huber weights. It is the default.
	Bisquare Loss = iota
	// Huber weights a sample min(1, cs/|r|) (c = 1.345): wild samples keep
	// some pull, linear rather than quadratic.
	Huber
	// Squared is plain least squares on relative error: every sample weight 1.
	Squared
)

func (l Loss) String() string {
	switch l {
	case Bisquare:
		return "bisquare"
	case Huber:
		return "huber"
	case Squared:
		return "squared"
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// Settings tunes AlphaBeta, Piecewise and Through. A nil
// *Settings, and every zero field, means the default given in the field's
// comment. A fit refuses, with ErrSettings naming the field, a count
// (Regimes, MaxRegimes, MinPoints, MaxIter) that is negative, a MaxIter
// above MaxIterations, a Bootstrap above MaxBootstrap, a Candidates of 1
// or above MaxCandidates, a Tuning, ScaleFloor or NoiseFloor that is
// negative, NaN or infinite, a Level that is not 0 or strictly between 0 and
// 1, and a Loss other than Bisquare, Huber and Squared: none of these
// describes a fit, and taking the default in their place would fit what the
// caller did not ask for.
type Settings struct {
	// Regimes fixes the number of size regimes of Piecewise; 0 chooses it
	// by BIC (see Piecewise). AlphaBeta and Through always use one.
	Regimes int
	// MaxRegimes bounds the automatic choice of regimes (default 8).
	MaxRegimes int
	// MinPoints is the fewest samples a regime may hold (default 3); a regime
	// also spans at least two distinct sizes.
	MinPoints int
	// Loss is the robustness of the fit (default Bisquare).
	Loss Loss
	// Tuning is the robust loss's tuning constant c, in units of the robust
	// scale (default 4.685 for Bisquare, 1.345 for Huber).
	Tuning float64
	// ScaleFloor is the smallest robust scale of the relative residuals
	// (default 0.03): with Bisquare's c = 4.685 no sample within 14% of the
	// fit is rejected outright, so curvature the regimes do not capture is
	// not mistaken for wild samples.
	ScaleFloor float64
	// NoiseFloor is the smallest noise level the regime criterion assumes
	// (default 0.01, i.e. 1%): errors below it do not buy more regimes.
	NoiseFloor float64
	// MaxIter bounds the reweighting iterations of the robust loss (default
	// 30, at most MaxIterations).
	MaxIter int
	// Candidates bounds the breakpoint positions the regime search considers
	// (default 128, at most MaxCandidates). With at most this many distinct
	// sizes the search is exact; beyond it breakpoints are placed on an even
	// grid of the sorted sizes and each is then moved to its best position
	// between its grid neighbours.
	Candidates int
	// Bootstrap is the number of bootstrap replicates for the confidence
	// intervals (default 200, at most MaxBootstrap; negative: no intervals).
	Bootstrap int
	// Level is the confidence level of the intervals (default 0.95).
	Level float64
	// Seed seeds the bootstrap's random numbers; the same seed gives the same
	// intervals.
	Seed uint64
	// KeepNonMonotone keeps in the fit the samples that took longer than a
	// sample of a larger size; by default (false) they are set aside before
	// the fit and reported in Result.NonMonotone (see the package
	// documentation).
	KeepNonMonotone bool
}

// MaxCandidates is the largest Settings.Candidates a fit takes. The regime
// search over M candidates costs O(K·M²) for K regimes, and Piecewise runs it
// for each K it tries in each reweighting iteration (up to MaxIter): on 2
// cores, 5,000 candidates took 53 s to fit 5,000 sizes of a three-regime
// curve and 153 s to fit 20,000, where 256 takes 0.11 and 0.3 s
// (BenchmarkFitPiecewiseCandidates). A larger value is refused with
// ErrSettings, not clamped, so that no fit claims a finer search than it ran.
const MaxCandidates = 256

// MaxIterations is the largest Settings.MaxIter a fit takes: the weights
// settle within a few dozen iterations, and each costs a regime search.
const MaxIterations = 1000

// MaxBootstrap is the largest Settings.Bootstrap a fit takes: a 95%
// interval's quantiles settle within a few thousand replicates, and each
// replicate's values are held until its regime's quantiles are read.
const MaxBootstrap = 10000

// check returns ErrSettings naming the first field of s out of its range
// (see Settings); a nil s is the defaults.
func (s *Settings) check() error {
	if s == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"Regimes", s.Regimes}, {"MaxRegimes", s.MaxRegimes}, {"MinPoints", s.MinPoints}, {"MaxIter", s.MaxIter}} {
		if f.v < 0 {
			return fmt.Errorf("%w: Settings.%s %d: want 0 (its default) or a positive count", ErrSettings, f.name, f.v)
		}
	}
	if s.MaxIter > MaxIterations {
		return fmt.Errorf("%w: Settings.MaxIter %d: want 0 (its default, 30) or at most %d (MaxIterations)", ErrSettings, s.MaxIter, MaxIterations)
	}
	if s.Bootstrap > MaxBootstrap {
		return fmt.Errorf("%w: Settings.Bootstrap %d: want 0 (its default, 200), a negative count (no intervals) or at most %d (MaxBootstrap)", ErrSettings, s.Bootstrap, MaxBootstrap)
	}
	if s.Candidates < 0 || s.Candidates == 1 || s.Candidates > MaxCandidates {
		return fmt.Errorf("%w: Settings.Candidates %d: want 0 (its default, 128) or 2 to %d (MaxCandidates)", ErrSettings, s.Candidates, MaxCandidates)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Tuning", s.Tuning}, {"ScaleFloor", s.ScaleFloor}, {"NoiseFloor", s.NoiseFloor}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%w: Settings.%s %g: want 0 (its default) or a positive finite value", ErrSettings, f.name, f.v)
		}
	}
	if !(s.Level >= 0 && s.Level < 1) {
		return fmt.Errorf("%w: Settings.Level %g: want 0 (its default, 0.95) or a level strictly between 0 and 1", ErrSettings, s.Level)
	}
	switch s.Loss {
	case Bisquare, Huber, Squared:
	default:
		return fmt.Errorf("%w: Settings.Loss %v: want Bisquare (0, its default), Huber (1) or Squared (2)", ErrSettings, s.Loss)
	}
	return nil
}

// resolve checks s (check) and returns it with its defaults (withDefaults).
func (s *Settings) resolve() (Settings, error) {
	if err := s.check(); err != nil {
		return Settings{}, err
	}
	return s.withDefaults(), nil
}

// withDefaults returns a copy of s with zero fields set to their defaults.
func (s *Settings) withDefaults() Settings {
	var d Settings
	if s != nil {
		d = *s
	}
	if d.MaxRegimes <= 0 {
		d.MaxRegimes = 8
	}
	if d.MinPoints <= 0 {
		d.MinPoints = 3
	}
	if d.Tuning <= 0 {
		d.Tuning = 4.685
		if d.Loss == Huber {
			d.Tuning = 1.345
		}
	}
	if d.ScaleFloor <= 0 {
		d.ScaleFloor = 0.03
	}
	if d.NoiseFloor <= 0 {
		d.NoiseFloor = 0.01
	}
	if d.MaxIter <= 0 {
		d.MaxIter = 30
	}
	if d.Candidates <= 1 {
		d.Candidates = 128
	}
	if d.Bootstrap == 0 {
		d.Bootstrap = 200
	}
	if d.Level <= 0 || d.Level >= 1 {
		d.Level = 0.95
	}
	return d
}

// Interval is a confidence interval [Lo, Hi], in the unit of the quantity.
type Interval struct {
	Lo, Hi float64
}

// Regime is one contiguous range of sizes with its own alpha and BW.
type Regime struct {
	// MinSize and MaxSize are the smallest and largest sample sizes in the
	// regime, in bytes.
	MinSize, MaxSize float64
	// Alpha is the fitted latency, in seconds.
	Alpha float64
	// BW is the fitted bandwidth, in bytes per second.
	BW float64
	// AlphaCI and BWCI are bootstrap confidence intervals for Alpha (s) and
	// BW (B/s); zero when no bootstrap was run.
	AlphaCI, BWCI Interval
	// N is the number of samples in the regime.
	N int
	// BWAtBound reports that the bandwidth sits at its upper bound: time does
	// not grow with size in this regime (see AlphaBeta).
	BWAtBound bool
}

// Link returns the regime's link, {Alpha, BW}: for a fit through an
// algorithm (Through), the link that algorithm runs on.
func (g Regime) Link() commmodel.Link { return commmodel.Link{Alpha: g.Alpha, BW: g.BW} }

// Narrow reports whether the regime spans less than a factor of 2 in size,
//
//	MaxSize < 2·MinSize
//
// Over so short a range α and S/BW change together, so its Alpha and BW are
// hard to tell apart (their intervals say by how much).
func (g Regime) Narrow() bool { return g.MaxSize < 2*g.MinSize }

// Result is a fitted alpha-beta model with its diagnostics. Samples and the
// per-sample slices are sorted by size.
type Result struct {
	// Regimes are the fitted size regimes in increasing size; one for
	// AlphaBeta and Through.
	Regimes []Regime
	// Algorithm and P are the algorithm and rank count a fit through an
	// algorithm assumed (Through): each regime's time is then
	// Steps(P, S)·Alpha + Bytes(P, S)/BW. Algorithm is nil for AlphaBeta
	// and Piecewise, whose time is Alpha + S/BW.
	Algorithm commmodel.Algorithm
	P         int
	// Samples are the fitted samples, sorted by size (stable): those given,
	// less the ones set aside as NonMonotone.
	Samples []Sample
	// Predicted is the model's time for each sample, in seconds.
	Predicted []float64
	// RelErr is each sample's relative error (predicted-measured)/measured.
	RelErr []float64
	// Weight is each sample's final robustness weight in [0, 1].
	Weight []float64
	// LOORelErr is each sample's leave-one-out relative error: the regime the
	// sample belongs to is refitted without it (breakpoints and the other
	// samples' weights held) and predicts it.
	LOORelErr []float64
	// MedianRelErr, MaxRelErr and LOOMedianRelErr summarise |RelErr| and
	// |LOORelErr| over all fitted samples, outliers included (the samples
	// set aside as non-monotone are not fitted samples).
	MedianRelErr, MaxRelErr, LOOMedianRelErr float64
	// NonMonotone are the samples set aside before the fit because each
	// took longer than a sample of a larger size (see the package
	// documentation), in increasing size; they are in none of the fields
	// above, and none of the regimes or boundaries rests on them. Nil when
	// Settings.KeepNonMonotone is set.
	NonMonotone []NonMonotone
	// BIC is the criterion for each number of regimes tried (index K-1); nil
	// when the number was fixed.
	BIC []float64
	// Iterations is the number of robust reweighting iterations run.
	Iterations int
	// Converged reports whether the weights settled within MaxIter.
	Converged bool
	// Notes are what a reader of the fit should know about it, one sentence
	// each: today, each regime that is Narrow.
	Notes []string
}

// AlphaBeta fits one latency-bandwidth pair to measurements by least
// squares on relative error. The model and objective are
//
//	T(S) = α + S/BW
//	minimise Σ ωᵢ ((α + Sᵢ/BW - tᵢ)/tᵢ)²   subject to α ≥ 0, BW > 0
//
// where Sᵢ is a sample's size in bytes, tᵢ its time in seconds and ωᵢ its
// robustness weight (all 1 for Loss Squared). Sizes span many decades, so
// the error is relative: a 10% miss costs the same at 8 B as at 8 GB. With
// β = 1/BW this is linear least squares with weights ωᵢ/tᵢ²; writing
// uᵢ = 1/tᵢ and vᵢ = Sᵢ/tᵢ it is
//
//	minimise Σ ωᵢ (α·uᵢ + β·vᵢ - 1)²
//
// whose normal equations have the closed form
//
//	α = (Σωu·Σωvv - Σωv·Σωuv) / D,  β = (Σωuu·Σωv - Σωuv·Σωu) / D
//	D = Σωuu·Σωvv - (Σωuv)²
//
// If that violates α ≥ 0 or β ≥ β_min, the constrained optimum lies on a
// bound (active set): α = 0 with β = Σωv/Σωvv, or β = β_min with
// α = (Σωu - β_min·Σωuv)/Σωuu, each clipped to its bound, whichever has
// the smaller objective. β_min = 10⁻³·minᵢ(tᵢ/Sᵢ) caps BW where S/BW is under
// 0.1% of every measured time: a regime whose time does not grow with size
// reports BW at that cap with BWAtBound set, never +Inf.
//
// The robust losses (Bisquare by default) iterate: fit, compute relative
// residuals rᵢ, scale s = max(1.4826·median|rᵢ|, ScaleFloor), reweight, refit,
// until no weight moves by more than 10⁻³ or MaxIter is reached (Bisquare
// starts from Huber weights settled to 10⁻²).
//
// AlphaBeta needs at least three samples and two distinct sizes; every
// size and time must be finite and positive. Bad data gives ErrTooFewSamples,
// ErrOneSize or a *SampleError wrapping ErrBadSample; a setting out of its
// range gives ErrSettings.
func AlphaBeta(samples []Sample, settings *Settings) (*Result, error) {
	s, err := settings.resolve()
	if err != nil {
		return nil, err
	}
	s.Regimes = 1
	return fitRegimes(samples, model{}, s)
}

// design is the regression problem for sorted samples: time ≈ a·x1 + b·x2.
type design struct {
	samples []Sample
	// x1 and x2 are the regressors of time: 1 and S, or Steps and Bytes.
	x1, x2 []float64
	// u and v are the scaled regressors x1·t0/t and x2/(B0·t); the scaled
	// parameters are a/t0 and b·B0, and the lower bound of the latter is 1e-3.
	u, v   []float64
	t0, b0 float64
	// blocks are the first sample of each distinct size, then len(samples).
	blocks []int
	// pre and cost are scratch space of split, reused across its calls.
	pre  []sums
	cost []float64
}

// bMinScaled is the lower bound of the scaled inverse bandwidth b·B0 (see
// AlphaBeta: BW is capped at 1000·max(x2/t)).
const bMinScaled = 1e-3

// BWCap is the largest bandwidth the fit reports, 1000·max(x2ᵢ/tᵢ) over
// Samples (x2 is S, or the algorithm's bytes for Through; see AlphaBeta). A
// regime's BW at the cap (BWAtBound) was not measured, and a BWCI whose Hi
// is at the cap is not bounded above by the data.
func (r *Result) BWCap() float64 {
	m := model{r.Algorithm, r.P}
	var b0 float64
	for _, s := range r.Samples {
		_, x2 := m.regressors(s.Size)
		b0 = max(b0, x2/s.Time)
	}
	return b0 / bMinScaled
}

// newDesign validates samples, sorts them by size and builds the regressors
// of m: x1, x2 = 1, S for the plain model, or an algorithm's Steps and Bytes.
func newDesign(samples []Sample, m model) (*design, error) {
	if len(samples) < 3 {
		return nil, fmt.Errorf("%w: %d samples, need at least 3", ErrTooFewSamples, len(samples))
	}
	n := len(samples)
	x1, x2 := make([]float64, n), make([]float64, n)
	for i, sm := range samples {
		switch {
		case !(sm.Size > 0) || math.IsInf(sm.Size, 0):
			return nil, &SampleError{i, sm, "size is not a finite positive number of bytes"}
		case !(sm.Time > 0) || math.IsInf(sm.Time, 0):
			return nil, &SampleError{i, sm, "time is not a finite positive number of seconds"}
		}
		x1[i], x2[i] = m.regressors(sm.Size)
		if !(x1[i] >= 0) || !(x2[i] >= 0) || math.IsInf(x1[i], 0) || math.IsInf(x2[i], 0) {
			return nil, &SampleError{i, sm, fmt.Sprintf("regressors %g steps, %g bytes are not finite and non-negative", x1[i], x2[i])}
		}
		// The scaling (and the BW cap, 1000 times the largest x2/t) must
		// stay finite.
		if math.IsInf(1e3*x2[i]/sm.Time, 0) || math.IsInf(x1[i]/sm.Time, 0) {
			return nil, &SampleError{i, sm, "size per second is out of the range of float64"}
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(samples[i].Size, samples[j].Size) })
	if samples[order[0]].Size == samples[order[n-1]].Size {
		return nil, ErrOneSize
	}
	d := &design{
		samples: make([]Sample, n),
		x1:      make([]float64, n), x2: make([]float64, n),
		u: make([]float64, n), v: make([]float64, n),
		t0: math.Inf(1),
	}
	for k, i := range order {
		d.samples[k], d.x1[k], d.x2[k] = samples[i], x1[i], x2[i]
		d.t0 = min(d.t0, samples[i].Time)
		d.b0 = max(d.b0, x2[i]/samples[i].Time)
	}
	if d.b0 == 0 {
		return nil, noBytes{}
	}
	for i, sm := range d.samples {
		d.u[i] = d.x1[i] * d.t0 / sm.Time
		d.v[i] = d.x2[i] / (d.b0 * sm.Time)
		if i == 0 || sm.Size != d.samples[i-1].Size {
			d.blocks = append(d.blocks, i)
		}
	}
	d.blocks = append(d.blocks, n)
	return d, nil
}

// sums are the weighted sums of one regression problem (see AlphaBeta).
type sums struct {
	w, u, v, uu, uv, vv float64
}

func (s *sums) add(w, u, v float64) {
	s.w += w
	s.u += w * u
	s.v += w * v
	s.uu += w * u * u
	s.uv += w * u * v
	s.vv += w * v * v
}

func (s sums) sub(t sums) sums {
	return sums{s.w - t.w, s.u - t.u, s.v - t.v, s.uu - t.uu, s.uv - t.uv, s.vv - t.vv}
}

// rss is the weighted residual sum of squares at scaled parameters (a, b).
func (s sums) rss(a, b float64) float64 {
	r := a*a*s.uu + 2*a*b*s.uv + b*b*s.vv - 2*a*s.u - 2*b*s.v + s.w
	return max(r, 0)
}

// solve returns the constrained least-squares scaled parameters a ≥ 0,
// b ≥ bMinScaled and their residual sum of squares, by the active set of
// AlphaBeta's doc comment. ok is false when the sums hold no information.
func (s sums) solve() (a, b, rss float64, ok bool) {
	if !(s.uu > 0) && !(s.vv > 0) {
		return 0, 0, 0, false
	}
	if det := s.uu*s.vv - s.uv*s.uv; det > 1e-12*s.uu*s.vv {
		a = (s.u*s.vv - s.v*s.uv) / det
		b = (s.uu*s.v - s.uv*s.u) / det
		if a >= 0 && b >= bMinScaled {
			return a, b, s.rss(a, b), true
		}
	}
	rss = math.Inf(1)
	if s.vv > 0 { // alpha at its bound
		bb := max(s.v/s.vv, bMinScaled)
		if r := s.rss(0, bb); r < rss {
			a, b, rss = 0, bb, r
		}
	}
	if s.uu > 0 { // BW at its bound
		aa := max((s.u-bMinScaled*s.uv)/s.uu, 0)
		if r := s.rss(aa, bMinScaled); r < rss {
			a, b, rss = aa, bMinScaled, r
		}
	}
	return a, b, rss, true
}

// segmentSums returns the weighted sums of samples lo..hi-1.
func (d *design) segmentSums(w []float64, lo, hi int) sums {
	var s sums
	for i := lo; i < hi; i++ {
		s.add(w[i], d.u[i], d.v[i])
	}
	return s
}

// link converts scaled parameters to latency per x1 (s) and bandwidth (B/s).
func (d *design) link(a, b float64) (alpha, bw float64) {
	return a * d.t0, d.b0 / b
}

// predict is the model's time for sample i at scaled parameters (a, b).
func (d *design) predict(i int, a, b float64) float64 {
	alpha, bw := d.link(a, b)
	return alpha*d.x1[i] + d.x2[i]/bw
}

// fitRegimes runs the robust fit over regimes (fixed count s.Regimes, or
// chosen by BIC when it is 0) and fills the diagnostics.
func fitRegimes(samples []Sample, m model, s Settings) (*Result, error) {
	d, err := newDesign(samples, m)
	if err != nil {
		return nil, err
	}
	sc, err := d.screen(m, s)
	if err != nil {
		return nil, err
	}
	d, set := sc.d, sc.set
	n := len(d.samples)
	nb := len(d.blocks) - 1
	kmin, kmax := 1, maxRegimes(n, nb, s)
	if s.Regimes > 0 {
		kmin, kmax = s.Regimes, s.Regimes
	}
	if kmax < kmin {
		return nil, fmt.Errorf("%w: %d samples of %d sizes cannot form %d regimes of at least %d samples and 2 sizes",
			ErrTooFewSamples, n, nb, kmin, s.MinPoints)
	}
	if s.Regimes > 0 {
		f, err := d.fitK(s.Regimes, s)
		if err != nil {
			return nil, err
		}
		return d.result(f, nil, set, m, s), nil
	}
	// The reference scale is the noise the screen measured on d, when it did.
	sigma, most := sc.sigma, sc.k
	if most == 0 || most > kmax {
		sigma, most = d.noise(kmax, s)
	}
	kmax = most
	var best *kFit
	var bic []float64
	for k := 1; k <= kmax; k++ {
		f, err := d.fitK(k, s)
		if err != nil {
			if k > 1 && errors.Is(err, ErrTooFewSamples) {
				break // more regimes than the samples allow
			}
			return nil, err
		}
		r := 0.0
		for _, e := range f.rel {
			r += rho(e, s.Loss, max(sigma, s.ScaleFloor), s)
		}
		bic = append(bic, r/(sigma*sigma)+float64(3*k-1)*math.Log(float64(n)))
		if best == nil || bic[k-1] < bic[len(best.segs)-1] {
			best = f
		} else if k-len(best.segs) >= 2 {
			break // two more regimes did not help
		}
	}
	return d.result(best, bic, set, m, s), nil
}

// noise returns the reference scale σ of the least-squares fit with the
// most regimes the samples allow, at most kmax (referenceScale: the noise
// once the model is as flexible as it gets), and that number of regimes.
// σ is NoiseFloor when not even one regime can be fitted.
func (d *design) noise(kmax int, s Settings) (sigma float64, k int) {
	n := len(d.samples)
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	for k = kmax; k >= 1; k-- {
		segs, err := d.split(ones, k, s)
		if err == nil {
			rel := make([]float64, n)
			d.relErr(segs, rel)
			return referenceScale(rel, s), k
		}
	}
	return s.NoiseFloor, 0
}

// maxRegimes is the most regimes n samples of nb distinct sizes can form
// under s (at most MaxRegimes, each of MinPoints samples and 2 sizes).
func maxRegimes(n, nb int, s Settings) int {
	return min(s.MaxRegimes, n/s.MinPoints, nb/2)
}

// result fills a Result from the chosen fit, with the samples set aside as
// non-monotone.
func (d *design) result(best *kFit, bic []float64, set []NonMonotone, m model, s Settings) *Result {
	res := &Result{Samples: d.samples, BIC: bic, Algorithm: m.algorithm, P: m.p}
	res.Weight, res.Iterations, res.Converged = best.w, best.iterations, best.converged
	d.fillDiagnostics(res, best.segs)
	for _, nm := range set {
		nm.Predicted = res.Predict(nm.Sample.Size)
		nm.RelErr = (nm.Predicted - nm.Sample.Time) / nm.Sample.Time
		res.NonMonotone = append(res.NonMonotone, nm)
	}
	for _, g := range res.Regimes {
		if g.Narrow() {
			res.Notes = append(res.Notes, fmt.Sprintf(
				"the regime %d..%d B spans less than 2x in size: its alpha and BW are hard to tell apart (see their intervals)",
				int64(g.MinSize), int64(g.MaxSize)))
		}
	}
	if s.Bootstrap > 0 {
		d.bootstrap(res, best.segs, s)
	}
	return res
}

// kFit is the robust fit with a fixed number of regimes.
type kFit struct {
	segs       []segment
	w, rel     []float64
	iterations int
	converged  bool
}

// fitK fits k regimes: least squares, then for a robust loss reweighting
// (Huber first, then Bisquare when that is the loss) until the weights settle.
func (d *design) fitK(k int, s Settings) (*kFit, error) {
	n := len(d.samples)
	f := &kFit{w: make([]float64, n), rel: make([]float64, n), converged: true}
	for i := range f.w {
		f.w[i] = 1
	}
	var stages []Loss
	switch s.Loss {
	case Huber:
		stages = []Loss{Huber}
	case Bisquare:
		stages = []Loss{Huber, Bisquare}
	}
	var err error
	if f.segs, err = d.split(f.w, k, s); err != nil {
		return nil, err
	}
	f.iterations = 1
	d.relErr(f.segs, f.rel)
	for si, stage := range stages {
		// The Huber start of a Bisquare fit only needs to be close.
		tol, maxIter := 1e-3, s.MaxIter
		if si < len(stages)-1 {
			tol, maxIter = 1e-2, min(10, s.MaxIter)
		}
		f.converged = false
		for iter := 0; iter < maxIter; iter++ {
			prev := slices.Clone(f.w)
			moved, _ := reweight(f.rel, f.w, stage, s)
			segs, err := d.split(f.w, k, s)
			if err != nil {
				// The new weights leave a regime too little weight: keep the
				// last fit that had enough.
				f.w = prev
				break
			}
			f.segs = segs
			f.iterations++
			d.relErr(f.segs, f.rel)
			if moved < tol {
				f.converged = si == len(stages)-1
				break
			}
		}
	}
	return f, nil
}

// segment is one regime over sorted samples lo..hi-1 with scaled parameters.
type segment struct {
	lo, hi int
	a, b   float64
}

// relErr fills rel with each sample's relative error under segs.
func (d *design) relErr(segs []segment, rel []float64) {
	for _, sg := range segs {
		for i := sg.lo; i < sg.hi; i++ {
			t := d.samples[i].Time
			rel[i] = (d.predict(i, sg.a, sg.b) - t) / t
		}
	}
}

// fillDiagnostics sets the regimes, predictions, errors and leave-one-out
// errors of res from the fitted segments.
func (d *design) fillDiagnostics(res *Result, segs []segment) {
	n := len(d.samples)
	res.Predicted = make([]float64, n)
	res.RelErr = make([]float64, n)
	res.LOORelErr = make([]float64, n)
	res.Regimes = make([]Regime, len(segs))
	for k, sg := range segs {
		alpha, bw := d.link(sg.a, sg.b)
		res.Regimes[k] = Regime{
			MinSize: d.samples[sg.lo].Size, MaxSize: d.samples[sg.hi-1].Size,
			Alpha: alpha, BW: bw, N: sg.hi - sg.lo,
			BWAtBound: sg.b <= bMinScaled*(1+1e-12),
		}
		all := d.segmentSums(res.Weight, sg.lo, sg.hi)
		for i := sg.lo; i < sg.hi; i++ {
			t := d.samples[i].Time
			res.Predicted[i] = d.predict(i, sg.a, sg.b)
			res.RelErr[i] = (res.Predicted[i] - t) / t
			var one sums
			one.add(res.Weight[i], d.u[i], d.v[i])
			a, b, _, ok := all.sub(one).solve()
			if !ok { // the others carry no weight: keep the regime's fit
				a, b = sg.a, sg.b
			}
			res.LOORelErr[i] = (d.predict(i, a, b) - t) / t
		}
	}
	res.MedianRelErr, res.MaxRelErr = absMedianMax(res.RelErr)
	res.LOOMedianRelErr, _ = absMedianMax(res.LOORelErr)
}

// absMedianMax returns the median and the maximum of |x|.
func absMedianMax(x []float64) (med, mx float64) {
	for _, v := range x {
		mx = max(mx, math.Abs(v))
	}
	return medianAbs(x), mx
}

// Link returns the link of a one-regime fit (AlphaBeta, Through): its
// regime's Link. It panics if r has more than one regime, as a Piecewise fit
// may (use Regimes[k].Link()).
func (r *Result) Link() commmodel.Link {
	if len(r.Regimes) != 1 {
		panic(fmt.Sprintf("fit: Link of a fit with %d regimes", len(r.Regimes)))
	}
	return r.Regimes[0].Link()
}

// Boundaries returns the sizes at which Predict moves from one regime to the
// next, in bytes, in increasing order (none for one regime): between regimes
// k and k+1 the geometric mean
//
//	√(MaxSizeₖ · MinSizeₖ₊₁)
//
// of the largest size of the one and the smallest of the other.
func (r *Result) Boundaries() []float64 {
	var b []float64
	for k := 0; k+1 < len(r.Regimes); k++ {
		b = append(b, r.boundary(k))
	}
	return b
}

// boundary is the size between regimes k and k+1 (see Boundaries).
func (r *Result) boundary(k int) float64 {
	return math.Sqrt(r.Regimes[k].MaxSize * r.Regimes[k+1].MinSize)
}

// Predict returns the fitted time for size bytes, in seconds, from the regime
// whose range holds size; between two regimes the boundary is the geometric
// mean of the neighbouring sizes (Boundaries), and beyond the data the end
// regimes extend. The time is the fitted model's: Alpha + S/BW, or for a fit
// through an algorithm Steps(P, S)·Alpha + Bytes(P, S)/BW. At a fitted
// sample's size it is that sample's Predicted. It is NaN for a size that is
// negative or NaN.
func (r *Result) Predict(size float64) float64 {
	if !(size >= 0) || len(r.Regimes) == 0 {
		return math.NaN()
	}
	k := 0
	for k+1 < len(r.Regimes) && size > r.boundary(k) {
		k++
	}
	g := r.Regimes[k]
	x1, x2 := model{r.Algorithm, r.P}.regressors(size)
	return g.Alpha*x1 + x2/g.BW
}

// noBytes is ErrOneSize where the model moves no bytes at any sample's
// size (Through over one rank), which its own text says: the sizes may all
// differ.
type noBytes struct{}

func (noBytes) Error() string {
	return "fit: the model moves no bytes at any sample's size (a collective over one rank moves none); alpha and BW cannot be separated"
}
func (noBytes) Is(target error) bool { return target == ErrOneSize }
