package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// hcaValue is an NCCL_IB_HCA value of exact names as commlab writes one:
// "=" and devices, comma-separated.
var hcaValue = regexp.MustCompile(`(?:^|[\s(,])(=[A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)*)`)

// perRankHCA finds a per-rank NCCL_IB_HCA in text: a GPU named with a
// value of its own ("GPU0: NCCL_IB_HCA==mlx5_0"), advice to pin each
// rank's NIC, or more than one NCCL_IB_HCA value (topo's old column,
// =mlx5_0 to =mlx5_7 a GPU each). It returns what it found, "" for none.
func perRankHCA(text string) string {
	if m := regexp.MustCompile(`GPU\d+[^;\n]{0,40}NCCL_IB_HCA`).FindString(text); m != "" {
		return m
	}
	if strings.Contains(text, "each rank's NIC") {
		return "each rank's NIC"
	}
	var values []string
	for _, m := range hcaValue.FindAllStringSubmatch(text, -1) {
		if !slices.Contains(values, m[1]) {
			values = append(values, m[1])
		}
	}
	if len(values) > 1 {
		return strings.Join(values, " ")
	}
	return ""
}

// TestNoPerRankIBHCA: topo and diagnose told each GPU's rank to set its
// own NCCL_IB_HCA ("GPU0: NCCL_IB_HCA==mlx5_0; GPU1: NCCL_IB_HCA==mlx5_1"
// and a column of them, red team 47 finding 1). Every rank builds its
// topology from the NICs its NCCL_IB_HCA allows and NCCL joins the rings
// from every rank's graph (src/init.cc), so ranks that differ break them:
// "You should not set NCCL_IB_HCA differently on each rank" (NVIDIA/nccl
// issue 1478). The advice is one value for the host, and each rank's
// CPUs; this test fails if a per-rank value comes back in topo's text,
// JSON or CSV, or in diagnose's advice.
func TestNoPerRankIBHCA(t *testing.T) {
	t.Parallel()
	const hgx = "../../topo/testdata/real/h100_hgx_8nic_sglang30401.txt"
	// The capture's NIC legend: mlx5_0 to mlx5_7, each PIX to one GPU and
	// so each some GPU's nearest.
	const all8 = "=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7"
	// The same capture with its NIC legend named as NCCL's debug lines of
	// the doca log name the NICs it ran on (line 28: mlx5_0, mlx5_1,
	// mlx5_2, mlx5_4, mlx5_5, mlx5_6, mlx5_7 and mlx5_11), so that
	// diagnose gives the host's list: the log and capture agree.
	src, err := os.ReadFile(hgx)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"mlx5_0", "mlx5_1", "mlx5_2", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_11"}
	text := string(src)
	for i := len(names) - 1; i >= 0; i-- {
		text = strings.Replace(text, fmt.Sprintf("NIC%d: mlx5_%d\n", i, i), fmt.Sprintf("NIC%d: %s\n", i, names[i]), 1)
	}
	agreeing := filepath.Join(t.TempDir(), "hgx_doca_names.txt")
	if err := os.WriteFile(agreeing, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	const docaHW = "nics=8,nic-bw=400Gb/s,cpu=intel,nvls=true,collnet=false,net-lat=1"
	doca := realLog("h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log")
	code, out, stderr := runCLI("diagnose", "-topo", agreeing, "-hw", docaHW, doca)
	if want := "=" + strings.Join(names, ","); code != 0 || !strings.Contains(out, "NCCL_IB_HCA: none needed") || !strings.Contains(out, want) || strings.Contains(out, "does not show") {
		t.Errorf("diagnose on a capture whose NICs the log names: exit %d, want the host's list %s:\n%s%s", code, want, out, stderr)
	}
	for _, args := range [][]string{
		{"diagnose", "-topo", agreeing, "-hw", docaHW, doca},
		{"topo", hgx},
		{"topo", "-preset", "h20-article"},
		{"topo", "../../topo/testdata/dgx_a100_nps4.txt"},
		{"topo", "-format", "csv", hgx},
		{"diagnose", "-topo", hgx, "-hw", docaHW, doca},
	} {
		code, out, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		if m := perRankHCA(out); m != "" {
			t.Errorf("%q: a per-rank NCCL_IB_HCA (%s):\n%s", args, m, out)
		}
	}
	code, out, stderr = runCLI("topo", "-json", hgx)
	var res struct {
		GPUs      []map[string]any `json:"gpus"`
		NCCLIBHCA string           `json:"nccl_ib_hca"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("JSON: exit %d: %s %s", code, out, stderr)
	}
	if res.NCCLIBHCA != all8 {
		t.Errorf("JSON nccl_ib_hca %q, want %q", res.NCCLIBHCA, all8)
	}
	for _, g := range res.GPUs {
		if v, ok := g["nccl_ib_hca"]; ok {
			t.Errorf("JSON: %v has an nccl_ib_hca of its own, %v", g["name"], v)
		}
	}
	// A capture of 2 of the HGX's 8 GPUs with all its NICs gives no list:
	// its 6 other NICs look like the rails of the GPUs it does not show.
	code, out, stderr = runCLI("topo", "-json", "../../topo/testdata/hgx_h100_two_of_eight_gpus.txt")
	var part struct {
		NCCLIBHCA string   `json:"nccl_ib_hca"`
		Left      []string `json:"nccl_ib_hca_leaves_out"`
		Rails     []string `json:"nccl_ib_hca_unshown_rails"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &part) != nil || part.NCCLIBHCA != "" || len(part.Left) != 0 || len(part.Rails) != 6 {
		t.Errorf("2 of 8 GPUs: exit %d, %+v; want no list and the 6 NICs NIC2 to NIC7 as rails: %s", code, part, stderr)
	}
	top, _, err := topo.ParseFile(hgx)
	if err != nil {
		t.Fatal(err)
	}
	// Without NCCL's device list, diagnose gives the host's value once.
	a := bindingAdvice(top, 0, nccltests.Evidence{})
	if m := perRankHCA(a); m != "" || !strings.Contains(a, all8) || !strings.Contains(a, "GPU0, GPU1, GPU2 and GPU3 on NUMA node 0, CPUs 0-47,96-143") {
		t.Errorf("binding advice %q: want %s once and the GPUs' NUMA nodes and CPUs", a, all8)
	}
	// The old text, which the check must catch.
	for _, old := range []string{
		"from the topology: GPU0: NCCL_IB_HCA==mlx5_0, CPUs 0-47,96-143; GPU1: NCCL_IB_HCA==mlx5_1, CPUs 0-47,96-143",
		"GPU0  NIC0  mlx5_0  PIX   PIX   yes  1         0     0-47,96-143    =mlx5_0\nGPU1  NIC1  mlx5_1  PIX   PIX   yes  1         0     0-47,96-143    =mlx5_1",
		"the network: pin each rank's NIC (NCCL_IB_HCA, from -topo)",
	} {
		if perRankHCA(old) == "" {
			t.Errorf("perRankHCA misses %q", old)
		}
	}
}

// TestTopoCSVColumns: docs/topology.md lists topo's CSV columns, which hold
// no NCCL_IB_HCA of a GPU's (the host's is in the text and the JSON); the
// header the CLI writes is that list.
func TestTopoCSVColumns(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/topology.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`(name,numa,[a-z_,]+)`").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/topology.md lists no CSV columns")
	}
	code, out, stderr := runCLI("topo", "-format", "csv", "../../topo/testdata/dgx_a100_nps4.txt")
	header, _, _ := strings.Cut(out, "\n")
	if code != 0 || header != string(m[1]) || slices.Contains(strings.Split(header, ","), "nccl_ib_hca") {
		t.Errorf("exit %d: CSV header %q, docs %q: want them equal, without nccl_ib_hca: %s", code, header, m[1], stderr)
	}
}
