package nccltests

import (
	"bytes"
	"errors"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the Reader: it must never panic or
// hang, must fail only with a *ParseError, and what it returns must be well
// formed (each test has rows; every time and bandwidth finite and
// non-negative; the layout's counts non-negative, with no more processes
// than ranks; every problem, and the error, a *ParseError whose Column
// lies in its line).
// Seed corpus: testdata/fuzz/FuzzReader (the count_beyond_any_size seeds
// are red team rt4's crashers cut to their table's head and bad row, each
// saying in its first line what it holds), plus three fixtures and package
// data's public logs, each cut to its first lines (cutLog), and a JSON
// output of nccl-tests, whole with its first two records and cut, and
// rccl-tests' CSV output in each header's form, cut: every
// seed holds at most about 1 KiB, so that the fuzzer runs thousands of
// executions a second rather than minimising.
func FuzzReader(f *testing.F) {
	files := []string{"testdata/mpirun_noisy_allreduce.log", "testdata/multi_tests.log", "testdata/late2025_cputime_timestamp.log"}
	for _, name := range publicLogNames(f) {
		files = append(files, "../logs/"+name)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(cutLog(b, 2, 3, 1024))
	}
	// nccl-tests' JSON output: a run of two records, and one cut.
	b, err := os.ReadFile("testdata/json/alltoall_2x2_g2_nig.json")
	if err != nil {
		f.Fatal(err)
	}
	results := bytes.Index(b, []byte(`"results":[`))
	second := results + bytes.Index(b[results:], []byte(`},{"size"`)) + len("},")
	third := second + bytes.Index(b[second:], []byte(`},{"size"`)) + len("}")
	f.Add(append(slices.Clip(b[:third]), "]}"...))
	f.Add(b[:min(len(b), 1024)])
	// rccl-tests' CSV output: the header of each form with its first rows.
	for _, name := range []string{"mi355x_2x8_allreduce_mpi.csv", "mi355x_2x8_allreduce_mpi_three_names.csv", "mi350x_1x8_g8_allreduce_single.csv"} {
		b, err := os.ReadFile("testdata/csv/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 1024)])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := read(bytes.NewReader(b), "fuzz", Options{})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || l != nil {
				t.Fatalf("error %v (%T) with log %v; want a *ParseError and no log", err, err, l)
			}
			if lines := strings.Split(string(b), "\n"); pe.Line > len(lines) || pe.Line >= 1 && (pe.Column < 0 || pe.Column > len(lines[pe.Line-1])) {
				t.Fatalf("error %v: line %d column %d outside the input", err, pe.Line, pe.Column)
			}
			return
		}
		if len(l.Tests) == 0 {
			t.Fatal("no error and no test")
		}
		for _, tt := range l.Tests {
			if len(tt.Rows) == 0 {
				t.Fatal("a test without rows")
			}
			if tt.Ranks < 0 || tt.Nodes < 0 {
				t.Fatalf("ranks %d nodes %d", tt.Ranks, tt.Nodes)
			}
			if tt.Processes < 0 || tt.Processes > tt.Ranks || tt.Threads < 0 || tt.GPUsPerThread < 0 || tt.Graphs < 0 || tt.AggIters < 0 {
				t.Fatalf("%d processes of %d ranks, threads %d, GPUs per thread %d, graphs %d, agg iters %d",
					tt.Processes, tt.Ranks, tt.Threads, tt.GPUsPerThread, tt.Graphs, tt.AggIters)
			}
			for _, r := range tt.Rows {
				if r.Size < 0 {
					t.Fatalf("line %d: size %d", r.Line, r.Size)
				}
				for _, h := range []Result{r.OutOfPlace, r.InPlace} {
					for _, v := range []float64{h.Time, h.AlgBW, h.BusBW} {
						if !(v >= 0) || math.IsInf(v, 0) {
							t.Fatalf("line %d: value %g", r.Line, v)
						}
					}
				}
			}
		}
		lines := strings.Split(string(b), "\n")
		for _, p := range l.Problems {
			var pe *ParseError
			if !errors.As(p, &pe) {
				t.Fatalf("problem %v is not a *ParseError", p)
			}
			if pe.Line < 1 || pe.Line > len(lines) || pe.Column < 0 || pe.Column > len(lines[pe.Line-1]) {
				t.Fatalf("problem %v: line %d column %d outside the input", p, pe.Line, pe.Column)
			}
		}
	})
}

// FuzzTagJoiner feeds arbitrary lines to the tagJoiner: every piece of every
// line it hands out must be the input bytes it says it came from, no input
// byte may come out twice, and the only bytes left out are Open MPI tags and
// the launch prefix before a line's first tag. Seed corpus:
// testdata/fuzz/FuzzTagJoiner, plus the real logs printed through mpirun
// --tag-output.
func FuzzTagJoiner(f *testing.F) {
	for _, name := range []string{"testdata/real/h100_2x8_allreduce_tagoutput_split_rows_p5.log", "testdata/real/rtx5090_2rank_allreduce_tagoutput_late2025.log"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lines := strings.Split(string(b), "\n")
		var j tagJoiner
		var out []joined
		for i, s := range lines {
			if !j.add(i+1, s) {
				out = append(out, joined{text: s, line: i + 1, pieces: []piece{{0, i + 1, 0}}})
			}
			out = appendClones(out, j.take())
		}
		j.flush()
		out = appendClones(out, j.take())
		if len(j.open) != 0 {
			t.Fatalf("%d lines still open after flush", len(j.open))
		}
		used := make([][]bool, len(lines))
		for i, s := range lines {
			used[i] = make([]bool, len(s))
		}
		for _, o := range out {
			if len(o.pieces) == 0 || o.pieces[0].at != 0 || o.pieces[0].line != o.line {
				t.Fatalf("line %d %q: pieces %v do not start the text", o.line, o.text, o.pieces)
			}
			for k, pc := range o.pieces {
				end := len(o.text)
				if k+1 < len(o.pieces) {
					end = o.pieces[k+1].at
				}
				if pc.line < 1 || pc.line > len(lines) || end < pc.at || pc.off+end-pc.at > len(lines[pc.line-1]) {
					t.Fatalf("piece %+v of %q lies outside the input", pc, o.text)
				}
				if got, want := o.text[pc.at:end], lines[pc.line-1][pc.off:pc.off+end-pc.at]; got != want {
					t.Fatalf("piece %+v: %q, the input has %q", pc, got, want)
				}
				for x := pc.off; x < pc.off+end-pc.at; x++ {
					if used[pc.line-1][x] {
						t.Fatalf("line %d byte %d comes out twice", pc.line, x)
					}
					used[pc.line-1][x] = true
				}
			}
		}
		for i, s := range lines {
			skip := make([]bool, len(s))
			first := true
			for start, end := findTag(s, 0); start >= 0; start, end = findTag(s, end) {
				if first && strings.TrimSpace(stripLaunchPrefix(s[:start])) == "" {
					start = 0
				}
				first = false
				for x := start; x < end; x++ {
					skip[x] = true
				}
			}
			for x := range s {
				if !used[i][x] && !skip[x] {
					t.Fatalf("line %d byte %d (%q) was lost", i+1, x, s)
				}
			}
		}
	})
}

// appendClones appends copies of lines to out: the joiner reuses their
// pieces after the next add.
func appendClones(out, lines []joined) []joined {
	for _, l := range lines {
		l.pieces = append([]piece(nil), l.pieces...)
		out = append(out, l)
	}
	return out
}

// FuzzDebugLine feeds arbitrary text to the reader of NCCL's debug lines,
// as the message after "NCCL INFO ": it must never panic, and every fact it
// keeps must be at the line it was given, with no negative count, a NIC
// count from 1 to MaxNICs (one beyond dropped at the line, for the parser
// to report), a speed finite and positive, and a setting of the environment named, at its
// line, a line NCCL cannot have printed (a device listed twice, a comm
// line's counts that contradict each other) reported at the line with
// nothing kept of it, and a comm line's counts kept only where NCCL can
// print them together. Seed corpus: testdata/fuzz/FuzzDebugLine, and
// every debug line of the real logs with NCCL_DEBUG=INFO lines.
func FuzzDebugLine(f *testing.F) {
	for _, name := range []string{"testdata/real/h800_1x8_broadcast_ncclinfo.log", "testdata/real/v100_efa_2x1_allreduce_pre2022.log",
		"testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log",
		"testdata/mpirun_noisy_allreduce.log", "../../commmodel/nccl/testdata/graph_h20_2gpu_2nic_nccl1189.log",
		"../../commmodel/nccl/testdata/tuning_2.20_h100_2x8_nccl1519.log"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if _, msg, ok := strings.Cut(line, "NCCL INFO "); ok {
				f.Add(msg)
			}
		}
	}
	// NCCL 2.30's lines, which no real log here holds yet (init.cc:1319).
	f.Add("Local Net device counts across ranks: min 8 max 8")
	f.Add("Local Net device counts across ranks: min 4 max 8")
	f.Fuzz(func(t *testing.T, msg string) {
		var d debugState
		d.line(7, "", msg)
		e := d.evidence()
		for _, c := range []struct {
			what string
			line int
			v    int
		}{
			{"NIC count", e.NICCount.Line, e.NICCount.Value}, {"rings", e.Rings.Line, e.Rings.Value},
			{"trees", e.Trees.Line, e.Trees.Value}, {"ranks", e.Ranks.Line, e.Ranks.Value},
			{"nodes", e.Nodes.Line, e.Nodes.Value}, {"local ranks", e.LocalRanks.Line, e.LocalRanks.Value},
			{"coll channels", e.Channels.Line, e.Channels.Value.Coll},
		} {
			if c.line != 0 && c.line != 7 || c.v < 0 {
				t.Fatalf("%s %d at line %d, from %q", c.what, c.v, c.line, msg)
			}
		}
		// A NIC count is a host's, from 1 to MaxNICs, and one out of
		// that range is dropped at the line for the parser to report.
		for _, c := range []Fact[int]{e.PluginNICs, e.NICCount, d.localNets} {
			if c.Known() && (c.Value < 1 || c.Value > MaxNICs) {
				t.Fatalf("NIC count %+v from %q", c, msg)
			}
		}
		for _, c := range d.dropped {
			if c.line != 7 || c.digits == "" {
				t.Fatalf("dropped %+v from %q", c, msg)
			}
		}
		// A line NCCL cannot have printed (a device listed twice, a comm
		// line's counts that contradict each other) is reported at its
		// line, and says nothing of what it lists.
		for _, c := range d.damaged {
			if c.line != 7 || !errors.Is(c.err, ErrInconsistent) {
				t.Fatalf("damaged %+v from %q", c, msg)
			}
		}
		if len(d.damaged) > 0 && (len(e.NICs) > 0 || e.Ranks.Known() || e.Nodes.Known()) {
			t.Fatalf("damaged %+v, yet NICs %+v, ranks %+v, nodes %+v from %q", d.damaged, e.NICs, e.Ranks, e.Nodes, msg)
		}
		if e.Nodes.Known() && (e.Nodes.Value < 1 || e.Nodes.Value > e.Ranks.Value || e.LocalRanks.Value > e.Ranks.Value-e.Nodes.Value+1) {
			t.Fatalf("nodes %+v, local ranks %+v of ranks %+v from %q", e.Nodes, e.LocalRanks, e.Ranks, msg)
		}
		if e.NICBW.Known() && (!(e.NICBW.Value > 0) || math.IsInf(e.NICBW.Value, 0)) {
			t.Fatalf("NIC BW %g from %q", e.NICBW.Value, msg)
		}
		for _, nic := range e.NICs {
			if nic.Line != 7 || nic.Index < 0 || nic.Index >= MaxNICs || nic.Name == "" || nic.BW < 0 {
				t.Fatalf("NIC %+v from %q", nic, msg)
			}
		}
		// One line sets at most one parameter, by its name; NCCL_ALGO and
		// NCCL_PROTO are Algo and Proto too.
		if len(e.Env) > 1 || len(e.Env) == 1 && (e.Env[0].Line != 7 || e.Env[0].Name == "") {
			t.Fatalf("settings %+v from %q", e.Env, msg)
		}
		if e.Algo.Known() && (len(e.Env) != 1 || e.Env[0].Name != "NCCL_ALGO" || e.Env[0].Value != e.Algo.Value) {
			t.Fatalf("Algo %+v beside settings %+v from %q", e.Algo, e.Env, msg)
		}
	})
}

// seedRow is a table row as a seed cutter sees it: two integers first,
// after an Open MPI tag or a launcher's label if any.
var seedRow = regexp.MustCompile(`^\s*(\S*[:>]\s*)?\d+\s+\d+\s`)

// cutLog cuts a log to a small fuzz seed of the same format: of each test
// its first maxRanks Rank lines and maxRows rows, of the whole log the first
// 3 NCCL debug lines, and at most most bytes in all, so that the fuzzer
// spends its time mutating rather than minimising (its minimiser takes time
// quadratic in an input's length: a new input found from an 8 KiB seed
// held FuzzReader at 0 executions a second for a minute).
func cutLog(b []byte, maxRanks, maxRows, most int) []byte {
	var out []byte
	ranks, rows, debug := 0, 0, 0
	for _, line := range strings.SplitAfter(string(b), "\n") {
		switch {
		case strings.Contains(line, "CCL INFO") || strings.Contains(line, "CCL WARN"):
			if debug++; debug > 3 {
				continue
			}
		case strings.Contains(line, "# nThread") || strings.Contains(line, "# Collective test starting"):
			ranks, rows = 0, 0
		case strings.Contains(line, " Rank ") && strings.Contains(line, " device "):
			if ranks++; ranks > maxRanks {
				continue
			}
		case seedRow.MatchString(line):
			if rows++; rows > maxRows {
				continue
			}
		}
		if len(out)+len(line) > most {
			break
		}
		out = append(out, line...)
	}
	return out
}
