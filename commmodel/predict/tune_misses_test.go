package predict

import (
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestTuneMissesNear: a choice is withheld where most of the calibration
// points within two doublings of its size lie outside their 80% intervals.
// GKE's B200 AllGather of 2 x 8 (b200_2x8_allgather_gke_a4_dranet.log) ran
// 549.9, 998.2 and 1753.7 us at 512 KiB, 1 and 2 MiB, then 933.6 us at
// 4 MiB: a form the model cannot follow there, whose AllReduce rules of
// Tree/LL over NCCL's NVLSTree/Simple at 512 KiB and 1 MiB claimed 2.66x
// and 2.58x. GKE's H200 AllGather of 2 x 8 (h200_2x8_allgather_gke_a3ultra
// _dws.log), which the model follows, keeps its Tree/LL rule at 256 KiB.
func TestTuneMissesNear(t *testing.T) {
	for _, c := range []struct {
		file   string
		misses bool
	}{
		{"b200_2x8_allgather_gke_a4_dranet.log", true},
		{"h200_2x8_allgather_gke_a3ultra_dws.log", false},
	} {
		pins := Pins{Nodes: 2, PerNode: 8, GPU: "H200"}
		if c.misses {
			pins = Pins{} // its Rank lines give the rest
		}
		tables, _, err := ReadFile("../../data/nccltests/testdata/real/"+c.file, func(int) Pins { return pins })
		if err != nil {
			t.Fatal(err)
		}
		base, err := Describe(tables[0].GPU, "")
		if err != nil {
			t.Fatal(err)
		}
		hw, _ := base.FromTables(tables, 8)
		m, err := Calibrate(hw, tables, nil)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := m.predictTable(&tables[0])
		if err != nil {
			t.Fatal(err)
		}
		sizes := []float64{256 << 10, 512 << 10, 1 << 20}
		rules, choices, err := m.TunerPlan([]commmodel.Collective{commmodel.AllReduce}, []Comm{{2, 8}}, Layout{}, sizes)
		if err != nil {
			t.Fatal(err)
		}
		if len(choices) == 0 {
			t.Fatalf("%s: no choice of the model's at 256 KiB to 1 MiB", c.file)
		}
		for _, ch := range choices {
			// The definition: the table's points within two doublings of
			// the size, and those outside their intervals.
			near, outside := 0, 0
			for j, p := range ps {
				if p.Size >= ch.Size/4 && p.Size <= 4*ch.Size {
					near++
					if !p.Holds(tables[0].Points[j].Time) {
						outside++
					}
				}
			}
			if ch.Near != near || ch.Outside != outside {
				t.Errorf("%s at %g B: %d of %d points near outside; want %d of %d", c.file, ch.Size, ch.Outside, ch.Near, outside, near)
			}
			if ch.Misses() != c.misses || ch.Misses() != (2*outside > near) {
				t.Errorf("%s at %g B: Misses %v with %d of %d outside; want %v", c.file, ch.Size, ch.Misses(), outside, near, c.misses)
			}
			if ch.Misses() && len(ch.RestsOn) == 0 && !ch.Withheld() {
				t.Errorf("%s at %g B: a choice that misses its tables is taken", c.file, ch.Size)
			}
			// The first rule at the size, the plugin's (fallbacks follow
			// it), runs the model's choice where it is taken, else NCCL's.
			k := slices.IndexFunc(rules, func(r nccl.TunerRule) bool {
				return r.Func == nccl.FuncAllReduce && r.MinBytes <= uint64(ch.Size) && uint64(ch.Size) <= r.MaxBytes
			})
			want := ch.Ours
			if ch.Withheld() {
				want = ch.NCCL
			}
			if k < 0 || !strings.EqualFold(rules[k].Algo.String(), want.Algorithm) || !strings.EqualFold(nccl.ProtocolName(rules[k].Proto), want.Protocol) {
				t.Errorf("%s at %g B: the first rule is %v; want %s/%s", c.file, ch.Size, rules[k], want.Algorithm, want.Protocol)
			}
		}
	}
}

// TestOwnPointsLeavePluginOut: the calibration points the tuner's checks
// read (m.own) are every table's but a tuner plugin's, whose choices the
// model prices as NCCL's (AWS's p5 2 x 8 AllReduce under aws-ofi-nccl's
// tuner beside three runs without it).
func TestOwnPointsLeavePluginOut(t *testing.T) {
	hw, tables := p5Tables(t)
	m, err := Calibrate(hw, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, plugins := 0, 0
	for i := range tables {
		if tables[i].Evidence.TunerPlugin.Known() {
			plugins++
			continue
		}
		want += len(tables[i].Points)
	}
	got := 0
	for _, pts := range m.own {
		got += len(pts)
	}
	if plugins != 1 || got != want {
		t.Errorf("%d points recorded of %d tables without a plugin (%d with one); want %d", got, len(tables)-plugins, plugins, want)
	}
}
