package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/png"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/figure"
	"gonum.org/v1/gonum/floats/scalar"
)

const h200Log = "../../data/logs/h200_2x8_allreduce_spectrumx_openshift.log"

// plotFile runs plot with args and -o NAME in a temporary directory, and
// returns the file written and what the command printed.
func plotFile(t *testing.T, name string, args ...string) (file []byte, stdout string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	code, out, stderr := runCLI(append(append([]string{"plot"}, args...), "-o", path)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b, out
}

// TestPlotPNG: the PNG's pixels are -width and -height at -dpi. -short
// draws the second and third cases on smaller figures (the first holds the
// default size): drawing 1800 x 1000 or 2100 x 1350 pixels takes seconds
// under the race detector.
func TestPlotPNG(t *testing.T) {
	t.Parallel()
	type plotCase struct {
		args []string
		want image.Point
	}
	inCM := plotCase{[]string{"-dpi", "254", "-width", "18cm", "-height", "10cm"}, image.Point{1800, 1000}} // 254 DPI is 100 dots per cm
	atDefaultDPI := plotCase{nil, image.Point{2100, 1350}}                                                  // 7in x 4.5in at the default 300 DPI
	if testing.Short() {
		inCM = plotCase{[]string{"-dpi", "254", "-width", "6cm", "-height", "3cm"}, image.Point{600, 300}}
		atDefaultDPI = plotCase{[]string{"-width", "2in", "-height", "1in"}, image.Point{600, 300}}
	}
	for _, c := range []plotCase{
		{[]string{"-dpi", "100"}, image.Point{700, 450}}, // the default 7in x 4.5in
		inCM,
		atDefaultDPI,
	} {
		b, out := plotFile(t, "h200.png", append([]string{h200Log}, c.args...)...)
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%v: not a PNG: %v", c.args, err)
		}
		if got := img.Bounds().Size(); got != c.want {
			t.Errorf("%v: the PNG is %v, want %v", c.args, got, c.want)
		}
		if !strings.HasPrefix(out, "wrote ") {
			t.Errorf("%v: stdout %q does not say what it wrote", c.args, out)
		}
	}
}

// TestPlotSVG plots two of Together's tables on one figure: the SVG is
// XML, and its legend names each log once.
func TestPlotSVG(t *testing.T) {
	t.Parallel()
	b, _ := plotFile(t, "together.svg", togetherDir+"all_gather_ring.log:algo=ring", togetherDir+"reduce_scatter_ring.log:algo=ring",
		"-calibrate", togetherDir+"all_reduce_ring.log:algo=ring")
	d := xml.NewDecoder(bytes.NewReader(b))
	var texts []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			texts = append(texts, strings.TrimSpace(string(cd)))
		}
	}
	// One entry a log, its marker over its model's curve; the title says
	// which is which.
	for _, name := range []string{"all_gather_ring", "reduce_scatter_ring"} {
		if n := count(texts, name); n != 1 {
			t.Errorf("the SVG's texts hold legend entry %q %d times, want once", name, n)
		}
	}
	if !slices.Contains(texts, "H100 SXM, model calibrated on 1 table: points measured, lines the model") {
		t.Errorf("the title does not say the points are measured and the lines the model: %q", texts)
	}
}

// TestPlotPDF plots the DGX-2's ReduceScatter, the fifth test of its log
// (-test 4), after the Reduce that the model does not predict.
func TestPlotPDF(t *testing.T) {
	t.Parallel()
	b, out := plotFile(t, "dgx2.pdf", dgx2Log, "-test", "4")
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("the PDF starts with %q", b[:min(len(b), 8)])
	}
	if !strings.Contains(out, "five_tests_2019.log#4, reducescatter on 1 x 12") {
		t.Errorf("-test 4 did not plot the log's ReduceScatter:\n%s", out)
	}
}

// TestPlotModel: the model curve is Machine.Predict's times and interval
// at the table's sizes, for a machine calibrated here on the same table.
func TestPlotModel(t *testing.T) {
	t.Parallel()
	calib := togetherDir + "all_reduce_ring.log"
	req, err := parsePlotFlags([]string{togetherDir + "all_gather_ring.log:algo=ring", "-calibrate", calib + ":algo=ring", "-o", "x.png"})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := req.build()
	if err != nil {
		t.Fatal(err)
	}
	tables, _, err := readTables(calib, predict.Pins{Algo: "Ring"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	hw, err := predict.Describe(tables[0].GPU, "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := predict.Calibrate(hw, tables, nil)
	if err != nil {
		t.Fatal(err)
	}
	tb := pl.logs[0].table
	var sizes []float64
	for _, p := range tb.Points {
		sizes = append(sizes, p.Size)
	}
	want, err := m.Predict(tb.Query(), sizes)
	if err != nil {
		t.Fatal(err)
	}
	if len(pl.figure.Series) != 2 {
		t.Fatalf("%d series, want the measured points and the model", len(pl.figure.Series))
	}
	measured, model := pl.figure.Series[0], pl.figure.Series[1]
	if measured.Name != "measured" || model.Name != "model" {
		t.Errorf("one log's legend: %q and %q, want measured and model (standard output names the log)", measured.Name, model.Name)
	}
	if !slices.Equal(measured.X, sizes) || len(model.X) != len(want) {
		t.Fatalf("measured sizes %v, %d model points; want the table's %v, %d", measured.X, len(model.X), sizes, len(want))
	}
	for i, p := range want {
		if model.X[i] != p.Size || model.Y[i] != p.Time || model.Low[i] != p.Low || model.High[i] != p.High {
			t.Errorf("model point %d is %g B: %g s in [%g, %g]; Machine.Predict gives %g B: %g s in [%g, %g]",
				i, model.X[i], model.Y[i], model.Low[i], model.High[i], p.Size, p.Time, p.Low, p.High)
		}
	}
	// The calibration moves the model away from its priors: the curve is
	// not the uncalibrated one.
	prior, err := predict.Uncalibrated(hw).Predict(tb.Query(), sizes)
	if err != nil {
		t.Fatal(err)
	}
	if last := len(prior) - 1; scalar.EqualWithinAbs(prior[last].Time, model.Y[last], 0.01*model.Y[last]) {
		t.Errorf("at %g B the calibrated curve, %g s, is the uncalibrated model's %g s", sizes[last], model.Y[last], prior[last].Time)
	}
}

// TestPlotMarks: on the public H200 AllReduce the uncalibrated model has
// NCCL go from Tree/LL to Tree/LL128 at 256 KiB (as "commlab diagnose"
// finds, TestDiagnoseH200), and the regime breaks are those of "commlab
// fit" on the log, whose piecewise fit has regimes 1-4 KiB, 8-32 KiB,
// 256 KiB-4 MiB, 8-64 MiB and 128 MiB-16 GiB: each break the geometric mean
// of the sizes either side (fit.Result.Boundaries). By default the figure
// marks the crossovers only, named in its legend.
func TestPlotMarks(t *testing.T) {
	t.Parallel()
	req, err := parsePlotFlags([]string{h200Log, "-o", "x.png"})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := req.build()
	if err != nil {
		t.Fatal(err)
	}
	if !pl.figure.MarksInLegend || len(pl.figure.Marks) > len(figure.MarkDashes) {
		t.Errorf("marks in the legend %v, %d marks; want in the legend, at most %d", pl.figure.MarksInLegend, len(pl.figure.Marks), len(figure.MarkDashes))
	}
	found := false
	for _, m := range pl.figure.Marks {
		if strings.HasSuffix(m.Label, "regime break") {
			t.Errorf("default marks hold a regime break: %q", m.Label)
		}
		found = found || (m.Label == "256 KiB: Tree/LL to Tree/LL128" && m.X == 1<<18)
	}
	if !found {
		t.Errorf("no crossover at 256 KiB: marks %v", pl.figure.Marks)
	}

	req.crossovers, req.breaks = false, true // -marks breaks
	if pl, err = req.build(); err != nil {
		t.Fatal(err)
	}
	var breaks []float64
	for _, m := range pl.logs[0].marks {
		breaks = append(breaks, m.X)
	}
	want := []float64{math.Sqrt(4096 * 8192), math.Sqrt(32768 * 262144), math.Sqrt(4194304 * 8388608), math.Sqrt(67108864 * 134217728)}
	if len(breaks) != len(want) {
		t.Fatalf("regime breaks at %v, want %v", breaks, want)
	}
	for i := range want {
		if !scalar.EqualWithinAbs(breaks[i], want[i], 1e-12*want[i]) {
			t.Errorf("regime break %d at %g B, want %g", i, breaks[i], want[i])
		}
	}
	// Four breaks, three drawn: the smallest sizes.
	if len(pl.figure.Marks) != 3 || pl.figure.Marks[2].X != breaks[2] || pl.found != 4 {
		t.Errorf("figure marks %v of %d found; want the first 3 of the 4 breaks", pl.figure.Marks, pl.found)
	}

	req.crossovers, req.breaks = false, false // -marks none
	if pl, err = req.build(); err != nil || len(pl.figure.Marks) != 0 {
		t.Errorf("-marks none: marks %v, err %v", pl.figure.Marks, err)
	}
}

// TestFigureMarks: marks two logs share are drawn once without a name, a
// mark of one log is named by it, and of more marks than dash patterns the
// algorithm changes are kept first, then the smaller sizes.
func TestFigureMarks(t *testing.T) {
	t.Parallel()
	mk := func(x float64, label string, alg bool) plotMark {
		return plotMark{figure.Mark{X: x, Label: label}, alg}
	}
	logs := []plottedLog{
		{name: "a", marks: []plotMark{mk(1, "p1", false), mk(2, "shared", true), mk(3, "p3", false), mk(5, "alg5", true)}},
		{name: "b", marks: []plotMark{mk(2, "shared", true), mk(4, "p4", false)}},
	}
	marks, found := figureMarks(logs)
	var got []string
	for _, m := range marks {
		got = append(got, m.Label)
	}
	// shared (2, algorithm), a alg5 (5, algorithm), then a p1 (1): in size order.
	if want := []string{"a p1", "shared", "a alg5"}; !slices.Equal(got, want) || found != 5 {
		t.Errorf("marks %q of %d, want %q of 5", got, found, want)
	}
}

// TestPlotErrors: each refusal names a flag or value that works, and a
// refused -o writes nothing.
func TestPlotErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	jpg := filepath.Join(dir, "fig.jpg")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{h200Log}, 2, "-o FILE.png, FILE.svg or FILE.pdf"},
		{[]string{h200Log, "-o", jpg}, 2, "want a name ending in .png, .svg, .pdf, such as -o " + filepath.Join(dir, "fig.png")},
		{[]string{"-o", "fig.png"}, 2, "commlab plot LOG... -o FILE.png"},
		{[]string{h200Log, "-o", "-"}, 2, "-o -: plot writes a file, not standard output"},
		{[]string{h200Log, "-o", "fig.png", "-dpi", "0"}, 2, "such as -dpi 300"},
		{[]string{h200Log, "-o", "fig.png", "-width", "wide"}, 2, "such as 7in, 18cm or 500pt"},
		{[]string{h200Log, "-o", "fig.png", "-marks", "lines"}, 2, "want crossovers, breaks, crossovers,breaks or none"},
		{[]string{h200Log, "-o", filepath.Join(dir, "fig.png"), "-test", "1"}, 1, "has no test 1 of a collective the model predicts; try -test 0"},
		{[]string{dgx2Log, "-o", filepath.Join(dir, "fig.png"), "-test", "3"}, 1, "five_tests_2019.log:173: test 3: reduce_perf is not a collective the model predicts: its table is left out; the others are -test 0, 1, 2, 4"},
		{[]string{h200Log, "-o", "fig.png", "-size", "1MiB"}, 2, "flag provided but not defined: -size"},
	} {
		code, _, stderr := runCLI(append([]string{"plot"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(jpg); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-o fig.jpg: a file was written (%v)", err)
	}
}

// TestPlotHostsOfPlottedLogs: the plotted log's hosts of 4 H100s (cluster01's
// 10 x 4 log) are the machine's hosts, as diagnose takes them: a board of
// 4 without NVSwitch (predict.Hardware.ForHosts), not an 8-GPU NVSwitch host.
func TestPlotHostsOfPlottedLogs(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "p.svg")
	code, stdout, stderr := runCLI("plot", "-test", "4", "-o", out, "../../data/logs/paired/h100-sxm-10node-cluster01/nccl_N10_G4.log")
	if code != 0 || !strings.Contains(stdout, "hardware: H100 SXM, NVLink mesh of 18 NVLinks") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the mesh of a 4-GPU host", code, stdout, stderr)
	}
}

// TestPlotMachineAsDiagnose: plot describes the machine of a log as
// diagnose does, from the log's own NCCL_DEBUG lines, and names the model
// as diagnose does. The p4d EFA log's aws-ofi-nccl platform line gives 4
// NICs of 100 Gb/s and 16x NCCL's network latency: plot took one NIC per
// GPU of 200 Gb/s and NCCL's latency, and drew another curve than the one
// diagnose held the table to, under a model line that did not say which
// model drew it.
func TestPlotMachineAsDiagnose(t *testing.T) {
	t.Parallel()
	log := realLog("a100_2x8_allreduce_efa_p4d_ncclinfo.log")
	code, plotted, stderr := runCLI("plot", log, "-o", filepath.Join(t.TempDir(), "efa.svg"))
	if code != 0 {
		t.Fatalf("plot: exit %d: %s", code, stderr)
	}
	code, diagnosed, stderr := runCLI("diagnose", log)
	if code != 0 {
		t.Fatalf("diagnose: exit %d: %s", code, stderr)
	}
	line := func(out, prefix string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		return ""
	}
	for _, p := range []string{"hardware: ", "model: "} {
		if a, b := line(plotted, p), line(diagnosed, p); a == "" || a != b {
			t.Errorf("plot prints %q, diagnose %q", a, b)
		}
	}
	if !strings.Contains(line(plotted, "model: "), "16x NCCL's figure") {
		t.Errorf("plot's model line %q does not name the network's latency of p4d", line(plotted, "model: "))
	}
}

func count(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}
