package commmodel

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestHDLevelsByHand: hdLevels' closed form for nodes of a power of two
// GPUs agrees with looking at every pair of every step.
func TestHDLevelsByHand(t *testing.T) {
	for _, per := range []int{2, 4, 8, 16} {
		for nodes := 3; nodes*per <= 1024; nodes++ {
			p := nodes * per
			if isPow2(p) {
				continue
			}
			for d := 0; d < p; d = max(2*d, 1) {
				il, in := hdLevels(nodes, per, d)
				pl, pn := hdPairLevels(nodes, per, d)
				if il != pl || in != pn {
					t.Errorf("%d x %d, distance %d: closed form intra %v inter %v, pairs %v %v", nodes, per, d, il, in, pl, pn)
				}
			}
		}
	}
}

// TestHDStagesThreeByFour: on 3 nodes of 4 the fold and distance 1 stay
// inside a node, distance 2 has pairs on both levels (survivors 1 and 5
// across, 8 and 10 inside), distance 4 crosses only: red team 40's case,
// 2 NVLink steps of S, 2 of S/2, then 2 network steps of S/4 and 2 of S/8.
func TestHDStagesThreeByFour(t *testing.T) {
	const s = 98304.0
	c := Cluster{Nodes: 3, PerNode: 4, Intra: h20Intra, Inter: h20Inter}
	st := c.Stages(HalvingDoubling{}, s)
	want := []struct {
		intra, inter bool
		bytes        float64
	}{{true, false, s}, {true, false, s / 2}, {true, true, s / 4}, {false, true, s / 8},
		{false, true, s / 8}, {true, true, s / 4}, {true, false, s / 2}, {true, false, s}}
	if len(st) != len(want) {
		t.Fatalf("%d stages, want %d: %+v", len(st), len(want), st)
	}
	for i, w := range want {
		g := st[i]
		if (g.Intra != Cost{}) != w.intra || (g.Inter != Cost{}) != w.inter || max(g.Intra.Bytes, g.Inter.Bytes) != w.bytes {
			t.Errorf("stage %d: %+v, want intra %v inter %v of %g B", i, g, w.intra, w.inter, w.bytes)
		}
	}
	on := func(l Link, b float64) float64 { return l.Alpha + b/l.BW }
	want72 := 2*on(h20Intra, s) + 2*on(h20Intra, s/2) + 2*on(h20Inter, s/4) + 2*on(h20Inter, s/8)
	if got := c.Time(HalvingDoubling{}, s); !scalar.EqualWithinRel(got, want72, 1e-12) {
		t.Errorf("3 x 4 at 96 KiB: %g s, want %g s", got, want72)
	}
}
