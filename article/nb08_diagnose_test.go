package article

import (
	"math"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

// TestDiagnoseExamples holds notebook 08's diagnoses to what the logs show:
// the public 2 x 8 H200 AllReduce falls from 81.24 us at 128 KiB to
// 63.59 us at 256 KiB across the model's Tree/LL to Tree/LL128 switch, and
// reaches 485.66 GB/s of bus bandwidth at 16 GiB, above eight 400 Gb/s
// NICs; ABCI's V100 Broadcast on 32 nodes is slower than its siblings
// predict in the network regime.
func TestDiagnoseExamples(t *testing.T) {
	ds, err := diagnoseExamples()
	if err != nil {
		t.Fatal(err)
	}
	kinds := func(d *Diagnosis) map[string]bool {
		k := map[string]bool{}
		for _, f := range d.Findings {
			k[f.Kind] = true
		}
		return k
	}
	if k := kinds(ds[0]); !k[predict.KindSwitch] || !k[predict.KindAboveNIC] {
		t.Errorf("H200: %v, want a switch and bus bandwidth above the NICs", k)
	}
	if k := kinds(ds[1]); !k[predict.KindFabric] {
		t.Errorf("V100 on 32 nodes: %v, want slower than its siblings", k)
	}
	for _, d := range ds {
		if d.Frame.Nrow() != len(d.Table.Points) {
			t.Errorf("%s: %d rows, %d points", d.Table.Name, d.Frame.Nrow(), len(d.Table.Points))
		}
		if _, err := DiagnosisFigure(d).PNG(); err != nil {
			t.Error(err)
		}
		if n := len(FindingsTable(d).Rows); n != len(d.Findings) {
			t.Errorf("%s: %d rows for %d findings", d.Table.Name, n, len(d.Findings))
		}
	}
}

// TestTuneRulesExample: the example's rules cover every AllReduce size on
// each node count from 0 to the largest, without a gap.
func TestTuneRulesExample(t *testing.T) {
	rules, err := TuneRules()
	if err != nil {
		t.Fatal(err)
	}
	next := map[int]uint64{}
	for _, r := range rules {
		if r.Func != nccl.FuncAllReduce || r.MinBytes != next[r.Nodes] {
			t.Errorf("%v: want AllReduce from %d", r, next[r.Nodes])
		}
		next[r.Nodes] = r.MaxBytes + 1
	}
	for _, n := range TuneExample.Nodes {
		if _, ok := next[n]; !ok || next[n] != 0 {
			t.Errorf("%d nodes: rules end at %d, want %d", n, next[n]-1, uint64(math.MaxUint64))
		}
	}
	if len(RulesTable(rules).Rows) != len(rules) {
		t.Error("the rules table drops rules")
	}
}

func TestExhibits08(t *testing.T) { checkExhibits(t, "08_diagnose_tune", 5) }
