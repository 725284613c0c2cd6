package schedule

import (
	"errors"
	"fmt"
	"math"
	"reflect"
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
// source as it was when the step began (the simulator snapshots it), in each
// value type, and through NewRanks.
func TestStepReadsItsStart(t *testing.T) {
	s := &Schedule{Collective: commmodel.AllToAll, P: 1, ElemBytes: 4, Len: 3, Steps: [][]Transfer{{
		{Src: 0, Dst: 0, SrcOff: 0, DstOff: 1, Len: 1},
		{Src: 0, Dst: 0, SrcOff: 1, DstOff: 2, Len: 1},
		{Src: 0, Dst: 0, SrcOff: 2, DstOff: 0, Len: 1},
	}}}
	hz, err := s.hazards()
	if err != nil {
		t.Fatal(err)
	}
	ranks, err := NewRanks(s)
	if err != nil {
		t.Fatal(err)
	}
	for name, newBuf := range map[string]func() (buffers, error){
		"uint16":   func() (buffers, error) { return newRankData[uint16](s, hz) },
		"float32":  func() (buffers, error) { return newRankData[float32](s, hz) },
		"float64":  func() (buffers, error) { return newRankData[float64](s, hz) },
		"NewRanks": func() (buffers, error) { return ranks.buf, nil },
	} {
		m, err := newBuf()
		if err != nil {
			t.Fatal(err)
		}
		m.setValues(0, []float64{10, 20, 30})
		m.run()
		if got := m.values(0); !slices.Equal(got, []float64{30, 10, 20}) {
			t.Errorf("%s: rotation gave %v, want [30 10 20]", name, got)
		}
	}
	if c := Count(s); c.Steps != 0 || c.MaxSent() != 0 {
		t.Errorf("a local step counted as communication: %+v", c)
	}
}

// TestRanksValueType: the ranks hold the narrowest value whose sums of P
// inputs up to 15 stay exact (sim.go's package notes), whatever the element
// size: uint16 while 15·P < 2^15 (2184 ranks: 32760), float32 while
// 15·P < 2^24 (1118481 ranks: 2^24 - 1), float64 beyond; past float64's
// 15·P < 2^53, NewRanks and Simulate refuse. Empty buffers keep NewRanks
// cheap; Simulate is only called where it must refuse (its Count would
// allocate per pair of ranks).
func TestRanksValueType(t *testing.T) {
	cases := []struct {
		p    int
		want string // the value type; "" for a refusal
	}{
		{1, "uint16"}, {2184, "uint16"}, {2185, "float32"}, {1118481, "float32"}, {1118482, "float64"},
		{(1<<53 - 1) / 15, "float64"}, {(1<<53-1)/15 + 1, ""},
	}
	bytes := map[string]int{"uint16": 2, "float32": 4, "float64": 8}
	for _, c := range cases {
		if c.want == "" {
			s := &Schedule{Collective: commmodel.AllReduce, P: c.p, ElemBytes: 4}
			if _, err := NewRanks(s); err == nil {
				t.Errorf("P = %d: NewRanks accepted", c.p)
			}
			if _, err := Simulate(s, 1); err == nil {
				t.Errorf("P = %d: Simulate gave no error", c.p)
			}
			continue
		}
		if got := storageBytes(c.p); got != bytes[c.want] {
			t.Errorf("P = %d: %d-byte values, want %s", c.p, got, c.want)
		}
		if c.p > 1<<21 { // 2^49 ranks' buffers: the bound NewRanks applies
			if maxInput*int64(c.p) >= exactBelow[float64]() {
				t.Errorf("P = %d: refused by float64's bound", c.p)
			}
			continue
		}
		for _, eb := range []int{1, 4, 8} {
			m, err := NewRanks(&Schedule{Collective: commmodel.AllReduce, P: c.p, ElemBytes: eb})
			if err != nil {
				t.Errorf("P = %d, %d-byte elements: %v", c.p, eb, err)
				continue
			}
			if got := fmt.Sprintf("%T", m.buf); got != "*schedule.rankData["+c.want+"]" {
				t.Errorf("P = %d, %d-byte elements: %s, want %s", c.p, eb, got, c.want)
			}
		}
	}
}

// TestMarkedSums: uint16 sums are exact below 2^15, and one that reaches it
// keeps its top bit whatever is added after (so it reads as -1, the
// sentinel, never a right answer), four lanes at a time or one (an
// unaligned slice); SetValues refuses what the uint16 ranks cannot hold.
func TestMarkedSums(t *testing.T) {
	cases := []struct{ a, b, want uint16 }{
		{3, 4, 7}, {32767, 0, 32767}, {16384, 16383, 32767},
		{32767, 1, 32768}, {65535, 5, 65535&^0x7fff | 4}, {40000, 40000, 40000&0x7fff*2 | 0x8000}, {32768, 32768, 32768},
	}
	for _, off := range []int{0, 1} { // 1: not on an 8-byte boundary
		dst, src := make([]uint16, off+4*len(cases)), make([]uint16, off+4*len(cases))
		for i, c := range cases {
			for lane := range 4 { // the case in every lane, beside the others
				dst[off+4*i+lane], src[off+4*i+lane] = c.a, c.b
			}
		}
		addMarked(dst[off:], src[off:])
		for i, c := range cases {
			for lane := range 4 {
				if got := dst[off+4*i+lane]; got != c.want || (c.want >= 1<<15) != (int(c.a)+int(c.b) >= 1<<15) {
					t.Errorf("offset %d lane %d: %d + %d = %d, want %d", off, lane, c.a, c.b, got, c.want)
				}
			}
		}
	}
	s := &Schedule{Collective: commmodel.AllReduce, P: 2, Size: 4, ElemBytes: 4, Len: 1,
		Steps: [][]Transfer{{{Src: 0, Dst: 1, Len: 1, Op: Reduce}}, {{Src: 0, Dst: 1, Len: 1, Op: Reduce}}}}
	m, err := NewRanks(s)
	if err != nil {
		t.Fatal(err)
	}
	m.SetValues(0, []float64{20000})
	m.SetValues(1, []float64{30000})
	m.Run() // 30000 + 20000 + 20000: past 2^15 after the first step, and 70000 mod 2^16 = 4464 after the second
	if got := m.Values(1); got[0] != -1 {
		t.Errorf("30000 + 2·20000 in uint16: %v, want marked (-1)", got)
	}
	for _, v := range []float64{32768, 70000, 1.5, -2} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("SetValues(%g) into uint16: no panic", v)
				}
			}()
			m.SetValues(0, []float64{v})
		}()
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
// least the memory a simulation really holds (buffers or tiles, and
// schedule, measured as live heap), and not wildly more, with float32 values
// (4-byte elements) and float64 ones (8-byte). 64 ranks of 1 MiB are 2^24
// elements, so that the in-place schedules run by tiles.
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
			held, tiled := simulationHolds(t, s)
			runtime.GC()
			runtime.ReadMemStats(&after)
			live := float64(after.HeapAlloc) - float64(before.HeapAlloc)
			if !(est >= live && est <= 3*live) {
				t.Errorf("%s, %d-byte elements, tiled %v: Footprint %.3g B, live heap %.3g B", describe(a), eb, tiled, est, live)
			}
			runtime.KeepAlive(held)
		}
	}
}

// simulationHolds allocates what Simulate holds beside the schedule: the
// ranks' buffers (NewRanks), or a tiled simulation's index and each
// worker's tiles (runTiles).
func simulationHolds(t *testing.T, s *Schedule) (held any, tiled bool) {
	if s.P*s.Len < tiledFrom || !s.tileable() {
		m, err := NewRanks(s)
		if err != nil {
			t.Fatal(err)
		}
		return m, false
	}
	staged, err := s.hazards()
	if err != nil {
		t.Fatal(err)
	}
	tl := newTiling(s, staged, tileLen(s.P))
	work := []any{tl}
	for range runtime.GOMAXPROCS(0) {
		switch storageBytes(s.P) {
		case 2:
			work = append(work, grownTileWork[uint16](tl))
		case 4:
			work = append(work, grownTileWork[float32](tl))
		default:
			work = append(work, grownTileWork[float64](tl))
		}
	}
	return work, true
}

// grownTileWork is a worker's tileWork after it has run every tile of tl,
// its snapshot grown to the most any step of a tile needs.
func grownTileWork[T value](tl *tiling) *tileWork[T] {
	s := tl.s
	w := newTileWork[T](s.P, tl.tile)
	for lo := 0; lo < s.Len; lo += tl.tile { // InOff is 0 in the layouts tested
		w.run(tl, 1, lo, min(lo+tl.tile, s.Len))
	}
	return w
}

// TestInputs: the inputs written a group of 16 at a time are inputValue's,
// one element at a time, from every alignment, in each value type.
func TestInputs(t *testing.T) {
	for lo := range 40 {
		for n := range 50 {
			u16, f32, f64 := make([]uint16, n), make([]float32, n), make([]float64, n)
			inputs(u16, 9, 3, lo)
			inputs(f32, 9, 3, lo)
			inputs(f64, 9, 3, lo)
			for i := range n {
				want := inputValue(9, 3, lo+i)
				if float64(u16[i]) != want || float64(f32[i]) != want || f64[i] != want || want < 0 || want > maxInput || want != math.Trunc(want) {
					t.Fatalf("lo %d, n %d, element %d: uint16 %d, float32 %g, float64 %g, inputValue %g", lo, n, i, u16[i], f32[i], f64[i], want)
				}
			}
		}
	}
}

// TestInputDigits: the inputs behave as independent uniform digits, which
// is what makes a wrong transfer of k elements pass with a chance of
// 16^-k. Over 64 ranks x 1024 groups (2^20 digits), each of the 16 digit
// places takes each value 0-15 as often as chance allows (Pearson's
// chi-square with 15 degrees of freedom below 37.7, its 0.1% point), and a
// digit equals the same element's digit on the next rank, and on the next
// group, 1/16 of the time (within 5 standard deviations of a binomial).
func TestInputDigits(t *testing.T) {
	const ranks, groups = 64, 1024
	var counts [wordInputs][maxInput + 1]int
	sameRank, sameGroup := 0, 0
	for r := range ranks {
		for g := range groups {
			h, next, after := inputWord(7, r, g), inputWord(7, r+1, g), inputWord(7, r, g+1)
			for e := range wordInputs {
				d := h >> (4 * e) & maxInput
				counts[e][d]++
				if d == next>>(4*e)&maxInput {
					sameRank++
				}
				if d == after>>(4*e)&maxInput {
					sameGroup++
				}
			}
		}
	}
	want := float64(ranks*groups) / (maxInput + 1)
	for e, c := range counts {
		chi := 0.0
		for _, n := range c {
			chi += (float64(n) - want) * (float64(n) - want) / want
		}
		if chi > 37.7 {
			t.Errorf("digit %d: chi-square %.1f over 15 degrees of freedom: %v", e, chi, c)
		}
	}
	n := float64(ranks * groups * wordInputs)
	mean, sd := n/16, math.Sqrt(n*(1.0/16)*(15.0/16))
	for name, got := range map[string]int{"next rank": sameRank, "next group": sameGroup} {
		if math.Abs(float64(got)-mean) > 5*sd {
			t.Errorf("a digit equals the %s's %d times of %.0f, want %.0f ± %.0f", name, got, n, mean, 5*sd)
		}
	}
}

// TestInputSums: the lane-wise sums are the sums of inputValue over the
// ranks, for P past byteRanks and laneRanks (whose lanes must be carried
// out, or 15·P would overflow 8 and 16 bits) and n with a partial group.
func TestInputSums(t *testing.T) {
	for _, c := range []struct{ p, n, workers int }{{1, 0, 1}, {3, 5, 2}, {byteRanks, 16, 1}, {byteRanks + 1, 33, 2}, {7, 16*2048*2 + 9, 2},
		{2*byteRanks + 5, 16 * 400, 2}, {laneRanks + 3, 37, 1}, {2 * laneRanks, 32, 2}} {
		got := inputSums[float64](5, c.p, c.n, c.workers)
		var u16 []uint16
		if storageBytes(c.p) == 2 {
			u16 = inputSums[uint16](5, c.p, c.n, c.workers)
		}
		for i := range c.n {
			want := 0.0
			for r := range c.p {
				want += inputValue(5, r, i)
			}
			if got[i] != want || u16 != nil && float64(u16[i]) != want {
				t.Fatalf("P %d, n %d: element %d sums to %g (uint16 %v), want %g", c.p, c.n, i, got[i], u16, want)
			}
		}
	}
}

// TestLaneCarries: the most that 8- and 16-bit lanes take is what
// byteRanks and laneRanks ranks of inputs up to 15 add to (one rank more
// would overflow them), and carryBytes moves each 8-bit lane to the 16-bit
// lane of its digit: laneRanks ranks of 15s carried every byteRanks ranks
// fill every 16-bit lane exactly.
func TestLaneCarries(t *testing.T) {
	if byteRanks*maxInput > 0xFF || (byteRanks+1)*maxInput <= 0xFF ||
		laneRanks*maxInput > 0xFFFF || (laneRanks+1)*maxInput <= 0xFFFF {
		t.Errorf("byteRanks %d, laneRanks %d do not fit 8 and 16 bits tightly", byteRanks, laneRanks)
	}
	var w [4]uint64
	for r := 0; r < laneRanks; r += byteRanks { // a byte lane of byteRanks 15s holds 255
		k := min(byteRanks, laneRanks-r)
		carryBytes(&w, 0x0101_0101_0101_0101*uint64(k*maxInput), 0x0101_0101_0101_0101*uint64(k*maxInput))
	}
	for k, x := range w {
		if x != 0xFFFF_FFFF_FFFF_FFFF {
			t.Errorf("word %d: %#x, want every lane 0xffff", k, x)
		}
	}
	w = [4]uint64{}
	carryBytes(&w, 0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908) // digit 2j = j, digit 2j+1 = j+8
	for e := range 16 {
		want := e / 2
		if e%2 == 1 {
			want = e/2 + 8
		}
		if got := int(w[e%4] >> (16 * (e / 4)) & 0xFFFF); got != want {
			t.Errorf("digit %d: lane holds %d, want %d", e, got, want)
		}
	}
}

// TestCheckFindsEveryElement: after a correct run, one wrong element
// anywhere in any rank's output (its first and last, in ranks 3 and 6) is
// found, and with two the lower rank's is reported, for every collective and
// with steps large enough (P·Len >= parallelFrom) to split Fill and Check
// over the workers, in each value type.
func TestCheckFindsEveryElement(t *testing.T) {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.RingReduceScatter{}, commmodel.RingAllGather{}, commmodel.PipelinedBroadcast{Chunks: 4}, commmodel.Direct{}, commmodel.Bruck{}} {
		s, err := New(a, 8, 1<<18)
		if err != nil {
			t.Fatal(err)
		}
		for typ, m := range eachValueType(t, s) {
			checkFindsEveryElement(t, describe(a)+"/"+typ, s, m)
		}
	}
}

// eachValueType returns ranks for s in each value type, whatever P.
func eachValueType(t *testing.T, s *Schedule) map[string]*Ranks {
	t.Helper()
	hz, err := s.hazards()
	if err != nil {
		t.Fatal(err)
	}
	u16, err16 := newRankData[uint16](s, hz)
	f32, err32 := newRankData[float32](s, hz)
	f64, err64 := newRankData[float64](s, hz)
	if err := errors.Join(err16, err32, err64); err != nil {
		t.Fatal(err)
	}
	return map[string]*Ranks{"uint16": {s, u16}, "float32": {s, f32}, "float64": {s, f64}}
}

func checkFindsEveryElement(t *testing.T, name string, s *Schedule, m *Ranks) {
	t.Helper()
	m.Fill(2)
	m.Run()
	if mis := m.Check(2); mis != "" {
		t.Fatalf("%s: %s", name, mis)
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
			t.Errorf("%s: one wrong element: %q, want %q...", name, mis, want)
		}
		undo()
	}
	undo6, undo3 := corrupt(6, lo6), corrupt(3, hi3-1)
	if mis, want := m.Check(2), fmt.Sprintf("rank 3 element %d: got ", hi3-1); !strings.HasPrefix(mis, want) {
		t.Errorf("%s: two wrong elements: %q, want %q...", name, mis, want)
	}
	undo3()
	undo6()
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
				garbage[i] = 1000 + float64(i)
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

// TestFillSummed: the fill of an AllReduce or a ReduceScatter in uint16
// writes every rank's inputs as inputValue gives them, zeros around them,
// and keeps as its reference the sums inputSums computes from the seed, for
// rank counts that are and are not a multiple of four, a partial last
// group, buffers with a scratch region and fills over the workers
// (P·Len >= parallelFrom). Buffers that cannot be read as words (an odd
// Len) are filled without a reference, and Check computes it; a check with
// another seed does not read the fill's reference.
func TestFillSummed(t *testing.T) {
	algos := []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.RingReduceScatter{}, commmodel.Tree{Chunks: 2}}
	for _, a := range algos {
		for _, p := range []int{1, 3, 4, 7, 9} {
			for _, n := range []int{0, 16, 36, 37, 64 * 9, 16*1100 + 12} {
				s, err := New(a, p, int64(4*n))
				if err != nil {
					continue // shapes an algorithm does not take (halving-doubling on 3 ranks)
				}
				m, err := NewRanks(s)
				if err != nil {
					t.Fatal(err)
				}
				m.Fill(5)
				d := m.buf.(*rankData[uint16])
				words := (s.Len%4 == 0 || p == 1) && s.InOff%4 == 0 // every rank's input on 8 bytes
				if (d.ref != nil) != words {
					t.Fatalf("%s, P %d, n %d: reference kept %v, want %v (Len %d)", describe(a), p, n, d.ref != nil, words, s.Len)
				}
				for r := range p {
					got := m.Values(r)
					for i, x := range got {
						want := 0.0
						if i >= s.InOff && i < s.InOff+n {
							want = inputValue(5, r, i-s.InOff)
						}
						if x != want {
							t.Fatalf("%s, P %d, n %d: rank %d element %d is %g, want %g", describe(a), p, n, r, i, x, want)
						}
					}
				}
				if d.ref != nil && !slices.Equal(d.ref, inputSums[uint16](5, p, n, 1)) {
					t.Fatalf("%s, P %d, n %d: the fill's reference differs from inputSums", describe(a), p, n)
				}
				m.Run()
				if mis := m.Check(5); mis != "" {
					t.Fatalf("%s, P %d, n %d: %s", describe(a), p, n, mis)
				}
				if mis := m.Check(6); n >= 16 && mis == "" {
					t.Fatalf("%s, P %d, n %d: the check with another seed passed", describe(a), p, n)
				}
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

// TestValueTypesAgree: every schedule, run in each value type (the
// property test meets only uint16, P <= 64), is right and leaves the same
// values in every rank.
func TestValueTypesAgree(t *testing.T) {
	for _, p := range []int{6, 8} {
		for _, a := range scheduled(p) {
			s, err := New(a, p, int64(4*(2*evenElems(p)+7)))
			if err != nil {
				t.Fatal(err)
			}
			var first [][]float64
			for _, typ := range []string{"uint16", "float32", "float64"} {
				m := eachValueType(t, s)[typ]
				m.Fill(11)
				m.Run()
				if mis := m.Check(11); mis != "" {
					t.Errorf("%s P=%d %s: %s", describe(a), p, typ, mis)
				}
				for r := range p {
					if v := m.Values(r); first == nil || len(first) <= r {
						first = append(first, v)
					} else if !slices.Equal(v, first[r]) {
						t.Errorf("%s P=%d %s: rank %d differs from uint16", describe(a), p, typ, r)
					}
				}
			}
		}
	}
}

// TestCountInParts: a schedule of parallelTransfers transfers or more is
// counted over the workers, each a run of steps, and the parts add up to
// the count of one worker, whatever their number (GOMAXPROCS 1, 2 and 3),
// for ring AllReduce on 256 ranks (2·255 steps of 256 transfers; each rank
// has 2 peers, formula: its neighbours), direct AllToAll on 300 (one step
// of 300·299 messages; every rank a peer of every other) and NVLS on 128
// (two steps through one switch, its ranks' one peer, met by both parts).
func TestCountInParts(t *testing.T) {
	for _, c := range []struct {
		a     commmodel.Algorithm
		p     int
		peers int
	}{{commmodel.Ring{}, 256, 2}, {commmodel.Direct{}, 300, 299}, {commmodel.NVLS{}, 128, 1}} { // NVLS: the switch, met in both of its steps
		s, err := New(c.a, c.p, int64(4*c.p*c.p))
		if err != nil {
			t.Fatal(err)
		}
		if n := s.transfers(); n < parallelTransfers {
			t.Fatalf("%s: %d transfers, fewer than parallelTransfers", describe(c.a), n)
		}
		var counts []Counts
		for _, procs := range []int{1, 2, 3} {
			old := runtime.GOMAXPROCS(procs)
			counts = append(counts, Count(s))
			runtime.GOMAXPROCS(old)
		}
		for i, got := range counts[1:] {
			if !reflect.DeepEqual(got, counts[0]) {
				t.Errorf("%s: counted over %d workers differs from one", describe(c.a), i+2)
			}
		}
		if got := counts[0].MaxPeers(); got != c.peers || slices.Min(counts[0].Peers) != c.peers {
			t.Errorf("%s: peers %v, want %d each", describe(c.a), counts[0].Peers[:4], c.peers)
		}
	}
}
