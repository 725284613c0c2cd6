package predict_test

import (
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// pairedMachine returns the named machine of the paired logs.
func pairedMachine(b *testing.B, name string) heldout.PairedMachine {
	b.Helper()
	ms, err := heldout.PairedMachines()
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range ms {
		if m.Name == name {
			return m
		}
	}
	b.Fatalf("no machine %s", name)
	return heldout.PairedMachine{}
}

// BenchmarkCalibrate calibrates on the seven Together tables (203 points),
// with and without the seven leave-one-table-out refits of the interval.
func BenchmarkCalibrate(b *testing.B) {
	m := pairedMachine(b, "h100-sxm-1x8-together")
	for _, c := range []struct {
		name string
		set  *predict.Settings
	}{{"intervals", nil}, {"nointervals", &predict.Settings{NoIntervals: true}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := predict.Calibrate(m.Hardware, m.Tables, c.set); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPredict predicts AllReduce on 2 x 8 at 16 sizes from the
// calibrated cluster01 machine: one query, its tuner choices and interval.
func BenchmarkPredict(b *testing.B) {
	pm := pairedMachine(b, "h100-sxm-10node-cluster01")
	m, err := predict.Calibrate(pm.Hardware, pm.Tables, nil)
	if err != nil {
		b.Fatal(err)
	}
	sizes := commmodel.LogSizes(1<<10, 1<<40, 16)
	q := predict.Query{Collective: commmodel.AllReduce, Ranks: 16, PerNode: 8}
	if _, err := m.Predict(q, sizes); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Predict(q, sizes); err != nil {
			b.Fatal(err)
		}
	}
}
