package nccltests

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// TestNameAgainstCheckColumn: an AllToAll table (xxrjun's 2 x 4 H100 run)
// whose binary's name is gone and whose in-place #wrong column prints 0
// where nccl-tests prints N/A reads as AllGather from that column; a file
// named for AllToAll says the two disagree and which key settles it, and a
// file whose name says nothing is read without a word of it.
func TestNameAgainstCheckColumn(t *testing.T) {
	b, err := os.ReadFile("testdata/real/h100_2x4_alltoall_sendrecv_xxrjun_cluster00.log")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.Contains(l, "concluded: alltoall_perf") {
			break
		}
		if strings.Contains(l, "alltoall") || strings.HasPrefix(l, "# Source") {
			continue // the binary's name, and the source lines that name it
		}
		lines = append(lines, strings.ReplaceAll(l, "N/A", "  0"))
	}
	text := strings.Join(lines, "")
	for _, c := range []struct {
		name string
		warn bool
	}{{"run_alltoall.log", true}, {"results.log", false}} {
		l, err := read(strings.NewReader(text), c.name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Tests) != 1 || l.Tests[0].Collective != commmodel.AllGather || l.Tests[0].CollectiveFrom != FromCheckColumn {
			t.Fatalf("%s: tests %+v; want one allgather from the check column", c.name, l.Tests)
		}
		warned := false
		for _, p := range l.Problems {
			warned = warned || errors.Is(p, ErrAmbiguous) && strings.Contains(p.Error(), "but the file's name says alltoall: read as allgather; if it ran alltoall, give FILE:collective=alltoall")
		}
		if warned != c.warn {
			t.Errorf("%s: problems %v; want the name's disagreement said: %v", c.name, l.Problems, c.warn)
		}
	}
}
