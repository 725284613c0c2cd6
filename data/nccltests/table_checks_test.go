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

// A count whose elements make 2^62 bytes or more, beyond any size, is a
// bad number at its line and column, and the row is left out, the table's
// others kept (red team rt4: 2^62 floats made count × 4 wrap int64 to 0,
// and the reader divided by it; 2^62 + 4096 floats made 16384, the row's
// size, read without a word). A count below that whose bytes still exceed
// the row's size is a count that does not match it, as any other is.
func TestCountBeyondAnySize(t *testing.T) {
	for _, c := range []struct {
		name, count string
		bad         bool
	}{
		{"2^62 floats", "4611686018427387904", true},
		{"2^62 + 4096 floats", "4611686018427392000", true},
		{"2^60 floats, 2^62 bytes", "1152921504606846976", true},
		{"2^60 - 1 floats, 2^62 - 4 bytes", "1152921504606846975", false},
	} {
		lines := tableLines(4)
		// Line 16, 16384 bytes of float: count 4096; the count field
		// starts at byte 23 (syntheticLog's "%12d  %12d").
		lines[15] = strings.Replace(lines[15], "  4096  ", "  "+c.count+"  ", 1)
		l := readString(t, strings.Join(lines, ""), Options{})
		if !c.bad {
			onlyProblem(t, l, ErrInconsistent, 16, "", "count "+c.count+" does not match size 16384 of float")
			continue
		}
		onlyProblem(t, l, ErrNumber, 16, "", `count "`+c.count+`" of float makes 2^62 bytes or more`, "the row is left out")
		if pe := l.Problems[0].(*ParseError); pe.Column != 23 {
			t.Errorf("%s: %v at column %d, want 23", c.name, pe, pe.Column)
		}
		if n := len(l.Tests[0].Rows); n != 3 {
			t.Errorf("%s: %d rows, want 3: line 16 left out", c.name, n)
		}
	}
}

// perCount never forms a product of count and type size that wraps int64:
// a count whose bytes exceed the size is no whole ratio (2^62 floats wrap
// to 0, 2^62 + 4096 floats and 2^61 + 2048 doubles to 16384).
func TestPerCountDoesNotWrap(t *testing.T) {
	for _, c := range []struct {
		size, count, ts, k int64
		whole              bool
	}{
		{16384, 4096, 4, 1, true}, // AllReduce: count = size / 4
		{16384, 512, 4, 8, true},  // AllGather over 8 ranks
		{16384, 3000, 4, 0, false},
		{16384, 1 << 62, 4, 0, false},
		{16384, 1<<62 + 4096, 4, 0, false},
		{16384, 1<<61 + 2048, 8, 0, false},
		{1<<62 - 1, 1<<62 - 1, 1, 1, true},
	} {
		if k, whole := perCount(c.size, c.count, c.ts); k != c.k || whole != c.whole {
			t.Errorf("perCount(%d, %d, %d) = %d, %v; want %d, %v", c.size, c.count, c.ts, k, whole, c.k, c.whole)
		}
	}
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
