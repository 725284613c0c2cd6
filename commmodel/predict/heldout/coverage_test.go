package heldout_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
	"gonum.org/v1/gonum/floats/scalar"
)

// TestHeldOutCoverage compares, machine by machine, the held-out coverage
// one calibration computes from its own refits (Machine.HeldOutCoverage:
// each table's points against an interval from the other tables' held-out
// errors) with that of heldout.LeaveOneOut, which calibrates anew without
// each table. LeaveOneOut's figures are those of
// testdata/paired_coverage.md, which TestPairedScores pins. Both figures
// are written to testdata/paired_heldout_coverage.md.
//
// The two intervals differ in the fits behind their spread: a calibration
// on n tables pools the errors of refits on n−1 tables, the fits that
// predict each held-out table here too, where LeaveOneOut's calibration on
// n−1 tables pools those of refits on n−2. On machines of 7 tables or more
// the two agree within 4 points; on those of 3 or 4 tables, where one table
// fewer in every refit widens LeaveOneOut's spread most, the calibration's
// own figure is lower.
func TestHeldOutCoverage(t *testing.T) {
	loo := looCoverage(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | tables | points | each table held out (LeaveOneOut) | one calibration's refits (HeldOutCoverage) |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|")
	var points, looInside, inside float64
	for _, m := range pairedMachines(t) {
		c, ok := loo[m.Name]
		if !ok {
			t.Fatalf("%s: not in testdata/paired_coverage.md", m.Name)
		}
		cal, err := predict.Calibrate(m.Hardware, m.Tables, nil)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		own := cal.HeldOutCoverage
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s |\n", m.Name, len(m.Tables), int(c.points), pct(c.share()), pct(own))
		points, looInside, inside = points+c.points, looInside+c.inside, inside+own*c.points
		switch d := own - c.share(); {
		case math.IsNaN(own):
			t.Errorf("%s: no held-out coverage from %d tables", m.Name, len(m.Tables))
		case len(m.Tables) >= 7 && !scalar.EqualWithinAbs(own, c.share(), 0.04):
			t.Errorf("%s: held-out coverage %s, LeaveOneOut's %s: want within 4 points with %d tables", m.Name, pct(own), pct(c.share()), len(m.Tables))
		case len(m.Tables) < 7 && d > 0:
			t.Errorf("%s: held-out coverage %s above LeaveOneOut's %s with %d tables: want it lower", m.Name, pct(own), pct(c.share()), len(m.Tables))
		}
	}
	all, allLOO := inside/points, looInside/points
	fmt.Fprintf(&b, "| all | | %d | %s | %s |\n", int(points), pct(allLOO), pct(all))
	if !scalar.EqualWithinAbs(all, allLOO, 0.02) {
		t.Errorf("all machines: held-out coverage %s, LeaveOneOut's %s: want within 2 points", pct(all), pct(allLOO))
	}
	golden(t, "paired_heldout_coverage.md", b.Bytes())
}

// looCounts are one machine's points and those inside LeaveOneOut's
// interval.
type looCounts struct{ points, inside float64 }

func (c looCounts) share() float64 { return c.inside / c.points }

// looCoverage reads each machine's points and points inside the interval
// from testdata/paired_coverage.md (columns machine, held-out tables,
// points, in 80% interval).
func looCoverage(t *testing.T) map[string]looCounts {
	t.Helper()
	b, err := os.ReadFile("testdata/paired_coverage.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]looCounts{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[2:] {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			t.Fatalf("testdata/paired_coverage.md:%d: %d cells", i+3, len(cells))
		}
		points, err1 := strconv.ParseFloat(strings.TrimSpace(cells[3]), 64)
		inside, err2 := strconv.ParseFloat(strings.TrimSpace(cells[4]), 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("testdata/paired_coverage.md:%d: points %q, inside %q", i+3, cells[3], cells[4])
		}
		out[strings.TrimSpace(cells[1])] = looCounts{points, inside}
	}
	return out
}
