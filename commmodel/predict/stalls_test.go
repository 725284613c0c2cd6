package predict

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// stallsByDefinition is stalls as its doc defines it, each row against
// every other: the reference for the one pass down and up the sizes.
func stallsByDefinition(points []Point) []stall {
	out := make([]stall, len(points))
	inPlace := inPlaceTells(points)
	for i, p := range points {
		var larger, perByte []float64
		for _, q := range points {
			switch {
			case q.Size > p.Size:
				larger = append(larger, q.Time)
			case q.Size < p.Size && q.Size > 0:
				perByte = append(perByte, q.Time*p.Size/q.Size)
			}
		}
		slices.Sort(larger)
		slices.Sort(perByte)
		if len(larger) > 1 && p.Time > stallRatio*larger[1] {
			out[i] |= stallLarger
		}
		if len(perByte) > 1 && p.Time > stallRatio*perByte[1] {
			out[i] |= stallPerByte
		}
		if inPlace && p.InPlace > 0 && p.Time > inPlaceRatio*p.InPlace {
			out[i] |= stallInPlace
		}
	}
	return out
}

// TestStallsByDefinition checks stalls against its definition on every
// table of the repository's logs, stalls and all, and on random sweeps of
// repeated and unordered sizes with rows held up by up to 50 times.
func TestStallsByDefinition(t *testing.T) {
	t.Parallel()
	tables := timedTwice(t)
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		n := 1 + r.IntN(40)
		points := make([]Point, n)
		for i := range points {
			size := math.Ldexp(1, r.IntN(12)) // repeats and a few sizes
			if r.IntN(8) == 0 {
				size = 0
			}
			time := 1e-5 + size*1e-10*(0.5+r.Float64())
			if r.IntN(5) == 0 {
				time *= 1 + 50*r.Float64() // a stall
			}
			points[i] = Point{Size: size, Time: time, InPlace: time * (0.8 + 0.4*r.Float64())}
			if r.IntN(6) == 0 {
				points[i].InPlace = 0
			}
		}
		tables = append(tables, points)
	}
	var stalled int
	for k, points := range tables {
		got, want := stalls(points), stallsByDefinition(points)
		if !slices.Equal(got, want) {
			t.Fatalf("table %d of %d rows: stalls %v, by definition %v", k, len(points), got, want)
		}
		for _, s := range got {
			if s != 0 {
				stalled++
			}
		}
	}
	if stalled < 100 {
		t.Errorf("%d stalled rows in %d tables: the comparison tests too little", stalled, len(tables))
	}
}
