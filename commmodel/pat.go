package commmodel

import "math/bits"

// PAT (Parallel Aggregated Trees) is NCCL's AllGather and ReduceScatter for
// one GPU per node (NCCL 2.30.7 src/include/collectives.h, PatAGAlgorithm
// and PatRSAlgorithm; src/transport/generic.cc, ncclTransportPatConnect,
// which connects rank r to r±2^d for every d). Every rank's block travels
// its own binomial tree over the ranks, and the P trees are aggregated: what
// the trees send over one edge in one step goes as one message.
//
// AllGather (PATAllGather) spreads block q from rank q over distances
// 2^(D-1), ..., 2, 1, D = ⌈log2 P⌉: in the step of distance 2^d each rank that
// holds the block (offset j = r-q mod P a multiple of 2^(d+1)) sends it to
// r+2^d if j+2^d < P. A rank then sends, in that step, the blocks of
//
//	b_d = #{j < P : j ≡ 0 mod 2^(d+1), j+2^d < P} = ⌈(P-2^d)/2^(d+1)⌉
//
// offsets, the same for every rank, and over the D steps Σ b_d = P-1 blocks:
//
//	steps = ⌈log2 P⌉, bytes = (P-1)/P·S, peers = #{±2^d mod P}, fanout = 1
//
// as few steps as Bruck's, with the bytes of ring. ReduceScatter
// (PATReduceScatter) runs the same trees the other way, distances 1, 2, ...,
// 2^(D-1): in the step of distance 2^d a rank sends r-2^d its partial sums of
// the blocks whose offset's lowest set bit is d, b_d of them, and reduces as
// many; reduced = (P-1)/P·S.
//
// This is the fully aggregated limit. NCCL aggregates only as many pieces as
// its buffers hold, so large messages take more steps; its tuning model
// charges log2 N·interLat/3.5 + 2.8 us·P (src/graph/tuning.cc), "still a
// linear part".
type PATAllGather struct{}

func (PATAllGather) Name() string           { return "pat" }
func (PATAllGather) Collective() Collective { return AllGather }

// Cost returns PAT AllGather's cost for p ranks and S = size bytes.
func (a PATAllGather) Cost(p int, size float64) Cost { return patCost(costOf(a.terms(p, size)), p) }

func (PATAllGather) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	steps = patSteps(p)
	return steps, steps, lapFraction(p) * checkSize(size), 0, 0 // lapBytes, p checked
}

// Stages of PAT: every step has ranks whose partner is on another node (at
// one GPU per node, where NCCL runs it, all of them), so PAT is flat.
func (a PATAllGather) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, a.Cost(nodes*perNode, size))
}

func (a PATAllGather) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	steps, messages, bytes, pathBytes, reduced := a.terms(nodes*perNode, size)
	return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
}

// PATReduceScatter is PAT's ReduceScatter; see PATAllGather.
type PATReduceScatter struct{}

func (PATReduceScatter) Name() string           { return "pat" }
func (PATReduceScatter) Collective() Collective { return ReduceScatter }

// Cost returns PAT ReduceScatter's cost for p ranks and S = size bytes.
func (a PATReduceScatter) Cost(p int, size float64) Cost {
	return patCost(costOf(a.terms(p, size)), p)
}

func (PATReduceScatter) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	steps = patSteps(p)
	b := lapFraction(p) * checkSize(size) // lapBytes, p checked
	return steps, steps, b, 0, b
}

// Stages of PAT ReduceScatter, flat as PATAllGather's.
func (a PATReduceScatter) Stages(nodes, perNode int, size float64) []Stage {
	return flatStages(nodes, perNode, a.Cost(nodes*perNode, size))
}

func (a PATReduceScatter) clusterTime(nodes, perNode int, intra, inter Link, size float64) float64 {
	steps, messages, bytes, pathBytes, reduced := a.terms(nodes*perNode, size)
	return flatTime(nodes, perNode, intra, inter, steps, messages, bytes, pathBytes, reduced)
}

// patSteps is ⌈log2 P⌉.
func patSteps(p int) int {
	mustRanks(p)
	return bits.Len(uint(p - 1))
}

// patCost gives c PAT's connections: r±2^d, one at a time.
func patCost(c Cost, p int) Cost {
	c.Peers, c.Fanout = bruckPeers(p, c.Steps), min(1, p-1)
	return c
}

// PATBlocks returns b_d, the blocks every rank sends in PAT's step of
// distance 2^d over p ranks: ⌈(P-2^d)/2^(d+1)⌉, or 0 if 2^d >= P.
func PATBlocks(p, d int) int {
	mustRanks(p)
	if d < 0 || d >= bits.UintSize-2 || 1<<d >= p {
		return 0
	}
	return (p - 1<<d + 1<<(d+1) - 1) >> (d + 1)
}
