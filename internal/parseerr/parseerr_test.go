package parseerr

import (
	"errors"
	"strings"
	"testing"
)

// TestError: "file:line:column: cause", leaving out what is 0 or "" (the
// cause alone when nothing is known), and unwrapping to the cause; the
// layout is encoding/csv's and the compilers' file:line:column.
func TestError(t *testing.T) {
	cause := errors.New("bad number")
	for _, c := range []struct {
		e    ParseError
		want string
	}{
		{ParseError{File: "a.log", Line: 71, Column: 57, Err: cause}, "a.log:71:57: bad number"},
		{ParseError{File: "a.log", Line: 71, Err: cause}, "a.log:71: bad number"},
		{ParseError{File: "a.log", Err: cause}, "a.log: bad number"},
		{ParseError{File: "a.log", Column: 4, Err: cause}, "a.log: bad number"}, // a column without a line means nothing
		{ParseError{Line: 3, Column: 5, Err: cause}, "3:5: bad number"},
		{ParseError{Line: 3, Err: cause}, "3: bad number"},
		{ParseError{Err: cause}, "bad number"},
		{ParseError{File: "a.log", Line: 2}, "a.log:2: parse error"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
		if c.e.Err != nil && !errors.Is(&c.e, cause) {
			t.Errorf("%+v does not unwrap to its cause", c.e)
		}
	}
}

// TestExcerpt: a field up to MaxQuote bytes is quoted whole; a longer one
// by its first MaxQuote bytes, cut before a rune that would not fit, and its
// length.
func TestExcerpt(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"12.5", "12.5"},
		{strings.Repeat("a", MaxQuote), strings.Repeat("a", MaxQuote)},
		{strings.Repeat("a", MaxQuote+1), strings.Repeat("a", MaxQuote) + "... (41 bytes)"},
		{strings.Repeat("a", MaxQuote-1) + "µs", strings.Repeat("a", MaxQuote-1) + "... (42 bytes)"}, // µ is 2 bytes: 39+2+1
	} {
		if got := Excerpt(c.in); got != c.want {
			t.Errorf("Excerpt(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPrefix: a cut inside a rune moves back to its start, so the prefix
// stays valid UTF-8 ("é" is 2 bytes, "€" 3); a string within n is whole.
func TestPrefix(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abc", 5, "abc"},
		{"abé", 3, "ab"},
		{"abé", 4, "abé"},
		{"€x", 2, ""},
		{"a€", 0, ""},
	} {
		if got := Prefix(c.in, c.n); got != c.want {
			t.Errorf("Prefix(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
