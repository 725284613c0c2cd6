package commmodel

import (
	"math"
	"sync"
)

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
// Cost method that returns costOn, and a plan method, built from the
// layouts below (flat for an algorithm that treats all ranks alike,
// splitByDestination for one that sends to every peer at once) or from
// stages of its own; a nodeSize method if it takes a node size; then its
// schedule in package schedule, whose tests execute it and compare the
// counts and times with the plan's.

// A planner is an algorithm of this package.
type planner interface {
	Algorithm
	// plan returns the algorithm's cost on one link on nodes x perNode
	// ranks for S = size bytes, nodes, perNode >= 1, and appends its stages
	// to st if st is not nil.
	plan(nodes, perNode int, size float64, st *stages) Cost
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
func undefined(st *stages) Cost {
	c := Cost{Bytes: math.NaN()}
	st.add(Stage{Intra: c})
	return c
}

// flat returns c, the cost of an algorithm that treats all ranks alike,
// such as a ring over N·p ranks, and appends its one stage: every step has
// some rank whose peer is on another node, so every step runs at the pace
// of the network hop, while ranks whose peers are local use NVLink at the
// same time.
func flat(nodes, perNode int, c Cost, st *stages) Cost {
	if st != nil {
		st.flat(nodes, perNode, c)
	}
	return c
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
	return Stage{Intra: toPeers(perNode-1, perPeer, reduce), Inter: toPeers((nodes-1)*perNode, perPeer, reduce)}
}

// toPeers is one step in which a rank sends perPeer bytes to each of peers
// ranks at once: none for none.
func toPeers(peers int, perPeer float64, reduce bool) Cost {
	if peers == 0 {
		return Cost{}
	}
	c := Cost{Steps: 1, Messages: peers, Bytes: float64(peers) * perPeer, Peers: peers, Fanout: peers}
	if reduce {
		c.Reduced = c.Bytes
	}
	return c
}

// flatShape returns the nodes and ranks per node a runs on when its p
// ranks share one link: its own node size where it has one (p ranks as
// p/PerNode nodes), else one node of p. ok is false if p is not a multiple
// of the node size.
func flatShape(a planner, p int) (nodes, perNode int, ok bool) {
	mustRanks(p)
	if s, sized := a.(interface{ nodeSize(p int) int }); sized {
		perNode = s.nodeSize(p)
		nodes, ok = splitRanks(p, perNode)
		return nodes, perNode, ok
	}
	return 1, p, true
}

// costOn is the Cost method of every planner: its plan's cost on its own
// layout of p ranks (flatShape).
func costOn(a planner, p int, size float64) Cost {
	nodes, perNode, ok := flatShape(a, p)
	if !ok {
		return undefined(nil)
	}
	return a.plan(nodes, perNode, size, nil)
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
var plans sync.Map // planKey -> []Stage

// stagesOf returns a's stages on nodes x perNode ranks and the factor that
// scales their bytes to S = size bytes: the size itself (NaN if negative or
// NaN), or 1 for a nonlinear algorithm, whose stages are of the size itself
// and not kept.
func stagesOf(a planner, nodes, perNode int, size float64) ([]Stage, float64) {
	if !linear(a) {
		return newStages(a, nodes, perNode, size), 1
	}
	k := planKey{a, nodes, perNode}
	if s, ok := plans.Load(k); ok {
		return s.([]Stage), checkSize(size)
	}
	stored, _ := plans.LoadOrStore(k, newStages(a, nodes, perNode, 1))
	return stored.([]Stage), checkSize(size)
}

// newStages returns a's stages on nodes x perNode ranks for S = size bytes.
func newStages(a planner, nodes, perNode int, size float64) []Stage {
	var st stages
	a.plan(nodes, perNode, size, &st)
	return st.list
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
