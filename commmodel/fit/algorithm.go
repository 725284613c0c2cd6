package fit

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
)

// Through finds the link on which algorithm a over p ranks best explains
// the measurements: "if this is ring AllReduce at P = 16, what are alpha and
// BW?". With the cost's steps and critical-path bytes at each sample's size,
//
//	T(S) = Steps(p, S)·α + Path(p, S)/BW
//
// (Cost.Path: the busiest rank's bytes but where ranks take turns, as
// Cost.Time charges them) is linear in (α, 1/BW), so the fit is AlphaBeta's
// relative-error least squares, robustness and bounds with Steps and Path as
// the regressors in place of 1 and S (uᵢ = Stepsᵢ/tᵢ, vᵢ = Pathᵢ/tᵢ). The reduction term γ and
// the per-message overhead are not fitted: for these algorithms they grow
// with the same bytes and messages as the terms above and cannot be told
// apart from them. settings.Regimes is ignored (one link).
//
// The result's one regime holds the link, Alpha in seconds per step and BW
// in bytes per second of one rank's egress (Regime.Link); its Algorithm and
// P are a and p, and its Predict is the model above.
//
// It panics if p < 1 (a programming error, as for Cost); bad data and
// settings out of range give the errors of AlphaBeta.
func Through(a commmodel.Algorithm, p int, samples []Sample, settings *Settings) (*Result, error) {
	if p < 1 {
		panic(fmt.Sprintf("fit: %d ranks; need at least 1", p))
	}
	s, err := settings.resolve()
	if err != nil {
		return nil, err
	}
	s.Regimes = 1
	m := model{a, p}
	return fitRegimes(samples, m, s)
}

// model is what a fit's time is linear in: 1 and S for AlphaBeta and
// Piecewise (a nil algorithm), or an algorithm's Steps and critical-path
// bytes (Cost.Path) for Through.
type model struct {
	algorithm commmodel.Algorithm
	p         int
}

// regressors returns x1 and x2 of T(S) = x1·α + x2/BW at size bytes.
func (m model) regressors(size float64) (x1, x2 float64) {
	if m.algorithm == nil {
		return 1, size
	}
	c := m.algorithm.Cost(m.p, size)
	return float64(c.Steps), c.Path()
}
