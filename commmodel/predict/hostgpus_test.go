package predict

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// factNamed returns h's fact named name, the zero Fact where h lists none.
func factNamed(h *Hardware, name string) Fact {
	for _, f := range h.Facts() {
		if f.Name == name {
			return f
		}
	}
	return Fact{}
}

// hostFact is the value and source of h's gpus_per_node, as the text
// facts line prints them ("8 (hw)").
func hostFact(h *Hardware) string {
	f := factNamed(h, "gpus_per_node")
	return f.Value + " (" + string(f.Source) + ")"
}

// TestHostGPUsKISTI: nccl-tests#311's KISTI run used 2 GPUs of hosts of 8
// A100s and 6 NICs (its source lines). Without its NCCL debug lines (so
// that no channel line shows the NICs the run drives), the Rank lines show
// hosts of at least 2 GPUs, each with 6/2 = 3 NICs of its own: the node of
// 2 drives all 6, and 2 A100 SXM a host are taken as a mesh. With -hw
// gpus=8, the run's 2 GPUs share the host's 6 NICs with 6 others: 6·2/8 =
// 1 NIC a host, and a host of 8 A100 SXM is NVSwitch (the source line's
// "NVSwitch"). With the debug lines, a query of 4 GPUs a node, which no
// channel line shows, drives the NICs a GPU that the lines show (1 for
// the run's 2 GPUs): 2, whatever the host's GPUs.
func TestHostGPUsKISTI(t *testing.T) {
	tabs, _, err := ReadFile(kistiLog, func(int) Pins { return Pins{} })
	if err != nil || len(tabs) != 1 {
		t.Fatalf("%d tables, %v; want 1", len(tabs), err)
	}
	bare := slices.Clone(tabs)
	bare[0].Evidence = nccltests.Evidence{Devices: tabs[0].Evidence.Devices} // its Rank lines alone
	for _, c := range []struct {
		spec, fact string
		nics       int
		fabric     Fabric
	}{
		{"nics=6", "at least 2 (log)", 6, FabricMesh},
		{"nics=6,gpus=8", "8 (hw)", 1, FabricNVSwitch},
	} {
		h, err := Describe(tabs[0].GPU, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		h, _ = h.FromTables(bare, 2)
		if got := hostFact(&h); got != c.fact {
			t.Errorf("%s: gpus_per_node %s, want %s", c.spec, got, c.fact)
		}
		if n := h.hostNICs(1, 2); n != c.nics {
			t.Errorf("%s: a node of 2 GPUs drives %d NICs, want %d", c.spec, n, c.nics)
		}
		if h.Fabric != c.fabric {
			t.Errorf("%s: fabric %s, want %s", c.spec, h.Fabric, c.fabric)
		}
	}
	for _, c := range []struct {
		spec string
		nics int
	}{{"", 2}, {"gpus=8", 2}} { // the channel lines' 1 NIC at 2 GPUs, scaled to 4
		h, err := Describe(tabs[0].GPU, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		h, _ = h.FromTables(tabs, 4)
		if n := h.hostNICs(1, 4); n != c.nics {
			t.Errorf("%q with the debug lines: a node of 4 GPUs drives %d NICs, want %d", c.spec, n, c.nics)
		}
	}
}

// TestHostGPUsSources: Alps' GH200 log ran 2 nodes x 4 GPUs (its Rank
// lines), so its hosts hold at least 4 (log); the catalog's HPE EX254n
// blade holds 4 (catalog). A capture of 4 GPUs (nv4_4gpu...: GPU0 to GPU3)
// gives 4 (topo), and a user's gpus=8 stands against it, which SetTopology
// says. Without runs or a host, the fact is the run's (assumed), and a
// query of 8 GPUs a node makes it at least 8 (hw): the user's run. A table
// of no Rank lines whose shape the user pinned gives it as the user's too.
func TestHostGPUsSources(t *testing.T) {
	alps := firstTable(t, "../../data/nccltests/testdata/real/gh200_2x4_allreduce_slingshot_alps.log")
	for spec, want := range map[string]string{"": "at least 4 (log)", "system=hpe-ex254n-gh200": "4 (catalog)"} {
		h, err := Describe(alps.GPU, spec)
		if err != nil {
			t.Fatal(err)
		}
		h, _ = h.FromTables([]Table{alps}, 4)
		if got := hostFact(&h); got != want {
			t.Errorf("Alps %q: gpus_per_node %s, want %s", spec, got, want)
		}
	}
	// Azure's AKS log over IPoIB prints no Rank lines: its 2 x 8 shape is
	// the predicted run's, so the hosts' 8 GPUs are assumed, not read, until
	// the user's own run of 8 GPUs a node bounds them, or the user pins the
	// table's shape.
	const aksLog = "../../data/nccltests/testdata/real/a100_2x8_allreduce_azure_ndasrv4_aks_ipoib_sockets.log"
	aks, _, err := ReadFile(aksLog, func(int) Pins { return Pins{Hosts: []Comm{{Nodes: 2, PerNode: 8}}} })
	if err != nil || len(aks) != 1 {
		t.Fatalf("AKS: %d tables, %v", len(aks), err)
	}
	a100, err := Describe("A100-SXM4-40GB", "")
	if err != nil {
		t.Fatal(err)
	}
	for perHost, want := range map[int]string{0: "at least 8 (assumed)", 8: "at least 8 (hw)"} {
		if h, _ := a100.FromTables(aks, perHost); hostFact(&h) != want {
			t.Errorf("AKS without Rank lines, a run of %d GPUs a node: gpus_per_node %s, want %s", perHost, hostFact(&h), want)
		}
	}
	pinned, _, err := ReadFile(aksLog, func(int) Pins { return Pins{PerNode: 8} })
	if err != nil || len(pinned) != 1 {
		t.Fatalf("AKS per-node=8: %d tables, %v", len(pinned), err)
	}
	if h, _ := a100.FromTables(pinned, 0); hostFact(&h) != "at least 8 (hw)" {
		t.Errorf("AKS with per-node=8: gpus_per_node %s, want at least 8 (hw)", hostFact(&h))
	}

	// nccl-tests#319's log without its Rank lines: NCCL's communicator
	// line (line 30 of the log, "nNodes 2 localRanks 8") gives the 8.
	const log319 = "../../data/nccltests/testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log"
	b, err := os.ReadFile(log319)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "#  Rank") {
			lines = append(lines, l)
		}
	}
	norank := filepath.Join(t.TempDir(), "norank.log")
	if err := os.WriteFile(norank, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	h100, err := Describe("NVIDIA H100 80GB HBM3", "")
	if err != nil {
		t.Fatal(err)
	}
	for perHost, want := range map[int]string{0: "at least 8 (nccl-debug)", 4: "at least 8 (nccl-debug)"} {
		if h, _ := h100.FromTables([]Table{firstTable(t, norank)}, perHost); hostFact(&h) != want {
			t.Errorf("#319 without Rank lines, a run of %d GPUs a node: gpus_per_node %s, want %s", perHost, hostFact(&h), want)
		}
	}

	capture, _, err := topo.ParseFile("../../topo/testdata/real/nv4_4gpu_empty_cpu_affinity_slurm.txt")
	if err != nil {
		t.Fatal(err)
	}
	h, err := Describe("H100", "")
	if err != nil {
		t.Fatal(err)
	}
	if got := hostFact(&h); got != "the run's (assumed)" {
		t.Errorf("H100 by name: gpus_per_node %s, want the run's (assumed)", got)
	}
	if q := h.ForHosts(8); hostFact(&q) != "at least 8 (assumed)" {
		t.Errorf("H100 for 8 a node: gpus_per_node %s, want at least 8 (assumed)", hostFact(&q))
	}
	h.SetTopology(capture)
	if got := hostFact(&h); got != "4 (topo)" {
		t.Errorf("capture of 4: gpus_per_node %s, want 4 (topo)", got)
	}
	if !strings.Contains(h.Spec(SourceTopo), "gpus=4") {
		t.Errorf("capture's spec %q lacks gpus=4", h.Spec(SourceTopo))
	}
	u, err := Describe("H100", "gpus=8")
	if err != nil {
		t.Fatal(err)
	}
	kept := u.SetTopology(capture)
	if got := hostFact(&u); got != "8 (hw)" || !slices.Contains(kept, "gpus_per_node 4") {
		t.Errorf("gpus=8 against a capture of 4: %s, kept %q; want 8 (hw), gpus_per_node 4 kept", got, kept)
	}
}

// TestHostGPUsFabric: an A100 or H100 SXM by name is assumed on an NVSwitch
// host (DefaultHardware); -hw gpus=4 makes it a board of 4, a mesh without
// NVLS (HGX A100 and H100 4-GPU boards), unless the fabric is given. With
// gpus=8, a run of 2 a node keeps the host's NVSwitch and NVLS, which a run
// of 2 on an unknown host does not.
func TestHostGPUsFabric(t *testing.T) {
	for _, c := range []struct {
		gpu, spec string
		fabric    Fabric
		nvls      bool
	}{
		{"A100-SXM4-80GB", "", FabricNVSwitch, false},
		{"A100-SXM4-80GB", "gpus=4", FabricMesh, false},
		{"H100", "", FabricNVSwitch, true},
		{"H100", "gpus=4", FabricMesh, false},
		{"H100", "gpus=4,fabric=nvswitch", FabricNVSwitch, true},
	} {
		h, err := Describe(c.gpu, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if h.Fabric != c.fabric || h.NVLS != c.nvls {
			t.Errorf("%s %q: fabric %s, NVLS %v; want %s, %v", c.gpu, c.spec, h.Fabric, h.NVLS, c.fabric, c.nvls)
		}
	}
	for spec, want := range map[string]Fabric{"": FabricMesh, "gpus=8": FabricNVSwitch} {
		h, err := Describe("H100", spec)
		if err != nil {
			t.Fatal(err)
		}
		if run := h.ForHosts(2); run.Fabric != want || run.NVLS != (want == FabricNVSwitch) {
			t.Errorf("H100 %q, runs of 2 a node: fabric %s, NVLS %v; want %s", spec, run.Fabric, run.NVLS, want)
		}
	}
}

// TestHostGPUsBounds: -hw gpus=4 bounds a run's GPUs a node as a system's
// hosts do, names only the catalog's systems of hosts of 4, and disagrees
// with a system of another host (dgx-h100: 8) as an error.
func TestHostGPUsBounds(t *testing.T) {
	h, err := Describe("A100-SXM4-80GB", "gpus=4")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.HostFits(4); err != nil {
		t.Errorf("gpus=4, 4 a node: %v", err)
	}
	if err := h.HostFits(8); err == nil || !strings.Contains(err.Error(), "-hw gpus=4") {
		t.Errorf("gpus=4, 8 a node: %v; want an error naming -hw gpus=4", err)
	}
	got := SystemsOf(h, 2, []string{"fabric", "nics_per_node", "nic_bw", "cpu"})
	if !slices.Contains(got, "hgx-a100-4gpu") || slices.Contains(got, "dgx-a100") {
		t.Errorf("gpus=4: SystemsOf = %v, want hgx-a100-4gpu (hosts of 4), not dgx-a100 (8)", got)
	}
	if _, err := Describe("", "system=dgx-h100,gpus=4"); err == nil || !strings.Contains(err.Error(), "dgx-h100 holds 8 GPUs a host") {
		t.Errorf("system=dgx-h100,gpus=4: %v; want an error naming the system's 8", err)
	}
	if h, err := Describe("", "gpus=8,system=dgx-h100"); err != nil || hostFact(&h) != "8 (hw)" {
		t.Errorf("gpus=8,system=dgx-h100: %v, %s; want 8 (hw)", err, hostFact(&h))
	}
}
