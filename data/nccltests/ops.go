package nccltests

import (
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
)

// An op is an nccl-tests operation and what its table looks like.
type op struct {
	stem    string               // binary name without "_perf"
	model   bool                 // the operation is the collective bus, one commlab models
	bus     commmodel.Collective // the collective whose busbw/algbw factor nccl-tests applies (BusFactor)
	reduces bool                 // the redop column names a reduction, not "none"
	rooted  bool                 // root >= 0
	perRank bool                 // count is per rank: size = count · type size · ranks
	// unchecked: the in-place #wrong column prints "N/A" while the
	// out-of-place one prints a count (the test does not check in-place
	// results).
	unchecked bool
	// Before 2022: noRedop, the test printed no redop column; blankRedop,
	// it printed one and left it blank in its rows.
	noRedop, blankRedop bool
	infer               bool // considered when the log does not name its binary
}

// ops lists nccl-tests' operations, the collectives commlab models first in
// commmodel's order (AllReduce, ReduceScatter, AllGather, Broadcast,
// AllToAll, SendRecv). Bus factors and per-rank counts follow nccl-tests' src/*.cu
// (GetBw and GetCollByteCount of each test); the redop and root columns
// follow the operation and root each test's RunTest hands TimeTest.
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
//
// alltoall and sendrecv check only their out-of-place results: their
// initData sets reportErrors = in_place ? 0 : 1 (nccl-tests src/alltoall.cu
// since the test's first commit, 119a0ec of 2020; src/sendrecv.cu since
// 9dae3d3 of 2021), and writeBenchmarkLineBody (src/util.cu, src/common.cu
// before 2025) prints "N/A" for a half that reports no errors. rccl-tests
// prints alike. With -c 0 (no data check) every half prints "N/A", which
// tells nothing.
var ops = []op{
	{stem: "all_reduce", model: true, bus: commmodel.AllReduce, reduces: true, infer: true},
	{stem: "reduce_scatter", model: true, bus: commmodel.ReduceScatter, reduces: true, perRank: true, infer: true},
	{stem: "all_gather", model: true, bus: commmodel.AllGather, perRank: true, infer: true, noRedop: true},
	{stem: "broadcast", model: true, bus: commmodel.Broadcast, rooted: true, infer: true, noRedop: true},
	{stem: "alltoall", model: true, bus: commmodel.AllToAll, perRank: true, unchecked: true, infer: true, blankRedop: true},
	{stem: "sendrecv", model: true, bus: commmodel.SendRecv, reduces: true, unchecked: true, infer: true, noRedop: true},
	{stem: "reduce", bus: commmodel.Broadcast, reduces: true, rooted: true, infer: true},
	{stem: "gather", bus: commmodel.AllGather, rooted: true, perRank: true},
	{stem: "scatter", bus: commmodel.AllGather, rooted: true, perRank: true},
	{stem: "hypercube", bus: commmodel.AllGather, perRank: true},
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

// opOf returns the op of a collective commlab models.
func opOf(c commmodel.Collective) op {
	i := slices.IndexFunc(ops, func(o op) bool { return o.model && o.bus == c })
	return ops[i]
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
