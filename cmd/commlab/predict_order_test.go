package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPredictNotesAfter: on a terminal, where standard output and standard
// error meet, predict's first lines are the input's notes and the
// prediction's guesses with the flags that settle them; the calibration's
// own notes (the parameters it does not identify) follow the prediction's
// table, not precede it (Polaris' one-node table predicting 2 nodes).
func TestPredictNotesAfter(t *testing.T) {
	t.Parallel()
	var both bytes.Buffer
	err := runPredict([]string{"-calibrate", "../../data/nccltests/testdata/real/a100_1x4_allreduce_polaris_ss11.log", "-gpu", "NVIDIA A100-SXM4-40GB",
		"-nodes", "2", "-per-node", "4", "-collective", "allreduce", "-size", "1MiB,256MiB"}, &both, &both)
	out := both.String()
	input, guess := strings.Index(out, "node count unknown"), strings.Index(out, "guess: nics_per_node")
	table, note := strings.Index(out, "  256 MiB "), strings.Index(out, "these tables do not identify")
	if err != nil || input < 0 || guess < 0 || table < 0 || note < 0 || !(input < guess && guess < table && table < note) {
		t.Errorf("%v; want the input's note, then the guesses, then the table, then the calibration's notes:\n%s", err, out)
	}
}
