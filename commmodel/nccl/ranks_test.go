package nccl

import (
	"math"
	"testing"
)

// TestNewRanks: NCCL counts ranks in a C int (nRanks in ncclComm), so New
// refuses more than math.MaxInt32 of them rather than letting channels x
// ranks overflow (2^60 ranks of 16 channels is 2^64, 0 in an int64) into a
// division by zero; the largest int still gives finite times.
func TestNewRanks(t *testing.T) {
	for _, c := range []struct {
		ranks int
		ok    bool
	}{
		{math.MaxInt32, true},
		{math.MaxInt32 + 1, false},
		{1 << 60, false},
	} {
		m, err := New(Config{Ranks: c.ranks, Nodes: c.ranks / 8, MinCompCap: 90, NVSwitch: true, Graphs: Graphs{
			Ring: Graph{Pattern: PatternRing, NChannels: 16, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: PathPIX, SameChannels: true},
			Tree: Graph{Pattern: PatternBalancedTree, NChannels: 16, BWIntra: 30, BWInter: 30, TypeIntra: PathNVL, TypeInter: PathPIX},
		}})
		if (err == nil) != c.ok {
			t.Errorf("%d ranks: error %v, want ok %v", c.ranks, err, c.ok)
			continue
		}
		if err != nil {
			continue
		}
		if tm, ok := m.Time(FuncAllReduce, AlgoRing, Simple, 1<<30); ok && (math.IsInf(tm, 0) || math.IsNaN(tm)) {
			t.Errorf("%d ranks: ring time %v, want a finite time", c.ranks, tm)
		}
	}
}
