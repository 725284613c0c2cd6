package predict

import (
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/presets"
)

// TestSystemsOfEvidence: a system whose entry contradicts a fact read from
// the logs or given with -hw is not offered. Leonardo's log lists 4 IB
// ports a node in NCCL's NET/IB line (nccl-tests#331), so of the catalog's
// A100 hosts of 4 GPUs it offers hpe-ex235n-a100 (4 NICs) and
// hgx-a100-4gpu (no NICs documented), not alcf-polaris (2 NICs). A NIC
// rate of 400 Gb/s given with -hw leaves out both Slingshot 11 systems
// (200 Gb/s); a fabric of NVSwitch given with -hw leaves out all three
// meshes. Without evidence all three are offered (TestSystemsOf).
func TestSystemsOfEvidence(t *testing.T) {
	leonardo := firstTable(t, "../../data/nccltests/testdata/real/a100_1x2_sendrecv_leonardo_nccltests331.log")
	bare, err := Describe(leonardo.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	fromLog, _ := bare.WithEvidence([]Table{leonardo})
	if fromLog.NICs != 4 || fromLog.Sources.NICs != SourceNCCLDebug {
		t.Fatalf("Leonardo: %d NICs from %q; want the 4 of NCCL's NET/IB line", fromLog.NICs, fromLog.Sources.NICs)
	}
	describe := func(spec string) Hardware {
		h, err := Describe("A100-SXM4-40GB", spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		return h
	}
	all := []string{"fabric", "nics_per_node", "nic_bw"}
	for _, c := range []struct {
		name string
		h    Hardware
		want []string
	}{
		{"Leonardo's log", fromLog, []string{"hpe-ex235n-a100", "hgx-a100-4gpu"}},
		{"-hw nic-bw=400Gb/s", describe("nic-bw=400Gb/s"), []string{"hgx-a100-4gpu"}},
		{"-hw fabric=nvswitch", describe("fabric=nvswitch"), nil},
		{"no evidence", describe(""), []string{"hpe-ex235n-a100", "alcf-polaris", "hgx-a100-4gpu"}},
	} {
		if got := SystemsOf(c.h, 4, all); !slices.Equal(got, c.want) {
			t.Errorf("%s: SystemsOf = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSystemsOfPartHost: a run of one or two GPUs a host may be part of a
// larger host, and the catalog's larger hosts of its GPU are offered too.
// Leonardo's SendRecv ran on 2 GPUs (devices 0 and 1) of a 4-GPU node; its
// own 4 NICs (NCCL's NET/IB line) leave out alcf-polaris (2 NICs) and the
// hosts of 8 NICs, and offer hgx-a100-4gpu among the hosts of 4 and 8. A
// run of 4 GPUs a host is offered only hosts of 4 (TestSystemsOfEvidence).
func TestSystemsOfPartHost(t *testing.T) {
	leonardo := firstTable(t, "../../data/nccltests/testdata/real/a100_1x2_sendrecv_leonardo_nccltests331.log")
	bare, err := Describe(leonardo.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := bare.WithEvidence([]Table{leonardo})
	got := SystemsOf(h.ForHosts(2), 2, []string{"fabric", "nics_per_node", "nic_bw"})
	if !slices.Contains(got, "hgx-a100-4gpu") || slices.Contains(got, "alcf-polaris") || slices.Contains(got, "dgx-a100") {
		t.Errorf("Leonardo's 2 GPUs: SystemsOf = %v, want hgx-a100-4gpu among them, not alcf-polaris (2 NICs) nor dgx-a100 (8)", got)
	}
}

// TestSystemsOfUnnamed: Polaris' logs name no GPU (their rows alone), and
// the systems offered are every catalog system of 4 GPUs a host, whatever
// its GPU, since naming one names the GPU too: seven, alcf-polaris among
// them; none of 8 a host.
func TestSystemsOfUnnamed(t *testing.T) {
	h, err := Describe(UnnamedGPU, "")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range presets.Systems {
		if s.PerHost == 4 {
			want = append(want, s.Name)
		}
	}
	got := SystemsOf(h, 4, []string{"gpu", "fabric", "nics_per_node", "nic_bw"})
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || !slices.Contains(got, "alcf-polaris") {
		t.Errorf("an unnamed GPU of 4 a host: SystemsOf = %v, want the catalog's hosts of 4, %v", got, want)
	}
}

// TestHostFits: a run of more GPUs a node than the documented host holds is
// an error: a catalog system's hosts (dgx-h100: 8), an MI300X platform's 8
// modules; an NVLink domain that spans hosts holds its own (GB200 NVL72:
// 72); nothing documents an H100 by name's host.
func TestHostFits(t *testing.T) {
	for _, c := range []struct {
		gpu, spec string
		perHost   int
		fits      bool
	}{
		{"", "system=dgx-h100", 8, true},
		{"", "system=dgx-h100", 16, false},
		{"AMD Instinct MI300X", "", 8, true},
		{"AMD Instinct MI300X", "", 16, false},
		{"", "system=gb200-nvl72", 72, true},
		{"NVIDIA H100 80GB HBM3", "", 16, true},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.HostFits(c.perHost); (err == nil) != c.fits {
			t.Errorf("%s %s, %d a host: %v; want fits %v", c.gpu, c.spec, c.perHost, err, c.fits)
		}
	}
}

// TestFromTablesAnotherHost: a query of more GPUs a node than the tables'
// that changes the fabric says so. Alps' GH200 table ran 2 x 4 (a mesh of 4
// without NVLS); 8 GH200 a node are joined by NVSwitch (ForHosts), a host
// no table ran. At the tables' 4 a node nothing is said.
func TestFromTablesAnotherHost(t *testing.T) {
	alps := firstTable(t, "../../data/nccltests/testdata/real/gh200_2x4_allreduce_slingshot_alps.log")
	h, err := Describe(alps.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	said := func(notes []string) bool {
		return slices.ContainsFunc(notes, func(n string) bool {
			return strings.Contains(n, "8 GPUs a node, more than the tables' 4, take a host of at least 8, whose fabric is taken as nvswitch")
		})
	}
	if got, notes := h.FromTables([]Table{alps}, 8); got.Fabric != FabricNVSwitch || !said(notes) {
		t.Errorf("8 a node: fabric %v, notes %q; want nvswitch, said", got.Fabric, notes)
	}
	if got, notes := h.FromTables([]Table{alps}, 4); got.Fabric != FabricMesh || said(notes) {
		t.Errorf("4 a node: fabric %v, notes %q; want mesh, nothing said", got.Fabric, notes)
	}
}

// TestSystemsGiving: of the catalog's 8-GPU A100 SXM4 hosts, Google's A2
// pages give the CPU but no NICs (TestSystemsOf), so SystemsOf offers them
// for the NICs' count, their rate and the CPU together, and SystemsGiving,
// which wants every one, does not. None of these entries gives the NICs'
// PCIe path (only alcf-polaris's does), so nothing is offered where it is
// among the facts (the ABCI choice tune withholds on nics_per_node, nic_bw
// and nic_path).
func TestSystemsGiving(t *testing.T) {
	h, err := Describe("A100-SXM4-80GB", "")
	if err != nil {
		t.Fatal(err)
	}
	a2 := []string{"a2-ultragpu-8g", "a2-highgpu-8g"}
	facts := []string{"nics_per_node", "nic_bw", "cpu"}
	some, every := SystemsOf(h, 8, facts), SystemsGiving(h, 8, facts)
	for _, s := range a2 {
		if !slices.Contains(some, s) || slices.Contains(every, s) {
			t.Errorf("%s: SystemsOf %v, SystemsGiving %v; want it in the first only", s, some, every)
		}
	}
	if want := []string{"dgx-a100", "p4d.24xlarge", "p4de.24xlarge", "Standard_ND96asr_v4", "Standard_ND96amsr_A100_v4", "BM.GPU4.8", "BM.GPU.A100-v2.8"}; !slices.Equal(every, want) {
		t.Errorf("SystemsGiving(%v) = %v, want %v", facts, every, want)
	}
	// Of the 8-GPU A100 systems, only Azure's ND A100 v4 give the NICs'
	// path: their images' NCCL_TOPO_FILE (presets.System.TopoFile).
	if got, want := SystemsGiving(h, 8, []string{"nics_per_node", "nic_bw", "nic_path"}), []string{"Standard_ND96asr_v4", "Standard_ND96amsr_A100_v4"}; !slices.Equal(got, want) {
		t.Errorf("with nic_path: %v, want %v", got, want)
	}
}

// TestSystemsOfSmallerHost: a host said to hold 4 GPUs (-hw gpus=4, as a
// capture of part of a host says) where the run placed 8 a node holds at
// least the run's 8: no system of 4 a host is offered for it, though one
// is for a run of 4.
func TestSystemsOfSmallerHost(t *testing.T) {
	h, err := Describe("H100 SXM", "gpus=4")
	if err != nil {
		t.Fatal(err)
	}
	if got := SystemsOf(h, 8, []string{"fabric"}); slices.Contains(got, "hgx-h100-4gpu") {
		t.Errorf("a run of 8 a node on a host of 4: SystemsOf = %v, want no system of 4 GPUs", got)
	}
	if got := SystemsOf(h, 4, []string{"fabric"}); !slices.Contains(got, "hgx-h100-4gpu") {
		t.Errorf("a run of 4 a node on a host of 4: SystemsOf = %v, want hgx-h100-4gpu among them", got)
	}
}
