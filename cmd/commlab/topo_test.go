package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type topoJSONOut struct {
	GPUs []struct {
		Name string `json:"name"`
		NUMA int    `json:"numa"`
		NIC  string `json:"nic"`
		Path string `json:"path"`
	} `json:"gpus"`
	NICs []struct {
		Name    string `json:"name"`
		NUMA    int    `json:"numa"`
		Device  string `json:"device"`
		Nearest bool   `json:"nearest"`
	} `json:"nics"`
	Pairs []struct {
		A    string `json:"a"`
		B    string `json:"b"`
		Path string `json:"path"`
	} `json:"pairs"`
	Problems []problem `json:"problems"`
}

func decodeTopo(t *testing.T, out string) topoJSONOut {
	t.Helper()
	var res topoJSONOut
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return res
}

// TestTopoPresetJSON checks the contract fields against the article's server
// (the article: GPU0-3 NUMA0, GPU4-7 NUMA1; PIX GPU1-NIC0, GPU3-NIC1,
// GPU4-NIC2, GPU6-NIC3; NIC0..3 = mlx5_bond_0..3).
func TestTopoPresetJSON(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("topo", "-preset", "h20-article", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res := decodeTopo(t, out)
	if len(res.GPUs) != 8 || len(res.NICs) != 4 {
		t.Fatalf("%d GPUs, %d NICs", len(res.GPUs), len(res.NICs))
	}
	for i, g := range res.GPUs {
		if g.NUMA != i/4 {
			t.Errorf("%s numa %d, want %d", g.Name, g.NUMA, i/4)
		}
	}
	for g, nic := range map[int]string{1: "NIC0", 3: "NIC1", 4: "NIC2", 6: "NIC3"} {
		if got := res.GPUs[g]; got.NIC != nic || got.Path != "PIX" {
			t.Errorf("GPU%d: nic %s path %s, want %s PIX", g, got.NIC, got.Path, nic)
		}
	}
	for i, n := range res.NICs {
		if want := "mlx5_bond_" + string(rune('0'+i)); n.Device != want || n.NUMA != i/2 {
			t.Errorf("%s: device %s numa %d, want %s numa %d", n.Name, n.Device, n.NUMA, want, i/2)
		}
	}
	// 12 devices: 12·11/2 = 66 unordered pairs.
	if len(res.Pairs) != 66 {
		t.Errorf("%d pairs, want 66", len(res.Pairs))
	}
	paths := map[string]string{}
	for _, p := range res.Pairs {
		paths[p.A+"-"+p.B] = p.Path
	}
	for pair, want := range map[string]string{"GPU1-NIC0": "PIX", "GPU0-NIC0": "NODE", "GPU4-NIC0": "SYS", "GPU0-GPU7": "NV18", "NIC0-NIC1": "NODE", "NIC1-NIC2": "SYS"} {
		if paths[pair] != want {
			t.Errorf("%s = %q, want %s", pair, paths[pair], want)
		}
	}
}

// TestTopoFile reads the public capture (NVIDIA/nccl-tests#321) as FILE.
func TestTopoFile(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("topo", "../../data/topology/h20-3e_8gpu_8nic_vm.txt", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res := decodeTopo(t, out)
	// The capture: GPUg is PIX to NIC(7-g).
	if len(res.NICs) != 8 || res.GPUs[0].NIC != "NIC7" || res.GPUs[0].Path != "PIX" || res.GPUs[7].NIC != "NIC0" {
		t.Errorf("capture parsed to %+v", res.GPUs)
	}
}

func TestTopoTable(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI("topo", "-preset", "h20-article")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"paths:", "bindings", "same on every rank of the host, =mlx5_bond_0,mlx5_bond_1,mlx5_bond_2,mlx5_bond_3:", "GPU1  NIC0  mlx5_bond_0  PIX", "switched (NVSwitch), 8 GPUs x NV18"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestTopoErrors: a malformed file fails with its name and line; so do
// missing and conflicting arguments.
func TestTopoErrors(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.txt")
	text := "nvidia-smi topo -m\n\tGPU0\tGPU1\nGPU0\t X \tNV18\nGPU1\tNVL\t X \n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("topo", bad)
	if code == 0 || !strings.Contains(stderr, bad+":4:6: ") || !strings.Contains(stderr, `"NVL"`) {
		t.Errorf("exit %d, stderr %q; want non-zero naming %s:4:6", code, stderr, bad)
	}
	// A row with a cell too many (topo/testdata/damaged/long_row.txt, line 4,
	// the extra SYS at byte 19) is an error too.
	long := "../../topo/testdata/damaged/long_row.txt"
	if code, out, stderr := runCLI("topo", long, "-json"); code == 0 || out != "" || !strings.Contains(stderr, long+":4:19: ") {
		t.Errorf("exit %d, stdout %q, stderr %q; want non-zero naming %s:4:19", code, out, stderr, long)
	}
	// amd-smi topology's tables are read as rocm-smi --showtopo's
	// (TestTopoROCm): OCI's MI355X Pollara node, 8 GPUs, every pair XGMI
	// (its page: "all 8 GPUs are fully connected via XGMI").
	amd := "../../topo/testdata/rocm/mi355x_8gpu_xgmi_amdsmi_ocipollara.txt"
	if code, out, stderr := runCLI("topo", amd); code != 0 || !strings.Contains(out, "machine: gpus_per_node 8, fabric infinity") {
		t.Errorf("amd-smi topology: exit %d, stdout %q, stderr %q; want 0 and 8 GPUs of Infinity Fabric", code, out, stderr)
	}
	// A ROCm capture that does not read names the -hw settings that
	// describe an AMD host instead; the first works.
	json := filepath.Join(t.TempDir(), "rocm.json")
	if err := os.WriteFile(json, []byte(`{"card0": {"(Topology) Link type between DRM devices 0 and 1": "XGMI"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("topo", json); code != 1 || !strings.Contains(stderr, "-hw system=NAME") || !strings.Contains(stderr, "mi300x-platform") {
		t.Errorf("rocm-smi --json: exit %d, stderr %q; want 1 and -hw system=NAME with mi300x-platform", code, stderr)
	}
	if code, _, stderr := runCLI("predict", "-hw", "system=mi300x-platform", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"); code != 0 {
		t.Errorf("the hint's -hw system=mi300x-platform: exit %d, %s", code, stderr)
	}
	// A command line that does not hold exits 2, as docs/cli.md says (it
	// exited 1, as for a file that does not read: red team 44); a missing
	// file exits 1.
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"topo"}, 2},
		{[]string{"topo", "-preset", "no-such"}, 2},
		{[]string{"topo", "-preset", "h20-article", bad}, 2},
		{[]string{"topo", filepath.Join(t.TempDir(), "missing.txt")}, 1},
	} {
		if code, _, stderr := runCLI(c.args...); code != c.code || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want %d and an error", c.args, code, stderr, c.code)
		}
	}
}

// TestTopoProblems: warnings about damaged input go to stderr as
// FILE:LINE[:COLUMN]: message in text mode and into the problems array with
// -json, and never into the table or onto stderr with -json. The fixtures
// are topo/testdata/damaged: GPU1's row on line 6 of short_row.txt lacks its
// NIC0 cell; line 5 of asymmetric.txt (byte 9) says PIX where line 4 says
// NV18.
func TestTopoProblems(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		file, text string
		line, col  int
	}{
		{"short_row.txt", "GPU1 has 2 of 3 cells; GPU1/NIC0 read from the transposed cell: short row", 6, 0},
		{"asymmetric.txt", "GPU1/GPU0 is PIX but GPU0/GPU1 on line 4 is NV18; read as PIX, the farther: asymmetric pair", 5, 9},
	} {
		file := "../../topo/testdata/damaged/" + c.file
		pos := fmt.Sprintf("%s:%d", file, c.line)
		if c.col > 0 {
			pos += fmt.Sprintf(":%d", c.col)
		}
		code, out, stderr := runCLI("topo", file)
		if code != 0 || stderr != pos+": "+c.text+"\n" || strings.Contains(out, c.text) || !strings.Contains(out, "GPU fabric:") {
			t.Errorf("%s: exit %d, stderr %q, want %q; stdout:\n%s", c.file, code, stderr, pos+": "+c.text+"\n", out)
		}
		code, out, stderr = runCLI("topo", file, "-json")
		if code != 0 || stderr != "" {
			t.Fatalf("%s -json: exit %d, stderr %q", c.file, code, stderr)
		}
		got := decodeTopo(t, out).Problems
		if want := (problem{File: file, Line: c.line, Column: c.col, Message: c.text}); len(got) != 1 || got[0] != want {
			t.Errorf("%s -json: problems %+v, want [%+v]", c.file, got, want)
		}
	}
	code, out, _ := runCLI("topo", "-preset", "h20-article", "-json")
	if p := decodeTopo(t, out).Problems; code != 0 || p == nil || len(p) != 0 {
		t.Errorf("preset: exit %d, problems %#v; want an empty array", code, p)
	}
}

// TestTopoNVLinkPairs: Azure's NC96 A100 v4 capture joins GPU0-GPU1 and
// GPU2-GPU3 by NV12 and the pairs by SYS: a PCIe fabric with NVLink pairs.
// topo says so and gives its -hw spec with pairs=true; predict calibrated on
// the VM's table takes its 31 GB/s alike with -topo and with that spec, and
// holds it to PCIe's 24 GB/s without pairs=true.
func TestTopoNVLinkPairs(t *testing.T) {
	t.Parallel()
	file := "../../topo/testdata/real/a100_80g_azure_nc96_4gpu_nv12_pairs_blog.txt"
	const spec = "gpus=4,fabric=pcie,pairs=true,nvls=false"
	code, out, stderr := runCLI("topo", file)
	lines := strings.SplitN(out, "\n", 3)
	if code != 0 || len(lines) < 2 || !strings.Contains(lines[0], "fabric pcie, nvlink_pairs true,") || !strings.HasSuffix(lines[1], "-hw "+spec) {
		t.Fatalf("exit %d, %q, %s; want the pairs named and -hw %s", code, out, stderr, spec)
	}
	log := "../../data/nccltests/testdata/real/a100_1x4_allreduce_topofile_azure_ncv4.log:nodes=1:per-node=4:gpu=NVIDIA A100 80GB PCIe"
	intra := func(args ...string) float64 {
		args = append([]string{"predict", "-calibrate", log, "-collective", "allreduce", "-p", "4", "-per-node", "4", "-size", "1GiB", "-json"}, args...)
		code, out, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var res struct {
			Calibration struct {
				Parameters []struct {
					Name  string
					Value float64
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Calibration.Parameters {
			if p.Name == "intra_bw" {
				return p.Value
			}
		}
		t.Fatalf("%v: no intra_bw in %s", args, out)
		return 0
	}
	const without = "gpus=4,fabric=pcie,nvls=false"
	if topo, hw, pcie := intra("-topo", file), intra("-hw", spec), intra("-hw", without); !(topo > 28e9) || hw != topo || !(pcie <= 24e9) {
		t.Errorf("intra_bw with -topo %.4g B/s, -hw %s %.4g, -hw %s %.4g; want the first two alike above 28 GB/s and the last at most 24", topo, spec, hw, without, pcie)
	}
}

// TestTopoMachine: topo prints first the machine predict takes from the
// capture. topo/testdata/real/h100_hgx_8nic_sglang30401.txt has 8 GPUs,
// every pair NV18, and each GPU PIX to its own NIC of eight and NODE or
// SYS to the others, so a ring's channel, entering at a NIC's PIX GPU,
// leaves by the same NIC through that GPU over NVLink (PXN); the
// article's server (topo.H20Article) has four NICs, GPU0, 2, 5 and 7 NODE
// to theirs, which NCCL reaches that way too (PXN).
func TestTopoMachine(t *testing.T) {
	t.Parallel()
	file := "../../topo/testdata/real/h100_hgx_8nic_sglang30401.txt"
	code, out, stderr := runCLI("topo", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	const spec = "gpus=8,fabric=nvswitch,links=18,nics=8,nic-path=PXN"
	lines := strings.SplitN(out, "\n", 3)
	if want := "machine: gpus_per_node 8, fabric nvswitch, links 18, nics_per_node 8, nic_path PXN (each read or derived from the capture: topo)"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	if !strings.Contains(lines[1], "-topo "+file) || !strings.HasSuffix(lines[1], "-hw "+spec) {
		t.Errorf("second line %q, want -topo %s and -hw %s", lines[1], file, spec)
	}
	// predict takes the same machine from -topo FILE and from the -hw spec.
	summary := func(args ...string) string {
		args = append([]string{"predict", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-gpu", "H100", "-size", "1GiB", "-json"}, args...)
		code, out, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var res struct{ Hardware hardwareOutput }
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		return res.Hardware.Summary
	}
	if a, b := summary("-topo", file), summary("-hw", spec); a != b {
		t.Errorf("predict -topo: %q, -hw %s: %q", a, spec, b)
	}

	// DGX A100: each GPU PXB to one of eight compute NICs; the two
	// storage NICs (NIC8, NIC9) are SYS or NODE to every GPU, and the
	// machine's line says they are left out.
	dgx := "../../topo/testdata/real/a100_dgx_nps4_10nic_tabs_gpucompress.txt"
	if code, out, stderr = runCLI("topo", dgx); code != 0 || !strings.Contains(out, "nics_per_node 8,") ||
		!strings.Contains(out, "nics_per_node leaves out NIC8, NIC9: no GPU's nearest NIC") {
		t.Errorf("DGX A100: exit %d, %q, %s; want 8 NICs and NIC8, NIC9 left out", code, out, stderr)
	}
	code, out, stderr = runCLI("topo", dgx, "-json")
	got := decodeTopo(t, out)
	if code != 0 || len(got.NICs) != 10 {
		t.Fatalf("DGX A100 -json: exit %d, %d NICs: %s", code, len(got.NICs), stderr)
	}
	for i, n := range got.NICs {
		if n.Nearest != (i < 8) {
			t.Errorf("DGX A100 %s: nearest %v", n.Name, n.Nearest)
		}
	}

	// -gpu: the whole machine, in predict's JSON shape.
	code, out, stderr = runCLI("topo", "-preset", "h20-article", "-gpu", "H20", "-json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Hardware hardwareOutput
		HW       string
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	// H20: 18 NVLinks (catalog); 400 Gb/s NICs, Hopper's reference rate (assumed).
	if want := "H20, 8 a host, NVSwitch 18 NVLinks, NVLS, 4 NICs per host of 400 Gb/s at PXN"; res.Hardware.Summary != want {
		t.Errorf("summary %q, want %q", res.Hardware.Summary, want)
	}
	if res.HW != "gpus=8,fabric=nvswitch,links=18,nics=4,nic-path=PXN" { // topo.H20Article's 8 GPUs
		t.Errorf("hw %q", res.HW)
	}
	src := map[string]string{}
	for _, f := range res.Hardware.Facts {
		src[f.Name] = f.Value + " " + string(f.Source)
	}
	for name, want := range map[string]string{"gpu": "H20 catalog", "gpus_per_node": "8 topo", "nics_per_node": "4 topo", "nic_path": "PXN topo", "nic_bw": "400 Gb/s assumed"} {
		if src[name] != want {
			t.Errorf("fact %s = %q, want %q", name, src[name], want)
		}
	}
	// In text, -gpu adds predict's hardware and facts lines, the summary
	// naming its assumed parts (nvls and nic_bw, as the facts say).
	if _, out, _ := runCLI("topo", "-preset", "h20-article", "-gpu", "H20"); !strings.Contains(out, "\nhardware: "+res.Hardware.Summary+" (nvls, nic_bw assumed)\nfacts: gpu H20 (catalog), ") {
		t.Errorf("text lacks the hardware:\n%s", out)
	}

	// One GPU and no NIC (topo/testdata/real/tesla_p4_1gpu_numa_na_hami99.txt):
	// nothing to take, and no -hw spec.
	p4 := "../../topo/testdata/real/tesla_p4_1gpu_numa_na_hami99.txt"
	if _, out, _ := runCLI("topo", p4); !strings.HasPrefix(out, "machine: the capture settles no fact") {
		t.Errorf("one GPU, no NIC:\n%s", out)
	}
	if _, out, _ := runCLI("topo", p4, "-json"); !strings.Contains(out, `"hw": ""`) || !strings.Contains(out, `"facts": []`) {
		t.Errorf("one GPU, no NIC, JSON:\n%s", out)
	}
}

// TestTopoRingNICPath: where the machine line's nic_path, the path of
// NCCL's ring (topo.Topology.RingNICPath), is not the bindings' paths, a
// line says why; an HGX H100 showed PXN over bindings all at PIX without
// a word.
func TestTopoRingNICPath(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ file, want string }{
		{"h100_hgx_8nic_sglang30401.txt", "nic_path PXN is the path by which NCCL's ring enters and leaves the host, not a GPU's to its own NIC (the bindings' NCCL column: PIX)"},
		{"a100_dgx_nps4_10nic_tabs_gpucompress.txt", ""},
	} {
		code, out, stderr := runCLI("topo", "../../topo/testdata/real/"+c.file)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, stderr)
		}
		if got := strings.Contains(out, "\nnic_path "); c.want == "" && got || c.want != "" && !strings.Contains(out, c.want) {
			t.Errorf("%s:\n%s\nwant %q", c.file, out, c.want)
		}
	}
}
