package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagnoseRunFailed: a run that failed says so first on standard
// output and in the JSON's run_failed, and diagnose exits 1 after its
// report (a red team: a run with wrong results, or one that hung, got a
// clean report and exit 0). Olivia's 4 x 4 GH200 AllReduce returned wrong
// results in 6 rows (its #wrong column, lines 55 to 60); OCI's 2 x 8 A100
// AllReduce cut at 128 MiB, below its maxBytes of 8 GiB and with no
// trailer, is a run that stopped;
// Rashid's A40 log says it was abridged, which is no failed run.
func TestDiagnoseRunFailed(t *testing.T) {
	t.Parallel()
	olivia := realLog("gh200_4x4_allreduce_wrong_rows_olivia.log")
	b, err := os.ReadFile(realLog("a100_2x8_allreduce_oci_oke.log"))
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.SplitAfter(string(b), "\n")
	var kept []string
	for _, l := range cut {
		kept = append(kept, l)
		if f := strings.Fields(l); len(f) > 0 && f[0] == "134217728" {
			break
		}
	}
	hang := filepath.Join(t.TempDir(), "hang.log")
	if err := os.WriteFile(hang, []byte(strings.Join(kept, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		log, says string
		code      int
	}{
		{olivia, "the run returned wrong results", 1},
		{hang, "the run stopped there (a hang or a crash)", 1},
		{realLog("a40_2x1_sendrecv_nccltests214.log"), "", 0},
	} {
		code, out, stderr := runCLI("diagnose", c.log)
		failed := strings.Contains(out, "run failed: ")
		if code != c.code || failed != (c.says != "") || c.says != "" && !strings.Contains(out, c.says) {
			t.Errorf("%s: exit %d, a run failed line %v; want %d and %q\nstdout:\n%s\nstderr:\n%s", c.log, code, failed, c.code, c.says, out, stderr)
		}
		if c.code == 0 {
			continue
		}
		code, out, _ = runCLI("diagnose", c.log, "-format", "json")
		var got struct {
			RunFailed []problem `json:"run_failed"`
		}
		if err := json.Unmarshal([]byte(out), &got); code != 1 || err != nil || len(got.RunFailed) == 0 || !strings.Contains(got.RunFailed[0].Message, c.says) {
			t.Errorf("%s -format json: exit %d, run_failed %+v (%v); want 1 and the problems", c.log, code, got.RunFailed, err)
		}
	}
}
