package nccl

import "testing"

// TestFP8RingRule: the rules of red team 47's file (tune on cluster01's
// tables for -comms 16x8,1x8,16x1,2x8,1x4) that change what an FP8
// reduction runs, and those that do not. NCCL relegates Ring for FP8 on
// more than 8 ranks (src/enqueue.cc, 2.24.3 to 2.30.7); the other
// algorithm it then runs decides: Tree for AllReduce, PAT for a
// ReduceScatter of one GPU a node (16 x 1), none for a ReduceScatter of 8
// GPUs a node without CollNet (NVLS takes no FP8), none for Reduce, and
// AllGather counts bytes.
func TestFP8RingRule(t *testing.T) {
	rule := func(f Func, a Algo, nodes, ranks int) TunerRule {
		return TunerRule{Func: f, Algo: a, Proto: Simple, Nodes: nodes, Ranks: ranks, PipeOps: -1, RegBuff: -1}
	}
	for _, c := range []struct {
		r       TunerRule
		collnet bool
		want    bool
	}{
		{rule(FuncAllReduce, AlgoRing, 16, 128), false, true},      // allreduce,887521521,...,ring,simple,0,16,128
		{rule(FuncAllReduce, AlgoRing, 16, 16), false, true},       // allreduce,97375745,...,ring,simple,0,16,16
		{rule(FuncAllReduce, AlgoRing, 1, 8), false, false},        // 8 ranks: Ring keeps its cost
		{rule(FuncAllReduce, AlgoRing, 2, 8), false, false},        // 2 x 4
		{rule(FuncAllReduce, AlgoNVLSTree, 16, 128), false, false}, // passed over for FP8
		{rule(FuncReduceScatter, AlgoRing, 16, 16), false, true},   // PAT on one GPU a node
		{rule(FuncReduceScatter, AlgoRing, 16, 128), false, false},
		{rule(FuncReduceScatter, AlgoRing, 16, 128), true, true}, // CollNet
		{rule(FuncReduce, AlgoRing, 16, 128), false, false},
		{rule(FuncAllGather, AlgoRing, 16, 16), false, false},
		{rule(FuncAllReduce, AlgoRing, -1, -1), false, true}, // any communicator
	} {
		if got := FP8RingRule(c.r, c.collnet); got != c.want {
			t.Errorf("%v %v on %d nodes of %d ranks, collnet %v: %v, want %v", c.r.Func, c.r.Algo, c.r.Nodes, c.r.Ranks, c.collnet, got, c.want)
		}
	}
}
