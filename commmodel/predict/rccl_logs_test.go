package predict

import (
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// The two tables of prasad-nair-amd/aion's host of 8 GPUs printed as "AMD
// Radeon Graphics" (rccl-tests, RCCL 2.27.7, one process driving all 8).
const (
	radeonAllReduce = realDir + "radeon_1x8_g8_allreduce_aion.log"
	radeonAllToAll  = realDir + "radeon_1x8_g8_alltoall_aion.log"
)

// rccl2277 is the RCCL release both Radeon logs print (rccl-library=22707).
var rccl2277 = nccl.Version{Major: 2, Minor: 27, Patch: 7}

// radeonMachine calibrates the model on both Radeon tables, as a user who
// gives the logs and nothing else has it (FromTables).
func radeonMachine(t *testing.T) (*Machine, []Table) {
	t.Helper()
	tabs := []Table{firstTable(t, radeonAllReduce), firstTable(t, radeonAllToAll)}
	h, err := Describe(tabs[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h, _ = h.FromTables(tabs, 0)
	m, err := Calibrate(h, tabs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, tabs
}

// TestRCCLLibraryVersion: rccl-tests' header "rccl-headers=22803
// rccl-library=22707" gives RCCL 2.27.7 in NCCL's code, which the tables
// take as their NCCL release, so the calibration assumes no version.
func TestRCCLLibraryVersion(t *testing.T) {
	for _, f := range []string{radeonAllReduce, radeonAllToAll} {
		if tab := firstTable(t, f); tab.Version != (rccl2277) {
			t.Errorf("%s: version %v, want 2.27.7", f, tab.Version)
		}
	}
	m, _ := radeonMachine(t)
	if slices.ContainsFunc(m.Notes, func(n string) bool { return strings.Contains(n, "NCCL version unknown") }) {
		t.Errorf("notes %q; want no unknown version", m.Notes)
	}
	if m.Version() != (rccl2277) {
		t.Errorf("machine's version %v, want 2.27.7", m.Version())
	}
}
