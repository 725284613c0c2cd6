package presets

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestServers holds each server to the figures its source gives: the H20 is
// the article's links; DGX H100 moves 18 NVLinks of 25 GB/s a direction
// (450 GB/s, half the datasheet's 900 GB/s both ways) and a 400 Gb/s NIC
// per GPU (50 GB/s); DGX A100 12 of 25 GB/s (300 GB/s) and 200 Gb/s
// (25 GB/s); GB200 NVL72 is one domain of 72; each alpha is NCCL's
// Ring/Simple step latency, 3.4 us over NVLink and 14 us over the network
// (src/graph/tuning.cc).
func TestServers(t *testing.T) {
	want := map[string]struct {
		perNode                          int
		intraA, intraBW, interA, interBW float64
	}{
		"h20":         {8, 2e-6, 350e9, 15e-6, 20e9},
		"dgx-a100":    {8, 3.4e-6, 300e9, 14e-6, 25e9},
		"dgx-h100":    {8, 3.4e-6, 450e9, 14e-6, 50e9},
		"dgx-b200":    {8, 3.4e-6, 900e9, 14e-6, 50e9},
		"gb200-nvl72": {72, 3.4e-6, 900e9, 14e-6, 50e9},
	}
	if len(ServerNames()) != len(want) {
		t.Errorf("servers %v, want %d", ServerNames(), len(want))
	}
	for name, w := range want {
		s, ok := ServerByName(name)
		if !ok {
			t.Errorf("no server %q", name)
			continue
		}
		if s.PerNode != w.perNode || !scalar.EqualWithinRel(s.Intra.Alpha, w.intraA, 1e-12) || !scalar.EqualWithinRel(s.Intra.BW, w.intraBW, 1e-12) || !scalar.EqualWithinRel(s.Inter.Alpha, w.interA, 1e-12) || !scalar.EqualWithinRel(s.Inter.BW, w.interBW, 1e-12) || s.Source == "" {
			t.Errorf("%s: %+v", name, s)
		}
		if c := s.Cluster(2); c.Nodes != 2 || c.PerNode != w.perNode {
			t.Errorf("%s: cluster %+v", name, c)
		}
	}
	if _, ok := ServerByName("dgx-z"); ok {
		t.Error("an unknown server was found")
	}
}
