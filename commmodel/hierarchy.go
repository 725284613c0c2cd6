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

// Leveled is implemented by algorithms defined outside this package that
// know how their traffic splits between the intra-node link and the network
// on nodes x perNode ranks, numbered node by node. The algorithms of this
// package split by their own definition; any other algorithm is treated as
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

// Stages returns a's stages for S = size bytes on c: its own split for the
// algorithms of this package and those that are Leveled, otherwise one
// stage whose every step crosses the network (and, with more than one rank
// per node, NVLink too). An algorithm's own node size (PerNode) is ignored:
// the cluster's is used. It panics if c has fewer than one node or rank per
// node.
func (c Cluster) Stages(a Algorithm, size float64) []Stage {
	mustShape(c.Nodes, c.PerNode)
	switch a := a.(type) {
	case planner:
		s, scale := stagesOf(a, c.Nodes, c.PerNode, size)
		out := make([]Stage, len(s.list))
		for i, x := range s.list {
			out[i] = scaledStage(x, scale)
		}
		return out
	case Leveled:
		return a.Stages(c.Nodes, c.PerNode, size)
	}
	var st stages
	st.flat(c.Nodes, c.PerNode, a.Cost(c.Ranks(), size))
	return st.list
}

func mustShape(nodes, perNode int) {
	if nodes < 1 || perNode < 1 {
		panic("commmodel: cluster needs at least one node of one rank")
	}
}

// Time returns how long a takes on c for S = size bytes, in seconds: the sum
// of its stages' times. For the algorithms of this package it allocates
// nothing once the plan of a's shape is built (plan.go).
func (c Cluster) Time(a Algorithm, size float64) float64 {
	mustShape(c.Nodes, c.PerNode)
	if q, ok := a.(planner); ok {
		s, scale := stagesOf(q, c.Nodes, c.PerNode, size)
		if math.IsNaN(scale) {
			return math.NaN()
		}
		return s.time(scale, c.Intra, c.Inter)
	}
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

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// Leaving returns the share of the stage's network traffic that leaves a
// group of group consecutive nodes, on nodes nodes of perNode ranks: the
// traffic a leaf switch of a fat tree sends up to its spine, or a dragonfly
// group over its global links. A rank's remote peers (Inter.Peers) are
// taken as the nearest nodes, half on either side in node order (a ring's
// two neighbours, a tree's parent and children), and traffic as spread
// evenly over them: one neighbour on either side leaves the group from its
// edge nodes only, 1/group of the traffic, and peers on every node leave it
// (nodes − group)/(nodes − 1) of the traffic. It is 0 with no network
// traffic, and for a group that holds every node.
func (s Stage) Leaving(nodes, perNode, group int) float64 {
	if group <= 0 || group >= nodes || perNode < 1 || !(s.Inter.Bytes > 0) {
		return 0
	}
	k := min(max((s.Inter.Peers+perNode-1)/perNode, 1), nodes-1) // peer nodes
	up, down := (k+1)/2, k/2
	out := 0
	for j := range group { // node j of a group starting at node 0
		in := min(up, group-1-j) + min(down, j)
		if w := nodes - j; w <= up { // past the last node, back into the group
			in += min(up, w+group-1) - w + 1
		}
		if w := j + nodes - group + 1; w <= down { // before node 0, back into it
			in += down - w + 1
		}
		out += k - in
	}
	return float64(out) / float64(group*k)
}
