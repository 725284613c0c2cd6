package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("compare", "set two nccl-tests logs side by side: the time ratio per size, and where they differ beyond noise", runCompare)
}

// defaultNoiseFloor is the smallest difference between two logs' times that
// compare counts, as a fraction of the time. Two halves of one row measure
// the same size seconds apart, so their spread misses what changes from run
// to run (another job on the network, clocks, a rank's placement), and with
// two times it is itself uncertain; the floor stands for that variation. It
// is above the spread of three rows in four of the repository's logs, and
// near the differences of two runs of one H100 node's Ring AllReduce
// (data/logs/paired/h100-sxm-1x8-together) where a call takes tens of
// microseconds; docs/compare.md gives the figures. diagnose's baseline
// and its test of a rerun against the model (predict.RerunNoise) hold to it.
const defaultNoiseFloor = predict.RerunNoise

// What compare says of B at a size or over a range.
const (
	bSlower      = "slower"
	bFaster      = "faster"
	bWithinNoise = "within noise"
)

// compareOutput is the JSON of "commlab compare". Times are in s, sizes in B,
// bandwidths in B/s; a ratio is B's time over A's.
type compareOutput struct {
	A           compareTable   `json:"a"`
	B           compareTable   `json:"b"`
	NoiseFloor  float64        `json:"noise_floor"`
	MedianRatio float64        `json:"median_ratio"`
	Differing   int            `json:"differing"`
	Points      []comparePoint `json:"points"`
	Ranges      []compareRange `json:"ranges"`
	Problems    []problem      `json:"problems"`
}

// compareTable is one of the two tables compared; what its log does not
// say is "" or 0, and in JSON its ranks, nodes and GPU null, as fit -list
// writes them. Collective joins names with " or ".
type compareTable struct {
	File       string `json:"file"`
	Test       int    `json:"test"`
	Line       int    `json:"line"`
	Collective string `json:"collective"`
	Ranks      int    `json:"ranks"`
	Nodes      int    `json:"nodes"`
	GPU        string `json:"gpu"`
	Type       string `json:"type"`
	RedOp      string `json:"redop"`
	Sizes      int    `json:"sizes"`

	names []string // collectiveNames
}

// MarshalJSON writes c with the ranks, nodes and GPU its log does not
// give as null.
func (c compareTable) MarshalJSON() ([]byte, error) {
	type fields compareTable // without this method
	var gpu *string
	if c.GPU != "" {
		gpu = &c.GPU
	}
	return json.Marshal(struct {
		fields
		Ranks *int    `json:"ranks"`
		Nodes *int    `json:"nodes"`
		GPU   *string `json:"gpu"`
	}{fields(c), givenCount(c.Ranks), givenCount(c.Nodes), gpu})
}

// comparePoint is one size both tables hold. A time is the mean of the
// size's measured times in its table (the out-of-place and in-place halves
// of its rows), a bus bandwidth that of the mean time (measurement.busBW).
// B differs from A when B/A falls outside 1/NoiseRatio..NoiseRatio; ALine
// and BLine are the lines of the size's first row.
type comparePoint struct {
	SizeBytes  int64   `json:"size_bytes"`
	ATimeS     float64 `json:"a_time_s"`
	BTimeS     float64 `json:"b_time_s"`
	Ratio      float64 `json:"ratio"`
	ABusBWBps  float64 `json:"a_bus_bw_Bps"`
	BBusBWBps  float64 `json:"b_bus_bw_Bps"`
	NoiseRatio float64 `json:"noise_ratio"`
	BIs        string  `json:"b_is"`
	ALine      int     `json:"a_line"`
	BLine      int     `json:"b_line"`
}

// compareRange is a run of consecutive common sizes at which B is slower,
// or faster, beyond noise.
type compareRange struct {
	BIs       string  `json:"b_is"`
	FromBytes int64   `json:"from_bytes"`
	ToBytes   int64   `json:"to_bytes"`
	Sizes     int     `json:"sizes"`
	MinRatio  float64 `json:"min_ratio"`
	MaxRatio  float64 `json:"max_ratio"`
}

// runCompare runs "commlab compare A B": the tables -test picks of logs A
// and B, size by size.
func runCompare(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare")
	testArg := fs.String("test", "0", "which test of each log, from 0, when one holds several: N for both, or N,M for A's and B's (or FILE:test=K for one log)")
	floor := fs.Float64("floor", defaultNoiseFloor, "the smallest difference counted, as a fraction of the time from 0 to 1 (0.05: 5%); a size whose own times spread more gets a wider threshold")
	output := addFormatFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab compare A.log[:test=K] B.log[:test=K] [-test N|N,M] [-floor F] [-format text|json|csv]\n\n"+
			"For each size both logs hold: A's and B's times, B/A, their bus bandwidths,\n"+
			"and whether B is slower or faster beyond noise. Of a log holding several\n"+
			"tests, test 0 unless -test or FILE:test=K picks another.")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args, 2)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageErrorf(fs, "give two nccl-tests logs: commlab compare A.log B.log")
	}
	format, err := output.get()
	if err != nil {
		return err
	}
	if *floor < 0 || math.IsNaN(*floor) {
		return flagErrorf("-floor %v: want a fraction of the time >= 0, such as %v", *floor, defaultNoiseFloor)
	}
	// A floor is a fraction, not a percent: past 1, a difference of 2x,
	// it is beyond any noise of two runs, and -floor 5 (meant as 5%)
	// counted only differences beyond 6x. Read as a percent, 1 would mean
	// 1% or 100%.
	if *floor > 1 {
		// A percent of at most 100 is a fraction to name; another value
		// (inf, 1e308) names none that works.
		hint := fmt.Sprintf("such as %v", defaultNoiseFloor)
		if *floor <= 100 {
			hint = fmt.Sprintf("for %v%% give -floor %s", *floor, strconv.FormatFloat(*floor/100, 'g', 6, 64))
		}
		return flagErrorf("-floor %v: want a fraction of the time, at most 1 (a difference of 2x); %s", *floor, hint)
	}
	ia, ib, err := parseCompareTests(*testArg)
	if err != nil {
		return err
	}
	testSet := false
	fs.Visit(func(f *flag.Flag) { testSet = testSet || f.Name == "test" })
	sides := [2]compareSide{{test: ia}, {test: ib}}
	for k := range sides {
		s := &sides[k]
		if s.path, s.named, err = parseCompareArg(pos[k], &s.test); err != nil {
			return err
		}
		if s.named && testSet {
			return flagErrorf("%s names its test, and -test %s another: give it once", pos[k], *testArg)
		}
	}
	pos[0], pos[1] = sides[0].path, sides[1].path
	// One name given for both sides, a file or a stream, is read once,
	// below (to compare two of its tests, -test N,M); two names of one
	// stream (- and /dev/stdin, p and ./p) are refused as in every
	// command, since the second would read nothing.
	names := pos
	if pos[0] == pos[1] {
		names = pos[:1]
	}
	if err := streamsOnce(names); err != nil {
		return err
	}
	ia, ib = sides[0].test, sides[1].test
	out := compareOutput{NoiseFloor: *floor, Problems: []problem{}}
	var tests [2]*nccltests.Test
	var tables [2]compareTable
	firstWarned := map[string]bool{}
	logs := map[string]*data.Log{} // a file given for both sides is read once
	for k, side := range sides {
		log := logs[side.path]
		if log == nil {
			if log, err = readLog(side.path, nil); err != nil {
				return err
			}
			logs[side.path] = log
		}
		t, problems, err := compareTest(log, side.path, side.test)
		if err != nil {
			return err
		}
		if k == 0 || side.path != pos[0] { // one file's problems once
			out.Problems = append(out.Problems, problems...)
		}
		if !testSet && !side.named && !firstWarned[side.path] {
			out.Problems = append(out.Problems, firstOfTests(side.path, log)...)
			firstWarned[side.path] = true
		}
		tests[k], tables[k] = t, newCompareTable(side.path, side.test, t)
	}
	out.A, out.B = tables[0], tables[1]
	out.Problems = append(out.Problems, compareMismatches(out.A, out.B)...)
	for k, t := range tests {
		if k == 0 || pos[1] != pos[0] || ib != ia {
			out.Problems = append(out.Problems, halvesDisagree(pos[k], t)...)
		}
	}
	if out.Points = comparePoints(tests[0], tests[1], *floor); len(out.Points) == 0 {
		a, b := slices.Sorted(maps.Keys(sizeMeasurements(tests[0]))), slices.Sorted(maps.Keys(sizeMeasurements(tests[1])))
		if len(a) > 0 && len(b) > 0 && a[0] <= b[len(b)-1] && b[0] <= a[len(a)-1] {
			// One range, other bytes: nccl-tests rounds a size down to
			// whole elements a rank, which differs between collectives and
			// rank counts.
			return fmt.Errorf("%s and %s share no size: their rows span the same range (A: %s, B: %s) at other bytes (A's first %d B, B's %d B), as nccl-tests rounds each size to whole elements a rank: "+
				"pick tables of one collective and rank count with -test N,M (commlab fit -list FILE lists a file's tables)",
				out.A.name(), out.B.name(), sizeSpan(tests[0]), sizeSpan(tests[1]), a[0], b[0])
		}
		return fmt.Errorf("%s and %s share no size (A: %s, B: %s): pick tables that overlap with -test N,M (commlab fit -list FILE lists a file's tables)",
			out.A.name(), out.B.name(), sizeSpan(tests[0]), sizeSpan(tests[1]))
	}
	if n := roundedSizes(tests[0], tests[1]); n > 0 {
		what := fmt.Sprintf("%d sizes of the two tables differ", n)
		if n == 1 {
			what = "1 size of the two tables differs"
		}
		out.Problems = append(out.Problems, problem{Message: fmt.Sprintf("%s by under 1%% from one of the other's, as nccl-tests rounds each size to whole elements a rank (collectives and rank counts round differently): compared at the %d sizes both ran",
			what, len(out.Points))})
	}
	ratios := make([]float64, len(out.Points))
	for i, p := range out.Points {
		ratios[i] = p.Ratio
		if p.BIs != bWithinNoise {
			out.Differing++
		}
	}
	out.MedianRatio = fit.Median(ratios)
	out.Ranges = differingRanges(out.Points)
	switch format {
	case formatJSON:
		return writeJSON(stdout, out)
	case formatCSV:
		writeProblems(stderr, out.Problems)
		return writeCSV(stdout, out.Points)
	}
	writeProblems(stderr, out.Problems)
	return writeCompareText(stdout, out)
}

// maxHalvesRatio is the most a row's out-of-place and in-place times may
// differ before compare warns: a row measures one size twice, seconds
// apart, and the noisiest real log in the repository differs by 2.7x
// (data/nccltests/testdata/real/rtx6000d_2x8_alltoall_late2025.log, line
// 66), most by a few percent.
const maxHalvesRatio = 3

// halvesDisagree warns, once for table t of the log at path, of the rows
// whose two halves differ more than maxHalvesRatio: the mean compare takes
// of them stands for neither, and one run may have gone wrong.
func halvesDisagree(path string, t *nccltests.Test) []problem {
	n, worst, line := 0, 1.0, 0
	for _, r := range t.Rows {
		if !r.OutOfPlace.OK() || !r.InPlace.OK() {
			continue
		}
		x := max(r.OutOfPlace.Time/r.InPlace.Time, r.InPlace.Time/r.OutOfPlace.Time)
		if x > maxHalvesRatio {
			n++
			if x > worst {
				worst, line = x, r.Line
			}
		}
	}
	if n == 0 {
		return nil
	}
	return []problem{{File: path, Line: line, Message: fmt.Sprintf("out-of-place and in-place times differ %.3gx here, and by more than %dx in %s of the table: beyond run-to-run noise, so their mean is no measurement; check the run",
		worst, maxHalvesRatio, words.Count(n, "row", "rows"))}}
}

// parseCompareTests reads -test: N for both logs, or N,M for A's and B's.
func parseCompareTests(arg string) (a, b int, err error) {
	sa, sb, two := strings.Cut(arg, ",")
	if !two {
		sb = sa
	}
	a, errA := strconv.Atoi(strings.TrimSpace(sa))
	b, errB := strconv.Atoi(strings.TrimSpace(sb))
	if errA != nil || errB != nil || a < 0 || b < 0 {
		return 0, 0, flagErrorf("-test %q: want N (the same test of both logs) or N,M (A's and B's), counted from 0, such as -test 0,1", arg)
	}
	return a, b, nil
}

// A compareSide is one of compare's logs: its path, the test taken, and
// whether the argument names it (FILE:test=K).
type compareSide struct {
	path  string
	test  int
	named bool
}

// parseCompareArg reads a log argument of compare, FILE or FILE:test=K,
// setting *test to K where it names one.
func parseCompareArg(arg string, test *int) (path string, named bool, err error) {
	i := strings.LastIndex(arg, ":test=")
	if i < 0 {
		return arg, false, nil
	}
	f := calibrationFile{}
	if err := f.set(arg[i+1:]); err != nil {
		return "", false, flagErrorf("%q: %w (FILE:test=K, K counted from 0 as commlab fit -list lists them)", arg, err)
	}
	*test = f.tests[0]
	return arg[:i], true, nil
}

// firstOfTests warns, where the log at path holds several tests and
// neither -test nor FILE:test=K picked one, that its test 0 is compared,
// naming the others and how to pick one.
func firstOfTests(path string, log *data.Log) []problem {
	if len(log.Tests) < 2 {
		return nil
	}
	const show = 4
	var others []string
	for i, t := range log.Tests[1:min(len(log.Tests), 1+show)] {
		others = append(others, fmt.Sprintf("test %d is %s", i+1, compareTestSummary(t)))
	}
	if n := len(log.Tests) - 1 - show; n > 0 {
		others = append(others, fmt.Sprintf("%d more", n))
	}
	pick := path + ":test=K, or -test N,M for A's and B's"
	if path == "-" {
		// "-:test=K" would read as a flag.
		pick = "-test N,M for A's and B's"
	}
	return []problem{{File: path, Line: log.Tests[0].Line, Message: fmt.Sprintf("compared test 0 (%s), the first of the log's %d tests (%s): pick another with %s",
		compareTestSummary(log.Tests[0]), len(log.Tests), strings.Join(others, "; "), pick)}}
}

// compareTestSummary is what a test is, in a few words: its collective,
// ranks and sizes.
func compareTestSummary(t *nccltests.Test) string {
	var parts []string
	if names := collectiveNames(t); len(names) > 0 {
		parts = append(parts, strings.Join(names, " or "))
	}
	if t.Ranks > 0 {
		parts = append(parts, words.Count(t.Ranks, "rank", "ranks"))
	}
	return strings.Join(append(parts, sizeSpan(t)), ", ")
}

// compareTest returns test i of log, read from path, with the reader's
// problems.
func compareTest(log *data.Log, path string, i int) (*nccltests.Test, []problem, error) {
	if i >= len(log.Tests) {
		return nil, nil, fmt.Errorf("-test %d: %s holds tests 0 to %d (commlab fit -list %s lists them)", i, path, len(log.Tests)-1, path)
	}
	var problems []problem
	for _, pr := range log.Problems {
		if !layoutOnly(pr) {
			problems = append(problems, problemOf(path, pr))
		}
	}
	return log.Tests[i], problems, nil
}

// newCompareTable is what test i of the log at path is.
func newCompareTable(path string, i int, t *nccltests.Test) compareTable {
	names := collectiveNames(t)
	return compareTable{File: path, Test: i, Line: t.Line, Collective: strings.Join(names, " or "),
		Ranks: t.Ranks, Nodes: t.Nodes, GPU: t.System, Type: t.Rows[0].Type, RedOp: t.Rows[0].RedOp,
		Sizes: len(sizeMeasurements(t)), names: names}
}

// collectiveNames are the collectives t may measure, as every command
// names them: the one the log names, those its table fits
// alike, or the operation commlab does not model, by its binary's stem;
// none when unknown.
func collectiveNames(t *nccltests.Test) []string {
	switch {
	case t.CollectiveFrom == nccltests.Unknown && t.Op != "":
		return []string{t.Op}
	case t.CollectiveFrom == nccltests.Unknown:
		return nil
	case len(t.Candidates) > 0:
		names := make([]string, len(t.Candidates))
		for i, c := range t.Candidates {
			names[i] = c.String()
		}
		return names
	}
	return []string{t.Collective.String()}
}

// compareMismatches warns where the tables' runs differ in what a ratio of
// their times takes as equal: the collective, the rank and node counts, the
// data type, the reduction and the GPU, by the names the Rank lines print.
// What a log does not say is not compared. A
// warning is placed at both tables' first lines, as two problems of one
// message, which writeProblems prints once: "A:LINE, B:LINE: ...".
func compareMismatches(a, b compareTable) []problem {
	var out []problem
	warn := func(what, va, vb string) {
		msg := fmt.Sprintf("A and B differ in %s: %s in A, %s in B; compared anyway", what, va, vb)
		if what == "GPU" && (a.GPU == genericGPUName) != (b.GPU == genericGPUName) {
			msg = fmt.Sprintf("A and B differ in GPU: %s in A, %s in B (%q is what a driver prints for a GPU it does not name, so they may be one); compared anyway", va, vb, genericGPUName)
		}
		out = append(out, problem{File: a.File, Line: a.Line, Message: msg})
		if b.File != a.File || b.Line != a.Line {
			out = append(out, problem{File: b.File, Line: b.Line, Message: msg})
		}
	}
	if len(a.names) > 0 && len(b.names) > 0 && !slices.ContainsFunc(a.names, func(c string) bool { return slices.Contains(b.names, c) }) {
		warn("collective", a.Collective, b.Collective)
	}
	for _, c := range []struct {
		what   string
		va, vb int
	}{{"ranks", a.Ranks, b.Ranks}, {"nodes", a.Nodes, b.Nodes}} {
		if c.va > 0 && c.vb > 0 && c.va != c.vb {
			warn(c.what, strconv.Itoa(c.va), strconv.Itoa(c.vb))
		}
	}
	for _, c := range []struct{ what, va, vb string }{{"data type", a.Type, b.Type}, {"reduction", a.RedOp, b.RedOp}} {
		if c.va != "" && c.vb != "" && c.va != c.vb {
			warn(c.what, c.va, c.vb)
		}
	}
	if a.GPU != "" && b.GPU != "" && a.GPU != b.GPU {
		warn("GPU", strconv.Quote(a.GPU), strconv.Quote(b.GPU))
	}
	return out
}

// genericGPUName is the name a driver gives a GPU it does not know, which
// the Rank lines print: CoreWeave's one- and two-rack GB200 blocks
// (data/logs/paired/gb200-nvl72-coreweave) against its 20-rack block's
// "NVIDIA GB200".
const genericGPUName = "NVIDIA Graphics Device"

// name is "FILE#TEST", the name the other subcommands give a table.
func (c compareTable) name() string { return c.File + "#" + strconv.Itoa(c.Test) }

// sizeSpan is "MIN..MAX" of t's sizes.
// roundedSizes counts the sizes of each of a and b that the other did not
// run but ran one within 1% of: the same size rounded otherwise to whole
// elements a rank. A size the other lacks outright (a row left out, a
// shorter sweep) is no rounding.
func roundedSizes(a, b *nccltests.Test) int {
	n := 0
	for _, p := range [][2]*nccltests.Test{{a, b}, {b, a}} {
		mine, theirs := sizeMeasurements(p[0]), sizeMeasurements(p[1])
		for s := range mine {
			if _, ok := theirs[s]; ok {
				continue
			}
			for t := range theirs {
				if r := float64(t) / float64(s); r > 0.99 && r < 1.01 {
					n++
					break
				}
			}
		}
	}
	return n
}

func sizeSpan(t *nccltests.Test) string {
	sizes := sizeMeasurements(t)
	keys := slices.Sorted(maps.Keys(sizes))
	if len(keys) == 0 {
		return "no measured size"
	}
	return units.FormatSize(float64(keys[0])) + ".." + units.FormatSize(float64(keys[len(keys)-1]))
}

// A measurement is what a table holds of one size: the time and printed
// bus bandwidth of each half of each of its rows that has a time, and the
// line of its first row.
type measurement struct {
	line   int
	times  []float64 // s
	busBWs []float64 // B/s, as printed
}

// sizeMeasurements gathers t's measured times by size.
func sizeMeasurements(t *nccltests.Test) map[int64]*measurement {
	out := map[int64]*measurement{}
	for _, r := range t.Rows {
		for _, h := range []nccltests.Result{r.OutOfPlace, r.InPlace} {
			if !h.OK() {
				continue
			}
			m := out[r.Size]
			if m == nil {
				m = &measurement{line: r.Line}
				out[r.Size] = m
			}
			m.times = append(m.times, h.Time)
			m.busBWs = append(m.busBWs, h.BusBW)
		}
	}
	return out
}

// busBW is the bus bandwidth of size bytes at the mean of m's times, the
// time compare's ratio takes: size over that time times factor, nccl-tests'
// bus factor of the table (nccltests.Test.BusFactor), so that it keeps the
// digits the log's busbw column rounds to 0.01 GB/s (0.01 GB/s printed
// for 128 B in 36.4 us on 8 ranks, 6.16 MB/s; 0 for 8 B). Where the factor
// is unknown (0) it is the printed bus bandwidths weighted by their times,
// their harmonic mean, which is the mean time's but for their rounding.
// Not the mean of the bandwidths: the RTX 6000D AllReduce's 8 MiB row,
// 2005.46 us at 7.84 GB/s and 4856.79 us at 3.24 GB/s, has a mean time of
// 3.43 ms, whose bus bandwidth is 4.59 GB/s, not 5.54, and a table slower
// at a size would show the higher bandwidth there.
func (m *measurement) busBW(size int64, factor float64) float64 {
	if factor > 0 {
		return float64(size) / stat.Mean(m.times, nil) * factor
	}
	var bytes, time float64
	for i, t := range m.times {
		bytes, time = bytes+m.busBWs[i]*t, time+t
	}
	if time == 0 {
		return 0
	}
	return bytes / time
}

// lnVariance is the variance of the mean of ln time: the sample variance of
// the logarithms over their count, 0 for a single time. For the two halves
// of one row its square root is half |ln(out-of-place/in-place)|.
func (m *measurement) lnVariance() float64 {
	if len(m.times) < 2 {
		return 0
	}
	ln := make([]float64, len(m.times))
	for i, t := range m.times {
		ln[i] = math.Log(t)
	}
	return stat.Variance(ln, nil) / float64(len(ln))
}

// comparePoints sets a's and b's sizes side by side, in increasing size.
// B differs from A at a size when
//
//	|ln(B/A)| > max(ln(1+floor), 2·sqrt(varA + varB))
//
// with varA and varB the variances of the mean of ln time (lnVariance): two
// standard errors of ln(B/A), which for one row a side is
// sqrt(dA² + dB²) with d = ln(out-of-place/in-place).
func comparePoints(a, b *nccltests.Test, floor float64) []comparePoint {
	ma, mb := sizeMeasurements(a), sizeMeasurements(b)
	fa, _ := a.BusFactor()
	fb, _ := b.BusFactor()
	var out []comparePoint
	for size, pa := range ma {
		pb, ok := mb[size]
		if !ok {
			continue
		}
		noise := max(math.Log1p(floor), 2*math.Sqrt(pa.lnVariance()+pb.lnVariance()))
		p := comparePoint{SizeBytes: size, ATimeS: stat.Mean(pa.times, nil), BTimeS: stat.Mean(pb.times, nil),
			ABusBWBps: pa.busBW(size, fa), BBusBWBps: pb.busBW(size, fb),
			NoiseRatio: math.Exp(noise), BIs: bWithinNoise, ALine: pa.line, BLine: pb.line}
		p.Ratio = p.BTimeS / p.ATimeS
		switch lr := math.Log(p.Ratio); {
		case lr > noise:
			p.BIs = bSlower
		case lr < -noise:
			p.BIs = bFaster
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(x, y comparePoint) int { return cmp.Compare(x.SizeBytes, y.SizeBytes) })
	return out
}

// differingRanges groups the points at which B differs from A into runs of
// consecutive points that differ the same way.
func differingRanges(ps []comparePoint) []compareRange {
	out := []compareRange{}
	for i, p := range ps {
		if p.BIs == bWithinNoise {
			continue
		}
		if n := len(out); n > 0 && i > 0 && ps[i-1].BIs == p.BIs {
			r := &out[n-1]
			r.ToBytes, r.Sizes = p.SizeBytes, r.Sizes+1
			r.MinRatio, r.MaxRatio = min(r.MinRatio, p.Ratio), max(r.MaxRatio, p.Ratio)
			continue
		}
		out = append(out, compareRange{BIs: p.BIs, FromBytes: p.SizeBytes, ToBytes: p.SizeBytes, Sizes: 1, MinRatio: p.Ratio, MaxRatio: p.Ratio})
	}
	return out
}

// String is "B slower by 1.30-1.60x from 64 KiB to 4 MiB": for a faster B
// the factor is A's time over B's.
func (r compareRange) String() string { return r.text(2) }

// text is String with the factors to digits decimals.
func (r compareRange) text(digits int) string {
	lo, hi := r.MinRatio, r.MaxRatio
	if r.BIs == bFaster {
		lo, hi = 1/r.MaxRatio, 1/r.MinRatio
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', digits, 64) }
	by := f(lo) + "-" + f(hi) + "x"
	if f(lo) == f(hi) {
		by = f(hi) + "x"
	}
	where := "at " + units.FormatSize(float64(r.FromBytes))
	if r.Sizes > 1 {
		where = "from " + units.FormatSize(float64(r.FromBytes)) + " to " + units.FormatSize(float64(r.ToBytes))
	}
	return "B " + r.BIs + " by " + by + " " + where
}

// String says what the table is, leaving out what its log does not say.
func (c compareTable) String() string {
	parts := []string{c.name()}
	if c.Collective != "" {
		parts = append(parts, c.Collective)
	}
	if c.Ranks > 0 {
		parts = append(parts, words.Count(c.Ranks, "rank", "ranks"))
	}
	if c.Nodes > 0 {
		parts = append(parts, words.Count(c.Nodes, "node", "nodes"))
	}
	if c.GPU != "" {
		parts = append(parts, c.GPU)
	}
	if t := strings.TrimSpace(c.Type + " " + c.RedOp); t != "" {
		parts = append(parts, t)
	}
	return strings.Join(parts, ", ")
}

// writeCompareText prints out as text: its ratios to two decimals, to
// three under a floor below 1%, whose differences two decimals would
// print as 1.00 (and its noise to a tenth of a percent).
func writeCompareText(w io.Writer, out compareOutput) error {
	digits, noise := 2, 0
	if out.NoiseFloor < 0.01 {
		digits, noise = 3, 1
	}
	fmt.Fprintf(w, "A: %s\nB: %s\n", out.A, out.B)
	fmt.Fprintf(w, "%d sizes in both: median B/A %.*f; %d beyond noise (over %g%% and over the spread of the size's own times)\n",
		len(out.Points), digits, out.MedianRatio, out.Differing, 100*out.NoiseFloor)
	for _, r := range out.Ranges {
		fmt.Fprintln(w, r.text(digits))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "size\tA time\tB time\tB/A\tA busbw\tB busbw\tnoise\tB is")
	for _, p := range out.Points {
		is := "\t" + p.BIs
		if p.BIs == bWithinNoise {
			is = "" // no padding at the end of the line
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.*f\t%s\t%s\t%.*f%%%s\n", units.FormatSize(float64(p.SizeBytes)),
			units.FormatDuration(p.ATimeS), units.FormatDuration(p.BTimeS), digits, p.Ratio,
			units.FormatBandwidth(p.ABusBWBps), units.FormatBandwidth(p.BBusBWBps), noise, 100*(p.NoiseRatio-1), is)
	}
	return tw.Flush()
}
