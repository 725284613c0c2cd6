package commmodel

import (
	"math"
	"sync"
	"testing"
)

// pipeTol is how closely a chunked pipeline's time on a Cluster, from its
// memoized profile, agrees with the sum of its swept stages, relative. Both
// add non-negative terms: the profile sums the runs on one level first and
// scales a chunk's time by the chunks where the stages scale the chunks'
// bytes, each a rounding of 2^-53 per term, so the two differ by at most
// about (runs + 6)·2^-52; 1e-12 is 2^-40, room for hundreds of runs (the
// shapes below have at most a few tens).
const pipeTol = 1e-12

// pipeShapes returns every shape of both schedules with N·p <= maxRanks
// ranks and 1 <= C <= maxChunks.
func pipeShapes(maxRanks, maxChunks int) []pipeShape {
	var out []pipeShape
	for _, kind := range []pipeKind{treePipe, chainPipe} {
		for nodes := 1; nodes <= maxRanks; nodes++ {
			for per := 1; nodes*per <= maxRanks; per++ {
				for c := 1; c <= maxChunks; c++ {
					out = append(out, pipeShape{kind, nodes, per, c})
				}
			}
		}
	}
	return out
}

// The memoized profile gives, to the bit, what the sweep of the profile
// gives: the steps, messages and critical-path chunks of every shape up to
// 64 ranks and 40 chunks, and so the same time on one Link; a second lookup
// finds the same profile. The chain's closed form (chainPath) is the sweep's
// too.
func TestProfileIsSweep(t *testing.T) {
	var buf [maxSlots]stepLoad
	for _, s := range pipeShapes(64, 40) {
		q := s.sweep(buf[:])
		chunks, messages, fanout := q.path()
		p := profileOf(s)
		if p.shape != s || p.steps != q.steps() || p.messages != messages || p.fanout != fanout ||
			p.path != float64(chunks)/float64(s.parts()*s.chunks) {
			t.Fatalf("%+v: profile %+v, sweep steps %d, chunks %d, messages %d, fanout %d", s, p, q.steps(), chunks, messages, fanout)
		}
		if profileOf(s) != p {
			t.Fatalf("%+v: a second lookup swept again", s)
		}
		if s.nodes*s.perNode == 1 {
			continue // one rank has no pipeline: its callers return before
		}
		if s.kind == chainPipe {
			if st, path, fan := chainPath(s.nodes, s.perNode, s.chunks); st != q.steps() || path != chunks || path != messages || fan != fanout {
				t.Fatalf("%+v: chainPath %d, %d, %d; sweep steps %d, chunks %d, messages %d, fanout %d", s, st, path, fan, q.steps(), chunks, messages, fanout)
			}
		}
		const size = 3 << 20
		bytes := 1.5 * size // any bytes below the path, which then counts
		steps, msgs, path := s.terms(bytes, size)
		if want := max(bytes, float64(chunks)/float64(s.parts()*s.chunks)*size); steps != q.steps() || msgs != messages || path != want {
			t.Fatalf("%+v: terms %d, %d, %g; sweep %d, %d, %g", s, steps, msgs, path, q.steps(), messages, want)
		}
	}
}

// A chunked pipeline's time on a Cluster from its profile is the sum of its
// swept stages' times, to within pipeTol, for every shape up to 64 ranks
// and 40 chunks, on links with every term, at sizes from 0 to 1 TiB; at an
// infinite or NaN size, and on invalid links, the same to the bit.
func TestPipelineClusterTime(t *testing.T) {
	links := [][2]Link{{H20Intra, H20Inter}, {lineLinks[4], lineLinks[2]}, {lineLinks[3], lineLinks[3]}, {lineLinks[2], lineLinks[4]}}
	sizes := []float64{0, 1, 4096, 12345.678, 1 << 20, 1e9 + 7, 1 << 40}
	worst := 0.0
	for _, s := range pipeShapes(64, 40) {
		q := s.sweep(nil) // once for all sizes: s.stages at each
		q.split()
		s.windows(&q)
		for _, size := range sizes {
			stages := q.stages(size/float64(s.parts()*s.chunks), 0, 0)
			if s.nodes*s.perNode == 1 {
				stages = s.stages(size, 0, 0)
			}
			for _, l := range links {
				want := 0.0
				for _, st := range stages {
					want += st.Time(l[0], l[1])
				}
				got := s.timeFrom(0, size, l[0], l[1])
				if !closeTo(got, want, pipeTol) {
					t.Fatalf("%+v S=%g %+v: profile %g, stages %g", s, size, l, got, want)
				}
				if want != 0 {
					worst = max(worst, math.Abs(got/want-1))
				}
			}
		}
	}
	t.Logf("largest relative difference: %.3g (%.1f ulps of 2^-52)", worst, worst/0x1p-52)
	// Through the algorithms, at sizes where the two paths must agree to the
	// bit, chunked or fluid, and on invalid links; and at -0, where the fluid
	// forms' parts are -0, not +0, as the stages', but the sum is the same.
	for _, a := range []Algorithm{Tree{Chunks: 3}, NVLSTree{PerNode: 8, Chunks: 2}, CollNetChain{Chunks: 5}, Tree{}, NVLSTree{PerNode: 8}, CollNetChain{}} {
		for _, sh := range clusterShapes {
			for _, l := range [][2]Link{{H20Intra, H20Inter}, {lineLinks[2], lineLinks[2]}, {{Alpha: 1e-6}, H20Inter}, {H20Intra, {BW: math.Inf(1)}}} {
				c := Cluster{Nodes: sh[0], PerNode: sh[1], Intra: l[0], Inter: l[1]}
				for _, size := range []float64{math.Inf(1), math.NaN(), -1, math.Copysign(0, -1)} {
					want := 0.0
					for _, st := range c.Stages(a, size) {
						want += st.Time(c.Intra, c.Inter)
					}
					got := c.Time(a, size)
					if size == 0 && chunked(a) && closeTo(got, want, pipeTol) {
						continue // at -0 the profile's sums of α round as at +0
					}
					if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Errorf("%v %s %+v S=%g: Time %g, stages %g", sh, a.Name(), l, size, got, want)
					}
				}
			}
		}
	}
}

// Goroutines that look up shapes sharing a set of the table at once, each
// evicting the others' profiles, always get the profile of the shape they
// asked for; two shapes of one set evaluated in turn both stay in it.
func TestProfilesConcurrent(t *testing.T) {
	var shapes []pipeShape
	set := pipeShape{treePipe, 2, 8, 3}.set()
	for _, s := range pipeShapes(32, 8) {
		if s.set() == set {
			shapes = append(shapes, s)
		}
	}
	if len(shapes) < 3 {
		t.Fatalf("%d shapes share a set; want more than its %d ways", len(shapes), profileWays)
	}
	want := make([]float64, len(shapes))
	for i, s := range shapes {
		want[i] = s.timeFrom(0, 1<<20, H20Intra, H20Inter)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 200 {
				i := (g + k) % len(shapes)
				if got := shapes[i].timeFrom(0, 1<<20, H20Intra, H20Inter); got != want[i] {
					t.Errorf("%+v: %g, want %g", shapes[i], got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	a, b := profileOf(shapes[0]), profileOf(shapes[1])
	for range 10 {
		if profileOf(shapes[0]) != a || profileOf(shapes[1]) != b {
			t.Fatalf("%+v and %+v, of one set, evict each other", shapes[0], shapes[1])
		}
	}
}

// A shape's key is its own, or 0 where a number does not fit in 21 bits;
// shapes of key 0 get their own profiles, not each other's, and keep them.
func TestProfileKey(t *testing.T) {
	keys := map[uint64]pipeShape{}
	for _, s := range append(pipeShapes(32, 8), pipeShape{chainPipe, 1<<21 - 1, 1<<21 - 1, 1<<21 - 1}, pipeShape{treePipe, 1<<21 - 1, 1<<21 - 1, 1<<21 - 1}) {
		k := s.key()
		if o, ok := keys[k]; ok || k == 0 {
			t.Fatalf("%+v: key %#x, that of %+v", s, k, o)
		}
		keys[k] = s
	}
	big := []pipeShape{{treePipe, 2, 1, 1 << 21}, {treePipe, 2, 1, 1<<21 + 1}, {chainPipe, 2, 1, 1 << 21}, {treePipe, -1, 1, 3}}
	for _, s := range big {
		if k := s.key(); k != 0 {
			t.Fatalf("%+v: key %#x, want 0", s, k)
		}
	}
	for range 2 {
		for _, s := range big[:3] {
			if p := profileOf(s); p.shape != s {
				t.Fatalf("profileOf(%+v) is the profile of %+v", s, p.shape)
			}
		}
	}
	if p := profileOf(big[0]); profileOf(big[0]) != p { // key 0 is memoized too, not swept again
		t.Fatalf("profileOf(%+v) swept again", big[0])
	}
}
