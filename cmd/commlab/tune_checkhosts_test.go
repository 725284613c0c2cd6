package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneCheckKeepsHosts (red team 46b): tune -check FILE -comms C, on
// tables that print no hosts, shaped them to C's GPUs a node, so that a
// check of a sub-communicator modelled another machine than the file was
// written for: GB300's tables (4 GPUs a host) became 4, 32 and 64 nodes of
// 2 GPUs under -comms 16x2, and CoreWeave's 16 x 8 table, whose Rank lines
// put 5 ranks on one host, was left out and the check refused to run. The
// tables now take the hosts of the communicators the file's header names.
func TestTuneCheckKeepsHosts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		log, comms, sub, want string
	}{
		{realLog("gb300_1to32nodes_elided_rank_lines.log"), "2x4,16x4", "16x2", "16 nodes of 4 GPUs are assumed, as the rules file was written for 2 x 4 and 16 x 4"},
		{realLog("a100_16x8_allreduce_coreweave_las1.log"), "16x8", "16x2", "16 nodes of 8 GPUs are assumed, as the rules file was written for 16 x 8"},
	} {
		file := filepath.Join(t.TempDir(), "rules.conf")
		if code, _, stderr := runCLI("tune", "-calibrate", c.log, "-comms", c.comms, "-o", file); code != 0 {
			t.Fatalf("%s: tune: exit %d: %s", c.log, code, stderr)
		}
		_, out, stderr := runCLI("tune", "-check", file, "-calibrate", c.log, "-comms", c.sub)
		if !strings.Contains(stderr, c.want) || strings.Contains(stderr, "GPUs are assumed, as the predicted runs' nodes hold 2") || strings.Contains(stderr, "no table the model can take") {
			t.Errorf("%s: -check -comms %s: %s%s\nwant %q", c.log, c.sub, out, stderr, c.want)
		}
	}
}
