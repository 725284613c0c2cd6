package nccltests_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/internal/golden"
	"github.com/inframethod/commlab/data/nccltests"
)

// csvRuns are public text logs of testdata/real written as rccl-tests -Z
// csv writes the same run (ROCm/rccl-tests src/common.cu, Reporter): one
// row a size and placement, the rank columns from the log's processes and
// GPUs a process, numbers with six decimals, algbw and busbw from the
// log's size and time unrounded, as rccl-tests computes them. The header comes in its three
// forms: built with MPI ("nodes,ranks,ranksPerNode,gpusPerRank"), the
// earlier MPI header that names three of the four columns its rows hold
// ("ranks,rankspernode,gpusperrank"), and built without MPI ("gpus"). They
// cover 16 processes of one GPU over 2 nodes, an AllToAll of 32, and one
// process driving 8 GPUs.
var csvRuns = []struct {
	log, out, header string
}{
	{"mi355x_2x8_allreduce_pollara_oci.log", "mi355x_2x8_allreduce_mpi.csv", "mpi"},
	{"mi355x_2x8_allreduce_pollara_oci.log", "mi355x_2x8_allreduce_mpi_three_names.csv", "three"},
	{"mi355x_4x8_alltoall_pollara_oci.log", "mi355x_4x8_alltoall_mpi.csv", "mpi"},
	{"mi350x_1x8_g8_allreduce_ihc_smci350.log", "mi350x_1x8_g8_allreduce_single.csv", "single"},
}

// csvNames are the collective column's names: each test's testColl name
// in rccl-tests' src/*.cu.
var csvNames = map[string]string{"all_reduce": "AllReduce", "alltoall": "AlltoAll", "all_gather": "AllGather",
	"reduce_scatter": "ReduceScatter", "broadcast": "Broadcast", "reduce": "Reduce", "sendrecv": "SendRecv"}

// csvOf writes test t, read from log, as rccl-tests' CSV output of its
// run, its header of the form header names, after a note that names the
// log (a '#' line, which rccl-tests does not write and the reader skips).
func csvOf(t *nccltests.Test, log, header string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Source: data/nccltests/testdata/real/%s, written as rccl-tests -Z csv writes it (ROCm/rocm-systems projects/rccl-tests/src/common.cu, 491c996048b8, Reporter)\n", log)
	per := max(t.Threads*t.GPUsPerThread, 1)
	procs := t.Ranks / per
	lead := ""
	switch header {
	case "mpi":
		b.WriteString("numCycle,collective,nodes,ranks,ranksPerNode,gpusPerRank,size,type,redop,inplace,time,algbw,busbw,#wrong\n")
		lead = fmt.Sprintf("1,%d,%d,%d", procs, procs, per)
	case "three":
		b.WriteString("numCycle,collective,ranks,rankspernode,gpusperrank,size,type,redop,inplace,time,algbw,busbw,#wrong\n")
		lead = fmt.Sprintf("1,%d,%d,%d", procs, procs, per)
	case "single":
		b.WriteString("numCycle,collective,gpus,size,type,redop,inplace,time,algbw,busbw,#wrong\n")
		lead = strconv.Itoa(per)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	for _, r := range t.Rows {
		for i, h := range []nccltests.Result{r.OutOfPlace, r.InPlace} {
			// rccl-tests prints algbw = size/time and busbw = algbw times
			// the bus factor unrounded: from the log's time, as printed.
			alg := float64(r.Size) / h.Time / 1e9
			fmt.Fprintf(&b, "0,%q,%s,%d,%q,%q,%d,%s,%s,%s,%q\n", csvNames[t.Op], lead, r.Size, r.Type, r.RedOp, i, f(h.Time*1e6), f(alg), f(alg*t.Collective.BusFactor(t.Ranks)), h.Wrong)
		}
	}
	return b.String()
}

// TestRCCLCSV writes each of csvRuns as rccl-tests' CSV (testdata/csv,
// go test -update rewrites them) and reads it back: the CSV gives the
// table its text log gives, row for row at the line of its out-of-place
// half, the collective from its name, the ranks from its columns
// (processes·GPUs a process) and the layout, the run marked RCCL's; no
// node count, which no column gives, but where one process ran them all.
// A process of several GPUs is taken as one thread of them, with a warning
// that names the keys that say otherwise.
func TestRCCLCSV(t *testing.T) {
	for _, run := range csvRuns {
		t.Run(run.out, func(t *testing.T) {
			text, _, err := readFile(filepath.Join("testdata", "real", run.log), run.log)
			if err != nil || len(text) != 1 {
				t.Fatalf("%s: %d tests, %v", run.log, len(text), err)
			}
			want := text[0]
			out := filepath.Join("testdata", "csv", run.out)
			golden.Check(t, out, csvOf(want, run.log, run.header))
			tests, problems, err := readFile(out, run.out)
			if err != nil || len(tests) != 1 {
				t.Fatalf("%s: %d tests, %v", out, len(tests), err)
			}
			got := tests[0]
			per := max(want.Threads*want.GPUsPerThread, 1)
			nodes := 0
			if want.Ranks == per {
				nodes = 1 // one process ran every rank
			}
			if got.Name != want.Op+"_perf" || got.Collective != want.Collective || got.CollectiveFrom != nccltests.FromName ||
				got.Ranks != want.Ranks || got.RanksFrom != nccltests.FromColumns || got.Nodes != nodes ||
				got.Processes != want.Ranks/per || got.Threads*got.GPUsPerThread != per ||
				len(got.Rows) != len(want.Rows) || !got.Evidence.RCCL.Value {
				t.Fatalf("CSV: %s %v from %v, %d ranks from %v, %d nodes, %d processes, %dx%d, %d rows, RCCL %v; text: %s %v, %d ranks, %d processes, %dx%d, %d rows",
					got.Name, got.Collective, got.CollectiveFrom, got.Ranks, got.RanksFrom, got.Nodes, got.Processes, got.Threads, got.GPUsPerThread, len(got.Rows), got.Evidence.RCCL,
					want.Op, want.Collective, want.Ranks, want.Processes, want.Threads, want.GPUsPerThread, len(want.Rows))
			}
			for i, r := range got.Rows {
				w := want.Rows[i]
				if r.Line != 3+2*i || r.Size != w.Size || r.Type != w.Type || r.RedOp != w.RedOp ||
					!samePrinted(r.OutOfPlace, w.OutOfPlace) || !samePrinted(r.InPlace, w.InPlace) {
					t.Errorf("row %d: %+v; the text's %+v", i, r, w)
				}
			}
			for _, p := range problems {
				if got.GPUsPerThread == 1 || !errors.Is(p, nccltests.ErrInconsistent) || !strings.Contains(p.Error(), "give threads=T or g=G where they differ, and the other makes up the 8") {
					t.Errorf("problem %v", p)
				}
			}
		})
	}
}

// TestRCCLCSVInputs: what the reader makes of CSV that is not one whole
// run, each case built from mi355x_2x8_allreduce_mpi.csv, each problem at
// its own line: the file's notes before the header (past 64 KiB too) and
// after it; a row of a field too many or too few (left out, and an
// in-place row whose out-of-place row it was left out with it); a bad
// inplace; a bad in-place time or a NaN busbw (that half left out, the
// out-of-place one kept); a header alone (no row, said); a quote out of place (at its column); the halves in-place first
// (a file sorted again); a rank column that holds no count (said, and the
// table's busbw/algbw ratio gives the ranks); rank columns of 8 over a
// table whose ratio is 16 ranks' (kept, and said); a collective commlab does not read (left out, and no
// table where it is the only one, the error naming it); a header without
// a column the rows need; a second cycle (-N 2: its rows repeat the
// first's sizes in the one table, left out with a warning, as the text
// rccl-tests prints reads); a row
// whose in-place half is missing (the out-of-place half kept alone); and
// the CSV under other lines of a text log, which is not read as CSV.
func TestRCCLCSVInputs(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "csv", "mi355x_2x8_allreduce_mpi.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")[1:] // the note left out
	head, rows := lines[0], lines[1:]
	whole := strings.Join(lines, "")
	rows[len(rows)-1] += "\n"
	whole += "\n"
	with := func(rs ...string) string { return head + strings.Join(rs, "") }
	type problem struct {
		line, col int
		is        error
	}
	cases := []struct {
		name, in string
		tests    int
		rows     []int // each test's rows
		problems []problem
		ranks    int // the first test's, where tests > 0
	}{
		{name: "notes first", in: "# Source: a note\n\n# another\n" + whole, tests: 1, rows: []int{2}, ranks: 16},
		{name: "notes past 64 KiB", in: strings.Repeat("# a note of 64 bytes, as a long source note might be, to pad..\n", 1100) + whole, tests: 1, rows: []int{2}, ranks: 16},
		{name: "note after the header", in: with(rows[0], "# a note\n", rows[1], rows[2], rows[3]), tests: 1, rows: []int{2}, ranks: 16},
		{name: "field too many", in: with(rows[0], rows[1], strings.Replace(rows[2], ",", ",x,", 1), rows[3]), tests: 1, rows: []int{1},
			problems: []problem{{4, 0, nccltests.ErrFieldCount}, {5, 0, nccltests.ErrInconsistent}}, ranks: 16},
		{name: "field too few", in: with(rows[0], rows[1], rows[2], strings.Replace(rows[3], `"AllReduce",`, "", 1)), tests: 1, rows: []int{2},
			problems: []problem{{5, 0, nccltests.ErrFieldCount}}, ranks: 16},
		{name: "bad inplace", in: with(rows[0], strings.Replace(rows[1], `"sum",1,`, `"sum",2,`, 1)), tests: 1, rows: []int{1},
			problems: []problem{{3, 0, nccltests.ErrNumber}}, ranks: 16},
		{name: "bad in-place time", in: with(rows[0], strings.Replace(rows[1], `"sum",1,`, `"sum",1,4x`, 1), rows[2], rows[3]), tests: 1, rows: []int{2},
			problems: []problem{{3, 0, nccltests.ErrNumber}}, ranks: 16},
		{name: "nan in-place busbw", in: with(rows[0], regexp.MustCompile(`,[0-9.]+,"0"\n$`).ReplaceAllString(rows[1], `,nan,"0"`+"\n"), rows[2], rows[3]), tests: 1, rows: []int{2},
			problems: []problem{{3, 0, nccltests.ErrNumber}}, ranks: 16},
		{name: "header alone", in: head},
		{name: "quote out of place", in: with(rows[0], rows[1], strings.Replace(rows[2], `"float"`, `"fl"oat"`, 1), rows[3]), tests: 1, rows: []int{1},
			problems: []problem{{4, strings.Index(rows[2], `"float"`) + 4, nccltests.ErrFieldCount}, {5, 0, nccltests.ErrInconsistent}}, ranks: 16},
		{name: "in-place first", in: with(rows[1], rows[0], rows[3], rows[2]), tests: 1, rows: []int{2}, ranks: 16},
		{name: "rank column no count", in: with(strings.Replace(rows[0], ",16,16,", ",16,x,", 1), strings.Replace(rows[1], ",16,16,", ",16,x,", 1)), tests: 1, rows: []int{1},
			problems: []problem{{2, 0, nccltests.ErrNumber}}, ranks: 16},
		{name: "rank columns the table denies", in: with(strings.Replace(rows[0], ",16,16,", ",8,8,", 1), strings.Replace(rows[1], ",16,16,", ",8,8,", 1), strings.Replace(rows[2], ",16,16,", ",8,8,", 1), strings.Replace(rows[3], ",16,16,", ",8,8,", 1)), tests: 1, rows: []int{2},
			problems: []problem{{2, 0, nccltests.ErrInconsistent}}, ranks: 8},
		{name: "unknown collective", in: with(strings.ReplaceAll(rows[0], "AllReduce", "AlltoAllv"), strings.ReplaceAll(rows[1], "AllReduce", "AlltoAllv")),
			problems: []problem{{2, 0, nccltests.ErrNoTable}}},
		{name: "header lacks time", in: strings.Replace(head, ",time,", ",duration,", 1) + strings.Join(rows[:2], ""),
			problems: []problem{{1, 0, nccltests.ErrFieldCount}}},
		{name: "second cycle", in: with(rows[0], rows[1], strings.Replace(rows[0], "0,", "1,", 1), strings.Replace(rows[1], "0,", "1,", 1)), tests: 1, rows: []int{1},
			problems: []problem{{4, 0, nccltests.ErrInconsistent}}, ranks: 16},
		{name: "in-place missing", in: with(rows[0], rows[2], rows[3]), tests: 1, rows: []int{2}, ranks: 16},
		{name: "in-place alone", in: with(rows[1], rows[3]), tests: 1, rows: []int{2}, ranks: 16},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tests, problems, err := readCSV(c.in)
			if c.tests == 0 {
				// The error names the first problem, not a CSV "under
				// other lines", or the CSV's want of rows.
				want := "with no row under its header"
				if len(c.problems) > 0 {
					want = fmt.Sprintf("x.csv:%d:", c.problems[0].line)
				}
				if !errors.Is(err, nccltests.ErrNoTable) || strings.Contains(err.Error(), "under other lines") || !strings.Contains(err.Error(), want) {
					t.Fatalf("err %v, want no table, of %v", err, c.problems)
				}
				return
			}
			if err != nil || len(tests) != c.tests || tests[0].Ranks != c.ranks {
				t.Fatalf("%d tests, %v, the first of %d ranks; want %d of %d", len(tests), err, tests[0].Ranks, c.tests, c.ranks)
			}
			for i, n := range c.rows {
				if len(tests[i].Rows) != n {
					t.Errorf("test %d: %d rows, want %d", i, len(tests[i].Rows), n)
				}
			}
			if len(problems) != len(c.problems) {
				t.Fatalf("problems %v, want %v", problems, c.problems)
			}
			for i, p := range problems {
				var pe *nccltests.ParseError
				if w := c.problems[i]; !errors.As(p, &pe) || pe.Line != w.line || pe.Column != w.col || !errors.Is(p, w.is) {
					t.Errorf("problem %v, want at %d:%d, %v", p, w.line, w.col, w.is)
				}
			}
		})
	}
	// Under other lines, the CSV is no file of its own: the text reader
	// finds no table in it and says what it is.
	_, _, err = readCSV("$ rccl-tests/build/all_reduce_perf -Z csv -X out.csv\n" + whole)
	if !errors.Is(err, nccltests.ErrNoTable) || !strings.Contains(err.Error(), "rccl-tests' CSV output") {
		t.Errorf("pasted: %v", err)
	}
}

// readCSV reads in as the file x.csv.
func readCSV(in string) ([]*nccltests.Test, []error, error) {
	r := nccltests.NewReader(strings.NewReader(in))
	r.Name = "x.csv"
	tests, err := r.ReadAll()
	return tests, r.Problems(), err
}

// samePrinted reports that a, a half of a CSV row, is b, the text log's,
// to within the text's rounding: the same time, and bandwidths within the
// 0.005 GB/s of its two decimals and the 5e-4 that its time's rounding
// (nccl-tests' %7.2f to 100 us, %7.1f to 10,000 us: 0.05 of 100 us at
// most) makes of the CSV's size/time.
func samePrinted(a, b nccltests.Result) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= 0.0051e9+5.1e-4*y }
	return math.Abs(a.Time-b.Time) <= 1e-12 && near(a.AlgBW, b.AlgBW) && near(a.BusBW, b.BusBW) && a.Wrong == b.Wrong
}

// jsonOfCSV writes the rows of a CSV of csvOf as rccl-tests -Z json writes
// the same run (Reporter::writeFile's json branch, ROCm/rocm-systems
// projects/rccl-tests/src/common.cu 491c996048b8): "[", one object a row
// on its own line, its keys addResult's, "]".
func jsonOfCSV(csv string) string {
	lines := strings.Split(strings.TrimSpace(csv), "\n")[1:] // the note left out
	keys := strings.Split(lines[0], ",")
	for i, k := range keys {
		keys[i] = map[string]string{"collective": "name", "inplace": "inPlace", "algbw": "algBw", "busbw": "busBw", "#wrong": "wrong"}[k]
		if keys[i] == "" {
			keys[i] = k
		}
	}
	var recs []string
	for _, row := range lines[1:] {
		var kv []string
		for i, v := range strings.Split(row, ",") {
			kv = append(kv, fmt.Sprintf("%q:%s", keys[i], v))
		}
		recs = append(recs, "{"+strings.Join(kv, ", ")+"}")
	}
	return "[\n" + strings.Join(recs, ",\n") + "\n]\n"
}

// TestRCCLJSON: rccl-tests' JSON output (-Z json) of the same runs as
// csvRuns' CSVs of the current headers gives the same tests, row for row,
// each at its record's line (the CSV's less the note, as "[" takes its
// place), its keys in any order; a record that does not parse is left out
// at its line; the array on one line is no layout rccl-tests writes, and
// the error says what it is.
func TestRCCLJSON(t *testing.T) {
	for _, run := range csvRuns {
		if run.header == "three" {
			continue // the JSON names every key
		}
		t.Run(run.out, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "csv", run.out))
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := readCSV(string(b))
			if err != nil || len(want) != 1 {
				t.Fatalf("CSV: %d tests, %v", len(want), err)
			}
			js := jsonOfCSV(string(b))
			got, problems, err := readCSV(js)
			if err != nil || len(got) != 1 || len(problems) != len(wantProblems(t, string(b))) {
				t.Fatalf("JSON: %d tests, problems %v, %v", len(got), problems, err)
			}
			g, w := got[0], want[0]
			if g.Name != w.Name || g.Collective != w.Collective || g.Ranks != w.Ranks || g.RanksFrom != w.RanksFrom || g.Processes != w.Processes || len(g.Rows) != len(w.Rows) {
				t.Fatalf("JSON: %s %v, %d ranks (%v), %d processes, %d rows; CSV: %s %v, %d ranks (%v), %d processes, %d rows",
					g.Name, g.Collective, g.Ranks, g.RanksFrom, g.Processes, len(g.Rows), w.Name, w.Collective, w.Ranks, w.RanksFrom, w.Processes, len(w.Rows))
			}
			for i := range g.Rows {
				if r := g.Rows[i]; r.Line != w.Rows[i].Line-1 || r.Size != w.Rows[i].Size || r.OutOfPlace != w.Rows[i].OutOfPlace || r.InPlace != w.Rows[i].InPlace {
					t.Errorf("row %d: %+v; the CSV's %+v", i, r, w.Rows[i])
				}
			}
			// Keys in another order from the third record on (a tool
			// that rewrote the file): the same rows.
			recs := strings.SplitAfter(js, "\n")
			for i := 3; i < len(recs)-2; i++ {
				name := regexp.MustCompile(`"name":"[A-Za-z]+", `).FindString(recs[i])
				recs[i] = "{" + strings.TrimPrefix(strings.Replace(recs[i], name, "", 1), "{")
				recs[i] = strings.Replace(recs[i], "}", ", "+strings.TrimSuffix(name, ", ")+"}", 1)
			}
			moved, problems, err := readCSV(strings.Join(recs, ""))
			if err != nil || len(moved) != 1 || len(moved[0].Rows) != len(w.Rows) || len(problems) != len(wantProblems(t, string(b))) {
				t.Errorf("keys moved: %d tests, problems %v, %v", len(moved), problems, err)
			}
			// A record cut short is left out at its line; its size's
			// other half stands alone.
			lines := strings.SplitAfter(js, "\n")
			lines[2] = lines[2][:len(lines[2])/2] + "\n"
			_, problems, err = readCSV(strings.Join(lines, ""))
			if err != nil || !slices.ContainsFunc(problems, func(p error) bool {
				return errors.Is(p, nccltests.ErrFieldCount) && strings.HasPrefix(p.Error(), "x.csv:3: ") && strings.Contains(p.Error(), "-Z json")
			}) {
				t.Errorf("a record cut short: problems %v, %v; want one at line 3", problems, err)
			}
		})
	}
}

// TestRCCLJSONOneLine: rccl-tests' JSON output on one line (jq -c) is no
// layout rccl-tests writes: the error names it and the layout it reads.
func TestRCCLJSONOneLine(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "csv", "mi355x_2x8_allreduce_mpi.csv"))
	if err != nil {
		t.Fatal(err)
	}
	one := strings.ReplaceAll(jsonOfCSV(string(b)), "\n", "")
	_, _, err = readCSV(one)
	if !errors.Is(err, nccltests.ErrNoTable) || !strings.Contains(err.Error(), "rccl-tests' JSON output (-Z json) laid out otherwise") {
		t.Errorf("one line: %v", err)
	}
}

// wantProblems returns the problems of reading csv.
func wantProblems(t *testing.T, csv string) []error {
	t.Helper()
	_, problems, _ := readCSV(csv)
	return problems
}
