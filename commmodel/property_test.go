package commmodel

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// everyAlgorithm lists every algorithm with the rank counts it accepts:
// the article's, then NCCL's.
func everyAlgorithm() []Algorithm {
	return append(articleAlgorithms(),
		Tree{}, Tree{Chunks: 3}, Tree{PerNode: 4}, Tree{PerNode: 4, Chunks: 8},
		NVLS{}, NVLS{PerNode: 4}, NVLSTree{PerNode: 4}, NVLSTree{PerNode: 4, Chunks: 2},
		PATAllGather{}, PATReduceScatter{},
		CollNetDirect{PerNode: 4}, CollNetChain{PerNode: 4}, CollNetChain{PerNode: 4, Chunks: 3}, CollNetChain{PerNode: 1, Chunks: 2})
}

// articleAlgorithms lists the algorithms of the article: the single-level
// ones, the pipelined broadcast and the two-level forms.
func articleAlgorithms() []Algorithm {
	var all []Algorithm
	for _, c := range Collectives() {
		all = append(all, Algorithms(c)...)
	}
	return append(all, PipelinedBroadcast{Chunks: 4},
		HierarchicalAllReduce{PerNode: 4}, HierarchicalAllReduce{PerNode: 4, Inter: HalvingDoubling{}},
		HierarchicalAllToAll{PerNode: 4})
}

// inNetwork reports whether a switch reduces or replicates a's data, so that
// it may send less than the point-to-point LowerBound.
func inNetwork(a Algorithm) bool {
	switch a.(type) {
	case NVLS, NVLSTree, CollNetDirect, CollNetChain:
		return true
	}
	return false
}

func accepts(a Algorithm, p int) bool {
	switch h := a.(type) {
	case HierarchicalAllReduce:
		return p%h.PerNode == 0
	case HierarchicalAllToAll:
		return p%h.PerNode == 0
	case Tree:
		return p%h.nodeSize(p) == 0
	case NVLS:
		return h.PerNode == 0 || p%h.PerNode == 0
	case NVLSTree:
		return p%h.PerNode == 0
	case CollNetDirect:
		return p%h.PerNode == 0
	case CollNetChain:
		return p%h.PerNode == 0
	}
	return true
}

// Properties for P = 1..64 of every algorithm: bytes per rank never below the
// collective's lower bound (but where a switch reduces or replicates), the critical path never below the busiest rank's
// bytes, and time non-decreasing in S.
func TestProperties(t *testing.T) {
	sizes := LogSizes(1, 1<<34, 69)
	for _, a := range everyAlgorithm() {
		for p := 1; p <= 64; p++ {
			if !accepts(a, p) {
				continue
			}
			prev := -1.0
			for _, s := range sizes {
				c := a.Cost(p, s)
				lb := LowerBound(a.Collective(), p, s)
				if c.Bytes < lb*(1-1e-12) && !inNetwork(a) {
					t.Fatalf("%s %s P=%d S=%g: bytes %g below the lower bound %g", a.Collective(), a.Name(), p, s, c.Bytes, lb)
				}
				if c.PathBytes != 0 && c.PathBytes < c.Bytes {
					t.Fatalf("%s %s P=%d: path bytes %g below bytes %g", a.Collective(), a.Name(), p, c.PathBytes, c.Bytes)
				}
				if p > 1 && (c.Steps < 1 || c.Peers < 1 || c.Fanout < 1 || c.Fanout > c.Peers || c.Peers > p-1) {
					t.Fatalf("%s %s P=%d: implausible counts %+v", a.Collective(), a.Name(), p, c)
				}
				tm := c.Time(h20Intra)
				if math.IsNaN(tm) || tm < prev {
					t.Fatalf("%s %s P=%d: time %g at S=%g after %g", a.Collective(), a.Name(), p, tm, s, prev)
				}
				prev = tm
			}
		}
	}
}

// Crossovers are where the two times really are equal, and the order of A
// and B is right on either side.
func TestCrossoversAreEqualTimes(t *testing.T) {
	links := []Link{h20Intra, h20Inter, {Alpha: 5e-6, BW: 1e11, Gamma: 1e-12}, {Alpha: 1e-6, BW: 5e10, Overhead: 2e-7}}
	for _, c := range []Collective{AllReduce, AllToAll} {
		for _, l := range links {
			for p := 2; p <= 64; p++ {
				for _, x := range Crossovers(Algorithms(c), Flat{P: p, Link: l}) {
					ta, tb := Time(x.A, p, x.Size, l), Time(x.B, p, x.Size, l)
					if !scalar.EqualWithinRel(ta, tb, 1e-9) {
						t.Fatalf("%s P=%d %s/%s at %g B: %g vs %g s", c, p, x.A.Name(), x.B.Name(), x.Size, ta, tb)
					}
					if Time(x.A, p, x.Size/2, l) >= Time(x.B, p, x.Size/2, l) || Time(x.A, p, x.Size*2, l) <= Time(x.B, p, x.Size*2, l) {
						t.Fatalf("%s P=%d: %s should win below %g B and %s above", c, p, x.A.Name(), x.Size, x.B.Name())
					}
				}
			}
		}
	}
}

func TestOneShotCrossover(t *testing.T) {
	// article: S* = α·BW/((P-1) - 2(P-1)/P) ≈ 130 KB at P = 8 (133.3 kB with 2 us and 350 GB/s).
	if got := OneShotCrossover(8, h20Intra); !scalar.EqualWithinRel(got, 2e-6*350e9/5.25, 1e-12) {
		t.Errorf("OneShotCrossover(8) = %g, want %g", got, 2e-6*350e9/5.25)
	}
	for p := 3; p <= 64; p++ {
		for _, l := range []Link{h20Intra, {Alpha: 3e-6, BW: 2e11, Gamma: 2e-12}, {Alpha: 1e-6, BW: 1e11, Overhead: 3e-7}} {
			s := OneShotCrossover(p, l)
			if a, b := Time(OneShot{}, p, s, l), Time(TwoShot{}, p, s, l); !scalar.EqualWithinRel(a, b, 1e-9) {
				t.Errorf("P=%d: one-shot %g vs two-shot %g at the crossover %g", p, a, b, s)
			}
		}
	}
	if !math.IsInf(OneShotCrossover(2, h20Intra), 1) {
		t.Error("P = 2: one-shot and two-shot send the same bytes, want +Inf")
	}
	if !math.IsNaN(OneShotCrossover(8, Link{})) {
		t.Error("invalid link: want NaN")
	}
}

// The root finder must agree with the closed form on linear times and find
// the crossings of piecewise-linear (two-level) ones.
func TestCrossoverRootFinder(t *testing.T) {
	for p := 3; p <= 32; p++ {
		f := func(s float64) float64 { return Time(OneShot{}, p, s, h20Intra) }
		g := func(s float64) float64 { return Time(TwoShot{}, p, s, h20Intra) }
		got := scanCrossings(f, g, minCrossoverSize, maxCrossoverSize)
		if want := OneShotCrossover(p, h20Intra); len(got) != 1 || !scalar.EqualWithinRel(got[0].size, want, 1e-9) || !got[0].firstFaster {
			t.Errorf("P=%d: root finder %v, closed form %g", p, got, want)
		}
	}
	// Identical or touching curves never cross; a curve that dips below
	// another and comes back crosses twice.
	same := func(s float64) float64 { return 1 + math.Min(s, 1e6)*1e-9 }
	if got := scanCrossings(same, same, 1, 1<<40); len(got) != 0 {
		t.Errorf("identical curves cross at %v", got)
	}
	touch := func(s float64) float64 { return 1 + math.Abs(s-1024)*1e-9 }
	if got := scanCrossings(touch, func(float64) float64 { return 1 }, 1, 1<<40); len(got) != 0 {
		t.Errorf("touching curves cross at %v", got)
	}
	dip := func(s float64) float64 { return 1 - 0.5*math.Exp(-math.Pow(math.Log2(s)-20, 2)) }
	got := scanCrossings(dip, func(float64) float64 { return 0.9 }, 1, 1<<40)
	if len(got) != 2 || got[0].firstFaster || !got[1].firstFaster || !scalar.EqualWithinRel(dip(got[0].size), 0.9, 1e-9) || !scalar.EqualWithinRel(dip(got[1].size), 0.9, 1e-9) {
		t.Errorf("dip crossings %+v", got)
	}
	c := h20Cluster(2)
	for _, x := range Crossovers([]Algorithm{Direct{}, HierarchicalAllToAll{PerNode: 8}, Pairwise{}}, c) {
		if ta, tb := c.Time(x.A, x.Size), c.Time(x.B, x.Size); !scalar.EqualWithinRel(ta, tb, 1e-9) {
			t.Errorf("cluster %s/%s at %g: %g vs %g", x.A.Name(), x.B.Name(), x.Size, ta, tb)
		}
	}
}

func TestFastest(t *testing.T) {
	// Below the one-shot crossover one-shot wins at P = 8; above it two-shot
	// (ring and HD send the same bytes with more steps).
	for _, tc := range []struct {
		size float64
		want Algorithm
	}{{56e3, OneShot{}}, {1 << 20, TwoShot{}}, {1 << 30, TwoShot{}}} {
		a, tm := Fastest(Algorithms(AllReduce), Flat{P: 8, Link: h20Intra}, tc.size)
		if a != tc.want || tm != Time(tc.want, 8, tc.size, h20Intra) {
			t.Errorf("Fastest at %g = %v (%g s), want %s", tc.size, a, tm, tc.want.Name())
		}
	}
	if a, tm := Fastest(Algorithms(AllReduce), Flat{P: 8, Link: h20Intra}, -1); a != nil || !math.IsNaN(tm) {
		t.Errorf("Fastest of a negative size = %v, %g; want nil, NaN", a, tm)
	}
	m := NewRegimeGrid(Algorithms(AllReduce), Flats([]int{2, 8, 64}, h20Intra), LogSizes(1e3, 1e9, 13))
	if !slices.Equal(m.P, []int{2, 8, 64}) || len(m.Sizes) != 13 {
		t.Fatalf("regime grid rows %v, %d columns; want [2 8 64], 13", m.P, len(m.Sizes))
	}
	for i, p := range m.P {
		for j, s := range m.Sizes {
			// The grid times come from Lines: within lineTol of Time.
			a, tm := Fastest(Algorithms(AllReduce), Flat{P: p, Link: h20Intra}, s)
			if got := m.Time[i*len(m.Sizes)+j]; m.At(i, j) != a || !scalar.EqualWithinRel(got, tm, lineTol) {
				t.Errorf("regime grid at P=%d S=%g: %v (%g s), Fastest %v (%g s)", p, s, m.At(i, j), got, a, tm)
			}
		}
	}
	// On a cluster too: the rows are 1, 2 and 4 nodes of 8.
	algs := []Algorithm{Ring{}, TwoShot{}, HierarchicalAllReduce{PerNode: 8}}
	cs := []Cluster{h20Cluster(1), h20Cluster(2), h20Cluster(4)}
	g := NewRegimeGrid(algs, cs, LogSizes(1<<10, 1<<30, 11))
	for i, c := range cs {
		for j, s := range g.Sizes {
			if a, _ := Fastest(algs, c, s); g.At(i, j) != a || g.P[i] != c.Ranks() {
				t.Errorf("cluster grid at %d ranks, S=%g: %v, Fastest %v", g.P[i], s, g.At(i, j), a)
			}
		}
	}
}

// The winner changes are the edges of Fastest's regimes: between two
// consecutive changes one algorithm wins throughout, and it is the B of the
// first and the A of the next.
func TestWinnerChanges(t *testing.T) {
	check := func(name string, xs []Crossover, fastest func(float64) Algorithm) {
		t.Helper()
		for i, x := range xs {
			if fastest(x.Size*0.999) != x.A || fastest(x.Size*1.001) != x.B {
				t.Errorf("%s: change %d at %g: %s -> %s, Fastest says %v -> %v", name, i, x.Size, x.A.Name(), x.B.Name(),
					fastest(x.Size*0.999), fastest(x.Size*1.001))
			}
			if i > 0 && xs[i-1].B != x.A {
				t.Errorf("%s: change %d starts from %s, the previous ended at %s", name, i, x.A.Name(), xs[i-1].B.Name())
			}
		}
		// Between the changes, on a fine grid, the winner stays put.
		for _, s := range LogSizes(1, 1<<40, 401) {
			want := fastest(1)
			for _, x := range xs {
				if s > x.Size {
					want = x.B
				}
			}
			if got := fastest(s); got != want {
				t.Errorf("%s: at %g Fastest %s, the changes say %s", name, s, got.Name(), want.Name())
				return
			}
		}
	}
	for _, p := range []int{2, 3, 8, 16, 64} {
		algs := Algorithms(AllReduce)
		l := Flat{P: p, Link: h20Intra}
		check("allreduce", WinnerChanges(algs, l), func(s float64) Algorithm { a, _ := Fastest(algs, l, s); return a })
	}
	// article: one-shot wins below ~130 KB at P = 8, then two-shot to the end.
	if xs := WinnerChanges(Algorithms(AllReduce), Flat{P: 8, Link: h20Intra}); len(xs) != 1 || xs[0].A != Algorithm(OneShot{}) || xs[0].B != Algorithm(TwoShot{}) {
		t.Errorf("P = 8 winner changes %v, want one-shot -> two-shot only", xs)
	}
	// Across nodes, with two identical curves (ring or HD between two nodes):
	// only the first listed can win.
	c := h20Cluster(2)
	algs := []Algorithm{Ring{}, HalvingDoubling{}, TwoShot{}, HierarchicalAllReduce{PerNode: 8}, HierarchicalAllReduce{PerNode: 8, Inter: HalvingDoubling{}}}
	check("2x8", WinnerChanges(algs, c), func(s float64) Algorithm { a, _ := Fastest(algs, c, s); return a })
}

// One selection serves every Timer: on 910B's HCCS full mesh (Fabric) ring
// drives 1 of 7 links, so at large sizes two-shot, which sends to all 7
// peers at once, is ~7x faster (the article), while on the article's
// NVSwitch node (Flat on h20Intra) both run at the egress and two-shot wins
// by its fewer steps only.
func TestFastestOnFabric(t *testing.T) {
	f := ascend910B
	f.LinkBW, f.Alpha = 56e9, 2e-6
	algs := []Algorithm{Ring{}, TwoShot{}}
	a, tm := Fastest(algs, f, 1<<30)
	if a != Algorithm(TwoShot{}) || tm != f.Time(TwoShot{}, 1<<30) {
		t.Errorf("Fastest on the full mesh at 1 GiB: %v %g s, want two-shot %g s", a, tm, f.Time(TwoShot{}, 1<<30))
	}
	if r := f.Time(Ring{}, 1<<30) / tm; !scalar.EqualWithinAbs(r, 7, 0.01) {
		t.Errorf("ring / two-shot on the full mesh at 1 GiB = %.3f, want ~7", r)
	}
	// The crossover on the fabric is where the two times are equal.
	for _, x := range Crossovers(algs, f) {
		if ta, tb := f.Time(x.A, x.Size), f.Time(x.B, x.Size); !scalar.EqualWithinRel(ta, tb, 1e-9) {
			t.Errorf("fabric %s/%s at %g: %g vs %g", x.A.Name(), x.B.Name(), x.Size, ta, tb)
		}
	}
	if f.Ranks() != 8 {
		t.Errorf("Ranks %d, want 8", f.Ranks())
	}
}

// Crossings finds where two times each on its own link cross: one-shot on
// h20Intra against two-shot on a link of half the alpha, where one-shot
// costs α + 7·S/BW and two-shot 2·α/2 + 7/4·S/BW, equal only at S = 0, so
// they never cross at a positive size; with two-shot's alpha doubled they
// cross at S = 3α·BW/(7 - 7/4) (each formula from the cost table).
func TestCrossings(t *testing.T) {
	one := func(s float64) float64 { return Time(OneShot{}, 8, s, h20Intra) }
	half := h20Intra
	half.Alpha /= 2
	if xs := Crossings(one, func(s float64) float64 { return Time(TwoShot{}, 8, s, half) }); len(xs) != 0 {
		t.Errorf("crossings %v, want none", xs)
	}
	twice := h20Intra
	twice.Alpha *= 2
	want := 3 * h20Intra.Alpha * h20Intra.BW / (7 - 7.0/4)
	if xs := Crossings(one, func(s float64) float64 { return Time(TwoShot{}, 8, s, twice) }); len(xs) != 1 || !scalar.EqualWithinRel(xs[0], want, 1e-9) {
		t.Errorf("crossings %v, want [%g]", xs, want)
	}
}

// SampledCrossings interpolates each sign change in ln size: d from -0.5
// at 2 B to 0.5 at 4 B is zero halfway in ln size, at 2^1.5 B. Samples
// within the tolerance take no side: -1 at 1 B, noise, then 1 at 8 B is one
// crossing halfway between 1 and 8 in ln size, at √8 B, and three without
// the tolerance (each at the fraction d[i]/(d[i]-d[j]) of its octave);
// -1, 0, -1 only touches; a NaN gives none.
func TestSampledCrossings(t *testing.T) {
	sizes := []float64{1, 2, 4, 8}
	for _, c := range []struct {
		d    []float64
		tol  float64
		want []float64
	}{
		{[]float64{-1, -0.5, 0.5, 1}, 0, []float64{math.Pow(2, 1.5)}},
		{[]float64{-1, 0.01, -0.01, 1}, 0.05, []float64{math.Sqrt(8)}},
		{[]float64{-1, 0.01, -0.01, 1}, 0, []float64{math.Pow(2, 1/1.01), 2 * math.Pow(2, 0.5), 4 * math.Pow(2, 0.01/1.01)}},
		{[]float64{-1, 0, -1, -1}, 0, nil},
		{[]float64{-1, math.NaN(), 1, 1}, 0, nil},
	} {
		got := SampledCrossings(sizes, c.d, c.tol)
		if len(got) != len(c.want) {
			t.Errorf("SampledCrossings(%v, tol %g) = %v, want %v", c.d, c.tol, got, c.want)
			continue
		}
		for i := range got {
			if !scalar.EqualWithinRel(got[i], c.want[i], 1e-12) {
				t.Errorf("SampledCrossings(%v, tol %g) = %v, want %v", c.d, c.tol, got, c.want)
			}
		}
	}
}

// LogSizes keeps powers of two exact and ends at hi.
func TestLogSizes(t *testing.T) {
	s := LogSizes(1<<10, 1<<30, 61) // 3 per doubling
	for i := 0; i < len(s); i += 3 {
		if want := math.Ldexp(1, 10+i/3); s[i] != want {
			t.Errorf("LogSizes[%d] = %v, want %v", i, s[i], want)
		}
	}
	if s := LogSizes(0.5e-6, 40e-6, 37); s[0] != 0.5e-6 || s[36] != 40e-6 || !scalar.EqualWithinRel(s[18], math.Sqrt(0.5e-6*40e-6), 1e-12) {
		t.Errorf("LogSizes(0.5e-6, 40e-6, 37) = %v ... %v, middle %v", s[0], s[36], s[18])
	}
	if len(LogSizes(1, 2, 0)) != 0 || LogSizes(3, 5, 1)[0] != 3 {
		t.Error("LogSizes of 0 or 1 points")
	}
}

// TestLogSizesBounded: LogSizes gives at most maxLogSizes points and nil
// for more. It made n points up front, so LogSizes(1, 1e9, 1<<40) ended
// the process with a fatal out-of-memory that recover cannot catch (a red
// team's report). The bound is checked one past it first, so that without
// it the test fails before it asks for 2^40 points.
func TestLogSizesBounded(t *testing.T) {
	if s := LogSizes(1, 1e9, maxLogSizes+1); s != nil {
		t.Fatalf("LogSizes(1, 1e9, %d) has %d points, want nil above %d", maxLogSizes+1, len(s), maxLogSizes)
	}
	if s := LogSizes(1, 1e9, 1<<40); s != nil {
		t.Errorf("LogSizes(1, 1e9, 1<<40) has %d points, want nil", len(s))
	}
	if s := LogSizes(1, 1e9, maxLogSizes); len(s) != maxLogSizes || s[0] != 1 || s[maxLogSizes-1] != 1e9 {
		t.Errorf("LogSizes(1, 1e9, %d): %d points, want them from 1 to 1e9", maxLogSizes, len(s))
	}
}
