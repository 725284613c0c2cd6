package article

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
)

// The exhibits of notebook 07 (prediction on tables the model never saw).

// HeldOut is one table of a paired machine predicted from the machine's
// other tables: by the calibrated model, by the one-link baseline fitted
// on the same tables, and by NCCL's uncalibrated model.
type HeldOut struct {
	// Machine is the paired machine and Table the held-out table.
	Machine heldout.PairedMachine
	Table   predict.Table
	// Model is the machine calibrated without Table, Baseline the one
	// link fitted without it.
	Model    *predict.Machine
	Baseline commmodel.Link
	// Frame is Table's measured points (tablePoints) joined on size
	// with the three predictions: columns model_us, baseline_us and
	// nccl_us with their _rel_err (data.WithModel); nccl is NaN for
	// AllToAll, which NCCL's tuner does not model. low_us and high_us
	// bound the model's 80% interval.
	Frame dataframe.DataFrame
}

// Inside counts the held-out points inside the model's 80% interval.
func (h *HeldOut) Inside() int {
	t, lo, hi := h.Frame.Col("time_us").Float(), h.Frame.Col("low_us").Float(), h.Frame.Col("high_us").Float()
	n := 0
	for i := range t {
		if lo[i] <= t[i] && t[i] <= hi[i] {
			n++
		}
	}
	return n
}

// PairedMachine returns the paired machine of that name (heldout.PairedMachines).
func PairedMachine(name string) (heldout.PairedMachine, error) {
	ms, err := heldout.PairedMachines()
	if err != nil {
		return heldout.PairedMachine{}, err
	}
	return pairedMachine(ms, name)
}

// pairedMachine returns the machine of that name among ms.
func pairedMachine(ms []heldout.PairedMachine, name string) (heldout.PairedMachine, error) {
	for _, m := range ms {
		if m.Name == name {
			return m, nil
		}
	}
	return heldout.PairedMachine{}, fmt.Errorf("article: no paired machine %q", name)
}

// PredictHeldOut calibrates m on every table but the one named table
// (its name after the machine's, "nccl_N10_G8.log#0") and predicts it.
func PredictHeldOut(m heldout.PairedMachine, table string) (*HeldOut, error) {
	var from []string
	for _, t := range m.Tables {
		if name := strings.TrimPrefix(t.Name, m.Name+"/"); name != table {
			from = append(from, name)
		}
	}
	return PredictFrom(m, from, table)
}

// PredictFrom calibrates m on the tables named in from alone and predicts
// the table named table, which from must not hold.
func PredictFrom(m heldout.PairedMachine, from []string, table string) (*HeldOut, error) {
	find := func(name string) (predict.Table, error) {
		i := slices.IndexFunc(m.Tables, func(t predict.Table) bool { return t.Name == m.Name+"/"+name })
		if i < 0 {
			return predict.Table{}, fmt.Errorf("article: %s has no table %q", m.Name, name)
		}
		return m.Tables[i], nil
	}
	if slices.Contains(from, table) {
		return nil, fmt.Errorf("article: %s is both calibrated on and predicted", table)
	}
	held, err := find(table)
	if err != nil {
		return nil, err
	}
	var rest []predict.Table
	for _, name := range from {
		t, err := find(name)
		if err != nil {
			return nil, err
		}
		rest = append(rest, t)
	}
	h := &HeldOut{Machine: m, Table: held}
	if h.Model, err = predict.Calibrate(m.Hardware, rest, nil); err != nil {
		return nil, err
	}
	if h.Baseline, err = heldout.FitBaseline(rest); err != nil {
		return nil, err
	}
	q := h.Table.Query()
	nccl := func(size float64) float64 {
		p, err := predict.Reference(m.Hardware, q, []float64{size})
		if err != nil {
			return math.NaN()
		}
		return p[0].Time
	}
	bound := func(side func(predict.Prediction) float64) func(float64) float64 {
		return func(size float64) float64 {
			p, err := h.Model.Predict(q, []float64{size})
			if err != nil {
				return math.NaN()
			}
			return side(p[0])
		}
	}
	h.Frame, err = data.WithModel(tablePoints(h.Table).Frame(),
		data.Curve{Name: "model", Time: h.Model.Curve(q)},
		data.Curve{Name: "low", Time: bound(func(p predict.Prediction) float64 { return p.Low })},
		data.Curve{Name: "high", Time: bound(func(p predict.Prediction) float64 { return p.High })},
		data.Curve{Name: "baseline", Time: func(s float64) float64 { return heldout.BaselineTime(h.Baseline, &h.Table, s) }},
		data.Curve{Name: "nccl", Time: nccl})
	return h, err
}

// tablePoints returns the measured points of a predict.Table, for its gota
// frame (data.Points.Frame, whose size_bytes and time_us data.WithModel
// joins predictions to): source is the table's name, system its GPU,
// algorithm its NCCL_ALGO pin ("auto" when the tuner chose), placement
// out-of-place.
func tablePoints(t predict.Table) data.Points {
	algo := t.Algo
	if algo == "" {
		algo = "auto"
	}
	ps := make(data.Points, len(t.Points))
	for i, p := range t.Points {
		ps[i] = data.Point{Source: t.Name, System: t.GPU, Collective: t.Collective.String(), Algorithm: algo,
			NRanks: t.Ranks(), NNodes: t.Nodes, Size: int64(p.Size), Time: p.Time, Placement: "out-of-place"}
	}
	return ps
}

// HeldOutFigure plots the held-out table's measured times against the
// three predictions, log-log, over the table's sizes.
func HeldOutFigure(h *HeldOut) figure.Figure {
	curve := func(name, col string, style figure.Style) figure.Series {
		return frameSeries(h.Frame, name, col, style)
	}
	series := []figure.Series{
		curve("measured", "time_us", figure.Points),
		banded(h.Frame, "calibrated model (80% interval shaded)", "model_us"),
		curve("one-link baseline", "baseline_us", figure.LinePoints),
	}
	if nccl := curve("NCCL's model", "nccl_us", figure.LinePoints); len(nccl.X) > 0 {
		series = append(series, nccl)
	}
	t := h.Table
	return figure.Figure{
		Title: fmt.Sprintf("%s, %v on %d x %d, predicted from %d of %d tables", strings.TrimPrefix(t.Name, h.Machine.Name+"/"),
			t.Collective, t.Nodes, t.PerNode, len(h.Model.Tables), len(h.Machine.Tables)),
		X:      figure.Axis{Label: "message size S", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.TopLeft,
		Series: series,
	}
}

// frameSeries is the column col (microseconds) of a frame with a
// size_bytes column as a series against size, in seconds, NaNs left out.
func frameSeries(f dataframe.DataFrame, name, col string, style figure.Style) figure.Series {
	size := f.Col("size_bytes").Float()
	s := figure.Series{Name: name, Style: style}
	for i, v := range f.Col(col).Float() {
		if !math.IsNaN(v) {
			s.X, s.Y = append(s.X, size[i]), append(s.Y, v*1e-6)
		}
	}
	return s
}

// banded is the model's series of column col with its 80% interval, the
// columns low_us and high_us, as a band; NaN rows are left out.
func banded(f dataframe.DataFrame, name, col string) figure.Series {
	size := f.Col("size_bytes").Float()
	mid, lo, hi := f.Col(col).Float(), f.Col("low_us").Float(), f.Col("high_us").Float()
	s := figure.Series{Name: name, Style: figure.LinePoints}
	for i := range mid {
		if !math.IsNaN(mid[i]) && !math.IsNaN(lo[i]) && !math.IsNaN(hi[i]) {
			s.X, s.Y = append(s.X, size[i]), append(s.Y, mid[i]*1e-6)
			s.Low, s.High = append(s.Low, lo[i]*1e-6), append(s.High, hi[i]*1e-6)
		}
	}
	return s
}

// MachineScores are one paired machine's leave-one-table-out scores.
type MachineScores struct {
	Machine string
	Scores  []heldout.Score
}

// PairedScores holds out every table of every paired machine in turn
// (heldout.LeaveOneOut).
func PairedScores() ([]MachineScores, error) {
	return onPaired(func(ms []heldout.PairedMachine) ([]MachineScores, error) {
		return pairedScores(ms, heldout.LeaveOneOut)
	})
}

// FromEachScores calibrates on each table of every paired machine alone
// and predicts each of the machine's other tables (heldout.FromEach).
func FromEachScores() ([]MachineScores, error) {
	return onPaired(func(ms []heldout.PairedMachine) ([]MachineScores, error) { return pairedScores(ms, heldout.FromEach) })
}

// onPaired applies f to every paired machine (heldout.PairedMachines).
func onPaired[T any](f func([]heldout.PairedMachine) (T, error)) (T, error) {
	ms, err := heldout.PairedMachines()
	if err != nil {
		var zero T
		return zero, err
	}
	return f(ms)
}

// pairedScores scores the tables of each machine of ms by score.
func pairedScores(ms []heldout.PairedMachine, score func(predict.Hardware, []predict.Table, *predict.Settings) ([]heldout.Score, error)) ([]MachineScores, error) {
	out := make([]MachineScores, 0, len(ms))
	for _, m := range ms {
		s, err := score(m.Hardware, m.Tables, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, MachineScores{m.Name, s})
	}
	return out, nil
}

// ScoreTable is the error table of every held-out table: the median
// relative error at sizes of at least 1 MiB and over all sizes, of the
// calibrated model, the one-link baseline and NCCL's model ("—" where a
// median has no point).
func ScoreTable(ms []MachineScores) figure.Table {
	t := figure.Table{Header: []string{"machine", "held-out table", "points ≥1 MiB / all", "model ≥1 MiB", "model all",
		"in its 80% interval", "one-link ≥1 MiB", "one-link all", "NCCL ≥1 MiB", "NCCL all"},
		Align: []figure.Align{figure.Left, figure.Left, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right}}
	pct := func(x float64) string {
		if math.IsNaN(x) {
			return "—"
		}
		return percent(x)
	}
	for _, m := range ms {
		for _, s := range m.Scores {
			t.Rows = append(t.Rows, []string{m.Machine, strings.TrimPrefix(s.Table, m.Machine+"/"), fmt.Sprintf("%d/%d", s.Large, s.Points),
				pct(s.Model.Large), pct(s.Model.All), fmt.Sprintf("%d/%d", s.Inside, s.Points),
				pct(s.Baseline.Large), pct(s.Baseline.All), pct(s.NCCL.Large), pct(s.NCCL.All)})
		}
	}
	return t
}

// MachineSummaryTable is, per machine, the median over its predictions of
// held-out tables of their median errors at sizes of at least 1 MiB, for
// the three models, how many the calibrated model predicts better than the
// baseline there, and the share of the held-out points inside the model's
// 80% interval.
func MachineSummaryTable(ms []MachineScores) figure.Table {
	t := figure.Table{Header: []string{"machine", "predictions", "model", "one-link", "NCCL", "model beats one-link", "in the 80% interval"},
		Align: []figure.Align{figure.Left, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right}}
	med := func(x []float64) string {
		x = slices.DeleteFunc(x, math.IsNaN)
		if len(x) == 0 {
			return "—"
		}
		return percent(fit.Median(x))
	}
	for _, m := range ms {
		var a, b, c []float64
		beats := 0
		for _, s := range m.Scores {
			a, b, c = append(a, s.Model.Large), append(b, s.Baseline.Large), append(c, s.NCCL.Large)
			if s.Model.Large < s.Baseline.Large {
				beats++
			}
		}
		t.Rows = append(t.Rows, []string{m.Machine, fmt.Sprint(len(m.Scores)), med(a), med(b), med(c),
			fmt.Sprintf("%d of %d", beats, len(m.Scores)), percent(heldout.Coverage(m.Scores))})
	}
	return t
}

// MachineCrossovers are one paired machine's crossovers, model against
// measured.
type MachineCrossovers struct {
	Machine        string
	Pins, Switches []heldout.Crossover
}

// PairedCrossovers compares the crossovers of every paired machine
// (heldout.PinCrossovers and heldout.TunerSwitches).
func PairedCrossovers() ([]MachineCrossovers, error) { return onPaired(pairedCrossovers) }

// pairedCrossovers compares the crossovers of each machine of ms.
func pairedCrossovers(ms []heldout.PairedMachine) ([]MachineCrossovers, error) {
	var err error
	var out []MachineCrossovers
	for _, m := range ms {
		mc := MachineCrossovers{Machine: m.Name}
		if mc.Pins, err = heldout.PinCrossovers(m.Hardware, m.Tables, nil); err != nil {
			return nil, err
		}
		if mc.Switches, err = heldout.TunerSwitches(m.Hardware, m.Tables); err != nil {
			return nil, err
		}
		out = append(out, mc)
	}
	return out, nil
}

// CrossoverFigure plots predicted against measured crossover sizes, log-log,
// with the line where they agree and the lines 1.5x either way (the issue's
// target). Crossovers that only one side found cannot sit on log axes and
// are counted in the title.
func CrossoverFigure(mcs []MachineCrossovers) figure.Figure {
	pins := figure.Series{Name: "pinned pairs", Style: figure.Points}
	sw := figure.Series{Name: "tuner switch against regime break", Style: figure.Points}
	lo, hi := math.Inf(1), math.Inf(-1)
	oneSided, none := 0, 0
	for _, m := range mcs {
		for k, cs := range [][]heldout.Crossover{m.Pins, m.Switches} {
			for _, c := range cs {
				switch {
				case c.Measured == 0 && c.Predicted == 0:
					none++
					continue
				case c.Measured == 0 || c.Predicted == 0:
					oneSided++
					continue
				}
				s := &pins
				if k == 1 {
					s = &sw
				}
				s.X, s.Y = append(s.X, c.Measured), append(s.Y, c.Predicted)
				lo, hi = min(lo, c.Measured, c.Predicted), max(hi, c.Measured, c.Predicted)
			}
		}
	}
	lo, hi = lo/2, hi*2
	line := func(name string, f float64) figure.Series {
		return figure.Series{Name: name, X: []float64{lo, hi}, Y: []float64{f * lo, f * hi}, Style: figure.Line}
	}
	series := []figure.Series{line("predicted = measured", 1), line("1.5x", 1.5), line("1/1.5x", 1/1.5)}
	for _, s := range []figure.Series{pins, sw} {
		if len(s.X) > 0 {
			series = append(series, s)
		}
	}
	return figure.Figure{
		Title:  fmt.Sprintf("Crossovers, predicted against measured (%d with no crossover on either side, %d on one side only)", none, oneSided),
		X:      figure.Axis{Label: "measured crossover", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "predicted crossover", Unit: figure.Bytes, Log: true},
		Legend: figure.TopLeft,
		Series: series,
	}
}

// CrossoverTable lists every crossover with its ratio, predicted over
// measured ("none" where a side found none).
func CrossoverTable(mcs []MachineCrossovers) figure.Table {
	t := figure.Table{Header: []string{"machine", "kind", "table", "crossing", "measured", "predicted", "ratio", "within 1.5x"},
		Align: []figure.Align{figure.Left, figure.Left, figure.Left, figure.Left, figure.Right, figure.Right, figure.Right, figure.Left}}
	size := func(x float64) string {
		if x == 0 {
			return "none"
		}
		return figure.Bytes.Format(x)
	}
	for _, m := range mcs {
		for k, cs := range [][]heldout.Crossover{m.Pins, m.Switches} {
			for _, c := range cs {
				ratio := "—"
				if r := c.Ratio(); !math.IsNaN(r) {
					ratio = fmt.Sprintf("%.2f", r)
				}
				t.Rows = append(t.Rows, []string{m.Machine, [...]string{"pins", "tuner switch"}[k],
					strings.TrimPrefix(c.A, m.Machine+"/"), strings.TrimPrefix(c.B, m.Machine+"/"),
					size(c.Measured), size(c.Predicted), ratio, fmt.Sprint(c.Within(1.5))})
			}
		}
	}
	return t
}

// heldOutExamples are the held-out tables notebook 07 plots: 80 GPUs
// predicted from 10 x 1..4 and single nodes; Together's NVLS AllReduce
// from its Ring and non-NVLS tables; an ABCI table of NCCL 2.8.4, which
// predates the tuner model.
var heldOutExamples = []struct{ machine, table, name string }{
	{"h100-sxm-10node-cluster01", "nccl_N10_G8.log#0", "07-heldout-cluster01-allreduce-10x8"},
	{"h100-sxm-1x8-together", "all_reduce_nvls.log#0", "07-heldout-together-allreduce-nvls"},
	{"a100-sxm4-abci-ib4xhdr", "allreduce_4x8.log#0", "07-heldout-abci-a100-allreduce-4x8"},
}

// OneTableExample is notebook 07's prediction from one table: Together's
// AllReduce with NCCL_ALGO=Ring, from its Ring AllGather alone (the same
// run's -g 8 layout, another collective).
var OneTableExample = struct{ Machine, From, Table string }{
	"h100-sxm-1x8-together", "all_gather_ring.log#0", "all_reduce_ring.log#0"}

// predictionExhibits are notebook 07's tables and figures; they take
// from in only the machines to score: each is calibrated on its own tables.
func predictionExhibits(in inputs) ([]Exhibit, error) {
	ms, err := heldout.PairedMachines()
	if err != nil {
		return nil, err
	}
	scored := ms
	if in.scored != nil {
		scored = nil
		for _, name := range in.scored {
			m, err := pairedMachine(ms, name)
			if err != nil {
				return nil, err
			}
			scored = append(scored, m)
		}
	}
	var out []Exhibit
	for _, e := range heldOutExamples {
		m, err := pairedMachine(ms, e.machine)
		if err != nil {
			return nil, err
		}
		h, err := PredictHeldOut(m, e.table)
		if err != nil {
			return nil, err
		}
		out = append(out, Exhibit{Name: e.name, Title: "A held-out table against the three predictions", Figure: HeldOutFigure(h)})
	}
	m, err := pairedMachine(ms, OneTableExample.Machine)
	if err != nil {
		return nil, err
	}
	one, err := PredictFrom(m, []string{OneTableExample.From}, OneTableExample.Table)
	if err != nil {
		return nil, err
	}
	out = append(out, Exhibit{Name: "07-one-table", Title: "A prediction from one table, with its 80% interval", Figure: HeldOutFigure(one)})
	scores, err := pairedScores(scored, heldout.LeaveOneOut)
	if err != nil {
		return nil, err
	}
	st, sum := ScoreTable(scores), MachineSummaryTable(scores)
	each, err := pairedScores(scored, heldout.FromEach)
	if err != nil {
		return nil, err
	}
	fromEach := MachineSummaryTable(each)
	cross, err := pairedCrossovers(scored)
	if err != nil {
		return nil, err
	}
	ct := CrossoverTable(cross)
	return append(out,
		Exhibit{Name: "07-scores", Title: "Median errors of every held-out table: model, one-link baseline, NCCL's model", Table: &st},
		Exhibit{Name: "07-scores-by-machine", Title: "Per machine, the medians at sizes of 1 MiB and more", Table: &sum},
		Exhibit{Name: "07-from-each-table", Title: "Per machine, each table predicting the others alone", Table: &fromEach},
		Exhibit{Name: "07-crossovers", Title: "Predicted against measured crossovers", Figure: CrossoverFigure(cross)},
		Exhibit{Name: "07-crossover-table", Title: "Every crossover, model against measured", Table: &ct}), nil
}
