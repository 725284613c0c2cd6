package main

import (
	"strings"
	"testing"
)

// The folders of the real logs and captures these tests set side by side.
const (
	sweepLogs     = "../../data/nccltests/testdata/real/"
	sweepCaptures = "../../topo/testdata/real/"
	sweepROCm     = "../../topo/testdata/rocm/"
)

// TestTopoSweepVendor: a capture of the other vendor's GPUs is of another
// machine, whatever its fabric, and is refused as a usage error naming the
// capture the machine's vendor prints: rocm-smi's PCIe capture beside an
// L40S log warned of nothing, nvidia-smi's beside an MI300X log gave the
// MI300X "7 NVLinks" or (one GPU) said nothing, and an MI300X XGMI capture
// beside an H100 log, taken as given with a warning, made an H100 host
// joined by Infinity Fabric (red team B). rocm-smi's own PCIe capture
// beside an MI300X is the machine's, its links Infinity Fabric's.
func TestTopoSweepVendor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		log, shape, capture, want, not string
		code                           int
	}{
		{"l40s_2node_allreduce_openshift.log", "2,1", sweepROCm + "rocm_smi_showtopo_4gpu_pcie.txt",
			"the capture is rocm-smi's, of AMD GPUs, but L40S is NVIDIA's: it is a capture of another machine; give this machine's (nvidia-smi topo -m)", "", 2},
		{"h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", "2,8", sweepROCm + "gfx942_8gpu_xgmi_msswift.txt",
			"the capture is rocm-smi's, joining AMD GPUs by Infinity Fabric (XGMI), but H100 SXM is NVIDIA's: it is a capture of another machine", "", 2},
		{"mi300x_1x8_allreduce_rocmblogs.log", "1,8", sweepCaptures + "p40_8gpu_mlx5_soc_paddle.txt",
			"the capture is nvidia-smi's, of NVIDIA GPUs, but AMD Instinct MI300X is AMD's: it is a capture of another machine; give this machine's (rocm-smi --showtopo)", "NVLinks", 2},
		{"mi300x_1x8_allreduce_rocmblogs.log", "1,8", sweepCaptures + "h100_hgx_8nic_sglang30401.txt",
			"the capture is nvidia-smi's, of NVIDIA GPUs, but AMD Instinct MI300X is AMD's", "NVLinks", 2},
		{"mi300x_1x8_allreduce_rocmblogs.log", "1,8", sweepCaptures + "tesla_p4_1gpu_numa_na_hami99.txt",
			"the capture is nvidia-smi's, of NVIDIA GPUs, but AMD Instinct MI300X is AMD's", "", 2},
		{"mi300x_1x8_allreduce_rocmblogs.log", "1,8", sweepROCm + "rocm_smi_showtopo_4gpu_pcie.txt",
			"the catalog gives AMD Instinct MI300X 7 Infinity Fabric links", "NVLinks", 0},
	} {
		shape := strings.Split(c.shape, ",")
		code, _, stderr := runCLI("predict", "-calibrate", sweepLogs+c.log, "-topo", c.capture, "-collective", "allreduce",
			"-nodes", shape[0], "-per-node", shape[1], "-size", "1MiB")
		if code != c.code {
			t.Errorf("%s beside %s: exit %d, want %d: %s", c.capture, c.log, code, c.code, stderr)
			continue
		}
		if !strings.Contains(stderr, c.want) {
			t.Errorf("%s beside %s: stderr lacks %q:\n%s", c.capture, c.log, c.want, stderr)
		}
		if c.not != "" && strings.Contains(stderr, c.not) {
			t.Errorf("%s beside %s: stderr says %q:\n%s", c.capture, c.log, c.not, stderr)
		}
	}
}

// TestTopoSweepUnnamedGPU: beside a log that names no GPU, the capture is
// the only word on the fabric: the Polaris capture beside the Polaris log
// (and the GB200 tray's beside a GB200 log) warned that "the catalog gives
// unnamed GPU no NVLink", of a GPU the catalog does not hold.
func TestTopoSweepUnnamedGPU(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ log, capture, shape string }{
		{"a100_4x4_allreduce_simple_polaris_ss11.log", "a100_polaris_4gpu_nv4_2nic_alcf.txt", "4"},
		{"gb200_2x4_allreduce_mnnvl_oci_oke.log", "gb200_tray_4gpu_nv18_k8stestinfra371.txt", "2"},
	} {
		code, out, stderr := runCLI("predict", "-calibrate", sweepLogs+c.log, "-topo", sweepCaptures+c.capture, "-collective", "allreduce",
			"-nodes", c.shape, "-per-node", "4", "-size", "1MiB")
		if code != 0 {
			t.Errorf("%s: exit %d: %s", c.capture, code, stderr)
			continue
		}
		if strings.Contains(stderr, "is it a capture of this machine") {
			t.Errorf("%s beside %s: a capture of the machine is doubted:\n%s", c.capture, c.log, stderr)
		}
		if !strings.Contains(out, "gpus_per_node 4 (topo)") {
			t.Errorf("%s: facts lack the capture's GPUs:\n%s", c.capture, out)
		}
	}
}

// TestTopoSweepDiagnoseHosts: diagnose places the ranks of a log that
// does not on hosts of the GPUs the capture shows, as its facts line
// says: a 4-GPU capture beside the 8 ranks of a log without hosts took
// one node of 8 ("a host is taken to hold 8 GPUs ... where nothing gives
// it"), then blamed the capture ("the capture shows 4 GPUs, and the run
// 8 a node"), and said the logs' NCCL lines (there are none) showed the
// mesh that the capture shows.
func TestTopoSweepDiagnoseHosts(t *testing.T) {
	t.Parallel()
	capture := sweepCaptures + "h100_4gpu_nv6_4nic_pix_nccl1617.txt"
	code, out, stderr := runCLI("diagnose", "-topo", capture, sweepLogs+"unnamed_2x4_reduce_scatter_nccltests128.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	all := out + stderr
	for _, want := range []string{
		"2 nodes of 4 GPUs are assumed, as the capture " + capture + " shows hosts of 4 GPUs",
		"reducescatter on 8 ranks (2 x 4 GPUs)",
		"on the mesh the capture shows",
		"gpus_per_node 4 (topo)",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("output lacks %q:\n%s", want, all)
		}
	}
	for _, not := range []string{"one node of 8 GPUs", "the run 8 a node", "the logs' NCCL lines show", "is it a capture of this machine"} {
		if strings.Contains(all, not) {
			t.Errorf("output says %q:\n%s", not, all)
		}
	}
	// -hw gpus=G still stands over the capture.
	code, out, stderr = runCLI("diagnose", "-topo", capture, "-hw", "gpus=8", sweepLogs+"unnamed_2x4_reduce_scatter_nccltests128.log")
	if code != 0 || !strings.Contains(out+stderr, "one node of 8 GPUs is assumed, as -hw gives hosts of 8 GPUs") {
		t.Errorf("-hw gpus=8: exit %d:\n%s%s", code, out, stderr)
	}
}

// TestTopoSweepOneGPUCapture: a capture of one GPU beside a run of 8 a
// node shows part of the host (or another machine), and its NICs are
// taken for the host's: it said nothing of it.
func TestTopoSweepOneGPUCapture(t *testing.T) {
	t.Parallel()
	for capture, want := range map[string]string{
		"single_gpu_5bond_nics_lmdeploy.txt": "the capture shows 1 GPU, and the run 8 a node: a capture of part of the host (a container's) or of another machine; it shows no fabric, and its NICs are taken for the whole host's",
		"tesla_p4_1gpu_numa_na_hami99.txt":   "the capture shows 1 GPU, and the run 8 a node: a capture of part of the host (a container's) or of another machine; it shows no fabric and no NIC, and settles nothing of the host",
	} {
		code, out, stderr := runCLI("predict", "-calibrate", sweepLogs+"h100_1x8_g8_allreduce_voltagepark.log", "-topo", sweepCaptures+capture,
			"-collective", "allreduce", "-nodes", "1", "-per-node", "8", "-size", "1MiB")
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr lacks %q:\n%s\n%s", capture, code, want, stderr, out)
		}
	}
}

// TestTopoSweepNICNames: NCCL's debug lines of nccl-tests#319's run list
// mlx5_11 among its 8 InfiniBand devices, which the 8-NIC HGX capture of
// sglang#30401 (mlx5_0 to mlx5_7) does not show: the counts agree, and
// the capture's NICs were taken without a word, while diagnose gave
// NCCL_IB_HCA from -topo. Predict and diagnose warn; a log without
// NCCL's device list says nothing.
func TestTopoSweepNICNames(t *testing.T) {
	t.Parallel()
	capture := sweepCaptures + "h100_hgx_8nic_sglang30401.txt"
	log := sweepLogs + "h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log"
	want := "NCCL's debug lines list mlx5_11 (line 28), which the capture " + capture + " does not show (its NICs are mlx5_0, mlx5_1, mlx5_2, mlx5_3, mlx5_4, mlx5_5, mlx5_6 and mlx5_7): is it a capture of this machine?"
	for _, args := range [][]string{
		{"predict", "-calibrate", log, "-topo", capture, "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1MiB"},
		{"diagnose", "-topo", capture, log},
	} {
		code, out, stderr := runCLI(args...)
		if code != 0 || strings.Count(stderr, want) != 1 {
			t.Errorf("%s: exit %d, want %q once on stderr:\n%s\n%s", args[0], code, want, stderr, out)
		}
	}
	code, _, stderr := runCLI("predict", "-calibrate", sweepLogs+"h100_1x8_g8_allreduce_voltagepark.log", "-topo", capture,
		"-collective", "allreduce", "-nodes", "1", "-per-node", "8", "-size", "1MiB")
	if code != 0 || strings.Contains(stderr, "does not show") {
		t.Errorf("a log without NCCL's device list: exit %d:\n%s", code, stderr)
	}
}

// TestTopoSweepVendorSystem: the vendor's refusal holds against a
// system's GPU too: nccl-tests#380's NVSwitch capture beside its own log
// (no GPU named) under -hw system=hpe-ex235a-mi250x, a system predict
// offered for it, described "AMD Instinct MI250X, 8 a host, NVSwitch 18
// NVLinks" with no word of the vendor.
func TestTopoSweepVendorSystem(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("predict", "-calibrate", sweepLogs+"h200_2x8_allreduce_4nic_baremetal_nccltests380.log",
		"-topo", sweepCaptures+"h200_4nic_cut_header_nccltests380.txt", "-hw", "system=hpe-ex235a-mi250x",
		"-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1MiB")
	want := "the capture is nvidia-smi's, of NVIDIA GPUs, but AMD Instinct MI250X is AMD's: it is a capture of another machine"
	if code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr lacks %q:\n%s\n%s", code, want, stderr, out)
	}
}

// TestTopoGPUOtherVendor: topo -gpu shows the machine predict takes with
// -topo, which refuses a capture of the other vendor's GPUs: so does topo,
// which described "H100 SXM, 8 a host, Infinity Fabric mesh of 18 links"
// beside an MI300X capture and said predict takes it (a review).
func TestTopoGPUOtherVendor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ gpu, capture, want string }{
		{"H100 SXM", sweepROCm + "gfx942_8gpu_xgmi_msswift.txt", "but H100 SXM is NVIDIA's: it is a capture of another machine"},
		{"AMD Instinct MI300X", sweepCaptures + "h100_hgx_8nic_sglang30401.txt", "but AMD Instinct MI300X is AMD's: it is a capture of another machine"},
	} {
		if code, _, stderr := runCLI("topo", "-gpu", c.gpu, c.capture); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("topo -gpu %q %s: exit %d, want 2 and %q:\n%s", c.gpu, c.capture, code, c.want, stderr)
		}
	}
	if code, _, stderr := runCLI("topo", "-gpu", "AMD Instinct MI300X", sweepROCm+"gfx942_8gpu_xgmi_msswift.txt"); code != 0 {
		t.Errorf("the machine's own capture: exit %d:\n%s", code, stderr)
	}
}
