package nccl

import (
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// Names round-trip, and parse as NCCL_ALGO/NCCL_PROTO (strcasecmp) accept
// them.
func TestNames(t *testing.T) {
	for a := range Algo(NumAlgos) {
		for _, s := range []string{a.String(), " " + a.String() + " "} {
			if got, err := ParseAlgo(s); err != nil || got != a {
				t.Errorf("ParseAlgo(%q) = %v, %v", s, got, err)
			}
		}
	}
	// NCCL's protocol names are commmodel's, ignoring case.
	for p := range Protocol(NumProtocols) {
		if got, err := commmodel.ParseProtocol(ProtocolName(p)); err != nil || got != p {
			t.Errorf("commmodel.ParseProtocol(%q) = %v, %v", ProtocolName(p), got, err)
		}
	}
	if ProtocolName(LL128) != "LL128" || ProtocolName(Simple) != "Simple" || ProtocolName(-1) != "Protocol(-1)" {
		t.Errorf("ProtocolName: %q, %q, %q", ProtocolName(LL128), ProtocolName(Simple), ProtocolName(-1))
	}
	for f := range Func(NumFuncs) {
		if got, err := ParseFunc(f.String()); err != nil || got != f {
			t.Errorf("ParseFunc(%q) = %v, %v", f.String(), got, err)
		}
	}
	for s, want := range map[string]Algo{"ring": AlgoRing, "NVLSTREE": AlgoNVLSTree, "collnetdirect": AlgoCollNetDirect, "pat": AlgoPAT,
		"collnet-direct": AlgoCollNetDirect, "collnet-chain": AlgoCollNetChain} {
		if got, err := ParseAlgo(s); err != nil || got != want {
			t.Errorf("ParseAlgo(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if got, err := ParseFunc("all_reduce"); err != nil || got != FuncAllReduce {
		t.Errorf("ParseFunc(all_reduce) = %v, %v", got, err)
	}
	for _, s := range []string{"collnet", "nvls_tree", ""} {
		if _, err := ParseAlgo(s); err == nil {
			t.Errorf("ParseAlgo(%q) accepted", s)
		}
	}
	if Algo(7).String() != "Algo(7)" {
		t.Error("out-of-range names")
	}
	if _, err := FuncOf(commmodel.AllToAll); err == nil {
		t.Error("FuncOf(AllToAll) accepted")
	}
	if f, err := FuncOf(commmodel.ReduceScatter); err != nil || f != FuncReduceScatter {
		t.Errorf("FuncOf(ReduceScatter) = %v, %v", f, err)
	}
}

// TestPathTypeNames: NCCL's path types in NCCL's order (NCCL 2.30.7
// src/graph/topo.h, topoPathTypeStr in src/graph/topo.cc), read back by
// ParsePathType and written as text by name.
func TestPathTypeNames(t *testing.T) {
	const names = "LOC NVL NVB C2C PIX PXB P2C PXN PHB SYS NET DIS "
	got := ""
	for p := range numPathTypes {
		got += p.String() + " "
		if q, err := ParsePathType(strings.ToLower(p.String())); err != nil || q != p {
			t.Errorf("ParsePathType(%q) = %v, %v", p, q, err)
		}
		if b, err := p.MarshalText(); err != nil || string(b) != p.String() {
			t.Errorf("%v.MarshalText() = %q, %v", p, b, err)
		}
	}
	if got != names {
		t.Errorf("path types %q, want %q", got, names)
	}
	// RCCL's AMD build names NVL "XGMI" (ROCm/rccl src/graph/topo.cc,
	// topoPathTypeStr, at 0cbce2a7).
	if p, err := ParsePathType("XGMI"); err != nil || p != PathNVL {
		t.Errorf(`ParsePathType("XGMI") = %v, %v; want NVL`, p, err)
	}
	if _, err := ParsePathType("QQQ"); err == nil {
		t.Error(`ParsePathType("QQQ") read a path type`)
	}
}

// TestAlgorithm: the commmodel algorithm of each of NCCL's runs the
// collective asked for and bears the name commlab spells NCCL's algorithm
// with, which ParseAlgo reads back (ring Broadcast is commmodel's
// pipelined broadcast, NCCL's chain of chunks). Every algorithm NCCL models
// for AllReduce, AllGather, ReduceScatter and Broadcast from 2.23 on has
// one (modelled), but for NVLS and CollNetDirect outside AllReduce.
func TestAlgorithm(t *testing.T) {
	m := &Model{v: Latest}
	for _, c := range commmodel.Collectives() {
		f, ferr := FuncOf(c)
		for a := range Algo(NumAlgos) {
			got := a.Algorithm(c, 8)
			if got == nil {
				typeless := c != commmodel.AllReduce && (a == AlgoNVLS || a == AlgoCollNetDirect)
				if ferr == nil && m.modelled(f, a) && !typeless {
					t.Errorf("%v %v: no commmodel algorithm", c, a)
				}
				continue
			}
			if got.Collective() != c {
				t.Errorf("%v %v: commmodel's %s runs %v", c, a, got.Name(), got.Collective())
			}
			name := got.Name()
			if c == commmodel.Broadcast && name == "pipelined" {
				name = "ring"
			}
			if back, err := ParseAlgo(name); err != nil || back != a {
				t.Errorf("%v %v: commmodel's %q parses as %v, %v", c, a, got.Name(), back, err)
			}
		}
	}
	if got := AlgoTree.Algorithm(commmodel.AllReduce, 4); got != (commmodel.Tree{PerNode: 4}) {
		t.Errorf("AlgoTree.Algorithm(AllReduce, 4) = %#v", got)
	}
	if names := len(Algorithms(commmodel.AllGather, 1)); names != 2 || len(Algorithms(commmodel.AllGather, 8)) != 1 {
		t.Errorf("AllGather: %d algorithms at one GPU per node, %d at 8; want PAT at one only", names, len(Algorithms(commmodel.AllGather, 8)))
	}
}

func TestParseVersion(t *testing.T) {
	for s, want := range map[string]Version{
		"2.21.5":                     {2, 21, 5},
		"2.29.7+cuda12.9":            {2, 29, 7},
		"v2.30.7-1":                  {2, 30, 7},
		"NCCL version 2.18.3+cuda12": {2, 18, 3},
		"22907":                      {2, 29, 7}, // nccl-tests' nccl-library=22907
		"2804":                       {2, 8, 4},  // NCCL_VERSION_CODE to 2.8 (nccl.h's NCCL_VERSION)
		"2.23":                       {2, 23, 0},
	} {
		if got, err := ParseVersion(s); err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "2", "2.x.1", "1.2.3.4", "123", "2950", "19999", "3.0.0", "35000", "99.1.0", "v1.9.4"} {
		if v, err := ParseVersion(s); err == nil {
			t.Errorf("ParseVersion(%q) accepted as %v", s, v)
		}
	}
	for _, v := range []Version{{2, 17, 1}, {2, 31, 0}, {3, 0, 0}} {
		if v.Supported() == nil {
			t.Errorf("%v supported", v)
		}
		if _, err := New(Config{Version: v, Ranks: 2, Nodes: 1, MinCompCap: 90}); err == nil {
			t.Errorf("New accepted %v", v)
		}
	}
}

// TestParseList checks NCCL_ALGO/NCCL_PROTO lists on the examples of NCCL
// 2.30.7 src/graph/tuning.cc's parseList comment, and the pre-2.24 syntax.
func TestParseList(t *testing.T) {
	on := func(e enable, f Func, p Protocol) bool { return e.proto[f][p] == 1 }
	e, err := enableLists(Latest, "", "^LL128;allreduce:LL128")
	if err != nil {
		t.Fatal(err)
	}
	// "Enable everything but LL128, but only LL128 for allreduce."
	if !on(e, FuncBroadcast, LL) || on(e, FuncBroadcast, LL128) || !on(e, FuncBroadcast, Simple) || on(e, FuncAllReduce, LL) || !on(e, FuncAllReduce, LL128) || on(e, FuncAllReduce, Simple) {
		t.Errorf("^LL128;allreduce:LL128 gives %v", e.proto)
	}
	e, err = enableLists(Latest, "", "LL,Simple;allreduce:^LL")
	if err != nil {
		t.Fatal(err)
	}
	// "Enable LL and Simple for all functions, but everything except LL for allreduce."
	if !on(e, FuncAllGather, LL) || on(e, FuncAllGather, LL128) || on(e, FuncAllReduce, LL) || !on(e, FuncAllReduce, LL128) || !on(e, FuncAllReduce, Simple) {
		t.Errorf("LL,Simple;allreduce:^LL gives %v", e.proto)
	}
	e, err = enableLists(Latest, "ring,collnetdirect;allreduce:tree,collnetdirect;broadcast:ring", "")
	if err != nil {
		t.Fatal(err)
	}
	if e.algo[FuncAllGather] != [NumAlgos]int8{0, 1, 1, 0, 0, 0, 0} || e.algo[FuncAllReduce] != [NumAlgos]int8{1, 0, 1, 0, 0, 0, 0} || e.algo[FuncBroadcast] != [NumAlgos]int8{0, 1, 0, 0, 0, 0, 0} {
		t.Errorf("per-function NCCL_ALGO gives %v", e.algo)
	}
	// Before 2.24 unknown names are ignored and empty ones skipped
	// (NVIDIA/nccl issue #892 ran NCCL_ALGO=Tree,Ring,,CollnetDirect,CollnetChain,NVLS).
	e, err = enableLists(Version{2, 18, 3}, "Tree,Ring,,CollnetDirect,CollnetChain,NVLS,bogus", "")
	if err != nil {
		t.Fatal(err)
	}
	if e.algo[FuncAllReduce] != [NumAlgos]int8{1, 1, 1, 1, 1, 0, 0} {
		t.Errorf("2.18 list gives %v", e.algo[FuncAllReduce])
	}
	for _, bad := range []struct {
		v Version
		s string
	}{{Latest, "bogus"}, {Latest, "ring;tree"}, {Latest, "allreduceX:ring"}, {Version{2, 23, 4}, "allreduce:ring"}} {
		if _, err := enableLists(bad.v, bad.s, ""); err == nil {
			t.Errorf("%v: NCCL_ALGO=%q accepted", bad.v, bad.s)
		}
	}
}

// TestFuncCollective: Collective inverts FuncOf on every collective NCCL's
// tuner models, and Reduce, which commmodel does not have, has none.
func TestFuncCollective(t *testing.T) {
	n := 0
	for _, c := range commmodel.Collectives() {
		f, err := FuncOf(c)
		if err != nil {
			continue
		}
		n++
		if back, ok := f.Collective(); !ok || back != c {
			t.Errorf("%v -> %v -> %v, %v", c, f, back, ok)
		}
	}
	if n != 4 {
		t.Errorf("%d collectives map to NCCL functions, want 4 (all but AllToAll)", n)
	}
	if c, ok := FuncReduce.Collective(); ok {
		t.Errorf("Reduce -> %v", c)
	}
}

// ArchOf follows NVIDIA's compute capabilities (CUDA C Programming Guide,
// "Compute Capabilities"): V100 7.0 and T4 7.5 are Volta's row, A100 8.0
// and L40S 8.9 Ampere's, H100 9.0 Hopper's, B200 10.0, GB300 10.3 and
// RTX 5090 12.0 Blackwell's; before NCCL 2.25 Blackwell reads Hopper's row.
func TestArchOf(t *testing.T) {
	for cc, want := range map[int]Arch{70: Volta, 75: Volta, 80: Ampere, 89: Ampere, 90: Hopper, 100: Blackwell, 103: Blackwell, 120: Blackwell} {
		if got := ArchOf(cc); got != want {
			t.Errorf("ArchOf(%d) = %v, want %v", cc, got, want)
		}
	}
	if got := compCapIndex(Version{2, 24, 3}, 100); got != Hopper {
		t.Errorf("compCapIndex(2.24.3, 100) = %v, want Hopper", got)
	}
	if got := compCapIndex(Version{2, 25, 1}, 100); got != Blackwell {
		t.Errorf("compCapIndex(2.25.1, 100) = %v, want Blackwell", got)
	}
}

// TestNearGPU: a name the catalog does not know, one of whose words begins
// a product's key, points at that product ("MI355" at the MI355X, "H10",
// a typo, at the H100); a word of fewer than three characters or without a
// digit, or a product of its own ("MI308X", "MI300A"), points nowhere.
//
// A series written apart from its number is the product's (a red team:
// -gpu MI-355X got no hint, where MI355 got one, and the name moved the
// prediction 2.9x); the catalog's NVIDIA names, hyphenated as nccl-tests
// prints them, still resolve to their own entries, and NearGPU is not
// asked of them.
func TestNearGPU(t *testing.T) {
	for name, want := range map[string]string{
		"MI355":                 "AMD Instinct MI355X",
		"amd mi325":             "AMD Instinct MI325X",
		"MI-355X":               "AMD Instinct MI355X", // the red team's spellings
		"mi-355x":               "AMD Instinct MI355X",
		"AMD Instinct MI-355X":  "AMD Instinct MI355X",
		"MI 300X":               "AMD Instinct MI300X",
		"MI-355":                "AMD Instinct MI355X",
		"AMD Instinct MI308X":   "",
		"AMD Instinct MI-308X":  "", // a product of its own, hyphenated
		"AMD Instinct MI300A":   "",
		"AMD Instinct MI-300A":  "",
		"H10":                   "H100 SXM", // a red team's typo: "NVIDIA H10 80GB HBM3"
		"NVIDIA H10 80GB HBM3":  "H100 SXM",
		"NVIDIA H1":             "",
		"gfx942":                "",
		"NVIDIA RTX 6000D":      "",
		"NVIDIA GeForce RTX 40": "",
	} {
		if got := NearGPU(name); got != want {
			t.Errorf("NearGPU(%q) = %q, want %q", name, got, want)
		}
	}
	// gpuTable's entries, by the names nccl-tests prints.
	for name, want := range map[string]string{
		"NVIDIA A100-SXM4-40GB":   "A100 SXM4",
		"A100-SXM4-40GB":          "A100 SXM4",
		"H100-SXM":                "H100 SXM",
		"NVIDIA H100 PCIe":        "H100 PCIe",
		"GB200":                   "GB200",
		"NVIDIA GB200":            "GB200",
		"Tesla V100-SXM2-32GB":    "V100 SXM2",
		"NVIDIA GeForce RTX 4090": "GeForce RTX 4090",
	} {
		if g, err := ParseGPU(name); err != nil || g.Name != want {
			t.Errorf("ParseGPU(%q) = %q, %v; want %q", name, g.Name, err, want)
		}
	}
	if _, err := ParseGPU("MI-355X"); err == nil {
		t.Error("ParseGPU(MI-355X) resolved; NearGPU's hint is what names the MI355X")
	}
}

// TestISAOfCompCap: a compute capability that only the catalog's AMD GPUs
// carry (their GFXIP version) names their target; one an NVIDIA GPU has
// names none, and no value taken as AMD's is one of NVIDIA's.
func TestISAOfCompCap(t *testing.T) {
	for _, c := range []struct {
		cc   int
		want string
		src  string
	}{
		{94, "gfx942", "gpuTable: MI300X, MI325X (GFXIP 9.4)"},
		{95, "gfx950", "gpuTable: MI350X, MI355X (GFXIP 9.5)"},
		{90, "", "gpuTable: H100 and H200 are 9.0, as are MI250X (gfx90a) and MI100 (gfx908)"},
		{80, "", "gpuTable: A100 8.0; no AMD GPU"},
		{103, "", "gpuTable: B300 10.3"},
		{87, "", "CUDA GPUs table: Jetson AGX Orin 8.7, which gpuTable lacks; no AMD GPU"},
		{110, "", "CUDA GPUs table: Jetson Thor 11.0; no AMD GPU in gpuTable (RDNA3's gfx1100 is GFXIP 11.0)"},
		{0, "", "no compute capability"},
	} {
		if got := ISAOfCompCap(c.cc); got != c.want {
			t.Errorf("ISAOfCompCap(%d) = %q, want %q (%s)", c.cc, got, c.want, c.src)
		}
	}
	// NVIDIA's compute capabilities: the CUDA GPUs table
	// (developer.nvidia.com/cuda-gpus) and the CUDA C++ Programming
	// Guide's table of compute capabilities, Kepler (3.0) to Blackwell
	// (12.1). An AMD GPU added to gpuTable with one of them (RDNA3's GFXIP
	// 11.0, RDNA4's 12.0) must not make a GPU described by it AMD's.
	nvidia := []int{30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121}
	for _, e := range gpuTable {
		if e.gpu.ISA == "" {
			if !slices.Contains(nvidia, e.gpu.CompCap) {
				t.Errorf("%s: compute capability %d is none of NVIDIA's", e.gpu.Name, e.gpu.CompCap)
			}
			continue
		}
		isa := ISAOfCompCap(e.gpu.CompCap)
		switch {
		case isa != "" && slices.Contains(nvidia, e.gpu.CompCap):
			t.Errorf("%s: GFXIP %d is an NVIDIA compute capability, and ISAOfCompCap takes it as %s", e.gpu.Name, e.gpu.CompCap, isa)
		case isa != "" && isa != e.gpu.ISA && isa != UnknownISA:
			t.Errorf("%s: ISAOfCompCap(%d) = %s, want its own %s", e.gpu.Name, e.gpu.CompCap, isa, e.gpu.ISA)
		case isa == "" && !slices.Contains(nvidia, e.gpu.CompCap):
			t.Errorf("%s: GFXIP %d is no NVIDIA GPU's, and ISAOfCompCap takes it as nobody's", e.gpu.Name, e.gpu.CompCap)
		}
	}
}

// TestCatalogGPUs: the catalog's AMD GPUs are its Instinct products, each
// once (MI250X has three keys), and no NVIDIA GPU is among them.
func TestCatalogGPUs(t *testing.T) {
	amd := CatalogGPUs(true)
	if want := []string{"AMD Instinct MI355X", "AMD Instinct MI350X", "AMD Instinct MI325X", "AMD Instinct MI300X", "AMD Instinct MI250X", "AMD Instinct MI250", "AMD Instinct MI100"}; !slices.Equal(amd, want) {
		t.Errorf("AMD: %q, want %q", amd, want)
	}
	for _, n := range CatalogGPUs(false) {
		if strings.HasPrefix(n, "AMD") {
			t.Errorf("NVIDIA's list holds %q", n)
		}
	}
}
