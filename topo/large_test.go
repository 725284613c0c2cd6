package topo

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// capture writes an nvidia-smi topo -m matrix of the devices named, tab
// separated as nvidia-smi prints it, whose pair i, j (row, column) is
// cell(i, j), X on the diagonal, with CPU and NUMA Affinity columns.
func capture(names []string, cell func(i, j int) string) string {
	return matrix(names, "\t", " X ", cell, "\tCPU Affinity\tNUMA Affinity", "\t0-63\t0")
}

// matrix writes a header of names, after a leading sep and before head,
// and a row for each, its cells cell(i, j) and diag on the diagonal after
// sep each, and tail.
func matrix(names []string, sep, diag string, cell func(i, j int) string, head, tail string) string {
	var b strings.Builder
	b.WriteString(sep + strings.Join(names, sep) + head + "\n")
	for i, a := range names {
		b.WriteString(a)
		for j := range names {
			c := diag
			if i != j {
				c = cell(i, j)
			}
			b.WriteString(sep + c)
		}
		b.WriteString(tail + "\n")
	}
	return b.String()
}

// gpuNames returns GPU0 ... GPU<n-1>.
func gpuNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("GPU%d", i)
	}
	return names
}

// asymmetric is NV18 above the diagonal and NV4 below it: every pair's two
// cells disagree.
func asymmetric(i, j int) string {
	if i < j {
		return "NV18"
	}
	return "NV4"
}

// TestTooManyDevices: a header of more GPUs, or more NICs, than NCCL's
// topology holds (nccl.MaxTopoNodes) is ErrTooLarge at the first column
// past it, before any row is read; as many is read.
func TestTooManyDevices(t *testing.T) {
	most := nccl.MaxTopoNodes
	sys := func(i, j int) string { return "SYS" }
	// One row under a header of most+1 GPUs: the header alone refuses it.
	gpus := capture(gpuNames(most+1), sys)
	gpus = gpus[:strings.Index(gpus, "\nGPU1\t")+1]
	nics := []string{"GPU0"}
	for k := range most + 1 {
		nics = append(nics, fmt.Sprintf("NIC%d", k))
	}
	nicText := capture(nics, sys)
	nicText = nicText[:strings.Index(nicText, "\nNIC0\t")+1]
	for name, c := range map[string]struct {
		text, column string
	}{
		"GPUs": {gpus, fmt.Sprintf("GPU%d", most)},
		"NICs": {nicText, fmt.Sprintf("NIC%d", most)},
	} {
		_, _, err := ParseString(c.text)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrTooLarge) {
			t.Fatalf("%s: err %v, want a *ParseError of ErrTooLarge", name, err)
		}
		// The column is the header's byte offset of the first one past most, plus 1.
		col := strings.Index(c.text, "\t"+c.column+"\t") + 2
		if pe.Line != 1 || pe.Column != col || !strings.Contains(pe.Error(), fmt.Sprintf("%s is %s column %d", c.column, name[:3], most+1)) {
			t.Errorf("%s: %v, want line 1, column %d, naming %s", name, err, col, c.column)
		}
	}
	top, problems, err := ParseString(capture(gpuNames(most), sys))
	if err != nil || len(problems) != 0 || len(top.GPUs()) != most {
		t.Fatalf("%d GPUs: err %v, %d problems, %d GPUs read", most, err, len(problems), len(top.GPUs()))
	}
}

// TestAsymmetricFolded: a capture whose every pair disagrees gives the
// first maxAsymmetric pairs by line and column, a problem each, and one
// problem for the rest at the first of them; Parse and ParseROCm alike.
func TestAsymmetricFolded(t *testing.T) {
	const n = 40
	pairs := n * (n - 1) / 2 // 780, each asymmetric
	_, problems, err := ParseString(capture(gpuNames(n), asymmetric))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != maxAsymmetric+1 {
		t.Fatalf("%d problems, want %d", len(problems), maxAsymmetric+1)
	}
	// The row of GPU k (line k+2) holds k later cells of a pair: rows 1 to 4
	// hold the first 1+2+3+4 = 10, and GPU5/GPU0 on line 7 is the 11th.
	for k, p := range problems {
		if !errors.Is(p, ErrAsymmetric) || k > 0 && p.Line < problems[k-1].Line {
			t.Errorf("problem %d: %v: want ErrAsymmetric, in line order", k, p)
		}
	}
	if p := problems[0]; p.Line != 3 || !strings.Contains(p.Error(), "GPU1/GPU0 is NV4 but GPU0/GPU1 on line 2 is NV18; read as NV4, the farther: asymmetric pair") {
		t.Errorf("first: %v", p)
	}
	last := problems[maxAsymmetric]
	want := fmt.Sprintf("GPU5/GPU0 is NV4 but GPU0/GPU5 on line 2 is NV18; read as NV4, the farther; so are %d more pairs to line %d (%d asymmetric pairs in all, the first %d reported one by one)",
		pairs-maxAsymmetric-1, n+1, pairs, maxAsymmetric)
	if last.Line != 7 || !strings.Contains(last.Error(), want) {
		t.Errorf("last: %v\nwant line 7: %s", last, want)
	}

	// rocm-smi's Weight table, 15 above the diagonal and 30 below it.
	table := func(title string, cell func(i, j int) string) string {
		return "==== " + title + " ====\n" + matrix(gpuNames(n), "  ", "0", cell, "", "") + "\n"
	}
	text := table("Weight between two GPUs", func(i, j int) string { return map[bool]string{true: "15", false: "30"}[i < j] }) +
		table("Hops between two GPUs", func(i, j int) string { return "1" }) +
		table("Link Type between two GPUs", func(i, j int) string { return "XGMI" })
	_, problems, err = ParseROCm(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != maxAsymmetric+1 || !strings.Contains(problems[maxAsymmetric].Error(), fmt.Sprintf("so are %d more pairs", pairs-maxAsymmetric-1)) {
		t.Fatalf("rocm-smi: %d problems, the last %v; want %d, counting %d more", len(problems), problems[len(problems)-1], maxAsymmetric+1, pairs-maxAsymmetric-1)
	}
}

// TestNVLinksBounded: an NV# cell of more links than MaxLinks, or past
// int64, is ErrNVLinks at its cell: the links a capture gives are always a
// count -hw links takes. A GPU whose NVLinks summed over its peers pass
// MaxNVLinksPerGPU reads as NVSwitch, whose links are one pair's, even
// where some pairs show none: no GPU's direct links sum past it.
func TestNVLinksBounded(t *testing.T) {
	nv := func(s string) func(i, j int) string { return func(i, j int) string { return s } }
	top, _, err := ParseString(capture(gpuNames(8), nv(fmt.Sprintf("NV%d", MaxLinks))))
	if err != nil {
		t.Fatal(err)
	}
	if f := InferFabric(top); f.Links != MaxLinks {
		t.Errorf("NV%d behind NVSwitch: links %d, want %[1]d", MaxLinks, f.Links)
	}
	// A ring of four GPUs, each with NV<MaxLinks> to its two neighbours
	// and SYS across: more links than a GPU has, so a switch, and the
	// pairs across taken as joined through it.
	ring := capture(gpuNames(4), func(i, j int) string {
		if (i-j+4)%4 == 2 {
			return "SYS"
		}
		return fmt.Sprintf("NV%d", MaxLinks)
	})
	rt, _, err := ParseString(ring)
	if err != nil {
		t.Fatal(err)
	}
	if f, l := InferFabric(rt), ReadNVLinks(rt); f.Kind != commmodel.Switched || f.Links != MaxLinks || !slices.Equal(l.Unjoined, [][2]int{{0, 2}, {1, 3}}) {
		t.Errorf("a ring of NV%d: %v, unjoined %v; want switched of %[1]d links, pairs 0-2 and 1-3 unjoined", MaxLinks, f, l.Unjoined)
	}
	for name, c := range map[string]struct {
		text      string
		line, col int
		msg       string
	}{
		"one more":   {capture(gpuNames(8), nv(fmt.Sprintf("NV%d", MaxLinks+1))), 2, 10, fmt.Sprintf(`"NV%d": links past %d`, MaxLinks+1, MaxLinks)},
		"past int64": {capture(gpuNames(2), nv("NV99999999999999999999")), 2, 10, `"NV99999999999999999999": links past`},
	} {
		_, _, err := ParseString(c.text)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrNVLinks) || pe.Line != c.line || pe.Column != c.col || !strings.Contains(pe.Error(), c.msg) {
			t.Errorf("%s: %v; want ErrNVLinks at %d:%d, %q", name, err, c.line, c.col, c.msg)
		}
	}
}

// BenchmarkParseLarge parses generated captures of n GPUs, every pair NV18
// (NVSwitch) or asymmetric (asymmetric: NV18 one way, NV4 the other).
func BenchmarkParseLarge(b *testing.B) {
	for _, n := range []int{64, nccl.MaxTopoNodes} {
		for _, c := range []struct {
			name string
			cell func(i, j int) string
		}{{"nv18", func(i, j int) string { return "NV18" }}, {"asymmetric", asymmetric}} {
			text := capture(gpuNames(n), c.cell)
			b.Run(fmt.Sprintf("%s/gpus=%d", c.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := ParseString(text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
