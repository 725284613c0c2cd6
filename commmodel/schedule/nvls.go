package schedule

import "github.com/inframethod/commlab/commmodel"

// The schedules of NVLink SHARP (commmodel.NVLS, commmodel.NVLSTree).
//
// Node x's NVSwitch is switch x, the network's switch switch N (Transfer's
// Switch field is one more). Within a node GPU h owns part h of p of the
// buffer. In the load-reduce every GPU of the node, GPU h too, sends part h
// through the NVSwitch into GPU h with Reduce: GPU h then holds the node's
// sum (its own part stays, the others are added), and each GPU has sent its
// p parts once. In the multicast store GPU h sends part h through the
// NVSwitch to every GPU of the node, itself too, with Copy: it sends the part
// once. Between the two, across nodes, GPU h of every node AllReduces part h:
// through the network's switch (NVLS: each sends the part to every other's,
// with Reduce, and sends it once) or over the double binary tree among them
// (NVLSTree).

// nvlsAllReduce writes NVLS over nodes of perNode ranks on n elements, with
// tree (if not nil) as the AllReduce across nodes instead of the network's
// switch.
func nvlsAllReduce(b *builder, nodes, perNode, n int, tree *commmodel.Tree) {
	at := 0
	if perNode > 1 {
		nvlsStep(b, at, nodes, perNode, n, Reduce)
		at++
	}
	if nodes > 1 {
		next := at
		for h := range perNode {
			lo, hi := partBounds(n, perNode, h)
			rail := make([]int, nodes)
			for x := range rail {
				rail[x] = x*perNode + h
			}
			if tree != nil {
				next = max(next, treeAllReduce(b, at, rail, lo, hi-lo, nodes, 1, tree.Chunks))
				continue
			}
			next = switchAllReduce(b, at, rail, lo, hi-lo, nodes+1)
		}
		at = next
	}
	if perNode > 1 {
		nvlsStep(b, at, nodes, perNode, n, Copy)
	}
}

// nvlsStep writes one NVLS step in every node into step at: the load-reduce
// (Reduce: every GPU g sends part h to its owner h) or the multicast store
// (Copy: the owner h sends part h to every GPU g).
func nvlsStep(b *builder, at, nodes, perNode, n int, op Op) {
	for x := range nodes {
		for h := range perNode {
			lo, hi := partBounds(n, perNode, h)
			for g := range perNode {
				src, dst := x*perNode+g, x*perNode+h
				if op == Copy {
					src, dst = dst, src
				}
				b.put(at, Transfer{Src: src, Dst: dst, SrcOff: lo, DstOff: lo, Len: hi - lo, Op: op, Switch: x + 1})
			}
		}
	}
}

// switchAllReduce writes an AllReduce of the elements [off, off+n) among the
// ranks of g through switch sw (Transfer.Switch) into step at: every member
// sends the range through the switch into every other, with Reduce, and so
// sends it once. It returns the next step.
func switchAllReduce(b *builder, at int, g []int, off, n, sw int) int {
	if len(g) <= 1 {
		return at
	}
	for _, src := range g {
		for _, dst := range g {
			if src != dst {
				b.put(at, Transfer{Src: src, Dst: dst, SrcOff: off, DstOff: off, Len: n, Op: Reduce, Switch: sw})
			}
		}
	}
	return at + 1
}
