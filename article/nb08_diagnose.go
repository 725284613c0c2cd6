package article

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/units"
)

// The exhibits of notebook 08 (diagnose a measured table, write a tuner
// configuration).

// A Diagnosis is one table compared with the model: the model, its
// findings (predict.Machine.Diagnose), and the table's measured points
// joined on size with the model and its 80% interval (columns model_us,
// low_us and high_us, with their _rel_err).
type Diagnosis struct {
	Table    predict.Table
	Model    *predict.Machine
	Findings []predict.Finding
	Frame    dataframe.DataFrame
}

// DiagnoseLog diagnoses the first table of the public log name (data/logs,
// such as "h200_2x8_allreduce_spectrumx_openshift.log") against the
// uncalibrated model of its GPU, pins giving what the log does not say.
func DiagnoseLog(name string, pins predict.Pins) (*Diagnosis, error) {
	b, err := data.Files.ReadFile("logs/" + name)
	if err != nil {
		return nil, err
	}
	tables, problems, err := predict.ReadBytes(b, name, func(int) predict.Pins { return pins })
	if err != nil {
		return nil, err
	}
	if len(tables) == 0 {
		return nil, fmt.Errorf("article: no table in %s: %v", name, problems)
	}
	h, err := predict.DefaultHardware(tables[0].GPU)
	if err != nil {
		return nil, err
	}
	return diagnose(predict.Uncalibrated(h), tables[0])
}

// DiagnosePaired diagnoses the paired machine m's table named table against
// the model calibrated on its tables named in from.
func DiagnosePaired(m heldout.PairedMachine, from []string, table string) (*Diagnosis, error) {
	h, err := PredictFrom(m, from, table)
	if err != nil {
		return nil, err
	}
	return diagnose(h.Model, h.Table)
}

// diagnose compares t with model.
func diagnose(model *predict.Machine, t predict.Table) (*Diagnosis, error) {
	d := &Diagnosis{Table: t, Model: model}
	var err error
	if d.Findings, _, err = model.Diagnose(t); err != nil {
		return nil, err
	}
	q := t.Query()
	side := func(pick func(predict.Prediction) float64) func(float64) float64 {
		return func(size float64) float64 {
			p, err := model.Predict(q, []float64{size})
			if err != nil {
				return math.NaN()
			}
			return pick(p[0])
		}
	}
	d.Frame, err = data.WithModel(tablePoints(t).Frame(),
		data.Curve{Name: "model", Time: side(func(p predict.Prediction) float64 { return p.Time })},
		data.Curve{Name: "low", Time: side(func(p predict.Prediction) float64 { return p.Low })},
		data.Curve{Name: "high", Time: side(func(p predict.Prediction) float64 { return p.High })})
	return d, err
}

// DiagnosisFigure plots the table against the model and its 80% interval,
// log-log.
func DiagnosisFigure(d *Diagnosis) figure.Figure {
	t := d.Table
	return figure.Figure{
		Title:  fmt.Sprintf("%s: %v on %d x %d against the model", t.Name, t.Collective, t.Nodes, t.PerNode),
		X:      figure.Axis{Label: "message size S", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.TopLeft,
		Series: []figure.Series{
			frameSeries(d.Frame, "measured", "time_us", figure.Points),
			banded(d.Frame, "model (80% interval shaded)", "model_us"),
		},
	}
}

// FindingsTable lists a diagnosis's findings, one row each, with their
// advice.
func FindingsTable(d *Diagnosis) figure.Table {
	t := figure.Table{Header: []string{"sizes", "measured/model", "finding", "term", "NCCL runs (model)", "try"},
		Align: []figure.Align{figure.Left, figure.Right}}
	for _, f := range d.Findings {
		t.Rows = append(t.Rows, []string{units.FormatSize(f.FromBytes) + ".." + units.FormatSize(f.ToBytes),
			fmt.Sprintf("%.2f", f.MeasuredOverModel), f.Kind, f.Term, f.NCCL, strings.Join(f.Advice, " ")})
	}
	return t
}

// TuneExample is notebook 08's tuner configuration: Together's node,
// calibrated on its Ring and tuner tables of AllReduce and AllGather, and
// rules for AllReduce on 1 and 2 nodes.
var TuneExample = struct {
	Machine string
	From    []string
	Nodes   []int
}{"h100-sxm-1x8-together", []string{"all_reduce_ring.log#0", "all_reduce_nvls.log#0", "all_gather_ring.log#0", "all_gather_nvls.log#0"}, []int{1, 2}}

// TuneRules calibrates the example's machine on its tables and returns
// the AllReduce rules of the file tune writes for its node counts, deciding
// at powers of two from 1 KiB to 4 GiB.
func TuneRules() ([]nccl.TunerRule, error) {
	m, err := PairedMachine(TuneExample.Machine)
	if err != nil {
		return nil, err
	}
	var tables []predict.Table
	for _, name := range TuneExample.From {
		i := slices.IndexFunc(m.Tables, func(t predict.Table) bool { return t.Name == m.Name+"/"+name })
		if i < 0 {
			return nil, fmt.Errorf("article: %s has no table %q", m.Name, name)
		}
		tables = append(tables, m.Tables[i])
	}
	mc, err := predict.Calibrate(m.Hardware, tables, nil)
	if err != nil {
		return nil, err
	}
	var sizes []float64
	for s := float64(1 << 10); s <= 4<<30; s *= 2 {
		sizes = append(sizes, s)
	}
	var comms []predict.Comm
	for _, n := range TuneExample.Nodes {
		comms = append(comms, predict.Comm{Nodes: n, PerNode: 8})
	}
	rules, err := mc.TunerRules([]commmodel.Collective{commmodel.AllReduce}, comms, predict.Layout{}, sizes)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(rules, func(r nccl.TunerRule) bool { return r.Func != nccl.FuncAllReduce }), nil
}

// RulesTable lists tuner rules as the plugin's file has them.
func RulesTable(rules []nccl.TunerRule) figure.Table {
	t := figure.Table{Header: []string{"collective", "min bytes", "max bytes", "algorithm", "protocol", "channels", "nodes", "ranks"},
		Align: []figure.Align{figure.Left, figure.Right, figure.Right, figure.Left, figure.Left, figure.Right, figure.Right, figure.Right}}
	for _, r := range rules {
		f := strings.Split(r.String(), ",")
		t.Rows = append(t.Rows, f[:8])
	}
	return t
}

// diagnoseExamples are notebook 08's diagnoses: the public 2 x 8 H200
// AllReduce against the uncalibrated model (a non-monotone switch, bus
// bandwidth above the NICs), and ABCI's V100 Broadcast on 32 nodes against
// its 2- to 8-node siblings (the fabric).
func diagnoseExamples() ([]*Diagnosis, error) {
	h200, err := DiagnoseLog("h200_2x8_allreduce_spectrumx_openshift.log", predict.Pins{})
	if err != nil {
		return nil, err
	}
	m, err := PairedMachine("v100-sxm2-abci-ib2xedr")
	if err != nil {
		return nil, err
	}
	v100, err := DiagnosePaired(m, []string{"broadcast_2x4.log#0", "broadcast_4x4.log#0", "broadcast_8x4.log#0"}, "broadcast_32x4.log#0")
	if err != nil {
		return nil, err
	}
	return []*Diagnosis{h200, v100}, nil
}

// diagnoseExhibits are notebook 08's figures and tables.
func diagnoseExhibits(in inputs) ([]Exhibit, error) {
	ds, err := diagnoseExamples()
	if err != nil {
		return nil, err
	}
	names := []string{"h200-2x8", "v100-32x4"}
	var out []Exhibit
	for i, d := range ds {
		ft := FindingsTable(d)
		out = append(out,
			Exhibit{Name: "08-diagnose-" + names[i], Title: "A measured table against the model and its 80% interval", Figure: DiagnosisFigure(d)},
			Exhibit{Name: "08-findings-" + names[i], Title: "Where the table departs from the model, and what to try", Table: &ft})
	}
	rules, err := TuneRules()
	if err != nil {
		return nil, err
	}
	rt := RulesTable(rules)
	return append(out, Exhibit{Name: "08-tuner-rules", Title: "Tuner plugin rules written from the calibrated model", Table: &rt}), nil
}
