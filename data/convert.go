package data

import (
	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data/nccltests"
)

// Collective returns the collective test t measures, and false when the
// reader could not tell (t.CollectiveFrom is Unknown).
func Collective(t *nccltests.Test) (commmodel.Collective, bool) {
	return t.Collective, t.CollectiveFrom != nccltests.Unknown
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
