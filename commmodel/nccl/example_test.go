package nccl_test

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/presets"
)

// One node of 8 H100 (SXM, 18 NVLinks into NVSwitch) under NCCL 2.30.7,
// with the graphs NCCL's search gives such a node: a ring and a tree of
// 12 channels at 30 GB/s (6 x 60 GB/s duplicated; NVIDIA/nccl issue #1367
// reports the 12 ring channels of an H100 node) and an NVLS graph of 8
// channels at 40 GB/s inside the node and 60 GB/s across (NCCL 2.30.7
// src/graph/search.cc, traced by hand). The tuner picks Ring/LL up to
// 1 MiB and NVLS/Simple from 2 MiB, the switch an 8 x H100 node reports in
// NVIDIA/nccl-tests issue #309 ("8B~1MB: uses Algo RING proto LL",
// "2MB~16GB uses Algo NVLS proto SIMPLE").
func ExampleModel_Choose() {
	m, err := nccl.New(nccl.Config{
		Version: nccl.Version{Major: 2, Minor: 30, Patch: 7}, Ranks: 8, Nodes: 1, MinCompCap: 90, NVSwitch: true,
		Graphs: nccl.Graphs{
			Ring: nccl.Graph{Pattern: nccl.PatternRing, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: nccl.PathNVL, TypeInter: nccl.PathPIX, SameChannels: true},
			Tree: nccl.Graph{Pattern: nccl.PatternBalancedTree, NChannels: 12, BWIntra: 30, BWInter: 30, TypeIntra: nccl.PathNVL, TypeInter: nccl.PathPIX},
			NVLS: nccl.Graph{Pattern: nccl.PatternNVLS, NChannels: 8, BWIntra: 40, BWInter: 60, TypeIntra: nccl.PathNVL, TypeInter: nccl.PathPIX},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, size := range []float64{8, 64 << 10, 1 << 20, 2 << 20, 256 << 20} {
		e, err := m.Choose(nccl.FuncAllReduce, size)
		if err != nil {
			fmt.Println(err)
			return
		}
		busBW := commmodel.AllReduce.BusBW(8, size, e.Time)
		fmt.Printf("%9.0f B  %v/%-6s %7.1f us  busbw %5.1f GB/s\n", size, e.Algo, nccl.ProtocolName(e.Proto), e.Time*1e6, busBW/1e9)
	}
	// Output:
	//         8 B  Ring/LL        15.0 us  busbw   0.0 GB/s
	//     65536 B  Ring/LL        15.8 us  busbw   7.3 GB/s
	//   1048576 B  Ring/LL        28.0 us  busbw  65.5 GB/s
	//   2097152 B  NVLS/Simple    32.7 us  busbw 112.2 GB/s
	// 268435456 B  NVLS/Simple  1011.9 us  busbw 464.2 GB/s
}

// NCCL's AllReduce algorithms as commmodel times them on 4 nodes of the
// article's H20 server, at a latency-bound and a bandwidth-bound size (the
// fluid trees and chain: NCCL's own form of their time).
func ExampleAlgorithms() {
	c := presets.H20Cluster(4)
	for _, a := range nccl.Algorithms(commmodel.AllReduce, c.PerNode) {
		fmt.Printf("%-14s %7.1f us %9.1f us\n", a.Name(), c.Time(a, 64e3)*1e6, c.Time(a, 256e6)*1e6)
	}
	// Output:
	// tree              94.4 us   25688.0 us
	// ring             936.2 us   25730.0 us
	// collnet-direct    19.7 us    2899.0 us
	// collnet-chain     46.2 us   12843.0 us
	// nvls              19.6 us    2441.9 us
	// nvlstree          65.0 us    4086.9 us
}

// A GPU the catalog does not hold is not an error for LookupGPU: its
// figures are UnknownGPU's assumptions, marked by Known, for a caller to
// calibrate and to say so.
func ExampleLookupGPU() {
	for _, name := range []string{"AMD Instinct MI355X", "NVIDIA RTX 6000D"} {
		g := nccl.LookupGPU(name)
		fmt.Printf("%s: known %v, compute capability %d, %d links of %.1f GB/s\n", g.Name, g.Known, g.CompCap, g.NVLinks, g.NVLinkBW/1e9)
	}
	// Output:
	// AMD Instinct MI355X: known true, compute capability 95, 7 links of 76.8 GB/s
	// NVIDIA RTX 6000D: known false, compute capability 90, 0 links of 0.0 GB/s
}
