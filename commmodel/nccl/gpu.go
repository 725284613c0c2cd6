package nccl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// GPU is what the model needs of a GPU product: its compute capability and
// its GPU-to-GPU links. Compute capabilities are NVIDIA's (the CUDA GPUs
// table, developer.nvidia.com/cuda-gpus, and the CUDA C++ Programming
// Guide's table of compute capabilities). NVLink figures are the product's
// datasheet total divided over its links and two directions; link counts
// of NVSwitch boards are also what nvidia-smi topo -m prints (NV18, NV12,
// NV8) in the captures under topo/testdata/real. A zero NVLinks means a
// product without NVLink to a switch (a PCIe card, or a bridge that is
// optional).
//
// An AMD Instinct GPU is described in the same terms, as RCCL (NCCL's port
// to ROCm) sees it: CompCap is the GPU's GFXIP major and minor version,
// major·10+minor, which HIP reports as hipDeviceProp_t.major and .minor and
// RCCL keeps as its compCap (gfx90a is 9.0: 90; gfx942 is 9.4: 94; gfx950
// is 9.5: 95; the GFXIP columns of ROCm's "AMD GPU specifications",
// rocm.docs.amd.com/en/latest/reference/gpu-specs.html); ISA names the
// target (gfx942), and NVLinks and NVLinkBW count its Infinity Fabric
// (xGMI) links to the other GPUs, which play NVLink's part. ISA is "" for
// NVIDIA GPUs.
type GPU struct {
	// Name is the product, as gpuTable spells it.
	Name string
	// CompCap is the compute capability times ten (90 for 9.0); for an
	// AMD GPU, its GFXIP version times ten (94 for gfx942).
	CompCap int
	// ISA is the LLVM target of an AMD GPU (gfx908, gfx90a, gfx942, gfx950), ""
	// for an NVIDIA GPU.
	ISA string
	// NVLinks is the number of NVLink links per GPU (Infinity Fabric links
	// for an AMD GPU).
	NVLinks int
	// NVLinkBW is one link's bandwidth in one direction, B/s.
	NVLinkBW float64
	// BridgeLinks are the NVLinks, at NVLinkBW each, of the NVLink bridge
	// that joins a PCIe card to one other card where the product offers
	// one; NVLinks is 0 for such a card, whose bridge is not always fitted.
	BridgeLinks int
	// PCIeGen is the generation of the host PCIe x16 link (0 if unknown).
	PCIeGen int
	// NoP2P reports that NVIDIA's driver gives no GPU peer-to-peer access
	// between two such cards over PCIe: NCCL moves their data through host
	// memory (its SHM transport), far below the link's rate.
	NoP2P bool
	// Known reports that the figures are the catalog's (ParseGPU); false
	// for UnknownGPU's assumptions and for figures given by hand.
	Known bool
}

// SupportsNVLS reports whether g can run NVLink SHARP: an NVIDIA GPU of
// compute capability 9.0 or later (NCCL's NVLS needs Hopper; the node must
// also have NVSwitch). AMD GPUs have no NVLS.
func (g GPU) SupportsNVLS() bool { return g.ISA == "" && g.CompCap >= 90 }

// gpuEntry maps the words of a product name to its figures. Entries are
// tried in order and the first whose every key occurs in the name wins, so
// the longer names come first.
type gpuEntry struct {
	keys []string
	gpu  GPU
}

// gpuTable lists the products nccl-tests and rccl-tests print in their
// Rank lines. Sources per row:
//
//	compute capability   NVIDIA CUDA GPUs table (developer.nvidia.com/cuda-gpus)
//	V100 SXM2            Tesla V100 datasheet: NVLink 300 GB/s, 6 links (NV1/NV2 cube mesh:
//	                     topo/testdata/real/azure_nd40rs_v2_8gpu_cube_mesh.txt)
//	V100 SXM3            DGX-2 datasheet: 16 V100 of 32 GB, each with 6 NVLinks to the
//	                     NVSwitches, 300 GB/s
//	P100 SXM2            Tesla P100 datasheet: NVLink 160 GB/s, 4 links
//	A100 SXM4            A100 datasheet: NVLink 600 GB/s, 12 links (NV12:
//	                     topo/testdata/real/a100_nps4_glued_columns_nccltests311.txt)
//	A800 SXM4            A800 datasheet: NVLink 400 GB/s, 8 links (NV8:
//	                     topo/testdata/real/a800_nv8_two_nics_per_pair_tabs.txt)
//	H100/H200 SXM, H20   H100, H200 and H20 datasheets: NVLink 900 GB/s, 18 links (NV18:
//	                     topo/testdata/real/h100_hgx_8nic_sglang30401.txt, and the H20-3e
//	                     capture of NVIDIA/nccl-tests issue #321 in data/topology)
//	GH200                GH200 Grace Hopper Superchip datasheet: the H100's NVLink 900 GB/s,
//	                     18 links, for GH200 NVL32 and NVL2; PCIe Gen5
//	H800 SXM             H800 datasheet: NVLink 400 GB/s, 8 links
//	B200, B300, GB200,   Blackwell datasheets (HGX B200/B300, GB200/GB300 NVL72): NVLink 1.8 TB/s,
//	GB300                18 links (NV18: topo/testdata/real/b300_cx8_pxb_deepep590.txt)
//	H100 PCIe, H100 NVL, H100 and A100 datasheets: an NVLink bridge joins two cards at 600 GB/s,
//	A100 PCIe            12 links (BridgeLinks) of the SXM part's rate
//	H200 NVL             H200 product page and datasheet (nvidia.com/en-us/data-center/h200,
//	                     specifications, H200 NVL): "2- or 4-way NVIDIA NVLink bridge: 900GB/s per
//	                     GPU", beside PCIe Gen5 128 GB/s: the SXM part's 18 links of 25 GB/s a
//	                     direction (BridgeLinks), shared among a 4-way bridge's 3 peers
//	RTX and L cards      each product's datasheet: a PCIe card without NVLink to a switch (the
//	                     two-card NVLink bridge of the RTX A-series and Quadro RTX is optional)
//	RTX A6000, A40,      NVIDIA Ampere GA102 GPU Architecture whitepaper: third-generation NVLink
//	RTX A5000,           of four x4 links, each 14.0625 GB/s a direction, 112.5 GB/s in all
//	GeForce RTX 3090     between two GPUs (BridgeLinks); the RTX A6000's specifications: "NVLink
//	                     Interconnect 112.5 GB/s (bidirectional)", a 2-way bridge. The GA102
//	                     cards without an NVLink connector (A10, A10G, RTX A4000, RTX 3080) have none
//	Turing RTX           Quadro RTX 6000/8000 and GeForce RTX 2080 Ti product pages: an NVLink
//	                     bridge of 100 GB/s both ways, 2 links of 25 GB/s a direction
//	                     (BridgeLinks); GeForce RTX 2080: 50 GB/s, 1 link
//	MI250X, MI250        AMD Instinct MI250X/MI250 datasheets: 8 Infinity Fabric links of
//	                     100 GB/s both ways per OAM package (25 GT/s x16: 50 GB/s a direction);
//	                     ROCm lists each of the package's two GCDs as a GPU, so a GPU here is
//	                     a GCD with half the package's external links (4), the in-package link
//	                     to its sibling GCD not counted; gfx90a; PCIe Gen4
//	MI100                ROCm's "AMD Instinct MI100 microarchitecture" page: a hive of four GPUs,
//	                     fully connected by Infinity Fabric links of 23 GT/s, so 3 links a GPU;
//	                     16 lanes of 2 bytes a transfer (as its MI250 page counts them): 46 GB/s
//	                     a direction; gfx908, GFXIP 9.0; PCIe Gen4
//	PCI device names     ROCm releases before the marketing names print the PCI device ("Device
//	                     738c"); pci.ids (Debian package pci.ids 0.0~2023.04.11): 738c and 738e
//	                     "Arcturus GL-XL [Instinct MI100]", 7408 "Aldebaran/MI200 [Instinct
//	                     MI250X]", 740c "Aldebaran/MI200 [Instinct MI250X/MI250]" (the two share
//	                     their figures here)
//	MI300X, MI325X       AMD Instinct MI300X and MI325X datasheets: 7 Infinity Fabric links of
//	                     128 GB/s both ways (64 GB/s a direction), one to each other GPU of an
//	                     8-GPU platform; gfx942; PCIe Gen5
//	MI350X, MI355X       AMD Instinct MI350X and MI355X datasheets: 7 Infinity Fabric links of
//	                     153.6 GB/s both ways (76.8 GB/s a direction); gfx950; PCIe Gen5
//	AMD GFXIP versions   ROCm's "AMD GPU specifications" (GFXIP major and minor columns)
//	GeForce RTX 40, 50   no P2P from NVIDIA's driver (NoP2P): "GeForce cards do not support P2P"
//	                     (NCCL's maintainer on two RTX 5090s, NVIDIA/nccl-tests#287; #289 alike);
//	                     NCCL's topology lines type RTX 4090 pairs PHB and SYS, through the CPU
//	                     (NVIDIA/nccl-tests#307); P2P between them takes a patched kernel module
//	                     (tinygrad/open-gpu-kernel-modules#17, #29). The RTX 30 series keeps P2P:
//	                     users report it between RTX 3090s on driver 535 (NVIDIA/nccl#1127)
//	PCIe Gen             the product's host interface in its datasheet
//
// Names are matched without regard to case, so "NVIDIA H100 80GB HBM3" and
// "NVIDIA H100 PCIe" are told apart by the words they carry.
var gpuTable = []gpuEntry{
	{[]string{"GB300"}, GPU{Name: "GB300", CompCap: 103, NVLinks: 18, NVLinkBW: 50e9, PCIeGen: 6}},
	{[]string{"B300"}, GPU{Name: "B300", CompCap: 103, NVLinks: 18, NVLinkBW: 50e9, PCIeGen: 6}},
	{[]string{"GB200"}, GPU{Name: "GB200", CompCap: 100, NVLinks: 18, NVLinkBW: 50e9, PCIeGen: 6}},
	{[]string{"B200"}, GPU{Name: "B200", CompCap: 100, NVLinks: 18, NVLinkBW: 50e9, PCIeGen: 5}},
	{[]string{"GB10"}, GPU{Name: "GB10", CompCap: 121}},
	{[]string{"RTX PRO 6000"}, GPU{Name: "RTX PRO 6000 Blackwell", CompCap: 120, PCIeGen: 5}},
	{[]string{"RTX 5090"}, GPU{Name: "GeForce RTX 5090", CompCap: 120, PCIeGen: 5, NoP2P: true}},
	{[]string{"RTX 5080"}, GPU{Name: "GeForce RTX 5080", CompCap: 120, PCIeGen: 5, NoP2P: true}},
	{[]string{"GH200"}, GPU{Name: "GH200", CompCap: 90, NVLinks: 18, NVLinkBW: 25e9, PCIeGen: 5}},
	{[]string{"H200", "NVL"}, GPU{Name: "H200 NVL", CompCap: 90, NVLinkBW: 25e9, BridgeLinks: 18, PCIeGen: 5}},
	{[]string{"H200"}, GPU{Name: "H200 SXM", CompCap: 90, NVLinks: 18, NVLinkBW: 25e9, PCIeGen: 5}},
	{[]string{"H100", "PCIE"}, GPU{Name: "H100 PCIe", CompCap: 90, NVLinkBW: 25e9, BridgeLinks: 12, PCIeGen: 5}},
	{[]string{"H100", "NVL"}, GPU{Name: "H100 NVL", CompCap: 90, NVLinkBW: 25e9, BridgeLinks: 12, PCIeGen: 5}},
	{[]string{"H100"}, GPU{Name: "H100 SXM", CompCap: 90, NVLinks: 18, NVLinkBW: 25e9, PCIeGen: 5}},
	{[]string{"H800", "PCIE"}, GPU{Name: "H800 PCIe", CompCap: 90, PCIeGen: 5}},
	{[]string{"H800"}, GPU{Name: "H800 SXM", CompCap: 90, NVLinks: 8, NVLinkBW: 25e9, PCIeGen: 5}},
	{[]string{"H20"}, GPU{Name: "H20", CompCap: 90, NVLinks: 18, NVLinkBW: 25e9, PCIeGen: 5}},
	{[]string{"L40S"}, GPU{Name: "L40S", CompCap: 89, PCIeGen: 4}},
	{[]string{"L40"}, GPU{Name: "L40", CompCap: 89, PCIeGen: 4}},
	{[]string{"L20"}, GPU{Name: "L20", CompCap: 89, PCIeGen: 4}},
	{[]string{"L4"}, GPU{Name: "L4", CompCap: 89, PCIeGen: 4}},
	{[]string{"RTX 4090"}, GPU{Name: "GeForce RTX 4090", CompCap: 89, PCIeGen: 4, NoP2P: true}},
	{[]string{"RTX 4080"}, GPU{Name: "GeForce RTX 4080", CompCap: 89, PCIeGen: 4, NoP2P: true}},
	{[]string{"RTX 6000 ADA"}, GPU{Name: "RTX 6000 Ada", CompCap: 89, PCIeGen: 4}},
	{[]string{"RTX 5000 ADA"}, GPU{Name: "RTX 5000 Ada", CompCap: 89, PCIeGen: 4}},
	{[]string{"RTX 4000 ADA"}, GPU{Name: "RTX 4000 Ada", CompCap: 89, PCIeGen: 4}},
	{[]string{"A800", "PCIE"}, GPU{Name: "A800 PCIe", CompCap: 80, PCIeGen: 4}},
	{[]string{"A800"}, GPU{Name: "A800 SXM4", CompCap: 80, NVLinks: 8, NVLinkBW: 25e9, PCIeGen: 4}},
	{[]string{"A100", "PCIE"}, GPU{Name: "A100 PCIe", CompCap: 80, NVLinkBW: 25e9, BridgeLinks: 12, PCIeGen: 4}},
	{[]string{"A100"}, GPU{Name: "A100 SXM4", CompCap: 80, NVLinks: 12, NVLinkBW: 25e9, PCIeGen: 4}},
	{[]string{"A30"}, GPU{Name: "A30", CompCap: 80, PCIeGen: 4}},
	{[]string{"A40"}, GPU{Name: "A40", CompCap: 86, NVLinkBW: 14.0625e9, BridgeLinks: 4, PCIeGen: 4}},
	{[]string{"A10G"}, GPU{Name: "A10G", CompCap: 86, PCIeGen: 4}},
	{[]string{"A10"}, GPU{Name: "A10", CompCap: 86, PCIeGen: 4}},
	{[]string{"RTX A6000"}, GPU{Name: "RTX A6000", CompCap: 86, NVLinkBW: 14.0625e9, BridgeLinks: 4, PCIeGen: 4}},
	{[]string{"RTX A5000"}, GPU{Name: "RTX A5000", CompCap: 86, NVLinkBW: 14.0625e9, BridgeLinks: 4, PCIeGen: 4}},
	{[]string{"RTX A4000"}, GPU{Name: "RTX A4000", CompCap: 86, PCIeGen: 4}},
	{[]string{"RTX 3090"}, GPU{Name: "GeForce RTX 3090", CompCap: 86, NVLinkBW: 14.0625e9, BridgeLinks: 4, PCIeGen: 4}},
	{[]string{"RTX 3080"}, GPU{Name: "GeForce RTX 3080", CompCap: 86, PCIeGen: 4}},
	{[]string{"RTX 8000"}, GPU{Name: "Quadro RTX 8000", CompCap: 75, NVLinkBW: 25e9, BridgeLinks: 2, PCIeGen: 3}},
	{[]string{"RTX 6000"}, GPU{Name: "Quadro RTX 6000", CompCap: 75, NVLinkBW: 25e9, BridgeLinks: 2, PCIeGen: 3}},
	{[]string{"RTX 2080 TI"}, GPU{Name: "GeForce RTX 2080 Ti", CompCap: 75, NVLinkBW: 25e9, BridgeLinks: 2, PCIeGen: 3}},
	{[]string{"RTX 2080"}, GPU{Name: "GeForce RTX 2080", CompCap: 75, NVLinkBW: 25e9, BridgeLinks: 1, PCIeGen: 3}},
	{[]string{"T4"}, GPU{Name: "T4", CompCap: 75, PCIeGen: 3}},
	{[]string{"V100", "PCIE"}, GPU{Name: "V100 PCIe", CompCap: 70, PCIeGen: 3}},
	{[]string{"V100", "SXM3"}, GPU{Name: "V100 SXM3", CompCap: 70, NVLinks: 6, NVLinkBW: 25e9, PCIeGen: 3}},
	{[]string{"V100S"}, GPU{Name: "V100S PCIe", CompCap: 70, PCIeGen: 3}},
	{[]string{"V100"}, GPU{Name: "V100 SXM2", CompCap: 70, NVLinks: 6, NVLinkBW: 25e9, PCIeGen: 3}},
	{[]string{"P100", "PCIE"}, GPU{Name: "P100 PCIe", CompCap: 60, PCIeGen: 3}},
	{[]string{"P100"}, GPU{Name: "P100 SXM2", CompCap: 60, NVLinks: 4, NVLinkBW: 20e9, PCIeGen: 3}},
	{[]string{"MI355X"}, GPU{Name: "AMD Instinct MI355X", CompCap: 95, ISA: "gfx950", NVLinks: 7, NVLinkBW: 76.8e9, PCIeGen: 5}},
	{[]string{"MI350X"}, GPU{Name: "AMD Instinct MI350X", CompCap: 95, ISA: "gfx950", NVLinks: 7, NVLinkBW: 76.8e9, PCIeGen: 5}},
	{[]string{"MI325X"}, GPU{Name: "AMD Instinct MI325X", CompCap: 94, ISA: "gfx942", NVLinks: 7, NVLinkBW: 64e9, PCIeGen: 5}},
	{[]string{"MI300X"}, GPU{Name: "AMD Instinct MI300X", CompCap: 94, ISA: "gfx942", NVLinks: 7, NVLinkBW: 64e9, PCIeGen: 5}},
	{[]string{"MI250X"}, GPU{Name: "AMD Instinct MI250X", CompCap: 90, ISA: "gfx90a", NVLinks: 4, NVLinkBW: 50e9, PCIeGen: 4}},
	{[]string{"MI250"}, GPU{Name: "AMD Instinct MI250", CompCap: 90, ISA: "gfx90a", NVLinks: 4, NVLinkBW: 50e9, PCIeGen: 4}},
	{[]string{"DEVICE", "7408"}, GPU{Name: "AMD Instinct MI250X", CompCap: 90, ISA: "gfx90a", NVLinks: 4, NVLinkBW: 50e9, PCIeGen: 4}},
	{[]string{"DEVICE", "740C"}, GPU{Name: "AMD Instinct MI250X", CompCap: 90, ISA: "gfx90a", NVLinks: 4, NVLinkBW: 50e9, PCIeGen: 4}},
	{[]string{"MI100"}, GPU{Name: "AMD Instinct MI100", CompCap: 90, ISA: "gfx908", NVLinks: 3, NVLinkBW: 46e9, PCIeGen: 4}},
	{[]string{"DEVICE", "738C"}, GPU{Name: "AMD Instinct MI100", CompCap: 90, ISA: "gfx908", NVLinks: 3, NVLinkBW: 46e9, PCIeGen: 4}},
	{[]string{"DEVICE", "738E"}, GPU{Name: "AMD Instinct MI100", CompCap: 90, ISA: "gfx908", NVLinks: 3, NVLinkBW: 46e9, PCIeGen: 4}},
}

// ErrUnknownGPU is the cause of a ParseGPU error for a name the table does
// not hold.
var ErrUnknownGPU = errors.New("unknown GPU product")

// UnknownISA is Config.ISA for an AMD GPU whose LLVM target the catalog
// does not give (a card it lacks, run under RCCL): RCCL's rules for the
// targets it does not list apply, such as LL128 off by default.
const UnknownISA = "gfx"

// ParseGPU maps a GPU name as nccl-tests and rccl-tests print it in their
// Rank lines ("NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "Tesla
// V100-SXM2-32GB", "NVIDIA H20", "NVIDIA GB300", "NVIDIA L40S", "AMD
// Instinct MI300X") to the product's figures, with Known set. A name the
// table does not know is an error wrapping ErrUnknownGPU: a caller that
// must go on takes LookupGPU's figures instead, or gives the compute
// capability and links directly.
func ParseGPU(name string) (GPU, error) {
	words := " " + strings.ToUpper(strings.NewReplacer("-", " ", "_", " ", "/", " ").Replace(name)) + " "
	for _, e := range gpuTable {
		ok := true
		for _, k := range e.keys {
			if !containsWord(words, k) {
				ok = false
				break
			}
		}
		if ok {
			g := e.gpu
			g.Known = true
			return g, nil
		}
	}
	return GPU{}, fmt.Errorf("nccl: GPU %q: %w (give its compute capability and NVLink count)", name, ErrUnknownGPU)
}

// NearGPU returns, for a name that ParseGPU does not know, the catalog's
// name of a product one of whose one-word keys begins with a word of name
// (at least three characters, with a digit): "AMD Instinct MI355X" for
// "MI355". A word of letters alone and the word after it that begins with
// a digit count as one word too, so that a series written apart from its
// number is the product's: "MI-355X" and "MI 355X" are MI355X. "" where no
// key begins so.
func NearGPU(name string) string {
	fields := strings.Fields(strings.ToUpper(strings.NewReplacer("-", " ", "_", " ", "/", " ").Replace(name)))
	words := slices.Clone(fields)
	for i := 1; i < len(fields); i++ {
		if a, b := fields[i-1], fields[i]; !strings.ContainsAny(a, digits) && strings.IndexAny(b, digits) == 0 {
			words = append(words, a+b)
		}
	}
	for _, w := range words {
		if len(w) < 3 || !strings.ContainsAny(w, digits) {
			continue
		}
		for _, e := range gpuTable {
			if k := e.keys[0]; len(e.keys) == 1 && !strings.Contains(k, " ") && strings.HasPrefix(k, w) && (k != w || !slices.Contains(fields, w)) {
				return e.gpu.Name
			}
		}
	}
	return ""
}

// AmbiguousGPU returns, for a name that ParseGPU takes as one product but
// that is commonly said of others, a note naming them; "" where the name
// is plain. A bare "RTX 6000" matches the 2018 Quadro RTX 6000 (Turing,
// PCIe Gen3), while the RTX 6000 Ada Generation and the RTX PRO 6000
// Blackwell, whose names contain it, are the cards sold since 2022.
func AmbiguousGPU(name string) string {
	g, err := ParseGPU(name)
	if err != nil || g.Name != "Quadro RTX 6000" || strings.Contains(strings.ToUpper(name), "QUADRO") {
		return ""
	}
	return fmt.Sprintf("%q is ambiguous: it is taken as the Quadro RTX 6000 (Turing, 2018: PCIe Gen3, an optional NVLink bridge of 2 links), not the RTX 6000 Ada Generation (-gpu \"RTX 6000 Ada\": PCIe Gen4) or the RTX PRO 6000 Blackwell (-gpu \"RTX PRO 6000\": PCIe Gen5); name the card in full (-gpu \"Quadro RTX 6000\" for the Turing card)", name)
}

// digits are the decimal digits, as strings.ContainsAny takes them.
const digits = "0123456789"

// CatalogGPUs returns the names of the catalog's GPUs, each once, in the
// catalog's order; amd selects AMD's (those with an ISA) or NVIDIA's.
func CatalogGPUs(amd bool) []string {
	var out []string
	for _, e := range gpuTable {
		if (e.gpu.ISA != "") == amd && !slices.Contains(out, e.gpu.Name) {
			out = append(out, e.gpu.Name)
		}
	}
	return out
}

// LookupGPU returns ParseGPU's figures for a GPU the catalog holds, and
// UnknownGPU(name) for one it does not: it never fails, and Known says
// which. A caller that goes on with an unknown GPU should calibrate its
// bandwidths from measurements with wide priors and say what it assumed.
func LookupGPU(name string) GPU {
	if g, err := ParseGPU(name); err == nil {
		return g
	}
	return UnknownGPU(name)
}

// UnknownGPU is what the model assumes of a GPU the catalog does not hold,
// named name, with Known false: a PCIe Gen5 card of compute capability 9.0
// without NVLink, whose NCCL constants (Hopper's) are those of the GPUs of
// 2023 to 2025 and of RCCL's tuner as this package models it. Its
// bandwidths are placeholders for measurements to replace. A name that is
// an LLVM target is that target's (ISAOf), and one that names AMD's brands
// (AMDName) is AMD's, of UnknownISA: RCCL's rules apply to it, not NCCL's.
func UnknownGPU(name string) GPU {
	isa := ISAOf(name)
	if isa == "" && AMDName(name) {
		isa = UnknownISA
	}
	return GPU{Name: name, CompCap: 90, ISA: isa, PCIeGen: 5}
}

// AMDName reports whether a GPU's name is AMD's, as ROCm's tools print a
// product name: it holds the word Instinct or Radeon, or a word of an
// Instinct model, MI and a digit ("AMD Instinct MI300A", "AMD Radeon
// Graphics", "AMD MI308X"). The word AMD alone is not enough: it names
// AMD's CPUs too ("AMD EPYC 9654").
func AMDName(name string) bool {
	for _, w := range strings.Fields(strings.ToUpper(strings.NewReplacer("-", " ", "_", " ", "/", " ").Replace(name))) {
		if w == "INSTINCT" || w == "RADEON" || len(w) > 2 && strings.HasPrefix(w, "MI") && strings.ContainsAny(w[2:3], digits) {
			return true
		}
	}
	return false
}

// ISAOf returns the LLVM target a GPU's name is, as ROCm prints a device
// by its target where it has no product name ("gfx942",
// "gfx942:sramecc+:xnack-"), and "" for any other name.
func ISAOf(name string) string {
	w, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(name)), ":")
	if len(w) < 6 || len(w) > 8 || !strings.HasPrefix(w, "gfx") || strings.Trim(w[3:], "0123456789abcdef") != "" {
		return ""
	}
	return w
}

// ISAOfCompCap returns the LLVM target of a GPU described by its compute
// capability cc alone (times ten) where only the catalog's AMD GPUs carry
// it, as their GFXIP version: gfx942 for 94 (MI300X, MI325X), gfx950 for
// 95 (MI350X, MI355X); UnknownISA where they carry it with more than one
// target. It is "" where an NVIDIA GPU of the catalog has cc too (90 is
// Hopper's as well as MI100's and MI250X's GFXIP 9.0) or no AMD GPU does.
func ISAOfCompCap(cc int) string {
	isa := ""
	for _, e := range gpuTable {
		switch {
		case e.gpu.CompCap != cc:
		case e.gpu.ISA == "":
			return "" // an NVIDIA GPU's
		case isa == "" || isa == e.gpu.ISA:
			isa = e.gpu.ISA
		default:
			isa = UnknownISA
		}
	}
	return isa
}

// ISAGPUs returns the names of the catalog's GPUs of LLVM target isa, each
// once, in the catalog's order.
func ISAGPUs(isa string) []string {
	var out []string
	for _, e := range gpuTable {
		if isa != "" && e.gpu.ISA == isa && !slices.Contains(out, e.gpu.Name) {
			out = append(out, e.gpu.Name)
		}
	}
	return out
}

// containsWord reports whether key occurs in words as whole words: words
// is padded with spaces, so " key " is the test.
func containsWord(words, key string) bool {
	return strings.Contains(words, " "+key+" ")
}
