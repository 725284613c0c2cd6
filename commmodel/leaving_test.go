package commmodel

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// leavingByCount counts, node by node, the peers outside a group: the
// definition Leaving computes in closed form.
func leavingByCount(nodes, group, k int) float64 {
	up, down := (k+1)/2, k/2
	out := 0
	for j := range group {
		for d := 1; d <= up; d++ {
			if (j+d)%nodes >= group {
				out++
			}
		}
		for d := 1; d <= down; d++ {
			if ((j-d)%nodes+nodes)%nodes >= group {
				out++
			}
		}
	}
	return float64(out) / float64(group*k)
}

// TestLeaving holds Leaving to the count it stands for, and to its two
// closed forms: a ring leaves a group of g nodes 1/g of its traffic, and
// direct AllToAll (N-g)/(N-1).
func TestLeaving(t *testing.T) {
	for nodes := 2; nodes <= 40; nodes++ {
		for group := 1; group < nodes; group++ {
			for k := 1; k < nodes; k++ {
				st := Stage{Inter: Cost{Bytes: 1, Peers: k * 4}}
				got, want := st.Leaving(nodes, 4, group), leavingByCount(nodes, group, k)
				if !scalar.EqualWithinAbs(got, want, 1e-12) {
					t.Fatalf("N=%d g=%d k=%d: %g, counted %g", nodes, group, k, got, want)
				}
			}
		}
	}
	c := Cluster{Nodes: 64, PerNode: 8}
	for _, g := range []int{2, 8, 16, 32} {
		ring := c.Stages(Ring{}, 1<<20)[0].Leaving(64, 8, g)
		if !scalar.EqualWithinAbs(ring, 1/float64(g), 1e-12) {
			t.Errorf("ring, groups of %d: %g, want 1/%d", g, ring, g)
		}
		a2a := c.Stages(Direct{}, 1<<20)[0].Leaving(64, 8, g)
		if want := float64(64-g) / 63; !scalar.EqualWithinAbs(a2a, want, 1e-12) {
			t.Errorf("direct AllToAll, groups of %d: %g, want %g", g, a2a, want)
		}
	}
	if l := (Stage{Inter: Cost{Bytes: 1, Peers: 8}}).Leaving(4, 8, 4); l != 0 {
		t.Errorf("one group of every node: %g, want 0", l)
	}
}
