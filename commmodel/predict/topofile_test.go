package predict

import (
	"os"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// topoOf reads a capture of the repository's.
func topoOf(t *testing.T, path string) *topo.Topology {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tp, _, err := topo.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// TestTopoFileKeepsPath: Azure's HPC images set NCCL_TOPO_FILE for every
// ND A100 v4 VM (Azure/azhpc-images 8e9d055f, customizations/ndv4.sh),
// whose tree puts each GPU beside its HCA (PIX); a VM's own capture shows
// its NICs elsewhere, as the hypervisor lays them out (a red team's ND
// A100 v4 capture read PHB: no LL128 across nodes, 1 MiB at 16 x 8
// predicted 1.57x slow). The catalog's PIX stands against a capture, with
// a note; a system that sets no file takes the capture's path. The
// capture here is PaddlePaddle's 8 x P40 host, whose NICs sit at SYS.
func TestTopoFileKeepsPath(t *testing.T) {
	tp := topoOf(t, "../../topo/testdata/real/p40_8gpu_mlx5_soc_paddle.txt")
	if p := tp.RingNICPath(); p != nccl.PathSYS {
		t.Fatalf("the capture's path %v; want SYS", p)
	}
	azure, err := Describe("", "system=Standard_ND96amsr_A100_v4")
	if err != nil {
		t.Fatal(err)
	}
	note := azure.TopoFileNote(tp)
	azure.SetTopology(tp)
	if azure.NICPath != nccl.PathPIX || azure.Sources.NICPath != SourceCatalog || !strings.Contains(note, "NCCL_TOPO_FILE=/opt/microsoft/ndv4/topo.xml") || !strings.Contains(note, "nic_path PIX stands") {
		t.Errorf("Azure ND A100 v4: path %v (%s), note %q; want the catalog's PIX, with a note", azure.NICPath, azure.Sources.NICPath, note)
	}
	dgx, err := Describe("", "system=dgx-a100")
	if err != nil {
		t.Fatal(err)
	}
	if note := dgx.TopoFileNote(tp); note != "" {
		t.Errorf("DGX A100: note %q; want none", note)
	}
	if dgx.SetTopology(tp); dgx.NICPath != nccl.PathSYS || dgx.Sources.NICPath != SourceTopo {
		t.Errorf("DGX A100: path %v (%s); want the capture's SYS", dgx.NICPath, dgx.Sources.NICPath)
	}
}

// TestTopoFileEnvDropsCapture: a log whose NCCL says NCCL_TOPO_FILE was
// set by the environment read its PCIe tree from the file (src/graph/
// topo.cc), not the host's: a capture's path is not NCCL's, and is assumed
// again, with a note naming the line (AKS's ND A100 v4 run set
// NCCL_TOPO_FILE=/workspace/ndv4-topo.xml).
func TestTopoFileEnvDropsCapture(t *testing.T) {
	h, err := Describe("A100-SXM4-80GB", "")
	if err != nil {
		t.Fatal(err)
	}
	h.SetTopology(topoOf(t, "../../topo/testdata/real/p40_8gpu_mlx5_soc_paddle.txt"))
	if h.Sources.NICPath != SourceTopo {
		t.Fatalf("path %v from %s; want the capture's", h.NICPath, h.Sources.NICPath)
	}
	tab := Table{Name: "aks.log#0", Nodes: 2, PerNode: 8}
	tab.Evidence.Env = []nccltests.Setting{{Name: "NCCL_TOPO_FILE", Value: "/workspace/ndv4-topo.xml", Line: 12}}
	got, notes := h.WithEvidence([]Table{tab})
	if got.Sources.NICPath != SourceAssumed || nicPathName(got.NICPath) != "PIX" || len(notes) == 0 || !strings.Contains(strings.Join(notes, "\n"), "NCCL_TOPO_FILE was set by the environment to /workspace/ndv4-topo.xml (line 12): NCCL read its PCIe tree from that file, not the host's, so the capture's nic_path SYS is not NCCL's and is left out") {
		t.Errorf("path %s from %s, notes %q; want PIX assumed again, with a note", nicPathName(got.NICPath), got.Sources.NICPath, notes)
	}
	// NCCL's own path from its debug lines (a GRAPH line's "type
	// NVL/PXB") stands where the file's tree gave it, not the path before
	// the capture (a review: PIX was taken after a note that -topo's was).
	graph := tab
	graph.Evidence.NICPath.Value, graph.Evidence.NICPath.Line = nccl.PathPXB, 9
	if got, notes := h.WithEvidence([]Table{graph}); got.NICPath != nccl.PathPXB || got.Sources.NICPath != SourceNCCLDebug || strings.Contains(strings.Join(notes, "\n"), "-topo's is taken") {
		t.Errorf("with NCCL's PXB: path %s from %s, notes %q; want PXB from nccl-debug, and no word of -topo's", nicPathName(got.NICPath), got.Sources.NICPath, notes)
	}
	// A GH200's default path, P2C (its Grace CPU's NIC, the catalog's),
	// comes back as it was, not PIX (a review: the note said "LOC").
	gh, err := Describe("GH200", "")
	if err != nil {
		t.Fatal(err)
	}
	before := gh.NICPath
	gh.SetTopology(topoOf(t, "../../topo/testdata/real/p40_8gpu_mlx5_soc_paddle.txt"))
	if got, _ := gh.WithEvidence([]Table{tab}); got.NICPath != before || before != nccl.PathP2C || got.Sources.NICPath != SourceCatalog {
		t.Errorf("GH200: path %s from %s; want its P2C from the catalog again", nicPathName(got.NICPath), got.Sources.NICPath)
	}
}

// TestTopoFilePlatform: aws-ofi-nccl prints the instance it runs on where
// it gives NCCL a topology file for it (nccltests.Evidence.Platform), as
// on AWS's p4d log: a capture's path is not NCCL's there either, and
// the note names the instance.
func TestTopoFilePlatform(t *testing.T) {
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log", nil)
	if err != nil || len(tabs) == 0 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h.SetTopology(topoOf(t, "../../topo/testdata/real/p40_8gpu_mlx5_soc_paddle.txt"))
	got, notes := h.WithEvidence(tabs[:1])
	if got.Sources.NICPath == SourceTopo || !strings.Contains(strings.Join(notes, "\n"), "aws-ofi-nccl gave NCCL a topology file for the p4d.24xlarge instance") {
		t.Errorf("path %s from %s, notes %q; want the capture's left out, with a note naming the instance", nicPathName(got.NICPath), got.Sources.NICPath, notes)
	}
}
