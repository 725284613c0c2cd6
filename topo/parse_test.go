package topo

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestArticleFileIsPreset: data/topology/h20-article.txt, the article's
// server in nvidia-smi's shape, parses back to exactly H20Article().
func TestArticleFileIsPreset(t *testing.T) {
	b, err := os.ReadFile("../data/topology/h20-article.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := mustParse(t, string(b))
	if want := H20Article(); !reflect.DeepEqual(got, want) {
		t.Errorf("article file parses to\n%+v\nwant\n%+v", got, want)
	}
}

// TestPublicCapture checks the parse of the real H20-3e capture against what
// its header (NVIDIA/nccl-tests#321) says: NUMA0 = GPU0-3, NUMA1 = GPU4-7,
// every GPU PIX to exactly one NIC, and those NICs its nearest.
func TestPublicCapture(t *testing.T) {
	b, err := os.ReadFile("../data/topology/h20-3e_8gpu_8nic_vm.txt")
	if err != nil {
		t.Fatal(err)
	}
	top := mustParse(t, string(b))
	// The matrix rows: GPUg is PIX to NIC(7-g).
	for g := range 8 {
		if want := g / 4; top.GPU(g).NUMA != want {
			t.Errorf("GPU%d NUMA = %d, want %d", g, top.GPU(g).NUMA, want)
		}
		pix := 0
		for n := range 8 {
			if top.GPUNIC(g, n).Class == PIX {
				pix++
			}
		}
		if pix != 1 {
			t.Errorf("GPU%d has %d PIX NICs, want 1", g, pix)
		}
		n, p, ok := top.NearestNIC(g)
		if !ok || n != 7-g || p.Class != PIX {
			t.Errorf("GPU%d nearest NIC = NIC%d %v, want NIC%d PIX", g, n, p, 7-g)
		}
	}
	// NICs have no NUMA column; their nodes follow from the PIX/NODE paths.
	for n := range 8 {
		want := 1
		if n >= 4 {
			want = 0
		}
		if got := top.NIC(n).NUMA; got != want {
			t.Errorf("NIC%d NUMA = %d, want %d", n, got, want)
		}
	}
	if got := top.GPU(0).CPUs.String(); got != "0-63" {
		t.Errorf("GPU0 CPU affinity %q, want 0-63", got)
	}
}

// hopperRow is a small two-GPU, one-NIC matrix used by the variant tests.
const smallMatrix = `        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID
GPU0     X      NV12    PXB     0-47,96-143     0               N/A
GPU1    NV12     X      SYS     48-95,144-191   1               N/A
NIC0    PXB     SYS      X

NIC Legend:

  NIC0: mlx5_0
`

// TestParseVariants: shapes real outputs take, all meaning smallMatrix.
func TestParseVariants(t *testing.T) {
	want := mustParse(t, smallMatrix)
	variants := map[string]string{
		"CRLF":           strings.ReplaceAll(smallMatrix, "\n", "\r\n"),
		"lone CR":        strings.ReplaceAll(smallMatrix, "\n", "\r"),
		"command first":  "$ nvidia-smi topo -m\n" + smallMatrix,
		"BOM":            "\ufeff" + smallMatrix,
		"tabs":           "\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\nGPU0\t X \tNV12\tPXB\t0-47,96-143\t0\t\tN/A\nGPU1\tNV12\t X \tSYS\t48-95,144-191\t1\t\tN/A\nNIC0\tPXB\tSYS\t X \t\nNIC Legend:\n  NIC0: mlx5_0\n",
		"trailing blank": strings.ReplaceAll(smallMatrix, "\n", "   \n"),
		"collapsed head": strings.Replace(smallMatrix, "CPU Affinity    NUMA Affinity   GPU NUMA ID", "CPU Affinity NUMA Affinity GPU NUMA ID", 1),
		"lower case":     strings.NewReplacer("NV12", "nv12", "PXB", "pxb").Replace(smallMatrix),
		"blank in rows":  strings.Replace(smallMatrix, "GPU1    NV12", "\nGPU1    NV12", 1),
		"no-break space": strings.Replace(smallMatrix, "GPU0     X      NV12", "GPU0\u00a0\u00a0X\u00a0NV12", 1),
		"SOC for SYS":    strings.ReplaceAll(smallMatrix, "SYS", "SOC"),
		"legend text":    smallMatrix + "\nLegend:\n\n  X    = Self\n  SYS  = across sockets\n  NV#  = # NVLinks\n",
		"comment first":  "# captured on host a1\n" + smallMatrix,
	}
	for name, text := range variants {
		got, problems, err := ParseString(text)
		if err != nil || problems != nil {
			t.Errorf("%s: error %v, problems %v", name, err, problems)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parses to %+v, want %+v", name, got, want)
		}
	}
}

// TestParseOldHeader: drivers before the NIC legend headed NIC columns with
// the device name and printed only CPU Affinity (shape of NVIDIA/nccl-tests#78).
func TestParseOldHeader(t *testing.T) {
	text := "\tGPU0\tGPU1\tmlx5_0\tCPU Affinity\nGPU0\t X \tNV6\tPIX\t0-23,48-71\nGPU1\tNV6\t X \tPXB\t0-23,48-71\nmlx5_0\tPIX\tPXB\t X \n"
	top := mustParse(t, text)
	nics := top.NICs()
	if len(nics) != 1 || nics[0].Name != "mlx5_0" || nics[0].Device != "mlx5_0" {
		t.Fatalf("NICs = %+v, want one named mlx5_0", nics)
	}
	if p, _ := top.PathByName("GPU1", "mlx5_0"); p.Class != PXB {
		t.Errorf("GPU1-mlx5_0 = %v, want PXB", p)
	}
	// No NUMA column and one affinity list: the node stays unknown.
	if n := top.GPU(0).NUMA; n != -1 {
		t.Errorf("GPU0 NUMA = %d, want -1", n)
	}
	if b := top.Bindings()[0]; b.Device != "mlx5_0" || !b.GDR {
		t.Errorf("binding %+v, want mlx5_0 with GDR", b)
	}
	if h := top.IBHCA(); h.Value != "=mlx5_0" {
		t.Errorf("NCCL_IB_HCA %+v, want =mlx5_0", h)
	}
}

// TestParseROCm: rocm-smi --showtopo's output (a public capture,
// testdata/rocm/rocm_smi_showtopo_4gpu_pcie.txt) is not a matrix Parse reads; the
// error says what it is, at the line of its banner (line 3, after the two
// source lines).
func TestParseROCm(t *testing.T) {
	name := "testdata/rocm/rocm_smi_showtopo_4gpu_pcie.txt"
	top, _, err := ParseFile(name)
	var pe *ParseError
	if top != nil || !errors.Is(err, ErrROCm) || !errors.As(err, &pe) || pe.Line != 3 || pe.File != name {
		t.Errorf("topology %v, err %v; want ErrROCm at %s:3", top, err, name)
	}
	// A capture of nvidia-smi that quotes the banner in a comment still
	// parses: the mark only names text Parse could not read.
	if _, _, err := ParseString("# not from ROCm System Management Interface\n\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \n"); err != nil {
		t.Errorf("an nvidia-smi matrix after a line naming ROCm: %v", err)
	}
}

// TestParseErrors: malformed text gives a *ParseError with the sentinel
// cause, line and column (the 1-based byte offset of the field: in
// "GPU1\tNVX" the cell NVX starts at byte 6), and no topology or problems.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name      string
		text      string
		cause     error
		line, col int
	}{
		{"empty", "", ErrNoMatrix, 0, 0},
		{"prose", "hello\nworld\n", ErrNoMatrix, 0, 0},
		{"header only", "\tGPU0\tGPU1\n", ErrNoMatrix, 1, 0},
		{"row before header", "GPU0 X NV4\n", ErrNoHeader, 1, 1},
		{"bad cell", "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNVX\t X \n", ErrPathToken, 3, 6},
		{"typo cell", "  GPU0  GPU1  CPU Affinity\nGPU0  X  PIXX  0-3\nGPU1  PIX  X  0-3\n", ErrPathToken, 2, 10},
		{"NV0", "\tGPU0\tGPU1\nGPU0\t X \tNV0\nGPU1\tNV0\t X \n", ErrPathToken, 2, 10},
		{"unknown row", "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU1\tNV4\t X \nGPU2\tNV4\tNV4\t X \n", ErrUnknownRow, 4, 1},
		{"duplicate row", "\tGPU0\tGPU1\nGPU0\t X \tNV4\nGPU0\t X \tNV4\n", ErrDuplicate, 3, 1},
		{"duplicate column", "\tGPU0\tGPU0\nGPU0\t X \tNV4\n", ErrDuplicate, 1, 7},
		{"X off diagonal", "\tGPU0\tGPU1\nGPU0\t X \t X \nGPU1\tNV4\t X \n", ErrDiagonal, 2, 11},
		{"diagonal not X", "\tGPU0\tGPU1\nGPU0\tPIX\tNV4\nGPU1\tNV4\t X \n", ErrDiagonal, 2, 6},
		{"long row", "\tGPU0\tGPU1\nGPU0\t X \tNV4\tNV4\nGPU1\tNV4\t X \n", ErrLongRow, 2, 14},
		{"long row before attributes", "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\tSYS\t0-3\n", ErrLongRow, 2, 14},
		// "GPU0\u00a0X\u00a0NV0": the no-break spaces are 2 bytes each.
		{"column in bytes", "\tGPU0\tGPU1\nGPU0\u00a0X\u00a0NV0\n", ErrPathToken, 2, 10},
		// "\x1b[4m" (4 bytes) before the header's tab: GPU0 twice, the second at byte 11.
		{"column after ANSI escape", "\x1b[4m\tGPU0\tGPU0\x1b[0m\nGPU0\t X \tNV4\n", ErrDuplicate, 1, 11},
		// The byte-order mark (3 bytes) counts on the first line.
		{"column after BOM", "\ufeff\tGPU0\tGPU0\nGPU0\t X \tNV4\n", ErrDuplicate, 1, 10},
		// An invalid byte (read as U+FFFD, 3 bytes) in an unknown column
		// counts as 1 byte before the NUMA field at byte 12.
		{"column after invalid UTF-8", "\tGPU0\tFoo\tNUMA Affinity\nGPU0\t X \t\xff\tzero\n", ErrNUMA, 2, 12},
		{"bad CPU list", "\tGPU0\tCPU Affinity\nGPU0\t X \t0-4x\n", ErrCPUList, 2, 10},
		{"reversed CPU range", "\tGPU0\tCPU Affinity\nGPU0\t X \t9-3\n", ErrCPUList, 2, 10},
		{"bad NUMA", "\tGPU0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-3\tzero\n", ErrNUMA, 2, 14},
		{"bad GPU NUMA ID", "\tGPU0\tGPU NUMA ID\nGPU0\t X \t-1\n", ErrNUMA, 2, 10},
		{"extra field", "\tGPU0\tCPU Affinity\nGPU0\t X \t0-3\t7\t8\n", ErrFieldCount, 2, 14},
		{"extra field beyond NUMA", "\tGPU0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-3\t7\t8\n", ErrFieldCount, 2, 16},
	}
	for _, c := range cases {
		top, problems, err := ParseString(c.text)
		var pe *ParseError
		if !errors.As(err, &pe) || top != nil || problems != nil {
			t.Errorf("%s: err = %v, topology %v, problems %v; want a *ParseError alone", c.name, err, top, problems)
			continue
		}
		if !errors.Is(err, c.cause) || pe.Line != c.line || pe.Column != c.col {
			t.Errorf("%s: got %v (line %d, column %d), want cause %q at line %d, column %d",
				c.name, err, pe.Line, pe.Column, c.cause, c.line, c.col)
		}
	}
}

// TestNUMAAfterCutHeader: nccl-tests#380's paste of its H200 host's
// matrix cut the header after "CPU Affinity", while each row keeps the
// NUMA node after its CPU list ("0-23    0"): the field is read as NUMA
// Affinity, with one warning at the first row.
func TestNUMAAfterCutHeader(t *testing.T) {
	top, problems, err := ParseString("\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV18\t0-23\t0\nGPU1\tNV18\t X \t48-71\t2\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || !errors.Is(problems[0], ErrCutHeader) || !strings.Contains(problems[0].Error(), "taken as NUMA Affinity") {
		t.Errorf("problems %v; want one saying the field is taken as NUMA Affinity", problems)
	}
	if a, b := top.GPU(0).NUMA, top.GPU(1).NUMA; a != 0 || b != 2 {
		t.Errorf("NUMA nodes %d and %d, want 0 and 2", a, b)
	}
}

// TestNUMAFromCPUAffinity: with no NUMA column, disjoint affinity lists number
// the nodes by lowest CPU, and NICs follow their PCIe paths.
func TestNUMAFromCPUAffinity(t *testing.T) {
	text := "\tGPU0\tGPU1\tmlx5_0\tCPU Affinity\nGPU0\t X \tSYS\tSYS\t20-39\nGPU1\tSYS\t X \tPHB\t0-19\nmlx5_0\tSYS\tPHB\t X \n"
	top := mustParse(t, text)
	if a, b, n := top.GPU(0).NUMA, top.GPU(1).NUMA, top.NIC(0).NUMA; a != 1 || b != 0 || n != 0 {
		t.Errorf("NUMA GPU0 %d GPU1 %d NIC %d, want 1 0 0", a, b, n)
	}
}

// TestParseNICColumnWithoutRow: an old-style header names a NIC (mlx5_1)
// whose row is missing; the GPU rows' cells still make it a device column.
func TestParseNICColumnWithoutRow(t *testing.T) {
	text := "\tGPU0\tGPU1\tmlx5_0\tmlx5_1\tCPU Affinity\nGPU0\t X \tNV4\tPIX\tSYS\t0-7\nGPU1\tNV4\t X \tSYS\tPIX\t8-15\nmlx5_0\tPIX\tSYS\t X \tSYS\n"
	top, problems, err := ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	// The row missing is reported at the line after the matrix (its last
	// line, 4, since nothing follows).
	if len(problems) != 1 || !errors.Is(problems[0], ErrMissingRow) || problems[0].Line != 4 || !strings.Contains(problems[0].Error(), "no row for mlx5_1") {
		t.Errorf("problems %v, want one ErrMissingRow at line 4 naming mlx5_1", problems)
	}
	if len(top.NICs()) != 2 {
		t.Fatalf("NICs %+v, want mlx5_0 and mlx5_1", top.NICs())
	}
	if p, _ := top.PathByName("GPU1", "mlx5_1"); p.Class != PIX {
		t.Errorf("GPU1-mlx5_1 = %v, want PIX", p)
	}
	if c := top.GPU(1).CPUs.String(); c != "8-15" {
		t.Errorf("GPU1 CPUs %q, want 8-15", c)
	}
}

// TestParseANSIHeader: a terminal's underlined header (ANSI escapes) parses.
func TestParseANSIHeader(t *testing.T) {
	text := "\x1b[4m\tGPU0\tGPU1\tCPU Affinity\x1b[0m\nGPU0\t X \tNV4\t0-7\nGPU1\tNV4\t X \t0-7\n"
	top := mustParse(t, text)
	if p := top.Path(top.GPU(0), top.GPU(1)); p != NV(4) {
		t.Errorf("GPU0-GPU1 = %v, want NV4", p)
	}
}

// mustParse parses text, failing the test on an error or a problem.
func mustParse(t testing.TB, text string) *Topology {
	t.Helper()
	top, problems, err := ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("problem: %v", p)
	}
	return top
}
