package main

import (
	"strings"
	"testing"
)

// TestTopoPartialCapture: a capture of 4 H100s (NVIDIA/nccl#1617) beside a
// log whose Rank lines put 8 GPUs on one host printed "gpus_per_node 4
// (topo)" and "4 a host" under the warning that the capture is of part of
// the host: the log's 8 are the least the host holds, and the capture's
// fabric and NICs stay, as the warning says.
func TestTopoPartialCapture(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("diagnose", "../../data/nccltests/testdata/real/h100_1x8_g8_allgather_voltagepark.log",
		"-topo", "../../topo/testdata/real/h100_4gpu_nv6_4nic_pix_nccl1617.txt")
	if code != 0 || !strings.Contains(stderr, "the capture shows 4 GPUs, and the run 8 a node") {
		t.Fatalf("exit %d, want 0 and the partial capture's warning; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"gpus_per_node at least 8 (log)", "fabric mesh (topo)", "nics_per_node 4 (topo)"} {
		if !strings.Contains(out, want) {
			t.Errorf("facts lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "4 a host") {
		t.Errorf("the hardware line holds the capture's 4 GPUs a host:\n%s", out)
	}
}

// TestTopoHostsNotDividing: beside a capture of 7 GPUs, nccl-tests#128's 8
// ranks (no Rank lines) fit no whole hosts: the table was left out with
// "node count unknown ... give nodes=N", without a word of the capture whose
// hosts were tried.
func TestTopoHostsNotDividing(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI("diagnose", "../../data/nccltests/testdata/real/unnamed_2x4_reduce_scatter_nccltests128.log",
		"-topo", "../../topo/testdata/real/gtx1070_7gpu_single_socket_rossumai.txt")
	if code != 1 || !strings.Contains(stderr, "give nodes=N") || !strings.Contains(stderr, "shows hosts of 7 GPUs, and hosts of that many do not hold its 8 ranks") {
		t.Errorf("exit %d, want 1 naming the capture's hosts of 7; stderr:\n%s", code, stderr)
	}
}

// TestTopoFabricInWords: a capture of NVLinked H100s beside an L40S log
// warned that "the capture joins its GPUs by mesh", the -hw value's name.
func TestTopoFabricInWords(t *testing.T) {
	t.Parallel()
	_, _, stderr := runCLI("predict", "-calibrate", "../../data/nccltests/testdata/real/l40s_2node_allreduce_openshift.log",
		"-topo", "../../topo/testdata/real/h100_4gpu_nv6_4nic_pix_nccl1617.txt", "-collective", "allreduce", "-nodes", "1", "-per-node", "4", "-size", "1MiB")
	if !strings.Contains(stderr, "the capture joins its GPUs by an NVLink mesh, but the catalog gives L40S no NVLink") {
		t.Errorf("want the fabric in words; stderr:\n%s", stderr)
	}
}
