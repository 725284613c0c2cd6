package nccltests

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/inframethod/commlab/internal/parseerr"
)

// parser is the state of a Reader between lines.
type parser struct {
	name     string      // the file name of every ParseError
	opt      Options     // the overrides
	problems []error     // the problems so far, in the order they were met
	cur      *testState  // the test being read, nil between tests
	pending  string      // a binary stem named before its test started
	flags    launchFlags // the layout flags of the command line that named it
	named    int         // the line that named pending
	// jsonWhy says, where the input's first object reads as a run but for
	// a value of another kind than nccl-tests writes, which and where
	// ("1:54: nccl_version: string where a number goes"); "" otherwise.
	jsonWhy string
	// piece and pieceLine hold the start of a row that NCCL's debug lines
	// cut (glued), and the line it started on; "" for none.
	piece     string
	pieceLine int
	// abridged says a line before says the log was cut by its poster
	// (abridgedRE).
	abridged bool
	text     string   // the row text rowPiece returns
	fields   []string // scratch space for a row's fields
	starts   []int    // the byte offsets of fields in the line
	off      int      // the byte offset in its line of the text being parsed
	pieces   []piece  // where the text being parsed came from, when a tagJoiner joined it
	// joinedRow reports that the row being parsed was put together from
	// a piece on an earlier line (rowPiece): its fields' columns are of
	// no one line, and a problem names the row's first line whole.
	joinedRow bool
	// pieceJoined is joinedRow of the piece held (piece): a piece of
	// several lines.
	pieceJoined bool
	// wrapped reports that the piece held is a row's start whose last
	// fields a wrap put on the next line (rowPiece), not one NCCL's glued
	// debug lines cut.
	wrapped bool
	// wrapLine is the line that completed a wrapped row (rowPiece) being
	// parsed, 0 for a row of one line or one NCCL's debug lines cut.
	wrapLine     int
	tag          string       // the Open MPI tag of a joined text
	title        string       // the placements the last title line named
	done         []*testState // the tests that ended and were not yet returned
	rows         int          // the rows met so far, of every test, bad ones too
	kept         int          // of them, the rows read
	tooMany      int          // the line of the row past opt.MaxRows, 0 before it
	problemCount ProblemCount // the problems met, listed or past MaxProblems
	// debug holds the NCCL debug lines met after the rows of a test (or
	// before any test), for the next test; hasDebug says it holds some.
	debug    debugState
	hasDebug bool
	// fromRecords reports that the lines are those the tests printed for
	// the records of a JSON input (nccl-tests -J) or a CSV (rccl-tests
	// -Z csv): a problem names the record's line, and in JSON the column
	// of the results record being read (jsonCol) or none, since a column
	// of the printed line is of no line of the input. Their numbers are
	// printed with %f, trailing zeros and all.
	fromRecords bool
	jsonCol     int
	// hostLabels are the pdsh host labels (hostLabel) that lines read so
	// far carried before one of nccl-tests' comment lines: each is
	// stripped from every line it starts, at most maxHosts of them.
	hostLabels map[string]bool
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
	procs                    map[string]bool // the Rank lines' host and Pid pairs
	ratio                    ratioBounds
	countRatio               countRatio
	reduces, rooted, rootCol bool // from the rows: redop not "none", root >= 0
	redopCol                 bool // the table has a redop column
	blankRedop               bool // its rows leave the redop column blank
	check                    checkColumn
	rejoined                 rejoinedRows
	failed                   int        // rows left out for nccl-tests' failed check
	devices                  []Device   // the Rank lines
	debug                    debugState // the NCCL debug lines of its setup
	relax                    int        // evidence the inference drops (see fit)
	countFree                bool       // the op was inferred without the Rank lines' count (inferOp)
	// mentioned is the line of a command line or comment that named the
	// binary (mention), 0 where nccl-tests' own "Collective test
	// starting" line or none named it.
	mentioned int
	// ran holds what NCCL's TUNING lines among the test's calls say they
	// ran (tuningRE): each algorithm and protocol, at its first line, and
	// the distinct byte counts of the calls (at most maxTunedCalls).
	ranAlgo, ranProto map[string]int
	ranBytes          map[int64]bool
	noCheck           bool // the inference drops the #wrong columns (see fit)
	// json is what the JSON run it was read from says beside its lines
	// (NCCL's release, the environment), and csv what the CSV's run says
	// (its ranks and processes); nil for text.
	json *jsonExtra
	csv  *csvRun
	// maxBytes is the header's maxBytes, 0 where it gives none; endSize
	// and endLine are the size and line of the table's last row read, and
	// endCol its record's column in a JSON input.
	maxBytes, endSize int64
	endLine, endCol   int
	// grouped are the Rank lines that print their group, which
	// splitGroups weighs; split reports that they name several.
	grouped []groupedRank
	split   bool
}

// problem records a problem at line and column (0: the whole line).
func (p *parser) problem(line, col int, format string, args ...any) {
	if p.fromRecords {
		col = p.jsonCol
	}
	p.add(line, col, format, args...)
}

// rowProblem records a problem of row r, read before: at its line, and in
// a JSON input at its record's column (r.jsonCol, 0 in text).
func (p *parser) rowProblem(r Row, format string, args ...any) {
	p.add(r.Line, r.jsonCol, format, args...)
}

// add records a problem at line and col, as listed allows.
func (p *parser) add(line, col int, format string, args ...any) {
	if p.problemCount.Lists(line) {
		p.problems = append(p.problems, &ParseError{File: p.name, Line: line, Column: col, Err: fmt.Errorf(format, args...)})
	}
}

// addJSON records e, a problem readJSON met, as listed allows.
func (p *parser) addJSON(e error) {
	line := 0
	if pe, ok := e.(*ParseError); ok {
		line = pe.Line
	}
	if p.problemCount.Lists(line) {
		p.problems = append(p.problems, e)
	}
}

// MaxProblems bounds the problems a Reader lists: a damaged capture's
// lines are a few; thousands are no log nccl-tests printed.
const MaxProblems = 1000

// A ProblemCount bounds the problems a reader lists at MaxProblems: past
// them it only counts, noting the first one's line, so that a file of bad
// lines costs no more memory than MaxProblems do. The zero value counts
// none; a Reader and the data package's tidy CSV reader count with one.
type ProblemCount struct {
	listed, unlisted, first int
}

// Lists counts a problem at line and reports whether it is listed.
func (c *ProblemCount) Lists(line int) bool {
	if c.listed < MaxProblems {
		c.listed++
		return true
	}
	if c.unlisted++; c.unlisted == 1 {
		c.first = line
	}
	return false
}

// Unlisted is how many problems were counted past MaxProblems.
func (c *ProblemCount) Unlisted() int { return c.unlisted }

// More returns the problem that stands for those of file past
// MaxProblems, an ErrMoreProblems at the first one's line that counts
// them; nil where there were none.
func (c *ProblemCount) More(file string) error {
	if c.unlisted == 0 {
		return nil
	}
	return &ParseError{File: file, Line: c.first, Err: fmt.Errorf("%w: %d more, the first at this line, are not listed (the first %d are)", ErrMoreProblems, c.unlisted, MaxProblems)}
}

// where names row r's place in a message: "line N", or in a JSON input
// "N:C", its record's line and column.
func (p *parser) where(r Row) string {
	if r.jsonCol > 0 {
		return fmt.Sprintf("%d:%d", r.Line, r.jsonCol)
	}
	return fmt.Sprintf("line %d", r.Line)
}

// fieldProblem records a problem at field i of the row being parsed, which
// starts on line n. A row that a tagJoiner put together from pieces of
// several lines has the problem at the field's own line and column.
func (p *parser) fieldProblem(n, i int, format string, args ...any) {
	if p.joinedRow {
		if p.wrapLine > 0 {
			// Two damaged rows may have been joined as one wrapped row.
			format, args = format+" (the row is joined from lines %d and %d, as a row wrapped onto the next)", append(args, n, p.wrapLine)
		}
		p.problem(n, 0, format, args...)
		return
	}
	x := p.off + p.starts[i]
	col := x + 1
	for k := len(p.pieces) - 1; k >= 0; k-- {
		if pc := p.pieces[k]; pc.at <= x {
			n, col = pc.line, pc.off+x-pc.at+1
			break
		}
	}
	p.problem(n, col, format, args...)
}

// joinedLine handles a line that a tagJoiner put together.
func (p *parser) joinedLine(l joined) {
	p.pieces, p.tag = l.pieces, l.tag
	p.line(l.line, l.text)
	p.pieces, p.tag = nil, ""
}

// rejoinedRows counts the rows of a test that Open MPI tags had cut.
type rejoinedRows struct {
	n           int    // rows
	first, last int    // their lines
	later       int    // rows whose rest came on a later line
	tag         string // the tag that cut the first
}

// add counts the row being parsed, on line n, if it was put together from
// pieces.
func (r *rejoinedRows) add(p *parser, n int) {
	if len(p.pieces) < 2 {
		return
	}
	if r.n == 0 {
		r.first, r.tag = n, p.tag
	}
	r.n++
	r.last = n
	if p.pieces[len(p.pieces)-1].line != n {
		r.later++
	}
}

// gluedDebugRE finds an NCCL debug line glued to the piece of a row before
// it ("... sum -1mew0:64904:64904 [1] NCCL INFO AllReduce: ..."): the
// host, whose name starts with a letter, Pid and thread, and the device.
var gluedDebugRE = regexp.MustCompile(`[A-Za-z][\w.-]*:\d+:\d+ \[\d+\] NCCL (INFO|WARN) `)

// rowPiece reads line n, s, which starts with a digit, as a row or a piece
// of one. nccl-tests prints a row in pieces (its leading columns, then each
// placement's), and with NCCL_DEBUG_SUBSYS=COLL NCCL prints its debug lines
// between them, glued to the piece before: a piece is kept until the
// pieces after it fill the table's columns. A log pasted from a narrow
// terminal or a document wraps a row's last fields onto a line of their
// own: a line that starts a row (rowStart) with fewer fields than the
// table's is kept as a piece too, and joined with the next line only where
// that line fills exactly the fields it lacks and starts no row; else it
// is read as the row it is. It returns the line the row started on, with
// the row's text in p.text, and ok false where the line was taken as a
// piece (its glued debug line read as one).
func (p *parser) rowPiece(n int, s string) (start int, ok bool) {
	p.text, p.joinedRow, p.wrapLine = s, false, 0
	glued := gluedDebugRE.FindStringIndex(s)
	if glued != nil {
		if pre, msg, found := strings.Cut(s[glued[0]:], "NCCL INFO "); found {
			p.debugLine(n, pre, msg)
		}
		s = strings.TrimSpace(s[:glued[0]])
	}
	c := p.cur
	open := c != nil && c.lay != nil && !c.closed
	// wraps reports that line s, of fields f, starts a row whose last
	// fields a wrap put on the next line.
	wraps := func(f []string) bool { return glued == nil && open && len(f) < c.lay.width && rowStart(c.lay, f) }
	f := strings.Fields(s)
	if glued == nil && p.piece == "" && !wraps(f) {
		return n, true
	}
	if !open {
		return n, glued == nil
	}
	start = n
	if p.piece != "" {
		k := len(strings.Fields(p.piece)) + len(f)
		if len(f) >= c.lay.width || k > c.lay.width || p.wrapped && (k != c.lay.width || rowStart(c.lay, f)) {
			// A row of its own, or not what the piece lacks: the piece
			// was never completed, and this line does not complete it.
			wrapped := p.wrapped
			p.flushPiece()
			if wrapped && glued == nil && !wraps(f) {
				p.text = s
				return n, true
			}
		} else {
			if p.wrapped {
				p.wrapLine = n
			}
			s, start, p.joinedRow = p.piece+" "+s, p.pieceLine, true
		}
	}
	if len(strings.Fields(s)) < c.lay.width {
		p.piece, p.pieceLine, p.pieceJoined = s, start, p.joinedRow
		p.wrapped = glued == nil && start == n
		return start, false
	}
	p.piece, p.wrapped, p.text = "", false, s
	if start != n {
		p.off = 0
	}
	return start, true
}

// rowStart reports that f, the fields of a line of a table of layout lay,
// begin a row: a size and a count of digits and an nccl-tests data type
// (typeSize) where lay has those columns. A layout without a type column
// tells no row's start from its wrapped fields.
func rowStart(lay *layout, f []string) bool {
	switch {
	case lay.typ < 0 || lay.typ >= len(f) || typeSize(f[lay.typ]) == 0 || !allDigits(f[0]):
		return false
	case lay.count >= 0 && (lay.count >= len(f) || !allDigits(f[lay.count])):
		return false
	}
	return true
}

// wordSized reports that f, the fields of a line of a table of layout lay
// whose first field is no number, holds a row's other fields: as many as
// a row of lay has (rowLayout's counts), a count of digits and an
// nccl-tests data type (typeSize) where lay has those columns. An MPI
// launcher's "[host:pid] 13 more processes have sent help message
// help-mpi-btl-openib.txt / default subnet prefix" has a row's 13 fields
// and a number second, but no type.
func wordSized(lay *layout, f []string) bool {
	n := len(f)
	rowWidth := n == lay.width || lay.stamp > 0 && n == lay.width+lay.stamp || lay.redop >= 0 && n == lay.width-1 ||
		len(lay.halves) == 2 && n == lay.width-lay.halves[0].width
	switch {
	case !rowWidth || lay.typ < 0 || lay.typ >= n || typeSize(f[lay.typ]) == 0:
		return false
	case lay.count >= 0 && (lay.count >= n || !allDigits(f[lay.count])):
		return false
	}
	return true
}

// flushPiece reads a row piece that no piece completed as the row it is,
// so that its field count is reported at its line.
func (p *parser) flushPiece() {
	if p.piece == "" {
		return
	}
	s, n := p.piece, p.pieceLine
	p.piece, p.off, p.joinedRow, p.wrapped, p.wrapLine = "", 0, p.pieceJoined, false, 0
	p.row(n, s)
}

// start begins a new test at line n unless the current one can absorb the
// header line that prompted it (it has no rows and keep says so).
func (p *parser) start(n int, keep func(*testState) bool) *testState {
	if c := p.cur; c != nil && len(c.t.Rows) == 0 && !c.closed && keep(c) {
		return c
	}
	p.finish()
	s := &testState{t: &Test{Line: n, OutOfBounds: -1}, rankLines: map[int]int{}, hostSet: stringSet{}, gpuSet: stringSet{}, procs: map[string]bool{}}
	if p.pending != "" {
		s.t.Op, s.t.Name, s.mentioned = p.pending, p.pending+"_perf", p.named
		s.flags(p.flags)
		p.pending, p.flags, p.named = "", launchFlags{}, 0
	}
	if p.hasDebug {
		s.debug, p.debug, p.hasDebug = p.debug, debugState{}, false
	}
	p.cur = s
	return s
}

// debugLine reads line n, an NCCL debug line whose message is msg after
// pre, the text before "NCCL INFO " (its host, "" where pre does not name
// it), for the test being set up: the current one while it has no rows,
// else the next.
func (p *parser) debugLine(n int, pre, msg string) {
	if m := tuningRE.FindStringSubmatch(msg); m != nil {
		// A call of the test being read (a warm-up one before its first
		// row): what NCCL ran for it.
		if c := p.cur; c != nil && !c.closed {
			b, _ := strconv.ParseInt(m[1], 10, 64)
			c.ran(n, b, m[2], m[3])
		}
		return
	}
	d := p.debugOf()
	d.width = 0
	if k := debugWidthRE.FindStringIndex(pre); k != nil {
		d.width = len(pre) - k[0] + len("NCCL INFO ") + len(msg)
	}
	host, proc := debugHost(pre)
	d.proc = proc
	d.line(n, host, msg)
	d.width, d.proc = 0, ""
	for _, c := range d.dropped {
		p.problem(c.line, 0, "%w: %s %s: want %d to %d, as a host's NICs; what NCCL's debug line says of the NICs is left out",
			ErrNumber, c.what, parseerr.Excerpt(c.digits), c.least, MaxNICs-1+c.least)
	}
	d.dropped = nil
	for _, c := range d.damaged {
		p.problem(c.line, 0, "%w", c.err)
	}
	d.damaged = nil
}

// debugOf returns the debug state of the test being set up: the current
// one while it has no rows, else the next's.
func (p *parser) debugOf() *debugState {
	if c := p.cur; c != nil && len(c.t.Rows) == 0 && !c.closed {
		return &c.debug
	}
	p.hasDebug = true
	return &p.debug
}

// debugPrefixRE reads the prefix NCCL gives its debug lines, "gpu34:34088:34142
// [0] " (debug.cc: host up to its first dot, pid, thread, CUDA device),
// at the end of what comes before "NCCL INFO ".
var debugPrefixRE = regexp.MustCompile(`([^\s:\[\]]+):(\d+):\d+ \[\d+\] $`)

// debugWidthRE finds where NCCL's part of a debug line begins in the text
// before "NCCL INFO ": its prefix, after the timestamp that NCCL 2.26 on
// prints before it where told ("[2026-12-06 10:11:12] ", debug.cc).
var debugWidthRE = regexp.MustCompile(`(?:\[[^\[\]]*\] )?[^\s:\[\]]+:\d+:\d+ \[\d+\] $`)

// debugHost returns the host of the debug line whose text before "NCCL
// INFO " is pre, and its process, "host:pid"; "" where pre does not end
// in NCCL's prefix.
func debugHost(pre string) (host, proc string) {
	if m := debugPrefixRE.FindStringSubmatch(pre); m != nil {
		return m[1], m[1] + ":" + m[2]
	}
	return "", ""
}

// tuningRE reads NCCL's TUNING line for a call (NCCL 2.24 on,
// src/enqueue.cc): "AllReduce: 8388608 Bytes -> Algo RING proto SIMPLE
// channel{Lo..Hi}={0..23}".
var tuningRE = regexp.MustCompile(`^\w+: (\d+) Bytes -> Algo (\w+) proto (\w+)`)

// maxTunedCalls bounds the distinct call sizes kept of a test's TUNING
// lines: nccl-tests runs at most a few hundred sizes, and a damaged log's
// sizes cannot grow the set without end.
const maxTunedCalls = 4096

// ran records that a call of s of bytes ran algorithm algo with protocol
// proto, as NCCL's TUNING line n says.
func (s *testState) ran(n int, bytes int64, algo, proto string) {
	if s.ranAlgo == nil {
		s.ranAlgo, s.ranProto, s.ranBytes = map[string]int{}, map[string]int{}, map[int64]bool{}
	}
	if len(s.ranBytes) < maxTunedCalls {
		s.ranBytes[bytes] = true
	}
	if _, ok := s.ranAlgo[algo]; !ok {
		s.ranAlgo[algo] = n
	}
	if _, ok := s.ranProto[proto]; !ok {
		s.ranProto[proto] = n
	}
}

// endInput gives the debug lines after the last test's rows to that test.
func (p *parser) endInput() {
	if k := len(p.done); p.hasDebug && k > 0 {
		p.done[k-1].debug.merge(&p.debug)
		p.debug, p.hasDebug = debugState{}, false
	}
}

// finish ends the current test.
func (p *parser) finish() {
	p.flushPiece()
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
	if r := c.rejoined; r.n > 0 {
		later := ""
		if r.later > 0 {
			later = fmt.Sprintf(" (%d of them ending on a later line)", r.later)
		}
		what := fmt.Sprintf("%d rows (lines %d to %d) were", r.n, r.first, r.last)
		if r.n == 1 {
			what = fmt.Sprintf("1 row (line %d) was", r.first)
		}
		p.problem(r.first, 0, "%w: %s cut by Open MPI tags (%q inside the row)%s and put back together",
			ErrRejoined, what, r.tag+":", later)
	}
	p.checkRows(c)
	if c.failed >= 2 {
		// Wrong results mark a faulty run (an NCCL bug, a link's errors):
		// the rows it kept may be slow for the same reason.
		p.problem(c.t.Line, 0, "%w: %d rows of test %s failed it: the run returned wrong results, and its other rows may not time a healthy run (rerun it, or leave it out)",
			ErrFailed, c.failed, orUnnamed(c.t.Name))
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
	// before 2020 there was no Group, and posters elide "Pid N" and "on HOST"
	// at times.
	// jsonResultsRE and jsonRunRE find a run of nccl-tests' JSON output
	// (-J) on a line: its results list, and its config or command line.
	jsonResultsRE = regexp.MustCompile(`"results"\s*:\s*\[`)
	jsonRunRE     = regexp.MustCompile(`"(config|args)"\s*:\s*[{\[]`)
	rankLineRE    = regexp.MustCompile(`^Rank\s+(\d+)\s+(?:Group\s+(\d+)\s+)?(?:Pid\s+(\d+)\s+)?(?:on\s+(\S+)\s+)?device\s+(\d+)\s*(?:\[([^\]]*)\])?\s*(.*)$`)
	rankNoteRE    = regexp.MustCompile(`\s*\([^()]*\)\s*$`)
	versionRE     = regexp.MustCompile(`^[a-z]ccl-tests version\s+(\S+)`)
	// The run's parameters: "# nThread 1 nGpus 8 minBytes 8 maxBytes
	// 134217728 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1
	// validation: 1 graph: 0"; "agg iters" and "graph" since 2022.
	paramsRE = regexp.MustCompile(`^nThread\s+(\d+)\s+nGpus\s+(\d+)`)
	aggRE    = regexp.MustCompile(`\bagg iters:\s*(\d+)`)
	graphRE  = regexp.MustCompile(`\bgraph:\s*(\d+)`)
	maxRE    = regexp.MustCompile(`\bmaxBytes\s+(\d+)`)
	// A comment or Source line that says the log was cut by whoever
	// posted it.
	abridgedRE = regexp.MustCompile(`(?i)abridg|elided|excerpt|truncat|omitted|trimmed|snip|\bcut\b|\bcuts\b|\.\.\.|…`)
)

// maxLine bounds the lines the parser reads: NCCL's longest, a ring's
// ranks listed on one line, is under 600 KB for 100,000 ranks; a longer line
// is damage (a paste's lost line ends, a binary tail) that the regular
// expressions of Rank and NCCL INFO lines would take seconds to scan.
const maxLine = 1 << 20

// longLine reports whether raw, line n, runs past maxLine, with a problem.
func (p *parser) longLine(n int, raw string) bool {
	if len(raw) <= maxLine {
		return false
	}
	head := parseerr.Prefix(strings.TrimLeftFunc(raw, unicode.IsSpace), parseerr.MaxQuote)
	p.problem(n, 0, "%w: %q... runs past %d bytes, more than any line nccl-tests or NCCL prints; it is left unread", ErrLongLine, head, maxLine)
	return true
}

// line handles line n of the input.
func (p *parser) line(n int, raw string) {
	if p.longLine(n, raw) {
		return
	}
	if i := strings.IndexByte(raw, 0); i >= 0 {
		p.problem(n, i+1, "%w: the line is left unread (NCCL 2.17 to 2.19 write a NUL and the bytes past their debug buffer where a debug line overflows it)", ErrNULLine)
		return
	}
	s := strings.TrimLeftFunc(stripLaunchPrefix(raw), unicode.IsSpace)
	// pdsh labels every line with its host ("node00: # nThread 1 ..."):
	// a label before one of nccl-tests' comment lines is a host's, and
	// from there it is stripped wherever it starts a line; a line's own
	// words before a colon ("Error: 2 GPUs ...") are no label.
	if k := hostLabel(s); k > 0 {
		label := s[:k]
		if !p.hostLabels[label] && strings.HasPrefix(s[k:], "#") && len(p.hostLabels) < maxHosts {
			if p.hostLabels == nil {
				p.hostLabels = map[string]bool{}
			}
			p.hostLabels[label] = true
		}
		if p.hostLabels[label] {
			s = strings.TrimLeftFunc(stripLaunchPrefix(s[k:]), unicode.IsSpace)
		}
	}
	p.off = len(raw) - len(s)
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	if s == "" {
		return
	}
	if s[0] == '{' && jsonResultsRE.MatchString(s) && jsonRunRE.MatchString(s) {
		if p.jsonWhy != "" {
			p.problem(n, p.off+1, "%w: a run of nccl-tests -J but for a value of another kind than nccl-tests writes (at %s), which is left unread", ErrJSON, p.jsonWhy)
			p.jsonWhy = ""
			return
		}
		p.problem(n, p.off+1, "%w: the JSON that nccl-tests -J writes, inside a text log, is left unread: give it a file of its own", ErrJSON)
		return
	}
	if isDigit(s[0]) || p.wrapped && strings.HasPrefix(s, "N/A") {
		// A wrapped row's rest may start with an unchecked #wrong.
		if done, ok := p.rowPiece(n, s); !ok || p.row(done, p.text) {
			return
		}
	} else if p.piece != "" && !strings.Contains(s, "NCCL INFO") && !strings.Contains(s, "NCCL WARN") {
		p.flushPiece()
	}
	if c := p.cur; c != nil && c.lay != nil && !c.closed && !isDigit(s[0]) && !strings.Contains(s, "NCCL ") {
		// A row whose size has a sign ("-268435456"), which nccl-tests
		// never prints, or is a word ("inf", "NaN") with a row's other
		// fields: the size is damaged and the row cannot be read. NCCL's
		// debug lines, which run between a table's rows, are no rows.
		if f := strings.Fields(s); (s[0] == '-' || s[0] == '+') && len(s) > 1 && isDigit(s[1]) || wordSized(c.lay, f) {
			if !p.count(n) {
				p.problem(n, p.off+1, "%w: size %q; the row is left out", ErrNumber, parseerr.Excerpt(f[0]))
			}
			return
		}
	}
	body := strings.TrimSpace(strings.TrimLeft(s, "#"))
	if !p.abridged && saysAbridged(s, body, n <= 64 && p.rows == 0) {
		p.abridged = true
	}
	if pre, msg, ok := strings.Cut(body, "NCCL INFO "); ok {
		p.debugLine(n, pre, msg)
		return
	}
	if strings.HasPrefix(body, "NCCL version ") || strings.HasPrefix(body, "RCCL version") || strings.HasPrefix(body, rcclTestsVersion) {
		p.debugLine(n, "", body) // rank 0's bare VERSION line (NCCL before 2.9), rccl-tests' RCCL and own versions
		return
	}
	if _, msg, ok := strings.Cut(body, "NCCL WARN "); ok {
		p.debugOf().warn(n, msg)
		return
	}
	if strings.Contains(body, "NCCL INFO") || strings.Contains(body, "NCCL WARN") {
		return
	}
	switch {
	case versionRE.MatchString(body):
		t := p.start(n, func(c *testState) bool { return !c.sawVersion && !c.sawStart && !c.sawParams })
		t.sawVersion = true
		t.t.Version = versionRE.FindStringSubmatch(body)[1]
		if m := libraryRE.FindStringSubmatch(body); m != nil {
			t.debug.e.Library.set(m[1], n)
		}
		if strings.HasPrefix(body, "rccl-tests") {
			t.debug.e.RCCL.set(true, n)
		}
	case strings.HasPrefix(body, "Collective test starting:"):
		t := p.start(n, func(c *testState) bool { return !c.sawStart && !c.sawParams })
		t.sawStart = true
		p.setName(n, t, strings.TrimSpace(strings.TrimPrefix(body, "Collective test starting:")))
	case strings.HasPrefix(body, "Collective test concluded:"):
		p.finish()
	case strings.HasPrefix(body, "nThread "):
		t := p.start(n, func(c *testState) bool { return !c.sawParams })
		t.sawParams = true
		t.params(body)
	case strings.HasPrefix(body, "Rank "):
		m := rankLineRE.FindStringSubmatch(body)
		if m == nil {
			return
		}
		rank, err := strconv.Atoi(m[1])
		if err != nil || rank >= maxRanks {
			p.problem(n, 0, "%w: rank %.20s, beyond the %d ranks of any run: the Rank line is left unread", ErrNumber, m[1], maxRanks)
			return
		}
		t := p.start(n, func(*testState) bool { return true })
		// A poster's note after the name ("NVIDIA B200 (node 0)") is no
		// part of it.
		gpu := strings.TrimSpace(rankNoteRE.ReplaceAllString(m[7], ""))
		d := Device{Rank: rank, Pid: count(m[3]), Host: m[4], Device: count(m[5]), BusID: m[6], GPU: gpu, Line: n}
		if m[2] != "" {
			// Its group is weighed once every Rank line is read
			// (splitGroups).
			t.grouped = append(t.grouped, groupedRank{d, count(m[2]), m[3] != ""})
			return
		}
		t.addRank(d, m[3] != "")
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
		lay.header = true
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
				if v > 0 {
					p.problem(n, 0, "%w: %d out-of-bounds values in test %s (FAILED); rows with a #wrong count are left out, others may be wrong too",
						ErrFailed, v, orUnnamed(c.t.Name))
				}
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
		p.mention(n, body)
	}
}

// saysAbridged reports whether line s, body without its '#', says the log
// was cut by whoever posted it: a Source line, or a comment of the
// preamble (the first 64 lines, before any row), that says so (abridgedRE), or a line of its own that marks a
// cut ("...", "--(snip)--", "# <smaller message sizes truncated>"). Other
// lines are not matched against the expression: a log's chatter may be
// millions of lines.
func saysAbridged(s, body string, preamble bool) bool {
	if strings.HasPrefix(body, "Source:") || preamble && s[0] == '#' {
		return abridgedRE.MatchString(body)
	}
	return !strings.Contains(s, "CCL ") && (strings.Contains(s, "...") || strings.Contains(s, "…") || strings.Contains(s, "snip") || strings.Contains(s, "truncated"))
}

// params reads the run's parameters from the "nThread" line body: threads,
// GPUs per thread, agg iters and graph launches. A count too large for an
// int is left 0.
func (s *testState) params(body string) {
	if m := paramsRE.FindStringSubmatch(body); m != nil {
		s.t.Threads, s.t.GPUsPerThread = count(m[1]), count(m[2])
	}
	if m := aggRE.FindStringSubmatch(body); m != nil {
		s.t.AggIters = count(m[1])
	}
	if m := graphRE.FindStringSubmatch(body); m != nil {
		s.t.Graphs = count(m[1])
	}
	if m := maxRE.FindStringSubmatch(body); m != nil {
		s.maxBytes, _ = strconv.ParseInt(m[1], 10, 64)
	}
}

// A groupedRank is a Rank line that prints its group, with whether it
// prints its process's Pid.
type groupedRank struct {
	d      Device
	group  int
	hasPid bool
}

// addRank records the Rank line of device d, whose line prints its
// process's Pid where hasPid.
func (s *testState) addRank(d Device, hasPid bool) {
	s.rankLines[d.Rank]++
	if hasPid {
		s.procs[d.Host+" "+strconv.Itoa(d.Pid)] = true
	}
	if d.Host != "" { // a poster may elide "on HOST": the GPU stays, the hosts are unknown
		s.hostSet.add(&s.t.Hosts, d.Host)
	}
	s.gpuSet.add(&s.gpus, d.GPU)
	s.devices = append(s.devices, d)
}

// count reads a string of digits, 0 when it is too large for an int.
func count(digits string) int {
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0
	}
	return n
}

// setName records the binary a "Collective test" line, line n, names. A
// binary of nccl-tests that none of ops is (alltoallv_perf) is named with a
// warning: the test's collective then comes from its table, which may take
// it for one it resembles.
func (p *parser) setName(n int, t *testState, bin string) {
	stem, ok := binaryStem(bin)
	if !ok {
		t.t.Name = bin
		if strings.HasSuffix(strings.TrimSuffix(bin, "_mpi"), "_perf") {
			p.problem(n, 0, "%w: %.40s is no binary of nccl-tests that commlab reads: the collective comes from the table, which may take it for another", ErrAmbiguous, bin)
		}
		return
	}
	t.t.Name, t.t.Op, t.mentioned = stem+"_perf", stem, 0
}

// mention takes the binary name from line n when it names exactly one (a
// command line, a comment) for the current test if it has neither rows nor
// a name yet, else for the next; a line naming several is no evidence. A
// name so taken yields to a table that contradicts it (inferOp).
func (p *parser) mention(n int, s string) {
	stems := binaryStems(s)
	if len(stems) != 1 {
		return
	}
	flags := launchFlagsOf(s)
	if c := p.cur; c != nil && len(c.t.Rows) == 0 && c.t.Name == "" {
		c.t.Op, c.t.Name, c.mentioned = stems[0], stems[0]+"_perf", n
		c.flags(flags)
		return
	}
	p.pending, p.flags, p.named = stems[0], flags, n
}

// launchFlags are the layout flags of an nccl-tests command line: -t
// (--nthreads), -g (--ngpus) and -G (--cudagraph), 0 where it gives none.
type launchFlags struct{ threads, gpus, graphs int }

// launchFlagsOf reads the layout flags of command line s after its binary
// (srun's and mpirun's own flags come before it: srun -t is a time limit),
// in any of the forms getopt_long takes ("-g 2", "-g2", "--ngpus 2",
// "--ngpus=2").
func launchFlagsOf(s string) launchFlags {
	var f launchFlags
	tok := strings.Fields(s)
	bin := slices.IndexFunc(tok, func(t string) bool { return len(binaryStems(t)) == 1 })
	for i := bin + 1; bin >= 0 && i < len(tok); i++ {
		t := tok[i]
		var dst *int
		name, val, eq := strings.Cut(t, "=")
		switch {
		case name == "-t" || name == "--nthreads":
			dst = &f.threads
		case name == "-g" || name == "--ngpus":
			dst = &f.gpus
		case name == "-G" || name == "--cudagraph":
			dst = &f.graphs
		case len(t) > 2 && (t[:2] == "-t" || t[:2] == "-g" || t[:2] == "-G") && allDigits(t[2:]):
			dst, val, eq = map[byte]*int{'t': &f.threads, 'g': &f.gpus, 'G': &f.graphs}[t[1]], t[2:], true
		default:
			continue
		}
		if !eq && i+1 < len(tok) {
			val = tok[i+1]
		}
		if allDigits(val) {
			*dst = count(val)
		}
	}
	return f
}

// flags takes a command line's layout flags where the test has no header
// line ("# nThread"), which states them and outranks them; of -t and -g,
// the one the line leaves out is nccl-tests' default, 1.
func (s *testState) flags(f launchFlags) {
	if s.sawParams {
		return
	}
	if f.threads > 0 || f.gpus > 0 {
		f.threads, f.gpus = max(f.threads, 1), max(f.gpus, 1)
	}
	if f.threads > 0 {
		s.t.Threads = f.threads
	}
	if f.gpus > 0 {
		s.t.GPUsPerThread = f.gpus
	}
	if f.graphs > 0 {
		s.t.Graphs = f.graphs
	}
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
