package topo

import "slices"

// NearestNICs returns the NICs at the smallest path distance from GPU g, in
// index order (several when they tie), or nil when t has no NICs or every
// path from g to a NIC is Unknown.
func (t *Topology) NearestNICs(g int) []int {
	var best []int
	var bestPath Path
	for n := range t.nics {
		p := t.GPUNIC(g, n)
		if p.Class == Unknown {
			continue
		}
		switch c := p.Compare(bestPath); {
		case best == nil || c < 0:
			best, bestPath = []int{n}, p
		case c == 0:
			best = append(best, n)
		}
	}
	return best
}

// NearestToGPU reports, for each NIC, whether it is nearest (NearestNICs)
// to at least one GPU: the NICs NCCL's graph search tries first, each
// GPU's local nets (ncclTopoSelectNets, src/graph/search.cc), and finds its
// graphs on. A NIC farther from every GPU than another NIC, such as a DGX
// A100's storage NICs, is not.
func (t *Topology) NearestToGPU() []bool {
	near := make([]bool, len(t.nics))
	for g := range t.gpus {
		for _, k := range t.NearestNICs(g) {
			near[k] = true
		}
	}
	return near
}

// NICsUsed returns how many NICs are nearest to a GPU (NearestToGPU), or
// every NIC where no GPU has a known path to one.
func (t *Topology) NICsUsed() int {
	n := 0
	for _, near := range t.NearestToGPU() {
		if near {
			n++
		}
	}
	if n == 0 {
		return len(t.nics)
	}
	return n
}

// NICAssignment gives every GPU its closest NIC (-1 if it has none), breaking
// ties so that GPUs spread over NICs:
//
//  1. A GPU with a single nearest NIC gets it.
//  2. The remaining GPUs, in index order, take the nearest NIC that has the
//     fewest GPUs so far, the lowest index among those.
//
// On the article's server GPU1, GPU3, GPU4 and GPU6 take their PIX NICs
// first; GPU0 and GPU2 tie between NIC0 and NIC1 at NODE and get NIC0 and
// NIC1; GPU5 and GPU7 get NIC2 and NIC3: two GPUs per NIC, GPU 2k and 2k+1 on
// NIC k.
func (t *Topology) NICAssignment() []int {
	out := make([]int, len(t.gpus))
	load := make([]int, len(t.nics))
	var tied []int
	for g := range t.gpus {
		near := t.NearestNICs(g)
		switch len(near) {
		case 0:
			out[g] = -1
		case 1:
			out[g] = near[0]
			load[near[0]]++
		default:
			tied = append(tied, g)
		}
	}
	for _, g := range tied {
		near := t.NearestNICs(g)
		pick := near[0]
		for _, n := range near[1:] {
			if load[n] < load[pick] {
				pick = n
			}
		}
		out[g] = pick
		load[pick]++
	}
	return out
}

// NearestNIC returns GPU g's closest NIC as NICAssignment chooses it, and the
// path to it; ok is false when g has no NIC.
func (t *Topology) NearestNIC(g int) (nic int, p Path, ok bool) {
	n := t.NICAssignment()[g]
	if n < 0 {
		return -1, Path{}, false
	}
	return n, t.GPUNIC(g, n), true
}

// NICGroups returns, for each NIC, the GPUs NICAssignment gives it, in index
// order: the GPUs that share that NIC.
func (t *Topology) NICGroups() [][]int {
	groups := make([][]int, len(t.nics))
	for g, n := range t.NICAssignment() {
		if n >= 0 {
			groups[n] = append(groups[n], g)
		}
	}
	return groups
}

// SharingNIC returns the GPUs that share GPU g's closest NIC, g included, in
// index order; nil if g has no NIC.
func (t *Topology) SharingNIC(g int) []int {
	n := t.NICAssignment()[g]
	if n < 0 {
		return nil
	}
	return t.NICGroups()[n]
}

// MaxGPUsPerNIC returns the largest number of GPUs any NIC serves under
// NICAssignment (0 without NICs): the factor by which NIC sharing divides a
// GPU's share of the network.
func (t *Topology) MaxGPUsPerNIC() int {
	m := 0
	for _, g := range t.NICGroups() {
		m = max(m, len(g))
	}
	return m
}

// SameNUMA reports whether devices a and b are on one NUMA node. It uses their
// NUMA nodes when both are known and otherwise their path: PIX, PXB, PHB and
// NODE stay within a node, SYS crosses nodes; known is false when neither
// tells (an NVLink or Unknown path between devices of unknown node).
func (t *Topology) SameNUMA(a, b Device) (same, known bool) {
	a, b = t.gpuOrNIC(a), t.gpuOrNIC(b)
	if a.NUMA >= 0 && b.NUMA >= 0 {
		return a.NUMA == b.NUMA, true
	}
	p := t.Path(a, b)
	if p.PCIe() {
		return p.SameNUMA(), true
	}
	return false, false
}

// gpuOrNIC returns t's own copy of d (with its NUMA node).
func (t *Topology) gpuOrNIC(d Device) Device { return *t.device(Device{Kind: d.Kind, Index: d.Index}) }

// NUMANodes returns the NUMA nodes of the topology's devices, ascending,
// without -1.
func (t *Topology) NUMANodes() []int {
	var out []int
	for _, d := range t.devices() {
		if d.NUMA >= 0 && !slices.Contains(out, d.NUMA) {
			out = append(out, d.NUMA)
		}
	}
	slices.Sort(out)
	return out
}

// OnNUMA returns the GPUs and NICs on NUMA node node, in index order.
func (t *Topology) OnNUMA(node int) (gpus, nics []int) {
	for _, d := range t.gpus {
		if d.NUMA == node {
			gpus = append(gpus, d.Index)
		}
	}
	for _, d := range t.nics {
		if d.NUMA == node {
			nics = append(nics, d.Index)
		}
	}
	return gpus, nics
}
