package schedule

import "github.com/inframethod/commlab/commmodel"

// hierarchicalAllReduce is the article's three steps over N nodes of p GPUs
// (rank = node·p + local index): a ring reduce-scatter inside every node
// leaves GPU l with the sum over its node of part l of p; GPU l of all nodes
// then AllReduce that part with the Inter algorithm; a ring all-gather inside
// every node spreads the result. Nodes, and then rails, run side by side in
// the same steps.
func hierarchicalAllReduce(b *builder, h commmodel.HierarchicalAllReduce, p, n, scratch int) {
	per := h.PerNode
	nodes := p / per
	node := func(x int) []int {
		g := make([]int, per)
		for l := range g {
			g[l] = x*per + l
		}
		return g
	}
	at := 0
	for x := range nodes {
		at = max(at, ringReduceScatter(b, 0, node(x), 0, n))
	}
	next := at
	for l := range per {
		rail := make([]int, nodes)
		for x := range rail {
			rail[x] = x*per + l
		}
		lo, hi := partBounds(n, per, l)
		next = max(next, allReduceGroup(b, at, interOf(h), rail, lo, hi-lo, scratch))
	}
	for x := range nodes {
		ringAllGather(b, next, node(x), 0, n)
	}
}
