package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFitListUnknownCounts: fit -list printed 0 ranks and 0 nodes where
// the log does not say them (67 of the public logs' 247 tables, among
// them GB300's tables of 8 to 128 ranks, whose Rank lines are elided), as
// if the run had no nodes; it prints "?", as fit's header prints "p = ?".
func TestFitListUnknownCounts(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI("fit", "-list", "../../data/nccltests/testdata/real/gb300_1to32nodes_elided_rank_lines.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	for i, want := range map[int][]string{1: {"0", "9", "allreduce", "4", "1"}, 2: {"1", "30", "allreduce", "8", "?"}} {
		if got := strings.Fields(lines[i]); len(got) < 5 || strings.Join(got[:5], " ") != strings.Join(want, " ") {
			t.Errorf("line %d: %q, want it to start %q", i, lines[i], want)
		}
	}
	code, stdout, stderr = runCLI("fit", "-list", "../../data/nccltests/testdata/real/a100_2x1_allreduce_smallsizes_nccltests150.log")
	if got := strings.Fields(strings.Split(stdout, "\n")[1]); code != 0 || len(got) < 6 || strings.Join(got[3:6], " ") != "? ? ?" {
		t.Errorf("a log of no header and no Rank lines: exit %d, ranks, nodes and GPU %q, want ? ? ?; stderr:\n%s", code, got, stderr)
	}
}

// TestFitTooFewRowsNamesLine: a table too short to fit was named
// "FILE: test 0: test 0 has 1 rows ...", without the line of the table
// the other warnings give; it is FILE:LINE of the test's header.
func TestFitTooFewRowsNamesLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ args, want string }{
		{"../../data/nccltests/testdata/real/a100_1x8_allreduce_oci_gpu48_ubuntu.log", "a100_1x8_allreduce_oci_gpu48_ubuntu.log:9: test 0: 1 row with an out-of-place time"},
		{"../../data/nccltests/testdata/real/gb300_1to32nodes_elided_rank_lines.log -test 3", "gb300_1to32nodes_elided_rank_lines.log:74: test 3: 2 rows with"},
		{"../../data/nccltests/testdata/real/a100_8x8_alltoall_msccl48.log", "a100_8x8_alltoall_msccl48.log:"},
	} {
		code, _, stderr := runCLI(append([]string{"fit"}, strings.Fields(c.args)...)...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("fit %s: exit %d, want 1 and %q; stderr:\n%s", c.args, code, c.want, stderr)
		}
	}
}

// TestFitListUnknownJSON: a count or GPU the log does not give is null in
// -list's JSON ("nodes": 0 read as a count, as the text's "?" does not) and
// an empty cell in its CSV: rccl-tests' CSV names neither the hosts nor
// the GPU.
func TestFitListUnknownJSON(t *testing.T) {
	t.Parallel()
	const csv = "../../data/nccltests/testdata/csv/mi355x_2x8_allreduce_mpi.csv"
	code, stdout, stderr := runCLI("fit", "-list", "-json", csv)
	var list struct {
		Tests []map[string]any `json:"tests"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &list) != nil || len(list.Tests) != 1 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	got := list.Tests[0]
	if got["ranks"] != float64(16) || got["nodes"] != nil || got["system"] != nil {
		t.Errorf("ranks %v, nodes %v, system %v; want 16 (its rank columns), null, null", got["ranks"], got["nodes"], got["system"])
	}
	code, stdout, _ = runCLI("fit", "-list", "-format", "csv", csv)
	if rows := strings.Split(strings.TrimSpace(stdout), "\n"); code != 0 || len(rows) != 2 || !strings.Contains(rows[1], ",16,,,2,") {
		t.Errorf("CSV: exit %d, %q; want ranks 16 and empty nodes and GPU cells", code, stdout)
	}
}
