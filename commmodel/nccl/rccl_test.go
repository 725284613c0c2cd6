package nccl

import (
	"strings"
	"testing"
)

// mi300xModel is the model of ranks MI300X ranks on nodes nodes at RCCL
// version v.
func mi300xModel(t *testing.T, v Version, ranks, nodes int) *Model {
	t.Helper()
	g, err := ParseGPU("AMD Instinct MI300X")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := System{GPU: g, GPUsPerNode: ranks / nodes, Nodes: nodes, NVSwitch: true, NICs: 8, NICBW: 50e9}.Config(v)
	if err != nil {
		t.Fatal(err)
	}
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
	if m := mi300xModel(t, v, 8, 1); m.Available(FuncAllReduce, AlgoTree, Simple) || !m.Available(FuncAllReduce, AlgoTree, LL) {
		t.Errorf("gfx942 on one node at RCCL %v: Tree/Simple %v, Tree/LL %v; want off, on", v,
			m.Available(FuncAllReduce, AlgoTree, Simple), m.Available(FuncAllReduce, AlgoTree, LL))
	}
	if m := mi300xModel(t, v, 16, 2); !m.Available(FuncAllReduce, AlgoTree, Simple) {
		t.Error("gfx942 on two nodes: Tree/Simple off; want on (the rule is for one node)")
	}
	if m := mi300xModel(t, Version{2, 18, 5}, 8, 1); !m.Available(FuncAllReduce, AlgoTree, Simple) {
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

// TestChooseNoneLeftSaysWhy: NCCL_ALGO=Tree NCCL_PROTO=Simple on one MI300X (RCCL 2.26.6)
// node leaves nothing (RCCL's Tree/Simple rule), and the error names the
// settings and the reasons a pin leaves nothing.
func TestChooseNoneLeftSaysWhy(t *testing.T) {
	g, err := ParseGPU("AMD Instinct MI300X")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := System{GPU: g, GPUsPerNode: 8, Nodes: 1, NVSwitch: true}.Config(Version{2, 26, 6}) // 2.19-2.23 fall back on Ring
	if err != nil {
		t.Fatal(err)
	}
	cfg.Algo, cfg.Proto = "Tree", "Simple"
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Choose(FuncAllReduce, 1<<20)
	if err == nil || !strings.Contains(err.Error(), `NCCL_ALGO="Tree" and NCCL_PROTO="Simple" leave none`) || !strings.Contains(err.Error(), "RCCL leaves Tree/Simple out") {
		t.Errorf("Choose = %v; want the settings and the reasons named", err)
	}
}

// TestRCCLNoPAT: on 4 nodes of one MI300X each, where NCCL's ncclPatEnable
// (src/graph/tuning.cc: one GPU a node) would enable PAT, RCCL runs none:
// 2.21.5 has no PAT (src/include/nccl_common.h, NCCL_NUM_ALGORITHMS 6),
// later releases only with NCCL_PAT_ENABLE=1. The same shape of H100s keeps
// it.
func TestRCCLNoPAT(t *testing.T) {
	for _, v := range []Version{{2, 21, 5}, {2, 27, 7}} {
		m := mi300xModel(t, v, 4, 4)
		for _, f := range []Func{FuncAllGather, FuncReduceScatter} {
			if m.Available(f, AlgoPAT, Simple) {
				t.Errorf("RCCL %v, %v on 4 x 1 MI300X: PAT/Simple available", v, f)
			}
		}
	}
	g, err := ParseGPU("H100")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := System{GPU: g, GPUsPerNode: 1, Nodes: 4, NICs: 1, NICBW: 50e9}.Config(Version{2, 27, 7})
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Available(FuncAllGather, AlgoPAT, Simple) {
		t.Error("NCCL 2.27.7, AllGather on 4 x 1 H100: PAT/Simple not available")
	}
}
