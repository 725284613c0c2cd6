package topo

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestNICAssignmentArticle: the article's PIX GPUs take their PIX NICs; the
// tie rule gives the NODE GPUs the other slot of each NIC (NICAssignment's doc).
func TestNICAssignmentArticle(t *testing.T) {
	top := H20Article()
	// article: GPU1-NIC0, GPU3-NIC1, GPU4-NIC2, GPU6-NIC3 are PIX.
	for g, want := range map[int]int{1: 0, 3: 1, 4: 2, 6: 3} {
		n, p, ok := top.NearestNIC(g)
		if !ok || n != want || p.Class != PIX {
			t.Errorf("GPU%d nearest = NIC%d %v, want NIC%d PIX", g, n, p, want)
		}
	}
	// GPU0 and GPU2 tie between NIC0 and NIC1 at NODE.
	if got := top.NearestNICs(0); !reflect.DeepEqual(got, []int{0, 1}) {
		t.Errorf("NearestNICs(0) = %v, want [0 1]", got)
	}
	// Tie rule: fewest GPUs so far, then lowest index.
	if got, want := top.NICAssignment(), []int{0, 0, 1, 1, 2, 2, 3, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("NICAssignment = %v, want %v", got, want)
	}
	if got := top.SharingNIC(5); !reflect.DeepEqual(got, []int{4, 5}) {
		t.Errorf("SharingNIC(5) = %v, want [4 5]", got)
	}
	// 8 GPUs on 4 NICs: two per NIC.
	if got := top.MaxGPUsPerNIC(); got != 2 {
		t.Errorf("MaxGPUsPerNIC = %d, want 2", got)
	}
}

// TestNICsUsed: the NICs some GPU is nearest to, read off real captures'
// matrices.
func TestNICsUsed(t *testing.T) {
	for _, c := range []struct {
		file       string
		nics, used int
	}{
		// DGX A100: each GPU PXB to one of eight compute NICs; the two
		// storage NICs are SYS or NODE to every GPU, farther than its own.
		{"testdata/real/a100_dgx_nps4_10nic_tabs_gpucompress.txt", 10, 8},
		// H200: GPU0..7 PIX to NIC0..7; NIC8 is NODE or SYS to every GPU.
		{"testdata/real/h200_9nic_reformatted_blog.txt", 9, 8},
		// The article's server: four NICs, each PIX to one GPU and NODE to
		// its neighbour, which ties between two.
		{"../data/topology/h20-article.txt", 4, 4},
		// Four GPUs NODE to each of three NICs: all tie.
		{"testdata/real/nv4_4gpu_empty_cpu_affinity_slurm.txt", 3, 3},
		// One GPU PXB to NIC3 of five: the others are farther.
		{"testdata/real/single_gpu_5bond_nics_lmdeploy.txt", 5, 1},
	} {
		top, _, err := ParseFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if n, u := len(top.NICs()), top.NICsUsed(); n != c.nics || u != c.used {
			t.Errorf("%s: %d NICs, %d used; want %d, %d", c.file, n, u, c.nics, c.used)
		}
	}
	// No NIC at all: none used.
	if u := mustParse(t, "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n").NICsUsed(); u != 0 {
		t.Errorf("GPU-only topology: %d NICs used", u)
	}
}

func TestNearestNICNone(t *testing.T) {
	top := mustParse(t, "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n")
	if _, _, ok := top.NearestNIC(0); ok {
		t.Error("GPU-only topology reports a NIC")
	}
	if b := top.Bindings()[0]; b.NIC != "" || b.GDR || b.NCCL != nccl.PathDIS {
		t.Errorf("binding without NIC = %+v", b)
	}
}

func TestBindingsArticle(t *testing.T) {
	b := H20Article().Bindings()
	// GPU1: PIX to NIC0 = mlx5_bond_0, GDR at NCCL's default PXB level.
	if g := b[1]; g.NIC != "NIC0" || g.Device != "mlx5_bond_0" || !g.GDR || g.NUMA != 0 || g.Sharing != 2 {
		t.Errorf("GPU1 binding %+v", g)
	}
	// GPU0: NODE to NIC0 is PHB to NCCL, beyond PXB: no GDR by default.
	if g := b[0]; g.Path.Class != NODE || g.NCCL != nccl.PathPHB || g.GDR {
		t.Errorf("GPU0 binding %+v", g)
	}
	// GPU7 on NUMA1 binds to NUMA1's CPUs.
	if g := b[7]; g.NUMA != 1 || g.CPUs.String() != "48-95,144-191" || g.NIC != "NIC3" {
		t.Errorf("GPU7 binding %+v", g)
	}
}

func TestGDR(t *testing.T) {
	cases := []struct {
		p     Path
		level nccl.PathType
		want  bool
	}{
		// NCCL's default NCCL_NET_GDR_LEVEL is PXB (ncclTopoCheckGdr).
		{Path{Class: PIX}, DefaultGDRLevel, true},
		{Path{Class: PXB}, DefaultGDRLevel, true},
		{Path{Class: PHB}, DefaultGDRLevel, false},
		{Path{Class: NODE}, DefaultGDRLevel, false},
		{Path{Class: SYS}, DefaultGDRLevel, false},
		{Path{Class: NODE}, nccl.PathPHB, true},
		{Path{Class: SYS}, nccl.PathSYS, true},
		{Path{}, nccl.PathSYS, false},
	}
	for _, c := range cases {
		if got := GDR(c.p, c.level); got != c.want {
			t.Errorf("GDR(%v, %v) = %v, want %v", c.p, c.level, got, c.want)
		}
	}
}

func TestSameNUMA(t *testing.T) {
	top := H20Article()
	if same, ok := top.SameNUMA(top.GPU(0), top.NIC(1)); !same || !ok {
		t.Error("GPU0 and NIC1 are both on NUMA0 (article)")
	}
	if same, ok := top.SameNUMA(top.GPU(4), top.NIC(0)); same || !ok {
		t.Error("GPU4 and NIC0 are on different NUMA nodes (article: SYS)")
	}
	g, n := top.OnNUMA(1)
	if !reflect.DeepEqual(g, []int{4, 5, 6, 7}) || !reflect.DeepEqual(n, []int{2, 3}) {
		t.Errorf("OnNUMA(1) = %v %v, want GPU4-7, NIC2-3", g, n)
	}
	// Unknown nodes: the path decides, NVLink says nothing.
	u := mustParse(t, "\tGPU0\tGPU1\tGPU2\nGPU0\t X \tPHB\tNV2\nGPU1\tPHB\t X \tSYS\nGPU2\tNV2\tSYS\t X \n")
	if same, ok := u.SameNUMA(u.GPU(0), u.GPU(1)); !same || !ok {
		t.Error("PHB pair should be same-NUMA")
	}
	if _, ok := u.SameNUMA(u.GPU(0), u.GPU(2)); ok {
		t.Error("NVLink pair of unknown nodes should be unknown")
	}
}

func TestRails(t *testing.T) {
	rails := H20Article().Rails(2)
	if len(rails) != 8 {
		t.Fatalf("%d rails, want 8 (one per GPU index)", len(rails))
	}
	// Rail 3 of 2 x 8 GPUs: ranks 3 and 11, on NIC1.
	if r := rails[3]; r.GPU != 3 || r.NIC != 1 || !reflect.DeepEqual(r.Ranks, []int{3, 11}) {
		t.Errorf("rail 3 = %+v", r)
	}
}

// TestRailsBounded: Rails takes at most MaxNodes nodes and panics beyond,
// as it does below one, naming the bound. It made every rail's ranks up
// front, so Rails(1<<40) ended the process with a fatal out-of-memory that
// recover cannot catch (a red team's report). The bound is checked one
// past it first, so that without it the test fails before it asks for
// 2^40 nodes.
func TestRailsBounded(t *testing.T) {
	top := H20Article()
	if r := top.Rails(MaxNodes); len(r) != 8 || len(r[7].Ranks) != MaxNodes || r[7].Ranks[MaxNodes-1] != 8*(MaxNodes-1)+7 {
		t.Errorf("Rails(MaxNodes): %d rails, want 8 of %d ranks", len(r), MaxNodes)
	}
	for _, nodes := range []int{MaxNodes + 1, 1 << 40, 0} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "topo: Rails") {
					t.Fatalf("Rails(%d) panicked with %v, want a panic of topo: Rails", nodes, p)
				}
			}()
			top.Rails(nodes)
		}()
	}
}

// TestLevelsH20: the topology's figures give an intra/inter ratio to set beside
// the article's 17.5 (the article: inter-node egress is intra-node egress / 17.5).
func TestLevelsH20(t *testing.T) {
	l, err := H20Article().Levels(H20Figures)
	if err != nil {
		t.Fatal(err)
	}
	if l.Fabric.Kind != commmodel.Switched || l.Fabric.Links != 18 {
		t.Errorf("fabric %+v, want switched with 18 links (NV18)", l.Fabric)
	}
	// 18 NVLinks x 20.6 GB/s (NCCL's Hopper figure) = 370.8 GB/s.
	if !scalar.EqualWithinAbs(l.Intra.BW, 370.8e9, 1) {
		t.Errorf("intra BW %g, want 370.8e9", l.Intra.BW)
	}
	// A 400G NIC (50 GB/s) shared by 2 GPUs = 25 GB/s per GPU.
	if l.GPUsPerNIC != 2 || l.Inter.BW != 25e9 || l.Inter.Alpha != presets.H20Inter.Alpha {
		t.Errorf("inter %+v with %d GPUs/NIC, want 25e9 B/s, 2", l.Inter, l.GPUsPerNIC)
	}
	// 370.8 / 25 = 14.83, against the article's 17.5.
	if r := l.Ratio(); !scalar.EqualWithinAbs(r, 14.832, 1e-3) {
		t.Errorf("ratio %g, want 14.832", r)
	}
	if _, err := H20Article().Levels(Figures{}); err == nil {
		t.Error("Levels with no figures succeeded")
	}
}

func TestInferFabric(t *testing.T) {
	cases := []struct {
		text  string
		kind  commmodel.FabricKind
		links int
	}{
		// NV6 to 15 peers = 90 links > 18: NVSwitch (DGX-2 shape, nccl-tests#78).
		{fullNV(16, 6), commmodel.Switched, 6},
		// NV2 to 3 peers = 6 links: point-to-point (4 x V100 fully linked).
		{fullNV(4, 2), commmodel.FullMesh, 6},
		// NV18 to 7 peers: NVSwitch (H20/H100).
		{fullNV(8, 18), commmodel.Switched, 18},
	}
	for _, c := range cases {
		top := mustParse(t, c.text)
		if f := InferFabric(top); f.Kind != c.kind || f.Links != c.links {
			t.Errorf("%d GPUs: %+v, want %v with %d links", len(top.GPUs()), f, c.kind, c.links)
		}
	}
}

// fullNV returns a matrix of p GPUs, every pair NV<n>.
func fullNV(p, n int) string {
	var b []byte
	b = append(b, ' ')
	for i := range p {
		b = append(b, "\tGPU"...)
		b = append(b, strconv.Itoa(i)...)
	}
	b = append(b, '\n')
	for i := range p {
		b = append(b, "GPU"...)
		b = append(b, strconv.Itoa(i)...)
		for j := range p {
			if i == j {
				b = append(b, "\t X "...)
			} else {
				b = append(b, "\tNV"...)
				b = append(b, strconv.Itoa(n)...)
			}
		}
		b = append(b, '\n')
	}
	return string(b)
}
