package commmodel

import (
	"fmt"
	"runtime"
)

// Simulation of a Schedule on P in-memory ranks.
//
// Every rank's buffer is Len float64 values in one flat slice. Inputs are
// small integers drawn from a seeded hash of (rank, element), so every sum of
// up to 2^48 ranks is exact in float64 and the reference can be recomputed
// from the seed without keeping a copy of the input. Regions that must be
// written hold -1 beforehand, a value no sum of inputs can take.
//
// Layouts, per collective (n = S/ElemBytes elements, parts by partBounds):
//
//	AllReduce      input and output n elements at InOff = OutOff; each output element is the sum over ranks
//	ReduceScatter  input n elements at InOff; rank r's output is part r of P, in place
//	AllGather      rank r's input is part r of P, in place in the n-element output at OutOff
//	Broadcast      the root's n elements at InOff are copied to every rank's OutOff = InOff
//	AllToAll       input n elements at InOff, block j = part j for rank j; rank j's output
//	               holds P blocks of c_j = |part j| elements, the one from rank i at OutOff + i·c_j

// Ranks holds the buffers of P ranks for one schedule.
type Ranks struct {
	s       *Schedule
	data    []float64 // P·Len values; rank r's buffer is data[r·Len : (r+1)·Len]
	staged  [][]int   // per step, the transfers that read a snapshot
	scratch []float64 // the snapshot
	workers int
}

// NewRanks validates s and allocates its ranks' buffers.
func NewRanks(s *Schedule) (*Ranks, error) {
	hz, err := s.hazards()
	if err != nil {
		return nil, err
	}
	need := 0
	for si, idx := range hz {
		sum := 0
		for _, ti := range idx {
			sum += s.Steps[si][ti].Len
		}
		need = max(need, sum)
	}
	return &Ranks{
		s:       s,
		data:    make([]float64, s.P*s.Len),
		staged:  hz,
		scratch: make([]float64, need),
		workers: runtime.GOMAXPROCS(0),
	}, nil
}

// Buffer returns rank r's buffer (not a copy).
func (m *Ranks) Buffer(r int) []float64 { return m.data[r*m.s.Len : (r+1)*m.s.Len] }

// inputValue is the seeded input of element i on rank r: an integer in [0, 16).
func inputValue(seed uint64, r, i int) float64 {
	x := seed ^ uint64(r)<<40 ^ uint64(i)
	x += 0x9e3779b97f4a7c15 // splitmix64
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x & 15)
}

// Fill writes the seeded input of the schedule's collective into every rank
// and -1 into every output element that is not also input.
func (m *Ranks) Fill(seed uint64) {
	s, n, p := m.s, m.s.Elems(), m.s.P
	for r := range p {
		buf := m.Buffer(r)
		clear(buf)
		switch s.Collective {
		case AllReduce, ReduceScatter:
			for i := range n {
				buf[s.InOff+i] = inputValue(seed, r, i)
			}
		case AllGather:
			lo, hi := partBounds(n, p, r)
			for i := range n {
				buf[s.OutOff+i] = -1
				if i >= lo && i < hi {
					buf[s.OutOff+i] = inputValue(seed, r, i)
				}
			}
		case Broadcast:
			for i := range n {
				buf[s.OutOff+i] = -1
				if r == s.Root {
					buf[s.InOff+i] = inputValue(seed, r, i)
				}
			}
		case AllToAll:
			for i := range n {
				buf[s.InOff+i] = inputValue(seed, r, i)
			}
			lo, hi := partBounds(n, p, r)
			for i := range p * (hi - lo) {
				buf[s.OutOff+i] = -1
			}
		}
	}
}

// Run executes every step of the schedule on the buffers, one after the
// other. The transfers of a large step are split by destination rank over
// GOMAXPROCS workers, which live for the whole run, so Run allocates nothing
// per step or per transfer.
func (m *Ranks) Run() {
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
func (m *Ranks) snapshot(si int) {
	off := 0
	for _, ti := range m.staged[si] {
		t := m.s.Steps[si][ti]
		copy(m.scratch[off:], m.Buffer(t.Src)[t.SrcOff:t.SrcOff+t.Len])
		off += t.Len
	}
}

// apply performs the transfers of step whose destination is k mod w.
func (m *Ranks) apply(step []Transfer, staged []int, k, w int) {
	n := m.s.Len
	next, off := 0, 0
	for ti, t := range step {
		var src []float64
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

// Check compares every rank's output with the reference computed from the
// seed and returns "" if all agree, else a description of the first element
// that does not.
func (m *Ranks) Check(seed uint64) string {
	s, n, p := m.s, m.s.Elems(), m.s.P
	bad := func(r, at int, got, want float64) string {
		return fmt.Sprintf("rank %d element %d: got %g, want %g", r, at, got, want)
	}
	var sum []float64
	if s.Collective == AllReduce || s.Collective == ReduceScatter {
		sum = make([]float64, n)
		for r := range p {
			for i := range sum {
				sum[i] += inputValue(seed, r, i)
			}
		}
	}
	for r := range p {
		buf := m.Buffer(r)
		switch s.Collective {
		case AllReduce:
			for i, want := range sum {
				if got := buf[s.OutOff+i]; got != want {
					return bad(r, s.OutOff+i, got, want)
				}
			}
		case ReduceScatter:
			lo, hi := partBounds(n, p, r)
			for i := lo; i < hi; i++ {
				if got := buf[s.OutOff+i]; got != sum[i] {
					return bad(r, s.OutOff+i, got, sum[i])
				}
			}
		case AllGather:
			for q := range p {
				lo, hi := partBounds(n, p, q)
				for i := lo; i < hi; i++ {
					if got, want := buf[s.OutOff+i], inputValue(seed, q, i); got != want {
						return bad(r, s.OutOff+i, got, want)
					}
				}
			}
		case Broadcast:
			for i := range n {
				if got, want := buf[s.OutOff+i], inputValue(seed, s.Root, i); got != want {
					return bad(r, s.OutOff+i, got, want)
				}
			}
		case AllToAll:
			lo, hi := partBounds(n, p, r)
			c := hi - lo
			for i := range p {
				for e := range c {
					at := s.OutOff + i*c + e
					if got, want := buf[at], inputValue(seed, i, lo+e); got != want {
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
// the schedule's traffic. An invalid schedule is an error.
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
