package presets

import "github.com/inframethod/commlab/commmodel"

// The article's links for the 8 x H20 server. Treat them as constants.
var (
	// H20Intra is the NVLink link inside the 8 x H20 node.
	//
	// Alpha: the article puts ring AllReduce at P = 8 at "14 steps = 28 us",
	// so α = 28 us / 14 = 2 us.
	//
	// BW: the article says moving 1 MB in that ring takes "only 5 us". The ring
	// sends 2(P-1)/P·S = 1.75 MB per rank, so BW = 1.75e6 B / 5e-6 s = 350 GB/s.
	// The same value makes the article's one-shot/two-shot crossover hold:
	// S* = α·BW/((P-1) - 2(P-1)/P) = 2e-6·350e9/5.25 = 133 kB, its "~130 KB".
	// (nccl-tests reports H20 ring AllReduce bus bandwidth near 360 GB/s.)
	H20Intra = commmodel.Link{Alpha: 2e-6, BW: 350e9}

	// H20Inter is the RDMA link between two such nodes, per GPU.
	//
	// The article states that across nodes "egress ÷17.5, α ×7.5" relative to
	// the intra-node link: α = 7.5 · 2 us = 15 us and BW = 350 GB/s / 17.5 =
	// 20 GB/s. (For comparison, the NIC arithmetic: a 2 x 200 Gb/s bond is
	// 50 GB/s, shared by the two GPUs of one NUMA pair, 25 GB/s per GPU.)
	H20Inter = commmodel.Link{Alpha: 15e-6, BW: 20e9}
)

// H20Cluster returns nodes of the article's 8 x H20 server joined by its
// RDMA network: PerNode 8, H20Intra inside a node, H20Inter between nodes.
func H20Cluster(nodes int) commmodel.Cluster {
	return commmodel.Cluster{Nodes: nodes, PerNode: 8, Intra: H20Intra, Inter: H20Inter}
}

// links are the named Links, in the order LinkNames lists them.
var links = []struct {
	name string
	link *commmodel.Link
}{
	{"h20-intra", &H20Intra},
	{"h20-inter", &H20Inter},
}

// Link returns the Link called name, "h20-intra" (H20Intra) or "h20-inter"
// (H20Inter), and false for any other name.
func Link(name string) (commmodel.Link, bool) {
	for _, l := range links {
		if l.name == name {
			return *l.link, true
		}
	}
	return commmodel.Link{}, false
}

// LinkNames lists the names Link knows: "h20-intra", "h20-inter".
func LinkNames() []string {
	names := make([]string, len(links))
	for i, l := range links {
		names[i] = l.name
	}
	return names
}
