package predict

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
)

// TestDiagnoseGDRPath: Kestrel's 16 x 4 H100 AllReduce over Slingshot,
// diagnosed uncalibrated. Its debug lines may show GPUDirect RDMA ("via
// NET/Libfabric/0/GDRDMA", "Connected all rings ... GDR 1", the red
// team's k_dbg.log around this table), which NCCL enables only within
// NCCL_NET_GDR_LEVEL ("int netGdrLevel = ncclParamNetGdrC2c() ? PATH_P2C :
// PATH_PXB", src/graph/paths.cc:511 in 2.30.7, unless the environment
// sets it). Only with that level shown at PXB are the NICs behind the CPU
// (PHB) no cause to offer, as predict offers none (gdrWithinPXB);
// GPUDirect RDMA alone, or under NCCL_NET_GDR_LEVEL=PHB, leaves the path
// a guess.
func TestDiagnoseGDRPath(t *testing.T) {
	// The log keeps no Rank lines: its README gives 16 nodes of 4 H100s.
	pins := func(int) Pins { return Pins{Nodes: 16, PerNode: 4, SystemGPU: "H100-SXM"} }
	tabs, _, err := ReadFile("../../data/nccltests/testdata/real/h100_16x4_allreduce_slingshot_kestrel.log", pins)
	if err != nil || len(tabs) == 0 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	mentions := func(tab Table) bool {
		fs, _, err := Uncalibrated(h).Diagnose(tab)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(fs, func(f Finding) bool {
			return slices.ContainsFunc(f.Guesses, func(g Guess) bool { return g.Fact.Key == "nic-path" }) ||
				slices.ContainsFunc(f.Advice, func(a string) bool { return strings.Contains(a, "nic-path") })
		})
	}
	if !mentions(tabs[0]) {
		t.Fatal("without debug lines: want the NICs' path among the causes, as assumed")
	}
	gdr := tabs[0]
	gdr.Evidence.GPUDirect = nccltests.Fact[bool]{Value: true, Line: 75}
	if !mentions(gdr) {
		t.Error("with GPUDirect RDMA and no NCCL_NET_GDR_LEVEL line: want the NICs' path among the causes, as a site may have raised the level")
	}
	gdr.Evidence.Env = []nccltests.Setting{{Name: "NCCL_NET_GDR_LEVEL", Value: "PXB", Line: 70}}
	if mentions(gdr) {
		t.Error("with GPUDirect RDMA under NCCL_NET_GDR_LEVEL=PXB: the NICs' path is offered as a cause; want none, as predict offers none")
	}
	gdr.Evidence.Env = []nccltests.Setting{{Name: "NCCL_NET_GDR_LEVEL", Value: "PHB", Line: 70}}
	if !mentions(gdr) {
		t.Error("with NCCL_NET_GDR_LEVEL=PHB: want the NICs' path among the causes again")
	}
}

// TestDiagnoseNoGDR: KISTI's 4 x 2 A100 AllReduce runs its network with
// GPUDirect RDMA ("via NET/IBext_v8/1/GDRDMA", its channel lines); the
// same log without the GDRDMA word, its times unchanged, is a run without
// it, which the model does not time (a red team: the run 2.5 times as slow
// from 4 MiB up had no finding, its interval wide). Diagnose makes that a
// finding of its own, with what to check, and none where NCCL ran GDR.
func TestDiagnoseNoGDR(t *testing.T) {
	const log = "../../data/nccltests/testdata/real/a100_4x2_allreduce_collnet_kisti_nccltests311.log"
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want bool
	}{
		{string(b), false},
		{strings.ReplaceAll(string(b), "/GDRDMA", ""), true},
	} {
		tabs, _, err := ReadBytes([]byte(c.text), "kisti.log", func(int) Pins { return Pins{} })
		if err != nil || len(tabs) == 0 {
			t.Fatalf("%d tables, %v", len(tabs), err)
		}
		h, err := Describe(tabs[0].GPU, "")
		if err != nil {
			t.Fatal(err)
		}
		fs, _, err := Uncalibrated(h).Diagnose(tabs[0])
		if err != nil {
			t.Fatal(err)
		}
		k := slices.IndexFunc(fs, func(f Finding) bool { return f.Kind == KindNoGDR })
		if (k >= 0) != c.want || k >= 0 && !strings.Contains(fs[k].Advice[0], "without GPUDirect RDMA (NCCL_DEBUG=INFO, line ") {
			t.Errorf("GDR off %v: findings %+v; want a %q finding %v, naming the line", c.want, fs, KindNoGDR, c.want)
		}
	}
}
