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
func (r Ring) Cost(p int, size float64) Cost { return withRingPeers(costOf(r.terms(p, size)), p) }

func (Ring) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	lap := lapBytes(p, size)
	return 2 * (p - 1), 2 * (p - 1), 2 * lap, 0, lap
}

// lapBytes is what one lap of a ring sends per rank: P-1 chunks of S/P.
func lapBytes(p int, size float64) float64 {
	mustRanks(p)
	return lapFraction(p) * checkSize(size)
}

// lapFraction returns (P-1)/P for p >= 1: from laps for the rank counts it
// holds, else divided. The division is the same, so the two agree to the
// bit; the load saves the one of the two divisions of most evaluations
// (the other is the time's, by BW) that a product cannot replace, several
// ns of the latency of a time.
func lapFraction(p int) float64 {
	if p < len(laps) {
		return laps[p]
	}
	n := float64(p)
	return (n - 1) / n
}

// laps holds (P-1)/P for 1 <= P <= 1024 at index P (laps[0] is unused),
// 8 kB, of which an evaluation reads one line.
var laps = fractions(func(p int) float64 { n := float64(p); return (n - 1) / n })

// fractions returns f(P) for 1 <= P <= 1024, at index P.
func fractions(f func(p int) float64) *[1025]float64 {
	var t [1025]float64
	for p := 1; p < len(t); p++ {
		t[p] = f(p)
	}
	return &t
}

// withRingPeers gives c the connections of a ring: a predecessor and a
// successor (one rank for P = 2), one message in flight.
func withRingPeers(c Cost, p int) Cost {
	c.Peers, c.Fanout = min(2, p-1), min(1, p-1)
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
func (h HalvingDoubling) Cost(p int, size float64) Cost {
	c := costOf(h.terms(p, size))
	c.Peers, c.Fanout = bits.Len(uint(p))-1, min(1, p-1) // log2 P' partners
	if !isPow2(p) {
		c.Peers++ // the fold partner
	}
	return c
}

func (HalvingDoubling) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	size = checkSize(size)
	k := bits.Len(uint(p)) - 1 // floor(log2 P)
	steps, bytes, reduced = hdCore(k, size)
	if p != 1<<k {
		return steps + 2, steps + 2, bytes + size, bytes + 2*size, reduced + size
	}
	return steps, steps, bytes, 0, reduced
}

// hdCore is halving-doubling over P' = 2^k ranks and S = size bytes, a
// valid size: its steps (and messages), bytes and reduced bytes,
//
//	steps = 2k,  bytes = 2(P'-1)/P'·S,  reduced = (P'-1)/P'·S
//
// The fraction (P'-1)/P' is computed once and doubled for the bytes:
// doubling is exact in binary floating point, so 2·((P'-1)/P') is
// 2(P'-1)/P' to the bit. It is a product by 1/P' (invPow2), not a
// division, which takes several ns.
func hdCore(k int, size float64) (steps int, bytes, reduced float64) {
	q := float64(int(1) << k) // P'
	f := (q - 1) * invPow2(k)
	return 2 * k, 2 * f * size, f * size
}

// invPow2 returns 1/2^k for 0 <= k <= 1022, built from its bits, without a
// division. x·invPow2(k) is x/2^k to the bit, for every x: 1/2^k is exact,
// so the two are the one rounding of the same real number.
func invPow2(k int) float64 { return math.Float64frombits(uint64(1023-k) << 52) }

// divide returns x/n for n >= 1, to the bit: for a power of two, such as
// the 8 GPUs of an H20, H100 or H200 node, a product by 1/n (invPow2),
// which is exact, in place of a division's latency. The composite
// algorithms cut S into per-GPU and per-node slices with it.
func divide(x float64, n int) float64 {
	if n > 0 && n&(n-1) == 0 {
		return x * invPow2(bits.TrailingZeros(uint(n)))
	}
	return x / float64(n)
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
func (t TwoShot) Cost(p int, size float64) Cost { return withAllPeers(costOf(t.terms(p, size)), p) }

func (TwoShot) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	b := lapBytes(p, size)
	return 2 * min(1, p-1), 2 * (p - 1), 2 * b, 0, b
}

// withAllPeers gives c the connections of an algorithm that sends to all
// P-1 other ranks at once.
func withAllPeers(c Cost, p int) Cost {
	c.Peers, c.Fanout = p-1, p-1
	return c
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
func (o OneShot) Cost(p int, size float64) Cost { return withAllPeers(costOf(o.terms(p, size)), p) }

func (OneShot) terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64) {
	mustRanks(p)
	b := float64(p-1) * checkSize(size)
	return min(1, p-1), p - 1, b, 0, b
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
