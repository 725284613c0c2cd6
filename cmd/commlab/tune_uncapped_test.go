package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneUncappedChannels: on a SHARP cluster (-hw collnet=true) tune's
// CollNet rules, whose channels NCCL runs as a rule names them
// (nccl.Model.Uncapped), name 0, NCCL's own count (nccl.NCCLChannels), as
// every rule does: the file passes its check on the machine described and
// on one of a NIC a node, which sets up fewer channels (a count of the
// model's own would run there on channels never connected).
func TestTuneUncappedChannels(t *testing.T) {
	t.Parallel()
	log := "../../data/logs/paired/h100-sxm-ib8xndr/allreduce_issue290.log"
	file := filepath.Join(t.TempDir(), "sharp.conf")
	if code, out, stderr := runCLI("tune", "-calibrate", log, "-hw", "collnet=true", "-comms", "4x8", "-o", file); code != 0 {
		t.Fatalf("tune: exit %d, %s%s", code, out, stderr)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	collnet := 0
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Split(line, ","); len(f) >= 6 && !strings.HasPrefix(line, "#") {
			if f[5] != "0" {
				t.Errorf("%s: channels %s, want 0 (NCCL's own)", line, f[5])
			}
			if strings.HasPrefix(f[3], "collnet") {
				collnet++
			}
		}
	}
	if collnet == 0 {
		t.Errorf("no CollNet rule in\n%s", b)
	}
	for _, hw := range []string{"collnet=true", "collnet=true,nics=1"} {
		if code, out, stderr := runCLI("tune", "-check", file, "-calibrate", log, "-hw", hw, "-comms", "4x8"); code != 0 || strings.Contains(out+stderr, "uncapped channels") {
			t.Errorf("tune -check with -hw %s: exit %d, %s%s; want it to pass", hw, code, out, stderr)
		}
	}
}
