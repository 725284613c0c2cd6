package presets

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/units"
)

var update = flag.Bool("update", false, "rewrite the catalog table of docs/predict.md from Systems")

// TestSystems holds every system of the catalog to what it must be: a GPU
// that nccl.ParseGPU knows, a source, a name that no other differs from
// only in case and that SystemByName finds in any case (Azure's names mix
// cases: Standard_ND96isr_H100_v5), and, where the catalog joins each pair
// of GPUs by links of its own, as many links in all as the GPU's datasheet
// gives it (nccl.ParseGPU's NVLinks).
func TestSystems(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Systems {
		if seen[strings.ToLower(s.Name)] || s.Name == "" || strings.ContainsAny(s.Name, ", =") {
			t.Errorf("%q: a name twice in some case, or one that -hw's KEY=VALUE list cannot hold", s.Name)
		}
		seen[strings.ToLower(s.Name)] = true
		g, err := nccl.ParseGPU(s.GPU)
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if s.Source == "" || s.PerHost < 1 || s.NICs < 0 || s.NICBW < 0 || (s.Domain != 0 && s.Domain < s.PerHost) {
			t.Errorf("%s: %+v", s.Name, s)
		}
		if s.PairLinks > 0 && s.PairLinks*(s.PerHost-1) != g.NVLinks {
			t.Errorf("%s: %d links to each of %d peers, but %s has %d", s.Name, s.PairLinks, s.PerHost-1, g.Name, g.NVLinks)
		}
		for _, name := range []string{s.Name, strings.ToUpper(s.Name), strings.ToLower(s.Name)} {
			if got, ok := SystemByName(name); !ok || got.Name != s.Name {
				t.Errorf("SystemByName(%q) = %v, %v", name, got.Name, ok)
			}
		}
	}
	if _, ok := SystemByName("dgx-z"); ok {
		t.Error("an unknown system was found")
	}
}

// TestSystemFigures holds the systems to the figures their sources state.
func TestSystemFigures(t *testing.T) {
	cases := []struct {
		name            string
		perHost, domain int
		fabric          string
		pairLinks, nics int
		nicBW           float64
		cpu             string
	}{
		// DGX BasePOD RA: 8 single-port ConnectX-7 of 400 Gb/s, 4 NVSwitch chips, Xeon 8480C.
		{"dgx-h200", 8, 0, "nvswitch", 0, 8, 50e9, "intel"},
		// NVL72 AI Factory RA: 4 ConnectX-8 per tray of 4 GPUs; ConnectX-8 release notes: 800 Gb/s.
		{"gb300-nvl72", 4, 72, "nvswitch", 0, 4, 100e9, "arm"},
		// CSCS Alps GH200 schematic: "l2all: 3x6" NVLinks, 150 GB/s a direction, 4 x 200Gb/s (25GB/s).
		{"hpe-ex254n-gh200", 4, 0, "mesh", 6, 4, 25e9, "arm"},
		// NERSC Perlmutter: 4 NVLinks between each pair, 4 Slingshot 11 NICs, AMD EPYC 7763.
		{"hpe-ex235n-a100", 4, 0, "mesh", 4, 4, 25e9, "amd"},
		// OLCF Frontier: 8 GCDs, 4 Slingshot NICs of 200 Gbps (25 GB/s), AMD EPYC.
		{"hpe-ex235a-mi250x", 8, 0, "infinity", 0, 4, 25e9, "amd"},
		// ROCm MI300 node-level architecture: 7 Infinity Fabric links, fully connected 8 GPUs.
		{"mi300x-platform", 8, 0, "infinity", 1, 0, 0, ""},
		{"mi325x-platform", 8, 0, "infinity", 1, 0, 0, ""},
		// AMD at Hot Chips 2025: 8 GPUs fully connected, 7 Infinity Fabric links each.
		{"mi355x-platform", 8, 0, "infinity", 1, 0, 0, ""},
		// AWS accelerated computing specifications: p4d and p4de "4x 100 Gigabit", 4 network cards;
		// AWS's P4d deep dive: NVSwitch; Intel Xeon Platinum 8175.
		{"p4d.24xlarge", 8, 0, "nvswitch", 0, 4, 12.5e9, "intel"},
		{"p4de.24xlarge", 8, 0, "", 0, 4, 12.5e9, "intel"},
		// AWS: "3200 Gigabit" on 32 (p5, p5e), 16 (p5en) and 8 (p6-b200) network cards; aws-ofi-nccl
		// makes one NCCL device per GPU of them, its speed their sum: 3200 Gb/s over 8 devices is 400 Gb/s.
		{"p5.48xlarge", 8, 0, "", 0, 8, 50e9, "amd"},
		{"p5e.48xlarge", 8, 0, "", 0, 8, 50e9, "amd"},
		{"p5en.48xlarge", 8, 0, "", 0, 8, 50e9, "intel"},
		{"p6-b200.48xlarge", 8, 0, "", 0, 8, 50e9, "intel"},
		// Google Cloud, Networking and GPU machines: A4 and A3 Ultra have 8 CX-7 NICs, one a GPU,
		// "a total network bandwidth of 3,200 Gbps": 400 Gb/s each; the page names no CPU, no NVSwitch.
		// Google Cloud, Create an AI-optimized Slurm cluster: A3 Ultra and A4 run only on Emerald Rapids.
		{"a3-ultragpu-8g", 8, 0, "", 0, 8, 50e9, "intel"},
		{"a4-highgpu-8g", 8, 0, "", 0, 8, 50e9, "intel"},
		// Google Cloud, Accelerator-optimized machine family: A3 Mega's NICs "8+1", A3 High's and
		// A3 Edge's "4+1", the first group for GPU-to-GPU traffic, no NIC's rate; A3 on Sapphire
		// Rapids, A2 on Cascade Lake with no NIC count.
		{"a3-megagpu-8g", 8, 0, "", 0, 8, 0, "intel"},
		{"a3-highgpu-8g", 8, 0, "", 0, 4, 0, "intel"},
		{"a3-edgegpu-8g", 8, 0, "", 0, 4, 0, "intel"},
		{"a2-ultragpu-8g", 8, 0, "", 0, 0, 0, "intel"},
		{"a2-highgpu-8g", 8, 0, "", 0, 0, 0, "intel"},
		// Azure ND A100 v4 and NDm A100 v4: a dedicated HDR InfiniBand connection per GPU (HDR is
		// 200 Gb/s; the pages write "200 GB/s"), AMD EPYC 7V12.
		{"Standard_ND96asr_v4", 8, 0, "", 0, 8, 25e9, "amd"},
		{"Standard_ND96amsr_A100_v4", 8, 0, "", 0, 8, 25e9, "amd"},
		// Azure ND H100 v5 and ND H200 v5: "its own dedicated ... 400 Gbps NVIDIA Quantum-2 CX7
		// InfiniBand connection" per GPU, Intel Xeon (Sapphire Rapids).
		{"Standard_ND96isr_H100_v5", 8, 0, "", 0, 8, 50e9, "intel"},
		{"Standard_ND96isr_H200_v5", 8, 0, "", 0, 8, 50e9, "intel"},
		// Azure ND MI300X v5: the same 400 Gbps connection per GPU; Infinity Fabric links joining
		// each GPU to one another, 896 GB/s in all at 128 GB/s: one link to each of 7 peers.
		{"Standard_ND96isr_MI300X_v5", 8, 0, "infinity", 1, 8, 50e9, "intel"},
		// OCI Compute Shapes, bare metal GPU shapes: BM.GPU4.8 "8 x 200 Gbps RDMA" over the 16
		// devices of Oracle's NCCL_IB_HCA (oci-hpc nccl-conf/files/bm.gpu4.8): 1600/16 = 100 Gb/s;
		// A100-v2.8 "16 x 100 Gbps"; H100.8 "8 x 2 x 200 Gbps"; H200.8, B200.8 "8 x 400 Gbps";
		// MI300X.8 "8 x 1 x 400 Gbps"; AMD EPYC 7542 and 7J13, Intel 8480+ and 8592+.
		{"BM.GPU4.8", 8, 0, "", 0, 16, 12.5e9, "amd"},
		{"BM.GPU.A100-v2.8", 8, 0, "", 0, 16, 12.5e9, "amd"},
		{"BM.GPU.H100.8", 8, 0, "", 0, 16, 25e9, "intel"},
		{"BM.GPU.H200.8", 8, 0, "", 0, 8, 50e9, "intel"},
		{"BM.GPU.B200.8", 8, 0, "", 0, 8, 50e9, "intel"},
		{"BM.GPU.MI300X.8", 8, 0, "", 0, 8, 50e9, "intel"},
		// NVIDIA's PCIe Optimized 2-8-5 and RTX PRO AI Factory RAs: 8 PCIe cards.
		{"pcie-l40s-8gpu", 8, 0, "pcie", 0, 0, 0, ""},
		{"pcie-rtx-pro-6000-8gpu", 8, 0, "pcie", 0, 0, 0, ""},
	}
	for _, c := range cases {
		s, ok := SystemByName(c.name)
		if !ok {
			t.Errorf("no system %s", c.name)
			continue
		}
		if s.PerHost != c.perHost || s.Domain != c.domain || s.Fabric != c.fabric || s.PairLinks != c.pairLinks ||
			s.NICs != c.nics || s.NICBW != c.nicBW || s.CPU != c.cpu {
			t.Errorf("%s: %+v, want %+v", c.name, s, c)
		}
	}
}

// systemsTable is the catalog as docs/predict.md shows it, one row a
// system.
func systemsTable() string {
	var b strings.Builder
	b.WriteString("| system | GPU | GPUs per host | fabric | NICs per host | NIC rate | NIC path | CPU | source |\n|---|---|---:|---|---:|---|---|---|---|\n")
	for _, s := range Systems {
		g, _ := nccl.ParseGPU(s.GPU)
		per := fmt.Sprint(s.PerHost)
		if s.Domain > 0 {
			per += fmt.Sprintf(" (NVLink domain of %d)", s.Domain)
		}
		fabric := s.Fabric
		switch {
		case s.PairLinks == 1:
			fabric += ", 1 link a pair"
		case s.PairLinks > 1:
			fabric += fmt.Sprintf(", %d links a pair", s.PairLinks)
		}
		nics, rate := "", ""
		if s.NICs > 0 {
			nics = fmt.Sprint(s.NICs)
		}
		if s.NICBW > 0 {
			rate = units.FormatNumber(s.NICBW*8/1e9) + " Gb/s"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |\n", s.Name, g.Name, per, fabric, nics, rate, s.NICPath, s.CPU, s.Source)
	}
	return b.String()
}

// TestSystemsTable keeps docs/predict.md's catalog table what Systems
// holds; -update rewrites it.
func TestSystemsTable(t *testing.T) {
	const path = "../docs/predict.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)(<!-- systems:[^\n]*-->\n).*?(<!-- /systems -->)`)
	m := re.FindSubmatchIndex(doc)
	if m == nil {
		t.Fatalf("%s: no <!-- systems: --> ... <!-- /systems --> block", path)
	}
	got := string(doc[m[3]:m[4]])
	want := systemsTable()
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("%s: the catalog table is not presets.Systems; run go test ./presets -run TestSystemsTable -update\ngot:\n%s\nwant:\n%s", path, got, want)
	}
	var out bytes.Buffer
	out.Write(doc[:m[3]])
	out.WriteString(want)
	out.Write(doc[m[4]:])
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestNearSystems: Azure's sizes are named Standard_... by its API and
// often without the prefix by their users (a red team's -hw
// system=ND96asr_v4 was refused with the whole catalog listed); a part of
// a name is none (a review: "H200" offered GH200's system).
func TestNearSystems(t *testing.T) {
	for _, c := range []struct {
		name string
		want []string
	}{
		{"ND96asr_v4", []string{"Standard_ND96asr_v4"}},
		{"nd96amsr_a100_v4", []string{"Standard_ND96amsr_A100_v4"}},
		{"ND96isr", nil},
		{"H200", nil},
		{"dgx", nil},
		{"no-such-system", nil},
	} {
		if got := NearSystems(c.name); !slices.Equal(got, c.want) {
			t.Errorf("NearSystems(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
