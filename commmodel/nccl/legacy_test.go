package nccl

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// dgxA100 is a DGX A100 (8 A100 SXM4 on NVSwitch, 12 NVLinks each, PCIe
// Gen4) of nodes nodes with 4 HDR 200 Gb/s NICs each, as ABCI's A nodes.
func dgxA100(t *testing.T, nodes int) System {
	t.Helper()
	a100, err := ParseGPU("A100-SXM4-40GB")
	if err != nil {
		t.Fatal(err)
	}
	return System{GPU: a100, GPUsPerNode: 8, Nodes: nodes, NVSwitch: true, NICs: 4, NICBW: 25e9}
}

// TestLegacyGraphs checks the graphs of NCCL 2.8.4's search (src/graph/search.cc
// and topo.h at tag v2.8.4-1, traced by hand). One node: 12 links of 21 GB/s
// make 252 GB/s; 42, the top of the speed array, fits 6 channels, all of it,
// and channels of at least 25 GB/s are duplicated: 12 x 21. Two nodes: the
// NIC path is at most 24 GB/s (PCIe Gen4), one channel per NIC: 4 x 24, not
// duplicated; the tree raises its intra-node speed up to twice that while 4
// channels fit: 42/24.
func TestLegacyGraphs(t *testing.T) {
	gs, err := dgxA100(t, 1).Graphs(Legacy)
	if err != nil {
		t.Fatal(err)
	}
	if g := gs.Ring; g.NChannels != 12 || g.BWIntra != 21 || g.BWInter != 21 {
		t.Errorf("one node: ring %d x %g/%g, want 12 x 21/21", g.NChannels, g.BWIntra, g.BWInter)
	}
	if gs, err = dgxA100(t, 2).Graphs(Legacy); err != nil {
		t.Fatal(err)
	}
	if g := gs.Ring; g.NChannels != 4 || g.BWIntra != 24 || g.BWInter != 24 {
		t.Errorf("two nodes: ring %d x %g/%g, want 4 x 24/24", g.NChannels, g.BWIntra, g.BWInter)
	}
	if g := gs.Tree; g.NChannels != 4 || g.BWIntra != 42 || g.BWInter != 24 {
		t.Errorf("two nodes: tree %d x %g/%g, want 4 x 42/24", g.NChannels, g.BWIntra, g.BWInter)
	}
}

// TestLegacyTable checks NCCL 2.8.4's tuning table (src/graph/tuning.cc at
// tag v2.8.4-1) worked by hand on the graphs of TestLegacyGraphs: SM80 caps
// every bus bandwidth at 235 GB/s, LL128 is capped per function (AllReduce
// 16.9, Broadcast 18.8 GB/s per channel), LL's intra-node steps cost 1.8
// times more across nodes, and Ring AllReduce crosses the network 2(N−1)
// times.
func TestLegacyTable(t *testing.T) {
	type entry struct {
		f        Func
		a        Algo
		p        Protocol
		lat, bw  float64 // us, GB/s
		formulae string
	}
	ring1 := 8.0 / 14
	ring2 := 16.0 / 30
	for _, c := range []struct {
		nodes   int
		entries []entry
	}{
		{1, []entry{
			{FuncAllReduce, AlgoRing, LL, 3.6 + 14*0.47, 235.0 / 4 * ring1, "min(87.7, 235/4)·8/14; 3.6 + 14·0.47"},
			{FuncAllReduce, AlgoRing, LL128, 10 + 14*1.9, 16.9 * 12 * ring1, "min(0.92·235, 12·16.9)·8/14; 10 + 14·1.9"},
			{FuncAllReduce, AlgoRing, Simple, 8.4 + 14*3.4, 235 * ring1, "235·8/14; 8.4 + 14·3.4"},
			{FuncAllReduce, AlgoTree, LL, 4.4 + 2*7*0.52, 235 * 0.92 / 3.8 * 0.5, "min(0.92·235, 12·24)/3.8·0.5; 4.4 + 2·7·0.52"},
			{FuncAllReduce, AlgoTree, LL128, 4.4 + 2*7*1.25, 235 * 0.92 * 7 / 9 * 0.5, "0.92·235·7/9·0.5; 4.4 + 2·7·1.25"},
			{FuncAllReduce, AlgoTree, Simple, 2 * 7 * 28, 235 * 0.92 * 0.5, "0.92·235·0.5; 2·7·28"},
			{FuncBroadcast, AlgoRing, LL, 3.6 + 0.47, 235.0 / 3, "min(87.7, 235/3); one step (same channels)"},
			{FuncBroadcast, AlgoRing, LL128, 10 + 1.9, 235 * 0.92, "min(0.92·235, 12·18.8); one step"},
		}},
		{2, []entry{
			{FuncAllReduce, AlgoRing, LL, 3.6 + 28*0.47*1.8 + 2*2.7, 96.0 / 4 * ring2, "min(39, 4·24/4)·16/30; 3.6 + 28·1.8·0.47 + 2·2.7"},
			{FuncAllReduce, AlgoRing, LL128, 10 + 28*1.9 + 2*4, 16.9 * 4 * ring2, "min(0.92·96, 4·16.9)·16/30; 10 + 28·1.9 + 2·4"},
			{FuncAllReduce, AlgoRing, Simple, 8.4 + 28*3.4 + 2*9.6, 96 * ring2, "96·16/30; 8.4 + 28·3.4 + 2·9.6"},
			{FuncAllReduce, AlgoTree, LL, 4.4 + 2*(7*0.52*1.8+5), 90 / 3.8 * 0.5, "min(0.92·168, 4·22.5)/3.8·0.5; 4.4 + 2(7·1.8·0.52 + 5)"},
			{FuncAllReduce, AlgoTree, LL128, 4.4 + 2*(7*1.25+8.5), 16.9 * 4 * 0.5, "min(0.915·90, 4·16.9)·0.5; 4.4 + 2(7·1.25 + 8.5)"},
			{FuncAllReduce, AlgoTree, Simple, 2 * (7*28 + 28), 90 * 0.5, "min(0.92·168, 4·22.5)·0.5; 2(7·28 + 28)"},
		}},
	} {
		cfg, err := dgxA100(t, c.nodes).Config(Legacy)
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range c.entries {
			if got := m.Latency(e.f, e.a, e.p) / usec; !scalar.EqualWithinRel(got, e.lat, 1e-9) {
				t.Errorf("%d nodes %v %v/%v: latency %g us, want %g (%s)", c.nodes, e.f, e.a, e.p, got, e.lat, e.formulae)
			}
			if got := m.Bandwidth(e.f, e.a, e.p) / gbps; !scalar.EqualWithinRel(got, e.bw, 1e-9) {
				t.Errorf("%d nodes %v %v/%v: bandwidth %g GB/s, want %g (%s)", c.nodes, e.f, e.a, e.p, got, e.bw, e.formulae)
			}
		}
		// NCCL 2.8 has no PAT, NVLS or CollNetDirect, and Tree only for
		// AllReduce.
		for _, a := range []Algo{AlgoPAT, AlgoNVLS, AlgoNVLSTree, AlgoCollNetDirect} {
			if m.Available(FuncAllReduce, a, Simple) || m.Available(FuncAllGather, a, Simple) {
				t.Errorf("%d nodes: %v available in NCCL 2.8", c.nodes, a)
			}
		}
		if m.Available(FuncAllGather, AlgoTree, Simple) {
			t.Errorf("%d nodes: Tree AllGather available in NCCL 2.8", c.nodes)
		}
	}
}

// TestLegacyChoose checks NCCL 2.8.4's choices on two DGX A100 nodes from
// TestLegacyTable's entries: Tree/LL for small AllReduce (27.5 us against
// Ring/LL's 32.7), and the Ring/Simple plateau (latency x 1.9 from
// nRanks/16·64 KiB = 64 KiB, tuning.cc's ncclTopoGetAlgoTime at tag
// v2.8.4-1).
func TestLegacyChoose(t *testing.T) {
	cfg, err := dgxA100(t, 2).Config(Legacy)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := m.Choose(FuncAllReduce, 4); err != nil || e.Algo != AlgoTree || e.Proto != LL {
		t.Errorf("4 B: %v/%v (%v), want Tree/LL", e.Algo, e.Proto, err)
	}
	lat := 8.4 + 28*3.4 + 2*9.6
	for _, c := range []struct {
		n   int64
		lat float64
	}{{65535, lat}, {65536, 1.9 * lat}} {
		e, ok := m.Estimate(FuncAllReduce, AlgoRing, Simple, float64(c.n))
		if !ok || !scalar.EqualWithinRel(e.Latency/usec, c.lat, 1e-9) {
			t.Errorf("Ring/Simple at %d B: latency %g us, want %g", c.n, e.Latency/usec, c.lat)
		}
	}
}

// TestLegacyVersions checks which releases the 2.8 tables serve, and that
// NCCL 2.8 enables LL128 only on SM70 and SM80 (tuning.cc at tag v2.8.4-1)
// and names its one CollNet "CollNet".
func TestLegacyVersions(t *testing.T) {
	for _, v := range []Version{{2, 8, 3}, {2, 8, 4}} {
		if err := v.Supported(); err != nil {
			t.Errorf("%v: %v", v, err)
		}
	}
	for _, v := range []Version{{2, 7, 8}, {2, 9, 6}, {2, 17, 1}} {
		if v.Supported() == nil {
			t.Errorf("%v supported", v)
		}
	}
	for _, c := range []struct {
		cc    int
		ll128 bool
	}{{70, true}, {80, true}, {86, false}, {90, false}} {
		g := Graph{NChannels: 4, BWIntra: 20, BWInter: 20, TypeIntra: PathNVL, TypeInter: PathPIX, SameChannels: true}
		m, err := New(Config{Version: Legacy, Ranks: 8, Nodes: 1, MinCompCap: c.cc, Graphs: Graphs{Ring: g, Tree: g}, NVSwitch: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Available(FuncAllReduce, AlgoRing, LL128); got != c.ll128 {
			t.Errorf("SM%d: Ring/LL128 available %v, want %v", c.cc, got, c.ll128)
		}
	}
	g := Graph{NChannels: 2, BWIntra: 20, BWInter: 12, TypeIntra: PathNVL, TypeInter: PathPIX, SameChannels: true}
	m, err := New(Config{Version: Legacy, Ranks: 16, Nodes: 2, MinCompCap: 80, Graphs: Graphs{Ring: g, Tree: g, CollNetChain: g},
		NVSwitch: true, CollNet: true, Algo: "CollNet"})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := m.Choose(FuncAllReduce, 1<<20); err != nil || e.Algo != AlgoCollNetChain {
		t.Errorf("NCCL_ALGO=CollNet: %v (%v), want CollNetChain", e.Algo, err)
	}
	if math.IsNaN(m.Latency(FuncAllReduce, AlgoCollNetChain, Simple)) {
		t.Error("CollNet latency NaN")
	}
}
