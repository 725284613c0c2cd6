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
// such as "h200_2x8_allreduce_spectrumx_openshift.log") against what its
// GPU's name predicts (predict.Uncalibrated's Expect: NCCL's own model where
// it times the run), pins giving what the log does not say. As
// commlab diagnose does, the machine takes what the table's NCCL_DEBUG
// lines say of it (predict.Hardware.WithEvidence) and the table's GPUs per
// node (ForHosts); the rest is assumed, and findings it may explain name it.
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
	t := tables[0]
	h, err := predict.DefaultHardware(t.GPU)
	if err != nil {
		return nil, err
	}
	h, _ = h.WithEvidence(tables[:1])
	return diagnose(predict.Uncalibrated(h.ForHosts(t.PerNode)), t)
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

// DiagnoseHeldOut diagnoses the paired machine m's table named table
// against the model calibrated on every other table of m.
func DiagnoseHeldOut(m heldout.PairedMachine, table string) (*Diagnosis, error) {
	h, err := PredictHeldOut(m, table)
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
			p, err := model.Expect(q, []float64{size})
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

// FindingsTable lists a diagnosis's findings, one row each, with the
// assumed facts of the machine that may explain them or that they rest on
// (predict.Finding.Assumed, without a value) and their advice, its
// items joined by "; " (each a clause of its own, as diagnose's CSV joins
// them).
func FindingsTable(d *Diagnosis) figure.Table {
	t := figure.Table{Header: []string{"sizes", "measured/model", "finding", "term", "NCCL runs (model)", "assumed", "try"},
		Align: []figure.Align{figure.Left, figure.Right}}
	for _, f := range d.Findings {
		var assumed []string
		for _, name := range f.AssumedFacts() {
			// A guess's value with it; a fact the finding rests on itself
			// has its name alone.
			if k := slices.IndexFunc(f.Guesses, func(g predict.Guess) bool { return g.Fact.Name == name }); k >= 0 {
				name += " = " + f.Guesses[k].Fact.Value
			}
			assumed = append(assumed, name)
		}
		t.Rows = append(t.Rows, []string{units.FormatSize(f.FromBytes) + ".." + units.FormatSize(f.ToBytes),
			fmt.Sprintf("%.2f", f.MeasuredOverModel), f.Kind, f.Term, f.NCCL, strings.Join(assumed, ", "), strings.Join(f.Advice, "; ")})
	}
	return t
}

// TuneExample is notebook 08's tuner configuration: Together's node,
// calibrated on its Ring and NVLS tables of AllReduce and AllGather, writes
// rules for a job of 3 nodes of 8 GPUs in tensor-parallel groups of 4. The
// job creates the groups (1 x 4), the data-parallel groups of two GPUs of
// each node (3 x 2) and the world (3 x 8). Old are the communicators the
// rules were written for before tune took a job's: 1 and 2 nodes of 8.
var TuneExample = struct {
	Machine     string
	From        []string
	Collectives []commmodel.Collective
	Job, Old    []predict.Comm
}{
	Machine:     "h100-sxm-1x8-together",
	From:        []string{"all_reduce_ring.log#0", "all_reduce_nvls.log#0", "all_gather_ring.log#0", "all_gather_nvls.log#0"},
	Collectives: []commmodel.Collective{commmodel.AllReduce, commmodel.AllGather},
	Job:         []predict.Comm{{Nodes: 1, PerNode: 4}, {Nodes: 3, PerNode: 2}, {Nodes: 3, PerNode: 8}},
	Old:         []predict.Comm{{Nodes: 1, PerNode: 8}, {Nodes: 2, PerNode: 8}},
}

// TuneMachine calibrates the example's machine on its tables.
func TuneMachine() (*predict.Machine, error) {
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
	return predict.Calibrate(m.Hardware, tables, nil)
}

// TuneAcross is notebook 08's second tuning example: a machine whose
// tables cross nodes (cluster01's, on 1 to 10 nodes of 1 to 8 GPUs), which
// measure the network, so that the model can claim a gain across nodes,
// its collectives and the communicators of its job.
var TuneAcross = struct {
	Machine     string
	Collectives []commmodel.Collective
	Comms       []predict.Comm
}{
	Machine:     "h100-sxm-10node-cluster01",
	Collectives: []commmodel.Collective{commmodel.AllReduce, commmodel.AllGather, commmodel.ReduceScatter},
	Comms:       []predict.Comm{{Nodes: 2, PerNode: 8}, {Nodes: 10, PerNode: 1}, {Nodes: 10, PerNode: 8}},
}

// TuneAcrossMachine returns TuneAcross's machine calibrated on all its
// tables.
func TuneAcrossMachine() (*predict.Machine, error) {
	pm, err := PairedMachine(TuneAcross.Machine)
	if err != nil {
		return nil, err
	}
	return predict.Calibrate(pm.Hardware, pm.Tables, nil)
}

// TuneRules returns the rules commlab tune writes from m for the
// communicators comms (predict.Machine.TunerRules): for every function of
// NCCL's tuner on each, NCCL's own choice, except for collectives where m's
// fastest beats it beyond its interval, deciding at powers of two from
// 1 KiB to 4 GiB.
func TuneRules(m *predict.Machine, collectives []commmodel.Collective, comms []predict.Comm) ([]nccl.TunerRule, error) {
	return m.TunerRules(collectives, comms, predict.Layout{}, tuneSizes())
}

// tuneSizes are the sizes tune decides at by default: powers of two from
// 1 KiB to 4 GiB.
func tuneSizes() []float64 {
	var sizes []float64
	for s := float64(1 << 10); s <= 4<<30; s *= 2 {
		sizes = append(sizes, s)
	}
	return sizes
}

// OldTuneRules returns the example's old file: AllReduce rules alone, for
// the old communicators, as tune wrote before it took a job's.
func OldTuneRules(m *predict.Machine) ([]nccl.TunerRule, error) {
	rules, err := TuneRules(m, TuneExample.Collectives, TuneExample.Old)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(rules, func(r nccl.TunerRule) bool { return r.Func != nccl.FuncAllReduce }), nil
}

// ModelRules returns the rules of rules, written by TuneRules from m for
// comms, that run another algorithm or protocol than NCCL's own at some of
// their sizes: where the model expects its choice to beat NCCL's beyond its
// interval. The others keep NCCL's choice.
func ModelRules(m *predict.Machine, rules []nccl.TunerRule, comms []predict.Comm) ([]nccl.TunerRule, error) {
	own, err := m.TunerRules(nil, comms, predict.Layout{}, nil)
	if err != nil {
		return nil, err
	}
	// The fallback rules after NVLS, NVLSTree, PAT and CollNet rules are
	// NCCL's own for the calls it leaves those out of: the rules before
	// them are compared.
	own = nccl.WithoutFallbacks(own)
	return slices.DeleteFunc(nccl.WithoutFallbacks(rules), func(r nccl.TunerRule) bool {
		return !slices.ContainsFunc(own, func(o nccl.TunerRule) bool {
			return o.Func == r.Func && o.Nodes == r.Nodes && o.Ranks == r.Ranks && o.MinBytes <= r.MaxBytes && r.MinBytes <= o.MaxBytes &&
				(o.Algo != r.Algo || o.Proto != r.Proto)
		})
	}), nil
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

// A RulesCheck is a rules file read as NCCL's example plugin reads it and
// checked against a job's communicators (nccl.CheckTunerRules).
type RulesCheck struct {
	// File is the rules file, as nccl.WriteTunerRules writes it.
	File string
	// Comms are the job's communicators.
	Comms []predict.Comm
	// Problems are what makes the job run otherwise than the file says,
	// and the rules no call of the job matches.
	Problems []nccl.TunerProblem
}

// CheckRules writes rules as a file and checks it against the
// communicators comms on the machine m, whose tuning model says what NCCL
// leaves to the plugin on each.
func CheckRules(m *predict.Machine, rules []nccl.TunerRule, comms []predict.Comm) (*RulesCheck, error) {
	tcs, err := m.TunerComms(comms)
	if err != nil {
		return nil, fmt.Errorf("article: %w", err)
	}
	var b strings.Builder
	if err := nccl.WriteTunerRules(&b, []string{"written by notebook 08 for " + commsText(comms)}, rules); err != nil {
		return nil, err
	}
	probs, err := nccl.CheckTunerRules(strings.NewReader(b.String()), "nccl_tuner.conf", tcs)
	if err != nil {
		return nil, err
	}
	return &RulesCheck{File: b.String(), Comms: comms, Problems: probs}, nil
}

// Count returns how many of the check's problems are of hazard h.
func (c *RulesCheck) Count(h nccl.TunerHazard) int {
	n := 0
	for _, p := range c.Problems {
		if p.Hazard == h {
			n++
		}
	}
	return n
}

// ChecksTable compares checks, one column each under its name: how many
// problems of each hazard each found.
func ChecksTable(names []string, checks []*RulesCheck) figure.Table {
	t := figure.Table{Header: append([]string{"hazard"}, names...), Align: []figure.Align{figure.Left}}
	for h := nccl.HazardLongLine; h <= nccl.HazardUnused; h++ {
		row := []string{h.String()}
		for _, c := range checks {
			row = append(row, fmt.Sprint(c.Count(h)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// ProblemsTable lists a check's problems that change what the job runs
// (nccl.TunerProblem.Fails), one row each: the file's line ("-" for calls
// no line covers), the hazard and what it does to the job.
func ProblemsTable(c *RulesCheck) figure.Table {
	t := figure.Table{Header: []string{"line", "hazard", "what the job runs"}, Align: []figure.Align{figure.Right, figure.Left, figure.Left}}
	for _, p := range c.Problems {
		if !p.Fails() {
			continue
		}
		line := "-"
		if p.Line > 0 {
			line = fmt.Sprint(p.Line)
		}
		t.Rows = append(t.Rows, []string{line, p.Hazard.String(), p.Message})
	}
	return t
}

// TuneChecks returns the example's old file and the file tune writes for
// the job, each checked against the job's communicators.
func TuneChecks() (old, job *RulesCheck, err error) {
	m, err := TuneMachine()
	if err != nil {
		return nil, nil, err
	}
	rules, err := OldTuneRules(m)
	if err != nil {
		return nil, nil, err
	}
	if old, err = CheckRules(m, rules, TuneExample.Job); err != nil {
		return nil, nil, err
	}
	if rules, err = TuneRules(m, TuneExample.Collectives, TuneExample.Job); err != nil {
		return nil, nil, err
	}
	job, err = CheckRules(m, rules, TuneExample.Job)
	return old, job, err
}

// diagnoseExamples are notebook 08's diagnoses: the public 2 x 8 H200
// AllReduce against the uncalibrated model (a non-monotone switch, bus
// bandwidth above the NICs, and gaps the assumed NICs may explain); ABCI's
// V100 Broadcast on 32 nodes against its 2- to 8-node siblings (the
// fabric); and Together's AllReduce pinned to Ring against the model
// calibrated on the node's other tables (a pin the model prices).
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
	if m, err = PairedMachine(TuneExample.Machine); err != nil {
		return nil, err
	}
	ring, err := DiagnoseHeldOut(m, "all_reduce_ring.log#0")
	if err != nil {
		return nil, err
	}
	return []*Diagnosis{h200, v100, ring}, nil
}

// diagnoseExhibits are notebook 08's figures and tables.
func diagnoseExhibits(in inputs) ([]Exhibit, error) {
	ds, err := diagnoseExamples()
	if err != nil {
		return nil, err
	}
	names := []string{"h200-2x8", "v100-32x4", "h100-ring-1x8"}
	var out []Exhibit
	for i, d := range ds {
		ft := FindingsTable(d)
		out = append(out,
			Exhibit{Name: "08-diagnose-" + names[i], Title: "A measured table against the model and its 80% interval", Figure: DiagnosisFigure(d)},
			Exhibit{Name: "08-findings-" + names[i], Title: "Where the table departs from the model, and what to try", Table: &ft})
	}
	old, job, err := TuneChecks()
	if err != nil {
		return nil, err
	}
	ct := ChecksTable([]string{"AllReduce rules for " + commsText(TuneExample.Old), "tune's rules for the job"}, []*RulesCheck{old, job})
	return append(out, Exhibit{Name: "08-tuner-check", Title: "Tuner rules files checked against a job's communicators, " + commsText(TuneExample.Job), Table: &ct}), nil
}

// commsText lists communicators, "1 x 4, 3 x 2, 3 x 8".
func commsText(comms []predict.Comm) string {
	var names []string
	for _, c := range comms {
		names = append(names, c.String())
	}
	return strings.Join(names, ", ")
}
