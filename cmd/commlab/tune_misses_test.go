package main

import (
	"os"
	"strings"
	"testing"
)

// TestTuneWithheldMisses: the NCCL INFO H800's Broadcast on 1 x 8
// (h800_1x8_broadcast_ncclinfo.log) runs flat at 43 us from 512 KiB to 4
// MiB, beyond the intervals of the calibration on it (4 of the 5 points
// near 512 KiB outside), where it once wrote Broadcast rules of Ring/LL over
// NCCL's Ring/Simple; its own Ring/LL rows carried on in a line
// (predict's beyondRan) leave no choice there now. tune writes NCCL's own
// at 512 KiB and its header says why no rule takes the model's choice, as
// docs/tune.md quotes it.
func TestTuneWithheldMisses(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("tune", "-calibrate", "../../data/nccltests/testdata/real/h800_1x8_broadcast_ncclinfo.log",
		"-comms", "1x8", "-collective", "broadcast", "-size", "512KiB", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header := strings.ReplaceAll(out, "\n#   ", " ")
	_, said, _ := strings.Cut(header, "# No rule takes the model's choice: ")
	said, _, _ = strings.Cut(said, "\n")
	if said == "" || !strings.Contains(said, "with most of the tables' points near that size inside their intervals") {
		t.Errorf("the header does not say why no rule takes the model's choice:\n%s", out)
	}
	// docs/tune.md quotes the line, folded.
	doc, err := os.ReadFile("../../docs/tune.md")
	if err != nil {
		t.Fatal(err)
	}
	var quote []string
	for _, l := range strings.Split(string(doc), "\n") {
		if q, ok := strings.CutPrefix(l, "> "); ok && (len(quote) > 0 || strings.HasPrefix(q, "No rule takes the model's choice: ")) {
			quote = append(quote, q)
		} else if len(quote) > 0 {
			break
		}
	}
	if got, want := strings.Join(quote, " "), "No rule takes the model's choice: "+said; got != want {
		t.Errorf("docs/tune.md quotes\n%s\nwhere tune writes\n%s", got, want)
	}
	if !strings.Contains(out, "\nbroadcast,368001,18446744073709551615,ring,simple,") || strings.Contains(out, ",ring,ll,0,1,8,-1,-1\nbroadcast,") && strings.Contains(out, "broadcast,426778,") {
		t.Errorf("the rule at 512 KiB is not NCCL's own Ring/Simple:\n%s", out)
	}
}

// TestTuneFloorSaid: Together's AllGather rule at 32 MiB is decided on the
// line its Ring/LL128 rows of 8 and 16 MiB give (predict's beyondRan), not
// on the model's LL128 efficiency: the header gives the times it was
// decided on and says so (a review: it gave the model's 1.10x alone).
func TestTuneFloorSaid(t *testing.T) {
	t.Parallel()
	cal := togetherDir + "all_reduce_ring.log:algo=ring," + togetherDir + "all_reduce_nvls.log," + togetherDir + "all_gather_ring.log:algo=ring," +
		togetherDir + "all_gather_nvls.log," + togetherDir + "reduce_scatter_ring.log:algo=ring," + togetherDir + "reduce_scatter_nvls.log"
	code, out, stderr := runCLI("tune", "-calibrate", cal, "-comms", "1x8", "-collective", "allgather", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	header := strings.ReplaceAll(out, "\n#   ", " ")
	const want = "(Ring/LL128 no faster than the tables ran it, their times carried on in a line beyond the largest size they ran it at, NCCL's Simple 1.03x), 112 µs ["
	if !strings.Contains(header, "allgather on 1 x 8, ") || !strings.Contains(header, want) {
		t.Errorf("header:\n%s\nwant %q", out, want)
	}
}
