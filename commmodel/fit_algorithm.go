package commmodel

// AlgorithmFit is a link fitted through an algorithm's cost.
type AlgorithmFit struct {
	// Algorithm and P are the algorithm and rank count the fit assumed.
	Algorithm Algorithm
	P         int
	// Link is the fitted link: Alpha in seconds per step and BW in bytes per
	// second of one rank's egress; Gamma and Overhead are 0.
	Link Link
	// Fit holds the diagnostics; its one regime's Alpha and BW are Link's.
	Fit *FitResult
}

// FitAlgorithm finds the link on which algorithm a over p ranks best explains
// the measurements: "if this is ring AllReduce at P = 16, what are alpha and
// BW?". With the cost's steps and bytes at each sample's size,
//
//	T(S) = Steps(p, S)·α + Bytes(p, S)/BW
//
// is linear in (α, 1/BW), so the fit is FitAlphaBeta's relative-error least
// squares, robustness and bounds with Steps and Bytes as the regressors in
// place of 1 and S (uᵢ = Stepsᵢ/tᵢ, vᵢ = Bytesᵢ/tᵢ). The reduction term γ and
// the per-message overhead are not fitted: for these algorithms they grow
// with the same bytes and messages as the terms above and cannot be told
// apart from them. settings.Regimes is ignored (one link).
//
// It panics if p < 1 (a programming error, as for Cost); bad data gives the
// errors of FitAlphaBeta.
func FitAlgorithm(a Algorithm, p int, samples []Sample, settings *FitSettings) (*AlgorithmFit, error) {
	mustRanks(p)
	s := settings.withDefaults()
	s.Regimes = 1
	res, err := fitRegimes(samples, func(size float64) (float64, float64) {
		c := a.Cost(p, size)
		return float64(c.Steps), c.Bytes
	}, s)
	if err != nil {
		return nil, err
	}
	g := res.Regimes[0]
	return &AlgorithmFit{Algorithm: a, P: p, Link: Link{Alpha: g.Alpha, BW: g.BW}, Fit: res}, nil
}
