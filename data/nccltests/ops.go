package nccltests

import (
	"strings"

	"github.com/inframethod/commlab/commmodel"
)

// An op is an nccl-tests operation and what its table looks like.
type op struct {
	stem    string               // binary name without "_perf"
	model   bool                 // the operation is a commmodel.Collective
	coll    commmodel.Collective // the collective, when model
	like    commmodel.Collective // the collective whose BusFactor nccl-tests applies
	reduces bool                 // the redop column names a reduction, not "none"
	rooted  bool                 // root >= 0
	perRank bool                 // count is per rank: size = count · type size · ranks
	infer   bool                 // considered when the log does not name its binary
}

// ops lists nccl-tests' operations, the commmodel collectives first in
// commmodel order. Bus factors and per-rank counts follow nccl-tests'
// src/*.cu (GetBw and GetCollByteCount of each test); the redop and root
// columns follow the operation and root each test's RunTest hands TimeTest.
//
// sendrecv reduces nothing, yet since nccl-tests v2.13.0 its rows name the
// -o reduction (sum unless told otherwise) and root -1: src/sendrecv.cu
// passes the op list to TimeTest as all_reduce does, and src/common.cu
// prints every test's "size count type redop root". v2.10.0 to v2.11.0
// printed sendrecv rows as "size count type" only (print_line_header in
// src/sendrecv.cu). Its count is per buffer, not per rank, and busbw =
// algbw (SendRecvGetBw, factor 1). rccl-tests' sendrecv of 2020 to 2021
// (ROCm/rccl-tests 0d7c4db, replaced by nccl-tests' at 9f8ddad) had busbw =
// algbw·⌊n/2⌋ and is not modelled.
var ops = []op{
	{stem: "all_reduce", model: true, coll: commmodel.AllReduce, like: commmodel.AllReduce, reduces: true, infer: true},
	{stem: "reduce_scatter", model: true, coll: commmodel.ReduceScatter, like: commmodel.ReduceScatter, reduces: true, perRank: true, infer: true},
	{stem: "all_gather", model: true, coll: commmodel.AllGather, like: commmodel.AllGather, perRank: true, infer: true},
	{stem: "broadcast", model: true, coll: commmodel.Broadcast, like: commmodel.Broadcast, rooted: true, infer: true},
	{stem: "alltoall", model: true, coll: commmodel.AllToAll, like: commmodel.AllToAll, perRank: true, infer: true},
	{stem: "reduce", like: commmodel.Broadcast, reduces: true, rooted: true, infer: true},
	{stem: "sendrecv", like: commmodel.Broadcast, reduces: true, infer: true},
	{stem: "gather", like: commmodel.AllGather, rooted: true, perRank: true},
	{stem: "scatter", like: commmodel.AllGather, rooted: true, perRank: true},
	{stem: "hypercube", like: commmodel.AllGather, perRank: true},
}

// opByStem returns the op of a binary stem.
func opByStem(stem string) (op, bool) {
	for _, o := range ops {
		if o.stem == stem {
			return o, true
		}
	}
	return op{}, false
}

// opOf returns the op of a collective.
func opOf(c commmodel.Collective) op {
	for _, o := range ops {
		if o.model && o.coll == c {
			return o
		}
	}
	return op{stem: c.String(), model: true, coll: c, like: c}
}

// binaryStem reads a binary name: "all_reduce_perf", "./build/alltoall_perf_mpi".
func binaryStem(s string) (string, bool) {
	stems := binaryStems(s)
	if len(stems) != 1 {
		return "", false
	}
	return stems[0], true
}

// binaryStems returns the distinct nccl-tests binaries s names, by stem.
func binaryStems(s string) []string {
	var out []string
	for rest := s; ; {
		i := strings.Index(rest, "_perf")
		if i < 0 {
			return out
		}
		j := i
		for j > 0 && (rest[j-1] >= 'a' && rest[j-1] <= 'z' || rest[j-1] == '_') {
			j--
		}
		end := i + len("_perf")
		if end == len(rest) || !isWordByte(rest[end]) || strings.HasPrefix(rest[end:], "_mpi") {
			if _, ok := opByStem(rest[j:i]); ok {
				addUnique(&out, rest[j:i])
			}
		}
		rest = rest[end:]
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
