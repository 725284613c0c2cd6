package nccltests_test

import (
	"math"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/testlogs"
)

// TestBusFactorPrinted holds Test.BusFactor to the busbw column of every
// public log of the repository: where a half prints at least 1 GB/s (its
// rounding to 0.01 GB/s under 0.5%), size over time times the factor is
// the printed bus bandwidth within the two columns' rounding (0.005 GB/s,
// and 0.005 us of the time), for every operation the logs ran.
func TestBusFactorPrinted(t *testing.T) {
	t.Parallel()
	tests, err := testlogs.All("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{}
	unknown := 0
	for _, tt := range tests {
		f, ok := tt.BusFactor()
		if !ok {
			unknown++
			continue
		}
		for _, r := range tt.Rows {
			for _, h := range []nccltests.Result{r.OutOfPlace, r.InPlace} {
				if !h.OK() || h.BusBW < 1e9 {
					continue
				}
				checked[tt.Op]++
				tol := 0.005e9/h.BusBW + 0.005e-6/h.Time + 1e-3
				if got := float64(r.Size) / h.Time * f; math.Abs(got/h.BusBW-1) > tol {
					t.Errorf("%s (%s on %d ranks, factor %.4g), line %d: %d B in %.4g s is %.4g B/s of bus; the log prints %.4g",
						tt.Name, tt.Op, tt.Ranks, f, r.Line, r.Size, h.Time, got, h.BusBW)
				}
			}
		}
	}
	t.Logf("halves checked by operation: %v; %d tables of unknown factor", checked, unknown)
	if len(checked) < 4 {
		t.Errorf("checked %v: want the logs' AllReduce, AllGather, ReduceScatter, AllToAll and more", checked)
	}
}

// TestBusFactor gives each operation nccl-tests' factor on 8 ranks, and
// none where the ranks are unknown.
func TestBusFactor(t *testing.T) {
	t.Parallel()
	for op, want := range map[string]float64{"all_reduce": 1.75, "all_gather": 0.875, "reduce_scatter": 0.875, "alltoall": 0.875,
		"broadcast": 1, "reduce": 1, "sendrecv": 1, "gather": 0.875, "scatter": 0.875} {
		if f, ok := (&nccltests.Test{Op: op, Ranks: 8}).BusFactor(); !ok || f != want {
			t.Errorf("%s on 8 ranks: %v, %v; want %v", op, f, ok, want)
		}
	}
	if f, ok := (&nccltests.Test{Op: "all_reduce"}).BusFactor(); ok {
		t.Errorf("all_reduce on unknown ranks: %v, %v; want none", f, ok)
	}
}
