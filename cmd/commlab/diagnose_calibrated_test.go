package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagnoseCalibratedStallNoFabric: the 8 x 8 A100 AllToAll of
// microsoft/msccl#48, calibrated on the same thread's 2 x 8, took 5.04
// times the model at 1 MiB, longer than at 2 and 4 MiB: a stall. The row
// was also a finding "slower than its smaller siblings" whose advice put
// it on the fabric above the NICs, against the stall's "not a setting of
// NCCL's".
func TestDiagnoseCalibratedStallNoFabric(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"a100_8x8_alltoall_msccl48.log:nodes=8:per-node=8:gpu=A100",
		"-calibrate", dir+"a100_2x8_alltoall_msccl48.log:nodes=2:per-node=8:gpu=A100")
	stalled := map[string]bool{}
	for _, f := range fs {
		if f["kind"] == "stalled" {
			stalled[fmt.Sprint(f["from_bytes"])] = true
		}
	}
	if len(stalled) == 0 {
		t.Fatalf("no stall among %v; want the 1 MiB row's (the case this test guards)", fs)
	}
	for i, f := range fs {
		if f["kind"] == "slower than its smaller siblings" && stalled[fmt.Sprint(f["from_bytes"])] {
			t.Errorf("finding %d: a stalled row is put on the fabric: %v", i+1, f["advice"])
		}
	}
}

// TestDiagnoseCalibratedLaunchOneGPU: AMD's MI350X AllReduce of one process
// a GPU (mpirun, -g 1), calibrated on the same host's -g 8 run, is slower
// than the model's launch floor at 16 B..512 B. The advice read "each
// thread launches its 1 GPUs one after the other; try CUDA graphs (nccl-tests
// -G 1) or one GPU per thread or process (-g 1 with -t or -np)": the run
// already had one GPU a process.
func TestDiagnoseCalibratedLaunchOneGPU(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"mi350x_1x8_allreduce_mpirun_ihc_smci350.log",
		"-calibrate", dir+"mi350x_1x8_g8_allreduce_ihc_smci350.log")
	launch := 0
	for i, f := range fs {
		if f["term"] != "launch" {
			continue
		}
		launch++
		advice := fmt.Sprint(f["advice"])
		if strings.Contains(advice, "1 GPUs") || strings.Contains(advice, "-g 1") {
			t.Errorf("finding %d: %s", i+1, advice)
		}
		if !strings.Contains(advice, "CUDA graphs") {
			t.Errorf("finding %d: want CUDA graphs for a run without them: %s", i+1, advice)
		}
	}
	if launch == 0 {
		t.Errorf("no launch-bound finding among %v (the case this test guards)", fs)
	}
}

// TestDiagnoseCalibratedPinsKeepExclusions: Together's H100 AllReduce run
// with NCCL_NVLS_ENABLE=0 (the paired logs' collnet_sharp, the tuner
// without NVLS: NCCL_ALGO=^NVLS,NVLSTree to the model), calibrated on the
// same host's other AllReduce runs, was told at 32 MiB that NCCL_ALGO=NVLS
// would run 1.23x as fast, which that job cannot run.
func TestDiagnoseCalibratedPinsKeepExclusions(t *testing.T) {
	t.Parallel()
	const dir = "../../data/logs/paired/h100-sxm-1x8-together/"
	const pin = ":nodes=1:per-node=8:gpu=NVIDIA H100 80GB HBM3:version=2.26.2"
	fs, _, _ := diagnoseJSON(t, dir+"all_reduce_collnet_sharp.log"+pin, "-algo", "^NVLS,NVLSTree",
		"-calibrate", dir+"all_reduce_ring.log"+pin+":algo=ring,"+dir+"all_reduce_nvls.log"+pin+":algo=auto,"+
			dir+"all_gather_ring.log"+pin+":algo=ring,"+dir+"reduce_scatter_ring.log"+pin+":algo=ring,"+
			dir+"reduce_scatter_nvls.log"+pin+":algo=auto,"+dir+"all_gather_nvls.log"+pin+":algo=auto")
	slower := 0
	for i, f := range fs {
		if f["kind"] == "slower than the model" {
			slower++
		}
		if advice := fmt.Sprint(f["advice"]); strings.Contains(advice, "NCCL_ALGO=NVLS") {
			t.Errorf("finding %d: a pin the run's NCCL_ALGO=^NVLS,NVLSTree excludes: %s", i+1, advice)
		}
	}
	if slower == 0 {
		t.Errorf("no slower finding among %v (the case this test guards)", fs)
	}
}

// TestDiagnoseFasterNotTheRun: GKE's 2 x 1 B200 AllGather (DRANET) runs
// 10.89 times faster than its 2 x 8 table, stalled from 1 KiB to 2 MiB,
// predicts; the guesses move the model 2.56x at most, and the finding said
// "check the run as well" (red team 44b): a run faster than the model is
// at no fault.
func TestDiagnoseFasterNotTheRun(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"b200_2x1_allgather_gke_a4_dranet.log", "-calibrate", dir+"b200_2x8_allgather_gke_a4_dranet.log")
	short := 0
	for i, f := range fs {
		advice := fmt.Sprint(f["advice"])
		if !strings.Contains(advice, "short of this") {
			continue
		}
		short++
		if f["kind"] == "faster than the model" && strings.Contains(advice, "check the run as well") {
			t.Errorf("finding %d, faster than the model: %s", i+1, advice)
		}
	}
	if short == 0 {
		t.Errorf("no finding whose guesses fall short of the gap: %v", fs)
	}
}

// TestDiagnoseAMDNoNvidiaSMI: Core42's MI210 hosts run RCCL, and the
// advice for their PCIe links named nvidia-smi topo -p2p r and nvidia-smi
// -q (red team 44b), which an AMD host does not have; rocm-smi and lspci
// show the same.
func TestDiagnoseAMDNoNvidiaSMI(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"mi210_1x8_allreduce_ncclinfo_core42.log", "-calibrate",
		dir+"mi210_1x8_allreduce_ring_simple_intranet_core42.log:algo=ring:proto=Simple,"+dir+"mi210_2x8_allreduce_ring_simple_core42.log:algo=ring:proto=Simple")
	pcie := false
	for i, f := range fs {
		advice := fmt.Sprint(f["advice"])
		if strings.Contains(advice, "nvidia-smi") {
			t.Errorf("finding %d on an RCCL host: %s", i+1, advice)
		}
		pcie = pcie || strings.Contains(advice, "rocm-smi --showtopo")
	}
	if !pcie {
		t.Errorf("no PCIe advice naming rocm-smi: %v", fs)
	}
}

// TestDiagnoseBeyondTheLinks: Voltage Park's one-node AllGather, one
// thread driving 8 H100s, takes 24.04 times the model's time at 4 MiB,
// where the bytes cross the GPU's 18 NVLinks: were 17 of them down, the
// one left would move them faster. The advice said to check NVLink (red
// team 44b); the rows were held up by something else.
func TestDiagnoseBeyondTheLinks(t *testing.T) {
	t.Parallel()
	fs, _, _ := diagnoseJSON(t, "../../data/nccltests/testdata/real/h100_1x8_g8_allgather_voltagepark.log")
	n := 0
	for i, f := range fs {
		if f["term"] != "links" || f["kind"] != "slower than the model" {
			continue
		}
		advice := fmt.Sprint(f["advice"])
		if r := f["measured_over_model"].(float64); r > 18 {
			n++
			if strings.Contains(advice, "nvlink --status") || !strings.Contains(advice, "more than one link alone would") {
				t.Errorf("finding %d, %.2fx the model over 18 links: %s", i+1, r, advice)
			}
		}
	}
	if n == 0 {
		t.Errorf("no link-bound finding beyond 18x: %v", fs)
	}
}

// TestDiagnoseOneGPUANodeNoLinks: ROCm/ROCm#5571's two hosts of one
// Radeon AI PRO R9700 each cross no link inside a node; a finding faster
// than the model said "its links are assumed (pcie)" (red team 44b). Its
// GDR-local run, calibrated on its DMA-BUF run, ran 512 KiB faster than
// the model.
func TestDiagnoseOneGPUANodeNoLinks(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"r9700_2x1_allreduce_gdrloc_rocm5571.log", "-calibrate", dir+"r9700_2x1_allreduce_dmabuf_rocm5571.log")
	faster := false
	for i, f := range fs {
		if f["kind"] != "faster than the model" {
			continue
		}
		faster = true
		if a := fmt.Sprint(f["advice"]); strings.Contains(a, "its links are assumed") {
			t.Errorf("finding %d, one GPU a node: %s", i+1, a)
		}
	}
	if !faster {
		t.Errorf("no finding faster than the model: %v", fs)
	}
}

// TestDiagnoseEnvOnASlowerRange: nccl-tests#319's Ring run set
// NCCL_IB_QPS_PER_CONNECTION=64, which the model does not read; the note
// that it may cause the gap stood on the first finding, a range of 8 to 32
// B faster than the model, which no QP count makes (red team 44b). It
// stands on the first range slower than the model.
func TestDiagnoseEnvOnASlowerRange(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	fs, _, _ := diagnoseJSON(t, dir+"h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", "-calibrate", dir+"h100_2x8_allreduce_default_doca_nccltests319.log")
	on := -1
	for i, f := range fs {
		if strings.Contains(fmt.Sprint(f["advice"]), "NCCL_IB_QPS_PER_CONNECTION=64 set in the environment") {
			on = i
		}
	}
	if on < 0 || fs[on]["kind"] != "slower than the model" {
		t.Errorf("the environment's note on finding %d: %v", on+1, fs)
	}
}

// TestDiagnoseRunDomainsNote: Google's A4X Max run of 2 x 4 GB300 with
// the comm line "nNodes 2 localRanks 4 ... MNNVL 0" ran every host as a
// node, where the catalog's NVL72 rack would hold both in one domain.
// Diagnose, calibrated on a copy of it, models it as NCCL ran it, as the
// calibration does, and says so among its problems as predict does of
// its calibration tables (red team C, finding 1: diagnose said nothing,
// and held the table to one domain).
func TestDiagnoseRunDomainsNote(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../data/nccltests/testdata/real/gb300_2x4_allgather_crossdomain_gcpa4xmax.log")
	if err != nil {
		t.Fatal(err)
	}
	b := append([]byte("h:1:1 [0] NCCL INFO comm 0xaaaad0c0 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0 MNNVL 0\n"), raw...)
	dir := t.TempDir()
	a, c := filepath.Join(dir, "a.log"), filepath.Join(dir, "c.log")
	for _, p := range []string{a, c} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI("diagnose", a, "-calibrate", c)
	want := a + "#0: NCCL ran its 2 hosts as 2 nodes of 1 host (line 1: MNNVL 0, every host a node), where the machine's NVLink domain (nvlink_domain 72) would hold them in 1 domain; the table is modelled as NCCL ran it"
	if code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, %s; want %q", code, stderr, want)
	}
}
