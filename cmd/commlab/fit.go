package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("fit", "fit alpha and bandwidth (one pair and per size regime) to an nccl-tests log or tidy CSV", runFit)
}

// fitOutput is the JSON of "commlab fit" (the contract in docs/design.md; fields after
// the contract's are additions). Times are in s, sizes in B, bandwidths in B/s.
// CollectiveCandidates, present only then, lists the collectives a table
// read without the binary's name fits alike (AllGather and AllToAll);
// NPoints counts the samples given to the fit, Points those fitted and
// NonMonotone those set aside as slower than a larger size.
type fitOutput struct {
	Collective           string           `json:"collective"`
	P                    int              `json:"p"`
	NPoints              int              `json:"n_points"`
	Single               fitSingle        `json:"single"`
	Regimes              []fitRegime      `json:"regimes"`
	MedianRelErr         float64          `json:"median_rel_err"`
	MaxRelErr            float64          `json:"max_rel_err"`
	LOOMedianRelErr      float64          `json:"loo_median_rel_err"`
	File                 string           `json:"file"`
	Test                 int              `json:"test"`
	Tests                int              `json:"tests"`
	TestName             string           `json:"test_name"`
	CollectiveFrom       string           `json:"collective_from"`
	CollectiveCandidates []string         `json:"collective_candidates,omitempty"`
	PFrom                string           `json:"p_from"`
	Nodes                int              `json:"nodes"`
	Placement            string           `json:"placement"`
	DroppedZeroBytes     int              `json:"dropped_zero_byte_rows"`
	BusFactor            float64          `json:"bus_factor,omitempty"`
	Loss                 string           `json:"loss"`
	BIC                  []float64        `json:"bic,omitempty"`
	Through              *fitThrough      `json:"through,omitempty"`
	Points               []fitPoint       `json:"points"`
	NonMonotone          []fitNonMonotone `json:"non_monotone"`
	Problems             []problem        `json:"problems"`
	Settings             fitConfig        `json:"settings"`
	// fileProblems counts the first of Problems, the file's (the reader's,
	// the same in every test's fit); the rest are this fit's own.
	fileProblems int
}

// fitSingle is the one-pair fit T = alpha + S/BW.
type fitSingle struct {
	AlphaS          float64     `json:"alpha_s"`
	MedianRelErr    float64     `json:"median_rel_err"`
	MaxRelErr       float64     `json:"max_rel_err"`
	LOOMedianRelErr float64     `json:"loo_median_rel_err"`
	AlphaCIS        [2]*float64 `json:"alpha_ci_s"`
	fitBW
}

// fitRegime is one size regime of the piecewise fit.
type fitRegime struct {
	MinBytes int64       `json:"min_bytes"`
	MaxBytes int64       `json:"max_bytes"`
	AlphaS   float64     `json:"alpha_s"`
	NPoints  int         `json:"n_points"`
	AlphaCIS [2]*float64 `json:"alpha_ci_s"`
	fitBW
}

// fitBW is a fitted bandwidth with only what the data measured: BWBps and
// BusBWBps are nil (null, an empty CSV cell) when LatencyBound, for time
// did not grow with size and BW sat at the fit's cap (fit.Regime.BWAtBound);
// the top of BWCIBps is nil when BWCIOpen, for some bootstrap replicates
// reached that cap, so the data set no upper limit on BW. BusBWBps is nil
// too when the collective's bus factor is unknown.
type fitBW struct {
	BWBps        *float64    `json:"bw_Bps"`
	BusBWBps     *float64    `json:"bus_bw_Bps,omitempty"`
	BWCIBps      [2]*float64 `json:"bw_ci_Bps"`
	LatencyBound bool        `json:"latency_bound"`
	BWCIOpen     bool        `json:"bw_ci_open"`
}

// fewBootstrapPoints is the fewest points of a table whose bootstrap
// intervals fit does not call rough: of 3 or 4 points, resampling draws a
// handful of distinct sets (cluster01's 2-node SendRecv of 3 sizes,
// data/logs/paired/h100-sxm-10node-cluster01, gave a BW interval of
// [40.2 GB/s, 42.6 GB/s], the lines through two of its points).
const fewBootstrapPoints = 5

// newFitBW is the bandwidth of regime g of a fit whose cap is bwCap
// (fit.Result.BWCap), with busFactor (0: unknown).
func newFitBW(g fit.Regime, bwCap, busFactor float64) fitBW {
	b := fitBW{LatencyBound: g.BWAtBound}
	if g.BWCI != (fit.Interval{}) && !g.BWAtBound {
		lo, hi := g.BWCI.Lo, g.BWCI.Hi
		b.BWCIBps[0] = &lo
		if b.BWCIOpen = hi >= bwCap*(1-1e-9); !b.BWCIOpen {
			b.BWCIBps[1] = &hi
		}
	}
	if g.BWAtBound {
		return b
	}
	bw := g.BW
	b.BWBps = &bw
	if busFactor > 0 {
		bus := g.BW * busFactor
		b.BusBWBps = &bus
	}
	return b
}

// fitThrough is the link fitted through an algorithm's cost (-algo).
type fitThrough struct {
	Algorithm       string  `json:"algorithm"`
	AlphaS          float64 `json:"alpha_s"`
	BWBps           float64 `json:"bw_Bps"`
	MedianRelErr    float64 `json:"median_rel_err"`
	MaxRelErr       float64 `json:"max_rel_err"`
	LOOMedianRelErr float64 `json:"loo_median_rel_err"`
}

// fitPoint is one fitted sample.
type fitPoint struct {
	SizeBytes  int64   `json:"size_bytes"`
	TimeS      float64 `json:"time_s"`
	PredictedS float64 `json:"predicted_s"`
	RelErr     float64 `json:"rel_err"`
	LOORelErr  float64 `json:"loo_rel_err"`
	Weight     float64 `json:"weight"`
}

// fitNonMonotone is a sample the fit set aside because it is slower than a
// larger size (fit.NonMonotone): in no regime and not in the errors. Line is
// the row's line in the file, 0 when unknown.
type fitNonMonotone struct {
	SizeBytes            int64   `json:"size_bytes"`
	TimeS                float64 `json:"time_s"`
	Line                 int     `json:"line"`
	ContradictsSizeBytes int64   `json:"contradicts_size_bytes"`
	ContradictsTimeS     float64 `json:"contradicts_time_s"`
	ContradictsLine      int     `json:"contradicts_line"`
	PredictedS           float64 `json:"predicted_s"`
	RelErr               float64 `json:"rel_err"`
}

// fitConfig records the fit settings used.
type fitConfig struct {
	Regimes   string  `json:"regimes"`
	MinPoints int     `json:"min_points"`
	Bootstrap int     `json:"bootstrap"`
	Level     float64 `json:"level"`
	Seed      uint64  `json:"seed"`
}

func runFit(args []string, stdout, stderr io.Writer) error {
	req, err := parseFitFlags(args)
	if err != nil {
		return err
	}
	log, err := readLog(req.file, req.opt)
	if err != nil {
		return err
	}
	if req.list {
		// The reader's problems (a row cut short, a line it skipped) bear
		// on the rows listed: the JSON's problems, or standard error.
		problems := readProblems(log)
		if req.format != formatJSON {
			writeProblems(stderr, problems)
		}
		return writeTestList(stdout, req.file, log, req.format, problems)
	}
	tests, err := pickTests(req.test, req.file, len(log.Tests))
	if err != nil {
		return err
	}
	var outs []fitOutput
	for _, i := range tests {
		out, err := fitOne(log, i, req.placement, req.explicitPlacement, req.algo, req.settings)
		if err != nil {
			// The rows skipped may be why the fit failed.
			writeProblems(stderr, readProblems(log))
			return fmt.Errorf("%s:%d: test %d: %w", req.file, log.Tests[i].Line, i, err)
		}
		outs = append(outs, out)
	}
	return writeFits(stdout, stderr, req, tests, outs)
}

// fitRequest is a "commlab fit" command line, its flags checked.
type fitRequest struct {
	file              string
	opt               *nccltests.Options // the -collective and -p overrides
	list              bool
	test              string // -test: an index or "all"
	placement         nccltests.Placement
	explicitPlacement bool // -placement was given
	algo              string
	settings          *fit.Settings
	format            string
}

// parseFitFlags parses and checks the flags of "commlab fit".
func parseFitFlags(args []string) (fitRequest, error) {
	fs := newFlags("fit")
	collective := fs.String("collective", "", "collective of the log, overriding what the reader infers (allreduce, alltoall, ...)")
	p := fs.Int("p", 0, "rank count, overriding what the reader infers")
	regimes := fs.String("regimes", "auto", "number of size regimes: auto (chosen by BIC) or a count K >= 1")
	placement := fs.String("placement", "out-of-place", "which half of each nccl-tests row to fit: out-of-place or in-place")
	testArg := fs.String("test", "0", "which test of a file holding several to fit: its index from 0, or all")
	list := fs.Bool("list", false, "list the tests in FILE instead of fitting")
	algo := fs.String("algo", "", "also fit a link through this algorithm's cost (ring, direct, ...)")
	loss := fs.String("loss", "bisquare", "robustness of the fit: bisquare, huber or squared")
	bootstrap := fs.Int("bootstrap", 200, "bootstrap replicates for the confidence intervals (0: none)")
	seed := fs.Uint64("seed", 1, "seed of the bootstrap")
	output := addFormatFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab fit FILE [-list] [-test N|all] [-collective C] [-p N] [-regimes auto|K] [-format text|json|csv]\n\n"+
			"Rows the reader skipped and other warnings go to standard error as\n"+
			"FILE:LINE: message, or with -format json into \"problems\". The CSV\n"+
			"holds the regimes, one a line, with their test and the one-pair fit.")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args, 1)
	if err != nil {
		return fitRequest{}, err
	}
	if len(pos) != 1 {
		return fitRequest{}, usageErrorf(fs, "give one FILE, an nccl-tests log or a tidy CSV: commlab fit FILE")
	}
	req := fitRequest{file: pos[0], list: *list, test: *testArg, algo: *algo,
		settings: &fit.Settings{Seed: *seed, Bootstrap: *bootstrap}}
	if req.format, err = output.get(); err != nil {
		return fitRequest{}, err
	}
	if err := checkTest(*testArg, true); err != nil {
		return fitRequest{}, err
	}
	if *bootstrap <= 0 {
		req.settings.Bootstrap = -1
	}
	if *bootstrap > fit.MaxBootstrap {
		return fitRequest{}, usageErrorf(fs, "-bootstrap %d: beyond what an interval needs; give at most -bootstrap %d", *bootstrap, fit.MaxBootstrap)
	}
	if *regimes != "auto" {
		k, err := strconv.Atoi(*regimes)
		if err != nil || k < 1 {
			return fitRequest{}, usageErrorf(fs, "-regimes %q: want auto or a count >= 1, such as -regimes 3", *regimes)
		}
		if err := checkCount(fs, "regimes", k, maxRegimes, "the number of size regimes", "3"); err != nil {
			return fitRequest{}, err
		}
		req.settings.Regimes = k
	}
	if req.settings.Loss, err = parseLoss(*loss); err != nil {
		return fitRequest{}, err
	}
	if req.placement, err = nccltests.ParsePlacement(*placement); err != nil {
		return fitRequest{}, flagErrorf("-placement: %w", err)
	}
	fs.Visit(func(f *flag.Flag) { req.explicitPlacement = req.explicitPlacement || f.Name == "placement" })
	if *p != 0 { // 0: the log's
		if err := checkCount(fs, "p", *p, maxRanks, "the rank count", "16"); err != nil {
			return fitRequest{}, err
		}
	}
	if *collective != "" {
		if _, err := commmodel.ParseCollective(*collective); err != nil {
			return fitRequest{}, flagErrorf("-collective: %w", err)
		}
	}
	req.opt = &nccltests.Options{Collective: *collective, Ranks: *p}
	return req, nil
}

// writeFits prints the fits of tests in req's format.
func writeFits(stdout, stderr io.Writer, req fitRequest, tests []int, outs []fitOutput) error {
	// Every fit carries the file's problems (the reader's lines are not
	// all one test's: a command line before its header, a tidy CSV's
	// interleaved rows), then its own: standard error gives the file's
	// once (a red team: five times for five tests).
	own := func(k int) []problem {
		if k == 0 {
			return outs[0].Problems
		}
		return outs[k].Problems[outs[k].fileProblems:]
	}
	switch req.format {
	case formatCSV:
		for k := range outs {
			writeProblems(stderr, own(k))
		}
		return writeCSV(stdout, fitCSV(outs))
	case formatJSON:
		if req.test == "all" {
			return writeJSON(stdout, struct {
				Fits []fitOutput `json:"fits"`
			}{outs})
		}
		return writeJSON(stdout, outs[0])
	}
	for k, out := range outs {
		writeProblems(stderr, own(k))
		if len(outs) > 1 {
			if k > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "== test %d\n", tests[k])
		}
		if err := writeFitTable(stdout, &out); err != nil {
			return err
		}
	}
	return nil
}

// A fitCSVRow is one line of fit's CSV: a regime of a test's piecewise
// fit, beside the test's one-pair fit.
type fitCSVRow struct {
	Test         int      `json:"test"`
	Collective   string   `json:"collective"`
	P            int      `json:"p"`
	SingleAlphaS float64  `json:"single_alpha_s"`
	SingleBWBps  *float64 `json:"single_bw_Bps"`
	Regime       int      `json:"regime"`
	fitRegime
}

// fitCSV lays out the fits of outs as fit's CSV.
func fitCSV(outs []fitOutput) []fitCSVRow {
	var rows []fitCSVRow
	for _, o := range outs {
		for k, g := range o.Regimes {
			rows = append(rows, fitCSVRow{o.Test, o.Collective, o.P, o.Single.AlphaS, o.Single.BWBps, k, g})
		}
	}
	return rows
}

// pickTests reads -test: one index, or all of n tests.
func pickTests(arg, file string, n int) ([]int, error) {
	if arg == "all" {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all, nil
	}
	i, err := strconv.Atoi(arg)
	if err != nil || i < 0 || i >= n {
		give := fmt.Sprintf("0..%d", n-1)
		if n == 1 {
			give = "0"
		}
		return nil, fmt.Errorf("%s: -test %s: the file holds %s: give %s or all (-list lists them)", file, arg, words.Count(n, "test", "tests"), give)
	}
	return []int{i}, nil
}

// fitOne fits test i of log: on place's half of its rows, or on the
// in-place half of a file that holds only those unless -placement was
// given (explicit), and through algo's cost when algo is not "".
func fitOne(log *data.Log, i int, place nccltests.Placement, explicit bool, algo string, settings *fit.Settings) (fitOutput, error) {
	t := log.Tests[i]
	if !explicit && len(data.TestSamples(t, nccltests.OutOfPlace)) == 0 && len(data.TestSamples(t, nccltests.InPlace)) > 0 {
		place = nccltests.InPlace
	}
	out, err := fitTest(log, i, place, settings)
	if err == nil && algo != "" {
		if err = fitThroughAlgorithm(out, t, algo, out.samples, settings); err != nil {
			err = flagErrorf("-algo: %w", err)
		}
	}
	if err != nil {
		return fitOutput{}, err
	}
	return out.fitOutput, nil
}

// testListing is one test of -list. A count or GPU the log does not
// give is nil: null in JSON, an empty cell in CSV, "?" in text (0 nodes
// would read as a count). Nodes is the count predict takes from the log
// (predict.LogNodes): the Rank lines' hosts, or NCCL's nNodes.
type testListing struct {
	Index      int      `json:"index"`
	Line       int      `json:"line"`
	Op         string   `json:"op"`
	Collective string   `json:"collective"`
	Candidates []string `json:"candidates"`
	Ranks      *int     `json:"ranks"`
	Nodes      *int     `json:"nodes"`
	System     *string  `json:"system"`
	Rows       int      `json:"rows"`
	MinBytes   int64    `json:"min_bytes"`
	MaxBytes   int64    `json:"max_bytes"`
}

// writeTestList lists the tests of log.
func writeTestList(w io.Writer, file string, log *data.Log, format string, problems []problem) error {
	ls := make([]testListing, len(log.Tests))
	for i, t := range log.Tests {
		l := testListing{Index: i, Line: t.Line, Op: t.Op, Collective: collectiveName(t), Candidates: []string{},
			Ranks: givenCount(t.Ranks), Nodes: givenCount(predict.LogNodes(t)), Rows: len(t.Rows)}
		if t.System != "" {
			l.System = &t.System
		}
		for _, c := range t.Candidates {
			l.Candidates = append(l.Candidates, c.String())
		}
		for k, r := range t.Rows {
			if k == 0 || r.Size < l.MinBytes {
				l.MinBytes = r.Size
			}
			l.MaxBytes = max(l.MaxBytes, r.Size)
		}
		ls[i] = l
	}
	switch format {
	case formatJSON:
		return writeJSON(w, struct {
			File     string        `json:"file"`
			Tests    []testListing `json:"tests"`
			Problems []problem     `json:"problems"`
		}{file, ls, append([]problem{}, problems...)})
	case formatCSV:
		return writeCSV(w, ls)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "test	line	collective	ranks	nodes	GPU	rows	sizes")
	for _, l := range ls {
		c := l.Collective
		switch {
		case c == "":
			c = l.Op + " (not modelled)"
		case len(l.Candidates) > 1:
			c = strings.Join(l.Candidates, " or ")
		}
		// A count or GPU the log does not give is "?", as fit's header
		// prints "p = ?".
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%d\t%s..%s\n", l.Index, l.Line, c, orUnknown(l.Ranks), orUnknown(l.Nodes), orUnknown(l.System), l.Rows,
			units.FormatSize(float64(l.MinBytes)), units.FormatSize(float64(l.MaxBytes)))
	}
	return tw.Flush()
}

// givenCount returns n, or nil for 0, a count the log does not give.
func givenCount(n int) *int {
	if n <= 0 {
		return nil
	}
	return &n
}

// orUnknown prints *v, or "?" for nil.
func orUnknown[T any](v *T) string {
	if v == nil {
		return "?"
	}
	return fmt.Sprint(*v)
}

// collectiveName is the name of the collective test t measures, "" when
// the reader could not tell.
func collectiveName(t *nccltests.Test) string {
	if c, ok := data.Collective(t); ok {
		return c.String()
	}
	return ""
}

// readProblems are the warnings of reading log, among them the reader's
// ErrAmbiguous for a table that fits several collectives alike, but
// those of a process's threads, which neither fit nor compare reads
// (layoutOnly).
func readProblems(log *data.Log) []problem {
	out := []problem{}
	for _, pr := range log.Problems {
		if !layoutOnly(pr) {
			out = append(out, problemOf(log.Name, pr))
		}
	}
	return out
}

// layoutOnly reports whether the reader's problem pr concerns only how a
// process drives its GPUs (nccltests.ErrUnsplit: rccl-tests' CSV gives
// them, not its threads), which the commands that take no FILE:KEY
// (fit, compare) do not read, and which their warning's threads=T could
// not settle.
func layoutOnly(pr error) bool { return errors.Is(pr, nccltests.ErrUnsplit) }

// rowLine is the line of test t's first row of size bytes, 0 if none.
func rowLine(t *nccltests.Test, size float64) int {
	for _, r := range t.Rows {
		if float64(r.Size) == size {
			return r.Line
		}
	}
	return 0
}

func parseLoss(s string) (fit.Loss, error) {
	for _, l := range []fit.Loss{fit.Bisquare, fit.Huber, fit.Squared} {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return 0, flagErrorf("-loss %q: want bisquare, huber or squared", s)
}

// fitRun is a fit's output with the samples it was fitted to.
type fitRun struct {
	fitOutput
	samples []fit.Sample
}

// fitTest fits test i of log: one alpha-beta pair and the piecewise fit.
func fitTest(log *data.Log, i int, place nccltests.Placement, settings *fit.Settings) (*fitRun, error) {
	t := log.Tests[i]
	out := &fitRun{fitOutput: fitOutput{
		File: log.Name, Test: i, Tests: len(log.Tests), TestName: t.Name,
		CollectiveFrom: t.CollectiveFrom.String(), P: t.Ranks, PFrom: t.RanksFrom.String(),
		Nodes: t.Nodes, Placement: place.String(), Loss: settings.Loss.String(),
	}}
	if c, ok := data.Collective(t); ok {
		out.Collective = c.String()
		if t.Ranks >= 1 {
			out.BusFactor = c.BusFactor(t.Ranks)
		}
	}
	if t.Ambiguous() {
		for _, c := range t.Candidates {
			out.CollectiveCandidates = append(out.CollectiveCandidates, c.String())
		}
	}
	out.Problems = readProblems(log)
	out.fileProblems = len(out.Problems)
	// 0-byte rows time an empty call: they are the launch floor, not a point
	// of T = alpha + S/BW (fit.SplitEmpty).
	var empty []fit.Sample
	out.samples, empty = fit.SplitEmpty(data.TestSamples(t, place))
	out.DroppedZeroBytes = len(empty)
	out.NPoints = len(out.samples)
	if out.NPoints < 3 {
		return nil, fmt.Errorf("%s with an %s time and a size above 0; a fit needs at least 3", words.Count(out.NPoints, "row", "rows"), place)
	}
	single, err := fit.AlphaBeta(out.samples, settings)
	if err != nil {
		return nil, err
	}
	pw, err := fit.Piecewise(out.samples, settings)
	if err != nil {
		return nil, err
	}
	g := single.Regimes[0]
	out.Single = fitSingle{
		AlphaS:       g.Alpha,
		MedianRelErr: single.MedianRelErr, MaxRelErr: single.MaxRelErr, LOOMedianRelErr: single.LOOMedianRelErr,
		AlphaCIS: alphaCI(g.AlphaCI), fitBW: newFitBW(g, single.BWCap(), out.BusFactor),
	}
	// Notes are one per narrow regime, in order (fit.Result.Notes): each
	// is placed at the regime's first row.
	var narrow []fit.Regime
	for _, g := range pw.Regimes {
		if g.Narrow() {
			narrow = append(narrow, g)
		}
	}
	for k, note := range pw.Notes {
		pr := problem{File: log.Name, Message: note}
		if len(narrow) == len(pw.Notes) {
			pr.Line = rowLine(t, narrow[k].MinSize)
		}
		out.Problems = append(out.Problems, pr)
	}
	out.NonMonotone = []fitNonMonotone{}
	for _, nm := range pw.NonMonotone {
		out.NonMonotone = append(out.NonMonotone, fitNonMonotone{
			SizeBytes: int64(nm.Sample.Size), TimeS: nm.Sample.Time, Line: rowLine(t, nm.Sample.Size),
			ContradictsSizeBytes: int64(nm.Contradicts.Size), ContradictsTimeS: nm.Contradicts.Time, ContradictsLine: rowLine(t, nm.Contradicts.Size),
			PredictedS: nm.Predicted, RelErr: nm.RelErr,
		})
	}
	if g := single.Regimes[0]; out.NPoints < fewBootstrapPoints && (g.AlphaCI != fit.Interval{} || g.BWCI != fit.Interval{}) {
		out.Problems = append(out.Problems, problem{File: log.Name, Line: rowLine(t, g.MinSize), Message: fmt.Sprintf(
			"the table holds only %d points, too few to bound alpha and BW well: their 95%% intervals are the spread of the fits through resamples of the points, a handful of lines through 2 or more of its sizes (a draw of one size fits no line and is left out), so take them as rough",
			out.NPoints)})
	}
	for _, g := range pw.Regimes {
		out.Regimes = append(out.Regimes, fitRegime{
			MinBytes: int64(g.MinSize), MaxBytes: int64(g.MaxSize), AlphaS: g.Alpha, NPoints: g.N,
			AlphaCIS: alphaCI(g.AlphaCI), fitBW: newFitBW(g, pw.BWCap(), out.BusFactor),
		})
	}
	out.MedianRelErr, out.MaxRelErr, out.LOOMedianRelErr = pw.MedianRelErr, pw.MaxRelErr, pw.LOOMedianRelErr
	out.BIC = pw.BIC
	for j, s := range pw.Samples {
		out.Points = append(out.Points, fitPoint{
			SizeBytes: int64(s.Size), TimeS: s.Time, PredictedS: pw.Predicted[j],
			RelErr: pw.RelErr[j], LOORelErr: pw.LOORelErr[j], Weight: pw.Weight[j],
		})
	}
	out.Settings = fitConfig{Regimes: "auto", MinPoints: 3, Bootstrap: max(settings.Bootstrap, 0), Level: 0.95, Seed: settings.Seed}
	if settings.Regimes > 0 {
		out.Settings.Regimes = strconv.Itoa(settings.Regimes)
	}
	return out, nil
}

// fitThroughAlgorithm adds the link fitted through algorithm name's cost.
func fitThroughAlgorithm(out *fitRun, t *nccltests.Test, name string, samples []fit.Sample, settings *fit.Settings) error {
	if out.Collective == "" || out.P < 1 {
		return errors.New("the collective and rank count must be known (give -collective and -p)")
	}
	perNode := 0
	if t.Nodes >= 1 {
		perNode = t.Ranks / t.Nodes
	}
	c, _ := data.Collective(t)
	opt, err := algorithmOptions(c, name, perNode, "", 0)
	if err != nil {
		return err
	}
	a, err := commmodel.Lookup(c, name, opt)
	if err != nil {
		return err
	}
	f, err := fit.Through(a, out.P, samples, settings)
	if err != nil {
		return err
	}
	l := f.Link()
	out.Through = &fitThrough{
		Algorithm: a.Name(), AlphaS: l.Alpha, BWBps: l.BW,
		MedianRelErr: f.MedianRelErr, MaxRelErr: f.MaxRelErr, LOOMedianRelErr: f.LOOMedianRelErr,
	}
	return nil
}

// writeFitTable prints the fit as text: what was read, the single fit, the
// regimes and the errors.
func writeFitTable(w io.Writer, o *fitOutput) error {
	coll, p := o.Collective, "?"
	if coll == "" {
		coll = "unknown (give -collective)"
	} else {
		coll += " (from " + o.CollectiveFrom + ")"
	}
	if o.P > 0 {
		p = fmt.Sprintf("%d (from %s)", o.P, o.PFrom)
	}
	name := ""
	if o.TestName != "" {
		name = " " + o.TestName // a log without its "# Collective test starting" line names none
	}
	fmt.Fprintf(w, "%s, test %d of %d%s: %s, p = %s, %d points (%s)",
		o.File, o.Test, o.Tests, name, coll, p, o.NPoints, o.Placement)
	if o.DroppedZeroBytes > 0 {
		fmt.Fprintf(w, ", %d 0-byte rows left out", o.DroppedZeroBytes)
	}
	fmt.Fprintln(w)
	s := o.Single
	bw := fit.LatencyBound
	if s.BWBps != nil {
		bw = "BW " + units.FormatBandwidth(*s.BWBps) + busNote(s.BusBWBps, o.BusFactor)
	}
	fmt.Fprintf(w, "\nsingle T = alpha + S/BW: alpha %s, %s; error median %.2f%%, max %.2f%%, leave-one-out median %.2f%%\n",
		units.FormatDuration(s.AlphaS), bw, 100*s.MedianRelErr, 100*s.MaxRelErr, 100*s.LOOMedianRelErr)
	how := "chosen by BIC"
	if o.Settings.Regimes != "auto" {
		how = "fixed by -regimes"
	}
	fmt.Fprintf(w, "\npiecewise: %s (%s, %s loss); error median %.2f%%, max %.2f%%, leave-one-out median %.2f%%\n",
		words.Count(len(o.Regimes), "regime", "regimes"), how, o.Loss, 100*o.MedianRelErr, 100*o.MaxRelErr, 100*o.LOOMedianRelErr)
	tw := tabwriter.NewWriter(w, 2, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "min bytes\tmax bytes\tpoints\talpha\talpha 95% CI\tBW\tBW 95% CI\tbusBW\t")
	latency, open := false, false
	for _, g := range o.Regimes {
		bw, bus := "latency-bound", "-"
		if g.BWBps != nil {
			bw = units.FormatBandwidth(*g.BWBps)
		}
		if g.BusBWBps != nil {
			bus = units.FormatBandwidth(*g.BusBWBps)
		}
		latency, open = latency || g.LatencyBound, open || g.BWCIOpen
		fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", g.MinBytes, g.MaxBytes, g.NPoints,
			units.FormatDuration(g.AlphaS), fmtCI(g.AlphaCIS, units.FormatDuration), bw, fmtBWCI(g.BWCIBps), bus)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if latency {
		fmt.Fprintln(w, "latency-bound: no bandwidth measured; time does not grow with size there, so alpha alone describes it.")
	}
	if open {
		fmt.Fprintln(w, "unbounded: the data set no upper limit on BW; some resamples found time not growing with size.")
	}
	writeOutliers(w, o.Points)
	writeNonMonotone(w, o.NonMonotone)
	if t := o.Through; t != nil {
		fmt.Fprintf(w, "\nthrough %s at p = %d: alpha %s per step, BW %s per rank; error median %.2f%%, max %.2f%%\n",
			t.Algorithm, o.P, units.FormatDuration(t.AlphaS), units.FormatBandwidth(t.BWBps), 100*t.MedianRelErr, 100*t.MaxRelErr)
	}
	_, err := fmt.Fprintln(w, "\nBW is the fitted bandwidth of T = alpha + S/BW (algorithm bandwidth); busBW = BW x bus factor.")
	return err
}

func busNote(bus *float64, factor float64) string {
	if bus == nil {
		return ""
	}
	return fmt.Sprintf(" (busBW %s, bus factor %.4g)", units.FormatBandwidth(*bus), factor)
}

// fmtBWCI writes a bandwidth's confidence interval, "-" when there is
// none and "unbounded" for a top the data did not set (fitBW).
func fmtBWCI(ci [2]*float64) string {
	if ci[0] == nil {
		return "-"
	}
	hi := "unbounded"
	if ci[1] != nil {
		hi = units.FormatBandwidth(*ci[1])
	}
	return "[" + units.FormatBandwidth(*ci[0]) + ", " + hi + "]"
}

// fmtCI writes a confidence interval with format, "-" when there is none.
func fmtCI(ci [2]*float64, format func(float64) string) string {
	if ci[0] == nil || ci[1] == nil {
		return "-"
	}
	return "[" + format(*ci[0]) + ", " + format(*ci[1]) + "]"
}

// alphaCI is a latency's confidence interval, nil (null, empty CSV cells)
// where the fit has none (no bootstrap): [0, 0] would read as an exact
// interval.
func alphaCI(iv fit.Interval) [2]*float64 {
	if iv == (fit.Interval{}) {
		return [2]*float64{}
	}
	return [2]*float64{&iv.Lo, &iv.Hi}
}

// writeNonMonotone lists the points left out of the fit because each is
// slower than a larger size.
func writeNonMonotone(w io.Writer, points []fitNonMonotone) {
	if len(points) == 0 {
		return
	}
	fmt.Fprintln(w, "\nleft out as non-monotone (slower than a larger size beyond the noise: on no alpha-beta regime; not in the errors above):")
	for _, pt := range points {
		fmt.Fprintf(w, "  %d B: measured %s, %+.1f%% against %d B at %s; fit %s (%+.1f%%)\n",
			pt.SizeBytes, units.FormatDuration(pt.TimeS), 100*(pt.TimeS/pt.ContradictsTimeS-1), pt.ContradictsSizeBytes,
			units.FormatDuration(pt.ContradictsTimeS), units.FormatDuration(pt.PredictedS), 100*pt.RelErr)
	}
}

// outlierWeight is the robust weight below which a point counts as set aside.
const outlierWeight = 0.1

// writeOutliers lists the points the robust loss set aside: they count in
// the error figures above but barely in the fit.
func writeOutliers(w io.Writer, points []fitPoint) {
	first := true
	for _, pt := range points {
		if pt.Weight >= outlierWeight {
			continue
		}
		if first {
			fmt.Fprintf(w, "\nset aside by the robust loss (weight < %g; counted in the errors above):\n", outlierWeight)
			first = false
		}
		fmt.Fprintf(w, "  %d B: measured %s, fit %s (%+.1f%%), weight %.2f\n",
			pt.SizeBytes, units.FormatDuration(pt.TimeS), units.FormatDuration(pt.PredictedS), 100*pt.RelErr, pt.Weight)
	}
}
