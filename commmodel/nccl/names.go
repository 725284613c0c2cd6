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
	Broadcast Func = iota
	Reduce
	AllGather
	ReduceScatter
	AllReduce
	// NumFuncs is the number of functions.
	NumFuncs = 5
)

// funcNames are NCCL's ncclFuncStr (NCCL 2.30.7 src/init.cc): the names the
// TUNING table prints and NCCL_ALGO/NCCL_PROTO prefixes accept.
var funcNames = [NumFuncs]string{"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"}

// String returns NCCL's name of f ("AllReduce").
func (f Func) String() string { return nameOf(funcNames[:], int(f), "Func") }

// ParseFunc reads a function name, ignoring case, '_' and '-': "AllReduce",
// "all_reduce" and "allreduce" are AllReduce.
func ParseFunc(s string) (Func, error) {
	key := squash(s)
	for f, name := range funcNames {
		if key == strings.ToLower(name) {
			return Func(f), nil
		}
	}
	return 0, fmt.Errorf("nccl: unknown function %q (want Broadcast, Reduce, AllGather, ReduceScatter or AllReduce)", s)
}

// FuncOf maps a commmodel collective to NCCL's function. AllToAll has no
// entry in NCCL's tuner and gives an error.
func FuncOf(c commmodel.Collective) (Func, error) {
	switch c {
	case commmodel.AllReduce:
		return AllReduce, nil
	case commmodel.ReduceScatter:
		return ReduceScatter, nil
	case commmodel.AllGather:
		return AllGather, nil
	case commmodel.Broadcast:
		return Broadcast, nil
	}
	return 0, fmt.Errorf("nccl: NCCL's tuner has no model of %v (it runs as point-to-point sends)", c)
}

// Algorithm is one of NCCL's collective algorithms, numbered as NCCL numbers
// them (NCCL_ALGO_TREE = 0 ... NCCL_ALGO_PAT = 6, NCCL 2.30.7
// src/include/plugin/nccl_tuner.h). The tuner breaks ties towards the lower
// number.
type Algorithm int

// NCCL's algorithms. PAT exists from NCCL 2.23.
const (
	Tree Algorithm = iota
	Ring
	CollNetDirect
	CollNetChain
	NVLS
	NVLSTree
	PAT
	// NumAlgorithms is the number of algorithms.
	NumAlgorithms = 7
)

// algoNames are NCCL's ncclAlgoStr (NCCL 2.30.7 src/init.cc), the names
// NCCL_ALGO accepts, compared without regard to case.
var algoNames = [NumAlgorithms]string{"Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"}

// String returns NCCL's name of a ("NVLSTree").
func (a Algorithm) String() string { return nameOf(algoNames[:], int(a), "Algorithm") }

// ParseAlgorithm reads an algorithm name as NCCL_ALGO does: one of NCCL's
// names, case-insensitive ("ring", "NVLSTree", "collnetdirect").
func ParseAlgorithm(s string) (Algorithm, error) {
	if a := indexFold(algoNames[:], strings.TrimSpace(s)); a >= 0 {
		return Algorithm(a), nil
	}
	return 0, fmt.Errorf("nccl: unknown algorithm %q (want one of %s)", s, strings.Join(algoNames[:], ", "))
}

// Protocol is one of NCCL's protocols (NCCL_PROTO_LL = 0, LL128 = 1,
// Simple = 2, NCCL 2.30.7 src/include/plugin/nccl_tuner.h). LL moves 8-byte lines
// that are half flag; LL128 moves 128-byte lines carrying 120 bytes of data;
// Simple moves whole buffers and synchronises with fences.
type Protocol int

// NCCL's protocols.
const (
	LL Protocol = iota
	LL128
	Simple
	// NumProtocols is the number of protocols.
	NumProtocols = 3
)

// protoNames are NCCL's ncclProtoStr (NCCL 2.30.7 src/init.cc).
var protoNames = [NumProtocols]string{"LL", "LL128", "Simple"}

// String returns NCCL's name of p ("LL128").
func (p Protocol) String() string { return nameOf(protoNames[:], int(p), "Protocol") }

// ParseProtocol reads a protocol name as NCCL_PROTO does: LL, LL128 or
// Simple, case-insensitive.
func ParseProtocol(s string) (Protocol, error) {
	if p := indexFold(protoNames[:], strings.TrimSpace(s)); p >= 0 {
		return Protocol(p), nil
	}
	return 0, fmt.Errorf("nccl: unknown protocol %q (want LL, LL128 or Simple)", s)
}

// squash lower-cases s and drops '_', '-' and spaces.
func squash(s string) string {
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(s))
}

// nameOf returns names[i], or kind(i) for an index outside names.
func nameOf(names []string, i int, kind string) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("%s(%d)", kind, i)
	}
	return names[i]
}
