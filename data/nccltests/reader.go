package nccltests

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/inframethod/commlab/commmodel"
)

// A Reader reads the tests of nccl-tests output, in the manner of
// encoding/csv's Reader: set its fields after NewReader, then call Read for
// one test at a time or ReadAll for all of them.
//
// Header lines are recognised with or without their '#'; lines that are not
// part of a table (NCCL INFO and WARN lines, launcher messages, shell
// prompts) are skipped, and the prefixes of launchers are removed first
// (Open MPI "[1,0]<stdout>:", MPICH "[0]", srun "0: ", kubectl "[pod/...]"
// and time stamps). Open MPI's --tag-output tags every piece a rank writes,
// not every line, so a row may hold tags inside it, and another rank's
// output may cut it with the rest of the row on a later line: the reader
// puts each tag's stream back together, reads the row at its first line,
// and reports the rows it rejoined as one ErrRejoined warning per test; a
// bad field in such a row is reported at its own line and column. A new
// test starts at a "# nccl-tests version" or "# Collective test starting"
// line, at an "# nThread" line, or at a column header or Rank line that
// follows rows. The binary's name is taken from those lines or from any
// line that names exactly one nccl-tests binary (a command line).
//
// Each test's collective comes from, in order: Options.Collective; the
// binary name; the table, whose redop column (none or a reduction), root
// column (-1 or a rank), leading columns before 2022 (each test printed
// its own: AllGather and Broadcast no redop, AllToAll a blank one), count
// column (per rank for AllGather, ReduceScatter
// and AllToAll: size = count·type size·ranks), #wrong columns (AllToAll and
// SendRecv print "N/A" in-place and a count out-of-place, the others a
// count in both; with -c 0 every one prints "N/A") and busbw/algbw ratio
// (nccl-tests' bus factor) must all fit; among the collectives the table
// fits alike, the one the file's name names (Reader.Name's last element,
// "..._alltoall_..."); else the first of them, with an ErrAmbiguous warning
// in Problems. Test.CollectiveFrom says which. SendRecv, which reduces
// nothing, prints the -o reduction (sum by default) and root -1 since
// nccl-tests v2.13.0, and busbw = algbw: over 2 ranks its table is an
// AllReduce's. The ratio is bounded by interval arithmetic on the printed
// digits of every cell (see ratioBounds), so a table printed with two
// decimals still pins 2(n-1)/n for n in the hundreds. Its rank count comes
// from Options.Ranks; the "#  Rank" lines; the count column; or the ratio
// solved for n when only one n fits. Its node count comes from
// Options.Nodes or the distinct host names of the Rank lines. Its threads,
// GPUs per thread, agg iters and CUDA graph launches come from the
// "# nThread" header line, and its process count from the distinct host and
// Pid pairs of the Rank lines, or from the ranks over threads·GPUs per
// thread where the Rank lines are elided. What cannot be
// told is left Unknown (Ranks 0), never guessed; an override or a name that
// the table contradicts is kept and reported as ErrInconsistent in Problems.
//
// A bad row does not stop the reader: it is skipped and reported in
// Problems, so one garbled line in a long capture costs one point.
//
// An input whose first character but white space is '{' (or '[' and then
// '{') is the JSON output of nccl-tests -J (nccl-tests 2.17.3 on,
// src/util.cu), one object a run (several where files were joined, or an
// array of them), held whole up to 256 MiB. Each run is read as the lines
// nccl-tests printed to standard output for it, from the same values:
// "Collective test starting" with args[0]'s binary, the "# nThread" line
// from config, a Rank line for each of config's devices, the table from
// results (a number as the JSON writes it, "nan" for NaN, N/A for a null
// nwrong) and the trailer from out_of_bounds and average_bus_bandwidth; a
// string as the one field nccl-tests prints it as (white space in a host's
// name, a type or a reduction becomes '_'; a GPU's name keeps to its line,
// and loses the debug tags "NCCL INFO" and "NCCL WARN"). Each line is
// numbered by the JSON's line of its part (a Rank line by config's), and a
// problem of a record names its column too. nccl-tests writes one device
// record a process, its first GPU's: the process's other nThread·nGpus−1
// GPUs are taken as the next ranks and devices of its host, of that GPU's
// model, bus IDs unknown. A record nccl-tests would not write is left out
// with a problem at its place; a run without records makes no test. Each
// test's Evidence takes its run's NCCL release from nccl_version (as
// Library) and the NCCL_* variables of its env (Env, Algo, Proto). A run
// cut short keeps the records before the cut (its table then stops early,
// ErrStopped); a JSON value that does not parse, or more runs than any file
// holds, fail with ErrJSON at the line and column; an object that is no run
// (a launcher's JSON status line) is left out with a problem, and an input
// that holds no run is read as text. What the JSON makes stays bounded by
// the input: 256 MiB, 10,000 runs, 131,072 Rank lines a run.
type Reader struct {
	// Name is the file name that every ParseError and Test.Source carry;
	// "" for none. NewReader sets it to the reader's Name() when it has one
	// (an *os.File), as topo.Parse does.
	Name string
	// Options override what the reader infers.
	Options

	in      lineReader
	join    tagJoiner
	p       parser
	want    *op // the op of Options.Collective, nil for none
	started bool
	tests   int   // tests returned so far
	err     error // the error every later Read returns
	// rcclCSV is the line of rccl-tests' CSV header (rcclCSVHeader) in a
	// text log, 0 for none; csv reads an input that is such a CSV, whose
	// first line but blank ones and '#' notes is its header; content
	// reports that the reader is past that line.
	rcclCSV int
	csv     *csvReader
	content bool
	// rcclJSON is the line of a record of rccl-tests' JSON output in an
	// input not read as it (laid out otherwise), 0 for none.
	rcclJSON int
}

// rcclCSVHeader begins the header of rccl-tests' CSV output (-Z csv), which
// the reader reads when it is a file of its own (see csvReader) and names
// when it finds it among a log's lines.
const rcclCSVHeader = "numCycle,collective,"

// NewReader returns a Reader that reads from r.
func NewReader(r io.Reader) *Reader {
	rd := &Reader{in: lineReader{r: r}}
	if n, ok := r.(interface{ Name() string }); ok {
		rd.Name = n.Name()
	}
	return rd
}

// Read returns the next test, or io.EOF after the last. A test is returned
// when the next one starts or the input ends.
//
// The error is a *ParseError when the input cannot be read, is empty, is not
// text (a NUL byte anywhere; UTF-16, with or without a byte-order mark;
// more than 2% of the first 64 KiB invalid UTF-8 or control characters), is
// JSON that is not nccl-tests' (ErrJSON), or yields no test at all (its
// lines ending in CR alone named), when
// Options.Collective is not a collective, and at the first row past
// Options.MaxRows (ErrTooManyRows; bad rows count, and the error says how
// many of them there were and the first problem). After an error, Read returns the
// same error again.
func (r *Reader) Read() (*Test, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.started {
		r.started = true
		r.p.name, r.p.opt = r.Name, r.Options
		if r.Collective != "" {
			c, err := commmodel.ParseCollective(r.Collective)
			if err != nil {
				r.err = &ParseError{File: r.Name, Err: err}
				return nil, r.err
			}
			o := opOf(c)
			r.want = &o
		}
		br := bufio.NewReaderSize(r.in.r, textSniffLen)
		r.in.r = br
		if isJSON(br) {
			lines, problems, err := readJSON(br, r.Name, r.MaxRows)
			var text *notRuns
			switch {
			case errors.As(err, &text):
				// A text log whose first line is a launcher's JSON, or
				// a run of values nccl-tests does not write.
				r.in.r, r.p.jsonWhy = text.text, text.why
			case err != nil:
				r.err = err
				return nil, r.err
			default:
				r.in.lines, r.in.json = lines, true
				r.p.fromRecords = true
				for _, e := range problems {
					r.p.addJSON(e)
				}
			}
		}
	}
	for len(r.p.done) == 0 {
		n, line, err := r.in.next()
		if err == io.EOF {
			if r.csv != nil {
				r.csv.flush(&r.p)
			}
			r.join.flush()
			for _, l := range r.join.take() {
				r.p.joinedLine(l)
			}
			r.p.finish()
			r.p.endInput()
			if len(r.p.done) > 0 {
				break
			}
			switch {
			case r.in.blank:
				r.err = &ParseError{File: r.Name, Err: ErrEmpty}
			case r.tests == 0 && r.csv != nil && len(r.p.problems) == 0:
				r.err = &ParseError{File: r.Name, Err: fmt.Errorf("%w: rccl-tests' CSV or JSON output (-Z) with no row under its header", ErrNoTable)}
			case r.tests == 0 && r.rcclJSON > 0:
				r.err = &ParseError{File: r.Name, Line: r.rcclJSON, Err: fmt.Errorf("%w: this is rccl-tests' JSON output (-Z json) laid out otherwise than rccl-tests writes it, or under other lines: commlab reads it as rccl-tests writes it, one object a line (-Z json -X FILE), or its CSV output or text", ErrNoTable)}
			case r.tests == 0 && r.rcclCSV > 0:
				r.err = &ParseError{File: r.Name, Line: r.rcclCSV, Err: fmt.Errorf("%w: this is rccl-tests' CSV output (-Z csv, its header \"numCycle,collective,...\") under other lines or a launcher's prefixes: commlab reads it as a file of its own, as rccl-tests writes it (-Z csv -X FILE), or the test's text output", ErrNoTable)}
			case r.tests == 0 && r.in.loneCR:
				r.err = &ParseError{File: r.Name, Err: fmt.Errorf("%w: its lines end in CR alone (classic Mac OS line ends), which are no line ends to the reader: convert them, e.g. with tr '\\r' '\\n' < FILE > FILE.log", ErrNoTable)}
			case r.tests == 0:
				r.err = noTable(r.Name, r.p.problems, r.p.problemCount.Unlisted())
			default:
				r.err = io.EOF
			}
			return nil, r.err
		}
		if err != nil {
			r.err = &ParseError{File: r.Name, Err: err}
			return nil, r.err
		}
		if !r.content && !r.in.json {
			// The first line but blank ones and '#' notes says whether
			// the input is rccl-tests' CSV output.
			if s := strings.TrimSpace(line); s != "" && s[0] != '#' && s != "[" {
				r.content = true
				switch {
				case isCSVHeader(s):
					r.csv = &csvReader{}
					r.p.fromRecords = true
				case isRCCLJSON(s):
					// rccl-tests' -Z json, after the array's '['.
					r.csv = &csvReader{keys: "\x00"}
					r.p.fromRecords = true
				}
			}
		}
		if r.csv == nil && r.rcclCSV == 0 && strings.Contains(strings.ReplaceAll(line, `"`, ""), rcclCSVHeader) {
			// Anywhere in a text log's line: after a launcher's prefix
			// too, and with its names quoted.
			r.rcclCSV = n
		}
		if r.csv == nil && r.rcclJSON == 0 && strings.Contains(line, `"numCycle"`) {
			r.rcclJSON = n // rccl-tests' -Z json, laid out otherwise
		}
		switch {
		case r.csv != nil && r.csv.keys != "":
			r.csv.jsonLine(&r.p, n, line)
		case r.csv != nil:
			r.csv.line(&r.p, n, line)
		case r.in.json:
			// A results record's problems name its column; its run's
			// test takes what the run says beside its lines.
			r.p.jsonCol = r.in.cur.col
			r.p.line(n, line)
			r.p.jsonCol = 0
			if x := r.in.cur.extra; x != nil && r.p.cur != nil {
				r.p.cur.json = x
			}
		case !r.join.add(n, line):
			r.p.line(n, line)
		}
		for _, l := range r.join.take() {
			r.p.joinedLine(l)
		}
		if r.p.tooMany > 0 {
			bad := ""
			if k := r.MaxRows - r.p.kept; k > 0 && len(r.p.problems) > 0 {
				bad = fmt.Sprintf(", %d of them left out with a problem (first problem: %v)", k, r.p.problems[0])
			}
			r.err = &ParseError{File: r.Name, Line: r.p.tooMany, Err: fmt.Errorf("%w: more than %d%s", ErrTooManyRows, r.MaxRows, bad)}
			return nil, r.err
		}
	}
	s := r.p.done[0]
	r.p.done = r.p.done[1:]
	r.p.infer(s, r.want)
	if s.json != nil {
		s.json.apply(&s.t.Evidence)
	}
	r.tests++
	return s.t, nil
}

// ReadAll reads the remaining tests. A successful call returns err == nil,
// not io.EOF, and at least one test; it fails as Read does.
func (r *Reader) ReadAll() ([]*Test, error) {
	var out []*Test
	for {
		t, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
}

// Problems returns the rows skipped and the warnings met so far, each a
// *ParseError, in line order: the first MaxProblems met, and then, where
// there were more, one ErrMoreProblems that counts them (ProblemCount.More).
func (r *Reader) Problems() []error {
	out := append([]error(nil), r.p.problems...)
	line := func(e error) int {
		if pe, ok := e.(*ParseError); ok {
			return pe.Line
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool { return line(out[i]) < line(out[j]) })
	if more := r.p.problemCount.More(r.Name); more != nil {
		out = append(out, more)
	}
	return out
}

// noTable is the error for an input without a readable row, with its
// problems: those listed and the unlisted more.
func noTable(name string, problems []error, unlisted int) error {
	err := ErrNoTable
	if len(problems) > 0 {
		err = fmt.Errorf("%w (%d problems; first: %v)", ErrNoTable, len(problems)+unlisted, problems[0])
	}
	return &ParseError{File: name, Err: err}
}
