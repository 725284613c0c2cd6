package nccl

// FP8Ranks is the most ranks on which NCCL weighs Ring for an FP8
// reduction as for any other: on more, it multiplies Ring's cost 1024
// times for ncclFloat8e4m3 and ncclFloat8e5m2 ("Relegate fp8 reduction
// trees of sufficient depth that they incur precision loss",
// updateCollCostTable in src/enqueue.cc, the same in NCCL 2.24.3 to
// 2.30.7; 2.18 to 2.23 have no FP8 types), so that such a call runs any
// other algorithm it can.
const FP8Ranks = 8

// FP8RingRule reports whether the tuner rule r makes NCCL run Ring for an
// FP8 reduction that NCCL runs on another algorithm without the plugin:
// the example plugin is not told the call's datatype (pluginGetCollInfo,
// plugins/tuner/example/plugin.c) and sets the cost of the rule's Ring
// entry to 0, under NCCL's 1024 times. That is a rule for Ring on more than
// FP8Ranks ranks (or any ranks, -1) of a function where NCCL has another
// algorithm for FP8: AllReduce's Tree, always; ReduceScatter's PAT on one
// GPU a node (ncclPatEnable, src/graph/tuning.cc) and its CollNet where
// the network reduces (collnet). AllGather and Broadcast count their data
// as bytes (ncclInt8, ncclEnqueueCheck's task, src/enqueue.cc), Reduce runs
// Ring alone, and NVLS and NVLSTree take no 8-bit type (ncclNvlsSupported,
// src/include/device.h), so no other rule changes what an FP8 call runs.
func FP8RingRule(r TunerRule, collnet bool) bool {
	if r.Algo != AlgoRing || (r.Ranks >= 0 && r.Ranks <= FP8Ranks) {
		return false
	}
	switch r.Func {
	case FuncAllReduce:
		return true
	case FuncReduceScatter:
		return collnet || r.Nodes < 0 || r.Nodes == r.Ranks
	}
	return false
}
