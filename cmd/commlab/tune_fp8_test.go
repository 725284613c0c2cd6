package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestTuneFP8: NCCL runs an FP8 AllReduce on more than 8 ranks on Tree,
// relegating Ring 1024 times (src/enqueue.cc, 2.24.3 to 2.30.7), and the
// example plugin, not told the datatype, runs the rule's Ring (red team
// 47, finding 2). The file written from voltagepark's 1 x 8 table
// (NCCL 2.24.3, nccl-library=22403) for -nodes 1,2 says so in its header
// and on standard error, naming the 2 x 8 AllReduce's Ring rules (16
// ranks) and none of 1 x 8's (8 ranks keep Ring's cost); -check prints
// the same line. The count is the file's own Ring rules on 2 x 8.
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
	rules := readRules(t, string(b))
	ring := 0
	for _, r := range rules {
		if r.Func == nccl.FuncAllReduce && r.Algo == nccl.AlgoRing && r.Ranks == 16 {
			ring++
		}
	}
	if ring == 0 {
		t.Fatal("no Ring rule for AllReduce on 2 x 8: the test needs one")
	}
	want := "allreduce on nNodes 2, nRanks 16 (" + plural(ring, "rule", "rules")
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
