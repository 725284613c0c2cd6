package topo

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

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

// editedHGX returns the HGX H100 capture of sglang#30401 (8 GPUs, NV18
// between every pair) with the GPU pairs cell says otherwise of set to
// its word, in both of their cells.
func editedHGX(t *testing.T, cell func(i, j int) string) *Topology {
	t.Helper()
	b, err := os.ReadFile("testdata/real/h100_hgx_8nic_sglang30401.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for k, l := range lines {
		f := strings.Fields(l)
		if len(f) < 9 || !strings.HasPrefix(f[0], "GPU") || f[1] == "GPU1" {
			continue
		}
		i, err := strconv.Atoi(strings.TrimPrefix(f[0], "GPU"))
		if err != nil {
			continue
		}
		for j := range 8 {
			if w := cell(i, j); w != "" && i != j {
				f[1+j] = w
			}
		}
		lines[k] = strings.Join(f, "\t")
	}
	top, _, err := ParseString(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// TestSwitchUnjoinedPairs: NVSwitch is known by a GPU's NVLinks summed
// over its peers beyond what a GPU has, whatever pairs show none. One pair
// left N/A (or SYS) read as a mesh of 108 links a GPU, which no GPU has,
// labelled the capture's; it is the switch's, the pair taken as joined and
// named. Two groups of 4 that reach each other over PCIe alone (NVSwitch
// partitions) are PCIe between the groups. N/A cells that alone keep GPUs
// apart (every pair, a GPU's row, two groups) leave the fabric unsettled;
// on a PCIe host, where no NVLink could join every GPU, they do not.
func TestSwitchUnjoinedPairs(t *testing.T) {
	pair := func(word string) func(i, j int) string {
		return func(i, j int) string {
			if i == 3 && j == 5 || i == 5 && j == 3 {
				return word
			}
			return ""
		}
	}
	for _, word := range []string{"N/A", "SYS"} {
		top := editedHGX(t, pair(word))
		l := ReadNVLinks(top)
		if f := InferFabric(top); f.Kind != commmodel.Switched || f.Links != 18 || !slices.Equal(l.Unjoined, [][2]int{{3, 5}}) || !FabricKnown(top) {
			t.Errorf("GPU3-GPU5 %s: %v, unjoined %v; want switched of 18 links, 3-5 unjoined", word, f, l.Unjoined)
		}
		if n := strings.Join(FabricNotes(top), "\n"); !strings.Contains(n, "no NVLink between GPU3-GPU5 ("+word+")") {
			t.Errorf("GPU3-GPU5 %s: notes %q; want the pair named", word, n)
		}
	}
	halves := editedHGX(t, func(i, j int) string {
		if i < 4 != (j < 4) {
			return "SYS"
		}
		return ""
	})
	if f, l := InferFabric(halves), ReadNVLinks(halves); f.Kind != commmodel.SharedPCIe || len(l.Islands) != 2 || !strings.Contains(strings.Join(FabricNotes(halves), "\n"), "NVSwitch partitions: GPU0-GPU1-GPU2-GPU3 and GPU4-GPU5-GPU6-GPU7") {
		t.Errorf("two groups of 4: %v, islands %v, notes %q; want PCIe between two partitions, named", f, l.Islands, FabricNotes(halves))
	}
	unknown := editedHGX(t, func(i, j int) string { return "N/A" })
	if FabricKnown(unknown) || len(UnknownPairs(unknown)) != 28 || !strings.Contains(strings.Join(FabricNotes(unknown), "\n"), "between 28 of its 28 GPU pairs") {
		t.Errorf("every pair N/A: known %v, unknown pairs %d, notes %q; want the fabric unsettled and said", FabricKnown(unknown), len(UnknownPairs(unknown)), FabricNotes(unknown))
	}
	// N/A alone parting GPUs from the switch (a GPU's row, two groups)
	// decides the fabric: it is unsettled.
	for name, cell := range map[string]func(i, j int) string{
		"GPU7's row N/A": func(i, j int) string {
			if i == 7 || j == 7 {
				return "N/A"
			}
			return ""
		},
		"halves apart by N/A": func(i, j int) string {
			if i < 4 != (j < 4) {
				return "N/A"
			}
			return ""
		},
	} {
		top := editedHGX(t, cell)
		if FabricKnown(top) || !strings.HasPrefix(DescribeFabric(top), "unknown, 8 GPUs") {
			t.Errorf("%s: known %v, %q; want the fabric unsettled", name, FabricKnown(top), DescribeFabric(top))
		}
	}
	// A PCIe host with one pair N/A: no NVLink can join every GPU
	// whatever it hides, and the capture settles PCIe.
	pcie := editedHGX(t, func(i, j int) string {
		if i == 3 && j == 5 || i == 5 && j == 3 {
			return "N/A"
		}
		return "SYS"
	})
	if f := InferFabric(pcie); !FabricKnown(pcie) || f.Kind != commmodel.SharedPCIe {
		t.Errorf("PCIe with one pair N/A: known %v, %v; want PCIe, settled", FabricKnown(pcie), f)
	}
	if whole := editedHGX(t, func(i, j int) string { return "" }); !FabricKnown(whole) || len(FabricNotes(whole)) != 0 || len(ReadNVLinks(whole).Unjoined) != 0 {
		t.Errorf("the capture as posted: notes %q; want none", FabricNotes(whole))
	}
}

// TestLegendEntryOfNoNIC: a NIC Legend entry of a NIC the matrix does not
// head (NIC5 under a matrix of NIC0 alone: nvidia-smi lists the NICs it
// heads) is another capture's line or a cut matrix: one warning names
// every such entry, at the first one's line.
func TestLegendEntryOfNoNIC(t *testing.T) {
	rows := []string{
		"\tGPU0\tGPU1\tNIC0",
		"GPU0\t X \tNV4\tPIX",
		"GPU1\tNV4\t X \tSYS",
		"NIC0\tPIX\tSYS\t X ",
		"", "NIC Legend:", "", "  NIC0: mlx5_0", "  NIC5: mlx5_5",
	}
	top, problems, err := ParseString(strings.Join(rows, "\n") + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0].Line != 9 || !errors.Is(problems[0], ErrStrayLegend) || !strings.Contains(problems[0].Error(), "names NIC5, which is no NIC of the matrix (the matrix heads NIC0)") || top.NIC(0).Device != "mlx5_0" {
		t.Errorf("problems %v, NIC0's device %q; want one at line 9 naming NIC5, mlx5_0 read", problems, top.NIC(0).Device)
	}
	more := strings.Join(append(rows, "  NIC6: mlx5_6", "  NIC7: mlx5_7", "  NIC8: mlx5_8", "  NIC9: mlx5_9"), "\n") + "\n"
	if _, problems, err := ParseString(more); err != nil || len(problems) != 1 || !strings.Contains(problems[0].Error(), "names NIC5, NIC6, NIC7, NIC8 and 1 more, which are no NICs of the matrix") {
		t.Errorf("five strays: %v, %v; want one warning naming four and 1 more", problems, err)
	}
}

// TestMeshUnknownPair: a 4-GPU mesh (NV6 to each of 3 peers, 18 an H100)
// whose GPU1-GPU2 cell is N/A counts 12 links for those GPUs, and a note
// names the pair whose N/A may hide the rest.
func TestMeshUnknownPair(t *testing.T) {
	rows := []string{
		"\tGPU0\tGPU1\tGPU2\tGPU3",
		"GPU0\t X \tNV6\tNV6\tNV6",
		"GPU1\tNV6\t X \tN/A\tNV6",
		"GPU2\tNV6\tN/A\t X \tNV6",
		"GPU3\tNV6\tNV6\tNV6\t X ",
	}
	top := mustParse(t, strings.Join(rows, "\n")+"\n")
	if f := InferFabric(top); f.Kind != commmodel.FullMesh || f.Links != 12 || !FabricKnown(top) ||
		!strings.Contains(strings.Join(FabricNotes(top), "\n"), "the capture gives no path (N/A) between GPU1-GPU2") {
		t.Errorf("%v, notes %q; want a mesh of 12 and the N/A pair named", f, FabricNotes(top))
	}
}

// TestFabricOfEveryCapture: every capture of the repository that reads
// (nvidia-smi's and AMD's, sound and damaged) settles its fabric, none by
// N/A cells alone, and its notes and description are made without fault.
func TestFabricOfEveryCapture(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("%d captures, %v", len(files), err)
	}
	read := 0
	for _, f := range files {
		top, _, err := ParseFile(f)
		if errors.Is(err, ErrROCm) {
			top, _, err = ParseROCmFile(f)
		}
		if err != nil {
			continue // a damaged capture that does not read
		}
		read++
		if !FabricKnown(top) {
			t.Errorf("%s: the fabric unsettled, where its cells show it", f)
		}
		_ = FabricNotes(top)
		if DescribeFabric(top) == "" {
			t.Errorf("%s: no description", f)
		}
	}
	if read < 40 {
		t.Errorf("%d captures read of %d; want the repository's 40 and more", read, len(files))
	}
}
