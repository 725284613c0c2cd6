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
func (PATAllGather) nodeSize(p int) int     { return p }

// Cost returns PAT AllGather's cost for p ranks and S = size bytes.
func (a PATAllGather) Cost(p int, size float64) Cost { return costOn(a, p, size) }

func (PATAllGather) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	l, r := patCost(p, lapBytes(p, size), 0)
	return flat(nodes, perNode, l, r, st)
}

// PATReduceScatter is PAT's ReduceScatter; see PATAllGather.
type PATReduceScatter struct{}

func (PATReduceScatter) Name() string           { return "pat" }
func (PATReduceScatter) Collective() Collective { return ReduceScatter }
func (PATReduceScatter) nodeSize(p int) int     { return p }

// Cost returns PAT ReduceScatter's cost for p ranks and S = size bytes.
func (a PATReduceScatter) Cost(p int, size float64) Cost { return costOn(a, p, size) }

func (PATReduceScatter) plan(nodes, perNode int, size float64, st *stages) (load, reach) {
	p := nodes * perNode
	b := lapBytes(p, size)
	l, r := patCost(p, b, b)
	return flat(nodes, perNode, l, r, st)
}

// patCost is PAT's cost over p ranks: ⌈log2 P⌉ steps, one message each,
// and the peers of Bruck's algorithm, whose distances PAT walks.
func patCost(p int, bytes, reduced float64) (load, reach) {
	mustRanks(p)
	steps := bits.Len(uint(p - 1))
	return load{steps, steps, bytes, reduced}, reach{bytes, bruckPeers(p, steps), min(1, p-1)}
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
