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
		tables := realLogPinned(t, c.file, pins)
		m := newUserMachine(t, tables)
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
			// The first rule at the size, the plugin's (fallbacks follow
			// it), runs NCCL's own where the choice misses its tables or
			// rests on an assumed fact, else the model's.
			want := ch.Ours
			if c.misses || len(ch.RestsOn) > 0 {
				want = ch.NCCL
			}
			if ch.Withheld() != (want == ch.NCCL) {
				t.Errorf("%s at %g B: Withheld %v", c.file, ch.Size, ch.Withheld())
			}
			k := slices.IndexFunc(rules, func(r nccl.TunerRule) bool {
				return r.Func == nccl.FuncAllReduce && r.MinBytes <= uint64(ch.Size) && uint64(ch.Size) <= r.MaxBytes
			})
			if k < 0 {
				t.Errorf("%s at %g B: no AllReduce rule", c.file, ch.Size)
			} else if !strings.EqualFold(rules[k].Algo.String(), want.Algorithm) || !strings.EqualFold(nccl.ProtocolName(rules[k].Proto), want.Protocol) {
				t.Errorf("%s at %g B: the first rule is %v; want %s/%s", c.file, ch.Size, rules[k], want.Algorithm, want.Protocol)
			}
		}
	}
}

// realLogPinned returns the tables of a public log (data/nccltests/testdata/real)
// read with pins.
func realLogPinned(t *testing.T, file string, pins Pins) []Table {
	t.Helper()
	tables, _, err := ReadFile("../../data/nccltests/testdata/real/"+file, func(int) Pins { return pins })
	if err != nil {
		t.Fatal(err)
	}
	return tables
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
