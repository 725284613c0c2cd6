package nccl

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// h100Node is the 8 x H100 node of ExampleModel_Choose under version v.
func h100Node(v Version) Config {
	cfg := hopperConfig(v, 1, PathPIX)
	cfg.Graphs.CollNetDirect, cfg.Graphs.CollNetChain = Graph{}, Graph{}
	return cfg
}

// TestH100NodeTable checks the 8 x H100 node's AllReduce entries against
// the formulas of the package documentation worked by hand, NCCL 2.30.7:
// n = 8, nsteps = 14, ring and tree 12 x 30 GB/s, NVLS 8 x 40/60 GB/s.
func TestH100NodeTable(t *testing.T) {
	m, err := New(h100Node(Latest))
	if err != nil {
		t.Fatal(err)
	}
	ratio := 8.0 / 14
	cases := []struct {
		a        Algo
		p        Protocol
		lat, bw  float64 // us, GB/s
		formulae string
	}{
		{AlgoRing, LL, 6.6 + 14*0.6, math.Min(141, 360*0.5) * ratio, "min(llMax 141, 360/2)·8/14; 6.6 + 14·0.6"},
		{AlgoRing, LL128, 14 + 14*1.9, math.Min(360*0.92, 12*36.7) * ratio, "min(0.92·360, 12·36.7)·8/14; 14 + 14·1.9"},
		{AlgoRing, Simple, 8.4 + 14*3.4, 360 * ratio, "360·8/14; 8.4 + 14·3.4"},
		{AlgoTree, LL, 6.8 + 2*7*0.6, math.Min(math.Min(360*0.92, 12*38.7)/3.8, 141) * 0.5, "min(0.92·360, 12·38.7)/3.8·0.5; 6.8 + 2·7·0.6"},
		{AlgoTree, Simple, 8.4 + 2*7*4, math.Min(360*0.92, 12*38.7) * 0.5, "min(0.92·360, 12·38.7)·0.5; 8.4 + 2·7·4"},
		{AlgoNVLS, Simple, 25, 8 * math.Min(40*0.85*7/8*2, 60) * ratio, "8·min(2·0.85·40·7/8, 60)·8/14; hwLat NVLink NVLS 25"},
	}
	for _, c := range cases {
		if got := m.Latency(FuncAllReduce, c.a, c.p) / usec; !scalar.EqualWithinRel(got, c.lat, 1e-12) {
			t.Errorf("%v/%v latency %g us, want %g (%s)", c.a, c.p, got, c.lat, c.formulae)
		}
		if got := m.Bandwidth(FuncAllReduce, c.a, c.p) / gbps; !scalar.EqualWithinRel(got, c.bw, 1e-12) {
			t.Errorf("%v/%v bandwidth %g GB/s, want %g (%s)", c.a, c.p, got, c.bw, c.formulae)
		}
	}
}

// TestH100NodeSwitch checks where NCCL 2.30.7's tuner switches on the 8 x
// H100 node, over nccl-tests' default sweep (8 B to 16 GiB, factor 2):
// Ring/LL up to 1 MiB and NVLS/Simple from 2 MiB, as NVIDIA/nccl-tests
// issue #309 reports for a single 8-GPU HGX node ("8B~1MB: uses Algo RING
// proto LL", "2MB~16GB uses Algo NVLS proto SIMPLE").
func TestH100NodeSwitch(t *testing.T) {
	m, err := New(h100Node(Latest))
	if err != nil {
		t.Fatal(err)
	}
	for size := int64(8); size <= 16<<30; size *= 2 {
		e, err := m.Choose(FuncAllReduce, float64(size))
		if err != nil {
			t.Fatal(err)
		}
		wantA, wantP := AlgoRing, LL
		if size >= 2<<20 {
			wantA, wantP = AlgoNVLS, Simple
		}
		if e.Algo != wantA || e.Proto != wantP {
			t.Errorf("%d B: %v/%v, want %v/%v", size, e.Algo, e.Proto, wantA, wantP)
		}
	}
}
