package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A user's log of 2 x 4 GH200 (Alps' all_reduce_perf, its Source lines,
// the srun line and the binary's name dropped, as a user who saved the
// table alone holds it) names no host: diagnose and plot place its 8 ranks
// on hosts of 4, every GH200 host of the catalog, and say so first, not on
// one server of 8 GH200 joined by an NVSwitch with NVLS, which no GH200
// host is (acceptance check 43, issue 31's first complaint).
func TestAcceptanceGH200HostOfFour(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../data/nccltests/testdata/real/gh200_2x4_allreduce_slingshot_alps.log")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(l, "# Source") || strings.Contains(l, "srun") || strings.Contains(l, "Rank ") {
			continue
		}
		kept = append(kept, strings.ReplaceAll(l, "all_reduce_perf", "perf"))
	}
	log := filepath.Join(t.TempDir(), "out_4gpu.log")
	if err := os.WriteFile(log, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"diagnose", "-gpu", "NVIDIA GH200 120GB", log},
		{"plot", "-gpu", "NVIDIA GH200 120GB", "-o", filepath.Join(t.TempDir(), "p.svg"), log},
	} {
		code, out, stderr := runCLI(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
		first, _, _ := strings.Cut(stderr, "\n")
		if !strings.Contains(first, "2 nodes of 4 GPUs are assumed, as a host of GH200 holds 4 in every system of the catalog that has it (hpe-ex254n-gh200)") {
			t.Errorf("%s: first line %q does not place the ranks on the catalog's GH200 hosts of 4", args[0], first)
		}
		if strings.Contains(out, "NVSwitch") || strings.Contains(out, "NVLS") {
			t.Errorf("%s: a GH200 host of 4 has no NVSwitch and no NVLS:\n%s", args[0], out)
		}
	}
	// A GPU whose catalog systems differ (H100: boards of 4, servers of 8)
	// keeps the server's 8, and an MI300X's platform of 8 is the catalog's,
	// which no -hw gave.
	for _, c := range []struct{ gpu, want string }{
		{"NVIDIA H100 80GB HBM3", "one node of 8 GPUs is assumed, as a host is taken to hold 8 GPUs"},
		{"AMD Instinct MI300X", "one node of 8 GPUs is assumed, as a host of AMD Instinct MI300X holds 8 in the catalog (its platform)"},
	} {
		code, _, stderr := runCLI("diagnose", "-gpu", c.gpu, log)
		if first, _, _ := strings.Cut(stderr, "\n"); code != 0 || !strings.Contains(first, c.want) {
			t.Errorf("diagnose -gpu %q: exit %d, first line %q, want %q", c.gpu, code, first, c.want)
		}
	}
}

// TestModelHostOfGPU: model's hosts follow the GPU as diagnose's do: a
// bare -gpu GH200, which every catalog system holds 4 of a host
// (hpe-ex254n-gh200, catalogHostGPUs), runs -p 8 on 2 hosts of 4 on a mesh,
// not one server of 8 on an NVSwitch; a -per-node the user gives is the
// user's fact (hw), as predict's -per-node is, not assumed.
func TestModelHostOfGPU(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-gpu", "GH200", "-p", "8"}, []string{"gpus_per_node at least 4 (assumed?)", "fabric mesh (assumed?)"}},
		{[]string{"-gpu", "GH200", "-p", "8", "-per-node", "4"}, []string{"gpus_per_node at least 4 (hw)"}},
		{[]string{"-gpu", "H100", "-p", "16"}, []string{"gpus_per_node at least 8 (assumed?)", "fabric nvswitch (assumed?)"}},
	} {
		args := append([]string{"model", "-collective", "allreduce", "-size", "1MiB"}, c.args...)
		code, out, stderr := runCLI(args...)
		for _, w := range c.want {
			if code != 0 || !strings.Contains(out+stderr, w) {
				t.Errorf("%v: exit %d, %s%s; want %q", args, code, out, stderr, w)
			}
		}
	}
}
