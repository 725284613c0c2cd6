package commmodel

import (
	"math"
	"math/bits"
)

// A Stage is one phase of a collective on a two-level fabric: traffic to ranks
// on the same node uses the intra-node link while traffic to other nodes uses
// the network, and the two proceed at once, so a stage lasts as long as the
// slower of its two parts. Either part may be the zero Cost.
type Stage struct {
	// Intra is the busiest rank's traffic to ranks on its own node.
	Intra Cost
	// Inter is the busiest rank's traffic to ranks on other nodes.
	Inter Cost
}

// Time returns the stage's duration, in seconds:
//
//	T = max(Intra.Time(intra), Inter.Time(inter))
func (s Stage) Time(intra, inter Link) float64 {
	return max(s.Intra.Time(intra), s.Inter.Time(inter))
}

// Leveled is implemented by algorithms that know how their traffic splits
// between the intra-node link and the network on nodes x perNode ranks,
// numbered node by node. Algorithms that do not implement it are treated as
// flat: every step crosses the network (see Cluster.Stages).
type Leveled interface {
	Stages(nodes, perNode int, size float64) []Stage
}

// Cluster is N nodes of p ranks each, with one Link inside a node and
// another between nodes. Ranks are numbered node by node: rank i is GPU
// i mod p of node i / p.
// It is a Timer: Fastest, Crossovers, WinnerChanges and NewRegimeGrid take it
// as they take a Flat link.
type Cluster struct {
	// Nodes is the number of nodes, N.
	Nodes int
	// PerNode is the number of ranks (GPUs) per node, p.
	PerNode int
	// Intra is the link between ranks of one node (NVLink).
	Intra Link
	// Inter is the link between nodes, per rank (RDMA NIC).
	Inter Link
}

// Ranks returns the number of ranks, N·p.
func (c Cluster) Ranks() int { return c.Nodes * c.PerNode }

// Stages returns a's stages for S = size bytes on c: a's own split if it is
// Leveled, otherwise one stage whose every step crosses the network (and,
// with more than one rank per node, NVLink too). It panics if c has fewer
// than one node or rank per node.
func (c Cluster) Stages(a Algorithm, size float64) []Stage {
	mustShape(c.Nodes, c.PerNode)
	if l, ok := a.(Leveled); ok {
		return l.Stages(c.Nodes, c.PerNode, size)
	}
	return flatStages(c.Nodes, c.PerNode, a.Cost(c.Ranks(), size))
}

func mustShape(nodes, perNode int) {
	if nodes < 1 || perNode < 1 {
		panic("commmodel: cluster needs at least one node of one rank")
	}
}

// Time returns how long a takes on c for S = size bytes, in seconds: the sum
// of its stages' times. For the algorithms of this package, and any that is
// not Leveled, it builds no stages and allocates nothing, but that the
// first evaluation of a chunked pipeline's shape (Tree, NVLSTree or
// CollNetChain with Chunks >= 1 on N x p) sweeps its profile and keeps it
// for the next (profile.go); its time then agrees with the stages' sum to
// a few ulps, not to the bit.
func (c Cluster) Time(a Algorithm, size float64) float64 { return clusterTime(a, &c, size) }

// clusterTime is Cluster.Time with the Cluster passed by address: an 80-byte
// struct passed by value is copied through memory, at the cost of several
// evaluations. The fields then travel in registers.
//
// Every case of its switch returns what a call returns, so that nothing need
// outlive a call and the frame holds no copies of the fields; the rest, for
// algorithms not of this package and invalid links, is otherClusterTime's.
func clusterTime(a Algorithm, c *Cluster, size float64) float64 {
	nodes, perNode, intra, inter := c.Nodes, c.PerNode, c.Intra, c.Inter
	mustShape(nodes, perNode)
	if intra.Valid() && inter.Valid() {
		// The algorithms of this package by their concrete types, a few
		// compares, before the interface, a lookup in a cache.
		switch a := a.(type) {
		case Ring:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case RingReduceScatter:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case RingAllGather:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case HalvingDoubling:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case TwoShot:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case OneShot:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case PipelinedBroadcast:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case Direct:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case Pairwise:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case Bruck:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case HierarchicalAllReduce:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case HierarchicalAllToAll:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case Tree:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case NVLS:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case NVLSTree:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case CollNetDirect:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case CollNetChain:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case PATAllGather:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case PATReduceScatter:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		case clusterTimed:
			return a.clusterTime(nodes, perNode, intra, inter, size)
		}
		return otherClusterTime(a, c, size, true)
	}
	return otherClusterTime(a, c, size, false)
}

// otherClusterTime is clusterTime of an algorithm that is not clusterTimed
// on links that are valid, or of any algorithm on links that are not.
func otherClusterTime(a Algorithm, c *Cluster, size float64, valid bool) float64 {
	nodes, perNode, intra, inter := c.Nodes, c.PerNode, c.Intra, c.Inter
	if _, ok := a.(clusterTimed); ok && !valid {
		return math.NaN()
	}
	if l, ok := a.(Leveled); ok {
		t := 0.0
		for _, s := range l.Stages(nodes, perNode, size) {
			t += s.Time(intra, inter)
		}
		return t
	}
	if !valid {
		return math.NaN()
	}
	d := a.Cost(nodes*perNode, size)
	return flatTime(nodes, perNode, intra, inter, d.Steps, d.Messages, d.Bytes, d.PathBytes, d.Reduced)
}

// clusterTimed is implemented by the Leveled algorithms of this package:
// clusterTime is the sum of the times of Stages(nodes, perNode, size) on the
// links intra and inter, which are Valid, computed from the stages' time
// terms without building them. The terms come from the functions Stages
// builds its Costs from, and each layout of stages has its time twin
// (flatStages and flatTime, fluidStages and fluidTime, ...);
// TestClusterTimeIsStages holds the two to the same bits, but for the
// chunked pipelines, timed from their memoized profiles to a few ulps
// (profile.go). Only scalars and Links (32 bytes, which the compiler keeps
// in registers) travel: a Cost or a Cluster passed by value is copied
// through memory, at several times the cost of the arithmetic.
type clusterTimed interface {
	clusterTime(nodes, perNode int, intra, inter Link, size float64) float64
}

// NetworkBytes returns the bytes the busiest rank sends to other nodes when a
// runs on c with S = size bytes.
func (c Cluster) NetworkBytes(a Algorithm, size float64) float64 {
	b := 0.0
	for _, s := range c.Stages(a, size) {
		b += s.Inter.Bytes
	}
	return b
}

// NetworkMessages returns the messages the busiest rank sends to other nodes
// when a runs on c with S = size bytes.
func (c Cluster) NetworkMessages(a Algorithm, size float64) int {
	m := 0
	for _, s := range c.Stages(a, size) {
		m += s.Inter.Messages
	}
	return m
}

// The layouts of stages on a cluster, each with its time twin on Valid links.

// flatStages is the split of an algorithm that treats all ranks alike, such
// as a ring over N·p ranks: every step has some rank whose peer is on another
// node, so every step runs at the pace of the network hop, while ranks whose
// peers are local use NVLink at the same time.
func flatStages(nodes, perNode int, c Cost) []Stage {
	switch {
	case nodes == 1:
		return []Stage{{Intra: c}}
	case perNode == 1:
		return []Stage{{Inter: c}}
	default:
		return []Stage{{Intra: c, Inter: c}}
	}
}

// flatTime is the time of flatStages for a cost of these terms.
func flatTime(nodes, perNode int, intra, inter Link, steps, messages int, bytes, pathBytes, reduced float64) float64 {
	switch {
	case nodes == 1:
		return intra.elapsed(steps, messages, bytes, pathBytes, reduced)
	case perNode == 1:
		return inter.elapsed(steps, messages, bytes, pathBytes, reduced)
	default:
		return max(intra.elapsed(steps, messages, bytes, pathBytes, reduced), inter.elapsed(steps, messages, bytes, pathBytes, reduced))
	}
}

// splitByDestination is the stage of a one-step algorithm in which every rank
// sends perPeer bytes to each other rank at once (direct AllToAll, one-shot,
// each step of two-shot).
func splitByDestination(nodes, perNode int, perPeer float64, steps int, reduce bool) Stage {
	part := func(peers int) Cost {
		st, messages, bytes, reduced := splitTerms(peers, perPeer, steps, reduce)
		return Cost{Steps: st, Bytes: bytes, Reduced: reduced, Peers: peers, Fanout: peers, Messages: messages}
	}
	return Stage{Intra: part(perNode - 1), Inter: part((nodes - 1) * perNode)}
}

// splitTime is the time of splitByDestination.
func splitTime(nodes, perNode int, intra, inter Link, perPeer float64, steps int, reduce bool) float64 {
	s1, m1, b1, r1 := splitTerms(perNode-1, perPeer, steps, reduce)
	s2, m2, b2, r2 := splitTerms((nodes-1)*perNode, perPeer, steps, reduce)
	return max(intra.elapsed(s1, m1, b1, 0, r1), inter.elapsed(s2, m2, b2, 0, r2))
}

// splitTerms are the terms of the part of splitByDestination sent to peers
// ranks: none for none.
func splitTerms(peers int, perPeer float64, steps int, reduce bool) (st, messages int, bytes, reduced float64) {
	if peers == 0 {
		return 0, 0, 0, 0
	}
	bytes = float64(peers) * perPeer
	if reduce {
		reduced = bytes
	}
	return steps, steps * peers, bytes, reduced
}

// Stages of the flat algorithms on nodes x perNode ranks.

func (r Ring) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, r.Cost(nodes*perNode, size))
}

func (r Ring) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	steps, messages, bytes, pathBytes, reduced := r.terms(nodes*perNode, size)
	return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
}

func (r RingReduceScatter) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, r.Cost(nodes*perNode, size))
}

func (r RingReduceScatter) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	steps, messages, bytes, pathBytes, reduced := r.terms(nodes*perNode, size)
	return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
}

func (r RingAllGather) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, r.Cost(nodes*perNode, size))
}

func (r RingAllGather) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	steps, messages, bytes, pathBytes, reduced := r.terms(nodes*perNode, size)
	return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
}

func (b Bruck) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, b.Cost(nodes*perNode, size))
}

func (b Bruck) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	steps, messages, bytes, pathBytes, reduced := b.terms(nodes*perNode, size)
	return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
}

// Stages of the chain broadcast: rank r forwards chunk c in step r+c, so only
// the steps in which a node's last rank forwards to the next node's first
// cross the network: C steps per node boundary, fewer where the windows of
// neighbouring boundaries overlap (C > p). The other steps stay on NVLink.
func (b PipelinedBroadcast) Stages(nodes, perNode int, size float64) []Stage {
	p := nodes * perNode
	if nodes == 1 || p == 1 {
		return flatStages(nodes, perNode, b.Cost(p, size))
	}
	local, remote, chunk, size := b.split(nodes, perNode, size)
	part := func(n int) Cost {
		if n == 0 {
			return Cost{}
		}
		steps, messages, bytes, path := chainTerms(n, chunk, size)
		return Cost{Steps: steps, Bytes: bytes, PathBytes: path, Peers: min(2, p-1), Fanout: 1, Messages: messages}
	}
	return []Stage{{Intra: part(local)}, {Inter: part(remote)}}
}

func (b PipelinedBroadcast) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	p := nodes * perNode
	if nodes == 1 || p == 1 {
		steps, messages, bytes, pathBytes, reduced := b.terms(p, size)
		return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
	}
	local, remote, chunk, size := b.split(nodes, perNode, size)
	s1, m1, b1, p1 := chainTerms(local, chunk, size)
	s2, m2, b2, p2 := chainTerms(remote, chunk, size)
	return intra.elapsed(s1, m1, b1, p1, 0) + inter.elapsed(s2, m2, b2, p2, 0)
}

// split returns how many of the broadcast's steps stay on NVLink and how
// many cross the network on nodes >= 2, the chunk and the checked size.
// Boundary k (rank k·p-1 to k·p) sends in steps k·p-1 .. k·p+C-2, a window
// of C steps, and windows p apart overlap when C > p: the last boundary
// adds C steps and each of the N-2 others min(C, p),
//
//	network steps = C + (N-2)·min(C, p)
func (b PipelinedBroadcast) split(nodes, perNode int, size float64) (local, remote int, chunk, checked float64) {
	c := max(b.Chunks, 1)
	remote = c + (nodes-2)*min(c, perNode)
	checked = checkSize(size)
	return nodes*perNode - 2 + c - remote, remote, checked / float64(c), checked
}

// chainTerms are the terms of n steps of the chain, each of one chunk: a
// rank sends at most all of S within them. None for none.
func chainTerms(n int, chunk, size float64) (steps, messages int, bytes, path float64) {
	if n == 0 {
		return 0, 0, 0, 0
	}
	path = float64(n) * chunk
	return n, n, min(size, path), path
}

// Stages of halving-doubling: when N and p are powers of two, the steps at
// distance 1..p/2 stay inside a node and carry the large chunks (S/2 first),
// the log2 N steps at distance p..P/2 cross the network with chunks of S/(2p)
// and less. Halving-doubling is then hierarchical by itself:
//
//	intra: log2 p steps, (p-1)/p·S;  inter: 2·log2 N steps, 2(N-1)/(N·p)·S;  intra again
//
// Any other shape is treated as flat.
func (h HalvingDoubling) Stages(nodes, perNode int, size float64) []Stage {
	if !hdLeveled(nodes, perNode) {
		return flatStages(nodes, perNode, h.Cost(nodes*perNode, size))
	}
	size = checkSize(size)
	steps, messages, bytes := hdSweep(perNode, size)
	sweep := Cost{Steps: steps, Bytes: bytes, Peers: h.Cost(perNode, 1).Peers, Fanout: 1, Messages: messages}
	rs := sweep
	rs.Reduced = rs.Bytes
	return []Stage{{Intra: rs}, {Inter: h.Cost(nodes, size/float64(perNode))}, {Intra: sweep}}
}

func (h HalvingDoubling) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	if !hdLeveled(nodes, perNode) {
		steps, messages, bytes, pathBytes, reduced := h.terms(nodes*perNode, size)
		return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
	}
	size = checkSize(size)
	s1, m1, b1 := hdSweep(perNode, size)
	s2, b2, r2 := hdCore(bits.Len(uint(nodes))-1, divide(size, perNode)) // h.terms of a power of two
	ag, rs := intra.elapsedTwice(s1, m1, b1, b1)                         // the two sweeps send the same bytes
	return rs + inter.elapsed(s2, s2, b2, 0, r2) + ag
}

// hdLeveled reports whether halving-doubling on nodes x perNode splits into
// levels: N and p powers of two, both above 1.
func hdLeveled(nodes, perNode int) bool {
	return isPow2(nodes) && isPow2(perNode) && nodes > 1 && perNode > 1
}

// hdSweep is one sweep of halving-doubling over a power of two of ranks,
// log2 ranks distances: half its steps, messages and bytes.
func hdSweep(ranks int, size float64) (steps, messages int, bytes float64) {
	steps, bytes, _ = hdCore(bits.Len(uint(ranks))-1, size)
	return steps / 2, steps / 2, bytes / 2
}

// Stages of two-shot: the pull of the slices, reduced, and the push of the
// result, each to every other rank at once.
func (TwoShot) Stages(nodes, perNode int, size float64) []Stage {
	perPeer := divide(checkSize(size), nodes*perNode)
	return []Stage{splitByDestination(nodes, perNode, perPeer, 1, true), splitByDestination(nodes, perNode, perPeer, 1, false)}
}

// clusterTime: the two stages send the same bytes, reduced in the first,
// so each level's bytes/BW is computed once (elapsedTwice).
func (TwoShot) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	perPeer := divide(checkSize(size), nodes*perNode)
	s1, m1, b1, r1 := splitTerms(perNode-1, perPeer, 1, true)
	s2, m2, b2, r2 := splitTerms((nodes-1)*perNode, perPeer, 1, true)
	push1, pull1 := intra.elapsedTwice(s1, m1, b1, r1)
	push2, pull2 := inter.elapsedTwice(s2, m2, b2, r2)
	return max(pull1, pull2) + max(push1, push2)
}

func (OneShot) Stages(nodes, perNode int, size float64) []Stage {
	return []Stage{splitByDestination(nodes, perNode, checkSize(size), 1, true)}
}

func (OneShot) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	return splitTime(nodes, perNode, intra, inter, checkSize(size), 1, true)
}

func (Direct) Stages(nodes, perNode int, size float64) []Stage {
	return []Stage{splitByDestination(nodes, perNode, checkSize(size)/float64(nodes*perNode), 1, false)}
}

func (Direct) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	return splitTime(nodes, perNode, intra, inter, divide(checkSize(size), nodes*perNode), 1, false)
}

// Stages of pairwise AllToAll: with the XOR rule (N and p powers of two) the
// rounds t < p pair ranks of one node and the rounds t >= p cross the network;
// with the i+t rule every round has ranks whose partner is on another node.
func (w Pairwise) Stages(nodes, perNode int, size float64) []Stage {
	p := nodes * perNode
	if !pairwiseLeveled(nodes, perNode) {
		return flatStages(nodes, perNode, w.Cost(p, size))
	}
	block := divide(checkSize(size), p)
	rounds := func(t int) Cost {
		return Cost{Steps: t, Bytes: float64(t) * block, Peers: t, Fanout: 1, Messages: t}
	}
	return []Stage{{Intra: rounds(perNode - 1)}, {Inter: rounds(p - perNode)}}
}

func (w Pairwise) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	p := nodes * perNode
	if !pairwiseLeveled(nodes, perNode) {
		steps, messages, bytes, pathBytes, reduced := w.terms(p, size)
		return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
	}
	block := divide(checkSize(size), p)
	local, remote := perNode-1, p-perNode
	return intra.elapsed(local, local, float64(local)*block, 0, 0) + inter.elapsed(remote, remote, float64(remote)*block, 0, 0)
}

// pairwiseLeveled reports whether pairwise AllToAll on nodes x perNode uses
// the XOR rule and so splits into levels.
func pairwiseLeveled(nodes, perNode int) bool {
	return isPow2(nodes*perNode) && nodes > 1 && perNode > 1
}

// HierarchicalAllReduce is the article's three-step AllReduce over N nodes of
// p = PerNode GPUs: a ring reduce-scatter inside each node leaves every GPU
// with its reduced S/p slice; the same-index GPUs of the N nodes AllReduce
// their slices over the network with the Inter algorithm (ring if nil); a
// ring all-gather inside each node spreads the result.
//
//	T = RS_p(S) on the intra link + Inter_N(S/p) on the network + AG_p(S) on the intra link
//
// The network carries 2(N-1)/N·S/p per GPU where a flat ring over N·p ranks
// sends 2(Np-1)/(Np)·S across it: the ratio (N-1)/(Np-1) is 1/15 for 2 x 8
// and tends to 1/p as N grows (the article's "~1/P_intra").
type HierarchicalAllReduce struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
	// Inter is the AllReduce run between nodes; nil means Ring.
	Inter Algorithm
}

func (HierarchicalAllReduce) Name() string           { return "hierarchical" }
func (HierarchicalAllReduce) Collective() Collective { return AllReduce }

func (h HierarchicalAllReduce) inter() Algorithm {
	if h.Inter == nil {
		return Ring{}
	}
	return h.Inter
}

// Cost returns the three steps' cost on one Link for p ranks (N = p/PerNode
// nodes) and S = size bytes. Its bytes are NaN if p is not a multiple of
// PerNode or Inter is not an AllReduce.
func (h HierarchicalAllReduce) Cost(p int, size float64) Cost {
	nodes, ok := splitRanks(p, h.PerNode)
	c := costOf(h.terms(p, size))
	if ok {
		inner := h.inter().Cost(nodes, 1)
		c.Peers = min(2, h.PerNode-1) + inner.Peers // the all-gather reuses the reduce-scatter's ring
		c.Fanout = max(min(1, h.PerNode-1), inner.Fanout)
	}
	return c
}

func (h HierarchicalAllReduce) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	nodes, ok := splitRanks(p, h.PerNode)
	if !ok {
		return 0, 0, math.NaN(), 0, 0
	}
	s2, m2, b2, p2, r2, allReduce := h.innerTerms(nodes, divide(checkSize(size), h.PerNode))
	if !allReduce {
		return 0, 0, math.NaN(), 0, 0
	}
	s1, m1, b1, _, r1 := RingReduceScatter{}.terms(h.PerNode, size)
	s3, m3, b3, _, _ := RingAllGather{}.terms(h.PerNode, size)
	return s1 + s2 + s3, m1 + m2 + m3, b1 + b2 + b3, b1 + max(b2, p2) + b3, r1 + r2
}

// innerTerms are the terms of Inter over nodes ranks and S = size bytes,
// and whether Inter is an AllReduce. The article's AllReduce algorithms are
// called directly, the default ring inlined; the rest of this package's
// through termed, and one defined elsewhere through its Cost.
func (h HierarchicalAllReduce) innerTerms(nodes int, size float64) (steps, messages int, bytes, pathBytes, reduced float64, allReduce bool) {
	switch in := h.Inter.(type) {
	case nil:
		steps, messages, bytes, pathBytes, reduced = Ring{}.terms(nodes, size)
	case Ring:
		steps, messages, bytes, pathBytes, reduced = in.terms(nodes, size)
	case HalvingDoubling:
		steps, messages, bytes, pathBytes, reduced = in.terms(nodes, size)
	case TwoShot:
		steps, messages, bytes, pathBytes, reduced = in.terms(nodes, size)
	case OneShot:
		steps, messages, bytes, pathBytes, reduced = in.terms(nodes, size)
	case termed: // NCCL's AllReduce algorithms, and the other collectives' (not AllReduces)
		steps, messages, bytes, pathBytes, reduced = in.terms(nodes, size)
		return steps, messages, bytes, pathBytes, reduced, h.Inter.Collective() == AllReduce
	default:
		c := in.Cost(nodes, size)
		return c.Steps, c.Messages, c.Bytes, c.PathBytes, c.Reduced, in.Collective() == AllReduce
	}
	return steps, messages, bytes, pathBytes, reduced, true
}

// Stages returns the intra-node reduce-scatter, the inter-node AllReduce of
// the S/p slice and the intra-node all-gather. (PerNode is ignored; perNode
// is the cluster's.)
func (h HierarchicalAllReduce) Stages(nodes, perNode int, size float64) []Stage {
	rs, inner, ag := h.phases(nodes, perNode, size)
	return []Stage{{Intra: rs}, {Inter: inner}, {Intra: ag}}
}

func (h HierarchicalAllReduce) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	s1, m1, b1, p1, r1 := RingReduceScatter{}.terms(perNode, size)
	s2, m2, b2, p2, r2, _ := h.innerTerms(nodes, divide(checkSize(size), perNode))
	s3, m3, b3, p3, r3 := RingAllGather{}.terms(perNode, size)
	return intra.elapsed(s1, m1, b1, p1, r1) + inter.elapsed(s2, m2, b2, p2, r2) + intra.elapsed(s3, m3, b3, p3, r3)
}

func (h HierarchicalAllReduce) phases(nodes, perNode int, size float64) (rs, inner, ag Cost) {
	return RingReduceScatter{}.Cost(perNode, size),
		h.inter().Cost(nodes, checkSize(size)/float64(perNode)),
		RingAllGather{}.Cost(perNode, size)
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }
