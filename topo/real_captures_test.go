package topo

import (
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// realPair is a path a reader sees in a capture's matrix.
type realPair struct{ a, b, path string }

// realNIC is a GPU's nearest NIC as NICAssignment must choose it, and the path.
type realNIC struct {
	gpu       int
	nic, path string
}

// realCapture is what a person reads off one capture in testdata/real. Every
// number comes from the capture file named (its matrix, its CPU Affinity and
// NUMA Affinity columns, its NIC Legend); where the capture does not state a
// GPU's NUMA node the expectation is -1 unless a comment says how the node
// follows from the capture.
type realCapture struct {
	file       string
	gpus, nics int
	pairs      []realPair
	// numa is each GPU's NUMA node in index order.
	numa []int
	// nicNUMA is the NUMA node of some NICs, by name (-1: the capture cannot say).
	nicNUMA map[string]int
	// cpus is the CPU affinity of some GPUs, by index ("" for an empty field).
	cpus map[int]string
	// devices is the NIC Legend entry of some NICs, by name.
	devices map[string]string
	nearest []realNIC
	// problem is the one warning the capture raises, "" for none.
	problem string
}

var realCaptures = []realCapture{
	{
		// nccl-tests#380: H200 host of 4 ConnectX-7, each PIX to one GPU and
		// PXB to its neighbour; the header stops at "CPU Affinity", and each
		// row's NUMA node follows its CPU list.
		file: "h200_4nic_cut_header_nccltests380.txt", gpus: 8, nics: 4,
		pairs: []realPair{{"GPU0", "GPU7", "NV18"}, {"GPU0", "NIC2", "PXB"}, {"GPU1", "NIC2", "PIX"},
			{"GPU4", "NIC2", "SYS"}, {"NIC2", "NIC3", "NODE"}},
		numa:    []int{0, 0, 0, 0, 2, 2, 2, 2},
		cpus:    map[int]string{0: "0-23", 7: "48-71"},
		devices: map[string]string{"NIC2": "mlx5_2", "NIC5": "mlx5_5"},
		nearest: []realNIC{{1, "NIC2", "PIX"}, {7, "NIC5", "PIX"}},
		problem: "taken as NUMA Affinity",
	},
	{
		// sglang#30401: HGX H100, NV18 everywhere, GPU g PIX to NIC g, NODE
		// within a socket, SYS across; NUMA 0 for GPU0-3, 1 for GPU4-7.
		file: "h100_hgx_8nic_sglang30401.txt", gpus: 8, nics: 8,
		pairs: []realPair{{"GPU0", "GPU7", "NV18"}, {"GPU0", "NIC0", "PIX"}, {"GPU0", "NIC4", "SYS"},
			{"GPU5", "NIC5", "PIX"}, {"GPU5", "NIC7", "NODE"}, {"NIC0", "NIC3", "NODE"}},
		numa:    []int{0, 0, 0, 0, 1, 1, 1, 1},
		nicNUMA: map[string]int{"NIC0": 0, "NIC7": 1},
		cpus:    map[int]string{0: "0-47,96-143", 7: "48-95,144-191"},
		devices: map[string]string{"NIC7": "mlx5_7"},
		nearest: []realNIC{{0, "NIC0", "PIX"}, {6, "NIC6", "PIX"}},
	},
	{
		// gpu-compress README: DGX A100 in NPS4; GPU pairs share two PXB NICs;
		// NUMA Affinity 3,3,1,1,7,7,5,5; NIC8/NIC9 (PIX to each other, SYS to
		// every GPU) have no node the capture states or implies. The pair's
		// PXB tie is spread: GPU0 NIC0, GPU1 NIC1 (NICAssignment's rule 2).
		file: "a100_dgx_nps4_10nic_tabs_gpucompress.txt", gpus: 8, nics: 10,
		pairs: []realPair{{"GPU0", "GPU1", "NV12"}, {"GPU0", "NIC0", "PXB"}, {"GPU0", "NIC1", "PXB"},
			{"GPU0", "NIC2", "SYS"}, {"GPU7", "NIC7", "PXB"}, {"NIC8", "NIC9", "PIX"}},
		numa:    []int{3, 3, 1, 1, 7, 7, 5, 5},
		nicNUMA: map[string]int{"NIC0": 3, "NIC6": 5, "NIC8": -1, "NIC9": -1},
		cpus:    map[int]string{4: "112-127,240-255"},
		devices: map[string]string{"NIC9": "mlx5_9"},
		nearest: []realNIC{{0, "NIC0", "PXB"}, {1, "NIC1", "PXB"}, {6, "NIC6", "PXB"}},
	},
	{
		// weiziyang.wiki H200: re-spaced, a dashed rule, headings "NUMA" and
		// "GPU NUMA"; NIC8 (mlx5_bond_0) NODE to GPU0-3, SYS to GPU4-7.
		file: "h200_9nic_reformatted_blog.txt", gpus: 8, nics: 9,
		pairs: []realPair{{"GPU0", "NIC0", "PIX"}, {"GPU0", "NIC8", "NODE"}, {"GPU4", "NIC8", "SYS"},
			{"GPU7", "NIC7", "PIX"}, {"GPU3", "GPU4", "NV18"}},
		numa:    []int{0, 0, 0, 0, 1, 1, 1, 1},
		nicNUMA: map[string]int{"NIC8": 0, "NIC4": 1},
		cpus:    map[int]string{0: "0,2-47,96-143"},
		devices: map[string]string{"NIC1": "mlx5_3", "NIC8": "mlx5_bond_0"},
		nearest: []realNIC{{1, "NIC1", "PIX"}, {4, "NIC4", "PIX"}},
	},
	{
		// nccl-tests#311: A100 NPS4 with run-together columns. "NIC7NIC8" heads
		// two columns; GPU0's "SYSSYS" is NIC7 SYS, NIC8 SYS; GPU6's "PXBSYS" is
		// NIC7 PXB, NIC8 SYS; NIC6's "PIXSYS" is NIC7 PIX, NIC8 SYS; NIC9's
		// "SYSPIX" is NIC7 SYS, NIC8 PIX. NUMA Affinity 3,3,1,1,7,7,5,5.
		file: "a100_nps4_glued_columns_nccltests311.txt", gpus: 8, nics: 10,
		pairs: []realPair{{"GPU0", "NIC7", "SYS"}, {"GPU0", "NIC8", "SYS"}, {"GPU6", "NIC7", "PXB"},
			{"GPU6", "NIC8", "SYS"}, {"NIC6", "NIC7", "PIX"}, {"NIC8", "NIC9", "PIX"}, {"NIC7", "NIC9", "SYS"},
			{"GPU0", "NIC0", "PXB"}},
		numa:    []int{3, 3, 1, 1, 7, 7, 5, 5},
		nicNUMA: map[string]int{"NIC7": 5, "NIC8": -1},
		cpus:    map[int]string{2: "8-15,72-79"},
		devices: map[string]string{"NIC8": "mlx5_8"},
		nearest: []realNIC{{6, "NIC6", "PXB"}, {7, "NIC7", "PXB"}},
	},
	{
		// DeepEP#590 B300 + CX8: each GPU PXB to its own NIC (the NIC behind
		// the GPU's PCIe switch), NODE to the socket's others.
		file: "b300_cx8_pxb_deepep590.txt", gpus: 8, nics: 8,
		pairs: []realPair{{"GPU0", "NIC0", "PXB"}, {"GPU0", "NIC1", "NODE"}, {"GPU4", "NIC0", "SYS"},
			{"GPU1", "GPU2", "NV18"}},
		numa:    []int{0, 0, 0, 0, 1, 1, 1, 1},
		nicNUMA: map[string]int{"NIC3": 0, "NIC4": 1},
		cpus:    map[int]string{4: "64-127,192-255"},
		devices: map[string]string{"NIC5": "mlx5_bond_5"},
		nearest: []realNIC{{3, "NIC3", "PXB"}, {4, "NIC4", "PXB"}},
	},
	{
		// A800 environment snapshot: NV8; each GPU pair PIX to two NICs, so
		// the pair's tie is spread (GPU0 NIC0, GPU1 NIC1, ...).
		file: "a800_nv8_two_nics_per_pair_tabs.txt", gpus: 8, nics: 8,
		pairs: []realPair{{"GPU0", "NIC0", "PIX"}, {"GPU0", "NIC1", "PIX"}, {"GPU0", "NIC2", "NODE"},
			{"GPU0", "NIC4", "SYS"}, {"GPU0", "GPU7", "NV8"}, {"NIC0", "NIC1", "PIX"}},
		numa:    []int{0, 0, 0, 0, 1, 1, 1, 1},
		nicNUMA: map[string]int{"NIC1": 0, "NIC6": 1},
		cpus:    map[int]string{4: "62-123"},
		devices: map[string]string{"NIC0": "mlx5_bond_0"},
		nearest: []realNIC{{0, "NIC0", "PIX"}, {1, "NIC1", "PIX"}, {6, "NIC6", "PIX"}, {7, "NIC7", "PIX"}},
	},
	{
		// sglang#24413: a KVM guest, one H100 PCIe, one NIC behind the host
		// bridge.
		file: "h100_pcie_kvm_1gpu_sglang24413.txt", gpus: 1, nics: 1,
		pairs:   []realPair{{"GPU0", "NIC0", "PHB"}},
		numa:    []int{0},
		nicNUMA: map[string]int{"NIC0": 0},
		cpus:    map[int]string{0: "0-251"},
		devices: map[string]string{"NIC0": "mlx5_0"},
		nearest: []realNIC{{0, "NIC0", "PHB"}},
	},
	{
		// stelline ASUS ESC8000A-E12: two GPUs and one dual-port NIC (NIC0/1,
		// PIX to each other) per socket; the NODE tie is spread.
		file: "rtx6000ada_4gpu_4nic_stelline.txt", gpus: 4, nics: 4,
		pairs: []realPair{{"GPU0", "GPU1", "NODE"}, {"GPU0", "GPU2", "SYS"}, {"GPU2", "NIC2", "NODE"},
			{"NIC0", "NIC1", "PIX"}, {"GPU0", "NIC2", "SYS"}},
		numa:    []int{0, 0, 1, 1},
		nicNUMA: map[string]int{"NIC1": 0, "NIC2": 1},
		cpus:    map[int]string{2: "32-63"},
		devices: map[string]string{"NIC3": "mlx5_3"},
		nearest: []realNIC{{0, "NIC0", "NODE"}, {1, "NIC1", "NODE"}, {2, "NIC2", "NODE"}, {3, "NIC3", "NODE"}},
	},
	{
		// go-gpuallocator#17: 8 x 4090, every GPU pair SYS, the dual-port NIC
		// PHB to GPU6 only; no NIC Legend in the post.
		file: "rtx4090_8gpu_all_sys_gpuallocator17.txt", gpus: 8, nics: 2,
		pairs: []realPair{{"GPU0", "GPU1", "SYS"}, {"GPU4", "GPU5", "SYS"}, {"GPU6", "NIC0", "PHB"},
			{"GPU6", "NIC1", "PHB"}, {"GPU7", "NIC0", "SYS"}, {"NIC0", "NIC1", "PIX"}},
		numa:    []int{0, 0, 0, 0, 1, 1, 1, 1},
		nicNUMA: map[string]int{"NIC0": 1}, // PHB to GPU6, NUMA Affinity 1
		devices: map[string]string{"NIC0": ""},
		// All GPUs tie between NIC0 and NIC1; in index order they alternate.
		nearest: []realNIC{{0, "NIC0", "SYS"}, {6, "NIC0", "PHB"}, {7, "NIC1", "SYS"}},
	},
	{
		// LMDeploy check_env: one GPU (NUMA 1), NIC3 PXB and NIC4 NODE on its
		// socket; NIC0-2 SYS to it and NODE among themselves: the other socket,
		// whose node number the capture does not give.
		file: "single_gpu_5bond_nics_lmdeploy.txt", gpus: 1, nics: 5,
		pairs: []realPair{{"GPU0", "NIC3", "PXB"}, {"GPU0", "NIC4", "NODE"}, {"GPU0", "NIC0", "SYS"},
			{"NIC0", "NIC1", "NODE"}, {"NIC3", "NIC4", "NODE"}},
		numa:    []int{1},
		nicNUMA: map[string]int{"NIC3": 1, "NIC4": 1, "NIC0": -1, "NIC2": -1},
		devices: map[string]string{"NIC4": "mlx5_bond_4"},
		nearest: []realNIC{{0, "NIC3", "PXB"}},
	},
	{
		// Paddle P40 note: old driver, SOC for SYS, NIC column headed mlx5_0;
		// one CPU Affinity list for all GPUs and no NUMA column: nodes unknown.
		file: "p40_8gpu_mlx5_soc_paddle.txt", gpus: 8, nics: 1,
		pairs: []realPair{{"GPU0", "GPU1", "PIX"}, {"GPU0", "GPU4", "PXB"}, {"GPU0", "mlx5_0", "SYS"},
			{"GPU7", "mlx5_0", "SYS"}},
		numa:    []int{-1, -1, -1, -1, -1, -1, -1, -1},
		cpus:    map[int]string{5: "0-13"},
		devices: map[string]string{"mlx5_0": "mlx5_0"},
		nearest: []realNIC{{0, "mlx5_0", "SYS"}},
	},
	{
		// Nimbix 2016 K80s: no NUMA column; the two CPU Affinity lists 0-7 and
		// 8-15 are disjoint, so Parse numbers them 0 and 1 (its documented
		// rule, Linux's numbering); mlx5_0 PHB to GPU2/GPU3 is on node 1.
		file: "k80_nimbix_4gpu_mlx5_soc_2016.txt", gpus: 4, nics: 1,
		pairs:   []realPair{{"GPU0", "GPU1", "PIX"}, {"GPU0", "GPU2", "SYS"}, {"GPU2", "mlx5_0", "PHB"}, {"GPU0", "mlx5_0", "SYS"}},
		numa:    []int{0, 0, 1, 1},
		nicNUMA: map[string]int{"mlx5_0": 1},
		cpus:    map[int]string{2: "8-15"},
		nearest: []realNIC{{2, "mlx5_0", "PHB"}, {0, "mlx5_0", "SYS"}},
	},
	{
		// rossumai 7gforce: one socket, two PCIe switches (GPU0-2, GPU3-6).
		file: "gtx1070_7gpu_single_socket_rossumai.txt", gpus: 7,
		pairs: []realPair{{"GPU0", "GPU1", "PIX"}, {"GPU0", "GPU3", "PHB"}, {"GPU3", "GPU6", "PIX"}, {"GPU2", "GPU6", "PHB"}},
		numa:  []int{-1, -1, -1, -1, -1, -1, -1},
		cpus:  map[int]string{6: "0-19"},
	},
	{
		// rossumai az-2x-m60: header flush left, SOC between the two GPUs.
		file: "m60_azure_nv12_2gpu_soc_rossumai.txt", gpus: 2,
		pairs: []realPair{{"GPU0", "GPU1", "SYS"}},
		numa:  []int{-1, -1},
		cpus:  map[int]string{1: "0-11"},
	},
	{
		// Sheffield DGX-1: header "GPU0GPU1...GPU7mlx5_0" run together, NICs
		// in the column order mlx5_0, mlx5_2, mlx5_1, mlx5_3; CPU Affinity
		// "1-1" everywhere, no NUMA column: nodes unknown.
		file: "dgx1_p100_glued_header_sheffield.txt", gpus: 8, nics: 4,
		pairs: []realPair{{"GPU0", "GPU1", "NV1"}, {"GPU0", "GPU5", "SYS"}, {"GPU0", "mlx5_0", "PIX"},
			{"GPU0", "mlx5_1", "PHB"}, {"GPU7", "mlx5_3", "PIX"}, {"mlx5_0", "mlx5_1", "PHB"}, {"mlx5_2", "mlx5_3", "PHB"}},
		numa:    []int{-1, -1, -1, -1, -1, -1, -1, -1},
		cpus:    map[int]string{0: "1"},
		devices: map[string]string{"mlx5_2": "mlx5_2"},
		nearest: []realNIC{{2, "mlx5_1", "PIX"}, {4, "mlx5_2", "PIX"}},
	},
	{
		// Princeton della: two A100s on two sockets, a NODE NIC each.
		file: "della_a100_2gpu_mlx5_columns_princeton.txt", gpus: 2, nics: 2,
		pairs:   []realPair{{"GPU0", "GPU1", "SYS"}, {"GPU0", "mlx5_0", "NODE"}, {"GPU1", "mlx5_1", "NODE"}, {"mlx5_0", "mlx5_1", "SYS"}},
		numa:    []int{0, 1},
		nicNUMA: map[string]int{"mlx5_0": 0, "mlx5_1": 1},
		cpus:    map[int]string{1: "64-127"},
		nearest: []realNIC{{0, "mlx5_0", "NODE"}, {1, "mlx5_1", "NODE"}},
	},
	{
		// Princeton Traverse (POWER9): NUMA nodes 0 and 8, NV3 pairs.
		file: "traverse_power9_v100_nv3_princeton.txt", gpus: 4, nics: 4,
		pairs:   []realPair{{"GPU0", "GPU1", "NV3"}, {"GPU0", "GPU2", "SYS"}, {"GPU2", "mlx5_2", "NODE"}, {"mlx5_0", "mlx5_1", "PIX"}},
		numa:    []int{0, 0, 8, 8},
		nicNUMA: map[string]int{"mlx5_2": 8, "mlx5_1": 0},
		nearest: []realNIC{{0, "mlx5_0", "NODE"}, {3, "mlx5_3", "NODE"}},
	},
	{
		// Slurm page: GPU2/GPU3's CPU Affinity is an empty tab field and their
		// NUMA Affinity 1. Every NIC is NODE to GPUs of nodes 0 and 1, so the
		// capture gives no NIC a node.
		file: "nv4_4gpu_empty_cpu_affinity_slurm.txt", gpus: 4, nics: 3,
		pairs:   []realPair{{"GPU0", "GPU3", "NV4"}, {"GPU2", "NIC0", "NODE"}, {"NIC0", "NIC1", "PIX"}, {"NIC0", "NIC2", "PHB"}},
		numa:    []int{0, 0, 1, 1},
		nicNUMA: map[string]int{"NIC0": -1, "NIC2": -1},
		cpus:    map[int]string{0: "0", 1: "0", 2: "", 3: ""},
		devices: map[string]string{"NIC2": "mlx5_2"},
		nearest: []realNIC{{0, "NIC0", "NODE"}},
	},
	{
		// Azure ND40rs_v2: hybrid cube-mesh, NV2/NV1 where linked, NODE where
		// not; one NUMA node.
		file: "azure_nd40rs_v2_8gpu_cube_mesh.txt", gpus: 8,
		pairs: []realPair{{"GPU0", "GPU1", "NV2"}, {"GPU0", "GPU2", "NV1"}, {"GPU0", "GPU4", "NODE"},
			{"GPU4", "GPU7", "NV2"}, {"GPU6", "GPU7", "NV2"}, {"GPU1", "GPU7", "NV1"}},
		numa: []int{0, 0, 0, 0, 0, 0, 0, 0},
		cpus: map[int]string{7: "0-19"},
	},
	{
		// HAMi#99: one Tesla P4, NUMA Affinity N/A.
		file: "tesla_p4_1gpu_numa_na_hami99.txt", gpus: 1,
		numa: []int{-1},
		cpus: map[int]string{0: "0-7"},
	},
	{
		// JingchaoZhang's NCv4 post, nc48v4: two A100 80GB joined by NV12
		// (an NVLink bridge); NUMA Affinity "0-1" names no one node.
		file: "a100_80g_azure_nc48_2gpu_nv12_blog.txt", gpus: 2,
		pairs:   []realPair{{"GPU0", "GPU1", "NV12"}},
		numa:    []int{-1, -1},
		problem: `NUMA Affinity "0-1" spans several NUMA nodes`,
		cpus:    map[int]string{0: "0-1", 1: "0-1"},
	},
	{
		// The same post, nc96v4: NV12 between GPU0-GPU1 and GPU2-GPU3, SYS
		// between the pairs; CPU Affinity 0 and NUMA Affinity "0-3" on
		// every row.
		file: "a100_80g_azure_nc96_4gpu_nv12_pairs_blog.txt", gpus: 4,
		pairs:   []realPair{{"GPU0", "GPU1", "NV12"}, {"GPU2", "GPU3", "NV12"}, {"GPU0", "GPU2", "SYS"}, {"GPU1", "GPU3", "SYS"}},
		numa:    []int{-1, -1, -1, -1},
		problem: `NUMA Affinity "0-3" spans several NUMA nodes`,
		cpus:    map[int]string{0: "0", 3: "0"},
	},
	{
		// club-3090#1229: two RTX 5090 under one host bridge.
		file: "rtx5090_2gpu_phb_club3090.txt", gpus: 2,
		pairs: []realPair{{"GPU0", "GPU1", "PHB"}},
		numa:  []int{0, 0},
		cpus:  map[int]string{1: "0-63"},
	},
}

// TestRealCaptures parses every public capture in testdata/real and checks
// it against what the capture itself says (realCaptures).
func TestRealCaptures(t *testing.T) {
	files, err := filepath.Glob("testdata/real/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(realCaptures) {
		t.Errorf("%d files in testdata/real, %d described in realCaptures", len(files), len(realCaptures))
	}
	for _, c := range realCaptures {
		t.Run(c.file, func(t *testing.T) {
			top := parseFile(t, filepath.Join("testdata", "real", c.file), c.problem)
			checkRealCapture(t, top, c)
		})
	}
}

// parseFile parses a real capture, which must read without problems but
// the one named (a substring of its message, "" for none): each is what
// nvidia-smi printed, with no row short or long and no asymmetric pair.
func parseFile(t *testing.T, path, problem string) *Topology {
	t.Helper()
	top, problems, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range problems {
		if i > 0 || problem == "" || !strings.Contains(p.Error(), problem) {
			t.Errorf("problem: %v", p)
		}
	}
	if problem != "" && len(problems) == 0 {
		t.Errorf("no problem; want %q", problem)
	}
	return top
}

func checkRealCapture(t *testing.T, top *Topology, c realCapture) {
	t.Helper()
	if g, n := len(top.GPUs()), len(top.NICs()); g != c.gpus || n != c.nics {
		t.Fatalf("%d GPUs, %d NICs; want %d, %d", g, n, c.gpus, c.nics)
	}
	for _, p := range c.pairs {
		want, err := ParsePath(p.path)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := top.PathByName(p.a, p.b); err != nil || got != want {
			t.Errorf("%s-%s = %v (%v), want %v", p.a, p.b, got, err, want)
		}
	}
	for g, want := range c.numa {
		if got := top.GPU(g).NUMA; got != want {
			t.Errorf("GPU%d NUMA = %d, want %d", g, got, want)
		}
	}
	for name, want := range c.nicNUMA {
		if d, ok := top.Lookup(name); !ok || d.NUMA != want {
			t.Errorf("%s NUMA = %d (found %v), want %d", name, d.NUMA, ok, want)
		}
	}
	for g, want := range c.cpus {
		if got := top.GPU(g).CPUs.String(); got != want {
			t.Errorf("GPU%d CPU affinity %q, want %q", g, got, want)
		}
	}
	for name, want := range c.devices {
		if d, ok := top.Lookup(name); !ok || d.Kind != NIC || d.Device != want {
			t.Errorf("%s device %q (found %v), want %q", name, d.Device, ok, want)
		}
	}
	for _, w := range c.nearest {
		n, p, ok := top.NearestNIC(w.gpu)
		if !ok || top.NIC(n).Name != w.nic || p.String() != w.path {
			t.Errorf("GPU%d nearest NIC %d (%v, %v), want %s %s", w.gpu, n, p, ok, w.nic, w.path)
		}
	}
	checkBindingsNUMA(t, top)
	// What `commlab topo -json` and the table need: the report and JSON of
	// the bindings and pairs.
	if _, err := json.Marshal(struct {
		B []Binding
		P []Pair
	}{top.Bindings(), top.Pairs()}); err != nil {
		t.Error(err)
	}
	if err := WriteReport(io.Discard, top); err != nil {
		t.Error(err)
	}
}

// checkBindingsNUMA: a GPU whose NUMA node has a NIC is bound to a NIC on
// that node.
func checkBindingsNUMA(t *testing.T, top *Topology) {
	t.Helper()
	var nodes []int
	for _, n := range top.NICs() {
		nodes = append(nodes, n.NUMA)
	}
	for g, b := range top.Bindings() {
		node := top.GPU(g).NUMA
		if node < 0 || !slices.Contains(nodes, node) {
			continue
		}
		nic, ok := top.Lookup(b.NIC)
		if !ok || nic.NUMA != node {
			t.Errorf("GPU%d (NUMA %d) bound to %q on NUMA %d, though a NIC is on its node", g, node, b.NIC, nic.NUMA)
		}
	}
}

// TestNUMASpanWarning: a NUMA Affinity of several nodes (Azure's nc48v4,
// "0-1") is a warning with its own cause, ErrNUMASpan, as every other
// warning has one (FuzzParse's numa_affinity_span_no_cause: it had none).
func TestNUMASpanWarning(t *testing.T) {
	_, problems, err := ParseFile(filepath.Join("testdata", "real", "a100_80g_azure_nc48_2gpu_nv12_blog.txt"))
	if err != nil || len(problems) != 1 || !errors.Is(problems[0], ErrNUMASpan) || problems[0].Line < 1 {
		t.Fatalf("%v, %v; want one ErrNUMASpan at a line", problems, err)
	}
}
