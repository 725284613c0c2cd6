package schedule

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
)

// benchRun measures Ranks.Run, the simulator's execution of a schedule on
// filled buffers; building the schedule and filling the buffers come before
// the loop. It reports the buffers' and the schedule's memory next to the
// data itself (P·S bytes of payload).
func benchRun(b *testing.B, a commmodel.Algorithm, p int, size int64, elemBytes int) {
	s, err := NewElem(a, p, size, elemBytes)
	if err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, err := NewRanks(s)
	if err != nil {
		b.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	m.Fill(1)
	transfers := 0
	for _, st := range s.Steps {
		transfers += len(st)
	}
	data := float64(p) * float64(size)
	b.ReportAllocs()
	for b.Loop() {
		m.Run()
	}
	// After the loop: b.Loop's first call deletes metrics reported before it.
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/data, "buffers/data")
	b.ReportMetric(float64(transfers*transferBytes)/data, "schedule/data")
}

// BenchmarkRingAllReduce1024 is issue 3's target: ring AllReduce on P = 1024
// ranks of 4 MiB each, under 2 s on a 2-core machine, memory within 3x the
// data (uint16 values: half the data for 4-byte elements).
func BenchmarkRingAllReduce1024(b *testing.B) {
	for _, eb := range []int{8, 4} {
		b.Run(fmt.Sprintf("elem=%dB", eb), func(b *testing.B) { benchRun(b, commmodel.Ring{}, 1024, 4<<20, eb) })
	}
}

// BenchmarkDirectAllToAll256: direct AllToAll on P = 256 ranks, S = 4 MiB
// each (input and output buffers of uint16 values: the data's size for
// 4-byte elements, half of it for 8-byte ones).
func BenchmarkDirectAllToAll256(b *testing.B) {
	for _, eb := range []int{8, 4} {
		b.Run(fmt.Sprintf("elem=%dB", eb), func(b *testing.B) { benchRun(b, commmodel.Direct{}, 256, 4<<20, eb) })
	}
}

// BenchmarkSimulateRing1024 is the whole of Simulate (schedule checks,
// fill, run, reference check, counts) for the same ring, which it runs by
// tiles (BenchmarkRing1024Tiles gives the parts).
func BenchmarkSimulateRing1024(b *testing.B) {
	for _, eb := range []int{8, 4} {
		b.Run(fmt.Sprintf("elem=%dB", eb), func(b *testing.B) {
			s, err := NewElem(commmodel.Ring{}, 1024, 4<<20, eb)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if r, err := Simulate(s, 1); err != nil || !r.Correct {
					b.Fatal(err, r.Mismatch)
				}
			}
		})
	}
}

// BenchmarkRing1024Phases times the simulation in whole buffers, one part
// at a time, on the same ring with 4-byte elements (the default of commlab
// simulate): NewRanks (schedule checks and buffers), Fill, Run, Check and
// Count, and two floors: one pass writing and one reading every element.
// Simulate runs this ring by tiles; whole buffers are what NewRanks gives
// its callers, and what Simulate holds for schedules that cannot be tiled.
func BenchmarkRing1024Phases(b *testing.B) {
	s, err := New(commmodel.Ring{}, 1024, 4<<20)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("phase=NewRanks", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := NewRanks(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	m, err := NewRanks(s)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("phase=Fill", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Fill(1)
		}
	})
	b.Run("phase=Run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Run()
		}
	})
	m.Fill(1)
	m.Run()
	b.Run("phase=Check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if mis := m.Check(1); mis != "" {
				b.Fatal(mis)
			}
		}
	})
	b.Run("phase=Count", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Count(s)
		}
	})
	// The floor of a pass over the buffers at memory speed, over the same
	// workers: writing every element (what Fill must do at the least) and
	// reading every element once (what Check must do at the least).
	d := m.buf.(*rankData[uint16])
	b.Run("floor=write", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.byRank(func(lo, hi int) {
				for r := lo; r < hi; r++ {
					clear(d.bufs[r])
				}
			})
		}
	})
	b.Run("floor=read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.byRank(func(lo, hi int) {
				for r := lo; r < hi; r++ {
					if mismatch(d.bufs[r], d.bufs[(r+1)%len(d.bufs)]) >= 0 {
						b.Fatal("cleared buffers differ")
					}
				}
			})
		}
	})
}

// BenchmarkRing1024Tiles times what Simulate does with the same ring, by
// tiles (tiles.go): "phase=Validate" checks the schedule (hazards) and
// indexes its steps for the tiles (newTiling); "phase=Tiles" fills, runs
// and checks every tile; "phase=Count" counts the schedule; "phase=Run" is
// the steps alone, every tile through every step with nothing filled or
// checked, the run that the others are held against; "phase=Simulate" is
// the whole of Simulate, all of the above but the run alone.
func BenchmarkRing1024Tiles(b *testing.B) {
	s, err := New(commmodel.Ring{}, 1024, 4<<20)
	if err != nil {
		b.Fatal(err)
	}
	if s.P*s.Len < tiledFrom || !s.tileable() {
		b.Fatal("the ring is not simulated by tiles")
	}
	index := func(b *testing.B) *tiling {
		staged, err := s.hazards()
		if err != nil {
			b.Fatal(err)
		}
		return newTiling(s, staged, tileLen(s.P))
	}
	b.Run("phase=Validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			index(b)
		}
	})
	tl := index(b)
	b.Run("phase=Tiles", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			eachTile(tl, func(w *tileWork[uint16], lo, hi int) {
				if bad := w.run(tl, 1, lo, hi); bad.r >= 0 {
					b.Fatal(mismatchMessage(s, 1, bad))
				}
			})
		}
	})
	b.Run("phase=Count", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Count(s)
		}
	})
	b.Run("phase=Run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			eachTile(tl, func(w *tileWork[uint16], lo, hi int) { w.steps(tl, lo, hi) })
		}
	})
	b.Run("phase=Simulate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r, err := Simulate(s, 1); err != nil || !r.Correct {
				b.Fatal(err, r.Mismatch)
			}
		}
	})
}

// BenchmarkReplayRing1024 replays the 1024-rank ring of 4 MiB (the schedule
// of commlab simulate -p 1024 -size 4MiB) on one link for every pair and on
// nodes of 8 (TwoLevel): what the command adds to Simulate.
func BenchmarkReplayRing1024(b *testing.B) {
	s, err := New(commmodel.Ring{}, 1024, 4<<20)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		link func(src, dst int) commmodel.Link
	}{
		{"uniform", Uniform(presets.H20Intra)},
		{"two-level", TwoLevel(8, presets.H20Intra, presets.H20Inter)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if t := Replay(s, tc.link); !(t > 0) {
					b.Fatal(t)
				}
			}
		})
	}
}
