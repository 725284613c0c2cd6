package commmodel

import (
	"math"
	"math/bits"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestDoubleBinaryTree holds DoubleBinaryTree to the three trees drawn in the
// comments of NCCL 2.30.7 src/graph/trees.cc (14 ranks; the mirrored second
// tree of 12; the shifted second tree of 13), and to what makes them a
// double binary tree for every N up to 130: each tree is a tree of height
// ⌈log2 N⌉ whose parents and children agree, and for even N every node is a
// leaf in exactly one of the two.
func TestDoubleBinaryTree(t *testing.T) {
	children := func(nodes, tree, node int) [2]int { // in increasing order, -1 last
		c := DoubleBinaryTree(nodes, node)[tree].Children
		if c[0] < 0 || c[1] >= 0 && c[1] < c[0] {
			c[0], c[1] = c[1], c[0]
		}
		return c
	}
	for _, c := range []struct {
		nodes, tree, node int
		want              [2]int
	}{
		// trees.cc, first drawing (14 ranks): 0 -> 8 -> {4, 12}, 12 -> {10, 13}, 4 -> {2, 6}.
		{14, 0, 0, [2]int{8, -1}}, {14, 0, 8, [2]int{4, 12}}, {14, 0, 12, [2]int{10, 13}}, {14, 0, 4, [2]int{2, 6}},
		{14, 0, 13, [2]int{-1, -1}},
		// second drawing, mirrored tree of 12 ranks: 11 -> 3 -> {1, 7}, 7 -> {5, 9}, 1 -> {0, 2}.
		{12, 1, 11, [2]int{3, -1}}, {12, 1, 3, [2]int{1, 7}}, {12, 1, 7, [2]int{5, 9}}, {12, 1, 1, [2]int{0, 2}},
		// third drawing, shifted tree of 13 ranks: 1 -> 9 -> {5, 0}, 0 -> {11}, 11 -> {10, 12}.
		{13, 1, 1, [2]int{9, -1}}, {13, 1, 9, [2]int{0, 5}}, {13, 1, 0, [2]int{11, -1}}, {13, 1, 11, [2]int{10, 12}},
	} {
		if got := children(c.nodes, c.tree, c.node); got != c.want {
			t.Errorf("N = %d, tree %d, node %d: children %v, NCCL's drawing %v", c.nodes, c.tree, c.node, got, c.want)
		}
	}
	for n := 1; n <= 130; n++ {
		leaves := make([]int, n)
		for tree := range 2 {
			roots := 0
			for x := range n {
				nd := DoubleBinaryTree(n, x)[tree]
				if nd.Parent < 0 {
					roots++
				} else if p := DoubleBinaryTree(n, nd.Parent)[tree].Children; p[0] != x && p[1] != x {
					t.Fatalf("N = %d, tree %d: node %d's parent %d does not list it", n, tree, x, nd.Parent)
				}
				if nd.Children == [2]int{-1, -1} {
					leaves[x]++
				}
				d := 0
				for y := x; DoubleBinaryTree(n, y)[tree].Parent >= 0; y = DoubleBinaryTree(n, y)[tree].Parent {
					if d++; d > n {
						t.Fatalf("N = %d, tree %d: node %d never reaches the root", n, tree, x)
					}
				}
				if d > bits.Len(uint(n-1)) {
					t.Fatalf("N = %d, tree %d: node %d at depth %d, deeper than ⌈log2 N⌉", n, tree, x, d)
				}
				if r := treeRole(n, tree, x); btreeDepth(n, r) != d {
					t.Fatalf("N = %d, tree %d: node %d: btreeDepth %d, walked %d", n, tree, x, btreeDepth(n, r), d)
				}
			}
			if roots != 1 {
				t.Fatalf("N = %d, tree %d: %d roots", n, tree, roots)
			}
		}
		for x, l := range leaves {
			if n%2 == 0 && n > 1 && l != 1 {
				t.Errorf("N = %d: node %d is a leaf in %d trees, want exactly one", n, x, l)
			}
		}
	}
}

// TestTreeCosts holds the tree's cost to values derived by hand from the
// schedule of Tree's doc comment (H = p-1+⌈log2 N⌉, steps 2H (+ C-1)).
func TestTreeCosts(t *testing.T) {
	const S = 1 << 20
	for _, c := range []struct {
		name string
		alg  Tree
		p    int
		want Cost
	}{
		// 2 x 8, fluid: H = 7+1 = 8, 16 steps. A chain GPU sends both halves up
		// and down (2S); a head sends S down its chain and, N = 2, S/2 up one
		// tree and S/2 down the other (S + S). It reduces its chain's S and its
		// one child's S/2; its peers are GPU 1 and the other head.
		{"2x8 fluid", Tree{PerNode: 8}, 16, Cost{Steps: 16, Messages: 16, Bytes: 2 * S, Reduced: 1.5 * S, Peers: 2, Fanout: 2}},
		// 4 x 8, fluid: H = 7+2 = 9. Node 2 is inner with children 1 and 3 in
		// tree 0 (parent 0) and a leaf of tree 1 (parent 1): S + 4·S/2 = 3S,
		// reduced S + 2·S/2; peers GPU 1 and nodes 0, 1, 3.
		{"4x8 fluid", Tree{PerNode: 8}, 32, Cost{Steps: 18, Messages: 18, Bytes: 3 * S, Reduced: 2 * S, Peers: 4, Fanout: 4}},
		// 8 nodes of one GPU: H = 3, 6 steps; 4·S/2 = 2S; reduced 2·S/2.
		{"8x1 fluid", Tree{}, 8, Cost{Steps: 6, Messages: 6, Bytes: 2 * S, Reduced: S, Peers: 4, Fanout: 4}},
		// One node of 8, C = 4: a chain. GPU i sends 2 chunks (both halves) of
		// S/8 up in steps 7-i..10-i and down in 7+i..10+i (the head from 7 on),
		// 17 steps. Some rank sends 2 chunks in every step, and GPU 1 sends 4
		// in steps 8 and 9, where its windows up and down overlap: 38 chunks of
		// S/8 on the critical path, and 17 + 2 messages.
		{"1x8 C=4", Tree{PerNode: 8, Chunks: 4}, 8, Cost{Steps: 17, Messages: 19, Bytes: 2 * S, PathBytes: 38.0 / 8 * S, Reduced: S, Peers: 2, Fanout: 2}},
	} {
		got := c.alg.Cost(c.p, S)
		w := c.want
		if got.Steps != w.Steps || got.Messages != w.Messages || got.Peers != w.Peers || got.Fanout != w.Fanout ||
			!scalar.EqualWithinRel(got.Bytes, w.Bytes, 1e-12) || !scalar.EqualWithinRel(got.Path(), w.Path(), 1e-12) || !scalar.EqualWithinRel(got.Reduced, w.Reduced, 1e-12) {
			t.Errorf("%s: %+v, want %+v", c.name, got, w)
		}
	}
	if got := Time(Tree{PerNode: 8}, 12, S, h20Intra); !math.IsNaN(got) {
		t.Errorf("tree of nodes of 8 on 12 ranks: %g, want NaN", got)
	}
}

// TestTreeChunksToFluid: the chunked tree's critical path is never below the
// busiest rank's bytes and exceeds them by at most the 2H-1 steps of fill and
// drain, each at most one step of the busiest rank:
//
//	bytes <= path(C) <= (1 + (2H-1)/C)·bytes
//
// so it tends to the fluid limit's bytes as C grows, with the same bytes,
// reduction and peers at every C.
func TestTreeChunksToFluid(t *testing.T) {
	for _, shape := range [][2]int{{1, 8}, {2, 8}, {4, 4}, {8, 1}, {5, 3}, {16, 2}} {
		nodes, per := shape[0], shape[1]
		p := nodes * per
		fluid := Tree{PerNode: per}.Cost(p, 1<<20)
		h := per - 1 + bits.Len(uint(nodes-1))
		for _, c := range []int{1, 4, 16, 256, 1 << 14} {
			got := Tree{PerNode: per, Chunks: c}.Cost(p, 1<<20)
			if got.Steps != fluid.Steps+c-1 || got.Bytes != fluid.Bytes || got.Reduced != fluid.Reduced || got.Peers != fluid.Peers {
				t.Errorf("%dx%d C=%d: %+v, fluid %+v", nodes, per, c, got, fluid)
			}
			if hi := (1 + float64(2*h-1)/float64(c)) * fluid.Bytes; !(got.Path() >= fluid.Bytes && got.Path() <= hi*(1+1e-12)) {
				t.Errorf("%dx%d C=%d: path %g, want in [%g, %g]", nodes, per, c, got.Path(), fluid.Bytes, hi)
			}
		}
	}
}

// TestTreeStagesFluid: on 2 nodes of the article's H20 server the fluid tree
// pays 2(p-1) = 14 NVLink steps and 2⌈log2 N⌉ = 2 network steps of latency,
// then streams at the pace of the slower level. Each head sends S over the
// network (at N = 2, S/2 down the tree it roots and S/2 up the other), the
// chain GPUs 2S over NVLink:
//
//	T = 14·2 us + 2·15 us + max(2S/350 GB/s, S/20 GB/s)
//
// From 4 nodes on a head sends 2S over the network and there are 4 network steps.
func TestTreeStagesFluid(t *testing.T) {
	const S = 64e6
	c := h20Cluster(2)
	want := 14*2e-6 + 2*15e-6 + max(2*S/350e9, S/20e9)
	if got := c.Time(Tree{PerNode: 8}, S); !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("fluid tree 2x8: %g s, want %g", got, want)
	}
	if got := c.NetworkBytes(Tree{PerNode: 8}, S); got != S {
		t.Errorf("fluid tree 2x8: network bytes %g, want S", got)
	}
	// From 4 nodes on a head sends 2S across the network.
	c = h20Cluster(4)
	want = 14*2e-6 + 4*15e-6 + 2*S/20e9
	if got := c.Time(Tree{PerNode: 8}, S); !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("fluid tree 4x8: %g s, want %g", got, want)
	}
}

// treePeers stops at the first head with treeMaxPeers: the same answer as
// the walk over every node (the reference, its loop before the stop), for
// every N up to 2048; no node of any of those trees holds more than
// treeMaxPeers; and a Cost of 2^50 nodes returns (it walked them all before).
func TestTreePeers(t *testing.T) {
	walk := func(nodes int) (most int) {
		for n := range nodes {
			tr := DoubleBinaryTree(nodes, n)
			peers := map[int]bool{}
			for _, x := range [...]int{tr[0].Parent, tr[0].Children[0], tr[0].Children[1], tr[1].Parent, tr[1].Children[0], tr[1].Children[1]} {
				if x >= 0 {
					peers[x] = true
				}
			}
			most = max(most, len(peers))
		}
		return most
	}
	for nodes := 1; nodes <= 2048; nodes++ {
		want := walk(nodes)
		if want > treeMaxPeers {
			t.Fatalf("%d nodes: a node holds %d network peers, more than treeMaxPeers = %d", nodes, want, treeMaxPeers)
		}
		if _, got := treePeers(nodes, 1); got != want {
			t.Fatalf("%d nodes: treePeers %d, the walk over every node %d", nodes, got, want)
		}
	}
	if c := (Tree{}).Cost(1<<50, 1<<20); c.Peers != treeMaxPeers {
		t.Errorf("Tree over 2^50 nodes: %d peers, want %d", c.Peers, treeMaxPeers)
	}
}

// TestChunkedTreeBeyondSweepReturnsAtOnce holds a chunked tree over more
// than maxSweptNodes nodes to the cost of a shape it does not fit, NaN
// bytes and a NaN time, returned at once: red team 28's Tree{Chunks: 4} on
// 2^40 ranks swept every node for hours. Up to the bound it is timed, and
// the fluid tree (Chunks = 0) has no bound at all.
func TestChunkedTreeBeyondSweepReturnsAtOnce(t *testing.T) {
	l := Link{Alpha: 1e-6, BW: 1e11}
	for _, a := range []Algorithm{Tree{Chunks: 4}, Tree{PerNode: 8, Chunks: 4}, NVLSTree{PerNode: 8, Chunks: 4}} {
		per := max(a.(planner).nodeSize(1), 1)
		for _, p := range []int{(maxSweptNodes + 1) * per, 1 << 40, 1 << 53} {
			if got := Time(a, p, 1<<20, l); !math.IsNaN(got) {
				t.Errorf("Time(%+v, %d ranks): %g s, want NaN beyond %d nodes", a, p, got, maxSweptNodes)
			}
			c := Cluster{Nodes: p / per, PerNode: per, Intra: l, Inter: l}
			if got := c.Time(a, 1<<20); !math.IsNaN(got) {
				t.Errorf("Cluster %dx%d Time(%+v): %g s, want NaN", c.Nodes, per, a, got)
			}
		}
		if got := Time(a, 64*per, 1<<20, l); !(got > 0) {
			t.Errorf("Time(%+v, %d ranks): %g s, want a time", a, 64*per, got)
		}
	}
	for _, p := range []int{1 << 40, 1 << 53} {
		if got := Time(Tree{}, p, 1<<20, l); !(got > 0 && got < 1) {
			t.Errorf("Time(Tree{}, %d ranks): %g s, want the fluid tree's time", p, got)
		}
	}
}
