package commmodel

// The tests' hardware: the article's measured figures for its 8 x H20 server
// and the Ascend 910B mesh it compares with, the same numbers as package
// presets (H20Intra, H20Inter, H20Cluster, H20NVSwitch, Ascend910B), which
// derives each from the article and imports this package.
var (
	// h20Intra is NVLink inside the node: α = 28 us / 14 steps of the ring
	// at P = 8, BW = 1.75 MB / 5 us.
	h20Intra = Link{Alpha: 2e-6, BW: 350e9}
	// h20Inter is the RDMA network between nodes, per GPU: α ×7.5, BW ÷17.5.
	h20Inter = Link{Alpha: 15e-6, BW: 20e9}
	// h20NVSwitch is the node as a switched fabric: 18 NVLinks per GPU at
	// NCCL's Hopper figure of 20.6 GB/s, with h20Intra's α.
	h20NVSwitch = Fabric{Kind: Switched, P: 8, Links: 18, LinkBW: 20.6e9, Alpha: 2e-6}
	// ascend910B is a full mesh of 8 NPUs, one link to each peer, at a
	// placeholder 1 B/s per link.
	ascend910B = Fabric{Kind: FullMesh, P: 8, Links: 7, LinkBW: 1}
)

// h20Cluster is nodes of 8 GPUs, h20Intra inside a node and h20Inter
// between nodes.
func h20Cluster(nodes int) Cluster {
	return Cluster{Nodes: nodes, PerNode: 8, Intra: h20Intra, Inter: h20Inter}
}
