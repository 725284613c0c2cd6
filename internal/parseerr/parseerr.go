// Package parseerr holds the one error type of commlab's parsers: topo's
// reader of `nvidia-smi topo -m` text and data/nccltests' reader of
// nccl-tests logs both report a ParseError, as aliases of this type, so a
// caller meets one shape and one meaning of its fields.
package parseerr

import (
	"strconv"
	"unicode/utf8"
)

// A ParseError is a problem at one place of a parsed file, in the manner of
// encoding/csv's ParseError.
type ParseError struct {
	// File is the file name as given to the parser (a name argument, an
	// *os.File's Name), or "" when the text came from an unnamed reader.
	File string
	// Line is the 1-based line number, or 0 when the problem concerns the
	// input as a whole (empty, no table in it, too large, unreadable).
	Line int
	// Column is the 1-based byte offset, in the line as the file holds it, of
	// the start of the offending field, or 0 when the problem concerns the
	// whole line.
	Column int
	// Err is the cause: one of the parser's Err* sentinels, wrapped with the
	// details, for errors.Is; or the reader's own error.
	Err error
}

// Error returns "file:line:column: cause", leaving out the file when it is
// "", the line and column when Line is 0, and the column when it is 0.
func (e *ParseError) Error() string {
	var b []byte
	b = append(b, e.File...)
	if e.Line > 0 {
		if len(b) > 0 {
			b = append(b, ':')
		}
		b = strconv.AppendInt(b, int64(e.Line), 10)
		if e.Column > 0 {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(e.Column), 10)
		}
	}
	if len(b) > 0 {
		b = append(b, ": "...)
	}
	if e.Err == nil {
		return string(append(b, "parse error"...))
	}
	return string(b) + e.Err.Error()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// MaxQuote is how many bytes of a field an error quotes (Excerpt).
const MaxQuote = 40

// Excerpt returns s, or for a longer s its first MaxQuote bytes (cut at a
// rune boundary) and how long it is, so that a message about one bad field
// stays a line however long the field.
func Excerpt(s string) string {
	if len(s) <= MaxQuote {
		return s
	}
	return Prefix(s, MaxQuote) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Prefix returns s cut to at most n bytes, at a rune's start, so that a
// cut string stays valid UTF-8 where s is.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
