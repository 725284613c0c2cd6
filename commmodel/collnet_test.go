package commmodel

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestCollNetCosts holds CollNet to values derived by hand from the doc
// comments: Direct is two-shot in the node around one step through the
// network's switch on each S/p slice; Chain reduces up the chain, passes
// through the switch at the head, and broadcasts down.
func TestCollNetCosts(t *testing.T) {
	const S = 1 << 20
	for _, c := range []struct {
		name       string
		alg        Algorithm
		nodes, per int
		want       Cost
		network    float64 // bytes the busiest GPU sends across the network
	}{
		// 4 x 8: 7/8·S to the heads, S/8 through the switch, 7/8·S back; the
		// heads reduce 7/8·S; 7 GPUs and the switch; 7 + 1 + 7 messages.
		{"direct 4x8", CollNetDirect{PerNode: 8}, 4, 8, Cost{Steps: 3, Bytes: 2*7.0/8*S + S/8.0, Reduced: 7.0 / 8 * S, Peers: 8, Fanout: 7, Messages: 15}, S / 8},
		// 4 x 8 fluid: 2·7 chain steps and one through the switch; a chain GPU
		// sends 2S, the head S down and S to the switch; both reduce S.
		{"chain 4x8", CollNetChain{PerNode: 8}, 4, 8, Cost{Steps: 15, Messages: 15, Bytes: 2 * S, Reduced: S, Peers: 2, Fanout: 2}, S},
		// 2 x 4, C = 2, chunks of S/2: GPU 3 sends up in steps 0-1, GPU 2 in
		// 1-2, GPU 1 in 2-3; the head sends to the switch in 3-4 and down in
		// 4-5; GPU 1 down in 5-6, GPU 2 in 6-7: 8 steps, each with one chunk
		// from its busiest GPU but step 4, where the head sends two (down and
		// to the switch): 9 chunks, 9 messages.
		{"chain 2x4 C=2", CollNetChain{PerNode: 4, Chunks: 2}, 2, 4, Cost{Steps: 8, Messages: 9, Bytes: 2 * S, PathBytes: 4.5 * S, Reduced: S, Peers: 2, Fanout: 2}, S},
	} {
		got := c.alg.Cost(c.nodes*c.per, S)
		w := c.want
		if got.Steps != w.Steps || got.Messages != w.Messages || got.Peers != w.Peers || got.Fanout != w.Fanout ||
			!scalar.EqualWithinRel(got.Bytes, w.Bytes, 1e-12) || !scalar.EqualWithinRel(got.Path(), w.Path(), 1e-12) || !scalar.EqualWithinRel(got.Reduced, w.Reduced, 1e-12) {
			t.Errorf("%s: %+v, want %+v", c.name, got, w)
		}
		cl := Cluster{Nodes: c.nodes, PerNode: c.per, Intra: h20Intra, Inter: h20Inter}
		if got := cl.NetworkBytes(c.alg, S); !scalar.EqualWithinRel(got, c.network, 1e-12) {
			t.Errorf("%s: network bytes %g, want %g", c.name, got, c.network)
		}
	}
}
