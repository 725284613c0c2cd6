package nccl

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// hopperConfig is nodes x 8 Hopper GPUs on NVSwitch with the graphs of the
// package's 8 x H100 example (example_test.go), a ring and tree of
// 12 x 30 GB/s and an NVLS graph of 8 x 40/60 GB/s, with the NIC path given.
func hopperConfig(v Version, nodes int, nic PathType) Config {
	return Config{
		Version: v, Ranks: 8 * nodes, Nodes: nodes, MinCompCap: 90, NVSwitch: true,
		Graphs: Graphs{
			Ring:          Graph{Pattern: PatternRing, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: nic, SameChannels: true},
			Tree:          Graph{Pattern: PatternBalancedTree, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: nic},
			NVLS:          Graph{Pattern: PatternNVLS, NChannels: 8, BWIntra: 40, BWInter: 60, TypeIntra: PathNVL, TypeInter: nic},
			CollNetDirect: Graph{Pattern: PatternCollNetDirect, NChannels: 8, BWIntra: 30, BWInter: 24, TypeIntra: PathNVL, TypeInter: nic},
			CollNetChain:  Graph{Pattern: PatternTree, NChannels: 12, BWIntra: 30, BWInter: 24, TypeIntra: PathNVL, TypeInter: nic},
		},
	}
}

// TestEnableMasks checks what NCCL lets the tuner pick, rule by rule; every
// expectation is a rule of tuning.cc or enqueue.cc at the version given
// (NCCL 2.30.7 src/graph/tuning.cc unless noted).
func TestEnableMasks(t *testing.T) {
	v := Latest
	with := func(c Config, edit func(*Config)) Config { edit(&c); return c }
	one := hopperConfig(v, 1, PathPIX)
	two := hopperConfig(v, 2, PathPIX)
	// One GPU on each of 4 nodes.
	perNode1 := with(hopperConfig(v, 1, PathPIX), func(c *Config) { c.Ranks, c.Nodes = 4, 4 })
	cases := []struct {
		name string
		cfg  Config
		f    Func
		a    Algo
		p    Protocol
		want bool
	}{
		// NVLS: Hopper and NVSwitch; multi-node only with CollNet.
		{"NVLS on one Hopper NVSwitch node", one, FuncAllReduce, AlgoNVLS, Simple, true},
		{"NVLS is Simple only", one, FuncAllReduce, AlgoNVLS, LL, false},
		{"NVLS without NVSwitch", with(one, func(c *Config) { c.NVSwitch = false }), FuncAllReduce, AlgoNVLS, Simple, false},
		{"NVLS on Ampere", with(one, func(c *Config) { c.MinCompCap = 80 }), FuncAllReduce, AlgoNVLS, Simple, false},
		{"NVLS across nodes without CollNet", two, FuncAllReduce, AlgoNVLS, Simple, false},
		{"NVLS across nodes with CollNet", with(two, func(c *Config) { c.CollNet = true }), FuncAllReduce, AlgoNVLS, Simple, true},
		{"NVLS AllGather on one node", one, FuncAllGather, AlgoNVLS, Simple, true},
		// NVLSTree: more than one node.
		{"NVLSTree on one node", one, FuncAllReduce, AlgoNVLSTree, Simple, false},
		{"NVLSTree on two nodes", two, FuncAllReduce, AlgoNVLSTree, Simple, true},
		{"NVLSTree is AllReduce only", two, FuncAllGather, AlgoNVLSTree, Simple, false},
		// PAT: AllGather/ReduceScatter, one rank per node, NCCL 2.23 on.
		{"PAT at one GPU per node", perNode1, FuncAllGather, AlgoPAT, Simple, true},
		{"PAT ReduceScatter", perNode1, FuncReduceScatter, AlgoPAT, Simple, true},
		{"PAT is not AllReduce", perNode1, FuncAllReduce, AlgoPAT, Simple, false},
		{"PAT at 8 GPUs per node", two, FuncAllGather, AlgoPAT, Simple, false},
		{"PAT forced on at 8 per node", with(two, func(c *Config) { c.PAT = PATOn }), FuncAllGather, AlgoPAT, Simple, true},
		{"PAT forced off", with(perNode1, func(c *Config) { c.PAT = PATOff }), FuncAllGather, AlgoPAT, Simple, false},
		{"PAT before 2.23", with(perNode1, func(c *Config) { c.Version = Version{2, 22, 3} }), FuncAllGather, AlgoPAT, Simple, false},
		// CollNet: only when enabled; CollNetDirect needs NVSwitch.
		{"CollNetDirect off by default", two, FuncAllReduce, AlgoCollNetDirect, Simple, false},
		{"CollNetDirect with CollNet", with(two, func(c *Config) { c.CollNet = true }), FuncAllReduce, AlgoCollNetDirect, Simple, true},
		{"CollNetDirect is Simple only", with(two, func(c *Config) { c.CollNet = true }), FuncAllReduce, AlgoCollNetDirect, LL, false},
		{"CollNetDirect without NVSwitch", with(two, func(c *Config) { c.CollNet, c.NVSwitch = true, false }), FuncAllReduce, AlgoCollNetDirect, Simple, false},
		{"CollNetChain with CollNet", with(two, func(c *Config) { c.CollNet = true }), FuncAllReduce, AlgoCollNetChain, Simple, true},
		// Tree runs AllReduce only; Broadcast and Reduce are Ring only.
		{"Tree AllGather", two, FuncAllGather, AlgoTree, Simple, false},
		{"Ring Broadcast", two, FuncBroadcast, AlgoRing, LL, true},
		// LL128's automatic rule.
		{"LL128 over PIX", two, FuncAllReduce, AlgoRing, LL128, true},
		{"LL128 over PXN on Hopper", hopperConfig(v, 2, PathPXN), FuncAllReduce, AlgoRing, LL128, true},
		{"LL128 over PXN with NCCL_LL128_C2C=0", with(hopperConfig(v, 2, PathPXN), func(c *Config) { c.NoLL128C2C = true }), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 over PXN on Ampere", with(hopperConfig(v, 2, PathPXN), func(c *Config) { c.MinCompCap = 80 }), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 over PHB", hopperConfig(v, 2, PathPHB), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 forced by NCCL_PROTO over PHB", with(hopperConfig(v, 2, PathPHB), func(c *Config) { c.Proto = "LL128" }), FuncAllReduce, AlgoRing, LL128, true},
		{"LL128 on PCI inside the node", with(one, func(c *Config) { c.Graphs.Ring.TypeIntra = PathPHB }), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 on mixed Ampere/Hopper", with(one, func(c *Config) { c.MinCompCap, c.MaxCompCap = 80, 90 }), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 on mixed Hopper/Blackwell (2.30)", with(one, func(c *Config) { c.MaxCompCap = 100 }), FuncAllReduce, AlgoRing, LL128, true},
		{"LL128 on mixed Hopper/Blackwell (2.29)", with(one, func(c *Config) { c.MaxCompCap, c.Version = 100, Version{2, 29, 7} }), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 on SM86 before 2.27", with(one, func(c *Config) { c.MinCompCap, c.Version = 86, Version{2, 26, 6} }), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 on SM86 from 2.27", with(one, func(c *Config) { c.MinCompCap, c.Version = 86, Version{2, 27, 7} }), FuncAllReduce, AlgoRing, LL128, true},
		{"LL128 on SM100 in 2.24", with(one, func(c *Config) { c.MinCompCap, c.Version = 100, Version{2, 24, 3} }), FuncAllReduce, AlgoRing, LL128, false},
		{"LL128 on SM100 in 2.25", with(one, func(c *Config) { c.MinCompCap, c.Version = 100, Version{2, 25, 1} }), FuncAllReduce, AlgoRing, LL128, true},
		// NCCL_ALGO and NCCL_PROTO.
		{"NCCL_ALGO=Ring leaves Tree out", with(two, func(c *Config) { c.Algo = "Ring" }), FuncAllReduce, AlgoTree, LL, false},
		{"NCCL_ALGO=^ring", with(two, func(c *Config) { c.Algo = "^ring" }), FuncAllReduce, AlgoRing, LL, false},
		{"NCCL_PROTO=^LL", with(two, func(c *Config) { c.Proto = "^LL" }), FuncAllReduce, AlgoRing, LL, false},
		{"NCCL_PROTO=^LL keeps Simple", with(two, func(c *Config) { c.Proto = "^LL" }), FuncAllReduce, AlgoRing, Simple, true},
		{"per-function NCCL_ALGO: allreduce", with(two, func(c *Config) { c.Algo = "ring;allreduce:tree" }), FuncAllReduce, AlgoRing, Simple, false},
		{"per-function NCCL_ALGO: allgather", with(two, func(c *Config) { c.Algo = "ring;allreduce:tree" }), FuncAllGather, AlgoRing, Simple, true},
		// NCCL 2.18 never disables Ring outside AllReduce.
		{"NCCL_ALGO=Tree keeps Ring Broadcast in 2.18", with(two, func(c *Config) { c.Algo, c.Version = "Tree", Version{2, 18, 6} }), FuncBroadcast, AlgoRing, Simple, true},
		{"NCCL_ALGO=Tree removes Ring AllReduce in 2.18", with(two, func(c *Config) { c.Algo, c.Version = "Tree", Version{2, 18, 6} }), FuncAllReduce, AlgoRing, Simple, false},
		// 2.19 to 2.23 give Ring back to a function left with nothing.
		{"NCCL_ALGO=Tree gives Ring back to Broadcast in 2.21", with(two, func(c *Config) { c.Algo, c.Version = "Tree", Version{2, 21, 5} }), FuncBroadcast, AlgoRing, Simple, true},
		{"NCCL_ALGO=Tree leaves Broadcast empty in 2.24", with(two, func(c *Config) { c.Algo, c.Version = "Tree", Version{2, 24, 3} }), FuncBroadcast, AlgoRing, Simple, false},
		// enqueue.cc 2.19-2.26: NVLS AllGather on one node only.
		{"NVLS AllGather across nodes in 2.26", with(two, func(c *Config) { c.CollNet, c.Version = true, Version{2, 26, 6} }), FuncAllGather, AlgoNVLS, Simple, false},
	}
	for _, c := range cases {
		m, err := New(c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := m.Available(c.f, c.a, c.p); got != c.want {
			t.Errorf("%s: Available(%v, %v, %v) = %v, want %v", c.name, c.f, c.a, c.p, got, c.want)
		}
		if _, ok := m.Time(c.f, c.a, c.p, 1<<20); ok != c.want {
			t.Errorf("%s: Time reports available = %v, want %v", c.name, ok, c.want)
		}
	}
}

// TestChooseTies checks that the choice is the strict minimum in NCCL's
// order (topoGetAlgoInfo, NCCL 2.30.7 src/enqueue.cc): at nBytes = 0 the
// time is the latency, and constants that give Tree and Ring one latency
// make every Tree and Ring protocol tie.
func TestChooseTies(t *testing.T) {
	c := DefaultConstants(Latest)
	for _, a := range []Algo{AlgoTree, AlgoRing} {
		c.BaseLatency[a] = [3]float64{5, 5, 5}
		c.HWLatency[HWNVLink][a] = [3]float64{1, 1, 1}
	}
	// Two GPUs on one node: Tree adds 2·(2−1)·hw, Ring nsteps·hw = 2·hw.
	base := hopperConfig(Latest, 1, PathPIX)
	base.Ranks = 2
	base.Constants = &c
	base.Graphs.NVLS = Graph{} // NVLS would win outright on latency
	cases := []struct {
		name   string
		edit   func(*Config, *Constants)
		wantA  Algo
		wantP  Protocol
		wantUS float64
	}{
		{"all tie: lowest algorithm, lowest protocol", func(*Config, *Constants) {}, AlgoTree, LL, 7},
		{"Tree pinned out", func(cfg *Config, _ *Constants) { cfg.Algo = "Ring" }, AlgoRing, LL, 7},
		{"LL pinned out", func(cfg *Config, _ *Constants) { cfg.Proto = "^LL" }, AlgoTree, LL128, 7},
		{"Ring/Simple a hair faster wins", func(_ *Config, k *Constants) { k.BaseLatency[AlgoRing][Simple] = 4.999 }, AlgoRing, Simple, 6.999},
	}
	for _, tc := range cases {
		cfg, k := base, c
		cfg.Constants = &k
		tc.edit(&cfg, &k)
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e, err := m.Choose(FuncAllReduce, 0)
		if err != nil {
			t.Fatal(err)
		}
		if e.Algo != tc.wantA || e.Proto != tc.wantP || !scalar.EqualWithinRel(e.Time/usec, tc.wantUS, 1e-12) {
			t.Errorf("%s: chose %v/%v in %g us, want %v/%v in %g us", tc.name, e.Algo, e.Proto, e.Time/usec, tc.wantA, tc.wantP, tc.wantUS)
		}
	}
}

// TestChooseNothing checks the error NCCL gives when a pin leaves a
// function nothing (topoGetAlgoInfo's "No algorithm/protocol available").
func TestChooseNothing(t *testing.T) {
	cfg := hopperConfig(Latest, 2, PathPIX)
	cfg.Algo = "Tree" // Broadcast runs Ring only
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Choose(FuncBroadcast, 1024); err == nil || !strings.Contains(err.Error(), "Broadcast") {
		t.Errorf("Choose(Broadcast) with NCCL_ALGO=Tree: err = %v, want an error naming Broadcast", err)
	}
	if e, err := m.Choose(FuncAllReduce, 1024); err != nil || e.Algo != AlgoTree {
		t.Errorf("Choose(AllReduce) with NCCL_ALGO=Tree = %v, %v; want Tree", e, err)
	}
}

// TestEveryVersion runs every release tag from 2.18.6 to 2.30.7 on one
// node, two nodes and four nodes of one GPU: every latency and bandwidth is
// finite and non-negative, and the tuner finds a choice for every function
// and size.
func TestEveryVersion(t *testing.T) {
	tags := []Version{{2, 18, 6}, {2, 19, 4}, {2, 20, 5}, {2, 21, 5}, {2, 22, 3}, {2, 23, 4}, {2, 24, 3}, {2, 25, 1},
		{2, 26, 6}, {2, 27, 7}, {2, 28, 3}, {2, 28, 9}, {2, 29, 7}, {2, 30, 7}}
	for _, v := range tags {
		one, two := hopperConfig(v, 1, PathPIX), hopperConfig(v, 2, PathPIX)
		perNode := hopperConfig(v, 1, PathPIX)
		perNode.Ranks, perNode.Nodes = 4, 4
		for _, cfg := range []Config{one, two, perNode} {
			m, err := New(cfg)
			if err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			for f := range Func(NumFuncs) {
				for a := range Algo(NumAlgos) {
					for p := range Protocol(NumProtocols) {
						lat, bw := m.Latency(f, a, p), m.Bandwidth(f, a, p)
						if !(lat >= 0) || !(bw >= 0) || math.IsInf(lat, 0) || math.IsInf(bw, 0) {
							t.Errorf("%v %d/%d: %v/%v/%v = %g s, %g B/s", v, cfg.Ranks, cfg.Nodes, f, a, p, lat, bw)
						}
					}
				}
				for _, size := range []int64{0, 1, 1 << 20, 1 << 34} {
					if e, err := m.Choose(f, float64(size)); err != nil || !(e.Time >= 0) || math.IsInf(e.Time, 0) {
						t.Errorf("%v %d/%d: Choose(%v, %d) = %+v, %v", v, cfg.Ranks, cfg.Nodes, f, size, e, err)
					}
				}
			}
		}
	}
}

// TestOnlyCollNet: NCCL_ALGO values that leave a function only CollNet's
// algorithms, by NCCL's list syntax (parseList): a list of them, the
// others excluded with '^', a per-function list from 2.24, and 2.8's one
// CollNet; any other algorithm left on, an empty or unparsable value, or
// another function's list, leaves more.
func TestOnlyCollNet(t *testing.T) {
	v224, v28 := Version{2, 24, 3}, Version{2, 8, 4}
	for _, c := range []struct {
		v    Version
		f    Func
		algo string
		want bool
	}{
		{Latest, FuncAllReduce, "CollNetChain,CollNetDirect", true},
		{Latest, FuncAllReduce, "collnetdirect", true},
		{Latest, FuncAllReduce, "CollNetDirect,Ring", false},
		{Latest, FuncAllReduce, "^Ring,Tree,NVLS,NVLSTree,PAT", true},
		{Latest, FuncAllReduce, "^Ring", false},
		{v224, FuncAllReduce, "allreduce:CollNetDirect", true},
		{v224, FuncAllGather, "allreduce:CollNetDirect", false},
		{v28, FuncAllReduce, "CollNet", true},
		{v28, FuncAllReduce, "Tree,CollNet", false},
		{Latest, FuncAllReduce, "", false},
		{Latest, FuncAllReduce, "SHARP", false},
		{Latest, FuncAllReduce, "Ring", false},
	} {
		if got := OnlyCollNet(c.v, c.f, c.algo); got != c.want {
			t.Errorf("OnlyCollNet(%v, %v, %q) = %v, want %v", c.v, c.f, c.algo, got, c.want)
		}
	}
}
