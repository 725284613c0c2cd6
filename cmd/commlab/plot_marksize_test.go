package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlotCrossoverExactSize: the DGX-2's 12-rank AllGather (test 0 of
// data/logs/paired/v100-sxm3-dgx2/five_tests_2019.log) measures 2097120 B
// and 16777200 B, 2 and 16 MiB rounded down to whole elements a rank; the
// model's crossovers there were labelled "2 MiB" and "16 MiB", sizes the log
// did not run. They print as the log does; a power of two keeps its short
// form (the H100 node's 2 MiB).
func TestPlotCrossoverExactSize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "dgx2.svg")
	code, text, stderr := runCLI("plot", "../../data/logs/paired/v100-sxm3-dgx2/five_tests_2019.log", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"  2097120 B: Ring/LL to Ring/LL128\n", "  16777200 B: Ring/LL128 to Ring/Simple\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("text:\n%s\nwant %q", text, want)
		}
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "2097120 B: Ring/LL to Ring/LL128") || strings.Contains(string(svg), "2 MiB:") {
		t.Errorf("the figure's label is not 2097120 B's")
	}

	code, text, stderr = runCLI("plot", "../../data/logs/paired/h100-sxm-1x8-together/all_reduce_ring.log", "-o", filepath.Join(dir, "h100.svg"))
	if code != 0 || !strings.Contains(text, "  2 MiB: Ring/LL to NVLS/Simple\n") {
		t.Errorf("exit %d, text:\n%s%s\nwant the 2 MiB crossover so named", code, text, stderr)
	}

	for b, want := range map[float64]string{2097152: "2 MiB", 2097120: "2097120 B", 1536: "1.5 KiB", 12: "12 B", 6144e6: "6144000000 B", 2.5e5 + 0.5: "244 KiB"} {
		if got := measuredSize(b); got != want {
			t.Errorf("measuredSize(%v) = %q, want %q", b, got, want)
		}
	}
}

// TestPlotNamesTests: a figure of several tests of one log names each by
// its test, the log given without one too (LOG beside LOG:test=3 plots
// test 0 and 3, "a#0" and "a#3"), and logs of one base name by their
// paths, their tests kept.
func TestPlotNamesTests(t *testing.T) {
	f := func(path string, tests ...int) calibrationFile { return calibrationFile{path: path, tests: tests} }
	for _, c := range []struct {
		logs  []calibrationFile
		tests []int // plotted
		want  []string
	}{
		{[]calibrationFile{f("d/a.log", 0), f("d/a.log", 3)}, []int{0, 3}, []string{"a#0", "a#3"}},
		{[]calibrationFile{f("d/a.log"), f("d/a.log", 3)}, []int{0, 3}, []string{"a#0", "a#3"}},
		{[]calibrationFile{f("d/a.log", 0), f("d/b.log", 3)}, []int{0, 3}, []string{"a", "b"}},
		{[]calibrationFile{f("d/a.log", 1), f("e/a.log", 1)}, []int{1, 1}, []string{"d/a.log", "e/a.log"}},
		{[]calibrationFile{f("d/a.log", 0), f("d/a.log", 3), f("e/a.log")}, []int{0, 3, 0}, []string{"d/a.log#0", "d/a.log#3", "e/a.log"}},
		{[]calibrationFile{f("d/a.log"), f("d/a.csv")}, []int{0, 0}, []string{"d/a.log", "d/a.csv"}},
	} {
		if got := plotNames(c.logs, c.tests); !slices.Equal(got, c.want) {
			t.Errorf("plotNames(%v, %v) = %q, want %q", c.logs, c.tests, got, c.want)
		}
	}
}
