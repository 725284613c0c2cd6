package nccltests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/inframethod/commlab/internal/parseerr"
)

// Bounds of a JSON input, which the Reader holds whole and turns into
// lines, so that they cost no more than a text log of its size would:
//
//   - maxJSON, its bytes: the text of a million rows, far more than any
//     run writes, with room for the per-iteration times of -I 1;
//   - maxJSONRuns, its runs (a cluster's sweep joined in one file is a few
//     hundred), and maxJSONRows their records without Options.MaxRows (a
//     million, 250 times a cluster's whole sweep);
//   - maxRanksPerProcess, the GPUs one Rank record stands for (nThread ·
//     nGpus: a host's, with room to spare), and maxJSONRanks and
//     maxRankBytes the Rank lines made of all records (131,072 ranks, more
//     than the largest clusters run nccl-tests on, and their lines at 128
//     bytes each);
//   - maxJSONString, a string's bytes: nccl-tests' own buffers hold 1024
//     (rankInfo_t's hostname and devinfo);
//   - maxJSONStrings, the strings of a run's args or env: a command line's
//     words and a job's environment, with room to spare.
const (
	maxJSON            = 256 << 20
	maxJSONRuns        = 10000
	maxJSONRows        = 1 << 20
	maxRanksPerProcess = 1024
	maxJSONRanks       = 1 << 17
	maxRankBytes       = 16 << 20
	maxJSONString      = 1024
	maxJSONStrings     = 1 << 14
)

// errJSONRows stops decodeJSON at its limit of records.
var errJSONRows = errors.New("records past the limit")

// The JSON output of nccl-tests -J FILE.json (nccl-tests 2.17.3 on,
// src/util.cu; JSON_FILE_VERSION 3 in 2.19.6): one object per run, written
// on one line, with the run's command line (args), its environment (env),
// NCCL's version (nccl_version, major·10000 + minor·100 + patch), the
// header's parameters and the Rank lines (config), one record a size
// (results), and the trailer (out_of_bounds, average_bus_bandwidth). Each
// number is kept as the JSON prints it ("%lf", or "nan" as a string), so
// that the table is read as nccl-tests printed it to standard output.
type jsonRun struct {
	Args        jsonStrings  `json:"args"`
	Env         jsonStrings  `json:"env"`
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
	NThreads     jsonNumber  `json:"nthreads"`
	NGPUs        jsonNumber  `json:"ngpus"`
	MinimumBytes jsonNumber  `json:"minimum_bytes"`
	MaximumBytes jsonNumber  `json:"maximum_bytes"`
	StepFactor   jsonNumber  `json:"step_factor"`
	StepBytes    jsonNumber  `json:"step_bytes"`
	WarmupIters  jsonNumber  `json:"warmup_iters"`
	Iterations   jsonNumber  `json:"iterations"`
	AggIters     jsonNumber  `json:"aggregated_iterations"`
	Validation   jsonNumber  `json:"validation"`
	Graph        jsonNumber  `json:"graph"`
	Devices      jsonDevices `json:"devices"`
}

type jsonDevice struct {
	Rank       jsonNumber `json:"rank"`
	Group      jsonNumber `json:"group"`
	Pid        jsonNumber `json:"pid"`
	Hostname   jsonString `json:"hostname"`
	Device     jsonNumber `json:"device"`
	DeviceHex  jsonString `json:"device_hex"`
	DeviceInfo jsonString `json:"device_info"`
}

type jsonResult struct {
	Size       jsonNumber  `json:"size"`
	Count      jsonNumber  `json:"count"`
	Type       jsonString  `json:"type"`
	Redop      jsonString  `json:"redop"`
	Root       jsonString  `json:"root"`
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
		switch v := strings.ToLower(s); v {
		case "nan", "-nan", "inf", "-inf":
			*n = jsonNumber(v)
		case "n", "-n": // quoteBare's
			*n = jsonNumber(v + "an")
		case "i", "-i":
			*n = jsonNumber(v + "nf")
		default:
			return fmt.Errorf("%q where a number (or \"nan\") goes", s)
		}
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

// maxBadDevices is how many of a run's devices records that are no
// counts are named one by one; the rest are counted in one problem.
const maxBadDevices = 10

// jsonDevices are a run's Rank records, the first maxJSONRanks+1 of an
// array of more, so that a small file of many empty records costs no
// more than the records a run may hold (a million "{}" took 830 MB).
type jsonDevices []jsonDevice

func (l *jsonDevices) UnmarshalJSON(b []byte) error {
	v, err := decodeFirst[jsonDevice](b, maxJSONRanks+1)
	*l = v
	return err
}

// jsonStrings are a run's args or env, the first maxJSONStrings+1 of an
// array of more.
type jsonStrings []jsonString

func (l *jsonStrings) UnmarshalJSON(b []byte) error {
	v, err := decodeFirst[jsonString](b, maxJSONStrings+1)
	*l = v
	return err
}

// decodeFirst decodes the JSON array b into its first n elements,
// reading past the others; anything but an array is decoded whole, as
// encoding/json decodes it into a slice (null into none, a string into an
// error naming it).
func decodeFirst[T any](b []byte, n int) ([]T, error) {
	var out []T
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) == 0 || t[0] != '[' {
		err := json.Unmarshal(b, &out)
		return out, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token() // [
	for dec.More() {
		if len(out) == n {
			var skip json.RawMessage // kept until the next
			if err := dec.Decode(&skip); err != nil {
				return out, err
			}
			continue
		}
		var v T
		if err := dec.Decode(&v); err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// jsonString is a string of the JSON, cut to maxJSONString bytes.
type jsonString string

func (s *jsonString) UnmarshalJSON(b []byte) error {
	var v *string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v != nil {
		*s = jsonString(parseerr.Prefix(*v, maxJSONString))
	}
	return nil
}

// isJSON reports that the input br reads starts with JSON: its first
// byte after white space (and a byte-order mark) is '{', an object, or
// '[' and then '{', an array of them (jq -s writes one), neither of which
// starts a line of nccl-tests' text output.
func isJSON(br *bufio.Reader) bool {
	array := false
	for n := 1; n <= br.Size(); n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			return false
		}
		if bytes.HasPrefix([]byte("\ufeff"), b) {
			continue // a byte-order mark, or its start
		}
		switch c := b[len(b)-1]; {
		case c == '{':
			return true
		case c == '[' && !array:
			// An array of runs, not a launcher's tag ("[1,0]<stdout>:",
			// "[0]"): a run's object comes next.
			array = true
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			return false
		}
		if err != nil {
			return false
		}
	}
	return false
}

// readJSON reads the JSON output of nccl-tests runs from r (named name)
// and returns the lines nccl-tests printed to standard output for them,
// each with where the JSON holds it, and the problems of records the
// lines leave out. It decodes maxRows+1 records at most, the first the
// parser refuses (Options.MaxRows), or maxJSONRows without MaxRows.
func readJSON(r io.Reader, name string, maxRows int) ([]numberedLine, []error, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxJSON+1))
	if err != nil {
		return nil, nil, &ParseError{File: name, Err: err}
	}
	if len(b) > maxJSON {
		// A long text log may start with a launcher's JSON status line.
		var first map[string]json.RawMessage
		if json.NewDecoder(bytes.NewReader(b)).Decode(&first) == nil && first["config"] == nil && first["results"] == nil {
			return nil, nil, &notRuns{text: io.MultiReader(bytes.NewReader(b), r)}
		}
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("%w: JSON larger than %d MiB, more than nccl-tests writes", ErrJSON, maxJSON>>20)}
	}
	if err := checkStart(b[:min(len(b), textSniffLen)]); err != nil {
		return nil, nil, &ParseError{File: name, Err: err}
	}
	raw := b
	if bytes.HasPrefix(b, []byte("\ufeff")) {
		// A byte-order mark, white space to JSON: its columns kept.
		b = append([]byte("   "), b[len("\ufeff"):]...)
	}
	b = quoteBare(b)
	limit := maxJSONRows
	if maxRows > 0 {
		limit = maxRows + 1 // the parser stops at that row (ErrTooManyRows)
	}
	runs, err := decodeJSON(b, limit)
	var je *jsonError
	switch {
	case errors.Is(err, errNotRuns):
		nr := &notRuns{text: bytes.NewReader(raw)}
		if errors.As(err, &je) && errors.As(je.err, new(*jsonTypeError)) {
			line, col := position(b, je.off)
			nr.why = fmt.Sprintf("%d:%d: %v", line, col, je.err)
		}
		return nil, nil, nr
	case errors.Is(err, errJSONRows):
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("%w: more than %d records in its results", ErrTooManyRows, maxJSONRows)}
	case errors.As(err, &je):
		line, col := position(b, je.off)
		return nil, nil, &ParseError{File: name, Line: line, Column: col, Err: fmt.Errorf("%w: %v", ErrJSON, je.err)}
	case err != nil:
		return nil, nil, &ParseError{File: name, Err: fmt.Errorf("%w: %v", ErrJSON, err)}
	}
	w := jsonWriter{name: name, budget: maxJSON}
	for i := range runs {
		if p := runs[i].skipped; p.line > 0 {
			w.problem(p, "%w: an object without the config and results of an nccl-tests run (a launcher's?), left out", ErrJSON)
			continue
		}
		w.run(&runs[i].jsonRun, &runs[i].at)
	}
	return w.lines, w.problems, nil
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

// A jsonPos is a place in the JSON: a 1-based line, and a 1-based column.
type jsonPos struct{ line, col int }

// jsonAt holds where a JSON run's parts start: its top-level keys' values
// and its results' records. The Rank records take config's place.
type jsonAt struct {
	keys    map[string]jsonPos
	results []jsonPos
}

// kept reports that r was kept as a run, not skipped as none.
func kept(r placedRun) bool { return r.skipped.line == 0 }

// looksRun reports that an object broken where decodeRun stopped was a
// run of nccl-tests -J: it holds config or results before a value of
// another kind than nccl-tests writes (typed), or any of the keys it
// writes before a syntax error or the input's end (a run cut short).
func (a jsonAt) looksRun(typed bool) bool {
	keys := []string{"config", "results"}
	if !typed {
		keys = append(keys, "version", "start_time", "args", "env", "nccl_version")
	}
	for _, k := range keys {
		if _, ok := a.keys[k]; ok {
			return true
		}
	}
	return false
}

// errNotRuns stops decodeJSON where the JSON holds no run (objects that
// are none, or a first object broken before any key of a run's, or
// holding a value of another kind than nccl-tests writes there): a text
// log may start with a launcher's JSON status line.
var errNotRuns = errors.New("no run of nccl-tests")

// notRuns is readJSON's answer to input whose first object is no run of
// nccl-tests: it is read as text from text, the whole input again.
type notRuns struct {
	text io.Reader
	// why is where and how the first object holds a value of another
	// kind than nccl-tests writes ("1:54: nccl_version: string where a
	// number goes"), "" for an object that holds no run's keys.
	why string
}

func (*notRuns) Error() string { return errNotRuns.Error() }

// numberKeys are the keys of nccl-tests' JSON whose values are numbers
// that jsonDouble writes ("%lf"), and so may be a bare word for an
// infinity or a NaN; the per-iteration times are lists of them.
var numberKeys = []string{"time", "cpu_time", "alg_bw", "bus_bw", "nwrong", "bandwidth",
	"min_us", "max_us", "avg_us", "p50_us", "p95_us", "p99_us", "stdev_us", "cv_pct", "times_us", "per_process_max_times_us"}

// quoteBare returns b with the bare words for an infinity or a NaN that
// nccl-tests' jsonDouble can write where a number goes ("%lf" prints an
// infinity inf, -inf; a NaN it quotes, "nan"), which are no JSON, quoted
// in as many bytes ("i", "-i", "n", "-n", which jsonNumber reads back) in
// the values of numberKeys, and there alone, so that the records that
// hold them read as rows with a bad number, as the text's do, every offset
// stays, and a bare word anywhere else stays the syntax error it is.
// Where there are none, it returns b.
func quoteBare(b []byte) []byte {
	out := b
	var key []byte // the last key, or string, read
	str, esc, number := false, false, false
	start := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		if str {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				str, key = false, b[start:i]
			}
			continue
		}
		switch c {
		case '"':
			str, start = true, i+1
		case ':':
			number = slices.Contains(numberKeys, string(key))
		case '{', '}':
			number = false
		case 'i', 'n', '-':
			if !number {
				break
			}
			for _, w := range [...]string{"-inf", "-nan", "inf", "nan"} {
				end := i + len(w)
				if !bytes.HasPrefix(b[i:], []byte(w)) || end < len(b) && strings.IndexByte(",]} \t\r\n", b[end]) < 0 {
					continue
				}
				if &out[0] == &b[0] {
					out = bytes.Clone(b)
				}
				copy(out[i:end], `"`+w[:len(w)-2]+`"`)
				i = end - 1
				break
			}
		}
	}
	return out
}

// first returns the place of the run's first key.
func (a jsonAt) first() jsonPos {
	p := jsonPos{line: 1}
	for _, k := range a.keys {
		if p.col == 0 || k.line < p.line || k.line == p.line && k.col < p.col {
			p = k
		}
	}
	return p
}

// A jsonTypeError is a value of a kind that its key's value is not in
// nccl-tests' JSON: an object that holds one is no run of nccl-tests.
type jsonTypeError struct{ err error }

// inKey names key, the run's key whose value err was met in, in a type
// error (encoding/json names at most the field within the value:
// nccl_version's string was "string where a number goes").
func inKey(err error, key string) error {
	var je *jsonError
	var te *jsonTypeError
	if errors.As(err, &je) && errors.As(je.err, &te) {
		je.err = &jsonTypeError{fmt.Errorf("%s: %w", key, te.err)}
	}
	return err
}

func (e *jsonTypeError) Error() string { return e.err.Error() }
func (e *jsonTypeError) Unwrap() error { return e.err }

// A jsonError is an error of the JSON at byte offset off.
type jsonError struct {
	off int64
	err error
}

func (e *jsonError) Error() string { return e.err.Error() }
func (e *jsonError) Unwrap() error { return e.err }

// A placedRun is a run of the JSON and where its parts are; skipped is
// where an object that is no run starts (isRun), left out.
type placedRun struct {
	jsonRun
	at      jsonAt
	skipped jsonPos
}

// isRun reports that r is a run of nccl-tests -J: it holds results, or a
// config with the header's parameters or devices (a launcher's status
// object may hold keys of the same names).
func (r *placedRun) isRun() bool {
	c := r.Config
	_, results := r.at.keys["results"]
	return results || c != nil && (c.NThreads != "" || c.NGPUs != "" || c.MaximumBytes != "" || c.Devices != nil)
}

// decodeJSON decodes the runs b holds, one JSON object each (nccl-tests
// writes one a run; files joined hold several, an array as jq -s writes
// them too), part by part, each with where its parts are. A run cut short
// (the run crashed, or its copy was cut) keeps what came before the cut,
// and is the last: its table then ends early, which the parser reports
// (ErrStopped). An error is a *jsonError at the value that holds it (a
// syntax error's own offset). Past limit records in all it stops: with
// the runs so far where MaxRows set the limit, else with errJSONRows.
func decodeJSON(b []byte, limit int) ([]placedRun, error) {
	var runs []placedRun
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
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			var v any
			if e := json.NewDecoder(bytes.NewReader(b[off:])).Decode(&v); errors.As(e, &se) {
				off += max(se.Offset-1, 0) // the bytes read, the bad one among them
			}
		case errors.As(err, &te):
			// Said in the JSON's terms, not Go's.
			what := map[reflect.Kind]string{reflect.Struct: "an object", reflect.Slice: "an array", reflect.String: "a string"}[te.Type.Kind()]
			if what == "" {
				what = "a number"
			}
			field := ""
			if te.Field != "" {
				field = te.Field + ": "
			}
			err = &jsonTypeError{fmt.Errorf("%s%s where %s goes", field, te.Value, what)}
		case errors.As(err, new(*jsonTypeError)):
		case !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) && !errors.Is(err, errJSONRows):
			err = &jsonTypeError{err} // a jsonNumber's
		}
		return &jsonError{off, err}
	}
	d := runDecoder{b: b, dec: dec, next: next, at: at, pos: func() jsonPos { return lines.at(next()) }}
	array := false
	if off := next(); off < int64(len(b)) && b[off] == '[' {
		dec.Token() // [
		array = true
	}
	rows, objects := 0, 0
	for array && dec.More() || !array && next() < int64(len(b)) {
		if objects == maxJSONRuns {
			return nil, &jsonError{next(), fmt.Errorf("more than %d runs: give each sweep a file of its own", maxJSONRuns)}
		}
		objects++
		run := placedRun{at: jsonAt{keys: map[string]jsonPos{}}}
		start := d.pos()
		err := d.run(&run.jsonRun, &run.at, limit-rows)
		switch {
		case err != nil && !slices.ContainsFunc(runs, kept) && !run.at.looksRun(errors.As(err, new(*jsonTypeError))):
			// No run before, and this one is none: a text log that
			// starts with a launcher's JSON, or a run whose values
			// nccl-tests does not write, which err says.
			return nil, fmt.Errorf("%w: %w", errNotRuns, err)
		case err == nil && !run.isRun():
			// A launcher's status object beside the runs.
			run.skipped = start
			runs = append(runs, run)
			continue
		}
		rows += len(run.Results)
		if errors.Is(err, errJSONRows) {
			if limit == maxJSONRows {
				return nil, err
			}
			return append(runs, run), nil
		}
		cut := errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
		if err != nil && !(cut && (run.Config != nil || len(run.Results) > 0)) {
			return nil, err
		}
		runs = append(runs, run)
		if err != nil {
			return runs, nil
		}
	}
	if !slices.ContainsFunc(runs, kept) {
		return nil, errNotRuns
	}
	if array {
		off := next()
		if _, err := dec.Token(); err != nil { // ]
			return nil, at(off, err)
		}
		if off := next(); off < int64(len(b)) {
			return nil, &jsonError{off, errors.New("more after the array of runs")}
		}
	}
	return runs, nil
}

// tokenText is a JSON token as the JSON writes it.
func tokenText(tok json.Token) string {
	if tok == nil {
		return "null"
	}
	if s, ok := tok.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(tok)
}

// A runDecoder decodes the runs of decodeJSON, b: next gives the offset of
// the next value, at wraps an error met in the value at an offset, and pos
// gives the place of the next value.
type runDecoder struct {
	b    []byte
	dec  *json.Decoder
	next func() int64
	at   func(int64, error) error
	pos  func() jsonPos
}

// decode decodes the next value into v, an error there a *jsonError.
func (d *runDecoder) decode(v any) error {
	off := d.next()
	if err := d.dec.Decode(v); err != nil {
		return d.at(off, err)
	}
	return nil
}

// null reads the next value if it is null, and reports that it was.
func (d *runDecoder) null() bool {
	if off := d.next(); off+4 <= int64(len(d.b)) && string(d.b[off:off+4]) == "null" {
		d.dec.Token()
		return true
	}
	return false
}

// delim reads the delimiter c, an error there a *jsonError.
func (d *runDecoder) delim(c json.Delim) error {
	off := d.next()
	tok, err := d.dec.Token()
	if err == nil && tok != c {
		err = fmt.Errorf("%s where %v goes", tokenText(tok), c)
	}
	if err != nil {
		return d.at(off, err)
	}
	return nil
}

// run decodes one run's object into run and where its parts are into
// where, with at most limit records (errJSONRows past them).
func (d *runDecoder) run(run *jsonRun, where *jsonAt, limit int) error {
	if err := d.delim('{'); err != nil {
		return err
	}
	for d.dec.More() {
		off := d.next()
		tok, err := d.dec.Token()
		if err != nil {
			return d.at(off, err)
		}
		key, _ := tok.(string)
		where.keys[key] = d.pos()
		switch key {
		case "args":
			err = d.decode(&run.Args)
		case "env":
			err = d.decode(&run.Env)
		case "nccl_version":
			err = d.decode(&run.NCCLVersion)
		case "config":
			err = d.decode(&run.Config)
		case "out_of_bounds":
			err = d.decode(&run.OutOfBounds)
		case "average_bus_bandwidth":
			err = d.decode(&run.AvgBusBW)
		case "results":
			// A record at a time, each at its place; null is none, and
			// anything but a list no run's (its key is not kept).
			if d.null() {
				delete(where.keys, key)
				break
			}
			if err = d.delim('['); err != nil {
				delete(where.keys, key)
				return &jsonTypeError{err}
			}
			for err == nil && d.dec.More() {
				if len(run.Results) == limit {
					return errJSONRows
				}
				where.results = append(where.results, d.pos())
				var r jsonResult
				if err = d.decode(&r); err == nil {
					run.Results = append(run.Results, r)
				}
			}
			if err == nil {
				err = d.delim(']')
			}
		default:
			var raw json.RawMessage
			err = d.decode(&raw)
		}
		if err != nil && key != "results" {
			return inKey(err, key)
		}
		if err != nil {
			return err
		}
	}
	return d.delim('}')
}

// lineCounter turns increasing byte offsets of b into places, in one pass.
type lineCounter struct {
	b     []byte
	off   int64
	line  int
	start int64 // the offset of the line's start
}

func (l *lineCounter) at(off int64) jsonPos {
	if off > l.off {
		seg := l.b[l.off:off]
		if k := bytes.Count(seg, []byte("\n")); k > 0 {
			l.line += k
			l.start = l.off + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
		l.off = off
	}
	return jsonPos{l.line, int(off-l.start) + 1}
}

// A numberedLine is a line of text and where the JSON holds what it
// stands for: the line, the column of a results record (0 for the other
// lines), and on a run's first record, what the run says beside its lines
// (extra), which its test takes.
type numberedLine struct {
	n, col int
	text   string
	extra  *jsonExtra
}

// A jsonWriter writes runs as the lines nccl-tests printed for them, with
// a problem for each record it leaves out, and counts the Rank lines' bytes
// against the input's budget.
type jsonWriter struct {
	name     string
	lines    []numberedLine
	problems []error
	// budget is what the input's Rank lines may take yet, in bytes: in
	// all, maxJSON, what a text log of Rank lines alone may hold.
	budget int
}

func (w *jsonWriter) add(p jsonPos, col int, format string, args ...any) {
	w.lines = append(w.lines, numberedLine{n: p.line, col: col, text: fmt.Sprintf(format, args...)})
}

func (w *jsonWriter) problem(p jsonPos, format string, args ...any) {
	w.problems = append(w.problems, &ParseError{File: w.name, Line: p.line, Column: p.col, Err: fmt.Errorf(format, args...)})
}

// rankLine adds a Rank line, which the input's budget pays for.
func (w *jsonWriter) rankLine(p jsonPos, format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	w.budget -= len(line)
	w.lines = append(w.lines, numberedLine{n: p.line, text: line})
}

// run writes what nccl-tests printed to standard output for run (src/
// util.cu's writeDeviceReport, writeResultHeader, writeBenchmarkLine*,
// writeResultFooter, which print and write the JSON from the same values),
// each line at its JSON part's place. A run without records makes no test
// and no line.
func (w *jsonWriter) run(run *jsonRun, at *jsonAt) {
	if len(run.Results) == 0 {
		w.problem(at.first(), "%w: a run without results records, left out", ErrNoTable)
		return
	}
	for _, l := range []struct {
		key  string
		list *jsonStrings
	}{{"args", &run.Args}, {"env", &run.Env}} {
		if len(*l.list) > maxJSONStrings {
			w.problem(at.keys[l.key], "%w: %s holds more than %d strings, more than a command line or a job's environment: those past them are left unread", ErrInconsistent, l.key, maxJSONStrings)
			*l.list = (*l.list)[:maxJSONStrings]
		}
	}
	bin := ""
	if len(run.Args) > 0 {
		bin = token(path.Base(string(run.Args[0])))
		w.add(at.keys["args"], 0, "# Collective test starting: %s", bin)
	}
	if c := run.Config; c != nil {
		w.config(c, at.keys["config"])
	}
	n := at.keys["results"]
	time := "time"
	if r := run.Results[0]; r.OutOfPlace != nil && r.OutOfPlace.Time == "" && r.OutOfPlace.CPUTime != "" {
		time = "cputime"
	}
	w.add(n, 0, "#")
	w.add(n, 0, "#       size         count      type   redop    root  %7s   algbw   busbw #wrong  %7s   algbw   busbw #wrong", time, time)
	w.add(n, 0, "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)")
	extra := run.extra(*at)
	for i, r := range run.Results {
		p := n
		if i < len(at.results) {
			p = at.results[i]
		}
		row, why := jsonRow(r)
		if why != "" {
			w.problem(p, "%w: a results record %s; it is left out", ErrNumber, why)
			continue
		}
		w.lines = append(w.lines, numberedLine{n: p.line, col: p.col, text: row, extra: extra})
		extra = nil
	}
	if o := run.OutOfBounds; o != nil {
		if k, ok := jsonCount(o.Count); ok {
			w.add(at.keys["out_of_bounds"], 0, "# Out of bounds values : %d", k)
		} else {
			w.problem(at.keys["out_of_bounds"], "%w: out_of_bounds' count %q is no count; left out", ErrNumber, o.Count)
		}
	}
	if a := run.AvgBusBW; a != nil {
		p := at.keys["average_bus_bandwidth"]
		w.add(p, 0, "# Avg bus bandwidth    : %s", a.Bandwidth.or("0"))
		w.add(p, 0, "#")
		if bin != "" {
			w.add(p, 0, "# Collective test concluded: %s", bin)
		}
	}
}

// config writes the header's lines and the Rank lines of config, at p. A
// record stands for one process, whose first GPU's Rank line nccl-tests'
// parseRankInfo reads (writeDeviceReport): the process's other GPUs, its
// next ranks and devices on its host, are taken as that one's model,
// their bus IDs unknown, while the bounds allow.
func (w *jsonWriter) config(c *jsonConfig, p jsonPos) {
	step := c.StepFactor.or("") + "(factor)"
	if c.StepFactor == "" {
		step = c.StepBytes.or("0") + "(bytes)"
	}
	w.add(p, 0, "# nThread %s nGpus %s minBytes %s maxBytes %s step: %s warmup iters: %s iters: %s agg iters: %s validation: %s graph: %s",
		c.NThreads.or("1"), c.NGPUs.or("1"), c.MinimumBytes.or("0"), c.MaximumBytes.or("0"), step,
		c.WarmupIters.or("0"), c.Iterations.or("0"), c.AggIters.or("1"), c.Validation.or("0"), c.Graph.or("0"))
	w.add(p, 0, "#")
	w.add(p, 0, "# Using devices")
	threads, _ := jsonCount(c.NThreads)
	gpus, _ := jsonCount(c.NGPUs)
	per := max(threads*gpus, 1)
	if per > maxRanksPerProcess || threads > maxRanksPerProcess || gpus > maxRanksPerProcess {
		w.problem(p, "%w: nthreads %s and ngpus %s make more GPUs a process than a host holds (at most %d): each process's first GPU alone is listed, and the ranks between are unknown",
			ErrInconsistent, c.NThreads, c.NGPUs, maxRanksPerProcess)
		per = 1
	}
	// Each record's first Rank line, and what its others share.
	type process struct {
		first, on, name       string
		rank, dev, pid, group int
	}
	var procs []process
	size, bad := 0, 0
	if len(c.Devices) > maxJSONRanks {
		w.problem(p, "%w: more devices records than commlab makes Rank lines of (%d): those past them are left unread", ErrInconsistent, maxJSONRanks)
		c.Devices = c.Devices[:maxJSONRanks]
	}
	for i, d := range c.Devices {
		rank, ok1 := jsonCount(d.Rank)
		dev, ok2 := jsonCount(d.Device)
		pid, ok3 := jsonCount(jsonNumber(d.Pid.or("0")))
		group, ok4 := jsonCount(jsonNumber(d.Group.or("0")))
		if !ok1 || !ok2 || !ok3 || !ok4 || rank >= maxRanks {
			if bad++; bad <= maxBadDevices {
				w.problem(p, "%w: devices record %d: rank %q, device %q, pid %q, group %q, where each is a count (a rank below %d); it is left out",
					ErrNumber, i, d.Rank, d.Device, d.Pid, d.Group, maxRanks)
			}
			continue
		}
		on := ""
		if h := token(string(d.Hostname)); h != "" {
			on = fmt.Sprintf(" on %10s", h) // no host: the line names none
		}
		name := gpuName(string(d.DeviceInfo))
		pr := process{
			first: fmt.Sprintf("#  Rank %2d Group %2d Pid %6d%s device %2d [%s] %s", rank, group, pid, on, dev, token(string(d.DeviceHex)), name),
			on:    on, name: name, rank: rank, dev: dev, pid: pid, group: group,
		}
		procs = append(procs, pr)
		size += len(pr.first)
	}
	if bad > maxBadDevices {
		w.problem(p, "%w: %d devices records more are no counts, left out like those above", ErrNumber, bad-maxBadDevices)
	}
	// A run's Rank lines stay within maxJSONRanks and maxRankBytes, and
	// the input's within their budget, whole processes or none: a run
	// whose processes' other GPUs do not fit lists each one's first.
	if per > 1 && (len(procs)*per > maxJSONRanks || size*per > min(maxRankBytes, w.budget)) {
		w.problem(p, "%w: the run's %d processes of %d GPUs make more Rank lines than commlab makes (%d a run, %d MiB, %d MiB in all): each process's first GPU alone is listed, and the ranks between are unknown",
			ErrInconsistent, len(procs), per, maxJSONRanks, maxRankBytes>>20, maxJSON>>20)
		per = 1
	}
	if size > w.budget {
		w.problem(p, "%w: more Rank lines than commlab makes in all (%d MiB): the run's are left out", ErrInconsistent, maxJSON>>20)
		return
	}
	for _, pr := range procs {
		w.rankLine(p, "%s", pr.first)
		for k := 1; k < per; k++ {
			w.rankLine(p, "#  Rank %2d Group %2d Pid %6d%s device %2d %s", pr.rank+k, pr.group, pr.pid, pr.on, pr.dev+k, pr.name)
		}
	}
}

// jsonRow returns the text row of record r, or why it has none: a size that
// is not there or no count of bytes (a bare inf), a placement that is not
// (in_place, which nccl-tests always writes), or an nwrong that is no
// count.
func jsonRow(r jsonResult) (row, why string) {
	if r.Size == "" {
		return "", "without a size"
	}
	if _, err := strconv.ParseUint(string(r.Size), 10, 63); err != nil {
		return "", fmt.Sprintf("whose size %q is no count of bytes", r.Size)
	}
	if r.InPlace == nil {
		return "", "without in_place"
	}
	row = fmt.Sprintf("%12s  %12s  %8s  %6s  %6s", r.Size, r.Count.or("?"), token(string(r.Type)), token(string(r.Redop)), token(string(r.Root)))
	for _, t := range []*jsonTiming{r.OutOfPlace, r.InPlace} {
		if t == nil {
			// An in-place run alone (nccl-tests' trace replay) prints
			// blanks where the out-of-place times go.
			continue
		}
		wrong := "N/A"
		if t.NWrong != "" {
			k, ok := jsonCount(t.NWrong)
			if !ok {
				return "", fmt.Sprintf("whose nwrong %q is no count of wrong elements", t.NWrong)
			}
			wrong = strconv.Itoa(k)
		}
		row += fmt.Sprintf("  %7s  %6s  %6s  %6s", t.Time.or(t.CPUTime.or("?")), t.AlgBW.or("?"), t.BusBW.or("?"), wrong)
	}
	return row, ""
}

// jsonCount returns n as a count: a whole number from 0 to maxRanks·2^10
// (nccl-tests writes counts as "%d" or "%lf"), ok false otherwise.
func jsonCount(n jsonNumber) (int, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || f < 0 || f > maxRanks<<10 || f != math.Trunc(f) {
		return 0, false
	}
	return int(f), true
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

// installVar reports an NCCL_* variable that says which NCCL is
// installed and where, as module systems, build recipes and containers
// set them (NVIDIA's images set NCCL_VERSION=2.21.5-1), not a parameter
// NCCL reads.
func installVar(k string) bool {
	if k == "NCCL_VERSION" {
		return true
	}
	for _, end := range []string{"_HOME", "_ROOT", "_DIR", "_LIB", "_LIBRARY", "_INCLUDE", "_INC"} {
		if strings.HasSuffix(k, end) {
			return true
		}
	}
	return false
}

// extra returns what run says beside the printed lines: NCCL's version
// (as nccl-tests' header prints it, nccl-library=22703) and the NCCL
// parameters its environment set (env's NCCL_* variables, but nccl-tests'
// own NCCL_TESTS_* and installVar's).
func (run *jsonRun) extra(at jsonAt) *jsonExtra {
	x := &jsonExtra{}
	if run.NCCLVersion > 0 {
		x.library, x.libraryLine = strconv.Itoa(run.NCCLVersion), at.keys["nccl_version"].line
	}
	for _, kv := range run.Env {
		k, v, ok := strings.Cut(string(kv), "=")
		if ok && strings.HasPrefix(k, "NCCL_") && !strings.HasPrefix(k, "NCCL_TESTS_") && !installVar(k) {
			x.env = append(x.env, Setting{Name: k, Value: v, Line: at.keys["env"].line})
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
		e.setByEnv(s)
	}
}
