package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("diagnose", "compare an nccl-tests table with the model: where it departs, why, and what to try", runDiagnose)
}

// diagnoseOutput is the JSON of "commlab diagnose".
type diagnoseOutput struct {
	Table string `json:"table"`
	// Collective, Ranks, Nodes and PerNode are the diagnosed run's, as
	// the log gives them or LOG:KEY=VALUE pins them.
	Collective string `json:"collective"`
	Ranks      int    `json:"ranks"`
	Nodes      int    `json:"nodes"`
	PerNode    int    `json:"per_node"`
	// ShapeAssumed is set where the log places no rank on a host and no
	// LOG:nodes= or LOG:per-node= gave the layout: Nodes and PerNode are
	// assumed, and every finding rests on them.
	ShapeAssumed bool `json:"shape_assumed,omitempty"`
	// CollectiveCandidates, present only then, lists the collectives the
	// table fits alike where its collective was guessed among them (the
	// first), as fit's JSON has it.
	CollectiveCandidates []string `json:"collective_candidates,omitempty"`
	// CollectiveHint is the LOG argument that names another candidate.
	CollectiveHint string         `json:"collective_hint,omitempty"`
	Model          string         `json:"model"`
	Hardware       hardwareOutput `json:"hardware"`
	Points         int            `json:"points"`
	Inside         int            `json:"inside_interval"`
	// IntervalOverModel, with no calibration table, is the interval's low
	// and high ends over the model's time, medians over the table's sizes:
	// a run within them reads as inside, so without a baseline a run up
	// to the high end's times the model's goes unfound.
	IntervalOverModel []float64 `json:"interval_over_model,omitempty"`
	// BusBWPeak, for a run across nodes' NICs, is the table's most bus
	// bandwidth beside what a ring gets from a node's NICs as described.
	BusBWPeak *busBWPeak `json:"bus_bw_peak,omitempty"`
	// RunFailed are the problems of the log that say its run failed:
	// nccl-tests' own check (rows with a #wrong count, which the findings
	// leave out, or out-of-bounds values), or a table that stops early in
	// a log that does not say it was abridged (a hang or a crash). Where
	// there are any, diagnose exits 1 after its report.
	RunFailed []problem         `json:"run_failed,omitempty"`
	Findings  []diagnoseFinding `json:"findings"`
	Problems  []problem         `json:"problems"`
	// rccl is set where the machine runs RCCL: the findings' choice
	// column names RCCL, whose tuner the model takes as NCCL's.
	rccl bool
}

type diagnoseFinding struct {
	FromBytes         float64  `json:"from_bytes"`
	ToBytes           float64  `json:"to_bytes"`
	MeasuredOverModel float64  `json:"measured_over_model"`
	Kind              string   `json:"kind"`
	Term              string   `json:"term,omitempty"`
	NCCL              string   `json:"nccl"`
	Advice            []string `json:"advice"`
	// Assumed names the assumed facts that may explain the finding.
	Assumed []string `json:"assumed,omitempty"`
}

// busBWPeak is a table's most bus bandwidth, B/s, at its size, bytes, and
// NICBound, the bus bandwidth a ring gets from the NICs of a node, NICs of
// them (of an NVLink domain of DomainHosts hosts, where the model takes
// one for a node), as the machine is described
// (predict.Machine.RingNICBound), with the facts behind it that are
// assumed.
type busBWPeak struct {
	Size        float64  `json:"size_bytes"`
	BusBW       float64  `json:"bus_bw_Bps"`
	NICBound    float64  `json:"nic_bound_Bps"`
	NICs        int      `json:"nics"`
	DomainHosts int      `json:"domain_hosts,omitempty"`
	Assumed     []string `json:"assumed,omitempty"`
}

// peakBusBW returns t's busBWPeak on m, nil where its run crosses no
// NICs.
func peakBusBW(m *predict.Machine, t predict.Table) *busBWPeak {
	bound, ok := m.RingNICBound(t)
	if !ok || len(t.Points) == 0 {
		return nil
	}
	var p busBWPeak
	for _, pt := range t.Points {
		if b := t.Collective.BusBW(t.Ranks(), pt.Size, pt.Time); b > p.BusBW {
			p.Size, p.BusBW = pt.Size, b
		}
	}
	p.NICBound, p.NICs, p.Assumed = bound.BusBW, bound.NICs, bound.Assumed
	if bound.DomainHosts > 1 {
		p.DomainHosts = bound.DomainHosts
	}
	return &p
}

// sizes is the finding's range as the table prints it: "2 KiB", or
// "32 KiB..128 KiB".
func (f diagnoseFinding) sizes() string {
	if f.ToBytes == f.FromBytes {
		return units.FormatSize(f.FromBytes)
	}
	return units.FormatSize(f.FromBytes) + ".." + units.FormatSize(f.ToBytes)
}

// runDiagnose runs "commlab diagnose LOG": the first table of LOG (or the
// one -test picks) against the model calibrated on the -calibrate tables,
// or uncalibrated without them.
func runDiagnose(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("diagnose")
	machine := addMachineFlags(fs)
	test := fs.Int("test", 0, "which test of LOG to diagnose, from 0 in the order the log prints them, when it holds several")
	algo := fs.String("algo", "auto", "NCCL_ALGO of LOG's run and of the calibration runs that do not give their own (FILE:algo=auto for one the tuner chose): auto|ring|tree|nvls|nvlstree|pat|collnet|collnet-direct|collnet-chain, or a comma-separated list NCCL reads, such as ring,tree or ^nvls")
	proto := fs.String("proto", "auto", "NCCL_PROTO of LOG's run and of the calibration runs that do not give their own: auto|ll|ll128|simple, or a comma-separated list NCCL reads, such as ll,simple or ^ll128")
	output := addFormatFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab diagnose LOG[:KEY=VALUE...] [-calibrate A.log,...] [-algo A] [-proto P] [-gpu NAME] [-hw SPEC|FILE] [-topo FILE] [-test N] [-format text|json|csv]")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args, 1)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf(fs, "give the nccl-tests log to diagnose: commlab diagnose LOG")
	}
	format, err := output.get()
	if err != nil {
		return err
	}
	if err := checkTest(strconv.Itoa(*test), false); err != nil {
		return err
	}
	// -algo and -proto pin the diagnosed run as LOG:algo= and LOG:proto=
	// do, and the calibration runs as predict's do.
	ncclAlgo, ncclProto, err := predictPins(*algo, *proto)
	if err != nil {
		return err
	}
	pins, err := machine.studyPins(pos)
	if err != nil {
		return err
	}
	pins.Algo, pins.Proto = ncclAlgo, ncclProto
	files, err := parseCalibrationFiles(pos[0], pins, "the log")
	if err != nil {
		return err
	}
	// LOG:test=K names the test as -test K does.
	testSet := false
	fs.Visit(func(f *flag.Flag) { testSet = testSet || f.Name == "test" })
	if t := files[0].tests; len(t) == 1 && !testSet {
		*test = t[0]
	}
	_, tables, problems, err := readCalibration(files)
	if err != nil {
		return err
	}
	t, err := tableOfTest(tables, problems, pos[0], *test, "-test ")
	if err != nil {
		return err
	}
	machine.machineOf(t)
	mc, err := machine.load(predict.Pins{Algo: ncclAlgo, Proto: ncclProto, Hosts: []predict.Comm{{Nodes: t.Nodes, PerNode: t.PerNode}}}, t.PerNode, t)
	if err != nil {
		return err
	}
	if err := domainHolds(&mc.hw, t.PerNode); err != nil {
		return err
	}
	// The model of one machine diagnoses that machine's tables only.
	if err := sameMachine(append(slices.Clone(mc.tables), t)); err != nil {
		return err
	}
	mc.studies(t)
	if !testSet && len(files[0].tests) == 0 {
		mc.problems = append(mc.problems, otherTests(pos[0], tables, t)...)
	}
	if p := t.Evidence.TunerPlugin; p.Known() {
		mc.problems = append(mc.problems, problem{Message: fmt.Sprintf("%s: NCCL ran the tuner plugin %s (line %d): where a finding says what NCCL ran or would run, it is NCCL's tuning model's choice, not the plugin's",
			t.Name, p.Value, p.Line)})
	}
	out := diagnoseOutput{Table: t.Name, Collective: t.Collective.String(), Ranks: t.Ranks(), Nodes: t.Nodes, PerNode: t.PerNode,
		Hardware: hardwareOf(mc.hw, append([]predict.Table{t}, mc.tables...)),
		Points:   len(t.Points), Findings: []diagnoseFinding{},
		Problems: append(append([]problem{}, problems...), mc.problems...)}
	out.ShapeAssumed = t.ShapeFrom == predict.SourceAssumed
	diagnosed := t.Name[strings.LastIndex(t.Name, "#")+1:]
	for _, p := range problems {
		if p.failed && p.File == files[0].path && strconv.Itoa(p.test) == diagnosed {
			out.RunFailed = append(out.RunFailed, p)
		}
	}
	out.CollectiveCandidates, out.CollectiveHint = guessedAmong(pos[0], files[0].path, t, problems)
	m, model, err := mc.model()
	if err != nil {
		return err
	}
	// NCCL's release is the diagnosed run's, whose tuner the model runs
	// for it, not the calibration's.
	out.Hardware.Facts = withFact(m.Facts(), t.VersionFact())
	out.Model = model
	// The table is held to the run NCCL made, its hosts grouped as its
	// comm line says, as a calibration on it models it; where the
	// machine's NVLink domain would group them otherwise, say so.
	if n := m.DomainsNote(t); n != "" {
		out.Problems = append(out.Problems, problem{Message: n})
	}
	if out.rccl = m.RunsRCCL(); out.rccl {
		out.Problems = append(out.Problems, problem{Message: rcclChoicesNote(`the findings' "RCCL runs (model)" column gives`)})
	}
	if len(mc.tables) == 0 {
		// Without tables the table is held to predict's prediction from
		// the GPU's name (predict.Machine.Diagnose), and named as predict
		// names it.
		sizes := make([]float64, len(t.Points))
		for i, p := range t.Points {
			sizes[i] = p.Size
		}
		preds, why, err := predict.Untabled(mc.hw, t.Query(), sizes)
		if err != nil {
			return err
		}
		out.Model = untabledModel(mc.hw, t.Query(), preds, why)
		lo, hi := make([]float64, len(preds)), make([]float64, len(preds))
		for i, p := range preds {
			lo[i], hi[i] = p.Low/p.Time, p.High/p.Time
		}
		if len(preds) > 0 {
			out.IntervalOverModel = []float64{fit.Median(lo), fit.Median(hi)}
		}
	}
	out.BusBWPeak = peakBusBW(m, t)
	findings, inside, err := m.Diagnose(t)
	if err != nil {
		return err
	}
	out.Inside = inside
	// A calibration table of the diagnosed run's shape is its baseline:
	// where the two differ beyond their noise, the run changed, though the
	// model's interval, which pools the calibration with its priors, may
	// hold both (nccl-tests#380's VM run, 1.7x its bare metal's).
	out.Findings = append(out.Findings, baselineFindings(t, mc.tables)...)
	// The model's findings number their references to each other from 1
	// among themselves; the baseline's findings come first.
	shift := len(out.Findings)
	for _, f := range findings {
		d := diagnoseFinding{FromBytes: f.FromBytes, ToBytes: f.ToBytes, MeasuredOverModel: f.MeasuredOverModel,
			Kind: f.Kind, Term: f.Term, NCCL: f.NCCL, Advice: shiftFindingRefs(f.Advice, shift)}
		d.Assumed = f.AssumedFacts()
		if (f.Term == predict.TermNetwork || f.Term == predict.TermChannels) && mc.capture != nil && len(mc.capture.GPUs()) > 0 && len(d.Assumed) == 0 {
			d.Advice = append(d.Advice, bindingAdvice(mc.capture, mc.hw.CaptureHost(mc.capture), t.Evidence))
		}
		out.Findings = append(out.Findings, d)
	}
	switch format {
	case formatJSON:
		err = writeJSON(stdout, out)
	case formatCSV:
		writeProblems(stderr, out.Problems)
		err = writeCSV(stdout, out.Findings)
	default:
		writeProblems(stderr, out.Problems)
		err = writeDiagnoseText(stdout, out)
	}
	if err == nil && len(out.RunFailed) > 0 {
		// A health check's verdict: the report stands, and the status
		// says the run itself failed.
		err = fmt.Errorf("the run failed (%s): rerun it before reading its times", out.RunFailed[0])
	}
	return err
}

// findingRef is a finding's reference to another by its number ("as for
// finding 2", "finding 4 finds").
var findingRef = regexp.MustCompile(`\bfinding (\d+)`)

// shiftFindingRefs returns advice with each "finding N" moved on by shift,
// for findings listed after shift others.
func shiftFindingRefs(advice []string, shift int) []string {
	if shift == 0 {
		return advice
	}
	out := make([]string, len(advice))
	for i, a := range advice {
		out[i] = findingRef.ReplaceAllStringFunc(a, func(m string) string {
			n, _ := strconv.Atoi(findingRef.FindStringSubmatch(m)[1])
			return fmt.Sprintf("finding %d", n+shift)
		})
	}
	return out
}

// Kinds of the findings that set the diagnosed table beside a calibration
// table of its shape.
const (
	kindBaselineSlower = "slower than a calibration table of its shape"
	kindBaselineFaster = "faster than a calibration table of its shape"
)

// baselineFindings sets t beside each calibration table of its run's shape
// (collective, nodes, GPUs a node, layout, NCCL_ALGO and NCCL_PROTO), as
// commlab compare does, and returns a finding for each range of common
// sizes where t is slower or faster beyond the noise of the two tables'
// rows. The model's interval pools a calibration's errors with its priors'
// spread, wide enough to hold a run 1.7 times as long as the table it was
// calibrated on: an on-call engineer who calibrates on the run from before
// a fault and diagnoses the run from after it must hear of the fault all
// the same.
func baselineFindings(t predict.Table, tables []predict.Table) []diagnoseFinding {
	var out []diagnoseFinding
	for _, c := range tables {
		if c.Name == t.Name || c.Collective != t.Collective || c.Nodes != t.Nodes || c.PerNode != t.PerNode ||
			c.Layout != t.Layout || c.Algo != t.Algo || c.Proto != t.Proto {
			continue
		}
		for _, r := range differingRanges(comparePoints(testOfTable(c), testOfTable(t), defaultNoiseFloor)) {
			kind, by := kindBaselineSlower, "took %s times as long as"
			lo, hi := r.MinRatio, r.MaxRatio
			if r.BIs == bFaster {
				kind, by, lo, hi = kindBaselineFaster, "ran %s times as fast as", 1/r.MaxRatio, 1/r.MinRatio
			}
			times := fmt.Sprintf("%.2f", hi)
			if fmt.Sprintf("%.2f", lo) != times {
				times = fmt.Sprintf("%.2f to %.2f", lo, hi)
			}
			advice := fmt.Sprintf("these sizes "+by+" in %s, a calibration table of the same collective, ranks and layout, beyond the noise of their rows: the run changed, whether or not the model's interval (the calibration pooled with its priors) holds both; commlab compare sets the two logs side by side, size by size",
				times, c.Name)
			if r.BIs == bSlower {
				advice += "; look for what changed between the runs (nodes, NICs, drivers, NCCL's release and environment, the jobs beside it) before any NCCL setting"
			}
			out = append(out, diagnoseFinding{FromBytes: float64(r.FromBytes), ToBytes: float64(r.ToBytes),
				MeasuredOverModel: math.Sqrt(r.MinRatio * r.MaxRatio), Kind: kind, Advice: []string{advice}})
		}
	}
	return out
}

// testOfTable is t's points as an nccl-tests table, for comparePoints.
func testOfTable(t predict.Table) *nccltests.Test {
	rows := make([]nccltests.Row, len(t.Points))
	for i, p := range t.Points {
		rows[i] = nccltests.Row{Size: int64(p.Size), OutOfPlace: nccltests.Result{Time: p.Time}, InPlace: nccltests.Result{Time: p.InPlace}}
	}
	return &nccltests.Test{Rows: rows}
}

// bindingAdvice is what the topology capture t says to set for a network
// finding of a table with evidence e: the host's one NCCL_IB_HCA
// (topo.Topology.IBHCAOf, of a host known to hold hostGPUs GPUs:
// predict.Hardware.CaptureHost, 0 for unknown), or none where NCCL's debug lines list a NIC the
// capture does not show (unshownNICs: the list would leave it out); for
// NICs NCCL's InfiniBand transport does not list, what picks them
// (topo.NotIB); and each rank's NUMA node and CPUs, the GPUs that share
// them together. It names no NIC per rank: NCCL pairs each GPU with its
// nearest NIC itself, and an NCCL_IB_HCA set per rank breaks its rings
// (topo.SameIBHCA).
func bindingAdvice(t *topo.Topology, hostGPUs int, e nccltests.Evidence) string {
	bs := t.Bindings()
	var parts []string
	if missing, line := unshownNICs(t, e); len(missing) > 0 {
		parts = append(parts, fmt.Sprintf("NCCL_IB_HCA: none from this capture, which does not show %s of NCCL's debug lines (line %d); if set, the same on every rank: %s", words.And(missing), line, topo.SameIBHCA))
	} else if a := t.IBHCAOf(hostGPUs).Advice(); a != "" {
		parts = append(parts, a)
	}
	if notes := topo.NotIBNotes(bs); len(notes) > 0 {
		parts = append(parts, "NCCL_IB_HCA: none; "+strings.Join(notes, "; "))
	}
	// Each rank's binding, the GPUs of one NUMA node and CPU list together.
	type group struct {
		gpus []string
		numa int
		cpus string
	}
	var groups []group
	for _, b := range bs {
		cpus := b.CPUs.String()
		if b.NUMA < 0 && cpus == "" {
			continue
		}
		k := slices.IndexFunc(groups, func(g group) bool { return g.numa == b.NUMA && g.cpus == cpus })
		if k < 0 {
			groups = append(groups, group{numa: b.NUMA, cpus: cpus})
			k = len(groups) - 1
		}
		groups[k].gpus = append(groups[k].gpus, b.GPU)
	}
	var each []string
	for _, g := range groups {
		var on []string
		if g.numa >= 0 {
			on = append(on, fmt.Sprintf("NUMA node %d", g.numa))
		}
		if g.cpus != "" {
			on = append(on, "CPUs "+g.cpus)
		}
		each = append(each, words.And(g.gpus)+" on "+strings.Join(on, ", "))
	}
	if len(each) > 0 {
		parts = append(parts, "Bind each rank to its GPU's NUMA node and CPUs (numactl --cpunodebind=N --membind=N, or taskset -c CPUS): "+strings.Join(each, "; "))
	}
	if len(parts) == 0 {
		return "the topology capture names no NIC device and no GPU's NUMA node or CPUs"
	}
	return "from the topology: " + strings.Join(parts, ". ")
}

// guessedAmong returns, where the reader guessed the collective of t (of
// the log path) among several its table fits alike, those collectives and
// the LOG argument (arg, with its pins) that diagnoses it as the next of
// them: a table read as AllGather that ran AllToAll departs from the model
// by the collective, not the machine.
func guessedAmong(arg, path string, t predict.Table, problems []problem) ([]string, string) {
	k, err := strconv.Atoi(t.Name[strings.LastIndex(t.Name, "#")+1:])
	if err != nil {
		return nil, ""
	}
	for _, p := range problems {
		candidates := strings.Split(p.candidates, ",")
		if p.File != path || p.test != k || len(candidates) < 2 {
			continue
		}
		other := candidates[1]
		if i := slices.Index(candidates, t.Collective.String()); i > 0 {
			other = candidates[0]
		}
		if !strings.Contains(strings.TrimPrefix(arg, path), ":test=") {
			arg += fmt.Sprintf(":test=%d", k)
		}
		return candidates, arg + ":collective=" + other
	}
	return nil, ""
}

func writeDiagnoseText(w io.Writer, out diagnoseOutput) error {
	fmt.Fprintf(w, "%s: %s on %d ranks (%d x %d GPUs)\n", out.Table, out.Collective, out.Ranks, out.Nodes, out.PerNode)
	if out.ShapeAssumed {
		fmt.Fprintf(w, "guess: layout = %d x %d GPUs is assumed, as the log places no rank on a host, and every finding below rests on it: give LOG:nodes=N:per-node=G if the run was laid out otherwise\n",
			out.Nodes, out.PerNode)
	}
	if len(out.CollectiveCandidates) > 1 {
		other := out.CollectiveHint[strings.LastIndex(out.CollectiveHint, "=")+1:]
		fmt.Fprintf(w, "guess: collective = %s: the table fits %s alike, and neither the log nor its name says which: if the run was %s, diagnose %s\n",
			out.Collective, words.And(out.CollectiveCandidates), other, out.CollectiveHint)
	}
	// The problems that say so, as standard error folds them (the rows of
	// one message share a line).
	var failed strings.Builder
	writeProblems(&failed, out.RunFailed)
	for l := range strings.Lines(failed.String()) {
		fmt.Fprint(w, "run failed: ", l)
	}
	writeHardware(w, out.Hardware)
	fmt.Fprintf(w, "model: %s\n%d of %d points inside the model's 80%% interval\n", out.Model, out.Inside, out.Points)
	if r := out.IntervalOverModel; len(r) == 2 {
		fmt.Fprintf(w, "uncalibrated, the interval runs from %.2fx to %.2fx the model's time (medians over the sizes): a run up to %.2fx as slow as the model reads as inside; a known-good table of this machine, given with -calibrate, finds smaller gaps\n",
			r[0], r[1], r[1])
	}
	if k := slices.IndexFunc(out.Findings, func(f diagnoseFinding) bool { return f.Kind == predict.KindHostCopy }); k >= 0 {
		// That finding's ratio is over another time than the count's.
		fmt.Fprintf(w, "the model's host_bw is the rate of container runs, so the points above are set against those; finding %d sets the table against bare-metal hosts instead, the cards' PCIe figure, and its measured/model is over that\n", k+1)
	}
	if p := out.BusBWPeak; p != nil {
		assumed := ""
		switch len(p.Assumed) {
		case 2:
			assumed = " (nics_per_node and nic_bw assumed: -hw nics=N,nic-bw=RATE settles them)"
		case 1:
			assumed = fmt.Sprintf(" (%s assumed: -hw %s settles it)", p.Assumed[0], map[string]string{"nics_per_node": "nics=N", "nic_bw": "nic-bw=RATE"}[p.Assumed[0]])
		}
		nics := "a node's " + words.Count(p.NICs, "NIC", "NICs")
		if p.DomainHosts > 1 {
			nics = fmt.Sprintf("the %d NICs NCCL uses in an NVLink domain of %d hosts", p.NICs, p.DomainHosts)
		}
		fmt.Fprintf(w, "bus bandwidth: at most %.1f GB/s (%s), %.0f%% of the %.1f GB/s a ring gets from %s as described%s\n",
			p.BusBW/1e9, units.FormatSize(p.Size), 100*p.BusBW/p.NICBound, p.NICBound/1e9, nics, assumed)
	}
	if len(out.Findings) == 0 {
		verdict := "the table follows the model: no finding"
		if len(out.RunFailed) > 0 {
			verdict = "the rows it kept follow the model, but the run failed (run failed, above): rerun it before reading its times"
		}
		_, err := fmt.Fprintln(w, verdict)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	runs := "NCCL"
	if out.rccl {
		runs = "RCCL"
	}
	fmt.Fprintf(tw, "sizes\tmeasured/model\tfinding\tterm\t%s runs (model)\n", runs)
	for _, f := range out.Findings {
		fmt.Fprintf(tw, "%s\t%.2f\t%s\t%s\t%s\n", f.sizes(), f.MeasuredOverModel, f.Kind, f.Term, f.NCCL)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// A change against a calibration table of the run's shape is measured
	// against measured, and comes before the gaps to the model, which may
	// be the model's own misfit.
	if k := largestChange(out.Findings); k >= 0 {
		f := out.Findings[k]
		by := "the time of"
		if f.Kind == kindBaselineFaster {
			by = "the speed of"
		}
		fmt.Fprintf(w, "largest change: finding %d, %s at %.2f times %s a calibration table of its shape (measured against measured, before any gap to the model)\n", k+1, f.sizes(), predict.Gap(f.MeasuredOverModel), by)
	}
	if k := largestGap(out.Findings); k >= 0 {
		f := out.Findings[k]
		fmt.Fprintf(w, "largest gap: finding %d, %s at %.2f times the model's time (%s, term %s)\n", k+1, f.sizes(), f.MeasuredOverModel, f.Kind, f.Term)
	}
	// Findings whose advice is the same share one item, numbered by all of
	// them ("1, 2.").
	type item struct {
		numbers []string
		advice  []string
	}
	var items []item
	for i, f := range out.Findings {
		n := strconv.Itoa(i + 1)
		if k := slices.IndexFunc(items, func(it item) bool { return slices.Equal(it.advice, f.Advice) }); k >= 0 {
			items[k].numbers = append(items[k].numbers, n)
			continue
		}
		items = append(items, item{[]string{n}, f.Advice})
	}
	fmt.Fprintln(w, "\nwhat to try, finding by finding:")
	// A line of advice printed for an earlier item is named by its first
	// words and that item's number, not printed again in full.
	printed := map[string]string{}
	for _, it := range items {
		mark := strings.Join(it.numbers, ", ") + "."
		for j, a := range it.advice {
			if j > 0 {
				mark = strings.Repeat(" ", len(mark))
			}
			if first, ok := printed[a]; ok {
				a = fmt.Sprintf("%s ... (as for finding %s)", firstWords(a, 8), first)
			} else {
				printed[a] = it.numbers[0]
			}
			fmt.Fprintf(w, "%s %s\n", mark, a)
		}
	}
	return nil
}

// firstWords returns the first n words of s.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	return strings.Join(w[:min(n, len(w))], " ")
}

// largestChange returns the finding that sets the table against a
// calibration table of its shape (baselineFindings) farthest from it
// either way, -1 where there is none.
func largestChange(fs []diagnoseFinding) int {
	k := -1
	for i, f := range fs {
		if (f.Kind == kindBaselineSlower || f.Kind == kindBaselineFaster) && (k < 0 || predict.Gap(f.MeasuredOverModel) > predict.Gap(fs[k].MeasuredOverModel)) {
			k = i
		}
	}
	return k
}

// largestGap returns the finding, among those that set the table against
// the model's time (each names the term it weighs), whose measured time
// is farthest from the model's either way, where there are four findings
// or more and it is not the first: findings come in size order, and the
// one that matters most can come last, after screens of advice; -1
// otherwise.
func largestGap(fs []diagnoseFinding) int {
	if len(fs) < 4 {
		return -1
	}
	k := -1
	for i, f := range fs {
		if f.Term != "" && f.MeasuredOverModel > 0 && (k < 0 || predict.Gap(f.MeasuredOverModel) > predict.Gap(fs[k].MeasuredOverModel)) {
			k = i
		}
	}
	if k == 0 {
		return -1
	}
	return k
}
