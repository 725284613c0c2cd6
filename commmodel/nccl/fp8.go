package nccl

import "math"

// FP8Ranks is the most ranks on which NCCL weighs Ring for an FP8
// reduction as for any other: on more, it multiplies Ring's cost 1024
// times for ncclFloat8e4m3 and ncclFloat8e5m2 ("Relegate fp8 reduction
// trees of sufficient depth that they incur precision loss",
// updateCollCostTable in src/enqueue.cc, the same in NCCL 2.24.3 to
// 2.30.7; 2.18 to 2.23 have no FP8 types), "any factor large enough to act
// as a partition between lossy and non-lossy algos": such a call runs any
// other algorithm NCCL's cost table holds for it.
const FP8Ranks = 8

// fp8CompCap is the least compute capability on which NCCL runs FP8
// reductions: below it, ncclEnqueueCheck refuses them ("FP8 reduction
// support begins with sm90 capable devices", src/enqueue.cc, 2.24.3 to
// 2.30.7), and no rule runs one.
const fp8CompCap = 90

// An FP8Pin is where rules make NCCL run Ring for FP8 reductions that NCCL
// runs on another algorithm without the plugin: calls of Func on the
// communicator of nNodes Nodes and nRanks Ranks, of sizes from MinBytes to
// MaxBytes (the least and the most of them, not every size between), which
// Rules rules take, each counted once however many ranges it takes.
type FP8Pin struct {
	Func               Func
	Nodes, Ranks       int
	Rules              int
	MinBytes, MaxBytes uint64
}

// FP8RingPins walks rules as the example plugin does for an FP8 reduction
// on each of comms, and returns, by function and communicator, where the
// rule it takes names Ring though NCCL's cost table holds another
// algorithm for the call. The plugin is not told the call's datatype
// (pluginGetCollInfo, plugins/tuner/example/plugin.c): it takes the first
// matching rule whose algorithm and protocol the table holds and sets that
// entry's cost to 0, under the 1024 times NCCL put on Ring. For an FP8
// call the table holds what it holds for any other (Model.Available: the
// job's NCCL_ALGO and NCCL_PROTO, PAT on one GPU a node) but NVLS and
// NVLSTree, which take no 8-bit type (ncclNvlsSupported,
// src/include/device.h), and CollNet, whose SHARP plugin reduces no FP8
// type (Mellanox/nccl-rdma-sharp-plugins' sharp_plugin.c; NCCL asks it,
// ncclGetCollNetSupport): the plugin passes over their rules and takes the
// next, often a Ring rule written as their fallback. Where the table
// holds no algorithm but Ring (NCCL_ALGO=Ring, or ^tree on a communicator
// without PAT), Ring is all an FP8 call has and its rules change nothing.
// AllGather and Broadcast count their data as bytes (ncclInt8,
// ncclEnqueueCheck's task, src/enqueue.cc), so FP8 is no FP8 to them;
// Reduce runs Ring alone. Calls are taken as numPipeOps 1 and regBuff 0
// where the rules tell those apart. Comms of at most FP8Ranks ranks, or of
// GPUs below fp8CompCap, have none; the tables' release does not matter,
// since every NCCL that loads a plugin reading the rules (2.24.3 on, the
// example's of 2.27.5 and later) relegates Ring so.
func FP8RingPins(rules []TunerRule, comms []TunerComm) []FP8Pin {
	lines := make([]pluginLine, len(rules))
	for i, r := range rules {
		lines[i] = pluginLine{line: i + 1, rule: r}
	}
	fp8 := func(a Algo) bool { return a != AlgoNVLS && a != AlgoNVLSTree && !a.CollNet() }
	var pins []FP8Pin
	for _, c := range comms {
		tm := c.Model
		if tm == nil || tm.nRanks <= FP8Ranks || tm.minCC < fp8CompCap { // no model: nothing to walk
			continue
		}
		for _, f := range []Func{FuncAllReduce, FuncReduceScatter, FuncReduce} {
			other := false // NCCL's cost table holds an algorithm but Ring
			for a := range Algo(NumAlgos) {
				for p := range Protocol(NumProtocols) {
					other = other || a != AlgoRing && fp8(a) && tm.Available(f, a, p)
				}
			}
			if !other {
				continue
			}
			var cand []int
			for i, r := range rules {
				if r.Func == f && r.MinBytes <= r.MaxBytes && matchInt(r.Nodes, c.Nodes) && matchInt(r.Ranks, tm.nRanks) &&
					matchInt(r.PipeOps, 1) && matchInt(r.RegBuff, 0) {
					cand = append(cand, i)
				}
			}
			sw := sweepRules(lines, cand, func(i int) bool {
				r := rules[i]
				return fp8(r.Algo) && tm.Available(f, r.Algo, r.Proto)
			})
			pin := FP8Pin{Func: f, Nodes: c.Nodes, Ranks: tm.nRanks, MinBytes: math.MaxUint64}
			seen := map[int]bool{}
			for k, lo := range sw.bounds {
				i := sw.taken[k]
				if i < 0 || rules[i].Algo != AlgoRing {
					continue
				}
				if !seen[i] {
					seen[i] = true
					pin.Rules++
				}
				pin.MinBytes, pin.MaxBytes = min(pin.MinBytes, lo), max(pin.MaxBytes, sw.hi(k))
			}
			if pin.Rules > 0 {
				pins = append(pins, pin)
			}
		}
	}
	return pins
}
