package fit

import (
	"fmt"
	"math"
)

// Piecewise fits alpha-beta pairs over contiguous size regimes: NCCL changes
// protocol (LL, LL128, Simple) and channel count with size, so one pair rarely
// fits ten decades of sizes. Each regime k covers the samples with sizes in
// [MinSize, MaxSize] and has its own
//
//	T(S) = αₖ + S/BWₖ,  αₖ ≥ 0, BWₖ > 0
//
// fitted on relative error exactly as AlphaBeta fits one pair, with the
// same robustness weights. Breakpoints fall between distinct sizes and every
// regime holds at least MinPoints samples of at least two sizes, whose
// robustness weights sum to at least MinPoints-½ (so a regime cannot hold
// its minimum by counting a rejected sample).
//
// For each K the breakpoints minimise the total weighted relative residual
// sum of squares, found exactly by dynamic programming over breakpoint
// positions (prefix sums make each regime's cost O(1); O(K·M²) for M
// candidate positions). A robust loss reweights each K's fit separately.
// Unless Regimes fixes K, the number of regimes is the K ≤ MaxRegimes that
// minimises a robust Bayesian information criterion with a reference scale:
//
//	BIC(K) = Σ ρ(rᵢ)/σ² + (3K-1)·ln n
//	σ = max(NoiseFloor, 1.4826·median|rᵢ'|)
//
// over the n samples, where rᵢ are the relative residuals of the K-regime
// fit and rᵢ' those of the least-squares fit with the most regimes the
// samples allow (σ is its robust scale: the noise once the model is as
// flexible as it gets); 3K-1 counts K alphas, K bandwidths and K-1
// breakpoints. Ties go to fewer regimes, and the search stops once two more
// regimes than the best so far have not improved on it. ρ is the loss: r²
// for Squared, and for the robust losses the function whose reweighting they
// are, at scale s = max(σ, ScaleFloor) and normalised so that ρ(r) ≈ r² for
// small r (Bisquare: (cs)²/3·(1-(1-(r/cs)²)³), capped at (cs)²/3; Huber: r²
// up to cs, then 2cs|r| - (cs)²). A rejected sample thus costs the cap, so
// rejecting samples cannot buy a better criterion; NoiseFloor (1% by
// default, the run-to-run noise of nccl-tests) stops the criterion from
// buying regimes for errors below it.
//
// With a robust loss the regimes are chosen anew in every reweighting
// iteration, so a wild sample is down-weighted rather than given a regime.
// Errors are those of AlphaBeta, plus ErrTooFewSamples when Regimes is
// larger than the samples allow.
func Piecewise(samples []Sample, settings *Settings) (*Result, error) {
	s, err := settings.resolve()
	if err != nil {
		return nil, err
	}
	return fitRegimes(samples, model{}, s)
}

// split finds the k-regime breakpoints that minimise the weighted residual sum
// of squares for weights w and fits each regime. It fails with
// ErrTooFewSamples when no split into k feasible regimes exists.
func (d *design) split(wt []float64, k int, s Settings) ([]segment, error) {
	d.prefixSums(wt)
	bps := []int{0, len(d.blocks) - 1}
	if k > 1 {
		var err error
		if bps, err = d.breakpoints(k, s); err != nil {
			return nil, err
		}
	}
	segs := make([]segment, k)
	for q := range segs {
		lo, hi := d.blocks[bps[q]], d.blocks[bps[q+1]]
		a, b, _, ok := d.segmentSums(wt, lo, hi).solve()
		if !ok {
			return nil, fmt.Errorf("%w: samples %d..%d carry no weight", ErrTooFewSamples, lo, hi-1)
		}
		segs[q] = segment{lo, hi, a, b}
	}
	return segs, nil
}

// prefixSums sets d.pre[b] to the sums of the samples of blocks 0..b-1 for
// weights wt.
func (d *design) prefixSums(wt []float64) {
	nb := len(d.blocks) - 1
	if len(d.pre) != nb+1 {
		d.pre = make([]sums, nb+1)
	}
	pre := d.pre
	for b := 0; b < nb; b++ {
		pre[b+1] = pre[b]
		for i := d.blocks[b]; i < d.blocks[b+1]; i++ {
			pre[b+1].add(wt[i], d.u[i], d.v[i])
		}
	}
}

// regimeCost is the weighted residual sum of squares of one regime over
// blocks b0..b1-1 (prefixSums), +Inf where it has fewer than 2 sizes or
// s.MinPoints samples or cannot be fitted.
func (d *design) regimeCost(b0, b1 int, s Settings) float64 {
	if b1-b0 < 2 || d.blocks[b1]-d.blocks[b0] < s.MinPoints {
		return math.Inf(1)
	}
	sm := d.pre[b1].sub(d.pre[b0])
	_, _, r, ok := sm.solve()
	if !ok || sm.w < float64(s.MinPoints)-0.5 {
		return math.Inf(1)
	}
	return r
}

// breakpoints returns the k+1 block indices that bound the k regimes of
// least total regimeCost, from 0 to the number of blocks: by dynamic
// programming over at most s.Candidates evenly spaced candidates, then, where
// the candidates were sparser than the blocks, each inner breakpoint moved to
// its best block between its grid neighbours.
func (d *design) breakpoints(k int, s Settings) ([]int, error) {
	nb := len(d.blocks) - 1
	m := min(nb, s.Candidates)
	cand := make([]int, m+1)
	for q := range cand {
		cand[q] = int(math.Round(float64(q) * float64(nb) / float64(m)))
	}
	inf := math.Inf(1)
	// c[i*w+j] is the cost of one regime from candidate i to candidate j.
	w := m + 1
	if len(d.cost) != w*w {
		d.cost = make([]float64, w*w)
	}
	c := d.cost
	for i := 0; i < m; i++ {
		for j := i + 1; j <= m; j++ {
			c[i*w+j] = d.regimeCost(cand[i], cand[j], s)
		}
	}
	// dp[q*w+j]: least cost of q regimes over candidates 0..j;
	// from[q*w+j] the start of the last of them.
	dp := make([]float64, (k+1)*w)
	from := make([]int, (k+1)*w)
	for i := range dp {
		dp[i] = inf
	}
	dp[0] = 0
	for q := 1; q <= k; q++ {
		for j := q; j <= m; j++ {
			best, arg := inf, 0
			for i := q - 1; i < j; i++ {
				if v := dp[(q-1)*w+i] + c[i*w+j]; v < best {
					best, arg = v, i
				}
			}
			dp[q*w+j], from[q*w+j] = best, arg
		}
	}
	if math.IsInf(dp[k*w+m], 1) {
		return nil, fmt.Errorf("%w: %d samples of %d sizes cannot form %d regimes of at least %d samples and 2 sizes",
			ErrTooFewSamples, len(d.samples), nb, k, s.MinPoints)
	}
	bps := make([]int, k+1)
	for j, q := m, k; q > 0; q-- {
		bps[q] = cand[j]
		j = from[q*w+j]
	}
	if m < nb {
		for q := 1; q < k; q++ {
			cost := func(b int) float64 { return d.regimeCost(bps[q-1], b, s) + d.regimeCost(b, bps[q+1], s) }
			best, arg := cost(bps[q]), bps[q]
			lo, hi := max(bps[q-1]+2, bps[q]-nb/m), min(bps[q+1]-2, bps[q]+nb/m)
			for b := lo; b <= hi; b++ {
				if v := cost(b); v < best {
					best, arg = v, b
				}
			}
			bps[q] = arg
		}
	}
	return bps, nil
}
