package main

import (
	"strings"
	"testing"
)

// TestSystemsOfCapture: beside a log that names no GPU (nccl-tests#128's
// 2 x 4 ReduceScatter), nccl-tests#380's capture of H200s on NVSwitch (NV18)
// was offered "-hw system=" of an MI250X platform and of A100 hosts (p4d,
// a2), whose GPUs' own links (Infinity Fabric; 12 NVLinks) the capture
// contradicts; the H100 hosts of 18 NVLinks stay.
func TestSystemsOfCapture(t *testing.T) {
	t.Parallel()
	_, stdout, _ := runCLI("predict", "-calibrate", "../../data/nccltests/testdata/real/unnamed_2x4_reduce_scatter_nccltests128.log",
		"-topo", "../../topo/testdata/real/h200_4nic_cut_header_nccltests380.txt",
		"-collective", "reducescatter", "-nodes", "2", "-per-node", "4", "-size", "1MiB")
	line := offerLine(stdout)
	if !strings.Contains(line, "a3-highgpu-8g") {
		t.Fatalf("no offer of an H100 host of 18 NVLinks; stdout:\n%s", stdout)
	}
	for _, s := range []string{"hpe-ex235a-mi250x", "p4d.24xlarge", "a2-highgpu-8g"} {
		if strings.Contains(line, s) {
			t.Errorf("offers %s, whose GPU the capture contradicts: %s", s, line)
		}
	}
}

// TestSystemsOfPolarisCapture: ALCF's own capture of a Polaris node
// (mlx5_0 PHB to GPU3, mlx5_1 PHB to GPU1, SYS elsewhere) gives the path
// NCCL's ring enters and leaves the host by, PHB, which is what the
// catalog's alcf-polaris documents, so that system is offered; typed by
// the farthest GPU's best NIC (SYS), the capture ruled it out.
func TestSystemsOfPolarisCapture(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI("predict", "-gpu", "A100-SXM4-40GB", "-topo", "../../topo/testdata/real/a100_polaris_4gpu_nv4_2nic_alcf.txt",
		"-collective", "allreduce", "-nodes", "4", "-per-node", "4", "-size", "1GiB")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "nic_path PHB (topo)") {
		t.Errorf("stdout lacks nic_path PHB from the capture:\n%s", stdout)
	}
	line := offerLine(stdout)
	if !strings.Contains(line, "alcf-polaris") {
		t.Errorf("alcf-polaris not offered for its own capture: %q", line)
	}
}

// TestTuneUnnamedOnCapture: tune refuses a log that names no GPU (exit 2,
// asking for -gpu), but said the rules would be "for a PCIe card assumed
// in its place" where the capture put the GPU on NVSwitch.
func TestTuneUnnamedOnCapture(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI("tune", "-calibrate", "../../data/nccltests/testdata/real/unnamed_2x4_reduce_scatter_nccltests128.log",
		"-topo", "../../topo/testdata/real/h200_4nic_cut_header_nccltests380.txt", "-nodes", "2", "-per-node", "4", "-o", t.TempDir()+"/r.conf")
	if code != 2 || !strings.Contains(stderr, "the logs name no GPU, and rules for a GPU assumed in its place") || strings.Contains(stderr, "PCIe card") {
		t.Errorf("exit %d, want 2 and no PCIe card named; stderr:\n%s", code, stderr)
	}
}

// offerLine is the line of predict's output that offers catalog systems
// (-hw system=NAME), "" for none.
func offerLine(stdout string) string {
	var line string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.Contains(l, "-hw system=NAME") {
			line = l
		}
	}
	return line
}
