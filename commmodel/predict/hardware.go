package predict

import (
	"fmt"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/presets"
)

// cubeMesh reports that g comes on SXM2 boards (DGX-1, HGX-1: V100 SXM2
// and P100 SXM2), which join up to 8 GPUs by NVLinks of their own, without
// a switch: the hybrid cube-mesh, NV1 or NV2 to four peers each
// (topo/testdata/real/azure_nd40rs_v2_8gpu_cube_mesh.txt). Its fabric is a
// mesh; NVSwitch came with SXM3 (DGX-2).
func cubeMesh(g nccl.GPU) bool { return g.Name == "V100 SXM2" || g.Name == "P100 SXM2" }

// Hardware describes a machine as far as the model needs it: the GPU, how
// its GPUs are joined inside a host, and the host's NICs. It is the input of
// NCCL's tuning model (nccl.System) for every shape of the machine, and the
// source of the priors of the bandwidths. Sources says where each fact
// came from (Facts lists them). A field out of the range Describe takes (a
// negative count, a rate or ratio that is NaN, infinite or below its least,
// a GPU without a compute capability, a Fabric, NICPath or CPU that is none
// of its constants) makes every run of the Hardware, in Calibrate, Predict,
// Reference and the other functions that time a Query, fail with
// ErrHardware. The zero Hardware is such a description: start from
// DefaultHardware or Describe, which fill the GPU from its name.
type Hardware struct {
	// GPU is the product (nccl.ParseGPU).
	GPU nccl.GPU
	// Fabric is how a host's GPUs reach each other; the zero value is
	// FabricPCIe.
	Fabric Fabric
	// NVLinks overrides GPU.NVLinks: the NVLinks of one GPU; 0 keeps
	// GPU.NVLinks.
	NVLinks int
	// HostBW is the bus bandwidth of a Ring AllReduce between cards
	// without P2P that NCCL copies through host memory (hostCopy), B/s:
	// intra_bw's prior there; 0 means HostCopyBW (hostBW). Any other value
	// is held to the range of Describe's host-bw (Hardware's check): a
	// rate of Describe's, at most one link's, and where the cards copy
	// through host memory at most their PCIe figure.
	HostBW float64
	// NICs is the number of NICs per host; 0 means one per GPU.
	NICs int
	// RunNICs is the NICs that the ranks of a run of RunGPUs GPUs a host
	// drive on their host, where a log's channel lines show them
	// (nccltests.Evidence.RunNICs), else 0: NCCL's rings take the NICs
	// nearest the communicator's GPUs, so a run on part of a host drives
	// the NICs of that part (1 of 6 for 2 A100s behind one PCIe switch).
	// RunNICsLeast reports that the log holds some of its channels' lines
	// only, so that the host may drive more.
	RunNICs, RunGPUs int
	RunNICsLeast     bool
	// Channels is NCCL's runtime channel count (comm->nChannels) that a
	// log's "N coll channels" line gives for a run of ChannelsGPUs GPUs a
	// host, across nodes where ChannelsAcross, else 0 (WithEvidence). NCCL's
	// tuning model of a run of that shape takes the ring graph that gives
	// it (ringChannels): comm->nChannels is the ring graph's channels
	// doubled, and on Hopper across nodes doubled again (ncclTopoPostset,
	// NCCL 2.30.7 src/graph/connect.cc), while NCCL's bandwidth is the
	// graph's channels times its bwIntra (src/graph/tuning.cc). The
	// graph, not the runtime count, is what carries over to another node
	// count or NCCL release: the search is the same for every run across
	// nodes. channelsVersion is the release of the log's line (versionOf),
	// whose doubling rules give the graph; zero takes the run's.
	Channels, ChannelsGPUs int
	ChannelsAcross         bool
	channelsVersion        nccl.Version
	// NICBW is one NIC's line rate, B/s (400 Gb/s is 50e9); 0 means the
	// rate of the NICs of the GPU generation's reference system (100 Gb/s
	// before Ampere, 200 Gb/s on Ampere, 400 Gb/s from Hopper on).
	NICBW float64
	// NVLS reports NVLink SHARP (Hopper and later, with NVSwitch).
	NVLS bool
	// CollNet reports that the network's switches reduce (InfiniBand
	// SHARP, through a CollNet network plugin such as
	// nccl-rdma-sharp-plugins) and the jobs enable it
	// (NCCL_COLLNET_ENABLE=1): NCCL's CollNetDirect and CollNetChain run
	// across nodes, and NVLS across nodes too.
	CollNet bool
	// CPU is the host CPU (x86 Intel when zero).
	CPU nccl.CPU
	// NICPath is the path by which NCCL's ring enters and leaves a host,
	// between a GPU and a NIC, as NCCL types it (PIX when zero; a capture's
	// is topo.Topology.RingNICPath): beyond PXN (through the CPU, PHB or SYS) NCCL
	// does not run LL128 across nodes.
	NICPath nccl.PathType
	// Domain is the number of GPUs of one NVLink domain when it spans
	// hosts (multi-node NVLink, 72 in a GB200 or GB300 NVL72 rack); 0 means
	// one host. The model's nodes are NVLink domains: hosts of one domain
	// count as one node.
	Domain int
	// Group is the number of hosts under one switch of the network's
	// first tier (a fat tree's leaf, a rail group) or in one dragonfly
	// group; 0 means the network is not described beyond the NICs.
	// Oversubscription is the NICs' bandwidth over the group's uplinks (2
	// for a 2:1 leaf), the prior of the fabric_oversubscription parameter;
	// 0 means 1 (non-blocking).
	Group            int
	Oversubscription float64
	// NetLatency is the network's latency per step as a multiple of
	// NCCL's figure, the prior of inter_step_latency; 0 means the figure
	// of the library that runs the host (netLatency: RCCL's on an
	// Infinity Fabric host of 7 links a GPU, NCCL's elsewhere). A catalog
	// system gives it where a public log measured it.
	NetLatency float64
	// System is the catalog system (presets.Systems) whose facts the
	// description took, "" for none.
	System string
	// hostGPUs is the GPUs of one host. Where Sources.HostGPUs is the
	// catalog (a system's hosts, or the platform of an MI300- or
	// MI350-series GPU), a capture (SetTopology) or the user (Describe's
	// gpus key), it is the host's (hostKnown): a run of fewer GPUs a node
	// reaches only their share of the NICs (hostNICs), and on a mesh only
	// the links among them (runLinks). Where it is the log or assumed, it
	// is the most GPUs a host of some run holds (ForHosts: a table's or the
	// query's GPUs a node, the Rank lines' device indices, HostGPUs), which
	// the host holds at least: it bounds a mesh's links, but says nothing
	// of how many GPUs share the host's NICs (hostLeast). 0 where nothing
	// gives it.
	hostGPUs int
	// hostLeast reports that hostGPUs is that lower bound (atLeast), whatever
	// its source: the log's Rank lines, the user's pins or query, or an
	// assumption.
	hostLeast bool
	// nvlinkPairs reports that NVLink joins some GPUs of a PCIe fabric in
	// pairs, or XGMI in pairs or fours (a capture shows it, or -hw
	// pairs=true): bridged pairs, which
	// carry a share of a ring's bytes the PCIe fabric leaves out
	// (bridgeable).
	nvlinkPairs bool
	// sockets says where a table's NCCL_DEBUG=INFO lines show NCCL ran
	// over its socket transport ("LOG line N", with the interface where
	// the log names it), "" where none does (withSockets): the NICs' rate
	// is then the interface's, which no line prints.
	sockets string
	// slingshot reports that a table's OFI plugin drove HPE Slingshot NICs
	// (libfabric's cxi provider) whose rate no line gave (withSlingshot):
	// a Slingshot 11 NIC's assumed, and Slingshot 400's the other value.
	slingshot bool
	// topoFile is the NCCL_TOPO_FILE the catalog's system sets
	// (presets.System.TopoFile), whose PCIe tree NCCL reads in place of
	// the host's: a capture's NIC path is not NCCL's there (SetTopology).
	topoFile string
	// beforeTopo are the NIC path and its source a capture replaced
	// (SetTopology), which a log's NCCL_TOPO_FILE gives back
	// (withTopoFileEnv): the GPU's default (a GH200's P2C) or the
	// catalog's.
	beforeTopo struct {
		path   nccl.PathType
		source Source
	}
	// Sources says where each fact above came from.
	Sources Sources
}

// A Fabric is how a host's GPUs reach each other.
type Fabric int

const (
	// FabricPCIe joins the GPUs over PCIe, through a switch or the CPU.
	FabricPCIe Fabric = iota
	// FabricNVSwitch joins them through NVSwitch: every GPU reaches every
	// other in one hop on all its NVLinks (HGX and DGX boards of 8, and
	// with Domain the NVLink domains that span hosts).
	FabricNVSwitch
	// FabricMesh joins every pair of GPUs by NVLinks of its own, without
	// a switch (HGX A100 and H100 boards of 4, GH200 nodes of 4): no NVLS.
	FabricMesh
	// FabricInfinity is AMD Instinct's Infinity Fabric mesh, one or more
	// links from each GPU to each other.
	FabricInfinity
)

// fabricNames are the fabrics' names, as Describe's fabric key takes them.
var fabricNames = [...]string{FabricPCIe: "pcie", FabricNVSwitch: "nvswitch", FabricMesh: "mesh", FabricInfinity: "infinity"}

func (f Fabric) String() string {
	if f >= 0 && int(f) < len(fabricNames) {
		return fabricNames[f]
	}
	return fmt.Sprintf("Fabric(%d)", int(f))
}

// oneHop reports that every GPU reaches every other in one hop of its
// GPU links (a switch or a full mesh), which NCCL's tuning model and
// commmodel take alike: all of a GPU's links carry its egress.
func (f Fabric) oneHop() bool { return f != FabricPCIe }

// cx8NICBW is ConnectX-8's line rate, 800 Gb/s (its firmware release
// notes; the catalog's gb300-nvl72), which Blackwell Ultra's systems carry,
// one per GPU: DGX B300 eight, an NVL72 compute tray of GB300 four. Their
// networks run it at 800 Gb/s or at 400 (two ports of 400GbE): the public
// runs of GB300 across racks span both (Google's A4X Max fits 699 Gb/s;
// OCI's 32 hosts, data/logs/paired/gb300-nvl72, about 190 a GPU), so the
// rate stays the generation's 400 Gb/s, and 800 is the guess tried
// against it (blackwellUltra).
const cx8NICBW = 800e9 / 8

// blackwellUltra reports that g is a Blackwell Ultra GPU, B300 or GB300
// (compute capability 10.3), whose systems carry ConnectX-8 (cx8NICBW).
func blackwellUltra(g nccl.GPU) bool { return g.CompCap == 103 }

// nicRates are the line rates of the NICs NVIDIA's reference systems of
// each generation carry, B/s: DGX-2 eight 100 Gb/s EDR, DGX A100 eight
// 200 Gb/s HDR, DGX H100 and DGX B200 eight 400 Gb/s NDR (the DGX user
// guides' hardware overviews, docs.nvidia.com/dgx).
var nicRates = [nccl.NumArchs]float64{12.5e9, 25e9, 50e9, 50e9}

// DefaultHardware returns the hardware of a machine known only by its GPU
// name (as nccl-tests' Rank lines print it): an NVSwitch host when the GPU
// has NVLinks (an SXM board), but a direct mesh for GH200, whose nodes hold
// one, two (NVL2) or four superchips joined pair by pair (an NVL32 rack is
// an NVLink domain, given with -hw domain=32), NVLS from Hopper on with NVSwitch, one NIC per
// GPU at the line rate of the generation's reference system (nicRates; 200
// Gb/s for GH200, and one of 200 Gb/s per module of two GCDs for MI250X,
// as their public clusters run), and
// the NVL72 domain for GB200 and GB300; the CPU is x86 Intel, but Arm (the
// Grace of the board) for GH200, GB200, GB300 and GB10, and x86 AMD for
// MI250X (its clusters' EPYC). The NICs of GH200
// and GB200 hang off the Grace's PCIe, which a GPU reaches over
// NVLink-C2C: the path NCCL types P2C from 2.27 and PHB before
// (nccl.PathP2C; NCCL 2.27.3's release notes add P2C and LL128 over it
// "for platforms with C2C connectivity (e.g., GB200)"). GB300's
// ConnectX-8 NICs carry their own PCIe switch to the GPUs (NCCL's
// DirectNIC), and their path stays assumed. An AMD Instinct GPU's fabric
// and its lack of NVLS are the catalog's. It is an error for a name
// that nccl.ParseGPU does not know.
func DefaultHardware(gpuName string) (Hardware, error) {
	g, err := nccl.ParseGPU(gpuName)
	if err != nil {
		return Hardware{}, err
	}
	h := Hardware{GPU: g, NICBW: nicRates[nccl.ArchOf(g.CompCap)]}
	if g.Name == "GH200" {
		// The public GH200 clusters give each superchip a NIC of 200 Gb/s
		// (Alps' Slingshot 11, data/nccltests/testdata/real's Alps logs;
		// the HPE EX254n blade of the catalog), not Hopper's 400 Gb/s.
		h.NICBW = 200e9 / 8
	}
	switch {
	case g.ISA != "": // AMD Instinct: links to every other GPU of the host
		h.Fabric = FabricInfinity
	case g.Name == "GH200" || cubeMesh(g): // linked GPU to GPU, without a switch
		h.Fabric = FabricMesh
	case g.NVLinks > 0:
		h.Fabric = FabricNVSwitch
	}
	h.NVLS = h.Fabric == FabricNVSwitch && g.SupportsNVLS()
	h.Sources = Sources{GPU: SourceCatalog, NVLinks: SourceCatalog, LinkBW: SourceCatalog}
	if h.Fabric == FabricInfinity { // the modules' own links; NVLS and NVLink domains across hosts are NVIDIA's
		h.Sources.Fabric, h.Sources.NVLS, h.Sources.Domain = SourceCatalog, SourceCatalog, SourceCatalog
		if g.NVLinks == 7 {
			// The MI300 and MI350 series' 7 links join the 8 modules of
			// their platform, one a pair (the catalog's mi300x-platform and
			// kin): a run on fewer of them drives only their links
			// (runLinks).
			h.hostGPUs, h.Sources.HostGPUs = 8, SourceCatalog
		}
		if g.ISA == "gfx90a" {
			// MI250X and MI250 come as OAM modules of two GCDs, four to a
			// host (ROCm's MI250 microarchitecture page; the catalog's
			// hpe-ex235a-mi250x): 8 GPUs. The public MI250X clusters
			// (Frontier, LUMI, Adastra: HPE EX235a) give each module one
			// Slingshot NIC of 200 Gb/s and the host an AMD EPYC, which are
			// assumed.
			h.hostGPUs, h.Sources.HostGPUs = 8, SourceCatalog
			h.NICs, h.NICBW = 4, 200e9/8
			h.CPU = nccl.CPU{Arch: nccl.X86, Vendor: nccl.AMD}
		}
	}
	if !g.SupportsNVLS() && g.Known { // before Hopper, or AMD's: no NVLS whatever the fabric
		h.Sources.NVLS = SourceCatalog
	}
	if s, ok := rackOf(g.Name); ok {
		// A GB200 or GB300 is taken for its NVL72 rack's: an NVLink
		// domain of 72 GPUs across compute trays of 4, each a host, so
		// that a run of fewer GPUs a host is still 18 hosts a rack.
		h.Domain, h.hostGPUs = s.Domain, s.PerHost
		h.Sources.Domain, h.Sources.Fabric, h.Sources.HostGPUs = SourceCatalog, SourceCatalog, SourceCatalog
	}
	if graceSuperchip(g.Name) {
		h.CPU = armCPU
		h.Sources.CPU = SourceCatalog
	}
	if g.Name == "GH200" || g.Name == "GB200" {
		h.NICPath, h.Sources.NICPath = nccl.PathP2C, SourceCatalog
	}
	return h, nil
}

// graceSuperchip reports that the catalog's GPU name is a superchip of
// a GPU and NVIDIA's Grace CPU (Arm): GH200, GB200, GB300, GB10.
func graceSuperchip(name string) bool {
	return name == "GH200" || name == "GB200" || name == "GB300" || name == "GB10"
}

// rcclNetLatency is the network's latency per step that RCCL's tuner
// takes on the 8-module platforms of the MI300 and MI350 series, as a
// multiple of NCCL's: the Tree/LL step, which NCCL's model runs across
// nodes at small sizes, of RCCL's tuning model 5 (10.5 µs, ROCm/rccl
// src/graph/tuning.cc tuning_model_5, which src/graph/rome_models.cc
// gives these 8-GPU hosts of 7 links a module) over NCCL's (5.0 µs,
// nccl.DefaultConstants).
const rcclNetLatency = 10.5 / 5.0

// netLatency is NetLatency, or where it is 0 the figure of the library
// that runs the host: RCCL's (rcclNetLatency) on an Infinity Fabric host
// of 7 links a GPU, the catalog's or one described so, NCCL's (1)
// elsewhere.
func (h *Hardware) netLatency() float64 {
	switch {
	case h.NetLatency > 0:
		return h.NetLatency
	case h.Fabric == FabricInfinity && h.links() == 7:
		return rcclNetLatency
	}
	return 1
}

// nicBW is one NIC's line rate: NICBW, or the generation's reference
// rate (nicRates) where it is not given.
func (h *Hardware) nicBW() float64 {
	if h.NICBW > 0 {
		return h.NICBW
	}
	return nicRates[nccl.ArchOf(h.GPU.CompCap)]
}

// hostKnown reports that hostGPUs is the host's GPUs, as the catalog, a
// capture or the user gives them, not a lower bound from the runs.
func (h *Hardware) hostKnown() bool { return h.hostGPUs > 0 && !h.hostLeast }

// PerHost returns the GPUs of one host where the catalog, a capture or the
// user gives them (the fact gpus_per_node), else 0.
func (h *Hardware) PerHost() int {
	if h.hostKnown() {
		return h.hostGPUs
	}
	return 0
}

// atLeast returns h with a host of at least n GPUs, as the runs of source
// src show (a log's Rank lines, the user's pins or query), where the host's
// GPUs are not known, a capture shows fewer, or they are assumed (amdMesh).
// A bound that a log or the user gives replaces the same bound assumed.
func (h Hardware) atLeast(n int, src Source) Hardware {
	raise := n > h.hostGPUs && (h.Sources.HostGPUs == SourceTopo && h.given(src) || h.Sources.HostGPUs == SourceAssumed)
	if h.hostKnown() && !raise {
		// A capture that shows fewer GPUs than a run placed on one host
		// is of part of it (a container's): the run's count is the least.
		return h
	}
	if n > h.hostGPUs || n > 0 && n == h.hostGPUs && !h.given(h.Sources.HostGPUs) && h.given(src) {
		h.hostGPUs, h.Sources.HostGPUs, h.hostLeast = n, src, true
	}
	return h
}

// links returns the NVLinks of one GPU.
func (h *Hardware) links() int {
	if h.NVLinks > 0 {
		return h.NVLinks
	}
	return h.GPU.NVLinks
}

// intraBW is one GPU's intra-node line rate, B/s: its NVLinks times the
// datasheet's per-link bandwidth, or its PCIe x16 link (NCCL's figures of
// 12, 24, 48 GB/s for Gen3 to Gen5, NCCL 2.30.7 src/graph/topo.cc) without
// NVSwitch. It bounds intra_bw (implausible) and is its prior where NCCL's
// tables do not know the links (Machine.intraPrior).
func (h *Hardware) intraBW() float64 {
	if h.Fabric.oneHop() && h.links() > 0 && h.GPU.NVLinkBW > 0 {
		return float64(h.links()) * h.GPU.NVLinkBW
	}
	return nccl.PCIeBW(h.GPU.PCIeGen)
}

// hostCopy reports that a host's GPUs reach each other through host
// memory, not P2P: PCIe cards the catalog gives no P2P (nccl.GPU.NoP2P,
// GeForce RTX 40 and 50), whose link nothing stronger than the catalog
// describes. A user's -hw pcie=GEN (or link-bw, links) describes the link
// and takes the cards as joined at its rate, P2P as a patched driver gives
// it.
func (h *Hardware) hostCopy() bool {
	weak := h.Sources.LinkBW == SourceCatalog || !h.given(h.Sources.LinkBW)
	return h.GPU.NoP2P && h.Fabric == FabricPCIe && h.links() == 0 && weak
}

// hostBW is intra_bw's prior between cards without P2P (hostCopy): the
// rate the user gave (HostBW), else HostCopyBW, at most the cards' PCIe
// figure (intraBW), which bounds intra_bw.
func (h *Hardware) hostBW() float64 {
	bw := HostCopyBW
	if h.HostBW > 0 {
		bw = h.HostBW
	}
	return min(bw, h.intraBW())
}

// runLinks returns the GPU links that one GPU of a run of k GPUs a host
// drives, sending to all its k−1 peers at once (sendLinks).
func (h *Hardware) runLinks(k int) int { return h.sendLinks(k, k-1) }

// sendLinks returns the GPU links that carry what one GPU of a run of k
// GPUs a host sends at once to peers of the run's other GPUs. On a mesh or
// Infinity Fabric host every pair of GPUs has links of its own, PairLinks
// = links/(G−1) of them on a host of G GPUs, and a send to one peer drives
// only its pair's (commmodel.FullMesh, Fabric.BW of fanout peers), so it
// is
//
//	PairLinks·peers = links·peers/(G−1)
//
// links: a run on k < G GPUs reaches its k−1 peers on links·(k−1)/(G−1),
// as NCCL sees it (its topology holds the communicator's GPUs alone and
// the NVLinks among them: ncclTopoAddPci skips a GPU of no rank, and
// ncclTopoAddNvLinks links a GPU only to GPUs it holds; NCCL 2.30
// src/graph/topo.cc), and SendRecv's send to its one neighbour (peers 1)
// has one pair's links whatever k: a point-to-point send takes the path
// between its two GPUs, the links that join them where there are some
// (src/graph/paths.cc ncclTopoComputePaths; a path through a third GPU,
// PATH_NVB, joins GPUs without a link of their own). G is the host's GPUs,
// or the most a host of some run holds (hostGPUs), and at least k. On a
// switch or PCIe, and for peers of all the host's others, it is all of a
// GPU's links.
func (h *Hardware) sendLinks(k, peers int) int {
	n := h.links()
	if g := max(h.hostGPUs, k); (h.Fabric == FabricMesh || h.Fabric == FabricInfinity) && peers >= 1 && peers < g-1 {
		n = max(n*peers/(g-1), 1)
	}
	return n
}

// amdMesh returns h, an AMD GPU the catalog lacks whose links join it to
// each peer (Infinity Fabric), on a host of its target's platform where
// the catalog holds GPUs of that target (nccl.ISAGPUs: an MI250X's 8 for
// gfx90a), else of links+1 GPUs (a full mesh of one link a pair, as the
// MI300 and MI350 series' platforms are), where nothing gives its GPUs:
// assumed, which a run of more raises (atLeast), so that a send
// to one peer drives its pair's links whatever the run's GPUs (sendLinks).
func (h Hardware) amdMesh() Hardware {
	if h.GPU.Known || h.Fabric != FabricInfinity || h.hostGPUs != 0 || h.links() == 0 {
		return h
	}
	h.hostGPUs, h.Sources.HostGPUs = h.meshHost(), SourceAssumed
	return h
}

// meshHost returns the GPUs a host of h's mesh holds as its GPU's
// platform gives it (platformGPUs), where its GPUs have the platform's
// links, else links+1: a full mesh of one link a pair.
func (h *Hardware) meshHost() int {
	if p, links := platformGPUs(h.GPU); p > 0 && links == h.links() {
		return p
	}
	return h.links() + 1
}

// Platform returns the GPUs of a host of h's GPU's platform as the catalog
// gives it (an MI300X's 8, or, for a GPU it lacks, its target's:
// platformGPUs), 0 where it gives none.
func (h *Hardware) Platform() int {
	p, _ := platformGPUs(h.GPU)
	return p
}

// platformGPUs returns the GPUs of a host of g's platform, as the catalog
// gives it for g or, for a GPU it lacks, for the first of its GPUs of g's
// target (nccl.ISAGPUs), and that GPU's links; 0 where it gives none.
func platformGPUs(g nccl.GPU) (gpus, links int) {
	name := g.Name
	if !g.Known {
		same := nccl.ISAGPUs(g.ISA)
		if len(same) == 0 {
			return 0, 0
		}
		name = same[0]
	}
	d, err := DefaultHardware(name)
	if err != nil || d.Sources.HostGPUs != SourceCatalog {
		return 0, 0
	}
	return d.hostGPUs, d.links()
}

// MeshNote says, where a mesh or Infinity Fabric host holds more GPUs than
// its GPU's platform as the catalog gives it, or, for an AMD GPU it lacks,
// than amdMesh assumes (meshHost: -hw gpus=16 of
// MI300X, whose 7 links join the 8 modules of its platform, or a capture of
// GPUs partitioned in CPX mode, 64 a host of 8 modules), that the model does
// not describe how the others meet, "" otherwise: partitions share their
// module's links, and the GPUs of several boards meet over PCIe, where the
// model takes each GPU's links as reaching every peer (sendLinks). A run of
// perHost GPUs a node holds a host of at least as many.
func (h *Hardware) MeshNote(perHost int) string {
	n, g := h.links(), max(h.hostGPUs, perHost)
	if h.Fabric != FabricMesh && h.Fabric != FabricInfinity || n == 0 {
		return ""
	}
	p, links := platformGPUs(h.GPU)
	holds := fmt.Sprintf("whose platform holds %d", p)
	switch {
	case p > 0 && (h.GPU.Known || links == n):
	case h.Fabric == FabricInfinity:
		// An AMD host without a platform of these links: a full mesh of
		// them, one link a pair (meshHost, as amdMesh assumes). NVIDIA's
		// meshes put several links on a pair, and grow into switches
		// (ForHosts): no such rule holds them.
		p, holds = n+1, fmt.Sprintf("whose %s join %d as a full mesh", counted(n, "link"), n+1)
	default:
		return ""
	}
	if p == 0 || g <= p {
		return ""
	}
	src := h.Sources.HostGPUs
	if perHost > h.hostGPUs {
		src = "the run's GPUs a node"
	}
	return fmt.Sprintf("a host of %d %s (%s), %s, with %s each cannot join every pair so: partitions of a GPU (CPX or DPX modes) share its links, and GPUs of several boards meet over PCIe, neither of which the model describes; it takes each GPU's links as reaching its peers, and its times may run short: -hw gpus=N gives the host's physical GPUs",
		g, h.GPU.Name, src, holds, counted(n, "link"))
}

// intraShare is the share of one GPU's links that carries its intra-node
// bytes of collective c in a run of k GPUs a host (sendLinks over all of
// them, of the peers it sends to at once, sendPeers): 1 but on a mesh,
// where a run that does not fill a host of known GPUs, or SendRecv's send
// to one neighbour, drives fewer.
func (h *Hardware) intraShare(c commmodel.Collective, k int) float64 {
	if n := h.links(); n > 0 {
		return float64(h.sendLinks(k, sendPeers(c, k))) / float64(n)
	}
	return 1
}

// sendPeers returns the peers one GPU of a run of k GPUs a host sends to at
// once within the host in collective c: the fanout of its grouped sends
// (p2pAlgorithm: SendRecv's Shift sends to one neighbour, AllToAll's Direct
// to all k−1), and k−1 for NCCL's collectives, whose channels the model
// takes over every pair's links.
func sendPeers(c commmodel.Collective, k int) int {
	if a := p2pAlgorithm(c); a != nil && k > 1 {
		return a.Cost(k, 1).Fanout
	}
	return k - 1
}

// InNCCLTables reports whether NCCL's tuning tables know h's GPUs and
// links as h describes them (ncclLinks): where they do not (an AMD
// Instinct, a GPU NCCL's tables lack, links the description changed),
// NCCL's uncalibrated model (Reference) times another machine, and the
// model at its priors (Uncalibrated), whose links are h's, stands in.
func (h Hardware) InNCCLTables() bool { return h.ncclLinks() }

// ncclLinks reports whether NCCL's tables know h's links as they are: an
// NVSwitch or NVLink mesh host of an NVIDIA GPU nccl.ParseGPU knows, with
// the links and rates it gives (NCCL's tables hold NVLink, not Infinity
// Fabric).
func (h *Hardware) ncclLinks() bool {
	g, err := nccl.ParseGPU(h.GPU.Name)
	return err == nil && g.ISA == "" && (h.Fabric == FabricNVSwitch || h.Fabric == FabricMesh) && g == h.GPU && (h.NVLinks == 0 || h.NVLinks == g.NVLinks)
}

// hostNICs returns the NICs of one node of hosts hosts of perHost GPUs:
// on each host, the fewest of
//
//   - the host's NICs (NICs; one per GPU where it is 0),
//   - the NICs a log's channel lines show a run of as many GPUs a host
//     driving (RunNICs, at RunGPUs: a least where the log holds some
//     channels' lines only, raised to what its tables moved across nodes
//     need, withRunNICsSpeed), or their share for a run of another
//     size, RunNICs·perHost/RunGPUs and at least 1 (nccl-tests#311's 2
//     GPUs on 1 NIC: 1 NIC for 1 GPU or 2, 2 for 4), else the share of the host's G
//     GPUs, NICs·perHost/G and at least 1 (NCCL takes the NICs nearest
//     the communicator's GPUs: a node of OCI BM.GPU4.8's 8 A100s reaches
//     all 16 NICs, one GPU 2, 2 GPUs of an 8-GPU host with 6 NICs 1).
//     G is hostGPUs where the catalog, a capture or the user gives it
//     (hostKnown). A host whose GPUs nothing gives holds at least the most
//     GPUs a host of the runs described holds (hostGPUs as a lower bound,
//     from ForHosts, at least perHost): each GPU of a run there has
//     NICs/hostGPUs NICs of its own, and at
//     least one, so that the 16 NICs given for a run of 8 GPUs a node are
//     theirs. With no run described, a GPU has one;
//
// in an NVLink domain of several hosts the hosts' NICs together.
// AllToAll's grouped sends use them all; SendRecv's cross the network at
// one GPU a node, on that GPU's NICs (hostNICs(1, 1)).
func (h *Hardware) hostNICs(hosts, perHost int) int {
	n := perHost
	switch {
	case h.RunNICs > 0 && perHost == h.RunGPUs:
		n = h.RunNICs
	case h.RunNICs > 0 && h.RunGPUs > 0:
		n = max(h.RunNICs*perHost/h.RunGPUs, 1)
	case h.NICs > 0 && h.hostGPUs > 0 && h.hostKnown():
		n = max(h.NICs*perHost/h.hostGPUs, 1)
	case h.NICs > 0 && h.hostGPUs > 0:
		n = perHost * max(h.NICs/max(h.hostGPUs, perHost), 1)
	}
	if h.NICs > 0 {
		n = min(n, h.NICs)
	}
	return n * hosts
}

// nics returns the NICs NCCL's algorithms drive from such a node under
// NCCL v: an NVLink domain of several hosts uses at most nccl.DomainNICs
// of its hosts' NICs, where NCCL's release notes give that limit.
func (h *Hardware) nics(hosts, perHost int, v nccl.Version) int {
	n := h.hostNICs(hosts, perHost)
	if most := nccl.DomainNICs(v); hosts > 1 && most > 0 {
		n = min(n, most)
	}
	return n
}

// groupNodes is the Group in the model's nodes of s: a group of hosts
// holds Group/hosts NVLink domains.
func (h *Hardware) groupNodes(s shape) int {
	if h.Group <= 0 {
		return 0
	}
	return max(h.Group/s.hosts, 1)
}

// mesh reports that the host's GPUs join pair by pair, with no switch
// NCCL counts (nccl.System.Mesh): a mesh or Infinity Fabric, but not where
// NVLS runs (on a switch, whatever fabric is assumed: a log's or the
// user's NVLS says so) or the host sits in an NVLink domain, whose hosts
// meet through NVLink switches (GH200 NVL32).
func (h *Hardware) mesh() bool {
	return h.Fabric.oneHop() && h.Fabric != FabricNVSwitch && !h.NVLS && h.Domain <= h.hostGPUs
}

// system is nccl.System for run r under NCCL v: its GPUs' links are those
// the run's GPUs a host drive (runLinks), and CollNet is set up where the
// machine or the run has it.
func (h *Hardware) system(r *run, v nccl.Version) nccl.System {
	s := r.shape
	nicBW := h.nicBW()
	links := h.NVLinks
	if run := h.runLinks(s.per / s.hosts); run != h.links() {
		links = run
	}
	return nccl.System{GPU: h.GPU, GPUsPerNode: s.per, Nodes: s.nodes, NVSwitch: h.Fabric.oneHop(), Mesh: h.mesh(),
		NVLinks: links, NICs: h.nics(s.hosts, s.per/s.hosts, v), NICBW: nicBW, NVLS: h.NVLS, CPU: h.CPU, NICPath: h.NICPath,
		CollNet: h.CollNet || r.collNet}
}

// ringChannels returns the ring graph's channel count that Channels gives
// for run r, 0 where it gives none: where r has ChannelsGPUs GPUs a host,
// crosses nodes as the log's run did (ChannelsAcross), and runs NCCL, not
// RCCL, whose channel rules the model does not follow. It is the most
// channels whose runtime count (nccl.RuntimeChannels, under the log's
// release, with CollNet's channels where r's machine enables it) does not
// exceed Channels, and at least one: 2 coll channels are a graph of 1, and
// so are 3 (with CollNet's half again, or without, the most below).
func (h *Hardware) ringChannels(r *run, rccl bool) int {
	s := r.shape
	if h.Channels <= 0 || rccl || s.hosts < 1 || s.per/s.hosts != h.ChannelsGPUs || (s.nodes > 1) != h.ChannelsAcross {
		return 0
	}
	v := h.channelsVersion
	if v == (nccl.Version{}) {
		v = r.version
	}
	cfg, err := h.system(r, v).Config(v)
	if err != nil {
		return 0
	}
	g := 1
	for n := 2; n <= h.Channels; n++ {
		withChannels(&cfg, n)
		if nccl.RuntimeChannels(cfg) <= h.Channels {
			g = n
		}
	}
	return g
}

// withChannels sets cfg's ring and tree graphs, and CollNet's chain, which
// NCCL holds to the ring's count, to n channels.
func withChannels(cfg *nccl.Config, n int) {
	cfg.Graphs.Ring.NChannels, cfg.Graphs.Tree.NChannels = n, n
	if cfg.Graphs.CollNetChain.NChannels > 0 {
		cfg.Graphs.CollNetChain.NChannels = n
	}
}

// config is the nccl.Config of run r on h (System.Config), its ring and
// tree graphs (and CollNet's chain, which NCCL holds to the ring's count)
// at the channels a log's line gives for r's shape (ringChannels).
func (h *Hardware) config(r *run, rccl bool) (nccl.Config, error) {
	cfg, err := h.system(r, r.version).Config(r.version)
	if err != nil {
		return cfg, err
	}
	if g := h.ringChannels(r, rccl); g > 0 {
		withChannels(&cfg, g)
	}
	return cfg, nil
}

// String describes h in one line ("H100 SXM, NVSwitch 18 NVLinks, NVLS, 8 NICs of 400 Gb/s").
func (h *Hardware) String() string {
	var b strings.Builder
	b.WriteString(h.GPU.Name)
	if g := h.PerHost(); g > 0 {
		fmt.Fprintf(&b, ", %d a host", g)
	}
	switch h.Fabric {
	case FabricInfinity:
		fmt.Fprintf(&b, ", Infinity Fabric mesh of %d links", h.links())
	case FabricNVSwitch:
		fmt.Fprintf(&b, ", NVSwitch %d NVLinks", h.links())
	case FabricMesh:
		fmt.Fprintf(&b, ", NVLink mesh of %d NVLinks", h.links())
	default:
		b.WriteString(", PCIe")
	}
	if h.NVLS {
		b.WriteString(", NVLS")
	}
	nics := "one NIC per GPU"
	if h.NICs > 0 {
		nics = counted(h.NICs, "NIC") + " per host"
	}
	fmt.Fprintf(&b, ", %s of %s", nics, formatBitRate(h.nicBW())) // a NIC's line rate, as its fact nic_bw says it
	if h.RunNICs > 0 {
		least := ""
		if h.RunNICsLeast {
			least = "at least "
		}
		fmt.Fprintf(&b, " (%s%d driven at %s a host)", least, h.RunNICs, counted(h.RunGPUs, "GPU"))
	}
	if h.NICPath != 0 && h.NICPath != nccl.PathPIX { // PIX is the zero path's meaning
		fmt.Fprintf(&b, " at %v", h.NICPath)
	}
	if h.CollNet {
		b.WriteString(", CollNet (SHARP)")
	}
	if h.Domain > 0 {
		fmt.Fprintf(&b, ", NVLink domains of %d GPUs", h.Domain)
	}
	if c := cpuOf(h.CPU); c.cpu != cpus[0].cpu { // not Intel
		fmt.Fprintf(&b, ", %s CPU", c.name)
	}
	if h.Group > 0 {
		o := h.Oversubscription
		if o <= 0 {
			o = 1
		}
		fmt.Fprintf(&b, ", groups of %d hosts at %g:1", h.Group, o)
	}
	return b.String()
}

// rackOf returns the catalog's system whose NVLink domain spans hosts of
// the GPU named gpu (an NVL72 rack of GB200s), and false where none does.
func rackOf(gpu string) (presets.System, bool) {
	for _, s := range presets.Systems {
		if s.Domain > 0 && s.GPU == gpu {
			return s, true
		}
	}
	return presets.System{}, false
}
