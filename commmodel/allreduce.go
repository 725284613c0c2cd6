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

// Cost returns ring AllReduce's cost for p ranks and S = size bytes.
func (Ring) Cost(p int, size float64) Cost {
	rs := ringPass(p, size, true)
	return rs.Then(ringPass(p, size, false))
}

// ringPass is one lap of a ring: P-1 steps of S/P each, reducing or not.
func ringPass(p int, size float64, reduce bool) Cost {
	mustRanks(p)
	n := float64(p)
	c := Cost{
		Steps:    p - 1,
		Bytes:    (n - 1) / n * checkSize(size),
		Peers:    min(2, p-1),
		Fanout:   min(1, p-1),
		Messages: p - 1,
	}
	if reduce {
		c.Reduced = c.Bytes
	}
	return c
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

// Cost returns halving-doubling's cost for p ranks and S = size bytes.
func (HalvingDoubling) Cost(p int, size float64) Cost {
	mustRanks(p)
	size = checkSize(size)
	k := bits.Len(uint(p)) - 1 // floor(log2 p)
	q := float64(int(1) << k)  // P'
	c := Cost{
		Steps:    2 * k,
		Bytes:    2 * (q - 1) / q * size,
		Reduced:  (q - 1) / q * size,
		Peers:    k,
		Fanout:   min(1, p-1),
		Messages: 2 * k,
	}
	if p != 1<<k {
		c.Steps += 2
		c.PathBytes = c.Bytes + 2*size
		c.Bytes += size
		c.Reduced += size
		c.Peers++
		c.Messages += 2
	}
	return c
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

// Cost returns two-shot's cost for p ranks and S = size bytes.
func (TwoShot) Cost(p int, size float64) Cost {
	mustRanks(p)
	n := float64(p)
	b := (n - 1) / n * checkSize(size)
	return Cost{
		Steps:    2 * min(1, p-1),
		Bytes:    2 * b,
		Reduced:  b,
		Peers:    p - 1,
		Fanout:   p - 1,
		Messages: 2 * (p - 1),
	}
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

// Cost returns one-shot's cost for p ranks and S = size bytes.
func (OneShot) Cost(p int, size float64) Cost {
	mustRanks(p)
	b := float64(p-1) * checkSize(size)
	return Cost{
		Steps:    min(1, p-1),
		Bytes:    b,
		Reduced:  b,
		Peers:    p - 1,
		Fanout:   p - 1,
		Messages: p - 1,
	}
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
// (the root must send the whole buffer once).
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
