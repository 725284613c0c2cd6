package schedule

import "math/bits"

// The schedules of PAT (commmodel.PATAllGather, commmodel.PATReduceScatter),
// in place as the rings': block q is part q of P of the buffer. Each block
// has its binomial tree, rooted at its owner q; rank r is at offset
// j = r-q mod P in it.

// patAllGather: in the step of distance 2^d, d = D-1 down to 0, every rank
// copies to r+2^d each block it holds whose child at that distance exists:
// offsets j that are multiples of 2^(d+1) with j+2^d < P.
func patAllGather(b *builder, p, n int) {
	levels := bits.Len(uint(p - 1))
	for at := range levels {
		d := levels - 1 - at
		for r := range p {
			for j := 0; j+1<<d < p; j += 2 << d {
				lo, hi := partBounds(n, p, mod(r-j, p))
				b.put(at, Transfer{Src: r, Dst: (r + 1<<d) % p, SrcOff: lo, DstOff: lo, Len: hi - lo, Op: Copy})
			}
		}
	}
}

// patReduceScatter: in the step of distance 2^d, d = 0 up to D-1, every rank
// reduces into r-2^d its partial sum of each block at an offset whose lowest
// set bit is d, having received those of its children at distances below.
func patReduceScatter(b *builder, p, n int) {
	for d := 0; 1<<d < p; d++ {
		for r := range p {
			for j := 1 << d; j < p; j += 2 << d {
				lo, hi := partBounds(n, p, mod(r-j, p))
				b.put(d, Transfer{Src: r, Dst: mod(r-1<<d, p), SrcOff: lo, DstOff: lo, Len: hi - lo, Op: Reduce})
			}
		}
	}
}
