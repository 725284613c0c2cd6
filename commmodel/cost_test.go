package commmodel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestCosts(t *testing.T) {
	const S = 1 << 20
	for _, tc := range []struct {
		name string
		alg  Algorithm
		p    int
		want Cost
	}{
		// article: ring is 2(P-1) steps, each an S/P chunk; 2 connections per rank.
		{"ring p8", Ring{}, 8, Cost{Steps: 14, Bytes: 2 * 7.0 / 8 * S, Reduced: 7.0 / 8 * S, Peers: 2, Fanout: 1, Messages: 14}},
		// a ring of two is one neighbour.
		{"ring p2", Ring{}, 2, Cost{Steps: 2, Bytes: S, Reduced: S / 2, Peers: 1, Fanout: 1, Messages: 2}},
		{"ring p1", Ring{}, 1, Cost{}},
		// article: halving-doubling 2·log2 P steps, ring's bytes; partners at 1, 2, 4.
		{"hd p8", HalvingDoubling{}, 8, Cost{Steps: 6, Bytes: 2 * 7.0 / 8 * S, Reduced: 7.0 / 8 * S, Peers: 3, Fanout: 1, Messages: 6}},
		// MPICH (Rabenseifner) fold, P = 6: P' = 4, 2 extra steps, survivor sends +S,
		// the critical path carries +2S.
		{"hd p6", HalvingDoubling{}, 6, Cost{Steps: 6, Bytes: 1.5*S + S, PathBytes: 1.5*S + 2*S, Reduced: 0.75*S + S, Peers: 3, Fanout: 1, Messages: 6}},
		// article: two-shot 2 steps, bytes still the lower bound, P-1 connections.
		{"two-shot p8", TwoShot{}, 8, Cost{Steps: 2, Bytes: 2 * 7.0 / 8 * S, Reduced: 7.0 / 8 * S, Peers: 7, Fanout: 7, Messages: 14}},
		// article: one-shot 1 step, (P-1)·S bytes.
		{"one-shot p8", OneShot{}, 8, Cost{Steps: 1, Bytes: 7 * S, Reduced: 7 * S, Peers: 7, Fanout: 7, Messages: 7}},
		// Ring ReduceScatter/AllGather (MPICH): P-1 steps, (P-1)/P·S.
		{"reduce-scatter p8", RingReduceScatter{}, 8, Cost{Steps: 7, Bytes: 7.0 / 8 * S, Reduced: 7.0 / 8 * S, Peers: 2, Fanout: 1, Messages: 7}},
		{"all-gather p8", RingAllGather{}, 8, Cost{Steps: 7, Bytes: 7.0 / 8 * S, Peers: 2, Fanout: 1, Messages: 7}},
		// chain broadcast: P-1 steps of S; pipelined with C chunks P-2+C steps of S/C.
		{"broadcast p8", PipelinedBroadcast{}, 8, Cost{Steps: 7, Bytes: S, PathBytes: 7 * S, Peers: 2, Fanout: 1, Messages: 7}},
		{"broadcast p8 c4", PipelinedBroadcast{Chunks: 4}, 8, Cost{Steps: 10, Bytes: S, PathBytes: 10.0 / 4 * S, Peers: 2, Fanout: 1, Messages: 10}},
		// article: direct AllToAll one step, P-1 blocks of S/P at once.
		{"direct p8", Direct{}, 8, Cost{Steps: 1, Bytes: 7.0 / 8 * S, Peers: 7, Fanout: 7, Messages: 7}},
		// article: pairwise P-1 rounds, one block each.
		{"pairwise p8", Pairwise{}, 8, Cost{Steps: 7, Bytes: 7.0 / 8 * S, Peers: 7, Fanout: 1, Messages: 7}},
		// Bruck et al. (1997): log2 P steps, log2 P · S/2 bytes at P = 2^k; peers ±1, ±2, 4.
		{"bruck p8", Bruck{}, 8, Cost{Steps: 3, Bytes: 1.5 * S, Peers: 5, Fanout: 1, Messages: 3}},
		// Bruck P = 5: bits of 0..4 set: k=0 {1,3}, k=1 {2,3}, k=2 {4}: 5 blocks; peers ±1, ±2, 4≡-1.
		{"bruck p5", Bruck{}, 5, Cost{Steps: 3, Bytes: 5.0 / 5 * S, Peers: 4, Fanout: 1, Messages: 3}},
		// nccl-tests' sendrecv_perf: rank i sends S to i+1 and receives from
		// i-1, one step; two peers from P = 3, one at P = 2, none at P = 1
		// (a local copy).
		{"shift p8", Shift{}, 8, Cost{Steps: 1, Bytes: S, Peers: 2, Fanout: 1, Messages: 1}},
		{"shift p2", Shift{}, 2, Cost{Steps: 1, Bytes: S, Peers: 1, Fanout: 1, Messages: 1}},
		{"shift p1", Shift{}, 1, Cost{}},
		// rail-aligned two-level AllToAll, 2 x 8: gather (p-1)/p·S, send (N-1)/N·S.
		{"hierarchical a2a 2x8", HierarchicalAllToAll{PerNode: 8}, 16, Cost{Steps: 2, Bytes: 7.0/8*S + S/2, Peers: 8, Fanout: 7, Messages: 8}},
		// article's three steps, 2 x 8: RS_8(S), ring AllReduce of S/8 over 2, AG_8(S).
		{"hierarchical ar 2x8", HierarchicalAllReduce{PerNode: 8}, 16, Cost{Steps: 7 + 2 + 7, Bytes: 2*7.0/8*S + S/8, Reduced: 7.0/8*S + S/16, Peers: 3, Fanout: 1, Messages: 16}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.alg.Cost(tc.p, S)
			want := tc.want
			if got.Steps != want.Steps || got.Peers != want.Peers || got.Fanout != want.Fanout || got.Messages != want.Messages ||
				!scalar.EqualWithinRel(got.Bytes, want.Bytes, 1e-12) || !scalar.EqualWithinRel(got.Reduced, want.Reduced, 1e-12) ||
				!scalar.EqualWithinRel(got.Path(), want.Path(), 1e-12) {
				t.Errorf("Cost(%d, %d) = %+v, want %+v", tc.p, S, got, want)
			}
		})
	}
}

func TestBruckBlocks(t *testing.T) {
	for p := 1; p <= 130; p++ {
		// Definition: count set bits over the block indices 0..P-1.
		want := 0
		for j := range p {
			for b := j; b > 0; b &= b - 1 {
				want++
			}
		}
		if got := BruckBlocks(p); got != want {
			t.Errorf("BruckBlocks(%d) = %d, want %d", p, got, want)
		}
		// Bruck: log2 P · P/2 blocks when P = 2^k (each round moves the P/2 blocks whose index has that bit set).
		if isPow2(p) {
			k := 0
			for 1<<k < p {
				k++
			}
			if BruckBlocks(p) != k*p/2 {
				t.Errorf("BruckBlocks(%d) = %d, want log2 P · P/2 = %d", p, BruckBlocks(p), k*p/2)
			}
		}
	}
}

func TestTime(t *testing.T) {
	// article: ring at P = 8 with alpha 2 us is 28 us of steps plus 1.75 MB / 350 GB/s = 5 us for 1 MB.
	got := Time(Ring{}, 8, 1e6, h20Intra)
	if !scalar.EqualWithinRel(got, 33e-6, 1e-12) {
		t.Errorf("ring 1 MB P=8 on h20Intra = %g s, want 33e-6", got)
	}
	// Gamma charges reduced bytes: one-shot reduces 7 S.
	l := Link{Alpha: 1e-6, BW: 1e9, Gamma: 1e-10}
	if got, want := Time(OneShot{}, 8, 1000, l), 1e-6+7000/1e9+7000*1e-10; !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("one-shot with gamma = %g, want %g", got, want)
	}
	// Overhead charges messages: direct at P = 8 sends 7.
	l = Link{Alpha: 1e-6, BW: 1e9, Overhead: 1e-7}
	if got, want := Time(Direct{}, 8, 8000, l), 1e-6+7e-7+7000/1e9; !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("direct with overhead = %g, want %g", got, want)
	}
}

func TestInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		size float64
		l    Link
	}{
		{"negative size", -1, h20Intra},
		{"NaN size", math.NaN(), h20Intra},
		{"zero BW", 1, Link{Alpha: 1e-6}},
		{"negative BW", 1, Link{Alpha: 1e-6, BW: -1}},
		{"infinite BW", 1, Link{Alpha: 1e-6, BW: math.Inf(1)}},
		{"NaN alpha", 1, Link{Alpha: math.NaN(), BW: 1}},
		{"negative alpha", 1, Link{Alpha: -1, BW: 1}},
		{"negative gamma", 1, Link{BW: 1, Gamma: -1}},
	} {
		for _, a := range everyAlgorithm() {
			if got := Time(a, 8, tc.size, tc.l); !math.IsNaN(got) {
				t.Errorf("%s: %s time = %g, want NaN", tc.name, benchName(a), got)
			}
		}
	}
	// documented: P < 1 is a programming error and panics, in Cost and in
	// Time, on a valid link and on one that is not (whose time is NaN).
	panics := func(f func()) (panicked bool) {
		defer func() { panicked = recover() != nil }()
		f()
		return false
	}
	for _, a := range everyAlgorithm() {
		if !panics(func() { a.Cost(0, 1) }) {
			t.Errorf("%s: Cost(0, 1) did not panic", benchName(a))
		}
		for _, l := range []Link{h20Intra, {Alpha: 1e-6}} {
			if !panics(func() { Time(a, 0, 1, l) }) {
				t.Errorf("%s: Time at P = 0 on %+v did not panic", benchName(a), l)
			}
		}
	}
	// A node size that does not divide P gives NaN bytes, not a panic.
	for _, a := range []Algorithm{HierarchicalAllReduce{PerNode: 8}, HierarchicalAllToAll{PerNode: 8}, HierarchicalAllReduce{}} {
		if got := Time(a, 12, 1, h20Intra); !math.IsNaN(got) {
			t.Errorf("%T at P = 12: time %g, want NaN", a, got)
		}
	}
	// NCCL's Tree between 2^50 nodes: its terms, not its Cost, whose peers
	// are found by walking the trees.
	if got := Time(HierarchicalAllReduce{PerNode: 8, Inter: Tree{}}, 8<<50, 1<<20, h20Intra); !(got > 0) {
		t.Errorf("hierarchical AllReduce with a tree inside, 2^50 nodes: time %g, want > 0", got)
	}
	if got := Time(HierarchicalAllReduce{PerNode: 2, Inter: Direct{}}, 4, 1, h20Intra); !math.IsNaN(got) {
		t.Errorf("hierarchical AllReduce with an AllToAll inside: time %g, want NaN", got)
	}
}

func TestBusFactor(t *testing.T) {
	// nccl-tests (doc/PERFORMANCE.md): AllReduce 2(n-1)/n; RS, AG, AllToAll (n-1)/n; Broadcast 1.
	for _, tc := range []struct {
		c    Collective
		p    int
		want float64
	}{
		{AllReduce, 8, 1.75}, {AllReduce, 16, 1.875}, {AllReduce, 1, 0},
		{ReduceScatter, 8, 0.875}, {AllGather, 8, 0.875}, {AllToAll, 8, 0.875},
		{Broadcast, 8, 1},
	} {
		if got := tc.c.BusFactor(tc.p); got != tc.want {
			t.Errorf("%s.BusFactor(%d) = %g, want %g", tc.c, tc.p, got, tc.want)
		}
	}
	// article: 64 MiB AllToAll on 8 GPUs in 216 us is 272 GB/s of bus bandwidth.
	if bw := AllToAll.BusBW(8, 64<<20, 216e-6); math.Round(bw/1e9) != 272 {
		t.Errorf("BusBW = %g GB/s, want 272", bw/1e9)
	}
	if got := AllReduce.AlgBW(8, AllReduce.BusBW(8, 1e6, 1e-5)); !scalar.EqualWithinRel(got, 1e11, 1e-12) {
		t.Errorf("AlgBW(BusBW(x)) = %g, want 1e11", got)
	}
}

func TestParseCollective(t *testing.T) {
	for in, want := range map[string]Collective{
		"allreduce": AllReduce, "all_reduce": AllReduce, "AllReduce": AllReduce,
		"reduce_scatter": ReduceScatter, "all-gather": AllGather, "alltoall": AllToAll,
		"broadcast": Broadcast,
	} {
		got, err := ParseCollective(in)
		if err != nil || got != want {
			t.Errorf("ParseCollective(%q) = %v, %v; want %v", in, got, err, want)
		}
		if back, _ := ParseCollective(got.String()); back != got {
			t.Errorf("round trip of %v gave %v", got, back)
		}
	}
	if _, err := ParseCollective("gather"); err == nil {
		t.Error("ParseCollective(gather) succeeded")
	}
	// Values outside an enumeration print as their number.
	for _, c := range []struct{ got, want string }{
		{Collective(-1).String(), "Collective(-1)"}, {Protocol(3).String(), "Protocol(3)"},
		{FabricKind(3).String(), "FabricKind(3)"}, {FullMesh.String(), "full-mesh"},
	} {
		if c.got != c.want {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, c := range Collectives() {
		for _, name := range Names(c) {
			a, err := Lookup(c, name, Options{PerNode: 8, Chunks: 4})
			if err != nil {
				t.Errorf("Lookup(%s, %s): %v", c, name, err)
				continue
			}
			if a.Name() != name || a.Collective() != c {
				t.Errorf("Lookup(%s, %s) = %s of %s", c, name, a.Name(), a.Collective())
			}
		}
	}
	if _, err := Lookup(AllReduce, "bruck", Options{}); err == nil {
		t.Error("Lookup(allreduce, bruck) succeeded")
	}
	// NCCL's spellings, as predict names a prediction's algorithm, name
	// the same algorithms (a red team fed Choices' CollNetDirect back).
	for nccl, name := range map[string]string{"CollNetDirect": "collnet-direct", "CollNetChain": "collnet-chain", "NVLSTree": "nvlstree"} {
		if a, err := Lookup(AllReduce, nccl, Options{PerNode: 8, Chunks: 4}); err != nil || a.Name() != name {
			t.Errorf("Lookup(allreduce, %s) = %v, %v; want %s", nccl, a, err, name)
		}
	}
	if _, err := Lookup(AllToAll, "hierarchical", Options{}); err == nil {
		t.Error("hierarchical without a node size succeeded")
	}
	a, err := Lookup(AllReduce, "hierarchical", Options{PerNode: 8, Inter: HalvingDoubling{}})
	if err != nil || a.(HierarchicalAllReduce).Inter != Algorithm(HalvingDoubling{}) {
		t.Errorf("hierarchical with HD inside = %v, %v", a, err)
	}
	for _, in := range []Algorithm{HierarchicalAllReduce{PerNode: 8}, Direct{}} {
		if _, err := Lookup(AllReduce, "hierarchical", Options{PerNode: 8, Inter: in}); err == nil {
			t.Errorf("hierarchical AllReduce with %s of %s between nodes succeeded", in.Name(), in.Collective())
		}
	}
	// Chunks means the same for every pipeline: 0 is no pipelining, the
	// fluid form where there is one.
	if a, err := Lookup(AllReduce, "tree", Options{}); err != nil || a != (Tree{}) {
		t.Errorf("tree with no chunks = %v, %v; want the fluid Tree{}", a, err)
	}
	if a, err := Lookup(Broadcast, "pipelined", Options{}); err == nil {
		t.Errorf("pipelined broadcast with no chunks = %v; want an error", a)
	}
	if a, err := Lookup(Broadcast, "pipelined", Options{Chunks: 8}); err != nil || a != (PipelinedBroadcast{Chunks: 8}) {
		t.Errorf("pipelined broadcast in 8 chunks = %v, %v", a, err)
	}
}

// TestAlgorithmsOwnSlice holds Algorithms to a slice of the caller's own:
// it returned the package's, so that editing or sorting it changed every
// later call (and Names then panicked on the nil entry).
func TestAlgorithmsOwnSlice(t *testing.T) {
	for _, c := range Collectives() {
		a := Algorithms(c)
		a[0] = nil
		if Algorithms(c)[0] == nil {
			t.Errorf("%v: editing Algorithms' result changed a later call", c)
		}
	}
}

// TestHugeCountsDoNotOverflow holds every algorithm to a time that is
// never negative nor wrapped around: up to maxCount ranks and chunks its
// steps fit in an int (a ring AllReduce of 2^53 ranks takes its 2(P-1)
// steps' α), and beyond it the time is NaN, a shape it does not fit (red
// team 28: Ring on math.MaxInt ranks counted 2(P-1) steps in an int, which
// overflowed to a negative count and a time of 17 µs).
func TestHugeCountsDoNotOverflow(t *testing.T) {
	l := Link{Alpha: 1e-6, BW: 1e11}
	if got, want := Time(Ring{}, 1<<53, 1<<20, l), 2*float64(1<<53-1)*l.Alpha; got < want {
		t.Errorf("Ring on 2^53 ranks: %g s, want at least its steps' α, %g s", got, want)
	}
	for _, a := range everyAlgorithm() {
		for _, p := range []int{maxCount + 1<<50, math.MaxInt - 7, math.MaxInt} {
			p -= p % max(a.(planner).nodeSize(64), 1)
			if got := Time(a, p, 1<<20, l); !math.IsNaN(got) {
				t.Errorf("Time(%s %+v, %d ranks): %g s, want NaN beyond 2^60 ranks", a.Name(), a, p, got)
			}
		}
	}
	for _, a := range []Algorithm{PipelinedBroadcast{Chunks: math.MaxInt}, Tree{Chunks: math.MaxInt}, NVLSTree{PerNode: 4, Chunks: math.MaxInt}, CollNetChain{PerNode: 4, Chunks: math.MaxInt},
		HierarchicalAllReduce{PerNode: 4, Inter: Tree{Chunks: math.MaxInt}}} {
		if got := Time(a, 16, 1<<20, l); !math.IsNaN(got) {
			t.Errorf("Time(%+v, 16 ranks): %g s, want NaN beyond 2^60 chunks", a, got)
		}
		if got := (Cluster{Nodes: 4, PerNode: 4, Intra: l, Inter: l}).Time(a, 1<<20); !math.IsNaN(got) {
			t.Errorf("Cluster 4x4 Time(%+v): %g s, want NaN beyond 2^60 chunks", a, got)
		}
	}
	if got := (Cluster{Nodes: 1 << 40, PerNode: 1 << 40, Intra: l, Inter: l}).Time(Ring{}, 1<<20); !math.IsNaN(got) {
		t.Errorf("Cluster 2^40 x 2^40 Time(Ring): %g s, want NaN (N·p overflows an int)", got)
	}
}
