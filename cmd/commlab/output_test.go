package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWriteCSV holds a CSV table to its JSON: the same column names, in
// field order, and values that read back to the same numbers.
func TestWriteCSV(t *testing.T) {
	t.Parallel()
	type inner struct {
		A float64 `json:"a_s"`
	}
	type row struct {
		inner
		Name   string   `json:"name"`
		N      int64    `json:"n,omitempty"`
		Tags   []string `json:"tags"`
		Link   *inner   `json:"link,omitempty"`
		Hidden int      `json:"-"`
		OK     bool     `json:"ok"`
	}
	rows := []row{
		{inner{1.0 / 3}, "x,y", 1 << 40, []string{"p", "q"}, nil, 7, true},
		{inner{2e-6}, "z", 0, nil, &inner{5}, 0, false},
	}
	var buf bytes.Buffer
	if err := writeCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a_s", "name", "n", "tags", "link_a_s", "ok"}
	if len(recs) != 3 || len(recs[0]) != len(want) {
		t.Fatalf("records %q, want a header of %q and 2 rows", recs, want)
	}
	for i, w := range want {
		if recs[0][i] != w {
			t.Errorf("column %d is %q, want %q", i, recs[0][i], w)
		}
	}
	js, _ := json.Marshal(rows[0])
	var back map[string]any
	json.Unmarshal(js, &back)
	if a, _ := strconv.ParseFloat(recs[1][0], 64); a != back["a_s"].(float64) {
		t.Errorf("a_s %v in CSV, %v in JSON", recs[1][0], back["a_s"])
	}
	if recs[1][1] != "x,y" || recs[1][2] != "1099511627776" || recs[1][3] != "p;q" || recs[1][4] != "" || recs[1][5] != "true" {
		t.Errorf("row 1 %q", recs[1])
	}
	if recs[2][4] != "5" || recs[2][3] != "" {
		t.Errorf("row 2 %q", recs[2])
	}
	if err := writeCSV(&buf, 3); err == nil {
		t.Error("writeCSV(3) gave no error")
	}
}

// TestFormatFlags checks the choice of -format and -json, and that a bad
// value's error names the values that work.
func TestFormatFlags(t *testing.T) {
	t.Parallel()
	// -json with a -format given, text as well as csv, is a usage error
	// (red team rt2 m4: -format text -json printed JSON).
	for _, c := range []struct {
		args []string
		want string
		bad  bool
	}{
		{nil, "text", false}, {[]string{"-format", "text"}, "text", false}, {[]string{"-format", "csv"}, "csv", false},
		{[]string{"-format", "json"}, "json", false}, {[]string{"-json"}, "json", false}, {[]string{"-json", "-format", "json"}, "json", false},
		{[]string{"-format", "text", "-json"}, "", true}, {[]string{"-json", "-format", "csv"}, "", true}, {[]string{"-format", "xml"}, "", true},
	} {
		fs := newFlags("test")
		f := addFormatFlags(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		got, err := f.get()
		var fe *flagError
		if (err != nil) != c.bad || got != c.want || err != nil && !errors.As(err, &fe) {
			t.Errorf("%q: %q, %v", c.args, got, err)
		}
	}
}

// TestCSVMatchesJSON runs each subcommand that prints a table with -format
// csv and -format json: the CSV parses, has a row per JSON row, and its
// first row's cells are the JSON row's values under the same names.
func TestCSVMatchesJSON(t *testing.T) {
	t.Parallel()
	log := "../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log"
	for _, c := range []struct {
		args []string
		rows string // the JSON key of the rows; "" for the object itself
	}{
		{[]string{"model", "-p", "8", "-link", "h20-intra", "-size", "64KiB,1MiB"}, "rows"},
		{[]string{"crossover", "-p", "8", "-link", "h20-intra"}, "crossovers"},
		{[]string{"simulate", "-algo", "ring", "-p", "4", "-size", "1KiB"}, ""},
		{[]string{"fit", log, "-bootstrap", "0"}, "regimes"},
		{[]string{"predict", "-gpu", "H100", "-collective", "allreduce", "-p", "16", "-per-node", "8", "-size", "1MiB,1GiB"}, "predictions"},
		{[]string{"topo", "-preset", "h20-article"}, "gpus"},
		{[]string{"claims"}, "claims"},
	} {
		code, csvOut, stderr := runCLI(append(c.args, "-format", "csv")...)
		if code != 0 {
			t.Errorf("%v -format csv: exit %d: %s", c.args, code, stderr)
			continue
		}
		code, jsonOut, _ := runCLI(append(c.args, "-format", "json")...)
		if code != 0 {
			t.Errorf("%v -format json: exit %d", c.args, code)
			continue
		}
		recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
		if err != nil {
			t.Errorf("%v: CSV does not parse: %v\n%s", c.args, err, csvOut)
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(jsonOut), &obj); err != nil {
			t.Fatal(err)
		}
		rows := []any{obj}
		if c.rows != "" {
			rows, _ = obj[c.rows].([]any)
		}
		if len(recs) != len(rows)+1 || len(rows) == 0 {
			t.Errorf("%v: %d CSV rows, %d JSON rows", c.args, len(recs)-1, len(rows))
			continue
		}
		first := rows[0].(map[string]any)
		matched := 0
		for i, name := range recs[0] {
			v, ok := first[name]
			if !ok {
				continue // a flattened field: fit's single_alpha_s, topo's nothing
			}
			var want string
			switch v := v.(type) {
			case float64:
				want = formatFloat(v)
			case string:
				want = v
			case bool:
				want = strconv.FormatBool(v)
			default:
				continue
			}
			if recs[1][i] != want {
				t.Errorf("%v: column %s is %q in CSV, %q in JSON", c.args, name, recs[1][i], want)
			}
			matched++
		}
		if matched < 3 {
			t.Errorf("%v: only %d of the CSV's columns %q are JSON fields", c.args, matched, recs[0])
		}
	}
}

// TestArgumentCountIsUsage: too few or too many files is a command line
// that does not parse: exit 2, the reason and the usage on stderr.
func TestArgumentCountIsUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"fit"}, {"diagnose"}, {"compare", "a.log"}, {"plot", "-o", "x.png"},
		{"model", "-p", "8", "-link", "h20-intra", "-size", "1MiB", "extra"},
		{"fit", "a.log", "b.log"},
	} {
		code, out, stderr := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(stderr, "commlab "+args[0]+": ") || !strings.Contains(strings.ToLower(stderr), "usage") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 with the reason and the usage", args, code, out, stderr)
		}
	}
}

// TestPredictCSVGuesses: predict -format csv writes the table alone on
// standard output, and on standard error the lines the text puts first:
// each guess its interval holds, with the flag that settles it. The
// docs/predict.md example (cluster01's 10 x 8 from its 10-node tables)
// assumes NVLS, and its 64 MiB interval holds the prediction without it;
// the CSV said nothing of it (red team).
func TestPredictCSVGuesses(t *testing.T) {
	t.Parallel()
	dir := "../../data/logs/paired/h100-sxm-10node-cluster01/"
	args := []string{"predict", "-calibrate", dir + "nccl_N1_G8_cnode3-002.log," + dir + "nccl_N10_G1.log", "-collective", "allreduce", "-p", "80", "-per-node", "8", "-size", "64MiB"}
	code, text, _ := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var guesses []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "guess: ") {
			guesses = append(guesses, l)
		}
	}
	code, out, stderr := runCLI(append(args, "-format", "csv")...)
	if code != 0 || strings.Contains(out, "guess:") {
		t.Fatalf("-format csv: exit %d, standard output %q; want the table alone", code, out)
	}
	if len(guesses) == 0 || !slices.ContainsFunc(guesses, func(g string) bool { return strings.HasPrefix(g, "guess: nvls = true is assumed") }) {
		t.Fatalf("text guesses %q; want NVLS among them", guesses)
	}
	for _, g := range guesses {
		if !strings.Contains(stderr, g+"\n") {
			t.Errorf("-format csv: standard error lacks the text's %q:\n%s", g, stderr)
		}
	}
}

// TestPredictBlendSaid: Polaris' three public tables, as their logs give
// them, are predicted by a blend of the calibration and NCCL's
// uncalibrated model (predict.Machine.NCCLWeight 0.2, a note says), and the
// model line says so too, where it said "calibrated" alone (red team);
// docs/predict.md quotes the line.
func TestPredictBlendSaid(t *testing.T) {
	t.Parallel()
	r := "../../data/nccltests/testdata/real/"
	code, out, stderr := runCLI("predict", "-calibrate", r+"a100_1x4_allreduce_polaris_ss11.log,"+r+"a100_4x4_allreduce_simple_polaris_ss11.log,"+r+"a100_4x4_allgather_stalled_polaris_ss11.log",
		"-collective", "allreduce", "-p", "16", "-per-node", "4", "-size", "1MiB")
	const line = "model: calibrated (commmodel/predict), blended with NCCL's uncalibrated model at weight 0.2\n"
	if code != 0 || !strings.Contains(out, line) || !strings.Contains(stderr, "predictions blend the two, with weight 0.2 on NCCL's") {
		t.Errorf("exit %d; want %q and the note:\n%s%s", code, line, out, stderr)
	}
	// NCCL's model has no AllToAll: its predictions are the calibration's.
	code, out, _ = runCLI("predict", "-calibrate", r+"a100_1x4_allreduce_polaris_ss11.log,"+r+"a100_4x4_allreduce_simple_polaris_ss11.log,"+r+"a100_4x4_allgather_stalled_polaris_ss11.log",
		"-collective", "alltoall", "-p", "16", "-per-node", "4", "-size", "1MiB")
	if code != 0 || !strings.Contains(out, "model: calibrated (commmodel/predict)\n") {
		t.Errorf("alltoall: exit %d; want the model line unblended:\n%s", code, out)
	}
	doc, err := os.ReadFile("../../docs/predict.md")
	if err != nil {
		t.Fatal(err)
	}
	if quoted := strings.TrimPrefix(strings.TrimSuffix(line, "\n"), "model: "); !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), "`"+quoted+"`") {
		t.Errorf("docs/predict.md does not quote %q", quoted)
	}
}
