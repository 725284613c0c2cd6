package predict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/floats"
)

// A SweepPoint compares, at one size of a pinned sweep, the table the model
// would pick with the fastest measured one and with NCCL's own pick.
type SweepPoint struct {
	Size float64
	// Chosen, Best and NCCL name the tables (their NCCL_ALGO and
	// NCCL_PROTO pins): the model's pick (as tune's rules make it), the
	// measured fastest, and
	// NCCL's own pick: the table left to NCCL's tuner ("auto"), or else
	// the one that pins what its uncalibrated model runs ("" where no
	// table of the sweep pins it).
	Chosen, Best, NCCL string
	// ChosenTime, BestTime and NCCLTime are their measured times, s
	// (NCCLTime NaN where NCCL is "").
	ChosenTime, BestTime, NCCLTime float64
}

// ScoreSweep scores the model's choices on a pinned sweep: tables of one
// collective and shape, each measured with its own NCCL_ALGO or NCCL_PROTO
// pin, and at most one left to NCCL's tuner ("auto", NCCL's own pick). At
// each size all the tables measured, the model (calibrated without them)
// picks by the first test of tune's rules: the table it predicts fastest
// where that Beats NCCL's pick, and NCCL's pick elsewhere (tune also asks
// of a rule the tables' evidence near the size, TunerPlan, which these
// tables, held out, cannot give); the point says how the pick's measured
// time compares with the fastest measured and with NCCL's pick: the auto
// table, or else the table that pins what NCCL's uncalibrated tuner runs
// (where no table pins it, the model's fastest stands). It is an
// error for tables that do not share a collective and shape, or that leave
// the tuner free twice.
func (m *Machine) ScoreSweep(sweep []Table) ([]SweepPoint, error) {
	if len(sweep) < 2 {
		return nil, fmt.Errorf("predict: a sweep needs two pinned tables or more, got %d", len(sweep))
	}
	auto := -1 // the table NCCL's tuner chose for, if any
	for k, t := range sweep {
		if t.Algo == "" && t.Proto == "" {
			if auto >= 0 {
				return nil, fmt.Errorf("predict: %s and %s both leave NCCL's tuner free: not a sweep", sweep[auto].Name, t.Name)
			}
			auto = k
		}
		if t.Collective != sweep[0].Collective || t.Nodes != sweep[0].Nodes || t.PerNode != sweep[0].PerNode {
			return nil, fmt.Errorf("predict: %s is not of %s's collective and shape", t.Name, sweep[0].Name)
		}
	}
	pin := func(t Table) string {
		if t.Algo == "" && t.Proto == "" {
			return "auto"
		}
		return strings.Trim(t.Algo+"/"+t.Proto, "/")
	}
	var out []SweepPoint
	for _, p := range sweep[0].Points {
		var times, predicted []float64
		var preds []Prediction
		for _, t := range sweep {
			i := slices.IndexFunc(t.Points, func(q Point) bool { return q.Size == p.Size })
			if i < 0 {
				break
			}
			ps, err := m.Predict(t.Query(), []float64{p.Size})
			if err != nil {
				return nil, fmt.Errorf("predict: %s: %w", t.Name, err)
			}
			times, predicted, preds = append(times, t.Points[i].Time), append(predicted, ps[0].Time), append(preds, ps[0])
		}
		if len(times) < len(sweep) {
			continue // not measured by every table
		}
		def := auto // the table of NCCL's pick
		q := sweep[0].Query()
		q.Algo, q.Proto = "", ""
		if def < 0 {
			if ref, err := Reference(m.Hardware, q, []float64{p.Size}); err == nil {
				def = slices.IndexFunc(sweep, func(t Table) bool {
					return strings.EqualFold(t.Algo, ref[0].Algorithm) && (t.Proto == "" || strings.EqualFold(t.Proto, ref[0].Protocol)) ||
						t.Algo == "" && strings.EqualFold(t.Proto, ref[0].Protocol)
				})
			}
		}
		c, b := floats.MinIdx(predicted), floats.MinIdx(times)
		if def >= 0 && !preds[c].Beats(preds[def]) {
			c = def
		}
		sp := SweepPoint{Size: p.Size, Chosen: pin(sweep[c]), Best: pin(sweep[b]), ChosenTime: times[c], BestTime: times[b], NCCLTime: math.NaN()}
		if def >= 0 {
			sp.NCCL, sp.NCCLTime = pin(sweep[def]), times[def]
		}
		out = append(out, sp)
	}
	return out, nil
}
