package fit

import "math"

// Rho is the loss ρ of a residual r at threshold c (the tuning constant
// times the residuals' scale), normalised so that ρ(r) = r²/2 for small r:
//
//	Squared   r²/2
//	Huber     r²/2 for |r| ≤ c, c·|r| − c²/2 beyond
//	Bisquare  c²/6·(1 − (1 − (r/c)²)³) for |r| < c, c²/6 beyond
//
// Its derivative is ψ(r) = Weight(r, c)·r (Huber 1964; Beaton and Tukey
// 1974). Squared ignores c.
func (l Loss) Rho(r, c float64) float64 {
	a := math.Abs(r)
	switch l {
	case Bisquare:
		if a >= c {
			return c * c / 6
		}
		z := 1 - (a/c)*(a/c)
		return c * c / 6 * (1 - z*z*z)
	case Huber:
		if a > c {
			return c*a - c*c/2
		}
	}
	return r * r / 2
}

// Weight is the iteratively reweighted least-squares weight ψ(r)/r of a
// residual r at threshold c (see Rho): 1 for Squared, min(1, c/|r|) for
// Huber, (1 − (r/c)²)² below c and 0 beyond for Bisquare.
func (l Loss) Weight(r, c float64) float64 {
	z := math.Abs(r) / c
	switch l {
	case Huber:
		if z > 1 {
			return 1 / z
		}
	case Bisquare:
		if z < 1 {
			return (1 - z*z) * (1 - z*z)
		}
		return 0
	}
	return 1
}

// Curvature is the loss's second derivative ρ″(r) = ψ'(r) at threshold c
// (see Rho): 1 for Squared, 1 within c and 0 beyond for Huber, and
// (1 − (r/c)²)(1 − 5(r/c)²) below c and 0 beyond for Bisquare (negative
// between c/√5 and c, where Bisquare's loss bends down).
func (l Loss) Curvature(r, c float64) float64 {
	z := math.Abs(r) / c
	switch l {
	case Huber:
		if z > 1 {
			return 0
		}
	case Bisquare:
		if z < 1 {
			return (1 - z*z) * (1 - 5*z*z)
		}
		return 0
	}
	return 1
}

// reweight sets w to the weights of loss for relative residuals rel and
// returns the largest change of a weight and the scale
//
//	s = max(1.4826·median|rᵢ|, ScaleFloor)
//
// (the median absolute residual, consistent for the normal's σ). The
// threshold of the loss is c·s, with c its tuning constant.
func reweight(rel, w []float64, loss Loss, s Settings) (moved, scale float64) {
	scale = robustScale(rel, s)
	c := tuning(loss, s)
	for i, r := range rel {
		nw := loss.Weight(r, c*scale)
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

// rho is the loss of relative residual r at scale as the regime criterion
// counts it, 2·Rho, so that rho(r) ≈ r² for small r (see Piecewise).
func rho(r float64, loss Loss, scale float64, s Settings) float64 {
	return 2 * loss.Rho(r, tuning(loss, s)*scale)
}

// referenceScale is the noise level σ of relative residuals against which the
// regime criterion weighs a fit: the robust scale of the residuals of the
// most flexible fit, at least NoiseFloor:
//
//	σ = max(NoiseFloor, 1.4826·median|rᵢ|)
func referenceScale(rel []float64, s Settings) float64 {
	return max(s.NoiseFloor, 1.4826*medianAbs(rel))
}
