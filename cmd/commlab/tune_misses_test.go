package main

import (
	"os"
	"strings"
	"testing"
)

// TestTuneWithheldMisses: where most of the calibration points near a
// choice's size lie outside their intervals, tune withholds the choice and
// says so first, with the tables that would measure it. The NCCL INFO
// H800's Broadcast on 1 x 8 (h800_1x8_broadcast_ncclinfo.log) runs flat
// at 43 us from 512 KiB to 4 MiB, beyond the intervals of the calibration
// on it, where it would write Broadcast rules of Ring/LL over NCCL's
// Ring/Simple. docs/tune.md quotes the line.
func TestTuneWithheldMisses(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("tune", "-calibrate", "../../data/nccltests/testdata/real/h800_1x8_broadcast_ncclinfo.log",
		"-comms", "1x8", "-collective", "broadcast", "-size", "512KiB", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	said := "broadcast on 1 x 8, 426778 to 554962 B: the model's Ring/LL, "
	miss := "is withheld: 4 of the 5 calibration points within two doublings of 512 KiB lie outside their 80% intervals"
	hint := "A table of broadcast on 1 x 8 run with NCCL_ALGO=Ring NCCL_PROTO=LL from 417 KiB to 542 KiB, and one with neither set, each given to -calibrate (FILE:algo=Ring:proto=LL for the first)"
	// The line follows the calibration's notes.
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
	if !strings.Contains(out, "# No rule takes the model's choice") || !strings.Contains(out, "#   "+said[:len(said)-len("the model's Ring/LL, ")]+"Ring/LL, ") ||
		!strings.Contains(strings.ReplaceAll(out, "\n#   ", " "), "; 4 of the 5 calibration points within two doublings of 512 KiB lie outside their 80% intervals") {
		t.Errorf("the header does not list the choice as withheld, with why:\n%s", out)
	}
	if strings.Contains(out, "\nbroadcast,426778,554962,ring,ll,") {
		t.Errorf("a rule runs the withheld choice:\n%s", out)
	}
}
