package predict

import (
	"errors"
	"math"
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

// TestDomainsOfBounds: DomainsOf is exported, and a library caller's
// counts near the int's bounds must neither panic nor come back negative
// (red team C: (nodes+hostsPer-1) wrapped, a division by zero at
// DomainsOf(MaxInt, MaxInt, 1), -512409557603043099 domains at
// DomainsOf(72, MaxInt, 4)); no hosts is not ok. The expected splits are
// the ceiling of nodes over a domain's hosts: 72 GPUs of 4 a host is 18
// hosts, so 36 hosts are 2 domains of 18.
func TestDomainsOfBounds(t *testing.T) {
	for _, c := range []struct {
		domain, nodes, hostGPUs int
		domains, each           int
		ok                      bool
	}{
		{72, 36, 4, 2, 18, true},
		{72, 18, 4, 1, 18, true},
		{72, 20, 4, 2, 10, true},
		{72, 19, 4, 2, 9, false},
		{math.MaxInt, math.MaxInt, 1, 1, math.MaxInt, true},
		{72, math.MaxInt, 4, math.MaxInt/18 + 1, math.MaxInt / (math.MaxInt/18 + 1), false},
		{72, -1, 4, 0, 0, false},
		{72, 0, 4, 0, 0, false},
	} {
		d, each, ok := DomainsOf(c.domain, c.nodes, c.hostGPUs)
		if d != c.domains || each != c.each || ok != c.ok {
			t.Errorf("DomainsOf(%d, %d, %d) = %d, %d, %v; want %d, %d, %v", c.domain, c.nodes, c.hostGPUs, d, each, ok, c.domains, c.each, c.ok)
		}
	}
	h := Hardware{Domain: 72}
	if err := h.CheckDomain(-5); !errors.Is(err, ErrQuery) {
		t.Errorf("CheckDomain(-5): %v; want ErrQuery", err)
	}
}
