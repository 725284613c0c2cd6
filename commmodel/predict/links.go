package predict

import (
	"fmt"
	"slices"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// Links returns the textbook model's links of h (commmodel.Link, one
// channel, one alpha per step) for collective coll on hosts of perHost GPUs.
//
// intra is the link between two GPUs of a node: its bandwidth is one
// GPU's line rate to the others in one direction (intraBW: its NVLinks or
// Infinity Fabric links times one link's rate from the catalog, or its PCIe
// x16 link on a PCIe host), on a mesh only the links to the peers a GPU
// sends to (intraShare: the run's perHost−1 peers, 4 of an HGX A100 4-GPU
// board's 12 for a run of 2; SendRecv's one neighbour, one of an MI300X's
// 7 Infinity Fabric links whatever perHost), or hostBW between cards
// without P2P (hostCopy), its
// alpha NCCL's per-step latency of Ring with Simple over NVLink, or over
// PCIe on a PCIe host.
//
// inter is one GPU's share of its host's NICs:
//
//	BW = min(perHost, NICs) · NICBW / perHost
//
// (hostNICs; one NIC per GPU where NICs is 0, at the generation's reference
// rate where NICBW is 0), its alpha NCCL's per-step latency of Ring with
// Simple over the network. The latencies are nccl.DefaultConstants of
// nccl.Latest (src/graph/tuning.cc), the protocol NCCL runs large messages
// with. An NVLink domain of several hosts has as many NICs per GPU as one
// of its hosts, so perHost is a host's GPUs, not the domain's; a perHost
// under 1 is taken as 1.
func (h *Hardware) Links(coll commmodel.Collective, perHost int) (intra, inter commmodel.Link) {
	perHost = max(perHost, 1)
	c := nccl.DefaultConstants(nccl.Latest)
	hw := nccl.HWNVLink
	if !h.Fabric.oneHop() {
		hw = nccl.HWPCI
	}
	const us = 1e-6
	bw := h.intraBW() * h.intraShare(coll, perHost)
	if h.hostCopy() {
		bw = h.hostBW() // through host memory: no P2P between the cards
	}
	intra = commmodel.Link{Alpha: c.HWLatency[hw][nccl.AlgoRing][nccl.Simple] * us, BW: bw}
	inter = commmodel.Link{Alpha: c.HWLatency[nccl.HWNet][nccl.AlgoRing][nccl.Simple] * us,
		BW: float64(h.hostNICs(1, perHost)) * h.nicBW() / float64(perHost)}
	return intra, inter
}

// Cluster returns the textbook model's cluster of h for collective c on
// ranks GPUs on hosts of perHost GPUs: its nodes are the NVLink domains that hold them
// (hosts of one domain are one node, as in predict's model), joined by the
// links of Links. It is ErrShape when ranks is not a whole number of
// hosts or the hosts do not split equally into domains.
func (h *Hardware) Cluster(c commmodel.Collective, ranks, perHost int) (commmodel.Cluster, error) {
	if perHost < 1 || ranks < 1 || ranks%perHost != 0 {
		return commmodel.Cluster{}, fmt.Errorf("%w: %d ranks on hosts of %d GPUs", ErrShape, ranks, perHost)
	}
	s, err := h.shapeOf(ranks/perHost, perHost)
	if err != nil {
		return commmodel.Cluster{}, err
	}
	intra, inter := h.Links(c, perHost)
	return commmodel.Cluster{Nodes: s.nodes, PerNode: s.per, Intra: intra, Inter: inter}, nil
}

// linkFacts are the facts Links reads.
var linkFacts = []string{"fabric", "links", "link_bw", "nics_per_node", "nic_bw"}

// AssumedLinkFacts returns the facts that Links rests on and
// that nothing the user gave confirms (Fact.Guessed), in Facts' order.
func (h *Hardware) AssumedLinkFacts() []Fact {
	var out []Fact
	for _, f := range h.Facts() {
		if f.Guessed() && slices.Contains(linkFacts, f.Name) {
			out = append(out, f)
		}
	}
	return out
}

// LinksNote says where the links the user gave (-hw links=N) are more than
// the catalog gives h's GPU, whose datasheet counts every link it has (an
// MI300X's 7 Infinity Fabric links, an H100's 18 NVLinks, an H100 PCIe's
// 12 on its bridge): the count is taken as given, and the note names the
// catalog's. "" otherwise: fewer links are a GPU's with some down.
func (h *Hardware) LinksNote() string {
	if h.Sources.NVLinks != SourceUser {
		return ""
	}
	g, err := nccl.ParseGPU(h.GPU.Name)
	if err != nil {
		return ""
	}
	most, kind := g.NVLinks, "NVLinks"
	if g.NVLinks == 0 {
		most, kind = g.BridgeLinks, "NVLinks on its bridge" // a PCIe card's, where one is fitted
	}
	if most == 0 || h.links() <= most {
		return ""
	}
	if g.ISA != "" {
		kind = "Infinity Fabric links"
	}
	return fmt.Sprintf("-hw links=%d: the catalog gives %s %d %s, every link of its datasheet, and no GPU of it has more; %d is taken as given (links=%d is the catalog's)",
		h.links(), g.Name, most, kind, h.links(), most)
}
