package predict_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
)

// TestMachineConcurrent shares one calibrated Machine between 16 goroutines
// that each make every read-only call of it on queries the calibration
// never ran (so that the calls fill whatever the Machine keeps per query),
// and checks that each goroutine gets what one caller alone gets. Under
// -race it fails on any unguarded shared state.
func TestMachineConcurrent(t *testing.T) {
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
