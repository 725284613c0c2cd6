// Package golden renders what a measurement reader got as text, one fact per
// line, and compares it with a golden file. The tests of data and
// data/nccltests share it; go test -update rewrites the files.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/nccltests"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// Summary renders tests and problems, or err when it is not nil, so that a
// golden file shows every row and every inference.
func Summary(tests []*nccltests.Test, problems []error, err error) string {
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "tests: %d\n", len(tests))
	for i, t := range tests {
		fmt.Fprintf(&b, "\ntest %d (line %d): name %q op %q version %q\n", i+1, t.Line, t.Name, t.Op, t.Version)
		coll := "?"
		if t.CollectiveFrom != nccltests.Unknown {
			coll = t.Collective.String()
		}
		var cands []string
		for _, c := range t.Candidates {
			cands = append(cands, c.String())
		}
		fmt.Fprintf(&b, "collective: %s (from %v) candidates %v\n", coll, t.CollectiveFrom, cands)
		fmt.Fprintf(&b, "ranks: %d (from %v)  nodes: %d (from %v)  hosts: %v\n", t.Ranks, t.RanksFrom, t.Nodes, t.NodesFrom, t.Hosts)
		fmt.Fprintf(&b, "processes: %d  threads: %d  gpus per thread: %d  graphs: %d  agg iters: %d\n", t.Processes, t.Threads, t.GPUsPerThread, t.Graphs, t.AggIters)
		fmt.Fprintf(&b, "source %q system %q algorithm %q\n", t.Source, t.System, t.Algorithm)
		fmt.Fprintf(&b, "columns: %s\n", strings.Join(t.Columns, " "))
		fmt.Fprintf(&b, "avg busbw: %g B/s  out of bounds: %d\n", t.AvgBusBW, t.OutOfBounds)
		fmt.Fprintf(&b, "rows: %d  (line size count type redop root | out-of-place time_s algbw_Bps busbw_Bps wrong | in-place ...)\n", len(t.Rows))
		for _, r := range t.Rows {
			fmt.Fprintf(&b, "  %d %d %d %s %s %d", r.Line, r.Size, r.Count, r.Type, r.RedOp, r.Root)
			for _, h := range []nccltests.Result{r.OutOfPlace, r.InPlace} {
				fmt.Fprintf(&b, " | %.5g %.5g %.5g %q", h.Time, h.AlgBW, h.BusBW, h.Wrong)
			}
			b.WriteByte('\n')
		}
	}
	fmt.Fprintf(&b, "\nproblems: %d\n", len(problems))
	for _, p := range problems {
		fmt.Fprintf(&b, "  %v\n", p)
	}
	return b.String()
}

// Check compares got with the golden file at path, or rewrites the file
// under -update.
func Check(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Errorf("got differs from %s:\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff is a line diff of want and got (longest common subsequence), with
// "-" for lines only in want and "+" for lines only in got.
func lineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&out, "+%s\n", b[j])
			j++
		default:
			fmt.Fprintf(&out, "-%s\n", a[i])
			i++
		}
	}
	return out.String()
}
