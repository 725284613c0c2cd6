package nccl

import (
	"fmt"
	"strings"

	"github.com/inframethod/commlab/commmodel"
)

// Func is a collective as NCCL's tuner indexes it (ncclFunc_t): the five
// functions of its tables, in NCCL's order. NCCL does not model AllToAll: it
// runs as grouped point-to-point sends.
type Func int

// The functions of NCCL's tuning tables, numbered as NCCL numbers them
// (ncclFuncBroadcast = 0 ... ncclFuncAllReduce = 4, NCCL 2.30.7
// src/include/nccl_common.h).
const (
	FuncBroadcast Func = iota
	FuncReduce
	FuncAllGather
	FuncReduceScatter
	FuncAllReduce
	// NumFuncs is the number of functions.
	NumFuncs = 5
)

// funcNames are NCCL's ncclFuncStr (NCCL 2.30.7 src/init.cc): the names the
// TUNING table prints and NCCL_ALGO/NCCL_PROTO prefixes accept.
var funcNames = [NumFuncs]string{"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"}

// String returns NCCL's name of f ("AllReduce").
func (f Func) String() string { return nameOf(funcNames[:], int(f), "Func") }

// ParseFunc reads a function name: a collective as commmodel.ParseCollective
// reads it, ignoring case, '_' and '-' ("AllReduce", "all_reduce" and
// "allreduce" are AllReduce), or Reduce, which commmodel does not model.
func ParseFunc(s string) (Func, error) {
	if c, err := commmodel.ParseCollective(s); err == nil {
		if f, err := FuncOf(c); err == nil {
			return f, nil
		}
	} else if strings.EqualFold(squash(s), funcNames[FuncReduce]) {
		return FuncReduce, nil
	}
	return 0, fmt.Errorf("nccl: unknown function %q (want Broadcast, Reduce, AllGather, ReduceScatter or AllReduce)", s)
}

// FuncOf maps a commmodel collective to NCCL's function. AllToAll has no
// entry in NCCL's tuner and gives an error.
func FuncOf(c commmodel.Collective) (Func, error) {
	switch c {
	case commmodel.AllReduce:
		return FuncAllReduce, nil
	case commmodel.ReduceScatter:
		return FuncReduceScatter, nil
	case commmodel.AllGather:
		return FuncAllGather, nil
	case commmodel.Broadcast:
		return FuncBroadcast, nil
	}
	return 0, fmt.Errorf("nccl: NCCL's tuner has no model of %v (it runs as point-to-point sends)", c)
}

// Collective is FuncOf's inverse: commmodel's collective of f, and false
// for Reduce, which commmodel does not model.
func (f Func) Collective() (commmodel.Collective, bool) {
	for _, c := range commmodel.Collectives() {
		if g, err := FuncOf(c); err == nil && g == f {
			return c, true
		}
	}
	return 0, false
}

// Algo is one of NCCL's collective algorithms, numbered as NCCL numbers
// them (NCCL_ALGO_TREE = 0 ... NCCL_ALGO_PAT = 6, NCCL 2.30.7
// src/include/plugin/nccl_tuner.h). The tuner breaks ties towards the lower
// number. Algorithm gives commmodel's algorithm of each.
type Algo int

// NCCL's algorithms. AlgoPAT exists from NCCL 2.23.
const (
	AlgoTree Algo = iota
	AlgoRing
	AlgoCollNetDirect
	AlgoCollNetChain
	AlgoNVLS
	AlgoNVLSTree
	AlgoPAT
	// NumAlgos is the number of algorithms.
	NumAlgos = 7
)

// algoNames are NCCL's ncclAlgoStr (NCCL 2.30.7 src/init.cc), the names
// NCCL_ALGO accepts, compared without regard to case.
var algoNames = [NumAlgos]string{"Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"}

// String returns NCCL's name of a ("NVLSTree").
func (a Algo) String() string { return nameOf(algoNames[:], int(a), "Algo") }

// CollNet reports that a is one of CollNet's algorithms, which run on a
// network plugin's collectives (SHARP) rather than NCCL's own channels.
func (a Algo) CollNet() bool { return a == AlgoCollNetDirect || a == AlgoCollNetChain }

// ParseAlgo reads an algorithm name as NCCL_ALGO does, one of NCCL's
// names case-insensitive ("ring", "NVLSTree", "collnetdirect"), and as
// commlab spells NCCL's algorithms, with hyphens ("collnet-direct",
// "collnet-chain").
func ParseAlgo(s string) (Algo, error) {
	if a := indexFold(algoNames[:], strings.ReplaceAll(strings.TrimSpace(s), "-", "")); a >= 0 {
		return Algo(a), nil
	}
	return 0, fmt.Errorf("nccl: unknown algorithm %q (want one of %s)", s, strings.Join(algoNames[:], ", "))
}

// Algorithm returns commmodel's algorithm of a running collective c on nodes
// of perNode GPUs, in the form of NCCL's own model (the fluid trees and
// chain), or nil where commmodel has none:
//
//	AlgoTree           Tree (AllReduce)
//	AlgoRing           Ring, RingAllGather, RingReduceScatter, PipelinedBroadcast in 8 chunks
//	AlgoCollNetDirect  CollNetDirect (AllReduce)
//	AlgoCollNetChain   CollNetChain (AllReduce)
//	AlgoNVLS           NVLS (AllReduce)
//	AlgoNVLSTree       NVLSTree (AllReduce)
//	AlgoPAT            PATAllGather, PATReduceScatter
//
// NCCL's NVLS AllGather and ReduceScatter (one load or one store of the
// buffer through the switch) and its CollNetDirect AllGather and
// ReduceScatter have no commmodel type.
func (a Algo) Algorithm(c commmodel.Collective, perNode int) commmodel.Algorithm {
	switch c {
	case commmodel.AllReduce:
		switch a {
		case AlgoTree:
			return commmodel.Tree{PerNode: perNode}
		case AlgoRing:
			return commmodel.Ring{}
		case AlgoCollNetDirect:
			return commmodel.CollNetDirect{PerNode: perNode}
		case AlgoCollNetChain:
			return commmodel.CollNetChain{PerNode: perNode}
		case AlgoNVLS:
			return commmodel.NVLS{PerNode: perNode}
		case AlgoNVLSTree:
			return commmodel.NVLSTree{PerNode: perNode}
		}
	case commmodel.AllGather:
		switch a {
		case AlgoRing:
			return commmodel.RingAllGather{}
		case AlgoPAT:
			return commmodel.PATAllGather{}
		}
	case commmodel.ReduceScatter:
		switch a {
		case AlgoRing:
			return commmodel.RingReduceScatter{}
		case AlgoPAT:
			return commmodel.PATReduceScatter{}
		}
	case commmodel.Broadcast:
		if a == AlgoRing {
			return commmodel.PipelinedBroadcast{Chunks: 8}
		}
	}
	return nil
}

// Algorithms returns commmodel's algorithms of NCCL's for c on nodes of
// perNode GPUs (Algo.Algorithm), in NCCL's order: AllReduce has all but
// PAT; AllGather and ReduceScatter ring, and PAT at one GPU per node
// (perNode <= 1), the only shape NCCL enables it on by default
// (ncclPatEnable, NCCL 2.30.7 src/graph/tuning.cc); Broadcast its ring.
func Algorithms(c commmodel.Collective, perNode int) []commmodel.Algorithm {
	var out []commmodel.Algorithm
	for a := range Algo(NumAlgos) {
		if a == AlgoPAT && perNode > 1 {
			continue
		}
		if m := a.Algorithm(c, perNode); m != nil {
			out = append(out, m)
		}
	}
	return out
}

// Protocol is commmodel's Protocol: NCCL numbers its protocols as commmodel
// does (NCCL_PROTO_LL = 0, LL128 = 1, Simple = 2, NCCL 2.30.7
// src/include/plugin/nccl_tuner.h). Its String is commmodel's lower-case
// name, as the CLI spells it; ProtocolName is NCCL's. commmodel.ParseProtocol
// reads NCCL_PROTO's names, which are NCCL's ignoring case.
type Protocol = commmodel.Protocol

// NCCL's protocols.
const (
	LL     = commmodel.LL
	LL128  = commmodel.LL128
	Simple = commmodel.Simple
	// NumProtocols is the number of protocols.
	NumProtocols = 3
)

// protoNames are NCCL's ncclProtoStr (NCCL 2.30.7 src/init.cc).
var protoNames = [NumProtocols]string{"LL", "LL128", "Simple"}

// ProtocolName returns NCCL's name of p ("LL128"), as its logs and NCCL_PROTO
// spell it.
func ProtocolName(p Protocol) string { return nameOf(protoNames[:], int(p), "Protocol") }

// squash drops '_', '-' and spaces from s.
func squash(s string) string { return squasher.Replace(s) }

// squasher is squash's Replacer, built once (safe for concurrent use).
var squasher = strings.NewReplacer("_", "", "-", "", " ", "")

// nameOf returns names[i], or kind(i) for an index outside names.
func nameOf(names []string, i int, kind string) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("%s(%d)", kind, i)
	}
	return names[i]
}
