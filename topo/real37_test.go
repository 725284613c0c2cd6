package topo

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// The captures of the systems new users run most (issue 31): a 4-GPU HGX
// A100 board (Polaris), a 4-GPU H100 board with NV6 and no NVSwitch, and a
// GB200 tray. Each joins the real-captures table.
var real37 = []realCapture{
	{
		// ALCF GettingStarted, Polaris: NV4 between every pair of the 4
		// A100s, NUMA Affinity 3, 2, 1, 0 (NPS4); mlx5_0 PHB to GPU3 only,
		// mlx5_1 PHB to GPU1 only, so each NIC is on its GPU's node. The
		// header runs "mlx5_1 CPU Affinity NUMA Affinity" together with
		// spaces. GPU0 and GPU2 reach both NICs only at SYS; the tie is
		// spread (GPU0 mlx5_0, GPU2 mlx5_1).
		file: "a100_polaris_4gpu_nv4_2nic_alcf.txt", gpus: 4, nics: 2,
		pairs: []realPair{{"GPU0", "GPU3", "NV4"}, {"GPU1", "GPU2", "NV4"}, {"GPU3", "mlx5_0", "PHB"},
			{"GPU1", "mlx5_1", "PHB"}, {"GPU0", "mlx5_0", "SYS"}, {"GPU2", "mlx5_1", "SYS"}, {"mlx5_0", "mlx5_1", "SYS"}},
		numa:    []int{3, 2, 1, 0},
		nicNUMA: map[string]int{"mlx5_0": 0, "mlx5_1": 2},
		cpus:    map[int]string{0: "24-31,56-63", 3: "0-7,32-39"},
		devices: map[string]string{"mlx5_0": "mlx5_0", "mlx5_1": "mlx5_1"},
		nearest: []realNIC{{0, "mlx5_0", "SYS"}, {1, "mlx5_1", "PHB"}, {2, "mlx5_1", "SYS"}, {3, "mlx5_0", "PHB"}},
	},
	{
		// nccl#1617: 4 x H100, NV6 between every pair (18 NVLinks a GPU,
		// no NVSwitch), GPU g PIX to NIC g and SYS to the others; NUMA
		// Affinity 3, 1, 7, 5. The stored issue keeps no NIC Legend.
		file: "h100_4gpu_nv6_4nic_pix_nccl1617.txt", gpus: 4, nics: 4,
		pairs: []realPair{{"GPU0", "GPU3", "NV6"}, {"GPU1", "GPU2", "NV6"}, {"GPU2", "NIC2", "PIX"},
			{"GPU0", "NIC1", "SYS"}, {"NIC0", "NIC3", "SYS"}},
		numa:    []int{3, 1, 7, 5},
		nicNUMA: map[string]int{"NIC0": 3, "NIC2": 7},
		cpus:    map[int]string{0: "6,14,22,30", 2: "7,15,23,31"},
		devices: map[string]string{"NIC0": ""},
		nearest: []realNIC{{0, "NIC0", "PIX"}, {1, "NIC1", "PIX"}, {2, "NIC2", "PIX"}, {3, "NIC3", "PIX"}},
	},
	{
		// k8s-test-infra#371: one GB200 tray, NV18 between every pair of its
		// 4 GPUs (through the rack's NVSwitches), two Grace CPUs (NUMA 0
		// for GPU0-1, 1 for GPU2-3); no NIC in the matrix.
		file: "gb200_tray_4gpu_nv18_k8stestinfra371.txt", gpus: 4,
		pairs: []realPair{{"GPU0", "GPU3", "NV18"}, {"GPU1", "GPU2", "NV18"}},
		numa:  []int{0, 0, 1, 1},
		cpus:  map[int]string{0: "0-71", 3: "72-143"},
	},
}

func init() { realCaptures = append(realCaptures, real37...) }

// TestReal37Facts: what the model takes from each new capture (the facts
// `commlab topo` prints): the fabric and a GPU's NVLinks, the NICs NCCL
// runs on and the farthest GPU-NIC path NCCL types.
func TestReal37Facts(t *testing.T) {
	cases := []struct {
		file  string
		kind  commmodel.FabricKind
		links int
		nics  int
		path  nccl.PathType // farthest over the GPUs of NICPath; DIS: no NIC
	}{
		// NV4 x 3 peers = 12 links, A100's all: a mesh, no NVSwitch.
		{"a100_polaris_4gpu_nv4_2nic_alcf.txt", commmodel.FullMesh, 12, 2, nccl.PathSYS},
		// NV6 x 3 peers = 18 links, H100's all: a mesh, no NVSwitch.
		{"h100_4gpu_nv6_4nic_pix_nccl1617.txt", commmodel.FullMesh, 18, 4, nccl.PathPIX},
		// NV18 x 3 peers would be 54 links: NVSwitch, 18 a GPU.
		{"gb200_tray_4gpu_nv18_k8stestinfra371.txt", commmodel.Switched, 18, 0, nccl.PathDIS},
	}
	for _, c := range cases {
		top := parseFile(t, filepath.Join("testdata", "real", c.file), "")
		f := InferFabric(top)
		if f.Kind != c.kind || f.Links != c.links || f.P != 4 {
			t.Errorf("%s: fabric %v of %d links, %d GPUs; want %v of %d, 4", c.file, f.Kind, f.Links, f.P, c.kind, c.links)
		}
		if n := len(top.NICs()); n > 0 && top.NICsUsed() != c.nics || n == 0 && c.nics != 0 {
			t.Errorf("%s: NICs used %d of %d, want %d", c.file, top.NICsUsed(), n, c.nics)
		}
		path := nccl.PathDIS
		for g := range top.GPUs() {
			if p := top.NICPath(g); p != nccl.PathDIS && (path == nccl.PathDIS || p > path) {
				path = p
			}
		}
		if path != c.path {
			t.Errorf("%s: farthest NIC path %v, want %v", c.file, path, c.path)
		}
	}
}

// TestParseROCm37: ARCHER2's rocm-smi --showtopo of 4 MI210 joined by XGMI
// is named a ROCm topology at its banner (line 3), as the PCIe host's is.
func TestParseROCm37(t *testing.T) {
	name := "testdata/rocm/mi210_4gpu_xgmi_archer2.txt"
	top, _, err := ParseFile(name)
	var pe *ParseError
	if top != nil || !errors.Is(err, ErrROCm) || !errors.As(err, &pe) || pe.Line != 3 {
		t.Errorf("topology %v, err %v; want ErrROCm at %s:3", top, err, name)
	}
}

// TestDescribeFabricUneven: a hybrid cube-mesh (Azure ND40rs_v2's V100s,
// DGX-1's P100s) is described by the NVLinks its pairs show, not by an
// average of links per peer that no pair has (6/7 = 0.857 before); a mesh
// whose every pair shows the same NV# keeps its links per peer.
func TestDescribeFabricUneven(t *testing.T) {
	for file, want := range map[string]string{
		"azure_nd40rs_v2_8gpu_cube_mesh.txt":       "full-mesh, 8 GPUs, 6 links each (NV1 or NV2 to 4 of 7 peers, no NVLink to the rest)",
		"dgx1_p100_glued_header_sheffield.txt":     "full-mesh, 8 GPUs, 4 links each (NV1 to 4 of 7 peers, no NVLink to the rest)",
		"h100_4gpu_nv6_4nic_pix_nccl1617.txt":      "full-mesh, 4 GPUs, 18 links each (6 per peer)",
		"gb200_tray_4gpu_nv18_k8stestinfra371.txt": "switched (NVSwitch), 4 GPUs x NV18",
	} {
		top := parseFile(t, filepath.Join("testdata", "real", file), "")
		if got := DescribeFabric(top); got != want {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
}

// TestDescribeFabricROCmPCIe: rocm-smi's capture of 4 GPUs joined by PCIe
// (ROCm/rocm_smi_lib#108) was described as having "no uniform NVLink
// fabric", NVIDIA's word on an AMD host.
func TestDescribeFabricROCmPCIe(t *testing.T) {
	top, _, err := ParseROCmFile(filepath.Join("testdata", "rocm", "rocm_smi_showtopo_4gpu_pcie.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := DescribeFabric(top), "pcie, 4 GPUs, no XGMI between every pair"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}
