package commmodel

import "math/bits"

// A TreeNode is one node's place in one binary tree: its parent and its
// children, -1 where there is none.
type TreeNode struct {
	Parent   int
	Children [2]int
}

// DoubleBinaryTree returns the place of node in the two binary trees NCCL
// spans over nodes nodes (NCCL 2.30.7, src/graph/trees.cc, ncclGetBtree and
// ncclGetDtree). The first tree is rooted at node 0, whose one child is the
// largest power of two below nodes; below it, a node whose lowest set bit
// is b has the children node-b/2 and node+b/2 (or the nearest node+b/4,
// node+b/8, ... that exists) and the parent (node-b)|2b, or node-b where
// that does not exist, so the odd nodes are its leaves. The second tree is
// the first mirrored (node i plays node N-1-i) when N is even and shifted by
// one (node i plays node i-1) when N is odd, so that for even N every node
// is a leaf in one of the two trees. Both trees have height ⌈log2 N⌉. It
// panics unless 0 <= node < nodes.
func DoubleBinaryTree(nodes, node int) [2]TreeNode {
	if node < 0 || node >= nodes {
		panic("commmodel: DoubleBinaryTree: node out of range")
	}
	var t [2]TreeNode
	for tree := range t {
		r := btree(nodes, treeRole(nodes, tree, node))
		t[tree].Parent = roleNode(nodes, tree, r.Parent)
		for i, c := range r.Children {
			t[tree].Children[i] = roleNode(nodes, tree, c)
		}
	}
	return t
}

// treeRole is the node of the first tree that node plays in tree 0 or 1.
func treeRole(nodes, tree, node int) int {
	switch {
	case tree == 0:
		return node
	case nodes%2 == 0:
		return nodes - 1 - node
	}
	return (node - 1 + nodes) % nodes
}

// roleNode is the inverse of treeRole, and keeps -1.
func roleNode(nodes, tree, role int) int {
	switch {
	case role < 0 || tree == 0:
		return role
	case nodes%2 == 0:
		return nodes - 1 - role
	}
	return (role + 1) % nodes
}

// btree is node r's place in the first tree over n nodes.
func btree(n, r int) TreeNode {
	t := TreeNode{Parent: -1, Children: [2]int{-1, -1}}
	if r == 0 {
		if n > 1 {
			t.Children[0] = 1 << (bits.Len(uint(n-1)) - 1)
		}
		return t
	}
	bit := r & -r
	t.Parent = (r ^ bit) | bit<<1
	if t.Parent >= n {
		t.Parent = r ^ bit
	}
	if low := bit >> 1; low > 0 {
		t.Children[0] = r - low
		for d := low; d > 0; d >>= 1 {
			if r+d < n {
				t.Children[1] = r + d
				break
			}
		}
	}
	return t
}

// treeHeight is the height of both trees over n nodes, ⌈log2 n⌉: the root's
// child 2^(⌈log2 n⌉-1) heads a subtree as deep as its lowest set bit.
func treeHeight(n int) int { return bits.Len(uint(n - 1)) }

// btreeHeight is the height of node r of the first tree over n nodes: the
// position of its lowest set bit, since its first child r-b/2 heads a full
// subtree one level lower (and the second one no deeper).
func btreeHeight(n, r int) int {
	if r == 0 {
		return treeHeight(n)
	}
	return bits.TrailingZeros(uint(r))
}

// btreeDepth is the depth of node r of the first tree over n nodes.
func btreeDepth(n, r int) int {
	d := 0
	for ; r != 0; r = btree(n, r).Parent {
		d++
	}
	return d
}

// Tree is NCCL's AllReduce over its double binary tree (NCCL 2.30.7,
// src/device/all_reduce.h, runTreeSplit; the trees of src/graph/connect.cc
// with the NCCL_TOPO_PATTERN_TREE layout, all of a node's network traffic
// on its first GPU) on N nodes of p = PerNode GPUs, numbered node by node.
// The GPUs of a node form a chain with GPU 0 at its head, and the heads of
// the N nodes form the two trees of DoubleBinaryTree; each tree carries half
// of the buffer. Up each tree the halves are reduced, and down it the sums
// are broadcast, at once: the root reduces and forwards.
//
// Pipelined (Chunks = C >= 1), each half is cut into C chunks of S/(2C). A
// rank sends chunk c to its parent, reduced with what its children sent, in
// step h + c, where h is its height (its longest path down to a leaf): p-1-i
// for GPU i >= 1 of a chain, p-1+η for a head whose node has height η in
// that tree. The roots, at height H = p-1+⌈log2 N⌉, send chunk c down in
// step H+c, and a rank at depth d passes it on in step H+d+c, so
//
//	steps = 2(p-1+⌈log2 N⌉) + C - 1
//
// the latency of NCCL's tuning model, 2((p-1)·intraLat + log2 N·interLat)
// (src/graph/tuning.cc, which takes ⌊log2 N⌋), plus the C-1 steps of the
// pipeline. Every GPU of a chain but the last sends both halves up and down
// (2S), the last sends them up (S); a head sends them down its chain (S)
// and over the network S/2 up each tree it is not the root of and S/2 to
// each child, min(N, 4)·S/2 for N >= 2 (2S from N = 4 on: each node is an
// inner node with two children in one tree and a leaf in the other). So
//
//	bytes   = max(2S·[p >= 3], S·[p >= 2] + min(N, 4)·S/2·[N >= 2])
//	reduced = S·[p >= 2] + min(N-1, 2)·S/2
//	peers   = 2 in a chain, and a head's chain neighbour plus its parents
//	          and children of both trees (4 from N = 6 on)
//
// A head's chain and network traffic go over different links, so on a
// Cluster they overlap (Stages). The time sums, over the steps, the busiest
// rank's step; where windows of chunks overlap (a head sending down one
// tree while sending up the other) a step carries several chunks, and the
// pipeline's fill and drain carry fewer, so Cost's PathBytes is that sum,
// found from the ranks' windows of steps (pipeline.go), once per shape (N,
// p, C): the first evaluation of a shape sweeps the windows
// (BenchmarkPipelineSweep), and later ones read what the sweep found
// (pipelined.go). The sweep walks every node, so it is bounded: a chunked
// tree over more than 2^16 nodes is a shape it does not fit, whose bytes and
// times are NaN, returned at once (the fluid form below has no bound). On
// one Link with γ > 0 or a message overhead o > 0,
// Cost.Time charges the busiest rank's reduction and the busiest step's
// messages, which the replay of the schedule may split between ranks; with
// γ = o = 0 the two agree exactly.
//
// With Chunks = 0 the tree is the fluid limit of the pipeline, the form of
// NCCL's own model (time = latency + S/bandwidth): the 2H steps of the first
// chunk's trip up and down pay α, and the data streams behind at the busiest
// rank's egress,
//
//	T = 2H·α + bytes/BW + reduced·γ
//
// which is the chunked time as C grows with its per-chunk α taken away.
type Tree struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	// 0 means 1: the trees span all ranks.
	PerNode int
	// Chunks is the number of chunks each half is pipelined in, C; 0 means
	// the fluid limit.
	Chunks int
}

func (Tree) Name() string           { return "tree" }
func (Tree) Collective() Collective { return AllReduce }

func (t Tree) nodeSize(int) int { return max(t.PerNode, 1) }

// Cost returns the tree AllReduce's cost for p ranks (N = p/PerNode nodes)
// and S = size bytes on one Link. Its bytes are NaN if p is not a multiple
// of PerNode.
func (t Tree) Cost(p int, size float64) Cost { return costOn(t, p, size) }

// plan: chunked, a stage is a run of steps in which the busiest ranks send
// alike over each level, so that Stage.Time, the slower of the two levels,
// is each step's time added up. In the fluid limit the first chunk's 2(p-1)
// steps along the chains pay the intra-node α and its 2·⌈log2 N⌉ steps
// between the heads the network's, and the data then streams at the pace of
// the slower level:
//
//	T = 2(p-1)·α_intra + 2⌈log2 N⌉·α_inter + max(intra bytes/BW_intra, network bytes/BW_inter)
//
// with intra bytes 2S (S for p = 2) and network bytes min(N, 4)·S/2. On a
// Cluster, PerNode is ignored: p is the cluster's.
func (t Tree) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	size = checkSize(size)
	if nodes*perNode == 1 {
		return single(size, st)
	}
	intra, inter, all, reduced := treeBytes(nodes, perNode, size)
	intraPeers, interPeers := treePeers(nodes, perNode)
	peers := max(intraPeers, treeHeadIntraPeers(perNode)+interPeers)
	h := perNode - 1 + treeHeight(nodes)
	l, r := load{2 * h, 2 * h, all, reduced}, reach{all, peers, peers}
	if t.Chunks < 1 {
		if st != nil {
			fluidStages(st, 2*(perNode-1), 2*treeHeight(nodes),
				Cost{Bytes: intra, Reduced: size, Peers: intraPeers, Fanout: intraPeers},
				Cost{Bytes: inter, Reduced: float64(min(nodes-1, 2)) * size / 2, Peers: interPeers, Fanout: interPeers})
		}
		return l, r
	}
	return pipePlan(l, r, pipeShape{treePipe, nodes, perNode, t.Chunks}, size, st)
}

// single is the plan of an algorithm on one rank: nothing to do.
func single(size float64, st *stages) (load, reach) {
	st.add(Stage{})
	return load{path: 0 * size, reduced: 0 * size}, reach{bytes: 0 * size}
}

// treeBytes returns the busiest rank's bytes inside a node and across the
// network, and over both, and the busiest reducer's bytes (see Tree).
func treeBytes(nodes, perNode int, size float64) (intra, inter, all, reduced float64) {
	half := size / 2
	switch {
	case perNode >= 3:
		intra = 2 * size
	case perNode == 2:
		intra = size
	}
	if nodes >= 2 {
		inter = float64(min(nodes, 4)) * half
	}
	head := inter
	if perNode >= 2 {
		head += size // a head sends both halves down its chain
		reduced = size
	}
	reduced += float64(min(nodes-1, 2)) * half
	return intra, inter, max(intra, head), reduced
}

// treeMaxPeers is the most network peers a node holds in the double binary
// tree. The first tree's odd nodes are its leaves, and the second tree
// gives every node an odd role where the first gives it an even one (N-1-i
// for even N, i-1 for odd N), but node 0, the first tree's root, of one
// child. So a node has children in at most one tree, where it has at most a
// parent and two, and in the other tree only a parent; node 0 has one child
// in the first tree and at most three peers in the second.
const treeMaxPeers = 4

// treeHeadIntraPeers is the chain neighbours of a head: GPU 1, if any.
func treeHeadIntraPeers(perNode int) int { return min(perNode-1, 1) }

// treePeers returns the most peers a rank holds inside its node (2 in a
// chain of three or more) and the most a head holds across the network,
// its parents and children in the two trees counted once each.
//
// No head holds more than treeMaxPeers, and from 6 nodes on one of nodes
// 1-4 holds that many (TestTreePeers walks every node up to 2048 nodes), so
// only fewer nodes are walked: a Cost of 2^50 nodes does not walk them all.
func treePeers(nodes, perNode int) (intra, inter int) {
	intra = min(perNode-1, 2)
	if nodes >= 6 {
		return intra, treeMaxPeers
	}
	for n := range nodes {
		t := DoubleBinaryTree(nodes, n)
		var seen [6]int
		k := 0
		for _, x := range [...]int{t[0].Parent, t[0].Children[0], t[0].Children[1], t[1].Parent, t[1].Children[0], t[1].Children[1]} {
			dup := x < 0
			for _, y := range seen[:k] {
				dup = dup || x == y
			}
			if !dup {
				seen[k] = x
				k++
			}
		}
		inter = max(inter, k)
	}
	return intra, inter
}

// treeWindows adds to q the windows of every rank of the chunked tree (see
// Tree): the start steps of what it sends and reduces, one chunk of each
// half per step.
func treeWindows(nodes, perNode int, q *pipeline) {
	d := treeHeight(nodes)
	h := perNode - 1 + d
	var seen [65][65]bool // depths are at most ⌈log2 N⌉ <= 64
	for n := range nodes {
		var parent [2]int
		var children [2][2]int
		var height, depth [2]int
		for tree := range 2 {
			r := treeRole(nodes, tree, n)
			b := btree(nodes, r)
			parent[tree] = roleNode(nodes, tree, b.Parent)
			for i, c := range b.Children {
				children[tree][i] = roleNode(nodes, tree, c)
			}
			height[tree], depth[tree] = btreeHeight(nodes, r), btreeDepth(nodes, r)
		}
		first := n * perNode
		// The chain's GPUs send alike below every head of the same depths,
		// and the profile keeps only the busiest rank's step: one chain
		// per pair of depths is swept.
		chained := seen[depth[0]][depth[1]]
		seen[depth[0]][depth[1]] = true
		for i := 1; i < perNode && !chained; i++ { // the chain below the head
			var s sender
			r := first + i
			s.send(perNode-1-i, 2, r-1, false) // both halves up
			if i < perNode-1 {
				s.receive(perNode-2-i, 2, false)
				for tree := range 2 {
					s.send(h+depth[tree]+i, 1, r+1, false)
				}
			}
			q.add(&s)
		}
		var s sender
		if perNode > 1 {
			s.receive(perNode-2, 2, false)
			for tree := range 2 {
				s.send(h+depth[tree], 1, first+1, false)
			}
		}
		for tree := range 2 {
			if parent[tree] >= 0 {
				s.send(perNode-1+height[tree], 1, parent[tree]*perNode, true)
			}
			for _, c := range children[tree] {
				if c >= 0 {
					s.send(h+depth[tree], 1, c*perNode, true)
					s.receive(perNode-1+btreeHeight(nodes, treeRole(nodes, tree, c)), 1, true)
				}
			}
		}
		q.add(&s)
	}
}
