package schedule

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// scheduled lists every algorithm with a schedule, for p ranks: the
// hierarchical forms only where p splits into nodes of perNode GPUs.
func scheduled(p int) []commmodel.Algorithm {
	algs := []commmodel.Algorithm{
		commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.TwoShot{}, commmodel.OneShot{},
		commmodel.RingReduceScatter{}, commmodel.RingAllGather{},
		commmodel.PipelinedBroadcast{}, commmodel.PipelinedBroadcast{Chunks: 4},
		commmodel.Direct{}, commmodel.Pairwise{}, commmodel.Bruck{},
		commmodel.Tree{Chunks: 1}, commmodel.Tree{Chunks: 4}, commmodel.NVLS{},
		commmodel.PATAllGather{}, commmodel.PATReduceScatter{},
	}
	for _, per := range []int{2, 3, 4, 8} {
		if p%per != 0 {
			continue
		}
		for _, inter := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.TwoShot{}, commmodel.OneShot{}} {
			algs = append(algs, commmodel.HierarchicalAllReduce{PerNode: per, Inter: inter})
		}
		algs = append(algs, commmodel.HierarchicalAllToAll{PerNode: per},
			commmodel.Tree{PerNode: per, Chunks: 1}, commmodel.Tree{PerNode: per, Chunks: 2}, commmodel.Tree{PerNode: per, Chunks: 16},
			commmodel.NVLS{PerNode: per}, commmodel.NVLSTree{PerNode: per, Chunks: 1}, commmodel.NVLSTree{PerNode: per, Chunks: 4},
			commmodel.CollNetDirect{PerNode: per}, commmodel.CollNetChain{PerNode: per, Chunks: 1}, commmodel.CollNetChain{PerNode: per, Chunks: 4})
	}
	return algs
}

func describe(a commmodel.Algorithm) string {
	switch a := a.(type) {
	case commmodel.HierarchicalAllReduce:
		return fmt.Sprintf("hierarchical-allreduce/%d/%s", a.PerNode, interOf(a).Name())
	case commmodel.HierarchicalAllToAll:
		return fmt.Sprintf("hierarchical-alltoall/%d", a.PerNode)
	case commmodel.PipelinedBroadcast:
		return fmt.Sprintf("broadcast/%d", a.Chunks)
	case commmodel.Tree:
		return fmt.Sprintf("tree/%d/C=%d", a.PerNode, a.Chunks)
	case commmodel.NVLS:
		return fmt.Sprintf("nvls/%d", a.PerNode)
	case commmodel.NVLSTree:
		return fmt.Sprintf("nvlstree/%d/C=%d", a.PerNode, a.Chunks)
	case commmodel.CollNetDirect:
		return fmt.Sprintf("collnet-direct/%d", a.PerNode)
	case commmodel.CollNetChain:
		return fmt.Sprintf("collnet-chain/%d/C=%d", a.PerNode, a.Chunks)
	}
	return a.Collective().String() + "/" + a.Name()
}

// evenElems is the element count that every cut of a schedule over p <= 64
// ranks divides: P (ring, AllToAll blocks), P' <= 64 (halving-doubling), the
// node size p and the node count N and its P' (hierarchy), C = 4 (broadcast),
// the tree's two halves of C <= 16 chunks.
func evenElems(p int) int { return 64 * p }

// TestSchedulesMatchModel is the property test of issue 3: for every
// algorithm, every P from 1 to 64 and sizes that do and do not divide, the
// schedule's result is right and its counts are the model's (commmodel's own
// Cost: steps, messages on the critical path, peers and fanout exactly; bytes
// sent, reduced and on the critical path between the formula at S rounded
// down and up to a multiple of evenElems elements, equal when S divides).
func TestSchedulesMatchModel(t *testing.T) {
	const eb = DefaultElemBytes
	for p := 1; p <= 64; p++ {
		even := evenElems(p)
		for _, n := range []int{even, 2*even + 7, 13, 0} {
			down, up := n/even*even, (n+even-1)/even*even
			for _, a := range scheduled(p) {
				name := fmt.Sprintf("%s/P=%d/n=%d", describe(a), p, n)
				s, err := NewElem(a, p, int64(n*eb), eb)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				res, err := Simulate(s, uint64(p*1000+n))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if !res.Correct {
					t.Errorf("%s: wrong result: %s", name, res.Mismatch)
				}
				lo, hi := a.Cost(p, float64(down*eb)), a.Cost(p, float64(up*eb))
				checkCounts(t, name, res.Counts, lo, hi)
			}
		}
	}
}

// checkCounts holds counts to the model's costs lo and hi at S rounded down and up.
func checkCounts(t *testing.T, name string, c Counts, lo, hi commmodel.Cost) {
	t.Helper()
	ints := []struct {
		what      string
		got, want int
	}{
		{"steps", c.Steps, lo.Steps},
		{"critical-path messages", c.PathMessages, lo.Messages},
		{"peers", c.MaxPeers(), lo.Peers},
		{"fanout", c.Fanout, lo.Fanout},
	}
	for _, x := range ints {
		if x.got != x.want {
			t.Errorf("%s: %s = %d, model %d", name, x.what, x.got, x.want)
		}
	}
	floats := []struct {
		what     string
		got      int64
		min, max float64
	}{
		{"bytes sent by the busiest rank", c.MaxSent(), lo.Bytes, hi.Bytes},
		{"bytes reduced by the busiest rank", c.MaxReduced(), lo.Reduced, hi.Reduced},
		{"critical-path bytes", c.PathBytes, lo.Path(), hi.Path()},
	}
	for _, x := range floats {
		g := float64(x.got)
		// 1e-9 relative: the formulas' divisions round in float64.
		if tol := 1e-9 * max(1, x.max); !(g >= x.min-tol && g <= x.max+tol) {
			t.Errorf("%s: %s = %d, model %.6g..%.6g", name, x.what, x.got, x.min, x.max)
		}
	}
}

// TestScheduleErrors: bad inputs are errors, never panics.
func TestScheduleErrors(t *testing.T) {
	type other struct{ commmodel.Ring }
	cases := []struct {
		name string
		a    commmodel.Algorithm
		p    int
		size int64
	}{
		{"unknown type", other{}, 4, 64},
		{"no ranks", commmodel.Ring{}, 0, 64},
		{"negative size", commmodel.Ring{}, 4, -4},
		{"part of an element", commmodel.Ring{}, 4, 6},
		{"ragged nodes", commmodel.HierarchicalAllReduce{PerNode: 3}, 8, 64},
		{"zero per node", commmodel.HierarchicalAllToAll{}, 8, 64},
		{"unknown inter", commmodel.HierarchicalAllReduce{PerNode: 2, Inter: commmodel.Direct{}}, 8, 64},
		{"absurd chunk count", commmodel.PipelinedBroadcast{Chunks: 1 << 30}, 4, 64},
	}
	for _, c := range cases {
		if _, err := New(c.a, c.p, c.size); err == nil {
			t.Errorf("%s: no error", c.name)
		}
		if _, err := Footprint(c.a, c.p, c.size, DefaultElemBytes); err == nil {
			t.Errorf("%s: Footprint gave no error", c.name)
		}
	}
	if _, err := New(other{}, 4, 64); !errors.Is(err, ErrUnknownAlgorithm) {
		t.Errorf("unknown type: %v, want ErrUnknownAlgorithm", err)
	}
}

// TestValidateRejects: transfers out of bounds and copies that race are errors.
func TestValidateRejects(t *testing.T) {
	base := func(steps ...[]Transfer) *Schedule {
		return &Schedule{Collective: commmodel.AllReduce, P: 2, Size: 16, ElemBytes: 4, Len: 4, Steps: steps}
	}
	bad := map[string]*Schedule{
		"rank out of range":   base([]Transfer{{Src: 0, Dst: 2, Len: 1}}),
		"offset past the end": base([]Transfer{{Src: 0, Dst: 1, SrcOff: 3, Len: 2}}),
		"negative length":     base([]Transfer{{Src: 0, Dst: 1, Len: -1}}),
		"two copies collide":  base([]Transfer{{Src: 0, Dst: 1, Len: 2}, {Src: 1, Dst: 1, SrcOff: 2, DstOff: 1, Len: 2}}),
		"copy meets a reduce": base([]Transfer{{Src: 0, Dst: 1, Len: 2, Op: Reduce}, {Src: 0, Dst: 1, SrcOff: 2, DstOff: 1, Len: 1}}),
		"reduce meets a copy": base([]Transfer{{Src: 0, Dst: 1, Len: 3}, {Src: 0, Dst: 1, DstOff: 2, Len: 2, Op: Reduce}}),
		"no ranks":            {P: 0, ElemBytes: 4},
		"output past the end": {Collective: commmodel.AllGather, P: 2, Size: 16, ElemBytes: 4, Len: 4, OutOff: 1},
		"negative size":       {Collective: commmodel.AllReduce, P: 2, Size: -4, ElemBytes: 4, Len: 4},
		// 5 elements in 2 AllToAll blocks of at most 3: 6 output elements from OutOff 5.
		"blocks past the end": {Collective: commmodel.AllToAll, P: 2, Size: 20, ElemBytes: 4, Len: 10, OutOff: 5},
	}
	for name, s := range bad {
		if err := s.Validate(); err == nil {
			t.Errorf("%s: no error", name)
		}
		if _, err := Simulate(s, 1); err == nil {
			t.Errorf("%s: Simulate gave no error", name)
		}
	}
	ok := base([]Transfer{{Src: 0, Dst: 1, Len: 2, Op: Reduce}, {Src: 1, Dst: 1, Len: 2, Op: Reduce}})
	if err := ok.Validate(); err != nil {
		t.Errorf("two reductions into one range: %v", err)
	}
}

// TestStepReadsItsStart: a step that rotates a buffer in place reads every
// source as it was when the step began (the simulator snapshots it), with
// float64 values (1- and 8-byte elements) and float32 values (4-byte).
func TestStepReadsItsStart(t *testing.T) {
	for _, eb := range []int{1, 4, 8} {
		s := &Schedule{Collective: commmodel.AllToAll, P: 1, ElemBytes: eb, Len: 3, Steps: [][]Transfer{{
			{Src: 0, Dst: 0, SrcOff: 0, DstOff: 1, Len: 1},
			{Src: 0, Dst: 0, SrcOff: 1, DstOff: 2, Len: 1},
			{Src: 0, Dst: 0, SrcOff: 2, DstOff: 0, Len: 1},
		}}}
		m, err := NewRanks(s)
		if err != nil {
			t.Fatal(err)
		}
		m.SetValues(0, []float64{10, 20, 30})
		m.Run()
		if got := m.Values(0); !slices.Equal(got, []float64{30, 10, 20}) {
			t.Errorf("%d-byte elements: rotation gave %v, want [30 10 20]", eb, got)
		}
		if c := Count(s); c.Steps != 0 || c.MaxSent() != 0 {
			t.Errorf("a local step counted as communication: %+v", c)
		}
	}
}

// TestRanksValueType: 4-byte elements are held as float32, every other size
// as float64 (schedule_sim.go's package notes), so that 4- and 8-byte buffers
// take the data's own memory.
func TestRanksValueType(t *testing.T) {
	for _, eb := range []int{1, 2, 4, 8} {
		s, err := NewElem(commmodel.Ring{}, 4, int64(16*eb), eb)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewRanks(s)
		if err != nil {
			t.Fatal(err)
		}
		_, f32 := m.buf.(*rankData[float32])
		_, f64 := m.buf.(*rankData[float64])
		if want := eb == 4; f32 != want || f64 == want {
			t.Errorf("%d-byte elements: float32 %v, float64 %v; want float32 %v", eb, f32, f64, want)
		}
	}
}

// TestSimulateExactnessBound: float32 sums of P inputs up to 15 are exact
// while 15·P < 2^24 (the 24-bit significand), so 1118481 ranks are the most
// a 4-byte simulation takes; one more is refused with an error, while
// float64 (8-byte elements) still takes it. Empty buffers keep NewRanks
// cheap; Simulate is only called where it must refuse (its Count would
// allocate per pair of ranks).
func TestSimulateExactnessBound(t *testing.T) {
	const most = (1<<24 - 1) / 15 // 15·1118481 = 2^24 - 1
	cases := []struct {
		p, eb int
		ok    bool
	}{
		{most, 4, true},
		{most + 1, 4, false},
		{most + 1, 8, true},
	}
	for _, c := range cases {
		s := &Schedule{Collective: commmodel.AllReduce, P: c.p, ElemBytes: c.eb}
		if _, err := NewRanks(s); (err == nil) != c.ok {
			t.Errorf("P = %d, %d-byte elements: NewRanks error %v, want accepted %v", c.p, c.eb, err, c.ok)
		}
		if !c.ok {
			if _, err := Simulate(s, 1); err == nil {
				t.Errorf("P = %d, %d-byte elements: Simulate gave no error", c.p, c.eb)
			}
		}
	}
}

// TestScheduleDetectsWrongSchedule: the checker catches a schedule that
// skips a step (it must be able to fail).
func TestScheduleDetectsWrongSchedule(t *testing.T) {
	s, err := New(commmodel.Ring{}, 4, 64)
	if err != nil {
		t.Fatal(err)
	}
	s.Steps = s.Steps[:len(s.Steps)-1]
	res, err := Simulate(s, 7)
	if err != nil {
		t.Fatal(err)
	}
	if res.Correct {
		t.Error("ring AllReduce without its last step was judged correct")
	}
}

// TestSimulateLargeSteps runs schedules whose steps are large enough to be
// split over the workers (and, under -race, checks that they share nothing
// they write).
func TestSimulateLargeSteps(t *testing.T) {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.OneShot{}, commmodel.Bruck{}, commmodel.HierarchicalAllToAll{PerNode: 4}} {
		s, err := New(a, 12, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Simulate(s, 3)
		if err != nil || !r.Correct {
			t.Errorf("%s: %v %s", describe(a), err, r.Mismatch)
		}
	}
}

// TestCountsPerStep: the peers per rank per step of two-shot are P-1 in both
// of its steps (the article: "每卡 P−1 条连接"), those of ring 1 in each of
// its 2(P-1) steps; direct AllToAll's incast is P-1 messages at one rank.
func TestCountsPerStep(t *testing.T) {
	count := func(a commmodel.Algorithm, p int) Counts {
		s, err := New(a, p, 4*int64(p))
		if err != nil {
			t.Fatal(err)
		}
		return Count(s)
	}
	if got := count(commmodel.TwoShot{}, 8).StepFanout; len(got) != 2 || got[0] != 7 || got[1] != 7 {
		t.Errorf("two-shot P=8: peers per step %v, want [7 7]", got)
	}
	ring := count(commmodel.Ring{}, 8).StepFanout
	if len(ring) != 14 || slices.Max(ring) != 1 || slices.Min(ring) != 1 {
		t.Errorf("ring P=8: peers per step %v, want fourteen 1s", ring)
	}
	if c := count(commmodel.Direct{}, 16); c.Incast != 15 {
		t.Errorf("direct AllToAll P=16: incast %d, want 15", c.Incast)
	}
	if c := count(commmodel.Pairwise{}, 16); c.Incast != 1 {
		t.Errorf("pairwise AllToAll P=16: incast %d, want 1 (one message in flight)", c.Incast)
	}
}

func ExampleSimulate() {
	s, err := New(commmodel.HalvingDoubling{}, 6, 960000)
	if err != nil {
		panic(err)
	}
	r, err := Simulate(s, 1)
	if err != nil {
		panic(err)
	}
	c := commmodel.HalvingDoubling{}.Cost(6, 960000)
	fmt.Printf("correct %v; steps %d (model %d); busiest rank sends %d B (model %.0f)\n",
		r.Correct, r.Steps, c.Steps, r.MaxSent(), c.Bytes)
	// Output:
	// correct true; steps 6 (model 6); busiest rank sends 2400000 B (model 2400000)
}

// TestFootprint: the estimate that commlab simulate refuses requests by is at
// least the memory a simulation really holds (buffers and schedule, measured
// as live heap), and not wildly more, with float32 values (4-byte elements)
// and float64 ones (8-byte).
func TestFootprint(t *testing.T) {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.OneShot{}, commmodel.Direct{}, commmodel.Pairwise{}, commmodel.Bruck{},
		commmodel.HierarchicalAllReduce{PerNode: 8}, commmodel.HierarchicalAllToAll{PerNode: 8},
		commmodel.Tree{PerNode: 8, Chunks: 8}, commmodel.NVLS{PerNode: 8}, commmodel.NVLSTree{PerNode: 8, Chunks: 4},
		commmodel.CollNetDirect{PerNode: 8}, commmodel.CollNetChain{PerNode: 8, Chunks: 8}} {
		for _, eb := range []int{4, 8} {
			const p, size = 64, 1 << 20
			est, err := Footprint(a, p, size, eb)
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			s, err := NewElem(a, p, size, eb)
			if err != nil {
				t.Fatal(err)
			}
			m, err := NewRanks(s)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			live := float64(after.HeapAlloc) - float64(before.HeapAlloc)
			if !(est >= live && est <= 3*live) {
				t.Errorf("%s, %d-byte elements: Footprint %.3g B, live heap %.3g B", describe(a), eb, est, live)
			}
			runtime.KeepAlive(m)
		}
	}
}

// TestInputs: the inputs written a group of 16 at a time are inputValue's,
// one element at a time, from every alignment, in float32 and float64.
func TestInputs(t *testing.T) {
	for lo := range 40 {
		for n := range 50 {
			f32, f64 := make([]float32, n), make([]float64, n)
			inputs(f32, 9, 3, lo)
			inputs(f64, 9, 3, lo)
			for i := range n {
				want := inputValue(9, 3, lo+i)
				if float64(f32[i]) != want || f64[i] != want || want < 0 || want > maxInput || want != math.Trunc(want) {
					t.Fatalf("lo %d, n %d, element %d: float32 %g, float64 %g, inputValue %g", lo, n, i, f32[i], f64[i], want)
				}
			}
		}
	}
}

// TestInputSums: the lane-wise sums are the sums of inputValue over the
// ranks, for P past sumLanes (whose lanes must be carried out, or 15·P
// would overflow 16 bits) and n with a partial group.
func TestInputSums(t *testing.T) {
	for _, c := range []struct{ p, n, workers int }{{1, 0, 1}, {3, 5, 2}, {7, 16*2048*2 + 9, 2}, {sumLanes + 3, 37, 1}, {2 * sumLanes, 32, 2}} {
		got := inputSums[float64](5, c.p, c.n, c.workers)
		for i := range c.n {
			want := 0.0
			for r := range c.p {
				want += inputValue(5, r, i)
			}
			if got[i] != want {
				t.Fatalf("P %d, n %d: element %d sums to %g, want %g", c.p, c.n, i, got[i], want)
			}
		}
	}
}

// TestCheckFindsEveryElement: after a correct run, one wrong element
// anywhere in any rank's output (its first and last, in ranks 3 and 6) is
// found, and with two the lower rank's is reported, for every collective and
// with steps large enough (P·Len >= parallelFrom) to split Fill and Check
// over the workers.
func TestCheckFindsEveryElement(t *testing.T) {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.RingReduceScatter{}, commmodel.RingAllGather{}, commmodel.PipelinedBroadcast{Chunks: 4}, commmodel.Direct{}, commmodel.Bruck{}} {
		s, err := New(a, 8, 1<<18)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewRanks(s)
		if err != nil {
			t.Fatal(err)
		}
		m.Fill(2)
		m.Run()
		if mis := m.Check(2); mis != "" {
			t.Fatalf("%s: %s", describe(a), mis)
		}
		out := func(r int) (lo, hi int) { // rank r's output elements
			n := s.Elems()
			switch s.Collective {
			case commmodel.ReduceScatter:
				a, b := partBounds(n, s.P, r)
				return s.OutOff + a, s.OutOff + b
			case commmodel.AllToAll:
				a, b := partBounds(n, s.P, r)
				return s.OutOff, s.OutOff + s.P*(b-a)
			}
			return s.OutOff, s.OutOff + n
		}
		corrupt := func(r, at int) func() {
			v := m.Values(r)
			old := slices.Clone(v)
			v[at]++
			m.SetValues(r, v)
			return func() { m.SetValues(r, old) }
		}
		lo3, hi3 := out(3)
		lo6, hi6 := out(6)
		for _, c := range []struct{ r, at int }{{3, lo3}, {3, hi3 - 1}, {6, lo6}, {6, hi6 - 1}} {
			undo := corrupt(c.r, c.at)
			want := fmt.Sprintf("rank %d element %d: got ", c.r, c.at)
			if mis := m.Check(2); !strings.HasPrefix(mis, want) {
				t.Errorf("%s: one wrong element: %q, want %q...", describe(a), mis, want)
			}
			undo()
		}
		undo6, undo3 := corrupt(6, lo6), corrupt(3, hi3-1)
		if mis, want := m.Check(2), fmt.Sprintf("rank 3 element %d: got ", hi3-1); !strings.HasPrefix(mis, want) {
			t.Errorf("%s: two wrong elements: %q, want %q...", describe(a), mis, want)
		}
		undo3()
		undo6()
	}
}

// TestFillWritesEveryElement: Fill over buffers of garbage gives what it
// gives over fresh ones (inputs, -1 and 0), so it owes nothing to the
// allocation's zeros, for layouts with scratch and working regions too.
func TestFillWritesEveryElement(t *testing.T) {
	for _, a := range scheduled(8) {
		s, err := New(a, 8, 8*40)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewRanks(s)
		if err != nil {
			t.Fatal(err)
		}
		m.Fill(4)
		fresh := make([][]float64, s.P)
		for r := range s.P {
			fresh[r] = m.Values(r)
			garbage := make([]float64, s.Len)
			for i := range garbage {
				garbage[i] = 1e6 + float64(i)
			}
			m.SetValues(r, garbage)
		}
		m.Fill(4)
		for r := range s.P {
			if got := m.Values(r); !slices.Equal(got, fresh[r]) {
				t.Errorf("%s: rank %d after garbage %v, fresh %v", describe(a), r, got, fresh[r])
			}
		}
	}
}

// TestValidateManySteps: a schedule large enough to be validated over the
// workers (ring on 128 ranks: 2·127 steps of 128 transfers) reports its first
// bad step, whichever worker meets it.
func TestValidateManySteps(t *testing.T) {
	s, err := New(commmodel.Ring{}, 128, 128*4*8)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, steps := range [][]int{{200}, {3, 200}, {200, 3}, {130, 140}} {
		c := *s
		c.Steps = slices.Clone(s.Steps)
		for _, si := range steps {
			c.Steps[si] = slices.Clone(c.Steps[si])
			c.Steps[si][5].Dst = c.P // out of range
		}
		want := fmt.Sprintf("step %d transfer 5", slices.Min(steps))
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad steps %v: %v, want %q", steps, err, want)
		}
	}
}

// TestMismatch: the first differing value is found at every position, -0
// equals 0 though their bytes differ, and NaN equals nothing.
func TestMismatch(t *testing.T) {
	want := []float32{0, 1, 2, 3, 4, 5, 6, 7, 8}
	for at := range want {
		for _, bad := range []float32{want[at] + 1, float32(math.NaN())} {
			got := slices.Clone(want)
			got[at] = bad
			if i := mismatch(got, want); i != at {
				t.Errorf("%g at %d: mismatch %d", bad, at, i)
			}
		}
	}
	negZero := float32(math.Copysign(0, -1))
	if i := mismatch([]float32{negZero, 1}, []float32{0, 1}); i != -1 {
		t.Errorf("-0 against 0: mismatch %d, want -1", i)
	}
	if i := mismatch([]float64{}, nil); i != -1 {
		t.Errorf("empty: mismatch %d", i)
	}
}
