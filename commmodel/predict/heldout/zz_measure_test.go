package heldout

import (
	"fmt"
	"slices"
	"testing"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
)

func TestZZMeasureSendRecv(t *testing.T) {
	ms, err := PairedMachines()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		var sr, other []predict.Table
		for _, tb := range m.Tables {
			if tb.Collective == commmodel.SendRecv {
				sr = append(sr, tb)
			} else {
				other = append(other, tb)
			}
		}
		if len(sr) == 0 {
			continue
		}
		// (a)
		sc, err := HeldOut(m.Hardware, other, sr, nil)
		if err != nil {
			t.Fatal(err)
		}
		var errsA []float64
		for _, s := range sc {
			fmt.Printf("(a) %-60s err %.3f cover %d/%d  pred %.3g meas %.3g (last)\n", s.Table, s.Model.All, s.Inside, s.Points, s.Predicted[len(s.Predicted)-1].Time, s.Measured[len(s.Measured)-1])
			errsA = append(errsA, s.Model.All)
		}
		fmt.Printf("(a) median of tables' median errors %.3f, coverage %.2f\n", fit.Median(errsA), Coverage(sc))
		// (b)
		var all []Score
		var errsB []float64
		for i := range sr {
			sc, err := HeldOut(m.Hardware, sr[i:i+1], other, nil)
			if err != nil {
				t.Fatal(err)
			}
			var e []float64
			for _, s := range sc {
				e = append(e, s.Model.All)
			}
			errsB = append(errsB, e...)
			all = append(all, sc...)
			fmt.Printf("(b) from %-55s median err %.3f coverage %.2f\n", sr[i].Name, fit.Median(e), Coverage(sc))
		}
		fmt.Printf("(b) all: median err %.3f coverage %.2f\n", fit.Median(errsB), Coverage(all))
		_ = slices.Clone(sr)
	}
}
