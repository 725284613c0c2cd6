package nccl

import (
	"math"
	"testing"
)

// TestFP8RingPins walks hand-written rules as the example plugin does for
// an FP8 reduction (NCCL 2.30.7 plugins/tuner/example/plugin.c: the first
// matching rule whose cost-table entry is not NCCL_ALGO_PROTO_IGNORE). On
// 2 x 8 Hopper GPUs (hopperConfig: NVLSTree across nodes, no CollNet)
// NCCL relegates Ring for FP8 on 16 ranks, more than 8 (src/enqueue.cc),
// and runs Tree; NVLSTree takes no 8-bit type (ncclNvlsSupported,
// src/include/device.h), so the plugin passes over its rule to the Ring
// rule after it. A Ring rule after a Tree rule of the same sizes is never
// reached; a rule of another nNodes or nRanks matches no call.
func TestFP8RingPins(t *testing.T) {
	comm := func(t *testing.T, v Version, nodes, per int, algo string) TunerComm {
		cfg := hopperConfig(v, nodes, PathPIX)
		cfg.Ranks = nodes * per
		cfg.Graphs.CollNetDirect, cfg.Graphs.CollNetChain = Graph{}, Graph{}
		cfg.Algo = algo
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return TunerComm{Nodes: nodes, Model: m}
	}
	rule := func(f Func, lo, hi uint64, a Algo, nodes, ranks int) TunerRule {
		return TunerRule{Func: f, MinBytes: lo, MaxBytes: hi, Algo: a, Proto: Simple, Nodes: nodes, Ranks: ranks, PipeOps: -1, RegBuff: -1}
	}
	const top = math.MaxUint64
	rules := []TunerRule{
		rule(FuncAllReduce, 0, 999, AlgoTree, 2, 16),
		rule(FuncAllReduce, 0, 999, AlgoRing, 2, 16),        // after Tree: never reached
		rule(FuncAllReduce, 1000, top, AlgoNVLSTree, 2, 16), // passed over for FP8
		rule(FuncAllReduce, 1000, 4999, AlgoRing, 2, 16),    // reached: a pin
		rule(FuncAllReduce, 5000, top, AlgoRing, 2, 16),     // reached: a pin
		rule(FuncAllReduce, 0, top, AlgoRing, 16, 16),       // 16 x 1's: no call of 2 x 8
		rule(FuncAllGather, 0, top, AlgoRing, 2, 16),        // bytes, not FP8
		rule(FuncReduceScatter, 0, top, AlgoRing, 2, 16),    // no PAT on 8 GPUs a node
		rule(FuncAllReduce, 0, top, AlgoRing, 1, 8),         // 8 ranks: Ring keeps its cost
	}
	two := comm(t, Latest, 2, 8, "")
	pins := FP8RingPins(rules, []TunerComm{two, comm(t, Latest, 1, 8, "")})
	want := FP8Pin{Func: FuncAllReduce, Nodes: 2, Ranks: 16, Rules: 2, MinBytes: 1000, MaxBytes: top}
	if len(pins) != 1 || pins[0] != want {
		t.Errorf("2 x 8 and 1 x 8: %+v, want only %+v", pins, want)
	}
	// The job's NCCL_ALGO leaves Ring all an FP8 AllReduce has: the rules
	// change nothing.
	for _, c := range []TunerComm{comm(t, Latest, 2, 8, "ring"), comm(t, Latest, 2, 8, "^tree")} {
		if pins := FP8RingPins(rules, []TunerComm{c}); len(pins) != 0 {
			t.Errorf("NCCL %v, NCCL_ALGO %q: %+v, want none", c.Model.Version(), c.Model.algoEnv, pins)
		}
	}
	// Tables of 2.23.4, which has no FP8 types, still write rules for a job
	// whose NCCL loads the plugin, 2.24.3 or later, which relegates Ring.
	if pins := FP8RingPins(rules, []TunerComm{comm(t, Version{2, 23, 4}, 2, 8, "")}); len(pins) != 1 {
		t.Errorf("NCCL 2.23.4's tables: %+v, want the AllReduce pins", pins)
	}
	// With CollNet: its SHARP plugin reduces no FP8 type, so the plugin
	// passes over a CollNetDirect rule to the Ring rule after it.
	cn := hopperConfig(Latest, 2, PathPIX)
	cn.Ranks, cn.CollNet = 16, true
	mcn, err := New(cn)
	if err != nil {
		t.Fatal(err)
	}
	if !mcn.Available(FuncAllReduce, AlgoCollNetDirect, Simple) {
		t.Fatal("CollNetDirect not available with CollNet: the case this guards")
	}
	cnRules := []TunerRule{rule(FuncAllReduce, 0, top, AlgoCollNetDirect, 2, 16), rule(FuncAllReduce, 0, top, AlgoRing, 2, 16)}
	if pins := FP8RingPins(cnRules, []TunerComm{{Nodes: 2, Model: mcn}}); len(pins) != 1 || pins[0].Rules != 1 {
		t.Errorf("CollNet then Ring: %+v, want the Ring rule", pins)
	}
	// Ampere (sm80): NCCL refuses FP8 reductions below sm90, so no rule
	// runs one.
	amp := hopperConfig(Latest, 2, PathPIX)
	amp.Ranks, amp.MinCompCap, amp.MaxCompCap = 16, 80, 80
	amp.Graphs.CollNetDirect, amp.Graphs.CollNetChain = Graph{}, Graph{}
	if m, err := New(amp); err != nil {
		t.Fatal(err)
	} else if pins := FP8RingPins(rules, []TunerComm{{Nodes: 2, Model: m}}); len(pins) != 0 {
		t.Errorf("sm80: %+v, want none", pins)
	}
	// 16 x 1 runs a ReduceScatter on PAT (one GPU a node, ncclPatEnable in
	// src/graph/tuning.cc), so its Ring rule pins FP8 calls; its AllReduce
	// rule pins them too, and 2 x 8's match none of its calls.
	pins = FP8RingPins(append(rules, rule(FuncReduceScatter, 0, top, AlgoRing, 16, 16)), []TunerComm{comm(t, Latest, 16, 1, "")})
	if len(pins) != 2 || pins[0].Func != FuncAllReduce || pins[1].Func != FuncReduceScatter || pins[0].Nodes != 16 || pins[0].Rules != 1 || pins[1].Rules != 1 {
		t.Errorf("16 x 1: %+v, want AllReduce's and ReduceScatter's rule of nNodes 16", pins)
	}
}

// TestFP8RingPinsNoModel: a TunerComm built without its Model has nothing
// to walk, and is passed over rather than dereferenced.
func TestFP8RingPinsNoModel(t *testing.T) {
	r := TunerRule{Func: FuncAllReduce, MaxBytes: math.MaxUint64, Algo: AlgoRing, Proto: Simple, Nodes: -1, Ranks: -1, PipeOps: -1, RegBuff: -1}
	if pins := FP8RingPins([]TunerRule{r}, []TunerComm{{Nodes: 2}}); len(pins) != 0 {
		t.Errorf("no model: %+v, want none", pins)
	}
}
