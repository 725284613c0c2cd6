package commmodel

import (
	"fmt"
	"slices"
	"testing"
)

var sinkT float64

// benchName names a in the benchmarks: its collective and name, and the
// parameters that tell its forms apart.
func benchName(a Algorithm) string {
	name := a.Collective().String() + "/" + a.Name()
	shape := func(perNode, chunks int) string {
		return fmt.Sprintf("%s/pernode=%d/chunks=%d", name, perNode, chunks)
	}
	switch a := a.(type) {
	case Tree:
		return shape(a.PerNode, a.Chunks)
	case NVLSTree:
		return shape(a.PerNode, a.Chunks)
	case CollNetChain:
		return shape(a.PerNode, a.Chunks)
	case NVLS:
		return fmt.Sprintf("%s/pernode=%d", name, a.PerNode)
	case CollNetDirect:
		return fmt.Sprintf("%s/pernode=%d", name, a.PerNode)
	case HierarchicalAllReduce:
		if a.Inter != nil {
			return name + "/inter=" + a.Inter.Name()
		}
	}
	return name
}

// One evaluation of each algorithm's time on one link, NCCL's included, one
// b.Run per algorithm and form (target: <= 20 ns, 0 allocs). The chunked
// trees (Tree, NVLSTree with Chunks >= 1) read their shape's memoized
// profile: amortized, since the first evaluation of a shape sweeps it
// (BenchmarkProfileSweep).
func BenchmarkTime(b *testing.B) {
	for _, a := range everyAlgorithm() {
		b.Run(benchName(a), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkT = Time(a, 64, 1<<20, h20Intra)
			}
		})
	}
}

// One evaluation of each algorithm's time on 2 x 8 H20 (the article's two
// nodes), stages and all (target: <= 20 ns, 0 allocs, as BenchmarkTime; the
// chunked pipelines amortized, as there).
func BenchmarkClusterTime(b *testing.B) {
	c := h20Cluster(2)
	for _, a := range everyAlgorithm() {
		a := onShape(a, c.PerNode)
		b.Run(benchName(a), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkT = c.Time(a, 1<<20)
			}
		})
	}
}

// Selection over all AllReduce algorithms (target: <= 200 ns).
func BenchmarkFastest(b *testing.B) {
	algs := Algorithms(AllReduce)
	b.ReportAllocs()
	for b.Loop() {
		_, sinkT = Fastest(algs, Flat{P: 64, Link: h20Intra}, 1<<20)
	}
}

// The regime map of the NumPy peer (scripts/bench-regime.sh): the fastest of
// ring, halving-doubling, two-shot and one-shot (Algorithms(AllReduce), in
// the peer's order) at P = 1..64 and 1024 sizes spaced evenly in log from
// 1 B to 4 GiB (the peer's logspace(0, 32, 1024, base=2)), on α = 2 us and
// BW = 350 GB/s (h20Intra, the peer's alpha and bw). The winners' sum is
// reported as the peer prints it, so that the script can check that the two
// computed the same map. "new" allocates the map each time (NewRegimeGrid,
// 1 MiB, and the garbage collector's work), "reuse" recomputes it in place
// (RegimeGridInto). Target: at least 4x faster than the peer.
func BenchmarkRegimeMap(b *testing.B) {
	ps := make([]int, 64)
	for i := range ps {
		ps[i] = i + 1
	}
	sizes := LogSizes(1, 1<<32, 1024)
	rows := Flats(ps, h20Intra)
	report := func(b *testing.B, m *RegimeGrid) {
		sum := 0
		for _, w := range m.Winner {
			sum += w
		}
		b.ReportMetric(float64(sum), "winners-sum")
	}
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		var m *RegimeGrid
		for b.Loop() {
			m = NewRegimeGrid(Algorithms(AllReduce), rows, sizes)
		}
		report(b, m)
	})
	b.Run("reuse", func(b *testing.B) {
		b.ReportAllocs()
		m := NewRegimeGrid(Algorithms(AllReduce), rows, sizes)
		for b.Loop() {
			m = RegimeGridInto(m, Algorithms(AllReduce), rows, sizes)
		}
		report(b, m)
	})
}

// asTimer hides a Timer's type, so that curves time it size by size: the
// way every Timer was timed before Lines.
type asTimer struct{ Timer }

// A 64 x 1024 regime map of AllReduce across nodes: 1..64 nodes of 8 H20
// (8 to 512 GPUs), the four single-level algorithms and hierarchical
// AllReduce with ring and with halving-doubling between nodes, from the
// stages' Lines ("lines") and from Cluster.Time at every cell ("times").
func BenchmarkClusterRegimeMap(b *testing.B) {
	rows := make([]Cluster, 64)
	timers := make([]asTimer, len(rows))
	for i := range rows {
		rows[i] = h20Cluster(i + 1)
		timers[i] = asTimer{rows[i]}
	}
	algs := append(slices.Clip(Algorithms(AllReduce)), HierarchicalAllReduce{PerNode: 8}, HierarchicalAllReduce{PerNode: 8, Inter: HalvingDoubling{}})
	sizes := LogSizes(1, 1<<32, 1024)
	b.Run("lines", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkT = NewRegimeGrid(algs, rows, sizes).Time[0]
		}
	})
	b.Run("times", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkT = NewRegimeGrid(algs, timers, sizes).Time[0]
		}
	})
}

// One algorithm's time at 1024 sizes (TimeCurve): ring on one link, and
// hierarchical AllReduce on 2 x 8 H20, from Lines ("lines") and size by size
// ("times").
func BenchmarkTimeCurve(b *testing.B) {
	sizes := LogSizes(1, 1<<32, 1024)
	dst := make([]float64, len(sizes))
	for _, tc := range []struct {
		name string
		a    Algorithm
		t    Timer
	}{
		{"flat/ring", Ring{}, Flat{P: 64, Link: h20Intra}},
		{"cluster/hierarchical", HierarchicalAllReduce{PerNode: 8}, h20Cluster(2)},
	} {
		b.Run(tc.name+"/lines", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				switch t := tc.t.(type) {
				case Flat:
					TimeCurve(dst, tc.a, t, sizes)
				case Cluster:
					TimeCurve(dst, tc.a, t, sizes)
				}
			}
		})
		b.Run(tc.name+"/times", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				TimeCurve(dst, tc.a, asTimer{tc.t}, sizes)
			}
		})
	}
}

// Every crossover of the four AllReduce algorithms on one node, and of
// those and hierarchical AllReduce on 2 x 8 H20 (closed form from Lines).
func BenchmarkCrossovers(b *testing.B) {
	b.Run("flat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkT = float64(len(Crossovers(Algorithms(AllReduce), Flat{P: 8, Link: h20Intra})))
		}
	})
	algs := append(slices.Clip(Algorithms(AllReduce)), HierarchicalAllReduce{PerNode: 8})
	b.Run("cluster", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkT = float64(len(Crossovers(algs, h20Cluster(2))))
		}
	})
}

// One evaluation of ring AllReduce through a Timer on one link, as Fastest,
// Crossovers and NewRegimeGrid make it (target: <= 20 ns, 0 allocs, as
// BenchmarkTime).
func BenchmarkTimer(b *testing.B) {
	f := Flat{P: 64, Link: h20Intra}
	b.ReportAllocs()
	for b.Loop() {
		sinkT = timeOn(f, Ring{}, 1<<20)
	}
}

// One evaluation of each algorithm's time through a Flat Timer, 64 ranks
// on h20Intra, as BenchmarkTimer's ring (target: <= 20 ns, 0 allocs; the
// chunked trees amortized, as in BenchmarkTime).
func BenchmarkFlat(b *testing.B) {
	f := Flat{P: 64, Link: h20Intra}
	for _, a := range everyAlgorithm() {
		b.Run(benchName(a), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkT = timeOn(f, a, 1<<20)
			}
		})
	}
}

// The first evaluation of a chunked pipeline's shape: the sweep of its
// ranks' windows, what sweepOf does once per shape. The shapes of BenchmarkTime's and BenchmarkClusterTime's
// chunked forms, one b.Run each.
func BenchmarkPipelineSweep(b *testing.B) {
	for _, s := range []pipeShape{
		{treePipe, 64, 1, 3}, {treePipe, 16, 4, 8}, {treePipe, 16, 1, 2}, // Time: Tree 64 x 1, 16 x 4; NVLSTree's trees
		{treePipe, 2, 8, 3}, {treePipe, 2, 8, 8}, {treePipe, 2, 1, 2}, // Cluster.Time on 2 x 8
		{chainPipe, 2, 8, 3}, {chainPipe, 2, 8, 2},
	} {
		b.Run(fmt.Sprintf("%s/%dx%d/chunks=%d", [...]string{"tree", "chain"}[s.kind], s.nodes, s.perNode, s.chunks), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				q := s.sweep()
				chunks, _, _ := q.path()
				sinkT = float64(chunks)
			}
		})
	}
}

//go:noinline
func timeOn[T Timer](t T, a Algorithm, size float64) float64 { return t.Time(a, size) }
