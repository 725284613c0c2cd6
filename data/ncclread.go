package data

import (
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// ReadNCCLTests reads the output of one or more nccl-tests runs. name labels
// errors (usually the file name). opt may be nil.
//
// Header lines are recognised with or without their '#'; lines that are not
// part of a table (NCCL INFO and WARN lines, launcher messages, shell
// prompts) are skipped, and Open MPI "[1,0]<stdout>:" and srun "0: " prefixes
// are removed first. A new test starts at a "# nccl-tests version" or
// "# Collective test starting" line, at an "# nThread" line, or at a column
// header or Rank line that follows rows. The binary's name is taken from
// those lines or from any line that names exactly one nccl-tests binary (a
// command line).
//
// Each test's collective comes from, in order: opt.Collective; the binary
// name; the table, whose redop column (none or a reduction), root column
// (-1 or a rank), count column (per rank for AllGather, ReduceScatter and
// AllToAll: size = count·type size·ranks) and busbw/algbw ratio
// (commmodel.Collective.BusFactor) must all fit. The ratio is bounded by
// interval arithmetic on the printed digits of every cell (see ratioBounds),
// so a table printed with two decimals still pins 2(n-1)/n for n in the
// hundreds. Its rank count comes from opt.Ranks; the "#  Rank" lines; the
// count column; or the ratio solved for n when only one n fits. Its node
// count comes from opt.Nodes or the distinct host names of the Rank lines.
// What cannot be told is left Unknown (Ranks 0), never guessed; an override
// or a name that the table contradicts is kept and reported as
// ErrInconsistent in Log.Problems.
//
// The error is non-nil, a *ParseError, when the input cannot be read, is
// empty, is not text, or yields no row; bad rows are skipped and listed in
// Log.Problems.
func ReadNCCLTests(r io.Reader, name string, opt *ReadOptions) (*Log, error) {
	b, err := readAll(r)
	if err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	return readNCCLTests(b, name, opt)
}

func readNCCLTests(b []byte, name string, opt *ReadOptions) (*Log, error) {
	if name == "" {
		name = "<input>"
	}
	if err := checkText(b); err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	p := &ncclParser{log: &Log{Name: name, Format: FormatNCCLTests}}
	if opt != nil {
		p.opt = *opt
	}
	eachLine(b, func(n int, line string) bool {
		p.line(n, line)
		return true
	})
	p.finish()
	if err := p.inferAll(); err != nil {
		return nil, err
	}
	if len(p.log.Tests) == 0 {
		return nil, noTable(name, p.log.Problems)
	}
	sortProblems(p.log.Problems)
	return p.log, nil
}

// noTable is the error for a file without a readable row.
func noTable(name string, problems []error) error {
	err := ErrNoTable
	if len(problems) > 0 {
		err = fmt.Errorf("%w (%d problems; first: %v)", ErrNoTable, len(problems), problems[0])
	}
	return &ParseError{File: name, Err: err}
}

// ncclParser is the state of ReadNCCLTests between lines.
type ncclParser struct {
	log     *Log
	opt     ReadOptions
	cur     *testState // the test being read, nil between tests
	pending string     // a binary stem named before its test started
	fields  []string   // scratch space for a row's fields
	title   string     // the placements the last title line named
	done    []*testState
}

// testState is a test being read and what its lines said about it.
type testState struct {
	t                        *Test
	lay                      *layout
	sawVersion, sawStart     bool // version and "Collective test starting" lines
	sawParams                bool // the "# nThread" line
	closed                   bool // its trailer was read
	rankLines                map[int]int
	hostSet, gpuSet          stringSet // the names in Hosts and gpus
	gpus                     []string
	ratio                    ratioBounds
	countRatio               countRatio
	reduces, rooted, rootCol bool // from the rows: redop not "none", root >= 0
	redopCol                 bool // the table has a redop column
	relax                    int  // evidence the inference drops (see fit)
}

func (p *ncclParser) problem(line, col int, format string, args ...any) {
	p.log.Problems = append(p.log.Problems, &ParseError{File: p.log.Name, Line: line, Column: col, Err: fmt.Errorf(format, args...)})
}

// start begins a new test at line n unless the current one can absorb the
// header line that prompted it (it has no rows and keep says so).
func (p *ncclParser) start(n int, keep func(*testState) bool) *testState {
	if c := p.cur; c != nil && len(c.t.Rows) == 0 && !c.closed && keep(c) {
		return c
	}
	p.finish()
	s := &testState{t: &Test{Line: n, OutOfBounds: -1}, rankLines: map[int]int{}, hostSet: stringSet{}, gpuSet: stringSet{}}
	if p.pending != "" {
		s.t.Op, s.t.Name = p.pending, p.pending+"_perf"
		p.pending = ""
	}
	p.cur = s
	return s
}

// finish ends the current test.
func (p *ncclParser) finish() {
	c := p.cur
	if c == nil {
		return
	}
	p.cur = nil
	if len(c.t.Rows) == 0 {
		if c.sawStart || c.sawParams || c.lay != nil {
			p.problem(c.t.Line, 0, "%w: test %s has no rows", ErrNoTable, orUnnamed(c.t.Name))
		}
		return
	}
	p.done = append(p.done, c)
}

func orUnnamed(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

var (
	// "#  Rank  0 Group  0 Pid  34001 on  vm-host40 device  0 [0x33] NVIDIA H20-3e";
	// before 2020 there was no Group.
	rankLineRE = regexp.MustCompile(`^Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+device\s+\d+\s*(?:\[[^\]]*\])?\s*(.*)$`)
	versionRE  = regexp.MustCompile(`^[a-z]ccl-tests version\s+(\S+)`)
)

// line handles one line of the file.
func (p *ncclParser) line(n int, raw string) {
	s := strings.TrimSpace(stripLaunchPrefix(raw))
	if s == "" {
		return
	}
	if isDigit(s[0]) && p.row(n, s) {
		return
	}
	body := strings.TrimSpace(strings.TrimLeft(s, "#"))
	if strings.Contains(body, "NCCL INFO") || strings.Contains(body, "NCCL WARN") {
		return
	}
	switch {
	case versionRE.MatchString(body):
		t := p.start(n, func(c *testState) bool { return !c.sawVersion && !c.sawStart && !c.sawParams })
		t.sawVersion = true
		t.t.Version = versionRE.FindStringSubmatch(body)[1]
	case strings.HasPrefix(body, "Collective test starting:"):
		t := p.start(n, func(c *testState) bool { return !c.sawStart && !c.sawParams })
		t.sawStart = true
		p.setName(t, strings.TrimSpace(strings.TrimPrefix(body, "Collective test starting:")))
	case strings.HasPrefix(body, "Collective test concluded:"):
		p.finish()
	case strings.HasPrefix(body, "nThread "):
		t := p.start(n, func(c *testState) bool { return !c.sawParams })
		t.sawParams = true
	case strings.HasPrefix(body, "Rank "):
		m := rankLineRE.FindStringSubmatch(body)
		if m == nil {
			return
		}
		t := p.start(n, func(*testState) bool { return true })
		rank, _ := strconv.Atoi(m[1])
		t.rankLines[rank]++
		t.hostSet.add(&t.t.Hosts, m[2])
		t.gpuSet.add(&t.gpus, strings.TrimSpace(m[3]))
	case strings.HasPrefix(body, "size ") || strings.HasPrefix(body, "bytes "):
		lay, ok := parseLayout(strings.Fields(body))
		if !ok {
			return
		}
		// A one-block table whose title line said only "in-place" (rccl-tests
		// run with out-of-place off) holds in-place times.
		lay.inPlace = len(lay.halves) == 1 && p.title == "in-place"
		p.title = ""
		t := p.start(n, func(*testState) bool { return true })
		t.lay = lay
		t.t.Columns = lay.names
	case strings.Contains(body, "out-of-place") || strings.HasPrefix(body, "in-place"):
		p.title = "both"
		if !strings.Contains(body, "out-of-place") {
			p.title = "in-place"
		}
	case strings.HasPrefix(body, "Out of bounds values"):
		if c := p.cur; c != nil {
			if v, err := strconv.Atoi(firstField(afterColon(body))); err == nil {
				c.t.OutOfBounds = v
			}
		}
	case strings.HasPrefix(body, "Avg bus bandwidth"):
		if c := p.cur; c != nil {
			if v, err := strconv.ParseFloat(firstField(afterColon(body)), 64); err == nil && v >= 0 && !math.IsInf(v, 0) {
				c.t.AvgBusBW = v * 1e9 // GB/s -> B/s
			}
			c.closed = true
		}
	default:
		p.mention(body)
	}
}

// setName records the binary a "Collective test" line names.
func (p *ncclParser) setName(t *testState, bin string) {
	stem, ok := binaryStem(bin)
	if !ok {
		t.t.Name = bin
		return
	}
	t.t.Name, t.t.Op = stem+"_perf", stem
}

// mention takes the binary name from a line that names exactly one (a
// command line, a comment) for the current test if it has neither rows nor
// a name yet, else for the next; a line naming several is no evidence.
func (p *ncclParser) mention(s string) {
	stems := binaryStems(s)
	if len(stems) != 1 {
		return
	}
	if c := p.cur; c != nil && len(c.t.Rows) == 0 && c.t.Name == "" {
		c.t.Op, c.t.Name = stems[0], stems[0]+"_perf"
		return
	}
	p.pending = stems[0]
}

func afterColon(s string) string {
	_, after, _ := strings.Cut(s, ":")
	return after
}

func firstField(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// stringSet remembers the strings added to lists, so long lists stay linear.
type stringSet map[string]bool

// add appends s to list unless it is empty or was added before.
func (set stringSet) add(list *[]string, s string) {
	if s == "" || set[s] {
		return
	}
	set[s] = true
	*list = append(*list, s)
}

func addUnique(list *[]string, s string) {
	if s == "" {
		return
	}
	for _, x := range *list {
		if x == s {
			return
		}
	}
	*list = append(*list, s)
}
