package article

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/units"
)

// The exhibits of notebook 05 (fitting the model to public logs).

// A LogFit is one public nccl-tests run with a single alpha-BW fit and a
// piecewise (regime) fit of its out-of-place times.
type LogFit struct {
	// Name is the log's file name in data/logs.
	Name string
	// Test is the run as data read it.
	Test *nccltests.Test
	// Samples are the out-of-place rows with a positive size; the fit
	// needs S > 0 to separate alpha from BW.
	Samples []fit.Sample
	// Empty are the 0-byte rows, which measure the empty-call floor.
	Empty []fit.Sample
	// Single and Piecewise are fit.AlphaBeta and fit.Piecewise with the
	// settings fitLog was given.
	Single, Piecewise *fit.Result
}

// PublicLogFits reads every embedded public log (data.PublicLogNames) and
// fits each of its tests with the settings s (LogFits); every test of
// every public log must fit.
func PublicLogFits(s *fit.Settings) ([]LogFit, error) {
	var out []LogFit
	for _, name := range data.PublicLogNames() {
		l, err := data.PublicLog(name, nil)
		if err != nil {
			return nil, err
		}
		fits, skipped, err := LogFits(l, s)
		if err != nil {
			return nil, err
		}
		if len(skipped) > 0 {
			return nil, fmt.Errorf("article: %s", strings.Join(skipped, "; "))
		}
		out = append(out, fits...)
	}
	return out, nil
}

// LogFits fits each test of a log as PublicLogFits fits the public logs:
// its out-of-place rows of a positive size, single and piecewise, with the
// settings s (nil: fit's defaults). The log is one data read: data.ReadFile
// for a file of one's own, data.PublicLog for an embedded one. Each LogFit
// is named by the log's file name. A test too small to fit (fewer than
// three sizes once the 0-byte and non-monotone rows are set aside, or one
// size) is left out and named, with the reason, in skipped, so that one
// short table does not hide the others; err is non-nil when no test of the
// log can be fitted, or a fit fails for another reason.
func LogFits(l *data.Log, s *fit.Settings) (fits []LogFit, skipped []string, err error) {
	name := filepath.Base(l.Name)
	if len(l.Tests) == 0 {
		return nil, nil, fmt.Errorf("article: %s: no nccl-tests table in the log", name)
	}
	for i, t := range l.Tests {
		lf, err := fitLog(name, t, s)
		if len(l.Tests) > 1 && err != nil {
			err = fmt.Errorf("test %d of %d: %w", i+1, len(l.Tests), err)
		}
		switch {
		case errors.Is(err, fit.ErrTooFewSamples) || errors.Is(err, fit.ErrOneSize):
			skipped = append(skipped, err.Error())
		case err != nil:
			return nil, nil, err
		default:
			fits = append(fits, lf)
		}
	}
	if len(fits) == 0 {
		return nil, skipped, fmt.Errorf("article: %s: no test can be fitted: %s", name, strings.Join(skipped, "; "))
	}
	return fits, skipped, nil
}

// fitLog fits one test's out-of-place rows, single and piecewise, with the
// settings s (nil: fit's defaults).
func fitLog(name string, t *nccltests.Test, s *fit.Settings) (LogFit, error) {
	lf := LogFit{Name: name, Test: t}
	lf.Samples, lf.Empty = fit.SplitEmpty(data.TestSamples(t, nccltests.OutOfPlace))
	var err error
	if lf.Single, err = fit.AlphaBeta(lf.Samples, s); err != nil {
		return lf, fmt.Errorf("%s: single fit: %w", name, err)
	}
	if lf.Piecewise, err = fit.Piecewise(lf.Samples, s); err != nil {
		return lf, fmt.Errorf("%s: piecewise fit: %w", name, err)
	}
	return lf, nil
}

// label names the run: its collective (or the candidates when the table
// fits more than one), ranks and file.
func (lf LogFit) label() string {
	cc, _ := data.Collective(lf.Test)
	c := cc.String()
	if lf.Test.Ambiguous() {
		c = strings.Join(collectiveNames(lf.Test.Candidates), " or ")
	}
	ranks := "? ranks"
	if lf.Test.Ranks > 0 {
		ranks = strconv.Itoa(lf.Test.Ranks) + " ranks"
	}
	return fmt.Sprintf("%s, %s (%s)", c, ranks, lf.Name)
}

// RunsTable lists the runs: collective (and how it was inferred), ranks,
// GPU, the rows with a size, their sizes, the 0-byte rows set aside, and the
// rows the piecewise fit set aside as slower than a larger size
// (fit.Result.NonMonotone).
func RunsTable(fits []LogFit) figure.Table {
	t := figure.Table{Header: []string{"log", "collective (from)", "ranks", "system", "rows", "sizes", "0-byte rows", "non-monotone rows"},
		Align: []figure.Align{figure.Left, figure.Left, figure.Right, figure.Left, figure.Right, figure.Left, figure.Right, figure.Right}}
	for _, lf := range fits {
		cc, _ := data.Collective(lf.Test)
		c := cc.String()
		if lf.Test.Ambiguous() {
			c = strings.Join(collectiveNames(lf.Test.Candidates), " or ")
		}
		ranks := "?"
		if lf.Test.Ranks > 0 {
			ranks = strconv.Itoa(lf.Test.Ranks)
		}
		sizes := span(lf.Samples)
		t.Rows = append(t.Rows, []string{lf.Name, c + " (" + lf.Test.CollectiveFrom.String() + ")", ranks, orNone(lf.Test.System),
			strconv.Itoa(len(lf.Samples)), units.FormatSize(sizes[0]) + " - " + units.FormatSize(sizes[len(sizes)-1]), strconv.Itoa(len(lf.Empty)),
			strconv.Itoa(len(lf.Piecewise.NonMonotone))})
	}
	return t
}

func collectiveNames(cs []commmodel.Collective) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// Regimes is "1 regime", "2 regimes", ...
func Regimes(n int) string {
	if n == 1 {
		return "1 regime"
	}
	return strconv.Itoa(n) + " regimes"
}

// fitSeries draws a fit's prediction over sizes as a line.
func fitSeries(name string, r *fit.Result, sizes []float64) figure.Series {
	s := figure.Series{Name: name, X: sizes, Y: make([]float64, len(sizes))}
	for i, x := range sizes {
		s.Y[i] = r.Predict(x)
	}
	return s
}

// span returns sizes from the smallest to the largest sample, 8 per octave.
func span(samples []fit.Sample) []float64 {
	lo, hi := math.Inf(1), 0.0
	for _, s := range samples {
		lo, hi = min(lo, s.Size), max(hi, s.Size)
	}
	return figure.Sizes(lo, hi, 8)
}

// regimeMarks marks the boundaries between regimes, where Predict switches
// (fit.Result.Boundaries).
func regimeMarks(r *fit.Result) []figure.Mark {
	var ms []figure.Mark
	for _, x := range r.Boundaries() {
		ms = append(ms, figure.Mark{X: x, Label: "regime break " + units.FormatSize(x)})
	}
	return ms
}

// LogFitFigure plots a run's measured times with its single and piecewise
// fits, log-log, with the regime boundaries marked.
func LogFitFigure(lf LogFit) figure.Figure {
	sizes := span(lf.Samples)
	meas := figure.Series{Name: "measured (out-of-place)", Style: figure.Points}
	for _, s := range lf.Samples {
		meas.X, meas.Y = append(meas.X, s.Size), append(meas.Y, s.Time)
	}
	return figure.Figure{
		Title:  lf.label(),
		X:      figure.Axis{Label: "message size S", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.BottomRight, // the top carries the regime labels
		Series: []figure.Series{meas,
			fitSeries(fmt.Sprintf("single α-BW (median |err| %s)", percent(lf.Single.MedianRelErr)), lf.Single, sizes),
			fitSeries(fmt.Sprintf("%s (median |err| %s)", Regimes(len(lf.Piecewise.Regimes)), percent(lf.Piecewise.MedianRelErr)), lf.Piecewise, sizes)},
		Marks: regimeMarks(lf.Piecewise),
	}
}

// ResidualFigure plots each sample's relative error (model-measured)/measured,
// in percent, against size for the single and the piecewise fit. The samples
// the fits set aside as slower than a larger size (fit.Result.NonMonotone:
// in neither fit) are marked apart at their error under the piecewise fit,
// and so are the larger sizes they contradict.
func ResidualFigure(lf LogFit) figure.Figure {
	res := func(name string, r *fit.Result) figure.Series {
		s := figure.Series{Name: name, Style: figure.LinePoints}
		for i, x := range r.Samples {
			s.X, s.Y = append(s.X, x.Size), append(s.Y, 100*r.RelErr[i])
		}
		return s
	}
	series := []figure.Series{res("single α-BW", lf.Single), res(Regimes(len(lf.Piecewise.Regimes)), lf.Piecewise)}
	legend := figure.TopLeft
	if nm := lf.Piecewise.NonMonotone; len(nm) > 0 {
		// A single pair bent by a late algorithm switch misses the small
		// sizes from above: the top left is taken.
		legend = figure.BottomLeft
		set := figure.Series{Name: "non-monotone: set aside", Style: figure.Points}
		against := figure.Series{Name: "the larger size it contradicts", Style: figure.Points}
		for _, m := range nm {
			set.X, set.Y = append(set.X, m.Sample.Size), append(set.Y, 100*m.RelErr)
			c := m.Contradicts
			against.X, against.Y = append(against.X, c.Size), append(against.Y, 100*(lf.Piecewise.Predict(c.Size)-c.Time)/c.Time)
		}
		series = append(series, set, against)
	}
	return figure.Figure{
		Title:  "Residuals: " + lf.label(),
		X:      figure.Axis{Label: "message size S", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "relative error (model - measured) / measured, %", Unit: figure.Plain},
		Legend: legend,
		Series: series,
		Marks:  regimeMarks(lf.Piecewise),
	}
}

// ResidualFrame returns every sample of the fits with its fitted time and
// relative error, one row per sample, fit and log: columns log (the file),
// fit ("single" or "piecewise"), regime (1-based, the regime of the fit the
// sample falls in), size_bytes, time_us, predicted_us and rel_err
// ((predicted - measured)/measured, fit.Result.RelErr). Group it with gota
// (data.ErrorSummary, GroupBy, Describe) for residual summaries.
func ResidualFrame(fits []LogFit) dataframe.DataFrame {
	var logs, kinds []string
	var regimes []int
	var size, time, pred, rel []float64
	for _, lf := range fits {
		for _, f := range []struct {
			kind string
			r    *fit.Result
		}{{"single", lf.Single}, {"piecewise", lf.Piecewise}} {
			for i, x := range f.r.Samples {
				k := 0
				for k+1 < len(f.r.Regimes) && x.Size > f.r.Regimes[k].MaxSize {
					k++
				}
				logs, kinds, regimes = append(logs, lf.Name), append(kinds, f.kind), append(regimes, k+1)
				size, time = append(size, x.Size), append(time, x.Time*1e6)
				pred, rel = append(pred, f.r.Predicted[i]*1e6), append(rel, f.r.RelErr[i])
			}
		}
	}
	return dataframe.New(
		series.New(logs, series.String, "log"),
		series.New(kinds, series.String, "fit"),
		series.New(regimes, series.Int, "regime"),
		series.New(size, series.Float, "size_bytes"),
		series.New(time, series.Float, "time_us"),
		series.New(pred, series.Float, "predicted_us"),
		series.New(rel, series.Float, "rel_err"),
	)
}

// bwText is a regime's BW, or "time flat" when the BW sits at its bound.
func bwText(g fit.Regime) string {
	if g.BWAtBound {
		return "≥ " + units.FormatBandwidth(g.BW) + " (time flat)"
	}
	return units.FormatBandwidth(g.BW)
}

// ciText is a confidence interval in a unit, or "" when none was computed.
func ciText(iv fit.Interval, f func(float64) string) string {
	if iv.Lo == 0 && iv.Hi == 0 {
		return ""
	}
	return f(iv.Lo) + " - " + f(iv.Hi)
}

// RegimeTable lists, per run, the single fit and each regime of the
// piecewise fit: sizes, alpha and BW with their 95% bootstrap intervals, the
// number of samples, and the median and largest |relative error| in it,
// from gota: data.ErrorSummary of ResidualFrame grouped by log, fit and
// regime.
func RegimeTable(fits []LogFit) (figure.Table, error) {
	sum, err := data.ErrorSummary(ResidualFrame(fits), []string{"log", "fit", "regime"}, "rel_err")
	if err != nil {
		return figure.Table{}, err
	}
	type key struct {
		log, fit string
		regime   int
	}
	type errs struct{ med, max float64 }
	byKey := map[key]errs{}
	regime, _ := sum.Col("regime").Int()
	med, mx := sum.Col("rel_err_abs_MEDIAN").Float(), sum.Col("rel_err_abs_MAX").Float()
	for i, l := range sum.Col("log").Records() {
		byKey[key{l, sum.Col("fit").Elem(i).String(), regime[i]}] = errs{med[i], mx[i]}
	}
	t := figure.Table{Header: []string{"run", "fit", "sizes", "n", "α", "α 95% CI", "BW", "BW 95% CI", "median |err|", "max |err|"},
		Align: []figure.Align{figure.Left, figure.Left, figure.Left, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right, figure.Right}}
	for _, lf := range fits {
		add := func(kind, fitName string, k int, g fit.Regime) {
			e := byKey[key{lf.Name, fitName, k + 1}]
			t.Rows = append(t.Rows, []string{lf.Name, kind, units.FormatSize(g.MinSize) + " - " + units.FormatSize(g.MaxSize),
				strconv.Itoa(g.N), units.FormatDuration(g.Alpha), ciText(g.AlphaCI, units.FormatDuration), bwText(g),
				ciText(g.BWCI, units.FormatBandwidth), percent(e.med), percent(e.max)})
		}
		if len(lf.Piecewise.Regimes) == 1 {
			add("single = piecewise (1 regime)", "single", 0, lf.Single.Regimes[0])
			continue
		}
		add("single", "single", 0, lf.Single.Regimes[0])
		for k, g := range lf.Piecewise.Regimes {
			add(fmt.Sprintf("regime %d of %d", k+1, len(lf.Piecewise.Regimes)), "piecewise", k, g)
		}
	}
	return t, nil
}

// The one-shot against two-shot comparison of the public kernel table.

// KernelSource is the data.Kernels source of the one-shot/two-shot rows:
// vLLM's custom AllReduce on H100, benchmarked in vllm-project/vllm PR #24111.
const KernelSource = "vllm-project/vllm PR #24111"

// The kernels' names in data/kernels_public.csv.
const (
	oneShotKernel = "ca_1stage(one-shot)"
	twoShotKernel = "ca_2stage(two-shot)"
)

// A threshold is a size a production system hard-codes: one-shot below it.
type threshold struct {
	// Size is the threshold in bytes; +Inf when one-shot is always used.
	Size float64
	// Source cites the code.
	Source string
	// Above names what runs at and above Size.
	Above string
}

// vllmThreshold is vLLM's custom AllReduce choice for p GPUs with full
// NVLink: cross_device_reduce_1stage always at 2 GPUs, below 512 KiB at 4 or
// fewer, below 256 KiB at up to 8; cross_device_reduce_2stage otherwise
// (vllm-project/vllm csrc/custom_all_reduce.cuh, CustomAllreduce::allreduce,
// REDUCE_CASE; "bytes" there is the per-rank buffer, our S). False for a p
// it does not support (it handles 2, 4, 6, 8).
func vllmThreshold(p int) (threshold, bool) {
	src := "vllm-project/vllm csrc/custom_all_reduce.cuh (CustomAllreduce::allreduce)"
	switch p {
	case 2:
		return threshold{math.Inf(1), src, ""}, true
	case 4:
		return threshold{512 << 10, src, "two-stage"}, true
	case 6, 8:
		return threshold{256 << 10, src, "two-stage"}, true
	}
	return threshold{}, false
}

// trtllmThreshold is TensorRT-LLM's automatic AllReduce strategy for p GPUs:
// ONESHOT always at 2 or fewer, below 1,000,000 B at 3-4, below 500,000 B
// above 4; NCCL (not TWOSHOT, which that code disables) at and above it
// (NVIDIA/TensorRT-LLM cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp,
// AllreducePlugin::selectImplementation; messageSizeBytes is S).
func trtllmThreshold(p int) threshold {
	src := "NVIDIA/TensorRT-LLM cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp (selectImplementation)"
	switch {
	case p <= 2:
		return threshold{math.Inf(1), src, ""}
	case p <= 4:
		return threshold{1e6, src, "NCCL"}
	}
	return threshold{5e5, src, "NCCL"}
}

// A KernelCrossover is where two-shot overtakes one-shot at one rank count,
// measured and modelled.
type KernelCrossover struct {
	// P is the rank count.
	P int
	// OneShot and TwoShot are the measured rows.
	OneShot, TwoShot data.Points
	// Measured is the first size at which two-shot becomes faster,
	// interpolated linearly in log size between the last size where
	// one-shot was at least as fast and the first where two-shot is
	// faster; MeasuredIn says whether that happens within the rows, and
	// Note says what happens otherwise or afterwards.
	Measured   float64
	MeasuredIn bool
	Note       string
	// OneFit and TwoFit are links fitted through commmodel.OneShot and
	// commmodel.TwoShot at P to each kernel's rows (fit.Through).
	OneFit, TwoFit *fit.Result
	// Model is the size at which the two fitted curves cross (+Inf if
	// never): one-shot on OneFit's link against two-shot on TwoFit's.
	Model float64
	// SameLink is commmodel.OneShotCrossover(P, OneFit.Link()): the
	// crossover if both kernels ran on the link fitted to one-shot.
	SameLink float64
}

// KernelCrossovers compares one-shot and two-shot at every rank count of the
// kernel table kernels (a frame of the tidy schema: data.Kernels().Frame())
// that has rows of both, fitting with the settings s (nil: fit's defaults).
// It reads the rows of KernelSource, oneShotKernel and twoShotKernel.
func KernelCrossovers(kernels dataframe.DataFrame, s *fit.Settings) ([]KernelCrossover, error) {
	all, err := data.FramePoints(kernels)
	if err != nil {
		return nil, err
	}
	k := all.Select(data.Filter{Source: KernelSource, Collective: "allreduce"})
	var out []KernelCrossover
	for _, p := range rankCounts(k) {
		kc := KernelCrossover{P: p,
			OneShot: k.Select(data.Filter{NRanks: p, Algorithm: oneShotKernel}),
			TwoShot: k.Select(data.Filter{NRanks: p, Algorithm: twoShotKernel})}
		if len(kc.OneShot) < 3 || len(kc.TwoShot) < 3 {
			continue // too few rows of one kernel to fit (P = 2 has one one-shot row)
		}
		if kc.OneFit, err = fit.Through(commmodel.OneShot{}, p, kc.OneShot.Samples(), s); err != nil {
			return nil, fmt.Errorf("one-shot at P = %d: %w", p, err)
		}
		if kc.TwoFit, err = fit.Through(commmodel.TwoShot{}, p, kc.TwoShot.Samples(), s); err != nil {
			return nil, fmt.Errorf("two-shot at P = %d: %w", p, err)
		}
		kc.Measured, kc.MeasuredIn, kc.Note = measuredCrossing(kc.OneShot, kc.TwoShot)
		// One-shot on its fitted link against two-shot on its own: the first
		// crossing, or +Inf if they never cross.
		kc.Model = math.Inf(1)
		if xs := commmodel.Crossings(kc.OneFit.Predict, kc.TwoFit.Predict); len(xs) > 0 {
			kc.Model = xs[0]
		}
		kc.SameLink = commmodel.OneShotCrossover(p, kc.OneFit.Link())
		out = append(out, kc)
	}
	return out, nil
}

// rankCounts returns the distinct rank counts of ps in increasing order.
func rankCounts(ps data.Points) []int {
	seen := map[int]bool{}
	var out []int
	for _, p := range ps {
		if !seen[p.NRanks] {
			seen[p.NRanks] = true
			out = append(out, p.NRanks)
		}
	}
	slices.Sort(out)
	return out
}

// measuredCrossing finds the first size at which b (two-shot) is faster
// than a (one-shot) in rows of the same sizes: the first sign change of
// time(a) - time(b) (commmodel.SampledCrossings; sizes of equal times take
// neither side), which starts on one-shot's side.
func measuredCrossing(a, b data.Points) (size float64, ok bool, note string) {
	at := map[int64]float64{}
	for _, p := range b {
		at[p.Size] = p.Time
	}
	// d = time(a) - time(b) at the sizes both hold, increasing: > 0 where b wins.
	var sizes, d []float64
	for _, p := range slices.SortedFunc(slices.Values(a), func(x, y data.Point) int { return cmp.Compare(x.Size, y.Size) }) {
		if tb, ok := at[p.Size]; ok {
			sizes, d = append(sizes, float64(p.Size)), append(d, p.Time-tb)
		}
	}
	if len(d) == 0 {
		return 0, false, "no common sizes"
	}
	if i := slices.IndexFunc(d, func(x float64) bool { return x != 0 }); i >= 0 && d[i] > 0 {
		return 0, false, "two-shot already faster at " + units.FormatSize(sizes[i])
	}
	xs := commmodel.SampledCrossings(sizes, d, 0)
	if len(xs) == 0 {
		return 0, false, "one-shot at least as fast up to " + units.FormatSize(sizes[len(sizes)-1])
	}
	won := false // a row past the crossing has two-shot faster
	for i, s := range sizes {
		if s > xs[0] && d[i] > 0 {
			won = true
		} else if won && d[i] <= 0 {
			note = fmt.Sprintf("one-shot as fast again at %s (%s apart)", units.FormatSize(s), units.FormatDuration(-d[i]))
			break
		}
	}
	return xs[0], true, note
}

// thresholdText describes a threshold, "always one-shot" for +Inf.
// A threshold in whole KiB is shown as the source writes it (512 * 1024),
// a decimal one in bytes (500 * 1000).
func thresholdText(t threshold) string {
	if math.IsInf(t.Size, 1) {
		return "always one-shot"
	}
	s := "one-shot below " + units.FormatSize(t.Size)
	if math.Mod(t.Size, 1024) != 0 {
		s = "one-shot below " + strconv.FormatFloat(t.Size, 'f', 0, 64) + " B"
	}
	return s + ", then " + t.Above
}

// KernelCrossoverTable sets, per rank count, the measured crossover beside the
// fitted model's and beside vLLM's and TensorRT-LLM's thresholds.
func KernelCrossoverTable(kcs []KernelCrossover) figure.Table {
	t := figure.Table{Header: []string{"P", "measured: two-shot faster from", "fitted curves cross", "one link (OneShotCrossover)",
		"vLLM custom AllReduce", "TensorRT-LLM"}, Align: []figure.Align{figure.Right, figure.Left, figure.Right, figure.Right, figure.Left, figure.Left}}
	for _, k := range kcs {
		m := "not within the measured range: " + k.Note
		if k.MeasuredIn {
			m = units.FormatSize(k.Measured)
			if k.Note != "" {
				m += "; " + k.Note
			}
		}
		v := "not supported"
		if th, ok := vllmThreshold(k.P); ok {
			v = thresholdText(th)
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(k.P), m, sizeOrNever(k.Model), sizeOrNever(k.SameLink), v, thresholdText(trtllmThreshold(k.P))})
	}
	return t
}

func sizeOrNever(s float64) string {
	if math.IsInf(s, 1) {
		return "never"
	}
	return units.FormatSize(s)
}

// KernelLinkTable lists the links fitted to each kernel at each P.
func KernelLinkTable(kcs []KernelCrossover) figure.Table {
	t := figure.Table{Header: []string{"P", "kernel", "fitted α per step", "fitted BW", "median |err|", "max |err|"},
		Align: []figure.Align{figure.Right, figure.Left, figure.Right, figure.Right, figure.Right, figure.Right}}
	for _, k := range kcs {
		for _, f := range []*fit.Result{k.OneFit, k.TwoFit} {
			l := f.Link()
			t.Rows = append(t.Rows, []string{strconv.Itoa(k.P), f.Algorithm.Name(), units.FormatDuration(l.Alpha),
				units.FormatBandwidth(l.BW), percent(f.MedianRelErr), percent(f.MaxRelErr)})
		}
	}
	return t
}

// KernelFigure plots one rank count's measured one-shot and two-shot times
// with the fitted curves, and marks the measured crossover, the fitted
// model's and the production thresholds.
func KernelFigure(k KernelCrossover) figure.Figure {
	lo, hi := math.Inf(1), 0.0
	for _, p := range append(append(data.Points{}, k.OneShot...), k.TwoShot...) {
		lo, hi = min(lo, float64(p.Size)), max(hi, float64(p.Size))
	}
	sizes := figure.Sizes(lo/4, hi*2, 8)
	curve := func(f *fit.Result) figure.Series {
		s := figure.Series{Name: f.Algorithm.Name() + " fitted (" + linkString(f.Link()) + ")", X: sizes, Y: make([]float64, len(sizes))}
		for i, x := range sizes {
			s.Y[i] = f.Predict(x)
		}
		return s
	}
	f := figure.Figure{
		Title:  fmt.Sprintf("vLLM custom AllReduce on %d x H100 (%s)", k.P, KernelSource),
		X:      figure.Axis{Label: "message size S (per rank)", Unit: figure.Bytes, Log: true},
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true},
		Legend: figure.BottomRight, // the top carries the labels of the marks
		Series: []figure.Series{measuredSeries(oneShotKernel, k.OneShot.Samples()), measuredSeries(twoShotKernel, k.TwoShot.Samples()), curve(k.OneFit), curve(k.TwoFit)},
	}
	if k.MeasuredIn {
		f.Marks = append(f.Marks, figure.Mark{X: k.Measured, Label: "measured " + units.FormatSize(k.Measured)})
	}
	if !math.IsInf(k.Model, 1) && k.Model < hi*2 {
		f.Marks = append(f.Marks, figure.Mark{X: k.Model, Label: "fitted " + units.FormatSize(k.Model)})
	}
	if th, ok := vllmThreshold(k.P); ok && !math.IsInf(th.Size, 1) {
		f.Marks = append(f.Marks, figure.Mark{X: th.Size, Label: "vLLM " + units.FormatSize(th.Size)})
	}
	if th := trtllmThreshold(k.P); !math.IsInf(th.Size, 1) {
		f.Marks = append(f.Marks, figure.Mark{X: th.Size, Label: "TRT-LLM " + strconv.FormatFloat(th.Size, 'f', 0, 64) + " B"})
	}
	return f
}

// The robustness check on the Triton-distributed H100 NCCL table.

// WildSource is the data.Kernels source whose 2 MiB row (290.73 µs between
// neighbours of 32 and 59 µs) is wild: ByteDance-Seed/Triton-distributed
// issue #57, NCCL AllReduce on 8 x H100.
const WildSource = "ByteDance-Seed/Triton-distributed issue #57"

// A WildFit compares a plain and a robust fit of samples with a wild row.
type WildFit struct {
	// Samples are all rows; Wild indexes the wild one (the largest
	// |relative error| of the robust fit); Clean leaves it out.
	Samples, Clean []fit.Sample
	Wild           int
	// Plain (Loss Squared) and Robust (the settings given, Bisquare by
	// default) are piecewise fits of Samples; Reference is the robust
	// piecewise fit of Clean.
	Plain, Robust, Reference *fit.Result
}

// FitWild fits samples with a wild row (data.Samples of the kernel frame's
// WildSource rows) piecewise twice: with the settings s (nil: fit's
// defaults, robust) and with s's plain least squares (Loss Squared). The
// wild row is slower than the next size, so by default every fit would set
// it aside as non-monotone; the fits here keep it (KeepNonMonotone), to
// compare the losses.
func FitWild(samples []fit.Sample, s *fit.Settings) (*WildFit, error) {
	keep := settingsCopy(s)
	keep.KeepNonMonotone = true
	plain := keep
	plain.Loss = fit.Squared
	w := &WildFit{Samples: samples}
	var err error
	if w.Robust, err = fit.Piecewise(w.Samples, &keep); err != nil {
		return nil, err
	}
	if w.Plain, err = fit.Piecewise(w.Samples, &plain); err != nil {
		return nil, err
	}
	// Robust.Samples are sorted by size; so are the table's rows, but find
	// the wild row by value to be sure.
	worst := 0
	for i := range w.Robust.RelErr {
		if math.Abs(w.Robust.RelErr[i]) > math.Abs(w.Robust.RelErr[worst]) {
			worst = i
		}
	}
	wild := w.Robust.Samples[worst]
	for i, s := range w.Samples {
		if s == wild {
			w.Wild = i
		} else {
			w.Clean = append(w.Clean, s)
		}
	}
	if w.Reference, err = fit.Piecewise(w.Clean, &keep); err != nil {
		return nil, err
	}
	return w, nil
}

// settingsCopy returns a copy of *s, or fit's defaults (the zero Settings)
// for a nil s, for an analysis that changes a field.
func settingsCopy(s *fit.Settings) fit.Settings {
	if s == nil {
		return fit.Settings{}
	}
	return *s
}

// weightOf returns r's robustness weight of sample s.
func weightOf(r *fit.Result, s fit.Sample) float64 {
	for i, x := range r.Samples {
		if x == s {
			return r.Weight[i]
		}
	}
	return math.NaN()
}

// Deviation returns the largest relative difference between r's and the
// reference fit's predictions at the clean samples.
func (w *WildFit) Deviation(r *fit.Result) float64 {
	d := 0.0
	for _, s := range w.Clean {
		ref := w.Reference.Predict(s.Size)
		d = max(d, math.Abs(r.Predict(s.Size)-ref)/ref)
	}
	return d
}

// WildTable compares the plain, robust and reference fits.
func WildTable(w *WildFit) figure.Table {
	t := figure.Table{Header: []string{"fit", "samples", "regimes", "weight of the wild row", "largest deviation from the clean fit"},
		Align: []figure.Align{figure.Left, figure.Right, figure.Right, figure.Right, figure.Right}}
	wild := w.Samples[w.Wild]
	for _, r := range []struct {
		name string
		r    *fit.Result
	}{{"plain least squares", w.Plain}, {"robust (bisquare)", w.Robust}, {"robust, wild row removed", w.Reference}} {
		wt := "-"
		if v := weightOf(r.r, wild); !math.IsNaN(v) {
			wt = strconv.FormatFloat(v, 'f', 3, 64)
		}
		t.Rows = append(t.Rows, []string{r.name, strconv.Itoa(len(r.r.Samples)), strconv.Itoa(len(r.r.Regimes)), wt, percent(w.Deviation(r.r))})
	}
	return t
}

// WildFigure plots the rows, the wild one marked, with the plain and the
// robust piecewise fits.
func WildFigure(w *WildFit) figure.Figure {
	sizes := span(w.Samples)
	meas := figure.Series{Name: "NCCL (torch.distributed), 8 x H100", Style: figure.Points}
	for _, s := range w.Samples {
		meas.X, meas.Y = append(meas.X, s.Size), append(meas.Y, s.Time)
	}
	wild := w.Samples[w.Wild]
	lo := math.Inf(1)
	for _, s := range w.Samples {
		lo = min(lo, s.Time)
	}
	return figure.Figure{
		Title: "A wild row: " + WildSource,
		X:     figure.Axis{Label: "message size S (per rank)", Unit: figure.Bytes, Log: true},
		// Room above the wild row for its label.
		Y:      figure.Axis{Label: "time per call", Unit: figure.Seconds, Log: true, Min: lo * 0.8, Max: wild.Time * 2},
		Legend: figure.TopLeft,
		Series: []figure.Series{meas,
			fitSeries("plain least squares ("+Regimes(len(w.Plain.Regimes))+")", w.Plain, sizes),
			fitSeries("robust ("+Regimes(len(w.Robust.Regimes))+")", w.Robust, sizes)},
		Marks: []figure.Mark{{X: wild.Size, Y: wild.Time, Label: "wild: " + units.FormatDuration(wild.Time) + " at " + units.FormatSize(wild.Size)}},
	}
}

// fittingExhibits are notebook 05's tables and figures.
func fittingExhibits(in inputs) ([]Exhibit, error) {
	fits, err := PublicLogFits(&in.fit)
	if err != nil {
		return nil, err
	}
	var ex []Exhibit
	for i, lf := range fits {
		ex = append(ex,
			Exhibit{Name: fmt.Sprintf("05-log%d-fit", i+1), Title: "Single and piecewise fit: " + lf.label(), Figure: LogFitFigure(lf)},
			Exhibit{Name: fmt.Sprintf("05-log%d-residuals", i+1), Title: "Residuals: " + lf.label(), Figure: ResidualFigure(lf)})
	}
	regimes, err := RegimeTable(fits)
	if err != nil {
		return nil, err
	}
	ex = append(ex, Exhibit{Name: "05-regimes", Title: "Alpha, BW and errors per regime of each public log", Table: &regimes})
	kernels := data.Kernels().Frame()
	kcs, err := KernelCrossovers(kernels, &in.fit)
	if err != nil {
		return nil, err
	}
	ex = append(ex,
		Exhibit{Name: "05-oneshot-twoshot", Title: "One-shot against two-shot: measured, fitted and hard-coded crossovers", Table: ptr(KernelCrossoverTable(kcs))},
		Exhibit{Name: "05-kernel-links", Title: "Links fitted to vLLM's one-shot and two-shot kernels", Table: ptr(KernelLinkTable(kcs))})
	for _, k := range kcs {
		ex = append(ex, Exhibit{Name: fmt.Sprintf("05-kernels-p%d", k.P), Title: fmt.Sprintf("One-shot against two-shot at P = %d", k.P), Figure: KernelFigure(k)})
	}
	wild, err := data.Samples(kernels.Filter(dataframe.F{Colname: "source", Comparator: series.Eq, Comparando: WildSource}))
	if err != nil {
		return nil, err
	}
	w, err := FitWild(wild, &in.fit)
	if err != nil {
		return nil, err
	}
	return append(ex,
		Exhibit{Name: "05-wild", Title: "Plain and robust fits of a table with a wild row", Figure: WildFigure(w)},
		Exhibit{Name: "05-wild-table", Title: "What the wild row does to each fit", Table: ptr(WildTable(w))}), nil
}
