package nccltests

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// Every collective commlab models has one op, whose binary stem
// commmodel.ParseCollective reads back as that collective.
func TestOpOf(t *testing.T) {
	for _, c := range commmodel.Collectives() {
		o := opOf(c)
		if !o.model || o.bus != c {
			t.Errorf("%v: op %+v", c, o)
		}
		if got, err := commmodel.ParseCollective(o.stem); err != nil || got != c {
			t.Errorf("%v: stem %q reads back as %v, %v", c, o.stem, got, err)
		}
	}
	models := 0
	for _, o := range ops {
		if o.model {
			models++
		}
	}
	if models != len(commmodel.Collectives()) {
		t.Errorf("%d ops are collectives commlab models, want %d", models, len(commmodel.Collectives()))
	}
}
