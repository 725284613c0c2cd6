package schedule

import (
	"fmt"
	"runtime"

	"github.com/inframethod/commlab/commmodel"
)

// Simulation of a Schedule on P in-memory ranks.
//
// Every rank's buffer is Len values in one flat slice. The value type holds an
// element at its own size where it can: float32 for 4-byte elements (the
// default, nccl-tests' float), float64 for every other element size, so that
// 4- and 8-byte buffers take exactly the data's own memory (1- and 2-byte ones
// take 8/ElemBytes times it; storageBytes). Inputs are integers in
// [0, maxInput] = [0, 15] drawn from a seeded hash of (rank, element), so
// every partial sum a reduction forms is an integer of at most 15·P, and
// integers are exact in a float below 2 to the power of its significand bits
// (24 for float32, 53 for float64):
//
//	float32:  15·P < 2^24   (P <= 1118481; P <= 1024 leaves sums below 2^14)
//	float64:  15·P < 2^53
//
// NewRanks, and so Simulate, refuses a P past its value type's bound rather
// than lose exactness. (Within it, a wrong schedule that reduces too often
// cannot pass for right by rounding: a float32 sum of 2^24 or more rounds to
// at least 2^24, above every right answer.) The reference is recomputed in float64 from the seed, without
// keeping a copy of the input. Regions that must be written hold -1
// beforehand, a value no sum of inputs can take.
//
// Layouts, per collective (n = S/ElemBytes elements, parts by partBounds):
//
//	AllReduce      input and output n elements at InOff = OutOff; each output element is the sum over ranks
//	ReduceScatter  input n elements at InOff; rank r's output is part r of P, in place
//	AllGather      rank r's input is part r of P, in place in the n-element output at OutOff
//	Broadcast      the root's n elements at InOff are copied to every rank's OutOff = InOff
//	AllToAll       input n elements at InOff, block j = part j for rank j; rank j's output
//	               holds P blocks of c_j = |part j| elements, the one from rank i at OutOff + i·c_j

// value is the type of a simulated element: float32 or float64.
type value interface{ float32 | float64 }

// maxInput is the largest input value: inputValue keeps the low 4 bits of a
// hash, an integer in [0, maxInput].
const maxInput = 1<<4 - 1

// storageBytes is the size in bytes of the value that holds one element of
// elemBytes bytes in the simulator: 4 (float32) for 4-byte elements, 8
// (float64) for any other size.
func storageBytes(elemBytes int) int {
	if elemBytes == 4 {
		return 4
	}
	return 8
}

// exactBelow is 2^24 for float32 and 2^53 for float64: every integer of
// smaller magnitude is exact in T, and so is every sum of two of them that
// stays below it.
func exactBelow[T value]() int64 {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return 1 << 24
	}
	return 1 << 53
}

// Ranks holds the buffers of P ranks for one schedule.
type Ranks struct {
	s   *Schedule
	buf buffers // *rankData[float32] or *rankData[float64], by storageBytes
}

// buffers is what Ranks does with its data, whatever the value type.
type buffers interface {
	fill(seed uint64)
	run()
	check(seed uint64) string
	values(r int) []float64
	setValues(r int, v []float64)
}

// NewRanks validates s and allocates its ranks' buffers: Len float32 values
// per rank for 4-byte elements, Len float64 values otherwise. A schedule
// whose sums could leave the value type's exact integers (15·P >= 2^24 for
// float32) is an error.
func NewRanks(s *Schedule) (*Ranks, error) {
	hz, err := s.hazards()
	if err != nil {
		return nil, err
	}
	m := &Ranks{s: s}
	if storageBytes(s.ElemBytes) == 4 {
		m.buf, err = newRankData[float32](s, hz)
	} else {
		m.buf, err = newRankData[float64](s, hz)
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Values returns a copy of rank r's buffer, Len values.
func (m *Ranks) Values(r int) []float64 { return m.buf.values(r) }

// SetValues overwrites rank r's buffer with v. It panics unless len(v) is
// the schedule's Len.
func (m *Ranks) SetValues(r int, v []float64) { m.buf.setValues(r, v) }

// Fill writes the seeded input of the schedule's collective into every rank
// and -1 into every output element that is not also input.
func (m *Ranks) Fill(seed uint64) { m.buf.fill(seed) }

// Run executes every step of the schedule on the buffers, one after the
// other. The transfers of a large step are split by destination rank over
// GOMAXPROCS workers, which live for the whole run, so Run allocates nothing
// per step or per transfer.
func (m *Ranks) Run() { m.buf.run() }

// Check compares every rank's output with the reference computed from the
// seed and returns "" if all agree, else a description of the first element
// that does not.
func (m *Ranks) Check(seed uint64) string { return m.buf.check(seed) }

// rankData is the buffers of P ranks as values of type T.
type rankData[T value] struct {
	s       *Schedule
	data    []T     // P·Len values; rank r's buffer is data[r·Len : (r+1)·Len]
	staged  [][]int // per step, the transfers that read a snapshot
	scratch []T     // the snapshot
	workers int
}

// newRankData allocates the buffers of s, whose steps' snapshot reads are staged.
func newRankData[T value](s *Schedule, staged [][]int) (*rankData[T], error) {
	if limit := exactBelow[T](); maxInput*int64(s.P) >= limit {
		var zero T
		return nil, fmt.Errorf("schedule: cannot simulate %d ranks of %d-byte elements exactly: a sum of %d inputs up to %d may reach %d, and %T keeps sums exact only below %d; at most %d ranks",
			s.P, s.ElemBytes, s.P, maxInput, maxInput*int64(s.P), zero, limit, (limit-1)/maxInput)
	}
	need := 0
	for si, idx := range staged {
		sum := 0
		for _, ti := range idx {
			sum += s.Steps[si][ti].Len
		}
		need = max(need, sum)
	}
	return &rankData[T]{
		s:       s,
		data:    make([]T, s.P*s.Len),
		staged:  staged,
		scratch: make([]T, need),
		workers: runtime.GOMAXPROCS(0),
	}, nil
}

// buffer returns rank r's buffer (not a copy).
func (m *rankData[T]) buffer(r int) []T { return m.data[r*m.s.Len : (r+1)*m.s.Len] }

// values and setValues convert rank r's buffer to and from float64 (Ranks.Values, Ranks.SetValues).
func (m *rankData[T]) values(r int) []float64 {
	buf := m.buffer(r)
	v := make([]float64, len(buf))
	for i, x := range buf {
		v[i] = float64(x)
	}
	return v
}

func (m *rankData[T]) setValues(r int, v []float64) {
	buf := m.buffer(r)
	if len(v) != len(buf) {
		panic(fmt.Sprintf("schedule: SetValues with %d values for a buffer of %d", len(v), len(buf)))
	}
	for i, x := range v {
		buf[i] = T(x)
	}
}

// inputValue is the seeded input of element i on rank r: an integer in [0, maxInput].
func inputValue(seed uint64, r, i int) float64 {
	x := seed ^ uint64(r)<<40 ^ uint64(i)
	x += 0x9e3779b97f4a7c15 // splitmix64
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x & maxInput)
}

// fill writes the inputs and the -1 sentinels (Ranks.Fill).
func (m *rankData[T]) fill(seed uint64) {
	s, n, p := m.s, m.s.Elems(), m.s.P
	for r := range p {
		buf := m.buffer(r)
		clear(buf)
		switch s.Collective {
		case commmodel.AllReduce, commmodel.ReduceScatter:
			for i := range n {
				buf[s.InOff+i] = T(inputValue(seed, r, i))
			}
		case commmodel.AllGather:
			lo, hi := partBounds(n, p, r)
			for i := range n {
				buf[s.OutOff+i] = -1
				if i >= lo && i < hi {
					buf[s.OutOff+i] = T(inputValue(seed, r, i))
				}
			}
		case commmodel.Broadcast:
			for i := range n {
				buf[s.OutOff+i] = -1
				if r == s.Root {
					buf[s.InOff+i] = T(inputValue(seed, r, i))
				}
			}
		case commmodel.AllToAll:
			for i := range n {
				buf[s.InOff+i] = T(inputValue(seed, r, i))
			}
			lo, hi := partBounds(n, p, r)
			for i := range p * (hi - lo) {
				buf[s.OutOff+i] = -1
			}
		}
	}
}

// run executes the steps (Ranks.Run): a step of at least 2^16 elements is
// split over the workers by destination rank, k mod w for worker k of w.
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
		if w <= 1 || elems < 1<<16 {
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
		copy(m.scratch[off:], m.buffer(t.Src)[t.SrcOff:t.SrcOff+t.Len])
		off += t.Len
	}
}

// apply performs the transfers of step whose destination is k mod w.
func (m *rankData[T]) apply(step []Transfer, staged []int, k, w int) {
	n := m.s.Len
	next, off := 0, 0
	for ti, t := range step {
		var src []T
		if next < len(staged) && staged[next] == ti {
			src = m.scratch[off : off+t.Len]
			next++
			off += t.Len
		} else {
			src = m.data[t.Src*n+t.SrcOff : t.Src*n+t.SrcOff+t.Len]
		}
		if t.Dst%w != k {
			continue
		}
		dst := m.data[t.Dst*n+t.DstOff : t.Dst*n+t.DstOff+t.Len]
		if t.Op == Copy {
			copy(dst, src)
			continue
		}
		src = src[:len(dst)]
		for i := range dst {
			dst[i] += src[i]
		}
	}
}

// check compares the outputs with the float64 reference (Ranks.Check).
func (m *rankData[T]) check(seed uint64) string {
	s, n, p := m.s, m.s.Elems(), m.s.P
	bad := func(r, at int, got, want float64) string {
		return fmt.Sprintf("rank %d element %d: got %g, want %g", r, at, got, want)
	}
	var sum []float64
	if s.Collective == commmodel.AllReduce || s.Collective == commmodel.ReduceScatter {
		sum = make([]float64, n)
		for r := range p {
			for i := range sum {
				sum[i] += inputValue(seed, r, i)
			}
		}
	}
	for r := range p {
		buf := m.buffer(r)
		switch s.Collective {
		case commmodel.AllReduce:
			for i, want := range sum {
				if got := float64(buf[s.OutOff+i]); got != want {
					return bad(r, s.OutOff+i, got, want)
				}
			}
		case commmodel.ReduceScatter:
			lo, hi := partBounds(n, p, r)
			for i := lo; i < hi; i++ {
				if got := float64(buf[s.OutOff+i]); got != sum[i] {
					return bad(r, s.OutOff+i, got, sum[i])
				}
			}
		case commmodel.AllGather:
			for q := range p {
				lo, hi := partBounds(n, p, q)
				for i := lo; i < hi; i++ {
					if got, want := float64(buf[s.OutOff+i]), inputValue(seed, q, i); got != want {
						return bad(r, s.OutOff+i, got, want)
					}
				}
			}
		case commmodel.Broadcast:
			for i := range n {
				if got, want := float64(buf[s.OutOff+i]), inputValue(seed, s.Root, i); got != want {
					return bad(r, s.OutOff+i, got, want)
				}
			}
		case commmodel.AllToAll:
			lo, hi := partBounds(n, p, r)
			c := hi - lo
			for i := range p {
				for e := range c {
					at := s.OutOff + i*c + e
					if got, want := float64(buf[at]), inputValue(seed, i, lo+e); got != want {
						return bad(r, at, got, want)
					}
				}
			}
		}
	}
	return ""
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
// the schedule's traffic. The ranks hold float32 values for 4-byte elements
// and float64 otherwise (NewRanks); an invalid schedule, or one with more
// ranks than the values keep sums exact for (15·P >= 2^24 in float32), is an
// error.
func Simulate(s *Schedule, seed uint64) (Result, error) {
	m, err := NewRanks(s)
	if err != nil {
		return Result{}, err
	}
	m.Fill(seed)
	m.Run()
	mis := m.Check(seed)
	return Result{Counts: Count(s), Correct: mis == "", Mismatch: mis}, nil
}
