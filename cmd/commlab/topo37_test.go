package main

import (
	"strings"
	"testing"
)

// TestTopoUnevenMeshLine: `commlab topo` on a real hybrid cube-mesh capture
// (Azure ND40rs_v2) names the NVLinks its pairs show, not 0.857 links per
// peer, which no pair of the capture has.
func TestTopoUnevenMeshLine(t *testing.T) {
	f := "../../topo/testdata/real/azure_nd40rs_v2_8gpu_cube_mesh.txt"
	code, out, stderr := runCLI("topo", f)
	want := "GPU fabric: full-mesh, 8 GPUs, 6 links each (NV1 or NV2 to 4 of 7 peers, no NVLink to the rest)\n"
	if code != 0 || !strings.Contains(out, want) || strings.Contains(out, "0.857") {
		t.Errorf("exit %d, stderr %q, stdout %q; want the line %q", code, stderr, out, want)
	}
}
