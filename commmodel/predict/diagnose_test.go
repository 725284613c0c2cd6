package predict

import (
	"math"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestUncalibrated: the model at its priors has every parameter at its
// prior and unidentified, and predicts with a finite interval around a
// finite time, on one node and across nodes.
func TestUncalibrated(t *testing.T) {
	m := Uncalibrated(h100(t))
	for _, p := range m.Params {
		if p.Value != p.Prior || p.Identified {
			t.Errorf("%s: %g against prior %g, identified %v", p.Name, p.Value, p.Prior, p.Identified)
		}
	}
	for _, q := range []Query{{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8}, {Collective: commmodel.AllToAll, Ranks: 64, PerNode: 8}} {
		ps, err := m.Predict(q, []float64{1024, 1 << 30})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if !(p.Low > 0 && p.Low < p.Time && p.Time < p.High) || math.IsInf(p.High, 0) {
				t.Errorf("%v %g B: %+v", q.Collective, p.Size, p)
			}
		}
	}
}

// TestSwitches: a fall in time across NCCL's change of choice is found, a
// fall within 5% is noise, and a fall where the choice stays is not a
// switch.
func TestSwitches(t *testing.T) {
	tab := Table{Points: []Point{{1, 10e-6}, {2, 12e-6}, {4, 11.5e-6}, {8, 9e-6}, {16, 20e-6}}}
	preds := []Prediction{{Algorithm: "Ring", Protocol: "LL"}, {Algorithm: "Ring", Protocol: "LL"}, {Algorithm: "Ring", Protocol: "LL"},
		{Algorithm: "Ring", Protocol: "LL128"}, {Algorithm: "Ring", Protocol: "LL128"}}
	for i := range preds {
		preds[i].Time = tab.Points[i].Time
	}
	fs := switches(tab, preds)
	if len(fs) != 1 || fs[0].FromBytes != 4 || fs[0].ToBytes != 8 || fs[0].NCCL != "Ring/LL -> Ring/LL128" {
		t.Errorf("%+v, want one switch from 4 to 8 B", fs)
	}
	preds[3].Protocol, preds[4].Protocol = "LL", "LL"
	if fs := switches(tab, preds); len(fs) != 0 {
		t.Errorf("%+v, want none where the choice stays", fs)
	}
}

// TestHostHint: a multi-node table slower than the model in its network or
// latency term asks for the host facts the model took by default, and only
// those not given.
func TestHostHint(t *testing.T) {
	ten := Table{Nodes: 10, PerNode: 8}
	slow := Finding{Kind: KindSlower, Term: TermNetwork}
	for _, c := range []struct {
		name   string
		spec   string
		f      Finding
		t      Table
		wants  []string // "" for no hint
		absent []string
	}{
		{"default host", "", slow, ten, []string{"-hw nic-path=phb", "-hw cpu=amd"}, nil},
		{"latency term", "", Finding{Kind: KindSlower, Term: TermLatency}, ten, []string{"-hw nic-path=phb"}, nil},
		{"NIC path given", "nic-path=pxb", slow, ten, []string{"-hw cpu=amd"}, []string{"nic-path"}},
		{"both given", "nic-path=pxb,cpu=amd", slow, ten, []string{""}, nil},
		{"one node", "", slow, Table{Nodes: 1, PerNode: 8}, []string{""}, nil},
		{"faster", "", Finding{Kind: KindFaster, Term: TermNetwork}, ten, []string{""}, nil},
		{"NVLink term", "", Finding{Kind: KindSlower, Term: TermNVLink}, ten, []string{""}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := Describe("NVIDIA H100 80GB HBM3", c.spec)
			if err != nil {
				t.Fatal(err)
			}
			hint, ok := Uncalibrated(h).hostHint(c.f, c.t)
			if c.wants[0] == "" {
				if ok {
					t.Errorf("hint %q, want none", hint)
				}
				return
			}
			for _, w := range c.wants {
				if !strings.Contains(hint, w) {
					t.Errorf("hint %q, want %q in it", hint, w)
				}
			}
			for _, a := range c.absent {
				if strings.Contains(hint, a) {
					t.Errorf("hint %q, want no %q in it", hint, a)
				}
			}
		})
	}
}
