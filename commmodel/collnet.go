package commmodel

import "math"

// CollNetDirect is NCCL's CollNet Direct AllReduce (NCCL 2.30.7,
// src/device/all_reduce.h, RunWorkColl for NCCL_ALGO_COLLNET_DIRECT), in
// which the network's switch reduces across nodes (SHARP) on N nodes of p =
// PerNode GPUs, each GPU a head with its own NIC. Every GPU scatters slice h
// of S/p straight to GPU h of its node, which reduces the p copies; GPU h
// AllReduces the slice through the network's switch with GPU h of the other
// nodes (SwitchAllReduceCost); and it sends the result straight to the p-1
// others. Inside the node these are the two steps of two-shot, with the
// switch in between:
//
//	steps = 3, bytes = 2(p-1)/p·S + S/p, network bytes = S/p
//	reduced = (p-1)/p·S, peers = (p-1) + 1 (the switch), fanout = p-1
//
// NCCL's tuning model charges it 2(intraLat + (p-1)·0.4 us) + interLat
// (src/graph/tuning.cc): the two steps inside the node, serialised over the
// p-1 peers (what Link.Overhead charges per message), and one network
// latency. NCCL uses as many heads as the node has NICs; here every GPU is
// one. On one node (NCCL needs two) it is two-shot.
type CollNetDirect struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
}

func (CollNetDirect) Name() string           { return "collnet-direct" }
func (CollNetDirect) Collective() Collective { return AllReduce }

// Cost returns CollNet Direct's cost for p ranks (N = p/PerNode nodes) and S
// = size bytes on one Link. Its bytes are NaN if p is not a multiple of
// PerNode.
func (d CollNetDirect) Cost(p int, size float64) Cost {
	mustRanks(p)
	nodes, ok := splitRanks(p, d.PerNode)
	if !ok {
		return Cost{Bytes: math.NaN()}
	}
	scatter, net, gather := d.phases(nodes, d.PerNode, size)
	c := scatter.Then(net).Then(gather)
	c.Peers = scatter.Peers + net.Peers
	return c
}

func (d CollNetDirect) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	nodes, ok := splitRanks(p, d.PerNode)
	if !ok {
		return 0, 0, math.NaN(), 0, 0
	}
	slice := divide(checkSize(size), d.PerNode)
	st, m, b, r := splitTerms(d.PerNode-1, slice, 1, true) // scatter; the gather reduces nothing
	ns, nb := switchTerms(nodes, slice)
	// The sum of phases (as Then), in scalars: each phase's path is its bytes.
	bytes = b + nb + b
	return st + ns + st, m + ns + m, bytes, bytes, r
}

// Stages returns the scatter to the heads inside each node, the network's
// AllReduce of every slice, and the heads' gather. (PerNode is ignored;
// perNode is the cluster's.)
func (d CollNetDirect) Stages(nodes, perNode int, size float64) []Stage {
	scatter, net, gather := d.phases(nodes, perNode, size)
	return []Stage{{Intra: scatter}, {Inter: net}, {Intra: gather}}
}

func (d CollNetDirect) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	slice := divide(checkSize(size), perNode)
	st, m, b, r := splitTerms(perNode-1, slice, 1, true)
	ns, nb := switchTerms(nodes, slice)
	return intra.elapsed(st, m, b, 0, r) + inter.elapsed(ns, ns, nb, 0, 0) + intra.elapsed(st, m, b, 0, 0)
}

// phases are the two halves of two-shot among the node's GPUs around the
// network switch's AllReduce of each S/p slice.
func (CollNetDirect) phases(nodes, perNode int, size float64) (scatter, net, gather Cost) {
	size = checkSize(size)
	node := splitByDestination(1, perNode, size/float64(perNode), 1, true)
	scatter = node.Intra
	gather = node.Intra
	gather.Reduced = 0
	return scatter, SwitchAllReduceCost(nodes, size/float64(perNode)), gather
}

// CollNetChain is NCCL's CollNet Chain AllReduce (NCCL 2.30.7,
// src/device/all_reduce.h, RunWorkColl for NCCL_ALGO_COLLNET_CHAIN;
// src/graph/connect.cc, whose chain's first GPU has the network for its
// parent): on N nodes of p = PerNode GPUs, the GPUs of a node form a chain
// whose head, GPU 0, reduces the node's sum up the chain, AllReduces it
// through the network's switch with the other heads (SHARP), and broadcasts
// the result back down the chain.
//
// Pipelined in C = Chunks chunks of S/C, GPU i >= 1 sends chunk c up in step
// p-1-i+c, the head sends it to the switch in step p-1+c and down in step
// s+c, s = p-1+[N >= 2], and GPU i forwards it down in step s+i+c:
//
//	steps = 2(p-1) + [N >= 2] + C - 1
//	bytes = max(2S·[p >= 3], S·[p >= 2] + S·[N >= 2]), network bytes = S
//	reduced = S·[p >= 2] (the switch reduces across nodes), peers = 2
//
// the latency of NCCL's tuning model, 2(p-1)·intraLat + interLat
// (src/graph/tuning.cc), plus the pipeline's C-1 steps; like Tree, the
// time sums each step's busiest rank (pipeline.go, swept once per shape:
// profile.go). With Chunks = 0 it is
// the fluid limit: the first chunk's steps pay α and the data streams
// behind at the busiest rank's pace.
type CollNetChain struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
	// Chunks is the number of chunks the buffer is pipelined in, C; 0 means
	// the fluid limit.
	Chunks int
}

func (CollNetChain) Name() string           { return "collnet-chain" }
func (CollNetChain) Collective() Collective { return AllReduce }

// chainSteps returns the steps of the first chunk's trip (2(p-1) along the
// chain, one through the network's switch) and the step in which the head
// sends it down.
func chainSteps(nodes, perNode int) (fill, down int) {
	net := min(nodes-1, 1)
	return 2*(perNode-1) + net, perNode - 1 + net
}

// chainBytes returns the busiest GPU's bytes inside the node, across the
// network, and over both, and the busiest reducer's.
func chainBytes(nodes, perNode int, size float64) (intra, inter, all, reduced float64) {
	switch {
	case perNode >= 3:
		intra = 2 * size
	case perNode == 2:
		intra = size
	}
	head := 0.0
	if perNode >= 2 {
		head, reduced = size, size // down the chain; from GPU 1
	}
	if nodes >= 2 {
		inter = size
		head += size
	}
	return intra, inter, max(intra, head), reduced
}

// Cost returns CollNet Chain's cost for p ranks (N = p/PerNode nodes) and S
// = size bytes on one Link. Its bytes are NaN if p is not a multiple of
// PerNode.
func (d CollNetChain) Cost(p int, size float64) Cost {
	c := costOf(d.terms(p, size))
	if nodes, ok := splitRanks(p, d.PerNode); ok && p > 1 {
		c.Peers = max(min(d.PerNode-1, 2), min(d.PerNode-1, 1)+min(nodes-1, 1)) // a chain GPU's two neighbours; the head's GPU 1 and switch
		c.Fanout = c.Peers
		if d.Chunks >= 1 {
			_, _, c.Fanout = chainPath(nodes, d.PerNode, d.Chunks)
		}
	}
	return c
}

func (d CollNetChain) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	nodes, ok := splitRanks(p, d.PerNode)
	if !ok {
		return 0, 0, math.NaN(), 0, 0
	}
	size = checkSize(size)
	if p == 1 {
		return 0, 0, 0 * size, 0, 0 * size
	}
	_, _, bytes, reduced = chainBytes(nodes, d.PerNode, size)
	fill, _ := chainSteps(nodes, d.PerNode)
	if d.Chunks < 1 {
		return fill, fill, bytes, 0, reduced
	}
	steps, messages, pathBytes = pipeShape{chainPipe, nodes, d.PerNode, d.Chunks}.terms(bytes, size)
	return steps, messages, bytes, pathBytes, reduced
}

// chainPath returns the steps of the chunked chain on nodes x perNode >= 2
// ranks, the chunks (and messages) of every step's busiest GPU summed over
// the steps, and the most of them in one step, in closed form: what the
// sweep of chainWindows finds (TestProfileIsSweep).
//
// The windows start in consecutive steps (the chain's GPUs up, the head to
// the switch, the GPUs down), so each of the T = fill-1+C steps has a GPU
// that sends one chunk; a step has one that sends two where a GPU's two
// windows overlap. GPU i (1 <= i <= p-2) sends up from p-1-i and down from
// s+i, s = p-1+[N >= 2], C steps each: both in the C-[N >= 2]-2i steps
// from s+i on; the head, if N >= 2, to the switch from p-1 and down from
// s: both in C-1 steps, the formula at i = 0. Each GPU's overlap lies
// within that of the GPU before it (it starts later and ends earlier), so
// the first GPU with two windows, i0, has them all:
//
//	chunks = T + max(0, C - [N >= 2] - 2·i0)
//
// with i0 = 0 if N >= 2 and p >= 2, 1 if N = 1 and p >= 3, and no overlap
// otherwise; the fanout is 2 where there is an overlap, 1 where not.
func chainPath(nodes, perNode, chunks int) (steps, path, fanout int) {
	fill, down := chainSteps(nodes, perNode)
	steps, fanout = fill-1+chunks, 1
	first := down - (perNode - 1) // the head's offset, [N >= 2]
	switch {
	case nodes > 1 && perNode > 1: // the head
	case perNode > 2: // GPU 1
		first += 2
	default:
		return steps, steps, fanout
	}
	if overlap := chunks - first; overlap > 0 {
		return steps, steps + overlap, 2
	}
	return steps, steps, fanout
}

// chainWindows adds to q the windows of one node's chain (the nodes run
// alike): one chunk per step up, through the switch (peer -1) and down.
func chainWindows(nodes, perNode int, q *pipeline) {
	_, down := chainSteps(nodes, perNode)
	for i := 1; i < perNode; i++ {
		var s sender
		s.send(perNode-1-i, 1, i-1, false)
		if i < perNode-1 {
			s.receive(perNode-2-i, 1, false)
			s.send(down+i, 1, i+1, false)
		}
		q.add(&s)
	}
	var s sender
	if perNode > 1 {
		s.receive(perNode-2, 1, false)
		s.send(down, 1, 1, false)
	}
	if nodes > 1 {
		s.send(perNode-1, 1, -1, true)
	}
	q.add(&s)
}

// Stages returns the chain's steps on nodes x perNode ranks, each level's
// part on its own link. (PerNode is ignored; perNode is the cluster's.)
// Chunked, as Tree's; in the fluid limit the first chunk's 2(p-1) steps
// along the chain pay the intra-node α and its step through the switch the
// network's, and the data then streams at the pace of the slower level:
//
//	T = 2(p-1)·α_intra + α_inter + max(intra bytes/BW_intra, S/BW_inter)
func (d CollNetChain) Stages(nodes, perNode int, size float64) []Stage {
	return pipeShape{chainPipe, nodes, perNode, d.Chunks}.stages(size, min(perNode-1, 2), min(nodes-1, 1))
}

func (d CollNetChain) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	return pipeShape{chainPipe, nodes, perNode, d.Chunks}.timeFrom(0, size, intra, inter)
}
