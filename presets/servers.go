package presets

import (
	"slices"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// A Server is a GPU server as the model sees it: GPUs per node (per NVLink
// domain for an NVL72 rack), the link between GPUs of a node, and the link
// between nodes, per GPU.
type Server struct {
	// Name is the preset's name ("dgx-h100").
	Name string
	// PerNode is the GPUs of one node.
	PerNode int
	// Intra and Inter are the links inside a node and between nodes.
	Intra, Inter commmodel.Link
	// Source says where the figures come from.
	Source string
}

// Cluster returns nodes of s joined by its network.
func (s Server) Cluster(nodes int) commmodel.Cluster {
	return commmodel.Cluster{Nodes: nodes, PerNode: s.PerNode, Intra: s.Intra, Inter: s.Inter}
}

// nvidiaServer builds a server of NVIDIA GPUs named gpu, one NIC of nicBW
// per GPU: the link inside a node is one GPU's NVLinks at the datasheet's
// rate (nccl.ParseGPU's table, in one direction), the link between nodes
// its NIC; each link's alpha is NCCL's per-step latency of Ring with Simple
// over NVLink or the network (nccl.DefaultConstants of the newest release),
// the protocol NCCL runs large messages with.
func nvidiaServer(name, gpu string, perNode int, nicBW float64, source string) Server {
	g, err := nccl.ParseGPU(gpu)
	if err != nil {
		panic("presets: " + err.Error())
	}
	c := nccl.DefaultConstants(nccl.Latest)
	us := 1e-6
	return Server{Name: name, PerNode: perNode,
		Intra:  commmodel.Link{Alpha: c.HWLatency[nccl.HWNVLink][nccl.AlgoRing][nccl.Simple] * us, BW: float64(g.NVLinks) * g.NVLinkBW},
		Inter:  commmodel.Link{Alpha: c.HWLatency[nccl.HWNet][nccl.AlgoRing][nccl.Simple] * us, BW: nicBW},
		Source: source}
}

// servers are the named servers, in the order ServerNames lists them.
var servers = []Server{
	{Name: "h20", PerNode: 8, Intra: H20Intra, Inter: H20Inter,
		Source: "the source article's 8 x H20 server (H20Intra, H20Inter)"},
	nvidiaServer("dgx-a100", "A100-SXM4-80GB", 8, 200e9/8,
		"DGX A100: 8 A100 SXM4 with 12 NVLinks, 8 ConnectX-6 HDR NICs of 200 Gb/s (DGX A100 user guide)"),
	nvidiaServer("dgx-h100", "H100 80GB HBM3", 8, 400e9/8,
		"DGX H100: 8 H100 SXM with 18 NVLinks, 8 ConnectX-7 NDR NICs of 400 Gb/s (DGX H100 user guide)"),
	nvidiaServer("dgx-b200", "B200", 8, 400e9/8,
		"DGX B200: 8 B200 with 18 NVLinks, 8 ConnectX-7 NICs of 400 Gb/s (DGX B200 user guide)"),
	nvidiaServer("gb200-nvl72", "GB200", 72, 400e9/8,
		"GB200 NVL72: one NVLink domain of 72 GB200 with 18 NVLinks each, a 400 Gb/s ConnectX-7 NIC per GPU between racks (GB200 NVL72 reference architecture)"),
}

// ServerByName returns the server preset of that name.
func ServerByName(name string) (Server, bool) {
	i := slices.IndexFunc(servers, func(s Server) bool { return s.Name == name })
	if i < 0 {
		return Server{}, false
	}
	return servers[i], true
}

// ServerNames lists the server presets.
func ServerNames() []string {
	names := make([]string, len(servers))
	for i, s := range servers {
		names[i] = s.Name
	}
	return names
}
