package predict

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestPairedMachines checks the tables handed to the calibration against
// data/logs/paired/README.md: 7 machines, and for Together the seven tables of
// 8 ranks with their pins, one thread driving 8 GPUs (-g 8) and NCCL
// 2.26.2 (nccl-library=22602).
func TestPairedMachines(t *testing.T) {
	ms, err := PairedMachines(os.DirFS(pairedDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 7 {
		t.Fatalf("%d machines, want 7", len(ms))
	}
	var together PairedMachine
	total := 0
	for _, m := range ms {
		total += len(m.Tables)
		if m.Name == "h100-sxm-1x8-together" {
			together = m
		}
	}
	// 83 tables in MANIFEST.csv, less the DGX-2's Reduce and the nine SendRecv.
	if total != 73 {
		t.Errorf("%d tables of collectives the model predicts, want 73", total)
	}
	want := map[string]string{
		"all_reduce_ring.log#0": "Ring", "all_reduce_nvls.log#0": "", "all_reduce_collnet_sharp.log#0": "^NVLS,NVLSTree",
		"all_gather_ring.log#0": "Ring", "reduce_scatter_nvls.log#0": "",
	}
	if len(together.Tables) != 7 {
		t.Fatalf("Together: %d tables, want 7", len(together.Tables))
	}
	for _, tab := range together.Tables {
		name := filepath.Base(tab.Name)
		if a, ok := want[name]; ok && !strings.EqualFold(tab.Algo, a) {
			t.Errorf("%s: algo %q, want %q", tab.Name, tab.Algo, a)
		}
		if tab.Nodes != 1 || tab.PerNode != 8 || tab.GPUsPerThread != 8 || tab.Version.String() != "2.26.2" || tab.GPU != "NVIDIA H100 80GB HBM3" {
			t.Errorf("%s: %+v", tab.Name, tab)
		}
	}
	// The 8 B row of all_reduce_ring.log: 37.33 us out of place.
	if p := together.Tables[0].Points[0]; p.Size != 8 || math.Abs(p.Time-37.33e-6) > 1e-12 {
		t.Errorf("first point %+v, want 8 B in 37.33 us", p)
	}
	if together.Tables[0].Collective != commmodel.AllReduce {
		t.Errorf("collective %v", together.Tables[0].Collective)
	}
}

// TestReadFileHeader checks what ReadFile reads before a table:
// NCCL's "NCCL_ALGO set by environment" INFO line (added here to a real
// log, Together's all_gather_nvls.log, which prints nGpus 8 and
// nccl-library=22602), and that a pin overrides it.
func TestReadFileHeader(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(pairedDir, "h100-sxm-1x8-together", "all_gather_nvls.log"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(b), "\n")
	path := filepath.Join(t.TempDir(), "ag.log")
	text := first + "\ngpu-dp-2jvzl-pqq7p:1596894:1596894 [0] NCCL INFO NCCL_ALGO set by environment to Tree\n" + rest
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tabs, _, err := ReadFile(path, nil)
	if err != nil || len(tabs) != 1 {
		t.Fatalf("%d tables, %v", len(tabs), err)
	}
	if tab := tabs[0]; tab.Algo != "Tree" || tab.GPUsPerThread != 8 || tab.Version.String() != "2.26.2" || tab.Name != "ag.log#0" {
		t.Errorf("%+v: want NCCL_ALGO Tree, 8 GPUs per thread, NCCL 2.26.2, ag.log#0", tab)
	}
	tabs, _, _ = ReadFile(path, func(int) Pins { return Pins{Algo: "auto", Layout: Layout{GPUsPerThread: 1}} })
	if tab := tabs[0]; tab.Algo != "" || tab.GPUsPerThread != 1 {
		t.Errorf("pinned: algo %q, %d GPUs per thread; want the tuner and 1", tab.Algo, tab.GPUsPerThread)
	}
}

// TestLayoutCarriesOver calibrates on Together's AllGather and
// ReduceScatter tables, measured by one thread driving 8 GPUs (-g 8, a
// launch floor of about 35 us), and predicts AllReduce of the same run at
// 1 KiB: without a layout in the query, the tables' -g 8 is used, and the
// prediction lands near the measured 37.38 us (all_reduce_ring.log, the
// 1024-byte row); with -g 1 it does not.
func TestLayoutCarriesOver(t *testing.T) {
	h, tables := togetherTables(t, "all_gather_ring", "reduce_scatter_ring")
	m, err := Calibrate(h, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	const measured = 37.38e-6
	q := Query{Collective: commmodel.AllReduce, Ranks: 8, PerNode: 8, Algo: "Ring"}
	got, err := m.Predict(q, []float64{1024})
	if err != nil {
		t.Fatal(err)
	}
	if e := math.Abs(got[0].Time/measured - 1); e > 0.15 {
		t.Errorf("AllReduce at 1 KiB with the tables' layout: %.2f us, measured %.2f us (%.0f%% off)", got[0].Time*1e6, measured*1e6, 100*e)
	}
	q.GPUsPerThread = 1
	one, err := m.Predict(q, []float64{1024})
	if err != nil {
		t.Fatal(err)
	}
	if !(one[0].Time < 0.6*measured) {
		t.Errorf("with one GPU per thread: %.2f us, want well under the -g 8 floor", one[0].Time*1e6)
	}
}

// togetherTables returns the hardware of the paired Together machine and
// its tables from the logs named (without ".log"), in that order.
func togetherTables(t *testing.T, logs ...string) (Hardware, []Table) {
	t.Helper()
	ms, err := PairedMachines(os.DirFS(pairedDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Name != "h100-sxm-1x8-together" {
			continue
		}
		var tables []Table
		for _, name := range logs {
			for _, tb := range m.Tables {
				if strings.HasPrefix(tb.Name, "h100-sxm-1x8-together/"+name+".log#") {
					tables = append(tables, tb)
				}
			}
		}
		if len(tables) != len(logs) {
			t.Fatalf("%d tables of Together's %v", len(tables), logs)
		}
		return m.Hardware, tables
	}
	t.Fatal("no Together machine in the paired logs")
	return Hardware{}, nil
}
