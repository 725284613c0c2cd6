package predict

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
)

// DescribeKeys are the keys of Describe, with what each sets.
var DescribeKeys = []struct{ Key, Doc string }{
	{"cc", "compute capability, such as 9.0, to a tenth (9.04 is read as 9.0); it picks NCCL's constants of the GPU's generation (an AMD GPU has none: the catalog gives MI100 and MI250X 9.0, the MI300 series 9.4 and the MI350 series 9.5, which all stand for Hopper's); one that only AMD's GPUs carry and no NVIDIA GPU has (9.4, 9.5) makes a GPU the catalog lacks AMD's, of the catalog's target for it: Infinity Fabric where links are given, and RCCL's rules"},
	{"links", "GPU-to-GPU links per GPU (NVLink, or Infinity Fabric for AMD Instinct)"},
	{"link-bw", "one link's bandwidth in one direction, such as 25GB/s (at most 200GB/s; a GPU's total is gpu-bw)"},
	{"gpu-bw", "one GPU's bandwidth to the others in the host, such as 450GB/s; sets link-bw from links"},
	{"host-bw", "where cards without P2P (GeForce RTX 40 and 50) copy through host memory, the bus bandwidth of their Ring AllReduce there, such as 18GB/s (bare-metal hosts: NVIDIA/nccl#1603, #1639) or 2.6GB/s (the container runs of the prior); at most the cards' PCIe figure"},
	{"fabric", "how a host's GPUs reach each other: nvswitch, mesh (NVLinks between every pair, no switch: 4-GPU HGX boards), infinity (AMD Instinct) or pcie"},
	{"switch", "true for NVSwitch (fabric=nvswitch), false for PCIe (fabric=pcie)"},
	{"pairs", "true where NVLink bridges join a PCIe host's GPUs in pairs (nvidia-smi topo -m: NV# within a pair, a PCIe path between pairs), or Infinity Fabric bridges in pairs or fours (rocm-smi --showtopo: XGMI within, PCIE between): a GPU's bytes leave over its bridge as well as PCIe, so PCIe's rate bounds nothing; with fabric=pcie"},
	{"nvls", "true for NVLink SHARP (NVSwitch, Hopper and later)"},
	{"pcie", "the PCIe generation of the host link, 3 to 6, such as 5 (or gen5)"},
	{"gpus", "GPUs per host, such as 8 where a run used 2 of a host's 8; a run on part of the host drives its share of the NICs and, on a mesh, of the links, and a host of 4 or fewer NVLink GPUs is a mesh without NVLS"},
	{"nics", "NICs per host"},
	{"nic-bw", "one NIC's line rate, in bits a second, such as 400Gb/s (at most 1600Gb/s)"},
	{"domain", "GPUs of one NVLink domain that spans hosts (72 for an NVL72 rack); 0 for one host"},
	{"group", "hosts under one first-tier switch of the network (a fat tree's leaf) or in one dragonfly group"},
	{"oversub", "the NICs' bandwidth over the group's uplinks, such as 2 for 2:1; the prior of fabric_oversubscription"},
	{"collnet", "true where the network's switches reduce (InfiniBand SHARP through a CollNet plugin such as nccl-rdma-sharp-plugins) and the jobs set NCCL_COLLNET_ENABLE=1: NCCL runs CollNetDirect and CollNetChain, and NVLS, across nodes"},
	{"nic-path", "the path by which NCCL's ring enters and leaves a host, between a GPU and a NIC, as NCCL types it (a capture gives it: docs/topology.md): PIX, PXB, P2C (a Grace CPU's NIC, over C2C), PXN, PHB or SYS (PIX by default, P2C on GH200 and GB200, PHB on alcf-polaris); beyond PXN NCCL runs no LL128 across nodes, nor over P2C before NCCL 2.27"},
	{"net-lat", "the network's latency per step as a multiple of NCCL's figure, such as 16 (EFA on p4d.24xlarge); the prior of inter_step_latency"},
	{"cpu", "the host CPU NCCL detects: intel, amd, arm or power; it sets NCCL's per-step network overhead and LL bandwidth cap (intel, but arm for GH200, GB200, GB300 and GB10)"},
	{"system", "a system the catalog holds (presets.Systems: " + presets.SystemNames() + "): its fabric, NVLS, links, NICs, CPU and, where the source says where the NICs sit, their path, as its maker's or its site's documentation gives them; the other keys override it"},
}

// Describe returns the hardware of the GPU named gpu with the description
// spec, comma-separated KEY=VALUE pairs (DescribeKeys), over what
// DefaultHardware knows of the GPU. A GPU that the catalog (nccl.ParseGPU)
// does not hold is never refused: it starts from nccl.UnknownGPU (compute
// capability 9.0, whose NCCL constants stand for its library's, a PCIe
// Gen5 link and no NVLink), every fact of it assumed, and the keys given
// replace what they name: an AMD host the catalog lacks is, say,
// "cc=9.4,links=7,link-bw=64GB/s" (seven Infinity Fabric links of 64 GB/s
// a direction to the seven other GPUs: a compute capability that only
// AMD's GPUs carry makes the GPU AMD's, nccl.ISAOfCompCap, and its links
// Infinity Fabric's where no fabric is given). Calibrate gives
// the bandwidths of a GPU whose links are assumed wide priors. With gpu
// "", the GPU is that of the system the spec names (Hardware.System says
// which), else an unknown, unnamed GPU. A key given two values is an
// error; the same value twice stands.
func Describe(gpu, spec string) (Hardware, error) {
	// A system sets facts that the other keys, in any order, override.
	sys := func(kv string) bool { return strings.HasPrefix(strings.TrimSpace(kv), "system=") }
	kvs := strings.Split(spec, ",")
	slices.SortStableFunc(kvs, func(a, b string) int {
		switch {
		case sys(a) && !sys(b):
			return -1
		case sys(b) && !sys(a):
			return 1
		}
		return 0
	})
	if gpu == "" && sys(kvs[0]) {
		if s, ok := presets.SystemByName(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(kvs[0]), "system="))); ok {
			gpu = s.GPU
		}
	}
	if strings.TrimSpace(gpu) == "" && !sys(kvs[0]) {
		gpu = UnnamedGPU // no name: the GPU the logs do not name, as a reader makes it
	}
	h, err := DefaultHardware(gpu)
	if errors.Is(err, nccl.ErrUnknownGPU) {
		h, err = Hardware{GPU: nccl.UnknownGPU(gpu)}, nil
		h.Sources.GPU = SourceUser // the name the caller gave; its facts are assumed
		if gpu == "" || gpu == UnnamedGPU {
			h.Sources.GPU = SourceAssumed
		}
	}
	if err != nil {
		return Hardware{}, err
	}
	set := map[string]string{}
	for _, kv := range kvs {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return Hardware{}, fmt.Errorf("predict: hardware %q: want KEY=VALUE with KEY one of %s", kv, DescribeKeyNames())
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if first, twice := set[key]; twice && first != value {
			// The later value would replace the first without a word.
			return Hardware{}, fmt.Errorf("predict: hardware %s given twice (%s=%s and %s=%s): give it once", key, key, first, key, value)
		}
		if key != "gpu-bw" { // set after links, in any order
			if err := h.set(key, value); err != nil {
				return Hardware{}, fmt.Errorf("predict: hardware %s=%s: %w", key, value, err)
			}
		}
		set[key] = value
		if key != "system" {
			h.setSource(key, SourceUser)
		}
	}
	if v, ok := set["gpus"]; ok {
		if s, named := presets.SystemByName(h.System); named && set["system"] != "" && s.PerHost != h.hostGPUs {
			return Hardware{}, fmt.Errorf("predict: hardware gpus=%s: %s holds %d GPUs a host; give one of gpus and system", v, s.Name, s.PerHost)
		}
	}
	if v, ok := set["gpu-bw"]; ok {
		bw, err := parseRate(v)
		switch {
		case err != nil:
			return Hardware{}, fmt.Errorf("predict: hardware gpu-bw=%s: %w", v, err)
		case h.links() == 0:
			return Hardware{}, fmt.Errorf("predict: hardware gpu-bw=%s: gpu-bw is shared among the GPU's links, and none is known or given (links=0): give links=N of 1 or more", v)
		case bw/float64(h.links()) > maxLinkRate:
			return Hardware{}, fmt.Errorf("predict: hardware gpu-bw=%s: %s over %s, beyond any link's rate (at most %s): give the links the GPU has with links=N",
				v, units.FormatBandwidth(bw/float64(h.links())), counted(h.links(), "link"), units.FormatBandwidth(maxLinkRate))
		}
		h.GPU.NVLinkBW = bw / float64(h.links())
	}
	_, fabric := set["fabric"]
	_, sw := set["switch"]
	if on, err := strconv.ParseBool(set["switch"]); fabric && sw && err == nil && on != strings.EqualFold(set["fabric"], FabricNVSwitch.String()) {
		// The later key would win: the two disagree (switch=false
		// says no NVSwitch, fabric=nvswitch one), and neither is the
		// user's answer alone.
		return Hardware{}, fmt.Errorf("predict: hardware switch=%s and fabric=%s disagree: give one of them", set["switch"], set["fabric"])
	}
	if _, links := set["links"]; !links && fabric && h.Fabric == FabricMesh && h.links() == 0 && h.GPU.BridgeLinks > 0 {
		// A PCIe card's mesh is its NVLink bridge, whose links the
		// catalog gives.
		h.NVLinks = h.GPU.BridgeLinks
	}
	// A compute capability that only AMD's GPUs carry makes the GPU AMD's,
	// of the target it names (nccl.ISAOfCompCap): a GPU the catalog lacks
	// takes that target, and a GPU of NVIDIA's is an error. amd names the
	// GPU in the errors below, with what made it AMD's.
	amd := h.GPU.Name
	if h.GPU.ISA == nccl.UnknownISA && !h.GPU.Known && nccl.ISAOf(h.GPU.Name) == "" {
		// AMD's by its name alone (nccl.UnknownGPU): NVIDIA's NVLink, its
		// NVLS or a domain across hosts, described, make it NVIDIA's.
		_, domain := set["domain"]
		if h.Fabric == FabricNVSwitch && (fabric || sw) || h.Fabric == FabricMesh && fabric || h.NVLS && h.given(h.Sources.NVLS) || domain {
			h.GPU.ISA = ""
		}
		amd += " (AMD's by its name)"
	}
	if cc, ok := set["cc"]; ok && (h.GPU.ISA == "" || h.GPU.ISA == nccl.UnknownISA) {
		switch isa := nccl.ISAOfCompCap(h.GPU.CompCap); {
		case isa != "" && h.GPU.Known:
			own := "its own"
			if g, err := nccl.ParseGPU(h.GPU.Name); err == nil {
				own = fmt.Sprintf("its own, %d.%d,", g.CompCap/10, g.CompCap%10)
			}
			return Hardware{}, fmt.Errorf("predict: hardware cc=%s: %s is NVIDIA's, and no NVIDIA GPU has compute capability %s, the GFXIP version of AMD's %s: give %s or leave cc out",
				cc, h.GPU.Name, cc, isa, own)
		case isa != "":
			h.GPU.ISA = isa
			amd = fmt.Sprintf("%s, of cc=%s (AMD's %s),", h.GPU.Name, cc, isa)
		}
	}
	switch {
	case h.Fabric == FabricInfinity && h.GPU.Known && h.GPU.ISA == "":
		return Hardware{}, fmt.Errorf("predict: hardware fabric=infinity: Infinity Fabric is AMD Instinct's; %s's links are fabric=nvswitch or fabric=mesh", h.GPU.Name)
	case h.GPU.ISA != "" && h.Fabric.oneHop() && h.Fabric != FabricInfinity:
		return Hardware{}, fmt.Errorf("predict: hardware fabric=%s: %s joins its GPUs by Infinity Fabric (fabric=infinity) or PCIe (fabric=pcie), not NVLink", h.Fabric, amd)
	case h.GPU.ISA != "" && h.Domain > 0:
		return Hardware{}, fmt.Errorf("predict: hardware domain=%d: an NVLink domain across hosts is NVIDIA's (GB200, GB300); %s's hosts meet over the network", h.Domain, amd)
	case h.nvlinkPairs && h.Fabric != FabricPCIe:
		return Hardware{}, fmt.Errorf("predict: hardware pairs=true: NVLink pairs are a PCIe host's, and %s's GPUs are joined by %s; give fabric=pcie,pairs=true or leave pairs out", h.GPU.Name, h.Fabric)
	case h.GPU.ISA != "" && h.NVLS:
		return Hardware{}, fmt.Errorf("predict: hardware nvls=true: NVLS is NVLink SHARP, of NVIDIA's NVSwitch; %s has none (nvls=false)", amd)
	case h.links() == 0 && h.Fabric == FabricInfinity:
		return Hardware{}, fmt.Errorf("predict: hardware fabric=infinity without links: give links=N, a GPU's Infinity Fabric links to the others of its host (7 on an MI300- or MI350-series platform), and link-bw=RATE, one link's a direction, or fabric=pcie")
	case h.links() == 0 && (h.Fabric == FabricNVSwitch || h.Fabric == FabricMesh) && (fabric || sw):
		return Hardware{}, fmt.Errorf("predict: hardware fabric=%s without NVLinks: give links=N of at least 1, or fabric=pcie", h.Fabric)
	case h.links() == 0 && h.Fabric.oneHop() && !fabric && !sw:
		// links=0: no NVLink, so the GPUs reach each other over PCIe.
		h.Fabric = FabricPCIe
		if !h.given(h.Sources.NVLS) {
			h.NVLS = false
		}
	}
	switch {
	case !h.GPU.Known && !fabric && !sw && h.links() > 0 && h.GPU.ISA != "":
		h.Fabric = FabricInfinity // an AMD GPU's links join it to each peer: a name that is its target, or cc, says AMD
	case !h.GPU.Known && !fabric && !sw && h.links() > 0:
		h.Fabric = FabricNVSwitch // links described without a word of how they join
	case h.Fabric == FabricPCIe && !fabric && !sw && h.links() > 0:
		// NVLinks given to a PCIe card join it to its peers directly: a
		// bridge, as the user described.
		h.Fabric, h.Sources.Fabric = FabricMesh, SourceUser
		if !h.given(h.Sources.NVLS) {
			h.NVLS = false
		}
	}
	h = h.amdMesh()
	if _, pcie := set["pcie"]; pcie && h.links() == 0 {
		h.Sources.LinkBW = SourceUser // the cards' link is the PCIe the user gave
	}
	if _, hostBW := set["host-bw"]; hostBW {
		switch pcie := h.intraBW(); {
		case h.GPU.Known && !h.hostCopy():
			return Hardware{}, fmt.Errorf("predict: hardware host-bw=%s: %s's GPUs do not copy through host memory as described (only cards without P2P do, GeForce RTX 40 and 50, where no link is given: pcie, link-bw and links describe the path itself); leave host-bw out",
				units.FormatBandwidth(h.HostBW), h.GPU.Name)
		case h.hostCopy() && h.HostBW > pcie:
			return Hardware{}, fmt.Errorf("predict: hardware host-bw=%s: a copy through host memory goes over the cards' PCIe, %s's at %s: give a rate up to it, such as %s",
				units.FormatBandwidth(h.HostBW), h.GPU.Name, units.FormatBandwidth(pcie), units.FormatBandwidth(min(18e9, pcie)))
		}
	}
	if _, gpus := set["gpus"]; gpus {
		// The fabric of a host of that many GPUs, as a system's hosts give it.
		h = h.ForHosts(h.hostGPUs)
	}
	if _, nvls := set["nvls"]; nvls && h.NVLS && (fabric || sw) && h.Fabric != FabricNVSwitch {
		// The fabric given has no switch to run it on, as links=0
		// leaves fabric=nvswitch none.
		return Hardware{}, fmt.Errorf("predict: hardware nvls=true: NVLS runs on an NVSwitch's multicast, and fabric=%s has none: give fabric=nvswitch, or nvls=false", h.Fabric)
	}
	if _, nvls := set["nvls"]; !nvls {
		// NVLS needs NVSwitch multicast, which no GPU before Hopper (nor
		// AMD's) has: off, from the fact that excludes it, no guess.
		_, cc := set["cc"]
		switch {
		case !h.GPU.SupportsNVLS() && h.Sources.NVLS == SourceCatalog:
			h.NVLS = false // the catalog's GPU runs none, whatever the fabric
		case !h.GPU.SupportsNVLS() && cc:
			h.NVLS, h.Sources.NVLS = false, SourceUser // the compute capability given
		case (fabric || sw) && h.Fabric != FabricNVSwitch:
			h.NVLS, h.Sources.NVLS = false, SourceUser // the fabric given has no NVSwitch
		}
	}
	return h, nil
}

// CompCapISA returns the LLVM target of h's GPU where the catalog lacks
// the GPU and its compute capability alone makes it AMD's (Describe's cc,
// nccl.ISAOfCompCap: 9.5 is gfx950's GFXIP version, and no NVIDIA GPU's);
// "" where the catalog, a name that is a target, the logs or nothing does.
func (h *Hardware) CompCapISA() string {
	g := h.GPU
	if g.Known || g.ISA == "" || nccl.ISAOf(g.Name) != "" || g.ISA != nccl.ISAOfCompCap(g.CompCap) {
		return ""
	}
	return g.ISA
}

// parseRate reads a Describe rate, such as 400Gb/s or 50GB/s, within
// [minRate, maxRate].
func parseRate(value string) (float64, error) {
	bw, err := units.ParseBandwidth(value)
	if err != nil {
		return 0, err
	}
	if !(bw >= minRate && bw <= maxRate) {
		return 0, fmt.Errorf("want a rate from %s to %s, such as 400Gb/s or 50GB/s", units.FormatBandwidth(minRate), units.FormatBandwidth(maxRate))
	}
	return bw, nil
}

// maxCount and maxRate bound Describe's counts (links, topo.MaxLinks,
// which a capture's reader shares) and rates, and minRate its rates from
// below: beyond them a description is a typing error, not a
// machine (NVLink 5 is 50 GB/s a link, the fastest NIC 800 Gb/s, the
// slowest a 1 Gb/s Ethernet port; a rate of 400 in bytes a second is
// 400 Gb/s written without its unit).
//
// maxLinkRate and maxNICRate bound one link's rate and one NIC's: four
// times NVLink 5's 50 GB/s a link in one direction (AMD's Infinity Fabric
// links move up to 77 GB/s), and ConnectX-9's 1.6 Tb/s. Above them a rate
// is another quantity: a GPU's total written as link-bw (H100's 450 GB/s
// over 18 links took a 1 GiB AllReduce on 8 GPUs to 244 µs), or a NIC's
// rate in bytes where bits were meant (400GB/s for 400Gb/s).
//
// maxNICs bounds a host's NICs: the bound of the NIC counts the log reader
// keeps (nccltests.MaxNICs), so that a count a log gives is one a
// description takes.
const (
	maxCount    = 1 << 16
	maxNICs     = nccltests.MaxNICs
	maxRate     = 10e12 // B/s
	minRate     = 1e8   // B/s
	maxLinkRate = 200e9 // B/s
	maxNICRate  = 200e9 // B/s, 1.6 Tb/s
	// maxOversub bounds oversub (below it), minNetLatency and
	// maxNetLatency net-lat.
	maxOversub    = 1e3
	minNetLatency = 0.1
	maxNetLatency = 1e3
)

// assumedLinks reports that nothing but an assumption gives the GPU's
// links: a GPU the catalog does not hold, undescribed (its NVLinks' rate,
// or a PCIe fabric the user or a capture gave).
func (h *Hardware) assumedLinks() bool {
	return !h.given(h.Sources.LinkBW) && !h.GPU.Known && !(h.Fabric == FabricPCIe && h.given(h.Sources.Fabric))
}

// bridgeable reports that the GPUs' fabric is PCIe but NVLink bridges
// may join some of them, or do: an assumed PCIe between cards that take a
// bridge (GPU.BridgeLinks), or NVLink pairs that a capture shows or -hw
// pairs=true gives (nvlinkPairs). A GPU's bytes then leave over its
// bridge as well as PCIe, so PCIe's rate bounds nothing.
func (h *Hardware) bridgeable() bool {
	return h.Fabric == FabricPCIe && (h.nvlinkPairs || !h.given(h.Sources.Fabric) && h.GPU.BridgeLinks > 0)
}

// set applies one key of Describe.
func (h *Hardware) set(key, value string) error {
	countUpTo := func(least, most int) (int, error) {
		n, err := strconv.Atoi(value)
		if err != nil || n < least || n > most {
			return 0, fmt.Errorf("want a count from %d to %d", least, most)
		}
		return n, nil
	}
	count := func(least int) (int, error) { return countUpTo(least, maxCount) }
	flag := func() (bool, error) {
		on, err := strconv.ParseBool(value)
		if err != nil {
			return false, fmt.Errorf("want true or false")
		}
		return on, nil
	}
	rate := func() (float64, error) { return parseRate(value) }
	var err error
	switch key {
	case "cc":
		var v float64
		v, err = strconv.ParseFloat(value, 64)
		// A compute capability is kept to its tenth's digit, rounded
		// (9.04 is 9.0, 3.05 is 3.1), as CompCap holds it. The bound is on
		// the value before it is converted, which a value beyond an int
		// overflows, and on the value kept: 19.95 rounds to 20.0, which
		// the GPU's check refuses (CompCap below 200).
		if err != nil || !(v >= 3 && v < 20) || int(v*10+0.5) >= 200 {
			return fmt.Errorf("want a compute capability such as 9.0")
		}
		h.GPU.CompCap = int(v*10 + 0.5)
	case "links":
		h.NVLinks, err = countUpTo(0, topo.MaxLinks)
		h.GPU.NVLinks = h.NVLinks
	case "link-bw":
		h.GPU.NVLinkBW, err = rate()
		if err == nil && h.GPU.NVLinkBW > maxLinkRate {
			return fmt.Errorf("%s is beyond any link's rate (at most %s): link-bw is one link's, in one direction; a GPU's total over its links is gpu-bw=%[1]s", value, units.FormatBandwidth(maxLinkRate))
		}
	case "host-bw":
		h.HostBW, err = rate()
		if err == nil && h.HostBW > maxLinkRate {
			return fmt.Errorf("%s is beyond any link's rate (at most %s): host-bw is the bus bandwidth of a Ring AllReduce through host memory, such as 18GB/s", value, units.FormatBandwidth(maxLinkRate))
		}
	case "system":
		return h.setSystem(value)
	case "fabric":
		k := slices.Index(fabricNames[:], strings.ToLower(value))
		if k < 0 {
			return fmt.Errorf("want %s", strings.Join(fabricNames[:], ", "))
		}
		h.Fabric = Fabric(k)
	case "switch":
		var on bool
		on, err = flag()
		h.Fabric = FabricPCIe
		if on {
			h.Fabric = FabricNVSwitch
		}
	case "nvls":
		h.NVLS, err = flag()
	case "collnet":
		h.CollNet, err = flag()
	case "pairs":
		h.nvlinkPairs, err = flag()
	case "pcie":
		gen, e := strconv.Atoi(strings.TrimPrefix(strings.ToLower(value), "gen")) // "gen5" is 5
		if e != nil || gen < 3 || gen > 6 {
			return fmt.Errorf("pcie=%s: want 3, 4, 5 or 6, the PCIe generation of the cards' x16 link", value)
		}
		h.GPU.PCIeGen = gen
	case "gpus":
		h.hostGPUs, err = count(1)
		h.hostLeast = false
	case "nics":
		h.NICs, err = countUpTo(1, maxNICs)
	case "nic-bw":
		h.NICBW, err = rate()
		if err == nil && h.NICBW > maxNICRate {
			return fmt.Errorf("%s is %s, beyond any NIC's line rate (at most %s): a NIC's rate is in bits a second, such as 400Gb/s", value, formatBitRate(h.NICBW), formatBitRate(maxNICRate))
		}
	case "domain":
		h.Domain, err = count(0)
	case "group":
		h.Group, err = count(0)
	case "oversub":
		h.Oversubscription, err = strconv.ParseFloat(value, 64)
		if err == nil && !(h.Oversubscription >= 1 && h.Oversubscription < maxOversub) {
			err = fmt.Errorf("want a ratio of at least 1, such as 2 for 2:1")
		}
	case "nic-path":
		t, perr := nccl.ParsePathType(value)
		if perr != nil || !(t >= nccl.PathPIX && t <= nccl.PathSYS) {
			return fmt.Errorf("want one of %s", strings.Join(nicPaths(), ", "))
		}
		h.NICPath = t
	case "net-lat":
		h.NetLatency, err = strconv.ParseFloat(strings.TrimSuffix(strings.ToLower(value), "x"), 64)
		if err != nil || !(h.NetLatency >= minNetLatency && h.NetLatency <= maxNetLatency) {
			return fmt.Errorf("want a multiple of NCCL's network latency from 0.1 to 1000, such as 16")
		}
	case "cpu":
		k := slices.IndexFunc(cpus, func(c cpuName) bool { return c.key == strings.ToLower(value) })
		if k < 0 {
			return fmt.Errorf("want intel, amd, arm or power")
		}
		h.CPU = cpus[k].cpu
	default:
		if k := factKey(key); k != "" {
			return fmt.Errorf("unknown key: the fact %s is given as %s=%s", key, k, value)
		}
		return fmt.Errorf("unknown key: want one of %s", DescribeKeyNames())
	}
	return err
}

// factKey returns the Describe key that sets the fact named name, as the
// facts lines print it (nic_path: nic-path), or the key name spells with
// '_' for '-'; "" for none.
func factKey(name string) string {
	for _, f := range facts {
		if f.name == name && f.key != "" {
			return f.key
		}
	}
	k := strings.ReplaceAll(name, "_", "-")
	if slices.ContainsFunc(DescribeKeys, func(d struct{ Key, Doc string }) bool { return d.Key == k }) {
		return k
	}
	return ""
}

// A cpuName is a CPU NCCL tells apart: the value of Describe's cpu key,
// and how Hardware.String names it.
type cpuName struct {
	key, name string
	cpu       nccl.CPU
}

// cpus are the CPUs of Describe's cpu key; Intel, the zero CPU, first.
var cpus = []cpuName{
	{"intel", "x86 Intel", nccl.CPU{Arch: nccl.X86, Vendor: nccl.Intel}},
	{"amd", "x86 AMD", nccl.CPU{Arch: nccl.X86, Vendor: nccl.AMD}},
	{"arm", "Arm", armCPU},
	{"power", "POWER", nccl.CPU{Arch: nccl.Power, Vendor: nccl.OtherVendor}},
}

// armCPU is the Grace CPU of GH200, GB200, GB300 and GB10 boards.
var armCPU = nccl.CPU{Arch: nccl.ARM, Vendor: nccl.OtherVendor}

// DescribeKeyNames lists the keys of DescribeKeys, comma-separated.
func DescribeKeyNames() string {
	keys := make([]string, len(DescribeKeys))
	for i, k := range DescribeKeys {
		keys[i] = k.Key
	}
	return strings.Join(keys, ", ")
}
