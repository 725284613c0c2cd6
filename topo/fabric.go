package topo

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/presets"
)

// MaxNVLinksPerGPU is the most NVLinks any NVIDIA GPU has (18 on Hopper and
// Blackwell). nvidia-smi reports, for each GPU pair, the NVLinks that connect
// them; behind NVSwitch every pair shows all of a GPU's links, so the counts
// summed over a GPU's peers exceed what a GPU can have.
const MaxNVLinksPerGPU = 18

// InferFabric describes how t's GPUs are wired, with LinkBW and Alpha left 0:
//
//   - every GPU pair NV<n> with the same n, and n·(P-1) > MaxNVLinksPerGPU:
//     Switched (NVSwitch), n links per GPU;
//   - every GPU pair NV<n> with the same n otherwise: FullMesh, n·(P-1)
//     links per GPU, n to each peer;
//   - NVLinks that join every GPU to every other, directly or through
//     others, as many a GPU but unevenly pair by pair (DGX-1's hybrid
//     cube-mesh, NVLinkGraph): FullMesh of those links per GPU, which
//     NCCL's rings run over;
//   - every GPU pair XGMI (rocm-smi --showtopo, ParseROCm): FullMesh of
//     one link to each peer, P-1 a GPU. rocm-smi prints no link count, so
//     that count is an assumption (AllXGMI), the MI300 and MI350 series'
//     platform of 8 (7 links a GPU, one to each peer) and not an MI250X's
//     GCDs (4 links each, some pairs joined by several and some by none);
//   - anything else (no NVLink, or pairs of GPUs no NVLink joins to each
//     other): SharedPCIe, one link per GPU, the conservative model of the
//     pairs without NVLink.
//
// A topology with fewer than two GPUs is Switched with no links.
func InferFabric(t *Topology) commmodel.Fabric {
	p := len(t.gpus)
	f := commmodel.Fabric{Kind: commmodel.SharedPCIe, P: p, Links: 1}
	if p < 2 {
		return commmodel.Fabric{Kind: commmodel.Switched, P: p}
	}
	if AllXGMI(t) {
		f.Kind, f.Links = commmodel.FullMesh, p-1
		return f
	}
	n := t.Path(t.gpus[0], t.gpus[1])
	for i := range p {
		for j := i + 1; j < p; j++ {
			if q := t.Path(t.gpus[i], t.gpus[j]); q.Class != NVLink || q != n {
				if links := NVLinkGraph(t); links > 0 {
					f.Kind, f.Links = commmodel.FullMesh, links
				}
				return f
			}
		}
	}
	if n.NVLinks*(p-1) > MaxNVLinksPerGPU {
		f.Kind, f.Links = commmodel.Switched, n.NVLinks
	} else {
		f.Kind, f.Links = commmodel.FullMesh, n.NVLinks*(p-1)
	}
	return f
}

// AllXGMI reports that t has two or more GPUs and every pair of them is
// XGMI (AMD's Infinity Fabric, as rocm-smi --showtopo types it).
func AllXGMI(t *Topology) bool {
	p := len(t.gpus)
	for i := range p {
		for j := i + 1; j < p; j++ {
			if t.Path(t.gpus[i], t.gpus[j]).Class != XGMI {
				return false
			}
		}
	}
	return p >= 2
}

// NVLinkGraph returns the NVLinks of each of t's GPUs where every GPU has
// the same number, summed over its peers, and the NVLinks join every GPU
// to every other, directly or through others: DGX-1's hybrid cube-mesh (6
// a GPU, NV1 or NV2 to four peers of seven), which NCCL rings over
// NVLink. It returns 0 where they do not (NVLink-bridged pairs, whose
// rings cross PCIe between the pairs), behind NVSwitch (every pair shows
// all of a GPU's links, more than MaxNVLinksPerGPU summed), or where t
// has fewer than two GPUs.
func NVLinkGraph(t *Topology) int {
	p := len(t.gpus)
	if p < 2 {
		return 0
	}
	links := -1
	reached := map[int]bool{0: true}
	for grew := true; grew; {
		grew = false
		for i := range p {
			for j := range p {
				if reached[i] && !reached[j] && t.Path(t.gpus[i], t.gpus[j]).Class == NVLink {
					reached[j], grew = true, true
				}
			}
		}
	}
	for i := range p {
		n := 0
		for j := range p {
			if q := t.Path(t.gpus[i], t.gpus[j]); i != j && q.Class == NVLink {
				n += q.NVLinks
			}
		}
		if links >= 0 && n != links || n == 0 || n > MaxNVLinksPerGPU {
			return 0 // uneven, none, or a switch's pairs, each showing all of a GPU's links
		}
		links = n
	}
	if len(reached) < p {
		return 0
	}
	return links
}

// DescribeFabric describes t's GPU fabric in a few words, as InferFabric
// infers it (commmodel.Fabric.String), except that a mesh whose pairs are
// joined unevenly (DGX-1's hybrid cube-mesh, NVLinkGraph) names the NVLinks
// its pairs show and how many peers each GPU reaches over them, "full-mesh,
// 8 GPUs, 6 links each (NV1 or NV2 to 4 of 7 peers, no NVLink to the
// rest)", not an average of links per peer that no pair of the capture has.
//
// An Infinity Fabric host (AllXGMI) is described as the capture shows it,
// "Infinity Fabric (XGMI) between every pair of 8 GPUs", and what rocm-smi
// does not show, its links, as an assumption.
func DescribeFabric(t *Topology) string {
	f := InferFabric(t)
	if AllXGMI(t) {
		return fmt.Sprintf("Infinity Fabric (XGMI) between every pair of %d GPUs; rocm-smi prints no link count: one link to each peer, %d a GPU, is assumed", f.P, f.Links)
	}
	if len(t.rocm) > 0 && f.Kind != commmodel.FullMesh {
		return fmt.Sprintf("%s, %d GPUs, no XGMI between every pair", f.Kind, f.P)
	}
	if f.Kind != commmodel.FullMesh {
		return f.String()
	}
	p := len(t.gpus)
	counts := map[int]bool{}
	least, most := p, 0
	for i := range p {
		peers := 0
		for j := range p {
			if q := t.Path(t.gpus[i], t.gpus[j]); i != j && q.Class == NVLink {
				counts[q.NVLinks] = true
				peers++
			}
		}
		least, most = min(least, peers), max(most, peers)
	}
	if len(counts) == 1 && least == p-1 {
		return f.String()
	}
	var nv []string
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		nv = append(nv, fmt.Sprintf("NV%d", n))
	}
	peers := fmt.Sprint(least)
	if most != least {
		peers = fmt.Sprintf("%d-%d", least, most)
	}
	rest := ""
	if least < p-1 {
		rest = ", no NVLink to the rest"
	}
	return fmt.Sprintf("full-mesh, %d GPUs, %d links each (%s to %s of %d peers%s)",
		p, f.Links, strings.Join(nv, " or "), peers, p-1, rest)
}

// Figures are the per-link numbers a topology does not carry.
type Figures struct {
	// NVLinkBW is one NVLink's bandwidth in one direction, in bytes per second
	// (NCCL models a Hopper NVLink as presets.NCCLHopperNVLinkBW, 20.6 GB/s).
	NVLinkBW float64
	// PCIeBW is one GPU's PCIe bandwidth in one direction, in bytes per second,
	// used when the GPUs have no uniform NVLink fabric.
	PCIeBW float64
	// NICBW is one NIC's line rate, in bytes per second (400 Gb/s = 50e9).
	NICBW float64
	// IntraAlpha and InterAlpha are the per-step latencies inside a node and
	// across nodes, in seconds.
	IntraAlpha, InterAlpha float64
}

// H20Figures are the article's server's figures: NCCL's Hopper NVLink
// (20.6 GB/s), the article's 400G NICs (50 GB/s), PCIe Gen5 x16 as NCCL
// rates it (nccl.PCIeBW, 48 GB/s, for completeness), and the article's alphas (2 us inside, 15 us across, from
// presets.H20Intra and H20Inter).
var H20Figures = Figures{
	NVLinkBW:   presets.NCCLHopperNVLinkBW,
	PCIeBW:     nccl.PCIeBW(5),
	NICBW:      presets.H20NICLineRate,
	IntraAlpha: presets.H20Intra.Alpha,
	InterAlpha: presets.H20Inter.Alpha,
}

// Levels are the two levels of a cluster of copies of one server, as the
// topology and the per-link figures give them.
type Levels struct {
	// Fabric is the intra-node fabric with its figures.
	Fabric commmodel.Fabric
	// Intra is the intra-node Link of an algorithm that drives all of a GPU's
	// links (Fabric.Link(P-1)); ask Fabric.Link for other fanouts.
	Intra commmodel.Link
	// GPUsPerNIC is the most GPUs that share one NIC (MaxGPUsPerNIC).
	GPUsPerNIC int
	// Inter is a GPU's share of the network: NICBW / GPUsPerNIC with
	// InterAlpha; the zero Link when the topology has no NIC.
	Inter commmodel.Link
}

// Ratio returns Intra.BW / Inter.BW, the quantity the article puts at 17.5.
func (l Levels) Ratio() float64 { return l.Intra.BW / l.Inter.BW }

// Levels turns t and fig into the intra- and inter-node Links. It is an error
// for fig to lack the bandwidth the fabric needs.
func (t *Topology) Levels(fig Figures) (Levels, error) {
	f := InferFabric(t)
	f.Alpha = fig.IntraAlpha
	switch f.Kind {
	case commmodel.SharedPCIe:
		f.LinkBW = fig.PCIeBW
	default:
		f.LinkBW = fig.NVLinkBW
	}
	if len(t.gpus) > 1 && !(f.LinkBW > 0) {
		return Levels{}, fmt.Errorf("topo: %s fabric needs a positive per-link bandwidth", f.Kind)
	}
	l := Levels{Fabric: f, Intra: f.Link(max(1, len(t.gpus)-1)), GPUsPerNIC: t.MaxGPUsPerNIC()}
	if l.GPUsPerNIC > 0 {
		if !(fig.NICBW > 0) {
			return Levels{}, fmt.Errorf("topo: NIC line rate must be positive")
		}
		l.Inter = commmodel.Link{Alpha: fig.InterAlpha, BW: commmodel.SharedNICBW(fig.NICBW, l.GPUsPerNIC)}
	}
	return l, nil
}
