package heldout

import (
	"math"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestCrossings checks the crossing rule on hand-made log ratios: a sign
// change interpolated in log size, and changes within CrossNoise (crossTol
// on the log ratio) ignored.
func TestCrossings(t *testing.T) {
	sizes := []float64{1, 2, 4, 8, 16}
	// ln ratio -0.2, -0.1, +0.1, +0.2: the zero is halfway from 2 to 4 in log size, at √8.
	got := commmodel.SampledCrossings(sizes[:4], []float64{-0.2, -0.1, 0.1, 0.2}, crossTol)
	if len(got) != 1 || !scalar.EqualWithinAbs(got[0], math.Sqrt(8), 1e-12) {
		t.Errorf("crossings = %v, want [√8]", got)
	}
	// Within ±ln 1.05 the middle points do not count: the crossing is
	// interpolated between 1 (-0.2) and 16 (+0.2), at 4.
	got = commmodel.SampledCrossings(sizes, []float64{-0.2, 0.03, -0.04, 0.02, 0.2}, crossTol)
	if len(got) != 1 || !scalar.EqualWithinAbs(got[0], 4, 1e-12) {
		t.Errorf("crossings = %v, want [4]", got)
	}
	if got := commmodel.SampledCrossings(sizes, []float64{0.2, 0.3, 0.1, 0.06, 0.2}, crossTol); len(got) != 0 {
		t.Errorf("no sign change: %v", got)
	}
	c := Crossover{Measured: 1 << 20, Predicted: 1.4 * (1 << 20)}
	if !c.Within(1.5) || (Crossover{Measured: 1 << 20, Predicted: 0.6 * (1 << 20)}).Within(1.5) || !(Crossover{}).Within(1.5) {
		t.Error("Within: wrong")
	}
}
