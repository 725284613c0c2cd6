package article

import (
	"fmt"
	"math"

	"github.com/inframethod/commlab/commmodel"
)

// modelClaims returns the article's statements about the cost model, each
// recomputed from the model. Those about measurements are measuredClaims,
// those about fabrics fabricClaims.
func modelClaims(in inputs) []Claim {
	return []Claim{
		claimRingSteps(),
		claimRingAlpha(in),
		claimRingTransfer(in),
		claimOneShotCrossover(in),
		claimOneShotBytes(),
		claimHalvingDoublingPow2(in),
		claimLargeConverge(in),
		claimCrossNodeRatios(in),
		claimHierarchicalBytes(in),
		claimHierarchicalFaster(in),
		claimDecodeRegime(in),
		claimAllToAllMessages(in),
		claimAllToAllSteps(),
	}
}

func claimRingSteps() Claim {
	c := commmodel.Ring{}.Cost(8, 1)
	return Claim{
		ID:        "ring-steps-p8",
		Statement: "ring AllReduce takes 2(P-1) steps: 14 at P = 8",
		Expected:  "14 steps",
		Got:       fmt.Sprintf("%d steps", c.Steps),
		Pass:      c.Steps == 14,
	}
}

func claimRingAlpha(in inputs) Claim {
	t := commmodel.Ring{}.Cost(8, 0).Time(in.node.Intra)
	return Claim{
		ID:        "ring-alpha-p8",
		Statement: "the 14 alphas of ring AllReduce at P = 8 cost 28 us at alpha = 2 us",
		Expected:  "28 us",
		Got:       fmt.Sprintf("%.1f us", t/commmodel.Microsecond),
		Pass:      math.Abs(t-28*commmodel.Microsecond) < 1e-12,
	}
}

func claimRingTransfer(in inputs) Claim {
	c := commmodel.Ring{}.Cost(8, 1e6)
	t := c.Bytes / in.node.Intra.BW
	return Claim{
		ID:        "ring-1mb-transfer",
		Statement: "moving 1 MB in ring AllReduce at P = 8 takes only ~5 us (the steps cost 28 us)",
		Expected:  "~5 us (within 10%)",
		Got:       fmt.Sprintf("%.2f us", t/commmodel.Microsecond),
		Pass:      math.Abs(t/(5*commmodel.Microsecond)-1) <= 0.10,
	}
}

func claimOneShotCrossover(in inputs) Claim {
	s := commmodel.OneShotCrossover(8, in.node.Intra)
	cs := commmodel.Crossovers([]commmodel.Algorithm{commmodel.OneShot{}, commmodel.TwoShot{}}, commmodel.Flat{P: 8, Link: in.node.Intra})
	agree := len(cs) == 1 && cs[0].A == commmodel.Algorithm(commmodel.OneShot{}) && math.Abs(cs[0].Size/s-1) < 1e-9
	return Claim{
		ID:        "oneshot-crossover-p8",
		Statement: "one-shot beats two-shot below S* = alpha·BW/((P-1) - 2(P-1)/P), about 130 KB on an 8-GPU node",
		Expected:  "~130 KB (within 10%), the formula equal to the solved crossover",
		Got:       fmt.Sprintf("%.1f kB (formula and solver agree: %t)", s/1e3, agree),
		Pass:      agree && math.Abs(s/130e3-1) <= 0.10,
	}
}

func claimOneShotBytes() Claim {
	pass := true
	for p := 2; p <= 64; p++ {
		r := commmodel.OneShot{}.Cost(p, 1).Bytes / commmodel.LowerBound(commmodel.AllReduce, p, 1)
		pass = pass && math.Abs(r-float64(p)/2) < 1e-12
	}
	r8 := commmodel.OneShot{}.Cost(8, 1).Bytes / commmodel.LowerBound(commmodel.AllReduce, 8, 1)
	return Claim{
		ID:        "oneshot-bytes",
		Statement: "one-shot sends (P-1)·S, P/2 times the lower bound 2(P-1)/P·S",
		Expected:  "ratio P/2 for every P in 2..64 (4 at P = 8)",
		Got:       fmt.Sprintf("ratio %.3g at P = 8; P/2 for all P in 2..64: %t", r8, pass),
		Pass:      pass,
	}
}

func claimHalvingDoublingPow2(in inputs) Claim {
	equal, worse := true, true
	loses := 0
	nonPow2 := 0
	for p := 3; p <= 64; p++ {
		hd, ring := commmodel.HalvingDoubling{}.Cost(p, 1), commmodel.Ring{}.Cost(p, 1)
		if p&(p-1) == 0 {
			equal = equal && math.Abs(hd.Path()-ring.Path()) < 1e-12
			continue
		}
		nonPow2++
		worse = worse && hd.Path() > ring.Path()
		// Does ring win at 64 MiB on the intra link?
		if commmodel.Time(commmodel.Ring{}, p, 64<<20, in.node.Intra) < commmodel.Time(commmodel.HalvingDoubling{}, p, 64<<20, in.node.Intra) {
			loses++
		}
	}
	return Claim{
		ID:        "hd-needs-pow2",
		Statement: "halving-doubling moves ring's bytes when P is a power of two; otherwise its extra fold steps make it lose to ring",
		Expected:  "same bytes at P = 2^k; more bytes at every other P, so ring wins at large sizes",
		Got: fmt.Sprintf("same bytes at powers of two: %t; more bytes at all %d other P in 3..64: %t; ring faster at 64 MiB for %d of them",
			equal, nonPow2, worse, loses),
		Pass: equal && worse && loses == nonPow2,
	}
}

func claimLargeConverge(in inputs) Claim {
	const size = 256 << 20
	lo, hi := math.Inf(1), 0.0
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.TwoShot{}} {
		t := commmodel.Time(a, 8, size, in.node.Intra)
		lo, hi = min(lo, t), max(hi, t)
	}
	return Claim{
		ID:        "large-converge",
		Statement: "at large sizes ring, halving-doubling and two-shot move the same bytes and converge (measured on H20: within 10%)",
		Expected:  "within 10% at 256 MiB, P = 8",
		Got:       fmt.Sprintf("slowest/fastest = %.3f", hi/lo),
		Pass:      hi/lo < 1.10,
	}
}

func claimCrossNodeRatios(in inputs) Claim {
	bw := in.node.Intra.BW / in.node.Inter.BW
	a := in.node.Inter.Alpha / in.node.Intra.Alpha
	return Claim{
		ID:        "cross-node-ratios",
		Statement: "across nodes the egress bandwidth is 17.5x lower and alpha 7.5x higher than inside a node",
		Expected:  "BW ÷17.5, alpha ×7.5",
		Got:       fmt.Sprintf("BW ÷%.2f, alpha ×%.2f", bw, a),
		Pass:      math.Abs(bw-17.5) < 1e-9 && math.Abs(a-7.5) < 1e-9,
	}
}

func claimHierarchicalBytes(in inputs) Claim {
	const p = 8
	ratio := func(nodes int) float64 {
		c := in.cluster(nodes)
		return c.NetworkBytes(commmodel.HierarchicalAllReduce{PerNode: p}, 1) / c.NetworkBytes(commmodel.Ring{}, 1)
	}
	r2, r64 := ratio(2), ratio(64)
	return Claim{
		ID:        "hierarchical-network-bytes",
		Statement: "hierarchical AllReduce cuts the bytes each GPU sends over the network to ~1/P_intra of a flat ring's",
		Expected:  "at most 1/8 with 8 GPUs per node, tending to 1/8 as nodes grow",
		Got:       fmt.Sprintf("1/%.1f at 2 nodes, 1/%.2f at 64 nodes", 1/r2, 1/r64),
		Pass:      r2 <= 1.0/p && r64 <= 1.0/p && math.Abs(r64*p-1) < 0.02,
	}
}

func claimHierarchicalFaster(in inputs) Claim {
	c := in.cluster(2)
	worst := math.Inf(1)
	for _, s := range commmodel.LogSizes(1<<10, 1<<30, 61) {
		worst = min(worst, c.Time(commmodel.Ring{}, s)/c.Time(commmodel.HierarchicalAllReduce{PerNode: 8}, s))
	}
	big := c.Time(commmodel.Ring{}, 1<<30) / c.Time(commmodel.HierarchicalAllReduce{PerNode: 8}, 1<<30)
	return Claim{
		ID:        "hierarchical-faster-2x8",
		Statement: "across nodes, cutting network bytes is the one optimisation that counts: hierarchical beats a flat ring, the extra NVLink bytes being nearly free",
		Expected:  "hierarchical faster than flat ring at every size from 1 KiB to 1 GiB on 2 x 8 H20",
		Got:       fmt.Sprintf("speed-up at least %.1fx; %.1fx at 1 GiB", worst, big),
		Pass:      worst > 1,
	}
}

func claimDecodeRegime(in inputs) Claim {
	const size = 56e3
	best, _ := commmodel.Fastest(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: 8, Link: in.node.Intra}, size)
	ring := commmodel.Ring{}.Cost(8, size)
	latency := float64(ring.Steps) * in.node.Intra.Alpha
	transfer := ring.Bytes / in.node.Intra.BW
	return Claim{
		ID:        "decode-allreduce-56kb",
		Statement: "a TP decode AllReduce of ~56 KB is in the small-message regime, where steps dominate and one-shot wins",
		Expected:  "one-shot fastest at 56 KB, P = 8; ring's alphas far above its transfer time",
		Got:       fmt.Sprintf("fastest %s; ring %.1f µs of steps vs %.2f µs of transfer", best.Name(), latency/commmodel.Microsecond, transfer/commmodel.Microsecond),
		Pass:      best == commmodel.Algorithm(commmodel.OneShot{}) && latency > 10*transfer,
	}
}

func claimAllToAllMessages(in inputs) Claim {
	c := in.cluster(2)
	const size = 1 << 20
	// Messages between one node pair: every GPU of a node sends its network
	// messages to the other node.
	direct := c.PerNode * c.NetworkMessages(commmodel.Direct{}, size)
	hier := c.PerNode * c.NetworkMessages(commmodel.HierarchicalAllToAll{PerNode: 8}, size)
	sameBytes := c.NetworkBytes(commmodel.Direct{}, size) == c.NetworkBytes(commmodel.HierarchicalAllToAll{PerNode: 8}, size)
	return Claim{
		ID:        "alltoall-hierarchical-messages",
		Statement: "rail-aligned hierarchical AllToAll cuts network messages from P_intra² to P_intra per node pair, network bytes unchanged",
		Expected:  "64 -> 8 messages per node pair on 8-GPU nodes, same network bytes",
		Got:       fmt.Sprintf("%d -> %d messages, same network bytes: %t", direct, hier, sameBytes),
		Pass:      direct == 64 && hier == 8 && sameBytes,
	}
}

func claimAllToAllSteps() Claim {
	d, w, b := commmodel.Direct{}.Cost(8, 1), commmodel.Pairwise{}.Cost(8, 1), commmodel.Bruck{}.Cost(8, 1)
	lb := commmodel.LowerBound(commmodel.AllToAll, 8, 1)
	pass := d.Steps == 1 && d.Bytes == lb && w.Steps == 7 && w.Bytes == lb && w.Fanout == 1 &&
		b.Steps == 3 && b.Bytes > lb
	return Claim{
		ID:        "alltoall-steps-bytes-p8",
		Statement: "AllToAll: direct is optimal in steps and bytes; pairwise keeps the bytes with one message in flight over P-1 rounds; Bruck takes log2 P steps but relays extra bytes",
		Expected:  "P = 8: direct 1 step at the lower bound; pairwise 7 steps at the lower bound, fanout 1; Bruck 3 steps above it",
		Got: fmt.Sprintf("direct %d step, %.3g S; pairwise %d steps, %.3g S, fanout %d; Bruck %d steps, %.3g S (bound %.3g S)",
			d.Steps, d.Bytes, w.Steps, w.Bytes, w.Fanout, b.Steps, b.Bytes, lb),
		Pass: pass,
	}
}
