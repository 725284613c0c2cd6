package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTopoROCm: commlab topo reads rocm-smi --showtopo's output (the public
// capture of 8 gfx942 GPUs, all XGMI): the facts it settles, from the
// capture (topo), and the links rocm-smi does not count, assumed and said so.
func TestTopoROCm(t *testing.T) {
	t.Parallel()
	capture := "../../topo/testdata/rocm/gfx942_8gpu_xgmi_msswift.txt"
	code, out, stderr := runCLI("topo", capture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"machine: gpus_per_node 8, fabric infinity, nvls false (each from the capture: topo)",
		"assumed: links 7, one to each peer: rocm-smi prints no link count",
		"GPU0  X     XGMI  XGMI",
		"XGMI  hops 1  weight 15  28 pairs",
		"GPU fabric: Infinity Fabric (XGMI) between every pair of 8 GPUs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, stderr = runCLI("topo", capture, "-format", "json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	var res topoOut
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{}
	for _, f := range res.Hardware.Facts {
		sources[f.Name] = f.Value + " " + string(f.Source)
	}
	if sources["fabric"] != "infinity topo" || sources["gpus_per_node"] != "8 topo" || sources["links"] != "7 assumed" {
		t.Errorf("facts %v; want fabric infinity and gpus_per_node 8 from topo, links 7 assumed", sources)
	}
}

// TestPredictTopoROCm: predict -topo takes fabric infinity and the GPUs a
// node from a rocm-smi capture of an AMD log, the links the catalog's, and
// warns where the capture shows another count of GPUs than the run.
func TestPredictTopoROCm(t *testing.T) {
	t.Parallel()
	log := "../../data/nccltests/testdata/real/mi300x_1x8_allreduce_rocmblogs.log"
	args := []string{"predict", "-calibrate", log, "-collective", "allreduce", "-nodes", "1", "-per-node", "8", "-size", "1MiB", "-topo"}
	code, out, stderr := runCLI(append(args, "../../topo/testdata/rocm/gfx942_8gpu_xgmi_msswift.txt")...)
	if code != 0 || strings.Contains(stderr, "capture") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(out, "gpus_per_node 8 (topo), fabric infinity (topo), links 7 (catalog)") {
		t.Errorf("facts line lacks the capture's facts:\n%s", out)
	}
	code, _, stderr = runCLI(append(args, "../../topo/testdata/rocm/mi210_4gpu_xgmi_archer2.txt")...)
	if code != 0 || !strings.Contains(stderr, "the capture shows 4 GPUs, and the run 8 a node") || strings.Contains(stderr, "NVLinks") {
		t.Errorf("exit %d, stderr %q; want the GPU count's warning and none of NVLinks", code, stderr)
	}
}

// TestTopoROCmSpecWorks: the -hw spec commlab topo gives for an XGMI
// capture ("gpus=8,fabric=infinity,nvls=false") was refused by predict
// for a GPU the catalog does not hold ("fabric=infinity without links"):
// it carries the links assumed. A PCIe capture's output has no line of
// assumed XGMI links.
func TestTopoROCmSpecWorks(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("topo", "../../topo/testdata/rocm/gfx942_8gpu_xgmi_msswift.txt", "-format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res topoOut
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.HW != "gpus=8,fabric=infinity,nvls=false,links=7" {
		t.Errorf("hw %q, want the capture's facts and the 7 links assumed", res.HW)
	}
	code, _, stderr = runCLI("predict", "-calibrate", "../../data/nccltests/testdata/real/mi300x_1x8_allreduce_rocmblogs.log:gpu=gfx942",
		"-collective", "allreduce", "-nodes", "1", "-per-node", "8", "-size", "1MiB", "-hw", res.HW)
	if code != 0 {
		t.Errorf("predict -hw %s: exit %d: %s", res.HW, code, stderr)
	}
	code, out, stderr = runCLI("topo", "../../topo/testdata/rocm/rocm_smi_showtopo_4gpu_pcie.txt")
	if code != 0 || strings.Contains(out, "assumed: links") || !strings.Contains(out, "-hw gpus=4,fabric=pcie,nvls=false\n") {
		t.Errorf("PCIe capture: exit %d, want no assumed links and the spec without them:\n%s%s", code, out, stderr)
	}
}
