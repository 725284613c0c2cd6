package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
)

// TestCalibrationPins reads a pinned sweep, one file per NCCL_ALGO setting,
// each with its own pins, and checks that every table carries its file's.
func TestCalibrationPins(t *testing.T) {
	t.Parallel()
	files, err := parseCalibrationFiles(togetherDir+"all_reduce_ring.log:algo=ring:proto=simple, "+
		togetherDir+"all_reduce_nvls.log:algo=nvls:version=2.26.2", predict.Pins{}, "-calibrate")
	if err != nil {
		t.Fatal(err)
	}
	_, tables, _, err := readCalibration(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) != 2 {
		t.Fatalf("%d tables, want 2", len(tables))
	}
	for i, want := range [][2]string{{"Ring", "Simple"}, {"NVLS", ""}} {
		if tb := tables[i]; tb.Algo != want[0] || tb.Proto != want[1] {
			t.Errorf("%s: algo %q proto %q, want %q %q", tb.Name, tb.Algo, tb.Proto, want[0], want[1])
		}
	}
	if v := tables[1].Version; v.Major != 2 || v.Minor != 26 || v.Patch != 2 {
		t.Errorf("version %v, want 2.26.2", v)
	}
}

// TestCalibrationColonNames: a log named with colons (a timestamp, as
// `date -Iseconds` writes it) is that file, with or without keys after it;
// a name no file has still ends at its first colon.
func TestCalibrationColonNames(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "allreduce_2025-01-01T10:00:00.log")
	b, err := os.ReadFile(togetherDir + "all_reduce_ring.log")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		item, path string
		algo       string
	}{
		{log, log, ""},
		{log + ":algo=ring", log, "Ring"},
		{"no-such_10:00.log:algo=ring", "no-such_10", ""},
	} {
		files, err := parseCalibrationFiles(c.item, predict.Pins{}, "-calibrate")
		if c.path == "no-such_10" {
			if err == nil || !strings.Contains(err.Error(), `"00.log"`) {
				t.Errorf("%s: error %v, want its second part refused as no KEY=VALUE", c.item, err)
			}
			continue
		}
		if err != nil || len(files) != 1 || files[0].path != c.path {
			t.Fatalf("%s: files %v, error %v; want %s", c.item, files, err, c.path)
		}
		_, tables, _, err := readCalibration(files)
		if err != nil || len(tables) != 1 {
			t.Fatalf("%s: %d tables, error %v; want 1", c.item, len(tables), err)
		}
		if tables[0].Algo != c.algo {
			t.Errorf("%s: algo %q, want %q", c.item, tables[0].Algo, c.algo)
		}
	}
}

// TestCalibrationCommaNames: a log named with a comma is one item where
// its parts joined name it, with keys after it and other items around it;
// it was split, and its first part not found ("open a: no such file").
func TestCalibrationCommaNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile(togetherDir + "all_reduce_ring.log")
	if err != nil {
		t.Fatal(err)
	}
	comma, other := filepath.Join(dir, "run,a.log"), filepath.Join(dir, "b.log")
	for _, f := range []string{comma, other} {
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		list  string
		paths []string
	}{
		{comma, []string{comma}},
		{comma + ":algo=ring:test=0", []string{comma}},
		{other + "," + comma + ":algo=ring," + other, []string{other, comma, other}},
		{comma + ":algo=ring, " + other, []string{comma, other}},
	} {
		files, err := parseCalibrationFiles(c.list, predict.Pins{}, "-calibrate")
		if err != nil {
			t.Fatalf("%s: %v", c.list, err)
		}
		var paths []string
		for _, f := range files {
			paths = append(paths, f.path)
		}
		if !slices.Equal(paths, c.paths) {
			t.Errorf("%s: files %q, want %q", c.list, paths, c.paths)
		}
	}
}

// manyCommas is a -calibrate list of 5000 items in dir, then a file
// whose name holds a comma, then 5000 empty items, and that file.
func manyCommas(tb testing.TB, dir string) (list, comma string) {
	comma = filepath.Join(dir, "run,a.log")
	if err := os.WriteFile(comma, []byte("x"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return strings.Repeat(filepath.Join(dir, "b.log")+",", 5000) + comma + strings.Repeat(",", 5000), comma
}

// TestCalibrationManyCommas: a -calibrate list of many items where no
// file's name holds a comma is split into them, and a name with a comma
// is still found among them. Its time is BenchmarkCalibrationManyCommas'
// (a list of 2000 commas took a minute, FuzzCalibrateItem's
// many_commas_no_file, when every join of items was tried).
func TestCalibrationManyCommas(t *testing.T) {
	t.Parallel()
	list, comma := manyCommas(t, t.TempDir())
	files, err := parseCalibrationFiles(list, predict.Pins{}, "-calibrate")
	if err != nil || len(files) != 5001 || files[5000].path != comma {
		t.Fatalf("%d files, %v; want 5001, the last %s", len(files), err, comma)
	}
}

// BenchmarkCalibrationManyCommas: splitting TestCalibrationManyCommas'
// list of 10,001 items.
func BenchmarkCalibrationManyCommas(b *testing.B) {
	list, _ := manyCommas(b, b.TempDir())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseCalibrationFiles(list, predict.Pins{}, "-calibrate"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCalibrationTests: test=N keeps the file's tests of those indices, as
// fit -list counts them. cluster01's 10 x 1 log runs all_reduce, all_gather,
// reduce_scatter, alltoall and sendrecv (its "# Collective test starting:"
// lines); test=0, test=3 and test=4 keep its AllReduce, AllToAll and
// SendRecv tables. The DGX-2's log runs reduce_perf as its test 3, none of a
// collective the model predicts: the error says so and names the tests
// there are; test=9 is no test of the file.
func TestCalibrationTests(t *testing.T) {
	t.Parallel()
	files, err := parseCalibrationFiles(clusterDir+"nccl_N10_G1.log:test=0:test=3:test=4", predict.Pins{}, "-calibrate")
	if err != nil {
		t.Fatal(err)
	}
	_, tables, _, err := readCalibration(files)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tb := range tables {
		got = append(got, tb.Collective.String())
	}
	if !slices.Equal(got, []string{"allreduce", "alltoall", "sendrecv"}) || !strings.HasSuffix(tables[1].Name, "nccl_N10_G1.log#3") {
		t.Errorf("tables %v (%s), want allreduce, alltoall and sendrecv, the second named #3", got, tables[len(tables)-1].Name)
	}
	const dgx2 = "../../data/logs/paired/v100-sxm3-dgx2/five_tests_2019.log"
	files, _ = parseCalibrationFiles(dgx2+":test=3", predict.Pins{}, "-calibrate")
	if _, _, _, err := readCalibration(files); err == nil || !strings.Contains(err.Error(), "five_tests_2019.log:173: test 3: reduce_perf is not a collective") ||
		!strings.Contains(err.Error(), "the others are test=0, 1, 2, 4") {
		t.Errorf("test=3: %v, want why it is left out and the tests there are", err)
	}
	files, _ = parseCalibrationFiles(clusterDir+"nccl_N10_G1.log:test=9", predict.Pins{}, "-calibrate")
	if _, _, _, err := readCalibration(files); err == nil || !strings.Contains(err.Error(), "has no test 9 of a collective the model predicts; try test=0, 1, 2, 3, 4") {
		t.Errorf("test=9: %v, want the tests there are", err)
	}
}

// TestCalibrationItemErrors checks that a bad -calibrate item names the
// keys that work.
func TestCalibrationItemErrors(t *testing.T) {
	t.Parallel()
	for _, item := range []string{"a.log:foo=1", "a.log:nodes", "a.log:ranks=0", "a.log:algo=bogus", "a.log:version=x", "a.log:threads=0", "a.log:graph=-1", "a.log:test=-1", "a.log:test=x"} {
		_, err := parseCalibrationFiles(item, predict.Pins{}, "-calibrate")
		if err == nil {
			t.Errorf("%s: no error", item)
			continue
		}
		if !strings.Contains(err.Error(), item) {
			t.Errorf("%s: error %q does not quote the item", item, err)
		}
	}
	_, err := parseCalibrationFiles("a.log:foo=1", predict.Pins{}, "-calibrate")
	if !strings.Contains(err.Error(), "nodes, per-node, g, threads, graph, gpu, version, test") {
		t.Errorf("unknown key: %v, want the list of keys", err)
	}
}

// TestCalibrationListEmpty: "-calibrate ," names no file; diagnose took
// it for no -calibrate at all, left the log's GPU unread, and asked for
// -gpu NAME though the log names it (red team 44). It is a usage error
// that says the list is empty, as an empty -calibrate "" is no flag.
func TestCalibrationListEmpty(t *testing.T) {
	t.Parallel()
	log := "../../data/logs/h200_2x8_allreduce_spectrumx_openshift.log"
	code, _, stderr := runCLI("diagnose", log, "-calibrate", " , ")
	if code != 2 || !strings.Contains(stderr, `-calibrate " , " names no file`) {
		t.Errorf("exit %d, want 2 and the empty list named; stderr:\n%s", code, stderr)
	}
	if code, _, stderr := runCLI("diagnose", log, "-calibrate", ""); code != 0 {
		t.Errorf("-calibrate \"\": exit %d, want 0 (no flag); stderr:\n%s", code, stderr)
	}
}

// TestCalibrationKeysAfterComma: "LOG:nodes=4,per-node=8", the keys
// joined as -hw joins them, read per-node=8 as a second file and failed
// with "open per-node=8: no such file or directory"; it names the joiner.
func TestCalibrationKeysAfterComma(t *testing.T) {
	code, _, stderr := runCLI("diagnose", "../../data/nccltests/testdata/real/a100_4x8_allreduce_efa_p4dn_nccl527.log:nodes=4,per-node=8")
	if code != 2 || !strings.Contains(stderr, `"per-node=8": a KEY=VALUE, not a file: ':' joins a file's keys`) {
		t.Errorf("exit %d, want 2 and the joiner named; stderr:\n%s", code, stderr)
	}
	// A file of the working directory whose name has the form is a file.
	t.Chdir(t.TempDir())
	if err := os.WriteFile("gpu=H100", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := parseCalibrationFiles("a.log,gpu=H100", predict.Pins{}, "-calibrate"); err != nil {
		t.Errorf("a file named gpu=H100: %v", err)
	}
	if _, err := parseCalibrationFiles("a.log,gpu=H200", predict.Pins{}, "-calibrate"); err == nil {
		t.Errorf("no file gpu=H200: no error")
	}
}

// TestCalibrationLayoutKeys: g=, threads= and graph= replace the header's
// nGpus, nThread and graph count, graph=0 asking for none.
func TestCalibrationLayoutKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		item string
		want predict.Layout
	}{
		{"a.log:g=2:threads=4", predict.Layout{ThreadsPerProcess: 4, GPUsPerThread: 2}},
		{"a.log:graph=10", predict.Layout{Graphs: 10}},
		{"a.log:graph=0", predict.Layout{Graphs: predict.NoGraphs}},
	} {
		files, err := parseCalibrationFiles(c.item, predict.Pins{}, "-calibrate")
		if err != nil {
			t.Fatalf("%s: %v", c.item, err)
		}
		if got := files[0].pins.Layout; got != c.want {
			t.Errorf("%s: %+v, want %+v", c.item, got, c.want)
		}
	}
}

// TestPredictRowsOnly predicts from a table pasted without nccl-tests'
// header: the rows of Together's Ring AllReduce alone. Without its node
// count, the table is taken to have run on the prediction's hosts, and the
// command says so and which keys settle it; where its 8 ranks cannot fill
// such hosts it is left out. With the keys it predicts.
func TestPredictRowsOnly(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(togetherDir + "all_reduce_ring.log")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 13 && !strings.HasPrefix(l, "#") {
			rows = append(rows, l)
		}
	}
	if len(rows) < 20 {
		t.Fatalf("%d rows read from the log", len(rows))
	}
	path := filepath.Join(t.TempDir(), "rows.txt")
	if err := os.WriteFile(path, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"predict", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1KiB"}
	code, out, stderr := runCLI(append(args, "-calibrate", path)...)
	if code != 0 || !strings.Contains(stderr, "one node of 8 GPUs is assumed") || !strings.Contains(stderr, "FILE:nodes=N") {
		t.Errorf("rows without nodes: exit %d, stderr %q, want the assumed node said, and the key that settles it", code, stderr)
	}
	if lines := strings.SplitN(out, "\n", 3); len(lines) < 3 || !strings.HasPrefix(lines[1], "guess: gpu = unnamed GPU: the logs name none") || !strings.Contains(lines[1], "-gpu NAME") {
		t.Errorf("rows without a GPU name: output\n%s\nwant the GPU said to be a guess first, under the query, with the flag that settles it", out)
	}
	// The JSON says what the text says.
	code, out, _ = runCLI(append(args, "-calibrate", path, "-json")...)
	var js struct {
		Hardware struct{ Guesses []guessOutput } `json:"hardware"`
	}
	if err := json.Unmarshal([]byte(out), &js); code != 0 || err != nil || len(js.Hardware.Guesses) == 0 ||
		js.Hardware.Guesses[0] != (guessOutput{Fact: "gpu", Value: predict.UnnamedGPU, Hint: "-gpu NAME"}) {
		t.Errorf("rows without a GPU name, JSON: exit %d, %v, guesses %+v; want the GPU's guess first", code, err, js.Hardware.Guesses)
	}
	odd := []string{"predict", "-collective", "allreduce", "-p", "6", "-per-node", "3", "-size", "1KiB", "-calibrate", path}
	if code, _, stderr := runCLI(odd...); code == 0 || !strings.Contains(stderr, "the table is left out; give nodes=N") {
		t.Errorf("8 ranks on hosts of 3: exit %d, stderr %q, want the table left out and the nodes key named", code, stderr)
	}
	code, out, stderr = runCLI(append(args, "-calibrate", path+":nodes=1:gpu=NVIDIA H100 80GB HBM3:g=8")...)
	if code != 0 || !strings.Contains(out, "Ring") || strings.Contains(out, "guess: gpu") {
		t.Errorf("rows with nodes, gpu and g: exit %d, stderr %q, output:\n%s", code, stderr, out)
	}
}

// TestPredictDescribedHardware: a GPU commlab does not know, the "NVIDIA
// RTX 6000D" of a real nccl-tests log, is predicted with every fact but
// its name (the user's) assumed and a warning that says how to describe
// it; an MI300X, which it
// knows, predicts as with its description given inline or from a file,
// each fact's source the catalog's or the user's.
func TestPredictDescribedHardware(t *testing.T) {
	t.Parallel()
	args := []string{"predict", "-gpu", "AMD Instinct MI300X", "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"}
	unknown := slices.Clone(args)
	unknown[2] = "NVIDIA RTX 6000D"
	code, out, stderr := runCLI(unknown...)
	if code != 0 || !strings.Contains(stderr, "not in commlab's catalog") || !strings.Contains(stderr, "-hw cc=") ||
		!strings.Contains(out, "gpu NVIDIA RTX 6000D (hw)") {
		t.Errorf("NVIDIA RTX 6000D without -hw: exit %d, stderr %q, output:\n%s", code, stderr, out)
	}
	code, known, stderr := runCLI(args...)
	if code != 0 {
		t.Errorf("MI300X without -hw: exit %d, stderr %q", code, stderr)
	}
	code, inline, stderr := runCLI(append(args, "-hw", "cc=9.4,links=7,link-bw=64GB/s")...)
	if code != 0 || !strings.Contains(inline, "Infinity Fabric mesh of 7 links") || !strings.Contains(inline, "link_bw 64 GB/s (hw)") ||
		!strings.Contains(known, "link_bw 64 GB/s (catalog)") {
		t.Errorf("-hw inline: exit %d, stderr %q, output:\n%s", code, stderr, inline)
	}
	path := filepath.Join(t.TempDir(), "mi300x.hw")
	desc := "# AMD Instinct MI300X: 7 Infinity Fabric links of 64 GB/s a direction\ncc=9.4\nlinks=7\nlink-bw=64GB/s\n"
	if err := os.WriteFile(path, []byte(desc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, fromFile, stderr := runCLI(append(args, "-hw", path)...)
	// The facts' sources differ (catalog for the built-in description, hw
	// for the given one); everything else is the same.
	noFacts := func(out string) string {
		lines := strings.Split(out, "\n")
		return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, "facts: ") }), "\n")
	}
	known, inline, fromFile = noFacts(known), noFacts(inline), noFacts(fromFile)
	if code != 0 || fromFile != inline || known != inline {
		t.Errorf("-hw file: exit %d, stderr %q; the built-in, inline and file descriptions differ:\n%s\n%s\n%s", code, stderr, known, inline, fromFile)
	}
}

// TestCalibrationAutoPin: FILE:algo=auto (proto=auto) is a pin, the
// tuner's choice, as predict.Pins reads "auto": it quiets the note on a
// file whose name names an algorithm (Together's all_reduce_ring.log, whose
// log prints no NCCL_ALGO), as docs/predict.md says, and outranks what the
// log prints (nccl-tests#319's Ring run prints NCCL_ALGO set by
// environment to Ring). It read as no pin at all: the note stayed, and the
// log's Ring stood.
func TestCalibrationAutoPin(t *testing.T) {
	t.Parallel()
	read := func(item string) ([]predict.Table, []problem) {
		t.Helper()
		files, err := parseCalibrationFiles(item, predict.Pins{}, "-calibrate")
		if err != nil {
			t.Fatal(err)
		}
		_, tables, problems, err := readCalibration(files)
		if err != nil {
			t.Fatal(err)
		}
		return tables, problems
	}
	named := func(problems []problem) bool {
		return slices.ContainsFunc(problems, func(p problem) bool { return strings.Contains(p.Message, "the file's name says ring") })
	}
	if _, problems := read(togetherDir + "all_reduce_ring.log"); !named(problems) {
		t.Error("no note of the file's name without a pin")
	}
	for _, pin := range []string{":algo=auto", ":proto=auto", ":algo=ring"} {
		if _, problems := read(togetherDir + "all_reduce_ring.log" + pin); named(problems) {
			t.Errorf("%s: a note of the file's name", pin)
		}
	}
	const ring319 = "../../data/nccltests/testdata/real/h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log"
	for item, want := range map[string]string{ring319: "Ring", ring319 + ":algo=auto": ""} {
		tables, _ := read(item)
		if len(tables) == 0 || !strings.EqualFold(tables[0].Algo, want) {
			t.Errorf("%s: %d tables, want the first with algo %q", item, len(tables), want)
		} else if tables[0].Algo != "" && want == "" {
			t.Errorf("%s: algo %q, want the tuner's", item, tables[0].Algo)
		}
	}
}

// TestCalibrationKeysShape: a file's keys whose ranks, nodes and per-node
// disagree are a usage error naming the item, in diagnose's LOG argument
// as in -calibrate (red team C: diagnose LOG:nodes=1:per-node=8:ranks=16
// ran as 8 ranks of 1 x 8, exit 0).
func TestCalibrationKeysShape(t *testing.T) {
	t.Parallel()
	const log = "../../data/nccltests/testdata/real/h100_2x8_allreduce_default_doca_nccltests319.log"
	code, _, stderr := runCLI("diagnose", log+":nodes=1:per-node=8:ranks=16")
	if want := "nodes=1 and per-node=8 make 8 ranks, where ranks=16 is given: give two of them"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("diagnose: exit %d, want 2 and %q:\n%s", code, want, stderr)
	}
	code, _, stderr = runCLI("predict", "-calibrate", log+":per-node=8:ranks=12", "-collective", "allreduce", "-nodes", "2", "-per-node", "8", "-size", "1MiB")
	if want := "ranks=12 are not a multiple of per-node=8"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("predict: exit %d, want 2 and %q:\n%s", code, want, stderr)
	}
}

// TestTablesFitHostDomain: under an NVLink domain of more GPUs than a
// host (-hw domain=72) a node of NCCL's may span hosts, but a host's own
// GPUs, as the Rank lines show them, still bound it: nccl-tests#319's
// H100 log places 8 ranks on each named host (devices 0 to 7), which a
// host of gpus=4 cannot hold; diagnose took it as 2 x 8 on hosts of 4
// (red team C, with a GB200 log under gpus=2).
func TestTablesFitHostDomain(t *testing.T) {
	t.Parallel()
	const log = "../../data/nccltests/testdata/real/h100_2x8_allreduce_default_doca_nccltests319.log"
	code, _, stderr := runCLI("diagnose", "-hw", "gpus=4,domain=72", log)
	if want := "the log ran 8 GPUs a node, where -hw gpus=4 gives a host 4: give -hw gpus=8 or more"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want 2 and %q:\n%s", code, want, stderr)
	}
	if code, _, stderr := runCLI("diagnose", "-hw", "gpus=8,domain=72", log); code != 0 {
		t.Errorf("gpus=8: exit %d:\n%s", code, stderr)
	}
	// Hosts of one name (containers), and Rank lines printed twice,
	// repeat devices 0 to 7: no host of more than 8 (a review: counted as
	// Rank lines, they were "device 15", and the pinned shape refused).
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	same := filepath.Join(t.TempDir(), "same.log")
	if err := os.WriteFile(same, []byte(strings.ReplaceAll(string(b), "lccn19", "lccn09")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("diagnose", "-hw", "gpus=8,domain=72", same+":nodes=2:per-node=8"); code != 0 {
		t.Errorf("hosts of one name, the shape pinned: exit %d:\n%s", code, stderr)
	}
}

// TestLogKeyAsFlag: a newcomer told to "give nodes=N and per-node=G" tries
// diagnose's -per-node, which it lacks: the usage error says where the key
// goes, LOG:per-node=VALUE (red team B); fit, whose logs take no such
// keys, says nothing of them.
func TestLogKeyAsFlag(t *testing.T) {
	t.Parallel()
	const log = "../../data/nccltests/testdata/real/h100_2x8_allreduce_default_doca_nccltests319.log"
	code, _, stderr := runCLI("diagnose", log, "-per-node", "8")
	if want := "flag provided but not defined: -per-node: this command takes a log's per-node after its name, as LOG:per-node=VALUE"; code != 2 || !strings.Contains(stderr, want) {
		t.Errorf("diagnose -per-node: exit %d, want 2 and %q:\n%s", code, want, stderr)
	}
	if code, _, stderr := runCLI("fit", log, "-gpu", "H100"); code != 2 || strings.Contains(stderr, "after its name") {
		t.Errorf("fit -gpu: exit %d, want 2 and no LOG:KEY hint:\n%s", code, stderr)
	}
}

// TestFolderGiven: a folder where a file belongs says so and asks for a
// file in it, where it printed the reader's "read DIR: is a directory"
// (red team B).
func TestFolderGiven(t *testing.T) {
	t.Parallel()
	const dir = "../../data/nccltests/testdata/real"
	for _, args := range [][]string{{"diagnose", dir}, {"topo", dir}, {"predict", "-calibrate", dir, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"}} {
		if code, _, stderr := runCLI(args...); code == 0 || !strings.Contains(stderr, dir+" is a folder, not a file: name a file in it") {
			t.Errorf("%v: exit %d:\n%s", args, code, stderr)
		}
	}
}

// TestLogKeyAsFlagQuery: predict and tune predict runs of their own, whose
// ranks are -p or -comms: -ranks there names that flag, not a log's key (a
// review: the hint sent predict -ranks 16 to LOG:ranks=VALUE, with no log
// given), and a key only a calibration log takes (-version) names
// -calibrate LOG:version=VALUE.
func TestLogKeyAsFlagQuery(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"predict", "-gpu", "H100 SXM", "-collective", "allreduce", "-ranks", "16", "-per-node", "8", "-size", "1MiB"}, "-ranks: the predicted run's ranks are -p N"},
		{[]string{"tune", "-calibrate", "../../data/nccltests/testdata/real/h100_2x8_allreduce_default_doca_nccltests319.log", "-ranks", "16"}, "-ranks: the job's communicators are -comms NODESxGPUS"},
		{[]string{"predict", "-gpu", "H100 SXM", "-collective", "allreduce", "-version", "2.27.3", "-p", "16", "-per-node", "8", "-size", "1MiB"}, "-version: a calibration log's version goes after its name, as -calibrate LOG:version=VALUE"},
	} {
		if code, _, stderr := runCLI(c.args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", c.args[:2], code, c.want, stderr)
		}
	}
}
