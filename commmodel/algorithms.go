package commmodel

import (
	"fmt"
	"slices"
	"strings"
)

// The article's algorithms of each collective that run on one level of
// fabric, in a fixed order. The two-level algorithms need a node size and
// are not listed; NCCL's algorithms are listed apart (in commmodel/nccl,
// Algorithms), so that the article's analyses keep comparing the
// article's algorithms.
var (
	allReduceAlgorithms     = []Algorithm{Ring{}, HalvingDoubling{}, TwoShot{}, OneShot{}}
	reduceScatterAlgorithms = []Algorithm{RingReduceScatter{}}
	allGatherAlgorithms     = []Algorithm{RingAllGather{}}
	broadcastAlgorithms     = []Algorithm{PipelinedBroadcast{}}
	allToAllAlgorithms      = []Algorithm{Direct{}, Pairwise{}, Bruck{}}
	sendRecvAlgorithms      = []Algorithm{Shift{}}
)

// Algorithms returns the article's single-level algorithms of c, the
// candidates of Fastest and NewRegimeGrid and the default of commlab model,
// in a slice of the caller's own (sorting or editing it changes no later
// call); nil for a collective that is not one.
func Algorithms(c Collective) []Algorithm {
	switch c {
	case AllReduce:
		return slices.Clone(allReduceAlgorithms)
	case ReduceScatter:
		return slices.Clone(reduceScatterAlgorithms)
	case AllGather:
		return slices.Clone(allGatherAlgorithms)
	case Broadcast:
		return slices.Clone(broadcastAlgorithms)
	case AllToAll:
		return slices.Clone(allToAllAlgorithms)
	case SendRecv:
		return slices.Clone(sendRecvAlgorithms)
	}
	return nil
}

// Options are the parameters some algorithms need beyond their name.
type Options struct {
	// PerNode is the node size of the two-level algorithms (GPUs per node).
	PerNode int
	// Inter is the AllReduce hierarchical AllReduce runs between nodes, as
	// HierarchicalAllReduce.Inter: nil means Ring.
	Inter Algorithm
	// Chunks is the number of chunks C a pipelined algorithm cuts its buffer
	// into (per half for tree and nvlstree), copied to its Chunks field. 0
	// gives the form without a chunk count: the fluid limit of tree,
	// nvlstree and collnet-chain (NCCL's own form of their time). The
	// pipelined broadcast has no such form and needs C >= 2.
	Chunks int
}

// ncclSpellings are NCCL's names of its algorithms, lower-cased, where
// they differ from Lookup's.
var ncclSpellings = map[string]string{"collnetdirect": "collnet-direct", "collnetchain": "collnet-chain"}

// Lookup returns the algorithm of collective c called name (as the CLI spells
// it: ring, halving-doubling, two-shot, one-shot, direct, pairwise, bruck,
// shift, pipelined, hierarchical, and NCCL's tree, nvls, nvlstree, collnet-direct,
// collnet-chain and pat). "hierarchical", "nvlstree" and the collnets need
// opt.PerNode >= 1; the tree takes opt.PerNode (0 means one GPU per node),
// nvls opt.PerNode (0 means one node), hierarchical AllReduce opt.Inter, an
// AllReduce other than hierarchical, and the pipelines (tree, nvlstree,
// collnet-chain, pipelined) opt.Chunks. NCCL's own spellings of its
// algorithms (CollNetDirect, CollNetChain, NVLSTree, as predict names a
// prediction's Algorithm and NCCL_ALGO takes them) name the same.
func Lookup(c Collective, name string, opt Options) (Algorithm, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if n, ok := ncclSpellings[name]; ok {
		name = n
	}
	switch {
	case name == "hierarchical" && (c == AllReduce || c == AllToAll):
		if opt.PerNode < 1 {
			return nil, fmt.Errorf("hierarchical %s needs the GPUs per node (got %d)", c, opt.PerNode)
		}
		if c == AllToAll {
			return HierarchicalAllToAll{PerNode: opt.PerNode}, nil
		}
		if in := opt.Inter; in != nil && (in.Collective() != AllReduce || in.Name() == "hierarchical") {
			return nil, fmt.Errorf("inter-node algorithm %s of %s: want an AllReduce other than hierarchical", in.Name(), in.Collective())
		}
		return HierarchicalAllReduce{PerNode: opt.PerNode, Inter: opt.Inter}, nil
	case name == "tree" && c == AllReduce:
		if opt.PerNode < 0 || opt.Chunks < 0 {
			return nil, fmt.Errorf("tree: %d GPUs per node, %d chunks; want non-negative", opt.PerNode, opt.Chunks)
		}
		return Tree{PerNode: opt.PerNode, Chunks: opt.Chunks}, nil
	case name == "nvls" && c == AllReduce:
		if opt.PerNode < 0 {
			return nil, fmt.Errorf("nvls: %d GPUs per node; want non-negative", opt.PerNode)
		}
		return NVLS{PerNode: opt.PerNode}, nil
	case name == "nvlstree" && c == AllReduce:
		if opt.PerNode < 1 || opt.Chunks < 0 {
			return nil, fmt.Errorf("nvlstree needs the GPUs per node and non-negative chunks (got %d, %d)", opt.PerNode, opt.Chunks)
		}
		return NVLSTree{PerNode: opt.PerNode, Chunks: opt.Chunks}, nil
	case (name == "collnet-direct" || name == "collnet-chain") && c == AllReduce:
		if opt.PerNode < 1 || opt.Chunks < 0 {
			return nil, fmt.Errorf("%s needs the GPUs per node and non-negative chunks (got %d, %d)", name, opt.PerNode, opt.Chunks)
		}
		if name == "collnet-direct" {
			return CollNetDirect{PerNode: opt.PerNode}, nil
		}
		return CollNetChain{PerNode: opt.PerNode, Chunks: opt.Chunks}, nil
	case name == "pipelined" && c == Broadcast:
		if opt.Chunks < 2 {
			return nil, fmt.Errorf("pipelined broadcast needs at least 2 chunks (got %d)", opt.Chunks)
		}
		return PipelinedBroadcast{Chunks: opt.Chunks}, nil
	}
	for _, a := range Algorithms(c) {
		if a.Name() == name {
			return a, nil
		}
	}
	switch {
	case name == "pat" && c == AllGather:
		return PATAllGather{}, nil
	case name == "pat" && c == ReduceScatter:
		return PATReduceScatter{}, nil
	}
	return nil, fmt.Errorf("unknown %s algorithm %q (want %s)", c, name, strings.Join(Names(c), ", "))
}

// Names lists the algorithm names Lookup accepts for c.
func Names(c Collective) []string {
	var names []string
	for _, a := range Algorithms(c) {
		names = append(names, a.Name())
	}
	switch c {
	case AllReduce:
		names = append(names, "hierarchical", "tree", "nvls", "nvlstree", "collnet-direct", "collnet-chain")
	case AllToAll:
		names = append(names, "hierarchical")
	case AllGather, ReduceScatter:
		names = append(names, "pat")
	case Broadcast:
		names = append(names, "pipelined")
	}
	return names
}
