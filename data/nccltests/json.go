package nccltests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// maxJSONRows bounds the records of a JSON input read without
// Options.MaxRows: a million, 250 times a cluster's whole sweep.
const maxJSONRows = 1 << 20

// errJSONRows stops decodeJSON at its limit of records.
var errJSONRows = errors.New("records past the limit")

// maxRanksPerProcess bounds the GPUs of one process that a JSON run's
// Rank record stands for (nThread·nGpus): a host's, with room to spare;
// and maxJSONRanks the Rank lines of a run, so that the lines stay
// bounded by the input: 2^20, the most ranks commlab predicts.
const (
	maxRanksPerProcess = 1024
	maxJSONRanks       = 1 << 20
)

// maxJSON bounds the JSON output the Reader reads (nccl-tests -J), which it
// holds whole: the text of a million rows, far more than any run writes,
// with room for the per-iteration times of -I 1.
const maxJSON = 256 << 20

// The JSON output of nccl-tests -J FILE.json (nccl-tests 2.17 on,
// src/util.cu; JSON_FILE_VERSION 3 in 2.19.6): one object per run, written
// on one line, with the run's command line (args), its environment (env),
// NCCL's version (nccl_version, major·10000 + minor·100 + patch), the
// header's parameters and the Rank lines (config), one record a size
// (results), and the trailer (out_of_bounds, average_bus_bandwidth). Each
// number is kept as the JSON prints it ("%lf", or "nan" as a string), so
// that the table is read as nccl-tests printed it to standard output.
type jsonRun struct {
	Args        []string     `json:"args"`
	Env         []string     `json:"env"`
	NCCLVersion int          `json:"nccl_version"`
	Config      *jsonConfig  `json:"config"`
	Results     []jsonResult `json:"results"`
	OutOfBounds *struct {
		Count jsonNumber `json:"count"`
	} `json:"out_of_bounds"`
	AvgBusBW *struct {
		Bandwidth jsonNumber `json:"bandwidth"`
	} `json:"average_bus_bandwidth"`
}

type jsonConfig struct {
	NThreads     jsonNumber   `json:"nthreads"`
	NGPUs        jsonNumber   `json:"ngpus"`
	MinimumBytes jsonNumber   `json:"minimum_bytes"`
	MaximumBytes jsonNumber   `json:"maximum_bytes"`
	StepFactor   jsonNumber   `json:"step_factor"`
	StepBytes    jsonNumber   `json:"step_bytes"`
	WarmupIters  jsonNumber   `json:"warmup_iters"`
	Iterations   jsonNumber   `json:"iterations"`
	AggIters     jsonNumber   `json:"aggregated_iterations"`
	Validation   jsonNumber   `json:"validation"`
	Graph        jsonNumber   `json:"graph"`
	Devices      []jsonDevice `json:"devices"`
}

type jsonDevice struct {
	Rank       jsonNumber `json:"rank"`
	Group      jsonNumber `json:"group"`
	Pid        jsonNumber `json:"pid"`
	Hostname   string     `json:"hostname"`
	Device     jsonNumber `json:"device"`
	DeviceHex  string     `json:"device_hex"`
	DeviceInfo string     `json:"device_info"`
}

type jsonResult struct {
	Size       jsonNumber  `json:"size"`
	Count      jsonNumber  `json:"count"`
	Type       string      `json:"type"`
	Redop      string      `json:"redop"`
	Root       string      `json:"root"`
	OutOfPlace *jsonTiming `json:"out_of_place"`
	InPlace    *jsonTiming `json:"in_place"`
}

// jsonTiming is one placement's record: "time", or "cpu_time" under
// nccl-tests -C 1, and "nwrong" null where nccl-tests checked nothing
// (N/A in the text).
type jsonTiming struct {
	Time    jsonNumber `json:"time"`
	CPUTime jsonNumber `json:"cpu_time"`
	AlgBW   jsonNumber `json:"alg_bw"`
	BusBW   jsonNumber `json:"bus_bw"`
	NWrong  jsonNumber `json:"nwrong"`
}

// jsonNumber is a JSON number's text as written ("123.450000"), or the
// string nccl-tests writes for a NaN ("nan"); "" where null or absent.
type jsonNumber string

func (n *jsonNumber) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		*n = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if !strings.EqualFold(strings.TrimPrefix(s, "-"), "nan") {
			return fmt.Errorf("%q where a number (or \"nan\") goes", s)
		}
		*n = jsonNumber(s)
	case len(b) > 0 && (b[0] == '-' || b[0] >= '0' && b[0] <= '9'):
		*n = jsonNumber(b)
	default:
		return fmt.Errorf("%.20s where a number goes", b)
	}
	return nil
}

// or returns n, or s where n is "".
func (n jsonNumber) or(s string) string {
	if n == "" {
		return s
	}
	return string(n)
}

// jsonExtra is what a JSON run says beside the lines nccl-tests printed:
// NCCL's version and the environment, each with its line.
type jsonExtra struct {
	library     string
	libraryLine int
	env         []Setting
}

// isJSON reports that the input br reads starts with a JSON object: its
// first byte after white space (and a byte-order mark) is '{', which no
// line of nccl-tests' text output starts with.
func isJSON(br *bufio.Reader) bool {
	for n := 1; ; n++ {
		b, err := br.Peek(n)
		if len(b) < n || n > 4096 {
			return false
		}
		if bytes.HasPrefix([]byte("\ufeff"), b) {
			continue // a byte-order mark, or its start
		}
		b = bytes.TrimPrefix(b, []byte("\ufeff"))
		switch c := b[len(b)-1]; {
		case c == '{':
			return len(bytes.TrimSpace(b)) == 1
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			return false
		}
		if err != nil {
			return false
		}
	}
}

// readJSON reads the JSON output of nccl-tests runs from r (named name)
// and returns the lines nccl-tests printed to standard output for them,
// each numbered by the line of the JSON it comes from, and what each run's
// JSON says beside them. It decodes maxRows+1 records at most, the first
// the parser refuses (Options.MaxRows), and without MaxRows maxJSONRows,
// so that the lines cost memory as the text's rows do.
func readJSON(r io.Reader, name string, maxRows int) ([]numberedLine, []jsonExtra, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxJSON+1))
	if err != nil {
		return nil, nil, &ParseError{File: name, Err: err}
	}
	if len(b) > maxJSON {
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("%w: JSON larger than %d MiB, more than nccl-tests writes for one run", ErrJSON, maxJSON>>20)}
	}
	if err := checkStart(b[:min(len(b), textSniffLen)]); err != nil {
		return nil, nil, &ParseError{File: name, Err: err}
	}
	if bytes.HasPrefix(b, []byte("\ufeff")) {
		// A byte-order mark, white space to JSON: its columns kept.
		b = append([]byte("   "), b[len("\ufeff"):]...)
	}
	limit := maxJSONRows
	if maxRows > 0 {
		limit = maxRows + 1 // the parser stops at that row (ErrTooManyRows)
	}
	runs, ats, err := decodeJSON(b, limit)
	if errors.Is(err, errJSONRows) {
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("%w: more than %d records in its results", ErrTooManyRows, maxJSONRows)}
	}
	if err != nil {
		var je *jsonError
		if errors.As(err, &je) {
			line, col := position(b, je.off)
			return nil, nil, &ParseError{File: name, Line: line, Column: col, Err: fmt.Errorf("%w: %v", ErrJSON, je.err)}
		}
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("%w: %v", ErrJSON, err)}
	}
	var lines []numberedLine
	var extras []jsonExtra
	for i := range runs {
		if runs[i].Config == nil && runs[i].Results == nil {
			return nil, nil, &ParseError{File: name, Line: ats[i].line(), Err: fmt.Errorf("%w: a JSON object without the config and results that nccl-tests -J writes", ErrJSON)}
		}
		lines = append(lines, runs[i].lines(ats[i])...)
		if len(runs[i].Results) > 0 {
			// A run without records makes no test, and says nothing.
			extras = append(extras, runs[i].extra(ats[i]))
		}
	}
	return lines, extras, nil
}

// position returns the 1-based line and column of byte offset off of b,
// the column within the line (0 for an empty line: the end of the input).
func position(b []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(b)))
	head := b[:off]
	start := bytes.LastIndexByte(head, '\n') + 1
	end := bytes.IndexByte(b[start:], '\n')
	if end < 0 {
		end = len(b) - start
	}
	return 1 + bytes.Count(head, []byte("\n")), min(int(off)-start+1, end)
}

// jsonAt holds the lines of a JSON run's parts: its top-level keys and its
// size records (results). The Rank records take config's line.
type jsonAt struct {
	keys    map[string]int
	results []int
}

// line returns the line of the run's first key, 1 for none.
func (a jsonAt) line() int {
	n := 0
	for _, l := range a.keys {
		if n == 0 || l < n {
			n = l
		}
	}
	return max(n, 1)
}

// A jsonError is an error of the JSON at byte offset off.
type jsonError struct {
	off int64
	err error
}

func (e *jsonError) Error() string { return e.err.Error() }
func (e *jsonError) Unwrap() error { return e.err }

// decodeJSON decodes the runs b holds, one JSON object each (nccl-tests
// writes one a run; files joined hold several), part by part, and returns
// each with the lines of its top-level keys and of its results' records.
// A run cut short (the run crashed, or its copy was cut) keeps what came
// before the cut, and is the last: its table then ends early, which the
// parser reports (ErrStopped). An error is a *jsonError at the value that
// holds it (a syntax error's own offset).
func decodeJSON(b []byte, limit int) ([]jsonRun, []jsonAt, error) {
	var runs []jsonRun
	var ats []jsonAt
	dec := json.NewDecoder(bytes.NewReader(b))
	lines := lineCounter{b: b, line: 1}
	// next returns the offset where the next value starts.
	next := func() int64 {
		off := dec.InputOffset()
		for off < int64(len(b)) && strings.IndexByte(" \t\r\n,:", b[off]) >= 0 {
			off++
		}
		return off
	}
	// at wraps err, met in the value that starts at off, as a
	// *jsonError: a syntax error at its own offset, which a decoder of the
	// value alone gives (dec's counts from the start of its buffer).
	at := func(off int64, err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			var v any
			if e := json.NewDecoder(bytes.NewReader(b[off:])).Decode(&v); errors.As(e, &se) {
				off += se.Offset
			}
		}
		return &jsonError{off, err}
	}
	decode := func(v any) error {
		off := next()
		if err := dec.Decode(v); err != nil {
			return at(off, err)
		}
		return nil
	}
	rows := 0
	for next() < int64(len(b)) {
		run, where := jsonRun{}, jsonAt{keys: map[string]int{}}
		err := decodeRun(dec, &run, &where, func() int { return lines.at(next()) }, next, decode, at, limit-rows)
		rows += len(run.Results)
		if errors.Is(err, errJSONRows) {
			if limit == maxJSONRows {
				return nil, nil, err
			}
			return append(runs, run), append(ats, where), nil
		}
		cut := errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
		if err != nil && !(cut && (run.Config != nil || len(run.Results) > 0)) {
			return nil, nil, err
		}
		runs, ats = append(runs, run), append(ats, where)
		if err != nil {
			break
		}
	}
	return runs, ats, nil
}

// decodeRun decodes one run's object into run, the line of each part
// into where (line gives the line of the next value), with decodeJSON's
// helpers, and at most limit records (errJSONRows past them).
func decodeRun(dec *json.Decoder, run *jsonRun, where *jsonAt, line func() int, next func() int64, decode func(any) error, at func(int64, error) error, limit int) error {
	off := next()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		if err == nil {
			err = errors.New("an object goes here")
		}
		return at(off, err)
	}
	for dec.More() {
		off := next()
		tok, err := dec.Token()
		if err != nil {
			return at(off, err)
		}
		key, _ := tok.(string)
		where.keys[key] = line()
		switch key {
		case "args":
			err = decode(&run.Args)
		case "env":
			err = decode(&run.Env)
		case "nccl_version":
			err = decode(&run.NCCLVersion)
		case "config":
			err = decode(&run.Config)
		case "out_of_bounds":
			err = decode(&run.OutOfBounds)
		case "average_bus_bandwidth":
			err = decode(&run.AvgBusBW)
		case "results":
			// A record at a time, each at its line.
			off := next()
			if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
				if err == nil {
					err = errors.New("an array goes here")
				}
				return at(off, err)
			}
			for err == nil && dec.More() {
				if len(run.Results) == limit {
					return errJSONRows
				}
				where.results = append(where.results, line())
				var r jsonResult
				if err = decode(&r); err == nil {
					run.Results = append(run.Results, r)
				}
			}
			if err == nil {
				off := next()
				if _, err = dec.Token(); err != nil { // ]
					err = at(off, err)
				}
			}
		default:
			var raw json.RawMessage
			err = decode(&raw)
		}
		if err != nil {
			return err
		}
	}
	off = next()
	if _, err := dec.Token(); err != nil { // }
		return at(off, err)
	}
	return nil
}

// lineCounter turns increasing byte offsets of b into lines, in one pass.
type lineCounter struct {
	b    []byte
	off  int64
	line int
}

func (l *lineCounter) at(off int64) int {
	if off > l.off {
		l.line += bytes.Count(l.b[l.off:off], []byte("\n"))
		l.off = off
	}
	return l.line
}

// A numberedLine is a line of text and the line of the input it stands for.
type numberedLine struct {
	n    int
	text string
}

// lines returns what nccl-tests printed to standard output for run (src/
// util.cu's writeDeviceReport, writeResultHeader, writeBenchmarkLine*,
// writeResultFooter, which print and write the JSON from the same
// values), each line numbered by the line of its JSON part.
func (run *jsonRun) lines(at jsonAt) []numberedLine {
	var out []numberedLine
	add := func(n int, format string, args ...any) {
		out = append(out, numberedLine{n, fmt.Sprintf(format, args...)})
	}
	bin := ""
	if len(run.Args) > 0 {
		bin = token(path.Base(run.Args[0]))
		add(at.keys["args"], "# Collective test starting: %s", bin)
	}
	if c := run.Config; c != nil {
		step := c.StepFactor.or("") + "(factor)"
		if c.StepFactor == "" {
			step = c.StepBytes.or("0") + "(bytes)"
		}
		n := at.keys["config"]
		add(n, "# nThread %s nGpus %s minBytes %s maxBytes %s step: %s warmup iters: %s iters: %s agg iters: %s validation: %s graph: %s",
			c.NThreads.or("1"), c.NGPUs.or("1"), c.MinimumBytes.or("0"), c.MaximumBytes.or("0"), step,
			c.WarmupIters.or("0"), c.Iterations.or("0"), c.AggIters.or("1"), c.Validation.or("0"), c.Graph.or("0"))
		add(n, "#")
		add(n, "# Using devices")
		// A record stands for one process, whose first GPU's Rank line
		// nccl-tests' parseRankInfo reads (writeDeviceReport): the
		// process's other GPUs, its next ranks and devices on its host,
		// are taken as that one's model, their bus IDs unknown.
		per := min(max(atoi(string(c.NThreads))*atoi(string(c.NGPUs)), 1), maxRanksPerProcess)
		if len(c.Devices)*per > maxJSONRanks {
			per = 1 // more ranks than any run: the records alone
		}
		for _, d := range c.Devices {
			on := ""
			if h := token(d.Hostname); h != "" {
				on = fmt.Sprintf(" on %10s", h) // no host: the line names none
			}
			add(n, "#  Rank %2s Group %2s Pid %6s%s device %2s [%s] %s",
				d.Rank.or("0"), d.Group.or("0"), d.Pid.or("0"), on, d.Device.or("0"), token(d.DeviceHex), gpuName(d.DeviceInfo))
			rank, dev := atoi(string(d.Rank)), atoi(string(d.Device))
			for i := 1; i < per; i++ {
				add(n, "#  Rank %2d Group %2s Pid %6s%s device %2d %s",
					rank+i, d.Group.or("0"), d.Pid.or("0"), on, dev+i, gpuName(d.DeviceInfo))
			}
		}
	}
	if len(run.Results) > 0 {
		n := at.keys["results"]
		time := "time"
		if r := run.Results[0]; r.OutOfPlace != nil && r.OutOfPlace.Time == "" && r.OutOfPlace.CPUTime != "" {
			time = "cputime"
		}
		add(n, "#")
		add(n, "#       size         count      type   redop    root  %7s   algbw   busbw #wrong  %7s   algbw   busbw #wrong", time, time)
		add(n, "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)")
	}
	for i, r := range run.Results {
		line := at.keys["results"]
		if i < len(at.results) {
			line = at.results[i]
		}
		row := fmt.Sprintf("%12s  %12s  %8s  %6s  %6s", r.Size.or("?"), r.Count.or("?"), token(r.Type), token(r.Redop), token(r.Root))
		for _, t := range []*jsonTiming{r.OutOfPlace, r.InPlace} {
			if t == nil {
				// An in-place run alone (nccl-tests' trace replay)
				// prints blanks where the out-of-place times go.
				continue
			}
			row += fmt.Sprintf("  %7s  %6s  %6s  %6s", t.Time.or(t.CPUTime.or("?")), t.AlgBW.or("?"), t.BusBW.or("?"), nwrong(t.NWrong))
		}
		add(line, "%s", row)
	}
	if o := run.OutOfBounds; o != nil {
		add(at.keys["out_of_bounds"], "# Out of bounds values : %s", o.Count.or("0"))
	}
	if a := run.AvgBusBW; a != nil {
		n := at.keys["average_bus_bandwidth"]
		add(n, "# Avg bus bandwidth    : %s", a.Bandwidth.or("0"))
		add(n, "#")
		if bin != "" {
			add(n, "# Collective test concluded: %s", bin)
		}
	}
	return out
}

// token is a string of the JSON that nccl-tests prints as one field of a
// line (a binary, a host name, a PCI bus ID, a data type, a reduction, a
// root): the JSON may hold any string, so white space and control
// characters within it become '_', that it stay one field of one line.
func token(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return '_'
		}
		return r
	}, strings.TrimSpace(s))
}

// gpuName is a GPU's name as a Rank line ends with it: control characters
// become spaces, that it stay on its line, and NCCL's debug tags, which no
// GPU's name holds, lose their space ("NCCL-INFO"), that the line not read
// as NCCL's.
func gpuName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.NewReplacer("NCCL INFO", "NCCL-INFO", "NCCL WARN", "NCCL-WARN").Replace(s)
}

// nwrong is the #wrong field of a count as the JSON writes it ("0.000000"
// for 0), N/A where nccl-tests checked nothing.
func nwrong(n jsonNumber) string {
	if n == "" {
		return "N/A"
	}
	if f, err := strconv.ParseFloat(string(n), 64); err == nil && f == float64(int64(f)) {
		return strconv.FormatInt(int64(f), 10)
	}
	return string(n)
}

// installPaths are NCCL_* variables that say where NCCL is installed, as
// module systems and build recipes set them, not parameters NCCL reads.
var installPaths = []string{"NCCL_HOME", "NCCL_ROOT", "NCCL_DIR"}

// extra returns what run says beside the printed lines: NCCL's version
// (as nccl-tests' header prints it, nccl-library=22703) and the NCCL
// parameters its environment set (env's NCCL_* variables, but nccl-tests'
// own NCCL_TESTS_* and installPaths).
func (run *jsonRun) extra(at jsonAt) jsonExtra {
	var x jsonExtra
	if run.NCCLVersion > 0 {
		x.library, x.libraryLine = strconv.Itoa(run.NCCLVersion), at.keys["nccl_version"]
	}
	for _, kv := range run.Env {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(k, "NCCL_") && !strings.HasPrefix(k, "NCCL_TESTS_") && !slices.Contains(installPaths, k) {
			x.env = append(x.env, Setting{Name: k, Value: v, Line: at.keys["env"]})
		}
	}
	return x
}

// apply sets what x says in e, where the printed lines did not say it.
func (x *jsonExtra) apply(e *Evidence) {
	if x.library != "" {
		e.Library.set(x.library, x.libraryLine)
	}
	for _, s := range x.env {
		e.setEnv(s)
		switch s.Name {
		case "NCCL_ALGO":
			e.Algo.set(s.Value, s.Line)
		case "NCCL_PROTO":
			e.Proto.set(s.Value, s.Line)
		}
	}
}
