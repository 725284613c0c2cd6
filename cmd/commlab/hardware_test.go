package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestHostGPUsFact: gpus_per_node comes after gpu in the text facts line
// and the JSON's hardware.facts. nccl-tests#311's KISTI log ran 4 x 2 on
// hosts of 8 A100s and 6 NICs (its source lines): with -hw gpus=8,nics=6
// the fact is 8 (hw). Alps' GH200 log ran 2 x 4 (its Rank lines): the host
// holds at least 4 (log), and the HPE EX254n blade of the catalog 4.
func TestHostGPUsFact(t *testing.T) {
	t.Parallel()
	kisti := realLog("a100_4x2_allreduce_collnet_kisti_nccltests311.log")
	alps := realLog("gh200_2x4_allreduce_slingshot_alps.log")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-calibrate", kisti, "-p", "8", "-per-node", "2", "-hw", "gpus=8,nics=6"}, "gpus_per_node 8 (hw)"},
		{[]string{"-calibrate", alps, "-p", "8", "-per-node", "4"}, "gpus_per_node at least 4 (log)"},
		{[]string{"-calibrate", alps, "-p", "8", "-per-node", "4", "-hw", "system=hpe-ex254n-gh200"}, "gpus_per_node 4 (catalog)"},
	} {
		args := append([]string{"predict", "-collective", "allreduce", "-size", "64MiB"}, c.args...)
		code, out, stderr := runCLI(args...)
		if code != 0 || !strings.Contains(out, "\nfacts: gpu ") || !strings.Contains(out, "), "+c.want+", fabric ") {
			t.Errorf("%v: exit %d, stdout:\n%s\nstderr:\n%s\nwant %q after gpu", c.args, code, out, stderr, c.want)
			continue
		}
		code, out, stderr = runCLI(append(args, "-json")...)
		var res struct{ Hardware hardwareOutput }
		if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil || len(res.Hardware.Facts) < 2 {
			t.Fatalf("%v -json: exit %d, %v: %s", c.args, code, err, stderr)
		}
		f := res.Hardware.Facts[1]
		if got := f.Name + " " + f.Value + " (" + string(f.Source) + ")"; got != c.want {
			t.Errorf("%v -json: hardware.facts[1] is %s, want %s", c.args, got, c.want)
		}
	}
}

// TestHostGPUsUsage: -hw gpus=4 bounds a query's GPUs a node as a
// system's hosts do: -per-node 8 is a usage error (exit 2). In model, the
// GPUs a node default to the host's 4, and 4 A100 SXM are a mesh.
func TestHostGPUsUsage(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI("predict", "-gpu", "A100-SXM4-80GB", "-hw", "gpus=4", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1GiB")
	if code != 2 || !strings.Contains(stderr, "8 GPUs a node, where -hw gpus=4 gives a host 4") {
		t.Errorf("-per-node 8 with -hw gpus=4: exit %d, stderr:\n%s\nwant exit 2 naming -hw gpus=4", code, stderr)
	}
	code, out, stderr := runCLI("model", "-collective", "allreduce", "-p", "16", "-gpu", "A100-SXM4-80GB", "-hw", "gpus=4", "-size", "1GiB", "-json")
	var res struct {
		PerNode  int `json:"per_node"`
		Hardware hardwareOutput
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("model -hw gpus=4: exit %d, %v: %s", code, err, stderr)
	}
	if res.PerNode != 4 || !strings.Contains(res.Hardware.Summary, "NVLink mesh") {
		t.Errorf("model -hw gpus=4: per_node %d, hardware %q; want 4 a node on an NVLink mesh", res.PerNode, res.Hardware.Summary)
	}
	if code, _, stderr := runCLI("predict", "-hw", "system=dgx-h100,gpus=4", "-collective", "allreduce", "-p", "8", "-per-node", "4", "-size", "1GiB"); code != 2 || !strings.Contains(stderr, "dgx-h100 holds 8 GPUs a host") {
		t.Errorf("system=dgx-h100,gpus=4: exit %d, stderr:\n%s\nwant exit 2 (a -hw that does not parse) naming the system's 8", code, stderr)
	}
}

// TestHostGPUsTableUsage: a calibration table that ran more GPUs a node
// than the description gives a host is the contradiction, not the query's
// -per-node: the usage error names the table, its run and the flag that
// settles it. Nebius's H200 log ran 2 x 8 (its Rank lines: devices 0 to 7
// on each of two hosts); nccl-tests#309's H100 log too; hgx-h100-4gpu
// holds 4 a host (presets/systems.go).
func TestHostGPUsTableUsage(t *testing.T) {
	t.Parallel()
	query := []string{"-collective", "allreduce", "-p", "8", "-per-node", "4", "-size", "1GiB"}
	for _, c := range []struct {
		log, hw, want string
	}{
		{"h200_2x8_allreduce_nebius_runai.log", "gpus=4",
			"h200_2x8_allreduce_nebius_runai.log#0: the log ran 8 GPUs a node, where -hw gpus=4 gives a host 4: give -hw gpus=8 or more, or FILE:per-node=G"},
		{"h100_2x8_allreduce_default_nccltests309.log", "system=hgx-h100-4gpu",
			"h100_2x8_allreduce_default_nccltests309.log#0: the log ran 8 GPUs a node, where hgx-h100-4gpu holds 4 a host: leave out -hw system=hgx-h100-4gpu"},
	} {
		code, _, stderr := runCLI(append([]string{"predict", "-calibrate", realLog(c.log), "-hw", c.hw}, query...)...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "give the run's GPUs a node") {
			t.Errorf("%s -hw %s: exit %d, stderr:\n%s\nwant exit 2 and %q", c.log, c.hw, code, stderr, c.want)
		}
	}
}

// TestUnnamedGPUOfRCCL: AMD's 2 x 8 MI355X log over Pollara NICs names no
// GPU in its Rank lines but prints its RCCL version: the first guess says
// the GPU is AMD's (no NVLink in it) and names the catalog's AMD GPUs, and
// the systems offered are the catalog's AMD ones, not its 34 of any GPU.
// OCI's 2 x 8 MI355X log prints no RCCL line: it keeps the line of any GPU.
func TestUnnamedGPUOfRCCL(t *testing.T) {
	t.Parallel()
	args := []string{"predict", "-collective", "allreduce", "-nodes", "4", "-per-node", "8", "-size", "1GiB", "-calibrate"}
	code, out, stderr := runCLI(append(args, realLog("mi355x_2x8_allreduce_pollara_roce.log"))...)
	first, _, _ := strings.Cut(strings.SplitN(out, "\n", 2)[1], "\n")
	if code != 0 || !strings.HasPrefix(first, "guess: gpu = unnamed GPU: the logs name none, but they ran RCCL, so it is AMD's") ||
		strings.Contains(first, "NVLink") || !strings.Contains(first, `-gpu "AMD Instinct MI300X"`) || !strings.Contains(first, "MI355X") {
		t.Errorf("RCCL log without a GPU name: exit %d, first guess %q, stderr:\n%s", code, first, stderr)
	}
	if !strings.Contains(out, "guess: if the machine is one of the catalog's hpe-ex235a-mi250x, ") || strings.Contains(out, "dgx-h100") {
		t.Errorf("RCCL log without a GPU name: the systems offered are not the catalog's AMD ones:\n%s", out)
	}
	code, out, _ = runCLI(append(args, realLog("mi355x_2x8_allreduce_pollara_roce.log"), "-json")...)
	var res struct{ Hardware hardwareOutput }
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("-json: exit %d, %v", code, err)
	}
	for _, s := range res.Hardware.Systems {
		if !amdSystem(s) {
			t.Errorf("-json: hardware.systems holds %s, not an AMD system", s)
		}
	}
	code, out, _ = runCLI(append(args, realLog("mi355x_2x8_allreduce_pollara_oci.log"))...)
	if code != 0 || !strings.Contains(out, "guess: gpu = unnamed GPU: the logs name none, and a PCIe card without NVLink is assumed") {
		t.Errorf("a log that prints no RCCL line: exit %d, stdout:\n%s", code, out)
	}
}

// TestGPUGuessFirst: GKE's A3 High log names no GPU, and the other guesses
// are computed on the PCIe card assumed in its place (the CPU's moves the
// prediction 6 times there, and not once the GPU is named): the GPU's
// guess comes first and says that every guess below rests on it (red team
// 41).
func TestGPUGuessFirst(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("predict", "-calibrate", "../../data/nccltests/testdata/real/h100_2x8_allgather_gke_a3high_tcpx.log",
		"-collective", "allgather", "-nodes", "8", "-per-node", "8", "-size", "1MiB")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	guesses := guessLines(out)
	if len(guesses) < 2 || !strings.HasPrefix(guesses[0], "guess: gpu = unnamed GPU") || !strings.HasSuffix(guesses[0], "; every guess below rests on it") {
		t.Errorf("guess lines:\n%s\nwant the GPU's first, saying the others rest on it", strings.Join(guesses, "\n"))
	}
}

// guessLines returns predict's guess lines of facts, not those offering
// a system of the catalog.
func guessLines(out string) []string {
	var guesses []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "guess: ") && !strings.HasPrefix(l, "guess: if the machine") {
			guesses = append(guesses, l)
		}
	}
	return guesses
}
