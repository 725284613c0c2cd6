package commmodel

import "math"

// Plans: the one definition of each algorithm.
//
// Every algorithm of this package states its structure once, in its plan
// method: on N nodes of p ranks and for S bytes, its cost when all its
// traffic shares one link (a Cost: the busiest rank's steps, bytes,
// reduction and peers), and the stages it runs on a two-level fabric, each
// with the busiest rank's traffic inside a node and across the network (a
// Stage). The two are separate statements because the busiest rank on one
// link need not be the busiest on either level: a tree's head sends both
// down its chain and across the network. Every other view is derived from
// the plan, the same way for every algorithm:
//
//	Cost(P, S)                the plan's cost on its own layout of P ranks (flatShape)
//	Flat.Time                 that Cost timed on the link (Cost.Time)
//	Cluster.Stages            the plan's stages on N x p
//	Cluster.Time              the sum of the stages' times (Stage.Time)
//	Flat.Line, Cluster.Lines  the Cost and the stages of one byte (linear.go)
//
// Every byte count is proportional to S, so a Cluster's stages are found
// once per algorithm and shape, for one byte, and scaled (stagesOf).
//
// To add an algorithm: one file with its type, its Name and Collective, a
// nodeSize method (its PerNode, or p), a Cost method that returns costOn,
// and a plan method, built from the layouts below (flat for an algorithm
// that treats all ranks alike, splitByDestination for one that sends to
// every peer at once) or from stages of its own; then its schedule in package schedule, whose tests execute it and compare the
// counts and times with the plan's.

// A planner is an algorithm of this package.
type planner interface {
	Algorithm
	// plan returns the algorithm's cost on one link on nodes x perNode
	// ranks for S = size bytes, nodes, perNode >= 1, as its load and its
	// reach, and appends its stages to st if st is not nil.
	plan(nodes, perNode int, size float64, st *stages) (load, reach)
	// nodeSize returns the ranks per node of the algorithm's own layout
	// of p ranks on one link: its PerNode where it has one, else p (one
	// node, all ranks alike).
	nodeSize(p int) int
}

// A load is the part of a Cost that its time depends on: the steps and
// messages, the bytes on the critical path (Cost.Path) and the bytes
// reduced. A reach is the rest: the bytes the busiest rank sends, and its
// peers and fanout. Time needs only the load, which is small enough to be
// passed in registers; Cost assembles both.
type (
	load struct {
		steps, messages int
		path, reduced   float64
	}
	reach struct {
		bytes         float64
		peers, fanout int
	}
)

// costOf assembles a Cost from its load and reach.
func costOf(l load, r reach) Cost {
	return Cost{Steps: l.steps, Messages: l.messages, Bytes: r.bytes, PathBytes: l.path, Reduced: l.reduced, Peers: r.peers, Fanout: r.fanout}
}

// split is the inverse of costOf.
func split(c Cost) (load, reach) {
	return load{c.Steps, c.Messages, c.Path(), c.Reduced}, reach{c.Bytes, c.Peers, c.Fanout}
}

// then is Cost.Then of two loads, and of two reaches.
func (l load) then(m load) load {
	return load{l.steps + m.steps, l.messages + m.messages, l.path + m.path, l.reduced + m.reduced}
}

func (r reach) then(s reach) reach {
	return reach{r.bytes + s.bytes, max(r.peers, s.peers), max(r.fanout, s.fanout)}
}

// time is Cost.Time of the load.
func (l load) time(k Link) float64 {
	if !k.Valid() || l.path < 0 || l.reduced < 0 {
		return math.NaN()
	}
	return float64(l.steps)*k.Alpha + float64(l.messages)*k.Overhead + l.path/k.BW + l.reduced*k.Gamma
}

// stages collects a plan's stages on a two-level fabric, in order.
type stages struct {
	list []Stage
}

// add appends s; a nil st, where no stages are wanted, takes nothing.
func (st *stages) add(s Stage) {
	if st != nil {
		st.list = append(st.list, s)
	}
}

// undefined returns the cost of a shape the algorithm does not fit, and
// appends its one stage: its bytes are NaN, so that every time is NaN.
func undefined(st *stages) (load, reach) {
	st.add(Stage{Intra: Cost{Bytes: math.NaN()}})
	return load{path: math.NaN()}, reach{bytes: math.NaN()}
}

// flat returns l and r, the cost of an algorithm that treats all ranks
// alike, such as a ring over N·p ranks, and appends its one stage: every
// step has some rank whose peer is on another node, so every step runs at
// the pace of the network hop, while ranks whose peers are local use NVLink
// at the same time.
func flat(nodes, perNode int, l load, r reach, st *stages) (load, reach) {
	if st != nil {
		st.flat(nodes, perNode, costOf(l, r))
	}
	return l, r
}

// flat appends the one stage of flat, which see.
func (st *stages) flat(nodes, perNode int, c Cost) {
	switch {
	case nodes == 1:
		st.add(Stage{Intra: c})
	case perNode == 1:
		st.add(Stage{Inter: c})
	default:
		st.add(Stage{Intra: c, Inter: c})
	}
}

// splitByDestination is the stage of a one-step algorithm in which every
// rank sends perPeer bytes to each other rank at once (direct AllToAll,
// one-shot, each step of two-shot), reducing what it receives if reduce is
// set: its peers on the node over NVLink, the others over the network.
func splitByDestination(nodes, perNode int, perPeer float64, reduce bool) Stage {
	return Stage{Intra: costOf(toPeers(perNode-1, perPeer, reduce)), Inter: costOf(toPeers((nodes-1)*perNode, perPeer, reduce))}
}

// toPeers is one step in which a rank sends perPeer bytes to each of peers
// ranks at once: none for none.
func toPeers(peers int, perPeer float64, reduce bool) (load, reach) {
	if peers == 0 {
		return load{}, reach{}
	}
	b := float64(peers) * perPeer
	l := load{1, peers, b, 0}
	if reduce {
		l.reduced = b
	}
	return l, reach{b, peers, peers}
}

// flatShape returns the nodes and ranks per node a runs on when its p
// ranks share one link: p/nodeSize nodes of nodeSize. ok is false if p is
// not a multiple of the node size.
func flatShape(a planner, p int) (nodes, perNode int, ok bool) {
	mustRanks(p)
	perNode = a.nodeSize(p)
	nodes, ok = splitRanks(p, perNode)
	return nodes, perNode, ok
}

// costOn is the Cost method of every planner: its plan's cost on its own
// layout of p ranks (flatShape).
func costOn(a planner, p int, size float64) Cost { return costOf(loadOn(a, p, size)) }

// loadOn is costOn as a load and a reach.
func loadOn(a planner, p int, size float64) (load, reach) {
	nodes, perNode, ok := flatShape(a, p)
	if !ok || !countable(a, nodes, perNode) {
		return undefined(nil)
	}
	return a.plan(nodes, perNode, size, nil)
}

// maxCount, 2^60, is the most ranks (N·p) and chunks (C) a plan counts: every
// step and message count of this package's algorithms is at most a few
// times P + C, so that below maxCount each fits in an int. Beyond it an
// algorithm's cost is that of a shape it does not fit: its bytes, and so
// every time of it, are NaN (a ring AllReduce of math.MaxInt ranks counted
// 2(P-1) steps in an int, which overflowed to a negative time).
const maxCount = 1 << 60

// countable reports whether a's steps and messages on nodes x perNode
// ranks fit in an int: N·p and a's chunks at most maxCount.
func countable(a Algorithm, nodes, perNode int) bool {
	return nodes <= maxCount/perNode && chunksOf(a) <= maxCount
}

// chunksOf returns the chunks a pipelined algorithm of this package cuts
// its buffer into, C, and 0 for any other.
func chunksOf(a Algorithm) int {
	switch a := a.(type) {
	case Tree:
		return a.Chunks
	case NVLSTree:
		return a.Chunks
	case CollNetChain:
		return a.Chunks
	case PipelinedBroadcast:
		return a.Chunks
	}
	return 0
}

// A planKey is what a plan depends on.
type planKey struct {
	a              Algorithm
	nodes, perNode int
}

// plans keeps the stages of one byte of every algorithm and shape timed on
// a Cluster, found on its first use: every byte count of an algorithm of
// this package is proportional to S, so that its stages for S bytes are
// those of one byte scaled by S. The stages are immutable once stored, so
// that any goroutine may read them. The algorithms of this package are
// comparable values; one that composes an Algorithm whose value is not (an
// Inter holding a slice) panics here, as it would as any map key.
var plans memo[planKey, *staged]

// staged is an algorithm's stages, and their parts' loads for its times.
type staged struct {
	list  []Stage
	loads []struct{ intra, inter part }
}

// A part is the load of a stage's part, and whether the part is absent
// (the zero Cost), which no scaling changes.
type part struct {
	load
	absent bool
}

// time is Cost.Time of the part scaled by scale.
func (p part) time(scale float64, k Link) float64 {
	if p.absent {
		return load{}.time(k)
	}
	return p.scaled(scale).time(k)
}

// stagesOf returns a's stages on nodes x perNode ranks and the factor that
// scales their bytes to S = size bytes: the size itself (NaN if negative or
// NaN), or 1 for a nonlinear algorithm, whose stages are of the size itself
// and not kept.
func stagesOf(a planner, nodes, perNode int, size float64) (*staged, float64) {
	if !countable(a, nodes, perNode) {
		var st stages
		undefined(&st)
		return &staged{list: st.list, loads: []struct{ intra, inter part }{{intra: partOf(st.list[0].Intra)}}}, math.NaN()
	}
	if !linear(a) {
		return newStaged(a, nodes, perNode, size), 1
	}
	s := plans.get(planKey{a, nodes, perNode}, func() *staged { return newStaged(a, nodes, perNode, 1) })
	return s, checkSize(size)
}

// newStaged returns a's stages on nodes x perNode ranks for S = size bytes.
func newStaged(a planner, nodes, perNode int, size float64) *staged {
	var st stages
	a.plan(nodes, perNode, size, &st)
	s := &staged{list: st.list, loads: make([]struct{ intra, inter part }, len(st.list))}
	for i, x := range st.list {
		s.loads[i].intra = partOf(x.Intra)
		s.loads[i].inter = partOf(x.Inter)
	}
	return s
}

// partOf returns the part of c.
func partOf(c Cost) part {
	l, _ := split(c)
	return part{l, c == Cost{}}
}

// time returns the sum of the stages' times on the links intra and inter,
// their bytes scaled by scale, in seconds: to the bit the sum of
// Stage.Time over the stages scaled (scaledStage).
func (s *staged) time(scale float64, intra, inter Link) float64 {
	t := 0.0
	for _, l := range s.loads {
		t += max(l.intra.time(scale, intra), l.inter.time(scale, inter))
	}
	return t
}

// scaled returns l with its bytes multiplied by s.
func (l load) scaled(s float64) load {
	l.path, l.reduced = l.path*s, l.reduced*s
	return l
}

// scaledStage returns s with its bytes scaled by scale; a stage's absent
// part, the zero Cost, stays absent.
func scaledStage(s Stage, scale float64) Stage {
	part := func(c Cost) Cost {
		if c == (Cost{}) {
			return c
		}
		return c.scaled(scale)
	}
	return Stage{Intra: part(s.Intra), Inter: part(s.Inter)}
}

// linear reports whether a's time is known to be linear in the size: true
// for the algorithms of this package, unless they compose one that is not.
func linear(a Algorithm) bool {
	if c, ok := a.(interface{ composes() Algorithm }); ok {
		return linear(c.composes())
	}
	_, ok := a.(planner)
	return ok
}
