package topo

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

// Rails returns the rails of a cluster of nodes copies of t, one per GPU
// index. It panics if nodes < 1.
func (t *Topology) Rails(nodes int) []Rail {
	if nodes < 1 {
		panic("topo: Rails needs at least one node")
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
