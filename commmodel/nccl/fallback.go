package nccl

import (
	"math"
	"slices"
	"sort"
)

// NCCL fills a call's cost table (updateCollCostTable, NCCL 2.30.7
// src/enqueue.cc) from the communicator's tuning, which the model follows,
// and from facts of the call the model does not see, which leave an
// algorithm out (NCCL_ALGO_PROTO_IGNORE) for one call and not another:
//   - NVLS and NVLSTree where the call's nvlsSupport is 0: its reduction and
//     datatype are not ones ncclNvlsSupported allows (src/include/device.h:
//     sum and min/max on integers and half floats, sum alone on float and
//     double; no ncclProd, no ncclAvg), AllGather aside (src/enqueue.cc,
//     "nvlsSupport =");
//   - CollNetDirect and CollNetChain where the call's collNetSupport is not
//     1: the network plugin's collNetSupportMatrix lacks its reduction and
//     datatype (ncclGetCollNetSupport), or the job did not enable CollNet;
//   - PAT for ReduceScatter of ncclAvg or a pre-multiplied sum
//     (ncclDevSumPostDiv, ncclDevPreMulSum), and on a network device that
//     offloads (ncclPatEnable, src/graph/tuning.cc: netDeviceType other than
//     NCCL_NET_DEVICE_HOST), which the model does not see.
// Ring and Tree are left out of no call that the communicator's tuning
// keeps them for. A tuner rule for an algorithm of the first kind is
// passed over for such a call, and the example plugin then runs the call on
// one channel unless a later rule takes it.

// MayBeIgnored reports whether NCCL may leave algorithm a out of the cost
// table of a call for reasons of the call (its reduction, its datatype, the
// network's offload) that the model does not see: NVLS, NVLSTree, PAT,
// CollNetDirect and CollNetChain.
func MayBeIgnored(a Algo) bool {
	switch a {
	case AlgoNVLS, AlgoNVLSTree, AlgoPAT, AlgoCollNetDirect, AlgoCollNetChain:
		return true
	}
	return false
}

// nvlsAllGatherFrom is the first release whose calls of AllGather keep
// NVLS whatever their datatype (src/enqueue.cc, "nvlsSupport =" gains
// "|| func == ncclFuncAllGather" in 2.22.3); before it, ncclNvlsSupported
// left NVLS out of an AllGather of 8-bit types.
var nvlsAllGatherFrom = Version{2, 22, 3}

// allGatherVFrom is the first release that runs a group of Broadcasts from
// several roots as one AllGather of the largest (NCCL_ALLGATHERV_ENABLE, on
// by default): its cost table, which the plugin sees for an AllGather,
// leaves NVLS out (src/scheduler/allgatherv_sched.cc, ncclGetAlgoInfo with
// nvlsSupport 0, 2.29.2 to 2.30.7).
var allGatherVFrom = Version{2, 29, 2}

// LeftOutCalls says which calls of f NCCL, at m's release and node count,
// leaves algorithm a out of, for facts of the call the model does not see
// (MayBeIgnored), and "" where none. updateCollCostTable (src/enqueue.cc;
// getAlgoInfo in 2.18, topoGetAlgoInfo in 2.19 to 2.21) leaves out
//   - NVLS and NVLSTree where the call's nvlsSupport is 0 (its reduction or
//     datatype, AllGather aside from 2.22.3), and NVLS across nodes where
//     the call's collNetSupport is not 1, which for a reduction needs the
//     network plugin's CollNet to support its operation and datatype
//     (ncclGetCollNetSupport);
//   - PAT for a ReduceScatter of ncclAvg or a pre-multiplied sum, and on a
//     network device that offloads (ncclPatEnable, src/graph/tuning.cc);
//   - CollNetDirect and CollNetChain where the call's collNetSupport is not
//     1.
func (m *Model) LeftOutCalls(f Func, a Algo) string {
	reduces := f == FuncAllReduce || f == FuncReduceScatter || f == FuncReduce
	collNet := "a reduction and datatype the network plugin's CollNet does not support"
	switch a {
	case AlgoNVLS, AlgoNVLSTree:
		nvls := ""
		switch {
		case reduces:
			nvls = "a reduction or datatype NVLS does not run: ncclAvg, ncclProd, min or max on float or double, 8-bit types and FP8"
		case f == FuncAllGather && m.v.Before(nvlsAllGatherFrom):
			nvls = "an AllGather of a datatype NVLS does not run, 8-bit types and FP8"
		case f == FuncAllGather && !m.v.Before(allGatherVFrom):
			nvls = "a group of Broadcasts from several roots, which NCCL runs as an AllGather without NVLS (NCCL_ALLGATHERV_ENABLE)"
		}
		if a == AlgoNVLS && m.nNodes > 1 && reduces {
			// NVLS across nodes runs through CollNet.
			nvls += ", or " + collNet
		}
		return nvls
	case AlgoPAT:
		offload := "a network device that offloads (ncclPatEnable)"
		if f == FuncReduceScatter {
			return "a ReduceScatter of ncclAvg or of a pre-multiplied sum, or " + offload
		}
		return offload
	case AlgoCollNetDirect, AlgoCollNetChain:
		if reduces {
			return collNet + ", or a job without CollNet enabled"
		}
		return "a job without CollNet enabled (NCCL_COLLNET_ENABLE)"
	}
	return ""
}

// steady returns m without the algorithms NCCL may leave out of a call's
// cost table (MayBeIgnored): the choices NCCL makes for the calls of which
// it leaves them all out.
func (m *Model) steady() *Model {
	s := *m
	for f := range s.bw {
		for a := range Algo(NumAlgos) {
			if MayBeIgnored(a) {
				s.bw[f][a] = [NumProtocols]float64{}
			}
		}
	}
	return &s
}

// FallbackPick is NCCL's own choice for calls of f among the algorithms
// it never leaves out of a call's cost table (Choose on m without those
// MayBeIgnored names): what a rule after one of those should give.
func (m *Model) FallbackPick(f Func) TunerPick {
	return m.steady().DefaultPick(f)
}

// MayBeLeftOut reports whether NCCL may leave rule r's algorithm and
// protocol out of the cost table of a call r matches for facts a rules
// file does not see: an algorithm MayBeIgnored names, or LL128, which NCCL
// runs only where the GPUs' paths allow it (across nodes, the NICs near
// the GPUs: ll128Auto). Only after such a rule can a later one of its sizes
// take calls: its fallback.
func MayBeLeftOut(r TunerRule) bool { return MayBeIgnored(r.Algo) || r.Proto == LL128 }

// FallbackOf returns, for each of rules in a file's order, the index of the
// rule it is a fallback of, -1 for none: the latest rule before it, back to
// the last that is not itself a fallback, of the same function and
// communicator (nodes, ranks, numPipeOps, regBuff), whose sizes hold its
// own, and which MayBeLeftOut. The plugin takes a fallback only for the
// calls NCCL leaves the earlier rule's choice out of; a fallback may have
// its own (NCCL's choice without PAT is LL128, and behind the CPU no
// LL128 either).
//
// Time is O(n log² n) in the rules (holders), not the rules times the run
// of fallbacks before each.
func FallbackOf(rules []TunerRule) []int {
	out := make([]int, len(rules))
	h := newHolders(rules)
	for i, r := range rules {
		out[i] = h.latest(r)
		if out[i] < 0 {
			h.clear() // the rules before i are no longer looked at
		}
		if MayBeLeftOut(r) {
			h.add(i)
		}
	}
	return out
}

// A ruleKey is what a rule and its fallback share: the function and the
// communicator.
type ruleKey struct {
	f                              Func
	nodes, ranks, pipeOps, regBuff int
}

func keyOf(r TunerRule) ruleKey { return ruleKey{r.Func, r.Nodes, r.Ranks, r.PipeOps, r.RegBuff} }

// holders finds, among the rules added to it, the latest of a rule's key
// whose sizes hold the rule's. For each key it is a Fenwick tree over the
// MinBytes of the key's rules: node x holds the rules added of the
// MinBytes it covers that no later rule of as large a MaxBytes among them
// outdoes, so that in each node the index rises as MaxBytes falls. A
// query looks at O(log n) nodes, a binary search each; an addition pushes
// on O(log n) nodes, popping what it outdoes.
type holders struct {
	rules []TunerRule
	keys  map[ruleKey]*holderTree
	// touched lists the nodes added to since the last clear.
	touched []*[]int
}

// holderTree is one key's Fenwick tree.
type holderTree struct {
	mins []uint64 // the MinBytes of the key's rules MayBeLeftOut names, sorted, distinct
	node [][]int  // 1-based nodes of rule indices
}

func newHolders(rules []TunerRule) *holders {
	h := &holders{rules: rules, keys: map[ruleKey]*holderTree{}}
	for _, r := range rules {
		if MayBeLeftOut(r) {
			t := h.keys[keyOf(r)]
			if t == nil {
				t = &holderTree{}
				h.keys[keyOf(r)] = t
			}
			t.mins = append(t.mins, r.MinBytes)
		}
	}
	for _, t := range h.keys {
		slices.Sort(t.mins)
		t.mins = slices.Compact(t.mins)
		t.node = make([][]int, len(t.mins)+1)
	}
	return h
}

// latest returns the index of the latest rule added of r's key whose
// sizes hold r's, -1 where none.
func (h *holders) latest(r TunerRule) int {
	t := h.keys[keyOf(r)]
	if t == nil {
		return -1
	}
	best := -1
	x, _ := slices.BinarySearch(t.mins, r.MinBytes+1) // the rules of MinBytes up to r's
	if r.MinBytes == math.MaxUint64 {
		x = len(t.mins)
	}
	for ; x > 0; x -= x & -x {
		held := t.node[x]
		// The rules whose MaxBytes reach r's are a prefix; its last is the latest.
		k := sort.Search(len(held), func(k int) bool { return h.rules[held[k]].MaxBytes < r.MaxBytes })
		if k > 0 {
			best = max(best, held[k-1])
		}
	}
	return best
}

// add adds rule i, which MayBeLeftOut names.
func (h *holders) add(i int) {
	r := h.rules[i]
	t := h.keys[keyOf(r)]
	p, _ := slices.BinarySearch(t.mins, r.MinBytes)
	for x := p + 1; x < len(t.node); x += x & -x {
		held := t.node[x]
		for len(held) > 0 && h.rules[held[len(held)-1]].MaxBytes <= r.MaxBytes {
			held = held[:len(held)-1]
		}
		if len(t.node[x]) == 0 {
			h.touched = append(h.touched, &t.node[x])
		}
		t.node[x] = append(held, i)
	}
}

// clear removes every rule added.
func (h *holders) clear() {
	for _, n := range h.touched {
		*n = (*n)[:0]
	}
	h.touched = h.touched[:0]
}

// WithoutFallbacks returns rules less their fallbacks (FallbackOf): the
// rules TunerRules writes after each rule MayBeLeftOut names, which take
// only the calls NCCL leaves its choice out of.
func WithoutFallbacks(rules []TunerRule) []TunerRule {
	var out []TunerRule
	for i, of := range FallbackOf(rules) {
		if of < 0 {
			out = append(out, rules[i])
		}
	}
	return out
}
