package commmodel

import (
	"math"
	"math/bits"
)

// Ring is ring AllReduce: a reduce-scatter and an all-gather around a ring,
// each P-1 steps in which every rank passes one S/P chunk to its neighbour.
//
//	steps = 2(P-1), bytes = 2(P-1)/P·S, reduced = (P-1)/P·S, peers = 2
//
// Its bytes are the AllReduce lower bound; its weakness is the O(P) steps
// (the article: 14 alphas at P = 8).
type Ring struct{}

func (Ring) Name() string           { return "ring" }
func (Ring) Collective() Collective { return AllReduce }
func (Ring) nodeSize(p int) int     { return p }

// Cost returns ring AllReduce's cost for p ranks and S = size bytes.
func (r Ring) Cost(p int, size float64) Cost { return costOn(r, p, size) }

func (Ring) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	lap := lapBytes(p, size)
	l, r := ringCost(p, 2*(p-1), 2*lap, lap)
	return flat(nodes, perNode, l, r, st)
}

// ringCost is the cost of steps steps around a ring of p ranks, one
// message each, sending bytes and reducing reduced.
func ringCost(p, steps int, bytes, reduced float64) (load, reach) {
	return load{steps, steps, bytes, reduced}, reach{bytes, min(2, p-1), min(1, p-1)}
}

// lapBytes is what one lap of a ring sends per rank: P-1 chunks of S/P.
func lapBytes(p int, size float64) float64 {
	mustRanks(p)
	n := float64(p)
	return (n - 1) / n * checkSize(size)
}

// HalvingDoubling is Rabenseifner's AllReduce: a reduce-scatter by recursive
// halving followed by an all-gather by recursive doubling. In step k of the
// reduce-scatter a rank exchanges S/2^(k+1) with the partner at distance 2^k;
// the all-gather retraces the steps. For P = 2^k
//
//	steps = 2·log2 P, bytes = 2(P-1)/P·S, reduced = (P-1)/P·S, peers = log2 P
//
// For other P it folds first (MPICH, Rabenseifner): with P' = 2^floor(log2 P)
// the first 2(P-P') ranks pair up, the even one of each pair sends all of S to
// the odd one, which reduces it; the P' surviving ranks run the algorithm
// above, and each survivor of a pair sends the result back. That is one extra
// step before and after, and the busiest rank, a survivor, sends
//
//	bytes = 2(P'-1)/P'·S + S, reduced = (P'-1)/P'·S + S, peers = log2 P' + 1
//
// The fold moves S into each pair and S back out, in two steps of their own,
// so the critical path carries 2S more than the core, PathBytes =
// 2(P'-1)/P'·S + 2S, though no rank sends more than one of the two S.
// Because of the extra bytes, halving-doubling loses to ring at large sizes
// whenever P is not a power of two.
type HalvingDoubling struct{}

func (HalvingDoubling) Name() string           { return "halving-doubling" }
func (HalvingDoubling) Collective() Collective { return AllReduce }
func (HalvingDoubling) nodeSize(p int) int     { return p }

// Cost returns halving-doubling's cost for p ranks and S = size bytes.
func (h HalvingDoubling) Cost(p int, size float64) Cost { return costOn(h, p, size) }

// plan: when N and p are powers of two, both above 1, the steps at
// distance 1..p/2 stay inside a node and carry the large chunks (S/2
// first), the log2 N steps at distance p..P/2 cross the network with
// chunks of S/(2p) and less. Halving-doubling is then hierarchical by
// itself:
//
//	intra: log2 p steps, (p-1)/p·S;  inter: 2·log2 N steps, 2(N-1)/(N·p)·S;  intra again
//
// On one node, or one rank a node, it is flat. On any other shape (N·p not
// a power of two) each step is a stage of its own, charged on the level its
// pairs cross (hdStages).
func (h HalvingDoubling) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	mustRanks(p)
	size = checkSize(size)
	l, r := hdCost(p, size)
	if nodes == 1 || perNode == 1 {
		return flat(nodes, perNode, l, r, st)
	}
	if !isPow2(nodes) || !isPow2(perNode) {
		hdStages(nodes, perNode, size, st)
		return l, r
	}
	if st != nil {
		sweep := costOf(hdCost(perNode, size)) // one sweep is half of a whole halving-doubling
		sweep.Steps, sweep.Messages, sweep.Bytes, sweep.PathBytes, sweep.Reduced = sweep.Steps/2, sweep.Messages/2, sweep.Bytes/2, sweep.PathBytes/2, 0
		rs := sweep
		rs.Reduced = rs.Bytes
		st.add(Stage{Intra: rs})
		st.add(Stage{Inter: costOf(hdCost(nodes, size/float64(perNode)))})
		st.add(Stage{Intra: sweep})
	}
	return l, r
}

// hdStages appends halving-doubling's stages on nodes x perNode ranks, N·p
// not a power of two, numbered node by node: one stage a step, in the
// schedule's order (package schedule: the fold, the reduce-scatter at
// distances 1, 2, ..., P'/2, the all-gather back, the unfold). A step's
// cost is one message of the busiest rank's bytes, S for the fold (reduced)
// and the unfold, S/(2d) at distance d (reduced in the reduce-scatter); it
// is charged on NVLink if some pair of the step is inside a node, on the
// network if some pair crosses, on both (the slower) if both: the step
// lasts as long as its slowest pair (hdLevels).
func hdStages(nodes, perNode int, size float64, st *stages) {
	if st == nil {
		return
	}
	p := nodes * perNode
	q := 1 << (bits.Len(uint(p)) - 1)
	step := func(d int, bytes float64, reduce bool) {
		c := Cost{Steps: 1, Messages: 1, Bytes: bytes, Peers: 1, Fanout: 1}
		if reduce {
			c.Reduced = bytes
		}
		var s Stage
		intra, inter := hdLevels(nodes, perNode, d)
		if intra {
			s.Intra = c
		}
		if inter {
			s.Inter = c
		}
		st.add(s)
	}
	fold := p != q
	if fold {
		step(0, size, true)
	}
	for d := 1; d < q; d <<= 1 {
		step(d, size/float64(2*d), true)
	}
	for d := q / 2; d >= 1; d >>= 1 {
		step(d, size/float64(2*d), false)
	}
	if fold {
		step(0, size, false)
	}
}

// hdLevels reports whether some pair of halving-doubling's step at distance
// d (0: the fold or the unfold) is inside a node, and whether some pair
// crosses nodes, on nodes x perNode ranks numbered node by node, N·p not a
// power of two. With P' = 2^⌊log2 P⌋ and r = P - P', the fold pairs ranks
// 2i and 2i+1 (i < r), and survivor v is rank 2v+1 for v < r, rank v+r
// otherwise; at distance d survivor v pairs with v XOR d.
//
// For p a power of two, p >= 2 (then p divides r), by hand:
//
//   - the fold's pairs (2i, 2i+1) share a node: p is even;
//   - two survivors v < w = v+d both below r are ranks 2v+1 and 2w+1, on
//     nodes ⌊v/(p/2)⌋ and ⌊w/(p/2)⌋: inside a node for d < p/2, across
//     for d >= p/2 (the fold leaves p/2 survivors on each of those nodes);
//   - two survivors both r or above are ranks v+r and w+r, on nodes
//     ⌊v/p⌋ + r/p and ⌊w/p⌋ + r/p: inside a node for d < p, across for
//     d >= p, as in the power-of-two case;
//   - a survivor v < r paired with w >= r is rank 2v+1 < 2r against
//     w+r >= 2r, a multiple of p: always across. Such pairs exist when 2d
//     does not divide r.
//
// Pairs of the second kind exist when d < r, of the third when
// r <= P'-d-1. For any other p it looks at every pair, up to 2^20 ranks;
// beyond it answers both, as a flat stage would.
func hdLevels(nodes, perNode, d int) (intra, inter bool) {
	p := nodes * perNode
	q := 1 << (bits.Len(uint(p)) - 1)
	r := p - q
	if isPow2(perNode) && perNode >= 2 {
		if d == 0 {
			return true, false
		}
		low, high, mixed := d < r, r <= q-d-1, r%(2*d) != 0
		intra = (low && d < perNode/2) || (high && d < perNode)
		inter = (low && d >= perNode/2) || (high && d >= perNode) || mixed
		return intra, inter
	}
	if p > 1<<20 {
		return true, true
	}
	return hdPairLevels(nodes, perNode, d)
}

// hdPairLevels is hdLevels found by looking at every pair of the step.
func hdPairLevels(nodes, perNode, d int) (intra, inter bool) {
	p := nodes * perNode
	q := 1 << (bits.Len(uint(p)) - 1)
	r := p - q
	pair := func(a, b int) {
		if a/perNode == b/perNode {
			intra = true
		} else {
			inter = true
		}
	}
	if d == 0 {
		for i := 0; i < r && !(intra && inter); i++ {
			pair(2*i, 2*i+1)
		}
		return intra, inter
	}
	rank := func(v int) int {
		if v < r {
			return 2*v + 1
		}
		return v + r
	}
	for v := 0; v < q && !(intra && inter); v++ {
		if v&d == 0 {
			pair(rank(v), rank(v|d))
		}
	}
	return intra, inter
}

// hdCost is halving-doubling's cost on one level of p ranks, the fold
// included (see HalvingDoubling).
func hdCost(p int, size float64) (load, reach) {
	k := bits.Len(uint(p)) - 1 // floor(log2 P)
	q := float64(int(1) << k)  // P'
	f := (q - 1) / q
	l, r := load{2 * k, 2 * k, 2 * f * size, f * size}, reach{2 * f * size, k, min(1, p-1)}
	if p != 1<<k {
		l.steps, l.messages = l.steps+2, l.messages+2
		l.path += 2 * size
		l.reduced += size
		r.bytes += size
		r.peers++ // the fold partner
	}
	return l, r
}

// TwoShot is AllReduce in two steps: every rank pulls its S/P slice from the
// P-1 others and reduces it (a reduce-scatter), then sends the reduced slice
// to all of them (an all-gather).
//
//	steps = 2, bytes = 2(P-1)/P·S, reduced = (P-1)/P·S, peers = P-1
//
// Two steps is the least an AllReduce can take without sending redundant
// bytes; the price is P-1 connections per rank and the whole reduction in one
// step (it shines with NVLS/multimem hardware multicast).
type TwoShot struct{}

func (TwoShot) Name() string           { return "two-shot" }
func (TwoShot) Collective() Collective { return AllReduce }
func (TwoShot) nodeSize(p int) int     { return p }

// Cost returns two-shot's cost for p ranks and S = size bytes.
func (t TwoShot) Cost(p int, size float64) Cost { return costOn(t, p, size) }

// plan: the pull of the slices, reduced, and the push of the result, each
// to every other rank at once.
func (TwoShot) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	b := lapBytes(p, size)
	if st != nil {
		perPeer := checkSize(size) / float64(p)
		st.add(splitByDestination(nodes, perNode, perPeer, true))
		st.add(splitByDestination(nodes, perNode, perPeer, false))
	}
	return load{2 * min(1, p-1), 2 * (p - 1), 2 * b, b}, reach{2 * b, p - 1, p - 1}
}

// OneShot is AllReduce in one step: every rank sends all of S to every other
// rank and reduces the P copies locally.
//
//	steps = 1, bytes = (P-1)·S, reduced = (P-1)·S, peers = P-1
//
// It sends P/2 times the lower bound 2(P-1)/P·S, so it wins only for small S
// and small P; see OneShotCrossover.
type OneShot struct{}

func (OneShot) Name() string           { return "one-shot" }
func (OneShot) Collective() Collective { return AllReduce }
func (OneShot) nodeSize(p int) int     { return p }

// Cost returns one-shot's cost for p ranks and S = size bytes.
func (o OneShot) Cost(p int, size float64) Cost { return costOn(o, p, size) }

func (OneShot) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	mustRanks(p)
	b := float64(p-1) * checkSize(size)
	if st != nil {
		st.add(splitByDestination(nodes, perNode, checkSize(size), true))
	}
	return load{min(1, p-1), p - 1, b, b}, reach{b, p - 1, p - 1}
}

// OneShotCrossover returns the size below which one-shot AllReduce beats
// two-shot on l for p ranks, in bytes (the article, with γ = 0):
//
//	S* = α·BW / ((P-1) - 2(P-1)/P)
//
// The denominator is one-shot's bytes per S less the lower bound's. With γ the
// reduction of the extra bytes joins it: S* = α / (((P-1) - 2(P-1)/P)/BW +
// ((P-1) - (P-1)/P)·γ). It is +Inf for p <= 2, where the two send the same
// bytes and reduces no more, and NaN for a Link that is not Valid.
func OneShotCrossover(p int, l Link) float64 {
	mustRanks(p)
	if !l.Valid() {
		return math.NaN()
	}
	n := float64(p)
	extraSent := (n - 1) - 2*(n-1)/n
	extraReduced := (n - 1) - (n-1)/n
	perByte := extraSent/l.BW + extraReduced*l.Gamma
	if perByte <= 0 {
		return math.Inf(1)
	}
	// One-shot saves one step and sends P-1 fewer messages.
	saved := l.Alpha + float64(p-1)*l.Overhead
	return saved / perByte
}

// LowerBound returns the fewest bytes any algorithm for c must send from its
// busiest rank, for p ranks and S = size bytes: 2(P-1)/P·S for AllReduce,
// (P-1)/P·S for ReduceScatter, AllGather and AllToAll, and S for Broadcast
// (the root must send the whole buffer once) and SendRecv (every rank sends
// its buffer to its peer).
func LowerBound(c Collective, p int, size float64) float64 {
	mustRanks(p)
	if p == 1 {
		return 0
	}
	if c == Broadcast {
		return checkSize(size)
	}
	return c.BusFactor(p) * checkSize(size)
}

// checkSize passes a valid size through and turns an invalid one (negative or
// NaN) into NaN, so that every count derived from it is NaN too.
func checkSize(size float64) float64 {
	if !(size >= 0) {
		return math.NaN()
	}
	return size
}

func sqrt(x float64) float64 { return math.Sqrt(x) }

// HierarchicalAllReduce is the article's three-step AllReduce over N nodes of
// p = PerNode GPUs: a ring reduce-scatter inside each node leaves every GPU
// with its reduced S/p slice; the same-index GPUs of the N nodes AllReduce
// their slices over the network with the Inter algorithm (ring if nil); a
// ring all-gather inside each node spreads the result.
//
//	T = RS_p(S) on the intra link + Inter_N(S/p) on the network + AG_p(S) on the intra link
//
// The network carries 2(N-1)/N·S/p per GPU where a flat ring over N·p ranks
// sends 2(Np-1)/(Np)·S across it: the ratio (N-1)/(Np-1) is 1/15 for 2 x 8
// and tends to 1/p as N grows (the article's "~1/P_intra").
type HierarchicalAllReduce struct {
	// PerNode is the number of GPUs per node, p, for Cost on one Link; P
	// must be a multiple of it. A Cluster's own PerNode takes its place
	// (Cluster.Stages): set the cluster's to time other nodes.
	PerNode int
	// Inter is the AllReduce run between nodes; nil means Ring.
	Inter Algorithm
}

func (HierarchicalAllReduce) Name() string           { return "hierarchical" }
func (HierarchicalAllReduce) Collective() Collective { return AllReduce }

// Cost returns the three steps' cost on one Link for p ranks (N = p/PerNode
// nodes) and S = size bytes. Its bytes are NaN if p is not a multiple of
// PerNode or Inter is not an AllReduce.
func (h HierarchicalAllReduce) Cost(p int, size float64) Cost { return costOn(h, p, size) }

func (h HierarchicalAllReduce) nodeSize(int) int { return h.PerNode }

// plan: the intra-node reduce-scatter, the inter-node AllReduce of the S/p
// slice and the intra-node all-gather. On a Cluster, PerNode is ignored: p
// is the cluster's.
func (h HierarchicalAllReduce) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	inter := h.composes()
	if inter.Collective() != AllReduce {
		return undefined(st)
	}
	lap := lapBytes(perNode, size)
	rs, rsReach := ringCost(perNode, perNode-1, lap, lap) // the all-gather sends as much, reducing nothing
	ag, agReach := ringCost(perNode, perNode-1, lap, 0)
	var in load
	var inReach reach
	if q, ok := inter.(planner); ok {
		in, inReach = loadOn(q, nodes, checkSize(size)/float64(perNode))
	} else {
		in, inReach = split(inter.Cost(nodes, checkSize(size)/float64(perNode)))
	}
	if st != nil {
		st.add(Stage{Intra: costOf(rs, rsReach)})
		st.add(Stage{Inter: costOf(in, inReach)})
		st.add(Stage{Intra: costOf(ag, agReach)})
	}
	r := rsReach.then(inReach).then(agReach)
	r.peers = rsReach.peers + inReach.peers // the all-gather reuses the reduce-scatter's ring
	return rs.then(in).then(ag), r
}

// composes returns the AllReduce run between nodes.
func (h HierarchicalAllReduce) composes() Algorithm {
	if h.Inter == nil {
		return Ring{}
	}
	return h.Inter
}
