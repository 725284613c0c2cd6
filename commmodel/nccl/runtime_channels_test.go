package nccl

import "testing"

// RuntimeChannels follows ncclTopoPostset (src/graph/connect.cc, tags
// v2.18.1-1 to v2.30.7-1): the duplication, CollNet's half again where the
// CollNet graph's bwIntra exceeds its bwInter (CollNetDirect's before 2.22,
// the chain's after), and Hopper's doubling while twice fits MAXCHANNELS
// (2.18, 2.19) or below 16 (2.20 on), on 9.0 only before 2.25.
func TestRuntimeChannelsPostset(t *testing.T) {
	graphs := func(ring int, ringIntra float64, chain, direct Graph) Graphs {
		return Graphs{Ring: Graph{NChannels: ring, BWIntra: ringIntra, BWInter: ringIntra},
			Tree: Graph{NChannels: ring, BWIntra: ringIntra, BWInter: ringIntra}, CollNetChain: chain, CollNetDirect: direct}
	}
	raised := Graph{NChannels: 1, BWIntra: 40, BWInter: 24}
	flat := Graph{NChannels: 1, BWIntra: 24, BWInter: 24}
	for _, c := range []struct {
		name         string
		v            Version
		ranks, nodes int
		cc           int
		collNet      bool
		gs           Graphs
		want         int
	}{
		// KISTI's 4 x 2 A100 under 2.23.4 printed 3 coll channels.
		{"collnet chain 2.23", Version{2, 23, 4}, 8, 4, 80, true, graphs(1, 24, raised, flat), 3},
		{"collnet off", Version{2, 23, 4}, 8, 4, 80, false, graphs(1, 24, raised, flat), 2},
		{"collnet one rank a node", Version{2, 23, 4}, 4, 4, 80, true, graphs(1, 24, raised, flat), 2},
		{"collnet one node", Version{2, 23, 4}, 8, 1, 80, true, graphs(1, 24, raised, flat), 2},
		{"collnet chain without channels", Version{2, 23, 4}, 8, 4, 80, true, graphs(1, 24, Graph{}, flat), 2},
		{"collnet flat chain", Version{2, 23, 4}, 8, 4, 80, true, graphs(1, 24, flat, raised), 2},
		{"collnet 2.21 takes direct's", Version{2, 21, 5}, 8, 4, 80, true, graphs(1, 24, raised, flat), 2},
		{"collnet 2.21 direct raised", Version{2, 21, 5}, 8, 4, 80, true, graphs(1, 24, flat, raised), 3},
		{"collnet 2.22 takes chain's", Version{2, 22, 3}, 8, 4, 80, true, graphs(1, 24, raised, flat), 3},
		{"collnet 4 of 8", Version{2, 23, 4}, 16, 2, 80, true, graphs(4, 24, raised, flat), 12},
		{"collnet 16 a node 2.22", Version{2, 22, 3}, 32, 2, 80, true, graphs(2, 24, raised, flat), 4},
		{"collnet 16 a node 2.23", Version{2, 23, 4}, 32, 2, 80, true, graphs(2, 24, raised, flat), 6},
		{"collnet capped", Version{2, 24, 3}, 16, 2, 80, true, graphs(16, 24, raised, flat), 32},
		{"collnet then hopper", Version{2, 27, 7}, 16, 2, 90, true, graphs(2, 80, raised, flat), 12},
		// Hopper's doubling: 2.19 doubles 16 to 32, 2.20 to 2.24 stop below 16.
		{"hopper 2.19 at 16", Version{2, 19, 4}, 16, 2, 90, false, graphs(8, 80, Graph{}, Graph{}), 32},
		{"hopper 2.20 at 16", Version{2, 20, 3}, 16, 2, 90, false, graphs(8, 80, Graph{}, Graph{}), 16},
		{"hopper 2.24 at 16", Version{2, 24, 3}, 16, 2, 90, false, graphs(8, 80, Graph{}, Graph{}), 16},
		{"hopper 2.24 at 8", Version{2, 24, 3}, 16, 2, 90, false, graphs(4, 80, Graph{}, Graph{}), 16},
		{"hopper one node", Version{2, 24, 3}, 8, 1, 90, false, graphs(4, 80, Graph{}, Graph{}), 8},
		{"hopper slow ring", Version{2, 24, 3}, 16, 2, 90, false, graphs(4, 40, Graph{}, Graph{}), 8},
		// Before 2.25 NCCL doubles on compute capability 9.0 only.
		{"blackwell 2.24", Version{2, 24, 3}, 16, 2, 100, false, graphs(4, 80, Graph{}, Graph{}), 8},
		{"blackwell 2.25", Version{2, 25, 1}, 16, 2, 100, false, graphs(4, 80, Graph{}, Graph{}), 16},
		{"2.25 max 64", Version{2, 25, 1}, 16, 2, 80, false, graphs(32, 24, Graph{}, Graph{}), 64},
		{"2.24 max 32", Version{2, 24, 3}, 16, 2, 80, false, graphs(24, 24, Graph{}, Graph{}), 32},
		// NCCL 2.8 duplicates only.
		{"legacy collnet", Legacy, 8, 4, 80, true, graphs(1, 24, raised, raised), 2},
	} {
		cfg := Config{Version: c.v, Ranks: c.ranks, Nodes: c.nodes, MinCompCap: c.cc, CollNet: c.collNet, Graphs: c.gs}
		if got := RuntimeChannels(cfg); got != c.want {
			t.Errorf("%s: RuntimeChannels = %d, want %d", c.name, got, c.want)
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.ch != c.want {
			t.Errorf("%s: New's runtime channels %d, want %d", c.name, m.ch, c.want)
		}
	}
}
