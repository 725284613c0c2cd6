package commmodel_test

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
)

// Ring AllReduce on the article's 8 x H20 node: 14 steps of 2 us, and 1 MB
// moves in 5 us.
func ExampleRing_Cost() {
	c := commmodel.Ring{}.Cost(8, 1e6)
	fmt.Printf("steps %d, bytes per rank %.0f, peers %d\n", c.Steps, c.Bytes, c.Peers)
	fmt.Printf("time %.1f us\n", c.Time(commmodel.H20Intra)*1e6)
	// Output:
	// steps 14, bytes per rank 1750000, peers 2
	// time 33.0 us
}

// The one-shot/two-shot threshold of an 8-GPU node, about 130 KB.
func ExampleOneShotCrossover() {
	fmt.Printf("%.1f kB\n", commmodel.OneShotCrossover(8, commmodel.H20Intra)/1e3)
	// Output:
	// 133.3 kB
}

// Every size at which one AllReduce algorithm overtakes another at P = 8.
func ExampleCrossovers() {
	for _, x := range commmodel.Crossovers(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: 8, Link: commmodel.H20Intra}) {
		fmt.Printf("%-16s -> %-16s at %8.1f kB\n", x.A.Name(), x.B.Name(), x.Size/1e3)
	}
	// Output:
	// one-shot         -> two-shot         at    133.3 kB
	// one-shot         -> halving-doubling at    666.7 kB
	// one-shot         -> ring             at   1733.3 kB
}

// The fastest AllReduce for a 56 KB tensor-parallel decode step.
func ExampleFastest() {
	a, t := commmodel.Fastest(commmodel.Algorithms(commmodel.AllReduce), commmodel.Flat{P: 8, Link: commmodel.H20Intra}, 56e3)
	fmt.Printf("%s, %.2f us\n", a.Name(), t*1e6)
	// Output:
	// one-shot, 3.12 us
}

// Hierarchical against flat ring AllReduce on two 8 x H20 nodes.
func ExampleCluster_Time() {
	c := commmodel.H20Cluster(2)
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
