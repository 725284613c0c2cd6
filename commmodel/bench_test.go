package commmodel

import (
	"testing"
)

var sinkT float64

// One evaluation of each algorithm's time (target: <= 20 ns, 0 allocs).
func BenchmarkTime(b *testing.B) {
	for _, a := range everyAlgorithm() {
		b.Run(a.Collective().String()+"/"+a.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkT = Time(a, 64, 1<<20, H20Intra)
			}
		})
	}
}

// Selection over all AllReduce algorithms (target: <= 200 ns).
func BenchmarkFastest(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, sinkT = Fastest(AllReduce, 64, 1<<20, H20Intra)
	}
}

// A 64 x 1024 regime map of AllReduce (target: <= 20 ms).
func BenchmarkRegimeMap(b *testing.B) {
	ps := make([]int, 64)
	for i := range ps {
		ps[i] = i + 1
	}
	sizes := LogSizes(1, 1<<32, 1024)
	b.ReportAllocs()
	for b.Loop() {
		m := NewRegimeMap(AllReduce, ps, sizes, H20Intra)
		sinkT = m.Time[0]
	}
}

func BenchmarkCrossovers(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkT = float64(len(Crossovers(Algorithms(AllReduce), 8, H20Intra)))
	}
}
