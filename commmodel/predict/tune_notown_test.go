package predict

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestTuneNearNCCLOwnOnly (red team 46b): how far the model misses a
// protocol near a size, which the tuner's comparisons read (slowNear,
// missNear), took every calibration point the model reads as run with it,
// those of a table run under another tuner plugin and of tables pinning
// NCCL_ALGO or NCCL_PROTO too, whose choices are the plugin's or the pin's,
// not NCCL's own (measuredAt already left them out). AWS's p5 2 x 8 table
// under aws-ofi-nccl's tuner brought LL128 near 4 MiB from 1.33 times the
// model (the other three tables' points) to 0.92; Together's 1 x 8 AllGather
// pinned to Ring stood beside its table of NCCL's own.
func TestTuneNearNCCLOwnOnly(t *testing.T) {
	hw, tables := p5Tables(t)
	if !tables[1].Evidence.TunerPlugin.Known() {
		t.Fatalf("%s: no tuner plugin read; the test tells nothing apart", tables[1].Name)
	}
	m, err := Calibrate(hw, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	if f, _ := m.nearMiss(q, "LL128", 4<<20); !(f > 1.2) {
		t.Errorf("p5: nearMiss(LL128, 4 MiB) = %.3f; want the three tables of NCCL's own, above 1.2 (1.33; 0.92 with the tuner plugin's points)", f)
	}

	const paired = "../../data/logs/paired/h100-sxm-1x8-together/"
	hw, ring := pinnedTable(t, paired+"all_gather_ring.log", Pins{Algo: "Ring"})
	_, own := pinnedTable(t, paired+"all_gather_nvls.log", Pins{Algo: "auto"})
	both, err := Calibrate(hw, []Table{ring, own}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	pinned, counted := 0, 0
	for _, ps := range both.own {
		for _, p := range ps {
			if !p.ncclOwn {
				pinned++
			} else {
				counted++
			}
		}
	}
	if pinned != len(ring.Points) || counted != len(own.Points) {
		t.Errorf("Together: %d points taken as NCCL's own, %d not; want the %d of %s alone, not the %d of %s (NCCL_ALGO=RING)",
			counted, pinned, len(own.Points), own.Name, len(ring.Points), ring.Name)
	}
}
