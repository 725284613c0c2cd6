package topo

import (
	"bytes"
	"reflect"
	"testing"
)

// TestH20ArticlePaths checks the preset against the article's
// description of the 8 x H20 / 4-NIC server.
func TestH20ArticlePaths(t *testing.T) {
	top := H20Article()
	if g, n := len(top.GPUs()), len(top.NICs()); g != 8 || n != 4 {
		t.Fatalf("got %d GPUs, %d NICs; article: 8 x H20, 4 NICs", g, n)
	}
	// article: GPU0-3 on NUMA0, GPU4-7 on NUMA1.
	for g, want := range []int{0, 0, 0, 0, 1, 1, 1, 1} {
		if got := top.GPU(g).NUMA; got != want {
			t.Errorf("GPU%d NUMA = %d, want %d", g, got, want)
		}
	}
	// article: NIC0-1 on NUMA0, NIC2-3 on NUMA1, NIC0..3 = mlx5_bond_0..3.
	for n, want := range []int{0, 0, 1, 1} {
		nic := top.NIC(n)
		if nic.NUMA != want {
			t.Errorf("NIC%d NUMA = %d, want %d", n, nic.NUMA, want)
		}
		if wantDev := "mlx5_bond_" + string(rune('0'+n)); nic.Device != wantDev {
			t.Errorf("NIC%d device = %q, want %q", n, nic.Device, wantDev)
		}
	}
	// article: PIX pairs GPU1-NIC0, GPU3-NIC1, GPU4-NIC2, GPU6-NIC3; other
	// same-NUMA pairs NODE, cross-NUMA pairs SYS.
	pix := map[[2]int]bool{{1, 0}: true, {3, 1}: true, {4, 2}: true, {6, 3}: true}
	for g := range 8 {
		for n := range 4 {
			want := SYS
			switch {
			case pix[[2]int{g, n}]:
				want = PIX
			case g/4 == n/2:
				want = NODE
			}
			if got := top.GPUNIC(g, n); got.Class != want {
				t.Errorf("GPU%d-NIC%d = %v, want %v", g, n, got, want)
			}
		}
	}
	// The article: GPUs all-to-all NV18; NIC-NIC same NUMA NODE, across SYS.
	for i := range 8 {
		for j := range 8 {
			want := NV(18)
			if i == j {
				want = Path{Class: Self}
			}
			if got := top.Path(top.GPU(i), top.GPU(j)); got != want {
				t.Errorf("GPU%d-GPU%d = %v, want %v", i, j, got, want)
			}
		}
	}
	for i := range 4 {
		for j := range 4 {
			want := Path{Class: SYS}
			switch {
			case i == j:
				want = Path{Class: Self}
			case i/2 == j/2:
				want = Path{Class: NODE}
			}
			if got := top.Path(top.NIC(i), top.NIC(j)); got != want {
				t.Errorf("NIC%d-NIC%d = %v, want %v", i, j, got, want)
			}
		}
	}
}

// TestFormatRoundTrip: Format's text parses back to the same topology.
func TestFormatRoundTrip(t *testing.T) {
	want := H20Article()
	var buf bytes.Buffer
	if err := Format(&buf, want); err != nil {
		t.Fatal(err)
	}
	got := mustParse(t, buf.String())
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got, want)
	}
}
