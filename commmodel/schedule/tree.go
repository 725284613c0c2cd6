package schedule

import "github.com/inframethod/commlab/commmodel"

// The schedule of NCCL's double binary tree AllReduce (commmodel.Tree).
//
// Ranks are numbered node by node, GPU i of node x being rank x·p+i. GPU i >= 1
// of a node has GPU i-1 above it in the node's chain and GPU i+1 below; GPU 0,
// the head, has the heads of its node's parent and children in each of the
// two trees of commmodel.DoubleBinaryTree. Tree 0 carries part 0 of the
// buffer cut in two, tree 1 part 1, each cut into C chunks. The schedule is
// built from the trees alone: every rank's height (the longest path down to
// a leaf) and depth are found by walking them, not from the model's
// formulas. A rank of height h reduces chunk c into its parent in step h+c;
// the root, of height H, and every rank of depth d below it copy chunk c to
// their children in step H+d+c.

// treeRank is one rank's place in one of the two trees over all ranks.
type treeRank struct {
	parent   int
	children [3]int // -1 where there is none
}

// treeRanks returns every rank's place in tree 0 and tree 1 over nodes of
// perNode GPUs.
func treeRanks(nodes, perNode int) [2][]treeRank {
	var out [2][]treeRank
	for tree := range out {
		rs := make([]treeRank, nodes*perNode)
		for i := range rs {
			rs[i] = treeRank{parent: -1, children: [3]int{-1, -1, -1}}
		}
		for x := range nodes {
			head := x * perNode
			for i := 1; i < perNode; i++ {
				rs[head+i].parent = head + i - 1
				rs[head+i-1].children[0] = head + i
			}
			t := commmodel.DoubleBinaryTree(nodes, x)[tree]
			if t.Parent >= 0 {
				rs[head].parent = t.Parent * perNode
			}
			for k, c := range t.Children {
				if c >= 0 {
					rs[head].children[1+k] = c * perNode
				}
			}
		}
		out[tree] = rs
	}
	return out
}

// heights returns each rank's height in the tree rs, and the root's.
func heights(rs []treeRank) (h []int, root int) {
	h = make([]int, len(rs))
	var walk func(r int) int
	walk = func(r int) int {
		for _, c := range rs[r].children {
			if c >= 0 {
				h[r] = max(h[r], walk(c)+1)
			}
		}
		return h[r]
	}
	for r := range rs {
		if rs[r].parent < 0 {
			root = r
			walk(r)
		}
	}
	return h, root
}

// depth returns rank r's distance from the root of rs.
func depth(rs []treeRank, r int) int {
	d := 0
	for ; rs[r].parent >= 0; r = rs[r].parent {
		d++
	}
	return d
}

// treeAllReduce writes the double binary tree AllReduce of the elements
// [off, off+n) over the ranks of g, nodes of perNode of them in order, in
// C = chunks chunks per tree, from step at on, and returns the step after
// its last.
func treeAllReduce(b *builder, at int, g []int, off, n, nodes, perNode, chunks int) int {
	end := at
	if nodes*perNode <= 1 {
		return end
	}
	for tree, rs := range treeRanks(nodes, perNode) {
		lo, hi := partBounds(n, 2, tree)
		h, root := heights(rs)
		top := h[root]
		for r, x := range rs {
			d := depth(rs, r)
			for c := range chunks {
				a, z := partBounds(hi-lo, chunks, c)
				o, length := off+lo+a, z-a
				if x.parent >= 0 {
					b.put(at+h[r]+c, Transfer{Src: g[r], Dst: g[x.parent], SrcOff: o, DstOff: o, Len: length, Op: Reduce})
				}
				for _, k := range x.children {
					if k >= 0 {
						b.put(at+top+d+c, Transfer{Src: g[r], Dst: g[k], SrcOff: o, DstOff: o, Len: length, Op: Copy})
						end = max(end, at+top+d+c+1)
					}
				}
			}
		}
	}
	return end
}
