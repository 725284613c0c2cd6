package commmodel

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestFabricBW(t *testing.T) {
	const link = 50e9 // B/s, an arbitrary per-link figure
	cases := []struct {
		name   string
		f      Fabric
		fanout int
		want   float64 // B/s
	}{
		// Switched: egress = Links·LinkBW whatever the fanout (the article: on a switch the egress is the bottleneck).
		{"switched fanout 1", Fabric{Kind: Switched, P: 8, Links: 18, LinkBW: link}, 1, 18 * link},
		{"switched fanout 7", Fabric{Kind: Switched, P: 8, Links: 18, LinkBW: link}, 7, 18 * link},
		// Full mesh, 7 links over 7 peers: one link per peer (the article's 910B).
		{"mesh fanout 1", Fabric{Kind: FullMesh, P: 8, Links: 7, LinkBW: link}, 1, link},
		{"mesh fanout 3", Fabric{Kind: FullMesh, P: 8, Links: 7, LinkBW: link}, 3, 3 * link},
		{"mesh fanout 7", Fabric{Kind: FullMesh, P: 8, Links: 7, LinkBW: link}, 7, 7 * link},
		// More peers than exist cannot drive more links than the rank has.
		{"mesh fanout 9 clamps", Fabric{Kind: FullMesh, P: 8, Links: 7, LinkBW: link}, 9, 7 * link},
		// 14 links over 7 peers: two per peer.
		{"mesh 2 per peer", Fabric{Kind: FullMesh, P: 8, Links: 14, LinkBW: link}, 1, 2 * link},
		// PCIe: one shared link.
		{"pcie", Fabric{Kind: SharedPCIe, P: 4, Links: 1, LinkBW: link}, 3, link},
	}
	for _, c := range cases {
		if got := c.f.BW(c.fanout); !scalar.EqualWithinAbs(got, c.want, 1e-6*c.want) {
			t.Errorf("%s: BW(%d) = %g, want %g", c.name, c.fanout, got, c.want)
		}
	}
	if !math.IsNaN(ascend910B.BW(0)) {
		t.Error("BW(0) should be NaN")
	}
}

// TestFullMeshRingRatio: the article's 910B statement, ring 7x slower at
// large sizes, for any per-link bandwidth and with two links per peer (the
// ratio is P-1 whenever the mesh is uniform).
func TestFullMeshRingRatio(t *testing.T) {
	for _, f := range []Fabric{
		ascend910B,
		{Kind: FullMesh, P: 8, Links: 7, LinkBW: 56e9},
		{Kind: FullMesh, P: 8, Links: 14, LinkBW: 25e9, Alpha: 3e-6},
	} {
		if r := f.LargeMessageRatio(Ring{}, TwoShot{}); !scalar.EqualWithinAbs(r, 7, 1e-9) {
			t.Errorf("%+v: ring/two-shot = %g, want 7 (P-1, the article)", f, r)
		}
		// Halving-doubling also sends to one peer per step: no gain over ring.
		if r := f.LargeMessageRatio(Ring{}, HalvingDoubling{}); !scalar.EqualWithinAbs(r, 1, 1e-9) {
			t.Errorf("%+v: ring/HD = %g, want 1 (same bytes, fanout 1 both)", f, r)
		}
	}
	// On a switch the same pair converges (the article: egress is the limit).
	if r := h20NVSwitch.LargeMessageRatio(Ring{}, TwoShot{}); !scalar.EqualWithinAbs(r, 1, 1e-12) {
		t.Errorf("NVSwitch ring/two-shot = %g, want 1", r)
	}
}

func TestFabricTime(t *testing.T) {
	f := Fabric{Kind: FullMesh, P: 8, Links: 7, LinkBW: 56e9, Alpha: 1e-6}
	const s = 64 << 20
	// Ring AllReduce: 2(P-1) steps and 2(P-1)/P·S bytes over one link.
	want := 14*1e-6 + 2*7.0/8*s/56e9
	if got := f.Time(Ring{}, s); !scalar.EqualWithinAbs(got, want, 1e-12) {
		t.Errorf("ring on mesh: %g s, want %g s", got, want)
	}
	// Two-shot: 2 steps, the same bytes over all 7 links.
	want = 2*1e-6 + 2*7.0/8*s/(7*56e9)
	if got := f.Time(TwoShot{}, s); !scalar.EqualWithinAbs(got, want, 1e-12) {
		t.Errorf("two-shot on mesh: %g s, want %g s", got, want)
	}
}

func TestSharedNICBW(t *testing.T) {
	// The article's server: a 400G (50 GB/s) NIC per two GPUs -> 25 GB/s each.
	if got := SharedNICBW(400e9/8, 2); got != 25e9 {
		t.Errorf("SharedNICBW = %g, want 25e9", got)
	}
	if !math.IsNaN(SharedNICBW(50e9, 0)) {
		t.Error("SharedNICBW with 0 GPUs should be NaN")
	}
	// NCCL's Hopper NVLink x 18 = 370.8 GB/s.
	if got := h20NVSwitch.Egress(); !scalar.EqualWithinAbs(got, 370.8e9, 1) {
		t.Errorf("H20 egress = %g, want 370.8e9", got)
	}
}

func TestFabricString(t *testing.T) {
	for _, c := range []struct {
		f    Fabric
		want string
	}{
		{h20NVSwitch, "switched (NVSwitch), 8 GPUs x NV18"},
		{ascend910B, "full-mesh, 8 GPUs, 7 links each (1 per peer)"},
		{Fabric{Kind: FullMesh, P: 4, Links: 6}, "full-mesh, 4 GPUs, 6 links each (2 per peer)"},
		{Fabric{Kind: SharedPCIe, P: 4, Links: 1}, "pcie, 4 GPUs, no uniform NVLink fabric"},
		{Fabric{Kind: Switched, P: 1}, "1 GPU, no GPU fabric"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.f, got, c.want)
		}
	}
}
