package fit

import (
	"fmt"
	"math"
)

// NonMonotone is a sample a fit set aside because it took longer than a
// sample of a larger size, by more than the noise allows (see the package
// documentation): no α-β regime, with α ≥ 0 and BW > 0, is slower at a
// smaller size.
type NonMonotone struct {
	// Sample is the sample set aside.
	Sample Sample
	// Contradicts is the sample of a larger size it contradicts: of those
	// whose time it exceeds by more than the margin, the one of the smallest
	// size (the first in the caller's order among equal sizes).
	Contradicts Sample
	// Predicted is the fit's time at Sample.Size (Result.Predict), in
	// seconds, and RelErr its relative error (Predicted-Time)/Time; neither
	// counts in the fit's error figures.
	Predicted, RelErr float64
}

// MonotoneRatio is the factor by which a sample's time must exceed the time
// of a sample of a larger size for a fit to set it aside as non-monotone,
// for relative noise σ:
//
//	1 + 3·√2·σ
//
// Two times with independent relative noise σ on one non-decreasing curve
// differ, relative to it, by noise of standard deviation √2·σ, so the
// smaller size exceeds the larger by more than 3√2·σ with probability
// about 0.1%. At the default NoiseFloor, σ = 1%, the ratio is 1.042.
func MonotoneRatio(sigma float64) float64 {
	return 1 + 3*math.Sqrt2*sigma
}

// monotone splits samples sorted by size into those no larger size
// contradicts at ratio and those it sets aside, in order: sample i is set
// aside when a sample of a strictly larger size took less than tᵢ/ratio.
func monotone(sorted []Sample, ratio float64) (kept []Sample, set []NonMonotone) {
	n := len(sorted)
	// suffixMin[i] is the least time of the samples i..n-1.
	suffixMin := make([]float64, n+1)
	suffixMin[n] = math.Inf(1)
	for i := n - 1; i >= 0; i-- {
		suffixMin[i] = min(sorted[i].Time, suffixMin[i+1])
	}
	for i := 0; i < n; {
		// Samples i..j-1 share a size; j is the first larger one.
		j := i + 1
		for j < n && sorted[j].Size == sorted[i].Size {
			j++
		}
		for _, s := range sorted[i:j] {
			if !(s.Time > ratio*suffixMin[j]) {
				kept = append(kept, s)
				continue
			}
			k := j
			for !(s.Time > ratio*sorted[k].Time) {
				k++
			}
			set = append(set, NonMonotone{Sample: s, Contradicts: sorted[k]})
		}
		i = j
	}
	return kept, set
}

// maxScreens bounds the rounds of screen.
const maxScreens = 8

// screened is the outcome of screen: the design of the samples kept, the
// samples set aside, and the noise of the design kept with the number of
// regimes it was measured at (design.noise; k 0 when not measured).
type screened struct {
	d     *design
	set   []NonMonotone
	sigma float64
	k     int
}

// screen returns the design of the samples a fit keeps and the samples it
// sets aside as non-monotone (none when s.KeepNonMonotone); d holds the
// validated samples sorted by size. The samples kept and their noise σ are a
// fixed point, found by iteration from all samples: σ is the noise of the
// kept samples (design.noise), and the kept samples are those no larger size
// contradicts at MonotoneRatio(σ). The search stops after maxScreens rounds.
func (d *design) screen(m model, s Settings) (screened, error) {
	r := screened{d: d}
	if s.KeepNonMonotone {
		return r, nil
	}
	for round := 0; ; round++ {
		r.sigma, r.k = r.d.noise(maxRegimes(len(r.d.samples), len(r.d.blocks)-1, s), s)
		if round == maxScreens {
			return r, nil
		}
		kept, next := monotone(d.samples, MonotoneRatio(r.sigma))
		if sameSamples(next, r.set) {
			return r, nil
		}
		r.set = next
		var err error
		if r.d, err = newDesign(kept, m); err != nil {
			return r, fmt.Errorf("%w (after setting aside %d of %d samples as slower than a larger size)", err, len(r.set), len(d.samples))
		}
	}
}

// sameSamples reports whether a and b set aside the same samples.
func sameSamples(a, b []NonMonotone) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Sample != b[i].Sample {
			return false
		}
	}
	return true
}
