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
	"gonum.org/v1/gonum/floats/scalar"
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
		commmodel.PATAllGather{}, commmodel.PATReduceScatter{}, commmodel.Shift{},
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

// TestSchedulesMatchModel is the property test of the schedules: for every
// algorithm, every P from 1 to 64 and sizes that do and do not divide, the
// schedule's result is right and its counts are the model's (commmodel's own
// Cost: steps, messages on the critical path, peers and fanout exactly; bytes
// sent, reduced and on the critical path between the formula at S rounded
// down and up to a multiple of evenElems elements, equal when S divides).
// -short stops at P = 24 (three nodes of 8).
func TestSchedulesMatchModel(t *testing.T) {
	const eb = DefaultElemBytes
	maxP := 64
	if testing.Short() {
		maxP = 24
	}
	// One parallel subtest a P.
	for p := 1; p <= maxP; p++ {
		t.Run(fmt.Sprintf("P=%d", p), func(t *testing.T) {
			t.Parallel()
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
		})
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
// source as it was when the step began (the simulator snapshots it).
func TestStepReadsItsStart(t *testing.T) {
	s := &Schedule{Collective: commmodel.AllToAll, P: 1, ElemBytes: 4, Len: 3, Steps: [][]Transfer{{
		{Src: 0, Dst: 0, SrcOff: 0, DstOff: 1, Len: 1},
		{Src: 0, Dst: 0, SrcOff: 1, DstOff: 2, Len: 1},
		{Src: 0, Dst: 0, SrcOff: 2, DstOff: 0, Len: 1},
	}}}
	w := wholeWorker(t, s, 1)
	copy(w.bufs[0], []value{10, 20, 30})
	w.step(0)
	if got := w.bufs[0]; !slices.Equal(got, []value{30, 10, 20}) {
		t.Errorf("rotation gave %v, want [30 10 20]", got)
	}
	if c := Count(s); c.Steps != 0 || c.MaxSent() != 0 {
		t.Errorf("a local step counted as communication: %+v", c)
	}
}

// wholeWorker returns a worker that holds every rank's whole buffer of s,
// as Simulate holds a schedule that does not keep its offsets, before it
// fills them.
func wholeWorker(t *testing.T, s *Schedule, seed uint64) *worker {
	t.Helper()
	staged, err := s.hazards()
	if err != nil {
		t.Fatal(err)
	}
	w := newSim(s, staged, seed).newWorker(s.Len, true)
	w.setTile(0, s.Len)
	return w
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
// split over the workers, and those that keep their offsets by many tiles
// at once (and, under -race, checks that the workers share nothing they
// write).
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
		if s.keepsOffsets() {
			if mis, err := simulateTiles(s, 3, 4096); err != nil || mis != "" {
				t.Errorf("%s, tiles of 4096: %v %s", describe(a), err, mis)
			}
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
// schedule, measured as live heap), and not wildly more, with 4-byte and
// 8-byte elements. 64 ranks of 1 MiB are 2^24 elements, so that the in-place
// schedules run by several tiles. -short measures 4-byte elements of the
// ring (tiled in place), Direct (whole buffers) and the tree.
func TestFootprint(t *testing.T) {
	elemBytes := []int{4, 8}
	algs := []commmodel.Algorithm{commmodel.Ring{}, commmodel.HalvingDoubling{}, commmodel.OneShot{}, commmodel.Direct{}, commmodel.Pairwise{}, commmodel.Bruck{},
		commmodel.HierarchicalAllReduce{PerNode: 8}, commmodel.HierarchicalAllToAll{PerNode: 8},
		commmodel.Tree{PerNode: 8, Chunks: 8}, commmodel.NVLS{PerNode: 8}, commmodel.NVLSTree{PerNode: 8, Chunks: 4},
		commmodel.CollNetDirect{PerNode: 8}, commmodel.CollNetChain{PerNode: 8, Chunks: 8}}
	if testing.Short() {
		elemBytes = elemBytes[:1]
		algs = []commmodel.Algorithm{commmodel.Ring{}, commmodel.Direct{}, commmodel.Tree{PerNode: 8, Chunks: 8}}
	}
	for _, a := range algs {
		for _, eb := range elemBytes {
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
// index of its steps and each worker's buffers, after every tile has run
// through them.
func simulationHolds(t *testing.T, s *Schedule) (held any, tiled bool) {
	staged, err := s.hazards()
	if err != nil {
		t.Fatal(err)
	}
	m := newSim(s, staged, 1)
	tile := min(s.tile(), s.Len) // as eachTile cuts them
	tiles := (s.Len + tile - 1) / tile
	held = []any{m}
	for range min(runtime.GOMAXPROCS(0), tiles) {
		w := m.newWorker(tile, tiles == 1)
		for lo := 0; lo < s.Len; lo += tile {
			if b := w.tile(lo, min(lo+tile, s.Len)); b.r >= 0 {
				t.Fatalf("%s: wrong at rank %d", s.Algorithm, b.r)
			}
		}
		held = append(held.([]any), w)
	}
	return held, tile < s.Len
}

// TestInputs: the inputs behave as independent uniform values, which is
// what makes a wrong schedule pass with a chance of about 2^-15 an element
// (sim.go's notes). Over 64 ranks x 4096 elements, each of the 4 nibbles of
// an input takes each value 0-15 as often as chance allows (Pearson's
// chi-square with 15 degrees of freedom below 37.7, its 0.1% point), and
// an input equals the same element's on the next rank, and the next
// element's on the same rank, 2^-16 of the time (within 5 standard
// deviations of a binomial).
func TestInputs(t *testing.T) {
	const ranks, elems = 64, 4096
	s := &Schedule{Collective: commmodel.AllReduce, P: ranks + 1, Size: 4 * (elems + 1), ElemBytes: 4, Len: elems + 1}
	w := wholeWorker(t, s, 7)
	in := make([][]value, ranks+1)
	for r := range in {
		in[r] = make([]value, elems+1)
		w.inputs(in[r], r, 0)
	}
	var counts [4][16]int
	sameRank, sameElem := 0, 0
	for r := range ranks {
		for k := range elems {
			v := in[r][k]
			for d := range counts {
				counts[d][v>>(4*d)&15]++
			}
			if v == in[r+1][k] {
				sameRank++
			}
			if v == in[r][k+1] {
				sameElem++
			}
		}
	}
	want := float64(ranks*elems) / 16
	for d, c := range counts {
		chi := 0.0
		for _, n := range c {
			chi += (float64(n) - want) * (float64(n) - want) / want
		}
		if chi > 37.7 {
			t.Errorf("nibble %d: chi-square %.1f over 15 degrees of freedom: %v", d, chi, c)
		}
	}
	n := float64(ranks * elems)
	mean, sd := n/(1<<16), math.Sqrt(n/(1<<16))
	for name, got := range map[string]int{"next rank": sameRank, "next element": sameElem} {
		if !scalar.EqualWithinAbs(float64(got), mean, 5*sd) {
			t.Errorf("an input equals the %s's %d times of %.0f, want %.1f ± %.1f", name, got, n, mean, 5*sd)
		}
	}
}

// TestCheckFindsEveryElement: after a correct run, one wrong element
// anywhere in any rank's output (its first and last, in ranks 3 and 6) is
// found, and with two the lower rank's is reported, for every collective,
// with tiles large enough (P·Len >= parallelFrom) to split the fill, the
// steps and the check over the workers.
func TestCheckFindsEveryElement(t *testing.T) {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.RingReduceScatter{}, commmodel.RingAllGather{}, commmodel.PipelinedBroadcast{Chunks: 4}, commmodel.Direct{}, commmodel.Bruck{}} {
		s, err := New(a, 8, 1<<18)
		if err != nil {
			t.Fatal(err)
		}
		checkFindsEveryElement(t, describe(a), s)
	}
}

func checkFindsEveryElement(t *testing.T, name string, s *Schedule) {
	t.Helper()
	w := wholeWorker(t, s, 2)
	w.byRank(w.fill)
	for si := range s.Steps {
		w.step(si)
	}
	if b := w.checkAll(); b.r >= 0 {
		t.Fatalf("%s: rank %d element %d wrong", name, b.r, b.at)
	}
	out := func(r int) (lo, hi int) { // rank r's output elements
		g := s.output(r)
		return g.off + g.lo, g.off + g.hi
	}
	lo3, hi3 := out(3)
	lo6, hi6 := out(6)
	for _, c := range []struct{ r, at int }{{3, lo3}, {3, hi3 - 1}, {6, lo6}, {6, hi6 - 1}} {
		w.bufs[c.r][c.at]++
		if b := w.checkAll(); b.r != c.r || b.at != c.at {
			t.Errorf("%s: one wrong element at rank %d element %d: found rank %d element %d", name, c.r, c.at, b.r, b.at)
		}
		w.bufs[c.r][c.at]--
	}
	w.bufs[6][lo6]++
	w.bufs[3][hi3-1]++
	if b := w.checkAll(); b.r != 3 || b.at != hi3-1 {
		t.Errorf("%s: two wrong elements: found rank %d element %d, want rank 3 element %d", name, b.r, b.at, hi3-1)
	}
}

// TestFillWritesEveryElement: a fill over buffers of garbage gives what it
// gives over fresh ones, so it owes nothing to the allocation's zeros, for
// layouts with scratch and working regions too.
func TestFillWritesEveryElement(t *testing.T) {
	for _, a := range scheduled(8) {
		s, err := New(a, 8, 8*40)
		if err != nil {
			t.Fatal(err)
		}
		w := wholeWorker(t, s, 4)
		w.byRank(w.fill)
		fresh := make([][]value, s.P)
		for r := range s.P {
			fresh[r] = slices.Clone(w.bufs[r])
			for i := range w.bufs[r] {
				w.bufs[r][i] = 1000 + value(i)
			}
		}
		w.byRank(w.fill)
		for r := range s.P {
			if got := w.bufs[r]; !slices.Equal(got, fresh[r]) {
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

// TestMismatch: the first differing element is found at every position of
// slices longer and shorter than a block of 64, and equal slices give -1.
func TestMismatch(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 200} {
		want := make([]value, n)
		for i := range want {
			want[i] = value(3 * i)
		}
		if i := mismatch(slices.Clone(want), want); i != -1 {
			t.Errorf("n %d, equal: mismatch %d", n, i)
		}
		for at := range n {
			got := slices.Clone(want)
			got[at]++
			if at < n-1 {
				got[n-1]-- // a later difference, which must not be the one reported
			}
			if i := mismatch(got, want); i != at {
				t.Errorf("n %d, differing at %d: mismatch %d", n, at, i)
			}
		}
	}
}

// TestNewRefusesHugeSchedules holds NewElem and Footprint to the bound on
// a schedule's memory, MaxScheduleBytes, before anything is allocated:
// New(Ring, 2^40, 1 MiB) ran out of memory in a slice of its ranks, and
// New(Ring, 2^20, 1 MiB) built 2^41 transfers for ever. Under the 2^30
// transfers that bounded it before, New(Ring, 8000) took 34 s and 6.9 GB,
// New(Ring, 23000) ran out of memory, and Footprint(Direct, 40000) gave
// 213 GB with no error, where NewElem refused it (a red team's report).
func TestNewRefusesHugeSchedules(t *testing.T) {
	for _, c := range []struct {
		a commmodel.Algorithm
		p int
	}{{commmodel.Ring{}, 1 << 40}, {commmodel.Ring{}, 1 << 20}, {commmodel.Direct{}, 1 << 16},
		{commmodel.HierarchicalAllToAll{PerNode: 8}, 1 << 20}, {commmodel.Tree{Chunks: 4}, 1 << 40},
		{commmodel.Direct{}, 40000}, {commmodel.Ring{}, 23000}, {commmodel.Ring{}, 8000}} {
		// Footprint first: before the bound it returned no error here, and
		// New would have built the schedule.
		if _, err := Footprint(c.a, c.p, 1<<20, DefaultElemBytes); err == nil || !strings.Contains(err.Error(), "MaxScheduleBytes") {
			t.Fatalf("Footprint(%s, %d, 1 MiB): %v, want the bound on a schedule's memory", c.a.Name(), c.p, err)
		}
		_, err := New(c.a, c.p, 1<<20)
		if err == nil || !strings.Contains(err.Error(), "transfers") || !strings.Contains(err.Error(), "MaxScheduleBytes") {
			t.Errorf("New(%s, %d, 1 MiB): %v, want the bound on a schedule's memory", c.a.Name(), c.p, err)
		}
	}
	// The bound is 2 GiB of Transfers: a Ring of P ranks has 2P(P-1) of
	// them (P-1 reduce-scatter and P-1 all-gather steps of P transfers), so
	// 2P(P-1)·transferBytes <= 2^31 holds up to P = 4379 with 56-byte
	// Transfers, and the largest power of two of ranks within it is 4096.
	if _, err := New(commmodel.Ring{}, 1<<20, 1<<20); err == nil || !strings.Contains(err.Error(), "; 4096 ranks are within it") {
		t.Errorf("New(Ring, 2^20, 1 MiB): %v, want 4096 ranks named within the bound", err)
	}
	if transferBytes == 56 {
		for p, ok := range map[int]bool{4379: true, 4380: false} {
			if _, err := Footprint(commmodel.Ring{}, p, 1<<20, DefaultElemBytes); (err == nil) != ok {
				t.Errorf("Footprint(Ring, %d, 1 MiB): %v, want within the bound %v", p, err, ok)
			}
		}
	}
	// A schedule well under the bound is built: a Ring of 1024 ranks, about
	// 2^21 transfers.
	if _, err := New(commmodel.Ring{}, 1<<10, 1<<20); err != nil {
		t.Errorf("New(Ring, 1024, 1 MiB): %v", err)
	}
}
