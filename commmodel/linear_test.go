package commmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// lineTol is how closely a Line and a sum of StageLines agree with Time and
// Cluster.Time, relative: 4 ulps of 2^-52. Time scales the bytes by S and
// then divides by BW, a Line divides the bytes of one byte by BW and then
// scales by S; each way rounds three to five times on the way to the sum
// (the largest difference over the grids below is 2.3 ulps).
const lineTol = 0x1p-50

// Links with every term of the model: the article's two, one with gamma,
// one with a per-message overhead, one with all four and awkward values.
var lineLinks = []Link{
	h20Intra, h20Inter,
	{Alpha: 5e-6, BW: 1e11, Gamma: 1e-12},
	{Alpha: 1e-6, BW: 5e10, Overhead: 2e-7},
	{Alpha: 3e-7, BW: 7.3e9, Gamma: 3.3e-11, Overhead: 1e-8},
}

// lineSizes are 81 sizes from 1 B to 1 TiB, odd ones, and the sizes at
// which Time is 0 or NaN.
func lineSizes() []float64 {
	return append(LogSizes(1, 1<<40, 81), 0, 3, 1e9+7, 12345.678, -1, math.NaN())
}

// lineRanks returns the rank counts 1 to 64, and larger ones on either side
// of powers of two.
func lineRanks() []int {
	var ps []int
	for p := 1; p <= 64; p++ {
		ps = append(ps, p)
	}
	return append(ps, 96, 100, 127, 128, 129, 255, 256, 1000, 1024)
}

// sameTime reports whether got agrees with want to within lineTol, NaN with
// NaN.
func sameTime(got, want float64) bool {
	if math.IsNaN(want) {
		return math.IsNaN(got)
	}
	return scalar.EqualWithinRel(got, want, lineTol)
}

// A Line evaluated at any size is Time at that size, for every algorithm,
// rank count and link.
func TestLineAgreesWithTime(t *testing.T) {
	sizes := lineSizes()
	for _, a := range everyAlgorithm() {
		for _, p := range lineRanks() {
			for _, l := range lineLinks {
				f := Flat{P: p, Link: l}
				ln, ok := f.Line(a)
				if !ok {
					t.Fatalf("%s %s: no Line", a.Collective(), a.Name())
				}
				for _, s := range sizes {
					if got, want := ln.At(s), Time(a, p, s, l); !sameTime(got, want) {
						t.Fatalf("%s %s P=%d %+v S=%g: Line %g, Time %g", a.Collective(), a.Name(), p, l, s, got, want)
					}
				}
			}
		}
	}
	// Where Time is NaN at every size, so is the Line.
	for _, tc := range []struct {
		a Algorithm
		p int
		l Link
	}{
		{Ring{}, 8, Link{Alpha: 1e-6}},                                    // zero BW
		{HierarchicalAllReduce{PerNode: 8}, 12, h20Intra},                 // 8 does not divide 12
		{HierarchicalAllReduce{PerNode: 2, Inter: Direct{}}, 4, h20Intra}, // not an AllReduce inside
	} {
		ln, ok := Flat{P: tc.p, Link: tc.l}.Line(tc.a)
		if !ok || !math.IsNaN(ln.At(0)) || !math.IsNaN(ln.At(1<<20)) {
			t.Errorf("%T P=%d: Line %+v, %v; want NaN at every size", tc.a, tc.p, ln, ok)
		}
	}
}

// The article's numbers as a Line: ring AllReduce at P = 8 on h20Intra takes
// 14 steps of 2 us, T0 = 28 us, and sends 1.75 B per byte at 350 GB/s, T1 =
// 5 ps per byte (1 MB in 5 us).
func TestLineArticle(t *testing.T) {
	ln, ok := Flat{P: 8, Link: h20Intra}.Line(Ring{})
	if !ok || !scalar.EqualWithinRel(ln.T0, 28e-6, 1e-15) || !scalar.EqualWithinRel(ln.T1, 1.75/350e9, 1e-15) {
		t.Errorf("ring P=8 Line %+v (%v), want T0 = 28 us, T1 = 1.75/350e9 s/B", ln, ok)
	}
	if got := ln.At(1e6); !scalar.EqualWithinRel(got, 33e-6, 1e-12) { // TestTime's 33 us
		t.Errorf("ring P=8 at 1 MB = %g s, want 33 us", got)
	}
}

// stepped is an Algorithm of no package's: its time is not linear in S
// (one step below 64 KiB, two above, as a protocol switch would make it).
type stepped struct{}

func (stepped) Name() string           { return "stepped" }
func (stepped) Collective() Collective { return AllReduce }
func (stepped) Cost(p int, size float64) Cost {
	mustRanks(p)
	steps := 1
	if size > 64<<10 {
		steps = 2
	}
	return Cost{Steps: steps, Bytes: checkSize(size), Peers: p - 1, Fanout: p - 1, Messages: steps}
}

// An Algorithm whose cost is not known to be linear has no Line; TimeCurve
// times it size by size, so the curve is still its time.
func TestLineUnknown(t *testing.T) {
	f := Flat{P: 8, Link: h20Intra}
	for _, a := range []Algorithm{stepped{}, HierarchicalAllReduce{PerNode: 4, Inter: stepped{}}} {
		if _, ok := f.Line(a); ok {
			t.Errorf("%T: Line reported linear", a)
		}
		if _, ok := h20Cluster(2).Lines(a); ok {
			t.Errorf("%T: Cluster.Lines reported linear", a)
		}
	}
	sizes := []float64{1 << 10, 64 << 10, 65<<10 + 1, 1 << 30}
	got := TimeCurve(make([]float64, len(sizes)), stepped{}, f, sizes)
	for i, s := range sizes {
		if want := Time(stepped{}, 8, s, h20Intra); got[i] != want {
			t.Errorf("stepped at %g: curve %g, Time %g", s, got[i], want)
		}
	}
}

// clusterShapes are nodes x GPUs: one node, powers of two, odd shapes, one
// GPU per node.
var clusterShapes = [][2]int{{1, 8}, {2, 8}, {4, 4}, {8, 2}, {3, 4}, {2, 1}, {16, 8}, {5, 3}, {7, 1}}

// onShape returns a with its node size set to perNode where it has one.
func onShape(a Algorithm, perNode int) Algorithm {
	switch h := a.(type) {
	case HierarchicalAllReduce:
		return HierarchicalAllReduce{PerNode: perNode, Inter: h.Inter}
	case HierarchicalAllToAll:
		return HierarchicalAllToAll{PerNode: perNode}
	}
	return a
}

// The stages' Lines summed at any size are Cluster.Time at that size.
func TestClusterLinesAgreeWithTime(t *testing.T) {
	sizes := lineSizes()
	for _, a := range everyAlgorithm() {
		for _, sh := range clusterShapes {
			a := onShape(a, sh[1])
			for _, intra := range lineLinks {
				for _, inter := range lineLinks[:3] {
					c := Cluster{Nodes: sh[0], PerNode: sh[1], Intra: intra, Inter: inter}
					ls, ok := c.Lines(a)
					if !ok || len(ls) != len(c.Stages(a, 1)) {
						t.Fatalf("%v %s %s: %d stage Lines (%v), %d stages", sh, a.Collective(), a.Name(), len(ls), ok, len(c.Stages(a, 1)))
					}
					for _, s := range sizes {
						if got, want := stagesAt(ls, s), c.Time(a, s); !sameTime(got, want) {
							t.Fatalf("%v %s %s S=%g: Lines %g, Time %g", sh, a.Collective(), a.Name(), s, got, want)
						}
					}
				}
			}
		}
	}
}

// A stage bends where its slower level changes. Ring AllReduce over 2 x 8
// ranks runs every step on both links at once (one stage, the same Cost on
// each); with a network of lower alpha but lower bandwidth, NVLink is the
// slower below S* and the network above, where the two Lines cross:
//
//	30·1 us + 30/16·S/1e10 B/s = 30·10 us + 30/16·S/1e11 B/s
//	S* = 30·9 us / (30/16·(1/1e10 - 1/1e11)) = 1.6 MB
func TestClusterBends(t *testing.T) {
	c := Cluster{Nodes: 2, PerNode: 8, Intra: Link{Alpha: 10e-6, BW: 1e11}, Inter: Link{Alpha: 1e-6, BW: 1e10}}
	ls, _ := c.Lines(Ring{})
	cv := curve{stages: ls}
	want := 30 * 9e-6 / (30.0 / 16 * (1/1e10 - 1/1e11))
	if b := cv.bends(); len(b) != 1 || !scalar.EqualWithinRel(b[0], want, 1e-12) {
		t.Fatalf("bends %v, want [%g]", b, want)
	}
	below, above := cv.lineOn(0, want), cv.lineOn(want, maxCrossoverSize)
	if below != ls[0].Intra || above != ls[0].Inter {
		t.Errorf("pieces %+v, %+v; want the NVLink Line below and the network's above", below, above)
	}
}

// On a Cluster the crossings are solved piece by piece in closed form; the
// root finder on Cluster.Time (scan and bisect) finds the same sizes.
func TestClusterCrossoversClosedForm(t *testing.T) {
	links := []Link{h20Intra, h20Inter, {Alpha: 10e-6, BW: 1e11}, {Alpha: 1e-6, BW: 1e10, Gamma: 1e-12}}
	n := 0
	for _, sh := range clusterShapes {
		for _, intra := range links {
			for _, inter := range links {
				c := Cluster{Nodes: sh[0], PerNode: sh[1], Intra: intra, Inter: inter}
				for _, algs := range [][]Algorithm{
					append(slices.Clip(Algorithms(AllReduce)), HierarchicalAllReduce{PerNode: sh[1]}, HierarchicalAllReduce{PerNode: sh[1], Inter: HalvingDoubling{}}),
					append(slices.Clip(Algorithms(AllToAll)), HierarchicalAllToAll{PerNode: sh[1]}),
				} {
					got := Crossovers(algs, c)
					var want []pairCrossing
					for i := range algs {
						for j := i + 1; j < len(algs); j++ {
							f := func(s float64) float64 { return c.Time(algs[i], s) }
							g := func(s float64) float64 { return c.Time(algs[j], s) }
							if sameCurve(f, g) {
								continue // rounding makes the root finder see crossings
							}
							for _, x := range scanCrossings(f, g, minCrossoverSize, maxCrossoverSize) {
								want = append(want, pairCrossing{i, j, x.size})
							}
						}
					}
					if len(got) != len(want) {
						t.Fatalf("%v %+v %+v: %d crossovers, the root finder %d", sh, intra, inter, len(got), len(want))
					}
					for _, x := range got {
						ta, tb := c.Time(x.A, x.Size), c.Time(x.B, x.Size)
						if !scalar.EqualWithinRel(ta, tb, 1e-12) {
							t.Errorf("%v: %s/%s at %g: %g vs %g s", sh, x.A.Name(), x.B.Name(), x.Size, ta, tb)
						}
						if c.Time(x.A, x.Size*0.999) >= c.Time(x.B, x.Size*0.999) || c.Time(x.A, x.Size*1.001) <= c.Time(x.B, x.Size*1.001) {
							t.Errorf("%v: %s should win below %g and %s above", sh, x.A.Name(), x.Size, x.B.Name())
						}
						n++
					}
				}
			}
		}
	}
	if n == 0 {
		t.Error("no crossovers at all: the test checks nothing")
	}
}

// sameCurve reports whether f and g are one curve computed two ways (such as
// hierarchical AllReduce and ring on one node): within 1e-12 at sizes from
// 1 B to 1 PiB.
func sameCurve(f, g func(float64) float64) bool {
	for _, s := range LogSizes(1, maxCrossoverSize, 51) {
		if !scalar.EqualWithinRel(f(s), g(s), 1e-12) {
			return false
		}
	}
	return true
}

// TimeCurve is the Timer's time at every size, on each kind of Timer.
func TestTimeCurve(t *testing.T) {
	sizes := lineSizes()
	dst := make([]float64, len(sizes))
	check := func(name string, got []float64, time func(float64) float64) {
		t.Helper()
		for i, s := range sizes {
			if want := time(s); !sameTime(got[i], want) {
				t.Errorf("%s at %g: curve %g, Time %g", name, s, got[i], want)
			}
		}
	}
	f := Flat{P: 24, Link: lineLinks[4]}
	c := h20Cluster(3)
	for _, a := range everyAlgorithm() {
		check("flat "+a.Name(), TimeCurve(dst, a, f, sizes), func(s float64) float64 { return f.Time(a, s) })
		a := onShape(a, 8)
		check("cluster "+a.Name(), TimeCurve(dst, a, c, sizes), func(s float64) float64 { return c.Time(a, s) })
	}
	check("fabric", TimeCurve(dst, Ring{}, ascend910B, sizes), func(s float64) float64 { return ascend910B.Time(Ring{}, s) })
	defer func() {
		if recover() == nil {
			t.Error("TimeCurve with a short dst did not panic")
		}
	}()
	TimeCurve(dst[1:], Ring{}, f, sizes)
}

// Cluster.Time puts nothing on the heap for the article's algorithms (NCCL's
// build their Stages: a pipeline's stages come from a simulation of its
// steps).
func TestClusterTimeAllocs(t *testing.T) {
	c := h20Cluster(4)
	for _, a := range articleAlgorithms() {
		a := onShape(a, 8)
		if n := testing.AllocsPerRun(10, func() { sinkT = c.Time(a, 1<<20) }); n != 0 {
			t.Errorf("%s %s: %g allocations per Cluster.Time", a.Collective(), a.Name(), n)
		}
	}
}

// Bruck's peers are the distinct offsets ±2^k (mod P), k < ⌈log2 P⌉.
func TestBruckPeers(t *testing.T) {
	for p := 1; p <= 4100; p++ {
		steps := 0
		for 1<<steps < p {
			steps++
		}
		seen := map[int]bool{}
		for k := range steps {
			for _, off := range []int{(1 << k) % p, (p - (1<<k)%p) % p} {
				if off != 0 {
					seen[off] = true
				}
			}
		}
		if got := (Bruck{}).Cost(p, 1).Peers; got != len(seen) {
			t.Fatalf("Bruck at P = %d: %d peers, the offsets %d", p, got, len(seen))
		}
	}
}

// The chain broadcast's network steps, counted step by step: step t crosses
// the network if some boundary k (rank k·p-1 to k·p) forwards a chunk c <
// C in it, t = k·p-1+c.
func TestPipelinedNetworkSteps(t *testing.T) {
	for nodes := 2; nodes <= 9; nodes++ {
		for perNode := 1; perNode <= 9; perNode++ {
			for chunks := 1; chunks <= 20; chunks++ {
				p := nodes * perNode
				want := 0
				for step := range p - 2 + chunks {
					for k := 1; k < nodes; k++ {
						if c := step - (k*perNode - 1); c >= 0 && c < chunks {
							want++
							break
						}
					}
				}
				ss := Cluster{Nodes: nodes, PerNode: perNode}.Stages(PipelinedBroadcast{Chunks: chunks}, 1)
				if got := ss[1].Inter.Steps; got != want {
					t.Errorf("%d x %d, %d chunks: %d network steps, counted %d", nodes, perNode, chunks, got, want)
				}
			}
		}
	}
}

// The sweep of a regime map's row gives fastestOfLines' answers to the bit:
// on the article's AllReduce algorithms at every P up to 1024, and on random
// Lines with ties, near ties (1e-12 apart), zero Lines and repeated sizes.
func TestLineSweep(t *testing.T) {
	sizes := append(LogSizes(1, 1<<40, 1500), 1<<40, 1<<40)
	slices.Sort(sizes)
	check := func(name string, lines []Line) {
		t.Helper()
		which := make([]int, len(lines))
		for k := range which {
			which[k] = k
		}
		n := len(sizes)
		w1, b1 := make([]int, n), make([]float64, n)
		w2, b2 := make([]int, n), make([]float64, n)
		fastestOfLines(w1, b1, lines, which, sizes)
		var sw lineSweep
		sw.fill(w2, b2, lines, which, sizes)
		for j := range sizes {
			if w1[j] != w2[j] || math.Float64bits(b1[j]) != math.Float64bits(b2[j]) {
				t.Fatalf("%s at %g: sweep %d %g, size by size %d %g", name, sizes[j], w2[j], b2[j], w1[j], b1[j])
			}
		}
	}
	for _, p := range lineRanks() {
		var lines []Line
		for _, a := range Algorithms(AllReduce) {
			l, _ := Flat{P: p, Link: h20Intra}.Line(a)
			lines = append(lines, l)
		}
		check(fmt.Sprintf("allreduce P=%d", p), lines)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		lines := make([]Line, 1+rng.IntN(6))
		for k := range lines {
			switch rng.IntN(4) {
			case 0: // a copy of an earlier line
				lines[k] = lines[rng.IntN(k+1)]
			case 1: // a near tie with an earlier line
				l := lines[rng.IntN(k+1)]
				lines[k] = Line{T0: l.T0 * (1 + 1e-12), T1: l.T1 * (1 - 1e-12)}
			case 2: // zero
			default:
				lines[k] = Line{T0: math.Exp(rng.NormFloat64()*5 - 12), T1: math.Exp(rng.NormFloat64()*5 - 25)}
			}
		}
		check(fmt.Sprintf("trial %d %v", trial, lines), lines)
	}
}

// TestLogSizesBadRange holds LogSizes to nil where no log spacing exists:
// LogSizes(0, 2, 3) was [NaN NaN 2] and a negative n panicked in make.
func TestLogSizesBadRange(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		n      int
	}{{0, 2, 3}, {-1, 2, 3}, {math.NaN(), 2, 3}, {1, math.Inf(1), 3}, {1, 2, 0}, {1, 2, -1}} {
		if s := LogSizes(c.lo, c.hi, c.n); s != nil {
			t.Errorf("LogSizes(%g, %g, %d) = %v, want nil", c.lo, c.hi, c.n, s)
		}
	}
	if s := LogSizes(4, 4, 1); len(s) != 1 || s[0] != 4 {
		t.Errorf("LogSizes(4, 4, 1) = %v, want [4]", s)
	}
}
