package predict

import (
	"errors"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestCheckDomainOutOfRange: a Hardware built in code with a negative
// domain is ErrHardware, as every run of it is (Hardware.check), not a
// shape to mend with "a node of at most -8 GPUs".
func TestCheckDomainOutOfRange(t *testing.T) {
	h, err := DefaultHardware("NVIDIA GB200")
	if err != nil {
		t.Fatal(err)
	}
	h.Domain = -8
	if err := h.CheckDomain(4); !errors.Is(err, ErrHardware) {
		t.Errorf("domain -8: %v, want ErrHardware", err)
	}
}

// TestReleaseWorstVersion: a Version that is no NCCL release (the zero
// Version, 1.0.0) is ErrQuery, as it is in a Query, not a result that
// reads as "no rule counted".
func TestReleaseWorstVersion(t *testing.T) {
	h, err := DefaultHardware("NVIDIA H100 80GB HBM3")
	if err != nil {
		t.Fatal(err)
	}
	tab := timedTable(t, Uncalibrated(h), "h", commmodel.AllReduce, 1, 8, 1, []float64{1 << 10, 1 << 20, 1 << 30})
	m, err := Calibrate(h, []Table{tab}, &Settings{NoIntervals: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []nccl.Version{{}, {Major: 1}} {
		if _, err := m.ReleaseWorst(v, []Comm{{Nodes: 1, PerNode: 8}}, nil); !errors.Is(err, ErrQuery) {
			t.Errorf("release %v: %v, want ErrQuery", v, err)
		}
	}
	if _, err := m.ReleaseWorst(nccl.Version{Major: 2, Minor: 28, Patch: 3}, []Comm{{Nodes: 1, PerNode: 8}}, nil); err != nil {
		t.Errorf("2.28.3: %v", err)
	}
}
