package predict

import (
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestTuneTwinCommsOneSet (red team 42): the plugin tells communicators
// apart only by nNodes and nRanks; two that reach it alike take one set of
// rules, the first's, where they agree, and the file holds it once (it
// held both, the second's all shadowed, and tune's check refused it).
func TestTuneTwinCommsOneSet(t *testing.T) {
	m := Uncalibrated(h100(t))
	ar := []commmodel.Collective{commmodel.AllReduce}
	one, err := m.TunerRules(ar, []Comm{{2, 8}}, Layout{}, []float64{1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	two, err := m.TunerRules(ar, []Comm{{2, 8}, {2, 8}}, Layout{}, []float64{1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one, two) {
		t.Errorf("%d rules for 2 x 8 twice, %d for it once; want the same", len(two), len(one))
	}
}
