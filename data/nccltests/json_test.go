package nccltests_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/inframethod/commlab/data/internal/golden"
	"github.com/inframethod/commlab/data/nccltests"
)

// jsonRuns are public text logs of testdata/real written as nccl-tests -J
// FILE.json writes the same run (nccl-tests 2.19.6, a0b82b2, src/util.cu:
// jsonOutputInit, writeDeviceReport, writeBenchmarkLine*,
// writeResultFooter), with the command line, environment and NCCL release
// their "# Source:" lines give; the JSON's "source" key names the log, and
// stands where nccl-tests writes the run's start time, which no log gives.
// The three cover one process a GPU across hosts, NCCL_ALGO set in the
// environment, and AllToAll with two GPUs a process (-g 2), whose JSON keeps
// one Rank record a process, as nccl-tests' parseRankInfo reads the first
// line of each process's block.
var jsonRuns = []struct {
	log, out string
	args     []string
	env      []string
	version  int
}{
	{"h100_2x8_allreduce_default_nccltests309.log", "all_reduce_2x8_nccltests309.json",
		[]string{"all_reduce_perf", "-b", "1M", "-e", "8G", "-f", "2", "-g", "1"}, nil, 0},
	{"h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", "all_reduce_ring_2x8_nccltests319.json",
		[]string{"/opt/nccl-tests/build/all_reduce_perf", "-b", "8", "-e", "16g", "-f", "2", "-g", "1"},
		[]string{"NCCL_ALGO=RING", "NCCL_DEBUG=INFO", "NCCL_SOCKET_IFNAME=bond0", "NCCL_IB_DISABLE=0", "NCCL_IB_GID_INDEX=0", "NCCL_IB_QPS_PER_CONNECTION=64"}, 22602},
	{"v100_2x2_alltoall_ib_edr_nig.log", "alltoall_2x2_g2_nig.json",
		[]string{"alltoall_perf", "-b", "2", "-e", "128M", "-f", "2", "-g", "2"}, nil, 0},
}

// jsonOf writes test t, read from log, as nccl-tests' JSON output of its
// run: header values from its "# nThread" line (hdr), numbers as "%lf".
func jsonOf(t *nccltests.Test, log string, args, env []string, version int, hdr map[string]int64) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var b strings.Builder
	fmt.Fprintf(&b, `{"source":%s,"version":3,"args":[`, q("data/nccltests/testdata/real/"+log))
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(q(a))
	}
	b.WriteString(`],"env":[`)
	for i, e := range env {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(q(e))
	}
	fmt.Fprintf(&b, `],"nccl_version":%d,"config":{"nthreads":%d,"ngpus":%d,"minimum_bytes":%d,"maximum_bytes":%d,"step_factor":%d,"warmup_iters":%d,"iterations":%d,"aggregated_iterations":%d,"validation":%d,"graph":%d,"blocking_collectives":"false","per_iter_timing":"false","per_iter_skip":0,"parallel_init":"false","devices":[`,
		version, hdr["nThread"], hdr["nGpus"], hdr["minBytes"], hdr["maxBytes"], hdr["step"], hdr["warmup"], hdr["iters"], hdr["agg"], hdr["validation"], hdr["graph"])
	per := int(hdr["nThread"] * hdr["nGpus"])
	first := true
	for _, d := range t.Evidence.Devices {
		if d.Rank%per != 0 {
			continue // one record a process: its first GPU's
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		fmt.Fprintf(&b, `{"rank":%d,"group":0,"pid":%d,"hostname":%s,"device":%d,"device_hex":%s,"device_info":%s}`, d.Rank, d.Pid, q(d.Host), d.Device, q(d.BusID), q(d.GPU))
	}
	b.WriteString(`]},"results":[`)
	half := func(r nccltests.Result) string {
		wrong := "null"
		if r.Wrong != "N/A" {
			n, _ := strconv.ParseFloat(r.Wrong, 64)
			wrong = f(n)
		}
		return fmt.Sprintf(`{"time":%s,"alg_bw":%s,"bus_bw":%s,"nwrong":%s}`, f(r.Time*1e6), f(r.AlgBW/1e9), f(r.BusBW/1e9), wrong)
	}
	for i, r := range t.Rows {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"size":%d,"count":%d,"type":%s,"redop":%s,"root":"%6d","out_of_place":%s,"in_place":%s,"actual_iterations":%d,"experiment_name":""}`,
			r.Size, r.Count, q(r.Type), q(r.RedOp), r.Root, half(r.OutOfPlace), half(r.InPlace), hdr["iters"])
	}
	fmt.Fprintf(&b, `],"out_of_bounds":{"count":%d,"okay":"true"},"average_bus_bandwidth":{"bandwidth":%s,"okay":"unchecked"}}`, t.OutOfBounds, f(t.AvgBusBW/1e9))
	return b.String()
}

// header reads the "# nThread" line of the log at path.
func header(t *testing.T, path string) map[string]int64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		_, after, ok := strings.Cut(line, "# nThread ")
		if !ok {
			continue
		}
		f := strings.Fields("nThread " + after)
		h := map[string]int64{}
		for i := 0; i+1 < len(f); i++ {
			v, err := strconv.ParseInt(strings.TrimSuffix(f[i+1], "(factor)"), 10, 64)
			if err != nil {
				continue
			}
			switch f[i] {
			case "nThread", "nGpus", "minBytes", "maxBytes", "graph:", "validation:":
				h[strings.TrimSuffix(f[i], ":")] = v
			case "step:":
				h["step"] = v
			case "iters:":
				if f[i-1] == "warmup" {
					h["warmup"] = v
				} else if f[i-1] == "agg" {
					h["agg"] = v
				} else {
					h["iters"] = v
				}
			}
		}
		return h
	}
	t.Fatalf("%s: no # nThread line", path)
	return nil
}

// TestJSONRuns writes each of jsonRuns as nccl-tests' JSON
// (testdata/json, go test -update rewrites them) and reads it back: the
// JSON gives the test its text log gives, row for row, with the devices
// of every rank (a process's other GPUs taken as its first one's model),
// NCCL's release from nccl_version, and NCCL_ALGO from env; every problem
// is at line 1, the one line nccl-tests writes, with no column. The JSON
// names the binary, so the collective comes from its name.
func TestJSONRuns(t *testing.T) {
	for _, run := range jsonRuns {
		t.Run(run.out, func(t *testing.T) {
			path := filepath.Join("testdata", "real", run.log)
			text, _, err := readFile(path, run.log)
			if err != nil || len(text) != 1 {
				t.Fatalf("%s: %d tests, %v", run.log, len(text), err)
			}
			out := filepath.Join("testdata", "json", run.out)
			golden.Check(t, out, jsonOf(text[0], run.log, run.args, run.env, run.version, header(t, path)))
			tests, problems, err := readFile(out, run.out)
			if err != nil || len(tests) != 1 {
				t.Fatalf("%s: %d tests, %v", out, len(tests), err)
			}
			got, want := tests[0], text[0]
			// The JSON names its binary, which some text logs do not.
			if got.Name != filepath.Base(run.args[0]) || got.Collective != want.Collective || got.CollectiveFrom != nccltests.FromName ||
				got.Ranks != want.Ranks || got.Nodes != want.Nodes || !slices.Equal(got.Hosts, want.Hosts) ||
				got.Processes != want.Processes || got.Threads != want.Threads || got.GPUsPerThread != want.GPUsPerThread ||
				got.Graphs != want.Graphs || got.AggIters != want.AggIters || len(got.Rows) != len(want.Rows) {
				t.Fatalf("JSON: %s %v from %v, %d ranks, %d nodes %v, %d processes, %dx%d, graphs %d, agg %d, %d rows; text: %s %v, %d ranks, %d nodes %v, %d processes, %dx%d, graphs %d, agg %d, %d rows",
					got.Name, got.Collective, got.CollectiveFrom, got.Ranks, got.Nodes, got.Hosts, got.Processes, got.Threads, got.GPUsPerThread, got.Graphs, got.AggIters, len(got.Rows),
					want.Name, want.Collective, want.Ranks, want.Nodes, want.Hosts, want.Processes, want.Threads, want.GPUsPerThread, want.Graphs, want.AggIters, len(want.Rows))
			}
			for i, r := range got.Rows {
				w := want.Rows[i]
				if r.Line != 1 || r.Size != w.Size || r.Count != w.Count || r.Type != w.Type || r.RedOp != w.RedOp || r.Root != w.Root ||
					!sameResult(r.OutOfPlace, w.OutOfPlace) || !sameResult(r.InPlace, w.InPlace) {
					t.Errorf("row %d: %+v; the text's %+v", i, r, w)
				}
			}
			if len(got.Evidence.Devices) != len(want.Evidence.Devices) {
				t.Fatalf("%d devices, the text's %d", len(got.Evidence.Devices), len(want.Evidence.Devices))
			}
			for i, d := range got.Evidence.Devices {
				w := want.Evidence.Devices[i]
				if d.Rank != w.Rank || d.Host != w.Host || d.Pid != w.Pid || d.Device != w.Device || d.GPU != w.GPU || d.Line != 1 {
					t.Errorf("device %d: %+v; the text's %+v", i, d, w)
				}
			}
			if v := got.Evidence.Library; run.version > 0 && (v.Value != strconv.Itoa(run.version) || v.Line != 1) {
				t.Errorf("library %+v, want %d at line 1", v, run.version)
			}
			algo := ""
			for _, e := range run.env {
				if v, ok := strings.CutPrefix(e, "NCCL_ALGO="); ok {
					algo = v
				}
			}
			if got.Evidence.Algo.Value != algo || len(got.Evidence.Env) != len(run.env) {
				t.Errorf("NCCL_ALGO %+v, %d settings; want %q, %d", got.Evidence.Algo, len(got.Evidence.Env), algo, len(run.env))
			}
			for _, p := range problems {
				var pe *nccltests.ParseError
				if !errors.As(p, &pe) || pe.Line != 1 || pe.Column != 0 {
					t.Errorf("problem %v: want line 1, no column", p)
				}
			}
		})
	}
}

// sameResult reports that a and b are the same half of a row, each value
// to within the JSON's six decimals of microseconds and GB/s.
func sameResult(a, b nccltests.Result) bool {
	near := func(x, y, unit float64) bool { return math.Abs(x-y) <= 1e-6*unit }
	return near(a.Time, b.Time, 1e-6) && near(a.AlgBW, b.AlgBW, 1e9) && near(a.BusBW, b.BusBW, 1e9) &&
		(a.Wrong == b.Wrong || a.Wrong == "0" && b.Wrong == "0e+00")
}

// TestJSONInputs: what the reader makes of JSON that is not one whole run
// of nccl-tests -J, each case built from all_reduce_2x8_nccltests309.json:
// an error at the line and column of what is wrong (a syntax error, a word
// where a number goes, an object nccl-tests does not write), a run cut
// short (the rows before the cut, the table reported stopped), two runs
// joined (two tests, each with its own environment), more records than
// Options.MaxRows (ErrTooManyRows at the first past it), strings that
// hold a debug line or a row (read as one field), records nccl-tests would
// not write (each left out, at its line and column), a run whose records
// all failed beside a good one, an array of runs, a run inside a text log,
// an out_of_bounds count written as "%lf", and a byte-order mark and blank
// lines before the object.
func TestJSONInputs(t *testing.T) {
	whole, err := os.ReadFile(filepath.Join("testdata", "json", "all_reduce_2x8_nccltests309.json"))
	if err != nil {
		t.Fatal(err)
	}
	run := string(whole)
	// pretty puts each result record on a line of its own, as jq does.
	pretty := strings.ReplaceAll(run, `,{"size"`, ",\n  {\"size\"")
	read := func(in string) ([]*nccltests.Test, []error, error) {
		r := nccltests.NewReader(strings.NewReader(in))
		r.Name = "run.json"
		tests, err := r.ReadAll()
		return tests, r.Problems(), err
	}
	for _, c := range []struct {
		name, in, bad, want string
	}{
		// The error is at the bad token, or at the start of the record
		// that holds it.
		{"syntax error", strings.Replace(pretty, `{"size":16777216,"count":4194304,"type":"float"`, `{"size":16777216,"count":4194304,"type":float`, 1), "float", "invalid character 'l'"},
		{"word for a number", strings.Replace(pretty, `"count":1048576`, `"count":"many"`, 1), `{"size":4194304`, `"many" where a number (or "nan") goes`},
		{"a run broken before its config", `{"version":3,"args":["all_reduce_perf",]}`, "]", "invalid character ']'"},
		// A bare word reads as an infinity or a NaN where jsonDouble
		// writes a number alone (a time, a bandwidth), not as a size or a
		// host, which nccl-tests never writes so.
		{"a bare word for a host", strings.Replace(pretty, `"hostname":"`, `"hostname":nan,"x":"`, 1), "nan", "invalid character 'a'"},
		{"a bare inf for a size", strings.Replace(pretty, `"size":4194304,`, `"size":inf,`, 1), "inf", "invalid character 'i'"},
	} {
		_, _, err := read(c.in)
		var pe *nccltests.ParseError
		if !errors.As(err, &pe) || !errors.Is(err, nccltests.ErrJSON) || pe.File != "run.json" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want ErrJSON in run.json saying %q", c.name, err, c.want)
			continue
		}
		lines := strings.Split(c.in, "\n")
		line := lines[pe.Line-1]
		if k := strings.Index(line, c.bad); pe.Column > 0 && (k < 0 || pe.Column-1 < k || pe.Column-1 > k+len(c.bad)) || pe.Column == 0 && c.bad != "" {
			t.Errorf("%s: at %d:%d, in %.60q; want it at %q", c.name, pe.Line, pe.Column, line[max(pe.Column-20, 0):], c.bad)
		}
	}

	// A first object that is no run (whole, or broken before any key of
	// a run's) starts a text log, as a launcher's JSON status line does.
	text, err := os.ReadFile(filepath.Join("testdata", "real", "h100_2x8_allreduce_default_nccltests309.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{`{"level":"info","msg":"job started"}` + "\n" + string(text), "[{\"level\":\"info\"}]\n" + string(text),
		`{"event":"start","env":{"A":"1"}}` + "\n" + string(text), `{"rows": [1, 2]}`, "{\n]"} {
		tests, _, err := read(in)
		if len(text) < len(in) && (err != nil || len(tests) != 1 || len(tests[0].Rows) != 14) || len(text) > len(in) && !errors.Is(err, nccltests.ErrNoTable) {
			t.Errorf("%.40q...: %d tests, %v; want it read as text", in, len(tests), err)
		}
	}

	// An object that is no run beside runs (a launcher's status line) is
	// left out with a warning at its place.
	for _, in := range []string{run + "\n" + `{"rows": [1, 2]}`, `{"event":"start","config":{"nodes":2}}` + "\n" + run, `[{"level":1},` + run + "]"} {
		tests, problems, err := read(in)
		if err != nil || len(tests) != 1 || len(problems) != 1 || !errors.Is(problems[0], nccltests.ErrJSON) || !strings.Contains(problems[0].Error(), "without the config and results") {
			t.Errorf("%.40q...: %d tests, %v, problems %v; want the run, and the other object left out with a warning", in, len(tests), err, problems)
		}
	}

	cut := pretty[:strings.Index(pretty, `{"size":33554432`)+40]
	tests, problems, err := read(cut)
	if err != nil || len(tests) != 1 || len(tests[0].Rows) != 5 || len(problems) != 1 || !errors.Is(problems[0], nccltests.ErrStopped) ||
		!strings.Contains(problems[0].Error(), "the JSON ends before its average_bus_bandwidth") {
		t.Errorf("cut after 5 records: %d tests, %v, problems %v; want the 5 rows and ErrStopped", len(tests), err, problems)
	}

	ringed := strings.Replace(run, `"env":[]`, `"env":["NCCL_ALGO=Ring","NCCL_HOME=/opt/nccl","NCCL_TESTS_DEVICE=0"]`, 1)
	tests, _, err = read(run + "\n" + ringed)
	if err != nil || len(tests) != 2 || tests[0].Evidence.Algo.Known() || tests[1].Evidence.Algo.Value != "Ring" || tests[1].Evidence.Algo.Line != 2 ||
		len(tests[1].Evidence.Env) != 1 || tests[1].Rows[0].Line != 2 {
		t.Errorf("two runs: %d tests, %v; want the second's NCCL_ALGO alone, at line 2", len(tests), err)
	}

	r := nccltests.NewReader(strings.NewReader(pretty))
	r.Name, r.MaxRows = "run.json", 5
	if _, err := r.ReadAll(); !errors.Is(err, nccltests.ErrTooManyRows) || !strings.HasPrefix(err.Error(), "run.json:6:") {
		t.Errorf("MaxRows 5 of 14 records: %v; want ErrTooManyRows at the 6th record's line, 6", err)
	}

	// A string reads as the one field nccl-tests prints it as: a GPU's name
	// that holds NCCL's debug tag, or a host's name that holds a line
	// break and a row, adds no setting and no row.
	injected := strings.Replace(run, `"device_info":"NVIDIA H100 80GB HBM3"`, `"device_info":"NVIDIA H100 NCCL INFO NCCL_ALGO set by environment to Tree"`, 1)
	injected = strings.Replace(injected, `"hostname":"`, `"hostname":"x\n      2048  512  float  sum  -1  1.0  2.0  2.0  0  1.0  2.0  2.0  0\n`, 1)
	tests, _, err = read(injected)
	if err != nil || len(tests) != 1 || tests[0].Evidence.Algo.Known() || len(tests[0].Rows) != 14 {
		t.Errorf("strings that hold a debug line and a row: %v, %+v; want neither read", err, tests)
	}

	// A record nccl-tests would not write is left out with a problem at
	// its line and column; its run's other records stay.
	for _, c := range []struct{ name, from, to, want string }{
		{"no size", `"size":4194304,`, ``, "without a size"},
		{"nwrong not a count", `"bus_bw":70.910000,"nwrong":0.000000}`, `"bus_bw":70.910000,"nwrong":-3}`, `nwrong "-3"`},
		{"no in_place", `"bus_bw":70.910000,"nwrong":0.000000},"in_place"`, `"bus_bw":70.910000,"nwrong":0.000000},"x"`, "without in_place"},
		{"a NaN for a size", `"size":4194304,`, `"size":"nan",`, `size "nan"`},
	} {
		in := strings.Replace(pretty, c.from, c.to, 1)
		if in == pretty {
			t.Fatalf("%s: %q is not in the run", c.name, c.from)
		}
		tests, problems, err := read(in)
		var pe *nccltests.ParseError
		if err != nil || len(tests) != 1 || len(tests[0].Rows) != 13 || len(problems) != 1 || !errors.As(problems[0], &pe) ||
			pe.Line != 3 || pe.Column != 3 || !strings.Contains(pe.Error(), c.want) {
			t.Errorf("%s: %v, %d tests, problems %v; want 13 rows and one problem at run.json:3:3 saying %q", c.name, err, len(tests), problems, c.want)
		}
	}

	// Joined runs: one whose records all failed nccl-tests' check makes no
	// test, and its environment goes to none; an array of runs, as jq -s
	// writes it, reads as joined ones; a run inside a text log is left
	// unread with a warning.
	failed := strings.ReplaceAll(strings.Replace(run, `"env":[]`, `"env":["NCCL_ALGO=Tree"]`, 1), `"nwrong":0.000000`, `"nwrong":12.000000`)
	tests, _, err = read(failed + "\n" + ringed)
	if err != nil || len(tests) != 1 || tests[0].Evidence.Algo.Value != "Ring" {
		t.Errorf("a failed run, then a Ring run: %d tests, %v; want the Ring run alone", len(tests), err)
	}
	tests, _, err = read("[" + run + ",\n" + ringed + "]")
	if err != nil || len(tests) != 2 || tests[1].Evidence.Algo.Value != "Ring" {
		t.Errorf("an array of two runs: %d tests, %v; want two", len(tests), err)
	}
	tests, problems, err = read(string(text) + run + "\n")
	if err != nil || len(tests) != 1 || !slices.ContainsFunc(problems, func(e error) bool { return errors.Is(e, nccltests.ErrJSON) }) {
		t.Errorf("a text log, then a JSON run: %d tests, %v, problems %v; want the text's test and an ErrJSON warning", len(tests), err, problems)
	}

	// A binary of nccl-tests that commlab does not read is named, with a
	// warning that the table gives the collective.
	_, problems, err = read(strings.Replace(run, `"all_reduce_perf"`, `"alltoallv_perf"`, 1))
	if err != nil || !slices.ContainsFunc(problems, func(e error) bool {
		return errors.Is(e, nccltests.ErrAmbiguous) && strings.Contains(e.Error(), "alltoallv_perf is no binary")
	}) {
		t.Errorf("alltoallv_perf: %v, problems %v; want a warning naming it", err, problems)
	}

	// An infinity, which nccl-tests writes bare through "%lf" (no JSON),
	// makes its record a row with a bad number, as in the text; the other
	// rows stay. A container's NCCL_VERSION is no setting of NCCL's.
	inf := strings.Replace(pretty, `"alg_bw":37.820000,"bus_bw":70.910000`, `"alg_bw":inf,"bus_bw":-inf`, 1)
	inf = strings.Replace(inf, `"env":[]`, `"env":["NCCL_VERSION=2.21.5-1","NCCL_LIB_DIR=/usr/lib"]`, 1)
	tests, problems, err = read(inf)
	if err != nil || len(tests) != 1 || len(tests[0].Rows) != 13 || len(problems) != 1 || !errors.Is(problems[0], nccltests.ErrNumber) ||
		!strings.HasPrefix(problems[0].Error(), "run.json:3:3:") || len(tests[0].Evidence.Env) != 0 {
		t.Errorf("inf in a record: %v, problems %v, env %v; want 13 rows, a bad number at run.json:3:3, no setting", err, problems, tests[0].Evidence.Env)
	}

	// A count nccl-tests writes as "%lf".
	tests, problems, err = read(strings.Replace(run, `"out_of_bounds":{"count":0`, `"out_of_bounds":{"count":5.000000`, 1))
	if err != nil || len(tests) != 1 || tests[0].OutOfBounds != 5 || !slices.ContainsFunc(problems, func(e error) bool { return errors.Is(e, nccltests.ErrFailed) }) {
		t.Errorf("out_of_bounds 5.000000: %v, problems %v; want 5 and nccl-tests' check failed", err, problems)
	}

	tests, _, err = read("\ufeff\n\n  " + run)
	if err != nil || len(tests) != 1 || tests[0].Rows[0].Line != 3 {
		t.Errorf("after a byte-order mark and blank lines: %d tests, %v; want one at line 3", len(tests), err)
	}
}
