package schedule

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/inframethod/commlab/commmodel"
)

// Simulation of a Schedule on P in-memory ranks.
//
// Every element is a uint16, and all arithmetic wraps modulo 2^16, which is
// exact for any number of ranks. Rank q's input element k is
//
//	a_q + c_q·x_k  (mod 2^16)
//
// with a_q, c_q (odd) and x_k drawn from the seed by SplitMix64 (inputs). The
// sum of element k over all ranks is then A + C·x_k, A = Σ a_q and C = Σ c_q
// (expected). A schedule that leaves an input out, adds one twice, or takes
// it from the wrong rank or the wrong element changes the output element,
// unless the difference of such terms is 0 modulo 2^16: over the seeds, about
// once in 2^15 elements. An output element that is not also an input starts
// as the complement of the value it must end with, so an element that no
// transfer writes is always found. The rest of each buffer starts at 0.
//
// Layouts, per collective (n = S/ElemBytes elements, parts by partBounds):
//
//	AllReduce      input and output n elements at InOff = OutOff; each output element is the sum over ranks
//	ReduceScatter  input n elements at InOff; rank r's output is part r of P, in place
//	AllGather      rank r's input is part r of P, in place in the n-element output at OutOff
//	Broadcast      the root's n elements at InOff are copied to every rank's OutOff = InOff
//	AllToAll       input n elements at InOff, block j = part j for rank j; rank j's output
//	               holds P blocks of c_j = |part j| elements, the one from rank i at OutOff + i·c_j
//	SendRecv       input n elements at InOff; rank r's n-element output at OutOff is rank r-1's input (mod P)
//
// Tiles. When every transfer writes at the offsets it reads, the input
// and output regions coincide and every rank's output is part of one
// reference (keepsOffsets: every AllReduce, ReduceScatter,
// AllGather and Broadcast here but one-shot's), element e of a rank only
// ever meets element e of the other ranks. The simulation then runs by
// tiles, ranges of offsets: each worker fills, runs through every step and
// checks all ranks' elements of one tile at a time, in about tileBytes of
// buffers that it reuses, so that memory stays bounded however large the
// buffers. Any other schedule runs as one tile holding the whole buffers,
// and its fill, steps and check are shared over the workers by rank.

// value is a simulated element: 16 bits, as few as keep a wrong element
// from passing by chance more than about once in 2^15, so that whole
// buffers take half the memory of 4-byte elements.
type value = uint16

// valueBytes is the size of a value in bytes.
const valueBytes = 2

// tileBytes is about what a worker's tile of all ranks' buffers takes.
const tileBytes = 8 << 20

// parallelFrom is the number of elements from which the work of one tile
// (a fill, a step, a check) is shared over the workers; below it a
// goroutine costs more than it saves.
const parallelFrom = 1 << 16

// regions returns the lengths of the input and output regions at InOff and
// OutOff, in elements: n and n, except the P blocks of ⌈n/P⌉ elements at most
// of an AllToAll output.
func (s *Schedule) regions() (in, out int) {
	n := s.Elems()
	if s.Collective == commmodel.AllToAll && s.P > 0 {
		return n, s.P * ((n + s.P - 1) / s.P)
	}
	return n, n
}

// A region is elements [lo, hi) of a rank's input or output, element k at
// offset off+k of its buffer; none if lo >= hi.
type region struct{ off, lo, hi int }

// minus returns the elements of g at offsets outside h, as two regions,
// either of which may be empty.
func (g region) minus(h region) [2]region {
	if h.lo >= h.hi {
		return [2]region{g, {}}
	}
	return [2]region{
		{g.off, g.lo, min(g.hi, h.off+h.lo-g.off)},
		{g.off, max(g.lo, h.off+h.hi-g.off), g.hi},
	}
}

// input returns rank r's input region.
func (s *Schedule) input(r int) region {
	n := s.Elems()
	switch s.Collective {
	case commmodel.AllGather:
		lo, hi := partBounds(n, s.P, r)
		return region{s.OutOff, lo, hi}
	case commmodel.Broadcast:
		if r != s.Root {
			return region{}
		}
	}
	return region{s.InOff, 0, n}
}

// output returns rank r's output region.
func (s *Schedule) output(r int) region {
	n := s.Elems()
	switch s.Collective {
	case commmodel.ReduceScatter:
		lo, hi := partBounds(n, s.P, r)
		return region{s.OutOff, lo, hi}
	case commmodel.AllToAll:
		lo, hi := partBounds(n, s.P, r)
		return region{s.OutOff, 0, s.P * (hi - lo)}
	}
	return region{s.OutOff, 0, n}
}

// rankOutputs reports whether each rank of collective c must end with an
// output of its own (AllToAll's blocks, SendRecv's neighbour's input),
// which Simulate computes rank by rank, where every other collective's
// ranks end with one reference or their part of it.
func rankOutputs(c commmodel.Collective) bool {
	return c == commmodel.AllToAll || c == commmodel.SendRecv
}

// keepsOffsets reports whether s can be simulated by tiles: ranks whose
// outputs share one reference (not rankOutputs), input and output at the
// same offset, and every transfer writing at the offset it reads.
func (s *Schedule) keepsOffsets() bool {
	if rankOutputs(s.Collective) || s.InOff != s.OutOff {
		return false
	}
	for _, step := range s.Steps {
		for _, t := range step {
			if t.SrcOff != t.DstOff {
				return false
			}
		}
	}
	return true
}

// tileOffsets is the length of a tile of p ranks: about tileBytes of
// values, at least one offset.
func tileOffsets(p int) int { return max(1, tileBytes/(valueBytes*p)) }

// tile returns the length of the tiles Simulate runs s by: tileOffsets if s
// keeps its offsets, else the whole buffer.
func (s *Schedule) tile() int {
	if s.keepsOffsets() {
		return tileOffsets(s.P)
	}
	return s.Len
}

// Result is what Simulate found: the schedule's counts and whether the
// collective's output was right.
type Result struct {
	Counts
	// Correct reports whether every rank's output equals the direct reference.
	Correct bool
	// Mismatch describes the first wrong element; empty when Correct.
	Mismatch string
}

// Simulate executes s on P ranks filled from seed, checks every element of
// every rank's output against a direct reference (a sum, a gather, a copy
// or a permutation) and counts the schedule's traffic. An invalid schedule
// is an error. A schedule that keeps its offsets runs by tiles, in a few
// megabytes per worker; any other holds every rank's whole buffer.
func Simulate(s *Schedule, seed uint64) (Result, error) {
	staged, err := s.hazards()
	if err != nil {
		return Result{}, err
	}
	mis := newSim(s, staged, seed).run(s.tile())
	return Result{Counts: Count(s), Correct: mis == "", Mismatch: mis}, nil
}

// sim is what the workers of one simulation share.
type sim struct {
	s          *Schedule
	seed       uint64
	a, c       []value // a_q and c_q of each rank's inputs
	sumA, sumC value   // their sums over the ranks
	steps      []stepIndex
	workers    int
}

// stepIndex is a step's transfers that change data, in order of SrcOff,
// so that a tile finds those that meet it by binary search.
type stepIndex struct {
	order  []int32 // transfers with Len > 0 that move data, by SrcOff
	offs   []int   // offs[k] is the SrcOff of transfer order[k]
	reach  int     // the longest of them
	staged []bool  // staged[ti]: transfer ti reads the snapshot (hazards); nil if none does
}

// newSim draws the inputs' coefficients from seed and indexes the steps of
// s, whose snapshot reads are staged.
func newSim(s *Schedule, staged [][]int, seed uint64) *sim {
	m := &sim{s: s, seed: seed, a: make([]value, s.P), c: make([]value, s.P),
		steps: make([]stepIndex, len(s.Steps)), workers: runtime.GOMAXPROCS(0)}
	for q := range s.P {
		h := splitmix64(seed, 1<<63|uint64(q))
		m.a[q], m.c[q] = value(h), value(h>>32)|1
		m.sumA += m.a[q]
		m.sumC += m.c[q]
	}
	for si, step := range s.Steps {
		ix := &m.steps[si]
		for ti, t := range step {
			if t.Len > 0 && t.moves() {
				ix.order = append(ix.order, int32(ti))
				ix.reach = max(ix.reach, t.Len)
			}
		}
		slices.SortFunc(ix.order, func(a, b int32) int { return cmp.Compare(step[a].SrcOff, step[b].SrcOff) })
		ix.offs = make([]int, len(ix.order))
		for k, ti := range ix.order {
			ix.offs[k] = step[ti].SrcOff
		}
		if len(staged[si]) > 0 {
			ix.staged = make([]bool, len(step))
			for _, ti := range staged[si] {
				ix.staged[ti] = true
			}
		}
	}
	return m
}

// splitmix64 returns output i of SplitMix64 seeded with seed (Steele, Lea
// and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014;
// the generator of Java's SplittableRandom).
func splitmix64(seed, i uint64) uint64 {
	z := seed + (i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// badElem is a wrong element: rank r's element at (an offset in its
// buffer), which holds got instead of want; r < 0 means none.
type badElem struct {
	r, at     int
	got, want value
}

// before reports whether b comes before c: lower rank, then lower offset.
func (b badElem) before(c badElem) bool {
	return c.r < 0 || b.r >= 0 && (b.r < c.r || b.r == c.r && b.at < c.at)
}

// run simulates s by tiles of tile offsets and returns "" if every output
// element is right, else a description of the first wrong one (lowest
// rank, then lowest offset).
func (m *sim) run(tile int) string {
	var mu sync.Mutex
	bad := badElem{r: -1}
	m.eachTile(tile, func(w *worker, lo, hi int) {
		b := w.tile(lo, hi)
		mu.Lock()
		if b.before(bad) {
			bad = b
		}
		mu.Unlock()
	})
	if bad.r < 0 {
		return ""
	}
	return fmt.Sprintf("rank %d element %d: got %d, want %d", bad.r, bad.at, bad.got, bad.want)
}

// eachTile calls f on every tile [lo, hi) of tile offsets of the buffers,
// the workers taking them in turn, each with buffers of its own.
func (m *sim) eachTile(tile int, f func(w *worker, lo, hi int)) {
	if m.s.Len == 0 {
		return
	}
	tile = min(tile, m.s.Len)
	tiles := (m.s.Len + tile - 1) / tile
	var next atomic.Int64
	inParts(tiles, min(m.workers, tiles), func(int, int, int) {
		w := m.newWorker(tile, tiles == 1)
		for k := int(next.Add(1) - 1); k < tiles; k = int(next.Add(1) - 1) {
			f(w, k*tile, min((k+1)*tile, m.s.Len))
		}
	})
}

// worker holds a tile of every rank's buffer: offsets [lo, hi).
type worker struct {
	*sim
	lo, hi int
	shared bool      // share each phase's work over the workers (a single tile)
	bufs   [][]value // bufs[r][o-lo] is rank r's element at offset o
	k0     int       // x[k-k0] is x_k, for the elements k the tile holds
	x      []value
	// want[k-wantLo] is what output element k must hold on every rank, where
	// that is the same for all (not rankOutputs).
	want   []value
	wantLo int
	// scratch is a step's staged sources; meet, the step's transfers that meet the tile.
	scratch []value
	meet    []int32
	tmp     []value // a rank's expected output, for byRank's f when it runs alone
}

// newWorker allocates a worker's buffers for tiles of up to tile offsets.
func (m *sim) newWorker(tile int, shared bool) *worker {
	slab := make([]value, m.s.P*tile)
	w := &worker{sim: m, shared: shared, bufs: make([][]value, m.s.P)}
	for r := range w.bufs {
		w.bufs[r] = slab[r*tile : (r+1)*tile : (r+1)*tile]
	}
	return w
}

// tile fills, runs and checks the offsets [lo, hi) of every rank and
// returns the first wrong element among them.
func (w *worker) tile(lo, hi int) badElem {
	w.setTile(lo, hi)
	w.byRank(w.fill)
	for si := range w.s.Steps {
		w.step(si)
	}
	return w.checkAll()
}

// setTile makes the worker hold the offsets [lo, hi) and computes their
// x_k and, where every rank's output is the same (not rankOutputs; a
// ReduceScatter's part r of it), the reference.
func (w *worker) setTile(lo, hi int) {
	s, n := w.s, w.s.Elems()
	w.lo, w.hi = lo, hi
	// Every element k the tile holds, input or output, is at InOff + k (or
	// the tile is the whole buffer and holds them all).
	w.k0 = min(max(lo-s.InOff, 0), n)
	k1 := min(max(hi-s.InOff, w.k0), n)
	w.x = slices.Grow(w.x[:0], k1-w.k0)[:k1-w.k0]
	for k := range w.x {
		w.x[k] = value(splitmix64(w.seed, uint64(w.k0+k)))
	}
	if out := w.clip(region{s.OutOff, 0, n}); !rankOutputs(s.Collective) && out.lo < out.hi {
		w.wantLo = out.lo
		w.want = slices.Grow(w.want[:0], out.hi-out.lo)[:out.hi-out.lo]
		w.expected(w.want, 0, out.lo)
	}
}

// checkAll checks the tile of every rank and returns the first wrong
// element.
func (w *worker) checkAll() badElem {
	var mu sync.Mutex
	bad := badElem{r: -1}
	w.byRank(func(r0, r1 int, tmp *[]value) {
		b := w.check(r0, r1, tmp)
		mu.Lock()
		if b.before(bad) {
			bad = b
		}
		mu.Unlock()
	})
	return bad
}

// byRank calls f on ranges of ranks that cover [0, P), over the workers when
// the tile is shared and large, else f(0, P); each call has its own scratch
// buffer.
func (w *worker) byRank(f func(r0, r1 int, tmp *[]value)) {
	if !w.shared || w.s.P*(w.hi-w.lo) < parallelFrom {
		f(0, w.s.P, &w.tmp)
		return
	}
	inParts(w.s.P, min(w.workers, w.s.P), func(_, r0, r1 int) {
		var tmp []value
		f(r0, r1, &tmp)
	})
}

// clip returns the elements of g that lie in the tile; none if lo >= hi.
func (w *worker) clip(g region) region {
	g.lo, g.hi = max(g.lo, w.lo-g.off), min(g.hi, w.hi-g.off)
	return g
}

// at returns rank r's elements of g, clipped to the tile.
func (w *worker) at(r int, g region) []value {
	if g.lo >= g.hi {
		return nil
	}
	return w.bufs[r][g.off+g.lo-w.lo : g.off+g.hi-w.lo]
}

// inputs writes rank q's input elements k, k+1, ... to dst.
func (w *worker) inputs(dst []value, q, k int) {
	a, c, x := w.a[q], w.c[q], w.x[k-w.k0:]
	x = x[:len(dst)]
	for i := range dst {
		dst[i] = a + c*x[i]
	}
}

// expected writes to dst what rank r's output elements k, k+1, ... must hold.
func (w *worker) expected(dst []value, r, k int) {
	s, n, p := w.s, w.s.Elems(), w.s.P
	end := k + len(dst)
	switch s.Collective {
	case commmodel.AllReduce, commmodel.ReduceScatter:
		x := w.x[k-w.k0:]
		x = x[:len(dst)]
		for i := range dst {
			dst[i] = w.sumA + w.sumC*x[i]
		}
	case commmodel.AllGather:
		for q := range p {
			lo, hi := partBounds(n, p, q)
			if lo, hi = max(lo, k), min(hi, end); lo < hi {
				w.inputs(dst[lo-k:hi-k], q, lo)
			}
		}
	case commmodel.Broadcast:
		w.inputs(dst, s.Root, k)
	case commmodel.AllToAll: // block i, from rank i, holds its elements [lo, hi)
		lo, hi := partBounds(n, p, r)
		for c, i := hi-lo, k/max(hi-lo, 1); c > 0 && i*c < end; i++ {
			a, b := max(i*c, k), min((i+1)*c, end)
			w.inputs(dst[a-k:b-k], i, lo+a-i*c)
		}
	case commmodel.SendRecv:
		w.inputs(dst, mod(r-1, p), k)
	}
}

// fill writes the tile of ranks r0 to r1-1: inputs, the complement of the
// expected value in outputs that are not inputs, and 0 elsewhere.
func (w *worker) fill(r0, r1 int, tmp *[]value) {
	for r := r0; r < r1; r++ {
		in, out := w.clip(w.s.input(r)), w.clip(w.s.output(r))
		if tile := w.hi - w.lo; in.hi-in.lo < tile && out.hi-out.lo < tile { // else one of them covers it
			clear(w.bufs[r][:tile])
		}
		for _, g := range out.minus(in) {
			if g.lo < g.hi {
				dst := w.at(r, g)
				for i, v := range w.expect(r, g, tmp) {
					dst[i] = ^v
				}
			}
		}
		if in.lo < in.hi {
			w.inputs(w.at(r, in), r, in.lo)
		}
	}
}

// expect returns what rank r's elements of g, within the tile, must hold:
// the tile's shared reference, or, where rankOutputs, computed in tmp.
func (w *worker) expect(r int, g region, tmp *[]value) []value {
	if g.lo >= g.hi {
		return nil
	}
	if !rankOutputs(w.s.Collective) {
		return w.want[g.lo-w.wantLo : g.hi-w.wantLo]
	}
	*tmp = slices.Grow((*tmp)[:0], g.hi-g.lo)[:g.hi-g.lo]
	w.expected(*tmp, r, g.lo)
	return *tmp
}

// check compares the tile of ranks r0 to r1-1 with their expected outputs
// and returns the first wrong element.
func (w *worker) check(r0, r1 int, tmp *[]value) badElem {
	for r := r0; r < r1; r++ {
		out := w.clip(w.s.output(r))
		got, want := w.at(r, out), w.expect(r, out, tmp)
		if i := mismatch(got, want); i >= 0 {
			return badElem{r: r, at: out.off + out.lo + i, got: got[i], want: want[i]}
		}
	}
	return badElem{r: -1}
}

// mismatch returns the index of the first element where got and want
// differ, or -1; len(want) >= len(got). It compares blocks of 64 elements
// as arrays, which Go compares as memory, and then one element at a time.
func mismatch(got, want []value) int {
	want = want[:len(got)]
	i := 0
	for ; i+64 <= len(got) && *(*[64]value)(got[i:]) == *(*[64]value)(want[i:]); i += 64 {
	}
	for ; i < len(got); i++ {
		if got[i] != want[i] {
			return i
		}
	}
	return -1
}

// step applies step si to the tile: the transfers that meet it, clipped to
// it, every source read as it was when the step began (the staged ones from
// a snapshot taken first). A large step of a shared tile is split over the
// workers by destination rank.
func (w *worker) step(si int) {
	step, ix := w.s.Steps[si], &w.steps[si]
	// The transfers that meet [lo, hi) start after lo - reach and before hi.
	first := sort.SearchInts(ix.offs, w.lo-ix.reach+1)
	w.meet = w.meet[:0]
	elems, staged := 0, 0
	for _, ti := range ix.order[first:] {
		t := &step[ti]
		if t.SrcOff >= w.hi {
			break
		}
		if a, b := w.span(t); a < b {
			w.meet = append(w.meet, ti)
			elems += b - a
			if ix.staged != nil && ix.staged[ti] {
				staged += b - a
			}
		}
	}
	if staged > 0 {
		w.scratch = slices.Grow(w.scratch[:0], staged)[:staged]
		off := 0
		for _, ti := range w.meet {
			if t := &step[ti]; ix.staged[ti] {
				a, b := w.span(t)
				off += copy(w.scratch[off:], w.bufs[t.Src][a-w.lo:b-w.lo])
			}
		}
	}
	if !w.shared || elems < parallelFrom {
		w.apply(step, ix, 0, 1)
		return
	}
	inParts(w.workers, w.workers, func(k, _, _ int) { w.apply(step, ix, k, w.workers) })
}

// span returns the source offsets [a, b) of t that lie in the tile.
func (w *worker) span(t *Transfer) (a, b int) {
	return max(t.SrcOff, w.lo), min(t.SrcOff+t.Len, w.hi)
}

// apply performs the transfers of w.meet whose destination is k mod parts.
func (w *worker) apply(step []Transfer, ix *stepIndex, k, parts int) {
	off := 0 // the next staged source in the scratch
	for _, ti := range w.meet {
		t := &step[ti]
		a, b := w.span(t)
		src := w.bufs[t.Src][a-w.lo : b-w.lo]
		if ix.staged != nil && ix.staged[ti] {
			src = w.scratch[off : off+b-a]
			off += b - a
		}
		if t.Dst%parts != k {
			continue
		}
		d := t.DstOff + a - t.SrcOff - w.lo
		dst := w.bufs[t.Dst][d : d+b-a]
		if t.Op == Copy {
			copy(dst, src)
		} else {
			add(dst, src)
		}
	}
}

// add adds src into dst element by element; len(src) >= len(dst).
func add(dst, src []value) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}

// inParts calls f(k, lo, hi) for each of the w ranges [lo, hi) that
// partBounds cuts [0, n) into, on w goroutines at once; with w <= 1 it calls
// f(0, 0, n) on this one.
func inParts(n, w int, f func(k, lo, hi int)) {
	if w <= 1 {
		f(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := partBounds(n, w, k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(k, lo, hi)
		}()
	}
	wg.Wait()
}
