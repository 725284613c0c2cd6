package commmodel

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestPATCosts holds PAT to values derived by hand from its doc comment:
// ⌈log2 P⌉ steps; in the step of distance 2^d every rank sends
// b_d = ⌈(P-2^d)/2^(d+1)⌉ blocks of S/P; b over all steps is P-1.
func TestPATCosts(t *testing.T) {
	for _, c := range []struct {
		p      int
		blocks []int // b_d for d = 0, 1, ...
		peers  int
	}{
		{8, []int{4, 2, 1}, 5},     // P = 8: 7/2, 6/4, 4/8 rounded up; peers ±1, ±2, 4
		{6, []int{3, 1, 1}, 4},     // P = 6: 5/2, 4/4, 2/8; peers ±1, ±2 (±4 = ∓2)
		{5, []int{2, 1, 1}, 4},     // P = 5: 4/2, 3/4, 1/8; peers ±1, ±2, 4 = -1
		{2, []int{1}, 1},           // P = 2: one block to the one peer
		{16, []int{8, 4, 2, 1}, 7}, // P = 16: the binomial trees of a power of two
	} {
		total := 0
		for d, b := range c.blocks {
			if got := PATBlocks(c.p, d); got != b {
				t.Errorf("P = %d: PATBlocks(d = %d) = %d, want %d", c.p, d, got, b)
			}
			total += b
		}
		if PATBlocks(c.p, len(c.blocks)) != 0 || total != c.p-1 {
			t.Errorf("P = %d: blocks %v beyond the last step or not P-1 in all", c.p, c.blocks)
		}
		const S = 1 << 20
		for _, a := range []Algorithm{PATAllGather{}, PATReduceScatter{}} {
			got := a.Cost(c.p, S)
			reduced := 0.0
			if a.Collective() == ReduceScatter {
				reduced = float64(c.p-1) / float64(c.p) * S
			}
			if got.Steps != len(c.blocks) || got.Messages != len(c.blocks) || got.Peers != c.peers || got.Fanout != 1 ||
				!scalar.EqualWithinRel(got.Bytes, float64(total)/float64(c.p)*S, 1e-12) || got.Path() != got.Bytes || !scalar.EqualWithinRel(got.Reduced, reduced, 1e-12) {
				t.Errorf("%s P = %d: %+v", a.Collective(), c.p, got)
			}
		}
	}
	// Against ring on 64 nodes of one GPU across the H20 network: the same bytes in 6 steps instead of 63.
	if pat, ring := Time(PATAllGather{}, 64, 1e6, h20Inter), Time(RingAllGather{}, 64, 1e6, h20Inter); !scalar.EqualWithinRel(ring-pat, 57*h20Inter.Alpha, 1e-9) {
		t.Errorf("PAT %g s, ring %g s: want 57 α apart", pat, ring)
	}
}
