package nccltests

import (
	"errors"
	"strings"
	"testing"
)

// tableLines is syntheticLog(n) as lines: line 1 the nThread header
// (maxBytes 8 GiB), lines 15 to 14+n the rows of 8192 to n*8192 bytes,
// then the trailer of 3 lines.
func tableLines(n int) []string {
	return strings.SplitAfter(string(syntheticLog(n)), "\n")
}

// onlyProblem checks that l has one problem, of cause want, at line, whose
// text holds each of texts, and none of not.
func onlyProblem(t *testing.T, l *result, want error, line int, not string, texts ...string) {
	t.Helper()
	var pe *ParseError
	if len(l.Problems) != 1 || !errors.As(l.Problems[0], &pe) || !errors.Is(pe, want) || pe.Line != line {
		t.Fatalf("problems %v; want one %v at line %d", l.Problems, want, line)
	}
	for _, s := range texts {
		if !strings.Contains(pe.Error(), s) {
			t.Errorf("%v: want %q", pe, s)
		}
	}
	if not != "" && strings.Contains(pe.Error(), not) {
		t.Errorf("%v: want no %q", pe, not)
	}
}

// A size printed twice in one table (red team 38: 32 points read without
// a word) is named at the second row, which the table leaves out.
func TestRepeatedSizeRow(t *testing.T) {
	lines := tableLines(4)
	in := strings.Join(lines[:16], "") + lines[15] + strings.Join(lines[16:], "") // line 17 repeats line 16, 16384 bytes
	l := readString(t, in, Options{})
	if n := len(l.Tests[0].Rows); n != 4 {
		t.Errorf("%d rows; want 4, the repeat left out", n)
	}
	onlyProblem(t, l, ErrInconsistent, 17, "", "size 16384 again (first at line 16)", "the second row is left out, the table keeps the first")
	for _, r := range l.Tests[0].Rows {
		if r.Line == 17 {
			t.Error("the table keeps line 17, the repeat")
		}
	}
}

// A count that is not size / sizeof(type) as the table's other rows print
// it (a row pasted from another test) is named at its line.
func TestCountDisagreesWithSize(t *testing.T) {
	lines := tableLines(4)
	// Line 16, 16384 bytes of float: count 4096, here 2048 (size / 8).
	lines[15] = strings.Replace(lines[15], "  4096  ", "  2048  ", 1)
	l := readString(t, strings.Join(lines, ""), Options{})
	onlyProblem(t, l, ErrInconsistent, 16, "", "count 2048 does not match size 16384 of float", "count = size / sizeof(float)", "pasted from another test")
}

// A table that ends below the header's maxBytes without the trailer
// stopped (red team 39): named at its last row, as a hang or a crash; where
// the log says it was abridged, that it was. A table
// that reaches maxBytes, or has its trailer, gets no note.
func TestTableStopsEarly(t *testing.T) {
	lines := tableLines(32)             // rows 8 KiB to 256 KiB, lines 15 to 46
	cut := strings.Join(lines[:46], "") // no trailer
	l := readString(t, cut, Options{})
	onlyProblem(t, l, ErrStopped, 46, "abridged",
		"the table ends at 256 KiB, below the header's maxBytes 8 GiB, and no '# Avg bus bandwidth' line follows: the run stopped there (a hang or a crash)")

	l = readString(t, "# Source: a post, its rows abridged\n"+cut, Options{})
	onlyProblem(t, l, ErrStopped, 47, "hang", "line follows: the log says it was abridged")

	if l := readString(t, strings.Join(lines, ""), Options{}); len(l.Problems) != 0 {
		t.Errorf("with the trailer: problems %v", l.Problems)
	}
	full := strings.Replace(cut, "maxBytes 8589934592", "maxBytes 262144", 1)
	if l := readString(t, full, Options{}); len(l.Problems) != 0 {
		t.Errorf("up to maxBytes, no trailer: problems %v", l.Problems)
	}
}
