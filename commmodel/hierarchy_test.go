package commmodel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestClusterTimes(t *testing.T) {
	c := h20Cluster(2)
	const S = 128 << 20
	// 7 of a GPU's 15 peers share its node: direct AllToAll on 2 x 8 sends 7/16 of S over NVLink and 8/16 over
	// the network; at the article's 128 MB point the network half is 3.4 ms.
	want := max(2e-6+7.0/16*S/350e9, 15e-6+8.0/16*S/20e9)
	if got := c.Time(Direct{}, S); !scalar.EqualWithinRel(got, want, 1e-12) || !scalar.EqualWithinAbs(got, 3.37e-3, 0.01*3.37e-3) {
		t.Errorf("direct 2x8 128 MiB = %g s, want %g (~3.4 ms)", got, want)
	}
	// A flat ring over 16 ranks runs every one of its 30 steps at the pace of the network hop.
	want = 30 * (15e-6 + S/16.0/20e9)
	if got := c.Time(Ring{}, S); !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("flat ring 2x8 = %g s, want %g", got, want)
	}
	// The article's three steps: RS_8(S) and AG_8(S) on NVLink, ring AllReduce of S/8 over 2 nodes.
	want = 2*7*(2e-6+S/8.0/350e9) + 2*(15e-6+S/8/2.0/20e9)
	if got := c.Time(HierarchicalAllReduce{PerNode: 8}, S); !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("hierarchical 2x8 = %g s, want %g", got, want)
	}
	// Network bytes per GPU: flat ring 2(P-1)/P·S, hierarchical 2(N-1)/N·S/p.
	if got := c.NetworkBytes(Ring{}, S); !scalar.EqualWithinRel(got, 2*15.0/16*S, 1e-12) {
		t.Errorf("flat ring network bytes %g", got)
	}
	if got := c.NetworkBytes(HierarchicalAllReduce{PerNode: 8}, S); !scalar.EqualWithinRel(got, S/8.0, 1e-12) {
		t.Errorf("hierarchical network bytes %g", got)
	}
	// Pairwise with the XOR rule: 7 local rounds, then 8 network rounds.
	want = 7*(2e-6+S/16.0/350e9) + 8*(15e-6+S/16.0/20e9)
	if got := c.Time(Pairwise{}, S); !scalar.EqualWithinRel(got, want, 1e-12) {
		t.Errorf("pairwise 2x8 = %g s, want %g", got, want)
	}
}

// Where an algorithm's stages never overlap the two levels, a cluster whose
// two links are the same link times it exactly as the single-level model.
func TestClusterMatchesSingleLevel(t *testing.T) {
	for _, l := range []Link{h20Intra, {Alpha: 3e-6, BW: 1e11, Gamma: 1e-12}} {
		for _, shape := range [][2]int{{1, 8}, {2, 8}, {4, 4}, {8, 2}, {3, 4}, {2, 1}} {
			c := Cluster{Nodes: shape[0], PerNode: shape[1], Intra: l, Inter: l}
			p := c.Ranks()
			for _, a := range []Algorithm{
				Ring{}, HalvingDoubling{}, RingReduceScatter{}, RingAllGather{}, PipelinedBroadcast{Chunks: 3}, Bruck{},
				HierarchicalAllReduce{PerNode: shape[1]}, HierarchicalAllReduce{PerNode: shape[1], Inter: HalvingDoubling{}},
				HierarchicalAllToAll{PerNode: shape[1]}, Pairwise{},
			} {
				for _, s := range []float64{0, 4096, 1 << 26} {
					if got, want := c.Time(a, s), Time(a, p, s, l); !scalar.EqualWithinRel(got, want, 1e-12) {
						t.Errorf("%d x %d %s %s S=%g: cluster %g, single level %g", shape[0], shape[1], a.Collective(), a.Name(), s, got, want)
					}
				}
			}
		}
	}
}

// On a single node every algorithm's cluster time is its intra-link time.
func TestClusterOneNode(t *testing.T) {
	c := Cluster{Nodes: 1, PerNode: 8, Intra: h20Intra, Inter: h20Inter}
	for _, a := range everyAlgorithm() {
		if !accepts(a, 8) {
			continue
		}
		if h, ok := a.(HierarchicalAllReduce); ok {
			a = HierarchicalAllReduce{PerNode: 8, Inter: h.Inter}
		}
		if _, ok := a.(HierarchicalAllToAll); ok {
			a = HierarchicalAllToAll{PerNode: 8}
		}
		switch tr := a.(type) {
		case Tree:
			a = Tree{PerNode: 8, Chunks: tr.Chunks}
		case NVLS:
			a = NVLS{PerNode: 8}
		case NVLSTree:
			a = NVLSTree{PerNode: 8, Chunks: tr.Chunks}
		case CollNetDirect:
			a = CollNetDirect{PerNode: 8}
		case CollNetChain:
			a = CollNetChain{PerNode: 8, Chunks: tr.Chunks}
		}
		if got, want := c.Time(a, 1<<20), Time(a, 8, 1<<20, h20Intra); !scalar.EqualWithinRel(got, want, 1e-12) {
			t.Errorf("%s %s: one-node cluster %g, intra link %g", a.Collective(), a.Name(), got, want)
		}
	}
}

// Cluster.Time computes the stages' times without building them; it is the
// sum of the times of Cluster.Stages to the bit, invalid links included,
// but for the chunked pipelines, whose memoized profiles round differently
// (to within pipeTol; TestPipelineClusterTime).
func TestClusterTimeIsStages(t *testing.T) {
	// Every term on either level, and an invalid link on either.
	links := [][2]Link{
		{h20Intra, h20Inter}, {lineLinks[4], lineLinks[2]}, {lineLinks[3], lineLinks[3]},
		{{Alpha: 1e-6}, h20Inter}, {h20Intra, {BW: math.Inf(1)}},
	}
	sizes := append(lineSizes(), math.Inf(1))
	for _, a := range append(everyAlgorithm(), stepped{}) {
		for _, sh := range clusterShapes {
			a := onShape(a, sh[1])
			for _, l := range links {
				c := Cluster{Nodes: sh[0], PerNode: sh[1], Intra: l[0], Inter: l[1]}
				for _, s := range sizes {
					want := 0.0
					for _, st := range c.Stages(a, s) {
						want += st.Time(c.Intra, c.Inter)
					}
					got := c.Time(a, s)
					if chunked(a) && scalar.EqualWithinRel(got, want, pipeTol) {
						continue
					}
					if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Fatalf("%v %s %s %+v S=%g: Time %g, stages %g", sh, a.Collective(), a.Name(), l, s, got, want)
					}
				}
			}
		}
	}
}

// chunked reports whether a is a chunked pipeline (Chunks >= 1 of Tree,
// NVLSTree or CollNetChain).
func chunked(a Algorithm) bool {
	switch a := a.(type) {
	case Tree:
		return a.Chunks >= 1
	case NVLSTree:
		return a.Chunks >= 1
	case CollNetChain:
		return a.Chunks >= 1
	}
	return false
}
