package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneUncappedChannels: on a SHARP cluster (-hw collnet=true) tune's
// CollNet rules, whose channels NCCL runs as the rule names them
// (nccl.Model.Uncapped), come with a note of the channels each
// communicator must set up; the file passes its own check, and the check
// on a machine of one NIC a node, which sets up fewer channels than every
// machine the description leaves open, names the rules as uncapped
// channels and fails (exit 1).
func TestTuneUncappedChannels(t *testing.T) {
	t.Parallel()
	log := "../../data/logs/paired/h100-sxm-ib8xndr/allreduce_issue290.log"
	file := filepath.Join(t.TempDir(), "sharp.conf")
	code, out, stderr := runCLI("tune", "-calibrate", log, "-hw", "collnet=true", "-comms", "4x8", "-o", file)
	if code != 0 || !strings.Contains(stderr, "as the rule names them, not capped at the communicator's") || !strings.Contains(stderr, "channels on 4 x 8") ||
		!strings.Contains(stderr, "channels (CollNet's, and NVLS's across nodes, at most as the note above says)") {
		t.Fatalf("tune: exit %d, %s%s; want the uncapped channels' note", code, out, stderr)
	}
	if code, out, stderr := runCLI("tune", "-check", file, "-calibrate", log, "-hw", "collnet=true", "-comms", "4x8"); code != 0 || strings.Contains(out+stderr, "uncapped channels") {
		t.Errorf("tune -check on the machine described: exit %d, %s%s; want it to pass", code, out, stderr)
	}
	if code, out, stderr := runCLI("tune", "-check", file, "-calibrate", log, "-hw", "collnet=true,nics=1", "-comms", "4x8"); code != 1 || !strings.Contains(out+stderr, "uncapped channels") {
		t.Errorf("tune -check on one NIC a node: exit %d, %s%s; want uncapped channels named, exit 1", code, out, stderr)
	}
}
