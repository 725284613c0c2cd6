package commmodel

import "math"

// NVLS is NCCL's NVLink SHARP AllReduce, in which the NVSwitch does the
// reduction (Hopper and later; NCCL 2.30.7 src/device/all_reduce.h,
// RunWorkColl for NCCL_ALGO_NVLS). On a node of p GPUs, GPU h owns slice h
// of S/p. It loads its slice with multimem.ld_reduce, which the switch
// answers with the sum over the p GPUs, reading every GPU's copy of the
// slice over that GPU's link; then it stores the sum with multimem.st, which
// the switch writes into all p GPUs. In the load every GPU's whole buffer
// leaves it once (each of its p slices for its owner), in the store one
// slice, so a GPU sends
//
//	steps = 2, bytes = S + S/p, reduced = 0 (the switch reduces), peers = 1 (the switch)
//
// against ring's 2(p-1)/p·S: 1.125·S against 1.75·S on 8 GPUs. What a GPU
// receives, S/p and then S, comes from the switch over the other direction
// of the same link, and in NCCL's pipelined kernel the loads of one chunk
// overlap the stores of the one before, so a GPU's egress sets the pace as
// for every algorithm here. The copies between the user's buffers and the
// multicast buffer (the kernel's scatter and gather) stay inside a GPU and
// are not counted. Because the switch reduces and replicates, NVLS sends
// less than the point-to-point lower bound (LowerBound).
//
// Across nodes (PerNode = p < P) NCCL runs NVLS with the network switch
// reducing too (CollNet, SHARP): between the load and the store GPU h of
// every node AllReduces its slice through the network switch, sending it
// once and receiving the sum (SwitchAllReduceCost):
//
//	steps = 3, bytes = S + 2S/p, network bytes = S/p, peers = 2 (the two switches)
type NVLS struct {
	// PerNode is the number of GPUs per node, p, each node one NVLink
	// domain; P must be a multiple of it. 0 means one node of P GPUs.
	PerNode int
}

func (NVLS) Name() string           { return "nvls" }
func (NVLS) Collective() Collective { return AllReduce }

// Cost returns NVLS's cost for p ranks and S = size bytes on one Link. Its
// bytes are NaN if p is not a multiple of PerNode.
func (v NVLS) Cost(p int, size float64) Cost {
	c := costOf(v.terms(p, size))
	if per, nodes, ok := v.shape(p); ok {
		c.Peers = min(per-1, 1) + min(nodes-1, 1) // the NVSwitch, the network's switch
		c.Fanout = min(c.Peers, 1)
	}
	return c
}

// shape returns the GPUs per node and the nodes of p ranks, and false if
// they do not fit.
func (v NVLS) shape(p int) (perNode, nodes int, ok bool) {
	perNode = v.PerNode
	if perNode == 0 {
		perNode = p
	}
	nodes, ok = splitRanks(p, perNode)
	return perNode, nodes, ok
}

func (v NVLS) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	per, nodes, ok := v.shape(p)
	if !ok {
		return 0, 0, math.NaN(), 0, 0
	}
	size = checkSize(size)
	slice := divide(size, per)
	load, store := nvlsBytes(per, size, slice)
	steps, net := switchTerms(nodes, slice)
	steps += 2 * min(per-1, 1)
	// The sum of load, SwitchAllReduceCost and store (as Then), in scalars:
	// each phase's path is its bytes. The leading 0 gives a size of -0 the
	// bytes +0, as Cost has always had them.
	bytes = 0 + load + net + store
	return steps, steps, bytes, bytes, 0
}

// Stages returns the load-reduce inside each node, the network AllReduce of
// every slice across the nodes (when there are several), and the multicast
// store. (PerNode is ignored; perNode is the cluster's.)
func (NVLS) Stages(nodes, perNode int, size float64) []Stage {
	load, store := nvlsPhases(perNode, checkSize(size))
	slice := divide(checkSize(size), perNode)
	out := make([]Stage, 0, 3)
	if perNode > 1 {
		out = append(out, Stage{Intra: load})
	}
	if nodes > 1 {
		out = append(out, Stage{Inter: SwitchAllReduceCost(nodes, slice)})
	}
	if perNode > 1 {
		out = append(out, Stage{Intra: store})
	}
	if len(out) == 0 {
		out = append(out, Stage{Intra: Cost{Bytes: 0 * size}})
	}
	return out
}

func (NVLS) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	size = checkSize(size)
	if nodes*perNode == 1 {
		return intra.elapsed(0, 0, 0*size, 0, 0) // the one stage, of no traffic
	}
	t, store := nvlsTimes(perNode, size, intra)
	if nodes > 1 {
		t += oneStep(divide(size, perNode), inter) // SwitchAllReduceCost of the slice
	}
	return t + store
}

// nvlsTimes returns the times of nvlsPhases on the Valid link intra, for
// S = size bytes, a checked size: 0 each where there is no step.
func nvlsTimes(p int, size float64, intra Link) (load, store float64) {
	if p < 2 {
		return 0, 0
	}
	return oneStep(size, intra), oneStep(size/float64(p), intra) // nvlsBytes
}

// oneStep is the time of one step of one message of bytes, a checked
// size, on the Valid link l: l.elapsed(1, 1, bytes, 0, 0) to the bit,
// without the terms that are 0 (a -0 among them, which α + o absorbs).
func oneStep(bytes float64, l Link) float64 { return l.Alpha + l.Overhead + bytes/l.BW }

// nvlsPhases returns NVLS's two steps on a node of p GPUs: the load-reduce,
// in which a GPU's whole buffer goes to the switch, and the multicast store
// of its S/p slice. Both are zero for p = 1.
func nvlsPhases(p int, size float64) (load, store Cost) {
	lb, sb := nvlsBytes(p, size, size/float64(p))
	if p < 2 {
		return Cost{Bytes: lb}, Cost{Bytes: sb}
	}
	load = Cost{Steps: 1, Bytes: lb, Peers: 1, Fanout: 1, Messages: 1}
	store = Cost{Steps: 1, Bytes: sb, Peers: 1, Fanout: 1, Messages: 1}
	return load, store
}

// nvlsBytes returns the bytes of nvlsPhases, one step each for p >= 2,
// given the slice S/p.
func nvlsBytes(p int, size, slice float64) (load, store float64) {
	if p < 2 {
		return 0 * size, 0 * size
	}
	return size, slice
}

// SwitchAllReduceCost is the cost of an AllReduce of size bytes among
// members ranks done by a switch that reduces in the network (SHARP, as
// NCCL's CollNet uses it; NCCL 2.30.7 src/device/all_reduce.h, the
// collnet "send to network" and "recv from network" of each head): every
// member sends its data once and receives the sum, in one step, reducing
// nothing itself.
//
//	steps = 1, bytes = S, reduced = 0, peers = 1 (the switch)
//
// It is the zero Cost for a single member.
func SwitchAllReduceCost(members int, size float64) Cost {
	steps, bytes := switchTerms(members, size)
	if steps == 0 {
		return Cost{Bytes: bytes}
	}
	return Cost{Steps: 1, Bytes: bytes, Peers: 1, Fanout: 1, Messages: 1}
}

// switchTerms returns the steps (and messages) and bytes of
// SwitchAllReduceCost.
func switchTerms(members int, size float64) (steps int, bytes float64) {
	mustRanks(members)
	if members == 1 {
		return 0, 0 * checkSize(size)
	}
	return 1, checkSize(size)
}

// NVLSTree is NCCL's NVLSTree AllReduce (NCCL 2.30.7 src/device/all_reduce.h,
// RunWorkColl for NCCL_ALGO_NVLS_TREE; src/graph/connect.cc, the NVLS trees):
// NVLS inside each of N nodes of p = PerNode GPUs, and between the nodes
// NCCL's double binary tree among the GPUs that own the same slice, one tree
// per slice. GPU h of a node loads the node's sum of slice h from the switch,
// AllReduces it with GPU h of the other nodes over the trees (Tree with one
// GPU per node, on S/p, pipelined in Chunks or fluid), and stores the result
// through the switch:
//
//	steps = 2 + 2⌈log2 N⌉ (+ C-1)
//	bytes = S + S/p + min(N, 4)·S/(2p), network bytes = min(N, 4)·S/(2p)
//	reduced = min(N-1, 2)·S/(2p), peers = 1 + the tree's
//
// NCCL's tuning model charges it intraLat + 2·log2 N·interLat
// (src/graph/tuning.cc): the NVLS operations as one latency, the tree's
// 2 log2 N network hops. On one node it is NVLS (NCCL disables it there).
type NVLSTree struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
	// Chunks is the number of chunks each half of a slice is pipelined in
	// across the nodes, C; 0 means the fluid limit (see Tree).
	Chunks int
}

func (NVLSTree) Name() string           { return "nvlstree" }
func (NVLSTree) Collective() Collective { return AllReduce }

func (v NVLSTree) tree() Tree { return Tree{PerNode: 1, Chunks: v.Chunks} }

// Cost returns NVLSTree's cost for p ranks (N = p/PerNode nodes) and S =
// size bytes on one Link. Its bytes are NaN if p is not a multiple of
// PerNode.
func (v NVLSTree) Cost(p int, size float64) Cost {
	mustRanks(p)
	nodes, ok := splitRanks(p, v.PerNode)
	if !ok {
		return Cost{Bytes: math.NaN()}
	}
	load, store := nvlsPhases(v.PerNode, checkSize(size))
	tree := v.tree().Cost(nodes, checkSize(size)/float64(v.PerNode))
	c := load.Then(tree).Then(store)
	c.Peers = min(load.Peers, 1) + tree.Peers
	return c
}

func (v NVLSTree) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	nodes, ok := splitRanks(p, v.PerNode)
	if !ok {
		return 0, 0, math.NaN(), 0, 0
	}
	size = checkSize(size)
	slice := divide(size, v.PerNode)
	load, store := nvlsBytes(v.PerNode, size, slice)
	if v.Chunks < 1 && nodes > 1 {
		// The fluid tree (Tree.termsOn) inline, one call fewer.
		_, _, bytes, reduced = treeBytes(nodes, 1, slice)
		steps = 2 * treeHeight(nodes)
		messages = steps
	} else {
		steps, messages, bytes, pathBytes, reduced = v.tree().termsOn(nodes, 1, slice)
	}
	// The sum of load, the tree and store, in scalars, from 0 as NVLS.terms.
	nvls := 2 * min(v.PerNode-1, 1)
	tree := bytes // Cost.Path
	if pathBytes > bytes {
		tree = pathBytes
	}
	return steps + nvls, messages + nvls, 0 + load + bytes + store, 0 + load + tree + store, reduced
}

// Stages returns the load-reduce inside each node, the tree's stages across
// the nodes on each slice (every GPU runs its slice's tree at once), and the
// multicast store. (PerNode is ignored; perNode is the cluster's.)
func (v NVLSTree) Stages(nodes, perNode int, size float64) []Stage {
	load, store := nvlsPhases(perNode, checkSize(size))
	tree := v.tree().Stages(nodes, 1, checkSize(size)/float64(perNode))
	out := make([]Stage, 0, len(tree)+2)
	if perNode > 1 {
		out = append(out, Stage{Intra: load})
	}
	out = append(out, tree...)
	if perNode > 1 {
		out = append(out, Stage{Intra: store})
	}
	return out
}

func (v NVLSTree) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	size = checkSize(size)
	load, store := nvlsTimes(perNode, size, intra)
	return pipeShape{treePipe, nodes, 1, v.Chunks}.timeFrom(load, divide(size, perNode), intra, inter) + store
}
