package nccl

import "testing"

// TestP2PNetChannels: the channels NCCL gives a network peer of grouped
// sends on H100 nodes of one 400 Gb/s NIC a GPU (cluster01's, data/logs/
// paired). Under NCCL 2.29.2 (src/graph/paths.cc) a peer starts at
// ⌈50/14⌉ = 4, halved while 4·⌈n/8⌉ exceeds the p2p channels: 2 ranks
// keep 4 of 4, 16 keep 4 (4·2 ≤ 16), 10 ranks of 1 GPU halve to 2 of 4
// (4·2 > 4), 80 ranks to 1 of 16 (2·10 > 16); their sendrecv_perf tables
// measure 43.8, 45.9, 24.9 and 15.2 GB/s (the NIC's 50, and about 14 a
// channel). Under 2.26 a peer gets 2 (1 for 80 ranks: 2·80 > 4·16), at
// least the GPU's one NIC; under 2.18, 2. One node (its channels rounded
// up to 32) has no network peer.
func TestP2PNetChannels(t *testing.T) {
	for _, c := range []struct {
		v            Version
		nodes, per   int
		p2p, perPeer int
	}{
		{Version{2, 29, 2}, 2, 1, 4, 4},
		{Version{2, 29, 2}, 2, 8, 16, 4},
		{Version{2, 29, 2}, 10, 1, 4, 2},
		{Version{2, 29, 2}, 10, 4, 16, 2},
		{Version{2, 29, 2}, 10, 8, 16, 1},
		{Version{2, 29, 2}, 1, 8, 32, 0},
		{Version{2, 26, 2}, 2, 8, 16, 2},
		{Version{2, 26, 2}, 10, 8, 16, 1},
		{Version{2, 18, 3}, 10, 8, 16, 2},
	} {
		s := System{GPU: LookupGPU("H100 SXM"), GPUsPerNode: c.per, Nodes: c.nodes, NVSwitch: true, NICs: c.per, NICBW: 50e9}
		cfg, err := s.Config(c.v)
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if p2p, per := m.P2PChannels(), m.P2PNetChannels(1, 50e9); p2p != c.p2p || per != c.perPeer {
			t.Errorf("NCCL %v, %d x %d: %d p2p channels, %d a network peer; want %d and %d", c.v, c.nodes, c.per, p2p, per, c.p2p, c.perPeer)
		}
	}
}
