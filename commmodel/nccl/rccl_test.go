package nccl

import (
	"math"
	"testing"
)

// mi300xModel is the model of ranks MI300X ranks on nodes nodes at RCCL
// version v, with constants c (nil: New's defaults).
func mi300xModel(t *testing.T, v Version, ranks, nodes int, c *Constants) *Model {
	t.Helper()
	g, err := ParseGPU("AMD Instinct MI300X")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := System{GPU: g, GPUsPerNode: ranks / nodes, Nodes: nodes, NVSwitch: true, NICs: 8, NICBW: 50e9}.Config(v)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Constants = c
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRCCLTreeSimpleOneNode: RCCL skips Tree/Simple on one node of gfx942
// (ROCm/rccl src/graph/tuning.cc, the "gfx94" check of ncclTopoTuneModel,
// from RCCL 2.18.6, pull request 1063), and keeps it across nodes and on
// NVIDIA GPUs.
func TestRCCLTreeSimpleOneNode(t *testing.T) {
	v := Version{2, 22, 3}
	if m := mi300xModel(t, v, 8, 1, nil); m.Available(FuncAllReduce, AlgoTree, Simple) || !m.Available(FuncAllReduce, AlgoTree, LL) {
		t.Errorf("gfx942 on one node at RCCL %v: Tree/Simple %v, Tree/LL %v; want off, on", v,
			m.Available(FuncAllReduce, AlgoTree, Simple), m.Available(FuncAllReduce, AlgoTree, LL))
	}
	if m := mi300xModel(t, v, 16, 2, nil); !m.Available(FuncAllReduce, AlgoTree, Simple) {
		t.Error("gfx942 on two nodes: Tree/Simple off; want on (the rule is for one node)")
	}
	if m := mi300xModel(t, Version{2, 18, 5}, 8, 1, nil); !m.Available(FuncAllReduce, AlgoTree, Simple) {
		t.Error("gfx942 at RCCL 2.18.5: Tree/Simple off; want on (the rule entered in 2.18.6)")
	}
	h100, _ := ParseGPU("NVIDIA H100 80GB HBM3")
	cfg, err := System{GPU: h100, GPUsPerNode: 8, Nodes: 1, NVSwitch: true}.Config(v)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := New(cfg); err != nil || !m.Available(FuncAllReduce, AlgoTree, Simple) {
		t.Errorf("H100 on one node: Tree/Simple off (%v); want on", err)
	}
}

// TestRCCLConstants holds RCCLConstants to RCCL's tables (ROCm/rccl
// src/graph/tuning.cc: baseLat, and tuning_model_5's hwLat at pull
// request 1047 for 2.18.6 to 2.20.x and pull request 1288 from 2.21), and
// checks one latency New computes from them by NCCL's Ring formula.
func TestRCCLConstants(t *testing.T) {
	if _, ok := RCCLConstants(Version{2, 22, 3}, "gfx950"); ok {
		t.Error("gfx950: RCCL constants given; want none (its table is not modelled)")
	}
	if _, ok := RCCLConstants(Version{2, 18, 5}, "gfx942"); ok {
		t.Error("gfx942 at 2.18.5: RCCL constants given; want none (table 5 entered in 2.18.6)")
	}
	for _, c := range []struct {
		v                          Version
		nvlRingSimple, netRingSimp float64
		netTreeLL                  float64
	}{
		{Version{2, 20, 5}, 3.6, 19.8, 12.5}, // pull request 1047
		{Version{2, 22, 3}, 2.1, 320, 10.5},  // pull request 1288
	} {
		k, ok := RCCLConstants(c.v, "gfx942")
		if !ok {
			t.Fatalf("gfx942 at %v: no RCCL constants", c.v)
		}
		got := [...]float64{k.BaseLatency[AlgoRing][LL], k.BaseLatency[AlgoRing][Simple], k.BaseLatency[AlgoTree][Simple],
			k.HWLatency[HWNVLink][AlgoRing][Simple], k.HWLatency[HWNet][AlgoRing][Simple], k.HWLatency[HWNet][AlgoTree][LL],
			k.HWLatency[HWPCI][AlgoRing][LL], k.RingPlateau[1]}
		want := [...]float64{12, 17, 17, c.nvlRingSimple, c.netRingSimp, c.netTreeLL, 2.2, 1}
		if got != want {
			t.Errorf("%v: got %v, want %v", c.v, got, want)
		}
	}
	// Ring/LL AllReduce on one node of 8 MI300X at RCCL 2.22.3: base 12 us
	// plus 2(8-1) = 14 Infinity Fabric steps of 0.8 us (NCCL's Ring
	// formula with RCCL's tables) is 23.2 us.
	k, _ := RCCLConstants(Version{2, 22, 3}, "gfx942")
	m := mi300xModel(t, Version{2, 22, 3}, 8, 1, &k)
	if got := m.Latency(FuncAllReduce, AlgoRing, LL) / usec; math.Abs(got-23.2) > 1e-9 {
		t.Errorf("Ring/LL AllReduce latency %.6f us; want 23.2", got)
	}
}
