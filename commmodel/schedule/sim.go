package schedule

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"unsafe"

	"github.com/inframethod/commlab/commmodel"
)

// Simulation of a Schedule on P in-memory ranks.
//
// Every rank's buffer is a slice of Len values of the narrowest type that
// holds every sum of the simulation exactly (storageBytes). Inputs are
// integers in [0, maxInput] = [0, 15], the 4-bit digits of a seeded hash of
// (rank, group of 16 elements) (inputWord, in the order digitOf gives, which
// lets a uint16 buffer take four at a time), so every partial sum a reduction
// forms is an integer of at most 15·P, and it is exact
//
//	uint16:   15·P < 2^15  (P <= 2184), the top bit marking a sum that left that range
//	float32:  15·P < 2^24  (P <= 1118481; 24 significand bits)
//	float64:  15·P < 2^53
//
// whatever the element size: what the simulation checks (where every element
// goes and what is added to it) needs exact integers, not the element's own
// width, and Count counts ElemBytes per element. So up to 2184 ranks the
// buffers take 2 bytes per element, half the data for 4-byte elements.
// NewRanks, and so Simulate, refuses a P past float64's bound rather than
// lose exactness. (Within the bounds, a wrong schedule that reduces too often
// cannot pass for right. A uint16 sum is a+b with the top bit of a and of b
// or'ed in: two values below 2^15 add exactly (their sum is below 2^16), and a
// value with the top bit set keeps it, so a sum that ever reached 2^15 stays
// at or above it. A float32 sum of 2^24 or more rounds to at least 2^24.
// Both stay above every right answer.) The reference comes from the seed,
// not from a copy of the input: the sums of an AllReduce or a ReduceScatter
// in uint16 are added up as Fill writes the inputs (fillSummed), every other
// reference is hashed again by Check; every element of every rank's output
// is compared with it. Regions that must be written hold a
// sentinel beforehand, -1 in the floats and 2^16 - 1 in uint16 (Values reads
// it, and every uint16 of 2^15 or more, as -1), a value no right sum takes;
// the rest of each buffer holds 0.
//
// Fill, Run and Check share the work over GOMAXPROCS goroutines once it is
// large (parallelFrom elements): Fill and Check by ranks, Run by destination
// rank within each step.
//
// The buffers of all ranks are one allocation, whose pages NewRanks faults
// in at once over the workers (prefault): a page's first touch is what a
// large simulation spends most on in a virtual machine, and asking the
// kernel for the pages up front costs less than taking the faults one by
// one in Fill.
//
// Layouts, per collective (n = S/ElemBytes elements, parts by partBounds):
//
//	AllReduce      input and output n elements at InOff = OutOff; each output element is the sum over ranks
//	ReduceScatter  input n elements at InOff; rank r's output is part r of P, in place
//	AllGather      rank r's input is part r of P, in place in the n-element output at OutOff
//	Broadcast      the root's n elements at InOff are copied to every rank's OutOff = InOff
//	AllToAll       input n elements at InOff, block j = part j for rank j; rank j's output
//	               holds P blocks of c_j = |part j| elements, the one from rank i at OutOff + i·c_j

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

// value is the type of a simulated element (storageBytes).
type value interface{ uint16 | float32 | float64 }

// maxInput is the largest input value: an input is a 4-bit digit of
// inputWord, an integer in [0, maxInput].
const maxInput = 1<<4 - 1

// wordInputs is the number of inputs one inputWord holds: 64 bits of 4-bit digits.
const wordInputs = 16

// storageBytes is the size in bytes of the value that holds one element
// when p ranks are simulated: 2 (uint16) while 15·p < 2^15, 4 (float32)
// while 15·p < 2^24, else 8 (float64).
func storageBytes(p int) int {
	switch {
	case maxInput*int64(p) < exactBelow[uint16]():
		return 2
	case maxInput*int64(p) < exactBelow[float32]():
		return 4
	}
	return 8
}

// exactBelow is the bound that every sum must stay below in T: 2^15 in
// uint16 (whose top bit marks a sum past it), 2^24 in float32 and 2^53 in
// float64 (every integer of smaller magnitude is exact, and so is every sum
// of two of them that stays below it).
func exactBelow[T value]() int64 {
	var zero T
	switch any(zero).(type) {
	case uint16:
		return 1 << 15
	case float32:
		return 1 << 24
	}
	return 1 << 53
}

// sentinelOf is the value of an element that must be written: 0 - 1, which
// is -1 in the floats and wraps to 2^16 - 1 in uint16.
func sentinelOf[T value]() T {
	var x T
	x--
	return x
}

// Ranks holds the buffers of P ranks for one schedule.
type Ranks struct {
	s   *Schedule
	buf buffers // *rankData[T] for T uint16, float32 or float64, by storageBytes
}

// buffers is what Ranks does with its data, whatever the value type.
type buffers interface {
	fill(seed uint64)
	run()
	check(seed uint64) string
	values(r int) []float64
	setValues(r int, v []float64)
}

// NewRanks validates s and allocates its ranks' buffers: Len values per
// rank, uint16 up to 2184 ranks, float32 up to 1118481 and float64 beyond
// (storageBytes). A schedule whose sums could leave even float64's exact
// integers (15·P >= 2^53) is an error.
func NewRanks(s *Schedule) (*Ranks, error) {
	hz, err := s.hazards()
	if err != nil {
		return nil, err
	}
	m := &Ranks{s: s}
	switch storageBytes(s.P) {
	case 2:
		m.buf, err = newRankData[uint16](s, hz)
	case 4:
		m.buf, err = newRankData[float32](s, hz)
	default:
		m.buf, err = newRankData[float64](s, hz)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Values returns a copy of rank r's buffer, Len values; the sentinel, and a
// uint16 sum that reached 2^15, read as -1.
func (m *Ranks) Values(r int) []float64 { return m.buf.values(r) }

// SetValues overwrites rank r's buffer with v, -1 meaning the sentinel. It
// panics unless len(v) is the schedule's Len, and, where the ranks hold
// uint16 (up to 2184 ranks), unless every value is -1 or an integer in
// [0, 2^15 - 1].
func (m *Ranks) SetValues(r int, v []float64) { m.buf.setValues(r, v) }

// Fill writes the seeded input of the schedule's collective into every rank,
// the sentinel (-1) into every output element that is not also input, and 0
// everywhere else. Filling an AllReduce or a ReduceScatter of up to 2184
// ranks also keeps, where the buffers allow it (fillSummed), the sum of
// each element's inputs (2 bytes an element), which Check with the same
// seed compares the outputs with.
func (m *Ranks) Fill(seed uint64) { m.buf.fill(seed) }

// Run executes every step of the schedule on the buffers, one after the
// other. The transfers of a large step are split by destination rank over
// GOMAXPROCS workers, which live for the whole run, so Run allocates nothing
// per step or per transfer.
func (m *Ranks) Run() { m.buf.run() }

// Check compares every element of every rank's output with the reference
// computed from the seed and returns "" if all agree, else a description of
// the first element that does not (lowest rank, then lowest offset).
func (m *Ranks) Check(seed uint64) string { return m.buf.check(seed) }

// rankData is the buffers of P ranks as values of type T.
type rankData[T value] struct {
	s       *Schedule
	bufs    [][]T   // rank r's buffer, Len values
	staged  [][]int // per step, the transfers that read a snapshot
	scratch []T     // the snapshot
	workers int
	ref     []T    // AllReduce, ReduceScatter: the sums of the inputs Fill wrote, or nil
	refSeed uint64 // the seed of those inputs
}

// parallelFrom is the number of elements from which Fill, Run (per step) and
// Check split their work over the workers; below it a goroutine costs more
// than it saves.
const parallelFrom = 1 << 16

// newRankData allocates the buffers of s, whose steps' snapshot reads are staged.
func newRankData[T value](s *Schedule, staged [][]int) (*rankData[T], error) {
	if err := exact[T](s); err != nil {
		return nil, err
	}
	need := 0
	for si, idx := range staged {
		sum := 0
		for _, ti := range idx {
			sum += s.Steps[si][ti].Len
		}
		need = max(need, sum)
	}
	m := &rankData[T]{
		s:       s,
		bufs:    make([][]T, s.P),
		staged:  staged,
		scratch: make([]T, need),
		workers: runtime.GOMAXPROCS(0),
	}
	if s.Len > 0 {
		slab := make([]T, s.P*s.Len)
		prefault(asBytes(slab), len(slab), m.workers)
		for r := range m.bufs {
			m.bufs[r] = slab[r*s.Len : (r+1)*s.Len : (r+1)*s.Len]
		}
	}
	return m, nil
}

// exact refuses s if a sum of its P inputs could leave T's exact integers.
func exact[T value](s *Schedule) error {
	if limit := exactBelow[T](); maxInput*int64(s.P) >= limit {
		var zero T
		return fmt.Errorf("schedule: cannot simulate %d ranks of %d-byte elements exactly: a sum of %d inputs up to %d may reach %d, and %T keeps sums exact only below %d; at most %d ranks",
			s.P, s.ElemBytes, s.P, maxInput, maxInput*int64(s.P), zero, limit, (limit-1)/maxInput)
	}
	return nil
}

// pageBytes is the granule of prefault's ranges: a multiple of every page
// size Go's heap hands out memory in.
const pageBytes = 64 << 10

// prefault faults in the pages of b, fresh memory of elems elements, over
// the workers once it holds parallelFrom elements (populate), each worker a
// range of whole pageBytes, in huge pages where the kernel gives them
// (hugePages).
func prefault(b []byte, elems, workers int) {
	if elems < parallelFrom {
		return // Fill's first touch costs less than the goroutines
	}
	hugePages(b)
	pages := (len(b) + pageBytes - 1) / pageBytes
	splitWork(pages, elems, workers, func(lo, hi int) {
		populate(b[lo*pageBytes : min(hi*pageBytes, len(b))])
	})
}

// touch writes a zero into every 4 KiB of b, which holds zeros: the pages'
// first touch, where the kernel cannot be asked for them (populate).
func touch(b []byte) {
	for i := 0; i < len(b); i += 4 << 10 {
		b[i] = 0
	}
}

// byRank calls f on ranges of ranks that cover [0, P), one range per worker
// and all at once when the buffers hold at least parallelFrom elements, else
// f(0, P).
func (m *rankData[T]) byRank(f func(lo, hi int)) {
	inParts(m.s.P, m.rankParts(), func(_, lo, hi int) { f(lo, hi) })
}

// rankParts is the number of ranges byRank splits the ranks into.
func (m *rankData[T]) rankParts() int {
	if m.s.P*m.s.Len < parallelFrom {
		return 1
	}
	return min(m.workers, m.s.P)
}

// values and setValues convert rank r's buffer to and from float64 (Ranks.Values, Ranks.SetValues).
func (m *rankData[T]) values(r int) []float64 {
	buf := m.bufs[r]
	v := make([]float64, len(buf))
	for i, x := range buf {
		v[i] = asFloat(x)
	}
	return v
}

func (m *rankData[T]) setValues(r int, v []float64) {
	buf := m.bufs[r]
	if len(v) != len(buf) {
		panic(fmt.Sprintf("schedule: SetValues with %d values for a buffer of %d", len(v), len(buf)))
	}
	_, integer := any(buf).([]uint16)
	for i, x := range v {
		switch {
		case x == -1:
			buf[i] = sentinelOf[T]()
		case integer && !(x >= 0 && x < 1<<15 && x == math.Trunc(x)):
			panic(fmt.Sprintf("schedule: SetValues: %g is not an integer in [0, %d] (values of %d ranks are uint16)", x, 1<<15-1, m.s.P))
		default:
			buf[i] = T(x)
		}
	}
}

// asFloat is x as float64, the sentinel (and every uint16 of 2^15 or more)
// as -1.
func asFloat[T value](x T) float64 {
	if u, ok := any(x).(uint16); ok && u >= 1<<15 {
		return -1
	}
	return float64(x)
}

// inputWord is the seeded hash of rank r's group g of wordInputs elements,
// 16g to 16g+15, whose 4-bit digits are their inputs (digitOf): wyrand's
// output at index r·2^40 + g of the stream seed, s = seed + index·K and the
// two halves of the 128-bit product s·(s xor K') xor'ed. It costs one
// multiply and one wide multiply, no shifts, where splitmix64 (this
// package's hash before) costs two multiplies and three xor-shifts, which
// Go's register allocation spills; the fill of 1024 ranks of 4 MiB took
// a tenth less time (docs/performance.md).
func inputWord(seed uint64, r, g int) uint64 {
	s := seed + (uint64(r)<<40|uint64(g))*0xa0761d6478bd642f
	hi, lo := bits.Mul64(s, s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// inputValue is the seeded input of element i on rank r: digit digitOf(i
// mod 16) of inputWord(seed, r, i/16), an integer in [0, maxInput].
func inputValue(seed uint64, r, i int) float64 {
	return float64(inputWord(seed, r, i/wordInputs) >> (4 * digitOf(i%wordInputs)) & maxInput)
}

// digitOf is the digit of a group's inputWord that holds its element e:
// 4(e mod 4) + e/4. Read as four words of 16-bit lanes (lane j of word k
// being element 4k+j, as a little-endian uint16 buffer holds them), the
// group is then (h >> 4k) & lanes16, k = 0..3 (groupWord): one shift and
// one mask write four elements.
func digitOf(e int) int { return 4*(e%4) + e/4 }

// lanes16 masks the low digit of each 16-bit lane; nibbles the low digit of each byte.
const (
	lanes16 = 0x000F_000F_000F_000F
	nibbles = 0x0F0F_0F0F_0F0F_0F0F
)

// groupWord is word k of the group hashed to h (digitOf): elements 4k to
// 4k+3 as 16-bit lanes.
func groupWord(h uint64, k int) uint64 { return h >> (4 * k) & lanes16 }

// littleEndian reports whether a uint64 holds its 16-bit lanes in the order
// of a []uint16 laid over it, lane 0 first: where it does, uint16 buffers
// take a group's inputs as four groupWords.
var littleEndian = func() bool {
	x := uint64(1)
	return *(*uint16)(unsafe.Pointer(&x)) == 1
}()

// inputs writes the inputs of rank r's elements lo to lo+len(dst)-1 to dst,
// whole groups from one inputWord each: as four groupWords where dst holds
// uint16 on an 8-byte boundary, else digit by digit.
func inputs[T value](dst []T, seed uint64, r, lo int) {
	i := 0
	for ; i < len(dst) && (lo+i)%wordInputs != 0; i++ {
		dst[i] = T(inputValue(seed, r, lo+i))
	}
	whole := i + (len(dst)-i)/wordInputs*wordInputs
	if u, ok := any(dst[i:whole]).([]uint16); ok && littleEndian && aligned8(u) {
		groupWords(asWords(u), seed, r, (lo+i)/wordInputs)
		i = whole
	}
	for ; i < whole; i += wordInputs {
		d, h := (*[wordInputs]T)(dst[i:i+wordInputs]), inputWord(seed, r, (lo+i)/wordInputs)
		for e := range d {
			d[e] = T(h >> (4 * digitOf(e)) & maxInput)
		}
	}
	for ; i < len(dst); i++ {
		dst[i] = T(inputValue(seed, r, lo+i))
	}
}

// groupWords writes rank r's groups g0, g0+1, ... to w, four groupWords a group.
func groupWords(w []uint64, seed uint64, r, g0 int) {
	for i := 0; i+4 <= len(w); i += 4 {
		putGroup(w[i:i+4], inputWord(seed, r, g0+i/4))
	}
}

// fill writes the inputs, the sentinels and the zeros (Ranks.Fill), each
// element once, the ranks split over the workers. The inputs of an
// AllReduce or a ReduceScatter in uint16 are also added up as they are
// written (fillSummed), into the reference that Check reads for this seed.
func (m *rankData[T]) fill(seed uint64) {
	m.ref = nil
	if u, ok := any(m).(*rankData[uint16]); ok {
		if ref := fillSummed(u, seed); ref != nil {
			m.ref, m.refSeed = any(ref).([]T), seed
			return
		}
	}
	m.byRank(func(lo, hi int) {
		for r := lo; r < hi; r++ {
			m.fillRank(seed, r)
		}
	})
}

// fillSummed fills the ranks of an AllReduce or a ReduceScatter in uint16
// and returns the sum over the ranks of each element's inputs; it returns
// nil, and writes nothing, for another collective or where the input
// regions cannot be read as words (littleEndian, aligned8). Each worker
// fills its ranks four at a time (fillFour) and adds their inputs into its
// own words of 16-bit lanes, which never carry (15·P < 2^15); the workers'
// words are then added up. Summing as it writes costs the fill about a
// tenth and spares Check a second hash of every input (docs/performance.md).
func fillSummed(m *rankData[uint16], seed uint64) []uint16 {
	s, n := m.s, m.s.Elems()
	if s.Collective != commmodel.AllReduce && s.Collective != commmodel.ReduceScatter || !littleEndian {
		return nil
	}
	for _, buf := range m.bufs {
		if !aligned8(buf[s.InOff:]) {
			return nil
		}
	}
	whole := n / wordInputs * wordInputs
	ref := make([]uint16, n)
	w := m.rankParts()
	parts := make([][]uint64, w) // each worker's sums; the first is ref's
	parts[0] = asWords(ref[:whole])
	inParts(s.P, w, func(k, lo, hi int) {
		if k > 0 {
			parts[k] = make([]uint64, whole/4)
		}
		fillRanks(parts[k], func(r int) []uint64 { return asWords(m.bufs[r][s.InOff : s.InOff+whole]) }, seed, lo, hi, 0)
		for r := lo; r < hi; r++ { // the zeros and a last partial group
			buf := m.bufs[r]
			clearOutside(buf, s.InOff, s.InOff+n, s.InOff, s.InOff+n)
			inputs(buf[s.InOff+whole:s.InOff+n], seed, r, whole)
		}
	})
	for _, part := range parts[1:] {
		for i, x := range part {
			parts[0][i] += x
		}
	}
	addInputs(ref, seed, s.P, 0, whole)
	return ref
}

// addInputs adds to each element of sum from lo on the inputs of p ranks,
// one element at a time: the sums of a last partial group. Element i of sum
// is element i0+i of the region.
func addInputs[T value](sum []T, seed uint64, p, i0, lo int) {
	for i := lo; i < len(sum); i++ {
		for r := range p {
			sum[i] += T(inputValue(seed, r, i0+i))
		}
	}
}

// fillRanks writes the whole groups of ranks lo to hi-1 from group g0 on
// to words(r), four ranks at a time (fillFour), and adds their inputs into
// sum: the fill of fillSummed and of a tile (fillSummedTile).
func fillRanks(sum []uint64, words func(r int) []uint64, seed uint64, lo, hi, g0 int) {
	r := lo
	for ; r+4 <= hi; r += 4 {
		fillFour(sum, words(r), words(r+1), words(r+2), words(r+3), seed, r, g0)
	}
	for ; r < hi; r++ {
		fillOne(sum, words(r), seed, r, g0)
	}
}

// fillFour writes the whole groups of ranks r to r+3 from group g0 on, four
// groupWords a group, to w0 to w3 and adds them into the 16-bit lanes of
// sum: the four ranks' digits add up in 8-bit lanes (at most 60), which
// carryBytes moves into sum's lanes. Four ranks at a time keep the sums in registers for
// three of every four ranks: on the 1024-rank ring the fill took 0.22 s
// this way against 0.33-0.35 s one or two ranks at a time, their sums
// read and written each time.
func fillFour(sum, w0, w1, w2, w3 []uint64, seed uint64, r, g0 int) {
	w0, w1, w2, w3 = w0[:len(sum)], w1[:len(sum)], w2[:len(sum)], w3[:len(sum)]
	for i := 0; i+4 <= len(sum); i += 4 {
		g := g0 + i/4
		h0, h1, h2, h3 := inputWord(seed, r, g), inputWord(seed, r+1, g), inputWord(seed, r+2, g), inputWord(seed, r+3, g)
		putGroup(w0[i:i+4], h0)
		putGroup(w1[i:i+4], h1)
		putGroup(w2[i:i+4], h2)
		putGroup(w3[i:i+4], h3)
		carryBytes((*[4]uint64)(sum[i:i+4]),
			h0&nibbles+h1&nibbles+h2&nibbles+h3&nibbles,
			h0>>4&nibbles+h1>>4&nibbles+h2>>4&nibbles+h3>>4&nibbles)
	}
}

// fillOne is fillFour for one rank.
func fillOne(sum, w []uint64, seed uint64, r, g0 int) {
	w = w[:len(sum)]
	for i := 0; i+4 <= len(sum); i += 4 {
		h := inputWord(seed, r, g0+i/4)
		putGroup(w[i:i+4], h)
		carryBytes((*[4]uint64)(sum[i:i+4]), h&nibbles, h>>4&nibbles)
	}
}

// putGroup writes the four groupWords of h to q.
func putGroup(q []uint64, h uint64) {
	q = q[:4]
	q[0], q[1], q[2], q[3] = groupWord(h, 0), groupWord(h, 1), groupWord(h, 2), groupWord(h, 3)
}

// fillRank fills rank r's buffer.
func (m *rankData[T]) fillRank(seed uint64, r int) {
	s, n, p := m.s, m.s.Elems(), m.s.P
	buf := m.bufs[r]
	in, out := buf[s.InOff:s.InOff+n], buf[s.OutOff:s.OutOff+n]
	switch s.Collective {
	case commmodel.AllReduce, commmodel.ReduceScatter:
		clearOutside(buf, s.InOff, s.InOff+n, s.InOff, s.InOff+n)
		inputs(in, seed, r, 0)
	case commmodel.AllGather:
		lo, hi := partBounds(n, p, r)
		clearOutside(buf, s.OutOff, s.OutOff+n, s.OutOff, s.OutOff+n)
		sentinel(out[:lo])
		inputs(out[lo:hi], seed, r, lo)
		sentinel(out[hi:])
	case commmodel.Broadcast:
		clearOutside(buf, s.OutOff, s.OutOff+n, s.InOff, s.InOff+n)
		sentinel(out)
		if r == s.Root {
			inputs(in, seed, r, 0)
		}
	case commmodel.AllToAll:
		lo, hi := partBounds(n, p, r)
		out = buf[s.OutOff : s.OutOff+p*(hi-lo)]
		clearOutside(buf, s.InOff, s.InOff+n, s.OutOff, s.OutOff+len(out))
		inputs(in, seed, r, 0)
		sentinel(out)
	default:
		clear(buf)
	}
}

// sentinel sets every element of x to the sentinel.
func sentinel[T value](x []T) {
	v := sentinelOf[T]()
	for i := range x {
		x[i] = v
	}
}

// clearOutside zeroes buf outside [a, b) and [c, d), which may overlap.
func clearOutside[T value](buf []T, a, b, c, d int) {
	if c < a {
		a, b, c, d = c, d, a, b
	}
	if c <= b { // one range
		b, c, d = max(b, d), max(b, d), max(b, d)
	}
	clear(buf[:a])
	clear(buf[b:c])
	clear(buf[d:])
}

// run executes the steps (Ranks.Run): a step of at least parallelFrom
// elements is split over the workers by destination rank, k mod w for
// worker k of w.
func (m *rankData[T]) run() {
	w := m.workers
	var start []chan int
	done := make(chan struct{}, w)
	defer func() {
		for _, c := range start {
			close(c)
		}
	}()
	for si, step := range m.s.Steps {
		m.snapshot(si)
		elems := 0
		for _, t := range step {
			elems += t.Len
		}
		if w <= 1 || elems < parallelFrom {
			m.apply(step, m.staged[si], 0, 1)
			continue
		}
		for len(start) < w-1 {
			c, k := make(chan int), len(start)+1
			start = append(start, c)
			go func() {
				for si := range c {
					m.apply(m.s.Steps[si], m.staged[si], k, w)
					done <- struct{}{}
				}
			}()
		}
		for _, c := range start {
			c <- si
		}
		m.apply(step, m.staged[si], 0, w)
		for range start {
			<-done
		}
	}
}

// snapshot copies the sources of step si that the step also writes, in
// order, to the scratch buffer that apply reads them from.
func (m *rankData[T]) snapshot(si int) {
	off := 0
	for _, ti := range m.staged[si] {
		t := m.s.Steps[si][ti]
		copy(m.scratch[off:], m.bufs[t.Src][t.SrcOff:t.SrcOff+t.Len])
		off += t.Len
	}
}

// apply performs the transfers of step whose destination is k mod w.
func (m *rankData[T]) apply(step []Transfer, staged []int, k, w int) {
	next, off := 0, 0
	for ti, t := range step {
		var src []T
		if next < len(staged) && staged[next] == ti {
			src = m.scratch[off : off+t.Len]
			next++
			off += t.Len
		} else {
			src = m.bufs[t.Src][t.SrcOff : t.SrcOff+t.Len]
		}
		if t.Dst%w != k || !t.moves() {
			continue
		}
		dst := m.bufs[t.Dst][t.DstOff : t.DstOff+t.Len]
		if t.Op == Copy {
			copy(dst, src)
			continue
		}
		add(dst, src)
	}
}

// add adds src into dst element by element; len(src) >= len(dst). uint16
// values go through addMarked.
func add[T value](dst, src []T) {
	if d, ok := any(dst).([]uint16); ok {
		addMarked(d, any(src).([]uint16))
		return
	}
	src = src[:len(dst)]
	i := 0
	for ; i+4 <= len(dst); i += 4 {
		d, s := dst[i:i+4:i+4], src[i:i+4:i+4]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
	}
	for ; i < len(dst); i++ {
		dst[i] += src[i]
	}
}

// addMarked adds src into dst as a + b | (a|b)&2^15 (sim.go's package
// notes). Where both are 8-byte aligned it adds four lanes of a uint64 at a
// time, masking off the top bits so that no lane carries into the next:
//
//	(a &^ H) + (b &^ H) | (a|b) & H,  H = 0x8000 in every lane
//
// three times the speed of one lane at a time, and a fifth faster than a
// float32 addition.
func addMarked(dst, src []uint16) {
	const top = 0x8000_8000_8000_8000
	src = src[:len(dst)]
	i := 0
	if len(dst) >= 4 && aligned8(dst) && aligned8(src) {
		d, s := asWords(dst), asWords(src)
		s = s[:len(d)]
		for k, a := range d {
			b := s[k]
			d[k] = (a&^top + b&^top) | (a|b)&top
		}
		i = 4 * len(d)
	}
	for ; i < len(dst); i++ {
		a, b := dst[i], src[i]
		dst[i] = a + b | (a|b)&0x8000
	}
}

// aligned8 reports whether x starts on an 8-byte boundary.
func aligned8(x []uint16) bool { return uintptr(unsafe.Pointer(unsafe.SliceData(x)))%8 == 0 }

// asWords is the memory of the first len(x)/4 groups of four values of x,
// which starts on an 8-byte boundary, as uint64s.
func asWords(x []uint16) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(x))), len(x)/4)
}

// check compares every output element with the reference (Ranks.Check), the
// ranks split over the workers.
func (m *rankData[T]) check(seed uint64) string {
	s, n, p := m.s, m.s.Elems(), m.s.P
	var want []T // the output every rank must hold, where they all hold the same
	switch s.Collective {
	case commmodel.AllReduce, commmodel.ReduceScatter:
		want = m.ref
		if want == nil || m.refSeed != seed {
			want = inputSums[T](seed, p, n, m.workers)
		}
	case commmodel.AllGather, commmodel.Broadcast:
		want = make([]T, n)
		reference(s, want, seed, 0)
	}
	// bad is the first wrong element found, as rank r (-1: none) and offset at.
	var mu sync.Mutex
	bad := struct{ r, at int }{r: -1}
	m.byRank(func(lo, hi int) {
		var own []T // AllToAll: this rank's expected output
		for r := lo; r < hi; r++ {
			buf, off, ref := m.bufs[r], s.OutOff, want
			switch s.Collective {
			case commmodel.ReduceScatter:
				a, b := partBounds(n, p, r)
				off, ref = s.OutOff+a, want[a:b]
			case commmodel.AllToAll:
				a, b := partBounds(n, p, r)
				c := b - a
				if cap(own) < p*c {
					own = make([]T, p*c)
				}
				own = own[:p*c]
				for i := range p {
					inputs(own[i*c:(i+1)*c], seed, i, a)
				}
				ref = own
			}
			if at := mismatch(buf[off:off+len(ref)], ref); at >= 0 {
				mu.Lock()
				if bad.r < 0 || r < bad.r {
					bad.r, bad.at = r, off+at
				}
				mu.Unlock()
				return // the workers' later ranks cannot come first
			}
		}
	})
	if bad.r < 0 {
		return ""
	}
	return mismatchMessage(m.s, seed, badElem{r: bad.r, at: bad.at, got: asFloat(m.bufs[bad.r][bad.at])})
}

// mismatchMessage describes the wrong element b of s: Check's result.
func mismatchMessage(s *Schedule, seed uint64, b badElem) string {
	return fmt.Sprintf("rank %d element %d: got %g, want %g", b.r, b.at, b.got, expected(s, seed, b.r, b.at))
}

// expected is the reference value of rank r's output element at, one
// element at a time (for the message of a mismatch).
func expected(s *Schedule, seed uint64, r, at int) float64 {
	n, p := s.Elems(), s.P
	i := at - s.OutOff
	switch s.Collective {
	case commmodel.AllReduce, commmodel.ReduceScatter:
		sum := 0.0
		for q := range p {
			sum += inputValue(seed, q, i)
		}
		return sum
	case commmodel.AllGather:
		for q := range p {
			if lo, hi := partBounds(n, p, q); i >= lo && i < hi {
				return inputValue(seed, q, i)
			}
		}
	case commmodel.Broadcast:
		return inputValue(seed, s.Root, i)
	case commmodel.AllToAll:
		lo, hi := partBounds(n, p, r)
		c := hi - lo
		return inputValue(seed, i/c, lo+i%c)
	}
	return 0
}

// mismatch returns the first index at which got and want differ, or -1;
// len(want) >= len(got). Equal bytes are equal values (the references are
// integers, never NaN or -0), so the common case is one bytes.Equal, which
// compares at memory speed, twice as fast as a loop of float comparisons; a
// difference is then located value by value, so -0 still equals 0.
func mismatch[T value](got, want []T) int {
	want = want[:len(got)]
	if bytes.Equal(asBytes(got), asBytes(want)) {
		return -1
	}
	i := 0
	for ; i+4 <= len(got); i += 4 {
		g, w := got[i:i+4:i+4], want[i:i+4:i+4]
		if g[0] != w[0] || g[1] != w[1] || g[2] != w[2] || g[3] != w[3] {
			break
		}
	}
	for ; i < len(got); i++ {
		if got[i] != want[i] {
			return i
		}
	}
	return -1
}

// asBytes is the memory of x, read as bytes (for bytes.Equal).
func asBytes[T value](x []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), len(x)*int(unsafe.Sizeof(zero)))
}

// byteRanks and laneRanks are the most ranks whose inputs up to 15 an 8-bit
// and a 16-bit lane can add: 15·17 = 255, 15·4369 = 65535.
const (
	byteRanks = (1<<8 - 1) / maxInput
	laneRanks = (1<<16 - 1) / maxInput
)

// inputSums returns the sum over p ranks of each of the n elements' inputs,
// as T (exact: NewRanks bounds 15·P). Each group's sums stay in registers:
// the digits of an inputWord are added eight at a time as 8-bit lanes (the
// even and the odd digits), carried every byteRanks ranks into four words of
// 16-bit lanes (lane j of word k: element 4k+j), carried every laneRanks
// ranks into the result. The groups are split over the workers.
func inputSums[T value](seed uint64, p, n, workers int) []T {
	sum := make([]T, n)
	groups := n / wordInputs
	splitWork(groups, p*n, workers, func(g0, g1 int) {
		addGroupSums(sum[wordInputs*g0:wordInputs*g1], seed, p, g0)
	})
	addInputs(sum, seed, p, 0, groups*wordInputs)
	return sum
}

// addGroupSums adds to sum, whole groups of wordInputs elements from group
// g0 on, the sums over p ranks of their inputs (inputSums).
func addGroupSums[T value](sum []T, seed uint64, p, g0 int) {
	for k := 0; k+wordInputs <= len(sum); k += wordInputs {
		g := g0 + k/wordInputs
		out := (*[wordInputs]T)(sum[k:])
		for r0 := 0; r0 < p; r0 += laneRanks {
			r1 := min(r0+laneRanks, p)
			var w [4]uint64
			for r := r0; r < r1; r += byteRanks {
				var even, odd uint64 // byte j: digits 2j, 2j+1
				for q := r; q < min(r+byteRanks, r1); q++ {
					h := inputWord(seed, q, g)
					even += h & nibbles
					odd += h >> 4 & nibbles
				}
				carryBytes(&w, even, odd)
			}
			addLanes(out, &w)
		}
	}
}

// addLanes adds the 16-bit lanes of w to the elements of their digits in
// out: lane j of w[k] to out[4k+j] (digitOf).
func addLanes[T value](out *[wordInputs]T, w *[4]uint64) {
	for e := range out {
		out[e] += T(int32(w[e/4] >> (16 * (e % 4)) & 0xFFFF))
	}
}

// splitWork calls f on ranges that cover [0, n), one per worker (at most n)
// and all at once when the work covers at least parallelFrom elements, else
// f(0, n).
func splitWork(n, elems, workers int, f func(lo, hi int)) {
	w := min(workers, n)
	if elems < parallelFrom {
		w = 1
	}
	inParts(n, w, func(_, lo, hi int) { f(lo, hi) })
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

// carryBytes adds the 8-bit lanes of even (the digits 0, 2, ..., 14 of a
// group) and odd (1, 3, ..., 15) into the 16-bit lanes of w, lane j of w[k]
// holding digit 4j+k, which is element 4k+j (digitOf).
func carryBytes(w *[4]uint64, even, odd uint64) {
	const evenBytes = 0x00FF_00FF_00FF_00FF
	w[0] += even & evenBytes
	w[1] += odd & evenBytes
	w[2] += even >> 8 & evenBytes
	w[3] += odd >> 8 & evenBytes
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

// Simulate executes s on P ranks filled from seed, checks the result against
// a direct reference (a sum, a gather, a copy or a permutation) and counts
// the schedule's traffic. The ranks hold uint16, float32 or float64 values
// by P (NewRanks); an invalid schedule, or one with more ranks than float64
// keeps sums exact for (15·P >= 2^53), is an error.
//
// A schedule of at least 2^24 elements over all ranks whose transfers keep
// their offsets, in place (every AllReduce, ReduceScatter, AllGather and
// Broadcast of this package but one-shot's), runs by tiles of offsets
// (tiles.go): each worker fills, runs and checks every rank's elements of
// one tile at a time, in about 8 MiB of buffers, with the same result as
// the whole buffers that NewRanks holds.
func Simulate(s *Schedule, seed uint64) (Result, error) {
	if s.P*s.Len >= tiledFrom && s.tileable() {
		mis, err := simulateTiled(s, seed, 0)
		if err != nil {
			return Result{}, err
		}
		return Result{Counts: Count(s), Correct: mis == "", Mismatch: mis}, nil
	}
	m, err := NewRanks(s)
	if err != nil {
		return Result{}, err
	}
	m.Fill(seed)
	m.Run()
	mis := m.Check(seed)
	return Result{Counts: Count(s), Correct: mis == "", Mismatch: mis}, nil
}
