package schedule

import (
	"fmt"
	"math"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestReplayUniformIsClosedForm: with one Link for every pair, replaying a
// schedule step by step gives the closed form Cost.Time (steps·α +
// messages·o + path bytes/BW + reduced·γ) for every algorithm and P = 1..32.
// The second Link has γ > 0: a rank reduces what it received once all of it
// has arrived, which sums to Reduced·γ also where the busiest sender and the
// busiest reducer differ (the fold of halving-doubling: the folded rank
// sends S, then its partner reduces it). The pipelined tree is held to it
// exactly without γ and o: its ranks reduce in different steps of the
// pipeline, which the replay charges step by step and the closed form as the
// busiest reducer's total, and in a step one rank may send the most bytes and
// another the most messages (commmodel.Tree); with an overhead the closed
// form is an upper bound, above the replay by less than one overhead per
// critical-path message. The same holds for NVLSTree, whose trees are Tree,
// and for CollNetChain's pipeline.
func TestReplayUniformIsClosedForm(t *testing.T) {
	links := []commmodel.Link{
		presets.H20Intra,
		{Alpha: 2e-6, BW: 350e9, Overhead: 0.5e-6},                   // H20Intra's α and BW, plus an overhead
		{Alpha: 2e-6, BW: 350e9, Overhead: 0.5e-6, Gamma: 1 / 700e9}, // and a reduction cost
	}
	for p := 1; p <= 32; p++ {
		n := evenElems(p)
		for _, a := range scheduled(p) {
			s, err := NewElem(a, p, int64(n*4), 4)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range links {
				got, want := Replay(s, Uniform(l)), a.Cost(p, float64(n*4)).Time(l)
				if ok := pipelinedTree(a); ok && l.Gamma > 0 {
					continue
				} else if ok && l.Overhead > 0 {
					if slack := float64(a.Cost(p, float64(n*4)).Messages) * l.Overhead; !(got <= want*(1+1e-12) && got >= want-slack) {
						t.Errorf("%s P=%d o=%g: replay %.6g s, closed form %.6g s (at most %.3g above)", describe(a), p, l.Overhead, got, want, slack)
					}
					continue
				}
				if !scalar.EqualWithinAbs(got, want, 1e-12*want) {
					t.Errorf("%s P=%d γ=%g: replay %.6g s, closed form %.6g s", describe(a), p, l.Gamma, got, want)
				}
			}
		}
	}
}

// pipelinedTree reports whether a is pipelined like NCCL's tree (Tree,
// NVLSTree, CollNetChain).
func pipelinedTree(a commmodel.Algorithm) bool {
	switch a.(type) {
	case commmodel.Tree, commmodel.NVLSTree, commmodel.CollNetChain:
		return true
	}
	return false
}

// TestReplayFlatRingAcrossNodes: a flat ring over 2 nodes x 8 GPUs runs every
// one of its 2(P-1) steps at the pace of the network, because in every step
// the two ranks whose ring neighbour is on the other node send over it:
//
//	T = 2(P-1)·(α_inter + S/P / BW_inter)
//
// while the hierarchical AllReduce sends only the S/p slice over the network
// (the article: "hierarchical cuts network bytes to ~1/P_intra").
func TestReplayFlatRingAcrossNodes(t *testing.T) {
	const nodes, per = 2, 8
	const p, size = nodes * per, 16 << 20
	links := TwoLevel(per, presets.H20Intra, presets.H20Inter)
	ring, err := New(commmodel.Ring{}, p, size)
	if err != nil {
		t.Fatal(err)
	}
	flat := Replay(ring, links)
	want := 2 * (p - 1) * (presets.H20Inter.Alpha + size/p/presets.H20Inter.BW)
	if !scalar.EqualWithinAbs(flat, want, 1e-12*want) {
		t.Errorf("flat ring 2x8: replay %.6g s, want 2(P-1)(α+S/P/BW) on the network = %.6g s", flat, want)
	}
	hier, err := New(commmodel.HierarchicalAllReduce{PerNode: per}, p, size)
	if err != nil {
		t.Fatal(err)
	}
	h := Replay(hier, links)
	if !(h < flat/4) {
		t.Errorf("hierarchical 2x8: replay %.6g s, not well under the flat ring's %.6g s", h, flat)
	}
	// The replay on one fast Link would hide it: the flat ring is then fast.
	if one := Replay(ring, Uniform(presets.H20Intra)); !(one < flat/10) {
		t.Errorf("flat ring on NVLink only: %.6g s, flat across nodes %.6g s", one, flat)
	}
}

// TestReplayMatchesClusterTime: on nodes x perNode ranks with NVLink inside a
// node and the network between nodes, replaying the schedule gives what the
// two-level model (Cluster.Time, stage by stage) says, for every algorithm
// that knows its split.
func TestReplayMatchesClusterTime(t *testing.T) {
	shapes := [][2]int{{2, 8}, {4, 4}, {2, 4}, {4, 2}}
	for _, sh := range shapes {
		nodes, per := sh[0], sh[1]
		p := nodes * per
		cl := commmodel.Cluster{Nodes: nodes, PerNode: per, Intra: presets.H20Intra, Inter: presets.H20Inter}
		n := evenElems(p)
		for _, a := range scheduled(p) {
			if h, ok := a.(commmodel.HierarchicalAllReduce); ok && h.PerNode != per {
				continue
			}
			if h, ok := a.(commmodel.HierarchicalAllToAll); ok && h.PerNode != per {
				continue
			}
			if h, ok := a.(commmodel.Tree); ok && max(h.PerNode, 1) != per {
				continue
			}
			if h, ok := a.(commmodel.NVLS); ok && h.PerNode != per {
				continue
			}
			if h, ok := a.(commmodel.NVLSTree); ok && h.PerNode != per {
				continue
			}
			if h, ok := a.(commmodel.CollNetDirect); ok && h.PerNode != per {
				continue
			}
			if h, ok := a.(commmodel.CollNetChain); ok && h.PerNode != per {
				continue
			}
			if _, ok := a.(commmodel.PipelinedBroadcast); ok {
				continue // see TestReplayBroadcastAcrossNodes
			}
			s, err := NewElem(a, p, int64(n*4), 4)
			if err != nil {
				t.Fatal(err)
			}
			got, want := Replay(s, TwoLevel(per, cl.Intra, cl.Inter)), cl.Time(a, float64(n*4))
			if !scalar.EqualWithinAbs(got, want, 1e-9*want) {
				t.Errorf("%s on %dx%d: replay %.6g s, two-level model %.6g s", describe(a), nodes, per, got, want)
			}
		}
	}
}

// TestReplayBroadcastAcrossNodes holds the two-level model of the chain
// broadcast to its schedule. In a chain over nodes of p GPUs only the hops
// from GPU p-1 of one node to GPU 0 of the next cross the network. Unpipelined
// on 2 x 8 that is 1 of its 15 steps, so by the alpha-beta step model
//
//	T = 14·(α_intra + S/BW_intra) + (α_inter + S/BW_inter)
//
// (with H20Intra and H20Inter, S = 4096 B: 43.37 us, where a flat stage, every
// step on the network, would give 15·(α_inter + S/BW_inter) = 228.1 us). With
// C chunks a step is network-paced when a chunk crosses a node boundary in
// it: for 2 x 8 and C = 4, steps 7..10 of the 18. Both the replay and
// Cluster.Time (PipelinedBroadcast.Stages) must give that.
func TestReplayBroadcastAcrossNodes(t *testing.T) {
	const nodes, per, size = 2, 8, 4096
	cl := commmodel.Cluster{Nodes: nodes, PerNode: per, Intra: presets.H20Intra, Inter: presets.H20Inter}
	step := func(l commmodel.Link, b float64) float64 { return l.Alpha + b/l.BW }
	for _, c := range []int{1, 4} {
		a := commmodel.PipelinedBroadcast{Chunks: c}
		s, err := New(a, nodes*per, size)
		if err != nil {
			t.Fatal(err)
		}
		chunk := float64(size) / float64(c)
		steps := nodes*per - 2 + c
		network := c // the steps in which some chunk crosses the one boundary
		want := float64(steps-network)*step(presets.H20Intra, chunk) + float64(network)*step(presets.H20Inter, chunk)
		got := Replay(s, TwoLevel(per, cl.Intra, cl.Inter))
		if !scalar.EqualWithinAbs(got, want, 1e-12*want) {
			t.Errorf("C=%d: replay %.6g s, step model %.6g s", c, got, want)
		}
		if model := cl.Time(a, size); !scalar.EqualWithinAbs(model, want, 1e-9*want) {
			t.Errorf("C=%d on 2x8: Cluster.Time %.6g s, but the schedule's steps give %.6g s (%d of %d steps cross the network)",
				c, model, want, network, steps)
		}
	}
}

// TestReplayInvalidLink: a Link that cannot time a transfer gives NaN.
func TestReplayInvalidLink(t *testing.T) {
	s, err := New(commmodel.Ring{}, 4, 64)
	if err != nil {
		t.Fatal(err)
	}
	if got := Replay(s, Uniform(commmodel.Link{Alpha: 1e-6})); !math.IsNaN(got) {
		t.Errorf("zero BW: %v, want NaN", got)
	}
}

func ExampleReplay() {
	s, _ := New(commmodel.Ring{}, 16, 16<<20)
	flat := Replay(s, TwoLevel(8, presets.H20Intra, presets.H20Inter))
	h, _ := New(commmodel.HierarchicalAllReduce{PerNode: 8}, 16, 16<<20)
	fmt.Printf("flat ring 2x8: %.0f us, hierarchical: %.0f us\n", flat*1e6, Replay(h, TwoLevel(8, presets.H20Intra, presets.H20Inter))*1e6)
	// Output:
	// flat ring 2x8: 2023 us, hierarchical: 247 us
}
