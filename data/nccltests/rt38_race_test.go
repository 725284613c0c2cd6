package nccltests_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// TestConcurrentReadersAndModel runs the readers and the model from
// goroutines on shared inputs, as a server answering several requests
// would: nccltests and topo readers on the same bytes, predict.Describe,
// Calibrate on the same tables and hardware, and Predict, Diagnose and
// TunerRules on the same Machine. Each goroutine's answer must equal the
// one computed alone. Run it under -race (red team 38).
func TestConcurrentReadersAndModel(t *testing.T) {
	dir := "../logs/paired/h100-sxm-1x8-together"
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
