package topo

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenInputs are the texts the golden test parses: the hand-made fixtures in
// testdata and the files of data/topology (the article's server and the
// public capture from NVIDIA/nccl-tests#321).
func goldenInputs(t testing.TB) []string {
	var files []string
	for _, pat := range []string{"testdata/*.txt", "../data/topology/*.txt"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 9 {
		t.Fatalf("found %d inputs, want the 7 fixtures and 2 data files", len(files))
	}
	return files
}

// golden is what a golden file holds for a parsed topology: the report the
// command prints, the fabric Levels infers, and every pair in matrix order.
func golden(top *Topology) []byte {
	var b bytes.Buffer
	if err := WriteReport(&b, top); err != nil {
		panic(err)
	}
	fmt.Fprintf(&b, "\nGPU fabric: %s\n", DescribeFabric(top))
	b.WriteString("\npairs:\n")
	for _, p := range top.Pairs() {
		fmt.Fprintf(&b, "%s %s %s\n", p.A, p.B, p.Path)
	}
	return b.Bytes()
}

// TestGolden parses every input and compares the result with its golden
// file; go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	for _, in := range goldenInputs(t) {
		name := strings.TrimSuffix(filepath.Base(in), ".txt")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			top, problems, err := Parse(bytes.NewReader(src))
			if err != nil {
				t.Fatalf("%s: %v", in, err)
			}
			for _, p := range problems {
				t.Errorf("%s: problem %v", in, p)
			}
			checkGolden(t, filepath.Join("testdata", "golden", name+".golden"), golden(top))
		})
	}
}

// checkGolden compares got with the golden file at path, or rewrites the file
// under -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if d := lineDiff(string(want), string(got)); d != "" {
		t.Errorf("output differs from %s (-want +got):\n%s", path, d)
	}
}

// lineDiff returns the lines where want and got differ, with line numbers, or
// "" if they are equal. It compares line by line, enough for golden files
// whose layout is fixed.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 20; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "%4d - %s\n%4d + %s\n", i+1, wl, i+1, gl)
			shown++
		}
	}
	if len(w) != len(g) {
		fmt.Fprintf(&b, "(want %d lines, got %d)\n", len(w), len(g))
	}
	return b.String()
}
