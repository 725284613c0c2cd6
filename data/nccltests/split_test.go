package nccltests

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// splitLog is a made-up run of 2 hosts of 2 GPUs, one process a GPU,
// split into groups (NCCL_TESTS_SPLIT), ranks and their groups as given:
// the Rank lines in nccl-tests' format (src/util.cu at a0b82b2: "#  Rank
// %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s", the
// world's rank and the colour), the table a 2-rank AllReduce's (busbw =
// algbw·2(n-1)/n = algbw).
func splitLog(ranks, groups []int) string {
	hosts := []string{"node-a", "node-a", "node-b", "node-b"}
	var b strings.Builder
	b.WriteString("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n")
	for k, r := range ranks {
		fmt.Fprintf(&b, "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s\n", r, groups[k], 4100+r, hosts[r], r%2, 0, 0x1b+r%2, 0, "NVIDIA H100 80GB HBM3")
	}
	b.WriteString("#\n" +
		"     1048576        262144     float     sum      -1    40.00   26.21   26.21      0    40.00   26.21   26.21      0\n" +
		"     2097152        524288     float     sum      -1    60.00   34.95   34.95      0    60.00   34.95   34.95      0\n")
	return b.String()
}

// TestSplitGroups: the Rank lines of a split run name the groups; the
// table's bus bandwidth counts rank 0's group's ranks (here 2 on 2 hosts),
// which the Reader takes, warning (ErrSplit) at the first line of another
// group; the 4 Rank lines taken for one run fit no table. Rank 0's line
// need not come first, and without it the lowest rank's group stands for
// it; groups of different sizes are inconsistent as well. Lines of one
// group are a run like any other.
func TestSplitGroups(t *testing.T) {
	for _, c := range []struct {
		name                string
		ranks, groups       []int
		wantRanks, nodes    int
		split, inconsistent bool
		line                int    // of the warning
		says                string // in the warning
	}{
		{"MOD2", []int{0, 1, 2, 3}, []int{0, 1, 0, 1}, 2, 2, true, false, 5, "counts the 2 ranks of rank 0's group"},
		{"rank 0 after", []int{1, 0, 2, 3}, []int{1, 0, 0, 1}, 2, 2, true, false, 4, "the 2 Rank lines of the other groups are left out"},
		// A line missing: the groups' sizes are not known.
		{"no rank 0", []int{1, 2, 3}, []int{1, 0, 1}, 2, 2, true, false, 5, "the group of rank 1, the lowest listed (no Rank line lists rank 0)"},
		{"a line missing", []int{0, 2, 3}, []int{0, 0, 1}, 2, 2, true, false, 6, "the Rank lines list 3 of ranks 0..3, so the groups' sizes are not known"},
		{"unequal", []int{0, 1, 2, 3}, []int{0, 1, 0, 2}, 2, 2, true, true, 5, "the groups differ in size (2, 1, 1 Rank lines)"},
		{"one group", []int{0, 1, 2, 3}, []int{0, 0, 0, 0}, 4, 2, false, true, 0, ""}, // the 2-rank table fits no 4 ranks
	} {
		t.Run(c.name, func(t *testing.T) {
			l := readString(t, splitLog(c.ranks, c.groups), Options{})
			if len(l.Tests) != 1 {
				t.Fatalf("%d tests", len(l.Tests))
			}
			tt := l.Tests[0]
			if tt.Ranks != c.wantRanks || tt.Nodes != c.nodes || len(tt.Evidence.Devices) != c.wantRanks {
				t.Errorf("ranks %d, nodes %d, devices %d; want %d, %d, %d", tt.Ranks, tt.Nodes, len(tt.Evidence.Devices), c.wantRanks, c.nodes, c.wantRanks)
			}
			var split, inconsistent bool
			for _, p := range l.Problems {
				var pe *ParseError
				if errors.Is(p, ErrSplit) {
					split = true
					if !errors.As(p, &pe) || pe.Line != c.line || !strings.Contains(p.Error(), c.says) {
						t.Errorf("%v: want line %d, %q", p, c.line, c.says)
					}
				}
				inconsistent = inconsistent || errors.Is(p, ErrInconsistent)
			}
			if split != c.split || inconsistent != c.inconsistent {
				t.Errorf("problems %v: split %v, inconsistent %v; want %v, %v", l.Problems, split, inconsistent, c.split, c.inconsistent)
			}
		})
	}
}
