package commmodel_test

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

// Ring AllReduce on the article's 8 x H20 node: 14 steps of 2 us, and 1 MB
// moves in 5 us.
func ExampleRing_Cost() {
	c := commmodel.Ring{}.Cost(8, 1e6)
	fmt.Printf("steps %d, bytes per rank %.0f, peers %d\n", c.Steps, c.Bytes, c.Peers)
	fmt.Printf("time %.1f us\n", c.Time(presets.H20Intra)*1e6)
	// Output:
	// steps 14, bytes per rank 1750000, peers 2
	// time 33.0 us
}

// The one-shot/two-shot threshold of an 8-GPU node, about 130 KB.
func ExampleOneShotCrossover() {
	fmt.Printf("%.1f kB\n", commmodel.OneShotCrossover(8, presets.H20Intra)/1e3)
	// Output:
	// 133.3 kB
}

// Every size at which one AllReduce algorithm overtakes another at P = 8.
func ExampleCrossovers() {
	for _, x := range commmodel.Crossovers(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: 8, Link: presets.H20Intra}) {
		fmt.Printf("%-16s -> %-16s at %8.1f kB\n", x.A.Name(), x.B.Name(), x.Size/1e3)
	}
	// Output:
	// one-shot         -> two-shot         at    133.3 kB
	// one-shot         -> halving-doubling at    666.7 kB
	// one-shot         -> ring             at   1733.3 kB
}

// The fastest AllReduce for a 56 KB tensor-parallel decode step.
func ExampleFastest() {
	a, t := commmodel.Fastest(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: 8, Link: presets.H20Intra}, 56e3)
	fmt.Printf("%s, %.2f us\n", a.Name(), t*1e6)
	// Output:
	// one-shot, 3.12 us
}

// Hierarchical against flat ring AllReduce on two 8 x H20 nodes.
func ExampleCluster_Time() {
	c := presets.H20Cluster(2)
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.HierarchicalAllReduce{PerNode: 8}} {
		fmt.Printf("%-12s %7.1f us, %5.1f MB over the network per GPU\n",
			a.Name(), c.Time(a, 64e6)*1e6, c.NetworkBytes(a, 64e6)/1e6)
	}
	// Output:
	// ring          6450.0 us, 120.0 MB over the network per GPU
	// hierarchical   778.0 us,   8.0 MB over the network per GPU
}

// Bus bandwidth as nccl-tests reports it: the article's 64 MiB AllToAll in 216 us.
func ExampleCollective_BusBW() {
	fmt.Printf("%.0f GB/s\n", commmodel.AllToAll.BusBW(8, 64<<20, 216e-6)/1e9)
	// Output:
	// 272 GB/s
}

// NCCL's double binary tree over 8 nodes: every node is an inner node of
// one tree and a leaf of the other.
func ExampleDoubleBinaryTree() {
	for n := range 8 {
		t := commmodel.DoubleBinaryTree(8, n)
		fmt.Printf("node %d: parents %2d %2d, children %v %v\n", n, t[0].Parent, t[1].Parent, t[0].Children, t[1].Children)
	}
	// Output:
	// node 0: parents -1  1, children [4 -1] [-1 -1]
	// node 1: parents  2  3, children [-1 -1] [2 0]
	// node 2: parents  4  1, children [1 3] [-1 -1]
	// node 3: parents  2  7, children [-1 -1] [5 1]
	// node 4: parents  0  5, children [2 6] [-1 -1]
	// node 5: parents  6  3, children [-1 -1] [6 4]
	// node 6: parents  4  5, children [5 7] [-1 -1]
	// node 7: parents  6 -1, children [-1 -1] [3 -1]
}

// NCCL's tree against the flat ring across 16 nodes of the article's H20
// server: the tree's latency grows as log2 of the nodes, the ring's as the
// ranks, and both send about 2S of each node's data over the network.
func ExampleTree() {
	c := presets.H20Cluster(16)
	for _, size := range []float64{64e3, 256e6} {
		for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.Tree{PerNode: 8}} {
			fmt.Printf("%-5s %9.0f B: %8.1f us\n", a.Name(), size, c.Time(a, size)*1e6)
		}
	}
	// Output:
	// ring      64000 B:   3816.3 us
	// tree      64000 B:    154.4 us
	// ring  256000000 B:  29210.0 us
	// tree  256000000 B:  25748.0 us
}

// NVLink SHARP on one 8-GPU node against ring: the switch reduces and
// multicasts, so a GPU sends S + S/8 in 2 steps where the ring sends 7/4·S
// in 14.
func ExampleNVLS() {
	for _, a := range []commmodel.Algorithm{commmodel.Ring{}, commmodel.NVLS{}} {
		c := a.Cost(8, 64e6)
		fmt.Printf("%-4s %2d steps, %5.1f MB per GPU, %6.1f us\n", a.Name(), c.Steps, c.Bytes/1e6, c.Time(presets.H20Intra)*1e6)
	}
	// Output:
	// ring 14 steps, 112.0 MB per GPU,  348.0 us
	// nvls  2 steps,  72.0 MB per GPU,  209.7 us
}

// Ring AllReduce on 8 GPUs of a 350 GB/s NVLink node under each protocol,
// with NCCL's per-step latencies of the ring over NVLink (LL 0.6 us, LL128
// 1.9 us, Simple 3.4 us; NCCL 2.30.7 src/graph/tuning.cc): LL's steps are
// cheapest and its bandwidth half, so it wins small messages (up to 3.9 MB
// here), LL128 the middle (to 63 MB) and Simple large ones.
func ExampleProtocol_Link() {
	link := commmodel.Link{BW: 350e9}
	alpha := map[commmodel.Protocol]float64{commmodel.LL: 0.6e-6, commmodel.LL128: 1.9e-6, commmodel.Simple: 3.4e-6}
	for _, p := range commmodel.Protocols() {
		l := p.Link(link, alpha[p])
		fmt.Printf("%-6s", p)
		for _, size := range []float64{64e3, 4e6, 256e6} {
			fmt.Printf(" %8.1f us", commmodel.Time(commmodel.Ring{}, 8, size, l)*1e6)
		}
		fmt.Println()
	}
	// Output:
	// ll          9.0 us     48.4 us   2568.4 us
	// ll128      26.9 us     47.9 us   1391.9 us
	// simple     47.9 us     67.6 us   1327.6 us
}

// Ring AllReduce on the article's 8-GPU node as a Line: 14 steps of 2 us and
// 1.75 bytes per byte at 350 GB/s, 5 ps per byte.
func ExampleFlat_Line() {
	l, _ := commmodel.Flat{P: 8, Link: presets.H20Intra}.Line(commmodel.Ring{})
	fmt.Printf("T0 = %.1f us, T1 = %.2f ps/B; 1 MB in %.1f us\n", l.T0*1e6, l.T1*1e12, l.At(1e6)*1e6)
	// Output:
	// T0 = 28.0 us, T1 = 5.00 ps/B; 1 MB in 33.0 us
}

// The article's three-step AllReduce on two 8-GPU nodes, stage by stage: the
// reduce-scatter and the all-gather on NVLink, the ring of S/8 between the
// two nodes on the network.
func ExampleCluster_Lines() {
	ls, _ := presets.H20Cluster(2).Lines(commmodel.HierarchicalAllReduce{PerNode: 8})
	for _, s := range ls {
		fmt.Printf("NVLink %4.1f us + %.2f ps/B, network %4.1f us + %.2f ps/B\n",
			s.Intra.T0*1e6, s.Intra.T1*1e12, s.Inter.T0*1e6, s.Inter.T1*1e12)
	}
	// Output:
	// NVLink 14.0 us + 2.50 ps/B, network  0.0 us + 0.00 ps/B
	// NVLink  0.0 us + 0.00 ps/B, network 30.0 us + 6.25 ps/B
	// NVLink 14.0 us + 2.50 ps/B, network  0.0 us + 0.00 ps/B
}

// Ring AllReduce's time at sizes from 1 KiB to 1 GiB on the 8-GPU node, into
// a slice of the caller's.
func ExampleTimeCurve() {
	sizes := commmodel.LogSizes(1<<10, 1<<30, 3)
	times := commmodel.TimeCurve(make([]float64, len(sizes)), commmodel.Ring{}, commmodel.Flat{P: 8, Link: presets.H20Intra}, sizes)
	for i, s := range sizes {
		fmt.Printf("%s %s\n", units.FormatSize(s), units.FormatDuration(times[i]))
	}
	// Output:
	// 1 KiB 28 µs
	// 1 MiB 33.2 µs
	// 1 GiB 5.4 ms
}
