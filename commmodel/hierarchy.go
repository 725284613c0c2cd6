package commmodel

import "math"

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
	if c.Nodes < 1 || c.PerNode < 1 {
		panic("commmodel: cluster needs at least one node of one rank")
	}
	if l, ok := a.(Leveled); ok {
		return l.Stages(c.Nodes, c.PerNode, size)
	}
	return flatStages(c.Nodes, c.PerNode, a.Cost(c.Ranks(), size))
}

// Time returns how long a takes on c for S = size bytes, in seconds: the sum
// of its stages' times.
func (c Cluster) Time(a Algorithm, size float64) float64 {
	t := 0.0
	for _, s := range c.Stages(a, size) {
		t += s.Time(c.Intra, c.Inter)
	}
	return t
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

// splitByDestination is the stage of a one-step algorithm in which every rank
// sends perPeer bytes to each other rank at once (direct AllToAll, one-shot,
// each step of two-shot).
func splitByDestination(nodes, perNode int, perPeer float64, steps int, reduce bool) Stage {
	local, remote := perNode-1, (nodes-1)*perNode
	part := func(peers int) Cost {
		if peers == 0 {
			return Cost{}
		}
		c := Cost{Steps: steps, Bytes: float64(peers) * perPeer, Peers: peers, Fanout: peers, Messages: steps * peers}
		if reduce {
			c.Reduced = c.Bytes
		}
		return c
	}
	return Stage{Intra: part(local), Inter: part(remote)}
}

// Stages of the flat algorithms on nodes x perNode ranks.

func (r Ring) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, r.Cost(nodes*perNode, size))
}

func (r RingReduceScatter) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, r.Cost(nodes*perNode, size))
}

func (r RingAllGather) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, r.Cost(nodes*perNode, size))
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
	size = checkSize(size)
	c := max(b.Chunks, 1)
	steps := p - 2 + c
	// Boundary k (rank k·p-1 to k·p) sends in steps k·p-1 .. k·p+c-2.
	inter := 0
	for k, last := 1, -1; k < nodes; k++ {
		first := max(k*perNode-1, last+1)
		end := k*perNode + c - 2
		inter += end - first + 1
		last = end
	}
	chunk := size / float64(c)
	part := func(n int) Cost {
		if n == 0 {
			return Cost{}
		}
		path := float64(n) * chunk // a rank sends at most all of S within the part
		return Cost{Steps: n, Bytes: min(size, path), PathBytes: path, Peers: min(2, p-1), Fanout: 1, Messages: n}
	}
	return []Stage{{Intra: part(steps - inter)}, {Inter: part(inter)}}
}

func (b Bruck) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, b.Cost(nodes*perNode, size))
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
	if !isPow2(nodes) || !isPow2(perNode) || nodes == 1 || perNode == 1 {
		return flatStages(nodes, perNode, h.Cost(nodes*perNode, size))
	}
	size = checkSize(size)
	half := func(ranks int, s float64) Cost { // one sweep over log2 ranks distances
		c := HalvingDoubling{}.Cost(ranks, s)
		return Cost{Steps: c.Steps / 2, Bytes: c.Bytes / 2, Peers: c.Peers, Fanout: 1, Messages: c.Messages / 2}
	}
	rs := half(perNode, size)
	rs.Reduced = rs.Bytes
	inner := HalvingDoubling{}.Cost(nodes, size/float64(perNode))
	return []Stage{{Intra: rs}, {Inter: inner}, {Intra: half(perNode, size)}}
}

func (TwoShot) Stages(nodes, perNode int, size float64) []Stage {
	perPeer := checkSize(size) / float64(nodes*perNode)
	pull := splitByDestination(nodes, perNode, perPeer, 1, true)
	push := splitByDestination(nodes, perNode, perPeer, 1, false)
	return []Stage{pull, push}
}

func (OneShot) Stages(nodes, perNode int, size float64) []Stage {
	return []Stage{splitByDestination(nodes, perNode, checkSize(size), 1, true)}
}

func (Direct) Stages(nodes, perNode int, size float64) []Stage {
	return []Stage{splitByDestination(nodes, perNode, checkSize(size)/float64(nodes*perNode), 1, false)}
}

// Stages of pairwise AllToAll: with the XOR rule (N and p powers of two) the
// rounds t < p pair ranks of one node and the rounds t >= p cross the network;
// with the i+t rule every round has ranks whose partner is on another node.
func (w Pairwise) Stages(nodes, perNode int, size float64) []Stage {
	p := nodes * perNode
	if !isPow2(p) || nodes == 1 || perNode == 1 {
		return flatStages(nodes, perNode, w.Cost(p, size))
	}
	block := checkSize(size) / float64(p)
	rounds := func(t int) Cost {
		return Cost{Steps: t, Bytes: float64(t) * block, Peers: t, Fanout: 1, Messages: t}
	}
	return []Stage{{Intra: rounds(perNode - 1)}, {Inter: rounds(p - perNode)}}
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
	if !ok || h.inter().Collective() != AllReduce {
		return 0, 0, math.NaN(), 0, 0
	}
	s1, m1, b1, _, r1 := RingReduceScatter{}.terms(h.PerNode, size)
	s2, m2, b2, p2, r2 := termsOf(h.inter(), nodes, checkSize(size)/float64(h.PerNode))
	s3, m3, b3, _, _ := RingAllGather{}.terms(h.PerNode, size)
	return s1 + s2 + s3, m1 + m2 + m3, b1 + b2 + b3, b1 + max(b2, p2) + b3, r1 + r2
}

// termsOf returns a's time terms, through Cost if a is not built in.
func termsOf(a Algorithm, p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	if t, ok := a.(termed); ok {
		return t.terms(p, size)
	}
	c := a.Cost(p, size)
	return c.Steps, c.Messages, c.Bytes, c.PathBytes, c.Reduced
}

// Stages returns the intra-node reduce-scatter, the inter-node AllReduce of
// the S/p slice and the intra-node all-gather. (PerNode is ignored; perNode
// is the cluster's.)
func (h HierarchicalAllReduce) Stages(nodes, perNode int, size float64) []Stage {
	rs, inner, ag := h.phases(nodes, perNode, size)
	return []Stage{{Intra: rs}, {Inter: inner}, {Intra: ag}}
}

func (h HierarchicalAllReduce) phases(nodes, perNode int, size float64) (rs, inner, ag Cost) {
	return RingReduceScatter{}.Cost(perNode, size),
		h.inter().Cost(nodes, checkSize(size)/float64(perNode)),
		RingAllGather{}.Cost(perNode, size)
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }
