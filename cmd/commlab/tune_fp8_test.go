package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestTuneFP8: NCCL runs an FP8 AllReduce on more than 8 ranks on Tree,
// relegating Ring 1024 times (src/enqueue.cc, 2.24.3 to 2.30.7), and the
// example plugin, not told the datatype, runs the first rule it reaches
// whose entry NCCL's cost table holds (red team 47, finding 2). The file
// written from voltagepark's 1 x 8 table (NCCL 2.24.3,
// nccl-library=22403) for -nodes 1,2 says so in its header and on
// standard error, naming the 2 x 8 AllReduce's Ring rules an FP8 call
// reaches, passing over NVLSTree (no 8-bit type, ncclNvlsSupported) and
// never reaching a Ring rule after a Tree rule of its sizes, and none of
// 1 x 8's (8 ranks keep Ring's cost); -check prints the same line. The
// count is the file's own, walked here at each rule's first and last size.
// Where the job's NCCL_ALGO leaves AllReduce Ring alone (-algo ring,
// ^tree), an FP8 call has nothing else and no line is written.
func TestTuneFP8(t *testing.T) {
	t.Parallel()
	log := realLog("h100_1x8_g8_allreduce_voltagepark.log")
	path := filepath.Join(t.TempDir(), "rules.conf")
	code, _, stderr := runCLI("tune", "-calibrate", log, "-nodes", "1,2", "-per-node", "8", "-o", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var mine []nccl.TunerRule // 2 x 8's AllReduce rules, in order
	for _, r := range readRules(t, string(b)) {
		if r.Func == nccl.FuncAllReduce && r.Nodes == 2 && r.Ranks == 16 {
			mine = append(mine, r)
		}
	}
	reached := map[int]bool{}
	for _, r := range mine {
		for _, n := range []uint64{r.MinBytes, r.MaxBytes} {
			k := slices.IndexFunc(mine, func(o nccl.TunerRule) bool {
				return o.MinBytes <= n && n <= o.MaxBytes && o.Algo != nccl.AlgoNVLS && o.Algo != nccl.AlgoNVLSTree
			})
			if k >= 0 && mine[k].Algo == nccl.AlgoRing {
				reached[k] = true
			}
		}
	}
	rings := 0
	for _, r := range mine {
		if r.Algo == nccl.AlgoRing {
			rings++
		}
	}
	if len(reached) == 0 || len(reached) == rings {
		t.Fatalf("%d of 2 x 8's %d Ring rules reached: the test needs some, and some not", len(reached), rings)
	}
	want := "allreduce on nNodes 2, nRanks 16 (" + plural(len(reached), "rule", "rules")
	header := strings.ReplaceAll(string(b), "\n#   ", "")
	if !strings.Contains(header, "# FP8: ") || !strings.Contains(header, want) || strings.Contains(header, "nRanks 8 (") {
		t.Errorf("header lacks %q, or names 1 x 8:\n%s", want, b)
	}
	if !strings.Contains(stderr, "commlab tune: FP8: ") || !strings.Contains(stderr, want) {
		t.Errorf("standard error lacks %q:\n%s", want, stderr)
	}
	code, out, stderr := runCLI("tune", "-check", path, "-calibrate", log, "-nodes", "1,2", "-per-node", "8")
	if code != 0 || !strings.Contains(out, path+": FP8: ") || !strings.Contains(out, want) {
		t.Errorf("-check: exit %d, want the FP8 line naming %q:\n%s%s", code, want, out, stderr)
	}
	// A 1 x 8 job alone draws no line: its rules keep Ring's cost.
	if code, out, _ := runCLI("tune", "-check", path, "-calibrate", log, "-nodes", "1", "-per-node", "8"); strings.Contains(out, ": FP8: ") {
		t.Errorf("-check for 1 x 8: exit %d, an FP8 line:\n%s", code, out)
	}
	for _, algo := range []string{"ring", "^tree"} {
		if code, _, stderr := runCLI("tune", "-calibrate", log, "-nodes", "1,2", "-per-node", "8", "-algo", algo, "-o", "-"); code != 0 || strings.Contains(stderr, "FP8") {
			t.Errorf("-algo %s: exit %d, an FP8 line:\n%s", algo, code, stderr)
		}
		if code, out, _ := runCLI("tune", "-check", path, "-calibrate", log, "-nodes", "1,2", "-per-node", "8", "-algo", algo); strings.Contains(out, ": FP8: ") {
			t.Errorf("-check -algo %s: exit %d, an FP8 line:\n%s", algo, code, out)
		}
	}
}

// TestTuneFP8Nodes: -check names only the rules of the job's
// communicators by nNodes as well as nRanks, as the plugin matches them:
// a file for 16 x 1 and 2 x 8 (16 ranks each) checked for 2 x 8 names no
// rule of nNodes 16 (red team 47b, finding 6).
func TestTuneFP8Nodes(t *testing.T) {
	t.Parallel()
	log := realLog("h100_1x8_g8_allreduce_voltagepark.log")
	path := filepath.Join(t.TempDir(), "rules.conf")
	if code, _, stderr := runCLI("tune", "-calibrate", log, "-comms", "16x1,2x8", "-o", path); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, out, stderr := runCLI("tune", "-check", path, "-calibrate", log, "-comms", "2x8")
	if code != 0 || !strings.Contains(out, "allreduce on nNodes 2, nRanks 16") || strings.Contains(out, "nNodes 16") {
		t.Errorf("-check for 2 x 8: exit %d, want 2 x 8's FP8 rules alone:\n%s%s", code, out, stderr)
	}
}

// TestTuneCheckRelease: a file whose header keeps NCCL 2.24.3's choices,
// checked against the same table taken as NCCL 2.28.3's, fails and says
// which releases (red team 47, finding 4: 2.29.2's rules against
// 2.28.3's tables passed, though 2.28.3 runs 16 x 8 AllReduce of 289150
// to 3274613 B on NVLSTree where the file pins Tree); against 2.24.3's
// it passes.
func TestTuneCheckRelease(t *testing.T) {
	t.Parallel()
	log := realLog("h100_1x8_g8_allreduce_voltagepark.log")
	path := filepath.Join(t.TempDir(), "rules.conf")
	if code, _, stderr := runCLI("tune", "-calibrate", log, "-nodes", "1,2", "-per-node", "8", "-o", path); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, out, stderr := runCLI("tune", "-check", path, "-calibrate", log+":version=2.28.3", "-nodes", "1,2", "-per-node", "8")
	if code != 1 || !strings.Contains(out, "the rules keep NCCL 2.24.3's own choices (its header), and the tables given ran NCCL 2.28.3") ||
		!strings.Contains(stderr, "written for NCCL 2.24.3, checked against NCCL 2.28.3's tables") {
		t.Errorf("exit %d, want 1 and both releases named:\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCLI("tune", "-check", path, "-calibrate", log, "-nodes", "1,2", "-per-node", "8"); code != 0 || strings.Contains(out, "its header") {
		t.Errorf("the file's own release: exit %d:\n%s%s", code, out, stderr)
	}
}
