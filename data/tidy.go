package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/parseerr"
	"github.com/inframethod/commlab/units"
)

// TidyColumns are the columns of the tidy measurement CSV, in order.
var TidyColumns = []string{"source", "system", "collective", "algorithm", "nranks", "nnodes",
	"size_bytes", "time_us", "busbw_gbps", "placement", "note"}

// A Point is one measured point of the tidy measurement schema.
type Point struct {
	// Source cites where the figure comes from.
	Source string
	// System is the machine or GPU model ("H20", "8xH100").
	System string
	// Collective is the operation as the source names it ("alltoall",
	// "allreduce+rmsnorm(fused)").
	Collective string
	// Algorithm is the implementation or algorithm ("NCCL", "one-shot").
	Algorithm string
	// NRanks and NNodes are the rank and node counts, 0 when unknown.
	NRanks, NNodes int
	// Size is the message size in bytes, as nccl-tests counts it.
	Size int64
	// Time is the measured time, in seconds.
	Time float64
	// BusBW is the bus bandwidth the source gives, in bytes per second; 0
	// when it gives none.
	BusBW float64
	// Placement is "out-of-place", "in-place" or "" (not stated).
	Placement string
	// Note says anything else about the point.
	Note string
	// Line is the point's line in the file it was read from, 0 if none.
	Line int
}

// Points is a list of measured points.
type Points []Point

// A Filter selects points; a zero field matches everything. String fields
// match without regard to case.
type Filter struct {
	Source, System, Collective, Algorithm, Placement string
	NRanks, NNodes                                   int
}

// Match reports whether p passes f.
func (f Filter) Match(p Point) bool {
	eq := func(want, got string) bool { return want == "" || strings.EqualFold(want, got) }
	return eq(f.Source, p.Source) && eq(f.System, p.System) && eq(f.Collective, p.Collective) &&
		eq(f.Algorithm, p.Algorithm) && eq(f.Placement, p.Placement) &&
		(f.NRanks == 0 || f.NRanks == p.NRanks) && (f.NNodes == 0 || f.NNodes == p.NNodes)
}

// Select returns the points that pass f, in order.
func (ps Points) Select(f Filter) Points {
	var out Points
	for _, p := range ps {
		if f.Match(p) {
			out = append(out, p)
		}
	}
	return out
}

// Samples returns the points as samples, in order.
func (ps Points) Samples() []fit.Sample {
	out := make([]fit.Sample, len(ps))
	for i, p := range ps {
		out[i] = fit.Sample{Size: float64(p.Size), Time: p.Time}
	}
	return out
}

// ReadTidyCSV reads a CSV file with a header row naming its columns; name
// labels its errors. It needs size_bytes (B) and time_us (us); a size is a
// whole number of bytes in any spelling of a bare number, as Points.Frame
// saved with gota's WriteCSV ("65536.000000") and pandas ("65536.0") write
// it (see tidySize). The other TidyColumns are optional, "gpu" stands for
// "system", other columns are ignored, and lines starting with '#' are
// comments. Bad rows are skipped and returned as problems, each a
// *nccltests.ParseError with the line and, where the row has the field, the
// column of the bad one: nccltests.ErrNumber for a bad number (a size_bytes
// that is not a whole number of bytes below 2^62, units.MaxSize; a time_us
// that is not a positive finite number; an nranks or nnodes that is not a
// whole number of 0 or more), ErrValue for a bad placement or a line whose
// CSV quoting breaks (the line alone). A busbw_gbps that is negative or not
// finite is an ErrNumber problem too, but its row is kept without it
// (BusBW 0): the column is optional, and the size and time stand. err, also a
// *nccltests.ParseError, is non-nil when the file is not text
// (nccltests.ErrNotText, or nccltests.ErrEmpty when it holds nothing), has
// no usable header (ErrHeader, or ErrValue for its quoting), or has no good
// row (nccltests.ErrNoTable).
func ReadTidyCSV(r io.Reader, name string) (ps Points, problems []error, err error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, &nccltests.ParseError{File: name, Err: err}
	}
	return readTidyCSV(b, name, 0)
}

// readTidyCSV reads b as ReadTidyCSV does, listing the first
// nccltests.MaxProblems problems and then one that counts the rest, and
// stopping with nccltests.ErrTooManyRows at the row past maxRows, good or
// bad, where maxRows > 0 (Options.MaxRows, as the log reader does): a file
// of millions of short rows is refused at the bound's cost, not its own.
func readTidyCSV(b []byte, name string, maxRows int) (Points, []error, error) {
	if err := nccltests.CheckText(b); err != nil {
		return nil, nil, &nccltests.ParseError{File: name, Err: err}
	}
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\ufeff")))) // spreadsheet BOM
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err != nil {
		return nil, nil, csvError(name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "gpu" {
			h = "system"
		}
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	for _, need := range []string{"size_bytes", "time_us"} {
		if _, ok := col[need]; !ok {
			line, _ := cr.FieldPos(0)
			return nil, nil, &nccltests.ParseError{File: name, Line: line, Err: fmt.Errorf("%w: no %s column", ErrHeader, need)}
		}
	}
	var ps Points
	var problems []error
	rows, bad := 0, 0
	var count nccltests.ProblemCount
	problem := func(line int, err error) {
		if count.Lists(line) {
			problems = append(problems, err)
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		broken := err != nil && errors.As(err, &pe) && pe.Err != csv.ErrFieldCount
		line := 0
		if broken {
			line = pe.Line // a broken record has no field to place
		} else {
			line, _ = cr.FieldPos(0)
		}
		if rows++; maxRows > 0 && rows > maxRows {
			return nil, problems, &nccltests.ParseError{File: name, Line: line, Err: fmt.Errorf("%w: more than %d, %d of them bad", nccltests.ErrTooManyRows, maxRows, bad)}
		}
		if broken {
			bad++
			problem(line, csvError(name, err))
			continue
		}
		p, at, keep, err := tidyPoint(rec, col)
		if err != nil {
			pe := &nccltests.ParseError{File: name, Line: line, Err: err}
			if at < len(rec) { // a missing field has no column
				pe.Line, pe.Column = cr.FieldPos(at)
			}
			problem(line, pe)
			if !keep {
				bad++
				continue
			}
		}
		p.Line = line
		ps = append(ps, p)
	}
	if more := count.More(name); more != nil {
		problems = append(problems, more)
	}
	if len(ps) == 0 {
		err := nccltests.ErrNoTable
		if len(problems) > 0 {
			err = fmt.Errorf("%w (%d problems; first: %v)", nccltests.ErrNoTable, len(problems), problems[0])
		}
		return nil, problems, &nccltests.ParseError{File: name, Err: err}
	}
	return ps, problems, nil
}

// tidyPoint reads one record; on error it returns the bad field's index,
// and keep true where the point stands without it: a bad busbw_gbps, which
// is optional (the point's BusBW is then 0, none), leaves the size and
// time to fit.
func tidyPoint(rec []string, col map[string]int) (p Point, bad int, keep bool, err error) {
	get := func(name string) (string, int) {
		i, ok := col[name]
		if !ok || i >= len(rec) {
			return "", i
		}
		return strings.TrimSpace(rec[i]), i
	}
	p.Source, _ = get("source")
	p.System, _ = get("system")
	p.Collective, _ = get("collective")
	p.Algorithm, _ = get("algorithm")
	p.Note, _ = get("note")
	for _, f := range []struct {
		name string
		dst  *int
	}{{"nranks", &p.NRanks}, {"nnodes", &p.NNodes}} {
		if s, i := get(f.name); s != "" {
			v, err := strconv.Atoi(s)
			if err != nil || v < 0 {
				return p, i, false, fmt.Errorf("%w: %s %q", nccltests.ErrNumber, f.name, parseerr.Excerpt(s))
			}
			*f.dst = v
		}
	}
	s, i := get("size_bytes")
	size, ok := tidySize(s)
	if !ok {
		return p, i, false, fmt.Errorf("%w: size_bytes %q (want a whole number of bytes below 2^62)", nccltests.ErrNumber, parseerr.Excerpt(s))
	}
	p.Size = size
	s, i = get("time_us")
	t, err := strconv.ParseFloat(s, 64)
	if err != nil || !(t > 0) || math.IsInf(t, 0) {
		return p, i, false, fmt.Errorf("%w: time_us %q (want a positive number of microseconds)", nccltests.ErrNumber, parseerr.Excerpt(s))
	}
	p.Time = t / 1e6 // us -> s
	var bwErr error  // a bad busbw_gbps, said once the rest is read
	busbw := 0
	if s, busbw = get("busbw_gbps"); s != "" {
		bw, err := strconv.ParseFloat(s, 64)
		if err != nil || !(bw >= 0) || math.IsInf(bw, 0) {
			bwErr = fmt.Errorf("%w: busbw_gbps %q (want a bandwidth of 0 or more, or none); the point is kept without it", nccltests.ErrNumber, parseerr.Excerpt(s))
		} else {
			p.BusBW = bw * 1e9 // GB/s -> B/s
		}
	}
	if s, i = get("placement"); s != "" {
		pl, err := nccltests.ParsePlacement(s)
		if err != nil {
			return p, i, false, fmt.Errorf("%w: %v", ErrValue, err)
		}
		p.Placement = pl.String()
	}
	if bwErr != nil {
		return p, busbw, true, bwErr
	}
	return p, 0, false, nil
}

// tidySize reads a size_bytes field: a whole number of bytes from 0 to
// below 2^62 (units.MaxSize), in any spelling of it as a bare number of the
// units grammar: "65536", or "65536.000000" as gota's WriteCSV writes
// Points.Frame's float column, "65536.0" as pandas writes one, "6.5536e4".
// A fraction of a byte ("65536.5"), a negative number, Inf, NaN or a unit
// ("1MiB": the column is bytes) is none.
func tidySize(s string) (int64, bool) {
	if s == "" || strings.Trim(s, "0123456789.eE+-") != "" {
		return 0, false // a unit, a word, or nothing
	}
	n, err := units.ParseSize(s)
	return n, err == nil
}

// csvError converts an encoding/csv error. A quoting error concerns the
// whole line: the CSV reader could not split it into fields.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &nccltests.ParseError{File: name, Line: pe.Line, Err: fmt.Errorf("%w: %v (byte %d)", ErrValue, pe.Err, pe.Column)}
	}
	if err == io.EOF {
		err = nccltests.ErrEmpty
	}
	return &nccltests.ParseError{File: name, Err: err}
}
