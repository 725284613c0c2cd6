package data

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// readAll reads r to the end, sizing its buffer up front when r can tell
// its length (bytes.Reader, strings.Reader, bytes.Buffer).
func readAll(r io.Reader) ([]byte, error) {
	if l, ok := r.(interface{ Len() int }); ok {
		var buf bytes.Buffer
		buf.Grow(l.Len() + 1)
		_, err := buf.ReadFrom(r)
		return buf.Bytes(), err
	}
	return io.ReadAll(r)
}

// textSniffLen is how much of a file checkText inspects byte by byte.
const textSniffLen = 64 << 10

// checkText reports ErrEmpty for a file of white space and ErrNotText for one
// with a NUL byte anywhere, or more than 2% of bytes among its first 64 KiB
// that are invalid UTF-8 or control characters other than tab, CR, LF, FF,
// VT and ESC (terminal colours). Stray bad bytes further on only spoil the
// rows they are in.
func checkText(b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return ErrEmpty
	}
	if bytes.HasPrefix(b, []byte{0xff, 0xfe}) || bytes.HasPrefix(b, []byte{0xfe, 0xff}) {
		return fmt.Errorf("%w: UTF-16 (convert it to UTF-8, e.g. with iconv -f UTF-16)", ErrNotText)
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return fmt.Errorf("%w: NUL byte at offset %d", ErrNotText, i)
	}
	b = b[:min(len(b), textSniffLen)]
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

// eachLine calls f for every line of b with its 1-based number, without the
// line terminator (LF or CRLF). It stops early when f returns false. The
// lines share one copy of b.
func eachLine(b []byte, f func(n int, line string) bool) {
	text := strings.TrimPrefix(string(b), "\ufeff") // a byte-order mark
	for n := 1; len(text) > 0; n++ {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if !f(n, strings.TrimSuffix(line, "\r")) {
			return
		}
	}
}

// stripLaunchPrefix removes the prefixes launchers and log collectors put
// before each line of output, repeatedly: Open MPI's "[1,0]<stdout>:"
// (--tag-output), Slurm's "0: " (srun --label), kubectl's "[pod/NAME/C] "
// (--prefix) and an RFC 3339 time stamp (kubectl --timestamps, journald).
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
			end := strings.IndexByte(t, ']')
			if end < 2 || !allDigits(t[1:end]) {
				return s
			}
			s = t[end+1:] // MPICH / Intel MPI -prepend-rank: "[0] "
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
