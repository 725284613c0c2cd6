package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// partialLog writes to dir, as name, the real log at path (under
// data/nccltests/testdata/real) without the lines drop reports, as a user
// who pastes part of a log gives it, and returns the new file's path.
func partialLog(t *testing.T, dir, path, name string, drop func(line string) bool) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("../../data/nccltests/testdata/real", path))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(src), "\n") {
		if !drop(line) {
			kept = append(kept, line)
		}
	}
	out := filepath.Join(dir, name)
	if err := os.WriteFile(out, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNVLSOfAnUnnamedGPU: a log that keeps NCCL's debug lines but not its
// header or Rank lines names no GPU, and its "16 nvls channels" put the
// GPUs on an NVSwitch; predict and diagnose took it with no NVLink count
// and refused it ("NVSwitch system without NVLink count for "unnamed
// GPU"", exit 1, no file named) where an unknown input is calibrated with
// its facts assumed (red team 43). The NVLinks are assumed, and say so.
func TestNVLSOfAnUnnamedGPU(t *testing.T) {
	t.Parallel()
	log := partialLog(t, t.TempDir(), "h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", "cluster.log", func(line string) bool {
		return strings.HasPrefix(line, "#")
	})
	for _, args := range [][]string{
		{"predict", "-calibrate", log, "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "64MiB,1GiB"},
		{"diagnose", log},
	} {
		code, out, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
		for _, want := range []string{"fabric nvswitch (nccl-debug)", "links 18 (assumed?)", "link_bw unknown (assumed?)", "guess: gpu = unnamed GPU"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no %q in\n%s", args[0], want, out)
			}
		}
		if !strings.Contains(stderr, "18 (Hopper's) is assumed: -gpu NAME or -hw links=N,link-bw=RATE settles it") {
			t.Errorf("%s: no note of the assumed NVLinks in\n%s", args[0], stderr)
		}
		// Nor does a line before it call the GPU a PCIe card without
		// NVLink.
		if strings.Contains(stderr, "taken as a PCIe card") {
			t.Errorf("%s: the GPU called a PCIe card beside the NVSwitch its NCCL lines show:\n%s", args[0], stderr)
		}
	}
}

// TestPlotFacts: plot printed the machine's summary alone ("hardware: H100
// SXM, NVSwitch 18 NVLinks, NVLS, one NIC per GPU of 400 Gb/s"), where
// diagnose, on the same log and model, gives each fact its source and
// marks the assumed ones (red team 43): a reader of the figure could not
// tell that nics_per_node, which moves the curve 1.6x at 1 GiB, was a
// guess. It prints the facts line diagnose prints.
func TestPlotFacts(t *testing.T) {
	t.Parallel()
	log := "../../data/nccltests/testdata/real/h100_2x8_allreduce_default_nccltests309.log"
	out := filepath.Join(t.TempDir(), "p.svg")
	code, plotted, stderr := runCLI("plot", log, "-o", out)
	if code != 0 {
		t.Fatalf("plot: exit %d: %s", code, stderr)
	}
	code, diagnosed, stderr := runCLI("diagnose", log)
	if code != 0 {
		t.Fatalf("diagnose: exit %d: %s", code, stderr)
	}
	facts := func(s string) string {
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "facts: ") {
				return line
			}
		}
		return ""
	}
	if f := facts(plotted); f == "" || f != facts(diagnosed) || !strings.Contains(f, "nics_per_node one per GPU (assumed?)") {
		t.Errorf("plot's facts line %q, diagnose's %q: want the same, nics_per_node assumed", f, facts(diagnosed))
	}
}

// TestHardwareAgainstTheLog: -hw nics=4,nvls=false on a log whose NCCL
// lines list 8 NICs and run 16 NVLS channels replaced the log's facts
// without a word (red team 43); -topo of a host of 4 NICs did the same.
// The user's value stands, and a note names the log's and its line.
func TestHardwareAgainstTheLog(t *testing.T) {
	t.Parallel()
	log := "../../data/nccltests/testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log"
	name := filepath.Base(log) + "#0: "
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"predict", "-calibrate", log, "-algo", "ring", "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "64MiB", "-hw", "nics=4,nvls=false"},
			[]string{name + "NCCL's debug lines give nics_per_node 8 (line 28), where -hw gives 4: -hw's is taken",
				name + "NCCL's debug lines give nvls true (line 32), where -hw gives false: -hw's is taken"}},
		{[]string{"diagnose", log, "-topo", "../../topo/testdata/real/h200_4nic_cut_header_nccltests380.txt"},
			[]string{name + "NCCL's debug lines give nics_per_node 8 (line 28), where -topo gives 4: -topo's is taken"}},
	} {
		code, out, stderr := runCLI(c.args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.args[0], code, stderr)
		}
		for _, want := range c.want {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: no %q in\n%s", c.args[0], want, stderr)
			}
		}
		if !strings.Contains(out, "nics_per_node 4 (") {
			t.Errorf("%s: the user's 4 NICs not taken:\n%s", c.args[0], out)
		}
	}
	// Where -hw agrees with the log, no note.
	_, _, stderr := runCLI("predict", "-calibrate", log, "-algo", "ring", "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "64MiB", "-hw", "nics=8,nvls=true")
	if strings.Contains(stderr, "NCCL's debug lines give") {
		t.Errorf("a note where -hw agrees with the log:\n%s", stderr)
	}
}
