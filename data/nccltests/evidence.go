package nccltests

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/parseerr"
)

// A Fact is one value a log states, with the 1-based line it was read
// from; Line 0 means the log does not state it (Value is then the zero
// value). When several lines state it (every rank prints its own), the
// first is kept.
type Fact[T any] struct {
	Value T
	Line  int
}

// Known reports whether the log states the fact.
func (f Fact[T]) Known() bool { return f.Line > 0 }

// set records v from line n unless the fact is known.
func (f *Fact[T]) set(v T, n int) {
	if f.Line == 0 {
		f.Value, f.Line = v, n
	}
}

// Evidence is what a log says of the machine and of NCCL beside the table:
// the "#  Rank" lines of nccl-tests, and the lines NCCL prints with
// NCCL_DEBUG=INFO (formats of NCCL 2.7 to 2.30, named in each field with
// the source file that prints them). Every field is a Fact or carries its
// own line. A debug line belongs to the test being set up: the lines
// between the start of a test and its first row, and those after the last
// row of the previous test.
type Evidence struct {
	// Devices are the "#  Rank" lines, one per rank listed.
	Devices []Device
	// GPUsPerHost is the number of ranks the Rank lines place on each
	// host, when every host listed has the same number (Line is that of
	// the first Rank line); unknown when they differ or are elided.
	GPUsPerHost Fact[int]

	// NCCLVersion is NCCL's version, "2.21.5", and CUDA the CUDA version
	// it was built for, "12.4": "NCCL version 2.21.5+cuda12.4" (init.cc
	// VERSION_STRING; a build of NCCL's dev branch puts its NCCL_SUFFIX
	// before "+cuda", "2.31.0a7+cuda13.0", read as 2.31.0). For RCCL it is the NCCL release RCCL's version
	// follows (RCCL 2.22.3 is NCCL 2.22.3 with AMD's changes): "RCCL
	// version : 2.22.3-HEAD:7d8d67c", which rccl-tests prints before the
	// table (src/init.cc from ROCm/rccl c755b9cf, ROCm 6.3), or "RCCL
	// version 2.20.5+hip6.2 HEAD:6b4f0e5" (src/init.cc of ROCm 5.5 to 6.2,
	// RCCL 2.15.5 to 2.20.5; "+hip6.2" is HIP's version, no CUDA).
	NCCLVersion, CUDA Fact[string]
	// Network is the network NCCL uses: "IB", "Socket", or a plugin's
	// name ("AWS Libfabric", "Libfabric"): "Using network IB" (init.cc).
	Network Fact[string]
	// Provider is the libfabric provider of the OFI plugin (aws-ofi-nccl):
	// "efa", "cxi" (HPE Slingshot): "NET/OFI Selected Provider is efa".
	Provider Fact[string]
	// Platform is the EC2 instance type aws-ofi-nccl names when it reads
	// the machine's DMI product name, in lower case ("p4d.24xlarge",
	// "p5en.48xlarge"): "NET/OFI Running on p5.48xlarge platform, ...".
	// The plugin prints that line where it sets or keeps NCCL_TOPO_FILE, in
	// three forms: "..., Setting NCCL_TOPO_FILE environment variable to
	// PATH" (src/nccl_ofi_net.c from commit 29883586, v1.3.0, then
	// src/platform-aws.c to v1.15), "..., NCCL_TOPO_FILE environment
	// variable is already set to PATH" (src/platform-aws.c from 0b31e6f6,
	// v1.6.0), and "..., topology file PATH" (src/platform-aws.cpp from
	// 0f894680, v1.16.0). Releases v1.1.1 (35d97d28) to v1.2 print
	// "Running on P4d platform" only where the product name is
	// p4d.24xlarge (platform_type_matches in src/nccl_ofi_net.c), so "P4d"
	// reads as p4d.24xlarge.
	Platform Fact[string]
	// PluginSimple is the reason the OFI plugin (aws-ofi-nccl) gives where
	// it asks for NCCL_PROTO=simple, "" where it gives none. From v1.16:
	// "NET/OFI Need to force simple protocol: GDR not supported" reads
	// "GDR", and a provider that does not deliver a message's bytes in
	// order gives "byte delivery ordering" (src/nccl_ofi_net.cpp at
	// 2daf7d30); v1.15: "Setting NCCL_PROTO='simple' to prevent data
	// corruption (reason: GDR not supported)" (d809a881); before it,
	// "Setting NCCL_PROTO to \"simple\"" (928153f3), or, v1.7 to v1.14, a
	// warning where the job's LL or LL128 stood, "NCCL_PROTO was set to
	// \"LL/LL128\", but the Libfabric endpoint does not support 128 byte
	// in-order aligned stores. This endpoint may corrupt data during
	// communication" (with PluginProtoKept at the same line). LL and LL128 poll flags in the data, which such a
	// transport may write out of order: the plugin asks for Simple for
	// correctness, and NCCL then reads NCCL_PROTO from the environment as
	// if the job had set it (Proto).
	PluginSimple Fact[string]
	// PluginProtoKept is the OFI plugin's line where an NCCL_PROTO the job
	// set, other than Simple, stood against the Simple it asked for: from
	// v1.16 "NET/OFI Skipping adding NCCL_PROTO=LL to environment, already
	// set" (its format prints the environment's whole entry; include/
	// nccl_ofi_environ.h at 2daf7d30), where it prints "Adding
	// NCCL_PROTO=simple to environment" where it set it (a job's own
	// Simple is the plugin's too: without it the plugin sets it); before
	// v1.15, the warning PluginSimple names. v1.15 prints nothing where
	// the job set it.
	PluginProtoKept Fact[bool]
	// PluginNoGDR is the OFI plugin's message where it turns GPUDirect
	// RDMA off itself, "Could not disable CUDA API usage for HMEM,
	// disabling GDR" (src/nccl_ofi_ofiutils.cpp): the provider's support
	// of GPU memory, not NCCL's GDR settings, decides it.
	PluginNoGDR Fact[string]
	// TunerPlugin is the external tuner plugin NCCL loaded, whose choices of
	// algorithm, protocol and channels replace its tuning model's: "Using
	// tuner plugin: 'nccl_ofi_tuner'" (NCCL 2.19 to 2.22), "TUNER/Plugin:
	// Using tuner plugin A3xTunerPlugin_v2", "TUNER/Plugin: Using
	// nccl_ofi_tuner (v3)" (src/plugin/tuner.cc). NCCL's "Using internal
	// tuner plugin" is none.
	TunerPlugin Fact[string]
	// NICs are the network devices NCCL lists on one host: "NET/IB : Using
	// [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE ...; OOB eth0:10.0.0.1<0>" (net_ib.cc,
	// net_ib/init.cc; a line cut before "; OOB" lists some only, and is not
	// read), each port of a merged device (NCCL 2.20 to 2.23 list a merged
	// device's ports so, and RCCL too: "[0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB}"),
	// "NET/Socket : Using [0]eth0:10.0.0.1<0> ..." (net_socket.cc). Their
	// speeds come from "NET/IB: [0] mlx5_0:uverbs0:1/IB provider=Mlx5
	// speed=400000 ..." (NCCL_DEBUG_SUBSYS=NET, from NCCL 2.24).
	NICs []NIC
	// NICCount is the number of NICs of a host as NCCL sees them: the
	// devices the IB or Socket line lists, less a container's or bridge's
	// virtual interfaces (veth..., docker...), else the groups the OFI
	// plugin makes of its provider's devices ("NET/OFI NIC group 7 device #3
	// 0000:c9:00.0", one NCCL device a group), else the count NCCL 2.30
	// prints of every rank's devices where all ranks have the same ("Local
	// Net device counts across ranks: min 8 max 8", init.cc, the network
	// plugin's devices() of each rank), else the devices the channel
	// lines of one host name (HostNets, the most of any host), the NICs
	// NCCL's channels use there: fewer than the host's when the run uses
	// part of the host or the log holds some channels only. Not counted:
	// aws-ofi-nccl's "Forcing AWS OFI ndev 4", which counts devices it
	// emulates over fewer NICs (one per two GPUs on a p3dn's single EFA
	// NIC), the provider's devices (PluginNICs), and the topology that
	// NCCL_DEBUG_SUBSYS=GRAPH prints (pasted logs often hold a part of it).
	NICCount Fact[int]
	// HostNets are the network devices that each host's channel lines name
	// ("gpu34:34088:34142 [0] NCCL INFO Channel 00/0 : 7[1] -> 0[0]
	// [receive] via NET/IBext_v8/1/GDRDMA", transport/net.cc; the host is
	// the line's prefix, debug.cc), one entry a host in the order of their
	// first lines. Lines without the prefix count as one host, "".
	// RunNICs reads them.
	HostNets []HostNet
	// PluginNICs is the OFI plugin's count of its provider's devices,
	// "Selected Provider is efa (found 4 nics)": a p4d's four EFA NICs, but
	// a p5's 32 EFA devices that the plugin groups into 8 NCCL devices, and
	// 8 on Perlmutter's nodes of 4 Slingshot NICs (cxi). It stands for the
	// NICs only where nothing else gives them.
	PluginNICs Fact[int]
	// NICBW is the bandwidth of one NIC in B/s: the first speed a
	// "NET/IB: [0] ... speed=400000" line gives (Mb/s there; where the
	// listed NICs' speeds differ, the speed most of them have, the slower
	// of two that as many have), or the
	// first NET link of the topology NCCL_DEBUG_SUBSYS=GRAPH prints ("+
	// NET[50.0] - NET/3 (...)", GB/s; graph/topo.cc ncclTopoPrintRec).
	NICBW Fact[float64]
	// GPUDirect reports GPUDirect RDMA between the GPUs and the NICs
	// ("Connected all rings, use ring PXN 0 GDR 0" says some connection
	// ran without it: one send that may not read GPU memory, as on GPUs
	// before compute capability 8.0 without NVLink, clears comm->useGdr,
	// transport/net.cc):
	// "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'" (graph/topo.cc
	// from 2.18, the NIC's support), "GPU Direct RDMA Enabled for GPU 18000
	// / HCA 0 (distance 4 <= 5), read 1" (graph/paths.cc 2.8 to 2.29, a
	// TRACE from 2.30), or "Disabled". NCCL checks every pair of the node's
	// GPUs and NICs in paths.cc (ncclTopoComputePaths), and prints
	// "Disabled for GPU 1b000 / HCA 0 (distance 5 > 3)" for a NIC too far
	// from a GPU that it uses another NIC beside: such a line says none only
	// where no other line says anything. A channel line's "/GDRDMA" says
	// GPUDirect RDMA too (transport/net.cc), and a receive's line without
	// it none (the receive writes GPU memory wherever ncclTopoCheckGdr
	// allows; a send reads it only where NCCL_NET_GDR_READ allows, so a
	// send's line without it says nothing). Each host's lines (the line's
	// prefix names the host; lines without one count as one host, "") give
	// its value, its first line's; where the hosts' values disagree, the
	// fact is unknown and the Reader reports ErrInconsistent naming a line
	// of each.
	GPUDirect Fact[bool]
	// NVLS reports NVLink SHARP: "NVLS multicast support is available on
	// dev 0", or "is not available" (transport/nvls.cc).
	NVLS Fact[bool]
	// Channels are NCCL's channel counts: "16 coll channels, 16 collnet
	// channels, 16 nvls channels, 16 p2p channels, 2 p2p channels per
	// peer" (init.cc; nvls from 2.17, collnet from 2.20). The collnet
	// count says nothing of CollNet: NCCL 2.20 prints the channels it
	// tried to set CollNet up on, and 2.21 on print comm->nChannels, the
	// coll count, whatever CollNet does (CollNet reads what does).
	Channels Fact[Channels]
	// CollNet reports whether NCCL set CollNet up (a network plugin's
	// collectives, such as SHARP's) for the communicator. "rank 0
	// Connected CollNet" (init.cc 2.12 to 2.20, transport/coll_net.cc from
	// 2.21) and "Collnet Chains [0] 1->0->-1" (init.cc 2.15 to 2.20;
	// "Connected Collnet Chains" from 2.21) say it did: NCCL prints them
	// only once every rank's CollNet connections are up
	// (ncclTransportCollNetCheck). "Cannot initialize CollNet, using
	// point-to-point network instead" (an NCCL WARN, transport.cc),
	// "Communicator has 1 nodes which is less than CollNet node threshold
	// 2, disabling CollNet" (init.cc) and "CollNet is not supported or
	// fails to initialize, ignoring NCCL_ALGO=COLLNET" (a WARN,
	// graph/tuning.cc to 2.20) say it did not, and outrank an earlier
	// line that says it did. The "/SHARP" that nccl-rdma-sharp-plugins
	// appends to its device list ("NET/IB : Using [0]mlx5_2:1/IB/SHARP")
	// marks every InfiniBand port of a plugin built with SHARP
	// (isSharpDev, src/p2p_plugin.c), not a CollNet set up, and is not
	// read.
	CollNet Fact[bool]
	// Rings is the number of ring channels, from "Channel 00/16 :  0  3
	// 1 ..." (graph/rings.cc, rank 0's; from 2.23 NCCL cuts the line to
	// 127 characters ending "...", from 38 ranks on), and Trees the
	// number of tree channels, from "Trees [0] 3/-1/-1->0->-1 [1] ..."
	// (init.cc). NCCL builds the tree line in 1023 bytes (1022 characters
	// after "Trees"), which 64 channels pass: a line cut there holds some
	// channels only, and gives no count.
	Rings, Trees Fact[int]
	// Ranks, Nodes and LocalRanks are the communicator's ranks, nodes and
	// ranks on this rank's node: "comm 0x55d3 rank 0 nRanks 16 nNodes 2
	// localRanks 8 localRank 0 MNNVL 0" (init.cc, from 2.20, and RCCL from
	// ROCm 6.2); MNNVL reports that NCCL set up a multi-node NVLink clique
	// (init.cc tries it where the ranks span hosts, or under
	// NCCL_MNNVL_ENABLE=1, and mnnvl.cc sets it where the rank's clique,
	// the GPUs of its NVLink domain, holds more than one rank), and
	// under it a node is a clique, whatever hosts it spans: nNodes counts
	// the cliques and localRanks is this one's ranks ("nRanks 8 nNodes 1
	// localRanks 8 MNNVL 1" for 2 trays of one rack, "nRanks 8 nNodes 2
	// localRanks 4 MNNVL 1" for 2 trays of two racks; init.cc counts the
	// ranks' first ring ranks, topo.cc takes the clique's ranks as the
	// node's). Where no such
	// line gives Ranks, the "Init COMPLETE" lines do: "comm %p rank %d
	// nranks %d cudaDev %d busId %lx - Init COMPLETE" (init.cc 2.7 to 2.17;
	// "commId 0x%llx" before " - " from 2.18, "nvmlDev %d" after cudaDev
	// from 2.19, the caller's name, "ncclCommInitRank comm %p ...", from
	// 2.21; RCCL adds "localSize ..."), where every such line of the test
	// gives the same nranks (a split's, "ncclCommSplit comm %p ...", is
	// another communicator's and not read). They give neither Nodes nor
	// LocalRanks: NCCL counts a node by its host hash, the full host name
	// and boot id, where the line's prefix is the name cut at its first
	// dot, and a log may hold some ranks' lines only.
	Ranks, Nodes, LocalRanks Fact[int]
	MNNVL                    Fact[bool]
	// Library is NCCL's version as nccl-tests' header prints the library
	// it ran with, "22602" for 2.26.2: "# nccl-tests version 2.14.1
	// nccl-headers=22602 nccl-library=22602". rccl-tests prints RCCL's in
	// the same code (major·10000 + minor·100 + patch), the NCCL release RCCL
	// follows: "# rccl-tests version 2.17.9-develop:2596ca5f71
	// rccl-headers=22803 rccl-library=22707" is RCCL 2.27.7.
	Library Fact[string]
	// RCCL reports that the run used RCCL, AMD's NCCL, as the log says
	// itself: rccl-tests' version header ("# rccl-tests version ...
	// rccl-library=22707"), its "rccl-tests: Version develop:448c4c7"
	// line, or RCCL's "RCCL version : 2.22.3-develop:f5b15f2". A log
	// without them may have run RCCL too (a post that keeps the table only).
	RCCL Fact[bool]
	// Algo and Proto are NCCL_ALGO and NCCL_PROTO where NCCL says the
	// environment set them: "NCCL_ALGO set by environment to Tree", or
	// where the env of nccl-tests' JSON output (-J) holds them.
	Algo, Proto Fact[string]
	// Env are the parameters NCCL says the environment (or its
	// configuration file) set, one per name in the order first printed:
	// "NCCL_IB_QPS_PER_CONNECTION set by environment to 64." (ncclLoadParam
	// and ncclGetEnv's callers, src/misc/param.cc), NCCL_ALGO and
	// NCCL_PROTO among them; in nccl-tests' JSON output, the NCCL_*
	// variables of its env (but nccl-tests' own NCCL_TESTS_* and the
	// install paths that module systems set, NCCL_HOME, NCCL_ROOT and
	// NCCL_DIR), in its order; the first maxSettings of them.
	Env []Setting
	// RanAlgo and RanProto are the algorithm and the protocol NCCL ran for
	// every call of the test, where its TUNING lines (NCCL 2.24 on), of
	// calls of as many sizes as the table's rows, name one each:
	// "AllReduce: 8388608 Bytes -> Algo RING proto SIMPLE ...", as NCCL
	// names them (RING, NVLS_TREE, SIMPLE).
	RanAlgo, RanProto Fact[string]
	// NICPath is the path NCCL's graph search found between the GPUs and
	// the NICs, as NCCL types it ("PIX", "PHB"): the second type of a
	// search result, "Pattern 4, crossNic 0, nChannels 16, bw 20.000000/
	// 20.000000, type NVL/PIX, sameChannels 1" (NCCL_DEBUG_SUBSYS=GRAPH,
	// graph/search.cc), the ring's (pattern 4) where the log holds it, else
	// the first graph's. It says something of the NICs only where the
	// communicator crosses nodes: on one node the search places no NIC.
	NICPath Fact[nccl.PathType]
}

// A Device is one "#  Rank" line of nccl-tests: "#  Rank  0 Group  0 Pid
// 34001 on vm-host40 device  0 [0x33] NVIDIA H20-3e".
type Device struct {
	Rank, Pid int
	Host      string
	// Device is the CUDA device index on the host.
	Device int
	// BusID is the PCI bus ID as printed, "0x33" or "0000:1b:00"; "" when
	// the line has none (before 2020).
	BusID string
	// GPU is the GPU's name as printed, with its memory variant
	// ("NVIDIA H100 80GB HBM3").
	GPU  string
	Line int
}

// A HostNet is what one host's channel lines say of the network devices
// its ranks drive.
type HostNet struct {
	// Host is the host as NCCL's line prefix names it ("gpu34"), "" for
	// lines without the prefix.
	Host string
	// Devices are the NET device indices the host's lines name, ascending:
	// indices into the host's own list of NICs (NICs).
	Devices []int
	// Channels is the number of channels whose lines on the host name a
	// device: fewer than NCCL's channel count (Evidence.Channels) where
	// the log holds some of them only.
	Channels int
	// Line is the host's first channel line that names a device.
	Line int
}

// RunNICs returns the host whose channel lines name the fewest network
// devices (the first of them where several tie), and false where no
// channel line names one. Its devices are the NICs the run's ranks on a
// host drive: NCCL's graph search takes the NICs nearest the
// communicator's GPUs first (ncclTopoSelectNets and its preferred NETs,
// ncclTopoGetLocalNet, NCCL 2.23 to 2.30 src/graph/search.cc and topo.cc),
// and its topology holds only the GPUs of some rank, so a run on part of a
// host drives the NICs of that part. A ring crosses every host, so the
// host that drives the fewest bounds it. Where the log holds some of the
// host's channel lines only (HostNet.Channels below the channel count),
// the count is a lower bound of what the host drives.
func (e *Evidence) RunNICs() (HostNet, bool) {
	best := -1
	for i, h := range e.HostNets {
		if best < 0 || len(h.Devices) < len(e.HostNets[best].Devices) {
			best = i
		}
	}
	if best < 0 {
		return HostNet{}, false
	}
	return e.HostNets[best], true
}

// Channels are NCCL's channel counts of one communicator; a count the
// line does not print is -1.
type Channels struct {
	Coll, CollNet, NVLS, P2P, P2PPerPeer int
}

// A NIC is one network device NCCL lists.
type NIC struct {
	// Index is the device's index in NCCL's list ("[0]").
	Index int
	// Name is the device ("mlx5_0", "eth0").
	Name string
	// Port is the IB port, 0 for a socket.
	Port int
	// Link is the link layer, "IB" or "RoCE" ("ETH" in NCCL before 2.12),
	// "" for a socket.
	Link string
	// BW is the device's speed in B/s, 0 when the log does not give it.
	BW   float64
	Line int
}

// rcclTestsVersion begins the line on which rccl-tests prints its own
// version before the header: "rccl-tests: Version develop:448c4c7".
const rcclTestsVersion = "rccl-tests: Version"

// ringGDRRE reads the GDR flag of NCCL's "Connected all rings, use ring
// PXN 0 GDR 1" line.
var ringGDRRE = regexp.MustCompile(`\bGDR (\d+)\b`)

var (
	ncclVersionRE = regexp.MustCompile(`^NCCL version (\d+\.\d+\.\d+)[^+\s]*(?:\+cuda(\d+\.\d+))?`)
	rcclVersionRE = regexp.MustCompile(`^RCCL version\s*:?\s*(\d+\.\d+\.\d+)`)
	// " [0]mlx5_0:1/IB", " [3]mlx5_3:1:2/RoCE" (rail), " [0]eth0:10.0.0.1<0>"
	ibDevRE     = regexp.MustCompile(`\[(\d+)\] ?([^\s:\[\]{}]+):(\d+)(?::\d*)*/(\w+)`)
	socketDevRE = regexp.MustCompile(`\[(\d+)\]([^\s:\[\]]+):`)
	ibSpeedRE   = regexp.MustCompile(`^NET/IB\s*: \[\d+\] ([^\s:]+):\S* .*\bspeed=(\d+)`)
	localNetsRE = regexp.MustCompile(`^Local Net device counts across ranks: min (\d+) max (\d+)`)
	ofiNICsRE   = regexp.MustCompile(`^NET/OFI .*\(found (\d+) nics?\)`)
	// "NET/OFI NIC group 0 device #0 0000:52:00.0" (aws-ofi-nccl's
	// grouping of a P5's EFA devices, one NCCL device a group).
	ofiGroupRE = regexp.MustCompile(`^NET/OFI NIC group (\d+) device #\d+`)
	ofiProvRE  = regexp.MustCompile(`^NET/OFI Selected [Pp]rovider is ([\w;-]+)`)
	ofiPlatRE  = regexp.MustCompile(`^NET/OFI Running on (\S+) platform\b`)
	// ofiSimpleRE reads why the OFI plugin asks for NCCL_PROTO=simple, in
	// its three forms (Evidence.PluginSimple); ofiKeptRE its line where
	// the job's own stood, and ofiUnsafeRE its earlier warning of that.
	ofiSimpleRE = regexp.MustCompile(`^NET/OFI (?:Need to force simple protocol: (.+?) not supported|Setting NCCL_PROTO='simple' to prevent data corruption \(reason: (.+?) not supported\)|Setting NCCL_PROTO to "simple")`)
	ofiKeptRE   = regexp.MustCompile(`^NET/OFI Skipping adding NCCL_PROTO(?:=(\S*))? to environment`)
	ofiUnsafeRE = regexp.MustCompile(`^NET/OFI NCCL_PROTO was set to .*does not support (.+?)\. This endpoint may corrupt data`)
	tunerRE     = regexp.MustCompile(`^(?:TUNER/Plugin: )?Using (?:tuner plugin:? '?([^'\s]+)'?|(\S+) \(v\d+\))`)
	channelsRE  = regexp.MustCompile(`(\d+) (coll|collnet|nvls|p2p) channels(?: (per peer))?`)
	// "Channel 05/16 :  0  9 18 ... 59 ...": the ring's ranks, cut to 127
	// characters ending "..." (dumpLine, graph/rings.cc from 2.23.4).
	ringRE = regexp.MustCompile(`^Channel (\d+)/(\d+) :((?:\s+\d+)+)(?:\s*\.\.\.)?\s*$`)
	treeRE = regexp.MustCompile(`\[\d+\] `)
	// "comm 0x55d3 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0
	// MNNVL 0" (init.cc:1422 at 5067397c): the comm and rank, then the
	// counts, the MNNVL from 2.20.
	commRE = regexp.MustCompile(`(?:\bcomm (0x[0-9a-fA-F]+) rank (\d+) )?\bnRanks (\d+) nNodes (\d+) localRanks (\d+) localRank (\d+)(?: MNNVL (\d+))?`)
	// "comm 0x55d0c0a0 rank 1 nranks 16 cudaDev 1 ... - Init COMPLETE"
	initRE    = regexp.MustCompile(`^(?:\S+ )?comm 0x[0-9a-fA-F]+ rank (\d+) nranks (\d+) cudaDev \d+ `)
	topoNetRE = regexp.MustCompile(`^\+ NET\[([0-9.]+)\] - NET/`)
	envRE     = regexp.MustCompile(`^([A-Z][A-Z0-9_]*) set by environment to (.*?)\.?\s*$`)
	libraryRE = regexp.MustCompile(`\b[nr]ccl-library=(\d+)`)
	// "Channel 00/0 : 7[1] -> 0[0] [receive] via NET/IBext_v8/1/GDRDMA",
	// "Channel 00 : ... via NET/AWS Libfabric/3/GDRDMA", "... via
	// NET/IB/1(12)/GDRDMA" (PXN): the channel and the device.
	viaNetRE = regexp.MustCompile(`^Channel (\d+)\b.* via NET/[^/]+/(\d+)`)
)

// debugState gathers the Evidence of NCCL's debug lines for one test.
type debugState struct {
	e      Evidence
	speeds map[string]Fact[float64] // NIC speeds by name, B/s, and their lines; NCCL prints them before the list
	// hosts are the network devices and channels that each host's channel
	// lines name, by host, in the order of their first lines.
	hosts []*hostNets
	// nicGroups are the OFI plugin's NIC groups, by index; groupLine is
	// the first group line.
	nicGroups map[int]bool
	groupLine int
	// localNets is the NIC count of NCCL 2.30's "Local Net device counts
	// across ranks" line where its min and max agree.
	localNets Fact[int]
	// ringPath reports that NICPath is the ring's (pattern 4).
	ringPath bool
	// gdrFar is the first of paths.cc's "GPU Direct RDMA Disabled for GPU
	// ... / HCA ... (distance 5 > 3)" lines, which stands for GPUDirect
	// only where no other line gives it.
	gdrFar Fact[bool]
	// gdrHosts are the GPUDirect RDMA that each host's lines give, its
	// first line's, in the order of the hosts' first such lines.
	gdrHosts []hostGDR
	// listCounts are the NIC counts that the "NET/... : Using" lines of the
	// ranks give, each with the first line and host that gave it; the
	// hosts' lists disagree where there are several.
	listCounts map[int]hostLine
	// initRanks is the nranks of the test's "Init COMPLETE" lines, which
	// stands for Ranks where no "nRanks ... nNodes" line gives it;
	// initMixed reports lines that disagree, which then give none.
	initRanks Fact[int]
	initMixed bool
	// proc is the process of the line being read, "host:pid" of NCCL's
	// prefix, "" where the line has none.
	proc string
	// comms are the comm lines read, to compare those of one comm
	// (commLine); commMixed reports two of one comm that disagree, and
	// then the comm lines give no count or MNNVL.
	comms     []commLine
	commMixed bool
	// dropped are the NIC counts and indices of the line being read that
	// are out of range (nicCount), which the parser reports.
	dropped []droppedCount
	// damaged are the problems of the line being read that NCCL cannot
	// have printed as it stands (a device listed twice, a comm line's
	// counts that contradict each other), which the parser reports.
	damaged []damagedLine
	// width is the length of the line being read as NCCL wrote it, from
	// its host (or its timestamp) to its end; 0 where the line has no
	// NCCL prefix.
	width int
}

// hostLine is a line of NCCL's and the host that printed it.
type hostLine struct {
	line int
	host string
}

// where names l: "line 32 (host node00)", or "line 32" where the line
// names no host.
func (l hostLine) where() string {
	if l.host == "" {
		return fmt.Sprintf("line %d", l.line)
	}
	return fmt.Sprintf("line %d (host %s)", l.line, l.host)
}

// listConflict returns the first lines of two NIC counts that the
// hosts' lists give, the earlier count's and the next's, and false where
// they give one count.
func (d *debugState) listConflict() (a, b hostLine, na, nb int, ok bool) {
	if len(d.listCounts) < 2 {
		return hostLine{}, hostLine{}, 0, 0, false
	}
	counts := slices.SortedFunc(maps.Keys(d.listCounts), func(x, y int) int { return d.listCounts[x].line - d.listCounts[y].line })
	na, nb = counts[0], counts[1]
	return d.listCounts[na], d.listCounts[nb], na, nb, true
}

// hostGDR is what the first of a host's lines says of GPUDirect RDMA.
type hostGDR struct {
	host string
	gdr  Fact[bool]
}

// gdr records that line n, which host printed, says GPUDirect RDMA is on
// (or off) for the host, unless an earlier line of the host said.
func (d *debugState) gdr(n int, host string, on bool) {
	for k := range d.gdrHosts {
		if h := &d.gdrHosts[k]; h.host == host {
			if !h.gdr.Known() || n < h.gdr.Line {
				h.gdr = Fact[bool]{on, n}
			}
			return
		}
	}
	if len(d.gdrHosts) < maxHosts {
		d.gdrHosts = append(d.gdrHosts, hostGDR{host, Fact[bool]{on, n}})
	}
}

// gdrConflict returns two hosts whose lines disagree on GPUDirect RDMA,
// the first host's and the first that says otherwise, and false where
// they agree.
func (d *debugState) gdrConflict() (a, b hostGDR, ok bool) {
	for _, h := range d.gdrHosts {
		if h.gdr.Value != d.gdrHosts[0].gdr.Value {
			return d.gdrHosts[0], h, true
		}
	}
	return hostGDR{}, hostGDR{}, false
}

// hostNets gathers one host's channel lines: the devices and channels
// they name, and the first of them.
type hostNets struct {
	host     string
	devs     map[int]bool
	channels map[int]bool
	line     int
}

// evidence returns the Evidence of the lines read, with each host's
// network devices (HostNets), and the most devices one host's channel
// lines name as the NIC count where no line gave it.
func (d *debugState) evidence() Evidence {
	e := d.e
	if len(d.listCounts) > 1 {
		// The hosts (or ranks) list different numbers of NICs: none is
		// the count of a host.
		e.NICCount = Fact[int]{}
	}
	if _, _, mixed := d.gdrConflict(); !mixed {
		// The hosts agree: the earliest line of theirs.
		for _, h := range d.gdrHosts {
			if !e.GPUDirect.Known() || h.gdr.Line < e.GPUDirect.Line {
				e.GPUDirect = h.gdr
			}
		}
		mergeFact(&e.GPUDirect, d.gdrFar)
	}
	if d.commMixed {
		e.Ranks, e.Nodes, e.LocalRanks, e.MNNVL = Fact[int]{}, Fact[int]{}, Fact[int]{}, Fact[bool]{}
	}
	if !d.initMixed {
		mergeFact(&e.Ranks, d.initRanks)
	}
	if bw, mixed := d.commonSpeed(e.NICs); mixed {
		e.NICBW = bw
	}
	mergeFact(&e.NICCount, d.localNets)
	if len(d.nicGroups) > 0 {
		e.NICCount.set(len(d.nicGroups), d.groupLine)
	}
	e.HostNets = make([]HostNet, 0, len(d.hosts))
	most := -1
	for _, h := range d.hosts {
		hn := HostNet{Host: h.host, Channels: len(h.channels), Line: h.line}
		for dev := range h.devs {
			hn.Devices = append(hn.Devices, dev)
		}
		slices.Sort(hn.Devices)
		e.HostNets = append(e.HostNets, hn)
		if most < 0 || len(hn.Devices) > len(e.HostNets[most].Devices) {
			most = len(e.HostNets) - 1
		}
	}
	if most >= 0 {
		e.NICCount.set(len(e.HostNets[most].Devices), e.HostNets[most].Line)
	}
	if len(e.HostNets) == 0 {
		e.HostNets = nil
	}
	return e
}

// nicGroup records the OFI plugin's NIC group g, which line n names.
func (d *debugState) nicGroup(g, n int) {
	if d.nicGroups == nil {
		d.nicGroups, d.groupLine = map[int]bool{}, n
	}
	d.nicGroups[g] = true
}

// merge sets every fact of d that is unknown from o, as if o's lines came
// after d's.
func (d *debugState) merge(o *debugState) {
	e := &d.e
	if len(e.NICs) == 0 {
		e.NICs = o.e.NICs
	}
	for _, h := range o.hosts {
		for dev := range h.devs {
			d.netDev(h.line, h.host, -1, dev)
		}
		for c := range h.channels {
			d.netDev(h.line, h.host, c, -1)
		}
	}
	for g := range o.nicGroups {
		d.nicGroup(g, o.groupLine)
	}
	mergeFact(&d.localNets, o.localNets)
	mergeFact(&d.gdrFar, o.gdrFar)
	for _, h := range o.gdrHosts {
		d.gdr(h.gdr.Line, h.host, h.gdr.Value)
	}
	d.initMixed = d.initMixed || o.initMixed
	d.commMixed = d.commMixed || o.commMixed
	if o.initRanks.Known() {
		d.initComplete(o.initRanks.Line, o.initRanks.Value)
	}
	for k, l := range o.listCounts {
		d.listCount(k, l)
	}
	mergeFact(&e.NCCLVersion, o.e.NCCLVersion)
	mergeFact(&e.CUDA, o.e.CUDA)
	mergeFact(&e.Network, o.e.Network)
	mergeFact(&e.Provider, o.e.Provider)
	mergeFact(&e.Platform, o.e.Platform)
	mergeFact(&e.PluginSimple, o.e.PluginSimple)
	mergeFact(&e.PluginNoGDR, o.e.PluginNoGDR)
	mergeFact(&e.PluginProtoKept, o.e.PluginProtoKept)
	mergeFact(&e.TunerPlugin, o.e.TunerPlugin)
	mergeFact(&e.NICCount, o.e.NICCount)
	mergeFact(&e.PluginNICs, o.e.PluginNICs)
	mergeFact(&e.NICBW, o.e.NICBW)
	mergeFact(&e.NVLS, o.e.NVLS)
	mergeFact(&e.Channels, o.e.Channels)
	mergeFact(&e.Rings, o.e.Rings)
	mergeFact(&e.Trees, o.e.Trees)
	mergeFact(&e.Ranks, o.e.Ranks)
	mergeFact(&e.Nodes, o.e.Nodes)
	mergeFact(&e.LocalRanks, o.e.LocalRanks)
	mergeFact(&e.MNNVL, o.e.MNNVL)
	mergeFact(&e.Library, o.e.Library)
	mergeFact(&e.RCCL, o.e.RCCL)
	mergeFact(&e.Algo, o.e.Algo)
	mergeFact(&e.Proto, o.e.Proto)
	for _, v := range o.e.Env {
		e.setEnv(v)
	}
	mergeFact(&e.NICPath, o.e.NICPath)
	mergeFact(&e.CollNet, o.e.CollNet)
}

// line reads msg, the text after "NCCL INFO " of line n, which host
// printed ("" where the line does not say). A line it does
// not know, or cannot read, says nothing. Each form is recognised by a
// fixed prefix or word before any expression runs (most debug lines are of
// none of them), as ReadTuning in commmodel/nccl does.
func (d *debugState) line(n int, host, msg string) {
	e := &d.e
	switch {
	case strings.HasPrefix(msg, "RCCL version"):
		e.RCCL.set(true, n)
		if m := rcclVersionRE.FindStringSubmatch(msg); m != nil {
			e.NCCLVersion.set(m[1], n)
		}
	case strings.HasPrefix(msg, rcclTestsVersion):
		e.RCCL.set(true, n)
	case strings.HasPrefix(msg, "NCCL version "):
		if m := ncclVersionRE.FindStringSubmatch(msg); m != nil {
			e.NCCLVersion.set(m[1], n)
			if m[2] != "" {
				e.CUDA.set(m[2], n)
			}
		}
	case strings.Contains(msg, " set by environment to "):
		if m := envRE.FindStringSubmatch(msg); m != nil {
			e.setByEnv(Setting{Name: m[1], Value: m[2], Line: n})
		}
	case strings.HasPrefix(msg, "Using network "):
		e.Network.set(strings.TrimSpace(strings.TrimPrefix(msg, "Using network ")), n)
	case strings.HasPrefix(msg, "NET/IB : Using"):
		// Every release ends the list "; OOB <interface>:<address>": a
		// line without it was cut, and lists some NICs only.
		if strings.Contains(msg, "; OOB ") {
			d.nics(n, host, msg, ibDevRE)
		} else {
			d.damaged = append(d.damaged, damagedLine{n, fmt.Errorf("%w: NCCL's list of its NICs ends \"; OOB\" and the interface in every release, and this one stops before it (a paste that wrapped or cut the line): the NICs it names are left unread; join the line's rest to it",
				ErrInconsistent)})
		}
	case strings.HasPrefix(msg, "NET/Socket : Using"):
		d.nics(n, host, msg, socketDevRE)
	case strings.HasPrefix(msg, "Local Net device counts across ranks:"):
		if m := localNetsRE.FindStringSubmatch(msg); m != nil && m[1] == m[2] {
			if k, ok := d.nicCount(n, "the ranks' NIC count", m[1]); ok {
				d.localNets.set(k, n)
			}
		}
	case strings.HasPrefix(msg, "NET/IB: ["), strings.HasPrefix(msg, "NET/IB : ["):
		if m := ibSpeedRE.FindStringSubmatch(msg); m != nil {
			// Read as a float: digits too many for an int are a speed
			// beyond any NIC's, which predict says, not none.
			if mbps, err := strconv.ParseFloat(m[2], 64); err == nil {
				d.nicSpeed(n, m[1], mbps*1e6/8) // Mb/s -> B/s
			}
		}
	case strings.Contains(msg, "Using ") && strings.Contains(strings.ToLower(msg), "tuner") && !strings.Contains(msg, "internal tuner"):
		if m := tunerRE.FindStringSubmatch(msg); m != nil {
			e.TunerPlugin.set(m[1]+m[2], n)
		}
	case strings.HasPrefix(msg, "NET/OFI "):
		if m := ofiProvRE.FindStringSubmatch(msg); m != nil {
			e.Provider.set(m[1], n)
		}
		if m := ofiNICsRE.FindStringSubmatch(msg); m != nil {
			if k, ok := d.nicCount(n, "the OFI plugin's NIC count", m[1]); ok {
				e.PluginNICs.set(k, n)
			}
		}
		if m := ofiGroupRE.FindStringSubmatch(msg); m != nil {
			if g, ok := d.nicIndex(n, "the OFI plugin's NIC group", m[1]); ok {
				d.nicGroup(g, n)
			}
		}
		if m := ofiPlatRE.FindStringSubmatch(msg); m != nil {
			e.Platform.set(platform(m[1]), n)
		}
		if m := ofiSimpleRE.FindStringSubmatch(msg); m != nil {
			e.PluginSimple.set(m[1]+m[2], n)
		}
		if strings.Contains(msg, "disabling GDR") {
			e.PluginNoGDR.set(strings.TrimPrefix(msg, "NET/OFI "), n)
		}
		if m := ofiKeptRE.FindStringSubmatch(msg); m != nil && !strings.EqualFold(m[1], "simple") {
			e.PluginProtoKept.set(true, n) // the job's Simple is the plugin's too
		}
	case strings.Contains(msg, "GPU Direct RDMA "):
		switch {
		case strings.Contains(msg, "GPU Direct RDMA Enabled"):
			d.gdr(n, host, true)
		case strings.HasPrefix(msg, "GPU Direct RDMA Disabled for GPU ") && strings.Contains(msg, "(distance "):
			d.gdrFar.set(false, n) // paths.cc: this pair is too far; another may not be
		case strings.Contains(msg, "GPU Direct RDMA Disabled"):
			d.gdr(n, host, false)
		}
	case strings.Contains(msg, "Connected all rings") && strings.Contains(msg, " GDR "):
		// "Connected all rings, use ring PXN 0 GDR 0" (init.cc): whether
		// the rings' network connections read and write GPU memory.
		if m := ringGDRRE.FindStringSubmatch(msg); m != nil {
			d.gdr(n, host, m[1] != "0")
		}
	case strings.HasPrefix(msg, "NVLS multicast support is "):
		e.NVLS.set(!strings.HasPrefix(msg, "NVLS multicast support is not"), n)
	case strings.Contains(msg, "Connected CollNet"), strings.Contains(msg, "Collnet Chains "):
		e.CollNet.set(true, n)
	case strings.Contains(msg, "disabling CollNet"):
		d.collNetFailed(n)
	case strings.Contains(msg, " coll channels, "):
		c := Channels{-1, -1, -1, -1, -1}
		for _, m := range channelsRE.FindAllStringSubmatch(msg, -1) {
			v := atoi(m[1])
			switch {
			case m[3] != "":
				c.P2PPerPeer = v
			case m[2] == "coll":
				c.Coll = v
			case m[2] == "collnet":
				c.CollNet = v
			case m[2] == "nvls":
				c.NVLS = v
			case m[2] == "p2p":
				c.P2P = v
			}
		}
		if c.Coll >= 0 {
			e.Channels.set(c, n)
		}
	case strings.HasPrefix(msg, "Channel "):
		if m := ringRE.FindStringSubmatch(msg); m != nil {
			e.Rings.set(atoi(m[2]), n)
		} else if m := viaNetRE.FindStringSubmatch(msg); m != nil {
			dev, ok := d.nicIndex(n, "the channel's network device", m[2])
			if !ok {
				break // a damaged line: neither its device nor its GPUDirect RDMA is read
			}
			d.netDev(n, host, atoi(m[1]), dev)
			switch {
			case strings.Contains(msg, "/GDRDMA"): // net.cc: the connection reads or writes GPU memory
				d.gdr(n, host, true)
			case strings.Contains(msg, "[receive]"): // net.cc: the receive writes host memory
				d.gdr(n, host, false)
			}
		}
	case strings.HasPrefix(msg, "Trees "):
		if !d.treesCut(msg) {
			e.Trees.set(len(treeRE.FindAllString(msg+" ", -1)), n)
		}
	case strings.HasSuffix(strings.TrimSpace(msg), "Init COMPLETE") && !strings.HasPrefix(msg, "ncclCommSplit "):
		if m := initRE.FindStringSubmatch(msg); m != nil && atoi(m[1]) < atoi(m[2]) {
			d.initComplete(n, atoi(m[2]))
		}
	case strings.Contains(msg, " nNodes "):
		// A count too large for an int is no count NCCL printed: the
		// line says nothing, rather than 0 ranks.
		if m := commRE.FindStringSubmatch(msg); m != nil && !slices.ContainsFunc(m[2:7], func(s string) bool { _, err := strconv.Atoi(s); return s != "" && err != nil }) {
			d.comm(n, m)
		}
	case strings.HasPrefix(msg, "Pattern "):
		// The ring's search result outranks an earlier one of another
		// pattern; the first of a pattern stands.
		g, err := nccl.ParseGraphLine(msg)
		switch {
		case err != nil && !errors.Is(err, nccl.ErrNoGraphLine):
			// A search result NCCL's format prints, with a field it cannot
			// hold: the path it gives is not taken.
			d.damaged = append(d.damaged, damagedLine{n, fmt.Errorf("%w: the graph search's line: %v: the path between the GPUs and the NICs it gives is left unread", ErrInconsistent, err)})
		case err == nil && (!e.NICPath.Known() || g.Pattern == nccl.PatternRing && !d.ringPath):
			e.NICPath.Value, e.NICPath.Line = g.TypeInter, n
			d.ringPath = g.Pattern == nccl.PatternRing
		}
	case strings.Contains(msg, "+ NET["):
		if m := topoNetRE.FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
			if bw, err := strconv.ParseFloat(m[1], 64); err == nil && bw > 0 && bw < 1e6 {
				e.NICBW.set(bw*1e9, n) // GB/s
			}
		}
	}
}

// commLine is what a comm line says: its process ("host:pid" of its
// prefix, "" where it has none), comm, rank (-1 where the line does not
// say) and counts, and its MNNVL ("" before 2.20).
type commLine struct {
	proc, comm                                string
	rank, ranks, nodes, localRanks, localRank int
	mnnvl                                     string
	line                                      int
}

// maxComms bounds the comm lines kept to compare (commLine): a run prints
// one a rank, and a damaged log's cannot grow the list without end.
const maxComms = 4096

// comm reads comm line n, m its commRE match. NCCL prints it once a
// communicator, at the end of initTransportsRank (init.cc:1422 at
// 5067397c), from counts that cannot contradict each other: nNodes counts
// the distinct nodes of the ranks, at least one and at most one a rank
// (init.cc:1291-1297); localRanks is this rank's node's ranks, at least
// one (init.cc:1414 fails the init otherwise), where each other node holds
// one at least; rank and localRank index the communicator's and the
// node's ranks (init.cc:1402-1404). A line whose counts break that is
// damaged (ErrInconsistent) and says nothing. Nor does a line of a comm an
// earlier line of the same process named with other counts (two runs'
// lines pasted together, or an edited log): both are reported, and the
// comm lines give no count or MNNVL (commMixed), as Init COMPLETE lines
// that disagree give no nranks. Lines of different processes may share
// a comm address, and are not compared; nor are lines without NCCL's
// prefix, whose process is unknown.
func (d *debugState) comm(n int, m []string) {
	c := commLine{proc: d.proc, comm: m[1], rank: -1, ranks: atoi(m[3]), nodes: atoi(m[4]), localRanks: atoi(m[5]), localRank: atoi(m[6]), mnnvl: m[7], line: n}
	if m[2] != "" {
		c.rank = atoi(m[2])
	}
	var why string
	switch {
	case c.ranks < 1 || c.nodes < 1 || c.localRanks < 1:
		why = "a count below 1, where every communicator, and each of its nodes, holds a rank at least"
	case c.rank >= c.ranks:
		why = fmt.Sprintf("rank %d of %d ranks", c.rank, c.ranks)
	case c.localRank >= c.localRanks:
		why = fmt.Sprintf("localRank %d of %d localRanks", c.localRank, c.localRanks)
	case c.nodes > c.ranks:
		why = fmt.Sprintf("nNodes %d of nRanks %d, where each node holds a rank at least", c.nodes, c.ranks)
	case c.localRanks > c.ranks-(c.nodes-1):
		others := fmt.Sprintf("each of the %d other nodes", c.nodes-1)
		if c.nodes == 2 {
			others = "the other node"
		}
		why = fmt.Sprintf("localRanks %d of nRanks %d on this node, where %s (nNodes %d) holds a rank at least", c.localRanks, c.ranks, others, c.nodes)
	}
	if why != "" {
		d.damaged = append(d.damaged, damagedLine{n, fmt.Errorf("%w: the comm line gives %s, which NCCL cannot print (init.cc counts a communicator's nodes and each node's ranks among its ranks): the line is left unread", ErrInconsistent, why)})
		return
	}
	if c.proc != "" && c.comm != "" {
		for _, o := range d.comms {
			if o.proc != c.proc || o.comm != c.comm {
				continue
			}
			if o.counts() != c.counts() {
				d.commMixed = true
				d.damaged = append(d.damaged, damagedLine{n, fmt.Errorf("%w: process %s's comm %s is %s here and %s on line %d, where NCCL prints one line a communicator: the comm lines give no count or MNNVL",
					ErrInconsistent, parseerr.Excerpt(c.proc), parseerr.Excerpt(c.comm), c.counts(), o.counts(), o.line)})
			}
			return
		}
		if len(d.comms) < maxComms {
			d.comms = append(d.comms, c)
		}
	}
	e := &d.e
	e.Ranks.set(c.ranks, n)
	e.Nodes.set(c.nodes, n)
	e.LocalRanks.set(c.localRanks, n)
	if c.mnnvl != "" {
		e.MNNVL.set(c.mnnvl != "0", n)
	}
}

// counts is what comm line c says after its comm, as NCCL prints it.
func (c commLine) counts() string {
	s := fmt.Sprintf("nRanks %d nNodes %d localRanks %d localRank %d", c.ranks, c.nodes, c.localRanks, c.localRank)
	if c.rank >= 0 {
		s = fmt.Sprintf("rank %d ", c.rank) + s
	}
	if c.mnnvl != "" {
		s += " MNNVL " + c.mnnvl
	}
	return s
}

// treesCut is the length NCCL cuts its tree line to after "Trees": the
// 1023 bytes its snprintf calls may fill, less the final NUL (init.cc of
// NCCL 2.7.8, 2.12.12, 2.18.3 and 2.27.7 to 2.30.7 alike). RCCL's is 2046
// from ROCm 6.1 (2047 bytes, ROCm/rccl f7e39fce).
const treesCut = 1022

// treesCut reports that the tree line msg holds some of the channels
// only, its count short of them:
//   - init.cc cut it: 1022 characters after "Trees" (1021 where the cut
//     fell after a space the reader trims), 2046 in RCCL, whose line goes
//     on with " comm 0x55d3 nRanks 08 busId 43000";
//   - debug.cc cut it: NCCL 2.8 to 2.28 write each line through a buffer
//     of 1024 bytes (src/debug.cc ncclDebugLog, prefix included), RCCL
//     through 2048 (f7e39fce) and 4096, so that the line NCCL wrote is
//     that buffer's size less its NUL (less one where the reader trimmed a
//     space).
func (d *debugState) treesCut(msg string) bool {
	k := len(msg) - len("Trees")
	if i := strings.Index(msg, " comm 0x"); i >= 0 {
		k = i - len("Trees")
	}
	if k == treesCut || k == treesCut-1 || k == 2*treesCut+2 || k == 2*treesCut+1 {
		return true
	}
	for _, size := range []int{1024, 2048, 4096} {
		if d.width == size-1 || d.width == size-2 {
			return true
		}
	}
	return false
}

// initComplete records the nranks of an "Init COMPLETE" line n: the
// first stands unless a line gives another.
func (d *debugState) initComplete(n, nranks int) {
	if d.initRanks.Known() && d.initRanks.Value != nranks {
		d.initMixed = true
	}
	d.initRanks.set(nranks, n)
}

// warn reads msg, the text after "NCCL WARN " of line n: the warnings
// that say CollNet was not set up (Evidence.CollNet), and the OFI
// plugin's that the job's LL or LL128 may corrupt data
// (Evidence.PluginSimple, PluginProtoKept).
func (d *debugState) warn(n int, msg string) {
	if strings.HasPrefix(msg, "Cannot initialize CollNet") || strings.HasPrefix(msg, "CollNet is not supported") ||
		strings.Contains(msg, "disabling CollNet") {
		d.collNetFailed(n)
	}
	if m := ofiUnsafeRE.FindStringSubmatch(msg); m != nil {
		d.e.PluginSimple.set(m[1], n)
		d.e.PluginProtoKept.set(true, n)
	}
}

// collNetFailed records that line n says CollNet was not set up, over any
// earlier line that said it was.
func (d *debugState) collNetFailed(n int) {
	d.e.CollNet = Fact[bool]{false, n}
}

// nics records the devices the "NET/... : Using" line n, which host
// printed, lists, as re reads them, unless a line listed them before.
//
// NCCL lists each device once a line: the IB line's "[d]" is the index of
// the device's port in ncclIbDevs, each once and in order
// (src/transport/net_ib/init.cc:493 at 5067397c), and NCCL 2.20 to 2.23
// put each port in one merged device ("[0]={[0] mlx5_0:1/IB, [1]
// mlx5_1:1/IB}", src/transport/net_ib.cc:520-533 at v2.21.5-1); each
// active port of a device is an entry of its own (init.cc:338, the port
// loop), so mlx5_0:1 and mlx5_0:2 are two NICs to NCCL, each counted;
// the Socket line's interfaces skip a name already found
// (ncclOsFindInterfaces, src/os/linux.cc:421). A line that lists an index
// twice, or a device and port (an interface) twice, is not NCCL's as it
// printed it: it is reported (ErrInconsistent) and says nothing of the
// NICs, as a list with a damaged index does not.
func (d *debugState) nics(n int, host, msg string, re *regexp.Regexp) {
	e := &d.e
	var nics []NIC
	index, entry := map[int]bool{}, map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(msg, -1) {
		k, ok := d.nicIndex(n, "the listed device's index", m[1])
		if !ok {
			return // a damaged list says nothing of the NICs
		}
		nic := NIC{Index: k, Name: m[2], BW: d.speeds[m[2]].Value, Line: n}
		name := nic.Name
		if len(m) > 4 {
			nic.Port, nic.Link = atoi(m[3]), m[4]
			name += ":" + m[3]
		}
		if index[k] || entry[name] {
			what := fmt.Sprintf("index [%d]", k)
			if entry[name] {
				what = name
			}
			d.damaged = append(d.damaged, damagedLine{n, fmt.Errorf("%w: the list names %s twice, where NCCL lists each device (each port of one) once: what the line says of the NICs is left out",
				ErrInconsistent, parseerr.Excerpt(what))})
			return
		}
		index[k], entry[name] = true, true
		nics = append(nics, nic)
	}
	if len(nics) > MaxNICs {
		d.dropped = append(d.dropped, droppedCount{n, "the count of the devices listed", strconv.Itoa(len(nics)), 1})
		return
	}
	count := 0
	for _, nic := range nics {
		if !virtual(nic.Name) {
			count++
		}
	}
	if count > 0 {
		d.listCount(count, hostLine{n, host})
	}
	if len(e.NICs) > 0 {
		return
	}
	e.NICs = nics
	if count > 0 {
		e.NICCount = Fact[int]{count, n} // the list outranks a count
	}
}

// listCount records count, the NICs that the "NET/... : Using" line l
// lists, unless an earlier line listed as many.
func (d *debugState) listCount(count int, l hostLine) {
	if d.listCounts == nil {
		d.listCounts = map[int]hostLine{}
	}
	if old, ok := d.listCounts[count]; ok && old.line <= l.line {
		return
	}
	if len(d.listCounts) < maxNetDevs {
		d.listCounts[count] = l
	}
}

// netDev records that channel line n, which host printed, names channel
// ch and the network device dev (-1 for none of either).
func (d *debugState) netDev(n int, host string, ch, dev int) {
	var h *hostNets
	for _, k := range d.hosts {
		if k.host == host {
			h = k
			break
		}
	}
	if h == nil {
		if len(d.hosts) >= maxHosts {
			return
		}
		h = &hostNets{host: host, devs: map[int]bool{}, channels: map[int]bool{}, line: n}
		d.hosts = append(d.hosts, h)
	}
	if dev >= 0 && len(h.devs) < maxNetDevs {
		h.devs[dev] = true
	}
	if ch >= 0 && len(h.channels) < maxNetDevs {
		h.channels[ch] = true
	}
	if n < h.line {
		h.line = n
	}
}

// MaxNICs bounds the NICs of one host a log's debug lines give, a
// count (the devices a "NET/IB : Using" line lists, the OFI plugin's
// "found N nics", NCCL 2.30's "Local Net device counts") or an index (a
// listed device's "[N]", a channel's "via NET/.../N", the plugin's "NIC
// group N") below it: beyond it a number is a damaged log's, not a
// host's, and the reader leaves it out with a warning at its line
// (ErrNumber). It is the most NICs a host description takes
// (predict.Hardware.NICs), so that every count read is one a prediction
// can run on.
const MaxNICs = 1 << 16

// A damagedLine is a problem of debug line line that NCCL cannot have
// printed as it stands, its cause wrapping ErrInconsistent.
type damagedLine struct {
	line int
	err  error
}

// A droppedCount is a number of NICs or devices on a debug line that the
// reader left out (nicCount): its line, what it counts, and its digits.
type droppedCount struct {
	line         int
	what, digits string
	// least is the least the number may be: 1 for a count, 0 for an
	// index, whose most is MaxNICs less 1.
	least int
}

// nicCount returns the count of NICs digits, read on line n, give, and
// false where it is none from 1 to MaxNICs (a count too large for an int
// among them): the count is then noted in d.dropped for the parser to
// report, and left out.
func (d *debugState) nicCount(n int, what, digits string) (int, bool) {
	return d.nicNumber(n, what, digits, 1)
}

// nicIndex is nicCount for an index, from 0 to MaxNICs-1.
func (d *debugState) nicIndex(n int, what, digits string) (int, bool) {
	return d.nicNumber(n, what, digits, 0)
}

// nicNumber reads digits as a number from least to MaxNICs-1+least
// (nicCount, nicIndex), noting one out of range in d.dropped.
func (d *debugState) nicNumber(n int, what, digits string, least int) (int, bool) {
	k, err := strconv.Atoi(digits)
	if err != nil || k < least || k > MaxNICs-1+least {
		d.dropped = append(d.dropped, droppedCount{n, what, digits, least})
		return 0, false
	}
	return k, true
}

// maxNetDevs bounds the devices counted from a log's channel lines, so
// that a damaged log's device numbers cannot grow the set without end; a
// host has far fewer NICs.
const maxNetDevs = 64

// maxHosts bounds the hosts whose channel lines are kept apart, for the
// same reason: a damaged log's host names cannot grow the list without
// end.
const maxHosts = 4096

// virtual reports a network interface that is no NIC of the host: a
// container's or bridge's (veth, docker, virbr, br-, cni, flannel) or the
// loopback, which NCCL's socket transport may list beside the real ones.
func virtual(name string) bool {
	for _, p := range []string{"veth", "docker", "virbr", "br-", "cni", "flannel", "lo"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// nicSpeed records the speed bw (B/s) of the NIC named name, read on line
// n, and takes it as NICBW if none is known (evidence takes the speed of
// most of the listed NICs where they differ).
func (d *debugState) nicSpeed(n int, name string, bw float64) {
	if !(bw > 0) {
		return
	}
	if d.speeds == nil {
		d.speeds = map[string]Fact[float64]{}
	}
	if _, ok := d.speeds[name]; !ok && len(d.speeds) < maxNetDevs {
		d.speeds[name] = Fact[float64]{bw, n}
	}
	for k := range d.e.NICs {
		if nic := &d.e.NICs[k]; nic.Name == name && nic.BW == 0 {
			nic.BW = bw
		}
	}
	d.e.NICBW.set(bw, n)
}

// A NICSpeed is a speed some listed NICs run at, B/s, and how many do.
type NICSpeed struct {
	BW    float64
	Count int
}

// NICSpeeds returns the speeds of nics that give one, the speed most of
// them have first, the slower first of two that as many have: the first
// is the speed NICBW takes where they differ.
func NICSpeeds(nics []NIC) []NICSpeed {
	var out []NICSpeed
	for _, nic := range nics {
		if !(nic.BW > 0) {
			continue
		}
		if k := slices.IndexFunc(out, func(s NICSpeed) bool { return s.BW == nic.BW }); k >= 0 {
			out[k].Count++
		} else {
			out = append(out, NICSpeed{nic.BW, 1})
		}
	}
	slices.SortFunc(out, func(a, b NICSpeed) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.BW, b.BW)) })
	return out
}

// commonSpeed returns the speed of nics NICSpeeds puts first, with the
// line that first gave it, and whether their speeds differ.
func (d *debugState) commonSpeed(nics []NIC) (Fact[float64], bool) {
	speeds := NICSpeeds(nics)
	for _, nic := range nics {
		if len(speeds) > 0 && nic.BW == speeds[0].BW {
			return d.speeds[nic.Name], len(speeds) > 1
		}
	}
	return Fact[float64]{}, false
}

// platform returns the instance type of aws-ofi-nccl's "Running on NAME
// platform" in lower case, p4d.24xlarge for the "P4d" of its releases
// before 2022, the only platform they named.
func platform(name string) string {
	name = strings.ToLower(name)
	if name == "p4d" {
		return "p4d.24xlarge"
	}
	return name
}

// atoi reads digits, 0 when they do not fit an int.
func atoi(s string) int { return count(s) }

// A Setting is a parameter of NCCL's that the environment set, as NCCL
// prints it, and the line that says so.
type Setting struct {
	Name, Value string
	Line        int
}

// Off returns the setting of the environment that sets name to 0, where
// one does: the environment turned that feature of NCCL off.
func (e *Evidence) Off(name string) (Setting, bool) {
	k := slices.IndexFunc(e.Env, func(v Setting) bool { return v.Name == name && strings.TrimSpace(v.Value) == "0" })
	if k < 0 {
		return Setting{}, false
	}
	return e.Env[k], true
}

// mnnvlP2P is the first release whose init.cc tries MNNVL only where P2P
// is on (Evidence.MNNVLOff).
var mnnvlP2P = nccl.Version{Major: 2, Minor: 27, Patch: 3}

// MNNVLOff returns the setting of the environment that keeps NCCL at
// release (the zero Version for one unknown, taken as 2.27.3 or later)
// from setting MNNVL up, where one does: NCCL_MNNVL_ENABLE=0, which sets
// it to 0 in every release that reads it (init.cc from 2.21, "comm->MNNVL
// = ncclParamMNNVLEnable() == 2 ? ... : ncclParamMNNVLEnable()" to 2.24;
// from 2.25 ncclMnnvlCheck runs only where it is not 0); or, from NCCL
// 2.27.3, P2P off, NCCL_P2P_DISABLE=1 or NCCL_P2P_LEVEL=LOC (0), unless
// NCCL_MNNVL_ENABLE=1 asks for MNNVL whatever P2P does: init.cc tries it
// where "(nNodes > 1 && ncclParamMNNVLEnable() != 0 && p2pLevel != 0) ||
// ncclParamMNNVLEnable() == 1" (src/init.cc:1072 at 5067397c;
// ncclGetUserP2pLevel, src/graph/paths.cc).
func (e *Evidence) MNNVLOff(release nccl.Version) (Setting, bool) {
	if v, off := e.Off("NCCL_MNNVL_ENABLE"); off {
		return v, true
	}
	if release != (nccl.Version{}) && release.Before(mnnvlP2P) {
		return Setting{}, false
	}
	for _, v := range e.Env {
		if v.Name == "NCCL_MNNVL_ENABLE" && strings.TrimSpace(v.Value) == "1" {
			return Setting{}, false
		}
	}
	for _, v := range e.Env {
		val := strings.TrimSpace(v.Value)
		if v.Name == "NCCL_P2P_DISABLE" && val == "1" || v.Name == "NCCL_P2P_LEVEL" && (val == "LOC" || val == "0") {
			return v, true
		}
	}
	return Setting{}, false
}

// Release returns the NCCL release the log names: NCCL's "NCCL version"
// line, else nccl-tests' nccl-library (rccl-tests' rccl-library); the
// zero Version where neither names one nccl.ParseVersion reads.
func (e *Evidence) Release() nccl.Version {
	for _, f := range []Fact[string]{e.NCCLVersion, e.Library} {
		if f.Known() {
			if v, err := nccl.ParseVersion(f.Value); err == nil {
				return v
			}
		}
	}
	return nccl.Version{}
}

// releases returns the releases that NCCL's version line and the
// header's library give, ok where both give one.
func (e *Evidence) releases() (line, library nccl.Version, ok bool) {
	v, err := nccl.ParseVersion(e.NCCLVersion.Value)
	w, err2 := nccl.ParseVersion(e.Library.Value)
	return v, w, e.NCCLVersion.Known() && e.Library.Known() && err == nil && err2 == nil
}

// setByEnv records v, a parameter the environment set, in Env, and in
// Algo or Proto where it is NCCL_ALGO or NCCL_PROTO.
func (e *Evidence) setByEnv(v Setting) {
	e.setEnv(v)
	switch v.Name {
	case "NCCL_ALGO":
		e.Algo.set(v.Value, v.Line)
	case "NCCL_PROTO":
		e.Proto.set(v.Value, v.Line)
	}
}

// setEnv records v unless a setting of its name is known, or Env holds
// maxSettings already: far more than NCCL reads, which bounds the search
// of a log of many thousand settings (a crafted one of 80,000 took 10 s).
func (e *Evidence) setEnv(v Setting) {
	if len(e.Env) < maxSettings && !slices.ContainsFunc(e.Env, func(k Setting) bool { return k.Name == v.Name }) {
		e.Env = append(e.Env, v)
	}
}

// maxSettings is the most settings Evidence.Env keeps: NCCL 2.30 reads
// about 200 NCCL_* parameters, and RCCL some more.
const maxSettings = 1024

func mergeFact[T any](dst *Fact[T], src Fact[T]) {
	if src.Known() {
		dst.set(src.Value, src.Line)
	}
}

// gpusPerHost sets GPUsPerHost from the Devices when every host holds the
// same number of them.
func (e *Evidence) gpusPerHost() {
	if len(e.Devices) == 0 {
		return
	}
	per := map[string]int{}
	for _, d := range e.Devices {
		per[d.Host]++
	}
	n := per[e.Devices[0].Host]
	for _, k := range per {
		if k != n {
			return
		}
	}
	e.GPUsPerHost.set(n, e.Devices[0].Line)
}
