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

// TestPredictSizesPastMemory: a 128 GiB AllReduce on 64 x 8 H100s of 80 GB
// cannot run: nccl-tests runs at most
// (80 − min(⌈80/16⌉, 4) − 1) / 3 = 25 GiB there (src/common.cu of
// nccl-tests a0b82b2: three buffers of the largest size in the memory
// less its reserve), and no call fits a buffer past the 80 GB the Rank
// lines' "NVIDIA H100 80GB HBM3" prints; predict says both, and nothing
// at 16 GiB, or where the name prints no memory (GCP's A4 B200s, "NVIDIA
// B200").
func TestPredictSizesPastMemory(t *testing.T) {
	t.Parallel()
	const h100 = realDir + "h100_2x8_allreduce_default_nccltests309.log"
	const b200 = realDir + "b200_2x8_allreduce_gke_a4.log"
	for _, c := range []struct {
		log, sizes string
		want       []string // "" for no note
	}{
		{h100, "16GiB,32GiB,128GiB", []string{"from 32 GiB, the sizes are beyond what nccl-tests runs on a GPU of the 80 GB its name prints: it runs up to 25 GiB there", "; from 128 GiB, beyond the memory itself"}},
		{h100, "16GiB,32GiB", []string{"from 32 GiB, the sizes are beyond", "the result it checks against) in the memory less a reserve\n"}},
		{h100, "16GiB", nil},
		{b200, "128GiB,1TiB", nil},
	} {
		code, _, stderr := runCLI("predict", "-calibrate", c.log, "-collective", "allreduce", "-nodes", "64", "-per-node", "8", "-size", c.sizes)
		if code != 0 {
			t.Fatalf("%s at %s: exit %d: %s", c.log, c.sizes, code, stderr)
		}
		if len(c.want) == 0 && strings.Contains(stderr, "beyond what nccl-tests runs") {
			t.Errorf("%s at %s: a memory note:\n%s", c.log, c.sizes, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s at %s: want %q:\n%s", c.log, c.sizes, w, stderr)
			}
		}
	}
}
