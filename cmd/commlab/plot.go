package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("plot", "plot nccl-tests logs against the model's prediction, to a PNG, SVG or PDF file", runPlot)
}

// plotRequest is a "commlab plot" command line, its flags checked.
type plotRequest struct {
	// logs are the LOG arguments, each with its pins.
	logs []calibrationFile
	// machine are the flags that describe the machine.
	machine machineFlags
	// test is -test: which test of each log; testSet says -test was given.
	test    int
	testSet bool
	// out is -o, a name ending in one of figure.SaveFormats.
	out string
	// csv is -csv, where to write the figure's points as CSV; "" for none.
	csv string
	// dpi is -dpi, the PNG's resolution.
	dpi int
	// width and height are -width and -height.
	width, height vg.Length
	// crossovers and breaks are -marks: whether to mark where the model
	// has NCCL change its choice, and the breaks of the measured regimes.
	crossovers, breaks bool
}

// parsePlotFlags parses and checks the flags of "commlab plot".
func parsePlotFlags(args []string) (plotRequest, error) {
	fs := newFlags("plot")
	machine := addMachineFlags(fs)
	test := fs.Int("test", 0, "which test of each LOG to plot, from 0 in the order the log prints them, when it holds several")
	out := fs.String("o", "", "the file to write, by its extension: FILE.png, FILE.svg or FILE.pdf")
	csvOut := fs.String("csv", "", "also write the plotted points to this CSV file, one row a point: series, size_bytes, time_s, the model's interval and choice, and what each series is")
	dpi := fs.Int("dpi", 300, "the PNG's resolution, dots per inch (a paper's figures want 300)")
	inches := func(l vg.Length) string { return fmt.Sprintf("%gin", float64(l/vg.Inch)) }
	width := fs.String("width", inches(figure.DefaultWidth), "the figure's width, with its unit: in, cm, mm or pt")
	height := fs.String("height", inches(figure.DefaultHeight), "the figure's height, with its unit: in, cm, mm or pt")
	marks := fs.String("marks", "crossovers", "the vertical lines to draw, comma-separated: crossovers (where the model has NCCL change algorithm or protocol), "+
		"breaks (between the regimes of a piecewise fit of the measured points), or none; at most 3 are drawn, named in the legend")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab plot LOG[:KEY=VALUE...]... -o FILE.{png,svg,pdf} [-calibrate A.log,...] [-gpu NAME] [-hw SPEC|FILE] [-topo FILE]\n"+
			"                   [-test N] [-dpi N] [-width 7in] [-height 4.5in] [-marks crossovers|breaks|crossovers,breaks|none] [-csv FILE.csv]")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args, math.MaxInt)
	if err != nil {
		return plotRequest{}, err
	}
	if len(pos) == 0 {
		return plotRequest{}, usageErrorf(fs, "give the nccl-tests logs to plot: commlab plot LOG... -o FILE.png")
	}
	if *out == "" {
		return plotRequest{}, flagErrorf("-o FILE.png, FILE.svg or FILE.pdf says where to write the figure")
	}
	if *out == "-" {
		// The figure's format is its name's extension: standard output
		// has none (it suggested -o -.png).
		return plotRequest{}, flagErrorf("-o -: plot writes a file, not standard output: give -o FILE.png, FILE.svg or FILE.pdf")
	}
	if ext := strings.ToLower(filepath.Ext(*out)); !slices.Contains(figure.SaveFormats, ext) {
		return plotRequest{}, flagErrorf("-o %q: want a name ending in %s, such as -o %s.png",
			*out, strings.Join(figure.SaveFormats, ", "), strings.TrimSuffix(*out, filepath.Ext(*out)))
	}
	if err := checkTest(strconv.Itoa(*test), false); err != nil {
		return plotRequest{}, err
	}
	if err := checkCount(fs, "dpi", *dpi, maxDPI, "the PNG's resolution in dots per inch", "300"); err != nil {
		return plotRequest{}, err
	}
	if *csvOut != "" && filepath.Clean(*csvOut) == filepath.Clean(*out) {
		return plotRequest{}, flagErrorf("-csv %q is the figure's -o: give the points another file", *csvOut)
	}
	req := plotRequest{machine: machine, test: *test, out: *out, csv: *csvOut, dpi: *dpi}
	fs.Visit(func(f *flag.Flag) { req.testSet = req.testSet || f.Name == "test" })
	for _, l := range []struct {
		flag, value string
		to          *vg.Length
	}{{"width", *width, &req.width}, {"height", *height, &req.height}} {
		if *l.to, err = parseSide(l.value); err != nil {
			return plotRequest{}, usageErrorf(fs, "-%s %q: %v", l.flag, l.value, err)
		}
		if *l.to > maxSide {
			return plotRequest{}, usageErrorf(fs, "-%s %s: larger than a poster; give at most %gin", l.flag, l.value, float64(maxSide/vg.Inch))
		}
	}
	if px := req.width.Dots(float64(req.dpi)) * req.height.Dots(float64(req.dpi)); strings.EqualFold(filepath.Ext(req.out), ".png") && px > maxPixels {
		return plotRequest{}, usageErrorf(fs, "-width %s -height %s at -dpi %d: a PNG of %.0f million pixels; give at most %d million (a lower -dpi, or a .svg or .pdf, which has no pixels)",
			*width, *height, req.dpi, px/1e6, maxPixels/1_000_000)
	}
	for _, m := range strings.Split(*marks, ",") {
		switch strings.TrimSpace(m) {
		case "crossovers":
			req.crossovers = true
		case "breaks":
			req.breaks = true
		case "none":
		default:
			return plotRequest{}, flagErrorf("-marks %q: want crossovers, breaks, crossovers,breaks or none", *marks)
		}
	}
	pins, err := machine.studyPins(pos)
	if err != nil {
		return plotRequest{}, err
	}
	for _, p := range pos {
		files, err := parseCalibrationFiles(p, pins, "the log")
		if err != nil {
			return plotRequest{}, err
		}
		req.logs = append(req.logs, files...)
	}
	// Each log takes a colour of its own; a further one would wear an
	// earlier log's colour and dash, the two told apart by no mark.
	if n := figure.NumColors(); len(req.logs) > n {
		return plotRequest{}, flagErrorf("%d logs: one figure tells at most %d apart, each by its colour; plot them in several figures", len(req.logs), n)
	}
	return req, nil
}

// parseSide reads -width or -height: a positive length with its unit, in,
// cm, mm or pt. A bare number is refused, though vg.ParseLength reads it as
// points: a user who writes -width 7 means the 7 inches of the default
// (matplotlib's figsize counts inches), not the 7 points (0.1 in) it
// drew, and every other quantity flag wants its unit too.
func parseSide(s string) (vg.Length, error) {
	const example = "such as 7in, 18cm or 500pt"
	v := strings.TrimSpace(s)
	for _, unit := range []string{"in", "cm", "mm", "pt"} {
		if num, ok := strings.CutSuffix(v, unit); ok {
			l, err := vg.ParseLength(strings.TrimSpace(num) + unit)
			if err != nil || !(l > 0) {
				break
			}
			return l, nil
		}
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return 0, errors.New("missing unit, " + example)
	}
	return 0, errors.New("want a positive length with its unit, " + example)
}

// runPlot runs "commlab plot LOG...": it draws each log's measured times
// and the model's prediction for the same collective and shape into -o,
// and prints what it drew.
func runPlot(args []string, stdout, stderr io.Writer) error {
	req, err := parsePlotFlags(args)
	if err != nil {
		return err
	}
	pl, err := req.build()
	if err != nil {
		return err
	}
	writeProblems(stderr, pl.problems)
	inputs := req.machine.inputs()
	for _, l := range req.logs {
		inputs = append(inputs, l.path)
	}
	err = writeOutput(req.out, inputs, true, func(tmp string) error { return pl.figure.Save(tmp, req.dpi) })
	if err != nil {
		return fmt.Errorf("-o: %w", err)
	}
	if req.csv != "" {
		err = writeOutput(req.csv, inputs, true, func(tmp string) error {
			f, err := os.Create(tmp)
			if err != nil {
				return err
			}
			if err := writeCSV(f, pl.points()); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		})
		if err != nil {
			return fmt.Errorf("-csv: %w", err)
		}
	}
	return pl.writeText(stdout, req)
}

// plotPoint is one point of plot's figure, a row of -csv: a measured time
// of a log, or the model's time at the same size with its interval.
type plotPoint struct {
	// Series is the legend's name of the point's series.
	Series string `json:"series"`
	// Kind is "measured" or "model".
	Kind string `json:"kind"`
	// Log is the table the point belongs to (FILE#TEST), Collective,
	// Nodes and PerNode its run.
	Log        string `json:"log"`
	Collective string `json:"collective"`
	Nodes      int    `json:"nodes"`
	PerNode    int    `json:"per_node"`
	// SizeBytes and TimeS are the point: the x and y of the figure.
	SizeBytes float64 `json:"size_bytes"`
	TimeS     float64 `json:"time_s"`
	// LowS and HighS are the model's 80% interval, the band; empty for a
	// measured point.
	LowS  *float64 `json:"low_s"`
	HighS *float64 `json:"high_s"`
	// Algorithm and Protocol are what the model has NCCL run at the size;
	// empty for a measured point.
	Algorithm string `json:"algorithm"`
	Protocol  string `json:"protocol"`
	// What says what the series is.
	What string `json:"what"`
}

// points returns the figure's points, series by series in the legend's
// order (each log's measured points, then its model's), each in the order
// drawn.
func (pl *plotted) points() []plotPoint {
	var out []plotPoint
	for i, l := range pl.logs {
		t := l.table
		measured, model := pl.figure.Series[2*i], pl.figure.Series[2*i+1]
		base := plotPoint{Log: t.Name, Collective: t.Collective.String(), Nodes: t.Nodes, PerNode: t.PerNode}
		what := "nccl-tests' out-of-place time per call of " + t.Name + ", as the log prints it"
		for k := range measured.X {
			r := base
			r.Series, r.Kind, r.What = measured.Name, "measured", what
			r.SizeBytes, r.TimeS = measured.X[k], measured.Y[k]
			out = append(out, r)
		}
		what = "the model's time per call at the log's sizes (" + pl.modelOf(l) + "), with its 80% interval and NCCL's algorithm and protocol"
		for k := range model.X {
			r := base
			r.Series, r.Kind, r.What = model.Name, "model", what
			r.SizeBytes, r.TimeS = model.X[k], model.Y[k]
			r.LowS, r.HighS = &model.Low[k], &model.High[k]
			r.Algorithm, r.Protocol = l.preds[k].Algorithm, l.preds[k].Protocol
			out = append(out, r)
		}
	}
	return out
}

// modelOf says which model draws l's curve: the model line, or where the
// logs' uncalibrated models differ, l's part of it.
func (pl *plotted) modelOf(l plottedLog) string {
	for _, part := range strings.Split(pl.model, "; ") {
		if rest, ok := strings.CutPrefix(part, l.name+": "); ok && len(pl.logs) > 1 {
			return rest
		}
	}
	return pl.model
}

// A plotted is a figure built from the logs, with what a reader of it
// should know.
type plotted struct {
	figure figure.Figure
	// hardware is the machine the model ran on, each fact with its
	// source, as diagnose prints it.
	hardware hardwareOutput
	model    string
	logs     []plottedLog
	problems []problem
	// drawn and found count the figure's marks and the logs' marks before
	// they were merged and limited (figureMarks).
	drawn, found int
}

// A plottedLog is one log's table on the figure: its measured points, the
// model's prediction along its sizes, and its marks.
type plottedLog struct {
	name  string
	test  int  // the log's test plotted
	alone bool // the figure's only log
	table predict.Table
	preds []predict.Prediction
	marks []plotMark
}

// build reads the logs and the machine, predicts each log's table, and
// builds the figure.
func (req plotRequest) build() (*plotted, error) {
	pl := &plotted{}
	for _, f := range req.logs {
		_, tables, problems, err := readCalibration([]calibrationFile{f})
		if err != nil {
			return nil, err
		}
		// LOG:test=K names the test as -test K does.
		test := req.test
		if len(f.tests) == 1 && !req.testSet {
			test = f.tests[0]
		}
		t, err := tableOfTest(tables, problems, f.path, test, "-test ")
		if err != nil {
			return nil, err
		}
		pl.problems = append(pl.problems, problems...)
		if !req.testSet && len(f.tests) == 0 {
			pl.problems = append(pl.problems, otherTests(f.path, tables, t)...)
		}
		pl.logs = append(pl.logs, plottedLog{table: t, test: test})
	}
	req.machine.machineOf(pl.logs[0].table) // the machine is the first log's
	plotted := make([]predict.Table, len(pl.logs))
	for i := range pl.logs {
		plotted[i] = pl.logs[i].table
	}
	// One model draws every log: they must be one machine's, as predict's
	// calibration tables must.
	if err := sameMachine(plotted); err != nil {
		return nil, err
	}
	// The plotted logs' hosts are the machine's, as diagnose's are, and
	// a calibration log that does not place its ranks takes them.
	var hosts []predict.Comm
	for _, t := range plotted {
		hosts = append(hosts, predict.Comm{Nodes: t.Nodes, PerNode: t.PerNode})
	}
	mc, err := req.machine.load(predict.Pins{Hosts: hosts}, predict.HostGPUs(plotted), plotted...)
	if err != nil {
		return nil, err
	}
	mc.studies(plotted...)
	pl.problems = append(pl.problems, mc.problems...)
	m, model, err := mc.model()
	if err != nil {
		return nil, err
	}
	pl.hardware, pl.model = hardwareOf(mc.hw, append(plotted, mc.tables...)), model
	// The first log's release, as diagnose gives its run's: the machine
	// is the first log's.
	pl.hardware.Facts = withFact(pl.hardware.Facts, plotted[0].VersionFact())
	kind := "uncalibrated"
	if len(mc.tables) > 0 {
		kind = "calibrated on " + words.Count(len(mc.tables), "table", "tables")
	}
	pl.figure = figure.Figure{
		Title:  fmt.Sprintf("%s, model %s", mc.hw.GPU.Name, kind),
		X:      figure.Axis{Label: "message size S", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.LeastCovering,
		Width:  req.width, Height: req.height,
	}
	if len(pl.logs) > 1 {
		pl.figure.Title += ": points measured, lines the model"
	}
	tests := make([]int, len(pl.logs))
	for i, l := range pl.logs {
		tests[i] = l.test
	}
	names := plotNames(req.logs, tests)
	colors := figure.Colors(names)
	for i := range pl.logs {
		l := &pl.logs[i]
		l.name, l.alone = names[i], len(pl.logs) == 1
		if err := l.predict(m); err != nil {
			return nil, fmt.Errorf("%s: %w", l.table.Name, err)
		}
		if req.crossovers {
			l.marks = l.crossovers()
		}
		if req.breaks {
			breaks, err := l.breaks()
			if err != nil {
				pl.problems = append(pl.problems, problem{Message: fmt.Sprintf("%s: no regime breaks: %v", l.table.Name, err)})
			}
			l.marks = append(l.marks, breaks...)
		}
		slices.SortStableFunc(l.marks, byX)
		pl.figure.Series = append(pl.figure.Series, l.series(colors[i])...)
	}
	if len(mc.tables) == 0 {
		pl.model = plotUntabledModel(mc.hw, pl.logs)
	}
	pl.figure.Marks, pl.found = figureMarks(pl.logs)
	pl.figure.MarksInLegend, pl.drawn = true, len(pl.figure.Marks)
	// A legend taller or wider than the data area runs past the figure's
	// edge: the names of its last series and of the marks are cut off. Of
	// several logs that leaves lines no name says the log of, so the
	// figure is refused; one log's small figure (a thumbnail) is drawn,
	// and standard error says what its legend loses.
	if err := pl.figure.LegendFits(); err != nil {
		if len(pl.logs) > 1 {
			return nil, flagErrorf("%v; plot fewer logs in one figure, or give a larger -width or -height (or -marks none)", err)
		}
		pl.problems = append(pl.problems, problem{Message: fmt.Sprintf("-o %s: %v; give a larger -width or -height, or -marks none", req.out, err)})
	}
	return pl, nil
}

// A plotMark is a mark of one log: its figure.Mark, labelled
// "SIZE: what", and whether the model's algorithm changes there (not only
// its protocol).
type plotMark struct {
	figure.Mark
	algorithm bool
}

// figureMarks merges the logs' marks into the figure's: one mark where
// several logs share a size and label (named by the logs that have it, or
// by none when all do), at most len(figure.MarkDashes) of them, the
// algorithm changes first, then the smaller sizes; in size order. found is
// how many distinct marks there were.
func figureMarks(logs []plottedLog) (marks []figure.Mark, found int) {
	type key struct {
		x     float64
		label string
	}
	var order []key
	owners := map[key][]string{}
	algorithm := map[key]bool{}
	for _, l := range logs {
		for _, m := range l.marks {
			k := key{m.X, m.Label}
			if _, ok := owners[k]; !ok {
				order = append(order, k)
			}
			owners[k] = append(owners[k], l.name)
			algorithm[k] = algorithm[k] || m.algorithm
		}
	}
	slices.SortStableFunc(order, func(a, b key) int {
		if algorithm[a] != algorithm[b] {
			if algorithm[a] {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.x, b.x)
	})
	for _, k := range order[:min(len(order), len(figure.MarkDashes))] {
		label := k.label
		if len(logs) > 1 && len(owners[k]) < len(logs) {
			label = strings.Join(owners[k], ", ") + " " + label
		}
		marks = append(marks, figure.Mark{X: k.x, Label: label})
	}
	slices.SortStableFunc(marks, func(a, b figure.Mark) int { return cmp.Compare(a.X, b.X) })
	return marks, len(order)
}

// model returns the machine's model: calibrated on its tables, with a line
// that says so, or without them predict.Uncalibrated, whose Expect is NCCL's
// own model where that times the run, and no line: which model that is
// depends on the query, and diagnose and plot name it for theirs
// (untabledModel).
func (mc machine) model() (*predict.Machine, string, error) {
	if len(mc.tables) == 0 {
		return predict.Uncalibrated(mc.hw), "", nil
	}
	m, err := predict.Calibrate(mc.hw, mc.tables, nil)
	if err != nil {
		return nil, "", err
	}
	return m, "calibrated on " + strings.Join(mc.files, ", "), nil
}

// plotUntabledModel says which model the uncalibrated curves of logs
// are, as diagnose says it of one table (untabledModel): NCCL's tuning
// model, or the model at its priors and why; where the logs differ in
// that, each log's.
func plotUntabledModel(hw predict.Hardware, logs []plottedLog) string {
	models := make([]string, len(logs))
	for i, l := range logs {
		q := l.table.Query()
		models[i] = untabledModel(hw, q, l.preds, predict.WhyNotNCCL(hw, q))
	}
	if len(slices.Compact(slices.Clone(models))) == 1 {
		return models[0]
	}
	for i, l := range logs {
		models[i] = l.name + ": " + models[i]
	}
	return strings.Join(models, "; ")
}

// plotNames names each log in the legend: its file's name without the
// extension, or its path as given where two files share a name, and the
// test it draws ("#3") where the figure draws another test of its file
// too (a red team: three tests of one log shared one entry).
func plotNames(logs []calibrationFile, tests []int) []string {
	name := func(i int, path bool) string {
		f := logs[i]
		n := strings.TrimSuffix(filepath.Base(f.path), filepath.Ext(f.path))
		if path {
			n = f.path
		}
		for j, g := range logs {
			if g.path == f.path && tests[j] != tests[i] {
				return n + "#" + strconv.Itoa(tests[i])
			}
		}
		return n
	}
	// Two files of one name without the extension are named by their
	// paths.
	base := func(f calibrationFile) string { return strings.TrimSuffix(filepath.Base(f.path), filepath.Ext(f.path)) }
	path := false
	for i, f := range logs {
		path = path || slices.ContainsFunc(logs[:i], func(g calibrationFile) bool { return g.path != f.path && base(g) == base(f) })
	}
	names := make([]string, len(logs))
	for i := range logs {
		names[i] = name(i, path)
	}
	return names
}

// predict predicts the log's table at its measured sizes, in increasing
// order.
func (l *plottedLog) predict(m *predict.Machine) error {
	sizes := make([]float64, len(l.table.Points))
	for i, p := range l.table.Points {
		sizes[i] = p.Size
	}
	slices.Sort(sizes)
	var err error
	l.preds, err = m.Expect(l.table.Query(), sizes)
	return err
}

// series returns the log's measured points and the model's curve with its
// interval, both in colour c and named NAME, so that the legend gives the
// log one entry (its marker over its curve), or for a figure of one log
// (whose name standard output gives) "measured" and "model".
func (l *plottedLog) series(c color.Color) []figure.Series {
	name, modelName := l.name, l.name
	if l.alone {
		name, modelName = "measured", "model"
	}
	measured := figure.Series{Name: name, Style: figure.Points, Color: c}
	for _, p := range l.table.Points {
		measured.X, measured.Y = append(measured.X, p.Size), append(measured.Y, p.Time)
	}
	model := figure.Series{Name: modelName, Color: c}
	for _, p := range l.preds {
		model.X, model.Y = append(model.X, p.Size), append(model.Y, p.Time)
		model.Low, model.High = append(model.Low, p.Low), append(model.High, p.High)
	}
	return []figure.Series{measured, model}
}

// crossovers marks the measured sizes from which the model has NCCL run
// another algorithm or protocol than at the size before, each labelled
// "SIZE: before to after".
func (l *plottedLog) crossovers() []plotMark {
	var marks []plotMark
	for i := 1; i < len(l.preds); i++ {
		a, b := l.preds[i-1], l.preds[i]
		if a.Algorithm != b.Algorithm || a.Protocol != b.Protocol {
			marks = append(marks, plotMark{figure.Mark{X: b.Size, Label: fmt.Sprintf("%s: %s/%s to %s/%s",
				measuredSize(b.Size), a.Algorithm, a.Protocol, b.Algorithm, b.Protocol)}, a.Algorithm != b.Algorithm})
		}
	}
	return marks
}

// measuredSize writes a size a log measured: units.FormatSize's short form
// where it reads back as the size (2 MiB for 2097152 B), else the bytes as
// the log prints them. The DGX-2's 12-rank AllGather rounds 2 MiB down to
// whole elements a rank, 2097120 B, which FormatSize calls "2 MiB" too.
func measuredSize(b float64) string {
	s := units.FormatSize(b)
	if b != math.Trunc(b) || b < 0 || b >= units.MaxSize {
		return s
	}
	if v, err := units.ParseSize(s); err == nil && float64(v) == b {
		return s
	}
	return strconv.FormatInt(int64(b), 10) + " B"
}

// breaks marks the boundaries between the regimes of a piecewise fit of
// the measured points (fit.Piecewise, fit.Result.Boundaries), each
// labelled "SIZE: regime break"; the error is the fit's.
func (l *plottedLog) breaks() ([]plotMark, error) {
	r, err := fit.Piecewise(l.table.Samples(), &fit.Settings{Bootstrap: -1})
	if err != nil {
		return nil, err
	}
	var marks []plotMark
	for _, s := range r.Boundaries() {
		marks = append(marks, plotMark{Mark: figure.Mark{X: s, Label: units.FormatSize(s) + ": regime break"}})
	}
	return marks, nil
}

func byX(a, b plotMark) int { return cmp.Compare(a.X, b.X) }

func (pl *plotted) writeText(w io.Writer, req plotRequest) error {
	size := fmt.Sprintf("%.3gin x %.3gin", req.width/vg.Inch, req.height/vg.Inch)
	if strings.EqualFold(filepath.Ext(req.out), ".png") {
		size += fmt.Sprintf(" at %d DPI", req.dpi)
	}
	fmt.Fprintf(w, "wrote %s (%s)\n", req.out, size)
	writeHardware(w, pl.hardware)
	fmt.Fprintf(w, "model: %s\n", pl.model)
	if req.csv != "" {
		fmt.Fprintf(w, "wrote %s: the %d points plotted, one a row\n", req.csv, len(pl.points()))
	}
	for _, l := range pl.logs {
		t := l.table
		fmt.Fprintf(w, "%s: %s, %v on %d x %d, %d points\n", l.name, t.Name, t.Collective, t.Nodes, t.PerNode, len(t.Points))
		for _, m := range l.marks {
			fmt.Fprintf(w, "  %s\n", m.Label)
		}
	}
	if pl.found > pl.drawn {
		fmt.Fprintf(w, "marked on the figure: %d of these %d distinct marks (algorithm changes first, then the smaller sizes)\n", pl.drawn, pl.found)
	}
	return nil
}

// tableOfTest returns the table of test (-test, counted in the order the
// log prints its tests, as fit -list lists them) among the tables
// readCalibration read from path: they are named by that index, and tests
// of collectives the model does not predict give none. The error names the
// tests there are, as the flag (such as "-test ") takes them.
func tableOfTest(tables []predict.Table, problems []problem, path string, test int, flag string) (predict.Table, error) {
	suffix := "#" + strconv.Itoa(test)
	k := slices.IndexFunc(tables, func(t predict.Table) bool { return strings.HasSuffix(t.Name, suffix) })
	if k < 0 {
		// A test the file holds but left out says why.
		if i := slices.IndexFunc(problems, func(p problem) bool { return p.File == path && p.leftOut && p.test == test }); i >= 0 {
			p := problems[i]
			return predict.Table{}, fmt.Errorf("%s%d: %s:%d: test %d: %s; the others are %s%s",
				flag, test, path, p.Line, test, strings.TrimSuffix(p.Message, fmt.Sprintf(" (test %d)", test)), flag, strings.Join(testsOf(tables), ", "))
		}
		return predict.Table{}, fmt.Errorf("%s%d: %s has no test %d of a collective the model predicts; try %s%s",
			flag, test, path, test, flag, strings.Join(testsOf(tables), ", "))
	}
	return tables[k], nil
}

// otherTests says, where a log holds more tests the model predicts than
// t, the one a command took for want of -test, what each other one ran and
// the -test that takes it.
func otherTests(path string, tables []predict.Table, t predict.Table) []problem {
	if len(tables) < 2 {
		return nil
	}
	ran := func(u predict.Table) string { return fmt.Sprintf("%v on %d x %d", u.Collective, u.Nodes, u.PerNode) }
	test := func(u predict.Table) string { return u.Name[strings.LastIndex(u.Name, "#")+1:] }
	var others []string
	for _, u := range tables {
		if u.Name != t.Name {
			others = append(others, fmt.Sprintf("-test %s is %s", test(u), ran(u)))
		}
	}
	return []problem{{File: path, Message: fmt.Sprintf("the log holds %d tests the model predicts: this is test %s, %s; %s",
		len(tables), test(t), ran(t), strings.Join(others, ", "))}}
}

// testsOf returns the test numbers of tables, from their names ("a.log#2").
func testsOf(tables []predict.Table) []string {
	var tests []string
	for _, t := range tables {
		tests = append(tests, t.Name[strings.LastIndex(t.Name, "#")+1:])
	}
	return tests
}
