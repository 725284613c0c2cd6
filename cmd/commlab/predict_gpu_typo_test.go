package main

import (
	"strings"
	"testing"
)

// TestPredictGPUTypo: a newcomer's typo, -gpu "NVIDIA H10 80GB HBM3",
// replaces the Rank lines' H100 of nccl-tests#319's log (said on stderr),
// and the GPU is one the catalog lacks. The guess line names the catalog's
// product it may mean (nccl.NearGPU: "H10" begins "H100"), and, as the
// log's NCCL lines show NVSwitch and NVLS (nvls true, line 32), it says
// the links are assumed on that fabric, not that a PCIe card without
// NVLink is assumed, which the hardware line beside it contradicted (red
// team B).
func TestPredictGPUTypo(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI("predict", "-calibrate", "../../data/nccltests/testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log",
		"-gpu", "NVIDIA H10 80GB HBM3", "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1GiB")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, `the Rank lines name the GPU "NVIDIA H100 80GB HBM3", and the name given, "NVIDIA H10 80GB HBM3", replaces it`) {
		t.Errorf("stderr does not say the name given replaces the log's:\n%s", stderr)
	}
	want := `guess: gpu = NVIDIA H10 80GB HBM3 is not in the catalog, and its compute capability and its links' count and rate are assumed on the nvswitch fabric (nccl-debug): describe them with -hw cc=X.Y,links=N,link-bw=RATE; if it is the catalog's H100 SXM, -gpu "H100 SXM"`
	if !strings.Contains(stdout, want) || strings.Contains(stdout, "a PCIe card without NVLink is assumed") {
		t.Errorf("want %q, and no PCIe card assumed:\n%s", want, stdout)
	}
}

// TestPredictSizesBeyond: OCI's 2 x 8 MI300X AllReduce log holds sizes
// from 1 GiB to 16 GiB; 1 MiB is log2(1 GiB / 1 MiB) = 10 doublings
// below them, which predict now says, as it says nodes and ranks beyond
// the tables' (red team B: the 1 MiB prediction, 88.9 µs [52.4, 161], moved
// to 193 µs with the GPU named, and nothing said how far it reached); 4
// GiB, within them, draws no such line.
func TestPredictSizesBeyond(t *testing.T) {
	t.Parallel()
	log := "../../data/nccltests/testdata/real/mi300x_2x8_allreduce_oci_oke_slurm.log"
	_, _, stderr := runCLI("predict", "-calibrate", log, "-collective", "allreduce", "-p", "32", "-per-node", "8", "-size", "1MiB,4GiB")
	if want := "1 MiB is 10.0 doublings below the tables' sizes (1 GiB to 16 GiB)"; !strings.Contains(stderr, want) || strings.Contains(stderr, "4 GiB is") {
		t.Errorf("want %q alone:\n%s", want, stderr)
	}
	if _, _, stderr := runCLI("predict", "-calibrate", log, "-collective", "allreduce", "-p", "32", "-per-node", "8", "-size", "4GiB"); strings.Contains(stderr, "doublings below the tables' sizes") {
		t.Errorf("4 GiB alone: a size line:\n%s", stderr)
	}
}
