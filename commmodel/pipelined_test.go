package commmodel

import (
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
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

// A chunked pipeline's plan takes the sweep's steps, messages, fanout and
// critical-path chunks, for every shape up to 64 ranks and 40 chunks (24
// and 12 under -short); the chain's closed form (chainPath) is the sweep's
// too.
func TestPipelinePlanIsSweep(t *testing.T) {
	maxRanks, maxChunks := 64, 40
	if testing.Short() {
		maxRanks, maxChunks = 24, 12
	}
	for _, s := range pipeShapes(maxRanks, maxChunks) {
		q := s.sweep()
		chunks, messages, fanout := q.path()
		c := costOf(pipePlan(load{}, reach{}, s, 1, nil))
		if c.Steps != q.steps() || c.Messages != messages || c.Fanout != fanout ||
			c.PathBytes != float64(chunks)/float64(s.parts()*s.chunks) {
			t.Fatalf("%+v: plan %+v, sweep steps %d, chunks %d, messages %d, fanout %d", s, c, q.steps(), chunks, messages, fanout)
		}
		if s.nodes*s.perNode == 1 {
			continue // one rank has no pipeline: its callers return before
		}
		if s.kind == chainPipe {
			if st, path, fan := chainPath(s.nodes, s.perNode, s.chunks); st != q.steps() || path != chunks || path != messages || fan != fanout {
				t.Fatalf("%+v: chainPath %d, %d, %d; sweep steps %d, chunks %d, messages %d, fanout %d", s, st, path, fan, q.steps(), chunks, messages, fanout)
			}
		}
	}
}

// A chunked pipeline's time on a Cluster (its plan's stages grouped by
// level) is the sum of its swept stages' times, to within pipeTol, for
// every shape up to 32 ranks and 20 chunks, on links with every term, at
// sizes from 0 to 1 TiB; at an infinite or NaN size, and on invalid links,
// the same to the bit.
func TestPipelineClusterTime(t *testing.T) {
	links := [][2]Link{{h20Intra, h20Inter}, {lineLinks[4], lineLinks[2]}, {lineLinks[3], lineLinks[3]}, {lineLinks[2], lineLinks[4]}}
	sizes := []float64{0, 1, 4096, 12345.678, 1 << 20, 1e9 + 7, 1 << 40}
	worst := 0.0
	for _, s := range pipeShapes(32, 20) {
		q := s.sweep() // once for all sizes
		q.split()
		s.windows(&q)
		a := Algorithm(Tree{Chunks: s.chunks})
		if s.kind == chainPipe {
			a = CollNetChain{Chunks: s.chunks}
		}
		c := Cluster{Nodes: s.nodes, PerNode: s.perNode}
		for _, size := range sizes {
			stages := q.stages(size/float64(s.parts()*s.chunks), 0, 0)
			for _, l := range links {
				want := 0.0
				for _, st := range stages {
					want += st.Time(l[0], l[1])
				}
				c.Intra, c.Inter = l[0], l[1]
				got := c.Time(a, size)
				if s.nodes*s.perNode == 1 {
					got = want // one rank: no pipeline, and no time
				}
				if !scalar.EqualWithinRel(got, want, pipeTol) {
					t.Fatalf("%+v S=%g %+v: plan %g, stages %g", s, size, l, got, want)
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
			for _, l := range [][2]Link{{h20Intra, h20Inter}, {lineLinks[2], lineLinks[2]}, {{Alpha: 1e-6}, h20Inter}, {h20Intra, {BW: math.Inf(1)}}} {
				c := Cluster{Nodes: sh[0], PerNode: sh[1], Intra: l[0], Inter: l[1]}
				for _, size := range []float64{math.Inf(1), math.NaN(), -1, math.Copysign(0, -1)} {
					want := 0.0
					for _, st := range c.Stages(a, size) {
						want += st.Time(c.Intra, c.Inter)
					}
					got := c.Time(a, size)
					if size == 0 && chunked(a) && scalar.EqualWithinRel(got, want, pipeTol) {
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

// Goroutines that look up plans at once always get the plan of the shape
// they asked for, and the same plan every time.
func TestPlansConcurrent(t *testing.T) {
	shapes := pipeShapes(12, 4)
	alg := func(s pipeShape) planner {
		if s.kind == chainPipe {
			return CollNetChain{Chunks: s.chunks}
		}
		return Tree{Chunks: s.chunks}
	}
	want := make([]float64, len(shapes))
	for i, s := range shapes {
		want[i] = Cluster{Nodes: s.nodes, PerNode: s.perNode, Intra: h20Intra, Inter: h20Inter}.Time(alg(s), 1<<20)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range len(shapes) {
				i := (g*7 + k) % len(shapes)
				s := shapes[i]
				if got := (Cluster{Nodes: s.nodes, PerNode: s.perNode, Intra: h20Intra, Inter: h20Inter}).Time(alg(s), 1<<20); got != want[i] {
					t.Errorf("%+v: %g, want %g", s, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range shapes {
		q, _ := stagesOf(alg(s), s.nodes, s.perNode, 1)
		if r, _ := stagesOf(alg(s), s.nodes, s.perNode, 2); r != q {
			t.Fatalf("%+v: another plan each time", s)
		}
	}
}

// chainPath returns the steps of the chunked chain on nodes x perNode >= 2
// ranks, the chunks (and messages) of every step's busiest GPU summed over
// the steps, and the most of them in one step, in closed form: what the
// sweep of chainWindows finds (TestProfileIsSweep).
//
// The windows start in consecutive steps (the chain's GPUs up, the head to
// the switch, the GPUs down), so each of the T = fill-1+C steps has a GPU
// that sends one chunk; a step has one that sends two where a GPU's two
// windows overlap. GPU i (1 <= i <= p-2) sends up from p-1-i and down from
// s+i, s = p-1+[N >= 2], C steps each: both in the C-[N >= 2]-2i steps
// from s+i on; the head, if N >= 2, to the switch from p-1 and down from
// s: both in C-1 steps, the formula at i = 0. Each GPU's overlap lies
// within that of the GPU before it (it starts later and ends earlier), so
// the first GPU with two windows, i0, has them all:
//
//	chunks = T + max(0, C - [N >= 2] - 2·i0)
//
// with i0 = 0 if N >= 2 and p >= 2, 1 if N = 1 and p >= 3, and no overlap
// otherwise; the fanout is 2 where there is an overlap, 1 where not.
func chainPath(nodes, perNode, chunks int) (steps, path, fanout int) {
	fill, down := chainSteps(nodes, perNode)
	steps, fanout = fill-1+chunks, 1
	first := down - (perNode - 1) // the head's offset, [N >= 2]
	switch {
	case nodes > 1 && perNode > 1: // the head
	case perNode > 2: // GPU 1
		first += 2
	default:
		return steps, steps, fanout
	}
	if overlap := chunks - first; overlap > 0 {
		return steps, steps + overlap, 2
	}
	return steps, steps, fanout
}
