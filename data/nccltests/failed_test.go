package nccltests

import (
	"errors"
	"strings"
	"testing"
)

// TestFailedRows: a row whose #wrong count is above 0 is one nccl-tests'
// own check rejected (all_reduce_perf -c 1 prints the count of bad
// elements there, and "Out of bounds values : N FAILED" in the trailer);
// it is left out with a problem at its #wrong field, and the trailer is a
// problem of its own. The float error column of 2019's nccl-tests
// ("4e-07") is rounding, and its rows are kept.
func TestFailedRows(t *testing.T) {
	const header = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	const row = "     1048576        262144     float     sum      -1    121.8    8.61   16.14      0    126.6    8.28   15.53      0\n"
	bad := strings.Replace(row, "  0    126.6", " 28    126.6", 1) // #wrong at byte 83; the in-place one is at 116
	for _, c := range []struct {
		name, text string
		rows       int
		problems   []string // "LINE:COLUMN: text" of each ErrFailed problem
	}{
		{"clean", header + row + "# Out of bounds values : 0 OK\n", 1, nil},
		{"wrong row", header + row + bad + "# Out of bounds values : 28 FAILED\n", 1, []string{
			"x.log:3:83: failed nccl-tests' check: #wrong 28; the row is left out",
			"x.log:4: failed nccl-tests' check: 28 out-of-bounds values in test",
		}},
		// Two rows wrong: a faulty run, whose kept rows the test's own
		// problem puts in doubt (Olivia's NCCL 2.29.2 run without its
		// Slingshot settings failed 6 of 28).
		{"two rows wrong", header + row + bad + strings.Replace(bad, "     1048576        262144", "     2097152        524288", 1), 1, []string{
			"x.log:1: failed nccl-tests' check: 2 rows of test (unnamed) failed it",
			"x.log:3:83: failed nccl-tests' check: #wrong 28; the row is left out",
			"x.log:4:83: failed nccl-tests' check: #wrong 28; the row is left out",
		}},
		{"in-place half wrong", header + strings.Replace(row, "15.53      0", "15.53      3", 1), 0, []string{
			"x.log:2:116: failed nccl-tests' check: #wrong 3; the row is left out",
		}},
		{"float error column", "#       size         count      type     time   algbw   busbw  error     time   algbw   busbw  error\n" +
			"     1048560         21845     float    72.82   13.20   13.20  4e-07    73.95   13.00   13.00  0e+00\n", 1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(c.text))
			r.Name = "x.log"
			tests, _ := r.ReadAll()
			rows := 0
			for _, ts := range tests {
				rows += len(ts.Rows)
			}
			if rows != c.rows {
				t.Errorf("%d rows, want %d", rows, c.rows)
			}
			var got []string
			for _, p := range r.Problems() {
				if errors.Is(p, ErrFailed) {
					got = append(got, p.Error())
				}
			}
			if len(got) != len(c.problems) {
				t.Fatalf("failed-check problems %q, want %q", got, c.problems)
			}
			for i, w := range c.problems {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("problem %q, want it to start %q", got[i], w)
				}
			}
		})
	}
}
