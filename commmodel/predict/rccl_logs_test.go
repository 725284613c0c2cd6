package predict

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
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

// TestRCCLAllToAllNoEnqueue: RCCL's AllToAll of one process driving 8 GPUs
// pays no host enqueue per send (p2pEnqueue), so the Radeon AllReduce alone
// (45.99 us at 4 B, its launch floor) predicts the AllToAll's flat floor of
// 38.24 to 48.55 us from 128 B to 8 MiB (the log's rows) within 20%, where
// NCCL's cost, 1 + 14·0.108 launches a GPU, would put it near 115 us. An
// AMD GPU of the catalog (gfx942) takes none either, and an NVIDIA A100 of
// -g 8 keeps NCCL's.
func TestRCCLAllToAllNoEnqueue(t *testing.T) {
	ar, a2a := firstTable(t, radeonAllReduce), firstTable(t, radeonAllToAll)
	h, err := Describe(ar.GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	h, _ = h.FromTables([]Table{ar}, 0)
	m, err := Calibrate(h, []Table{ar}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := m.predictTable(&a2a)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if pt := a2a.Points[i]; pt.Size <= 8<<20 && math.Abs(p.Time/pt.Time-1) > 0.2 {
			t.Errorf("AllToAll of %g B: %.4g us predicted, %.4g measured", pt.Size, p.Time*1e6, pt.Time*1e6)
		}
	}
	for _, c := range []struct {
		gpu      string
		launches float64
	}{
		{"AMD Instinct MI300X", 8},
		{"A100-SXM4-40GB", 8 * (1 + 14*p2pEnqueue)},
	} {
		hw, err := Describe(c.gpu, "")
		if err != nil {
			t.Fatal(err)
		}
		u := &Machine{Hardware: hw, refs: &references{hw: &hw, m: map[runKey]*reference{}}}
		rn, err := u.run(Query{Collective: commmodel.AllToAll, Ranks: 8, PerNode: 8, Layout: Layout{GPUsPerThread: 8}})
		if err != nil {
			t.Fatal(err)
		}
		tm, err := u.refs.termOf(rn, 128)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(tm.launches-c.launches) > 1e-9 {
			t.Errorf("%s: AllToAll of -g 8 costs %g launches, want %g", c.gpu, tm.launches, c.launches)
		}
	}
}
