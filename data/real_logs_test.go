package data

import (
	"path/filepath"
	"testing"
)

func TestRealLogsProbe(t *testing.T) {
	files, _ := filepath.Glob("testdata/real/*.log")
	for _, f := range files {
		l, err := ReadFile(f, nil)
		if err != nil {
			t.Logf("%s: ERROR %v", f, err)
			continue
		}
		t.Logf("%s: %d tests, %d problems", filepath.Base(f), len(l.Tests), len(l.Problems))
		for _, p := range l.Problems {
			t.Logf("   problem: %v", p)
		}
		for i, tt := range l.Tests {
			r0, rn := tt.Rows[0], tt.Rows[len(tt.Rows)-1]
			t.Logf("   test %d line %d name=%q op=%q coll=%v(%v) cand=%v ranks=%d(%v) nodes=%d(%v) sys=%q rows=%d first=%d last=%d ver=%q avg=%g oob=%d cols=%v",
				i, tt.Line, tt.Name, tt.Op, tt.Collective, tt.CollectiveFrom, tt.Candidates, tt.Ranks, tt.RanksFrom, tt.Nodes, tt.NodesFrom, tt.System, len(tt.Rows), r0.Size, rn.Size, tt.Version, tt.AvgBusBW, tt.OutOfBounds, len(tt.Columns))
			t.Logf("      first %+v", r0)
		}
	}
}
