package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// TestTopoSlingshotNoIBHCA: the red team's capture of 4 x H100 whose NIC
// Legend names cxi0..cxi3 (topo_cxi.txt) got NCCL_IB_HCA=cxi0 and so on,
// a setting of NCCL's InfiniBand transport, which lists no Cassini NIC,
// and one aws-ofi-nccl never reads; diagnose's advice for the OFI
// plugin already says NCCL_IB_* do not apply. topo gives no NCCL_IB_HCA
// for such NICs and says what picks them (topo.NotIB), in text and JSON,
// and diagnose's binding advice names the CPUs without it.
func TestTopoSlingshotNoIBHCA(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../topo/testdata/real/nv4_4gpu_empty_cpu_affinity_slurm.txt")
	if err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "topo_cxi.txt", []byte(strings.ReplaceAll(string(b), ": mlx5_", ": cxi")))
	code, stdout, stderr := runCLI("topo", path)
	if code != 0 || strings.Contains(stdout, "=cxi") || !strings.Contains(stdout, "NCCL_IB_HCA: none; cxi0, cxi1 and cxi2 are HPE Slingshot's NICs") {
		t.Errorf("text: exit %d, want no NCCL_IB_HCA=cxiN and a note naming the NICs:\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI("topo", "-json", path)
	var out struct {
		GPUs []map[string]any `json:"gpus"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil || len(out.GPUs) != 4 {
		t.Fatalf("JSON: exit %d: %s %s", code, stdout, stderr)
	}
	for _, g := range out.GPUs {
		if _, ok := g["nccl_ib_hca"]; ok || !strings.Contains(g["nccl_ib_hca_note"].(string), "OFI plugin") {
			t.Errorf("%v: nccl_ib_hca %q, note %q; want none, and the OFI plugin named", g["name"], g["nccl_ib_hca"], g["nccl_ib_hca_note"])
		}
	}
	top, _, err := topo.Parse(strings.NewReader(strings.ReplaceAll(string(b), ": mlx5_", ": cxi")))
	if err != nil {
		t.Fatal(err)
	}
	if a := bindingAdvice(top, 0, nccltests.Evidence{}); strings.Contains(a, "=cxi") || !strings.Contains(a, "GPU0 and GPU1 on NUMA node 0, CPUs 0; GPU2 and GPU3 on NUMA node 1") || !strings.Contains(a, "NCCL_IB_HCA: none; ") {
		t.Errorf("diagnose's binding advice %q: want the GPUs' CPUs, no NCCL_IB_HCA", a)
	}
}
