package topo

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/parseerr"
	"github.com/inframethod/commlab/internal/words"
)

// maxInput bounds the text Parse reads; real outputs are a few kilobytes.
const maxInput = 16 << 20

// maxDevices bounds the matrix's columns (real servers have a few dozen), so
// that the n×n matrix stays small whatever the input. The GPUs, and the
// NICs, are bounded further by nccl.MaxTopoNodes (tooMany).
const maxDevices = 1024

// tooMany returns an ErrTooLarge at the first GPU column, or NIC column,
// of the header on the 1-based line past nccl.MaxTopoNodes, else nil:
// NCCL builds no topology of more devices of one kind, and nvidia-smi topo
// -m shows one host's.
func (p *parser) tooMany(line int, columns []field) error {
	gpus, nics := 0, 0
	for _, c := range columns {
		kind, n := "NIC", &nics
		if gpuName.MatchString(c.text) {
			kind, n = "GPU", &gpus
		}
		if *n++; *n > nccl.MaxTopoNodes {
			return p.errAt(line, c.off, fmt.Errorf("%s is %s column %d of the header; NCCL's topology holds at most %d %ss (NCCL_TOPO_MAX_NODES): %w",
				parseerr.Excerpt(c.text), kind, *n, nccl.MaxTopoNodes, kind, ErrTooLarge))
		}
	}
	return nil
}

// field is one whitespace-separated word of a line and where it starts.
type field struct {
	text string
	off  int    // byte offset of text in the line
	sep  string // the white space before text
}

// splitFields splits a line at runs of white space (spaces, tabs, and other
// Unicode spaces such as the no-break spaces web pages paste in). Each field
// records the white space before it.
func splitFields(line string) []field {
	n, in := 0, false
	for _, r := range line {
		sp := unicode.IsSpace(r)
		if !sp && !in {
			n++
		}
		in = !sp
	}
	out := make([]field, 0, n)
	start, sepStart := -1, 0
	for i, r := range line {
		if unicode.IsSpace(r) {
			if start >= 0 {
				out = append(out, field{line[start:i], start, line[sepStart:start]})
				start = -1
				sepStart = i
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, field{line[start:], start, line[sepStart:start]})
	}
	return out
}

// attribute columns nvidia-smi prints after the matrix, by normalised name.
const (
	attrUnknown = iota
	attrCPU
	attrNUMA
	attrGPUNUMA
)

var attrNames = []struct {
	words []string
	kind  int
}{
	// Longest first, so "GPU NUMA ID" is not read as "NUMA ...".
	{[]string{"GPU", "NUMA", "ID"}, attrGPUNUMA},
	{[]string{"GPU", "NUMA"}, attrGPUNUMA},
	{[]string{"CPU", "AFFINITY"}, attrCPU},
	{[]string{"NUMA", "AFFINITY"}, attrNUMA},
	// Shortened headings of re-spaced pastes ("CPU Affinity   NUMA  GPU NUMA").
	{[]string{"NUMA"}, attrNUMA},
}

var (
	nicLabel   = regexp.MustCompile(`^NIC[0-9]+$`)
	ansiEscape = regexp.MustCompile("^\x1b\\[[0-9;?]*[ -/]*[@-~]") // at the start of a string
	// "  NIC0: mlx5_0": the device is the rest of the line, one word in
	// every capture (a blank in it is damage, ErrLegendDevice).
	legendEntry = regexp.MustCompile(`^\s*(NIC[0-9]+)\s*:\s*(\S(?:.*\S)?)\s*$`)
)

// Parse reads the output of `nvidia-smi topo -m` as real servers print it:
// GPU-only matrices and matrices with NIC columns (NIC0... with a NIC Legend,
// or device names such as mlx5_0 as column heads, as older drivers print
// them); CPU Affinity, NUMA Affinity and GPU NUMA ID columns, each optional;
// N/A anywhere a value may be missing; tabs or spaces; CRLF line endings;
// trailing blanks; ANSI escapes (a terminal's underlined header); rows
// without the attribute columns (NIC rows have none); empty tab-separated
// fields (an empty CPU Affinity); ruled lines under the header and the short
// headings "NUMA" and "GPU NUMA" of re-spaced pastes; words that a paste ran
// together ("NIC7NIC8", "SYSSYS"), split into the row labels or path cells
// they are made of. Lines before the matrix (a shell prompt, the command,
// comments) and after it (the legend) are skipped; NIC Legend entries
// ("NIC0: mlx5_0") name the NICs' devices.
//
// A cell the output leaves out (in a short row, a NIC's row missing
// altogether, or printed N/A) is taken from the transposed cell; a pair that
// is missing both ways is Unknown. Where the NUMA Affinity column is absent or N/A, a device's NUMA
// node is inferred, in order: from another device with the same CPU affinity;
// from the CPU affinity alone when no device states a node and the distinct
// affinity lists are disjoint (numbered 0, 1, ... by their lowest CPU,
// Linux's usual numbering); and from PCIe paths that stay within one NUMA
// node (PIX, PXB, PHB, NODE) to devices whose node is known. NICs get their
// node that way, since nvidia-smi prints no affinity for them.
//
// nvidia-smi prints one cell per device column in every row, and a symmetric
// matrix (as every capture in testdata/real shows). Three kinds of damage to
// that are read past and returned as problems, sorted by line and column
// (as are a second matrix, ErrSecondMatrix, at its header: two captures in
// one file, of which the first and the legend before the second are read;
// and the first NUMA Affinity of several nodes, ErrNUMASpan, at its field):
//
//   - a row with fewer cells than the header has device columns (ErrShortRow,
//     about the whole line): its cells fill the first columns and the rest
//     are taken from the transposed cells;
//
//   - a pair whose two cells disagree, neither N/A (ErrAsymmetric, at the
//     later cell, its message naming the other's line): the pair takes the
//     farther of the two paths (Path.Compare), so that what rests on it
//     (bandwidth, GPUDirect RDMA) assumes no more than the worse reading.
//     The first maxAsymmetric pairs, by line and column, are a problem
//     each, and the rest one problem that counts them, at the first of them.
//
//   - a NIC column without its row (ErrMissingRow), or, when a NIC Legend
//     follows the matrix, a NIC column NIC0, NIC1, ... that it does not name
//     (ErrNoLegend), at the matrix's last row or the NIC Legend's first
//     line: what a capture cut short leaves out.
//
// A GPU column without its row (ErrMissingRow) is an error: a capture cut
// before the last GPU row would leave pairs of GPUs unknown, and the machine
// would read as another with a slower fabric. More GPUs, or NICs, than
// NCCL's topology holds (nccl.MaxTopoNodes) are an error (ErrTooLarge, at
// the header's first column past them). A row with more cells than
// device columns (ErrLongRow) is an error, as is
// every other malformed input: a *ParseError with the line and column and a
// sentinel cause, and then the topology and problems are nil. Errors and
// problems carry the file name when r has one (an *os.File's Name method).
func Parse(r io.Reader) (t *Topology, problems []*ParseError, err error) {
	name, data, err := readInput(r)
	if err != nil {
		return nil, nil, err
	}
	return parseBytes(name, data)
}

// readInput reads r whole, up to maxInput bytes (ErrTooLarge beyond), with
// its file name when r has one (an *os.File's Name method).
func readInput(r io.Reader) (name string, data []byte, err error) {
	if n, ok := r.(interface{ Name() string }); ok {
		name = n.Name()
	}
	data, err = io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return name, nil, &ParseError{File: name, Err: err}
	}
	if len(data) > maxInput {
		return name, nil, &ParseError{File: name, Err: ErrTooLarge}
	}
	return name, data, nil
}

// ParseString is Parse on a string; errors and problems carry no file name.
func ParseString(s string) (*Topology, []*ParseError, error) { return Parse(strings.NewReader(s)) }

// ParseFile is Parse on the named file; errors and problems carry name.
func ParseFile(name string) (*Topology, []*ParseError, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return Parse(f)
}

// shift records that from byte at of a line as the parser reads it on, the
// input line has by more bytes before the same point: a byte-order mark, ANSI
// escapes and invalid UTF-8 are cleaned from the text the parser reads, and a
// ParseError's Column counts the input's bytes.
type shift struct{ at, by int }

// splitLines splits text at LF, CRLF or lone CR and cleans each line for the
// parser (cleanLine), dropping a UTF-8 byte-order mark. shifts holds the
// shifts of the lines that cleaning changed, by line index.
func splitLines(data []byte) (lines []string, shifts map[int][]shift) {
	s := string(data)
	bom := 0
	if strings.HasPrefix(s, "\ufeff") {
		s, bom = s[len("\ufeff"):], len("\ufeff")
	}
	if strings.Contains(s, "\r") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
	}
	lines = strings.Split(s, "\n")
	for i, l := range lines {
		by := 0
		if i == 0 {
			by = bom
		}
		text, sh := cleanLine(l, by)
		if sh != nil {
			lines[i] = text
			if shifts == nil {
				shifts = map[int][]shift{}
			}
			shifts[i] = sh
		}
	}
	return lines, shifts
}

// cleanLine returns line with ANSI escapes (a terminal's underlined header)
// removed and each run of invalid UTF-8 replaced by U+FFFD, and the shifts
// that map the result's byte offsets back to line's, starting from by bytes
// already dropped before it; shifts is nil when nothing moved.
func cleanLine(line string, by int) (string, []shift) {
	var sh []shift
	if by != 0 {
		sh = append(sh, shift{0, by})
	}
	if utf8.ValidString(line) && strings.IndexByte(line, 0x1b) < 0 {
		return line, sh
	}
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] == 0x1b {
			if m := ansiEscape.FindStringIndex(line[i:]); m != nil {
				i += m[1]
				by += m[1]
				sh = append(sh, shift{b.Len(), by})
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(line[i:])
		if r == utf8.RuneError && n == 1 {
			k := i + 1
			for k < len(line) {
				if r, n := utf8.DecodeRuneInString(line[k:]); r != utf8.RuneError || n != 1 {
					break
				}
				k++
			}
			b.WriteString("\uFFFD")
			by += k - i - len("\uFFFD")
			sh = append(sh, shift{b.Len(), by})
			i = k
			continue
		}
		b.WriteString(line[i : i+n])
		i += n
	}
	return b.String(), sh
}

// isComment reports whether a line's first field starts a comment.
func isComment(fs []field) bool { return len(fs) > 0 && strings.HasPrefix(fs[0].text, "#") }

// isPathToken reports whether s parses as a matrix cell.
func isPathToken(s string) bool { _, err := ParsePath(s); return err == nil }

// isKnownPath reports whether s parses as a matrix cell other than N/A.
func isKnownPath(s string) bool { p, err := ParsePath(s); return err == nil && p.Class != Unknown }

// isKnownCell is isKnownPath without the cost of ParsePath's error, for the
// fields after a row's cells, which are usually attribute values.
func isKnownCell(s string) bool { return isPathWord(s) && !strings.EqualFold(s, "N/A") }

// looksLikeRow reports whether a line has the shape of a matrix row: a label
// and a path cell after it.
func looksLikeRow(fs []field) bool {
	return len(fs) >= 2 && !isComment(fs) && !strings.ContainsAny(fs[0].text, ":=") && isPathToken(fs[1].text)
}

// isHeader reports whether a line can be the matrix header: it starts with a
// GPU column (GPU0..., or GPU columns run together as in "GPU0GPU1...") and
// the next word, if any, is not a path cell.
func isHeader(fs []field) bool {
	return len(fs) >= 1 && (gpuName.MatchString(fs[0].text) || gluedGPUs.MatchString(fs[0].text)) &&
		(len(fs) == 1 || !isPathToken(fs[1].text))
}

// isRule reports whether a line is a ruled separator ("-----", "|====|") that
// re-formatted pastes put under the header.
func isRule(line string) bool {
	line = strings.TrimSpace(line)
	return line != "" && strings.Trim(line, "-=+|_~") == ""
}

// rowLine is one matrix row as read.
type rowLine struct {
	line   int
	fields []field
}

type parser struct {
	name     string // file name for ParseErrors
	lines    []string
	shifts   map[int][]shift // byte shifts of cleaned lines (splitLines)
	split    [][]field       // fields of each line, filled by fieldsOf
	columns  []field         // device column heads
	gpu      []bool          // whether each device column is a GPU's (devices)
	attrs    []int           // attribute column kinds, in order
	rows     []rowLine
	head     int // index of the header line
	end      int // index of the first line after the matrix
	after    int // index of a second matrix's header, else len(lines): the legends end there
	problems []*ParseError
	asym     asymmetries // the asymmetric pairs, problems once folded
	// spanNoted reports that a NUMA Affinity of several nodes has had its
	// problem: it is said once a capture.
	spanNoted bool
}

func parseBytes(name string, data []byte) (*Topology, []*ParseError, error) {
	lines, shifts := splitLines(data)
	p := &parser{name: name, lines: lines, shifts: shifts}
	err := p.findMatrix()
	var t *Topology
	if err == nil {
		t, err = p.build()
	}
	if err != nil {
		if i := rocmLine(lines); i >= 0 {
			return nil, nil, p.errLine(i+1, ErrROCm)
		}
		if line, off := rocmJSON(lines); line > 0 {
			return nil, nil, p.errAt(line, off, ErrROCmJSON)
		}
		return nil, nil, err
	}
	return t, p.sorted(), nil
}

// sorted returns the problems, the asymmetric pairs' folded among them
// (asymmetries.problems), sorted by line and column.
func (p *parser) sorted() []*ParseError {
	p.problems = append(p.problems, p.asym.problems()...)
	slices.SortStableFunc(p.problems, func(a, b *ParseError) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	return p.problems
}

// maxAsymmetric is how many asymmetric pairs are a problem each; the rest
// are counted in one. A damaged capture shows a few; one whose every pair
// disagrees (a matrix edited by hand, half of it another machine's) would
// otherwise be a problem a pair, 204,480 of them at 640 GPUs.
const maxAsymmetric = 10

// asymmetries collects the asymmetric pairs of a capture in bounded
// memory: the first maxAsymmetric+1 by line and column, how many there
// are and the last line of one.
type asymmetries struct {
	first []asymmetry
	n     int
	last  int
}

// asymmetry is one asymmetric pair: where, and what its problem says.
type asymmetry struct {
	at  *ParseError
	msg string
}

// noteAsymmetric counts an asymmetric pair whose later cell is at byte off of
// the 1-based line, and keeps it with its message msg() where it is among
// the first maxAsymmetric+1; msg is called only then.
func (p *parser) noteAsymmetric(line, off int, msg func() string) {
	a := &p.asym
	a.n++
	a.last = max(a.last, line)
	col := p.column(line, off)
	before := func(k int) bool { at := a.first[k].at; return line < at.Line || line == at.Line && col < at.Column }
	k := len(a.first)
	if k == maxAsymmetric+1 && !before(k-1) {
		return
	}
	for k > 0 && before(k-1) {
		k--
	}
	a.first = slices.Insert(a.first, k, asymmetry{&ParseError{File: p.name, Line: line, Column: col}, msg()})
	if len(a.first) > maxAsymmetric+1 {
		a.first = a.first[:maxAsymmetric+1]
	}
}

// problems returns the first maxAsymmetric pairs, a problem each, and in
// place of the rest one problem at the first of them that counts them.
func (a *asymmetries) problems() []*ParseError {
	var out []*ParseError
	for k, s := range a.first {
		switch {
		case k < maxAsymmetric:
			s.at.Err = fmt.Errorf("%s: %w", s.msg, ErrAsymmetric)
		default:
			s.at.Err = fmt.Errorf("%s; so are %d more pairs to line %d (%d asymmetric pairs in all, the first %d reported one by one): %w",
				s.msg, a.n-maxAsymmetric-1, a.last, a.n, maxAsymmetric, ErrAsymmetric)
		}
		out = append(out, s.at)
	}
	return out
}

// rocmMarks are the titles of AMD's topology tools: rocm-smi --showtopo's
// banner and tables, and amd-smi topology's tables.
var rocmMarks = []string{"ROCm System Management Interface", "Weight between two GPUs",
	"Link Type between two GPUs", "LINK TYPE TABLE", "WEIGHT TABLE", "HOPS TABLE"}

// rocmLine returns the index of the first line that marks the text as an
// AMD topology tool's, or -1.
func rocmLine(lines []string) int {
	for i, l := range lines {
		for _, m := range rocmMarks {
			if strings.Contains(l, m) {
				return i
			}
		}
	}
	return -1
}

// errAt returns a ParseError at byte off of the 1-based line.
func (p *parser) errAt(line, off int, err error) *ParseError {
	return &ParseError{File: p.name, Line: line, Column: p.column(line, off), Err: err}
}

// column returns the 1-based column in the input of byte off of the
// 1-based line as the parser reads it.
func (p *parser) column(line, off int) int {
	col := off + 1
	for _, s := range p.shifts[line-1] {
		if s.at <= off {
			col = off + 1 + s.by
		}
	}
	return col
}

// errLine returns a ParseError about the 1-based line as a whole.
func (p *parser) errLine(line int, err error) *ParseError {
	return &ParseError{File: p.name, Line: line, Err: err}
}

// fieldsOf returns the fields of line i, splitting each line once.
func (p *parser) fieldsOf(i int) []field {
	if p.split == nil {
		p.split = make([][]field, len(p.lines))
	}
	if p.split[i] == nil {
		p.split[i] = splitFields(p.lines[i])
	}
	return p.split[i]
}

// findMatrix locates the header and the rows below it.
func (p *parser) findMatrix() error {
	h := -1
	for i := range p.lines {
		fs := p.fieldsOf(i)
		if isComment(fs) {
			continue
		}
		if isHeader(fs) {
			h = i
			break
		}
		if looksLikeRow(fs) {
			return p.errAt(i+1, fs[0].off, ErrNoHeader)
		}
	}
	if h < 0 {
		return &ParseError{File: p.name, Err: ErrNoMatrix}
	}
	p.head = h
	head := p.fieldsOf(h)

	// The rows: lines after the header whose label is a column head or that
	// look like rows, blank lines allowed in between.
	heads := map[string]bool{}
	for _, f := range head {
		heads[f.text] = true
	}
	p.end = len(p.lines)
	for i := h + 1; i < len(p.lines); i++ {
		fs := p.fieldsOf(i)
		if len(fs) == 0 || isRule(p.lines[i]) {
			continue
		}
		if isComment(fs) || !(heads[fs[0].text] || looksLikeRow(fs)) {
			p.end = i
			break
		}
		p.rows = append(p.rows, rowLine{i + 1, fs})
	}
	if len(p.rows) == 0 {
		return p.errLine(h+1, ErrNoMatrix)
	}
	p.after = p.secondMatrix()

	// Device columns: the leading header words that are GPU/NIC labels or
	// label a row; the rest are attribute columns.
	labels := map[string]bool{}
	for _, r := range p.rows {
		labels[r.fields[0].text] = true
	}
	head = splitGluedHeader(head, labels)
	n := 0
	for n < len(head) && (gpuName.MatchString(head[n].text) || nicLabel.MatchString(head[n].text) || labels[head[n].text]) {
		n++
	}
	// A NIC column whose row was cut off (old headers name NICs mlx5_0...):
	// rows with more leading path cells than that extend the device columns,
	// up to the first attribute heading.
	for _, r := range p.rows {
		m := 0
		for m+1 < len(r.fields) && isKnownPath(r.fields[m+1].text) {
			m++
		}
		for n < m && n < len(head) && !attrStart(head[n].text) {
			n++
		}
	}
	if n > maxDevices {
		return p.errAt(h+1, head[maxDevices].off, ErrTooLarge)
	}
	if err := p.tooMany(h+1, head[:n]); err != nil {
		return err
	}
	p.columns = head[:n]
	p.attrs = attrColumns(head[n:])
	return nil
}

// secondMatrix returns the index of the header of a matrix after the one
// read, with its problem (ErrSecondMatrix), or len(p.lines) where there is
// none: two captures pasted into one file are two machines, or one twice,
// and only the first is read, its legend not replaced by the second's.
func (p *parser) secondMatrix() int {
	for i := p.end; i < len(p.lines); i++ {
		fs := p.fieldsOf(i)
		if isComment(fs) || !isHeader(fs) {
			continue
		}
		for j := i + 1; j < len(p.lines); j++ {
			next := p.fieldsOf(j)
			if len(next) == 0 || isRule(p.lines[j]) {
				continue
			}
			if looksLikeRow(next) {
				p.problems = append(p.problems, p.errLine(i+1, fmt.Errorf(
					"the header of another matrix, after the one of lines %d to %d (two captures in one file?): only the first is read, with the legend before this line: %w",
					p.head+1, p.lastRowLine(), ErrSecondMatrix)))
				return i
			}
			break
		}
	}
	return len(p.lines)
}

// attrColumns names the attribute columns of a header. Words joined by one
// plain space belong to one column name ("CPU Affinity"); tabs or longer gaps
// separate columns. A group that is not a known name is split into known names
// where it can be (for headers whose spacing was collapsed); what is left is an
// unknown column, one per word.
func attrColumns(fs []field) []int {
	var groups [][]string
	for i, f := range fs {
		if i == 0 || f.sep != " " {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], strings.ToUpper(f.text))
	}
	var out []int
	for _, g := range groups {
		for len(g) > 0 {
			kind, n := attrUnknown, 1
			for _, a := range attrNames {
				if len(g) >= len(a.words) && equalWords(g[:len(a.words)], a.words) {
					kind, n = a.kind, len(a.words)
					break
				}
			}
			out = append(out, kind)
			g = g[n:]
		}
	}
	return out
}

// attrStart reports whether a header word begins an attribute column name.
func attrStart(w string) bool {
	w = strings.ToUpper(w)
	for _, a := range attrNames {
		if a.words[0] == w {
			return true
		}
	}
	return false
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// cell is a parsed matrix cell and where it came from.
type cell struct {
	path      Path
	line, off int
	set       bool
}

// shortRow is a row that gave cells for only the first cells device columns.
type shortRow struct{ line, dev, cells int }

// build turns the located matrix into a Topology.
func (p *parser) build() (*Topology, error) {
	index, gpus, nics, err := p.devices()
	if err != nil {
		return nil, err
	}
	t, err := New(gpus, nics)
	if err != nil {
		return nil, p.errLine(p.headerLine(), err)
	}
	// Matrix positions of each column, in the Topology's order.
	colDev := make([]Device, len(p.columns))
	for i, c := range p.columns {
		colDev[i], _ = t.Lookup(c.text)
	}
	n := len(p.columns)
	cells := make([]cell, n*n)
	seen := map[string]int{}
	var short []shortRow
	for _, r := range p.rows {
		label := r.fields[0]
		i, ok := index[label.text]
		if !ok {
			return nil, p.errAt(r.line, label.off, fmt.Errorf("%s: %w", parseerr.Excerpt(label.text), ErrUnknownRow))
		}
		if prev, dup := seen[label.text]; dup {
			return nil, p.errAt(r.line, label.off, fmt.Errorf("%s (first on line %d): %w", parseerr.Excerpt(label.text), prev, ErrDuplicate))
		}
		seen[label.text] = r.line
		rest := splitGluedCells(r.fields, n)[1:]
		j, err := p.rowCells(r, i, rest, cells)
		if err != nil {
			return nil, err
		}
		if j < n {
			short = append(short, shortRow{r.line, i, j})
		}
		end := label.off + len(label.text)
		if j > 0 {
			end = rest[j-1].off + len(rest[j-1].text)
		}
		attrs := tabAttrs(p.lines[r.line-1], end, len(p.attrs))
		if attrs == nil {
			attrs = rest[j:]
		}
		if err := p.setAttrs(t, colDev[i], r, attrs); err != nil {
			return nil, err
		}
	}
	if err := p.missingRows(seen); err != nil {
		return nil, err
	}
	p.setPaths(t, colDev, cells)
	for _, r := range short {
		p.warnShort(r, cells)
	}
	p.applyLegend(t)
	t.inferNUMA()
	return t, nil
}

// devices reads the header's columns: each column's index, and the GPUs
// and NICs they name, in order.
func (p *parser) devices() (index map[string]int, gpus, nics []Device, err error) {
	index = map[string]int{}
	for _, c := range p.columns {
		if _, dup := index[c.text]; dup {
			return nil, nil, nil, p.errAt(p.headerLine(), c.off, fmt.Errorf("%s: %w", parseerr.Excerpt(c.text), ErrDuplicate))
		}
		index[c.text] = len(index)
		d := Device{Name: c.text, NUMA: -1, GPUNUMA: -1}
		p.gpu = append(p.gpu, gpuName.MatchString(c.text))
		if p.gpu[len(p.gpu)-1] {
			gpus = append(gpus, d)
		} else {
			if !nicLabel.MatchString(c.text) {
				d.Device = c.text // old drivers head NIC columns with the device name
			}
			nics = append(nics, d)
		}
	}
	return index, gpus, nics, nil
}

// rowCells reads the path cells of row r, the matrix's row i, into cells,
// from rest, the row's fields after its label, and returns how many it
// read: fewer than the columns for a short row, whose attribute columns
// start early. A row with more path cells than columns is an error.
func (p *parser) rowCells(r rowLine, i int, rest []field, cells []cell) (int, error) {
	n := len(p.columns)
	label := r.fields[0]
	j := 0
	for ; j < n && j < len(rest); j++ {
		f := rest[j]
		path, err := ParsePath(f.text)
		if err != nil {
			if len(p.attrs) > 0 && !looksLikePathWord(f.text) {
				break // a short row: the attribute columns start here
			}
			return 0, p.errAt(r.line, f.off, err)
		}
		if (path.Class == Self) != (j == i) && !(j == i && path.Class == Unknown) {
			return 0, p.errAt(r.line, f.off, fmt.Errorf("%s/%s is %s: %w", parseerr.Excerpt(label.text), parseerr.Excerpt(p.columns[j].text), parseerr.Excerpt(f.text), ErrDiagonal))
		}
		if path.Class == NVLink && !(p.gpu[i] && p.gpu[j]) {
			// A label that is no GPU's is taken for a NIC, which no
			// NVLink joins: a GPU misnamed (GPU-1), or an edited capture.
			return 0, p.errAt(r.line, f.off, fmt.Errorf("%s/%s is %s, NVLink, which joins GPUs alone, labelled GPU0, GPU1, ...: %w",
				parseerr.Excerpt(label.text), parseerr.Excerpt(p.columns[j].text), parseerr.Excerpt(f.text), ErrNVLinkNIC))
		}
		cells[i*n+j] = cell{path, r.line, f.off, true}
	}
	if j == n && j < len(rest) && isKnownCell(rest[j].text) {
		m := j
		for m < len(rest) && isKnownCell(rest[m].text) {
			m++
		}
		return 0, p.errAt(r.line, rest[j].off, fmt.Errorf("%s has %d cells for %d device columns, from %s on: %w", parseerr.Excerpt(label.text), m, n, parseerr.Excerpt(rest[j].text), ErrLongRow))
	}
	return j, nil
}

// setPaths sets the path between every pair of devices from the matrix's
// two cells of the pair: one where the other is unknown, and where they
// disagree the one asymmetric chooses.
func (p *parser) setPaths(t *Topology, colDev []Device, cells []cell) {
	n := len(colDev)
	for i := range n {
		for j := i + 1; j < n; j++ {
			a, b := cells[i*n+j], cells[j*n+i]
			path := a.path
			switch {
			case a.set && b.set && a.path != b.path && a.path.Class != Unknown && b.path.Class != Unknown:
				path = p.asymmetric(i, j, a, b)
			case path.Class == Unknown:
				path = b.path
			}
			t.SetPath(colDev[i], colDev[j], path)
		}
	}
}

// asymmetric reports the disagreeing cells a (row i, column j) and b (row j,
// column i) as a problem at the later of the two, and returns the farther of
// their paths, the one the pair takes.
func (p *parser) asymmetric(i, j int, a, b cell) Path {
	first, second := a, b
	if b.line < a.line {
		first, second, i, j = b, a, j, i
	}
	far := first.path
	if second.path.Compare(far) > 0 {
		far = second.path
	}
	p.noteAsymmetric(second.line, second.off, func() string {
		return fmt.Sprintf("%s/%s is %s but %s/%s on line %d is %s; read as %s, the farther",
			p.columns[j].text, p.columns[i].text, second.path, p.columns[i].text, p.columns[j].text, first.line, first.path, far)
	})
	return far
}

// warnShort reports a short row, naming the cells it lacks: those read from
// the transposed cell and those missing both ways (Unknown).
func (p *parser) warnShort(r shortRow, cells []cell) {
	n := len(p.columns)
	var from, unknown []string
	for k := r.cells; k < n; k++ {
		if k == r.dev {
			continue
		}
		name := p.columns[r.dev].text + "/" + p.columns[k].text
		if c := cells[k*n+r.dev]; c.set && c.path.Class != Unknown {
			from = append(from, name)
		} else {
			unknown = append(unknown, name)
		}
	}
	msg := fmt.Sprintf("%s has %d of %d cells", p.columns[r.dev].text, r.cells, n)
	if len(from) > 0 {
		msg += "; " + nameList(from) + " read from the transposed cell"
	}
	if len(unknown) > 0 {
		msg += "; " + nameList(unknown) + " unknown (missing both ways)"
	}
	p.problems = append(p.problems, p.errLine(r.line, fmt.Errorf("%s: %w", msg, ErrShortRow)))
}

// nameList joins names with commas, the first four and a count of the rest.
func nameList(names []string) string {
	const show = 4
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:show], ", "), len(names)-show)
}

// looksLikePathWord reports whether a word that failed to parse as a path was
// probably meant as one (a typo in the matrix) rather than an attribute value
// such as a CPU list: path words start with a letter.
func looksLikePathWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) && !strings.EqualFold(s, "N/A")
}

// headerLine is the header's 1-based line number.
func (p *parser) headerLine() int { return p.head + 1 }

// setAttrs reads a row's attribute fields into its device.
func (p *parser) setAttrs(t *Topology, d Device, r rowLine, fs []field) error {
	if len(fs) == len(p.attrs)+1 && len(p.attrs) > 0 && p.attrs[len(p.attrs)-1] == attrCPU && !slices.Contains(p.attrs, attrNUMA) {
		// A paste that cut the header after "CPU Affinity": the field
		// after it is nvidia-smi's NUMA Affinity, the next column it prints.
		p.attrs = append(p.attrs, attrNUMA)
		p.problems = append(p.problems, p.errAt(r.line, fs[len(fs)-1].off, fmt.Errorf("%q: %w: it is taken as NUMA Affinity, the column nvidia-smi prints next",
			parseerr.Excerpt(fs[len(fs)-1].text), ErrCutHeader)))
	}
	if len(fs) > len(p.attrs) {
		f := fs[len(p.attrs)]
		return p.errAt(r.line, f.off, fmt.Errorf("%q: %w", parseerr.Excerpt(f.text), ErrFieldCount))
	}
	dev := t.device(d)
	for k, f := range fs {
		if f.text == "" {
			continue // an empty tab-separated field: unknown
		}
		switch p.attrs[k] {
		case attrCPU:
			l, err := ParseCPUList(f.text)
			if err != nil {
				return p.errAt(r.line, f.off, err)
			}
			dev.CPUs = l
		case attrNUMA:
			l, err := ParseCPUList(f.text) // same grammar: "0", "0-1", "N/A"
			if err != nil {
				return p.errAt(r.line, f.off, fmt.Errorf("%q: %w", parseerr.Excerpt(f.text), ErrNUMA))
			}
			switch {
			case len(l) == 1 && l[0].First == l[0].Last:
				dev.NUMA = l[0].First
			case len(l) > 0 && !p.spanNoted:
				// A device affine to several NUMA nodes has no one node.
				p.spanNoted = true
				p.problems = append(p.problems, p.errAt(r.line, f.off, fmt.Errorf("NUMA Affinity %q %w: a device's NUMA node is not read from it where it does; its CPU Affinity binds it, and numbers the nodes where the devices' lists do not overlap", parseerr.Excerpt(f.text), ErrNUMASpan)))
			}
		case attrGPUNUMA:
			if strings.EqualFold(f.text, "N/A") {
				continue
			}
			v, err := strconv.Atoi(f.text)
			if err != nil || v < 0 || v > maxCPU {
				return p.errAt(r.line, f.off, fmt.Errorf("%q: %w", parseerr.Excerpt(f.text), ErrNUMA))
			}
			dev.GPUNUMA = v
		}
	}
	return nil
}

// applyLegend names NICs from "NIC0: mlx5_0" lines after the matrix. When
// a NIC Legend is there but cut, it reports the NICs headed NIC0, NIC1, ...
// that no entry names (ErrNoLegend). A capture without a NIC Legend, as
// pastes often are, names no NIC and gets no warning: its paths are whole.
// An entry whose device no RDMA device's name can be (hcaFault), or that
// names a device an entry above named for another NIC, is damage
// nvidia-smi does not print, reported at the device (ErrLegendDevice):
// the NIC keeps the device as the entry gives it, and Topology.IBHCA
// makes no list of such a capture's devices.
func (p *parser) applyLegend(t *Topology) {
	legend := 0 // the 1-based line of the NIC Legend, 0 if none
	// stray are the entries of no NIC of the matrix, the first maxNames
	// of strays, and strayAt the first's line and offset.
	var stray []string
	strays, strayAt := 0, [2]int{}
	// at is where each NIC's entry names its device: line and byte offset.
	at := make([][2]int, len(t.nics))
	for i, line := range p.lines[p.end:p.after] {
		if strings.TrimSpace(line) == "NIC Legend:" {
			legend = p.end + i + 1
		}
		m := legendEntry.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		if legend == 0 {
			legend = p.end + i + 1
		}
		if d, ok := t.Lookup(line[m[2]:m[3]]); ok && d.Kind == NIC {
			t.nics[d.Index].Device = line[m[4]:m[5]]
			at[d.Index] = [2]int{p.end + i + 1, m[4]}
		} else if !ok {
			// nvidia-smi lists the NICs it heads columns with: an entry
			// of none is another capture's line, or the matrix was cut.
			if len(stray) == 0 {
				strayAt = [2]int{p.end + i + 1, m[2]}
			}
			if len(stray) < maxNames {
				stray = append(stray, parseerr.Excerpt(line[m[2]:m[3]]))
			}
			strays++
		}
	}
	if strays > 0 {
		heads := "the matrix heads no NIC"
		if len(t.nics) > 0 {
			heads = "the matrix heads " + nameList(nicNames(t))
		}
		names := words.And(stray)
		if strays > len(stray) {
			names = fmt.Sprintf("%s and %d more", strings.Join(stray, ", "), strays-len(stray))
		}
		p.problems = append(p.problems, p.errAt(strayAt[0], strayAt[1], fmt.Errorf(
			"the NIC Legend names %s, %s of the matrix (%s), and %s left unread: %w",
			names, words.Verb(strays, "which is no NIC", "which are no NICs"), heads, words.Verb(strays, "it is", "they are"), ErrStrayLegend)))
	}
	// One problem a NIC at most, in NIC order (sorted later by line).
	first := map[string]int{} // each device's first NIC
	for k, d := range t.nics {
		if d.Device == "" || at[k][0] == 0 {
			continue
		}
		why := hcaFault(d.Device)
		if j, dup := first[d.Device]; dup && why == "" {
			why = fmt.Sprintf("is %s's too (line %d), where no two NICs share an RDMA device", t.nics[j].Name, at[j][0])
		} else if !dup {
			first[d.Device] = k
		}
		if why != "" {
			p.problems = append(p.problems, p.errAt(at[k][0], at[k][1], fmt.Errorf(
				"%s's device %q %s; NCCL_IB_HCA is not given for this capture: %w", d.Name, parseerr.Excerpt(d.Device), why, ErrLegendDevice)))
		}
	}
	var unnamed []string
	for _, d := range t.nics {
		if d.Device == "" {
			unnamed = append(unnamed, d.Name)
		}
	}
	if legend > 0 && len(unnamed) > 0 {
		p.problems = append(p.problems, p.errLine(legend, fmt.Errorf(
			"%s named by no \"NIC0: mlx5_0\" line of a NIC Legend (is the capture cut?); their devices are unknown: %w",
			nameList(unnamed), ErrNoLegend)))
	}
}

// maxNames bounds the NIC Legend entries of no NIC that applyLegend
// names, so that a damaged capture's problem stays short.
const maxNames = 4

// nicNames returns t's NICs' names.
func nicNames(t *Topology) []string {
	out := make([]string, len(t.nics))
	for i, d := range t.nics {
		out[i] = d.Name
	}
	return out
}

// missingRows checks that every device of the header labels a row (seen
// holds the row labels): nvidia-smi prints them all, so a row missing is a
// capture cut short or edited. A GPU without its row refuses the capture,
// since its pairs with the other GPUs' missing rows would be unknown and the
// fabric read as another machine's; a NIC without its row is a warning.
func (p *parser) missingRows(seen map[string]int) error {
	var gpus, nics []string
	for _, c := range p.columns {
		if _, ok := seen[c.text]; ok {
			continue
		}
		if gpuName.MatchString(c.text) {
			gpus = append(gpus, c.text)
		} else {
			nics = append(nics, c.text)
		}
	}
	if len(gpus) > 0 {
		return p.errLine(p.lastRowLine(), fmt.Errorf(
			"the matrix ends here, with no row for %s of the header's %d device columns (line %d; is the capture cut?); give the whole nvidia-smi topo -m output: %w",
			nameList(gpus), len(p.columns), p.headerLine(), ErrMissingRow))
	}
	if len(nics) > 0 {
		p.problems = append(p.problems, p.errLine(p.lastRowLine(), fmt.Errorf(
			"the matrix ends here, with no row for %s (is the capture cut?); their pairs with the GPUs are read from the GPU rows, with each other unknown: %w",
			nameList(nics), ErrMissingRow)))
	}
	return nil
}

// lastRowLine is the 1-based line of the matrix's last row.
func (p *parser) lastRowLine() int { return p.rows[len(p.rows)-1].line }

// device returns a pointer to t's copy of d.
func (t *Topology) device(d Device) *Device {
	if d.Kind == GPU {
		return &t.gpus[d.Index]
	}
	return &t.nics[d.Index]
}

// tabAttrs returns the attribute fields of a tab-separated row, whose matrix
// cells end at byte end of line, keeping empty fields: nvidia-smi prints an
// empty CPU Affinity of a process restricted to CPUs of another node as
// nothing between two tabs ("NODE\t\t1\t\tN/A"), which splitting at white
// space would read as CPU Affinity 1. After the tab that ends the last cell
// every tab ends a field, except that nvidia-smi pads some values with a
// second tab ("0\t\tN/A" for NUMA Affinity 0, GPU NUMA ID N/A): while there
// are more fields than attribute columns, the rightmost empty field is
// dropped as padding. It returns nil, and the caller splits at white space,
// when the rest of the line has no tab or a field holds a space (columns
// separated by spaces).
func tabAttrs(line string, end, columns int) []field {
	rest := strings.TrimLeft(line[end:], " ")
	if !strings.HasPrefix(rest, "\t") {
		return nil
	}
	off := len(line) - len(rest) + 1 // after the tab that ends the last cell
	var out []field
	for _, piece := range strings.Split(line[off:], "\t") {
		text := strings.TrimSpace(piece)
		if strings.ContainsFunc(text, unicode.IsSpace) {
			return nil
		}
		start := off + strings.Index(piece, text)
		out = append(out, field{text: text, off: start, sep: "\t"})
		off += len(piece) + 1
	}
	// Drop the rightmost surplus empty fields in one pass from the right.
	drop := len(out) - columns
	kept := out[:0:0]
	for k := len(out) - 1; k >= 0; k-- {
		if drop > 0 && out[k].text == "" {
			drop--
			continue
		}
		kept = append(kept, out[k])
	}
	slices.Reverse(kept)
	return kept
}
