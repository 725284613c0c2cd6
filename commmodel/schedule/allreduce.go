package schedule

import (
	"math/bits"

	"github.com/inframethod/commlab/commmodel"
)

// Schedules of AllReduce and of its halves, ReduceScatter and AllGather.
//
// Each generator works on a group of ranks (g[m] is member m) and on the
// elements [off, off+n) of their buffers, writes its steps into b from step at
// on, and returns the step after its last. That lets the hierarchy run one
// group per node, or per rail, in the same steps.

// allReduceGroup writes AllReduce algorithm a over group g. scratch is the
// offset of a scratch mirror of the buffer (one-shot reads its input there),
// or -1.
func allReduceGroup(b *builder, at int, a commmodel.Algorithm, g []int, off, n, scratch int) int {
	switch a.(type) {
	case commmodel.Ring:
		at = ringReduceScatter(b, at, g, off, n)
		return ringAllGather(b, at, g, off, n)
	case commmodel.HalvingDoubling:
		return halvingDoubling(b, at, g, off, n)
	case commmodel.TwoShot:
		return twoShot(b, at, g, off, n)
	case commmodel.OneShot:
		return oneShot(b, at, g, off, n, scratch)
	}
	panic("schedule: allReduceGroup: no schedule for " + a.Name()) // layoutOf rejects it first
}

// ringReduceScatter: in step t member m reduces part (m-t-1) mod k into member
// m+1, so that after k-1 steps member m holds the sum of part m.
func ringReduceScatter(b *builder, at int, g []int, off, n int) int {
	return ringLap(b, at, g, off, n, 1, Reduce)
}

// ringAllGather: in step t member m copies part (m-t) mod k to member m+1, so
// that after k-1 steps every member holds every member's part.
func ringAllGather(b *builder, at int, g []int, off, n int) int {
	return ringLap(b, at, g, off, n, 0, Copy)
}

// ringLap is one lap of a ring of k members: k-1 steps in which member m
// sends part (m-t-shift) mod k to member m+1.
func ringLap(b *builder, at int, g []int, off, n, shift int, op Op) int {
	k := len(g)
	for t := range k - 1 {
		b.grow(at+t, k)
		for m := range k {
			lo, hi := partBounds(n, k, mod(m-t-shift, k))
			b.put(at+t, Transfer{Src: g[m], Dst: g[(m+1)%k], SrcOff: off + lo, DstOff: off + lo, Len: hi - lo, Op: op})
		}
	}
	return at + max(k-1, 0)
}

// halvingDoubling is Rabenseifner's algorithm with MPICH's fold. With
// P' = 2^⌊log2 k⌋ and r = k-P', members 2i (i < r) first reduce their whole
// range into member 2i+1; the P' survivors (virtual rank v is member 2v+1
// for v < r, member v+r otherwise) run a reduce-scatter by recursive halving
// at distances 1, 2, ..., P'/2, each step sending the half of the current
// window the partner keeps, then an all-gather by recursive doubling back
// through the same distances; finally each member 2i+1 copies the result to
// member 2i. The window is a run of the P' parts of the range.
func halvingDoubling(b *builder, at int, g []int, off, n int) int {
	k := len(g)
	if k <= 1 {
		return at
	}
	q := 1 << (bits.Len(uint(k)) - 1)
	rem := k - q
	member := func(v int) int {
		if v < rem {
			return g[2*v+1]
		}
		return g[v+rem]
	}
	if rem > 0 {
		for i := range rem {
			b.put(at, Transfer{Src: g[2*i], Dst: g[2*i+1], SrcOff: off, DstOff: off, Len: n, Op: Reduce})
		}
		at++
	}
	start := func(j int) int { lo, _ := partBounds(n, q, j); return off + lo }
	lo, hi := make([]int, q), make([]int, q)
	for v := range q {
		hi[v] = q
	}
	send := func(v, d, a, z int, op Op) {
		b.put(at, Transfer{Src: member(v), Dst: member(v ^ d), SrcOff: start(a), DstOff: start(a), Len: start(z) - start(a), Op: op})
	}
	for d := 1; d < q; d <<= 1 { // reduce-scatter: keep one half, send the other
		for v := range q {
			mid := (lo[v] + hi[v]) / 2
			if v&d == 0 {
				send(v, d, mid, hi[v], Reduce)
				hi[v] = mid
			} else {
				send(v, d, lo[v], mid, Reduce)
				lo[v] = mid
			}
		}
		at++
	}
	for d := q / 2; d >= 1; d >>= 1 { // all-gather: send the window, double it
		for v := range q {
			send(v, d, lo[v], hi[v], Copy)
			if w := hi[v] - lo[v]; v&d == 0 {
				hi[v] += w
			} else {
				lo[v] -= w
			}
		}
		at++
	}
	if rem > 0 {
		for i := range rem {
			b.put(at, Transfer{Src: g[2*i+1], Dst: g[2*i], SrcOff: off, DstOff: off, Len: n, Op: Copy})
		}
		at++
	}
	return at
}

// twoShot: in the first step every member m pulls its part m from the others
// (recorded as each owner j sending part m to m, which reduces it); in the
// second, member m sends its reduced part to all the others.
func twoShot(b *builder, at int, g []int, off, n int) int {
	if len(g) <= 1 {
		return at
	}
	twoShotPhase(b, at, g, off, n, Reduce)
	twoShotPhase(b, at+1, g, off, n, Copy)
	return at + 2
}

// twoShotPhase writes one of two-shot's steps into step at: the pull (Reduce:
// every member j sends part m to member m) or the push (Copy: member m sends
// its part m to every member j).
func twoShotPhase(b *builder, at int, g []int, off, n int, op Op) {
	k := len(g)
	for m := range k {
		for j := range k {
			if j == m {
				continue
			}
			src, dst := g[j], g[m] // pull: j's part m into m
			if op == Copy {
				src, dst = g[m], g[j] // push: m's reduced part m to j
			}
			lo, hi := partBounds(n, k, m)
			b.put(at, Transfer{Src: src, Dst: dst, SrcOff: off + lo, DstOff: off + lo, Len: hi - lo, Op: op})
		}
	}
}

// oneShot: every member first copies its range to the scratch mirror (a local
// step); then every member sends the mirror to every other member, which adds
// it into its range. Reading the mirror keeps each rank's input intact while
// its range is being reduced into.
func oneShot(b *builder, at int, g []int, off, n, scratch int) int {
	k := len(g)
	if k <= 1 {
		return at
	}
	for _, r := range g {
		b.put(at, Transfer{Src: r, Dst: r, SrcOff: off, DstOff: scratch + off, Len: n, Op: Copy})
	}
	for _, src := range g {
		for _, dst := range g {
			if src != dst {
				b.put(at+1, Transfer{Src: src, Dst: dst, SrcOff: scratch + off, DstOff: off, Len: n, Op: Reduce})
			}
		}
	}
	return at + 2
}

// chainBroadcast sends the root's buffer (member 0) down the chain of members
// in C = max(chunks, 1) parts: in step t member q passes part t-q to member q+1.
func chainBroadcast(b *builder, g []int, n, chunks int) {
	k, c := len(g), max(chunks, 1)
	if k <= 1 {
		return
	}
	for t := range k - 2 + c {
		for q := range k - 1 {
			if part := t - q; part >= 0 && part < c {
				lo, hi := partBounds(n, c, part)
				b.put(t, Transfer{Src: g[q], Dst: g[q+1], SrcOff: lo, DstOff: lo, Len: hi - lo, Op: Copy})
			}
		}
	}
}
