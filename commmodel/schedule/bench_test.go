package schedule

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
)

// benchRun measures the steps of a schedule alone, every tile through every
// step with nothing filled or checked; building the schedule and indexing
// its steps come before the loop, and so do whole buffers, allocated and
// filled once. It reports the buffers the workers hold and the schedule's
// memory next to the data itself (P·S bytes of payload).
func benchRun(b *testing.B, a commmodel.Algorithm, p int, size int64, elemBytes int) {
	s, err := NewElem(a, p, size, elemBytes)
	if err != nil {
		b.Fatal(err)
	}
	staged, err := s.hazards()
	if err != nil {
		b.Fatal(err)
	}
	m := newSim(s, staged, 1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run := func() {
		m.eachTile(s.tile(), func(w *worker, lo, hi int) {
			w.setTile(lo, hi)
			for si := range s.Steps {
				w.step(si)
			}
		})
	}
	if s.tile() >= s.Len {
		w := m.newWorker(s.Len, true)
		w.setTile(0, s.Len)
		w.byRank(w.fill)
		run = func() {
			for si := range s.Steps {
				w.step(si)
			}
		}
	} else {
		m.eachTile(s.tile(), func(*worker, int, int) {})
	}
	runtime.ReadMemStats(&after)
	data := float64(p) * float64(size)
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
	// After the loop: b.Loop's first call deletes metrics reported before it.
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/data, "buffers/data")
	b.ReportMetric(float64(s.transfers()*transferBytes)/data, "schedule/data")
}

// BenchmarkRingAllReduce1024: the steps of ring AllReduce on P = 1024 ranks
// of 4 MiB each, by tiles.
func BenchmarkRingAllReduce1024(b *testing.B) {
	for _, eb := range []int{8, 4} {
		b.Run(fmt.Sprintf("elem=%dB", eb), func(b *testing.B) { benchRun(b, commmodel.Ring{}, 1024, 4<<20, eb) })
	}
}

// BenchmarkDirectAllToAll256: the step of direct AllToAll on P = 256 ranks,
// S = 4 MiB each, in whole buffers (input and output).
func BenchmarkDirectAllToAll256(b *testing.B) {
	for _, eb := range []int{8, 4} {
		b.Run(fmt.Sprintf("elem=%dB", eb), func(b *testing.B) { benchRun(b, commmodel.Direct{}, 256, 4<<20, eb) })
	}
}

// BenchmarkSimulateRing1024 is the whole of Simulate (schedule checks,
// index, fill, run, check, counts) for the same ring: the simulation of
// commlab simulate -p 1024 -size 4MiB.
func BenchmarkSimulateRing1024(b *testing.B) {
	for _, eb := range []int{8, 4} {
		b.Run(fmt.Sprintf("elem=%dB", eb), func(b *testing.B) { benchSimulate(b, commmodel.Ring{}, 1024, 4<<20, eb) })
	}
}

// benchSimulate measures the whole of Simulate on a's schedule; building
// the schedule comes before the loop.
func benchSimulate(b *testing.B, a commmodel.Algorithm, p int, size int64, elemBytes int) {
	s, err := NewElem(a, p, size, elemBytes)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if r, err := Simulate(s, 1); err != nil || !r.Correct {
			b.Fatal(err, r.Mismatch)
		}
	}
}

// BenchmarkRing1024Phases times the parts of Simulate on the same ring
// with 4-byte elements (the default of commlab simulate): "phase=Index"
// checks the schedule (hazards) and indexes its steps (newSim);
// "phase=Tiles" fills, runs and checks every tile; "phase=Run" is the
// steps alone, every tile through every step with nothing filled or
// checked; "phase=Count" counts the schedule.
func BenchmarkRing1024Phases(b *testing.B) {
	s, err := New(commmodel.Ring{}, 1024, 4<<20)
	if err != nil {
		b.Fatal(err)
	}
	index := func(b *testing.B) *sim {
		staged, err := s.hazards()
		if err != nil {
			b.Fatal(err)
		}
		return newSim(s, staged, 1)
	}
	b.Run("phase=Index", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			index(b)
		}
	})
	m := index(b)
	b.Run("phase=Tiles", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if mis := m.run(s.tile()); mis != "" {
				b.Fatal(mis)
			}
		}
	})
	b.Run("phase=Run", func(b *testing.B) { benchRun(b, commmodel.Ring{}, 1024, 4<<20, DefaultElemBytes) })
	b.Run("phase=Count", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Count(s)
		}
	})
}

// BenchmarkSimulate is the whole of Simulate on the cases its limits name:
// P up to 64 at S = 64 MiB by tiles, and whole buffers (one-shot's scratch
// region, the AllToAll algorithms at P = 256).
func BenchmarkSimulate(b *testing.B) {
	for _, c := range []struct {
		a    commmodel.Algorithm
		p    int
		size int64
	}{
		{commmodel.Ring{}, 8, 64 << 20},
		{commmodel.Ring{}, 64, 64 << 20},
		{commmodel.HalvingDoubling{}, 64, 64 << 20},
		{commmodel.Tree{PerNode: 8, Chunks: 8}, 64, 64 << 20},
		{commmodel.RingAllGather{}, 64, 64 << 20},
		{commmodel.OneShot{}, 64, 4 << 20},
		{commmodel.Direct{}, 256, 4 << 20},
		{commmodel.Pairwise{}, 256, 4 << 20},
		{commmodel.Bruck{}, 256, 4 << 20},
	} {
		name := fmt.Sprintf("%s/%s/P=%d/S=%dMiB", c.a.Collective(), c.a.Name(), c.p, c.size>>20)
		b.Run(name, func(b *testing.B) { benchSimulate(b, c.a, c.p, c.size, DefaultElemBytes) })
	}
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
