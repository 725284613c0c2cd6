package main

import (
	"strings"
	"testing"
)

// The CoreWeave GB200 NVL72 AllReduce logs of one and two racks
// (data/logs/paired/gb200-nvl72-coreweave): 72 and 144 ranks.
const (
	gb200OneRack  = "../../data/logs/paired/gb200-nvl72-coreweave/allreduce_1rack.log"
	gb200TwoRacks = "../../data/logs/paired/gb200-nvl72-coreweave/allreduce_2racks.log"
)

// TestCompareMismatchPlaced checks that a warning of unlike runs names both
// tables, file and first line, as the readers' warnings do: the JSON gave
// file "" and line 0, the text no place at all.
func TestCompareMismatchPlaced(t *testing.T) {
	t.Parallel()
	got := runCompareJSON(t, gb200OneRack, gb200TwoRacks)
	var places []problem
	for _, p := range got.Problems {
		if strings.HasPrefix(p.Message, "A and B differ in ranks: 72 in A, 144 in B") {
			places = append(places, p)
		}
	}
	if len(places) != 2 || places[0].File != gb200OneRack || places[0].Line != got.A.Line || places[0].Line == 0 ||
		places[1].File != gb200TwoRacks || places[1].Line != got.B.Line || places[1].Line == 0 {
		t.Errorf("ranks warning at %+v; want it at %s:%d and %s:%d", places, gb200OneRack, got.A.Line, gb200TwoRacks, got.B.Line)
	}
	code, _, stderr := runCLI("compare", gb200OneRack, gb200TwoRacks)
	want := gb200OneRack + ":8, " + gb200TwoRacks + ":11: A and B differ in ranks: 72 in A, 144 in B; compared anyway"
	if code != 0 || !strings.Contains(stderr, want+"\n") {
		t.Errorf("exit %d, stderr:\n%s\nwant 0 and the line %q", code, stderr, want)
	}

	// Two tables of one file: both lines named, the file twice.
	log := "../../data/logs/paired/h100-sxm-ib8xndr/allreduce_issue290.log"
	_, _, stderr = runCLI("compare", log, log, "-test", "0,1")
	if want := log + ":13, " + log + ":37: A and B differ in nodes: 1 in A, 2 in B; compared anyway\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr:\n%s\nwant %q", stderr, want)
	}
}

// TestCompareGPUsDiffer checks that compare warns where the logs' Rank lines
// name other GPUs, as it does of ranks and nodes: CoreWeave's one-rack block
// prints "NVIDIA Graphics Device", its 20-rack block "NVIDIA GB200", and
// the warning says the first is a driver's name for a GPU it does not know.
func TestCompareGPUsDiffer(t *testing.T) {
	t.Parallel()
	twenty := "../../data/logs/paired/gb200-nvl72-coreweave/allreduce_20racks.log"
	got := runCompareJSON(t, gb200OneRack, twenty)
	want := `A and B differ in GPU: "NVIDIA Graphics Device" in A, "NVIDIA GB200" in B ("NVIDIA Graphics Device" is what a driver prints for a GPU it does not name, so they may be one); compared anyway`
	n := 0
	for _, p := range got.Problems {
		if p.Message == want {
			n++
		}
	}
	if got.A.GPU != "NVIDIA Graphics Device" || got.B.GPU != "NVIDIA GB200" || n != 2 {
		t.Errorf("GPUs %q and %q, the warning %d times in %+v; want it at both tables", got.A.GPU, got.B.GPU, n, got.Problems)
	}
	// One- and two-rack blocks: one name, no GPU warning.
	for _, p := range runCompareJSON(t, gb200OneRack, gb200TwoRacks).Problems {
		if strings.Contains(p.Message, "differ in GPU") {
			t.Errorf("one rack against two: %v", p)
		}
	}
	// Two names the catalog knows: no note of the driver's name.
	w := compareMismatches(compareTable{File: "a", Line: 1, GPU: "NVIDIA H100 80GB HBM3"}, compareTable{File: "b", Line: 2, GPU: "Tesla V100-SXM3-32GB"})
	if len(w) != 2 || w[0].Message != `A and B differ in GPU: "NVIDIA H100 80GB HBM3" in A, "Tesla V100-SXM3-32GB" in B; compared anyway` {
		t.Errorf("H100 against V100: %+v", w)
	}
}
