package presets

import "github.com/inframethod/commlab/commmodel"

// NCCLHopperNVLinkBW is the bandwidth NCCL's topology model assigns one NVLink
// of a Hopper GPU, in bytes per second (SM90_NVLINK_BW = 20.6 GB/s in NCCL's
// src/graph/topo.h).
const NCCLHopperNVLinkBW = 20.6e9

// H20NICLineRate is one NIC of the article's server in bytes per second: a
// bond of 2 x 200 Gb/s ports, the article's "400G", 400e9/8 = 50 GB/s.
const H20NICLineRate = 400e9 / 8

// The article's fabrics. Treat them as constants.
var (
	// H20NVSwitch is the article's 8 x H20 node as a switched fabric: 18
	// NVLinks per GPU into NVSwitch (nvidia-smi's NV18) at NCCL's Hopper
	// per-link figure, egress 18 · 20.6 GB/s = 370.8 GB/s, with H20Intra's
	// alpha.
	H20NVSwitch = commmodel.Fabric{Kind: commmodel.Switched, P: 8, Links: 18, LinkBW: NCCLHopperNVLinkBW, Alpha: H20Intra.Alpha}

	// Ascend910B is the HCCS fabric of an 8-NPU Ascend 910B server as the
	// article describes it: a point-to-point full mesh, 7 links per NPU, one
	// to each peer. LinkBW is a placeholder of 1 B/s: the article's statement
	// is a ratio, which does not depend on it; set it for absolute times.
	Ascend910B = commmodel.Fabric{Kind: commmodel.FullMesh, P: 8, Links: 7, LinkBW: 1}
)
