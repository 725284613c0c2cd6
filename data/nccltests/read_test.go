package nccltests

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/inframethod/commlab/commmodel"
)

// Column is the 1-based byte offset of the offending field in the line as
// the file has it, launcher prefix and indentation included.
func TestParseErrorColumn(t *testing.T) {
	const header = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	for _, c := range []struct {
		row  string
		bad  string // the offending field, unique in the row; Column is where it starts
		want error
	}{
		{"     1048576        262144     float     sum      -1    10.00  104.86  104.86      0    abc  104.86  104.86      0", "abc", ErrNumber},
		{"[1,0]<stdout>:     1048576        262144     float     sum      -1    10.00  x  104.86      0    10.00  104.86  104.86      0", "x", ErrNumber},
		{"0:  2097152  -5  float  sum  -1  10.00  104.86  104.86  0  10.00  104.86  104.86  0", "-5", ErrNumber},
		{"\t4194304\t1048576\tfloat\tsum\tfirst\t10.00\t104.86\t104.86\t0\t10.00\t104.86\t104.86\t0", "first", ErrNumber},
	} {
		in := header + "  8  2  float  sum  -1  1.00  0.01  0.01  0  1.00  0.01  0.01  0\n" + c.row + "\n"
		l := readString(t, in, Options{})
		var pe *ParseError
		if len(l.Problems) != 1 || !errors.As(l.Problems[0], &pe) {
			t.Fatalf("%q: problems %v; want one *ParseError", c.row, l.Problems)
		}
		// c.bad occurs once in c.row; the line is the third of the input.
		if want := strings.Index(c.row, c.bad) + 1; pe.Line != 3 || pe.Column != want || !errors.Is(pe, c.want) {
			t.Errorf("%q: %v (line %d column %d); want line 3 column %d, %v", c.row, pe, pe.Line, pe.Column, want, c.want)
		}
	}
	// A row with the wrong number of fields is a problem of the whole line.
	l := readString(t, header+"  8  2  float  sum  -1  1.00  0.01  0.01  0  1.00  0.01  0.01  0\n  16  4  float\n", Options{})
	if pe, ok := l.Problems[0].(*ParseError); !ok || pe.Line != 3 || pe.Column != 0 || !errors.Is(pe, ErrFieldCount) {
		t.Errorf("short row: %v; want line 3, column 0, ErrFieldCount", l.Problems[0])
	}
}

// Read returns the tests one at a time, in file order, then io.EOF, and
// io.EOF again. A Reader of an *os.File takes its name.
func TestReadOneAtATime(t *testing.T) {
	f, err := os.Open("testdata/multi_tests.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(f)
	if r.Name != "testdata/multi_tests.log" {
		t.Errorf("Name %q; want the *os.File's name", r.Name)
	}
	// The fixture's header: all_reduce, reduce_scatter, broadcast and
	// all_gather_perf, starting at lines 5, 42, 76 and 112.
	for i, want := range []struct {
		coll commmodel.Collective
		line int
	}{{commmodel.AllReduce, 5}, {commmodel.ReduceScatter, 42}, {commmodel.Broadcast, 76}, {commmodel.AllGather, 112}} {
		tt, err := r.Read()
		if err != nil || tt.Collective != want.coll || tt.Line != want.line || tt.Ranks != 4 {
			t.Fatalf("test %d: %+v, %v; want %v at line %d over 4 ranks", i, tt, err, want.coll, want.line)
		}
	}
	for range 2 {
		if tt, err := r.Read(); err != io.EOF || tt != nil {
			t.Errorf("after the last test: %v, %v; want nil, io.EOF", tt, err)
		}
	}
	if len(r.Problems()) != 0 {
		t.Errorf("problems %v", r.Problems())
	}
}

// The input is read in chunks: a line longer than a chunk is read whole, a
// NUL byte beyond the first chunk spoils its line only (ErrNULLine), and a
// read error comes back as a *ParseError naming the file.
func TestReadChunks(t *testing.T) {
	table := "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n" +
		"     1048576        262144     float     sum      -1    10.00  104.86  104.86      0    10.00  104.86  104.86      0\n"
	long := "# " + strings.Repeat("x", 3*textSniffLen) + "\n"
	l := readString(t, long+table, Options{})
	if len(l.Tests) != 1 || l.Tests[0].Line != 2 || len(l.Tests[0].Rows) != 1 {
		t.Errorf("after a %d-byte line: %d tests; want one at line 2 with one row", len(long), len(l.Tests))
	}

	pad := strings.Repeat("# padding\n", textSniffLen/10+1)
	in := table + pad + "late\x00\n"
	late, err := read(strings.NewReader(in), "late.log", Options{})
	var pe *ParseError
	if err != nil || len(late.Tests) != 1 || len(late.Problems) != 1 || !errors.As(late.Problems[0], &pe) || !errors.Is(pe, ErrNULLine) ||
		pe.Line != strings.Count(table+pad, "\n")+1 {
		t.Errorf("NUL on the last line: %v, problems %v; want the table, and ErrNULLine at that line", err, late)
	}

	broken := errors.New("disk on fire")
	_, err = read(io.MultiReader(strings.NewReader(table), iotest.ErrReader(broken)), "io.log", Options{})
	if !errors.As(err, &pe) || !errors.Is(err, broken) || pe.File != "io.log" {
		t.Errorf("read error: %v; want a *ParseError naming io.log wrapping it", err)
	}
}

// An unknown Options.Collective fails the first Read, before any input is
// read.
func TestReadBadOverride(t *testing.T) {
	in := &bytes.Buffer{}
	in.WriteString("anything")
	r := NewReader(in)
	r.Name, r.Collective = "o.log", "gossip"
	_, err := r.Read()
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "o.log" || in.Len() != len("anything") {
		t.Errorf("unknown collective: %v, %d bytes left; want a *ParseError naming o.log, nothing read", err, in.Len())
	}
	if _, again := r.Read(); again != err {
		t.Errorf("second Read: %v; want the same error", again)
	}
}
