package article

import (
	"math"
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestPredictHeldOut checks notebook 07's frame against the scores: the
// median |model_rel_err| of the held-out 10 x 8 AllReduce is its
// LeaveOneOut score over all sizes, and likewise for the baseline and
// NCCL's model (same calibrations, same points). Under -short the score
// is heldout.HeldOut's for that one table, which LeaveOneOut computes for
// each table in turn, instead of LeaveOneOut's over all 27.
func TestPredictHeldOut(t *testing.T) {
	t.Parallel()
	m := testPaired(t, "h100-sxm-10node-cluster01")[0]
	h, err := PredictHeldOut(m, "nccl_N10_G8.log#0")
	if err != nil {
		t.Fatal(err)
	}
	var scores []heldout.Score
	if testing.Short() {
		i := slices.IndexFunc(m.Tables, func(t predict.Table) bool { return t.Name == h.Table.Name })
		scores, err = heldout.HeldOut(m.Hardware, slices.Concat(m.Tables[:i], m.Tables[i+1:]), m.Tables[i:i+1], nil)
	} else {
		// LeaveOneOut over the machine's tables: PairedScores' row of the
		// machine, computed once for this test and TestPredictionTables.
		var all []MachineScores
		all, err = sharedPairedScores()
		for _, ms := range all {
			if ms.Machine == m.Name {
				scores = ms.Scores
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(scores, func(s heldout.Score) bool { return s.Table == h.Table.Name })
	if i < 0 {
		t.Fatalf("no score of %s", h.Table.Name)
	}
	want := scores[i]
	for col, w := range map[string]float64{"model_rel_err": want.Model.All, "baseline_rel_err": want.Baseline.All, "nccl_rel_err": want.NCCL.All} {
		e := h.Frame.Col(col).Float()
		for k := range e {
			e[k] = math.Abs(e[k])
		}
		got := fit.Median(e)
		if !scalar.EqualWithinAbs(got, w, 1e-9) {
			t.Errorf("%s: median |err| %.6f, LeaveOneOut says %.6f", col, got, w)
		}
	}
	if n := h.Frame.Nrow(); n != len(h.Table.Points) {
		t.Errorf("%d rows, want the table's %d points", n, len(h.Table.Points))
	}
	if got := h.Inside(); got != want.Inside {
		t.Errorf("%d points inside the interval, LeaveOneOut says %d", got, want.Inside)
	}
	if _, err := HeldOutFigure(h).PNG(); err != nil {
		t.Error(err)
	}
	if _, err := PredictHeldOut(m, "no-such.log#0"); err == nil {
		t.Error("an unknown table: no error")
	}
	// AllToAll has no NCCL model: its column is NaN.
	a, err := PredictHeldOut(m, "nccl_N10_G8.log#3")
	if err != nil {
		t.Fatal(err)
	}
	if v := a.Frame.Col("nccl_us").Float()[0]; !math.IsNaN(v) {
		t.Errorf("AllToAll nccl_us = %g, want NaN", v)
	}
}

// TestPredictionTables checks the notebook's tables: one score row per
// held-out table of the paired data (85, as predict's TestPairedMachines
// counts them), one summary row per machine (8), and the crossover
// figure. Under -short it scores shortMachine alone: one score row per
// table and one summary row.
func TestPredictionTables(t *testing.T) {
	t.Parallel()
	score, crossovers := sharedPairedScores, PairedCrossovers
	wantRows, wantMachines := 85, 8
	if testing.Short() {
		ms := testPaired(t, shortMachine)
		score = func() ([]MachineScores, error) { return pairedScores(ms, heldout.LeaveOneOut) }
		crossovers = func() ([]MachineCrossovers, error) { return pairedCrossovers(ms) }
		wantRows, wantMachines = len(ms[0].Tables), 1
	}
	scores, err := score()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ScoreTable(scores).Rows); n != wantRows {
		t.Errorf("%d score rows, want %d", n, wantRows)
	}
	if n := len(MachineSummaryTable(scores).Rows); n != wantMachines {
		t.Errorf("%d machines, want %d", n, wantMachines)
	}
	cross, err := crossovers()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CrossoverFigure(cross).PNG(); err != nil {
		t.Error(err)
	}
	if len(CrossoverTable(cross).Rows) < 5 {
		t.Error("fewer crossovers than Together's five pinned pairs")
	}
}

func TestExhibits07(t *testing.T) {
	t.Parallel()
	checkExhibits(t, "07_prediction", 9)
}

// TestPredictFromOneTable checks the one-table example: calibrated on
// Together's Ring AllGather alone, Ring AllReduce of the same run is
// predicted with an interval around the model at every size, wider than
// the interval of the calibration on all six other tables; and a table may
// not be both calibrated on and predicted.
func TestPredictFromOneTable(t *testing.T) {
	m := testPaired(t, OneTableExample.Machine)[0]
	one, err := PredictFrom(m, []string{OneTableExample.From}, OneTableExample.Table)
	if err != nil {
		t.Fatal(err)
	}
	all, err := PredictHeldOut(m, OneTableExample.Table)
	if err != nil {
		t.Fatal(err)
	}
	if len(one.Model.Tables) != 1 || len(all.Model.Tables) != 6 {
		t.Fatalf("calibrated on %d and %d tables, want 1 and 6", len(one.Model.Tables), len(all.Model.Tables))
	}
	m1, lo1, hi1 := one.Frame.Col("model_us").Float(), one.Frame.Col("low_us").Float(), one.Frame.Col("high_us").Float()
	lo6, hi6 := all.Frame.Col("low_us").Float(), all.Frame.Col("high_us").Float()
	for i := range m1 {
		if !(lo1[i] < m1[i] && m1[i] < hi1[i]) || !(hi1[i]/lo1[i] > hi6[i]/lo6[i]) {
			t.Errorf("row %d: one table [%g, %g] around %g, six tables [%g, %g]", i, lo1[i], hi1[i], m1[i], lo6[i], hi6[i])
		}
	}
	if _, err := PredictFrom(m, []string{OneTableExample.Table}, OneTableExample.Table); err == nil {
		t.Error("a table calibrated on and predicted: no error")
	}
}
