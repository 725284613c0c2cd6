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

// nvidiaServer is the server of the system named name (Systems): the link
// inside a node is one GPU's NVLinks at the datasheet's rate
// (nccl.ParseGPU's table, in one direction), the link between nodes a
// GPU's share of its host's NICs; each link's alpha is NCCL's per-step
// latency of Ring with Simple over NVLink or the network
// (nccl.DefaultConstants of the newest release), the protocol NCCL runs
// large messages with. A node is the NVLink domain where one spans hosts.
func nvidiaServer(name string) Server {
	sys, ok := SystemByName(name)
	if !ok {
		panic("presets: no system " + name)
	}
	g, err := nccl.ParseGPU(sys.GPU)
	if err != nil {
		panic("presets: " + err.Error())
	}
	perNode := sys.PerHost
	if sys.Domain > 0 {
		perNode = sys.Domain
	}
	c := nccl.DefaultConstants(nccl.Latest)
	us := 1e-6
	return Server{Name: name, PerNode: perNode,
		Intra:  commmodel.Link{Alpha: c.HWLatency[nccl.HWNVLink][nccl.AlgoRing][nccl.Simple] * us, BW: float64(g.NVLinks) * g.NVLinkBW},
		Inter:  commmodel.Link{Alpha: c.HWLatency[nccl.HWNet][nccl.AlgoRing][nccl.Simple] * us, BW: sys.NICBW * float64(sys.NICs) / float64(sys.PerHost)},
		Source: sys.Source}
}

// servers are the named servers, in the order ServerNames lists them.
var servers = []Server{
	{Name: "h20", PerNode: 8, Intra: H20Intra, Inter: H20Inter,
		Source: "the source article's 8 x H20 server (H20Intra, H20Inter)"},
	nvidiaServer("dgx-a100"),
	nvidiaServer("dgx-h100"),
	nvidiaServer("dgx-b200"),
	nvidiaServer("gb200-nvl72"),
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
