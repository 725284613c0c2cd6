package nccltests

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDamagedRowsAreReported: a row of an open table that cannot be read,
// or that holds no measurement, is never lost without a word (red team 38):
// a size with a sign, with thousands separators, in exponent form or a
// word (inf, NaN) is a bad number at the size's column and the row is left out; a time of 0
// ("0", "-0", or one that underflows) at a size above 0, or a negative
// time, is a bad number at the time's column, the row kept with that half
// no measurement; each warning says which.
func TestDamagedRowsAreReported(t *testing.T) {
	const head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n" +
		"     1048576        262144     float     sum      -1    44.38   23.63   41.35      0    44.10   23.70   41.47      0\n"
	const tail = "     4194304       1048576     float     sum      -1    55.70   75.30  131.77      0    55.43   75.67  132.42      0\n"
	for _, c := range []struct {
		name, row string
		col       int
		rows      int
	}{
		{"negative size", "    -2097152        524288     float     sum      -1    45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 5, 2},
		{"thousands", "   2,097,152        524288     float     sum      -1    45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 4, 2},
		{"exponent", "  2.097152e6        524288     float     sum      -1    45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 3, 2},
		{"inf", "         inf        524288     float     sum      -1    45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 10, 2},
		{"nan", "         NaN        524288     float     sum      -1    45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 10, 2},
		{"time 0", "     2097152        524288     float     sum      -1     0.00   46.02   80.54      0    45.10   46.50   81.38      0\n", 58, 3},
		{"time -0", "     2097152        524288     float     sum      -1       -0   46.02   80.54      0    45.10   46.50   81.38      0\n", 60, 3},
		{"time 1e-320", "     2097152        524288     float     sum      -1   1e-320   46.02   80.54      0    45.10   46.50   81.38      0\n", 56, 3},
		// A negative time is no measurement, as 0 is: its half is left
		// out and the row kept (red team rt2 m9 dropped the row with a
		// bare "bad number").
		{"time -45.57", "     2097152        524288     float     sum      -1   -45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 56, 3},
		// A time nccl-tests cannot print, or beyond any call's, is no
		// measurement either (red team: 1e-300 us made an interval of
		// two years); Go's number forms beyond printf's are no number.
		{"time 1e-300", "     2097152        524288     float     sum      -1   1e-300   46.02   80.54      0    45.10   46.50   81.38      0\n", 56, 3},
		{"time 0.001", "     2097152        524288     float     sum      -1    0.001   46.02   80.54      0    45.10   46.50   81.38      0\n", 57, 3},
		{"time 1e308", "     2097152        524288     float     sum      -1   1e+308   46.02   80.54      0    45.10   46.50   81.38      0\n", 56, 3},
		{"time 1_0", "     2097152        524288     float     sum      -1  45.57_0   46.02   80.54      0    45.10   46.50   81.38      0\n", 55, 2},
		{"time 0x1p4", "     2097152        524288     float     sum      -1    0x1p4   46.02   80.54      0    45.10   46.50   81.38      0\n", 57, 2},
		{"time +45.57", "     2097152        524288     float     sum      -1   +45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 56, 2},
		{"size 2^63-1", "9223372036854775807       524288  float     sum      -1    45.57   46.02   80.54      0    45.10   46.50   81.38      0\n", 1, 2},
	} {
		l, err := read(strings.NewReader(head+c.row+tail), "bad.log", Options{Collective: "allreduce", Ranks: 8})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var pe *ParseError
		if len(l.Problems) != 1 || !errors.As(l.Problems[0], &pe) || !errors.Is(pe, ErrNumber) || pe.Line != 3 || pe.Column != c.col {
			t.Errorf("%s: problems %v; want one bad number at 3:%d", c.name, l.Problems, c.col)
		}
		if n := len(l.Tests[0].Rows); n != c.rows {
			t.Errorf("%s: %d rows, want %d", c.name, n, c.rows)
		}
		// The warning says what became of the row.
		want := "; the row is left out"
		if c.rows == 3 {
			want = "; fits leave this half of the row out"
		}
		if len(l.Problems) == 1 && !strings.HasSuffix(l.Problems[0].Error(), want) {
			t.Errorf("%s: %v; want it to end %q", c.name, l.Problems[0], want)
		}
	}
	// Inside a table an MPI launcher's help-message lines, of a row's 13
	// fields (and of a pre-2022 AllGather's 11) with a number second, are
	// no rows and no problem; a word size with a timestamp after the row
	// is one.
	launcher := "[node0:01234] 13 more processes have sent help message help-mpi-btl-openib.txt / default subnet prefix\n"
	l, err := read(strings.NewReader(head+launcher+tail), "mpi.log", Options{Collective: "allreduce", Ranks: 8})
	if err != nil || len(l.Problems) != 0 || len(l.Tests[0].Rows) != 2 {
		t.Errorf("a launcher's 13-field line in a table: problems %v, %v", l.Problems, err)
	}
	const old = "#  size  count  type  time  algbw  busbw  error  time  algbw  busbw  error\n" +
		"   1048576    32768  float   44.38   23.63   20.68  0e+00   44.10   23.70   20.74  0e+00\n"
	l, err = read(strings.NewReader(old+"[node0:01234] 7 more processes have sent help message help-btl-vader.txt / cma-permission-denied\n"), "old.log",
		Options{Collective: "allgather", Ranks: 8})
	if err != nil || len(l.Problems) != 0 || len(l.Tests[0].Rows) != 1 {
		t.Errorf("a launcher's 11-field line in a pre-2022 table: problems %v, %v", l.Problems, err)
	}
	b, err := os.ReadFile("testdata/late2025_cputime_timestamp.log")
	if err != nil {
		t.Fatal(err)
	}
	stamped := strings.Replace(string(b), "        1024           256     float", "         inf           256     float", 1)
	l, err = read(strings.NewReader(stamped), "stamp.log", Options{})
	if err != nil || len(l.Problems) != 1 || !errors.Is(l.Problems[0], ErrNumber) || !strings.Contains(l.Problems[0].Error(), `size "inf"`) {
		t.Errorf("a word size in a row with a timestamp: problems %v, %v", l.Problems, err)
	}
	// Outside a table a line starting with a signed number is no row and
	// no problem: a poster's note, a timestamp.
	l, err = read(strings.NewReader("-1 is the root\n"+head+tail), "note.log", Options{Collective: "allreduce", Ranks: 8})
	if err != nil || len(l.Problems) != 0 || len(l.Tests[0].Rows) != 2 {
		t.Errorf("note before the table: %v, %v", l, err)
	}
}

// TestMaxRows: with Options.MaxRows the reader stops at the first row past
// it with ErrTooManyRows at that row's line, having kept no more rows than
// that in memory (red team 38: 3 million rows took 2.2 GB before the CLI
// counted them).
func TestMaxRows(t *testing.T) {
	const head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	var b strings.Builder
	b.WriteString(head)
	for i := range 10 {
		b.WriteString(strings.Repeat(" ", 4) + string(rune('1'+i%9)) + "048576        262144     float     sum      -1    44.38   23.63   41.35      0    44.10   23.70   41.47      0\n")
	}
	if _, err := read(strings.NewReader(b.String()), "rows.log", Options{Collective: "allreduce", Ranks: 8, MaxRows: 10}); err != nil {
		t.Errorf("10 rows, MaxRows 10: %v", err)
	}
	_, err := read(strings.NewReader(b.String()), "rows.log", Options{Collective: "allreduce", Ranks: 8, MaxRows: 7})
	var pe *ParseError
	if !errors.Is(err, ErrTooManyRows) || !errors.As(err, &pe) || pe.Line != 9 {
		t.Errorf("10 rows, MaxRows 7: %v; want ErrTooManyRows at line 9", err)
	}
}

// TestMaxRowsBad: rows the reader leaves out count against
// Options.MaxRows too, and the error says how many of them were bad and
// the first problem (red team rt2 F2: a million rows of 6 fields took
// 1.8 GB and wrote a 234 MB JSON, since only good rows counted).
func TestMaxRowsBad(t *testing.T) {
	const head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	const good = "     1048576        262144     float     sum      -1    44.38   23.63   41.35      0    44.10   23.78   41.61      0\n"
	const bad = "     1048576        262144     float     sum      -1    44.38\n"
	in := head + good + strings.Repeat(bad, 20)
	_, err := read(strings.NewReader(in), "bad.log", Options{Collective: "allreduce", Ranks: 8, MaxRows: 10})
	var pe *ParseError
	// Line 1 the header, 2 the good row, 3 to 11 nine bad rows: line 12
	// is the 11th row.
	const want = "bad.log:12: too many rows: more than 10, 9 of them left out with a problem (first problem: bad.log:3: wrong number of fields: 6"
	if !errors.Is(err, ErrTooManyRows) || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("1 good row and 20 bad, MaxRows 10: %v; want %q", err, want)
	}
}

// TestMaxProblems: past MaxProblems the reader lists no more problems but
// one ErrMoreProblems that counts them, at the first unlisted one's line,
// and reads on (red team rt2 F2).
func TestMaxProblems(t *testing.T) {
	const head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	const good = "     1048576        262144     float     sum      -1    44.38   23.63   41.35      0    44.10   23.78   41.61      0\n"
	const bad = "     1048576        262144     float     sum      -1    44.38\n"
	const nBad = MaxProblems + 500
	r := NewReader(strings.NewReader(head + strings.Repeat(bad, nBad) + good))
	r.Name, r.Collective, r.Ranks = "bad.log", "allreduce", 8
	tests, err := r.ReadAll()
	if err != nil || len(tests) != 1 || len(tests[0].Rows) != 1 {
		t.Fatalf("%d bad rows and a good one: %v; want the good row read", nBad, err)
	}
	ps := r.Problems()
	if len(ps) != MaxProblems+1 {
		t.Fatalf("%d bad rows: %d problems; want %d listed and one that counts the rest", nBad, len(ps), MaxProblems)
	}
	var pe *ParseError
	last := ps[MaxProblems]
	// Line 1 the header, the bad rows from line 2: the first unlisted is
	// line MaxProblems+2.
	if !errors.Is(last, ErrMoreProblems) || !errors.As(last, &pe) || pe.Line != MaxProblems+2 || !strings.Contains(last.Error(), ": 500 more") {
		t.Errorf("last problem %v; want ErrMoreProblems at line %d, 500 more", last, MaxProblems+2)
	}
	// The count reaches the error of a file with no good row: a problem
	// a bad row, and the test's of no rows.
	r = NewReader(strings.NewReader(head + strings.Repeat(bad, nBad)))
	r.Collective, r.Ranks = "allreduce", 8
	if _, err := r.ReadAll(); !errors.Is(err, ErrNoTable) || !strings.Contains(err.Error(), fmt.Sprintf("(%d problems;", nBad+1)) {
		t.Errorf("%d bad rows alone: %v; want no table, %d problems", nBad, err, nBad+1)
	}
}

// TestLongLine: a line longer than maxLine, here a Rank line with a pasted
// tail, is a warning (ErrLongLine) at its line and left unread; the lines
// after it read as ever (red team 38: a 240 MB Rank line took 18 s in the
// Rank line's regular expressions and 2 GB).
func TestLongLine(t *testing.T) {
	const head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	const row = "     1048576        262144     float     sum      -1    44.38   23.63   41.35      0    44.10   23.70   41.47      0\n"
	for _, end := range []string{"\n", "\r\n", ""} {
		long := "#  Rank  0 Group  0 Pid 1 on h device  0 [0x18] NVIDIA H100 80GB HBM3 " + strings.Repeat("x", 3*maxLine) + end
		in := long + head + row
		if end == "" {
			in = head + row + long // the input ends inside it
		}
		l, err := read(strings.NewReader(in), "long.log", Options{Collective: "allreduce", Ranks: 8})
		if err != nil {
			t.Fatalf("end %q: %v", end, err)
		}
		var pe *ParseError
		if len(l.Problems) != 1 || !errors.As(l.Problems[0], &pe) || !errors.Is(pe, ErrLongLine) || len(l.Tests) != 1 || len(l.Tests[0].Rows) != 1 {
			t.Errorf("end %q: problems %v, tests %v; want one ErrLongLine and the row", end, l.Problems, l.Tests)
		}
		if want := map[string]int{"": 3}[end]; want > 0 && pe != nil && pe.Line != want {
			t.Errorf("end %q: line %d, want %d", end, pe.Line, want)
		}
	}
}

// TestCommCountsDisagree: NCCL's own count of the communicator ("comm ...
// nRanks 16 nNodes 2") that differs from the Rank lines' 16 ranks on 2
// hosts is ErrInconsistent at the comm line (red team 38: nRanks 32 nNodes
// 4 went without a word); the log as posted has no such problem, nor one
// whose hosts share an NVLink domain.
func TestCommCountsDisagree(t *testing.T) {
	b, err := os.ReadFile("testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log")
	if err != nil {
		t.Fatal(err)
	}
	count := func(text string) (n int) {
		l, err := read(strings.NewReader(text), "comm.log", Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range l.Problems {
			if errors.Is(p, ErrInconsistent) && strings.Contains(p.Error(), "NCCL's communicator") {
				n++
			}
		}
		return n
	}
	if n := count(string(b)); n != 0 {
		t.Errorf("the log as posted: %d problems of the communicator, want 0", n)
	}
	if n := count(strings.ReplaceAll(string(b), "nRanks 16 nNodes 2", "nRanks 32 nNodes 4")); n != 2 {
		t.Errorf("nRanks 32 nNodes 4: %d problems of the communicator, want 2 (ranks, nodes)", n)
	}
	// In one NVLink domain (MNNVL 1) NCCL counts the domain as one node
	// (init.cc: nNodes counts the ranks' first ring ranks): its 2 hosts
	// are no inconsistency.
	mnnvl := strings.ReplaceAll(string(b), "nNodes 2 localRanks 8", "nNodes 1 localRanks 16")
	mnnvl = strings.ReplaceAll(mnnvl, "MNNVL 0", "MNNVL 1")
	if n := count(mnnvl); n != 0 {
		t.Errorf("nNodes 1 with MNNVL 1 on 2 hosts: %d problems of the communicator, want 0", n)
	}
}

// TestAlgBWRetyped: nccl-tests prints algbw = size / time, and a row whose
// cells disagree beyond their rounding (and algBWSlack) has one retyped
// (red team rt2 F4: ring.log's 1048576 row with its size and count x1000
// was fitted at 135 TB/s). Where both halves disagree, the size is the
// likely one and the row is left out; where one does, its half.
func TestAlgBWRetyped(t *testing.T) {
	const head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	// ring.log's rows at 512 KiB, 1 MiB and 2 MiB
	// (data/logs/paired/h100-sxm-1x8-together/all_reduce_ring.log, lines 39 to 41).
	const (
		r512k = "      524288        131072     float     sum      -1    43.78   11.98   20.96       0    40.29   13.01   22.78       0\n"
		r2m   = "     2097152        524288     float     sum      -1    45.57   46.02   80.54       0    43.16   48.59   85.04       0\n"
	)
	for _, c := range []struct {
		name, row string
		algbw     string // the field warned of
		rows      int    // the rows kept
	}{
		// 1048576000 B / 44.38 us = 23627 GB/s, printed 23.63.
		{"size x1000", "  1048576000     262144000     float     sum      -1    44.38   23.63   41.35       0    43.46   24.13   42.23       0\n", " 23.63", 2},
		// 1048576 B / 4.46 us = 235 GB/s, printed 24.13: the in-place half.
		{"in-place time", "     1048576        262144     float     sum      -1    44.38   23.63   41.35       0     4.46   24.13   42.23       0\n", " 24.13", 3},
	} {
		col := strings.Index(c.row, c.algbw) + 2 // 1-based, past the blank
		r := NewReader(strings.NewReader(head + r512k + c.row + r2m))
		r.Name, r.Collective, r.Ranks = "retyped.log", "allreduce", 8
		tests, err := r.ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ps := r.Problems()
		var pe *ParseError
		if len(ps) != 1 || !errors.Is(ps[0], ErrInconsistent) || !errors.As(ps[0], &pe) || pe.Line != 3 || pe.Column != col || !strings.Contains(pe.Error(), "but size / time is") {
			t.Errorf("%s: problems %v; want one ErrInconsistent at 3:%d", c.name, ps, col)
		}
		if got := len(tests[0].Rows); got != c.rows {
			t.Errorf("%s: %d rows; want %d", c.name, got, c.rows)
		}
		if r := tests[0].Rows[1]; c.rows == 3 && (r.InPlace.Time != 0 || math.Abs(r.OutOfPlace.Time-44.38e-6) > 1e-12) {
			t.Errorf("%s: the row's halves %+v; want the out-of-place time kept, the in-place left out", c.name, tests[0].Rows[1])
		}
	}
}

// TestAlgBWRealLogs: no real log's row disagrees with its own algbw, the
// 2019 DGX-2 log's (9% beyond rounding) among them.
func TestAlgBWRealLogs(t *testing.T) {
	var paths []string
	for _, dir := range []string{"testdata/real", "../logs"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".log") || strings.HasSuffix(path, ".json")) {
				paths = append(paths, path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(paths) < 100 {
		t.Fatalf("%d logs; want the hundreds of testdata/real and data/logs", len(paths))
	}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f)
		_, err = r.ReadAll()
		f.Close()
		if err != nil {
			continue // a log that is no table (testdata/real holds some); its own tests say so
		}
		for _, p := range r.Problems() {
			if strings.Contains(p.Error(), "but size / time is") {
				t.Errorf("%v", p)
			}
		}
	}
}

// TestWrappedRows: a log pasted from a narrow terminal or a document
// wraps a row's last fields onto a line of their own, at times after a
// blank line. Real logs so wrapped, each row's last one to three fields
// moved down, read as before, rows and problems alike; a row's start whose
// next line is another row, or is not what it lacks, is read as the row
// it is, a wrong number of fields at its line, and the next row is kept;
// a problem of a joined row names both its lines.
func TestWrappedRows(t *testing.T) {
	for _, path := range []string{
		"testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log",
		"testdata/real/rtx6000d_2x8_alltoall_late2025.log",
		"testdata/real/mi300x_1x8_allreduce_rocmblogs.log",
		"testdata/real/radeon_1x8_g8_alltoall_aion.log",
	} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var wrapped []string
		rows := 0
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) == 13 && allDigits(f[0]) {
				k := 1 + rows%3
				wrapped = append(wrapped, strings.Join(f[:13-k], " "))
				if rows%2 == 1 {
					wrapped = append(wrapped, "")
				}
				line = "   " + strings.Join(f[13-k:], " ")
				rows++
			}
			wrapped = append(wrapped, line)
		}
		if rows < 10 {
			t.Fatalf("%s: %d rows wrapped", path, rows)
		}
		want, err := read(strings.NewReader(string(b)), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := read(strings.NewReader(strings.Join(wrapped, "\n")), path, Options{})
		if err != nil {
			t.Fatalf("%s wrapped: %v", path, err)
		}
		if len(got.Tests) != len(want.Tests) || len(got.Problems) != len(want.Problems) {
			t.Fatalf("%s wrapped: %d tests, %d problems; want %d, %d: %v", path, len(got.Tests), len(got.Problems), len(want.Tests), len(want.Problems), got.Problems)
		}
		for i := range want.Tests {
			for _, rs := range [][]Row{got.Tests[i].Rows, want.Tests[i].Rows} {
				for k := range rs {
					rs[k].Line = 0 // the wrapped log's lines are others
				}
			}
			if g, w := fmt.Sprintf("%v %v", got.Tests[i].Collective, got.Tests[i].Rows), fmt.Sprintf("%v %v", want.Tests[i].Collective, want.Tests[i].Rows); g != w {
				t.Errorf("%s wrapped, test %d: %s\nwant %s", path, i, g, w)
			}
		}
	}
	const head = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
	const row = "     2097152        524288     float     sum      -1    45.57   46.02   80.54      0    45.10   46.50   81.38      0\n"
	for _, c := range []struct{ name, text string }{
		{"a row after it", "     1048576        262144     float     sum      -1    44.38   23.63   41.35      0    44.10\n" + row},
		{"more than it lacks", "     1048576        262144     float     sum      -1    44.38   23.63   41.35      0    44.10   23.70\n  41.47  0  7\n" + row},
	} {
		got, err := read(strings.NewReader(head+c.text), "w.log", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Tests) != 1 || len(got.Tests[0].Rows) != 1 || got.Tests[0].Rows[0].Size != 2097152 ||
			len(got.Problems) == 0 || !strings.HasPrefix(got.Problems[0].Error(), "w.log:2: wrong number of fields") {
			t.Errorf("%s: %d tests, rows %v, problems %v; want the row of 2097152 B kept and a wrong number of fields at line 2", c.name, len(got.Tests), got.Tests, got.Problems)
		}
	}
	// A row cut after its out-of-place half, then the in-place half of
	// the next, whose algbw is twice what this size over its time gives:
	// joined as one wrapped row, the half is left out, and the warning
	// names both lines.
	text := head + "     1048576        262144     float     sum      -1    44.38   23.63   41.35      0\n    45.10   46.50   81.38      0\n" + row
	got, err := read(strings.NewReader(text), "w.log", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Problems) != 1 || !errors.Is(got.Problems[0], ErrInconsistent) || !strings.Contains(got.Problems[0].Error(), "(the row is joined from lines 2 and 3, as a row wrapped onto the next)") {
		t.Errorf("two damaged rows joined: problems %v; want one inconsistency that names lines 2 and 3", got.Problems)
	}
}
