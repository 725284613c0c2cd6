package schedule

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestReplayHalvingDoublingAnyNodes holds the two-level model of
// halving-doubling (Cluster.Time, one stage a step when N·p is not a power
// of two) to its replay for P = 3..24 on nodes of 1, 2, 3, 4, 6 and 8 GPUs,
// numbered node by node. Each rank sends one message a step, so the replay
// has no contention the model leaves out: a step lasts as long as its
// slowest pair, on NVLink or on the network, and the two agree to rounding,
// also with an overhead and a γ, and with links whose order changes with
// the size (the slow-α, fast-BW NVLink below). S = 96 KiB divides into
// P' parts of whole elements for every P here, as the model's S/(2d) needs.
func TestReplayHalvingDoublingAnyNodes(t *testing.T) {
	pairs := [][2]commmodel.Link{
		{presets.H20Intra, presets.H20Inter},
		{{Alpha: 2e-6, BW: 350e9, Overhead: 0.5e-6, Gamma: 1e-12}, {Alpha: 15e-6, BW: 20e9, Overhead: 1e-6, Gamma: 3e-12}},
		{{Alpha: 20e-6, BW: 1e12}, {Alpha: 1e-6, BW: 10e9}},
	}
	const size = 96 << 10
	for _, per := range []int{1, 2, 3, 4, 6, 8} {
		for p := 3; p <= 24; p++ {
			if p%per != 0 {
				continue
			}
			s, err := New(commmodel.HalvingDoubling{}, p, size)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range pairs {
				cl := commmodel.Cluster{Nodes: p / per, PerNode: per, Intra: l[0], Inter: l[1]}
				got, want := Replay(s, TwoLevel(per, l[0], l[1])), cl.Time(commmodel.HalvingDoubling{}, size)
				if !scalar.EqualWithinRel(got, want, 1e-12) {
					t.Errorf("P = %d on nodes of %d, links %v: replay %.6g s, model %.6g s (%.3fx)", p, per, l, got, want, got/want)
				}
			}
		}
	}
}
