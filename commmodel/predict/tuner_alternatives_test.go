package predict

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestTunerRulesHoldOnAlternatives: a rules file goes into a production
// job whose machine may be any of those an assumed fact's other value
// describes (the alternatives Guesses tries). For public logs of four
// machines (ABCI's 2 x 8 A100 AllReduce, an H100 HGX pair, Polaris' 4 x 4
// A100s and Alps' 2 x 4 GH200s), the file TunerRules writes for the
// machine as described passes the check (nccl.CheckTunerRules: no call on
// one channel, no rule passed over without a rule after it) on the
// machine as described and on every alternative: only rules that match no
// call of a communicator there (HazardUnused) may be reported.
func TestTunerRulesHoldOnAlternatives(t *testing.T) {
	for _, c := range []struct {
		file  string
		pin   Pins
		comms []Comm
	}{
		{"../../data/logs/paired/a100-sxm4-abci-ib4xhdr/allreduce_2x8.log", Pins{Nodes: 2, PerNode: 8}, []Comm{{1, 8}, {2, 8}, {2, 1}}},
		{"../../data/nccltests/testdata/real/h100_2x8_allreduce_baremetal_qoofyk_nccltests309.log", Pins{}, []Comm{{1, 8}, {2, 8}, {8, 8}}},
		{"../../data/nccltests/testdata/real/a100_4x4_allreduce_simple_polaris_ss11.log", Pins{Nodes: 4, PerNode: 4, GPU: "A100-SXM4-40GB"}, []Comm{{1, 4}, {64, 1}, {64, 4}}},
		{"../../data/nccltests/testdata/real/gh200_2x4_allreduce_slingshot_alps.log", Pins{}, []Comm{{1, 4}, {2, 4}, {16, 4}}},
	} {
		hw, tab := pinnedTable(t, c.file, c.pin)
		m, err := Calibrate(hw, []Table{tab}, &Settings{NoIntervals: true})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		rules, err := m.TunerRules([]commmodel.Collective{commmodel.AllReduce}, c.comms, Layout{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		check := func(what string, mc *Machine) {
			comms, err := mc.TunerComms(c.comms)
			if err != nil {
				return // NCCL cannot run the job there: nothing to check
			}
			var b strings.Builder
			if err := nccl.WriteTunerRules(&b, nil, rules); err != nil {
				t.Fatal(err)
			}
			probs, err := nccl.CheckTunerRules(strings.NewReader(b.String()), "job.conf", comms)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range probs {
				if p.Hazard != nccl.HazardUnused {
					t.Errorf("%s, %s: line %d: %v: %s", c.file, what, p.Line, p.Hazard, p.Message)
				}
			}
		}
		check("as described", m)
		for _, a := range m.Hardware.alternatives(m.tables, 0, true) {
			check(a.keys[0]+"="+a.value, m.on(a.hw))
		}
	}
}

// TestTunerRulesBadComm: a communicator of no rank or of negative counts
// is ErrShape, as TunerModel says, where TunerRules read "0 x 0 has one
// rank" and "-2 x 8 has one rank" (red team 34); one of one rank keeps
// its own error.
func TestTunerRulesBadComm(t *testing.T) {
	m := Uncalibrated(h100(t))
	ar := []commmodel.Collective{commmodel.AllReduce}
	for _, c := range []Comm{{}, {Nodes: -2, PerNode: 8}, {Nodes: 2, PerNode: -8}, {Nodes: -2, PerNode: -8}, {Nodes: 0, PerNode: 8}} {
		if _, err := m.TunerRules(ar, []Comm{c}, Layout{}, []float64{1 << 20}); !errors.Is(err, ErrShape) || strings.Contains(fmt.Sprint(err), "one rank") {
			t.Errorf("TunerRules on %v: %v, want ErrShape", c, err)
		}
	}
	if _, err := m.TunerRules(ar, []Comm{{Nodes: 1, PerNode: 1}}, Layout{}, []float64{1 << 20}); err == nil || !strings.Contains(err.Error(), "one rank") {
		t.Errorf("TunerRules on 1 x 1: %v, want the one-rank error", err)
	}
}
