package nccltests

import (
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/inframethod/commlab/internal/parseerr"
)

// rccl-tests writes its results to a CSV file with -Z csv (-X FILE names
// it; -x in releases before 2026), beside its usual standard output: a
// header line, then one row per size and placement, out-of-place first,
// under each run cycle (-N, numCycle from 0) and collective (its testColl
// name: AllReduce, AlltoAll, ...). Reporter::addResult and writeFile
// (ROCm/rocm-systems projects/rccl-tests/src/common.cu, 491c996048b8)
// write, in order,
//
//	numCycle, collective, nodes, ranks, ranksPerNode, gpusPerRank,
//	size, type, redop, inplace, time, algbw, busbw, #wrong
//
// with gpus alone in place of the four rank columns when built without
// MPI. The names belie the values: BenchTime hands addResult
// (nThreads·nGpus, nProcs, totalProcs), so that "ranks" is the MPI world's
// processes, "ranksPerNode" a communicator's (all of them but under
// NCCL_TESTS_SPLIT_MASK), "nodes" their quotient, the communicators, and
// "gpusPerRank" the GPUs each process drives (-t·-g). A communicator's
// NCCL ranks are ranksPerNode·gpusPerRank, and no column counts nodes: 2
// nodes of 8 processes print "1,16,16,1". Releases from 2025 to May 2026
// named three of the four columns in the header,
// "ranks,rankspernode,gpusperrank", over rows that hold all four
// (ROCm/rccl-tests src/common.cu at c10b98b1aa20, lines 160-164 and 188;
// fixed by ROCm/rocm-systems pull request 6004): a row of one field more
// than such a header holds nodes before ranks. Strings are quoted (the
// collective, type, redop and #wrong, a count or "N/A" where nothing is
// checked), numbers are not: sizes in bytes, times in microseconds and
// bandwidths in GB/s with std::to_string's six decimals. alltoallv and
// hypercube leave their redop empty.
//
// With -Z json the same Reporter writes the same values as a JSON array,
// one object a row on a line of its own, its keys the CSV's columns but
// name (collective), inPlace, algBw, busBw and wrong (#wrong): the reader
// turns each into the CSV line of the same row (jsonLine).
//
// A csvReader turns those rows into the lines rccl-tests printed to
// standard output for them, which the parser reads as it reads a log: each
// run's "Collective test starting" line, its column header, and a row for
// each size with its out-of-place and in-place halves, each at the line of
// its first CSV row. The rank count and process layout, which no line of
// the table carries, go to the run's test beside its lines (csvRun).
type csvReader struct {
	header int            // the header's line, 0 before it
	cols   map[string]int // a header name's field, lowercased
	// fields is the header's field count; a row of one field more holds
	// the nodes column the header left out (shifted), where shifts.
	fields int
	shifts bool
	key    string   // the run of the last row: its collective and rank columns
	run    *csvRun  // what the last row's run says beside its lines
	half   *csvHalf // a row whose other half may follow, in either order
	outs   bool     // the run has out-of-place rows
	// keys are the keys of the last JSON record (-Z json), whose CSV
	// header a record of other keys gives again; "\x00", no keys, before
	// the first record; "" in a CSV.
	keys string
}

// csvRun is what a run of rccl-tests' CSV says beside its lines.
type csvRun struct {
	line int
	// ranks is a communicator's NCCL ranks, processes its processes and
	// perProcess the GPUs each drives (gpusPerRank): 0 where the row
	// does not say.
	ranks, processes, perProcess int
	column                       string // the column (a JSON record's key) that gives perProcess
}

// A csvHalf is one CSV row: a size in one placement.
type csvHalf struct {
	line                      int
	size, typ, redop          string
	time, algBW, busBW, wrong string
	place                     Placement
}

// csvColumns are the columns a row must have, by lowercased header name.
var csvColumns = []string{"collective", "size", "type", "redop", "inplace", "time", "algbw", "busbw"}

// isCSVHeader reports whether line is rccl-tests' CSV header.
func isCSVHeader(line string) bool {
	return strings.HasPrefix(strings.ToLower(strings.ReplaceAll(line, `"`, "")), strings.ToLower(rcclCSVHeader))
}

// csvFields splits a CSV line into its fields, their quotes removed; an
// error is a *csv.ParseError of the line alone.
func csvFields(line string) ([]string, error) {
	r := csv.NewReader(strings.NewReader(line))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	f, err := r.Read()
	if err != nil {
		return nil, err
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f, nil
}

// fieldsProblem reports err of csvFields on raw, line n, at its column
// where it gives one within the line (off is where in raw the text
// parsed starts; a quote left open is past its end).
func fieldsProblem(p *parser, n int, raw string, off int, what string, err error) {
	col := 0
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if col, err = off+pe.Column, pe.Err; col > len(raw) {
			col = 0
		}
	}
	p.add(n, col, "%w: %s: %v", ErrFieldCount, what, err)
}

// line reads line n of the CSV into p: a note ('#'), the header, or a row,
// which may give p the lines of the row before it.
func (c *csvReader) line(p *parser, n int, raw string) {
	if p.longLine(n, raw) {
		return
	}
	s := strings.TrimSpace(raw)
	switch {
	case s == "" || s[0] == '#':
		return // a note of the file's, which rccl-tests does not write
	case isCSVHeader(s):
		c.flush(p)
		c.readHeader(p, n, s, len(raw)-len(strings.TrimLeftFunc(raw, unicode.IsSpace)))
		return
	case c.header == 0:
		return // rows under a header the reader refused
	}
	f, err := csvFields(s)
	if err != nil {
		fieldsProblem(p, n, raw, len(raw)-len(strings.TrimLeftFunc(raw, unicode.IsSpace)), "the row is left out", err)
		return
	}
	shift := 0
	switch {
	case len(f) == c.fields:
	case len(f) == c.fields+1 && c.shifts:
		shift = 1
	default:
		p.problem(n, 0, "%w: %d fields where the header (line %d) has %d; the row is left out", ErrFieldCount, len(f), c.header, c.fields)
		return
	}
	get := func(name string) string {
		i, ok := c.cols[name]
		if !ok {
			return ""
		}
		if shift == 1 && i >= c.cols["ranks"] {
			i++
		}
		return f[i]
	}
	// A run cycle (-N) is no new test: the text rccl-tests prints holds
	// every cycle's rows in one table, whose repeated sizes the parser
	// leaves out with a warning, so that one run is one calibration
	// table, not several that would seem to agree.
	key := strings.Join([]string{get("collective"), get("nodes"), get("ranks"), get("rankspernode"), get("gpusperrank"), get("gpus")}, ",")
	if key != c.key {
		c.flush(p)
		c.key, c.outs = key, false
		c.start(p, n, get("collective"), c.runOf(p, n, get))
	}
	if c.run == nil {
		return // a collective commlab does not read, said at its first row
	}
	h := &csvHalf{line: n, size: get("size"), typ: get("type"), redop: get("redop"),
		time: get("time"), algBW: get("algbw"), busBW: get("busbw"), wrong: get("#wrong")}
	switch get("inplace") {
	case "0":
	case "1":
		h.place = InPlace
	default:
		p.problem(n, 0, "%w: inplace %q, where rccl-tests writes 0 or 1; the row is left out", ErrNumber, parseerr.Excerpt(get("inplace")))
		return
	}
	for _, v := range []struct{ name, value string }{{"time", h.time}, {"algbw", h.algBW}, {"busbw", h.busBW}} {
		// The halves of a size are one line to the parser: a half whose
		// numbers are none is left out here, at its own line, and the
		// other half kept.
		if x, ok := parseNumber(v.value); !ok || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			p.problem(n, 0, "%w: %s %q; this row, the %s half of %s bytes, is left out", ErrNumber, v.name, parseerr.Excerpt(v.value), h.place, parseerr.Excerpt(h.size))
			return
		}
	}
	if o := c.half; o != nil && o.place != h.place && o.size == h.size && o.typ == h.typ && o.redop == h.redop {
		// The two halves of a size, rccl-tests' out-of-place first or
		// the other way round (a file sorted again).
		out, in := o, h
		if o.place == InPlace {
			out, in = h, o
		}
		c.half = nil
		c.emit(p, out, in)
		return
	}
	c.flush(p)
	c.half = h
	c.outs = c.outs || h.place == OutOfPlace
}

// runOf is what the row on line n says of its run (csvRun), from its rank
// columns (get), with a problem for a column that holds no count.
func (c *csvReader) runOf(p *parser, n int, get func(string) string) *csvRun {
	count := func(name string) int {
		v := get(name)
		if _, ok := c.cols[name]; !ok {
			return 0
		}
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k >= maxRanks {
			p.problem(n, 0, "%w: rccl-tests' %s column holds %q, no count of the run's processes or GPUs: its ranks are left unknown", ErrNumber, name, parseerr.Excerpt(v))
			return 0
		}
		return k
	}
	run := &csvRun{line: n, perProcess: max(count("gpusperrank"), count("gpus")), column: "gpusPerRank"}
	if _, mpi := c.cols["gpus"]; mpi {
		run.column = "gpus"
	}
	if c.keys != "" {
		run.column += " key" // a JSON record's
	} else {
		run.column += " column"
	}
	if _, mpi := c.cols["rankspernode"]; mpi {
		run.processes = count("rankspernode")
		run.ranks = run.processes * run.perProcess
	} else {
		run.processes, run.ranks = 1, run.perProcess
	}
	if run.ranks >= maxRanks {
		run.ranks = 0
	}
	return run
}

// readHeader reads the header s on line n, off bytes into the line.
func (c *csvReader) readHeader(p *parser, n int, s string, off int) {
	f, err := csvFields(s)
	if err != nil {
		fieldsProblem(p, n, strings.Repeat(" ", off)+s, off, "rccl-tests' CSV header; the rows under it are left out", err)
		c.header = 0
		return
	}
	cols := make(map[string]int, len(f))
	for i, name := range f {
		cols[strings.ToLower(name)] = i
	}
	for _, name := range csvColumns {
		if _, ok := cols[name]; !ok {
			p.problem(n, 0, "%w: rccl-tests' CSV header lacks its %q column; the rows under it are left out", ErrFieldCount, name)
			c.header = 0
			return
		}
	}
	_, nodes := cols["nodes"]
	_, ranks := cols["ranks"]
	*c = csvReader{header: n, cols: cols, fields: len(f), shifts: ranks && !nodes}
}

// start begins the run of collective on line n: the lines rccl-tests
// printed before its table, and what the run says beside them.
func (c *csvReader) start(p *parser, n int, collective string, run *csvRun) {
	stem := ""
	name := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(collective))
	for _, o := range ops {
		if strings.ReplaceAll(o.stem, "_", "") == name {
			stem = o.stem
		}
	}
	if stem == "" {
		p.problem(n, 0, "%w: rccl-tests' collective %q, which commlab does not read (it reads %s); its rows are left out",
			ErrNoTable, parseerr.Excerpt(collective), stemList())
		c.run = nil
		return
	}
	c.run = run
	p.line(n, "# Collective test starting: "+stem+"_perf")
	if t := p.cur; t != nil {
		t.csv = run
		t.debug.e.RCCL.set(true, c.header)
	}
	p.line(n, "#       size      type   redop     time   algbw   busbw #wrong     time   algbw   busbw #wrong")
}

// emit gives p the row of out and in, the halves of one size, either of
// them nil where the CSV holds the other alone: an out-of-place half alone
// prints N/A in its in-place columns, which the parser reads as no
// in-place time, and an in-place half alone prints its own columns only,
// which it reads as a run of in-place halves.
func (c *csvReader) emit(p *parser, out, in *csvHalf) {
	first := out
	if first == nil {
		first = in
	}
	row := fmt.Sprintf("%12s  %8s", field(first.size), field(first.typ))
	if first.redop != "" {
		row += "  " + field(first.redop) // left out where empty: the parser reads the row's redop as blank
	}
	for i, h := range []*csvHalf{out, in} {
		switch {
		case h == nil && i == 1:
			row += "  N/A  N/A  N/A  N/A" // no in-place time: the out-of-place one stands
			continue
		case h == nil:
			continue // in-place alone, which the parser reads as such
		}
		wrong := h.wrong
		if wrong == "" {
			wrong = "N/A"
		}
		row += fmt.Sprintf("  %7s  %6s  %6s  %6s", field(h.time), field(h.algBW), field(h.busBW), field(wrong))
	}
	p.line(first.line, row)
}

// flush gives p the half held, alone: an out-of-place half, or an
// in-place one of a run without out-of-place halves (-O 0); an in-place
// half whose out-of-place half is missing where the run's other sizes have
// theirs is left out, with a problem at its line.
func (c *csvReader) flush(p *parser) {
	h := c.half
	c.half = nil
	switch {
	case h == nil:
	case h.place == OutOfPlace:
		c.emit(p, h, nil)
	case c.outs:
		p.problem(h.line, 0, "%w: an in-place row of %s bytes without its out-of-place row beside it, which the run's other sizes have; it is left out", ErrInconsistent, parseerr.Excerpt(h.size))
	default:
		c.emit(p, nil, h)
	}
}

// field is a CSV value as one field of a printed line: "?" for none, and
// white space within it '_' (see token).
func field(s string) string {
	if s == "" {
		return "?"
	}
	return token(s)
}

// stemList lists the operations the reader knows, for a message.
func stemList() string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = o.stem
	}
	return strings.Join(names, ", ")
}

// rcclJSONNames are the CSV's names of the keys of rccl-tests' JSON output
// that differ from them (Reporter::addResult's keys).
var rcclJSONNames = map[string]string{"name": "collective", "inPlace": "inplace", "algBw": "algbw", "busBw": "busbw", "wrong": "#wrong"}

// isRCCLJSON reports whether s, a line, is a record of rccl-tests' JSON
// output, whose first key is numCycle.
func isRCCLJSON(s string) bool {
	return strings.HasPrefix(strings.ReplaceAll(s, " ", ""), `{"numCycle":`)
}

// jsonLine reads line n of rccl-tests' JSON output into p as the CSV line
// of the same row, after the CSV header of its keys where they are not the
// last record's: the array's brackets are no rows.
func (c *csvReader) jsonLine(p *parser, n int, raw string) {
	if p.longLine(n, raw) {
		return
	}
	s := strings.TrimSuffix(strings.TrimSpace(raw), ",")
	if s == "" || s == "[" || s == "]" || s[0] == '#' {
		return // the array's brackets, and a note of the file's
	}
	keys, values, err := jsonRecord(s)
	switch {
	case errors.Is(err, ErrNumber):
		p.add(n, 0, "%v, in a record of rccl-tests' JSON output (-Z json); it is left out", err)
		return
	case err != nil:
		p.add(n, 0, "%w: a record of rccl-tests' JSON output (-Z json) that does not parse (%v); it is left out", ErrFieldCount, err)
		return
	}
	if k := strings.Join(keys, ","); k != c.keys {
		// A header of the record's keys in its order, whatever the
		// order: readHeader takes the columns by name.
		names := make([]string, len(keys))
		for i, key := range keys {
			names[i] = cmp.Or(rcclJSONNames[key], key)
		}
		// The same run goes on under the new keys: a CSV's header starts
		// a file, a JSON's keys do not.
		key, run, outs, half := c.key, c.run, c.outs, c.half
		c.readHeader(p, n, strings.Join(names, ","), 0)
		if c.header > 0 {
			c.key, c.run, c.outs, c.half = key, run, outs, half
		}
		c.keys = k
	}
	c.line(p, n, strings.Join(values, ","))
}

// jsonRecord returns the keys of the JSON object s in order, and each
// value as a CSV field: a number as written, a string quoted.
func jsonRecord(s string) (keys, values []string, err error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("want an object")
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil, nil, err
		}
		v, err := d.Token()
		if err != nil {
			return nil, nil, err
		}
		switch v := v.(type) {
		case json.Number:
			values = append(values, v.String())
		case string:
			values = append(values, `"`+strings.ReplaceAll(v, `"`, `""`)+`"`)
		case nil:
			return nil, nil, fmt.Errorf("%w: null under %q, where a number or a string goes", ErrNumber, k)
		default:
			return nil, nil, fmt.Errorf("%v under %q, where a number or a string goes", v, k)
		}
		keys = append(keys, fmt.Sprint(k))
	}
	if t, err := d.Token(); err != nil || t != json.Delim('}') {
		return nil, nil, fmt.Errorf("the object does not end")
	}
	if d.More() {
		return nil, nil, fmt.Errorf("more after the object")
	}
	return keys, values, nil
}
