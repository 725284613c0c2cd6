package topo

import "testing"

// TestNVLinkGraph: NVLink joins every GPU of Azure's ND40rs v2 (DGX-1's
// hybrid cube-mesh of 8 V100s) to every other through NV1 and NV2 links, 6
// a GPU, which InferFabric, judging pair by pair, takes for PCIe; Azure's
// NC96ads A100 v4 joins its 4 GPUs in two NV12 pairs that no NVLink
// joins; an HGX H100's NVSwitch shows NV18 between every pair; a single
// GPU has no graph (the captures' own matrices).
func TestNVLinkGraph(t *testing.T) {
	for _, c := range []struct {
		file string
		want int
	}{
		{"azure_nd40rs_v2_8gpu_cube_mesh.txt", 6},
		{"dgx1_p100_glued_header_sheffield.txt", 4},
		{"a100_80g_azure_nc96_4gpu_nv12_pairs_blog.txt", 0},
		{"h100_hgx_8nic_sglang30401.txt", 0},
		{"h100_pcie_kvm_1gpu_sglang24413.txt", 0},
	} {
		top, _, err := ParseFile("testdata/real/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := NVLinkGraph(top); got != c.want {
			t.Errorf("%s: %d NVLinks a GPU, want %d", c.file, got, c.want)
		}
	}
}
