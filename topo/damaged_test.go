package topo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damagedInputs are the hand-made damaged captures in testdata/damaged.
func damagedInputs(t testing.TB) []string {
	files, err := filepath.Glob("testdata/damaged/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(damagedCases) {
		t.Fatalf("%d files in testdata/damaged, %d described in damagedCases", len(files), len(damagedCases))
	}
	return files
}

// wantProblem is a ParseError a damaged capture must give: its cause, line,
// column and a part of its message.
type wantProblem struct {
	cause     error
	line, col int
	text      string
}

// damagedCases is what Parse must make of each file in testdata/damaged:
// the error that refuses it, or the problems and some paths as read. Lines
// and columns are counted in the file (columns in bytes).
var damagedCases = []struct {
	file     string
	err      *wantProblem
	problems []wantProblem
	pairs    []realPair
}{
	{
		// GPU1's row (line 6) stops after its diagonal X; its NIC0 cell comes
		// from NIC0's row, SYS. Its affinity columns still read.
		file:     "short_row.txt",
		problems: []wantProblem{{ErrShortRow, 6, 0, "GPU1 has 2 of 3 cells; GPU1/NIC0 read from the transposed cell"}},
		pairs:    []realPair{{"GPU1", "NIC0", "SYS"}, {"GPU0", "GPU1", "NV18"}, {"GPU0", "NIC0", "PIX"}},
	},
	{
		// A real capture cut after GPU0's row (line 5): GPU1..GPU7 have no
		// row, so their pairs with each other would be unknown.
		file: "cut_after_gpu0.txt",
		err:  &wantProblem{ErrMissingRow, 5, 0, "no row for GPU1, GPU2, GPU3, GPU4 and 3 more of the header's 16 device columns (line 4"},
	},
	{
		// Line 4, "GPU0\t X \tNV18\tPIX\tSYS": SYS starts at byte 19.
		file: "long_row.txt",
		err:  &wantProblem{ErrLongRow, 4, 19, "GPU0 has 4 cells for 3 device columns, from SYS on"},
	},
	{
		// GPU1's PIX (line 5, byte 9) against GPU0's NV18 (line 4): PIX,
		// the farther, is kept.
		file:     "asymmetric.txt",
		problems: []wantProblem{{ErrAsymmetric, 5, 9, "GPU1/GPU0 is PIX but GPU0/GPU1 on line 4 is NV18; read as PIX, the farther"}},
		pairs:    []realPair{{"GPU0", "GPU1", "PIX"}, {"GPU1", "NIC0", "NODE"}},
	},
	{
		// Line 4, "GPU0\t X \tNV12\tNV12\tNV12...": GPU0/GPU-1's NV12 starts at
		// byte 20; GPU-1 is no GPU's label, and no NVLink joins a NIC.
		file: "nvlink_to_nic.txt",
		err:  &wantProblem{ErrNVLinkNIC, 4, 20, "GPU0/GPU-1 is NV12, NVLink, which joins GPUs alone"},
	},
	{
		// Lines 12 and 13, "  NIC0: mlx5_0" and "  NIC1: mlx5_0": NIC1's
		// device starts at byte 8 (column 9). Red team C, finding 6.
		file:     "legend_duplicate.txt",
		problems: []wantProblem{{ErrLegendDevice, 13, 9, `NIC1's device "mlx5_0" is NIC0's too (line 12)`}},
		pairs:    []realPair{{"GPU1", "NIC1", "PIX"}},
	},
	{
		// Lines 16 to 20, each device at byte 8 (column 9): a ',' (an
		// entry "mlx5_0,mlx5_9" that NCCL_IB_HCA reads as two), '=' and '^'
		// (its prefixes), ':' (a port) and a blank. Red team C, finding 6.
		file: "legend_syntax.txt",
		problems: []wantProblem{
			{ErrLegendDevice, 16, 9, `NIC0's device "mlx5_0,mlx5_9" holds ','`},
			{ErrLegendDevice, 17, 9, `NIC1's device "=mlx5_1" holds '='`},
			{ErrLegendDevice, 18, 9, `NIC2's device "^mlx5_2" holds '^'`},
			{ErrLegendDevice, 19, 9, `NIC3's device "mlx5_3:1" holds ':'`},
			{ErrLegendDevice, 20, 9, `NIC4's device "mlx5 4" holds a blank`},
		},
		pairs: []realPair{{"GPU0", "NIC1", "PIX"}},
	},
}

// checkProblem reports whether p is w, in file.
func checkProblem(t *testing.T, p *ParseError, w wantProblem, file string) {
	t.Helper()
	if !errors.Is(p, w.cause) || p.File != file || p.Line != w.line || p.Column != w.col || !strings.Contains(p.Error(), w.text) {
		t.Errorf("got %q (file %q, line %d, column %d); want cause %q in %s at line %d, column %d, saying %q",
			p, p.File, p.Line, p.Column, w.cause, file, w.line, w.col, w.text)
	}
}

// TestDamaged parses each damaged capture with ParseFile, checks its error or
// problems (with the file name) and paths, and compares the whole outcome
// with testdata/golden/damaged (go test -run TestDamaged -update rewrites it).
func TestDamaged(t *testing.T) {
	damagedInputs(t)
	for _, c := range damagedCases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "damaged", c.file)
			top, problems, err := ParseFile(path)
			var out bytes.Buffer
			if c.err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || top != nil || problems != nil {
					t.Fatalf("err %v, topology %v, problems %v; want a *ParseError alone", err, top, problems)
				}
				checkProblem(t, pe, *c.err, path)
				fmt.Fprintf(&out, "error: %v\n", err)
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if len(problems) != len(c.problems) {
					t.Fatalf("problems %v, want %d", problems, len(c.problems))
				}
				for k, w := range c.problems {
					checkProblem(t, problems[k], w, path)
				}
				for _, pr := range c.pairs {
					if got, err := top.PathByName(pr.a, pr.b); err != nil || got.String() != pr.path {
						t.Errorf("%s-%s = %v (%v), want %s", pr.a, pr.b, got, err, pr.path)
					}
				}
				for _, p := range problems {
					fmt.Fprintf(&out, "problem: %v\n", p)
				}
				out.WriteString("\n")
				out.Write(golden(top))
			}
			checkGolden(t, filepath.Join("testdata", "golden", "damaged", strings.TrimSuffix(c.file, ".txt")+".golden"), out.Bytes())
		})
	}
}

// TestShortRowsBothWays: when GPU1's row and NIC0's row both lack the cell
// where they meet, the pair is Unknown and each row gets a problem saying so;
// rows in any order give the problems in line order.
func TestShortRowsBothWays(t *testing.T) {
	text := "\tGPU0\tGPU1\tNIC0\nNIC0\tPIX\nGPU0\t X \tNV4\tPIX\nGPU1\tNV4\t X \n"
	top, problems, err := ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []wantProblem{
		{ErrShortRow, 2, 0, "NIC0 has 1 of 3 cells; NIC0/GPU1 unknown (missing both ways)"},
		{ErrShortRow, 4, 0, "GPU1 has 2 of 3 cells; GPU1/NIC0 unknown (missing both ways)"},
	}
	if len(problems) != len(want) {
		t.Fatalf("problems %v, want %d", problems, len(want))
	}
	for k, w := range want {
		checkProblem(t, problems[k], w, "")
	}
	if p := top.GPUNIC(1, 0); p.Class != Unknown {
		t.Errorf("GPU1-NIC0 = %v, want N/A", p)
	}
	if p := top.GPUNIC(0, 0); p.Class != PIX {
		t.Errorf("GPU0-NIC0 = %v, want PIX", p)
	}
}

// TestParseFileName: Parse of an *os.File names the file in its errors, as
// ParseFile does; ParseString names none.
func TestParseFileName(t *testing.T) {
	path := filepath.Join("testdata", "damaged", "long_row.txt")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, _, err = Parse(f)
	if want := path + ":4:19: GPU0 has 4 cells"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Parse(file) error %v, want it to start %q", err, want)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = ParseString(string(b))
	if want := "4:19: GPU0 has 4 cells"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("ParseString error %v, want it to start %q", err, want)
	}
	if _, _, err := ParseFile(filepath.Join(t.TempDir(), "missing.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ParseFile of a missing file: %v, want os.ErrNotExist", err)
	}
}

// TestAsymmetricNVLinkCount: a pair whose cells name NVLink both ways but
// different counts (NV12 one way, NV6 the other) is asymmetric as a pair
// of different path classes is: a warning at the later cell (columns
// counted from 1, in bytes), naming the other's line, and the pair takes
// the fewer links. NV0 is no path nvidia-smi prints (a pair without NVLink
// is a PCIe class): an error at its cell.
func TestAsymmetricNVLinkCount(t *testing.T) {
	text := "\tGPU0\tGPU1\tGPU2\tGPU3\n" +
		"GPU0\t X \tNV12\tSYS\tSYS\n" +
		"GPU1\tNV6\t X \tSYS\tSYS\n" +
		"GPU2\tSYS\tSYS\t X \tNV12\n" +
		"GPU3\tSYS\tSYS\tPHB\t X \n"
	top, problems, err := ParseString(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []wantProblem{
		{ErrAsymmetric, 3, 6, "GPU1/GPU0 is NV6 but GPU0/GPU1 on line 2 is NV12; read as NV6, the farther"},
		{ErrAsymmetric, 5, 14, "GPU3/GPU2 is PHB but GPU2/GPU3 on line 4 is NV12; read as PHB, the farther"},
	}
	if len(problems) != len(want) {
		t.Fatalf("problems %v, want %d", problems, len(want))
	}
	for k, w := range want {
		checkProblem(t, problems[k], w, "")
	}
	if p := top.Path(top.GPU(0), top.GPU(1)); p != NV(6) {
		t.Errorf("GPU0-GPU1 = %v, want NV6", p)
	}
	_, _, err = ParseString(strings.Replace(text, "GPU1\tNV6", "GPU1\tNV0", 1))
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("NV0: err %v, want a *ParseError", err)
	}
	checkProblem(t, pe, wantProblem{ErrPathToken, 3, 6, `"NV0": not a path class`}, "")
}
