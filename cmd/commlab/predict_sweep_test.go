package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// realDir holds the public logs of other machines (data/nccltests/testdata/real),
// each citing its source in its first lines.
const realDir = "../../data/nccltests/testdata/real/"

// voltagePark is Voltage Park's 4 x 8 H100 AllReduce, one process per GPU,
// and its 1 x 8 AllReduce of one process driving the 8 (-g 8), two of the
// tables publicMachines gives (commmodel/predict/heldout).
func voltagePark() string {
	return realDir + "h100_4x8_allreduce_voltagepark.log," + realDir + "h100_1x8_g8_allreduce_voltagepark.log"
}

// TestPredictSameNodesLayout: Voltage Park's tables share no layout, so a
// query of one node takes one process per GPU; its one-node tables ran one
// process driving the 8 (-g 8), which costs 8 launches a call, and a user
// asking of one node must read first that the prediction is not of the
// run they made (it was 21.6 us at 1 KiB, where -g 8 predicts 46.7 us,
// beyond the interval, with no word of the layout). Across nodes, where
// the tables of 4 nodes ran one process per GPU as the prediction does,
// nothing is said.
func TestPredictSameNodesLayout(t *testing.T) {
	t.Parallel()
	var raw string // the JSON's layout object of the last query, as printed
	at := func(nodes string, flags ...string) (string, predictJSON) {
		t.Helper()
		args := append([]string{"predict", "-calibrate", voltagePark(), "-collective", "allreduce", "-nodes", nodes, "-per-node", "8", "-size", "1KiB"}, flags...)
		text, out := textAndJSON(t, args)
		raw = rawLayout(t, out)
		return text, decodePredict(t, out)
	}
	text, res := at("1")
	first := strings.SplitN(text, "\nsize", 2)[0]
	if !strings.Contains(first, "layout: 8 processes of 1 thread of 1 GPU, no CUDA graphs, where the tables of 1 node ran 1 process of 1 thread of 8 GPUs") ||
		!strings.Contains(first, "give -g, -threads and -graph to predict a run like theirs") {
		t.Errorf("one node: want the layout line to name the one-node tables' -g 8:\n%s", first)
	}
	if l := res.Layout; l == nil || l.Tables == nil || l.Tables.GPUsPerThread != 8 || !strings.Contains(raw, `"nodes":1`) {
		t.Errorf("one node: JSON layout %+v; want the one-node tables' 8 GPUs a thread, of 1 node", res.Layout)
	}
	if strings.Count(text, "layout: ") != 1 {
		t.Errorf("one node: want one layout line:\n%s", text)
	}
	// Given -g 8, the run is theirs, and nothing is said.
	if text, res := at("1", "-g", "8"); strings.Contains(text, "where the tables") || res.Layout == nil || res.Layout.Tables != nil {
		t.Errorf("one node, -g 8: want no tables' layout:\n%s", text)
	}
	// Across nodes the 4-node tables ran one process per GPU, as predicted.
	if text, res := at("8"); strings.Contains(text, "where the tables") || res.Layout == nil || res.Layout.Tables != nil {
		t.Errorf("8 nodes: want no tables' layout:\n%s", text)
	}
}

// rawLayout returns the layout object of predict's JSON out, as printed.
func rawLayout(t *testing.T, out string) string {
	t.Helper()
	var raw struct {
		Layout json.RawMessage `json:"layout"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(raw.Layout)), "")
}

// TestPredictUntabledReleaseGuess: from the GPU's name alone (-gpu without
// -calibrate) there is no file to give FILE:version=V, which the guess of
// NCCL's release named (nccl-tests#369's GH200, 2 x 1: 1.50x at 1 MiB with
// 2.18.0); it names a log of the machine to calibrate on instead. With the
// log, which prints no release, it names the file's key as before.
func TestPredictUntabledReleaseGuess(t *testing.T) {
	t.Parallel()
	args := []string{"predict", "-gpu", "NVIDIA GH200 120GB", "-collective", "allreduce", "-nodes", "2", "-per-node", "1", "-size", "1KiB,1MiB"}
	code, text, stderr := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	line := guessLine(text, "nccl_version")
	if !strings.Contains(line, "settle it with -calibrate LOG:version=V (a log of the machine, and the release the run used)") ||
		strings.Contains(line, "FILE:version=V") || strings.Contains(line, "on each file whose log prints none") {
		t.Errorf("no tables: want the release guess to name a log to calibrate on, not a file's key:\n%s", text)
	}
	code, text, stderr = runCLI("predict", "-calibrate", realDir+"gh200_2x1_allreduce_wrong_rows_nccltests369.log", "-collective", "allreduce",
		"-nodes", "2", "-per-node", "1", "-size", "1KiB,1MiB", "-hw", "nic-bw=200Gb/s")
	if code != 0 {
		t.Fatalf("calibrated: exit %d: %s", code, stderr)
	}
	if line := guessLine(text, "nccl_version"); line != "" && !strings.Contains(line, "FILE:version=V (the release the run used) on each file whose log prints none") {
		t.Errorf("calibrated: want the file's key:\n%s", line)
	}
}

// guessLine returns the guess line of fact in a predict text output, "" if
// there is none.
func guessLine(text, fact string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "guess: "+fact+" = ") {
			return l
		}
	}
	return ""
}

// TestPredictSystemsOfGPUMemory: the Rank lines of Oracle's BM.GPU4.8
// tutorial print "NVIDIA A100-SXM4-40GB", and the guess line offered "9
// systems that fit" among which p4de.24xlarge, a2-ultragpu-8g,
// Standard_ND96amsr_A100_v4 and BM.GPU.A100-v2.8, whose entries give 80 GB
// A100s; CoreWeave's A100-SXM4-80GB job was offered p4d.24xlarge,
// BM.GPU4.8, Standard_ND96asr_v4 and a2-highgpu-8g, of 40 GB. A system
// whose source names no memory (dgx-a100) stays.
func TestPredictSystemsOfGPUMemory(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		calibrate         string
		nodes             string
		want, wantNot     []string
		wantText, notText string
	}{
		{realDir + "a100_1x8_allreduce_oci_gpu48_ubuntu.log," + realDir + "a100_2x8_allreduce_oci_gpu48_ubuntu.log", "4",
			[]string{"BM.GPU4.8", "p4d.24xlarge", "Standard_ND96asr_v4", "a2-highgpu-8g", "dgx-a100"},
			[]string{"p4de.24xlarge", "a2-ultragpu-8g", "Standard_ND96amsr_A100_v4", "BM.GPU.A100-v2.8"},
			"one of the catalog's p4d.24xlarge, dgx-a100, Standard_ND96asr_v4, BM.GPU4.8 or a2-highgpu-8g,", "9 systems"},
		{realDir + "a100_16x8_allreduce_coreweave_las1.log:nodes=16:per-node=8", "32",
			[]string{"p4de.24xlarge", "Standard_ND96amsr_A100_v4", "BM.GPU.A100-v2.8", "a2-ultragpu-8g", "dgx-a100"},
			[]string{"p4d.24xlarge", "BM.GPU4.8", "Standard_ND96asr_v4", "a2-highgpu-8g"}, "", ""},
	} {
		args := []string{"predict", "-calibrate", c.calibrate, "-collective", "allreduce", "-nodes", c.nodes, "-per-node", "8", "-size", "1MiB"}
		text, out := textAndJSON(t, args)
		var res struct {
			Hardware struct {
				Systems []string `json:"systems"`
			} `json:"hardware"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		for _, s := range c.want {
			if !slices.Contains(res.Hardware.Systems, s) {
				t.Errorf("%s: systems %v; want %s", c.calibrate, res.Hardware.Systems, s)
			}
		}
		for _, s := range c.wantNot {
			if slices.Contains(res.Hardware.Systems, s) {
				t.Errorf("%s: systems %v offer %s, whose GPUs' memory is not the logs'", c.calibrate, res.Hardware.Systems, s)
			}
		}
		if c.wantText != "" && (!strings.Contains(text, c.wantText) || strings.Contains(text, c.notText)) {
			t.Errorf("%s: want the guess line to offer %q:\n%s", c.calibrate, c.wantText, text)
		}
	}
}

// textAndJSON runs a predict command line as text and with -json, and
// returns both outputs; it fails t where either exits non-zero.
func textAndJSON(t *testing.T, args []string) (text, out string) {
	t.Helper()
	code, text, stderr := runCLI(args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	code, out, stderr = runCLI(append(args, "-json")...)
	if code != 0 {
		t.Fatalf("%v -json: exit %d: %s", args, code, stderr)
	}
	return text, out
}

// TestPredictNoRateBelowTheTables: for Alps' three GH200 tables (2 x 1 and
// two of 2 x 4, four Slingshot 11 NICs a node) the held-out fit took a NIC
// rate of 25 Gb/s, an eighth of the 200 Gb/s assumed, by its median error
// over all sizes, holding nic_bw at that line rate where the tables would
// put it at 96.7 Gb/s, and predicted the tables' own 2 x 4 at 128 MiB in 9.16 ms,
// where they measured 1.92 and 1.77 (red team 45). A rate the tables move
// more than is no choice.
func TestPredictNoRateBelowTheTables(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real/"
	code, out, stderr := runCLI("predict", "-calibrate", dir+"gh200_2x1_allreduce_slingshot_alps_sarus.log,"+dir+"gh200_2x4_allreduce_slingshot_alps.log,"+dir+"gh200_2x4_allreduce_cxi_container_alps.log",
		"-collective", "allreduce", "-nodes", "2", "-per-node", "4", "-size", "128MiB", "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Predictions []struct {
			TimeS float64 `json:"time_s"`
		} `json:"predictions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Predictions) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	// The Slingshot table's 128 MiB row: 1916.4 us (line 49).
	if r := got.Predictions[0].TimeS / 1916.4e-6; r > 1.5 || r < 1/1.5 {
		t.Errorf("128 MiB predicted in %.3g s, %.2fx the 1916.4 us measured", got.Predictions[0].TimeS, r)
	}
	if strings.Contains(out+stderr, "nic_bw = 25 Gb/s is chosen") {
		t.Errorf("the held-out fit chose 25 Gb/s:\n%s", stderr)
	}
}
