package topo

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestTruncatedRealCapture cuts a real capture (8 x H100 with 8 NICs,
// sglang issue 30401) where a paste or a full disk cuts it, and checks that
// each cut is refused, or read with a warning at the right line, and never
// read silently as a machine whose GPUs are not NVSwitched. Line numbers
// are the file's: the header is line 4, GPU0..GPU7 are lines 5-12, NIC0..
// NIC7 lines 13-20, "NIC Legend:" line 32 and its entries lines 34-41.
func TestTruncatedRealCapture(t *testing.T) {
	const file = "testdata/real/h100_hgx_8nic_sglang30401.txt"
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	// upTo is the file's first n lines, the last cut after its first keep
	// bytes when keep >= 0.
	upTo := func(n, keep int) string {
		s := strings.Join(lines[:n-1], "")
		last := lines[n-1]
		if keep >= 0 {
			last = last[:keep]
		}
		return s + last
	}
	cases := []struct {
		name  string
		text  string
		err   error // the cause that refuses the cut, or nil
		warn  error // the problem it gives when read, or nil
		line  int
		names string // a part of the message
	}{
		{"after GPU0's row", upTo(5, -1), ErrMissingRow, nil, 5, "GPU1, GPU2, GPU3, GPU4 and 3 more"},
		// GPU3's row cut after GPU5's cell: 6 of 16 cells, rows 4-7 missing.
		{"mid GPU3's row", upTo(8, len("GPU3    NV18    NV18    NV18     X      NV18    NV18")), ErrMissingRow, nil, 8, "GPU4, GPU5, GPU6, GPU7"},
		// Cut inside a cell: "SY" is no path.
		{"mid cell", upTo(13, 66), ErrPathToken, nil, 13, `"SY"`},
		{"after GPU7's row", upTo(12, -1), nil, ErrMissingRow, 12, "NIC0, NIC1, NIC2, NIC3 and 4 more"},
		{"before the NIC Legend", upTo(30, -1), nil, nil, 0, ""},
		{"mid NIC Legend", upTo(37, -1), nil, ErrNoLegend, 32, "NIC4, NIC5, NIC6, NIC7"},
		{"whole", string(b), nil, nil, 0, ""},
	}
	for _, c := range cases {
		top, problems, err := ParseString(c.text)
		if c.err != nil {
			var pe *ParseError
			if !errors.Is(err, c.err) || !errors.As(err, &pe) || pe.Line != c.line || !strings.Contains(err.Error(), c.names) {
				t.Errorf("%s: error %v, want %v at line %d naming %s", c.name, err, c.err, c.line, c.names)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		switch {
		case c.warn == nil && len(problems) != 0:
			t.Errorf("%s: problems %v, want none", c.name, problems)
		case c.warn != nil && (len(problems) != 1 || !errors.Is(problems[0], c.warn) || problems[0].Line != c.line || !strings.Contains(problems[0].Error(), c.names)):
			t.Errorf("%s: problems %v, want one %v at line %d naming %s", c.name, problems, c.warn, c.line, c.names)
		}
		// What is read is the machine captured: 8 GPUs on NVSwitch
		// (every pair NV18), each with its PIX NIC.
		if f := InferFabric(top); f.Kind != commmodel.Switched || len(top.GPUs()) != 8 {
			t.Errorf("%s: fabric %v of %d GPUs, want Switched of 8", c.name, f.Kind, len(top.GPUs()))
		}
		for g := range 8 {
			if p := top.GPUNIC(g, g); p.Class != PIX {
				t.Errorf("%s: GPU%d/NIC%d %v, want PIX", c.name, g, g, p)
			}
		}
	}
}
