package presets

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"gonum.org/v1/gonum/floats/scalar"
)

// Each preset against the article's statement it is derived from.
func TestArticleStatements(t *testing.T) {
	ring := commmodel.Ring{}.Cost(8, 1e6)
	cases := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		// "14 steps = 28 us": ring AllReduce at P = 8.
		{"ring latency at P = 8", float64(ring.Steps) * H20Intra.Alpha, 28e-6, 1e-12},
		// "only 5 us" to move 1 MB in that ring.
		{"ring transfer of 1 MB", ring.Bytes / H20Intra.BW, 5e-6, 1e-12},
		// "egress ÷17.5, α ×7.5" across nodes.
		{"BW ratio", H20Intra.BW / H20Inter.BW, 17.5, 1e-12},
		{"alpha ratio", H20Inter.Alpha / H20Intra.Alpha, 7.5, 1e-12},
		// NCCL's Hopper NVLink x 18 = 370.8 GB/s.
		{"NVSwitch egress", H20NVSwitch.Egress(), 370.8e9, 1e-12},
		// The article's "400G" NIC: 50 GB/s.
		{"NIC line rate", H20NICLineRate, 50e9, 0},
	}
	for _, c := range cases {
		if !scalar.EqualWithinAbs(c.got, c.want, c.tol*c.want) {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	if c := H20Cluster(2); c.Ranks() != 16 || c.Intra != H20Intra || c.Inter != H20Inter {
		t.Errorf("H20Cluster(2) = %+v", c)
	}
}

func TestLink(t *testing.T) {
	want := map[string]commmodel.Link{"h20-intra": H20Intra, "h20-inter": H20Inter}
	names := LinkNames()
	if len(names) != len(want) {
		t.Fatalf("LinkNames() = %q, want the %d names of %v", names, len(want), want)
	}
	for _, name := range names {
		if l, ok := Link(name); !ok || l != want[name] {
			t.Errorf("Link(%q) = %+v, %v; want %+v", name, l, ok, want[name])
		}
	}
	if l, ok := Link("H20-intra"); ok {
		t.Errorf("Link(%q) = %+v, true; names are case-sensitive", "H20-intra", l)
	}
}
