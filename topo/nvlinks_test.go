package topo

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// The degraded captures are derived from real ones by rewriting GPU cells,
// as nvidia-smi shows a host whose NVLinks are down; no server printed
// them. withGPU derives them here, and testdata/degraded holds the two that
// commlab's commands and docs read, made the same way (TestDegradedFiles):
//
//   - testdata/degraded/h100_hgx_gpu3_nv17.txt: the real HGX H100 of sglang
//     issue #30401 (testdata/real/h100_hgx_8nic_sglang30401.txt, NV18
//     between every pair) with each of GPU3's GPU cells NV17, one of its
//     18 links down;
//   - testdata/degraded/h100_hgx_gpu3_no_nvlink.txt: the same capture with
//     GPU3's GPU cells its PCIe paths, all its links down: NODE to GPU0-GPU2
//     and SYS to GPU4-GPU7, the paths the capture shows from GPU3's own NIC
//     (NIC3, PIX to GPU3) to those GPUs.
const (
	hgxH100 = "testdata/real/h100_hgx_8nic_sglang30401.txt"
	hgx4    = "testdata/real/h100_4gpu_nv6_4nic_pix_nccl1617.txt"
	a800    = "testdata/real/a800_nv8_two_nics_per_pair_tabs.txt"
)

// withGPU returns the capture file parsed, with every GPU cell of GPU g
// (its row and column) set by path, which is given the peer's index.
func withGPU(t *testing.T, file string, g int, path func(peer int) Path) *Topology {
	t.Helper()
	top := parseFile(t, file, "")
	gpus := top.GPUs()
	for j := range gpus {
		if j != g {
			top.SetPath(gpus[g], gpus[j], path(j))
		}
	}
	return top
}

// nv returns a path function of n NVLinks to every peer.
func nv(n int) func(int) Path { return func(int) Path { return NV(n) } }

// offSwitch is GPU3's PCIe paths in testdata/real/h100_hgx_8nic_sglang30401.txt
// (NIC3's row: NODE to GPU0-GPU2, SYS to GPU4-GPU7).
func offSwitch(peer int) Path {
	if peer < 4 {
		return Path{Class: NODE}
	}
	return Path{Class: SYS}
}

// TestDegradedFiles: the stored degraded captures are the real HGX H100
// capture with GPU3's cells rewritten as withGPU does, every other pair,
// NIC and affinity as captured.
func TestDegradedFiles(t *testing.T) {
	for file, derived := range map[string]*Topology{
		"testdata/degraded/h100_hgx_gpu3_nv17.txt":      withGPU(t, hgxH100, 3, nv(17)),
		"testdata/degraded/h100_hgx_gpu3_no_nvlink.txt": withGPU(t, hgxH100, 3, offSwitch),
	} {
		top := parseFile(t, file, "")
		if !slices.Equal(top.Pairs(), derived.Pairs()) {
			t.Errorf("%s: pairs differ from %s with GPU3's cells rewritten", file, hgxH100)
		}
		var got, want strings.Builder
		if err := WriteReport(&got, top); err != nil {
			t.Fatal(err)
		}
		if err := WriteReport(&want, derived); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: report differs from %s with GPU3's cells rewritten", file, hgxH100)
		}
	}
}

// TestInferFabricDegraded: NVSwitch is told by a GPU whose NVLinks summed
// over its peers are more than any GPU has (MaxNVLinksPerGPU, 18), with
// every GPU that has NVLink joined to every other, not by every pair
// showing the same NV#; the links taken are the fewest of a GPU. The
// expected fabrics and links are the NV# cells of the files named (the
// real captures') and of the derivations (withGPU).
func TestInferFabricDegraded(t *testing.T) {
	cases := []struct {
		name  string
		top   *Topology
		kind  commmodel.FabricKind
		links int
		notes []string // a piece of each note FabricNotes gives, in order
	}{
		// NV18 between every pair: 7 x 18 = 126 > 18, NVSwitch of 18.
		{"HGX H100", parseFile(t, hgxH100, ""), commmodel.Switched, 18, nil},
		// GPU3 NV17 to every peer (7 x 17 = 119 > 18): still the switch,
		// at GPU3's 17 (before: PCIe, as the pairs differed).
		{"HGX H100, GPU3 NV17", withGPU(t, hgxH100, 3, nv(17)), commmodel.Switched, 17,
			[]string{"degraded NVLinks: GPU3 shows fewer NVLinks into the NVSwitch than the other GPUs' 18 (GPU3 17)"}},
		// The red team's input: testdata/dgx_h100_tabs.txt (hand-made, NV18
		// between every pair) with GPU3's cells NV17.
		{"DGX H100 fixture, GPU3 NV17", withGPU(t, "testdata/dgx_h100_tabs.txt", 3, nv(17)), commmodel.Switched, 17,
			[]string{"GPU3 shows fewer NVLinks into the NVSwitch than the other GPUs' 18 (GPU3 17)"}},
		// GPU3 with 2 of 18 links up, NV2 to every peer (7 x 2 = 14): the
		// other GPUs' 7 x 18 still tell the switch, at 2 a GPU.
		{"HGX H100, GPU3 NV2", withGPU(t, hgxH100, 3, nv(2)), commmodel.Switched, 2,
			[]string{"(GPU3 2)"}},
		// GPU3 NV17 and GPU5 NV16 (the pair GPU3-GPU5 the fewer, NV16):
		// both named, 16 taken.
		{"HGX H100, GPU3 NV17, GPU5 NV16", func() *Topology {
			top := withGPU(t, hgxH100, 3, nv(17))
			gpus := top.GPUs()
			for j := range gpus {
				if j != 5 {
					top.SetPath(gpus[5], gpus[j], NV(16))
				}
			}
			return top
		}(), commmodel.Switched, 16, []string{"GPU3 and GPU5 show fewer NVLinks into the NVSwitch than the other GPUs' 18 (GPU3 17, GPU5 16)"}},
		// GPU3 with no NVLink: off the switch, so a run of all 8 crosses
		// PCIe; the other 7 keep NV18.
		{"HGX H100, GPU3 off the switch", withGPU(t, hgxH100, 3, offSwitch), commmodel.SharedPCIe, 1,
			[]string{"off the NVSwitch: GPU3 has no NVLink to any other GPU, where the other 7 reach each other through NVSwitch: a run of all 8 GPUs crosses PCIe to GPU3, so the capture gives fabric pcie; a run of the other 7 alone is -hw fabric=nvswitch,links=18"}},
		// A800's NV8 (7 x 8 = 56 > 18): NVSwitch of 8; GPU5 NV7, 7.
		{"A800", parseFile(t, a800, ""), commmodel.Switched, 8, nil},
		{"A800, GPU5 NV7", withGPU(t, a800, 5, nv(7)), commmodel.Switched, 7,
			[]string{"GPU5 shows fewer NVLinks into the NVSwitch than the other GPUs' 8 (GPU5 7)"}},
		// A 4-GPU HGX H100 board, NV6 to 3 peers (18, not more than 18): a
		// mesh of 18 links a GPU, which a link down keeps a mesh: GPU0-GPU3
		// NV5 leaves GPU0 and GPU3 5 + 6 + 6 = 17.
		{"4-GPU H100 mesh", parseFile(t, hgx4, ""), commmodel.FullMesh, 18, nil},
		{"4-GPU H100 mesh, GPU0-GPU3 NV5", func() *Topology {
			top := parseFile(t, hgx4, "")
			top.SetPath(top.GPU(0), top.GPU(3), NV(5))
			return top
		}(), commmodel.FullMesh, 17, []string{"degraded NVLinks: GPU0 and GPU3 show fewer NVLinks summed over their peers than the other GPUs' 18 (GPU0 17, GPU3 17)"}},
		// Two GPUs on an NVLink bridge (NV4, hand-made fixture), and two
		// A100s on NV12 (a real capture): a mesh of the bridge's links.
		{"NV4 bridge", parseFile(t, "testdata/workstation_nv4_pair.txt", ""), commmodel.FullMesh, 4, nil},
		{"NV12 pair", parseFile(t, "testdata/real/a100_80g_azure_nc48_2gpu_nv12_blog.txt", "spans several NUMA nodes"), commmodel.FullMesh, 12, nil},
		// DGX-1's hybrid cube-mesh (NV1 or NV2 to 4 of 7 peers, 6 a V100).
		{"cube-mesh", parseFile(t, "testdata/real/azure_nd40rs_v2_8gpu_cube_mesh.txt", ""), commmodel.FullMesh, 6, nil},
		// Two NV12 pairs no NVLink joins, and no NVLink at all: PCIe.
		{"bridged pairs", parseFile(t, "testdata/real/a100_80g_azure_nc96_4gpu_nv12_pairs_blog.txt", "spans several NUMA nodes"), commmodel.SharedPCIe, 1, nil},
		{"PCIe only", parseFile(t, "testdata/real/rtx4090_8gpu_all_sys_gpuallocator17.txt", ""), commmodel.SharedPCIe, 1, nil},
	}
	for _, c := range cases {
		f := InferFabric(c.top)
		if f.Kind != c.kind || f.Links != c.links || f.P != len(c.top.GPUs()) {
			t.Errorf("%s: %v of %d links, %d GPUs; want %v of %d, %d", c.name, f.Kind, f.Links, f.P, c.kind, c.links, len(c.top.GPUs()))
		}
		notes := FabricNotes(c.top)
		if len(notes) != len(c.notes) {
			t.Errorf("%s: notes %q, want %d", c.name, notes, len(c.notes))
			continue
		}
		for i, n := range notes {
			if !strings.Contains(n, c.notes[i]) {
				t.Errorf("%s: note %q, want it to hold %q", c.name, n, c.notes[i])
			}
		}
	}
}

// TestInferFabricOffAndDegraded: GPU3 off the switch and GPU5 NV17 (a
// derivation of the HGX H100 capture): PCIe, as a run of all 8 crosses it
// to GPU3, with both named; a run of the other 7 is the switch at GPU5's 17.
func TestInferFabricOffAndDegraded(t *testing.T) {
	top := withGPU(t, hgxH100, 3, offSwitch)
	gpus := top.GPUs()
	for j := range gpus {
		if j != 5 && j != 3 {
			top.SetPath(gpus[5], gpus[j], NV(17))
		}
	}
	if f := InferFabric(top); f.Kind != commmodel.SharedPCIe {
		t.Errorf("fabric %v, want pcie", f)
	}
	notes := FabricNotes(top)
	if len(notes) != 2 || !strings.Contains(notes[0], "GPU5 shows fewer NVLinks into the NVSwitch than the other GPUs' 18 (GPU5 17)") ||
		!strings.Contains(notes[1], "GPU3 has no NVLink") || !strings.HasSuffix(notes[1], "-hw fabric=nvswitch,links=17") {
		t.Errorf("notes %q, want GPU5's 17 and GPU3 off the switch", notes)
	}
}

// TestDescribeFabricDegraded: the last line of commlab topo names the
// GPUs with fewer links and those off the switch (the derivations of
// TestInferFabricDegraded).
func TestDescribeFabricDegraded(t *testing.T) {
	mesh := parseFile(t, hgx4, "")
	mesh.SetPath(mesh.GPU(0), mesh.GPU(3), NV(5))
	for _, c := range []struct {
		top  *Topology
		want string
	}{
		{withGPU(t, hgxH100, 3, nv(17)), "switched (NVSwitch), 8 GPUs x NV17 (the fewest: GPU3 17, the other GPUs 18)"},
		{withGPU(t, hgxH100, 3, offSwitch), "pcie, 8 GPUs: NVSwitch (NV18) joins 7, GPU3 has no NVLink (off the switch)"},
		{mesh, "full-mesh, 4 GPUs, 17 links each (NV5 or NV6 to 3 of 3 peers; the fewest: GPU0 17, GPU3 17, the other GPUs 18)"},
		{parseFile(t, hgxH100, ""), "switched (NVSwitch), 8 GPUs x NV18"},
	} {
		if got := DescribeFabric(c.top); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestNVLinkGraphDegraded: a mesh with a link down is still a mesh, of the
// fewest NVLinks of a GPU (GPU0-GPU3 NV5 in the 4-GPU H100 board's NV6: 17),
// and a switch with one is still no mesh.
func TestNVLinkGraphDegraded(t *testing.T) {
	mesh := parseFile(t, hgx4, "")
	mesh.SetPath(mesh.GPU(0), mesh.GPU(3), NV(5))
	for name, c := range map[string]struct {
		top  *Topology
		want int
	}{
		"mesh NV5":    {mesh, 17},
		"switch NV17": {withGPU(t, hgxH100, 3, nv(17)), 0},
	} {
		if got := NVLinkGraph(c.top); got != c.want {
			t.Errorf("%s: %d, want %d", name, got, c.want)
		}
	}
}

// ExampleFabricNotes shows the note of the HGX H100 capture with one of
// GPU3's links down (testdata/degraded/h100_hgx_gpu3_nv17.txt).
func ExampleFabricNotes() {
	top, _, err := ParseFile(filepath.Join("testdata", "degraded", "h100_hgx_gpu3_nv17.txt"))
	if err != nil {
		panic(err)
	}
	fmt.Println(InferFabric(top))
	for _, n := range FabricNotes(top) {
		fmt.Println(n)
	}
	// Output:
	// switched (NVSwitch), 8 GPUs x NV17
	// degraded NVLinks: GPU3 shows fewer NVLinks into the NVSwitch than the other GPUs' 18 (GPU3 17): links to the switch are down or not trained, and the NVLink bandwidth is lower; the capture gives links 17, the fewest, as a ring crosses every GPU's links (nvidia-smi nvlink -s shows each link's state)
}
