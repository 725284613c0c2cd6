package main

import (
	"strings"
	"testing"
)

// TestTuneAssumedOwnChoices: Kestrel's 4 x H100 nodes named by the GPU
// alone leave the CPU and the fabric assumed, and NCCL's own choices move
// with both (src/graph/tuning.cc reads the CPU's vendor); tune says what
// its rules cost where they are otherwise, as docs/tune.md quotes it, and
// given them (Kestrel's AMD CPUs, its boards' direct NVLink) says nothing.
func TestTuneAssumedOwnChoices(t *testing.T) {
	t.Parallel()
	args := []string{"tune", "-calibrate", "../../data/nccltests/testdata/real/h100_16x4_allreduce_slingshot_kestrel.log", "-gpu", "NVIDIA H100 SXM", "-nodes", "16,64", "-per-node", "4", "-o", "-"}
	code, stdout, stderr := runCLI(args...)
	for _, want := range []string{
		"the rules keep NCCL's own choices as NCCL's tuning makes them with cpu intel and fabric mesh, which are assumed",
		"with cpu amd, 1.16x (AllGather of 4 MiB on 64 x 4); with fabric nvswitch, 1.23x (AllReduce of 256 MiB on 64 x 4). Settle them with -hw cpu=intel|amd|arm|power,fabric=nvswitch|mesh|pcie",
	} {
		if code != 0 || !strings.Contains(stderr, want) {
			t.Errorf("exit %d; stderr lacks %q:\n%s", code, want, stderr)
		}
	}
	if !strings.Contains(stdout, "# the rules keep NCCL's own choices as NCCL's tuning makes them") {
		t.Errorf("the header does not say it:\n%s", stdout)
	}
	code, stdout, stderr = runCLI(append(args, "-hw", "cpu=amd,fabric=mesh")...)
	if code != 0 || strings.Contains(stderr+stdout, "NCCL's tuning makes them") {
		t.Errorf("cpu and fabric given: exit %d, still said:\n%s", code, stderr)
	}
}

// TestTuneCheckOwnChoices: tune -check says what a file's rules cost
// against NCCL's own choices on the machine described: nothing on the one
// they were written for, where every rule is NCCL's own; Kestrel's rules written with Intel's CPU assumed
// take 1.16x NCCL's own time, by its model, on its AMD hosts (the same
// call tune names, docs/tune.md), and the check still passes.
func TestTuneCheckOwnChoices(t *testing.T) {
	t.Parallel()
	args := []string{"-calibrate", "../../data/nccltests/testdata/real/h100_16x4_allreduce_slingshot_kestrel.log", "-gpu", "NVIDIA H100 SXM", "-nodes", "16,64", "-per-node", "4"}
	path := t.TempDir() + "/nccl_tuner.conf"
	if code, _, stderr := runCLI(append([]string{"tune", "-o", path}, args...)...); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		hw, want string
	}{
		{"", ""},
		{"cpu=amd,fabric=mesh", "the rules take at worst 1.16x the time of NCCL's own choice, by NCCL's model (AllGather of 4 MiB on 64 x 4)"},
	} {
		a := append([]string{"tune", "-check", path}, args...)
		if c.hw != "" {
			a = append(a, "-hw", c.hw)
		}
		code, stdout, stderr := runCLI(a...)
		if said := strings.Contains(stdout, "NCCL's own choice, by NCCL's model"); code != 0 || said != (c.want != "") || !strings.Contains(stdout, c.want) {
			t.Errorf("-hw %q: exit %d, want %q:\n%s%s", c.hw, code, c.want, stdout, stderr)
		}
	}
}
