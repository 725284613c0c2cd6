package main

import (
	"strings"
	"testing"
)

// TestUsageCalibrateOptional: predict and tune run without -calibrate
// (-gpu NAME names the machine), so their usage lines do not show
// -calibrate as required.
func TestUsageCalibrateOptional(t *testing.T) {
	for _, c := range []struct {
		name, want string
	}{
		{"predict", "usage: commlab predict [-calibrate "},
		{"tune", "usage: commlab tune (-calibrate A.log[,...] | -gpu NAME) "},
	} {
		code, out, _ := runCLI("help", c.name)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("help %s: exit %d, usage %.200q; want %q", c.name, code, out, c.want)
		}
	}
	code, _, stderr := runCLI("predict", "-gpu", "H100", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB")
	if code != 0 {
		t.Errorf("predict -gpu H100 without -calibrate: exit %d, %s", code, stderr)
	}
}
