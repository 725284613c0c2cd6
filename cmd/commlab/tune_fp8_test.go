package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/words"
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
	want := "allreduce on nNodes 2, nRanks 16 (" + words.Count(len(reached), "rule", "rules")
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
	path := tuneTo(t, "-calibrate", log, "-comms", "16x1,2x8")
	code, out, stderr := runCLI("tune", "-check", path, "-calibrate", log, "-comms", "2x8")
	if code != 0 || !strings.Contains(out, "allreduce on nNodes 2, nRanks 16") || strings.Contains(out, "nNodes 16") {
		t.Errorf("-check for 2 x 8: exit %d, want 2 x 8's FP8 rules alone:\n%s%s", code, out, stderr)
	}
}

// TestTuneCheckRelease: -check rebuilds NCCL's own choices at the
// release a file's header names and fails only where they differ from
// the tables' release's for the communicators checked (red team 47,
// finding 4; 47b, finding 2). Voltagepark's table taken as 2.26.2's and
// as 2.26.6's writes the same rules (compared here), so a 2.26.2 file
// checked against 2.26.6 passes with a note; taken as 2.24.3's and as
// 2.28.3's it writes other rules (compared here), and the 2.24.3 file
// checked against 2.28.3 fails naming both releases; against 2.24.3's it
// says nothing of releases.
func TestTuneCheckRelease(t *testing.T) {
	t.Parallel()
	log := realLog("h100_1x8_g8_allreduce_voltagepark.log")
	dir := t.TempDir()
	write := func(v string) (path string, rules []nccl.TunerRule) {
		path = filepath.Join(dir, v+".conf")
		code, _, stderr := runCLI("tune", "-calibrate", log+":version="+v, "-nodes", "1,2", "-per-node", "8", "-o", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", v, code, stderr)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return path, readRules(t, string(b))
	}
	p262, r262 := write("2.26.2")
	_, r266 := write("2.26.6")
	p243, r243 := write("2.24.3")
	_, r283 := write("2.28.3")
	if !slices.Equal(r262, r266) || slices.Equal(r243, r283) {
		t.Fatalf("2.26.2's and 2.26.6's rules alike %v, 2.24.3's and 2.28.3's %v: the test needs true, false", slices.Equal(r262, r266), slices.Equal(r243, r283))
	}
	code, out, stderr := runCLI("tune", "-check", p262, "-calibrate", log+":version=2.26.6", "-nodes", "1,2", "-per-node", "8")
	if code != 0 || !strings.Contains(out, "the rules keep NCCL 2.26.2's own choices (its header), and the tables given ran NCCL 2.26.6: the two releases choose alike") {
		t.Errorf("2.26.2's file on 2.26.6: exit %d, want 0 and a note:\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI("tune", "-check", p243, "-calibrate", log+":version=2.28.3", "-nodes", "1,2", "-per-node", "8")
	if code != 1 || !strings.Contains(out, "the rules keep NCCL 2.24.3's own choices (its header), and the tables given ran NCCL 2.28.3, which chooses otherwise for these communicators") ||
		!strings.Contains(stderr, "written for NCCL 2.24.3's own choices, which NCCL 2.28.3's differ from") {
		t.Errorf("2.24.3's file on 2.28.3: exit %d, want 1 and both releases named:\n%s%s", code, out, stderr)
	}
	if code, out, stderr := runCLI("tune", "-check", p243, "-calibrate", log+":version=2.24.3", "-nodes", "1,2", "-per-node", "8"); code != 0 || strings.Contains(out, "its header") {
		t.Errorf("the file's own release: exit %d:\n%s%s", code, out, stderr)
	}
	// A header edited to name no NCCL release, or one the model does not
	// follow: said, not skipped, and not reported as that release's
	// choices (red team C: 3.0.0 gave no line; 2.0.0 and 2.99.99 were
	// read as 2.18.0's and 2.30.7's without a word).
	b, err := os.ReadFile(p243)
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]string{
		"3.0.0":   "the header names NCCL 3.0.0's tuning model, which is no NCCL release: the rules' release is not checked",
		"2.99.99": "(the model follows no NCCL 2.99.99, and takes the header's release as NCCL " + nccl.Latest.String() + "'s, the nearest it follows)",
	} {
		edited := filepath.Join(dir, "edited-"+v+".conf")
		if err := os.WriteFile(edited, []byte(strings.Replace(string(b), "(NCCL 2.24.3's tuning model)", "(NCCL "+v+"'s tuning model)", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, out, stderr := runCLI("tune", "-check", edited, "-calibrate", log+":version=2.28.3", "-nodes", "1,2", "-per-node", "8")
		if !strings.Contains(out, want) {
			t.Errorf("header of %s: want %q:\n%s%s", v, want, out, stderr)
		}
	}
	// 2.28.3's file against 2.26.6: AllReduce leaves Ring/LL for NVLS at
	// 1144836 B in one and 1154555 B in the other (review 47d), where the
	// two choices tie by NCCL's model: a note within 10%, not a failure.
	p283 := filepath.Join(dir, "2.28.3.conf")
	code, out, stderr = runCLI("tune", "-check", p283, "-calibrate", log+":version=2.26.6", "-nodes", "1,2", "-per-node", "8")
	if code != 0 || !strings.Contains(out, "which chooses otherwise at some sizes, at worst 1.00x its own choice's time by NCCL's model") {
		t.Errorf("2.28.3's file on 2.26.6: exit %d, want 0 and a note within 10%%:\n%s%s", code, out, stderr)
	}
}

// TestTuneHeaderLoads: the header says which example plugin each release
// loads (src/plugin/tuner/ per tag: tuner API v4 from 2.24.3, v5 from
// 2.28.3, v6 from 2.30.3; the example reads the file from 2.27.5 and
// exports v4 to 2.27.7, v5 from 2.28.3, v6 and v5 from 2.30.3), not that
// 2.27 and earlier never read the file (red team 47b, finding 4), and that
// under the CTA policy calls run as the rules say, NVLS only where one
// names it.
func TestTuneHeaderLoads(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("tune", "-calibrate", realLog("h100_1x8_g8_allreduce_voltagepark.log"), "-nodes", "1,2", "-per-node", "8", "-o", "-")
	header := strings.ReplaceAll(out, "\n#   ", " ") // foldComment breaks at a space
	for _, want := range []string{
		"which NCCL 2.28 and later load). NCCL 2.24 to 2.27 load tuner API v4 and older: of the examples that read this file, only that of NCCL 2.27.5 to 2.27.7 (ext-tuner/example, API v4, patched as below) loads there; NCCL 2.23 and earlier load none that reads it.",
		"runs AllGather and ReduceScatter on registered buffers as these rules say (on NVLS/Simple only where a rule names it)",
	} {
		if code != 0 || !strings.Contains(header, want) || strings.Contains(header, "never read this file") {
			t.Errorf("exit %d: header lacks %q:\n%s%s", code, want, out, stderr)
		}
	}
	// The tables ran 2.24.3 (nccl-library=22403), which loads API v4.
	if want := "(NCCL 2.24.3 loads only the example of NCCL 2.27.5 to 2.27.7, tuner API v4, patched as the header says)"; !strings.Contains(stderr, want) {
		t.Errorf("standard error lacks %q:\n%s", want, stderr)
	}
}
