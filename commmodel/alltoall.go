package commmodel

import "math/bits"

// Direct is AllToAll in one step: every rank sends each of its P-1 outgoing
// S/P blocks straight to its destination, all at once.
//
//	steps = 1, bytes = (P-1)/P·S, peers = fanout = P-1
//
// It is optimal in steps and bytes; its weakness is the P-1 messages in
// flight at once, which across nodes converge on one NIC (incast).
type Direct struct{}

func (Direct) Name() string           { return "direct" }
func (Direct) Collective() Collective { return AllToAll }
func (Direct) nodeSize(p int) int     { return p }

// Cost returns direct AllToAll's cost for p ranks and S = size bytes.
func (d Direct) Cost(p int, size float64) Cost { return costOn(d, p, size) }

func (Direct) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	b := lapBytes(p, size)
	if st != nil {
		st.add(splitByDestination(nodes, perNode, checkSize(size)/float64(p), false))
	}
	return load{min(1, p-1), p - 1, b, 0}, reach{b, p - 1, p - 1}
}

// Pairwise is AllToAll in P-1 rounds of one block each. In round t = 1..P-1
// rank i exchanges with i XOR t when P is a power of two (send and receive
// with one partner); otherwise it sends to i+t and receives from i-t (mod P).
//
//	steps = P-1, bytes = (P-1)/P·S, peers = P-1, fanout = 1
//
// One message in flight at a time means no incast, at the price of P-1 alphas.
type Pairwise struct{}

func (Pairwise) Name() string           { return "pairwise" }
func (Pairwise) Collective() Collective { return AllToAll }
func (Pairwise) nodeSize(p int) int     { return p }

// Cost returns pairwise AllToAll's cost for p ranks and S = size bytes.
func (w Pairwise) Cost(p int, size float64) Cost { return costOn(w, p, size) }

// plan: with the XOR rule (N and p powers of two) the rounds t < p pair
// ranks of one node and the rounds t >= p cross the network; with the i+t
// rule every round has ranks whose partner is on another node.
func (Pairwise) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	b := lapBytes(p, size)
	l, r := load{p - 1, p - 1, b, 0}, reach{b, p - 1, min(1, p-1)}
	if !isPow2(p) || nodes == 1 || perNode == 1 {
		return flat(nodes, perNode, l, r, st)
	}
	if st != nil {
		block := checkSize(size) / float64(p)
		rounds := func(t int) Cost {
			return Cost{Steps: t, Bytes: float64(t) * block, Peers: t, Fanout: 1, Messages: t}
		}
		st.add(Stage{Intra: rounds(perNode - 1)})
		st.add(Stage{Inter: rounds(p - perNode)})
	}
	return l, r
}

// Bruck is Bruck's AllToAll: after a local rotation that puts the block for
// rank i+j at index j, step k = 0..⌈log2 P⌉-1 sends every block whose index
// has bit k set to rank i+2^k, and a final local rotation puts the blocks in
// order. Blocks travel by binary distance and ride along with others, so
//
//	steps = ⌈log2 P⌉
//	bytes = Σ_k #{j < P : bit k of j is set} · S/P   (= log2 P · S/2 for P = 2^k)
//
// more than the lower bound (P-1)/P·S except at P = 2: it pays only for tiny
// messages on many ranks. A rank sends to i+2^k and receives from i-2^k.
type Bruck struct{}

func (Bruck) Name() string           { return "bruck" }
func (Bruck) Collective() Collective { return AllToAll }
func (Bruck) nodeSize(p int) int     { return p }

// Cost returns Bruck AllToAll's cost for p ranks and S = size bytes.
func (b Bruck) Cost(p int, size float64) Cost { return costOn(b, p, size) }

func (Bruck) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	mustRanks(p)
	steps := bits.Len(uint(p - 1)) // ⌈log2 P⌉
	b := float64(BruckBlocks(p)) / float64(p) * checkSize(size)
	return flat(nodes, perNode, load{steps, steps, b, 0}, reach{b, bruckPeers(p, steps), min(1, p-1)}, st)
}

// BruckBlocks returns how many S/P blocks one rank sends in Bruck's AllToAll
// over p ranks: the number of set bits over all block indices 0..P-1,
//
//	Σ_k #{j < P : bit k of j is set}
//
// counted over the set bits of P: each bit k of P stands for the 2^k numbers
// that share P's bits above k, have 0 at k and anything below, which carry
// k·2^(k-1) set bits below k and ones(P >> (k+1)) each above it.
func BruckBlocks(p int) int {
	mustRanks(p)
	total := 0
	for x := uint(p); x != 0; x &= x - 1 {
		k := bits.TrailingZeros(x)
		total += k<<k>>1 + bits.OnesCount(uint(p)>>(k+1))<<k
	}
	return total
}

// bruckPeers counts the distinct ranks i±2^k (mod p), k < steps, that rank i
// talks to. With steps = ⌈log2 P⌉ every 2^k is below P, so the offsets are
// the steps powers of two and their complements P-2^k, 2·steps in all,
// less those in both sets: P-2^j = 2^k says P has at most two set bits,
//
//	peers = 2·steps - 1 for P = 2^m, 2·steps - 2 for P = 2^a + 2^b (a > b),
//	        2·steps otherwise
func bruckPeers(p, steps int) int {
	if p == 1 {
		return 0
	}
	switch bits.OnesCount(uint(p)) {
	case 1:
		return 2*steps - 1
	case 2:
		return 2*steps - 2
	}
	return 2 * steps
}

// HierarchicalAllToAll is the rail-aligned two-level AllToAll over N nodes of
// p = PerNode GPUs, numbered node by node. First, over NVLink, GPU g of node n
// hands each local GPU r the N blocks bound for rail r (GPU r of every node,
// its own node included): the blocks are gathered by rail. Then GPU r sends
// one message to GPU r of each other node, carrying the p blocks its node
// holds for it. Network bytes are those of Direct, (N-1)/N·S per GPU, but a
// GPU sends N-1 network messages instead of p(N-1) (8-GPU nodes: 64 messages
// per node pair become 8). The price is (p-1)(N-1)/P·S more NVLink bytes,
// which grow with S:
//
//	steps = 2, bytes = (p-1)/p·S + (N-1)/N·S, peers = (p-1) + (N-1)
//
// The article's variant, which sends first and splits the messages over
// NVLink on arrival, is the mirror image, with the same counts.
type HierarchicalAllToAll struct {
	// PerNode is the number of GPUs per node, p; P must be a multiple of it.
	PerNode int
}

func (HierarchicalAllToAll) Name() string           { return "hierarchical" }
func (HierarchicalAllToAll) Collective() Collective { return AllToAll }

// Cost returns the two-level AllToAll's cost for p ranks (N = p/PerNode nodes)
// and S = size bytes on one Link. Its bytes are NaN if p is not a multiple of
// PerNode.
func (h HierarchicalAllToAll) Cost(p int, size float64) Cost { return costOn(h, p, size) }

func (h HierarchicalAllToAll) nodeSize(int) int { return h.PerNode }

// plan: the gather by rail over the intra-node link, which moves what a
// direct AllToAll among the node's p GPUs would (N blocks of S/P to each),
// then one message per remote node over the network, which moves what a
// direct AllToAll among the N nodes would (p blocks to each). On a Cluster,
// PerNode is ignored: p is the cluster's.
func (HierarchicalAllToAll) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	gather, gatherReach := Direct{}.plan(1, perNode, size, nil)
	send, sendReach := Direct{}.plan(1, nodes, size, nil)
	if st != nil {
		st.add(Stage{Intra: costOf(gather, gatherReach)})
		st.add(Stage{Inter: costOf(send, sendReach)})
	}
	return gather.then(send), reach{gatherReach.bytes + sendReach.bytes, perNode - 1 + nodes - 1, max(perNode-1, nodes-1)}
}

// splitRanks returns the node count for p ranks of perNode each, and false
// if p is not a positive multiple of perNode.
func splitRanks(p, perNode int) (int, bool) {
	if perNode < 1 || p%perNode != 0 {
		return 0, false
	}
	return p / perNode, true
}
