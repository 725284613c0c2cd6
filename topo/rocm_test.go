package topo

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// rocmCaptures is what a person reads off each public rocm-smi --showtopo
// or amd-smi topology capture of testdata/rocm: its GPUs, their NUMA nodes, the link type,
// hops and weight of every pair, and the fabric.
var rocmCaptures = []struct {
	file         string
	gpus         int
	numa         []int
	link         string
	hops, weight int
	path         string
	fabric       commmodel.FabricKind
	links        int
}{
	// ARCHER2's 4 MI210 on an XGMI bridge, a NUMA node each.
	{"mi210_4gpu_xgmi_archer2.txt", 4, []int{0, 1, 2, 3}, "XGMI", 1, 15, "XGMI", commmodel.FullMesh, 3},
	// rocm_smi_lib#108: 4 GPUs on PCIe, 3 hops (two CPU sockets); its Numa
	// Nodes block was dropped.
	{"rocm_smi_showtopo_4gpu_pcie.txt", 4, []int{-1, -1, -1, -1}, "PCIE", 3, 52, "SYS", commmodel.SharedPCIe, 1},
	// ms-swift's 8 gfx942 GPUs, all XGMI, four on each of 2 NUMA nodes.
	{"gfx942_8gpu_xgmi_msswift.txt", 8, []int{0, 0, 0, 0, 1, 1, 1, 1}, "XGMI", 1, 15, "XGMI", commmodel.FullMesh, 7},
	// OCI's MI355X Pollara node, amd-smi topology: 8 GPUs by PCI address,
	// every pair XGMI at 1 hop; amd-smi prints no NUMA node, and its
	// weights (0 for every pair) are not read.
	{"mi355x_8gpu_xgmi_amdsmi_ocipollara.txt", 8, []int{-1, -1, -1, -1, -1, -1, -1, -1}, "XGMI", 1, -1, "XGMI", commmodel.FullMesh, 7},
}

func TestParseROCmReal(t *testing.T) {
	for _, c := range rocmCaptures {
		name := filepath.Join("testdata/rocm", c.file)
		top, problems, err := ParseROCmFile(name)
		if err != nil || len(problems) > 0 {
			t.Fatalf("%s: %v, problems %v", name, err, problems)
		}
		if g := len(top.GPUs()); g != c.gpus || len(top.NICs()) != 0 {
			t.Errorf("%s: %d GPUs, %d NICs; want %d, 0", name, g, len(top.NICs()), c.gpus)
		}
		for i, d := range top.GPUs() {
			if d.NUMA != c.numa[i] {
				t.Errorf("%s: %s on NUMA %d, want %d", name, d.Name, d.NUMA, c.numa[i])
			}
		}
		pairs := top.ROCm()
		if len(pairs) != c.gpus*(c.gpus-1)/2 {
			t.Errorf("%s: %d pairs", name, len(pairs))
		}
		for k, p := range pairs {
			if p.Link != c.link || p.Hops != c.hops || p.Weight != c.weight {
				t.Errorf("%s: %s/%s %+v, want %s hops %d weight %d", name, p.A, p.B, p, c.link, c.hops, c.weight)
			}
			if q := top.Pairs()[k]; q.A != p.A || q.B != p.B || q.Path.String() != c.path {
				t.Errorf("%s: pair %d %s/%s is %v, want %s/%s %s", name, k, q.A, q.B, q.Path, p.A, p.B, c.path)
			}
		}
		if f := InferFabric(top); f.Kind != c.fabric || f.Links != c.links || f.P != c.gpus {
			t.Errorf("%s: fabric %v, want %v of %d links", name, f, c.fabric, c.links)
		}
		if AllXGMI(top) != (c.link == "XGMI") {
			t.Errorf("%s: AllXGMI %v", name, AllXGMI(top))
		}
		// ReadCapture tells the vendor by the text; Parse still refuses it.
		f, _ := os.Open(name)
		if rt, _, err := ReadCapture(f); err != nil || len(rt.GPUs()) != c.gpus {
			t.Errorf("%s: ReadCapture: %v", name, err)
		}
		f.Close()
		if _, _, err := ParseFile(name); !errors.Is(err, ErrROCm) {
			t.Errorf("%s: Parse: %v, want ErrROCm", name, err)
		}
	}
}

// TestParseROCmDamaged: the hand-made damaged copies of ARCHER2's capture in
// testdata/rocm_damaged give an error at the line and column, or a warning.
func TestParseROCmDamaged(t *testing.T) {
	cases := []struct {
		file      string
		cause     error
		line, col int
		text      string
		warning   bool
	}{
		{"long_row.txt", ErrLongRow, 7, 60, "GPU3 has 5 cells for 4 GPU columns, from 15 on", false},
		{"bad_link.txt", ErrROCmCell, 19, 47, `GPU1/GPU3 of "Link Type between two GPUs": "NV4"`, false},
		{"cut_hops_row.txt", ErrMissingRow, 13, 0, "no row for GPU2 of its 4 GPU columns", false},
		{"asymmetric.txt", ErrAsymmetric, 21, 8, "GPU3/GPU0 of \"Link Type between two GPUs\" is PCIE but GPU0/GPU3 on line 18 is XGMI; read as PCIE", true},
	}
	for _, c := range cases {
		name := filepath.Join("testdata/rocm_damaged", c.file)
		top, problems, err := ParseROCmFile(name)
		got := err
		if c.warning {
			if err != nil || len(problems) != 1 {
				t.Fatalf("%s: %v, problems %v; want one warning", name, err, problems)
			}
			got = problems[0]
		} else if top != nil {
			t.Errorf("%s: a topology with the error", name)
		}
		var pe *ParseError
		if !errors.As(got, &pe) || !errors.Is(got, c.cause) || pe.File != name || pe.Line != c.line || pe.Column != c.col || !strings.Contains(pe.Error(), c.text) {
			t.Errorf("%s: %v; want %v at %d:%d saying %q", name, got, c.cause, c.line, c.col, c.text)
		}
	}
	// The asymmetric pair takes the farther path: PCIE at 1 hop, PHB.
	top, _, _ := ParseROCmFile("testdata/rocm_damaged/asymmetric.txt")
	if p, _ := top.PathByName("GPU0", "GPU3"); p.Class != PHB || AllXGMI(top) {
		t.Errorf("GPU0/GPU3 %v, AllXGMI %v; want PHB, false", p, AllXGMI(top))
	}
}

// TestParseROCmRefusals: text of no Link Type table (amd-smi's title
// written otherwise than amd-smi prints it among them), and tables of
// different GPUs are refused with their causes.
func TestParseROCmRefusals(t *testing.T) {
	base, err := os.ReadFile("testdata/rocm/mi210_4gpu_xgmi_archer2.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := string(base)
	noType := s[:strings.Index(s, "======================"+"==== Link Type")]
	// The Hops table of GPU0, GPU1, GPU2 and GPU4.
	h, l := strings.Index(s, "Hops between"), strings.Index(s, "Link Type between")
	otherGPUs := s[:h] + strings.ReplaceAll(s[h:l], "GPU3", "GPU4") + s[l:]
	// amd-smi's HOPS TABLE of another GPU than its LINK TYPE TABLE's.
	amd, err := os.ReadFile("testdata/rocm/mi355x_8gpu_xgmi_amdsmi_ocipollara.txt")
	if err != nil {
		t.Fatal(err)
	}
	a := string(amd)
	h, l = strings.Index(a, "HOPS TABLE:"), strings.Index(a, "LINK TYPE TABLE:")
	amdsmiOtherGPUs := a[:h] + strings.ReplaceAll(a[h:l], "0000:f4:00.0", "0000:f5:00.0") + a[l:]
	cases := []struct {
		text  string
		cause error
	}{
		{noType, ErrNoMatrix},
		// amd-smi's title is a line of its own, "LINK TYPE TABLE:".
		{"============ LINK TYPE TABLE ============\n      GPU0  GPU1\nGPU0  SELF  XGMI\n", ErrNoMatrix},
		{otherGPUs, ErrROCmTables},
		{amdsmiOtherGPUs, ErrROCmTables},
		{strings.Replace(s, "GPU0   0            XGMI", "GPU0   1            XGMI", 1), ErrDiagonal},
	}
	for k, c := range cases {
		top, _, err := ParseROCm(strings.NewReader(c.text))
		if top != nil || !errors.Is(err, c.cause) {
			t.Errorf("case %d: %v; want %v", k, err, c.cause)
		}
	}
}

// FuzzParseROCm: ParseROCm never panics; it returns a *ParseError alone, or
// a topology of GPUs only, symmetric, X exactly on the diagonal, one
// ROCmPair a pair, with warnings (ErrAsymmetric) that have a line, and every
// query runs on it. The seed corpus is testdata/rocm and testdata/rocm_damaged.
func FuzzParseROCm(f *testing.F) {
	files, err := filepath.Glob("testdata/rocm*/*.txt")
	if err != nil || len(files) < 7 {
		f.Fatalf("seeds: %v, %d files", err, len(files))
	}
	for _, in := range files {
		b, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, text string) {
		top, problems, err := ParseROCm(strings.NewReader(text))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || top != nil || problems != nil {
				t.Fatalf("error %v is not a *ParseError alone", err)
			}
			return
		}
		for _, p := range problems {
			if p.Line < 1 || !errors.Is(p, ErrAsymmetric) && !errors.Is(p, ErrLinkType) {
				t.Fatalf("problem %v: want a line and ErrAsymmetric or ErrLinkType", p)
			}
		}
		FabricNotes(top)
		DescribeFabric(top)
		g := top.GPUs()
		if len(top.NICs()) != 0 || len(top.ROCm()) != len(g)*(len(g)-1)/2 {
			t.Fatalf("%d NICs, %d ROCm pairs for %d GPUs", len(top.NICs()), len(top.ROCm()), len(g))
		}
		for _, a := range g {
			for _, b := range g {
				p, q := top.Path(a, b), top.Path(b, a)
				if p != q || (p.Class == Self) != (a.Name == b.Name) {
					t.Fatalf("%s/%s = %v, %s/%s = %v", a.Name, b.Name, p, b.Name, a.Name, q)
				}
			}
		}
		InferFabric(top)
		DescribeFabric(top)
		top.Bindings()
		if err := WriteReport(&strings.Builder{}, top); err != nil {
			t.Fatal(err)
		}
	})
}

// TestROCmDirectXGMI: an XGMI pair reached through other GPUs (hops 2, or
// a weight above one XGMI hop's 15) is no direct link, and the fabric's
// links are the fewest direct peers of a GPU, not one to each peer. The
// captures of testdata/rocm_made are made by hand in a public capture's
// layout (each file's comment says whose and from what).
func TestROCmDirectXGMI(t *testing.T) {
	cases := []struct {
		file   string
		peers  []int  // direct XGMI peers of each GPU
		links  int    // InferFabric's: the fewest direct peers
		groups string // XGMIGroups, "" for none
		fabric commmodel.FabricKind
		says   string // in DescribeFabric
	}{
		// Frontier's MI250X node: each GCD joined to 3 others
		// (ROCm/rocm-systems issue 5763's xgmi_num_links), weight 15;
		// the rest weight 30, hops 1 as rocm-smi prints them.
		{"mi250x_frontier_8gcd.txt", []int{3, 3, 3, 3, 3, 3, 3, 3}, 3, "", commmodel.FullMesh, "joined directly to 3 of its 7 peers"},
		// The same node as amd-smi topology prints it: its weights read
		// too (a review: amd-smi's were skipped, and every pair taken
		// for a direct link).
		{"mi250x_frontier_8gcd_amdsmi.txt", []int{3, 3, 3, 3, 3, 3, 3, 3}, 3, "", commmodel.FullMesh, "joined directly to 3 of its 7 peers"},
		// The red team's: GPU0's weight-15 peer is GPU1 (its 4 pairs of
		// weight 15, one a GPU); weight 30 (12 pairs) and hops 2 (12
		// pairs) are not direct.
		{"xgmi_hops2_8gpu_rt45.txt", []int{1, 1, 1, 1, 1, 1, 1, 1}, 1, "", commmodel.FullMesh, "joined directly to 1 of its 7 peers"},
		// Two MI210 bridges of two cards: XGMI within, PCIE between.
		{"mi210_2bridges_4gpu_rt45.txt", []int{1, 1, 1, 1}, 1, "GPU0-GPU1 GPU2-GPU3", commmodel.SharedPCIe, "XGMI bridges join GPU0-GPU1 and GPU2-GPU3, PCIe between them"},
		{"mi210_2bridges_4gpu_crlf_rt45.txt", []int{1, 1, 1, 1}, 1, "GPU0-GPU1 GPU2-GPU3", commmodel.SharedPCIe, "XGMI bridges join GPU0-GPU1 and GPU2-GPU3"},
	}
	for _, c := range cases {
		name := filepath.Join("testdata/rocm_made", c.file)
		top, problems, err := ParseROCmFile(name)
		if err != nil || len(problems) > 0 {
			t.Fatalf("%s: %v, problems %v", name, err, problems)
		}
		if got := XGMIPeers(top); !slices.Equal(got, c.peers) {
			t.Errorf("%s: XGMIPeers %v, want %v", name, got, c.peers)
		}
		if f := InferFabric(top); f.Kind != c.fabric || (c.fabric == commmodel.FullMesh && f.Links != c.links) {
			t.Errorf("%s: fabric %v, want %v of %d links", name, f, c.fabric, c.links)
		}
		var groups []string
		for _, g := range XGMIGroups(top) {
			groups = append(groups, strings.Join(g, "-"))
		}
		if g := strings.Join(groups, " "); g != c.groups {
			t.Errorf("%s: XGMIGroups %q, want %q", name, g, c.groups)
		}
		if d := DescribeFabric(top); !strings.Contains(d, c.says) {
			t.Errorf("%s: DescribeFabric %q, want it to say %q", name, d, c.says)
		}
	}
	// The public captures join every XGMI pair directly: ms-swift's 8
	// gfx942 GPUs, 7 peers each, and ARCHER2's 4 MI210, 3 each.
	for file, want := range map[string]int{"gfx942_8gpu_xgmi_msswift.txt": 7, "mi210_4gpu_xgmi_archer2.txt": 3} {
		top, _, err := ParseROCmFile(filepath.Join("testdata/rocm", file))
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range XGMIPeers(top) {
			if n != want {
				t.Errorf("%s: GPU%d has %d direct XGMI peers, want %d", file, i, n, want)
			}
		}
		if XGMIGroups(top) != nil {
			t.Errorf("%s: XGMIGroups %v where every pair is XGMI", file, XGMIGroups(top))
		}
	}
}

// TestROCmJSON: rocm-smi --showtopo --json's object is refused by every
// reader with ErrROCmJSON at its first "(Topology) ... between DRM devices"
// key, not with nvidia-smi's matrix error. The text is the red team's
// (rt45) input cut to one pair, in the keys' shape rocm-smi prints.
func TestROCmJSON(t *testing.T) {
	const text = `{"system": {"(Topology) Weight between DRM devices 0 and 1": "15", "(Topology) Hops between DRM devices 0 and 1": "1", "(Topology) Link type between DRM devices 0 and 1": "XGMI"}, "card0": {"(Topology) Numa Node": "0"}}` + "\n"
	readers := map[string]func() (*Topology, []*ParseError, error){
		"ReadCapture": func() (*Topology, []*ParseError, error) { return ReadCapture(strings.NewReader(text)) },
		"ParseROCm":   func() (*Topology, []*ParseError, error) { return ParseROCm(strings.NewReader(text)) },
		"Parse":       func() (*Topology, []*ParseError, error) { return Parse(strings.NewReader(text)) },
	}
	for name, read := range readers {
		top, _, err := read()
		var pe *ParseError
		// Column 14: the key's "(Topology)" after `{"system": {"`.
		if top != nil || !errors.Is(err, ErrROCmJSON) || !errors.As(err, &pe) || pe.Line != 1 || pe.Column != 14 {
			t.Errorf("%s: %v; want ErrROCmJSON at 1:14", name, err)
		}
	}
}

// TestROCmLinkTypeAgainstWeight: a pair whose Link Type says PCIE both
// ways while its hops (1) and weight (15) are one XGMI hop's (AMD SMI's
// "Interpreting hops and weight") is read as PCIe, as the link type says,
// with a warning at its cell (ErrLinkType), once a capture; here
// gfx942_8gpu_xgmi_msswift's GPU0-GPU1 so edited.
func TestROCmLinkTypeAgainstWeight(t *testing.T) {
	b, err := os.ReadFile("testdata/rocm/gfx942_8gpu_xgmi_msswift.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[29] = strings.Replace(lines[29], "XGMI ", "PCIE ", 1) // GPU0/GPU1
	lines[30] = strings.Replace(lines[30], "XGMI ", "PCIE ", 1) // GPU1/GPU0
	top, problems, err := ParseROCm(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || !errors.Is(problems[0], ErrLinkType) || problems[0].Line != 30 || !strings.Contains(problems[0].Error(), "GPU0/GPU1") {
		t.Errorf("problems %v; want one ErrLinkType at line 30 naming GPU0/GPU1", problems)
	}
	if p := top.Path(top.GPU(0), top.GPU(1)); p.Class == XGMI {
		t.Errorf("GPU0-GPU1 %v; want the link type's PCIe", p)
	}
}

// TestROCmUnknownPair: an AMD capture of XGMI between every pair but one
// N/A pair (here gfx942_8gpu_xgmi_msswift's GPU0-GPU1) settles no fabric,
// as the N/A pair may be XGMI too, where it read as PCIe between bridged
// groups.
func TestROCmUnknownPair(t *testing.T) {
	b, err := os.ReadFile("testdata/rocm/gfx942_8gpu_xgmi_msswift.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[29] = strings.Replace(lines[29], "XGMI ", "N/A  ", 1) // GPU0/GPU1
	lines[30] = strings.Replace(lines[30], "XGMI ", "N/A  ", 1) // GPU1/GPU0
	top, _, err := ParseROCm(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if FabricKnown(top) || !strings.Contains(strings.Join(FabricNotes(top), ""), "whether XGMI joins every GPU") || !strings.HasPrefix(DescribeFabric(top), "unknown") {
		t.Errorf("one pair N/A: known %v, notes %q, %q; want unsettled, XGMI named", FabricKnown(top), FabricNotes(top), DescribeFabric(top))
	}
}
