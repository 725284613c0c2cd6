package heldout_test

import (
	"math"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestFitBaseline recovers the link of tables timed by the article's model
// itself, T = Steps·α + Bytes/BW through each table's ring algorithm.
func TestFitBaseline(t *testing.T) {
	l := commmodel.Link{Alpha: 5e-6, BW: 100e9}
	var tables []predict.Table
	for _, c := range []commmodel.Collective{commmodel.AllReduce, commmodel.AllGather, commmodel.AllToAll} {
		tab := predict.Table{Collective: c, Nodes: 2, PerNode: 8}
		for s := 1e3; s <= 1e9; s *= 10 {
			tab.Points = append(tab.Points, predict.Point{Size: s, Time: heldout.BaselineTime(l, &tab, s)})
		}
		tables = append(tables, tab)
	}
	got, err := heldout.FitBaseline(tables)
	if err != nil {
		t.Fatal(err)
	}
	if !scalar.EqualWithinAbs(got.Alpha, l.Alpha, 1e-9*l.Alpha) || !scalar.EqualWithinAbs(got.BW, l.BW, 1e-9*l.BW) {
		t.Errorf("heldout.FitBaseline = %+v, want %+v", got, l)
	}
}

// TestLeaveOneOutSmall: where the tables left after holding one out have
// too few points for the one-link baseline, the held-out table is still
// scored, its baseline errors NaN. The tables are the uncalibrated model's
// own times of AllReduce on 1 x 8 and 2 x 8 H100.
func TestLeaveOneOutSmall(t *testing.T) {
	h, err := predict.DefaultHardware("H100 SXM")
	if err != nil {
		t.Fatal(err)
	}
	m := predict.Uncalibrated(h)
	sizes := []float64{1 << 10, 1 << 20, 1 << 30}
	var tables []predict.Table
	for _, nodes := range []int{1, 2} {
		tab := predict.Table{Name: "allreduce", GPU: h.GPU.Name, Collective: commmodel.AllReduce, Nodes: nodes, PerNode: 8}
		ps, err := m.Predict(tab.Query(), sizes)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			tab.Points = append(tab.Points, predict.Point{Size: p.Size, Time: p.Time})
		}
		tables = append(tables, tab)
	}
	tables[0].Points = tables[0].Points[:1]
	scores, err := heldout.LeaveOneOut(h, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := scores[1]; !math.IsNaN(s.Baseline.All) || math.IsNaN(s.Model.All) || s.Points != len(tables[1].Points) {
		t.Errorf("table 1 from a one-point table: %+v; want the model scored and the baseline NaN", s)
	}
}
