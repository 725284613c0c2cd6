package predict

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestDescribe describes known and unknown GPUs: an empty description is
// DefaultHardware, keys override it, and an H100 described key by key
// under another name (18 NVLinks of 25 GB/s, the H100 SXM row of
// nccl.ParseGPU's table) predicts what the H100 does.
func TestDescribe(t *testing.T) {
	const h100 = "NVIDIA H100 80GB HBM3"
	def, err := DefaultHardware(h100)
	if err != nil {
		t.Fatal(err)
	}
	same, err := Describe(h100, "")
	if err != nil || same != def {
		t.Errorf("empty description: %+v, %v; want %+v", same, err, def)
	}
	h, err := Describe(h100, "nics=4, nic-bw=200Gb/s")
	if err != nil || h.NICs != 4 || h.NICBW != 25e9 {
		t.Errorf("nics=4,nic-bw=200Gb/s: %+v, %v", h, err)
	}
	mine, err := Describe("my GPU", "gpu-bw=450GB/s,links=18,cc=9.0,nvls=true,pcie=5")
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	sizes := []float64{1 << 10, 1 << 20, 1 << 30}
	want, err := Reference(def, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Reference(mine, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !scalar.EqualWithinAbs(got[i].Time, want[i].Time, 1e-12*want[i].Time) || got[i].Algorithm != want[i].Algorithm {
			t.Errorf("%g B: described %g s (%s), H100 %g s (%s)", sizes[i], got[i].Time, got[i].Algorithm, want[i].Time, want[i].Algorithm)
		}
	}
}

// TestGPUNameSource: a GPU the catalog lacks is known by the name its
// tables give it, and the fact says whose the name is: the Rank lines'
// "NVIDIA RTX 6000D" of a real log (log), the same name pinned by the user
// (hw), no name at all (assumed). A GPU the catalog holds stays the
// catalog's. A name given for a GPU the catalog does not hold (the H100
// for the RTX 6000D) is said to stand for it, once a table; one that names
// the log's GPU is not. (A name that replaces another of the catalog's is
// TestGPUReplaced.)
func TestGPUNameSource(t *testing.T) {
	const (
		path = "../../data/nccltests/testdata/real/rtx6000d_2x8_allreduce_late2025.log"
		rows = "../../data/nccltests/testdata/real/h200_2x8_allreduce_4nic_baremetal_nccltests380.log" // no Rank lines
	)
	for _, c := range []struct {
		path string
		pin  Pins
		want Source
	}{
		{path, Pins{}, SourceLog},
		{path, Pins{GPU: "NVIDIA RTX 6000D"}, SourceUser},
		{path, Pins{GPU: "NVIDIA H100 80GB HBM3"}, SourceCatalog},
		{rows, Pins{Nodes: 2, PerNode: 8}, SourceAssumed},
	} {
		tabs, problems, err := ReadFile(c.path, func(int) Pins { return c.pin })
		if err != nil || len(tabs) == 0 {
			t.Fatalf("%+v: %d tables, %v", c.pin, len(tabs), err)
		}
		replaced, want := 0, 0
		for _, p := range problems {
			if strings.Contains(p.Error(), `name the GPU "NVIDIA RTX 6000D", which commlab's catalog does not hold: the name given, "NVIDIA H100 80GB HBM3", stands for it`) {
				replaced++
			}
		}
		if c.want == SourceCatalog {
			want = len(tabs)
		}
		if replaced != want {
			t.Errorf("pin %q: %d problems say the name replaces the log's, want %d: %v", c.pin.GPU, replaced, want, problems)
		}
		h, err := Describe(tabs[0].GPU, "")
		if err != nil {
			t.Fatal(err)
		}
		if h, _ = h.FromTables(tabs, 0); h.Sources.GPU != c.want {
			t.Errorf("gpu %s (pin %q): source %q, want %q", h.GPU.Name, c.pin.GPU, h.Sources.GPU, c.want)
		}
	}
}

// TestGPUReplaced: a name given in place of the catalog's GPU a log's Rank
// lines name is said, once a table, with how to keep the log's (nccl-tests
// #309's H100 log given B200); a spelling of the same GPU (H100) is not, and
// nor is a name given for one the catalog lacks (CoreWeave's GB200 rack,
// whose Rank lines print "NVIDIA Graphics Device", which tune needs named)
// told to be left out.
func TestGPUReplaced(t *testing.T) {
	const (
		h100  = "../../data/nccltests/testdata/real/h100_2x8_allreduce_default_nccltests309.log"
		gb200 = "../../data/logs/paired/gb200-nvl72-coreweave/allreduce_1rack.log"
	)
	for _, c := range []struct {
		path, gpu, want string
	}{
		{h100, "B200", `the Rank lines name the GPU "NVIDIA H100 80GB HBM3", and the name given, "B200", replaces it`},
		{h100, "H100", ""},
		{gb200, "NVIDIA GB200", `the Rank lines name the GPU "NVIDIA Graphics Device", which commlab's catalog does not hold: the name given, "NVIDIA GB200", stands for it`},
	} {
		tabs, problems, err := ReadFile(c.path, func(int) Pins { return Pins{GPU: c.gpu, Nodes: 18, PerNode: 4} })
		if c.path == h100 {
			tabs, problems, err = ReadFile(c.path, func(int) Pins { return Pins{GPU: c.gpu} })
		}
		if err != nil || len(tabs) == 0 {
			t.Fatalf("%s: %d tables, %v", c.path, len(tabs), err)
		}
		said := 0
		for _, p := range problems {
			if s := p.Error(); strings.Contains(s, "the Rank lines name the GPU") {
				if c.want == "" || !strings.Contains(s, c.want) || c.path == gb200 && strings.Contains(s, "leave -gpu") {
					t.Errorf("-gpu %s: %s", c.gpu, s)
				}
				said++
			}
		}
		if want := len(tabs) * min(len(c.want), 1); said != want {
			t.Errorf("-gpu %s on %s: said %d times, want %d", c.gpu, c.path, said, want)
		}
	}
}

// TestDescribeAMD describes an AMD Instinct MI300X host (seven Infinity
// Fabric links of 64 GB/s a direction, AMD's data sheet), which the GPU
// catalog also holds, and predicts an AllReduce on it, uncalibrated; the
// "NVIDIA RTX 6000D" of a real nccl-tests log, which it does not hold, is
// taken as nccl.UnknownGPU with every fact assumed but its name, which the
// caller gave; a GPU nobody named is assumed, name and all.
func TestDescribeAMD(t *testing.T) {
	const mi300x = "AMD Instinct MI300X"
	unknown, err := Describe("NVIDIA RTX 6000D", "")
	if err != nil || unknown.GPU.Known || unknown.Sources.GPU != SourceUser || unknown.Fabric != FabricPCIe || !unknown.assumedLinks() {
		t.Errorf("undescribed NVIDIA RTX 6000D: %+v, %v; want an unknown PCIe GPU, assumed, of the caller's name", unknown, err)
	}
	if unnamed, err := Describe(UnnamedGPU, ""); err != nil || unnamed.Sources.GPU != SourceAssumed {
		t.Errorf("unnamed GPU: source %q, %v; want assumed", unnamed.Sources.GPU, err)
	}
	h, err := Describe(mi300x, "cc=9.4,links=7,link-bw=64GB/s")
	if err != nil {
		t.Fatal(err)
	}
	if built, err := Describe(mi300x+" VF", ""); err != nil || built.GPU.CompCap != 94 || built.links() != 7 || built.intraBW() != h.intraBW() {
		t.Errorf("MI300X VF without a description: %+v, %v; want the built-in one, as given explicitly", built, err)
	}
	if over, err := Describe(mi300x, "link-bw=50GB/s"); err != nil || over.intraBW() != 350e9 {
		t.Errorf("MI300X with link-bw=50GB/s: %+v, %v; want it over the built-in description (7 x 50 GB/s)", over, err)
	}
	if h.Fabric != FabricInfinity || h.intraBW() != 448e9 || h.NVLS {
		t.Errorf("%+v: want an Infinity Fabric mesh of 448 GB/s a GPU, without NVLS", h)
	}
	ps, err := Reference(h, Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	// A ring AllReduce of 1 GiB moves 2·7/8 GiB a GPU: at 448 GB/s that is
	// 4.2 ms, which NCCL's model can only exceed.
	if p := ps[0]; !(p.Time > 2*7.0/8*(1<<30)/448e9 && p.Time < 0.1) {
		t.Errorf("1 GiB AllReduce on MI300X: %g s", p.Time)
	}
}

// TestDescribeAMDUnknown: an AMD GPU the catalog lacks, described with
// an MI300X's links (docs/hardware/mi300x.txt's cc, links and link-bw)
// but no fabric, is Infinity Fabric's where its name is its target
// (gfx942) or its logs ran RCCL (gce-hackathon's OCI MI300X log of 2 x 8,
// as its page gives it, whose RCCL version lines name no GPU), not an
// NVSwitch's, and runs RCCL's rules, as it is where its compute
// capability is AMD's alone (9.4, gfx942's GFXIP version):
// it predicts what the catalog's MI300X does, size for size, and RCCL's
// LL128, off on gfx942, is off on it (a red team: Ring/LL128 at 16 MiB,
// 1.77x fast). A name that is no target, of cc=9.0 and with no RCCL log,
// stays on a switch.
func TestDescribeAMDUnknown(t *testing.T) {
	const desc = "cc=9.4,links=7,link-bw=64GB/s"
	sizes := []float64{64 << 10, 1 << 20, 16 << 20, 1 << 30}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	mi300x, err := Describe("AMD Instinct MI300X", desc+",fabric=infinity")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Reference(mi300x, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/mi300x_2x8_allreduce_oci_oke_slinky.log", func(int) Pins { return Pins{Nodes: 2, PerNode: 8} })
	if err != nil || len(tabs) != 1 || !RanRCCL(tabs) || tabs[0].GPU != UnnamedGPU {
		t.Fatalf("%d tables (RCCL %v), %v; want one unnamed GPU's, RCCL's", len(tabs), RanRCCL(tabs), err)
	}
	// Without the cc, which alone makes it AMD's (TestDescribeCompCapAMD):
	// the logs' RCCL does.
	unnamed, err := Describe("", "links=7,link-bw=64GB/s")
	if err != nil {
		t.Fatal(err)
	}
	fromLog, notes := unnamed.FromTables(tabs, 8)
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.Contains(n, "the logs ran RCCL, so") && strings.Contains(n, "fabric=infinity")
	}) {
		t.Errorf("notes %q; want one that the logs ran RCCL, with fabric=infinity", notes)
	}
	isa, err := Describe("gfx942", desc)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Describe("a card of no target", desc)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		h    Hardware
	}{{"gfx942", isa}, {"RCCL's unnamed GPU", fromLog}, {"a card of no target, of cc=9.4", other}} {
		if c.h.Fabric != FabricInfinity || c.h.NVLS || c.h.GPU.ISA == "" {
			t.Errorf("%s: fabric %v, NVLS %v, ISA %q; want Infinity Fabric, no NVLS, AMD's", c.name, c.h.Fabric, c.h.NVLS, c.h.GPU.ISA)
			continue
		}
		got, err := Reference(c.h, q, sizes)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i].Protocol != want[i].Protocol || got[i].Algorithm != want[i].Algorithm || math.Abs(got[i].Time/want[i].Time-1) > 0.01 {
				t.Errorf("%s at %g B: %s/%s %.3g s; the MI300X's %s/%s %.3g s", c.name, sizes[i], got[i].Algorithm, got[i].Protocol, got[i].Time, want[i].Algorithm, want[i].Protocol, want[i].Time)
			}
		}
	}
	// Its host, which nothing gives, is assumed a full mesh of one link a
	// pair (links+1 GPUs, as the MI300 series' platform): a SendRecv of 2
	// GPUs drives one link, as one of 8 does (a review: 7x faster on 2).
	if isa.hostGPUs != 8 || isa.Sources.HostGPUs != SourceAssumed {
		t.Errorf("gfx942: host of %d GPUs (%s); want 8, assumed", isa.hostGPUs, isa.Sources.HostGPUs)
	}
	var sr [2]float64
	for i, k := range []int{2, 8} {
		p, err := Uncalibrated(isa).Predict(Query{Collective: commmodel.SendRecv, Ranks: k, PerNode: k}, []float64{1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		sr[i] = p[0].Time
	}
	if math.Abs(sr[0]/sr[1]-1) > 0.01 {
		t.Errorf("gfx942 SendRecv of 1 GiB: %.3g s on 2 GPUs, %.3g on 8; want one link's time on both", sr[0], sr[1])
	}
	// Links that are not its target's platform's (3, where gfx942's MI325X
	// has 7) make a full mesh of their own: 4 GPUs (a review: a host of 8
	// was assumed, which 3 links cannot join).
	if three, err := Describe("gfx942", "links=3,link-bw=64GB/s"); err != nil || three.hostGPUs != 4 || three.Sources.HostGPUs != SourceAssumed {
		t.Errorf("gfx942 of 3 links: host of %d (%s), %v; want 4, assumed", three.hostGPUs, three.Sources.HostGPUs, err)
	}
	// Of compute capability 9.0, Hopper's as well as MI250X's, it is
	// NVIDIA's, on a switch.
	if nv, err := Describe("a card of no target", "cc=9.0,links=7,link-bw=64GB/s"); err != nil || nv.Fabric != FabricNVSwitch || nv.GPU.ISA != "" {
		t.Errorf("a card of no target, of cc=9.0: fabric %v, ISA %q, %v; want an NVSwitch's, NVIDIA's", nv.Fabric, nv.GPU.ISA, err)
	}
}

// TestDescribeCompCapAMD: a GPU the catalog lacks, described by a compute
// capability that only AMD's GPUs carry (nccl.ISAOfCompCap), is AMD's, of
// the target the catalog gives that version: Infinity Fabric where links
// are given and no fabric is, no NVLS, RCCL's rules (a red team: -hw
// cc=9.5,links=7,link-bw=76.8GB/s, on MI355X logs that name no GPU, was an
// NVSwitch, and tune wrote NCCL's rules for it). A compute capability
// NVIDIA's GPUs have stays NVIDIA's, and an NVIDIA GPU of the catalog
// given an AMD one is an error.
func TestDescribeCompCapAMD(t *testing.T) {
	for _, c := range []struct {
		gpu, spec string
		isa       string // "" for NVIDIA's
		fabric    Fabric
		err       string // a substring of the error, "" for none
		src       string
	}{
		{"", "cc=9.5,links=7,link-bw=76.8GB/s", "gfx950", FabricInfinity, "", "the red team's command; gpuTable's MI355X: GFXIP 9.5, gfx950"},
		{"", "cc=9.4,links=7,link-bw=64GB/s", "gfx942", FabricInfinity, "", "the red team's command, and the -hw usage's MI300X; gpuTable's MI300X: GFXIP 9.4, gfx942"},
		{"AMD Instinct MI308X", "cc=9.4,links=7,link-bw=64GB/s", "gfx942", FabricInfinity, "", "a name the catalog lacks, no target"},
		{"", "cc=9.5", "gfx950", FabricPCIe, "", "no links: a PCIe card, AMD's"},
		{"", "cc=9.4,fabric=pcie", "gfx942", FabricPCIe, "", "the fabric given stands"},
		{"", "cc=9.0,links=7,link-bw=64GB/s", "", FabricNVSwitch, "", "CUDA GPUs table: H100 9.0 (and gpuTable's MI250X, GFXIP 9.0)"},
		{"", "cc=8.7,links=7,link-bw=25GB/s", "", FabricNVSwitch, "", "CUDA GPUs table: Jetson AGX Orin 8.7"},
		{"", "cc=10.3,links=18,link-bw=50GB/s", "", FabricNVSwitch, "", "gpuTable's B300: 10.3"},
		{"", "cc=9.4,fabric=nvswitch,links=7,link-bw=64GB/s", "", 0, "cc=9.4 (AMD's gfx942), joins its GPUs by Infinity Fabric", "AMD's GPUs have no NVSwitch"},
		{"", "cc=9.5,nvls=true,links=7,link-bw=76.8GB/s", "", 0, "NVLS is NVLink SHARP", "AMD's GPUs have no NVLS"},
		{"H100", "cc=9.4", "", 0, "H100 SXM is NVIDIA's, and no NVIDIA GPU has compute capability 9.4, the GFXIP version of AMD's gfx942: give its own, 9.0,", "gpuTable's H100: 9.0"},
	} {
		h, err := Describe(c.gpu, c.spec)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q, %s: %v; want an error with %q (%s)", c.gpu, c.spec, err, c.err, c.src)
			}
			continue
		case err != nil:
			t.Errorf("%q, %s: %v (%s)", c.gpu, c.spec, err, c.src)
			continue
		}
		rccl := Uncalibrated(h).RunsRCCL()
		if h.GPU.ISA != c.isa || h.Fabric != c.fabric || rccl != (c.isa != "") || c.isa != "" && h.NVLS || h.CompCapISA() != c.isa {
			t.Errorf("%q, %s: ISA %q (CompCapISA %q), fabric %v, RCCL %v, NVLS %v; want ISA %q, fabric %v (%s)",
				c.gpu, c.spec, h.GPU.ISA, h.CompCapISA(), h.Fabric, rccl, h.NVLS, c.isa, c.fabric, c.src)
		}
	}
	// The AMD GPU the logs do not name is one of its target's systems, not
	// NVIDIA's (an unnamed GPU of NVIDIA's may be any system's).
	h, err := Describe("", "cc=9.4")
	if err != nil {
		t.Fatal(err)
	}
	systems := SystemsOf(h, 8, []string{"fabric", "links", "link_bw", "nics_per_node", "nic_bw"})
	if len(systems) == 0 {
		t.Error("cc=9.4: no system offered; want the catalog's MI300X systems")
	}
	for _, name := range systems {
		if s, _ := presets.SystemByName(name); !slices.Contains(nccl.ISAGPUs("gfx942"), s.GPU) {
			t.Errorf("cc=9.4: system %s of %s offered; want gfx942's alone", name, s.GPU)
		}
	}
	// A name that is a target gives the GPU's target, and the cc does not
	// make the conclusion its own.
	if named, err := Describe("gfx942", "cc=9.4,links=7,link-bw=64GB/s"); err != nil || named.GPU.ISA != "gfx942" || named.CompCapISA() != "" {
		t.Errorf("gfx942 of cc=9.4: ISA %q, CompCapISA %q, %v; want gfx942 from its name", named.GPU.ISA, named.CompCapISA(), err)
	}
}

// TestDescribeErrors checks that a bad description names what works, and
// that links=0 alone describes GPUs without NVLink: a PCIe host.
func TestDescribeErrors(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"bogus=1", "want one of cc, links"},
		{"links", "want KEY=VALUE"},
		{"cc=abc", "compute capability"},
		{"nic-bw=fast", "nic-bw"},
		{"nics=-1", "count"},
		{"cpu=sparc", "want intel, amd, arm or power"},
		{"nic-path=NVL", "want one of PIX, PXB, P2C, PXN, PHB, SYS"},
		{"nic-path=far", "want one of PIX, PXB, P2C, PXN, PHB, SYS"},
		// Values that describe no machine, and a flag's value in its own words.
		{"nvls=maybe", "nvls=maybe: want true or false"},
		{"nics=0", "want a count from 1"},
		{"nics=1000000", "want a count from 1 to 65536"},
		{"nic-bw=1e9Tb/s", "want a rate from 100 MB/s to 10 TB/s"},
		{"nic-bw=400b/s", "want a rate from 100 MB/s to 10 TB/s"},
		{"fabric=infinity", "Infinity Fabric is AMD Instinct's"},
		{"links=0,fabric=nvswitch", "give links=N of at least 1, or fabric=pcie"},
		{"pcie=7", "pcie=7: want 3, 4, 5 or 6"},
		{"pcie=gen2", "pcie=gen2: want 3, 4, 5 or 6"},
		{"pairs=true", "NVLink pairs are a PCIe host's, and H100 SXM's GPUs are joined by nvswitch"},
		{"pairs=yes", "pairs=yes: want true or false"},
		// gpu-bw's own faults, told apart (red team 38), and a switch and a
		// fabric that disagree.
		{"gpu-bw=0GB/s", "gpu-bw=0GB/s: bandwidth \"0GB/s\": must be positive"},
		{"gpu-bw=10MB/s", "want a rate from 100 MB/s"},
		{"gpu-bw=450GB/s,links=0", "none is known or given (links=0): give links=N of 1 or more"},
		{"switch=true,fabric=pcie", "switch=true and fabric=pcie disagree: give one of them"},
		// NVLS on a fabric given without a switch (red team C: "H100 SXM,
		// PCIe, NVLS", which -algo nvls then refused).
		{"nvls=true,fabric=pcie", "nvls=true: NVLS runs on an NVSwitch's multicast, and fabric=pcie has none"},
		{"nvls=true,fabric=mesh", "and fabric=mesh has none"},
		{"nvls=true,switch=false", "NVLS runs on an NVSwitch's multicast"},
		{"fabric=nvswitch,switch=false", "switch=false and fabric=nvswitch disagree"},
		// A rate of another quantity (red team 42): H100's 450 GB/s, its
		// 18 links' total, as one link's took a 1 GiB AllReduce on 8 GPUs
		// to 244 µs; a NIC's rate in bytes for bits. Each names what works.
		{"link-bw=450GB/s", "link-bw is one link's, in one direction; a GPU's total over its links is gpu-bw=450GB/s"},
		{"gpu-bw=900GB/s,links=2", "gpu-bw=900GB/s: 450 GB/s over 2 links, beyond any link's rate (at most 200 GB/s): give the links the GPU has with links=N"},
		{"nic-bw=400GB/s", "400GB/s is 3200 Gb/s, beyond any NIC's line rate (at most 1600 Gb/s): a NIC's rate is in bits a second"},
		// A compute capability that rounds, to the tenth kept, to 20.0,
		// which the GPU's check refuses (red team C: a library error
		// naming Hardware.GPU.CompCap, exit 1, where cc=20 is the key's).
		{"cc=19.95", "cc=19.95: want a compute capability such as 9.0"},
		{"cc=19.99", "cc=19.99: want a compute capability such as 9.0"},
		// The facts lines' names are not keys: the error names the key.
		{"nic_path=PHB", "the fact nic_path is given as nic-path=PHB"},
		{"nics_per_node=4", "the fact nics_per_node is given as nics=4"},
		{"net_latency=4", "the fact net_latency is given as net-lat=4"},
		{"nvlink_domain=72", "the fact nvlink_domain is given as domain=72"},
	} {
		if _, err := Describe("NVIDIA H100 80GB HBM3", c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.spec, err, c.want)
		}
	}
	// NVIDIA's NVLink fabrics and NVLS on an AMD Instinct host.
	for _, c := range []struct{ spec, want string }{
		{"nvls=true", "NVLS is NVLink SHARP"},
		{"fabric=nvswitch", "joins its GPUs by Infinity Fabric (fabric=infinity) or PCIe"},
		{"fabric=mesh", "not NVLink"},
		{"domain=72", "an NVLink domain across hosts is NVIDIA's"},
	} {
		if _, err := Describe("AMD Instinct MI300X", c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MI300X %q: %v, want an error with %q", c.spec, err, c.want)
		}
	}
	// An AMD GPU the catalog lacks, on Infinity Fabric without its links.
	if _, err := Describe("AMD Instinct MI308X", "fabric=infinity"); err == nil || !strings.Contains(err.Error(), "fabric=infinity without links: give links=N") {
		t.Errorf("MI308X fabric=infinity: %v, want the links asked for", err)
	}
	if h, err := Describe("AMD Instinct MI300X", "fabric=pcie"); err != nil || h.Fabric != FabricPCIe {
		t.Errorf("MI300X fabric=pcie: %v, fabric %v; want PCIe", err, h.Fabric)
	}
	// A PCIe card the catalog lacks, described: its links are no longer
	// assumed; pcie=gen5 is pcie=5.
	if h, err := Describe("NVIDIA RTX 6000D", "cc=12.0,fabric=pcie,pcie=gen5"); err != nil || h.GPU.PCIeGen != 5 || h.assumedLinks() || h.Sources.LinkBW != SourceUser {
		t.Errorf("RTX 6000D as a PCIe Gen5 card: %v, gen %d, links assumed %v; want gen 5, described", err, h.GPU.PCIeGen, h.assumedLinks())
	}
	// NVLink pairs on a PCIe host: the fact nvlink_pairs from the user, and
	// PCIe's rate no bound (bridgeable).
	if h, err := Describe("NVIDIA A100 80GB PCIe", "fabric=pcie,pairs=true"); err != nil || !h.bridgeable() || h.Spec(SourceUser) != "fabric=pcie,pairs=true" {
		t.Errorf("A100 PCIe fabric=pcie,pairs=true: %v, bridgeable %v, spec %q; want bridged pairs given", err, h.bridgeable(), h.Spec(SourceUser))
	}
	// The edges of the rates are machines: NVLink 5's 50 GB/s a link four
	// times over, and a 1.6 Tb/s NIC.
	if _, err := Describe("NVIDIA H100 80GB HBM3", "link-bw=200GB/s,nic-bw=1600Gb/s"); err != nil {
		t.Errorf("link-bw=200GB/s,nic-bw=1600Gb/s: %v", err)
	}
	if h, err := Describe("NVIDIA H100 80GB HBM3", "links=0"); err != nil || h.Fabric != FabricPCIe || h.NVLS {
		t.Errorf("links=0: %v, fabric %v, NVLS %v; want a PCIe host without NVLS", err, h.Fabric, h.NVLS)
	}
}

// TestDescribeCPU sets the host CPU: GB300 boards default to Arm (Grace),
// an H100 host to x86 Intel, and cpu=amd raises NCCL's per-step network
// overhead from 1 to 2 us, which Simple counts three times and which
// replaces the NVLink step latency where it is larger (NCCL 2.30.7
// getNetOverhead and ncclTopoTuneModel): a Ring/Simple AllGather on 2 x 8,
// 15 steps of which 14 inside a node, takes 14 x (6 - 3.4) us = 36.4 us
// longer at any size.
func TestDescribeCPU(t *testing.T) {
	gb, err := DefaultHardware("NVIDIA GB300")
	if err != nil {
		t.Fatal(err)
	}
	if gb.CPU != (nccl.CPU{Arch: nccl.ARM, Vendor: nccl.OtherVendor}) || !strings.Contains(gb.String(), "Arm CPU") {
		t.Errorf("GB300: CPU %+v, %q; want Arm", gb.CPU, gb.String())
	}
	intel, err := Describe("NVIDIA H100 80GB HBM3", "")
	if err != nil {
		t.Fatal(err)
	}
	amd, err := Describe("NVIDIA H100 80GB HBM3", "cpu=AMD")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(intel.String(), "CPU") || !strings.Contains(amd.String(), "x86 AMD CPU") {
		t.Errorf("String: %q and %q; want the CPU named only where it is not x86 Intel", intel.String(), amd.String())
	}
	q := Query{Collective: commmodel.AllGather, Ranks: 16, PerNode: 8, Algo: "Ring", Proto: "Simple"}
	sizes := []float64{1 << 10, 1 << 30}
	pi, err := Reference(intel, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	pa, err := Reference(amd, q, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sizes {
		if d := pa[i].Time - pi[i].Time; !scalar.EqualWithinAbs(d, 36.4e-6, 1e-9) {
			t.Errorf("%g B: AMD - Intel = %.4g s, want 36.4 us", sizes[i], d)
		}
	}
}

// TestDescribeNICPath: a NIC reached through the CPU (PHB) turns LL128 off
// by default across nodes and leaves it on inside one (NCCL 2.30.7 enable
// rules: on Hopper LL128 needs the NIC at PXN or nearer, unless NCCL_PROTO
// asks for it). NCCL's tuner, which picks LL128 for a 2 x 8 AllReduce of
// 1 MiB on PIX NICs, picks another protocol on PHB NICs.
func TestDescribeNICPath(t *testing.T) {
	pix, err := Describe("NVIDIA H100 80GB HBM3", "")
	if err != nil {
		t.Fatal(err)
	}
	phb, err := Describe("NVIDIA H100 80GB HBM3", "nic-path=phb")
	if err != nil {
		t.Fatal(err)
	}
	if phb.NICPath != nccl.PathPHB {
		t.Fatalf("nic-path=phb: %v", phb.NICPath)
	}
	protocol := func(h Hardware, ranks int) string {
		p, err := Reference(h, Query{Collective: commmodel.AllReduce, Ranks: ranks, PerNode: 8}, []float64{1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return p[0].Protocol
	}
	if got := protocol(pix, 16); got != "LL128" {
		t.Errorf("2 x 8 on PIX NICs at 1 MiB: %s, want LL128", got)
	}
	if got := protocol(phb, 16); got == "LL128" {
		t.Errorf("2 x 8 on PHB NICs at 1 MiB: LL128, want another protocol")
	}
	if a, b := protocol(pix, 8), protocol(phb, 8); a != b {
		t.Errorf("one node: %s on PIX NICs, %s on PHB; want the NIC path not to matter", a, b)
	}
}

// TestIntraPriorDescribed checks that intra_bw's prior is LinkShare of the
// hardware's figure where NCCL's tables do not know the links: an MI300X
// host's seven Infinity Fabric links of 64 GB/s (AMD's data sheet), and an
// H100 whose links a description changed to 12 of 25 GB/s; and for an H100 as NCCL
// knows it, NCCL's own figure: the bus bandwidth of its uncalibrated
// estimate of a pinned Ring/Simple AllReduce of 16 GiB on one node of 8
// (Reference; its latency is under 0.2% of that time), well under the
// datasheet's 18 NVLinks of 25 GB/s.
func TestIntraPriorDescribed(t *testing.T) {
	h100, err := Describe("H100 SXM", "")
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 34
	ref, err := Reference(h100, Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Algo: "ring", Proto: "simple"}, []float64{size})
	if err != nil {
		t.Fatal(err)
	}
	ncclBusBW := size / ref[0].Time * 2 * 7 / 8
	if ncclBusBW > 0.9*18*25e9 {
		t.Fatalf("NCCL's ring bus bandwidth %.4g B/s is not below the datasheet's: the H100 case tells nothing apart", ncclBusBW)
	}
	for _, c := range []struct {
		gpu, spec string
		want, tol float64
	}{
		{"AMD Instinct MI300X", "", InfinityShare * 7 * 64e9, 1e-9},
		{"H100 SXM", "links=12", LinkShare * 12 * 25e9, 1e-9},
		{"H100 SXM", "", ncclBusBW, 2e-3},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := Uncalibrated(h).prior()[parIntraBW]; !scalar.EqualWithinAbs(got, c.want, c.tol*c.want) {
			t.Errorf("%s %q: intra_bw prior %.4g B/s, want %.4g", c.gpu, c.spec, got, c.want)
		}
	}
}

// TestCalibrateUnnamedGPU: an rccl-tests log whose Rank lines name no GPU
// (2 x 8 MI355X over RoCE, 8 B to 8 GiB) calibrates as an assumed GPU on
// PCIe, whose assumed link rate (PCIe Gen5's 48 GB/s) does not bound
// intra_bw: the log moves 364.39 GB/s bus bandwidth at 1 GiB (5525.0 us),
// which the calibration meets within 10% and inside its interval.
func TestCalibrateUnnamedGPU(t *testing.T) {
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/mi355x_2x8_allreduce_pollara_roce.log", nil)
	if err != nil || len(tabs) != 1 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	if !h.assumedLinks() {
		t.Fatalf("%q: links not assumed", tabs[0].GPU)
	}
	m, err := Calibrate(h, tabs, nil)
	if err != nil {
		t.Fatal(err)
	}
	const measured = 5525.0e-6 // the log's out-of-place time at 1073741824 B
	ps, err := m.Predict(tabs[0].Query(), []float64{1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	if p := ps[0]; math.Abs(p.Time/measured-1) > 0.10 || !p.Holds(measured) {
		t.Errorf("1 GiB: %.4g s [%.4g, %.4g], measured %.4g s", p.Time, p.Low, p.High, measured)
	}
}

// TestCalibrateUnknownGPU calibrates on a real rccl-tests log of a GPU the
// catalog does not hold ("NVIDIA RTX 6000D", 2 x 8 ranks of AllToAll): it
// is not refused, the notes say what was assumed, and intra_bw's prior is
// 10x wide either way (wideWidth) where a known GPU's is at most 2x.
func TestCalibrateUnknownGPU(t *testing.T) {
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/rtx6000d_2x8_alltoall_late2025.log", nil)
	if err != nil || len(tabs) == 0 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Calibrate(h, tabs[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(m.Notes, func(n string) bool {
		return strings.Contains(n, "not in commlab's catalog") && strings.Contains(n, "-hw cc=")
	}) {
		t.Errorf("notes %q: want one that says the GPU is assumed and how to describe it", m.Notes)
	}
	set := (&Settings{wideLinks: true}).withDefaults()
	if w := set.width(parIntraBW); w != math.Ln10 {
		t.Errorf("intra_bw's prior width %g, want ln 10", w)
	}
}

// TestDescribeSystem: the system key takes a system's facts from the
// catalog (presets.Systems: DGX H100's 8 NICs of 400 Gb/s, the HGX H100
// 4-GPU board's direct NVLinks), other keys override them whatever their
// order, and a system of another GPU is refused.
func TestDescribeSystem(t *testing.T) {
	const h100 = "NVIDIA H100 80GB HBM3"
	dgx, err := Describe(h100, "system=dgx-h100")
	if err != nil {
		t.Fatal(err)
	}
	if dgx.NICs != 8 || dgx.NICBW != 50e9 || dgx.Fabric != FabricNVSwitch || !dgx.NVLS ||
		dgx.Sources.NICs != SourceCatalog || dgx.Sources.NICBW != SourceCatalog || dgx.Sources.Fabric != SourceCatalog {
		t.Errorf("dgx-h100: %+v; want 8 NICs of 50 GB/s on NVSwitch with NVLS, from the catalog", dgx)
	}
	board, err := Describe(h100, "nics=4,nic-bw=200Gb/s,system=hgx-h100-4gpu")
	if err != nil {
		t.Fatal(err)
	}
	if board.Fabric != FabricMesh || board.NVLS || board.NICs != 4 || board.Sources.NICs != SourceUser || board.Sources.Fabric != SourceCatalog {
		t.Errorf("hgx-h100-4gpu with nics=4: %+v; want a mesh without NVLS from the catalog, 4 NICs from -hw", board)
	}
	if _, err := Describe("NVIDIA A100-SXM4-80GB", "system=dgx-h100"); err == nil || !strings.Contains(err.Error(), "not of A100") {
		t.Errorf("dgx-h100 for an A100: %v, want refused", err)
	}
}

// TestDescribeEverySystem: the system key gives each system of the catalog
// (presets.Systems) its facts, read back through Hardware.Facts with source
// catalog: the fabric, NVLS (only on NVSwitch, never on AMD Infinity
// Fabric or PCIe), the links where pairs are joined evenly, and the NICs,
// their rate, the NVLink domain, the CPU and the NICs' path where the
// system defines them.
func TestDescribeEverySystem(t *testing.T) {
	for _, s := range presets.Systems {
		h, err := Describe(s.GPU, "system="+s.Name)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		want := map[string]string{}
		if s.Fabric != "" { // an instance whose provider does not say how its GPUs are joined leaves both assumed
			want["fabric"], want["nvls"] = s.Fabric, fmt.Sprint(s.Fabric == "nvswitch" && h.GPU.SupportsNVLS())
		}
		if s.PairLinks > 0 {
			want["links"] = fmt.Sprint(s.PairLinks * (s.PerHost - 1))
		}
		if s.NICs > 0 {
			want["nics_per_node"] = fmt.Sprint(s.NICs)
		}
		if s.NICBW > 0 {
			want["nic_bw"] = formatBitRate(s.NICBW)
		}
		if s.Domain > 0 {
			want["nvlink_domain"] = fmt.Sprint(s.Domain)
		}
		if s.CPU != "" {
			want["cpu"] = s.CPU
		}
		if s.NICPath != "" {
			want["nic_path"] = strings.ToUpper(s.NICPath)
		}
		for _, f := range h.Facts() {
			v, ok := want[f.Name]
			if !ok {
				continue
			}
			if f.Value != v || f.Source != SourceCatalog {
				t.Errorf("%s: %s = %s (%s), want %s (catalog)", s.Name, f.Name, f.Value, f.Source, v)
			}
			delete(want, f.Name)
		}
		if len(want) > 0 {
			t.Errorf("%s: facts %v not reported", s.Name, want)
		}
		if (h.GPU.ISA != "" || s.Fabric == "pcie") && h.NVLS {
			t.Errorf("%s: NVLS on an AMD or PCIe host", s.Name)
		}
	}
}

// TestDescribePolarisNICPath: ALCF's Polaris has its NICs behind the CPU
// (PHB, its catalog entry's source), so -hw system=alcf-polaris gives
// nic_path PHB from the catalog, and on 64 x 4 no guess names the path,
// which nic-path= still overrides. Only the entries whose source says where
// the NICs sit give it: the DGX H100's does not, and its path stays
// assumed.
func TestDescribePolarisNICPath(t *testing.T) {
	h, err := Describe("", "system=alcf-polaris")
	if err != nil {
		t.Fatal(err)
	}
	path := factNamed(&h, "nic_path")
	if path.Value != "PHB" || path.Source != SourceCatalog || h.NICPath != nccl.PathPHB {
		t.Errorf("alcf-polaris: nic_path %s (%s), want PHB (catalog)", path.Value, path.Source)
	}
	gs, err := Guesses(h, nil, Query{Collective: commmodel.AllReduce, Ranks: 256, PerNode: 4}, []float64{1 << 20, 1 << 26, 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if g.Fact.Name == "nic_path" {
			t.Errorf("alcf-polaris: guess %+v, want none of the NICs' path", g)
		}
	}
	if pix, err := Describe("", "nic-path=PIX,system=alcf-polaris"); err != nil || pix.NICPath != nccl.PathPIX || pix.Sources.NICPath != SourceUser {
		t.Errorf("alcf-polaris with nic-path=PIX: %v (%s), %v; want PIX from -hw", pix.NICPath, pix.Sources.NICPath, err)
	}
	if dgx, err := Describe("", "system=dgx-h100"); err != nil || dgx.given(dgx.Sources.NICPath) {
		t.Errorf("dgx-h100: nic_path from %q, %v; want assumed", dgx.Sources.NICPath, err)
	}
}

// TestDescribeCatalogFigures: the figures that the systems' sources state,
// as Describe gives them.
func TestDescribeCatalogFigures(t *testing.T) {
	cases := []struct {
		gpu, system string
		fabric      Fabric
		nvls        bool
		links, nics int
		nicBW       float64
		cpu         string
	}{
		// OLCF Frontier user guide: 4 Slingshot NICs of 200 Gbps (25 GB/s), AMD EPYC;
		// the GCD keeps the GPU catalog's 4 Infinity Fabric links (nccl.ParseGPU).
		{"AMD Instinct MI250X", "hpe-ex235a-mi250x", FabricInfinity, false, 4, 4, 25e9, "amd"},
		// ROCm MI300 node-level architecture: 7 links, fully connected; no NVLS on AMD.
		{"AMD Instinct MI300X", "mi300x-platform", FabricInfinity, false, 7, 0, 50e9, "intel"},
		// Azure ND MI300X v5 page: Infinity Fabric to each of 7 peers, a 400 Gbps InfiniBand
		// connection per GPU, Intel Xeon; the name in lower case, which SystemByName takes.
		{"AMD Instinct MI300X", "standard_nd96isr_mi300x_v5", FabricInfinity, false, 7, 8, 50e9, "intel"},
		// CSCS Alps GH200 node: 3 peers x 6 NVLinks, no NVSwitch, 4 NICs of 200 Gb/s, Grace.
		{"NVIDIA GH200 480GB", "hpe-ex254n-gh200", FabricMesh, false, 18, 4, 25e9, "arm"},
		// NVL72 AI Factory RA and ConnectX-8 release notes: a NIC of 800 Gb/s per GPU.
		{"NVIDIA GB300", "gb300-nvl72", FabricNVSwitch, true, 18, 4, 100e9, "arm"},
		// A PCIe server: no NVLink, no NVLS; its NICs left to the buyer, so one per
		// GPU at the rate nicRates gives compute capability 8.9 (DGX A100's 200 Gb/s),
		// assumed.
		{"NVIDIA L40S", "pcie-l40s-8gpu", FabricPCIe, false, 0, 0, 25e9, "intel"},
	}
	for _, c := range cases {
		h, err := Describe(c.gpu, "system="+c.system)
		if err != nil {
			t.Errorf("%s: %v", c.system, err)
			continue
		}
		if h.Fabric != c.fabric || h.NVLS != c.nvls || h.links() != c.links || h.NICs != c.nics || h.nicBW() != c.nicBW || cpuOf(h.CPU).key != c.cpu {
			t.Errorf("%s: %s; want %v, NVLS %v, %d links, %d NICs of %g B/s, %s CPU", c.system, h.String(), c.fabric, c.nvls, c.links, c.nics, c.nicBW, c.cpu)
		}
	}
}

// SystemsOf offers the catalog's systems of a GPU and host size that give
// some of the facts asked for, those that give the most first, in the
// catalog's order among equals (presets.Systems):
// GH200 in hosts of 4 is the HPE Cray EX254n (Alps), with its NICs and their
// rate; an 8-GPU A100 SXM4 host is a DGX A100, an AWS p4d or p4de, an
// Azure ND A100 v4 or NDm A100 v4, or an OCI BM.GPU4.8 or BM.GPU.A100-v2.8
// (the catalog tells A100s apart by the product, A100 SXM4, as ParseGPU
// does, not by memory), while Google's A2 pages give no NICs; an 8-GPU H100
// or H200 host's fabric is only a DGX's, since AWS, Google Cloud, Azure and
// OCI do not say whether NVSwitch joins their GPUs, while their pages give
// the NICs: for H100, AWS's p5, Azure's ND H100 v5 and OCI's BM.GPU.H100.8
// both count and rate, Google's A3 Mega, High and Edge the count alone, so
// they come last; for H200, AWS's p5e and p5en, Google's A3 Ultra, Azure's
// ND H200 v5 and OCI's BM.GPU.H200.8; the 4-GPU A100 HGX board leaves the
// NICs to the server, so only Perlmutter's node gives them; an AMD
// Instinct's Infinity Fabric is its own catalog entry's, which no system
// settles, and the MI300X platform gives no NICs where Azure's ND MI300X v5
// and OCI's BM.GPU.MI300X.8 do; an 8-GPU H20 host is none of them.
func TestSystemsOf(t *testing.T) {
	nics := []string{"nics_per_node", "nic_bw"}
	for _, c := range []struct {
		gpu     string
		perHost int
		facts   []string
		want    []string
	}{
		{"NVIDIA GH200 120GB", 4, append(nics, "fabric"), []string{"hpe-ex254n-gh200"}},
		{"A100-SXM4-80GB", 8, nics, []string{"dgx-a100", "p4d.24xlarge", "p4de.24xlarge", "Standard_ND96asr_v4", "Standard_ND96amsr_A100_v4", "BM.GPU4.8", "BM.GPU.A100-v2.8"}},
		{"H100 80GB HBM3", 8, []string{"fabric"}, []string{"dgx-h100"}},
		{"H100 80GB HBM3", 8, nics, []string{"dgx-h100", "p5.48xlarge", "Standard_ND96isr_H100_v5", "BM.GPU.H100.8", "a3-megagpu-8g", "a3-highgpu-8g", "a3-edgegpu-8g"}},
		{"H200", 8, []string{"fabric"}, []string{"dgx-h200"}},
		{"H200", 8, nics, []string{"dgx-h200", "p5e.48xlarge", "p5en.48xlarge", "a3-ultragpu-8g", "Standard_ND96isr_H200_v5", "BM.GPU.H200.8"}},
		{"A100-SXM4-40GB", 4, []string{"fabric"}, []string{"hgx-a100-4gpu", "hpe-ex235n-a100", "alcf-polaris"}},
		{"A100-SXM4-40GB", 4, nics, []string{"hpe-ex235n-a100", "alcf-polaris"}},
		{"AMD Instinct MI300X", 8, []string{"fabric"}, nil},
		{"AMD Instinct MI300X", 8, nics, []string{"Standard_ND96isr_MI300X_v5", "BM.GPU.MI300X.8"}},
		{"AMD Instinct MI300X", 8, append(nics, "fabric"), []string{"Standard_ND96isr_MI300X_v5", "BM.GPU.MI300X.8"}},
		{"GB200", 4, nics, []string{"gb200-nvl72"}},
		{"NVIDIA H20", 8, nil, nil},
	} {
		h, err := Describe(c.gpu, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := SystemsOf(h, c.perHost, c.facts); !slices.Equal(got, c.want) {
			t.Errorf("SystemsOf(%s, %d, %v) = %v, want %v", c.gpu, c.perHost, c.facts, got, c.want)
		}
	}
	// A host whose system is named offers none: by -hw, or by the p4d log's
	// platform line ("NET/OFI Running on P4d platform", line 30).
	named, err := Describe("A100-SXM4-80GB", "system=dgx-a100")
	if err != nil {
		t.Fatal(err)
	}
	p4d := firstTable(t, "../../data/nccltests/testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log")
	h, err := Describe(p4d.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	fromLog, _ := h.WithEvidence([]Table{p4d})
	for _, h := range []Hardware{named, fromLog} {
		if got := SystemsOf(h, 8, []string{"nic_path", "nics_per_node"}); got != nil {
			t.Errorf("%s (system %q): SystemsOf = %v, want none", h.String(), h.System, got)
		}
	}
	if fromLog.System != "p4d.24xlarge" {
		t.Errorf("the p4d log's system %q, want p4d.24xlarge", fromLog.System)
	}
}

// NVLS needs NVSwitch: a host described as PCIe or a mesh has none unless
// the description says otherwise, which follows from the fabric the user
// gave (hw), no guess. NVLS needs NVSwitch multicast, which no GPU before
// Hopper has: an A100's stays the catalog's whatever the fabric (red team
// 31: -hw cc=8.0,links=12,link-bw=25GB/s,fabric=mesh read nvls false
// assumed), and a GPU the catalog lacks, given cc=8.0, has none from the
// user's compute capability.
func TestDescribeFabricNVLS(t *testing.T) {
	for _, spec := range []string{"fabric=pcie", "fabric=mesh", "switch=false"} {
		h, err := Describe("H100 80GB HBM3", spec)
		if err != nil {
			t.Fatal(err)
		}
		if h.NVLS || h.Sources.NVLS != SourceUser {
			t.Errorf("%s: NVLS %v from %q, want false, hw", spec, h.NVLS, h.Sources.NVLS)
		}
	}
	if h, _ := Describe("H100 80GB HBM3", "fabric=nvswitch"); !h.NVLS {
		t.Errorf("fabric=nvswitch: NVLS off, want H100's default on")
	}
	for _, c := range []struct {
		gpu, spec string
		src       Source
	}{
		{"NVIDIA A100-SXM4-40GB", "cc=8.0,links=12,link-bw=25GB/s,fabric=mesh", SourceCatalog},
		{"NVIDIA A100-SXM4-40GB", "fabric=pcie", SourceCatalog},
		{"NVIDIA A100-SXM4-40GB", "fabric=nvswitch", SourceCatalog},
		{"NVIDIA A100-SXM4-40GB", "", SourceCatalog},
		{"Example GPU", "cc=8.0,links=12,link-bw=25GB/s", SourceUser},
		{"Example GPU", "cc=8.0,links=12,link-bw=25GB/s,fabric=nvswitch", SourceUser},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		nvls := factNamed(&h, "nvls")
		if h.NVLS || nvls.Value != "false" || nvls.Source != c.src {
			t.Errorf("%s, %s: nvls %s (%s), want false (%s)", c.gpu, c.spec, nvls.Value, nvls.Source, c.src)
		}
	}
}

// TestBridgeLinksSource: an H100 NVL card's catalog entry gives its NVLink
// bridge 12 links; on the PCIe fabric it has none, and that 0 rests on the
// fabric's source, not the catalog's (red team 44: "links 0 (catalog)"
// under an assumed PCIe fabric read as "the catalog says no NVLink").
func TestBridgeLinksSource(t *testing.T) {
	for _, c := range []struct {
		spec, value string
		src         Source
	}{{"", "0", SourceAssumed}, {"fabric=pcie", "0", SourceUser}, {"fabric=mesh", "12", SourceCatalog}} {
		h, err := Describe("NVIDIA H100 NVL", c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if f := factNamed(&h, "links"); f.Value != c.value || f.Source != c.src {
			t.Errorf("H100 NVL, %q: links %s (%s), want %s (%s)", c.spec, f.Value, f.Source, c.value, c.src)
		}
	}
}

// Without a GPU name, a system's spec names the GPU: -hw system=dgx-h100
// describes the DGX H100's H100 SXM (presets.Systems) and records the
// system; without a system, the GPU is unknown and no system recorded.
func TestDescribeSystemGPU(t *testing.T) {
	h, err := Describe("", "nics=4,system=dgx-h100")
	if err != nil || h.GPU.Name != "H100 SXM" || h.System != "dgx-h100" || h.NICs != 4 {
		t.Errorf("Describe(\"\", nics=4,system=dgx-h100): %s, system %q, %v; want H100 SXM of dgx-h100 with 4 NICs", h.String(), h.System, err)
	}
	if h, err := Describe("", "nics=4"); err != nil || h.GPU.Known || h.System != "" {
		t.Errorf("Describe(\"\", nics=4): %s, system %q, %v; want an unknown GPU, no system", h.String(), h.System, err)
	}
}

// TestHostNICsBeyondGPUs: OCI's BM.GPU4.8 has 16 NICs of 100 Gb/s for its 8
// A100s (the shape's documentation; NCCL_IB_HCA lists 16 mlx5 devices), two
// a GPU: a node of its 8 GPUs reaches all 16, one GPU a node its 2. A host
// whose GPUs nothing gives holds at least its largest run's (ForHosts):
// the 16 NICs a user gives for a run of 8 GPUs a node are theirs, 2 a GPU
// at 1 GPU a node; with no run described, a GPU has one. A DGX H100's GPU
// keeps its own NIC at 4 GPUs a node.
func TestHostNICsBeyondGPUs(t *testing.T) {
	h, err := Describe("NVIDIA A100-SXM4-40GB", "nics=16,nic-bw=100Gb/s")
	if err != nil {
		t.Fatal(err)
	}
	if n := h.hostNICs(1, 8); n != 8 {
		t.Errorf("host GPUs unknown, no run described, 8 a node: %d NICs, want 8", n)
	}
	if seen := h.ForHosts(8); seen.hostNICs(1, 8) != 16 {
		t.Errorf("host GPUs unknown, 8 a node: %d NICs, want 16", seen.hostNICs(1, 8))
	}
	if seen := h.ForHosts(8); seen.hostNICs(1, 1) != 2 {
		t.Errorf("host GPUs unknown, 1 a node of a host seen at 8: %d NICs, want 2", seen.hostNICs(1, 1))
	}
	if h, err = Describe("", "system=BM.GPU4.8"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ perHost, want int }{{8, 16}, {4, 8}, {1, 2}} {
		if n := h.hostNICs(1, c.perHost); n != c.want {
			t.Errorf("16 NICs for 8 GPUs, %d a node: %d NICs, want %d", c.perHost, n, c.want)
		}
	}
	dgx, err := Describe("NVIDIA H100 80GB HBM3", "system=dgx-h100")
	if err != nil {
		t.Fatal(err)
	}
	if dgx = dgx.ForHosts(4); dgx.hostNICs(1, 4) != 4 {
		t.Errorf("DGX H100, 4 GPUs a node: %d NICs, want 4", dgx.hostNICs(1, 4))
	}
}

// TestNVLSOnlyHopperOn: a GPU without NVLS (Volta, Ampere) has nvls false
// from the catalog, not as a guess; Hopper's NVLS stays assumed.
func TestNVLSOnlyHopperOn(t *testing.T) {
	for _, c := range []struct {
		gpu  string
		nvls bool
		src  Source
	}{
		{"Tesla V100-SXM2-32GB", false, SourceCatalog},
		{"NVIDIA A100-SXM4-80GB", false, SourceCatalog},
		{"NVIDIA H100 80GB HBM3", true, ""},
	} {
		h, err := Describe(c.gpu, "")
		if err != nil {
			t.Fatal(err)
		}
		if h.NVLS != c.nvls || h.Sources.NVLS != c.src {
			t.Errorf("%s: nvls %v from %q, want %v from %q", c.gpu, h.NVLS, h.Sources.NVLS, c.nvls, c.src)
		}
	}
}

// TestHardwareOutOfRange holds a Hardware built in code to Describe's
// ranges: a fact out of them is ErrHardware naming the field, in Predict
// and in Calibrate alike, where a NetLatency of +Inf gave a time of +Inf
// with a NaN interval and the others were taken silently. So are the GPU's
// figures and the kinds (red team 34): the zero Hardware, whose GPU has no
// compute capability, failed with an error of NCCL's model that no
// sentinel matched, a Fabric or CPU of no constant and a NaN NVLinkBW were
// taken silently (as PCIe, Intel and PCIe's rate), and a NICPath of no
// constant failed in NCCL's graph search. A rate under 100 MB/s is one
// written in other units (400 for 400 Gb/s predicted 614 s for 1 GiB).
func TestHardwareOutOfRange(t *testing.T) {
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	tab := timedTable(t, Uncalibrated(h100(t)), "ar", commmodel.AllReduce, 2, 8, 1, []float64{1 << 10, 1 << 20, 1 << 30})
	for field, bad := range map[string]func(*Hardware){
		"NetLatency":       func(h *Hardware) { h.NetLatency = math.Inf(1) },
		"Oversubscription": func(h *Hardware) { h.Group, h.Oversubscription = 1, -1 },
		"NICs":             func(h *Hardware) { h.NICs = -2 },
		"NICBW":            func(h *Hardware) { h.NICBW = math.NaN() },
		"NICBW ":           func(h *Hardware) { h.NICBW = 400 }, // 400 Gb/s without its unit: 400 B/s
		"GPU.NVLinkBW ":    func(h *Hardware) { h.GPU.NVLinkBW = 25 },
		"Domain":           func(h *Hardware) { h.Domain = -1 },
		"GPU.CompCap":      func(h *Hardware) { *h = Hardware{} },
		"GPU.NVLinkBW":     func(h *Hardware) { h.GPU.NVLinkBW = math.NaN() },
		"GPU.NVLinks":      func(h *Hardware) { h.GPU.NVLinks = -1 },
		"GPU.PCIeGen":      func(h *Hardware) { h.GPU.PCIeGen = 99 },
		"Fabric":           func(h *Hardware) { h.Fabric = 42 },
		"NICPath":          func(h *Hardware) { h.NICPath = 42 },
		"CPU":              func(h *Hardware) { h.CPU.Arch = 42 },
	} {
		h := h100(t)
		bad(&h)
		ps, err := Uncalibrated(h).Predict(q, []float64{1 << 20})
		if !errors.Is(err, ErrHardware) || !strings.Contains(err.Error(), "Hardware."+strings.TrimSpace(field)) {
			t.Errorf("%s: Predict = %v, %v; want ErrHardware naming it", field, ps, err)
		}
		if _, err := Calibrate(h, []Table{tab}, nil); !errors.Is(err, ErrHardware) {
			t.Errorf("%s: Calibrate: %v, want ErrHardware", field, err)
		}
	}
}

// TestCalibrateRefuses: a Settings field NaN, infinite or negative is
// ErrSettings naming it, where a NaN Noise calibrated nothing and said
// nothing (a 4 x 8 AllReduce of 1 MiB came out 76.9 us against 182);
// a table of one rank is ErrBadTable, where it was fitted and moved a
// 2 x 8 prediction of 1 MiB from 64 us to 304 us; and a query's or a
// table's release that is no NCCL release is an error (red team 34; a
// table's 99.1.0 was calibrated on as NCCL 2.30's, red team 41).
func TestCalibrateRefuses(t *testing.T) {
	h := h100(t)
	tab := timedTable(t, Uncalibrated(h), "ar", commmodel.AllReduce, 2, 8, 1, []float64{1 << 10, 1 << 20, 1 << 30})
	for field, s := range map[string]Settings{
		"Noise":      {Noise: math.NaN()},
		"PriorWidth": {PriorWidth: math.Inf(1)},
		"Huber":      {Huber: -1},
	} {
		if _, err := Calibrate(h, []Table{tab}, &s); !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), "Settings."+field) {
			t.Errorf("%s: Calibrate: %v, want ErrSettings naming it", field, err)
		}
	}
	for _, v := range []nccl.Version{{Major: 1}, {Major: -2, Minor: -1}, {Major: 2, Minor: -1}, {Major: 99, Minor: 1}, {Major: 3}} {
		if _, err := Uncalibrated(h).Predict(Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8, Version: v}, []float64{1 << 20}); !errors.Is(err, ErrQuery) {
			t.Errorf("Query.Version %v: Predict: %v, want ErrQuery", v, err)
		}
		bad := tab
		bad.Version = v
		if _, err := Calibrate(h, []Table{bad}, nil); !errors.Is(err, ErrBadTable) || !strings.Contains(err.Error(), "no NCCL release") {
			t.Errorf("Table.Version %v: Calibrate: %v, want ErrBadTable", v, err)
		}
	}
	// A release the tuner model does not follow is a release: calibrated
	// on under the nearest it follows, and said.
	late := tab
	late.Version = nccl.Version{Major: 2, Minor: 99}
	if m, err := Calibrate(h, []Table{late}, nil); err != nil || !slices.ContainsFunc(notesOf(m), func(n string) bool { return strings.Contains(n, "2.99.0 is outside the releases") }) {
		t.Errorf("Table.Version 2.99.0: Calibrate: %v; want a note that it is outside the releases followed", err)
	}
	one := tab
	one.Name, one.Nodes, one.PerNode = "one", 1, 1
	if _, err := Calibrate(h, []Table{tab, one}, nil); !errors.Is(err, ErrBadTable) || !strings.Contains(err.Error(), "one rank") {
		t.Errorf("a table of one rank: Calibrate: %v, want ErrBadTable", err)
	}
	// What NCCL's model of a table refuses makes it a bad table, in
	// Calibrate and in Diagnose, as Predict's ErrQuery for a query (red
	// team 43: a pin's typo and more ranks than NCCL's int wrapped no
	// sentinel); a point below 1 B is one, as the check's message says.
	typo, many, sub := tab, tab, tab
	typo.Algo = "rnig"
	many.Nodes = 1 << 30
	sub.Points = append([]Point{{Size: 0.5, Time: 20e-6}}, tab.Points...)
	for name, bad := range map[string]Table{"NCCL_ALGO rnig": typo, "2^33 ranks": many, "a 0.5 B point": sub} {
		if _, err := Calibrate(h, []Table{bad}, nil); !errors.Is(err, ErrBadTable) || errors.Is(err, ErrQuery) {
			t.Errorf("%s: Calibrate: %v, want ErrBadTable", name, err)
		}
		if _, _, err := Uncalibrated(h).Diagnose(bad); !errors.Is(err, ErrBadTable) {
			t.Errorf("%s: Diagnose: %v, want ErrBadTable", name, err)
		}
	}
}

// TestQueryCheckedBeforeSizes: pins that leave a collective nothing NCCL
// runs are refused by Predict with no sizes and by Beyond, as at any size
// (red team 43: Broadcast pinned to NVLS, AllGather to CollNetChain and a
// one-node AllReduce to PAT passed both and were ErrQuery at every size).
func TestQueryCheckedBeforeSizes(t *testing.T) {
	m := Uncalibrated(h100(t))
	for _, q := range []Query{
		{Collective: commmodel.Broadcast, Ranks: 16, PerNode: 8, Algo: "NVLS"},
		{Collective: commmodel.AllGather, Ranks: 16, PerNode: 8, Algo: "CollNetChain"},
		{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Algo: "PAT"},
	} {
		_, atSize := m.Predict(q, []float64{1 << 20})
		_, none := m.Predict(q, nil)
		_, beyond := m.Beyond(q)
		if !errors.Is(atSize, ErrQuery) || !errors.Is(none, ErrQuery) || !errors.Is(beyond, ErrQuery) {
			t.Errorf("%v pinned to %s: Predict at 1 MiB %v, with no sizes %v, Beyond %v; want ErrQuery from each", q.Collective, q.Algo, atSize, none, beyond)
		}
	}
}

// TestRCCLNetLatency: on the MI300- and MI350-series platforms the
// network's latency is RCCL's, whose tuning table for those hosts
// (ROCm/rccl src/graph/tuning.cc, tuning_model_5) puts a Tree/LL step
// across nodes at 10.5 µs: rcclNetLatency times NCCL's own figure, alike
// for a host of such links described with -hw. NVIDIA GPUs keep NCCL's. From the GPU's name, the public 2 x 8 MI355X
// AllReduce over Pollara NICs (its 8 B row: 41.16 µs) is nearer with
// RCCL's figure than with NCCL's.
func TestRCCLNetLatency(t *testing.T) {
	c := nccl.DefaultConstants(nccl.Latest)
	if got := rcclNetLatency * c.HWLatency[nccl.HWNet][nccl.AlgoTree][nccl.LL]; math.Abs(got-10.5) > 1e-9 {
		t.Errorf("RCCL's Tree/LL network step: %g µs, want 10.5", got)
	}
	for gpu, want := range map[string]float64{"AMD Instinct MI300X": rcclNetLatency, "AMD Instinct MI355X": rcclNetLatency, "NVIDIA H100 80GB HBM3": 1} {
		h, err := DefaultHardware(gpu)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.netLatency(); got != want || h.given(h.Sources.NetLatency) {
			t.Errorf("%s: net latency %g (%q), want %g, assumed", gpu, got, h.Sources.NetLatency, want)
		}
	}
	// An AMD GPU the catalog lacks, described as such a host, is one: it
	// runs RCCL, at RCCL's figure.
	described, err := Describe("AMD Instinct MI308X", "cc=9.4,fabric=infinity,links=7,link-bw=64GB/s")
	if err != nil {
		t.Fatal(err)
	}
	if m := Uncalibrated(described); described.netLatency() != rcclNetLatency || !m.RunsRCCL() {
		t.Errorf("MI308X described: net latency %g, RCCL %v; want %g, RCCL", described.netLatency(), m.RunsRCCL(), rcclNetLatency)
	}
	tab := firstTable(t, "../../data/nccltests/testdata/real/mi355x_2x8_allreduce_pollara_roce.log")
	measured := tab.Points[0]
	if measured.Size != 8 || measured.Time != 41.16e-6 {
		t.Fatalf("the 8 B row: %+v", measured)
	}
	h, err := DefaultHardware("AMD Instinct MI355X") // as the source lines name it; its Rank lines do not
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: tab.Collective, Ranks: tab.Ranks(), PerNode: tab.PerNode}
	miss := map[float64]float64{}
	for _, k := range []float64{1, rcclNetLatency} {
		h.NetLatency = k
		p, err := Uncalibrated(h).Predict(q, []float64{8})
		if err != nil {
			t.Fatal(err)
		}
		miss[k] = math.Abs(math.Log(p[0].Time / measured.Time))
	}
	if miss[rcclNetLatency] >= miss[1] {
		t.Errorf("8 B on 2 x 8 MI355X: RCCL's figure misses by %.2f (log), NCCL's by %.2f", miss[rcclNetLatency], miss[1])
	}
}

// TestDomainShapeError: 2000 GB200 hosts of 4 do not fill NVLink domains
// of 72 GPUs (18 hosts) equally: ErrShape, whose text says so rather than
// "ranks not a multiple of GPUs per node", which 8000 ranks of 4 a node
// are (red team 37).
func TestDomainShapeError(t *testing.T) {
	h, err := Describe("NVIDIA GB200", "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Uncalibrated(h).Predict(Query{Collective: commmodel.AllReduce, Ranks: 8000, PerNode: 4}, []float64{1 << 20})
	if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "2000 hosts of 4 GPUs do not split equally into NVLink domains of 72 GPUs") ||
		strings.Contains(err.Error(), "not a multiple") {
		t.Errorf("Predict: %v; want ErrShape saying the domains do not split equally", err)
	}
}

// TestDescribeNoName: a GPU of no name is the GPU the logs do not name, as
// a reader makes it (UnnamedGPU): its summary and why NCCL's tables do not
// time it name it so, where they printed ", PCIe, ..." and "do not hold ,
// which ..." (a red team's program).
func TestDescribeNoName(t *testing.T) {
	h, err := Describe("", "")
	if err != nil {
		t.Fatal(err)
	}
	if h.GPU.Name != UnnamedGPU || h.Sources.GPU != SourceAssumed || strings.HasPrefix(h.String(), ",") {
		t.Errorf("Describe(\"\"): %q from %s, summary %q; want %s, assumed", h.GPU.Name, h.Sources.GPU, h.String(), UnnamedGPU)
	}
	if why := h.notInNCCLTables(); why != "NCCL's tuning tables do not hold a GPU the logs do not name" {
		t.Errorf("why NCCL's tables do not time it: %q", why)
	}
}

// TestMeshNote: an MI300X's 7 Infinity Fabric links join the 8 modules of
// its platform (AMD's MI300 series node-level architecture): a host said to
// hold 16 of them, or a run of 16 a node, cannot join every pair as the
// platform does, and the note says the model does not describe how; 8 of
// them, the catalog's MI250X (8 GCDs of 4 links, its platform), a GPU named
// by its target on a host nothing gives (gfx942, assumed 8), and an
// NVSwitch host of 16, draw none.
func TestMeshNote(t *testing.T) {
	for _, c := range []struct {
		gpu, desc string
		perHost   int
		note      string
	}{
		{"AMD Instinct MI300X", "gpus=16", 0, "a host of 16 AMD Instinct MI300X (hw), whose platform holds 8, with 7 links each"},
		{"gfx942", "links=3,link-bw=64GB/s", 8, "a host of 8 gfx942 (the run's GPUs a node), whose 3 links join 4 as a full mesh"},
		{"AMD Instinct MI300X", "", 16, "a host of 16 AMD Instinct MI300X (the run's GPUs a node), whose platform holds 8"},
		{"gfx942", "links=7,link-bw=64GB/s", 16, "a host of 16 gfx942 (the run's GPUs a node), whose platform holds 8"},
		{"AMD Instinct MI300X", "gpus=8", 8, ""},
		{"AMD Instinct MI300X", "", 8, ""},
		{"AMD Instinct MI250X", "", 8, ""},
		{"gfx942", "links=7,link-bw=64GB/s", 2, ""},
		{"NVIDIA H100 80GB HBM3", "gpus=16", 16, ""},
		// A GPU of no platform: a full mesh of its links, 4 GPUs of 3.
		{"Foo", "fabric=infinity,links=3,link-bw=50GB/s,gpus=8", 0, "a host of 8 Foo (hw), whose 3 links join 4 as a full mesh, with 3 links each"},
		// NVIDIA's meshes: a DGX-1's 8 V100s of 6 links each, the hybrid
		// cube mesh the model describes (cubeMesh), and GH200s of 18
		// links on a run of 32 a node, which the model takes as an
		// NVSwitch (ForHosts), draw none.
		{"Tesla V100-SXM2-16GB", "", 8, ""},
		{"GH200", "", 32, ""},
		// The catalog's MI100 (3 links, no platform): 4 as a full mesh.
		{"AMD Instinct MI100", "", 8, "a host of 8 AMD Instinct MI100 (the run's GPUs a node), whose 3 links join 4 as a full mesh"},
		{"Foo", "fabric=infinity,links=3,link-bw=50GB/s,gpus=4", 0, ""},
	} {
		h, err := Describe(c.gpu, c.desc)
		if err != nil {
			t.Fatal(err)
		}
		if note := h.MeshNote(c.perHost); c.note == "" && note != "" || !strings.Contains(note, c.note) {
			t.Errorf("%s %q on %d a host: note %q; want %q", c.gpu, c.desc, c.perHost, note, c.note)
		}
	}
}

// TestDescribeCompCapOverflow: a compute capability beyond an int's range
// once converted (cc=1e18) overflowed to a negative CompCap that the bound
// let through, and Untabled failed later with an ErrHardware that named no
// key (red team D §5). It is Describe's error naming cc; a value of more
// digits than a tenth's is rounded to it, as CompCap holds it.
func TestDescribeCompCapOverflow(t *testing.T) {
	for _, v := range []string{"1e18", "1e300", "-1e18", "9.3e18", "+Inf", "NaN", "20", "2.99"} {
		if h, err := Describe("H100", "cc="+v); err == nil || !strings.Contains(err.Error(), "cc="+v+": want a compute capability") {
			t.Errorf("cc=%s: CompCap %d, %v; want Describe's error naming cc", v, h.GPU.CompCap, err)
		}
	}
	for v, want := range map[string]int{"3": 30, "3.05": 31, "9.04": 90, "19.94": 199} {
		if h, err := Describe("my GPU", "cc="+v); err != nil || h.GPU.CompCap != want {
			t.Errorf("cc=%s: CompCap %d, %v; want %d", v, h.GPU.CompCap, err, want)
		}
	}
}

// TestDescribeKeyTwice: a key given two values (nics=4,nics=8) was read as
// its last without a word (red team D §12); it is an error naming the key,
// as commlab's -hw is, and the same value twice stands.
func TestDescribeKeyTwice(t *testing.T) {
	for _, spec := range []string{"nics=4,nics=8", "nics=4, links=18, nics=8", "system=p5.48xlarge,system=p4d.24xlarge"} {
		key, _, _ := strings.Cut(spec, "=")
		if _, err := Describe("", spec); err == nil || !strings.Contains(err.Error(), "hardware "+key+" given twice") {
			t.Errorf("%s: %v; want an error naming %s", spec, err, key)
		}
	}
	if h, err := Describe("H100", "nics=4, nics=4"); err != nil || h.NICs != 4 {
		t.Errorf("nics=4 twice: %v, %d NICs; want 4", err, h.NICs)
	}
}

// TestDescribeAMDName: a GPU the catalog lacks whose name is AMD's
// (nccl.AMDName) runs RCCL's rules, its links Infinity Fabric; NVLink
// described for it (an NVSwitch or mesh fabric, NVLS, a domain across
// hosts) makes it NVIDIA's, as the user says, not an error (a review: "AMD
// Instinct X" with fabric=nvswitch was refused).
func TestDescribeAMDName(t *testing.T) {
	for _, c := range []struct {
		gpu, spec string
		rccl      bool
		fabric    Fabric
	}{
		{"AMD Instinct MI300A", "links=3,link-bw=64GB/s", true, FabricInfinity},
		{"AMD Instinct MI300A", "fabric=nvswitch,links=18,link-bw=25GB/s", false, FabricNVSwitch},
		{"AMD Instinct MI300A", "fabric=mesh,links=4,link-bw=25GB/s", false, FabricMesh},
		{"AMD Instinct MI300A", "nvls=true,links=18,link-bw=25GB/s", false, FabricNVSwitch},
		{"AMD EPYC 9654", "links=18,link-bw=25GB/s", false, FabricNVSwitch},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Errorf("%q, %s: %v", c.gpu, c.spec, err)
			continue
		}
		if rccl := Uncalibrated(h).RunsRCCL(); rccl != c.rccl || h.Fabric != c.fabric {
			t.Errorf("%q, %s: RCCL %v, fabric %v; want %v, %v", c.gpu, c.spec, rccl, h.Fabric, c.rccl, c.fabric)
		}
	}
}
