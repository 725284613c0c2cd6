package article

import (
	"bytes"
	"image/png"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/plot/vg"

	"github.com/inframethod/commlab/internal/imgtest"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
)

// articlePIX is the article's PIX pairs, GPU -> NIC ("PIX: GPU1-NIC0,
// GPU3-NIC1, GPU4-NIC2, GPU6-NIC3").
var articlePIX = map[int]int{1: 0, 3: 1, 4: 2, 6: 3}

func machines(t *testing.T) []H20Machine {
	t.Helper()
	ms, err := H20Machines()
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestGPUNICTableArticle(t *testing.T) {
	tb := GPUNICTable(articleH20().Topology)
	if len(tb.Rows) != 8 || len(tb.Header) != 5 {
		t.Fatalf("table is %d rows x %d columns, want 8 x 5 (article: 8 GPUs, 4 NICs)", len(tb.Rows), len(tb.Header))
	}
	// The article: NIC0..3 = mlx5_bond_0..3; GPU0-3 and NIC0-1 on NUMA0.
	if h := tb.Header[1]; h != "NIC0 mlx5_bond_0 (NUMA 0)" {
		t.Errorf("header %q", h)
	}
	for g, row := range tb.Rows {
		for n, cell := range row[1:] {
			// The article: PIX pairs above, other same-NUMA pairs NODE, across NUMA SYS.
			want := "SYS"
			if g/4 == n/2 {
				want = "NODE"
			}
			if pix, ok := articlePIX[g]; ok && pix == n {
				want = "PIX"
			}
			if cell != want {
				t.Errorf("GPU%d-NIC%d = %s, want %s", g, n, cell, want)
			}
		}
	}
}

func TestPIXGroupsPublic(t *testing.T) {
	pub, err := publicH20()
	if err != nil {
		t.Fatal(err)
	}
	// The capture (nccl-tests #321): GPU g is PIX to NIC 7-g only.
	for n, gs := range PIXGroups(pub.Topology) {
		if !slices.Equal(gs, []int{7 - n}) {
			t.Errorf("NIC%d PIX group %v, want [GPU%d]", n, gs, 7-n)
		}
	}
	for n, gs := range PIXGroups(articleH20().Topology) {
		var want []int
		for g, nic := range articlePIX {
			if nic == n {
				want = append(want, g)
			}
		}
		if !slices.Equal(gs, want) {
			t.Errorf("article NIC%d PIX group %v, want %v", n, gs, want)
		}
	}
}

func TestShare(t *testing.T) {
	ms := machines(t)
	// 400 Gb/s = 50 GB/s per NIC (the article's 2 x 200G bond; assumed for
	// the VM). Article: 2 GPUs per NIC -> 25 GB/s, 4 NICs -> 200 GB/s;
	// VM: 1 GPU per NIC -> 50 GB/s, 8 NICs -> 400 GB/s. Ratio: NVSwitch
	// egress 18 x 20.6 GB/s (NCCL's Hopper NVLink) over the per-GPU share.
	cases := []struct {
		perNIC        int
		perGPU, egres float64
	}{{2, 25e9, 200e9}, {1, 50e9, 400e9}}
	for i, m := range ms {
		sh, err := m.Share(topo.H20Figures)
		if err != nil {
			t.Fatal(err)
		}
		c := cases[i]
		if sh.GPUsPerNIC != c.perNIC || sh.PerGPU != c.perGPU || sh.Egress != c.egres {
			t.Errorf("%s: %+v, want %d GPUs/NIC, %g B/s per GPU, %g B/s egress", m.Name, sh, c.perNIC, c.perGPU, c.egres)
		}
		if want := 18 * 20.6e9 / c.perGPU; !scalar.EqualWithinAbs(sh.Ratio, want, 1e-9*want) {
			t.Errorf("%s: ratio %g, want %g", m.Name, sh.Ratio, want)
		}
	}
}

func TestActiveShare(t *testing.T) {
	art := articleH20().Topology
	const line = 50e9 // 400 Gb/s
	cases := []struct {
		active []int
		want   float64
	}{
		{[]int{0}, 50e9},
		{[]int{0, 1}, 25e9},       // GPU0 and GPU1 both take NIC0 (topo.NICAssignment doc)
		{[]int{1, 3, 4, 6}, 50e9}, // the PIX GPUs, one per NIC
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, 25e9},
	}
	for _, c := range cases {
		if got := activeShare(art, line, c.active); got != c.want {
			t.Errorf("activeShare(%v) = %g, want %g", c.active, got, c.want)
		}
	}
	if got := activeShare(art, line, nil); !math.IsNaN(got) {
		t.Errorf("no active GPU: %g, want NaN", got)
	}
}

func TestSpreadOrder(t *testing.T) {
	art := articleH20().Topology
	order := spreadOrder(art)
	if len(order) != 8 {
		t.Fatalf("order %v", order)
	}
	seen := map[int]bool{}
	for _, g := range order {
		seen[g] = true
	}
	if len(seen) != 8 {
		t.Fatalf("order %v repeats a GPU", order)
	}
	// The first four GPUs use four different NICs: 50 GB/s each.
	if got := activeShare(art, 50e9, order[:4]); got != 50e9 {
		t.Errorf("first four %v share a NIC: %g B/s", order[:4], got)
	}
	// GPU 2k and 2k+1 share NIC k (topo.NICAssignment), so the spread order is
	// GPU0, GPU2, GPU4, GPU6, then the odd ones.
	if want := []int{0, 2, 4, 6, 1, 3, 5, 7}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

func TestPublicNetworkRate(t *testing.T) {
	r, err := publicNetworkRate()
	if err != nil {
		t.Fatal(err)
	}
	// The log's 4 GiB row: 64101 us out of place. Direct AllToAll on 2 x 2
	// ranks sends S/4 to each of the 2 ranks of the other node: S/2.
	const size = 4294967296.0
	want := size / 2 / 64101e-6
	if r.Nodes != 2 || r.PerNode != 2 || r.Size != size || !scalar.EqualWithinAbs(r.BW, want, 1e-9*want) {
		t.Errorf("got %+v, want 2 x 2, S = 4 GiB, %g B/s", r, want)
	}
}

func TestMachinesTable(t *testing.T) {
	tb, err := MachinesTable(machines(t), topo.H20Figures)
	if err != nil {
		t.Fatal(err)
	}
	get := func(prop string) []string {
		for _, r := range tb.Rows {
			if r[0] == prop {
				return r[1:]
			}
		}
		t.Fatalf("no row %q", prop)
		return nil
	}
	// The article's PIX pairs.
	if got := get("PIX pairs (GPU-NIC under one PCIe switch)")[0]; got != "GPU1-NIC0, GPU3-NIC1, GPU4-NIC2, GPU6-NIC3" {
		t.Errorf("article PIX pairs %q", got)
	}
	// GDR at PXB: PIX yes, NODE (NCCL's PHB) no (topo.GDR).
	if got := get("GDR advisable at NCCL_NET_GDR_LEVEL=PXB"); got[0] != "4 of 8: GPU1, GPU3, GPU4, GPU6" || got[1] != "8 of 8: GPU0-7" {
		t.Errorf("GDR row %q", got)
	}
	if got := get("network BW per GPU, all GPUs sending"); got[0] != "50 GB/s / 2 = 25 GB/s" || got[1] != "50 GB/s / 1 = 50 GB/s" {
		t.Errorf("per-GPU row %q", got)
	}
	if got := get("measured network BW per GPU"); got[0] != "-" || !strings.HasPrefix(got[1], "33.5 GB/s") {
		t.Errorf("measured row %q", got)
	}
}

func TestBindingsTableArticle(t *testing.T) {
	tb := BindingsTable(articleH20().Topology)
	if slices.Contains(tb.Header, "NCCL_IB_HCA") {
		t.Errorf("header %q: NCCL_IB_HCA is the host's, not a GPU's", tb.Header)
	}
	for g, r := range tb.Rows {
		// topo.NICAssignment: GPU 2k and 2k+1 on NIC k = mlx5_bond_k.
		nic := g / 2
		if want := "NIC" + string(rune('0'+nic)) + " (mlx5_bond_" + string(rune('0'+nic)) + ")"; r[1] != want {
			t.Errorf("GPU%d nearest NIC %q, want %q", g, r[1], want)
		}
		_, pix := articlePIX[g]
		if (r[4] == "yes") != pix {
			t.Errorf("GPU%d GDR %q, PIX %v", g, r[4], pix)
		}
	}
}

func TestPathMap(t *testing.T) {
	ms := machines(t)
	pm := PathMap{Machines: ms}
	rm := pm.regimeMap()
	if want := []topo.Class{topo.PIX, topo.NODE, topo.SYS}; !slices.Equal(pm.classes(), want) {
		t.Fatalf("classes %v, want %v", pm.classes(), want)
	}
	// 4 + 1 gap + 8 columns, 8 rows with GPU0 on top (Ys ascending: last row).
	if len(rm.Xs) != 13 || len(rm.Ys) != 8 {
		t.Fatalf("grid %d x %d", len(rm.Xs), len(rm.Ys))
	}
	for j, row := range rm.Cells {
		g := 7 - j
		for x, k := range row {
			var want int
			switch {
			case x == 4:
				want = -1
			case x < 4:
				want = slices.Index(pm.classes(), ms[0].Topology.GPUNIC(g, x).Class)
			default:
				want = slices.Index(pm.classes(), ms[1].Topology.GPUNIC(g, x-5).Class)
			}
			if k != want {
				t.Errorf("cell GPU%d column %d = %d, want %d", g, x, k, want)
			}
		}
	}
	if _, err := (PathMap{}).PNG(); err == nil {
		t.Error("empty path map: no error")
	}
	// The golden, the article's server alone at 5 x 5 in: the machine's
	// block with its name, every cell labelled with its class, the NICs' and
	// GPUs' tick labels with their NUMA nodes, the legend of the three
	// classes at the top right.
	one := PathMap{Title: "GPU-NIC paths", Machines: ms[:1], Width: 5 * vg.Inch, Height: 5 * vg.Inch}
	b, err := one.PNG()
	if err != nil {
		t.Fatal(err)
	}
	imgtest.Check(t, "path-map", b)
}

func TestNICShareFigure(t *testing.T) {
	f := NICShareFigure(machines(t), presets.H20Inter)
	// Article by index, article spread, VM by index (its spread is the same),
	// and the article's inter link.
	if len(f.Series) != 4 {
		t.Fatalf("%d series", len(f.Series))
	}
	// Article, GPUs 0..k-1: 50 GB/s alone, 25 GB/s from k = 2 (GPU0 and GPU1 share NIC0).
	if y := f.Series[0].Y; y[0] != 50e9 || y[1] != 25e9 || y[7] != 25e9 {
		t.Errorf("article by index %v", y)
	}
	// Spread: 50 GB/s up to one GPU per NIC (k = 4), then 25.
	if y := f.Series[1].Y; y[3] != 50e9 || y[4] != 25e9 {
		t.Errorf("article spread %v", y)
	}
	// presets.H20Inter: 20 GB/s (intra 350 GB/s ÷17.5).
	if y := f.Series[3].Y; y[0] != 20e9 {
		t.Errorf("inter link %v", y)
	}
	if len(f.Marks) != 1 || f.Marks[0].X != 2 || !scalar.EqualWithinAbs(f.Marks[0].Y, 33.5e9, 0.05e9) {
		t.Errorf("marks %+v, want the measured 33.5 GB/s at k = 2", f.Marks)
	}
}

func TestTopologyExhibits(t *testing.T) {
	t.Parallel()
	ex, err := topologyExhibits(articleInputs())
	if err != nil {
		t.Fatal(err)
	}
	figures := 0
	for _, e := range ex {
		if !strings.HasPrefix(e.Name, "02-") || e.Title == "" {
			t.Errorf("exhibit %q %q", e.Name, e.Title)
		}
		if e.Figure == nil {
			if md := e.Table.Markdown(); strings.Count(md, "\n") < 3 {
				t.Errorf("%s: table %q", e.Name, md)
			}
			continue
		}
		figures++
		b, err := e.Figure.PNG()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
	}
	if figures != 2 {
		t.Errorf("%d figures, want 2", figures)
	}
}

func TestIndexList(t *testing.T) {
	cases := map[string][]int{"GPU0-3": {0, 1, 2, 3}, "GPU1, GPU3, GPU4": {1, 3, 4}, "GPU0, GPU1, GPU4-7": {0, 1, 4, 5, 6, 7}, "": nil}
	for want, idx := range cases {
		if got := indexList("GPU", idx); got != want {
			t.Errorf("indexList(%v) = %q, want %q", idx, got, want)
		}
	}
}

// Notebook 02's "Your own server" reads a capture whose NICs are NIC2..NIC5
// (the bare-metal 8 x H200 host of nccl-tests issue #380, four ConnectX-7
// NICs): the tables name them as the capture does, not by their index.
func TestOwnCaptureNICNames(t *testing.T) {
	tp, _, err := topo.ParseFile("../topo/testdata/real/h200_4nic_cut_header_nccltests380.txt")
	if err != nil {
		t.Fatal(err)
	}
	m := H20Machine{Name: "yours", Topology: tp, NICLineRate: 50e9}
	nt := NUMATable([]H20Machine{m})
	if len(nt.Rows) != 2 || nt.Rows[0][3] != "NIC2, NIC3" || nt.Rows[1][3] != "NIC4, NIC5" || nt.Rows[0][5] != "NIC2 + GPU1; NIC3 + GPU3" {
		t.Errorf("NUMA table rows %q, want NIC2, NIC3 and NIC4, NIC5 as the capture names them", nt.Rows)
	}
	mt, err := MachinesTable([]H20Machine{m}, topo.H20Figures)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mt.Rows {
		switch r[0] {
		case "NUMA layout":
			if r[1] != "NUMA0: GPU0-3, NIC2, NIC3; NUMA2: GPU4-7, NIC4, NIC5" {
				t.Errorf("NUMA layout %q", r[1])
			}
		case "PIX pairs (GPU-NIC under one PCIe switch)":
			if !strings.HasPrefix(r[1], "GPU1-NIC2, ") {
				t.Errorf("PIX pairs %q, want GPU1-NIC2 first", r[1])
			}
		case "GPUs sharing a NIC (closest-NIC assignment)":
			if !strings.HasPrefix(r[1], "GPU0, GPU1 on NIC2; ") {
				t.Errorf("sharing %q, want GPU0, GPU1 on NIC2 first", r[1])
			}
		}
	}
	if got := nameList("NIC", []int{0, 1}, func(i int) string { return []string{"mlx5_0", "NIC1"}[i] }); got != "mlx5_0, NIC1" {
		t.Errorf("nameList of unnumbered names %q", got)
	}
}

// The path map's rows are GPU g of every machine: beside the article's
// server (NUMA 0 and 1) the H200 host's GPU4-7 are on NUMA 2, which the row
// labels say; its four path classes (PXB too) get a row more above the grid.
func TestPathMapRowLabels(t *testing.T) {
	tp, _, err := topo.ParseFile("../topo/testdata/real/h200_4nic_cut_header_nccltests380.txt")
	if err != nil {
		t.Fatal(err)
	}
	pm := PathMap{Machines: []H20Machine{articleH20(), {Name: "yours", Topology: tp}}}
	l := pm.rowLabels()
	if len(l) != 8 || l[0] != "GPU0 (0)" || l[4] != "GPU4 (1 | 2)" {
		t.Errorf("row labels %q, want GPU0 (0) .. GPU4 (1 | 2)", l)
	}
	if rm := pm.regimeMap(); rm.Y.Max != 4.5 {
		t.Errorf("room above the grid up to %g, want 4.5 for four classes", rm.Y.Max)
	}
	if _, err := pm.PNG(); err != nil {
		t.Error(err)
	}
}
