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
	algs := Algorithms(AllReduce)
	b.ReportAllocs()
	for b.Loop() {
		_, sinkT = Fastest(algs, Flat{P: 64, Link: H20Intra}, 1<<20)
	}
}

// A 64 x 1024 regime grid of AllReduce (target: <= 20 ms).
func BenchmarkRegimeGrid(b *testing.B) {
	ps := make([]int, 64)
	for i := range ps {
		ps[i] = i + 1
	}
	sizes := LogSizes(1, 1<<32, 1024)
	rows := Flats(ps, H20Intra)
	b.ReportAllocs()
	for b.Loop() {
		m := NewRegimeGrid(Algorithms(AllReduce), rows, sizes)
		sinkT = m.Time[0]
	}
}

func BenchmarkCrossovers(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sinkT = float64(len(Crossovers(Algorithms(AllReduce), Flat{P: 8, Link: H20Intra})))
	}
}

// One evaluation of ring AllReduce through a Timer on one link, as Fastest,
// Crossovers and NewRegimeGrid make it (target: <= 20 ns, 0 allocs, as
// BenchmarkTime).
func BenchmarkTimer(b *testing.B) {
	f := Flat{P: 64, Link: H20Intra}
	b.ReportAllocs()
	for b.Loop() {
		sinkT = timeOn(f, Ring{}, 1<<20)
	}
}

//go:noinline
func timeOn[T Timer](t T, a Algorithm, size float64) float64 { return t.Time(a, size) }
