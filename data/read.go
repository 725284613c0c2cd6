package data

import (
	"bufio"
	"bytes"
	"io"
	"os"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/data/nccltests"
)

// A Log is what one measurement file holds: one or more tests and the
// problems met while reading it.
type Log struct {
	// Name is the file name given to the reader, used in every ParseError.
	Name string
	// Format is the format the file was read as.
	Format Format
	// Tests are the tests of the file in file order; each has at least one row.
	Tests []*nccltests.Test
	// Problems are the rows that were skipped and the warnings, each a
	// *nccltests.ParseError, in line order.
	Problems []error
}

// Format is the format of a measurement file.
type Format int

const (
	// FormatNCCLTests is the text the nccl-tests binaries print, or the
	// JSON they write with -J (nccltests.Reader reads both).
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
// time_us in its first 64 KiB, nccl-tests output otherwise (a JSON object, '{' first, among
// it).
func Sniff(b []byte) Format {
	for rest := bytes.TrimPrefix(b, []byte("\ufeff")); len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if f, ok := sniffLine(line); ok {
			return f
		}
	}
	return FormatNCCLTests
}

// sniffFile is Sniff on the text r reads, line by line: it holds no more
// than one line's first sniffLen bytes (the rest of a longer line, which
// no CSV header is, is read past), so that a file of one long line costs
// no more memory than that.
func sniffFile(r io.Reader) (Format, error) {
	br := bufio.NewReaderSize(r, sniffLen)
	for first := true; ; first = false {
		line, err := br.ReadSlice('\n')
		if first {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		if f, ok := sniffLine(line); ok {
			return f, nil
		}
		for err == bufio.ErrBufferFull {
			_, err = br.ReadSlice('\n')
		}
		if err == io.EOF {
			return FormatNCCLTests, nil
		}
		if err != nil {
			return FormatNCCLTests, err
		}
	}
}

// sniffLen is the most of a line sniffFile looks at.
const sniffLen = 64 << 10

// sniffLine tells the format from one line, of which it reads the first
// sniffLen bytes, with ok false for a blank line or a '#' comment, which
// tell nothing.
func sniffLine(line []byte) (f Format, ok bool) {
	s := bytes.TrimSpace(line[:min(len(line), sniffLen)])
	switch {
	case len(s) == 0 || s[0] == '#':
		return FormatNCCLTests, false
	case s[0] != '{' && bytes.Contains(s, []byte(",")) && bytes.Contains(s, []byte("size_bytes")) && bytes.Contains(s, []byte("time_us")):
		return FormatTidyCSV, true
	}
	return FormatNCCLTests, true
}

// ReadMeasurements reads a file in either format (see Sniff), named name in
// its errors: nccl-tests output with a nccltests.Reader, a tidy CSV with
// ReadTidyCSV. A tidy CSV gives one Test per distinct (source, system,
// collective, algorithm, nranks, nnodes), in order of first appearance, with
// one Row per size: a point whose placement is "" or out-of-place fills
// OutOfPlace, an in-place point InPlace. opt, nil for none, overrides what is
// inferred in both formats. Errors are *nccltests.ParseError.
func ReadMeasurements(r io.Reader, name string, opt *nccltests.Options) (*Log, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, &nccltests.ParseError{File: name, Err: err}
	}
	return readMeasurements(b, name, opt)
}

// ReadFile reads the measurement file at path in either format, as
// ReadMeasurements does. A regular file of nccl-tests output is read as a
// stream, a line at a time, so that its memory is bounded by the reader's
// longest line (nccltests.Reader), not by the file's size.
func ReadFile(path string, opt *nccltests.Options) (*Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		// A pipe or a device is read once, whole.
		b, err := io.ReadAll(f)
		if err != nil {
			return nil, &nccltests.ParseError{File: path, Err: err}
		}
		return readMeasurements(b, path, opt)
	}
	format, err := sniffFile(f)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		return nil, &nccltests.ParseError{File: path, Err: err}
	}
	if format == FormatNCCLTests {
		return readNCCLTests(f, path, opt)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, &nccltests.ParseError{File: path, Err: err}
	}
	return readMeasurements(b, path, opt)
}

func readMeasurements(b []byte, name string, opt *nccltests.Options) (*Log, error) {
	if err := nccltests.CheckText(b); err != nil {
		return nil, &nccltests.ParseError{File: name, Err: err}
	}
	if Sniff(b) == FormatNCCLTests {
		return readNCCLTests(bytes.NewReader(b), name, opt)
	}
	maxRows := 0
	if opt != nil {
		maxRows = opt.MaxRows
	}
	ps, problems, err := readTidyCSV(b, name, maxRows)
	if err != nil {
		return nil, err
	}
	l := &Log{Name: name, Format: FormatTidyCSV, Problems: problems}
	if l.Tests, err = ps.tests(opt); err != nil {
		return nil, &nccltests.ParseError{File: name, Err: err}
	}
	return l, nil
}

// readNCCLTests reads nccl-tests output from r with a nccltests.Reader.
func readNCCLTests(r io.Reader, name string, opt *nccltests.Options) (*Log, error) {
	rd := nccltests.NewReader(r)
	rd.Name = name
	if opt != nil {
		rd.Options = *opt
	}
	tests, err := rd.ReadAll()
	if err != nil {
		return nil, err
	}
	return &Log{Name: name, Format: FormatNCCLTests, Tests: tests, Problems: rd.Problems()}, nil
}

// Tests groups the points into tests as ReadMeasurements does.
func (ps Points) Tests() []*nccltests.Test {
	ts, _ := ps.tests(nil)
	return ts
}

func (ps Points) tests(opt *nccltests.Options) ([]*nccltests.Test, error) {
	var o nccltests.Options
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
	index := map[key]*nccltests.Test{}
	var out []*nccltests.Test
	for _, p := range ps {
		k := key{p.Source, p.System, p.Collective, p.Algorithm, p.NRanks, p.NNodes}
		t := index[k]
		if t == nil {
			t = &nccltests.Test{Op: p.Collective, Line: p.Line, Source: p.Source, System: p.System,
				Algorithm: p.Algorithm, OutOfBounds: -1, Columns: TidyColumns}
			setCounts(t, p.NRanks, p.NNodes, o)
			setCollective(t, p.Collective, want)
			index[k] = t
			out = append(out, t)
		}
		res := nccltests.Result{Time: p.Time, BusBW: p.BusBW, AlgBW: float64(p.Size) / p.Time}
		in := p.Placement == nccltests.InPlace.String()
		n := len(t.Rows)
		if n > 0 && t.Rows[n-1].Size == p.Size && !t.Rows[n-1].Get(placementOf(in)).OK() {
			setHalf(&t.Rows[n-1], in, res)
			continue
		}
		r := nccltests.Row{Line: p.Line, Size: p.Size, Root: -1}
		setHalf(&r, in, res)
		t.Rows = append(t.Rows, r)
	}
	return out, nil
}

func placementOf(in bool) nccltests.Placement {
	if in {
		return nccltests.InPlace
	}
	return nccltests.OutOfPlace
}

func setHalf(r *nccltests.Row, in bool, res nccltests.Result) {
	if in {
		r.InPlace = res
	} else {
		r.OutOfPlace = res
	}
}

// setCounts sets a tidy CSV test's rank and node counts: the overrides, or
// the columns.
func setCounts(t *nccltests.Test, ranks, nodes int, o nccltests.Options) {
	switch {
	case o.Ranks > 0:
		t.Ranks, t.RanksFrom = o.Ranks, nccltests.FromOverride
	case ranks > 0:
		t.Ranks, t.RanksFrom = ranks, nccltests.FromName
	}
	switch {
	case o.Nodes > 0:
		t.Nodes, t.NodesFrom = o.Nodes, nccltests.FromOverride
	case nodes > 0:
		t.Nodes, t.NodesFrom = nodes, nccltests.FromName
	}
}

// setCollective sets a tidy CSV test's collective: the override want (nil
// for none), or the collective column.
func setCollective(t *nccltests.Test, name string, want *commmodel.Collective) {
	if want != nil {
		t.Collective, t.CollectiveFrom = *want, nccltests.FromOverride
		return
	}
	if c, err := commmodel.ParseCollective(name); err == nil {
		t.Collective, t.CollectiveFrom = c, nccltests.FromName
	}
}
