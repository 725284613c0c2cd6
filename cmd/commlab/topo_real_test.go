package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/inframethod/commlab/topo"
)

// TestTopoRealCaptures runs `commlab topo FILE -json` and the table form on
// every public capture in topo/testdata/real: exit status 0, one JSON object
// whose gpus, nics and pairs agree with topo.Parse of the same file (each
// GPU's nic is its binding's NIC, each pair's path the matrix cell), and no
// problems in the JSON or on stderr but those topo.Parse raises (a paste
// whose header lost its NUMA column).
func TestTopoRealCaptures(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../topo/testdata/real/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no captures found (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run([]string{"topo", f, "-json"}, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			got := decodeTopo(t, out.String())
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			top, probs, err := topo.ParseString(string(src))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Problems) != len(probs) || errb.Len() != 0 {
				t.Errorf("problems %v, stderr %q; want Parse's %v alone", got.Problems, errb.String(), probs)
			}
			if len(got.GPUs) != len(top.GPUs()) || len(got.NICs) != len(top.NICs()) || len(got.Pairs) != len(top.Pairs()) {
				t.Fatalf("%d GPUs, %d NICs, %d pairs; Parse gives %d, %d, %d",
					len(got.GPUs), len(got.NICs), len(got.Pairs), len(top.GPUs()), len(top.NICs()), len(top.Pairs()))
			}
			for i, b := range top.Bindings() {
				if g := got.GPUs[i]; g.Name != b.GPU || g.NIC != b.NIC || g.NUMA != top.GPU(i).NUMA {
					t.Errorf("gpus[%d] = %+v, want %s on NUMA %d with NIC %q", i, g, b.GPU, top.GPU(i).NUMA, b.NIC)
				}
			}
			for i, p := range top.Pairs() {
				if q := got.Pairs[i]; q.A != p.A || q.B != p.B || q.Path != p.Path.String() {
					t.Errorf("pairs[%d] = %+v, want %s %s %v", i, q, p.A, p.B, p.Path)
				}
			}
			out.Reset()
			if code := run([]string{"topo", f}, &out, &errb); code != 0 || !bytes.Contains(out.Bytes(), []byte("GPU fabric:")) || bytes.Count(errb.Bytes(), []byte("\n")) != len(probs) {
				t.Errorf("table: exit %d, stderr %q, output:\n%s", code, errb.String(), out.String())
			}
		})
	}
}
