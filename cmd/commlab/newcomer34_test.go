package main

import (
	"strings"
	"testing"
)

// TestUsageCalibrateOptional: predict runs without -calibrate (-gpu NAME
// names the machine), so its usage line does not show -calibrate as
// required. tune writes the calibrated model's choices: its usage shows
// -calibrate as required for writing rules, and as -gpu's alternative
// for -check alone, and its -calibrate help says so, as the command does
// (tune -gpu NAME without -calibrate is a usage error naming -calibrate).
func TestUsageCalibrateOptional(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"predict", []string{"usage: commlab predict [-calibrate "}},
		{"tune", []string{"usage: commlab tune -calibrate A.log[,...] (-comms ", "commlab tune -check FILE (-comms NxG,... | -nodes LIST -per-node G) (-calibrate A.log[,...] | -gpu NAME) ",
			"needed to write rules, which are the calibrated model's choices (with -check, omit it for NCCL's uncalibrated model of -gpu)"}},
	} {
		code, out, _ := runCLI("help", c.name)
		for _, w := range c.want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("help %s: exit %d, usage %.300q; want %q", c.name, code, out, w)
			}
		}
	}
	code, _, stderr := runCLI("predict", "-gpu", "H100", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB")
	if code != 0 {
		t.Errorf("predict -gpu H100 without -calibrate: exit %d, %s", code, stderr)
	}
	code, _, stderr = runCLI("tune", "-gpu", "NVIDIA H100 80GB HBM3", "-comms", "2x8", "-o", "-")
	if code != 2 || !strings.Contains(stderr, "give -calibrate") {
		t.Errorf("tune -gpu without -calibrate: exit %d, %s; want 2 and -calibrate named", code, stderr)
	}
}
