package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/inframethod/commlab/topo"
)

// writeCapture writes an n-GPU nvidia-smi topo -m matrix to a file under
// t.TempDir, whose cells are below under the diagonal and above over it,
// and returns its name.
func writeCapture(t *testing.T, n int, below, above string) string {
	t.Helper()
	var b strings.Builder
	for j := range n {
		fmt.Fprintf(&b, "\tGPU%d", j)
	}
	b.WriteString("\tCPU Affinity\tNUMA Affinity\n")
	for i := range n {
		fmt.Fprintf(&b, "GPU%d%s\t X %s\t0-63\t0\n", i, strings.Repeat("\t"+below, i), strings.Repeat("\t"+above, n-1-i))
	}
	name := filepath.Join(t.TempDir(), fmt.Sprintf("topo%d.txt", n))
	if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestAfterFlush: what goes to standard error through afterFlush keeps its
// place among the lines of standard output that main buffers.
func TestAfterFlush(t *testing.T) {
	var both bytes.Buffer
	out := bufio.NewWriter(&both)
	errw := afterFlush{out, &both}
	fmt.Fprint(out, "table\n")
	fmt.Fprint(errw, "warning\n")
	fmt.Fprint(out, "more\n")
	if both.String() != "table\nwarning\n" {
		t.Errorf("before the last flush: %q, want the table, then the warning", both.String())
	}
	out.Flush()
	if both.String() != "table\nwarning\nmore\n" {
		t.Errorf("%q", both.String())
	}
}

// TestTopoAsymmetricFolded: a capture whose every pair disagrees prints
// eleven warnings, not one a pair: the first ten (topo's maxAsymmetric)
// and one that counts the rest, on standard error and in -json's problems.
func TestTopoAsymmetricFolded(t *testing.T) {
	t.Parallel()
	const n = 100
	pairs := n * (n - 1) / 2 // 4950, each asymmetric
	file := writeCapture(t, n, "NV4", "NV18")
	code, _, stderr := runCLI("topo", file)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != 0 || len(lines) != 11 {
		t.Fatalf("exit %d, %d lines of standard error, want 0 and 11:\n%s", code, len(lines), stderr)
	}
	want := fmt.Sprintf("%s:7:", file) + ".* so are " + fmt.Sprint(pairs-11) + fmt.Sprintf(` more pairs to line %d \(%d asymmetric pairs in all, the first 10 reported one by one\): asymmetric pair$`, n+1, pairs)
	if !regexp.MustCompile(want).MatchString(lines[10]) {
		t.Errorf("last line %q, want %s", lines[10], want)
	}
	code, out, stderr := runCLI("topo", file, "-json")
	if got := decodeTopo(t, out); code != 0 || len(got.Problems) != 11 {
		t.Errorf("-json: exit %d, %d problems, want 11: %s", code, len(got.Problems), stderr)
	}
}

// TestTopoNVLinksBounded: the -hw spec topo prints for a capture of
// NV<topo.MaxLinks> is one predict takes, and a capture of one link more is
// refused at its cell, by topo and by predict -topo, not by the name of a
// field of predict.Hardware.
func TestTopoNVLinksBounded(t *testing.T) {
	t.Parallel()
	nv := fmt.Sprintf("NV%d", topo.MaxLinks)
	most := writeCapture(t, 8, nv, nv)
	code, out, stderr := runCLI("topo", most)
	spec := fmt.Sprintf("gpus=8,fabric=nvswitch,links=%d", topo.MaxLinks)
	if code != 0 || !strings.Contains(out, "-hw "+spec+"\n") {
		t.Fatalf("exit %d, %s%s; want -hw %s", code, out, stderr, spec)
	}
	predict := []string{"predict", "-gpu", "H100", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1GiB"}
	if code, _, stderr := runCLI(append(predict, "-hw", spec)...); code != 0 {
		t.Errorf("predict -hw %s: exit %d: %s", spec, code, stderr)
	}
	nv = fmt.Sprintf("NV%d", topo.MaxLinks+1)
	over := writeCapture(t, 8, nv, nv)
	want := fmt.Sprintf(`%s:2:10: "NV%d": links past %d, the most -hw links takes: more NVLinks than a GPU has`, over, topo.MaxLinks+1, topo.MaxLinks)
	for _, args := range [][]string{{"topo", over}, append(predict, "-topo", over)} {
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, want) || strings.Contains(stderr, "Hardware.") {
			t.Errorf("%s: exit %d, %q; want 1 and %q", args[0], code, stderr, want)
		}
	}
}
