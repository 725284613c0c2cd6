package nccl

import (
	"cmp"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestParseGPU checks GPU names as nccl-tests' Rank lines print them; the
// expected figures are gpuTable's, whose sources it lists.
func TestParseGPU(t *testing.T) {
	cases := []struct {
		name      string
		want      string
		cc, links int
	}{
		{"NVIDIA H100 80GB HBM3", "H100 SXM", 90, 18},
		{"NVIDIA H100 PCIe", "H100 PCIe", 90, 0},
		{"NVIDIA H100 NVL", "H100 NVL", 90, 0},
		{"NVIDIA A100-SXM4-80GB", "A100 SXM4", 80, 12},
		{"NVIDIA A100 80GB PCIe", "A100 PCIe", 80, 0},
		{"NVIDIA A800-SXM4-80GB", "A800 SXM4", 80, 8},
		{"Tesla V100-SXM2-32GB", "V100 SXM2", 70, 6},
		{"Tesla V100S-PCIE-32GB", "V100S PCIe", 70, 0},
		{"Tesla V100-SXM3-32GB", "V100 SXM3", 70, 6}, // DGX-2 (data/logs/paired/v100-sxm3-dgx2)
		{"Tesla T4", "T4", 75, 0},
		{"NVIDIA H20", "H20", 90, 18},
		{"NVIDIA H20-3e", "H20", 90, 18},
		{"NVIDIA H200", "H200 SXM", 90, 18},
		{"NVIDIA H800", "H800 SXM", 90, 8},
		{"NVIDIA GH200 480GB", "GH200", 90, 18},
		{"NVIDIA B200", "B200", 100, 18},
		{"NVIDIA GB200", "GB200", 100, 18},
		{"NVIDIA B300 SXM6 AC", "B300", 103, 18},
		{"NVIDIA GB300", "GB300", 103, 18},
		{"NVIDIA L40S", "L40S", 89, 0},
		{"NVIDIA L40", "L40", 89, 0},
		{"NVIDIA L4", "L4", 89, 0},
		{"NVIDIA A10G", "A10G", 86, 0},
		{"NVIDIA GeForce RTX 4090", "GeForce RTX 4090", 89, 0},
		{"NVIDIA GeForce RTX 5090", "GeForce RTX 5090", 120, 0},
		{"NVIDIA RTX A5000", "RTX A5000", 86, 0},
		{"NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada", 89, 0},
		{"Quadro RTX 6000", "Quadro RTX 6000", 75, 0},
		{"NVIDIA GeForce RTX 2080 Ti", "GeForce RTX 2080 Ti", 75, 0},
		{"NVIDIA GeForce RTX 2080", "GeForce RTX 2080", 75, 0},
		// rccl-tests' Rank lines (data/nccltests/testdata/real/mi300x_*,
		// mi355x_*); rocm-smi's "MI250X/MI250". CompCap is GFXIP major·10+minor.
		{"AMD Instinct MI300X", "AMD Instinct MI300X", 94, 7},
		{"AMD Instinct MI300X VF", "AMD Instinct MI300X", 94, 7},
		{"AMD Instinct MI325X", "AMD Instinct MI325X", 94, 7},
		{"AMD Instinct MI355X", "AMD Instinct MI355X", 95, 7},
		{"AMD Instinct MI250X/MI250", "AMD Instinct MI250X", 90, 4},
		{"AMD Instinct MI100", "AMD Instinct MI100", 90, 3},
		// Older ROCm prints the PCI device (LUMI's MI100s,
		// data/nccltests/testdata/real/mi100_2x1_allreduce_lumi_eap.log).
		{"Device 738c", "AMD Instinct MI100", 90, 3},
		{"Device 740c", "AMD Instinct MI250X", 90, 4},
	}
	for _, c := range cases {
		g, err := ParseGPU(c.name)
		if err != nil || g.Name != c.want || g.CompCap != c.cc || g.NVLinks != c.links || !g.Known {
			t.Errorf("ParseGPU(%q) = %+v, %v; want %s, SM%d, %d links, known", c.name, g, err, c.want, c.cc, c.links)
		}
	}
	// "NVIDIA Graphics Device" (an unreleased board) and "NVIDIA RTX 6000D"
	// are what real logs print (data/logs/paired/gb300-nvl72,
	// data/nccltests/testdata/real): nothing to map them to.
	for _, name := range []string{"NVIDIA Quadro GV100", "NVIDIA Graphics Device", "NVIDIA RTX 6000D", "Device 7400", "7408", ""} {
		if _, err := ParseGPU(name); !errors.Is(err, ErrUnknownGPU) {
			t.Errorf("ParseGPU(%q): err = %v, want ErrUnknownGPU", name, err)
		}
		if g := LookupGPU(name); g != UnknownGPU(name) || g.Known || g.Name != name || g.NVLinks != 0 || g.CompCap != 90 {
			t.Errorf("LookupGPU(%q) = %+v, want UnknownGPU's assumptions: unknown, SM90, no links", name, g)
		}
	}
	if g := LookupGPU("NVIDIA H100 80GB HBM3"); !g.Known || g.Name != "H100 SXM" {
		t.Errorf("LookupGPU(H100) = %+v, want the catalog's", g)
	}
}

// Infinity Fabric links per direction are half the data sheets' both-ways
// figure: MI300X and MI325X 7 x 128 GB/s, MI355X 7 x 153.6 GB/s, MI250X 100
// GB/s per link. AMD GPUs have no NVLS, NVIDIA's from Hopper do.
func TestAMDInstinct(t *testing.T) {
	for _, c := range []struct {
		name, isa string
		bw        float64
	}{
		{"AMD Instinct MI300X", "gfx942", 64e9},
		{"AMD Instinct MI325X", "gfx942", 64e9},
		{"AMD Instinct MI355X", "gfx950", 76.8e9},
		{"AMD Instinct MI250X", "gfx90a", 50e9},
	} {
		g, err := ParseGPU(c.name)
		if err != nil || g.ISA != c.isa || g.NVLinkBW != c.bw || g.SupportsNVLS() {
			t.Errorf("%s: %+v, %v (NVLS %v); want %s, %g B/s a link, no NVLS", c.name, g, err, g.SupportsNVLS(), c.isa, c.bw)
		}
	}
	h100, _ := ParseGPU("NVIDIA H100 80GB HBM3")
	a100, _ := ParseGPU("NVIDIA A100-SXM4-80GB")
	if !h100.SupportsNVLS() || a100.SupportsNVLS() {
		t.Errorf("NVLS: H100 %v, A100 %v; want true, false", h100.SupportsNVLS(), a100.SupportsNVLS())
	}
	mi300x, _ := ParseGPU("AMD Instinct MI300X")
	gs, err := System{GPU: mi300x, GPUsPerNode: 8, Nodes: 1, NVSwitch: true, NVLS: true}.Graphs(Latest)
	if err != nil || gs.NVLS.NChannels != 0 {
		t.Errorf("MI300X host asked for NVLS: %+v, %v; want no NVLS graph", gs.NVLS, err)
	}
}

// TestSystemGraphs checks the simplified search against GRAPH lines and
// per-call times of public logs.
func TestSystemGraphs(t *testing.T) {
	h100, _ := ParseGPU("NVIDIA H100 80GB HBM3")
	h20, _ := ParseGPU("NVIDIA H20")

	// NVIDIA/nccl issue #1189 (testdata/graph_h20_2gpu_2nic_nccl1189.log):
	// 2 H20 per node, each with its own 400G NIC, PCIe Gen5.
	f, err := os.Open("testdata/graph_h20_2gpu_2nic_nccl1189.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	logged, n, err := ReadGraphs(f)
	if err != nil || n != 1 {
		t.Fatalf("ReadGraphs: %d graphs, %v", n, err)
	}
	gs, err := System{GPU: h20, GPUsPerNode: 2, Nodes: 2, NVSwitch: true, NICs: 2, NICBW: 50e9}.Graphs(Version{2, 21, 5})
	if err != nil {
		t.Fatal(err)
	}
	if r, w := gs.Ring, logged.Ring; r.NChannels != w.NChannels || r.BWIntra != w.BWIntra || r.BWInter != w.BWInter || r.TypeIntra != w.TypeIntra || r.TypeInter != w.TypeInter {
		t.Errorf("H20 2 x 2 ring %+v, log %+v", r, w)
	}

	cases := []struct {
		name   string
		sys    System
		v      Version
		ringCh int
		ringBW float64
		source string
	}{
		// 18 x 20.0 GB/s = 360 before 2.20: 6 channels at 60 fill it, doubled to 12 x 30.
		{"8 x H100, 2.19", System{GPU: h100, GPUsPerNode: 8, Nodes: 1, NVSwitch: true}, Version{2, 19, 4}, 12, 30,
			"NVIDIA/nccl issue #1367: maxBw 360.0 totalBw 360.0, 12 ring channels, 24 after duplication"},
		// 18 x 20.6 = 370.8: the same 12 x 30, which the Ring/Simple time of
		// NVIDIA/nccl #1595 confirms (TestLogCalls).
		{"8 x H100, 2.21", System{GPU: h100, GPUsPerNode: 8, Nodes: 1, NVSwitch: true}, Version{2, 21, 5}, 12, 30,
			"NVIDIA/nccl issue #1595: 805306368 B Ring/Simple in 3970.683594 us"},
		// 200G NICs, one per GPU: 8 channels at 24 GB/s.
		{"3 x 8 H100, 200G NICs, 2.22", System{GPU: h100, GPUsPerNode: 8, Nodes: 3, NVSwitch: true, NICs: 8, NICBW: 25e9}, Version{2, 22, 3}, 8, 24,
			"NVIDIA/nccl issue #1453: 8589934592 B Ring/Simple in 86069.968750 us (TestLogCalls)"},
	}
	for _, c := range cases {
		gs, err := c.sys.Graphs(c.v)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if gs.Ring.NChannels != c.ringCh || gs.Ring.BWIntra != c.ringBW || gs.Tree.NChannels != c.ringCh {
			t.Errorf("%s: ring %d x %g (tree %d), want %d x %g (%s)", c.name, gs.Ring.NChannels, gs.Ring.BWIntra, gs.Tree.NChannels, c.ringCh, c.ringBW, c.source)
		}
	}

	// The 8 x H100 node of ExampleModel_Choose, derived: ring and tree 12 x
	// 30, NVLS 8 x 40/60 (src/graph/search.cc traced by hand), so the same
	// switch from Ring/LL to NVLS/Simple at 2 MiB.
	sys := System{GPU: h100, GPUsPerNode: 8, Nodes: 1, NVSwitch: true, NVLS: true}
	cfg, err := sys.Config(Latest)
	if err != nil {
		t.Fatal(err)
	}
	want := h100Node(Latest).Graphs
	want.Ring.TypeInter, want.Tree.TypeInter, want.NVLS.TypeInter = PathPIX, PathPIX, PathPIX
	if cfg.Graphs.Ring != want.Ring || cfg.Graphs.Tree != want.Tree || cfg.Graphs.NVLS != want.NVLS {
		t.Errorf("8 x H100 graphs\n%+v\nwant\n%+v", cfg.Graphs, want)
	}
}

// TestSystemNVLSArity checks the NVLS graph of a 64-GPU NVLink domain (16
// GB300 hosts of 4): NCCL caps NVLS at NCCL_MAX_NVLS_ARITY = 32 channels
// (src/graph/search.cc and src/include/device.h at tag v2.30.7-1), and each
// channel loads every GPU's NVLink with bwIntra, its head twice, so 33
// shares must fit 18 x 40.1 = 721.8 GB/s: 20 GB/s (660), not 24 (792), from
// the Blackwell speed array; bwInter rises to twice that, 40.
func TestSystemNVLSArity(t *testing.T) {
	gb300, err := ParseGPU("NVIDIA GB300")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := System{GPU: gb300, GPUsPerNode: 64, Nodes: 1, NVSwitch: true, NVLS: true}.Graphs(Latest)
	if err != nil {
		t.Fatal(err)
	}
	if g := gs.NVLS; g.NChannels != 32 || g.BWIntra != 20 || g.BWInter != 40 {
		t.Errorf("64-GPU NVLS graph %d x %g/%g GB/s, want 32 x 20/40", g.NChannels, g.BWIntra, g.BWInter)
	}
}

// TestSystemErrors checks that a System the search cannot handle is refused.
func TestSystemErrors(t *testing.T) {
	h100, _ := ParseGPU("NVIDIA H100 80GB HBM3")
	for _, s := range []System{
		{GPU: h100, GPUsPerNode: 0, Nodes: 1},
		{GPU: GPU{Name: "unknown"}, GPUsPerNode: 8, Nodes: 1},
		{GPU: GPU{Name: "no links", CompCap: 90}, GPUsPerNode: 8, Nodes: 1, NVSwitch: true},
		{GPU: h100, GPUsPerNode: 8, Nodes: 2, NVSwitch: true}, // no NICs
		{GPU: h100, GPUsPerNode: 8, Nodes: 1, PCIeBW: -1},
	} {
		if _, err := s.Graphs(Latest); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
}

// TestReadGraphs checks that ReadGraphs keeps the first rank's searches in
// NCCL's order (ring, tree, CollNet chain and direct, NVLS) when ranks
// interleave; the lines are in ncclTopoPrintGraph's format with made-up
// values.
func TestReadGraphs(t *testing.T) {
	log := `a:1:2 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 12, bw 30.000000/30.000000, type NVL/PIX, sameChannels 1
a:9:9 [1] NCCL INFO Pattern 4, crossNic 0, nChannels 2, bw 5.000000/5.000000, type NVL/PIX, sameChannels 1
a:1:2 [0] NCCL INFO Pattern 1, crossNic 0, nChannels 12, bw 40.000000/30.000000, type NVL/PIX, sameChannels 0
a:1:2 [0] NCCL INFO Pattern 3, crossNic 0, nChannels 12, bw 30.000000/24.000000, type NVL/PIX, sameChannels 0
a:1:2 [0] NCCL INFO Pattern 6, crossNic 0, nChannels 8, bw 30.000000/24.000000, type NVL/PIX, sameChannels 0
a:1:2 [0] NCCL INFO Pattern 5, crossNic 0, nChannels 8, bw 40.000000/48.000000, type NVL/PIX, sameChannels 0
`
	gs, n, err := ReadGraphs(strings.NewReader(log))
	if err != nil || n != 5 {
		t.Fatalf("ReadGraphs: %d graphs, %v", n, err)
	}
	if gs.Ring.NChannels != 12 || gs.Tree.BWIntra != 40 || gs.CollNetChain.BWInter != 24 || gs.CollNetDirect.NChannels != 8 || gs.NVLS.BWInter != 48 || !gs.Ring.SameChannels {
		t.Errorf("ReadGraphs = %+v", gs)
	}
	_, _, err = ReadGraphs(strings.NewReader("ok\nx Pattern 4, crossNic 0, nChannels 1, bw 1.0/1.0, type NVL/QPI, sameChannels 1\n"))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("bad path type: err = %v, want a *LineError at line 2", err)
	}
}

// TestSystemP2C: a GB200's NIC, on its Grace CPU's PCIe, is P2C from NCCL
// 2.27 on, where LL128 crosses nodes, and PHB before, where it does not
// (src/graph/paths.cc at v2.26.2-1 and v2.27.3-1; 2.27.3's release notes:
// "Add support for P2C (PXN over C2C) and the LL128 protocol").
func TestSystemP2C(t *testing.T) {
	gb200, err := ParseGPU("GB200")
	if err != nil {
		t.Fatal(err)
	}
	sys := System{GPU: gb200, GPUsPerNode: 4, Nodes: 2, NVSwitch: true, NICs: 4, NICBW: 50e9, NICPath: PathP2C}
	for _, c := range []struct {
		v     Version
		path  PathType
		ll128 bool
	}{{Version{2, 26, 2}, PathPHB, false}, {Version{2, 27, 3}, PathP2C, true}} {
		cfg, err := sys.Config(c.v)
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.Graphs.Ring.TypeInter; got != c.path || m.Bandwidth(FuncAllReduce, AlgoRing, LL128) > 0 != c.ll128 {
			t.Errorf("NCCL %v: ring's NIC path %v, LL128 bandwidth %g; want %v, LL128 %v", c.v, got, m.Bandwidth(FuncAllReduce, AlgoRing, LL128), c.path, c.ll128)
		}
	}
}

// TestAMDLL128: RCCL enables LL128 on its own terms, not NCCL's compute
// capability rule: by default on gfx90a (MI250X; ROCm/rccl src/graph/
// tuning.cc of 2024-10), on gfx950 across nodes (ROCm/rccl pull request
// 1731), and on gfx942 only when forced (ROCm/rccl pull request 1549: "not
// enabled by default"), nor on a target it does not list: gfx1201 (a
// Radeon AI PRO R9700, named by its target) and UnknownISA. An H100 on
// one node has it, by NCCL's rule.
func TestAMDLL128(t *testing.T) {
	for _, c := range []struct {
		gpu          string
		nodes, ranks int // ranks a node: 8 unless given
		want         bool
	}{
		{"AMD Instinct MI300X", 1, 0, false},
		{"AMD Instinct MI300X", 2, 0, false},
		{"AMD Instinct MI355X", 1, 0, false},
		{"AMD Instinct MI355X", 2, 0, true},
		// gfx90a: only the Rome models of 16-GCD hosts with 8 NICs set
		// ll128Enabled (ROCm/rccl src/graph/rome_models.cc, models 59 and
		// 65; init.cc leaves it false), not an 8-GCD HPE Cray EX235a's, and
		// on one node, where NCCL's topology keeps no NIC, none matches.
		{"AMD Instinct MI250X", 1, 0, false},
		{"AMD Instinct MI250X", 2, 0, false},
		{"AMD Instinct MI250X", 1, 16, false},
		{"AMD Instinct MI250X", 2, 16, true},
		{"gfx1201", 2, 0, false},
		{UnknownISA, 2, 0, false},
		{"NVIDIA H100 80GB HBM3", 1, 0, true},
	} {
		per := cmp.Or(c.ranks, 8)
		g := LookupGPU(c.gpu)
		if c.gpu == UnknownISA {
			g = UnknownGPU("a card the catalog lacks")
			g.ISA = UnknownISA
		}
		if !g.Known {
			g.NVLinks, g.NVLinkBW = 7, 64e9 // described as an MI300X's (-hw links=7,link-bw=64GB/s)
		}
		s := System{GPU: g, GPUsPerNode: per, Nodes: c.nodes, NVSwitch: true, NICs: 8, NICBW: 50e9} // one hop, as predict describes Infinity Fabric
		cfg, err := s.Config(Latest)
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Available(FuncAllReduce, AlgoRing, LL128); got != c.want {
			t.Errorf("%s on %d nodes of %d: Ring/LL128 available %v, want %v", c.gpu, c.nodes, per, got, c.want)
		}
	}
}

// TestSystemMesh: a node whose GPUs are joined pair by pair (System.Mesh:
// an HGX A100 or H100 board of 4, or Infinity Fabric) has its links
// searched as one hop, as through a switch, but NCCL counts no NVSwitch
// (nvsCount 0): across 2 nodes with CollNet set up it runs no
// CollNetDirect and no NVLS (tuning.cc: "if (nvsCount == 0 && a ==
// NCCL_ALGO_COLLNET_DIRECT) disable"; a review found the model picked
// CollNetDirect for AllGather on a mesh), while CollNetChain stays, and
// on NVSwitch both run. The mesh's ring is the switch's.
func TestSystemMesh(t *testing.T) {
	h100 := LookupGPU("H100 SXM")
	for _, mesh := range []bool{false, true} {
		s := System{GPU: h100, GPUsPerNode: 4, Nodes: 2, NVSwitch: true, Mesh: mesh, NVLinks: 18, NICs: 4, NICBW: 50e9, NVLS: true, CollNet: true}
		cfg, err := s.Config(Latest)
		if err != nil {
			t.Fatal(err)
		}
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		direct := m.Available(FuncAllGather, AlgoCollNetDirect, Simple) || m.Available(FuncAllReduce, AlgoCollNetDirect, Simple)
		nvls := m.Available(FuncAllReduce, AlgoNVLSTree, Simple)
		if direct == mesh || nvls == mesh || !m.Available(FuncAllReduce, AlgoCollNetChain, Simple) {
			t.Errorf("mesh %v: CollNetDirect %v, NVLSTree %v, CollNetChain %v; want the first two %v, the chain on",
				mesh, direct, nvls, m.Available(FuncAllReduce, AlgoCollNetChain, Simple), !mesh)
		}
		if s.Mesh {
			sw := s
			sw.Mesh = false
			a, _ := s.Graphs(Latest)
			b, _ := sw.Graphs(Latest)
			if a.Ring != b.Ring {
				t.Errorf("mesh ring %+v, switch ring %+v; want the same search", a.Ring, b.Ring)
			}
		}
	}
}

// TestISAOf: ROCm names a device by its LLVM target where it has no
// product name, with its feature flags after a colon; a target names the
// catalog's GPUs of it (gpuTable), and no other name is a target.
func TestISAOf(t *testing.T) {
	for _, c := range []struct {
		name, isa string
		gpus      []string
	}{
		{"gfx942", "gfx942", []string{"AMD Instinct MI325X", "AMD Instinct MI300X"}},
		{" GFX942:sramecc+:xnack-", "gfx942", []string{"AMD Instinct MI325X", "AMD Instinct MI300X"}},
		{"gfx950", "gfx950", []string{"AMD Instinct MI355X", "AMD Instinct MI350X"}},
		{"gfx90a", "gfx90a", []string{"AMD Instinct MI250X", "AMD Instinct MI250"}},
		{"gfx1201", "gfx1201", nil},
		{"gfx", "", nil},
		{"gfx94z", "", nil},
		{"AMD Instinct MI300X", "", nil},
		{"NVIDIA H100 80GB HBM3", "", nil},
	} {
		isa := ISAOf(c.name)
		if gpus := ISAGPUs(isa); isa != c.isa || !slices.Equal(gpus, c.gpus) {
			t.Errorf("ISAOf(%q) = %q (catalog %q), want %q (%q)", c.name, isa, gpus, c.isa, c.gpus)
		}
		want := c.isa
		if want == "" && AMDName(c.name) {
			want = UnknownISA
		}
		if g := UnknownGPU(c.name); g.ISA != want {
			t.Errorf("UnknownGPU(%q).ISA = %q, want %q", c.name, g.ISA, want)
		}
	}
	// A name of AMD's brands the catalog lacks is AMD's, of a target the
	// name does not give: RCCL's rules, not NCCL's (a red team: "AMD
	// Instinct MI300A" was taken for an NVIDIA PCIe card).
	for name, amd := range map[string]bool{
		"AMD Instinct MI300A": true, "AMD Radeon Graphics": true, "Instinct MI210": true, "amd-instinct-mi308x": true, "AMD MI308X": true,
		"NVIDIA H100 80GB HBM3": false, "Radeonic 9": false, "Tesla T4": false, "AMD EPYC 9654": false, "AMD Test GPU": false, "MIG 1g.10gb": false,
	} {
		want := ""
		if amd {
			want = UnknownISA
		}
		if AMDName(name) != amd || UnknownGPU(name).ISA != want {
			t.Errorf("%q: AMDName %v, UnknownGPU's ISA %q; want %v, %q", name, AMDName(name), UnknownGPU(name).ISA, amd, want)
		}
	}
}
