package commmodel

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestNVLSCosts holds NVLS and NVLSTree to values derived by hand from their
// doc comments: on a node of p GPUs a GPU sends its whole buffer to the
// switch in the load-reduce and its S/p slice in the multicast store; across
// N nodes GPU h's slice is AllReduced through the network's switch (one step,
// S/p) or over the double binary tree (Tree with one GPU per node, on S/p).
func TestNVLSCosts(t *testing.T) {
	const S = 1 << 20
	for _, c := range []struct {
		name    string
		alg     Algorithm
		p       int
		want    Cost
		network float64 // bytes a GPU sends across the network on h20Cluster(p/8)
	}{
		// one node of 8: S + S/8 in two steps; the switch is the one peer and reduces.
		{"nvls 1x8", NVLS{}, 8, Cost{Steps: 2, Bytes: 9.0 / 8 * S, Peers: 1, Fanout: 1, Messages: 2}, 0},
		// 4 x 8: the slice S/8 through the network's switch in between; two switches.
		{"nvls 4x8", NVLS{PerNode: 8}, 32, Cost{Steps: 3, Bytes: 10.0 / 8 * S, Peers: 2, Fanout: 1, Messages: 3}, S / 8},
		// 4 x 8 over the tree: 2 + 2·⌈log2 4⌉ = 6 steps; the tree sends
		// min(4, 4)·(S/8)/2 = S/4 and reduces min(3, 2)·(S/8)/2 = S/8; peers the
		// switch and three heads (node 2 in the tree of 4).
		{"nvlstree 4x8", NVLSTree{PerNode: 8}, 32, Cost{Steps: 6, Bytes: S + S/8.0 + S/4.0, Reduced: S / 8, Peers: 4, Fanout: 3, Messages: 6}, S / 4},
		// 2 x 8: 2 + 2 steps; the tree over two nodes sends min(2, 4)·S/16 = S/8, reduces S/16.
		{"nvlstree 2x8", NVLSTree{PerNode: 8}, 16, Cost{Steps: 4, Bytes: S + S/8.0 + S/8.0, Reduced: S / 16, Peers: 2, Fanout: 1, Messages: 4}, S / 8},
	} {
		got := c.alg.Cost(c.p, S)
		w := c.want
		if got.Steps != w.Steps || got.Messages != w.Messages || got.Peers != w.Peers || got.Fanout != w.Fanout ||
			!scalar.EqualWithinRel(got.Bytes, w.Bytes, 1e-12) || !scalar.EqualWithinRel(got.Path(), w.Path(), 1e-12) || !scalar.EqualWithinRel(got.Reduced, w.Reduced, 1e-12) {
			t.Errorf("%s: %+v, want %+v", c.name, got, w)
		}
		if got := h20Cluster(c.p/8).NetworkBytes(c.alg, S); !scalar.EqualWithinRel(got, c.network, 1e-12) {
			t.Errorf("%s: network bytes %g, want %g", c.name, got, c.network)
		}
	}
	// On one H20 node NVLS's 2 steps and 1.125 S beat ring's 14 steps and 1.75 S at every size.
	for _, s := range []float64{1e3, 1e6, 1e9} {
		if n, r := Time(NVLS{}, 8, s, h20Intra), Time(Ring{}, 8, s, h20Intra); !(n < r) || !scalar.EqualWithinRel(n, 2*2e-6+1.125*s/350e9, 1e-12) {
			t.Errorf("S = %g: nvls %g s, ring %g s", s, n, r)
		}
	}
}
