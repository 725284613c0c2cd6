package data

import (
	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data/nccltests"
)

// Collective returns the collective test t measures, and false when the
// reader could not tell (t.CollectiveFrom is Unknown).
func Collective(t *nccltests.Test) (commmodel.Collective, bool) {
	if t.CollectiveFrom == nccltests.Unknown {
		return 0, false
	}
	return collectiveOf(t.Collective), true
}

// Candidates returns the collectives t's table is consistent with
// (t.Candidates), in order.
func Candidates(t *nccltests.Test) []commmodel.Collective {
	var out []commmodel.Collective
	for _, c := range t.Candidates {
		out = append(out, collectiveOf(c))
	}
	return out
}

// collectiveOf is the collective of a binary stem that nccltests names.
func collectiveOf(stem string) commmodel.Collective {
	c, err := commmodel.ParseCollective(stem)
	if err != nil {
		panic("data: nccltests named a collective commmodel does not know: " + stem)
	}
	return c
}

// TestSamples returns one sample per row of t whose half p holds a
// measurement, in row order. 0-byte rows are kept: they measure the
// empty-call floor (fit.SplitEmpty sets them aside).
func TestSamples(t *nccltests.Test, p nccltests.Placement) []fit.Sample {
	out := make([]fit.Sample, 0, len(t.Rows))
	for _, r := range t.Rows {
		if res := r.Get(p); res.OK() {
			out = append(out, fit.Sample{Size: float64(r.Size), Time: res.Time})
		}
	}
	return out
}
