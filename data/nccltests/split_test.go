package nccltests

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// splitLog is a made-up run of 2 hosts of 2 GPUs, one process a GPU, split
// by NCCL_TESTS_SPLIT=MOD2 into two groups of a rank on each host: the
// Rank lines in nccl-tests' format (src/util.cu at a0b82b2: "#  Rank %2d
// Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s", the world's
// rank and the colour), the table rank 0's 2-rank AllReduce (busbw =
// algbw·2(n-1)/n = algbw).
func splitLog(groups ...int) string {
	hosts := []string{"node-a", "node-a", "node-b", "node-b"}
	var b strings.Builder
	b.WriteString("# nThread 1 nGpus 1 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0\n#\n# Using devices\n")
	for r, g := range groups {
		fmt.Fprintf(&b, "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s\n", r, g, 4100+r, hosts[r], r%2, 0, 0x1b+r%2, 0, "NVIDIA H100 80GB HBM3")
	}
	b.WriteString("#\n" +
		"     1048576        262144     float     sum      -1    40.00   26.21   26.21      0    40.00   26.21   26.21      0\n" +
		"     2097152        524288     float     sum      -1    60.00   34.95   34.95      0    60.00   34.95   34.95      0\n")
	return b.String()
}

// TestSplitGroups: the Rank lines of a split run name the groups, and the
// table is rank 0's group's communicator: 2 ranks on 2 hosts, where the
// 4 Rank lines were read as 4 ranks, a table that fits none of them
// (red team N). Lines of one group are a run like any other.
func TestSplitGroups(t *testing.T) {
	for _, c := range []struct {
		name         string
		groups       []int
		ranks, nodes int
		devices      int
		split        bool
		inconsistent bool
	}{
		{"MOD2", []int{0, 1, 0, 1}, 2, 2, 2, true, false},
		{"one group", []int{0, 0, 0, 0}, 4, 2, 4, false, true}, // the 2-rank table fits no 4 ranks
	} {
		t.Run(c.name, func(t *testing.T) {
			l := readString(t, splitLog(c.groups...), Options{})
			if len(l.Tests) != 1 {
				t.Fatalf("%d tests", len(l.Tests))
			}
			tt := l.Tests[0]
			if tt.Ranks != c.ranks || tt.Nodes != c.nodes || len(tt.Evidence.Devices) != c.devices {
				t.Errorf("ranks %d, nodes %d, devices %d; want %d, %d, %d", tt.Ranks, tt.Nodes, len(tt.Evidence.Devices), c.ranks, c.nodes, c.devices)
			}
			var split, inconsistent bool
			for _, p := range l.Problems {
				split = split || errors.Is(p, ErrSplit) && strings.Contains(p.Error(), "2 groups") && strings.Contains(p.Error(), "the 2 lines of the other groups")
				inconsistent = inconsistent || errors.Is(p, ErrInconsistent)
			}
			if split != c.split || inconsistent != c.inconsistent {
				t.Errorf("problems %v: split %v, inconsistent %v; want %v, %v", l.Problems, split, inconsistent, c.split, c.inconsistent)
			}
		})
	}
}
