package main

import (
	"os"
	"strings"
	"testing"
)

// TestDocsQuotePredictNotes: docs/predict.md quotes, in a block of its own,
// the standard error of its first example (README.md's), and says what
// each note means; TestDocs compares standard output only.
func TestDocsQuotePredictNotes(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/predict.md")
	if err != nil {
		t.Fatal(err)
	}
	const d = "../../data/logs/paired/h100-sxm-10node-cluster01/"
	code, _, stderr := runCLI("predict", "-calibrate",
		d+"nccl_N10_G1.log,"+d+"nccl_N10_G2.log,"+d+"nccl_N10_G4.log,"+d+"nccl_N1_G8_cnode3-002.log",
		"-collective", "allreduce", "-p", "80", "-per-node", "8", "-size", "64MiB,1GiB")
	stderr = strings.ReplaceAll(stderr, "../../data/", "data/")
	if code != 0 || stderr == "" || !strings.Contains(string(doc), "```\n"+stderr+"```\n") {
		t.Errorf("docs/predict.md does not quote the first example's standard error (exit %d) in a block of its own:\n%s", code, stderr)
	}
}
