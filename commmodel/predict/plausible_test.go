package predict

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel"
)

// oneNodeTables returns tables of one H100 node of 8 GPUs that the truth
// machine times: AllReduce pinned to NVLS and to Ring, and AllGather
// pinned to Ring, with the Ring AllReduce's times slowAR times the
// truth's and the AllGather's slowAG times, as runs that shared their GPUs
// with another job would take.
func oneNodeTables(t *testing.T, slowAR, slowAG float64) []Table {
	t.Helper()
	m := truth(t)
	var sizes []float64
	for s := 8.0; s <= 1<<30; s *= 4 {
		sizes = append(sizes, s)
	}
	runs := []struct {
		name   string
		c      commmodel.Collective
		algo   string
		factor float64
	}{
		{"allreduce-nvls", commmodel.AllReduce, "NVLS", 1},
		{"allreduce-ring", commmodel.AllReduce, "Ring", slowAR},
		{"allgather-ring", commmodel.AllGather, "Ring", slowAG},
	}
	var out []Table
	for _, r := range runs {
		tab := Table{Name: r.name, GPU: m.GPU, Collective: r.c, Nodes: 1, PerNode: 8, Algo: r.algo, Version: m.version}
		ps, err := m.Predict(tab.Query(), sizes)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			tab.Points = append(tab.Points, Point{Size: p.Size, Time: r.factor * p.Time})
		}
		out = append(out, tab)
	}
	return out
}

// offNote matches the note of a table far off the others' prediction.
var offNote = regexp.MustCompile(`^(\S+) runs ([0-9.]+)x (slower|faster) than the other tables predict`)

// offNotes calibrates on tables and returns the calibration's notes of
// tables far off the others' prediction, and all its notes.
func offNotes(t *testing.T, tables []Table) (off, notes []string) {
	t.Helper()
	m, err := Calibrate(h100(t), tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range m.Notes {
		if offNote.MatchString(n) {
			off = append(off, n)
		}
	}
	return off, m.Notes
}

// TestOffTable: of three one-node tables, the Ring AllReduce that runs 3
// times slower than the truth (as the Voltage Park H100 node's AllGather
// and Broadcast ran 2-3 times slower than its AllReduce) is named in the
// first note, slower by more than offRatio and at most the 3 it was slowed
// by. Run as the truth times them, no table is named.
func TestOffTable(t *testing.T) {
	off, notes := offNotes(t, oneNodeTables(t, 3, 1))
	if len(off) != 1 || notes[0] != off[0] {
		t.Fatalf("notes %q: want one table named, first", notes)
	}
	g := offNote.FindStringSubmatch(off[0])
	if g[1] != "allreduce-ring" || g[3] != "slower" {
		t.Fatalf("%q: want allreduce-ring slower than the others predict", off[0])
	}
	if r, _ := strconv.ParseFloat(g[2], 64); !(r > offRatio && r <= 3) {
		t.Errorf("allreduce-ring %gx slower: want above %g and at most 3", r, offRatio)
	}
	if off, _ := offNotes(t, oneNodeTables(t, 1, 1)); len(off) != 0 {
		t.Errorf("tables the truth timed: %q", off)
	}
}

// TestOffTableTwo: with two tables each is predicted by the other alone,
// and neither is named, however far apart they run.
func TestOffTableTwo(t *testing.T) {
	if off, _ := offNotes(t, oneNodeTables(t, 3, 1)[1:]); len(off) != 0 {
		t.Errorf("two tables: %q", off)
	}
}

// TestNVLSBound: NVLS's efficiency is a share of intra_bw, the GPU's
// egress with Simple, which NVLS, running Simple on the same NVLinks,
// cannot exceed: its bound is 1. Where both Ring tables run 3 times
// slower than the truth, intra_bw falls with them and the NVLS table's fit
// pushes against the bound, and the note names the parameter, its bound
// and the value the tables would give it; with the tables the truth timed
// (NVLS at 0.9 of NCCL's 0.85, truth) it is not held.
func TestNVLSBound(t *testing.T) {
	m := truth(t)
	if u := m.upper(m.prior()); u[parNVLS] != 1 {
		t.Fatalf("nvls_efficiency bound %g, want 1", u[parNVLS])
	}
	slow, err := Calibrate(h100(t), oneNodeTables(t, 3, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	held := regexp.MustCompile(`^nvls_efficiency is held at its bound 1 \(the tables would put it at ([0-9.]+)\), where NVLS`)
	var g []string
	for _, n := range slow.Notes {
		if g == nil {
			g = held.FindStringSubmatch(n)
		}
	}
	if g == nil {
		t.Fatalf("notes %q: want nvls_efficiency held at its bound", slow.Notes)
	}
	if v, _ := strconv.ParseFloat(g[1], 64); !(v > 1) {
		t.Errorf("%q: want the tables' value above 1", g[0])
	}
	if p := slow.Params[parNVLS]; p.Value != 1 {
		t.Errorf("nvls_efficiency %g, want held at 1", p.Value)
	}
	healthy, err := Calibrate(h100(t), oneNodeTables(t, 1, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range healthy.Notes {
		if strings.Contains(n, "held at its bound") {
			t.Errorf("tables the truth timed: %q", n)
		}
	}
}
