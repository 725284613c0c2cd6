package nccl

import (
	"strings"
	"testing"
)

// TestAmbiguousGPU: a bare "RTX 6000" is taken as the catalog's Quadro RTX
// 6000 (its product pages: Turing, PCIe Gen3) with a note that names the
// RTX 6000 Ada and the RTX PRO 6000; a name that says which card it is
// draws none.
func TestAmbiguousGPU(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"RTX 6000", true},
		{"NVIDIA RTX 6000", true},
		{"Quadro RTX 6000", false},
		{"NVIDIA RTX 6000 Ada Generation", false},
		{"NVIDIA RTX PRO 6000 Blackwell Server Edition", false},
		{"NVIDIA L40S", false},
	} {
		note := AmbiguousGPU(c.name)
		if got := note != ""; got != c.want {
			t.Errorf("%q: note %q, want one %v", c.name, note, c.want)
		}
		if c.want && !(strings.Contains(note, "RTX 6000 Ada") && strings.Contains(note, "RTX PRO 6000") && strings.Contains(note, "Quadro RTX 6000")) {
			t.Errorf("%q: note %q does not name the three products", c.name, note)
		}
	}
}
