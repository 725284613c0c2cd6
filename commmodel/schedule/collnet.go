package schedule

// The schedules of CollNet (commmodel.CollNetDirect, commmodel.CollNetChain):
// the network's switch, switch N (Transfer.Switch N+1), AllReduces across
// the N nodes.

// collNetDirect: in every node two-shot's pull leaves GPU h with the node's
// sum of part h of p; GPU h of all nodes AllReduce it through the network's
// switch; two-shot's push spreads it in the node.
func collNetDirect(b *builder, nodes, perNode, n int) {
	at := 0
	node := func(x int) []int {
		g := make([]int, perNode)
		for i := range g {
			g[i] = x*perNode + i
		}
		return g
	}
	if perNode > 1 {
		for x := range nodes {
			twoShotPhase(b, at, node(x), 0, n, Reduce)
		}
		at++
	}
	if nodes > 1 {
		for h := range perNode {
			lo, hi := partBounds(n, perNode, h)
			rail := make([]int, nodes)
			for x := range rail {
				rail[x] = x*perNode + h
			}
			switchAllReduce(b, at, rail, lo, hi-lo, nodes+1)
		}
		at++
	}
	if perNode > 1 {
		for x := range nodes {
			twoShotPhase(b, at, node(x), 0, n, Copy)
		}
	}
}

// collNetChain: in every node GPU i >= 1 reduces chunk c of C into GPU i-1 in
// step p-1-i+c; the heads AllReduce it through the network's switch in step
// p-1+c; the head copies it to GPU 1 in step s+c, s = p-1+[N >= 2], and GPU i
// to GPU i+1 in step s+i+c.
func collNetChain(b *builder, nodes, perNode, n, chunks int) {
	down := perNode - 1
	if nodes > 1 {
		down++
	}
	heads := make([]int, nodes)
	for x := range heads {
		heads[x] = x * perNode
	}
	for c := range chunks {
		lo, hi := partBounds(n, chunks, c)
		for x := range nodes {
			first := x * perNode
			for i := 1; i < perNode; i++ {
				b.put(perNode-1-i+c, Transfer{Src: first + i, Dst: first + i - 1, SrcOff: lo, DstOff: lo, Len: hi - lo, Op: Reduce})
				b.put(down+i-1+c, Transfer{Src: first + i - 1, Dst: first + i, SrcOff: lo, DstOff: lo, Len: hi - lo, Op: Copy})
			}
		}
		if nodes > 1 {
			switchAllReduce(b, perNode-1+c, heads, lo, hi-lo, nodes+1)
		}
	}
}
