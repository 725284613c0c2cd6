package fit

import "math"

// reweight sets w to the weights of loss for relative residuals rel and
// returns the largest change of a weight. The scale is
//
//	s = max(1.4826·median|rᵢ|, ScaleFloor)
//
// (the median absolute residual, consistent for the normal's σ), and the
// weights are Tukey's (1-(r/cs)²)² below cs and 0 above, or Huber's
// min(1, cs/|r|), with c the loss's tuning constant.
func reweight(rel, w []float64, loss Loss, s Settings) (moved, scale float64) {
	scale = robustScale(rel, s)
	c := tuning(loss, s)
	for i, r := range rel {
		z := math.Abs(r) / (c * scale)
		var nw float64
		switch loss {
		case Huber:
			nw = 1
			if z > 1 {
				nw = 1 / z
			}
		case Bisquare:
			if z < 1 {
				nw = (1 - z*z) * (1 - z*z)
			}
		default:
			nw = 1
		}
		moved = max(moved, math.Abs(nw-w[i]))
		w[i] = nw
	}
	return moved, scale
}

// robustScale is max(1.4826·median|rᵢ|, ScaleFloor).
func robustScale(rel []float64, s Settings) float64 {
	return max(1.4826*medianAbs(rel), s.ScaleFloor)
}

// tuning is the tuning constant c of loss: s.Tuning for the configured loss,
// the default of the other (the Huber start of a Bisquare fit).
func tuning(loss Loss, s Settings) float64 {
	if loss == s.Loss {
		return s.Tuning
	}
	return (&Settings{Loss: loss}).withDefaults().Tuning
}

// rho is the loss of relative residual r at scale, normalised so that
// rho(r) ≈ r² for small r (see Piecewise).
func rho(r float64, loss Loss, scale float64, s Settings) float64 {
	cs := tuning(loss, s) * scale
	a := math.Abs(r)
	switch loss {
	case Bisquare:
		if a >= cs {
			return cs * cs / 3
		}
		z := 1 - (a/cs)*(a/cs)
		return cs * cs / 3 * (1 - z*z*z)
	case Huber:
		if a > cs {
			return 2*cs*a - cs*cs
		}
	}
	return r * r
}

// referenceScale is the noise level σ of relative residuals against which the
// regime criterion weighs a fit: the robust scale of the residuals of the
// most flexible fit, at least NoiseFloor:
//
//	σ = max(NoiseFloor, 1.4826·median|rᵢ|)
func referenceScale(rel []float64, s Settings) float64 {
	return max(s.NoiseFloor, 1.4826*medianAbs(rel))
}
