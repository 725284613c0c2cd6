package predict

import (
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestVersionFact: NCCL's release, which picks the tuner the model runs,
// is a fact with its source, as the hardware's are. NCCL's own "NCCL
// version" line gives it from the debug lines, nccl-tests' header
// (nccl-library) from the log, a pin from the user; a log that prints
// neither leaves NCCL's latest assumed; a release the tuner model does not
// follow names the one whose tuner runs. A calibration runs the newest of
// its tables'.
func TestVersionFact(t *testing.T) {
	const dir = "../../data/nccltests/testdata/real/"
	first := func(file string, pins Pins) Table {
		t.Helper()
		tabs, _, err := ReadFile(dir+file, func(int) Pins { return pins })
		if err != nil || len(tabs) == 0 {
			t.Fatalf("%s: %d tables, %v", file, len(tabs), err)
		}
		return tabs[0]
	}
	for _, c := range []struct {
		file string
		pins Pins
		want Fact
	}{
		// "NCCL INFO NCCL version 2.26.2+cuda12.8" (its line 23).
		{"h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", Pins{}, Fact{Name: "nccl_version", Value: "2.26.2", Source: SourceNCCLDebug, Key: "version"}},
		// "# nccl-tests version 2.18.3 nccl-headers=22903 nccl-library=22903", no NCCL line.
		{"b200_1x8_g8_five_collectives_aicr_mghpcc.log", Pins{}, Fact{Name: "nccl_version", Value: "2.29.3", Source: SourceLog, Key: "version"}},
		{"h100_2x8_allreduce_default_nccltests309.log", Pins{}, Fact{Name: "nccl_version", Value: nccl.Latest.String(), Source: SourceAssumed, Key: "version"}},
		{"h100_2x8_allreduce_default_nccltests309.log", Pins{Version: nccl.Version{Major: 2, Minor: 21, Patch: 5}}, Fact{Name: "nccl_version", Value: "2.21.5", Source: SourceUser, Key: "version"}},
		// "NCCL version 2.9.9+cuda11.2" (its line 34), older than the tuner model's oldest release.
		{"a100_2x8_allreduce_efa_p4d_ncclinfo.log", Pins{}, Fact{Name: "nccl_version", Value: "2.9.9 (the model runs NCCL " + nccl.Oldest.String() + "'s tuner)", Source: SourceNCCLDebug, Key: "version"}},
	} {
		tab := first(c.file, c.pins)
		if got := tab.VersionFact(); got != c.want {
			t.Errorf("%s %+v: %+v, want %+v", c.file, c.pins, got, c.want)
		}
	}
	// The machine's is the newest table's, with its source.
	older := first("h100_2x8_allreduce_default_nccltests309.log", Pins{Version: nccl.Version{Major: 2, Minor: 21, Patch: 5}})
	newer := first("h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", Pins{})
	h, err := DefaultHardware(older.GPU)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Calibrate(h, []Table{older, newer}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	facts := m.Facts()
	if got, want := facts[len(facts)-1], (Fact{Name: "nccl_version", Value: "2.26.2", Source: SourceNCCLDebug, Key: "version"}); got != want {
		t.Errorf("calibrated on 2.21.5 (hw) and 2.26.2 (nccl-debug): %+v, want %+v", got, want)
	}
}
