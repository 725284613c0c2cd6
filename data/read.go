package data

import (
	"io"
	"os"
	"sort"
	"strings"

	"github.com/inframethod/commlab/commmodel"
)

// Format is the format of a measurement file.
type Format int

const (
	// FormatNCCLTests is the text the nccl-tests binaries print.
	FormatNCCLTests Format = iota
	// FormatTidyCSV is the tidy measurement CSV (see ReadTidyCSV).
	FormatTidyCSV
)

func (f Format) String() string {
	if f == FormatTidyCSV {
		return "tidy-csv"
	}
	return "nccl-tests"
}

// Sniff tells the format of a file's contents: a tidy CSV when its first line
// that is not blank or a '#' comment is a CSV header naming size_bytes and
// time_us, nccl-tests output otherwise.
func Sniff(b []byte) Format {
	f := FormatNCCLTests
	eachLine(b, func(_ int, line string) bool {
		s := strings.TrimSpace(line)
		if s == "" || s[0] == '#' {
			return true
		}
		if strings.Contains(s, ",") && strings.Contains(s, "size_bytes") && strings.Contains(s, "time_us") {
			f = FormatTidyCSV
		}
		return false
	})
	return f
}

// ReadMeasurements reads a file in either format (see Sniff). A tidy CSV
// gives one Test per distinct (source, system, collective, algorithm,
// nranks, nnodes), in order of first appearance, with one Row per size: a
// point whose placement is "" or out-of-place fills OutOfPlace, an in-place
// point InPlace. opt overrides apply to both formats.
func ReadMeasurements(r io.Reader, name string, opt *ReadOptions) (*Log, error) {
	b, err := readAll(r)
	if err != nil {
		return nil, &ParseError{File: orInput(name), Err: err}
	}
	return readMeasurements(b, orInput(name), opt)
}

// ReadFile reads the measurement file at path in either format.
func ReadFile(path string, opt *ReadOptions) (*Log, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return readMeasurements(b, path, opt)
}

func readMeasurements(b []byte, name string, opt *ReadOptions) (*Log, error) {
	if err := checkText(b); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	if Sniff(b) == FormatNCCLTests {
		return readNCCLTests(b, name, opt)
	}
	ps, problems, err := readTidyCSV(b, name)
	if err != nil {
		return nil, err
	}
	l := &Log{Name: name, Format: FormatTidyCSV, Problems: problems}
	if l.Tests, err = ps.tests(opt); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	return l, nil
}

// Tests groups the points into tests as ReadMeasurements does.
func (ps Points) Tests() []*Test {
	ts, _ := ps.tests(nil)
	return ts
}

func (ps Points) tests(opt *ReadOptions) ([]*Test, error) {
	var o ReadOptions
	if opt != nil {
		o = *opt
	}
	var want *commmodel.Collective
	if o.Collective != "" {
		c, err := commmodel.ParseCollective(o.Collective)
		if err != nil {
			return nil, err
		}
		want = &c
	}
	type key struct {
		source, system, coll, algo string
		ranks, nodes               int
	}
	index := map[key]*Test{}
	var out []*Test
	for _, p := range ps {
		k := key{p.Source, p.System, p.Collective, p.Algorithm, p.NRanks, p.NNodes}
		t := index[k]
		if t == nil {
			t = &Test{Op: p.Collective, Line: p.Line, Source: p.Source, System: p.System,
				Algorithm: p.Algorithm, OutOfBounds: -1, Columns: TidyColumns}
			t.setCounts(p.NRanks, p.NNodes, o)
			t.setCollective(p.Collective, want)
			index[k] = t
			out = append(out, t)
		}
		res := Result{Time: p.Time, BusBW: p.BusBW, AlgBW: float64(p.Size) / p.Time}
		in := p.Placement == InPlace.String()
		n := len(t.Rows)
		if n > 0 && t.Rows[n-1].Size == p.Size && !t.Rows[n-1].Get(placementOf(in)).OK() {
			setHalf(&t.Rows[n-1], in, res)
			continue
		}
		r := Row{Line: p.Line, Size: p.Size, Root: -1}
		setHalf(&r, in, res)
		t.Rows = append(t.Rows, r)
	}
	return out, nil
}

func placementOf(in bool) Placement {
	if in {
		return InPlace
	}
	return OutOfPlace
}

func setHalf(r *Row, in bool, res Result) {
	if in {
		r.InPlace = res
	} else {
		r.OutOfPlace = res
	}
}

func (t *Test) setCounts(ranks, nodes int, o ReadOptions) {
	switch {
	case o.Ranks > 0:
		t.Ranks, t.RanksFrom = o.Ranks, FromOverride
	case ranks > 0:
		t.Ranks, t.RanksFrom = ranks, FromName
	}
	switch {
	case o.Nodes > 0:
		t.Nodes, t.NodesFrom = o.Nodes, FromOverride
	case nodes > 0:
		t.Nodes, t.NodesFrom = nodes, FromName
	}
}

func (t *Test) setCollective(name string, want *commmodel.Collective) {
	if want != nil {
		t.Collective, t.CollectiveFrom = *want, FromOverride
		return
	}
	if c, err := commmodel.ParseCollective(name); err == nil {
		t.Collective, t.CollectiveFrom = c, FromName
	}
}

// sortProblems orders problems by line, stably.
func sortProblems(ps []error) {
	line := func(e error) int {
		if pe, ok := e.(*ParseError); ok {
			return pe.Line
		}
		return 0
	}
	sort.SliceStable(ps, func(i, j int) bool { return line(ps[i]) < line(ps[j]) })
}
