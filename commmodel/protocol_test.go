package commmodel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestProtocolEfficiency: the payload share of each wire format (NCCL 2.30.7
// src/include/device.h): LL's 16-byte line holds 8 bytes of data, LL128's
// 128-byte line 120 (15 of its 16 eight-byte words), Simple all.
func TestProtocolEfficiency(t *testing.T) {
	for p, want := range map[Protocol]float64{LL: 8.0 / 16, LL128: 120.0 / 128, Simple: 1} {
		if got := p.Efficiency(); got != want {
			t.Errorf("%s: efficiency %g, want %g", p, got, want)
		}
	}
	if got := Protocol(3).Efficiency(); !math.IsNaN(got) {
		t.Errorf("Protocol(3): efficiency %g, want NaN", got)
	}
	if l := Protocol(-1).Link(h20Intra, 1e-6); l.Valid() {
		t.Errorf("Protocol(-1).Link = %+v, valid", l)
	}
}

// TestProtocolLink: a protocol's Link scales the bandwidth by the payload
// share and takes the protocol's latency as α; the rest of the Link stays.
// Ring AllReduce over 8 GPUs at 350 GB/s with NCCL's ring latencies over
// NVLink (LL 0.6 us, Simple 3.4 us; NCCL 2.30.7 src/graph/tuning.cc
// hwLatencies) then costs 14 steps of each, and LL's half bandwidth makes
// it lose to Simple above
//
//	S* = 14·(3.4 - 0.6) us / (1.75·(1/175 - 1/350) ns/B) = 7.84 MB
func TestProtocolLink(t *testing.T) {
	base := Link{Alpha: 2e-6, BW: 350e9, Gamma: 1e-12, Overhead: 1e-7}
	ll := LL.Link(base, 0.6e-6)
	if ll != (Link{Alpha: 0.6e-6, BW: 175e9, Gamma: 1e-12, Overhead: 1e-7}) {
		t.Errorf("LL link %+v", ll)
	}
	ll.Overhead, ll.Gamma = 0, 0
	simple := Simple.Link(Link{BW: 350e9}, 3.4e-6)
	const cross = 14 * 2.8e-6 / (1.75 * (1/175e9 - 1/350e9))
	if !scalar.EqualWithinRel(cross, 7.84e6, 1e-12) {
		t.Fatalf("hand crossover %g", cross)
	}
	for _, c := range []struct {
		size    float64
		llFirst bool
	}{{cross / 2, true}, {cross * 2, false}} {
		l, s := Time(Ring{}, 8, c.size, ll), Time(Ring{}, 8, c.size, simple)
		if (l < s) != c.llFirst {
			t.Errorf("S = %g: LL %g s, Simple %g s", c.size, l, s)
		}
	}
	if l, s := Time(Ring{}, 8, cross, ll), Time(Ring{}, 8, cross, simple); !scalar.EqualWithinRel(l, s, 1e-12) {
		t.Errorf("at the crossover: LL %g s, Simple %g s", l, s)
	}
	c := LL128.Cluster(h20Cluster(2), 1.9e-6, 4e-6)
	if c.Intra != (Link{Alpha: 1.9e-6, BW: 350e9 * 15 / 16}) || c.Inter != (Link{Alpha: 4e-6, BW: 20e9 * 15 / 16}) || c.Nodes != 2 || c.PerNode != 8 {
		t.Errorf("LL128 cluster %+v", c)
	}
}

func TestParseProtocol(t *testing.T) {
	for in, want := range map[string]Protocol{"LL": LL, "ll128": LL128, "Simple": Simple, " SIMPLE ": Simple} {
		if got, err := ParseProtocol(in); err != nil || got != want {
			t.Errorf("ParseProtocol(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, p := range Protocols() {
		if back, err := ParseProtocol(p.String()); err != nil || back != p {
			t.Errorf("round trip of %v: %v, %v", p, back, err)
		}
	}
	if _, err := ParseProtocol("ll64"); err == nil {
		t.Error("ParseProtocol(ll64) succeeded")
	}
	// NCCL's protocol numbers (src/include/plugin/nccl_tuner.h).
	if LL != 0 || LL128 != 1 || Simple != 2 {
		t.Error("protocols are not numbered as NCCL numbers them")
	}
}

// TestNCCLProtocols: NCCL has LL, LL128 and Simple kernels for ring and tree
// and Simple alone for NVLS, NVLSTree, CollNet and PAT (NCCL 2.30.7
// src/device/all_reduce.h, all_gather.h; tuning.cc skips the others).
func TestNCCLProtocols(t *testing.T) {
	for _, a := range []Algorithm{Ring{}, Tree{}, RingAllGather{}, RingReduceScatter{}, PipelinedBroadcast{}} {
		if got := NCCLProtocols(a); len(got) != 3 {
			t.Errorf("%s %s: %v", a.Collective(), a.Name(), got)
		}
	}
	for _, a := range []Algorithm{NVLS{}, NVLSTree{PerNode: 8}, CollNetDirect{PerNode: 8}, CollNetChain{PerNode: 8}, PATAllGather{}, PATReduceScatter{}} {
		if got := NCCLProtocols(a); len(got) != 1 || got[0] != Simple {
			t.Errorf("%s %s: %v", a.Collective(), a.Name(), got)
		}
	}
	if got := NCCLProtocols(HalvingDoubling{}); got != nil {
		t.Errorf("halving-doubling: %v, want none (NCCL has no such algorithm)", got)
	}
}

// TestProtocolRegimes: with NCCL's ring latencies over NVLink and a 350 GB/s
// link (TestProtocolLink), ring AllReduce over 8 GPUs is fastest with LL up
// to S1 = 14·1.3 us / (1.75·(2/350 - 16/15/350) ns/B) = 3.9 MB, with LL128 up
// to S2 = 14·1.5 us / (1.75·(1/15)/350 ns/B) = 63 MB, and with Simple above.
func TestProtocolRegimes(t *testing.T) {
	alpha := [...]float64{LL: 0.6e-6, LL128: 1.9e-6, Simple: 3.4e-6}
	s1 := 14 * 1.3e-6 / (1.75 * (2.0/350e9 - 16.0/15/350e9))
	s2 := 14 * 1.5e-6 / (1.75 * (1.0 / 15 / 350e9))
	if !scalar.EqualWithinRel(s1, 3.9e6, 1e-12) || !scalar.EqualWithinRel(s2, 63e6, 1e-12) {
		t.Fatalf("hand crossovers %g, %g", s1, s2)
	}
	fastest := func(size float64) Protocol {
		best, bestT := Protocol(-1), math.Inf(1)
		for _, p := range Protocols() {
			if tm := Time(Ring{}, 8, size, p.Link(Link{BW: 350e9}, alpha[p])); tm < bestT {
				best, bestT = p, tm
			}
		}
		return best
	}
	for _, c := range []struct {
		size float64
		want Protocol
	}{{s1 / 1.01, LL}, {s1 * 1.01, LL128}, {s2 / 1.01, LL128}, {s2 * 1.01, Simple}} {
		if got := fastest(c.size); got != c.want {
			t.Errorf("S = %g: fastest %s, want %s", c.size, got, c.want)
		}
	}
}
