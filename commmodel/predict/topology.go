package predict

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
)

// SetTopology takes what an `nvidia-smi topo -m` capture of one host
// settles, each fact with the source SourceTopo:
//
//   - the GPUs of the host (gpus_per_node), where it shows two or more: a
//     run on fewer drives their share of the NICs (hostNICs) and, on a
//     mesh, of the links (runLinks).
//   - the fabric and the NVLinks of one GPU (topo.InferFabric): NVSwitch
//     with the fewest links of a GPU into the switch; a mesh with the
//     fewest of a GPU summed over its peers (an Infinity Fabric host stays
//     one); PCIe where the GPUs lack an NVLink fabric that joins them all
//     (NVLink-bridged pairs, a GPU off the NVSwitch), the GPU's NVLinks
//     then left as they were. A capture of fewer than two GPUs shows no
//     fabric and leaves it. A GPU with links down shows fewer NVLinks
//     than the others (NV17 to every peer where the rest show NV18), and
//     the host's links are its count, not the others': every channel of
//     a ring, and of NVLS, enters and leaves every GPU, so the slowest
//     GPU's links bound them all. Fewer links than the catalog's GPU has
//     are links NCCL's tables do not hold (InNCCLTables), and the model at
//     its priors times the run, whose NVLink bandwidth is a share of the
//     links times their rate (Machine.intraPrior): one link of 18 down
//     costs 1/18 of it. NCCL's model on those links moves in the steps of
//     its search's per-channel speeds: on 8 H100s nccl.System.Graphs puts
//     the NVLS graph at 30 GB/s a channel on 17 links, 40 on 18, a
//     quarter less for one link of 18.
//     On PCIe, NVLink or XGMI between some GPUs (bridged pairs: NVLink
//     bridges, or MI210 cards on Infinity Fabric bridges of two or four,
//     topo.XGMIGroups) lifts PCIe's rate as a bound of the calibration
//     (bridgeable), as -hw pairs=true does.
//   - on a capture of AMD GPUs all joined by XGMI (rocm-smi --showtopo,
//     topo.AllXGMI): fabric infinity. rocm-smi prints no link count, so
//     the links a GPU are the catalog's where the GPU is known there (7
//     on the MI300 and MI350 series' platforms, 4 for an MI250X GCD),
//     else one to each peer of the capture, assumed (SourceAssumed).
//   - NVLS: off on a mesh or PCIe. A capture cannot show whether NVLink
//     SHARP is enabled, so on NVSwitch NVLS stays as it was, or, where the
//     capture turns the fabric into NVSwitch and nothing gave NVLS, takes
//     the GPU's default (nccl.GPU.SupportsNVLS, assumed).
//   - the NICs per host: those nearest to some GPU (topo.Topology.NICsUsed),
//     the NICs NCCL's graph search prefers (a GPU's local nets,
//     ncclTopoSelectNets in src/graph/search.cc), so a storage NIC no GPU
//     is nearest to does not count. A capture of one GPU, of a container
//     that sees one GPU of its host, cannot show the other GPUs' nearest
//     NICs: there every NIC counts. A run of fewer GPUs than the capture's
//     drives their share (hostNICs). And NICPath: the path by which
//     NCCL's ring enters and leaves the host (topo.Topology.RingNICPath):
//     NCCL's graph search types a graph's inter-node path by the farthest
//     GPU-NIC path its channels use (typeInter, src/graph/search.cc), a
//     channel enters at one GPU and leaves at another, by the same NIC or
//     (with two NICs or more) another, so each NIC the GPUs are nearest
//     to counts at its best pair of GPUs, and the worst of those NICs is
//     the host's: a host with a NIC per GPU runs its channels through
//     every GPU's NIC, and the NICs beyond the CPU are the ones that
//     switch LL128 off; PXN where NCCL relays through an NVLinked GPU. A
//     capture with no NICs, or no known GPU-NIC path, leaves them.
//
// A capture that may show part of its host (PartOfHost: a container given
// some of the host's GPUs and its network, fewer than a host is known to
// hold, whose NICs no GPU shown is nearest look like the rails of GPUs it
// does not show) is
// taken for its GPUs alone, as one of one GPU is: it sets no
// gpus_per_node, no NICs and no NIC path, and a fabric only where it holds
// for the whole host, NVSwitch (which only a switch gives) or PCIe (GPUs
// of the host no NVLink joins), with bridged pairs where it shows some.
// NVLinks that read as a mesh are some GPUs' of an NVSwitch host or of a
// mesh alike (two H100s joined by all 18 of their links), and leave the
// fabric, links and NVLS as they were. CaptureNote says so and names the
// -hw that settles them. A capture taken for the whole host reads two
// GPUs so joined as a mesh: no switch joins a host of four GPUs or fewer
// (ForHosts).
//
// A fact the user gave (SourceUser: -hw) stands against the capture, and
// kept names each such fact that the capture would have set otherwise. A
// nil t is no capture: h is left as it is.
func (h *Hardware) SetTopology(t *topo.Topology) (kept []string) {
	if t == nil {
		return nil
	}
	part := h.PartOfHost(t)
	if n := len(t.GPUs()); n >= 2 {
		switch {
		case part:
			// The host holds GPUs the capture does not show.
		case !h.hostKnown() || h.Sources.HostGPUs != SourceUser:
			h.hostGPUs, h.Sources.HostGPUs, h.hostLeast = n, SourceTopo, false
		case h.hostGPUs != n:
			kept = append(kept, fmt.Sprintf("gpus_per_node %d", n))
		}
		kept = append(kept, h.captureFabric(t, part)...)
	}
	if len(t.NICs()) == 0 || part {
		return kept
	}
	nics := len(t.NICs())
	if len(t.GPUs()) >= 2 {
		nics = t.NICsUsed() // shared by the host's GPUs (hostNICs)
	}
	if h.Sources.NICs != SourceUser {
		h.NICs, h.Sources.NICs = nics, SourceTopo
	} else if h.NICs != nics {
		kept = append(kept, fmt.Sprintf("nics_per_node %d", nics))
	}
	path := t.RingNICPath()
	switch {
	case path == nccl.PathDIS:
	case h.topoFile != "" && h.Sources.NICPath == SourceCatalog:
		// NCCL reads the system's topology file, not the host's tree
		// (TopoFileNote says so).
	case h.c2cNICs(path):
		// NCCL types the path over C2C, which the capture does not show
		// (C2CNote says so).
	case h.Sources.NICPath != SourceUser:
		if h.Sources.NICPath != SourceTopo {
			h.beforeTopo.path, h.beforeTopo.source = h.NICPath, h.Sources.NICPath
		}
		h.NICPath, h.Sources.NICPath = path, SourceTopo
	case h.NICPath != path:
		kept = append(kept, "nic_path "+path.String())
	}
	return kept
}

// captureFabric sets the fabric, NVLinks, NVLS and bridged pairs that
// capture t of two or more GPUs settles (SetTopology), part reporting that
// it may show part of its host, and returns what the user gave otherwise.
func (h *Hardware) captureFabric(t *topo.Topology, part bool) (kept []string) {
	if !topo.FabricKnown(t) {
		// Pairs of N/A cells, which may be the links: the capture settles
		// no fabric (FabricNotes says so), but where the fabric is PCIe
		// (the user's, or between cards that take an NVLink bridge), the
		// bridges it shows join their pairs.
		pcie := h.Fabric == FabricPCIe && (h.Sources.Fabric == SourceUser || h.bridgeable())
		if pcie && anyBridge(t) && !part && h.Sources.NVLinkPairs != SourceUser {
			h.nvlinkPairs, h.Sources.NVLinkPairs = true, SourceTopo
		}
		return nil
	}
	xgmi := topo.AllXGMI(t)
	f := topo.InferFabric(t)
	if part && f.Kind == commmodel.FullMesh && !xgmi {
		// The NVLinks among some of the host's GPUs: a pair behind
		// NVSwitch shows all its links as a pair joined directly does,
		// and a pair of a 4-GPU board a third of them.
		return nil
	}
	if h.Sources.Fabric == SourceUser || h.Sources.NVLinks == SourceUser {
		c := *h
		if c.setFabric(f, xgmi); c.Fabric != h.Fabric || c.links() != h.links() {
			kept = append(kept, fmt.Sprintf("fabric %s of %d NVLinks", c.Fabric, c.links()))
		}
	} else {
		h.setFabric(f, xgmi)
	}
	switch pairs := h.Fabric == FabricPCIe && anyBridge(t); {
	case part && !pairs:
		// The GPUs it does not show may be bridged pairs.
	case h.Sources.NVLinkPairs != SourceUser:
		h.nvlinkPairs, h.Sources.NVLinkPairs = pairs, SourceTopo
	case h.nvlinkPairs != pairs:
		kept = append(kept, fmt.Sprintf("nvlink_pairs %v", pairs))
	}
	return kept
}

// c2cNICs reports that the catalog gives h's NICs on a Grace CPU, which its
// GPU reaches over NVLink-C2C (nic_path P2C: GH200, GB200), and that a
// capture's path to them, path, runs through a CPU (PHB, NODE or SYS):
// nvidia-smi does not show C2C, and types the way through the CPU, where
// NCCL merges the GPU's C2C link and the CPU's PCIe into P2C
// (mergePathType, src/graph/paths.cc from 2.27) and runs GPUDirect RDMA
// over it (NCCL_NET_GDR_C2C, 1 by default). The catalog's P2C stands.
func (h *Hardware) c2cNICs(path nccl.PathType) bool {
	return h.Sources.NICPath == SourceCatalog && h.NICPath == nccl.PathP2C && path >= nccl.PathPHB && path != nccl.PathDIS
}

// C2CNote says where capture t shows its NICs through a CPU on a Grace
// host whose catalog path is P2C (c2cNICs): the catalog's stands. "" where
// it does not.
func (h *Hardware) C2CNote(t *topo.Topology) string {
	if t == nil || len(t.NICs()) == 0 || h.PartOfHost(t) {
		return ""
	}
	path := t.RingNICPath()
	if !h.c2cNICs(path) {
		return ""
	}
	return fmt.Sprintf("the capture shows the NICs through a CPU (its paths read as NCCL's %v): %s's GPU reaches the Grace CPU's NICs over NVLink-C2C, which nvidia-smi does not show, and NCCL types that path P2C from 2.27 and runs GPUDirect RDMA over it: the catalog's nic_path P2C stands (a table of the capture's devices gives nvidia-smi's paths); -hw nic-path=%v if NCCL finds the NICs there",
		path, h.GPU.Name, path)
}

// TopoFileNote says where capture t shows a NIC path other than the one
// the catalog's system gives from the NCCL_TOPO_FILE its images set
// (presets.System.TopoFile), which NCCL reads in place of the host's PCIe
// tree, as Azure's ND-series VMs do: the system's path stands
// (SetTopology). "" where they agree or no such file is set.
func (h *Hardware) TopoFileNote(t *topo.Topology) string {
	if t == nil || h.topoFile == "" || h.Sources.NICPath != SourceCatalog {
		return ""
	}
	path := t.RingNICPath()
	if path == nccl.PathDIS || path == h.NICPath {
		return ""
	}
	return fmt.Sprintf("the capture shows the NICs at %v from the GPUs, but %s's images set NCCL_TOPO_FILE=%s, whose PCIe tree NCCL reads in place of the host's (a VM's, as its hypervisor shows it): the catalog's nic_path %v stands; -hw nic-path=%v if the job runs without the file",
		path, h.System, h.topoFile, h.NICPath, path)
}

// HostSize returns the GPUs a host of h is known to hold, against which a
// capture is held (PartOfHost): the user's (-hw gpus=), a system's, the
// catalog's platform of the GPU (an MI300X's 8) or a capture's taken for
// the whole host; else the most a host of any of the catalog's systems
// with h's GPU holds (an H100's 8: DGX and HGX H100, beside the 4-GPU HGX
// H100), as no capture shows more GPUs than its host holds. 0 where none
// is known: a host assumed, or a lower bound from the runs, is no host
// size (hostKnown), and a GPU the catalog lacks is in none of its systems.
func (h *Hardware) HostSize() int {
	if h.hostKnown() && h.Sources.HostGPUs != SourceAssumed {
		return h.hostGPUs
	}
	n := h.Platform()
	if !h.GPU.Known {
		return n
	}
	for _, s := range presets.Systems {
		if g, err := nccl.ParseGPU(s.GPU); err == nil && g.Name == h.GPU.Name {
			n = max(n, s.PerHost)
		}
	}
	return n
}

// PartOfHost reports that capture t may show part of a host of h: fewer
// GPUs than its host is known to hold (CaptureHost), or with no host size
// known, and NICs that look like the rails of GPUs it does not show
// (topo.Topology.PartOfHost). SetTopology, CaptureNote and every command
// that takes a capture ask it, so that all take a capture alike.
func (h *Hardware) PartOfHost(t *topo.Topology) bool {
	return t != nil && t.PartOfHost(h.CaptureHost(t))
}

// CaptureHost returns the GPUs a host of h holds as capture t is held to
// them, by PartOfHost and by the NCCL_IB_HCA a capture gives
// (topo.Topology.IBHCAOf): t's own where its GPUs form a whole mesh
// (wholeMesh), else HostSize.
func (h *Hardware) CaptureHost(t *topo.Topology) int {
	if t != nil && h.wholeMesh(t) {
		return len(t.GPUs())
	}
	return h.HostSize()
}

// wholeMesh reports that capture t's GPUs are joined by a direct NVLink
// mesh that spends every NVLink of h's GPU (the catalog's count): each GPU
// reaches two or more others, its NVLinks summed over them its GPU's.
// Such a capture shows every NVLink peer of its GPUs, the whole of a mesh
// host (a 4-GPU HGX H100 board: NV6 to each of 3 peers, 18), whatever
// its NICs; a part of an NVSwitch host shows its GPUs' links to each peer
// (NV18), which no mesh of 3 or more GPUs sums to so few.
func (h *Hardware) wholeMesh(t *topo.Topology) bool {
	gpus := t.GPUs()
	l := topo.ReadNVLinks(t)
	if len(gpus) < 3 || l.Switched || !l.Joined || h.GPU.NVLinks == 0 {
		return false
	}
	for i, g := range gpus {
		peers := 0
		for j, o := range gpus {
			if j != i && t.Path(g, o).Class == topo.NVLink {
				peers++
			}
		}
		if peers < 2 || l.PerGPU[i] != h.GPU.NVLinks {
			return false
		}
	}
	return true
}

// CaptureNote says which facts of the host SetTopology leaves to the
// catalog or assumed because capture t may show part of its host
// (PartOfHost), and the -hw that settles them: its GPUs, NICs and NIC
// path, and the fabric where its GPUs' NVLinks read as a mesh. "" where t
// is taken for the whole host, or the user gave every fact it would name
// (-hw), as then none is left to the catalog or assumed.
func (h *Hardware) CaptureNote(t *topo.Topology) string {
	if t == nil || len(t.GPUs()) < 2 || !h.PartOfHost(t) {
		return ""
	}
	mesh := topo.InferFabric(t).Kind == commmodel.FullMesh && !topo.AllXGMI(t)
	given := h.Sources.HostGPUs == SourceUser && h.Sources.NICs == SourceUser && h.Sources.NICPath == SourceUser
	if given && (!mesh || h.Sources.Fabric == SourceUser) {
		return ""
	}
	var rails []string
	near := t.NearestToGPU()
	for i, n := range t.NICs() {
		if !near[i] {
			rails = append(rails, n.Name)
		}
	}
	left, keys := "its GPUs, NICs and NIC path", "gpus=G,nics=N,nic-path=PATH"
	if mesh {
		left, keys = "its GPUs, their fabric (NVLinks between some GPUs of an NVSwitch host or of a mesh read alike), NICs and NIC path", "gpus=G,fabric=nvswitch|mesh,nics=N,nic-path=PATH"
	}
	return fmt.Sprintf("the capture may show part of its host (a container given some of its GPUs): %s, no GPU's nearest, look like the rails of GPUs it does not show; %s are not taken from it: -hw %s settles them, or a capture of the host outside the container",
		words.And(rails), left, keys)
}

// setFabric sets the fabric, NVLinks and NVLS that f, the fabric of a
// capture, settles (SetTopology); xgmi says that the capture joins every
// pair of GPUs by XGMI, whose links it does not count.
func (h *Hardware) setFabric(f commmodel.Fabric, xgmi bool) {
	was := h.Fabric
	if xgmi {
		h.Fabric = FabricInfinity
		if !(h.GPU.Known && h.GPU.NVLinks > 0) {
			h.NVLinks, h.Sources.NVLinks = f.Links, SourceAssumed
		}
		h.NVLS, h.Sources.NVLS = false, SourceTopo
		h.Sources.Fabric = SourceTopo
		return
	}
	switch f.Kind {
	case commmodel.Switched:
		h.Fabric, h.NVLinks = FabricNVSwitch, f.Links
		h.Sources.NVLinks = SourceTopo
		if was != FabricNVSwitch && !h.given(h.Sources.NVLS) {
			h.NVLS, h.Sources.NVLS = h.GPU.SupportsNVLS(), SourceAssumed
		}
	case commmodel.FullMesh:
		h.NVLinks, h.Sources.NVLinks = f.Links, SourceTopo
		if h.Fabric != FabricInfinity {
			h.Fabric = FabricMesh
		}
		h.NVLS, h.Sources.NVLS = false, SourceTopo
	default:
		h.Fabric = FabricPCIe
		h.NVLS, h.Sources.NVLS = false, SourceTopo
	}
	h.Sources.Fabric = SourceTopo
}

// anyBridge reports that t shows NVLink or XGMI between some two of its
// GPUs.
func anyBridge(t *topo.Topology) bool {
	gpus := t.GPUs()
	for i := range gpus {
		for j := i + 1; j < len(gpus); j++ {
			if p := t.Path(gpus[i], gpus[j]); p.NVLinks > 0 || p.Class == topo.XGMI {
				return true
			}
		}
	}
	return false
}
