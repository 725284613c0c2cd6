package predict

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// TestTuneNCCLAsFastAsItRan (red team 46): NCCL's own choice is taken as
// fast as the calibration tables ran its protocol near the size, not only
// as slow. AWS's p5 2 x 8 AllReduce ran NVLSTree/Simple at 1 MiB in 122 us
// against the model's 271; on 4 x 8, which no table ran, tune wrote
// Tree/LL from 371 KB to 2 MiB, "3.13x faster" than NCCL's predicted
// 513 us at 1 MiB, a gain the tables' own Simple points speak against.
func TestTuneNCCLAsFastAsItRan(t *testing.T) {
	hw, tables := p5Tables(t)
	m, err := Calibrate(hw, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes := []float64{512 << 10, 1 << 20, 2 << 20}
	_, choices, err := m.TunerPlan([]commmodel.Collective{commmodel.AllReduce, commmodel.Broadcast}, []Comm{{2, 8}, {4, 8}}, Layout{}, sizes)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range choices {
		if c.Withheld() {
			continue
		}
		f := m.missNear(Query{Collective: c.Collective, Ranks: c.Comm.Nodes * c.Comm.PerNode, PerNode: c.Comm.PerNode}, c.NCCL.Protocol, c.Ours.Protocol, c.Size)
		if c.Ours.High*m.slowNear(Query{Collective: c.Collective, Ranks: c.Comm.Nodes * c.Comm.PerNode, PerNode: c.Comm.PerNode}, c.Ours.Protocol, c.Size) >= c.NCCL.Time*f {
			t.Errorf("%v on %v, %d to %d B: %s/%s, %.3g us at most, taken against NCCL's %s/%s %.3g us, which the tables ran %.2f times as long near %g B",
				c.Collective, c.Comm, c.MinBytes, c.MaxBytes, c.Ours.Algorithm, c.Ours.Protocol, c.Ours.High*1e6, c.NCCL.Algorithm, c.NCCL.Protocol, c.NCCL.Time*1e6, f, c.Size)
		}
		if c.Comm == (Comm{4, 8}) && c.Collective == commmodel.AllReduce {
			t.Errorf("allreduce on 4 x 8, %d to %d B: %s/%s against NCCL's %s/%s: the 2 x 8 tables ran NCCL's Simple near there faster than the model", c.MinBytes, c.MaxBytes, c.Ours.Algorithm, c.Ours.Protocol, c.NCCL.Algorithm, c.NCCL.Protocol)
		}
	}
	if f := m.missNear(Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}, "Simple", "LL", 1<<20); !(f < 0.8) {
		t.Errorf("missNear(Simple, 1 MiB) = %.3g; want the tables' ratio, under 0.8 (122 us measured, 271 predicted)", f)
	}
}

// p5Tables returns AWS's p5 2 x 8 AllReduce tables, the second run under
// aws-ofi-nccl's tuner plugin, and their hardware.
func p5Tables(t *testing.T) (Hardware, []Table) {
	t.Helper()
	const dir = "../../data/nccltests/testdata/real/"
	h100 := "NVIDIA H100 80GB HBM3"
	var tables []Table
	var hw Hardware
	for _, c := range []struct {
		file string
		pin  Pins
	}{
		{"h100_2x8_allreduce_tagoutput_split_rows_p5.log", Pins{}},
		{"h100_2x8_allreduce_p5_tuner_plugin.log", Pins{}},
		{"h100_2x8_allreduce_efa_p5_slurm_awsome.log", Pins{Nodes: 2, PerNode: 8, GPU: h100}},
		{"h100_2x8_allreduce_efa_p5_eks_awsome.log", Pins{Nodes: 2, PerNode: 8, GPU: h100, Version: nccl.Version{Major: 2, Minor: 18, Patch: 5}}},
	} {
		h, tab := pinnedTable(t, dir+c.file, c.pin)
		hw, tables = h, append(tables, tab)
	}
	return hw, tables
}
