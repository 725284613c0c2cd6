package main

import (
	"os"
	"strings"
	"testing"
)

// TestTuneWithheldMisses: where most of the calibration points near a
// choice's size lie outside their intervals, tune withholds the choice and
// says so first, with the tables that would measure it. GKE's B200
// AllGather of 2 x 8 ran 549.9 us at 512 KiB, 998.2 at 1 MiB and 1753.7
// at 2 MiB (b200_2x8_allgather_gke_a4_dranet.log), beyond the intervals
// of the calibration on it, where it wrote AllReduce rules of Tree/LL over
// NCCL's NVLSTree/Simple. docs/tune.md quotes the line.
func TestTuneWithheldMisses(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("tune", "-calibrate", "../../data/nccltests/testdata/real/b200_2x8_allgather_gke_a4_dranet.log",
		"-comms", "2x8", "-size", "512KiB", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	said := "allreduce on 2 x 8, 218653 to 1037280 B: the model's Tree/LL, "
	miss := "is withheld: 3 of the 5 calibration points within two doublings of 512 KiB lie outside their 80% intervals"
	hint := "A table of allreduce on 2 x 8 run with NCCL_ALGO=Tree NCCL_PROTO=LL from 214 KiB to 1010 KiB, and one with neither set, each given to -calibrate (FILE:algo=Tree:proto=LL for the first)"
	// The line follows the calibration's notes, which name the table.
	_, line, _ := strings.Cut(stderr, "commlab tune: "+said)
	line, _, _ = strings.Cut(line, "\n")
	if !strings.Contains(line, miss) || !strings.Contains(line, hint) {
		t.Errorf("stderr:\n%s\nwant a line %q with %q and %q", stderr, said, miss, hint)
	}
	// docs/tune.md quotes the line, folded.
	doc, err := os.ReadFile("../../docs/tune.md")
	if err != nil {
		t.Fatal(err)
	}
	var quote []string
	for _, l := range strings.Split(string(doc), "\n") {
		if q, ok := strings.CutPrefix(l, "> "); ok && (len(quote) > 0 || strings.HasPrefix(q, "commlab tune: "+said)) {
			quote = append(quote, q)
		} else if len(quote) > 0 {
			break
		}
	}
	if got, want := strings.Join(quote, " "), "commlab tune: "+said+line; got != want {
		t.Errorf("docs/tune.md quotes\n%s\nwhere tune prints\n%s", got, want)
	}
	if !strings.Contains(out, "# No rule takes the model's choice") || !strings.Contains(out, "#   "+said[:len(said)-len("the model's Tree/LL, ")]+"Tree/LL, ") ||
		!strings.Contains(strings.ReplaceAll(out, "\n#   ", " "), "; 3 of the 5 calibration points within two doublings of 512 KiB lie outside their 80% intervals") {
		t.Errorf("the header does not list the choice as withheld, with why:\n%s", out)
	}
	if strings.Contains(out, "\nallreduce,218653,1037280,tree,ll,") {
		t.Errorf("a rule runs the withheld choice:\n%s", out)
	}
}
