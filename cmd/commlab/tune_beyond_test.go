package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneBeyondNodes (red team 46b): OCI's GB200 tables, 2 x 4 in one rack
// (NCCL's NVLS) and 32 x 4 across two (NVLSTree), ran NCCL's Simple 1.43
// times the model near 2 MiB, and tune took that as NCCL's own on every
// communicator: Tree/LL on 64 x 4 (four racks, which no table ran) from
// 1.48 to 2.97 MB, "1.33x faster (0.76x-1.36x)" against the model's time
// for NCCL's own, and on 24 x 4 (within the tables' nodes, a shape none ran)
// from 1.48 to 2.97 MB, "1.12x faster (0.76x-1.14x)". Points of another
// collective or shape now take NCCL's own as fast only, never as slow, and
// beyond the tables' nodes every rule keeps NCCL's own choice, which the
// header says.
func TestTuneBeyondNodes(t *testing.T) {
	t.Parallel()
	R := "../../data/nccltests/testdata/real/"
	out := filepath.Join(t.TempDir(), "gb200.conf")
	code, _, stderr := runCLI("tune", "-calibrate", R+"gb200_2x4_allreduce_mnnvl_oci_oke.log:nodes=2:per-node=4:gpu=NVIDIA GB200,"+
		R+"gb200_32x4_allreduce_two_racks_oci_oke.log:nodes=32:per-node=4", "-comms", "2x4,24x4,32x4,64x4", "-collective", "allreduce,allgather,broadcast", "-o", out)
	b, err := os.ReadFile(out)
	if code != 0 || err != nil {
		t.Fatalf("exit %d, %v, %s", code, err, stderr)
	}
	if taken := takenRules(string(b)); len(taken) > 0 {
		t.Errorf("rules take the model's choice:\n%s", strings.Join(taken, "\n"))
	}
	const beyond = "# On 64 x 4, beyond the tables' 2 to 32 nodes, every rule keeps NCCL's own choice"
	if !strings.Contains(string(b), beyond) {
		t.Errorf("want %q in the header:\n%s", beyond, b)
	}
}
