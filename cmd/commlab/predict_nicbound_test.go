package main

import (
	"os"
	"strings"
	"testing"
)

// TestPredictNICCountOutOfRange: one OFI line of Perlmutter's 2 x 4 log
// damaged to "found 100000 nics" (the red team's k_dbg_nochan.log so
// edited) stopped predict with "a hardware fact out of range:
// Hardware.NICs 100000", exit 1, no FILE:LINE; the reader reports the
// line and leaves the count out, and predict goes on.
func TestPredictNICCountOutOfRange(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../data/nccltests/testdata/real/a100_2x4_allreduce_ncclinfo_perlmutter_ss11.log")
	if err != nil {
		t.Fatal(err)
	}
	path := writeTemp(t, "n100k.log", []byte(strings.ReplaceAll(string(b), "(found 8 nics)", "(found 100000 nics)")))
	code, stdout, stderr := runCLI("predict", "-calibrate", path, "-collective", "allreduce", "-nodes", "64", "-per-node", "4", "-size", "1MiB")
	if code != 0 || !strings.Contains(stderr, "n100k.log:89") || !strings.Contains(stderr, "the OFI plugin's NIC count 100000: want 1 to 65536") || strings.Contains(stderr, "Hardware.") {
		t.Errorf("exit %d, want 0 and the line named; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
