package topo

import "fmt"

// Rail is the set of same-index GPUs across the nodes of a cluster built from
// identical servers: in a rail-optimised network GPU g of every node reaches
// the others through its own NIC and one leaf switch, so traffic between
// same-index GPUs (the inter-node step of hierarchical algorithms) stays on
// one rail.
type Rail struct {
	// GPU is the local GPU index shared by the rail's members.
	GPU int
	// NIC is that GPU's closest NIC on every node (NICAssignment), -1 if none.
	NIC int
	// Ranks are the global ranks of the members, node-major: node k's GPU g is
	// rank k·P + g for P GPUs per node.
	Ranks []int
}

// MaxNodes is the most nodes Rails takes: as many as the counts predict's
// descriptions take (65536), more than any cluster NCCL runs on. Rails
// makes every rail's ranks, GPUs times nodes of them, so a count far
// beyond it would exhaust memory.
const MaxNodes = 1 << 16

// Rails returns the rails of a cluster of nodes copies of t, one per GPU
// index. It panics if nodes < 1 or nodes > MaxNodes.
func (t *Topology) Rails(nodes int) []Rail {
	if nodes < 1 || nodes > MaxNodes {
		panic(fmt.Sprintf("topo: Rails of %d nodes: want 1 to %d (MaxNodes)", nodes, MaxNodes))
	}
	assign := t.NICAssignment()
	p := len(t.gpus)
	out := make([]Rail, p)
	for g := range p {
		r := Rail{GPU: g, NIC: assign[g], Ranks: make([]int, nodes)}
		for k := range nodes {
			r.Ranks[k] = k*p + g
		}
		out[g] = r
	}
	return out
}
