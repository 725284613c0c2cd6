package nccltests

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// textSniffLen is how much of an input is inspected byte by byte for
// invalid UTF-8 and control characters.
const textSniffLen = 64 << 10

// CheckText reports what a Reader would find wrong with b as text:
// ErrEmpty for white space only, and ErrNotText for a gzip, xz or zstd
// file (named with the tool that decompresses it), UTF-16 (with a
// byte-order mark or, ASCII text, without one: every other byte NUL), or more than 2%
// of bytes among the first 64 KiB that are NUL, invalid UTF-8 or control
// characters other than tab, CR, LF, FF, VT and ESC (terminal colours).
// Stray bad bytes further on, or a few among the first, only spoil the
// lines they are in: a line that holds a NUL byte is left unread
// (ErrNULLine), as NCCL 2.17 to 2.19 write one, and bytes past it, where
// a debug line overflows their buffer. It is for callers that look at a
// file before choosing a reader.
func CheckText(b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return ErrEmpty
	}
	return checkStart(b[:min(len(b), textSniffLen)])
}

// checkStart reports ErrNotText for b, the first 64 KiB of an input, if it
// starts with a UTF-16 byte-order mark or more than 2% of its bytes are
// invalid UTF-8 or control characters (see CheckText).
func checkStart(b []byte) error {
	if bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff}) {
		return fmt.Errorf("%w: UTF-16 (convert it to UTF-8, e.g. with iconv -f UTF-16)", ErrNotText)
	}
	if enc := utf16Order(b); enc != "" {
		return fmt.Errorf("%w: %s without a byte-order mark, every other byte NUL (convert it to UTF-8, e.g. with iconv -f %s)", ErrNotText, enc, enc)
	}
	// A compressed log: its magic numbers (RFC 1952's gzip, the xz and
	// zstd formats' own) and the tool that reads it to a pipe.
	for _, c := range []struct {
		magic []byte
		what  string
	}{
		{[]byte{0x1f, 0x8b}, "gzip-compressed: decompress it first (zcat FILE)"},
		{[]byte{0xfd, '7', 'z', 'X', 'Z', 0}, "xz-compressed: decompress it first (xzcat FILE)"},
		{[]byte{0x28, 0xb5, 0x2f, 0xfd}, "zstd-compressed: decompress it first (zstdcat FILE)"},
	} {
		if bytes.HasPrefix(b, c.magic) {
			return fmt.Errorf("%w: %s", ErrNotText, c.what)
		}
	}
	bad := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 0x20 && c != 0x7f, c == '\t', c == '\r', c == '\n', c == '\f', c == '\v', c == 0x1b:
			default:
				bad++
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			bad++
		}
		i += n
	}
	if bad*50 > len(b) {
		return fmt.Errorf("%w: %d of the first %d bytes are invalid UTF-8 or control characters", ErrNotText, bad, len(b))
	}
	return nil
}

// utf16Order returns "UTF-16LE" or "UTF-16BE" where b reads as ASCII text
// in that encoding, without a byte-order mark: nine of ten bytes at odd
// (little-endian) or even (big-endian) offsets NUL and at most one of ten
// of the others; "" otherwise.
func utf16Order(b []byte) string {
	if len(b) < 4 {
		return ""
	}
	var nul [2]int // at even and odd offsets
	for i, c := range b {
		if c == 0 {
			nul[i%2]++
		}
	}
	half := len(b) / 2
	switch {
	case nul[1]*10 >= half*9 && nul[0]*10 <= half:
		return "UTF-16LE"
	case nul[0]*10 >= half*9 && nul[1]*10 <= half:
		return "UTF-16BE"
	}
	return ""
}

// A lineReader hands out the lines of an input one at a time. It reads the
// input in chunks of 64 KiB (more for a longer line), each converted to one
// string that its lines share, and checks each chunk as CheckText does.
type lineReader struct {
	r     io.Reader
	buf   []byte // the read buffer
	text  string // the unread part of the current chunk
	n     int    // the number of the last line returned
	off   int64  // input offset of the end of the current chunk
	read  bool   // the first chunk was read
	eof   bool   // r is exhausted
	blank bool   // every byte so far is white space (meaningful at io.EOF)
	// loneCR reports that the first chunk ends its lines in CR alone
	// (classic Mac OS): it holds CRs and no LF, so it reads as one line.
	loneCR bool
	// long holds the first maxLine+1 bytes of a line longer than maxLine
	// while the rest of it is read and dropped, so that such a line costs
	// no more memory than its head; "" otherwise.
	long string
	// lines, where json is set, are the lines to hand out in place of r's:
	// those nccl-tests printed for the runs whose JSON output r held; cur
	// is the last one handed out.
	lines []numberedLine
	json  bool
	cur   numberedLine
}

// next returns the next line and its 1-based number, without its line
// terminator (LF or CRLF) and, on line 1, without a byte-order mark. At the
// end of the input the error is io.EOF.
func (l *lineReader) next() (int, string, error) {
	if l.json {
		if len(l.lines) == 0 {
			return l.n, "", io.EOF
		}
		l.cur, l.lines = l.lines[0], l.lines[1:]
		l.n = l.cur.n
		return l.cur.n, l.cur.text, nil
	}
	for {
		if i := strings.IndexByte(l.text, '\n'); i >= 0 || l.eof && (l.text != "" || l.long != "") {
			line := l.text
			if i >= 0 {
				line, l.text = l.text[:i], l.text[i+1:]
			} else {
				l.text = ""
			}
			if l.long != "" {
				line, l.long = l.long, "" // the parser reports it by its length
			}
			l.n++
			return l.n, strings.TrimSuffix(line, "\r"), nil
		}
		if l.eof {
			return l.n, "", io.EOF
		}
		if len(l.text) > maxLine {
			if l.long == "" {
				l.long = l.text[:maxLine+1]
			}
			l.text = ""
		}
		if err := l.fill(); err != nil {
			return l.n, "", err
		}
	}
}

// fill reads the next chunk after the unread partial line.
func (l *lineReader) fill() error {
	if size := max(textSniffLen, 2*len(l.text)); len(l.buf) < size {
		l.buf = make([]byte, size)
	}
	k := copy(l.buf, l.text)
	m, err := io.ReadFull(l.r, l.buf[k:])
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		l.eof = true
	default:
		return err
	}
	chunk, start := l.buf[k:k+m], 0
	if !l.read {
		// First: it names what a compressed or UTF-16 file is.
		l.read, l.blank = true, true
		if err := checkStart(chunk); err != nil {
			return err
		}
		if bytes.HasPrefix(chunk, []byte("\ufeff")) {
			start = len("\ufeff") // a byte-order mark
		}
		l.loneCR = bytes.IndexByte(chunk, '\n') < 0 && bytes.Count(chunk, []byte{'\r'}) >= 2
	}
	l.off += int64(m)
	l.blank = l.blank && len(bytes.TrimSpace(chunk)) == 0
	if l.long != "" {
		// The rest of a line too long to read is dropped as it comes,
		// never converted: up to its end, if the chunk holds it.
		i := bytes.IndexByte(l.buf[start:k+m], '\n')
		if i < 0 {
			l.text = ""
			return nil
		}
		start += i
	}
	l.text = string(l.buf[start : k+m])
	return nil
}

// stripLaunchPrefix removes the prefixes launchers and log collectors put
// before each line of output, repeatedly: Open MPI's "[1,0]<stdout>:"
// (--tag-output), Slurm's "0: " (srun --label), kubectl's "[pod/NAME/C] "
// (--prefix), torchrun's "[default0]:" (--tee) and an RFC 3339 time stamp
// (kubectl --timestamps, journald). pdsh's "HOST: " is the parser's
// (hostLabel): a host name alone does not tell it from a line's own words.
func stripLaunchPrefix(s string) string {
	for {
		t := strings.TrimLeft(s, " \t")
		switch {
		case strings.HasPrefix(t, "[pod/"):
			end := strings.Index(t, "] ")
			if end < 0 {
				return s
			}
			s = t[end+2:]
		case isTimeStamp(t):
			_, s, _ = strings.Cut(t, " ")
		case strings.HasPrefix(t, "["):
			if end := strings.Index(t, ">:"); end >= 0 && isMPITag(t[:end+1]) {
				s = t[end+2:] // Open MPI --tag-output: "[1,0]<stdout>:"
				continue
			}
			if end := strings.Index(t, "]:"); end > 1 && isWorkerName(t[1:end]) {
				s = t[end+2:] // torchrun --tee: "[default0]:"
				continue
			}
			end := strings.IndexByte(t, ']')
			if end < 2 || !allDigits(t[1:end]) {
				return s
			}
			tag := t[:end+1]
			s = t[end+1:] // MPICH / Intel MPI -prepend-rank: "[0] "
			if f := strings.Fields(s); len(f) > 0 && allDigits(f[0]) {
				// The launcher tags every write, and nccl-tests writes a
				// row in pieces ("sum      -1[0]    1626.5"): blanks of
				// the tag's width keep the columns where they were. A row
				// starts with its size; other lines keep their "[0]"
				// (NCCL's device index, "10-0-0-2:1:1 [0] NCCL INFO").
				s = strings.ReplaceAll(s, tag, strings.Repeat(" ", len(tag)))
			}
		case len(t) > 0 && isDigit(t[0]):
			i := 0
			for i < len(t) && isDigit(t[i]) {
				i++
			}
			if !strings.HasPrefix(t[i:], ": ") {
				return s
			}
			s = t[i+2:]
		default:
			return s
		}
	}
}

// isTimeStamp reports whether s starts with "YYYY-MM-DDThh:mm:ss" (or a
// space for the T) followed, after optional fraction and zone, by a space.
func isTimeStamp(s string) bool {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(s) < len(shape)+1 {
		return false
	}
	for i := 0; i < len(shape); i++ {
		switch c := s[i]; shape[i] {
		case 'd':
			if !isDigit(c) {
				return false
			}
		case 'T':
			if c != 'T' {
				return false
			}
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	end := strings.IndexByte(s, ' ')
	return end >= len(shape)
}

// isWorkerName reports whether s is a torchrun worker's name as its --tee
// prefix prints it: a role of letters and the worker's local rank
// ("default0").
func isWorkerName(s string) bool {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '_') {
		i++
	}
	return i > 0 && i < len(s) && allDigits(s[i:])
}

// hostLabel returns the length of pdsh's (and DeepSpeed's launcher's)
// label at the start of s, "node00: ", a host name and ": "; 0 where s
// starts with none. NCCL's own prefix, "node00:4100:4150 [0] NCCL INFO",
// has no blank after the host's colon.
func hostLabel(s string) int {
	i := 0
	for i < len(s) && (isDigit(s[i]) || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '-' || s[i] == '.' || s[i] == '_') {
		i++
	}
	if i == 0 || !strings.HasPrefix(s[i:], ": ") {
		return 0
	}
	return i + 2
}

// isMPITag reports whether s is "[J,R]<stream>" with J and R digits.
func isMPITag(s string) bool {
	close := strings.IndexByte(s, ']')
	if close < 0 || !strings.HasPrefix(s[close+1:], "<") || !strings.HasSuffix(s, ">") {
		return false
	}
	job, rank, ok := strings.Cut(s[1:close], ",")
	return ok && allDigits(job) && allDigits(rank)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// A tagJoiner undoes what Open MPI's --tag-output does to a line that a rank
// wrote in pieces. mpirun puts the writer's tag, "[1,0]<stdout>:", before
// every piece of output it forwards, not only at the start of a line. A row
// is several printf calls (nccl-tests v2.13 prints the leading columns, each
// placement's columns, then the newline: src/common.cu, TimeTest and
// BenchTime); when its pieces reach mpirun apart, rank 0's row reads
//
//	[1,0]<stdout>:   8   2  float  sum  -1[1,0]<stdout>:   85.14 ...  0[1,0]<stdout>:   62.82 ...  0
//
// and a piece of another rank may come between two pieces of the row, on
// the same line or on lines in between. The joiner cuts each line at its
// tags, appends each piece to the line its tag (its stream) has begun, and
// hands that line out when a piece of it ends a line of the input: the text
// as the rank wrote it. Lines without tags inside them pass unchanged.
//
// The lines that take returns are valid until the next add or flush: the
// joiner reuses them.
type tagJoiner struct {
	open  map[string]*joined // by tag, the lines begun and not ended
	ready []joined           // the lines ended, in the order they ended
	free  []*joined          // lines ended, for reuse
}

// A joined line is one line of one stream, with where its text came from.
type joined struct {
	text   string
	tag    string  // the stream's tag, "[1,0]<stdout>"; "" for untagged text
	line   int     // the input line the text starts on
	pieces []piece // where each part of text came from, in order
	buf    []byte  // text while the line is open
}

// A piece is the part of a joined text from byte at on: it came from input
// line `line`, starting at byte offset off.
type piece struct{ at, line, off int }

// add cuts input line n at its Open MPI tags and queues the lines that end
// on it. It reports false and queues nothing when the line reads as it is:
// it has no tag after its launch prefixes, or one tag at its start whose
// stream has no line open.
func (j *tagJoiner) add(n int, raw string) bool {
	start, end := findTag(raw, 0)
	if start < 0 {
		return false
	}
	lead := strings.TrimSpace(stripLaunchPrefix(raw[:start])) == ""
	next, nextEnd := findTag(raw, end)
	if lead && next < 0 && j.open[raw[start:end-1]] == nil {
		return false
	}
	if !lead {
		j.ready = append(j.ready, joined{text: raw[:start], line: n, pieces: []piece{{0, n, 0}}})
	}
	if j.open == nil {
		j.open = map[string]*joined{}
	}
	for start >= 0 {
		tag, stop := raw[start:end-1], len(raw)
		if next >= 0 {
			stop = next
		}
		o := j.open[tag]
		if o == nil && end < stop {
			o = j.newLine(tag, n)
		}
		if end < stop {
			o.pieces = append(o.pieces, piece{len(o.buf), n, end})
			o.buf = append(o.buf, raw[end:stop]...)
		}
		if next < 0 && o != nil {
			j.end(o)
		}
		start, end = next, nextEnd
		if start >= 0 {
			next, nextEnd = findTag(raw, end)
		}
	}
	return true
}

// newLine opens the line of stream tag starting on input line n.
func (j *tagJoiner) newLine(tag string, n int) *joined {
	var o *joined
	if k := len(j.free); k > 0 {
		o, j.free = j.free[k-1], j.free[:k-1]
		o.buf, o.pieces = o.buf[:0], o.pieces[:0]
	} else {
		o = new(joined)
	}
	o.tag, o.line = tag, n
	j.open[tag] = o
	return o
}

// end queues the open line o.
func (j *tagJoiner) end(o *joined) {
	delete(j.open, o.tag)
	j.ready = append(j.ready, joined{text: string(o.buf), tag: o.tag, line: o.line, pieces: o.pieces})
	j.free = append(j.free, o)
}

// flush queues the lines still open at the end of the input (their rest
// never came), by the line they start on.
func (j *tagJoiner) flush() {
	if len(j.open) == 0 {
		return
	}
	rest := make([]*joined, 0, len(j.open))
	for _, o := range j.open {
		rest = append(rest, o)
	}
	sort.Slice(rest, func(a, b int) bool {
		return rest[a].line < rest[b].line || rest[a].line == rest[b].line && rest[a].tag < rest[b].tag
	})
	for _, o := range rest {
		j.end(o)
	}
}

// take returns the queued lines and empties the queue.
func (j *tagJoiner) take() []joined {
	q := j.ready
	j.ready = j.ready[:0]
	return q
}

// findTag returns the span [start, end) of the first Open MPI tag
// "[J,R]<stream>:" in s at or after byte from, or -1, -1.
func findTag(s string, from int) (start, end int) {
	for from < len(s) {
		i := strings.Index(s[from:], "]<")
		if i < 0 {
			break
		}
		i += from
		j := i
		for j > 0 && (isDigit(s[j-1]) || s[j-1] == ',') {
			j--
		}
		k := i + 2
		for k < len(s) && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
			k++
		}
		if j > 0 && s[j-1] == '[' && strings.HasPrefix(s[k:], ">:") && isMPITag(s[j-1:k+1]) {
			return j - 1, k + 2
		}
		from = i + 2
	}
	return -1, -1
}
