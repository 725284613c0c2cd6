package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
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

// TestFitListCommNodes: Perlmutter's 2 x 4 AllReduce with its Rank lines
// cut keeps NCCL's comm lines, "nRanks 8 nNodes 2 localRanks 4 localRank 0
// MNNVL 0" (the red team's k_norank.log is Kestrel's 16 x 4 so): fit -list
// printed nodes "?" while predict takes 2 from them (predict.LogNodes); it
// prints 2, in JSON too. Under MNNVL nNodes counts NVLink domains, which
// neither takes as nodes.
func TestFitListCommNodes(t *testing.T) {
	t.Parallel()
	const src = "../../data/nccltests/testdata/real/a100_2x4_allreduce_ncclinfo_perlmutter_ss11.log"
	norank := withoutLines(t, src, "norank.log", isRankLine)
	b, err := os.ReadFile(norank)
	if err != nil {
		t.Fatal(err)
	}
	mnnvl := writeTemp(t, "mnnvl.log", []byte(strings.ReplaceAll(string(b), "MNNVL 0", "MNNVL 1")))
	tabs, _, err := predict.ReadFile(norank, nil)
	if err != nil || len(tabs) != 1 || tabs[0].Nodes != 2 {
		t.Fatalf("predict: %d tables, %v; want one of 2 nodes", len(tabs), err)
	}
	for _, c := range []struct {
		path  string
		nodes any
	}{{norank, float64(2)}, {mnnvl, nil}} {
		code, stdout, stderr := runCLI("fit", "-list", "-json", c.path)
		var list struct {
			Tests []map[string]any `json:"tests"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &list) != nil || len(list.Tests) != 1 {
			t.Fatalf("%s: exit %d: %s %s", c.path, code, stdout, stderr)
		}
		if got := list.Tests[0]["nodes"]; got != c.nodes {
			t.Errorf("%s: nodes %v, want %v", c.path, got, c.nodes)
		}
	}
	code, stdout, _ := runCLI("fit", "-list", norank)
	if got := strings.Fields(strings.Split(stdout, "\n")[1]); code != 0 || len(got) < 5 || got[4] != "2" {
		t.Errorf("text: exit %d, %q; want nodes 2", code, stdout)
	}
}

// TestCSVThreadsWarningSettled: the reader's warning that a CSV's process
// of 8 GPUs is taken as one thread goes where FILE:threads=T splits it, on
// the command line as in predict.ReadFile (a review found the command kept
// it, beside a layout line of 8 threads of 1 GPU).
func TestCSVThreadsWarningSettled(t *testing.T) {
	t.Parallel()
	const csv = "../../data/nccltests/testdata/csv/mi350x_1x8_g8_allreduce_single.csv"
	for _, c := range []struct {
		keys   string
		warned bool
	}{{"", true}, {":threads=8", false}, {":g=1", false}} {
		code, _, stderr := runCLI("predict", "-calibrate", csv+c.keys, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB")
		if code != 0 || strings.Contains(stderr, "taken as one thread of 8 GPUs") != c.warned {
			t.Errorf("%q: exit %d, want the one-thread warning %v:\n%s", c.keys, code, c.warned, stderr)
		}
	}
	// fit and compare read no layout and take no keys to settle it: the
	// warning, whose threads=T they would refuse, is not theirs.
	for _, args := range [][]string{{"fit", "-list", csv}, {"compare", csv, csv}} {
		if code, _, stderr := runCLI(args...); code != 0 || strings.Contains(stderr, "one thread") || strings.Contains(stderr, "threads unknown") {
			t.Errorf("%v: exit %d, the one-thread warning:\n%s", args, code, stderr)
		}
	}
}

// TestFitProblemsWhere: under -json, fit -list puts the reader's warnings in
// the object's problems and writes nothing to standard error, as docs/cli.md
// says of every command (a red team: they went to standard error, the JSON
// had no problems); and fit -test all gives every test's fit the file's
// warnings (the reader's lines are not all one test's: a command line
// before a header, a tidy CSV's interleaved rows: a review) and writes them
// once on standard error (a red team: the 2019 DGX-2 log's out-of-bounds
// trailer, line 61, five times).
func TestFitProblemsWhere(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runCLI("fit", "-list", "-json", "../../data/logs/h20-3e_2x2_alltoall_nccltests321.log")
	var list struct {
		Problems []problem `json:"problems"`
	}
	if err := json.Unmarshal([]byte(stdout), &list); code != 0 || err != nil || stderr != "" || len(list.Problems) != 1 || list.Problems[0].Line != 27 {
		t.Errorf("fit -list -json: exit %d, %v, problems %+v, stderr %q; want 0, the line-27 warning in problems and nothing on stderr", code, err, list.Problems, stderr)
	}
	code, stdout, stderr = runCLI("fit", "../../data/logs/paired/v100-sxm3-dgx2/five_tests_2019.log", "-test", "all", "-json")
	var fits struct {
		Fits []struct {
			Problems []problem `json:"problems"`
		} `json:"fits"`
	}
	if err := json.Unmarshal([]byte(stdout), &fits); code != 0 || err != nil || len(fits.Fits) != 5 {
		t.Fatalf("fit -test all -json: exit %d, %v, %d fits: %s", code, err, len(fits.Fits), stderr)
	}
	for i, f := range fits.Fits {
		if !slices.ContainsFunc(f.Problems, func(p problem) bool { return p.Line == 61 }) {
			t.Errorf("test %d: the file's line-61 warning is not among its problems: %+v", i, f.Problems)
		}
	}
	code, _, stderr = runCLI("fit", "../../data/logs/paired/v100-sxm3-dgx2/five_tests_2019.log", "-test", "all")
	if n := strings.Count(stderr, "five_tests_2019.log:61: "); code != 0 || n != 1 {
		t.Errorf("fit -test all: exit %d, the line-61 warning %d times on stderr, want once:\n%s", code, n, stderr)
	}
}
