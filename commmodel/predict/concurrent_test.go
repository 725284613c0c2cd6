package predict_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// TestMachineConcurrent shares one calibrated Machine between 16 goroutines
// that each make every read-only call of it on queries the calibration
// never ran (so that the calls fill whatever the Machine keeps per query),
// and checks that each goroutine gets what one caller alone gets. Under
// -race it fails on any unguarded shared state.
func TestMachineConcurrent(t *testing.T) {
	t.Parallel()
	pm := pairedMachine(t, "h100-sxm-1x8-together")
	var calib, sweep []predict.Table
	for _, tb := range pm.Tables {
		if strings.Contains(tb.Name, "/all_reduce_ring.log") || strings.Contains(tb.Name, "/all_reduce_nvls.log") {
			sweep = append(sweep, tb) // an AllReduce sweep pinned to Ring and to NVLS
		} else {
			calib = append(calib, tb)
		}
	}
	if len(sweep) != 2 {
		t.Fatalf("%d AllReduce tables of Together, want ring and nvls", len(sweep))
	}
	m, err := predict.Calibrate(pm.Hardware, calib, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := func() (string, error) {
		var b strings.Builder
		sizes := []float64{1 << 10, 1 << 20, 1 << 30}
		for _, q := range []predict.Query{
			{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8},
			{Collective: commmodel.AllReduce, Ranks: 32, PerNode: 8},
			{Collective: commmodel.Broadcast, Ranks: 16, PerNode: 8, Algo: "ring"},
			{Collective: commmodel.AllToAll, Ranks: 16, PerNode: 8},
			{Collective: commmodel.AllGather, Ranks: 8, PerNode: 8, Layout: predict.Layout{Graphs: 1}},
		} {
			ps, err := m.Predict(q, sizes)
			if err != nil {
				return "", err
			}
			beyond, err := m.Beyond(q)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%+v %+v %v %g\n", ps, m.Layout(q), beyond, m.Curve(q)(1<<25))
			if q.Collective != commmodel.AllToAll {
				ch, err := m.Choices(q, 1<<22)
				if err != nil {
					return "", err
				}
				fmt.Fprintf(&b, "%+v\n", ch)
			}
		}
		findings, inside, err := m.Diagnose(sweep[0])
		if err != nil {
			return "", err
		}
		points, err := m.ScoreSweep(sweep)
		if err != nil {
			return "", err
		}
		comms := []predict.Comm{{Nodes: 1, PerNode: 8}, {Nodes: 2, PerNode: 8}, {Nodes: 4, PerNode: 4}}
		rules, err := m.TunerRules([]commmodel.Collective{commmodel.AllReduce}, comms, predict.Layout{}, sizes)
		if err != nil {
			return "", err
		}
		tuner, err := m.TunerModel(comms[1])
		if err != nil {
			return "", err
		}
		ch, _ := tuner.MaxChannels(nccl.AlgoRing, nccl.Simple, 1<<30)
		fmt.Fprintf(&b, "%+v %d %+v %+v %v %+v %d\n", findings, inside, points, rules, m.Version(), m.TablesLayouts(), ch)
		return b.String(), nil
	}
	const goroutines = 16
	got := make([]string, goroutines)
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g], errs[g] = calls()
		}()
	}
	wg.Wait()
	want, err := calls()
	if err != nil {
		t.Fatal(err)
	}
	for g := range goroutines {
		if errs[g] != nil {
			t.Errorf("goroutine %d: %v", g, errs[g])
		} else if got[g] != want {
			t.Errorf("goroutine %d got\n%s\nalone\n%s", g, got[g], want)
		}
	}
}

// TestConcurrentReadersAndModel runs the readers and the model from
// goroutines on shared inputs, as a server answering several requests
// would: nccltests and topo readers on the same bytes, predict.Describe,
// Calibrate on the same tables and hardware, and Predict, Diagnose and
// TunerRules on the same Machine. Each goroutine's answer must equal the
// one computed alone. Run it under -race.
func TestConcurrentReadersAndModel(t *testing.T) {
	dir := "../../data/logs/paired/h100-sxm-1x8-together"
	logBytes, err := os.ReadFile(filepath.Join(dir, "all_reduce_ring.log"))
	if err != nil {
		t.Fatal(err)
	}
	topoBytes, err := os.ReadFile("../../topo/testdata/dgx_a100_nps4.txt")
	if err != nil {
		t.Fatal(err)
	}
	tables, _, err := predict.ReadFile(filepath.Join(dir, "all_gather_ring.log"), func(int) predict.Pins { return predict.Pins{Algo: "ring"} })
	if err != nil {
		t.Fatal(err)
	}
	check, _, err := predict.ReadFile(filepath.Join(dir, "all_reduce_ring.log"), func(int) predict.Pins { return predict.Pins{Algo: "ring"} })
	if err != nil {
		t.Fatal(err)
	}
	hw, err := predict.Describe(tables[0].GPU, "nics=8")
	if err != nil {
		t.Fatal(err)
	}
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := predict.Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	sizes := []float64{1 << 10, 1 << 20, 1 << 30}
	comms := []predict.Comm{{Nodes: 1, PerNode: 8}, {Nodes: 2, PerNode: 8}}
	work := func() string {
		r := nccltests.NewReader(bytes.NewReader(logBytes))
		tests, err := r.ReadAll()
		if err != nil {
			return err.Error()
		}
		tp, _, err := topo.Parse(bytes.NewReader(topoBytes))
		if err != nil {
			return err.Error()
		}
		h, err := predict.Describe(tables[0].GPU, "nics=8")
		if err != nil {
			return err.Error()
		}
		m2, err := predict.Calibrate(h, tables, nil)
		if err != nil {
			return err.Error()
		}
		ps, err := m.Predict(q, sizes)
		ps2, err2 := m2.Predict(q, sizes)
		findings, inside, err3 := m.Diagnose(check[0])
		rules, err4 := m.TunerRules([]commmodel.Collective{commmodel.AllReduce, commmodel.AllGather}, comms, predict.Layout{}, nil)
		return fmt.Sprint(len(tests[0].Rows), len(tp.GPUs()), ps, err, ps2, err2, findings, inside, err3, rules, err4)
	}
	want := work()
	var wg sync.WaitGroup
	got := make([]string, 6)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = work()
		}()
	}
	wg.Wait()
	for i, g := range got {
		if !reflect.DeepEqual(g, want) {
			t.Errorf("goroutine %d: %s\nwant %s", i, g, want)
		}
	}
}
