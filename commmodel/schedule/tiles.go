package schedule

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/inframethod/commlab/commmodel"
)

// Tiled simulation.
//
// In most schedules every transfer writes its elements at the offsets it
// reads them from (SrcOff = DstOff), and the collective's input and output
// are one region (InOff = OutOff): an AllReduce, a ReduceScatter, an
// AllGather or a Broadcast in place (tileable). There, element e of a rank
// only ever meets element e of the other ranks, so the simulation falls
// apart into ranges of offsets, tiles, each of which can be filled, run
// through every step and checked on its own. simulateTiled does that, each
// worker in buffers of P x tile elements that it reuses from tile to tile
// (tileLen: about tileBytes). The 1024-rank ring of 4 MiB, 2 GiB of buffers
// whole, then needs two sets of 8 MiB, which stay in the caches and take no
// fresh pages from the kernel; fresh pages are what a run in a virtual
// machine spent most on, their cost set by the host (docs/performance.md).
//
// The result is the whole simulation's, to the message: the inputs and
// references of a tile are those of its offsets (inputWord hashes the
// element's absolute group), and a mismatch is the one of lowest rank and
// then lowest offset over all tiles. TestTiledIsWhole holds the two to the
// same Check message on every tileable schedule and on spoiled ones, with
// tiles of a few elements.

// tileBytes is the size a worker's tile buffers aim at, P·tile elements.
const tileBytes = 8 << 20

// tiledFrom is the number of elements, P·Len, from which Simulate runs a
// tileable schedule by tiles; below it the whole buffers are small, and
// Simulate runs the code that NewRanks exposes.
const tiledFrom = 1 << 24

// tileable reports whether s can be simulated by tiles: an in-place
// AllReduce, ReduceScatter, AllGather or Broadcast whose every transfer
// keeps its offsets.
func (s *Schedule) tileable() bool {
	switch s.Collective {
	case commmodel.AllReduce, commmodel.ReduceScatter, commmodel.AllGather, commmodel.Broadcast:
	default:
		return false
	}
	if s.InOff != s.OutOff {
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

// tileLen is the tile length for p ranks: about tileBytes of buffers over
// the ranks, a whole number of input groups (wordInputs), at least one.
func tileLen(p int) int {
	per := tileBytes / (p * storageBytes(p))
	return max(wordInputs, per/wordInputs*wordInputs)
}

// tileable reports whether the schedules laid out as lay for c are
// tileable, as far as the layout tells (Footprint): in place and not an
// AllToAll. Every such schedule is (TestTileableLayout); a few others are
// too, such as hierarchical AllReduce with one-shot on one node.
func (lay layout) tileable(c commmodel.Collective) bool {
	return c != commmodel.AllToAll && lay.scratch < 0 && lay.work < 0
}

// tileStaged bounds the elements a tile of tile offsets snapshots in a
// step: stagedReads·tile, and staged, where the layout knows how often an
// offset is read.
func (lay layout) tileStaged(tile int) int {
	if lay.stagedReads == 0 {
		return lay.staged
	}
	return min(lay.staged, lay.stagedReads*tile)
}

// tileFootprint is what a tiled simulation holds beside the schedule, in
// bytes: each worker's tiles of p ranks, its reference and its snapshot of
// at most staged elements (a tile's, layout.stagedReads), in values of b
// bytes.
func tileFootprint(p, staged, b int) float64 {
	tile := tileLen(p)
	return float64(runtime.GOMAXPROCS(0)) * float64(b) * (float64(p)*float64(tile+3) + float64(tile+3) + float64(staged))
}

// tiling is what the workers of a tiled simulation share: the schedule and,
// per step, its transfers that change data, in order of offset.
type tiling struct {
	s      *Schedule
	tile   int       // the tile length, a multiple of wordInputs
	order  [][]int32 // order[si]: step si's transfers of Len > 0 that move, by SrcOff
	offs   [][]int   // offs[si][k]: the SrcOff of transfer order[si][k]
	reach  []int     // reach[si]: the longest of them
	staged [][]bool  // staged[si][ti]: transfer ti of step si reads a snapshot (hazards)
}

// newTiling indexes the steps of s, whose snapshot reads are staged, for
// tiles of tile elements, the steps split over the workers.
func newTiling(s *Schedule, staged [][]int, tile int) *tiling {
	tl := &tiling{
		s:      s,
		tile:   tile,
		order:  make([][]int32, len(s.Steps)),
		offs:   make([][]int, len(s.Steps)),
		reach:  make([]int, len(s.Steps)),
		staged: make([][]bool, len(s.Steps)),
	}
	inParts(len(s.Steps), s.workers(), func(_, lo, hi int) {
		for si := lo; si < hi; si++ {
			step := s.Steps[si]
			var ord []int32
			for ti, t := range step {
				if t.Len > 0 && t.moves() {
					ord = append(ord, int32(ti))
					tl.reach[si] = max(tl.reach[si], t.Len)
				}
			}
			slices.SortFunc(ord, func(a, b int32) int { return cmp.Compare(step[a].SrcOff, step[b].SrcOff) })
			offs := make([]int, len(ord))
			for k, ti := range ord {
				offs[k] = step[ti].SrcOff
			}
			tl.order[si], tl.offs[si] = ord, offs
			if len(staged[si]) > 0 {
				st := make([]bool, len(step))
				for _, ti := range staged[si] {
					st[ti] = true
				}
				tl.staged[si] = st
			}
		}
	})
	return tl
}

// tileWork is one worker's buffers: a tile of each rank, the snapshot of a
// step's staged sources, the tile's reference and a step's transfers that
// meet the tile.
type tileWork[T value] struct {
	bufs    [][]T
	scratch []T
	want    []T
	meet    []int32
	// cur[si] is where the search of step si's offsets starts: the first
	// transfer that can meet the last tile, whose offset was last.
	cur  []int
	last int
}

// badElem is a wrong element: rank r's element at (in its buffer), which
// holds got; r < 0 means none.
type badElem struct {
	r, at int
	got   float64
}

// before reports whether b comes before c: lower rank, then lower offset.
func (b badElem) before(c badElem) bool {
	return c.r < 0 || b.r >= 0 && (b.r < c.r || b.r == c.r && b.at < c.at)
}

// simulateTiled fills, runs and checks the tileable s by tiles of tile
// elements (0: tileLen) and returns what Ranks.Check would: "" if every
// output is right, else the first wrong element (lowest rank, then lowest
// offset). It validates s as NewRanks does.
func simulateTiled(s *Schedule, seed uint64, tile int) (string, error) {
	staged, err := s.hazards()
	if err != nil {
		return "", err
	}
	if tile <= 0 {
		tile = tileLen(s.P)
	}
	switch storageBytes(s.P) {
	case 2:
		return runTiles[uint16](s, staged, seed, tile)
	case 4:
		return runTiles[float32](s, staged, seed, tile)
	}
	return runTiles[float64](s, staged, seed, tile)
}

// runTiles is simulateTiled in buffers of T. The tiles' bounds are InOff +
// k·tile for every integer k, within [0, Len], so that every tile's inputs
// start on a whole group; the workers take the tiles in turn.
func runTiles[T value](s *Schedule, staged [][]int, seed uint64, tile int) (string, error) {
	if err := exact[T](s); err != nil {
		return "", err
	}
	if s.Len == 0 {
		return "", nil
	}
	tl := newTiling(s, staged, tile)
	var mu sync.Mutex
	bad := badElem{r: -1}
	eachTile(tl, func(w *tileWork[T], lo, hi int) {
		if b := w.run(tl, seed, lo, hi); b.r >= 0 {
			mu.Lock()
			if b.before(bad) {
				bad = b
			}
			mu.Unlock()
		}
	})
	if bad.r < 0 {
		return "", nil
	}
	return mismatchMessage(s, seed, bad), nil
}

// eachTile calls f on every tile [lo, hi) of tl's schedule, over the
// workers, each with its own tileWork and taking the tiles in increasing
// order (tileWork.step counts on it).
func eachTile[T value](tl *tiling, f func(w *tileWork[T], lo, hi int)) {
	s, tile := tl.s, tl.tile
	// Tile k, from first on, covers [bound(k), bound(k+1)).
	first := -((s.InOff + tile - 1) / tile)
	bound := func(k int) int { return min(max(s.InOff+(first+k)*tile, 0), s.Len) }
	tiles := (s.Len-s.InOff+tile-1)/tile - first
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), tiles) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newTileWork[T](s.P, tile)
			for k := int(next.Add(1) - 1); k < tiles; k = int(next.Add(1) - 1) {
				if lo, hi := bound(k), bound(k+1); lo < hi {
					f(w, lo, hi)
				}
			}
		}()
	}
	wg.Wait()
}

// newTileWork allocates a worker's buffers for p ranks and tiles of up to
// n elements, one slab.
func newTileWork[T value](p, n int) *tileWork[T] {
	n = (n + 3) &^ 3 // whole words, so that every rank's tile starts on one
	slab := make([]T, p*n)
	w := &tileWork[T]{bufs: make([][]T, p), want: make([]T, n), last: -1}
	for r := range w.bufs {
		w.bufs[r] = slab[r*n : (r+1)*n : (r+1)*n]
	}
	return w
}

// run fills, runs and checks the offsets [lo, hi) of every rank and returns
// the first wrong element among them.
func (w *tileWork[T]) run(tl *tiling, seed uint64, lo, hi int) badElem {
	s := tl.s
	summed := false
	if u, ok := any(w).(*tileWork[uint16]); ok {
		summed = fillSummedTile(u, s, seed, lo, hi)
	}
	if !summed {
		for r := range s.P {
			fillTile(s, w.bufs[r][:hi-lo], seed, r, lo)
		}
	}
	w.steps(tl, lo, hi)
	return w.check(s, seed, lo, hi, summed)
}

// fillSummedTile is the tile's fill of an AllReduce or a ReduceScatter in
// uint16, as fillSummed in sim.go fills whole buffers: four ranks at a
// time, their inputs added up as they are written into want, the tile's
// reference, which check then reads instead of hashing every input again.
// It returns false, and writes nothing, for another collective or where
// the tile's inputs cannot be read as words.
func fillSummedTile(w *tileWork[uint16], s *Schedule, seed uint64, lo, hi int) bool {
	n := s.Elems()
	a, b := max(lo, s.InOff), min(hi, s.InOff+n)
	if s.Collective != commmodel.AllReduce && s.Collective != commmodel.ReduceScatter || !littleEndian || a >= b {
		return false
	}
	for _, buf := range w.bufs {
		if !aligned8(buf[a-lo:]) {
			return false
		}
	}
	i0, whole := a-s.InOff, (b-a)/wordInputs*wordInputs
	want := w.want[:b-a]
	sum := asWords(want[:whole])
	clear(want)
	fillRanks(sum, func(r int) []uint64 { return asWords(w.bufs[r][a-lo : a-lo+whole]) }, seed, 0, s.P, i0/wordInputs)
	for r, buf := range w.bufs { // the zeros and a last partial group
		buf = buf[:hi-lo]
		clear(buf[:a-lo])
		clear(buf[b-lo:])
		inputs(buf[a-lo+whole:b-lo], seed, r, i0+whole)
	}
	addInputs(want, seed, s.P, i0, whole)
	return true
}

// steps applies every step of tl's schedule to the offsets [lo, hi).
func (w *tileWork[T]) steps(tl *tiling, lo, hi int) {
	if len(w.cur) != len(tl.s.Steps) || lo < w.last {
		w.cur = make([]int, len(tl.s.Steps))
	}
	w.last = lo
	for si, step := range tl.s.Steps {
		w.step(tl, si, step, lo, hi)
	}
}

// step applies the part of step si that falls in [lo, hi): the transfers
// that meet it, found by offset (tiling.order), clipped to it, the staged
// sources read from a snapshot taken first. The workers take tiles in
// increasing order, so the first transfer that can reach lo, the first
// that starts after lo - reach, is found by walking on from the last
// tile's (cur), a few transfers a step, where a binary search read a
// dozen cache lines of the step's offsets.
func (w *tileWork[T]) step(tl *tiling, si int, step []Transfer, lo, hi int) {
	ord, offs := tl.order[si], tl.offs[si]
	from := lo - tl.reach[si]
	i := w.cur[si]
	for i < len(offs) && offs[i] <= from {
		i++
	}
	w.cur[si] = i
	w.meet = w.meet[:0]
	need := 0
	st := tl.staged[si]
	for k := i; k < len(offs) && offs[k] < hi; k++ {
		ti := ord[k]
		if t := &step[ti]; t.SrcOff+t.Len > lo {
			w.meet = append(w.meet, ti)
			if st != nil && st[ti] {
				need += min(t.SrcOff+t.Len, hi) - max(t.SrcOff, lo)
			}
		}
	}
	if need > 0 {
		if len(w.scratch) < need {
			w.scratch = make([]T, need)
		}
		off := 0
		for _, ti := range w.meet {
			if t := &step[ti]; st[ti] {
				a, b := max(t.SrcOff, lo)-lo, min(t.SrcOff+t.Len, hi)-lo
				off += copy(w.scratch[off:], w.bufs[t.Src][a:b])
			}
		}
	}
	off := 0
	for _, ti := range w.meet {
		t := &step[ti]
		a, b := max(t.SrcOff, lo)-lo, min(t.SrcOff+t.Len, hi)-lo
		src := w.bufs[t.Src][a:b]
		if st != nil && st[ti] {
			src = w.scratch[off : off+b-a]
			off += b - a
		}
		dst := w.bufs[t.Dst][a:b]
		if t.Op == Copy {
			copy(dst, src)
		} else {
			add(dst, src)
		}
	}
}

// check compares every rank's output in [lo, hi) with the reference, which
// want holds already if summed (fillSummedTile), and returns the first wrong
// element, lowest rank first.
func (w *tileWork[T]) check(s *Schedule, seed uint64, lo, hi int, summed bool) badElem {
	n := s.Elems()
	// The output region's offsets in the tile, as elements a to b of the region.
	a, b := max(lo, s.OutOff)-s.OutOff, min(hi, s.OutOff+n)-s.OutOff
	if a >= b {
		return badElem{r: -1}
	}
	want := w.want[:b-a]
	if !summed {
		reference(s, want, seed, a)
	}
	for r := range s.P {
		c, d := a, b
		if s.Collective == commmodel.ReduceScatter {
			pl, ph := partBounds(n, s.P, r)
			c, d = max(c, pl), min(d, ph)
			if c >= d {
				continue
			}
		}
		buf := w.bufs[r][s.OutOff+c-lo : s.OutOff+d-lo]
		if at := mismatch(buf, want[c-a:d-a]); at >= 0 {
			return badElem{r: r, at: s.OutOff + c + at, got: asFloat(buf[at])}
		}
	}
	return badElem{r: -1}
}

// fillTile writes the offsets [lo, lo+len(buf)) of rank r's buffer, as
// Ranks.Fill writes them, to buf: the region's inputs and sentinels, 0
// elsewhere.
func fillTile[T value](s *Schedule, buf []T, seed uint64, r, lo int) {
	n := s.Elems()
	a, b := max(lo, s.InOff), min(lo+len(buf), s.InOff+n)
	if a >= b {
		clear(buf)
		return
	}
	clear(buf[:a-lo])
	clear(buf[b-lo:])
	x, i0 := buf[a-lo:b-lo], a-s.InOff // region elements i0 to i0+len(x)-1
	switch s.Collective {
	case commmodel.AllReduce, commmodel.ReduceScatter:
		inputs(x, seed, r, i0)
	case commmodel.AllGather:
		sentinel(x)
		pl, ph := partBounds(n, s.P, r)
		if c, d := max(pl, i0), min(ph, i0+len(x)); c < d {
			inputs(x[c-i0:d-i0], seed, r, c)
		}
	case commmodel.Broadcast:
		if r == s.Root {
			inputs(x, seed, r, i0)
		} else {
			sentinel(x)
		}
	}
}

// reference writes to want the output of the tileable s's region elements
// i0 to i0+len(want)-1 (for a ReduceScatter, the sums that the rank owning
// each element must hold); i0 is a multiple of wordInputs. The whole
// buffers' check takes its AllGather and Broadcast references from it too.
func reference[T value](s *Schedule, want []T, seed uint64, i0 int) {
	switch s.Collective {
	case commmodel.AllReduce, commmodel.ReduceScatter:
		clear(want)
		whole := len(want) / wordInputs * wordInputs
		addGroupSums(want[:whole], seed, s.P, i0/wordInputs)
		addInputs(want, seed, s.P, i0, whole)
	case commmodel.AllGather:
		n := s.Elems()
		for q := range s.P {
			pl, ph := partBounds(n, s.P, q)
			if c, d := max(pl, i0), min(ph, i0+len(want)); c < d {
				inputs(want[c-i0:d-i0], seed, q, c)
			}
		}
	case commmodel.Broadcast:
		inputs(want, seed, s.Root, i0)
	}
}
