package main

import (
	"bufio"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// logRows reads an nccl-tests log's rows by hand, as a reader of it would:
// each line that is not a comment and starts with a size, its size (B) and
// its out-of-place time (µs), the sixth column, in seconds (to rounding:
// the log's reader divides by 1e6).
func logRows(t *testing.T, path string) (sizes, times []float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 13 {
			continue
		}
		size, err1 := strconv.ParseFloat(fs[0], 64)
		us, err2 := strconv.ParseFloat(fs[5], 64)
		if err1 != nil || err2 != nil {
			continue
		}
		sizes, times = append(sizes, size), append(times, us*1e-6)
	}
	return sizes, times
}

// plotCSV runs plot with -o and -csv in a temporary directory and returns
// the CSV's header and rows, and what the command printed.
func plotCSV(t *testing.T, args ...string) (header []string, rows []map[string]string, stdout string) {
	t.Helper()
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "points.csv")
	code, out, stderr := runCLI(append(append([]string{"plot"}, args...), "-o", filepath.Join(dir, "fig.svg"), "-csv", csvPath)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("the CSV: %v, %d records", err, len(recs))
	}
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return recs[0], rows, out
}

func csvFloat(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(row[col], 64)
	if err != nil {
		t.Fatalf("%s = %q: %v", col, row[col], err)
	}
	return v
}

// TestPlotCSV: -csv writes the plotted points, one a row. The measured
// rows are the log's rows, size and out-of-place time as the log prints
// them, in its order; the model's are at the same sizes, each inside its
// interval, with NCCL's algorithm and protocol; each row says what its
// series is.
func TestPlotCSV(t *testing.T) {
	t.Parallel()
	header, rows, out := plotCSV(t, h200Log)
	want := []string{"series", "kind", "log", "collective", "nodes", "per_node", "size_bytes", "time_s", "low_s", "high_s", "algorithm", "protocol", "what"}
	if strings.Join(header, ",") != strings.Join(want, ",") {
		t.Errorf("header %v, want %v", header, want)
	}
	sizes, times := logRows(t, h200Log)
	if len(sizes) != 25 {
		t.Fatalf("read %d rows of the log by hand, want its 25", len(sizes))
	}
	var measured, model []map[string]string
	for _, r := range rows {
		switch r["kind"] {
		case "measured":
			measured = append(measured, r)
		case "model":
			model = append(model, r)
		default:
			t.Errorf("a row of kind %q", r["kind"])
		}
	}
	if len(measured) != len(sizes) || len(model) != len(sizes) {
		t.Fatalf("%d measured and %d model rows; the log has %d", len(measured), len(model), len(sizes))
	}
	if !strings.Contains(out, "the 50 points plotted, one a row") {
		t.Errorf("stdout does not say what -csv wrote:\n%s", out)
	}
	for i, r := range measured {
		if r["series"] != "measured" || r["collective"] != "allreduce" || r["nodes"] != "2" || r["per_node"] != "8" ||
			!strings.HasSuffix(r["log"], "h200_2x8_allreduce_spectrumx_openshift.log#0") || !strings.Contains(r["what"], "out-of-place time") {
			t.Errorf("measured row %d: %v", i, r)
		}
		if s, tm := csvFloat(t, r, "size_bytes"), csvFloat(t, r, "time_s"); s != sizes[i] || math.Abs(tm-times[i]) > 1e-12*times[i] {
			t.Errorf("measured row %d: %g B in %g s; the log's row %d: %g B in %g s", i, s, tm, i, sizes[i], times[i])
		}
		if r["low_s"] != "" || r["high_s"] != "" || r["algorithm"] != "" {
			t.Errorf("measured row %d has a model's interval or choice: %v", i, r)
		}
	}
	for i, r := range model {
		s, tm, lo, hi := csvFloat(t, r, "size_bytes"), csvFloat(t, r, "time_s"), csvFloat(t, r, "low_s"), csvFloat(t, r, "high_s")
		if s != sizes[i] || !(lo <= tm && tm <= hi && tm > 0) {
			t.Errorf("model row %d: %g B, %g s in [%g, %g]; the log's size %g", i, s, tm, lo, hi, sizes[i])
		}
		if r["series"] != "model" || r["algorithm"] == "" || r["protocol"] == "" || !strings.Contains(r["what"], "NCCL's tuning model, uncalibrated") {
			t.Errorf("model row %d: %v", i, r)
		}
	}
	// The crossovers stdout lists are where the rows' choice changes.
	if model[7]["protocol"] != "LL" || model[8]["protocol"] != "LL128" || csvFloat(t, model[8], "size_bytes") != 256<<10 {
		t.Errorf("rows 7 and 8 (128 and 256 KiB): %v / %v, %v / %v; stdout marks 256 KiB: Tree/LL to Tree/LL128",
			model[7]["algorithm"], model[7]["protocol"], model[8]["algorithm"], model[8]["protocol"])
	}

	// Two logs: each its series, named as the legend names them.
	_, rows, _ = plotCSV(t, togetherDir+"all_gather_ring.log:algo=ring", togetherDir+"reduce_scatter_ring.log:algo=ring",
		"-calibrate", togetherDir+"all_reduce_ring.log:algo=ring")
	seen := map[string]int{}
	for _, r := range rows {
		seen[r["series"]]++
		if r["kind"] == "model" && !strings.Contains(r["what"], "calibrated on") {
			t.Errorf("a calibrated model's row says %q", r["what"])
		}
	}
	// Each log's measured points and model share its name, as its one
	// legend entry does: 27 sizes each.
	for _, s := range []string{"all_gather_ring", "reduce_scatter_ring"} {
		if seen[s] != 2*27 {
			t.Errorf("%d rows of series %q, want 27 measured and 27 of the model: %v", seen[s], s, seen)
		}
	}

	// The points' file is not the figure's.
	if code, _, stderr := runCLI("plot", h200Log, "-o", "x.svg", "-csv", "./x.svg"); code == 0 || !strings.Contains(stderr, "-csv") {
		t.Errorf("-csv the -o file: exit %d: %s", code, stderr)
	}
}
