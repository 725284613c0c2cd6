package main

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("tune", "write NCCL's example tuner plugin rules from a calibrated model, or check a rules file", runTune)
}

// tuneRequest is a "commlab tune" command line, its flags checked.
type tuneRequest struct {
	machine     machineFlags
	collectives []commmodel.Collective
	comms       []predict.Comm
	layout      predict.Layout
	sizes       []float64
	out         string
	// replace is whether out may be replaced: the user named it with -o,
	// or gave -force for the default name.
	replace bool
	check   string // the rules file to check instead of writing one
	// job is the job's NCCL_ALGO and NCCL_PROTO (-algo, -proto), "" where
	// it leaves them to NCCL.
	job predict.Env
	// protoGiven is whether -proto was given (auto too): without it, a
	// job whose network plugin sets NCCL_PROTO=simple itself is taken to
	// run under it (pluginProto).
	protoGiven bool
}

// defaultTuneSizes are the sizes tune decides at without -size: powers of
// two from 1 KiB to 4 GiB.
func defaultTuneSizes() []float64 {
	var s []float64
	for b := float64(1 << 10); b <= 4<<30; b *= 2 {
		s = append(s, b)
	}
	return s
}

func parseTuneFlags(args []string) (tuneRequest, error) {
	fs := newFlags("tune")
	machine := addMachineFlags(fs)
	collectives := fs.String("collective", "allreduce", "comma-separated collectives to choose for: allreduce, allgather, reducescatter, broadcast (the others keep NCCL's own choice)")
	comms := fs.String("comms", "", "comma-separated communicators of the job, each NODESxGPUS (nodes x GPUs per node), e.g. 1x8,4x8,4x1")
	nodes := fs.String("nodes", "", "comma-separated node counts of communicators of -per-node GPUs, e.g. 1,2,4,8")
	perNode := fs.Int("per-node", 0, "GPUs per node of the -nodes communicators")
	layoutFlags := addLayoutFlags(fs)
	sizes := fs.String("size", "", "comma-separated sizes to decide at (default: powers of two from 1KiB to 4GiB)")
	out := fs.String("o", "nccl_tuner.conf", `the file to write ("-" for standard output); the default name is not replaced when it exists, unless -force`)
	force := fs.Bool("force", false, "replace the -o file when it exists, though -o was not given")
	check := fs.String("check", "", "a rules file to check, as the plugin reads it, against the communicators, instead of writing one")
	algo := fs.String("algo", "auto", "the job's NCCL_ALGO, as NCCL reads it (ring, ring,tree, ^nvls, ...): no rule names what it leaves out, which NCCL would pass over and run on one channel; the calibration runs that give no algo= of their own are taken to have set it too")
	proto := fs.String("proto", "auto", "the job's NCCL_PROTO, as NCCL reads it (simple, ^ll128, ^ll,ll128, ...): no rule names what it leaves out; the calibration runs that give no proto= of their own are taken to have set it too. Without it, simple where a log shows the OFI network plugin setting NCCL_PROTO=simple itself, else auto (NCCL's choice)")
	// The rules are the calibrated model's choices: writing them needs
	// tables, and only -check runs on NCCL's uncalibrated model of -gpu.
	fs.Lookup("calibrate").Usage = "comma-separated nccl-tests logs of the machine to calibrate on, each FILE[:KEY=VALUE...] with KEY one of " +
		keyList() + "; needed to write rules, which are the calibrated model's choices (with -check, omit it for NCCL's uncalibrated model of -gpu)"
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab tune -calibrate A.log[,...] (-comms NxG,... | -nodes LIST -per-node G) [-collective LIST] [-size LIST] [-o FILE] [-force]\n"+
			"                   [-algo LIST] [-proto LIST] [-g N] [-threads N] [-graph N] [-gpu NAME] [-hw SPEC|FILE] [-topo FILE]\n"+
			"       commlab tune -check FILE (-comms NxG,... | -nodes LIST -per-node G) (-calibrate A.log[,...] | -gpu NAME) [-algo LIST] [-proto LIST] [-hw SPEC|FILE] [-topo FILE]")
		fs.PrintDefaults()
	}
	if _, err := parseFlags(fs, args, 0); err != nil {
		return tuneRequest{}, err
	}
	layout, err := layoutFlags.layout(fs)
	if err != nil {
		return tuneRequest{}, usageErrorf(fs, "%v", err)
	}
	req := tuneRequest{machine: machine, layout: layout, out: *out, check: *check, replace: *force}
	if req.job.Algo, req.job.Proto, err = predictPins(*algo, *proto); err != nil {
		return tuneRequest{}, err
	}
	fs.Visit(func(f *flag.Flag) {
		req.replace = req.replace || f.Name == "o"
		req.protoGiven = req.protoGiven || f.Name == "proto"
	})
	if *machine.calibrate == "" && req.check == "" {
		return tuneRequest{}, usageErrorf(fs, "give -calibrate with the machine's nccl-tests logs: tune writes the calibrated model's choices")
	}
	if err := checkCount(fs, "per-node", *perNode, maxRanks, "the GPUs per node", "8"); *perNode != 0 && err != nil {
		return tuneRequest{}, err
	}
	if req.comms, err = parseComms(*comms, *nodes, *perNode); err != nil {
		return tuneRequest{}, usageErrorf(fs, "%v", err)
	}
	if len(req.comms) > maxNodeCounts {
		return tuneRequest{}, usageErrorf(fs, "%d communicators; give at most %d, such as -comms 1x8,2x8,4x8", len(req.comms), maxNodeCounts)
	}
	for _, c := range req.comms {
		if c.Nodes > maxRanks/c.PerNode {
			return tuneRequest{}, usageErrorf(fs, "%v: %d ranks is beyond the %d ranks commlab models", c, c.Nodes*c.PerNode, maxRanks)
		}
	}
	for _, c := range strings.Split(*collectives, ",") {
		col, err := commmodel.ParseCollective(strings.TrimSpace(c))
		if _, ferr := nccl.FuncOf(col); err != nil || ferr != nil {
			why := ""
			if err == nil {
				// NCCL asks a tuner plugin of collectives only
				// (ncclGetAlgoInfo, src/enqueue.cc); point-to-point sends
				// never reach it.
				why = fmt.Sprintf(" (%v runs as point-to-point sends, for which NCCL never asks a tuner plugin)", col)
			}
			return tuneRequest{}, usageErrorf(fs, "-collective %q: want allreduce, allgather, reducescatter or broadcast%s", c, why)
		}
		if slices.Contains(req.collectives, col) {
			return tuneRequest{}, usageErrorf(fs, "-collective: %v given twice", col)
		}
		req.collectives = append(req.collectives, col)
	}
	req.sizes = defaultTuneSizes()
	if *sizes != "" {
		if req.sizes, err = tuneSizes(*sizes); err != nil {
			return tuneRequest{}, usageErrorf(fs, "%v", err)
		}
	}
	return req, nil
}

// parseComms reads the job's communicators from -comms and from -nodes
// with -per-node. A communicator given twice, and one of a single rank
// (which NCCL never asks the tuner about), is an error.
func parseComms(comms, nodes string, perNode int) ([]predict.Comm, error) {
	var out []predict.Comm
	add := func(c predict.Comm, flag string) error {
		switch {
		case c.Nodes*c.PerNode == 1:
			return fmt.Errorf("%s: %v is one rank, which NCCL never asks the tuner about: leave it out", flag, c)
		case slices.Contains(out, c):
			return fmt.Errorf("%s: %v given twice", flag, c)
		}
		out = append(out, c)
		return nil
	}
	if comms != "" {
		for _, f := range strings.Split(comms, ",") {
			n, g, ok := strings.Cut(strings.TrimSpace(f), "x")
			c := predict.Comm{}
			var err1, err2 error
			c.Nodes, err1 = strconv.Atoi(n)
			c.PerNode, err2 = strconv.Atoi(g)
			if !ok || err1 != nil || err2 != nil || c.Nodes < 1 || c.PerNode < 1 {
				return nil, fmt.Errorf("-comms %q: want NODESxGPUS, nodes times GPUs per node, such as 1x8 or 4x1", f)
			}
			if err := add(c, "-comms"); err != nil {
				return nil, err
			}
		}
	}
	if nodes != "" {
		if perNode < 1 {
			return nil, fmt.Errorf("-per-node %d: want the GPUs per node of the -nodes communicators, such as 8", perNode)
		}
		for _, f := range strings.Split(nodes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return nil, fmt.Errorf("-nodes %q: want comma-separated positive node counts, such as 1,2,4", nodes)
			}
			if err := add(predict.Comm{Nodes: n, PerNode: perNode}, "-nodes"); err != nil {
				return nil, err
			}
		}
	} else if perNode != 0 {
		return nil, fmt.Errorf("-per-node without -nodes: give -nodes LIST too, or -comms NODESxGPUS")
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("give the job's communicators: -comms NODESxGPUS,... (such as 1x8,4x8), or -nodes LIST -per-node G")
	}
	return out, nil
}

// tuneSizes reads -size for tune: the sizes sorted. Each size is given
// once: a size given twice, alone or within a range, and ranges that
// overlap, are errors, as a communicator or a collective given twice is.
func tuneSizes(text string) ([]float64, error) {
	type span struct{ lo, hi int64 }
	var spans []span
	for _, f := range strings.Split(text, ",") {
		if !strings.Contains(f, "..") {
			continue
		}
		ns, err := units.ParseSizes(f)
		if err != nil {
			return nil, fmt.Errorf("-size: %w", err)
		}
		sp := span{ns[0], ns[len(ns)-1]}
		for _, o := range spans {
			if sp.lo <= o.hi && o.lo <= sp.hi {
				return nil, fmt.Errorf("-size: the ranges of %q overlap another: give each size once", strings.TrimSpace(f))
			}
		}
		spans = append(spans, sp)
	}
	// Which item of the list gave each size, to name both of a size
	// given twice.
	from := map[int64]string{}
	for _, f := range strings.Split(text, ",") {
		f = strings.TrimSpace(f)
		ns, err := units.ParseSizes(f)
		if err != nil {
			break // sizesFlag below says what is wrong with it
		}
		for _, n := range ns {
			if g, ok := from[n]; ok {
				which := fmt.Sprintf("%s and %s", g, f)
				if g == f {
					which = f + " twice"
				}
				return nil, fmt.Errorf("-size: %s is given twice (%s): give each size once", units.FormatSize(float64(n)), which)
			}
			from[n] = f
		}
	}
	sizes, err := sizesFlag(text, "1MiB..1GiB")
	if err != nil {
		return nil, err
	}
	if slices.Contains(sizes, 0) {
		return nil, flagErrorf("-size 0: a call moves at least 1 byte, such as -size 1MiB..1GiB")
	}
	slices.Sort(sizes)
	return sizes, nil
}

// runTune runs "commlab tune": it calibrates as predict does and writes, for
// every function NCCL's tuner serves on each of the job's communicators,
// rules that keep NCCL's own choice except where the model expects its
// own to be faster beyond its interval (predict.Machine.TunerRules); it
// checks them as the plugin reads them before writing. With -check it
// checks a file instead.
func runTune(args []string, stdout, stderr io.Writer) error {
	req, err := parseTuneFlags(args)
	if err != nil {
		return err
	}
	// A table without hosts takes the hosts of the job's communicator of
	// as many ranks, else of one that fits it (predict.Pins.Hosts). A file
	// checked keeps the machine it was written for: the communicators its
	// header names, not the sub-communicators checked against it (GB300's
	// tables, which print no hosts, became 32 nodes of 2 GPUs under
	// -comms 16x2).
	base := predict.Pins{Hosts: req.comms, Algo: req.job.Algo, Proto: req.job.Proto}
	// The rules file is read once, through readInput's bound: a stream
	// (-check <(cat FILE), -check -) gives its bytes once.
	var rulesFile []byte
	if req.check != "" {
		if err := req.machine.stdinOnce(nil, req.check); err != nil {
			return err
		}
		if rulesFile, err = readInput(req.check); err != nil {
			return err
		}
		if written := writtenComms(rulesFile); len(written) > 0 {
			base.Hosts = written
			base.HostsFrom = "the rules file was written for " + commsText(written)
		}
	}
	perNode := 0
	for _, c := range base.Hosts {
		perNode = max(perNode, c.PerNode)
	}
	mc, err := req.machine.load(base, perNode)
	if err != nil {
		return err
	}
	if len(mc.tables) == 0 && req.check == "" {
		writeProblems(stderr, mc.problems)
		return fmt.Errorf("-calibrate: no table of the logs is left to calibrate on: tune writes the calibrated model's choices")
	}
	writeProblems(stderr, mc.problems)
	for _, c := range req.comms {
		if err := domainHolds(&mc.hw, c.PerNode); err != nil {
			return err
		}
		if mis, ok := domainSplit(&mc.hw, c.Nodes, c.PerNode); ok {
			// The model splits a communicator into equal NVLink domains.
			return flagErrorf("communicator %v: %s", c, mis.advice(func(n int) string { return fmt.Sprintf("%dx%d", n, c.PerNode) }))
		}
	}
	rccl := predict.RanRCCL(mc.tables)
	if rccl && req.check == "" {
		// Logs that ran RCCL get no rules, whatever their GPU's name: a
		// request for the name would only lead to this.
		return errors.New(rcclNoRules)
	}
	if g, ok := gpuGuess(mc.hw.Facts(), rccl, amdCompCap(&mc.hw)); ok && g.Value == predict.UnnamedGPU {
		// Every choice of the rules would rest on a GPU assumed in
		// its place (a PCIe card, or a capture's links with an assumed
		// compute capability), as diagnose says of it.
		return flagErrorf("the logs name no GPU, and rules for a GPU assumed in its place would run a production job on its choices and links: name it with %s, as the Rank lines of nccl-tests or rccl-tests print it", g.Hint)
	} else if ok && !rccl {
		// A GPU the catalog does not hold (a driver's "NVIDIA Graphics
		// Device" on a GB200 rack) is a PCIe card too: its rules would pin
		// a PCIe card's channels, and on an NVLink domain their nNodes,
		// the hosts, match no communicator NCCL counts as one node, so
		// every call would run on one channel. AMD's GPUs get no rules
		// below.
		return flagErrorf("the logs name the GPU %q, which commlab's catalog does not hold, and rules for a PCIe card assumed in its place would run a production job on its choices and links "+
			"(and, where the hosts share an NVLink domain, count nodes NCCL counts as one, so that no rule matches): name it with -gpu NAME, or describe it with %s (and domain=N, its GPUs, where hosts share an NVLink domain)", g.Value, g.Hint)
	}
	plugin := pluginProto(mc.tables, &req)
	if plugin != "" {
		fmt.Fprintf(stderr, "commlab tune: %s\n", plugin)
	}
	m := predict.Uncalibrated(mc.hw)
	if len(mc.tables) > 0 {
		if m, err = predict.Calibrate(mc.hw, mc.tables, nil); err != nil {
			return err
		}
	}
	m = m.ForJob(req.job)
	if m.RunsRCCL() && req.check == "" {
		// RCCL runs a plugin's channel count as given (src/enqueue.cc,
		// getTunerInfo: "We only honor nChannels decision when user sets
		// the nChannels by tuner plugin"), and its own counts and choices
		// are not NCCL's: rules of NCCL's model would pin both.
		return errors.New(rcclNoRules)
	}
	// What predict says of the calibration (a version assumed, a parameter
	// the tables leave to its prior), tune says too.
	var notes []problem
	for _, n := range m.Notes {
		notes = append(notes, problem{Message: n})
	}
	writeProblems(stderr, notes)
	// The newest release the tables ran, as they printed it (the model
	// may follow a nearer tuner, versionOf).
	var ran nccl.Version
	for _, t := range mc.tables {
		if ran.Before(t.Version) {
			ran = t.Version
		}
	}
	switch {
	case ran != (nccl.Version{}) && m.RunsRCCL():
		// RCCL's releases follow NCCL's numbers, but the example plugin's
		// release is NCCL's: the tables' RCCL is not the NCCL it names.
		fmt.Fprintf(stderr, "commlab tune: the tables ran RCCL %v, not NCCL: the release the example tuner plugin needs (NCCL %v or later, docs/tune.md) "+
			"is NCCL's, and this check does not say whether RCCL %v loads the plugin (RCCL's NCCL_DEBUG=INFO lines name the tuner plugin it loads)\n",
			ran, nccl.TunerPluginFrom, ran)
	case ran != (nccl.Version{}) && ran.Before(nccl.TunerPluginFrom):
		fmt.Fprintf(stderr, "commlab tune: the tables ran NCCL %v, and the example tuner plugin needs NCCL %v or later: "+
			"the plugin of NCCL 2.27.5 to 2.29.7 crashes on the first call a rule matches (NVIDIA/nccl#1974) unless patched (docs/tune.md)\n",
			ran, nccl.TunerPluginFrom)
	}
	comms, err := m.TunerComms(req.comms)
	if err != nil {
		return err
	}
	// The rules of the communicators as NCCL may count them otherwise,
	// without MNNVL or placed across more NVLink domains (TunerPlan
	// writes them), are checked on those, in the file tune writes and in
	// one it checks.
	flats, across, err := m.Recounted(req.comms)
	if err != nil {
		return err
	}
	own := slices.Concat(comms, flats)
	all := slices.Concat(own, slices.Concat(across...))
	if req.check != "" {
		err := checkTuneFile(req.check, rulesFile, own, placedOf(req.comms, across), m.RunsRCCL(), stdout)
		// What the rules cost the placements, as tune says of its own.
		if rules, rerr := nccl.ReadTunerRules(bytes.NewReader(rulesFile), req.check); rerr == nil {
			if w, ok, perr := m.PlacedWorst(req.comms, rules); perr == nil && ok {
				fmt.Fprintf(stdout, "%s: %s\n", req.check, placedLine(w, false))
			}
			if w, oerr := m.OwnWorst(req.comms, rules); oerr == nil && w.Ratio > 1+1e-9 {
				fmt.Fprintf(stdout, "%s: %s\n", req.check, ownLine(w))
			}
			// Only the rules the job's communicators reach, by nNodes
			// and nRanks: a file for another job pins no FP8 call of
			// this one.
			if line := fp8Line(nccl.FP8RingPins(rules, own)); line != "" {
				fmt.Fprintf(stdout, "%s: %s\n", req.check, line)
			}
		}
		line, fail, rerr := releaseCheck(m, req.comms, rulesFile, ran)
		if rerr != nil {
			return rerr
		}
		if line != "" {
			fmt.Fprintf(stdout, "%s: %s\n", req.check, line)
		}
		if fail != nil && err == nil {
			err = fmt.Errorf("%s: %w", req.check, fail)
		}
		return err
	}
	rules, choices, err := m.TunerPlan(req.collectives, req.comms, req.layout, req.sizes)
	if err != nil {
		return err
	}
	pinned := pinnedTablesLine(mc.tables, req.job)
	if pinned != "" {
		fmt.Fprintf(stderr, "commlab tune: %s\n", pinned)
	}
	some := someTablesSetLine(mc.tables, req.job)
	if some != "" {
		fmt.Fprintf(stderr, "commlab tune: %s\n", some)
	}
	writeWithheld(stderr, choices, mc.hw, req)
	assumed, err := m.AssumedWorst(req.comms, rules)
	if err != nil {
		return err
	}
	var assumedLines []string
	if line := assumedLine(assumed); line != "" {
		fmt.Fprintf(stderr, "commlab tune: %s\n", line)
		assumedLines = append(assumedLines, line)
	}
	if err := writeBeyond(stderr, m, req); err != nil {
		return err
	}
	release, err := releaseNote(mc.hw, mc.tables, ran, m, req, rules)
	if err != nil {
		return err
	}
	if release != "" {
		fmt.Fprintf(stderr, "commlab tune: %s\n", release)
	}
	var b bytes.Buffer
	comment := append(tuneComment(mc.files, mc.hw, m, req, choices, len(rules), pinned != ""), assumedLines...)
	if pinned != "" {
		comment = append(comment, pinned)
	}
	if plugin != "" {
		comment = append(comment, plugin)
	}
	if some != "" {
		comment = append(comment, some)
	}
	if release != "" {
		comment = append(comment, release)
	}
	if w, ok, err := m.PlacedWorst(req.comms, rules); err != nil {
		return err
	} else if ok {
		line := placedLine(w, true)
		fmt.Fprintf(stderr, "commlab tune: %s\n", line)
		comment = append(comment, line)
	}
	if line := ll128Fallbacks(m, rules); line != "" {
		comment = append(comment, line)
	}
	if line := noP2PFallbacks(rules); line != "" {
		comment = append(comment, line)
	}
	if line := fp8Line(nccl.FP8RingPins(rules, own)); line != "" {
		fmt.Fprintf(stderr, "commlab tune: %s\n", line)
		comment = append(comment, line)
	}
	if err := nccl.WriteTunerRules(&b, comment, rules); err != nil {
		return err
	}
	probs, err := nccl.CheckTunerRules(bytes.NewReader(b.Bytes()), req.out, all)
	if err != nil {
		return err
	}
	if n := writeTunerProblems(stderr, req.out, probs); n > 0 {
		return fmt.Errorf("the rules fail the plugin's reading in %s (above); nothing written", words.Count(n, "place", "places"))
	}
	// The last line of standard error counts the rules wherever they go:
	// on standard output it stays apart from the file.
	where := req.out
	if req.out == "-" {
		where = "standard output"
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return err
		}
	} else {
		err = writeOutput(req.out, req.machine.inputs(), req.replace, func(tmp string) error {
			return os.WriteFile(tmp, b.Bytes(), 0o644)
		})
		if err != nil {
			return fmt.Errorf("-o: %w", err)
		}
	}
	fmt.Fprintf(stderr, "commlab tune: %s written to %s; %s\n", words.Count(len(rules), "rule", "rules"), where, takenNote(choices))
	return nil
}

// takenNote says, after the count of rules written, whether any of them
// changes what NCCL runs: a reader of the count alone takes a file that
// keeps NCCL's own choice everywhere for a tuned job.
func takenNote(choices []predict.TunerChoice) string {
	taken := 0
	for _, ch := range choices {
		if !ch.Withheld() {
			taken++
		}
	}
	if taken == 0 {
		return "each keeps NCCL's own algorithm, protocol and channels, and none takes the model's choice (the file's header says why)"
	}
	return fmt.Sprintf("the model's choice replaces NCCL's own over %s of sizes, which the file's header lists; the other rules keep NCCL's own", words.Count(taken, "range", "ranges"))
}

// pluginLoads is the first NCCL release that loads the tuner API of the
// example plugin of TunerPluginFrom (v5, which it exports beside v6): a
// job that loads that plugin runs 2.28 or later, whatever release its
// tables ran. v4Loads is the first that loads API v4, which the example of
// NCCL 2.27.5 to 2.27.7, the only other that reads the file, exports:
// NCCL 2.24 to 2.27 load that one alone (src/plugin/tuner/ per tag), and
// earlier releases none that reads the file.
var (
	pluginLoads = nccl.Version{Major: 2, Minor: 28}
	v4Loads     = nccl.Version{Major: 2, Minor: 24, Patch: 3}
)

// pluginReleases are the releases from pluginLoads on whose tuning models
// the rules may be built: the first and last tags of each series (NCCL's
// own choices move within a series: 2.28.3's and 2.28.7's are not
// 2.28.9's), and Latest.
var pluginReleases = []nccl.Version{
	{Major: 2, Minor: 28, Patch: 3}, {Major: 2, Minor: 28, Patch: 9}, {Major: 2, Minor: 29, Patch: 2},
	{Major: 2, Minor: 29, Patch: 7}, {Major: 2, Minor: 30, Patch: 3}, nccl.Latest,
}

// releaseNote says where the rules that keep NCCL's own choice may not be
// the job's NCCL's own: the tables ran a release older than any that loads
// the plugin (ran), whose choices the rules then keep, or some table's log
// prints no release, which the model takes as Latest's, and the rules built
// with the tables taken as another release that loads the plugin
// (pluginReleases) differ from rules, the file's. "" where neither holds.
func releaseNote(hw predict.Hardware, tables []predict.Table, ran nccl.Version, m *predict.Machine, req tuneRequest, rules []nccl.TunerRule) (string, error) {
	if m.RunsRCCL() {
		return "", nil
	}
	if ran != (nccl.Version{}) && ran.Before(pluginLoads) {
		whose := "the tables' release"
		if m.Version() != ran {
			whose = "the model's nearest to the tables' NCCL " + ran.String()
		}
		which := fmt.Sprintf("NCCL %v loads no example plugin that reads the file", ran)
		if !ran.Before(v4Loads) {
			which = fmt.Sprintf("NCCL %v loads only the example of NCCL 2.27.5 to 2.27.7, tuner API v4, patched as the header says", ran)
		}
		return fmt.Sprintf("the rules keep NCCL %v's own choices, %s, but a job that loads the plugin of NCCL %v runs NCCL %d.%d or later (%s), whose own choices differ in places: "+
			"calibrate on tables the job's NCCL ran before shipping the file", m.Version(), whose, nccl.TunerPluginFrom, pluginLoads.Major, pluginLoads.Minor, which), nil
	}
	unknown := false
	for _, t := range tables {
		unknown = unknown || t.Version == (nccl.Version{})
	}
	if !unknown {
		return "", nil
	}
	var differ []string
	first := ""
	for _, v := range pluginReleases {
		if v == m.Version() {
			continue
		}
		as := slices.Clone(tables)
		for i := range as {
			if as[i].Version == (nccl.Version{}) {
				as[i].Version = v
			}
		}
		mv, err := predict.Calibrate(hw, as, nil)
		if err != nil {
			return "", err
		}
		other, _, err := mv.ForJob(req.job).TunerPlan(req.collectives, req.comms, req.layout, req.sizes)
		if err != nil {
			return "", err
		}
		if slices.Equal(other, rules) {
			continue
		}
		d := firstDifference(rules, other, v)
		if d == "" {
			continue // the same choices, at sizes bounded otherwise
		}
		differ = append(differ, v.String())
		if first == "" {
			first = d
		}
	}
	if len(differ) == 0 {
		return "", nil
	}
	return fmt.Sprintf("the logs print no NCCL release, and the rules keep NCCL %v's own choices, which the model assumes; with the tables taken as NCCL %s's, which load the plugin too, the rules choose otherwise (first: %s): "+
		"give each calibration file the job's release, FILE:version=V (NCCL_DEBUG=VERSION prints it), before shipping the file",
		m.Version(), strings.Join(differ, " or "), first), nil
}

// firstDifference names the first call, by function, communicator and
// size, whose first matching rule (the one the plugin applies where NCCL
// keeps its choice in the cost table) names another algorithm or protocol
// in ours than in theirs, release v's: "AllReduce of nNodes
// 2, nRanks 16 at 484138 B: tree/ll128 here, nvls_tree/simple with
// 2.28.3"; "" where none does. The
// sizes tried are both files' rules' bounds, where a first match can
// change, so the size named is the smallest that differs.
func firstDifference(ours, theirs []nccl.TunerRule, v nccl.Version) string {
	type call struct {
		f            nccl.Func
		nodes, ranks int
	}
	var calls []call
	bounds := map[call][]uint64{}
	for _, r := range slices.Concat(ours, theirs) {
		c := call{r.Func, r.Nodes, r.Ranks}
		if _, ok := bounds[c]; !ok {
			calls = append(calls, c)
		}
		bounds[c] = append(bounds[c], r.MinBytes, min(r.MaxBytes, 1<<50))
	}
	for _, c := range calls {
		sizes := bounds[c]
		slices.Sort(sizes)
		for _, n := range slices.Compact(sizes) {
			a, aok := nccl.FirstMatch(ours, c.f, float64(n), c.nodes, c.ranks, -1, -1)
			b, bok := nccl.FirstMatch(theirs, c.f, float64(n), c.nodes, c.ranks, -1, -1)
			if aok == bok && (!aok || ruleChoice(a) == ruleChoice(b)) {
				continue
			}
			what := fmt.Sprintf("%s of nNodes %d, nRanks %d at %d B: ", c.f, c.nodes, c.ranks, n)
			switch {
			case !aok:
				return what + "no rule here, " + ruleChoice(b) + " with " + v.String()
			case !bok:
				return what + ruleChoice(a) + " here, no rule with " + v.String()
			}
			return what + ruleChoice(a) + " here, " + ruleChoice(b) + " with " + v.String()
		}
	}
	return ""
}

// ruleChoice is a rule's algorithm and protocol as the file spells them:
// "tree/ll128" (tune's rules leave the channels to NCCL).
func ruleChoice(r nccl.TunerRule) string {
	f := strings.Split(r.String(), ",")
	return f[3] + "/" + f[4]
}

// ll128Fallbacks says, where the NICs' PCIe path is assumed and rules
// across nodes name LL128, that each is followed by rules for its sizes
// with NCCL's own choice on hosts whose NICs sit behind the CPU, where NCCL
// runs no LL128 across nodes and the plugin passes over the LL128 rule
// (predict.Machine.TunerPlan writes them); "" where no rule has them.
func ll128Fallbacks(m *predict.Machine, rules []nccl.TunerRule) string {
	n := ll128Followed(rules, func(r nccl.TunerRule) bool { return r.Nodes > 1 })
	path := ""
	for _, f := range m.Facts() {
		if f.Name == "nic_path" && f.Guessed() {
			path = f.Value
		}
	}
	if n == 0 || path == "" {
		return ""
	}
	return fmt.Sprintf("nic_path %s is assumed: on hosts whose NICs sit behind the CPU (commlab topo of the hosts' nvidia-smi topo -m shows nic_path PHB or SYS) "+
		"NCCL runs no LL128 across nodes, so each of the %s across nodes that name LL128 is followed by rules for its sizes with NCCL's own choice there, "+
		"which the plugin takes only on such hosts; -hw %s or -topo FILE settles it", path, words.Count(n, "rule", "rules"), predict.Fact{Key: "nic-path"}.Hint())
}

// ll128Followed counts the rules of rules that name LL128, of those keep
// takes, that rules for their sizes follow (nccl.FallbackOf).
func ll128Followed(rules []nccl.TunerRule, keep func(nccl.TunerRule) bool) int {
	n := 0
	for i, of := range nccl.FallbackOf(rules) {
		if of >= 0 && i == of+1 && rules[of].Proto == nccl.LL128 && keep(rules[of]) {
			n++
		}
	}
	return n
}

// noP2PFallbacks says, where rules of communicators of several GPUs a node
// name LL128 and are followed by fallbacks, that those serve a job without
// P2P between a node's GPUs (predict's Hardware.noP2P, or across nodes the
// NICs behind the CPU, whose rules name no LL128 either): NCCL runs no
// LL128 there, and the plugin would otherwise run those calls on one
// channel. "" where no such rule is.
func noP2PFallbacks(rules []nccl.TunerRule) string {
	n := ll128Followed(rules, func(r nccl.TunerRule) bool { return r.Nodes < 1 || r.Ranks > r.Nodes })
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("NCCL runs no LL128 between a node's GPUs without P2P between them, which the job decides (NCCL_P2P_DISABLE=1, an NCCL_P2P_LEVEL below their path, or GPUs in containers of their own): "+
		"each of the %s that name LL128 is followed by rules for its sizes that name none (NCCL's own choice with the GPUs joined through PCIe, or, across nodes where the NICs' path is assumed, behind the CPU), "+
		"which the plugin takes only in such a job; tune -check FILE ... -hw fabric=pcie checks the file for it", words.Count(n, "rule", "rules"))
}

// headerReleaseText is how tuneComment names the release whose tuning
// model the rules keep.
var headerReleaseText = regexp.MustCompile(`\(NCCL (\d+\.\d+\.\d+)'s tuning model\)`)

// headerRelease returns the NCCL release a rules file's header says its
// rules keep the own choices of (tuneComment), as the header writes it;
// ok is false for a file without such a header, one written by hand. err
// is set where the header names one that is no NCCL release (3.0.0).
func headerRelease(file []byte) (v nccl.Version, text string, ok bool, err error) {
	for _, line := range strings.Split(string(file), "\n") {
		if !strings.HasPrefix(line, "#") {
			break // the header is the file's first comment lines
		}
		if m := headerReleaseText.FindStringSubmatch(line); m != nil {
			v, err := nccl.ParseVersion(m[1])
			return v, m[1], true, err
		}
	}
	return nccl.Version{}, "", false, nil
}

// releaseCheck compares the release a rules file's header says its rules
// keep the own choices of with m's (the release of the tables given, ran
// as they print it, or a nearer tuner, Machine.Version): it rebuilds NCCL's
// own choices at the header's release and asks where the file's rules
// that keep them move a call of comms off m's own choice
// (predict.Machine.ReleaseWorst). fail says so where they do, and line
// names the worst call; where the releases differ and choose alike for
// comms, the line is a note and fail nil. "" where the header names no release, it names m's, the
// tables print none, or they ran RCCL (whose releases follow NCCL's
// numbers but not its tuning; tune writes no rules for it).
func releaseCheck(m *predict.Machine, comms []predict.Comm, file []byte, ran nccl.Version) (line string, fail, err error) {
	written, text, ok, bad := headerRelease(file)
	switch {
	case !ok || ran == (nccl.Version{}) || m.RunsRCCL():
		return "", nil, nil
	case bad != nil:
		// Not tune's header: edited, or another tool's.
		return fmt.Sprintf("the header names NCCL %s's tuning model, which is no NCCL release: the rules' release is not checked", text), nil, nil
	}
	line, fail, err = releaseDiff(m, comms, file, ran, written)
	if near := predict.FollowedRelease(written); line != "" && near != written {
		line += fmt.Sprintf(" (the model follows no NCCL %v, and takes the header's release as NCCL %v's, the nearest it follows)", written, near)
	}
	return line, fail, err
}

// releaseDiff is releaseCheck's comparison of the header's release,
// written, with m's.
func releaseDiff(m *predict.Machine, comms []predict.Comm, file []byte, ran, written nccl.Version) (line string, fail, err error) {
	if written == m.Version() {
		return "", nil, nil
	}
	rules, err := nccl.ReadTunerRules(bytes.NewReader(file), "")
	if err != nil {
		return "", nil, nil // the check reports what the plugin misreads
	}
	tables := fmt.Sprintf("the tables given ran NCCL %v", ran)
	if ran != m.Version() {
		tables += fmt.Sprintf(", whose tuning model is %v's", m.Version())
	}
	w, err := m.ReleaseWorst(written, comms, rules)
	if err != nil {
		return "", nil, err
	}
	if w.Ratio <= 1+1e-9 {
		return fmt.Sprintf("the rules keep NCCL %v's own choices (its header), and %s: the two releases choose alike for these communicators by NCCL's model, so the rules keep this release's own choices too", written, tables), nil, nil
	}
	call := fmt.Sprintf("%v of %s on %v", w.Func, units.FormatSize(w.Size), w.Comm)
	if w.LeftOut {
		call += ", a call NCCL leaves NVLS, PAT and CollNet out of"
	}
	if w.Ratio <= 1+predict.GuessMoves {
		// Where the two releases switch algorithm at nearby sizes, the
		// choices there cost nearly alike by NCCL's model (a switch is
		// where they tie): no call moves far.
		return fmt.Sprintf("the rules keep NCCL %v's own choices (its header), and %s, which chooses otherwise at some sizes, at worst %.2fx its own choice's time by NCCL's model (%s), within %.0f%%",
			written, tables, w.Ratio, call, 100*predict.GuessMoves), nil, nil
	}
	line = fmt.Sprintf("the rules keep NCCL %[1]v's own choices (its header), and %[2]s, which chooses otherwise for these communicators: the rules that keep %[1]v's move calls off this release's own choice, at worst %.2[3]fx its time by NCCL's model (%[4]s); write the file again from tables of the job's release",
		written, tables, w.Ratio, call)
	return line, fmt.Errorf("written for NCCL %v's own choices, which NCCL %v's differ from on these communicators: a job of %[2]v runs otherwise than its own choice there", written, m.Version()), nil
}

// fp8Line names, by function and communicator, the rules that make NCCL
// run Ring for an FP8 reduction it runs otherwise (nccl.FP8RingPins: the
// rule an FP8 call reaches, where NCCL's cost table holds another
// algorithm for it, under the job's NCCL_ALGO and NCCL_PROTO), and says
// what that does; "" where there are none. They stay in the file: the
// plugin runs a call no rule takes on one channel, and the rule that keeps
// NCCL's choice for every other datatype is Ring, so leaving them out
// would slow every such call, and a rule for Tree would change them all;
// the plugin cannot tell the two apart (docs/tune.md, FP8 reductions).
func fp8Line(pins []nccl.FP8Pin) string {
	var seen []nccl.FP8Pin
	n := 0
	var each []string
	for _, p := range pins {
		if slices.ContainsFunc(seen, func(o nccl.FP8Pin) bool { return o.Func == p.Func && o.Nodes == p.Nodes && o.Ranks == p.Ranks }) {
			continue // a communicator counted twice (with and without MNNVL) has the same rules
		}
		seen = append(seen, p)
		n += p.Rules
		span := fmt.Sprintf("%d to %d B", p.MinBytes, p.MaxBytes)
		if p.MaxBytes == math.MaxUint64 {
			span = fmt.Sprintf("from %d B", p.MinBytes)
		}
		each = append(each, fmt.Sprintf("%s on nNodes %d, nRanks %d (%s, %s)", strings.ToLower(p.Func.String()), p.Nodes, p.Ranks, words.Count(p.Rules, "rule", "rules"), span))
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("FP8: NCCL runs an FP8 reduction (ncclFloat8e4m3, ncclFloat8e5m2) on more than %d ranks on any algorithm it has but Ring (AllReduce on Tree; ReduceScatter on PAT where it runs, one GPU a node), from sm90 on, as Ring's long reduction chain loses precision (src/enqueue.cc, NCCL 2.24 and later); "+
		"the plugin is not told the datatype and sets Ring's cost to 0, so %s that an FP8 call reaches pin Ring for it: %s. "+
		"A job that reduces FP8 data on these communicators should not load this file: the rules cannot keep both its FP8 and its other calls on NCCL's own choice (docs/tune.md)",
		nccl.FP8Ranks, words.Count(n, "rule", "rules"), strings.Join(each, "; "))
}

// pluginProto takes the job to run under NCCL_PROTO=simple where a
// calibration table's log shows the OFI network plugin setting it itself
// (predict.PluginSimpleOf: aws-ofi-nccl does so in every job on hosts
// whose transport lacks GPUDirect RDMA, "NET/OFI Adding NCCL_PROTO=simple
// to environment") and -proto is not given: under it NCCL leaves LL and
// LL128 out of its cost table, and the plugin would pass over rules naming
// them and run their calls on one channel. It returns the line that says
// so, "" where it changes nothing.
func pluginProto(tables []predict.Table, req *tuneRequest) string {
	why := predict.PluginSimpleOf(tables)
	if why == "" || req.protoGiven && req.job.Proto != "" {
		return ""
	}
	set := fmt.Sprintf("the OFI network plugin set NCCL_PROTO=simple itself in %s, as it does in every job that leaves NCCL_PROTO unset on hosts that lack what it names: ", why)
	if req.protoGiven {
		// -proto auto: the user's word that the job's hosts differ.
		return set + "with -proto auto the rules are for hosts where it does not, and on these logs' hosts NCCL would leave out LL and LL128, and the plugin would run the calls of rules naming them on one channel"
	}
	req.job.Proto = "simple"
	what := "the rules are for a job under it, as -proto simple writes them"
	if req.check != "" {
		what = "the file is checked for a job under it, as -proto simple checks it"
	}
	return set + what + " (NCCL leaves LL and LL128 out, and the plugin would pass over rules naming them and run their calls on one channel); " +
		"give -proto auto for a job whose hosts have it, which leaves the protocols to NCCL"
}

// pinnedTablesLine says where every calibration table ran one algorithm or
// protocol set (predict.TablesEnv: NCCL_PROTO=Simple, not an exclusion)
// and the job's setting of it is not given: the rules are for a job that
// leaves it to NCCL, and under the tables' setting NCCL would leave the
// rest out of its cost table, pass over their rules and run those calls on
// one channel. "" otherwise.
func pinnedTablesLine(tables []predict.Table, job predict.Env) string {
	e := predict.TablesEnv(tables)
	var set, flags []string
	for _, p := range []struct{ name, flag, tables, job string }{{"NCCL_ALGO", "-algo", e.Algo, job.Algo}, {"NCCL_PROTO", "-proto", e.Proto, job.Proto}} {
		if p.tables != "" && !strings.HasPrefix(p.tables, "^") && p.job == "" {
			set = append(set, p.name+"="+p.tables)
			flags = append(flags, p.flag+" "+strings.ToLower(p.tables))
		}
	}
	if len(set) == 0 {
		return ""
	}
	return fmt.Sprintf("every calibration table ran with %s, and the rules are for a job that leaves %s to NCCL: a job that sets %s (as GKE's GPUDirect-TCPX environment sets NCCL_ALGO=Ring and NCCL_PROTO=Simple) leaves every other choice out of NCCL's cost table, "+
		"where the plugin passes over its rules and runs their calls on one channel; give %s to write the rules for such a job", words.And(set), map[bool]string{true: "it", false: "them"}[len(set) == 1], map[bool]string{true: "it", false: "them"}[len(set) == 1], words.And(flags))
}

// someTablesSetLine says where the logs of some calibration tables, not
// all (pinnedTablesLine and the header's exclusions say what all share),
// show that their job set NCCL_ALGO or NCCL_PROTO ("NCCL_PROTO set by
// environment to Simple"), the table keeps it (no FILE:algo= or proto=
// replaced it), and the job's setting of it is not given: a job that keeps
// it leaves what it does not allow out of NCCL's cost table, where the
// plugin passes over the rules naming it and runs their calls on one
// channel. "" otherwise.
func someTablesSetLine(tables []predict.Table, job predict.Env) string {
	every := predict.TablesEnv(tables)
	var said, names, flags []string
	for _, p := range []struct {
		name, flag, job, every string
		of                     func(t *predict.Table) (nccltests.Fact[string], string)
	}{
		{"NCCL_ALGO", "-algo", job.Algo, every.Algo, func(t *predict.Table) (nccltests.Fact[string], string) { return t.Evidence.Algo, t.Algo }},
		{"NCCL_PROTO", "-proto", job.Proto, every.Proto, func(t *predict.Table) (nccltests.Fact[string], string) { return t.Evidence.Proto, t.Proto }},
	} {
		if p.job != "" || p.every != "" {
			continue
		}
		var values []string
		for i := range tables {
			f, kept := p.of(&tables[i])
			if !f.Known() || !strings.EqualFold(kept, f.Value) {
				continue
			}
			said = append(said, fmt.Sprintf("%s=%s (%s, line %d)", p.name, f.Value, tables[i].Name, f.Line))
			if !slices.Contains(names, p.name) {
				names = append(names, p.name)
			}
			if !slices.ContainsFunc(values, func(v string) bool { return strings.EqualFold(v, f.Value) }) {
				values = append(values, f.Value)
				flags = append(flags, p.flag+" "+strings.ToLower(f.Value))
			}
		}
	}
	if len(said) == 0 {
		return ""
	}
	return fmt.Sprintf("the logs show jobs that set %s, and the rules are for a job that leaves %s to NCCL: a job that keeps such a setting leaves what it does not allow out of NCCL's cost table, "+
		"where the plugin passes over the rules naming it and runs their calls on one channel; give the job's setting (%s) to write the rules for it, and tune -check the file with it",
		words.And(said), words.And(names), strings.Join(flags, " or "))
}

// envText names what e sets: "NCCL_ALGO=Ring and NCCL_PROTO=Simple".
func envText(e predict.Env) string {
	var set []string
	if e.Algo != "" {
		set = append(set, "NCCL_ALGO="+e.Algo)
	}
	if e.Proto != "" {
		set = append(set, "NCCL_PROTO="+e.Proto)
	}
	return words.And(set)
}

// assumedLine says what the rules that keep NCCL's own choices cost where
// an assumed fact takes its other value, by NCCL's model
// (predict.Machine.AssumedWorst): each such value under which they cost
// more than predict.GuessMoves, and the one -hw setting that settles
// them all; "" where none does.
func assumedLine(costs []predict.AssumedCost) string {
	var facts []predict.Fact
	var with []string
	for _, a := range costs {
		w := a.Worst
		if w.Ratio <= 1+predict.GuessMoves || len(a.Facts) == 0 {
			continue
		}
		var tried []string
		for i, f := range a.Facts {
			if !slices.ContainsFunc(facts, func(g predict.Fact) bool { return g.Key == f.Key }) {
				facts = append(facts, f)
			}
			tried = append(tried, f.Name+" "+a.Tried[i])
		}
		call := fmt.Sprintf("%v of %s on %v", w.Func, units.FormatSize(w.Size), w.Comm)
		if w.LeftOut {
			call += ", a call NCCL leaves NVLS, PAT and CollNet out of"
		}
		with = append(with, fmt.Sprintf("with %s, %.2fx (%s)", words.And(tried), w.Ratio, call))
	}
	if len(with) == 0 {
		return ""
	}
	return fmt.Sprintf("the rules keep NCCL's own choices as NCCL's tuning makes them with %s; NCCL reads %s, and where %s otherwise, "+
		"the rules take up to this much of the time of NCCL's own choice there by its model: %s. Settle %s with -hw %s",
		assumedText(facts), pronoun(len(facts)), map[bool]string{true: "it is", false: "they are"}[len(facts) == 1], strings.Join(with, "; "), pronoun(len(facts)), hwSetting(facts))
}

// ownLine says what a file's rules cost against NCCL's own choices on the
// machine described, at worst (predict.Machine.OwnWorst), where some rule
// is not NCCL's own there.
func ownLine(w predict.PlacedCost) string {
	call := fmt.Sprintf("%v of %s on %v", w.Func, units.FormatSize(w.Size), w.Comm)
	if w.LeftOut {
		call += ", a call NCCL leaves NVLS, PAT and CollNet out of"
	}
	return fmt.Sprintf("on the machine described, the rules take at worst %.2fx the time of NCCL's own choice, by NCCL's model (%s): "+
		"a rule of the model's choice takes another by design (the file's header names them); other rules were written for a machine described otherwise (its CPU, fabric or NICs), whose NCCL chooses otherwise",
		w.Ratio, call)
}

// placedLine says what rules cost a communicator placed across more
// NVLink domains than it needs, at worst (predict.Machine.PlacedWorst):
// tune's own (written), or a file's that tune -check reads.
func placedLine(w predict.PlacedCost, written bool) string {
	what := "a communicator placed across more NVLink domains than it needs (a rack's edge, a fragmented allocation) is more nodes to NCCL, and takes the rules of that count, of nNodes -1, or of another communicator NCCL counts alike"
	if written {
		what = "a communicator placed across more NVLink domains than it needs (a rack's edge, a fragmented allocation) is more nodes to NCCL, and takes the rules of nNodes -1 for its nRanks (last in the file, each NCCL's own choice on some count of nodes, the least slower on the others) or of another communicator NCCL counts alike"
	}
	call := fmt.Sprintf("%v of %s on %v across %d domains", w.Func, units.FormatSize(w.Size), w.Comm, w.Nodes)
	if w.LeftOut {
		call += ", a call NCCL leaves NVLS, PAT and CollNet out of, such as an ncclAvg of floats"
	}
	if w.Ratio <= 1+1e-9 {
		return what + ": at every count of nodes checked, each rule it takes is NCCL's own choice there, by NCCL's model"
	}
	return fmt.Sprintf("%s: at worst %.2fx NCCL's own choice's time by NCCL's model (%s)", what, w.Ratio, call)
}

// rcclNoRules is why tune writes no rules for a machine that runs RCCL.
const rcclNoRules = "the GPUs are AMD's, and RCCL runs the job: RCCL runs each call a rule takes on the rule's algorithm and protocol " +
	"(and on its channel count, but 0), and the rules would carry NCCL's model's choices, not RCCL's (" + rcclOwnChoices + "): " +
	"tune writes no rules for RCCL; predict and diagnose model the machine, and tune -check reads a rules file you wrote"

// rcclOwnChoices is what makes RCCL's choices of algorithm, protocol and
// channels other than NCCL's tuning model's, which commlab models.
const rcclOwnChoices = "RCCL picks protocols by tables of its own, and channel counts of its own: RCCL 2.26.6, for one, runs 112 channels on one node of 8 MI350-series GPUs, its release notes say"

// rcclChoicesNote says, for a machine that runs RCCL, that what the output
// names as run (cols, the subject and verb of the sentence) is NCCL's
// tuning model's choice, not RCCL's.
func rcclChoicesNote(cols string) string {
	return "the machine runs RCCL: " + cols + " NCCL's tuning model's choices, by which the model times each call, not RCCL's (" + rcclOwnChoices + ")"
}

// A placed is a communicator of the job placed across more NVLink domains
// than it needs, at each count of nodes the check takes
// (predict.Machine.Recounted).
type placed struct {
	comm   predict.Comm
	counts []nccl.TunerComm
}

// placedOf pairs comms with their placements, leaving out those with none.
func placedOf(comms []predict.Comm, across [][]nccl.TunerComm) []placed {
	var out []placed
	for i, c := range comms {
		if len(across[i]) > 0 {
			out = append(out, placed{c, across[i]})
		}
	}
	return out
}

// checkTuneFile runs "commlab tune -check FILE": it writes each problem
// of the file path, read as b (nccl.CheckTunerRules), on stdout, and fails
// when one changes what the job runs. comms are the job's communicators as
// NCCL counts them where it runs them as tune assumes (and without MNNVL),
// and across the same placed across more NVLink domains than they need:
// the calls of those are checked too, one line for each communicator with
// problems at some count, which names the first, so that a file written
// without their rules does not print a line for every count. Under RCCL
// (rccl), which runs a rule's channel count as written, a first line says
// that the channels the check knows are NCCL's.
func checkTuneFile(path string, b []byte, comms []nccl.TunerComm, across []placed, rccl bool, stdout io.Writer) error {
	all := slices.Clone(comms)
	for _, p := range across {
		all = append(all, p.counts...)
	}
	// What a rule is (its line, its reading, whether any call takes it)
	// every count says; what the job's calls meet, its own counts, and
	// each placed communicator's apart.
	ruleOnly := func(h nccl.TunerHazard) bool {
		switch h {
		case nccl.HazardLongLine, nccl.HazardMisread, nccl.HazardDead, nccl.HazardShadowed, nccl.HazardUnused:
			return true
		}
		return false
	}
	check := func(cs []nccl.TunerComm, keep func(nccl.TunerProblem) bool) ([]nccl.TunerProblem, error) {
		ps, err := nccl.CheckTunerRules(bytes.NewReader(b), path, cs)
		return slices.DeleteFunc(ps, func(p nccl.TunerProblem) bool { return !keep(p) }), err
	}
	probs, err := check(all, func(p nccl.TunerProblem) bool { return ruleOnly(p.Hazard) })
	if err != nil {
		return err
	}
	calls, err := check(comms, func(p nccl.TunerProblem) bool { return !ruleOnly(p.Hazard) })
	if err != nil {
		return err
	}
	probs = append(probs, calls...)
	slices.SortStableFunc(probs, func(a, b nccl.TunerProblem) int {
		if a.Line == 0 || b.Line == 0 {
			return b.Line - a.Line // calls no line covers last
		}
		return a.Line - b.Line
	})
	var placedProbs []string
	for _, p := range across {
		ps, err := check(p.counts, func(p nccl.TunerProblem) bool { return !ruleOnly(p.Hazard) && p.Fails() })
		if err != nil {
			return err
		}
		if len(ps) > 0 {
			placedProbs = append(placedProbs, fmt.Sprintf("%v placed across more NVLink domains than it needs: %s at the %s checked; the first: %s: %s",
				p.comm, words.Count(len(ps), "problem", "problems"), words.Count(len(p.counts), "count of nodes", "counts of nodes"), ps[0].Hazard, ps[0].Message))
		}
	}
	if rccl {
		fmt.Fprintf(stdout, "%s: the GPUs are AMD's: RCCL runs each call a rule takes on the rule's channel count but 0 (which leaves it to RCCL), and this check does not judge a count against RCCL's own (its NCCL_DEBUG=INFO lines print them)\n", path)
	}
	n := writeTunerProblems(stdout, path, probs)
	for _, l := range placedProbs {
		fmt.Fprintln(stdout, problem{File: path, Message: l})
	}
	if n += len(placedProbs); n > 0 {
		return fmt.Errorf("%s: %s: a job that loads it runs otherwise than the file says", path, words.Count(n, "problem", "problems"))
	}
	var names []string
	for _, c := range comms {
		names = append(names, c.String())
	}
	counts := 0
	for _, p := range across {
		counts += len(p.counts)
	}
	where := ""
	if counts > 0 {
		where = fmt.Sprintf(", and of them placed across more NVLink domains than they need (%s)", words.Count(counts, "count of nodes", "counts of nodes"))
	}
	fmt.Fprintf(stdout, "%s: every call of %s%s takes a rule NCCL follows, on NCCL's channels or the rule's\n", path, strings.Join(names, ", "), where)
	return nil
}

// writeTunerProblems writes each problem as "FILE:LINE:COLUMN: hazard:
// message" and returns how many fail the check. Those that fail come
// first, so that a rules file for another job, whose rules match none of
// this job's calls, does not bury them under its harmless unused rules;
// each run of consecutive unused rules is one line.
func writeTunerProblems(w io.Writer, file string, probs []nccl.TunerProblem) int {
	n := 0
	for _, p := range probs {
		if p.Fails() {
			fmt.Fprintln(w, problem{File: file, Line: p.Line, Column: p.Column, Message: p.Hazard.String() + ": " + p.Message})
			n++
		}
	}
	for i := 0; i < len(probs); i++ {
		p := probs[i]
		if p.Fails() {
			continue
		}
		j := i
		for j+1 < len(probs) && !probs[j+1].Fails() && probs[j+1].Line == probs[j].Line+1 && probs[j+1].Message == p.Message {
			j++
		}
		msg := p.Hazard.String() + ": " + p.Message
		if j > i {
			msg = fmt.Sprintf("%s: lines %d to %d, %d rules, each %s", p.Hazard, p.Line, probs[j].Line, j-i+1, p.Message)
		}
		fmt.Fprintln(w, problem{File: file, Line: p.Line, Column: p.Column, Message: msg})
		i = j
	}
	return n
}

// writeBeyond warns, for each collective and communicator whose rules go
// beyond the calibration tables, how they do (predict.Machine.Beyond):
// one line for the communicators a note concerns alike, which names each
// and, where their notes differ only in their figures, each one's
// doublings beyond the tables. A communicator beyond the tables' node
// counts, where every rule keeps NCCL's own choice, gets that one line
// instead: the model's extrapolation there decides nothing.
func writeBeyond(w io.Writer, m *predict.Machine, req tuneRequest) error {
	type group struct {
		key, first string
		who        []commOf
		doublings  []string
		same       bool
	}
	var groups []*group
	own, why := keptOwn(m, req.comms)
	for _, c := range req.collectives {
		for _, cm := range req.comms {
			if slices.Contains(own, cm.String()) {
				continue
			}
			q := predict.Query{Collective: c, Ranks: cm.Nodes * cm.PerNode, PerNode: cm.PerNode, Layout: req.layout}
			beyond, err := m.Beyond(q)
			if err != nil {
				return err
			}
			for _, b := range beyond {
				key := figureRE.ReplaceAllString(b, "#")
				i := slices.IndexFunc(groups, func(g *group) bool { return g.key == key })
				if i < 0 {
					groups, i = append(groups, &group{key: key, first: b, same: true}), len(groups)
				}
				g := groups[i]
				g.who = append(g.who, commOf{c, cm})
				g.same = g.same && b == g.first
				d := doublingsRE.FindStringSubmatch(b)
				if d == nil {
					d = []string{"", "?"}
				}
				g.doublings = append(g.doublings, d[1])
			}
		}
	}
	for _, g := range groups {
		if g.same {
			fmt.Fprintf(w, "%s: %s\n", commsPhrase(g.who, nil), g.first)
			continue
		}
		fmt.Fprintf(w, "%s: %s; the same for %s\n", commsPhrase(g.who[:1], nil), g.first, commsPhrase(g.who[1:], g.doublings[1:]))
	}
	if len(own) > 0 {
		fmt.Fprintf(w, "on %s, %s\n", words.And(own), why)
	}
	return nil
}

// A commOf is a collective on a communicator, for writeBeyond.
type commOf struct {
	c  commmodel.Collective
	cm predict.Comm
}

// commsPhrase names cs, each collective once before its communicators,
// and collectives of the same communicators together ("allreduce and
// allgather on 3 x 2 and 3 x 8; broadcast on 3 x 8"), each communicator
// followed by its doublings where doublings holds them.
func commsPhrase(cs []commOf, doublings []string) string {
	var order []commmodel.Collective
	on := map[commmodel.Collective][]string{}
	for i, x := range cs {
		s := fmt.Sprint(x.cm)
		if doublings != nil {
			s += " at " + doublings[i] + " doublings"
		}
		if _, ok := on[x.c]; !ok {
			order = append(order, x.c)
		}
		on[x.c] = append(on[x.c], s)
	}
	var names, lists []string
	for _, c := range order {
		list := words.And(on[c])
		if k := slices.Index(lists, list); k >= 0 {
			names[k] += " and " + c.String()
			continue
		}
		names, lists = append(names, c.String()), append(lists, list)
	}
	parts := make([]string, len(names))
	for k := range names {
		parts[k] = names[k] + " on " + lists[k]
	}
	return strings.Join(parts, "; ")
}

// figureRE matches the figures of a note, and doublingsRE its doublings
// beyond the tables, for writeBeyond.
var (
	figureRE    = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	doublingsRE = regexp.MustCompile(`([0-9]+\.[0-9]+) doublings`)
)

// writeWithheld says, for each choice of the model withheld from the rules
// (predict.TunerChoice.Withheld), where the model misses its tables near
// the choice's size and the table that would measure the choice, and
// every assumed fact it rests on (predict.TunerChoice.RestsOn), with one
// -hw setting that gives them all and the catalog's systems whose entries
// give them all, then what each alternative tried does to the choice.
func writeWithheld(w io.Writer, choices []predict.TunerChoice, hw predict.Hardware, req tuneRequest) {
	perNode := 0
	for _, c := range req.comms {
		perNode = max(perNode, c.PerNode)
	}
	for _, ch := range choices {
		if !ch.Withheld() {
			continue
		}
		head := fmt.Sprintf("commlab tune: %v on %v, %d to %d B: the model's %s/%s, %s than NCCL's own %s/%s at %s,",
			ch.Collective, ch.Comm, ch.MinBytes, ch.MaxBytes, ch.Ours.Algorithm, ch.Ours.Protocol, gainText(ch.Ours, ch.NCCL.Time),
			ch.NCCL.Algorithm, ch.NCCL.Protocol, units.FormatSize(ch.Size))
		if ch.Misses() {
			fmt.Fprintf(w, "%s is withheld: %s; these sizes keep NCCL's own.%s %s\n", head, missesText(ch), decidedSentence(ch), measureHint(ch))
			if len(ch.RestsOn) == 0 {
				continue
			}
		}
		facts := ch.Assumed()
		var names []string
		for _, f := range facts {
			names = append(names, f.Name)
		}
		system := " (no system of the catalog gives them all)"
		if len(facts) == 1 {
			system = " (no system of the catalog gives it)"
		}
		if sys := predict.SystemsGiving(hw, perNode, names); len(sys) > 0 {
			system = ", or -hw system=NAME if the machine is " + joinOr(sys)
		}
		still := ""
		if ch.Misses() {
			still = "; the choice stays withheld while the model misses its tables there (above)"
		}
		fmt.Fprintf(w, "%s rests on %s; these sizes keep NCCL's own.%s Settle %s with -hw %s%s%s\n",
			head, assumedText(facts), decidedSentence(ch), pronoun(len(facts)), hwSetting(facts), system, still)
		for _, r := range ch.RestsOn {
			var with []string
			for i, f := range r.Facts {
				with = append(with, f.Name+" "+r.Tried[i])
			}
			what := "NCCL cannot run it"
			if r.Runs {
				what = fmt.Sprintf("%.2fx as fast (%s)", r.Gain.Times, r.Gain.Range("its"))
			}
			fmt.Fprintf(w, "  with %s: %s\n", words.And(with), what)
		}
	}
}

// missesText says how many of the calibration points near the choice's
// size lie outside their intervals (predict.TunerChoice.Misses).
func missesText(ch predict.TunerChoice) string {
	return fmt.Sprintf("%d of the %d calibration points within two doublings of %s lie outside their 80%% intervals, where the model does not follow its tables",
		ch.Outside, ch.Near, units.FormatSize(ch.Size))
}

// measureHint names the table that measures a choice withheld because the
// model misses its tables near its size: the choice itself, pinned, over
// the choice's sizes, on its communicator.
func measureHint(ch predict.TunerChoice) string {
	return fmt.Sprintf("A table of %v on %v run with NCCL_ALGO=%s NCCL_PROTO=%s from %s to %s, and one with neither set, each given to -calibrate (FILE:algo=%s:proto=%s for the first), measure the choice and NCCL's own there",
		ch.Collective, ch.Comm, ch.Ours.Algorithm, ch.Ours.Protocol, units.FormatSize(float64(ch.MinBytes)), units.FormatSize(float64(ch.MaxBytes)), ch.Ours.Algorithm, ch.Ours.Protocol)
}

// assumedText names facts with their values in plain words: "nics_per_node
// one per GPU, nic_bw 200 Gb/s and nic_path PIX, which are assumed".
func assumedText(facts []predict.Fact) string {
	var s []string
	for _, f := range facts {
		s = append(s, f.Name+" "+f.Value)
	}
	if len(s) == 1 {
		return s[0] + ", which is assumed"
	}
	return words.And(s) + ", which are assumed"
}

// pronoun is "it" for one fact, "them" for more.
func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// hwSetting is the one -hw setting that settles every fact of facts
// (predict.Fact.Hint), each key's value first and what a placeholder
// means after them: "nics=N,nic-bw=RATE (RATE: the NICs' line rate, ...)".
func hwSetting(facts []predict.Fact) string {
	var set, notes []string
	for _, f := range facts {
		kv, note, _ := strings.Cut(f.Hint(), " (")
		set = append(set, kv)
		if note != "" {
			_, value, _ := strings.Cut(kv, "=")
			notes = append(notes, value+": "+strings.TrimSuffix(note, ")"))
		}
	}
	if len(notes) == 0 {
		return strings.Join(set, ",")
	}
	return strings.Join(set, ",") + " (" + strings.Join(notes, "; ") + ")"
}

// commsHeader opens the header line that names the communicators a file
// was written for (tuneComment).
const commsHeader = "Communicators (nodes x GPUs per node): "

// writtenComms returns the communicators the header of the rules file b
// names (commsHeader), none where it names none.
func writtenComms(b []byte) []predict.Comm {
	// The header is the comment lines the file starts with: they alone are
	// read, not a copy of the whole file.
	var lines []string
	for l := range bytes.Lines(b) {
		if !bytes.HasPrefix(l, []byte("#")) {
			break
		}
		lines = append(lines, strings.TrimRight(string(l), "\r\n"))
	}
	k := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "# "+commsHeader) })
	if k < 0 {
		return nil
	}
	line := strings.TrimPrefix(lines[k], "# "+commsHeader)
	for _, l := range lines[k+1:] {
		if !strings.HasPrefix(l, "#   ") {
			break
		}
		line += " " + strings.TrimPrefix(l, "#   ") // folded (WriteTunerRules)
	}
	line, _, _ = strings.Cut(line, ";")
	var out []predict.Comm
	for _, f := range strings.Split(line, ",") {
		var c predict.Comm
		if n, err := fmt.Sscanf(strings.TrimSpace(f), "%d x %d", &c.Nodes, &c.PerNode); err != nil || n != 2 || c.Nodes < 1 || c.PerNode < 1 {
			return nil
		}
		out = append(out, c)
	}
	return out
}

// commsText is "2 x 4 and 16 x 4".
func commsText(cs []predict.Comm) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.String())
	}
	return words.And(s)
}

// keptOwn returns the communicators of comms beyond the calibration
// tables' node counts (predict.Machine.NodesBeyond), on which every rule
// keeps NCCL's own choice, and why, for the file's header and standard
// error alike.
func keptOwn(m *predict.Machine, comms []predict.Comm) (own []string, why string) {
	lo, hi := 0, 0
	for _, cm := range comms {
		var out bool
		if lo, hi, out = m.NodesBeyond(cm); out {
			own = append(own, cm.String())
		}
	}
	return own, fmt.Sprintf("beyond the tables' %s, every rule keeps NCCL's own choice: the tables measured neither it nor the model's choice there", nodeSpan(lo, hi))
}

// nodeSpan is "2 to 32 nodes", or "2 nodes".
func nodeSpan(lo, hi int) string {
	if lo == hi {
		return words.Count(lo, "node", "nodes")
	}
	return fmt.Sprintf("%d to %d nodes", lo, hi)
}

// nNodesMeaning says what a rule's nNodes counts: NCCL counts a
// multi-node NVLink domain as one node.
func nNodesMeaning(hw predict.Hardware) string {
	if hw.Domain > 0 {
		return fmt.Sprintf("a rule's nNodes is the nodes NCCL counts, one per NVLink domain of %d GPUs where the job runs MNNVL (NCCL_DEBUG=INFO's comm line prints MNNVL 1); "+
			"where it does not (no IMEX channel, NCCL_MNNVL_ENABLE=0) NCCL counts the hosts, whose rules keep NCCL's own choices; "+
			"a communicator placed across more domains than the fewest that hold it (across a rack's edge) takes the rules of nNodes -1 for its nRanks, last in the file, at each size the choice of NCCL's own on each count of domains least slower on the others.", hw.Domain)
	}
	return "a rule's nNodes is the communicator's nodes."
}

// everyRankLine says that every rank must read this file of n rules: the
// plugin reads NCCL_TUNER_CONFIG_FILE (./nccl_tuner.conf without it) on
// each rank for each communicator it creates (pluginInit), a rank that
// finds none logs "Config file ... not found, using defaults" and runs
// every call on one channel (pluginGetCollInfo's *nChannels = 1), and
// NCCL's ranks choose a call's algorithm, protocol and channels each on
// its own (ncclGetAlgoInfo, src/enqueue.cc), so that ranks reading other
// rules run one call differently. The plugin logs "Loaded N tuning
// configurations from FILE" at INFO under NCCL_DEBUG_SUBSYS=TUNING
// (plugins/tuner/example/plugin.c, and ext-tuner/example from 2.27.5).
func everyRankLine(n int) string {
	return fmt.Sprintf("Every rank of the job must read this same file, unchanged while the job runs (an absolute path on a file system every node sees, or identical copies): "+
		"each rank reads it for each communicator it creates, and NCCL does not check that the ranks agree, so a rank that finds no file, which it logs and goes on, "+
		"runs every call on one channel and its own choice while the others run these rules, which can hang a collective; "+
		"with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING each rank should log \"TUNER/ExamplePlugin: Loaded %d tuning configurations\".", n)
}

// tuneComment is the file's provenance: what made it, for which
// communicators, from which tables, and how to load it. WriteTunerRules
// folds its lines to the plugin's 255 bytes.
func tuneComment(paths []string, hw predict.Hardware, m *predict.Machine, req tuneRequest, choices []predict.TunerChoice, rules int, pinned bool) []string {
	var comms, cols []string
	for _, c := range req.comms {
		comms = append(comms, c.String())
	}
	for _, c := range req.collectives {
		cols = append(cols, c.String())
	}
	c := []string{
		"NCCL example tuner plugin rules written by commlab tune (github.com/inframethod/commlab).",
		"Build the plugin from NCCL " + nccl.TunerPluginFrom.String() + " or later (plugins/tuner/example; it exports tuner API v6 and v5, which NCCL 2.28 and later load). NCCL 2.24 to 2.27 load tuner API v4 and older: " +
			"of the examples that read this file, only that of NCCL 2.27.5 to 2.27.7 (ext-tuner/example, API v4, patched as below) loads there; NCCL 2.23 and earlier load none that reads it.",
		"Loading any tuner turns off NCCL's CTA-policy choice (NCCL 2.27.3 and later): a communicator created with CTAPolicy NCCL_CTA_POLICY_EFFICIENCY runs AllGather and ReduceScatter on registered buffers as these rules say (on NVLS/Simple only where a rule names it), not on the NVLS/Simple that policy picks without a tuner.",
		"The plugin of NCCL 2.27.5 to 2.29.7 crashes on the first call a rule matches (NVIDIA/nccl#1974); to build one of those, add at the top of its pluginGetCollInfo",
		"  " + nccl.TunerPluginPatch,
		"and index table where it indexes collCostTable.",
		"Load with NCCL_TUNER_PLUGIN=<path to libnccl-tuner-example.so> NCCL_TUNER_CONFIG_FILE=<absolute path of this file>.",
		everyRankLine(rules),
		commsHeader + strings.Join(comms, ", ") + "; " + nNodesMeaning(hw),
		"The plugin runs every call no rule takes, of these or of any other communicator, on one channel: every function of each communicator has rules for every size.",
		"NCCL leaves NVLS, NVLSTree, PAT and CollNet out of some calls (an ncclAvg of floats, a ReduceScatter of ncclAvg for PAT) and the plugin passes over their rules there: each such rule is followed by rules for its sizes with NCCL's own choice among Ring and Tree.",
		"Each rule keeps NCCL's own algorithm, protocol and channels (NCCL " + m.Version().String() + "'s tuning model), except for " + strings.Join(cols, ", ") +
			" where the calibrated model expects its fastest choice to beat NCCL's by more than its interval.",
		"commlab " + commlabVersion() + "; hardware: " + hw.String(),
	}
	switch ex := m.TunerExclusions(); {
	case ex != (predict.Env{}):
		// Each setting is the job's (-algo, -proto) or the tables'
		// exclusion, which the job is taken to set too.
		job, tables := ex, ex
		if req.job.Algo == "" {
			job.Algo = ""
		} else {
			tables.Algo = ""
		}
		if req.job.Proto == "" {
			job.Proto = ""
		} else {
			tables.Proto = ""
		}
		var said, flags []string
		if job.Algo != "" {
			flags = append(flags, "-algo")
		}
		if job.Proto != "" && req.protoGiven {
			flags = append(flags, "-proto")
		} else if job.Proto != "" {
			flags = append(flags, "its network plugin's, below")
		}
		if job != (predict.Env{}) {
			said = append(said, "The job sets "+envText(job)+" ("+strings.Join(flags, ", ")+")")
		}
		if tables != (predict.Env{}) {
			said = append(said, "every calibration table ran with "+envText(tables)+", which the job is taken to set too")
		}
		what := "what it leaves"
		if ex.Algo != "" && ex.Proto != "" {
			what = "what they leave"
		}
		line := strings.Join(said, ", and ") + ": no rule names " + what + " out, which NCCL would not run."
		c = append(c, strings.ToUpper(line[:1])+line[1:])
	case pinned:
		// pinnedTablesLine, which the caller adds, names the tables' pin
		// and the flags for a job that sets it.
	default:
		// NCCL leaves what NCCL_ALGO or NCCL_PROTO excludes out of the
		// cost table the plugin edits, and the plugin passes over a rule
		// naming it; with no rule after it, the call keeps the plugin's
		// one channel (plugins/tuner/example/plugin.c, "*nChannels = 1").
		c = append(c, "For a job that leaves NCCL_ALGO and NCCL_PROTO unset: where it sets one (NCCL_PROTO=^LL128, as some sites do), the plugin passes over every rule naming what it leaves out, "+
			"and a call no later rule takes runs on one channel; give -algo or -proto the job's setting (-proto ^ll128) to write rules under it, and tune -check the file with it.")
	}
	if cn := factOf(m.Facts(), "collnet"); cn.Value == "false" && cn.Guessed() && slices.ContainsFunc(req.comms, func(c predict.Comm) bool { return c.Nodes > 1 }) {
		// The plugin sets the cost of every algorithm but the rule's to
		// 0 (plugins/tuner/example/plugin.c): a rule that names Ring or
		// Tree takes CollNet away from a job that set it up.
		c = append(c, "For a job without CollNet (NCCL_COLLNET_ENABLE unset, as NCCL leaves it; collnet false): where a job sets NCCL_COLLNET_ENABLE=1 on a network whose switches reduce (SHARP), "+
			"NCCL runs CollNet where its tuning finds it faster, and these rules name another algorithm there instead; give -hw collnet=true to write rules for such a job.")
	}
	var assumed []string
	for _, f := range m.Facts() {
		switch {
		case f.Name == "nccl_version":
			// Not a -hw fact: the release's line of its own says what
			// an assumed one changes, and FILE:version=V settles it.
		case f.Guessed() && f.Fitted != "":
			assumed = append(assumed, f.Name+" "+f.Value+" (the tables fit "+f.Fitted+")")
		case f.Guessed():
			assumed = append(assumed, f.Name+" "+f.Value)
		}
	}
	if len(assumed) > 0 {
		c = append(c, "assumed, not read from the logs, a capture or -hw (settle them with -hw): "+strings.Join(assumed, ", "))
	}
	if len(paths) > 0 {
		c = append(c, "calibrated on:")
		for _, p := range paths {
			c = append(c, "  "+p)
		}
	}
	for _, p := range m.Params {
		if p.Identified {
			c = append(c, fmt.Sprintf("  %s = %s", p.Name, predict.FormatParam(p.Name, p.Unit, p.Value)))
		}
	}
	var taken, withheld []string
	for _, ch := range choices {
		interval := func(p predict.Prediction) string {
			return fmt.Sprintf("%s [%s, %s]", units.FormatDuration(p.Time), units.FormatDuration(p.Low), units.FormatDuration(p.High))
		}
		head := fmt.Sprintf("  %v on %v, %d to %d B: %s/%s", ch.Collective, ch.Comm, ch.MinBytes, ch.MaxBytes, ch.Ours.Algorithm, ch.Ours.Protocol)
		gain := gainText(ch.Ours, ch.NCCL.Time)
		line := fmt.Sprintf("%s, %s at %s, against NCCL's %s/%s %s: %s", head, interval(ch.Ours), units.FormatSize(ch.Size), ch.NCCL.Algorithm, ch.NCCL.Protocol, interval(ch.NCCL), gain)
		if dt := decidedText(ch); dt != "" {
			// The times the choice was decided on lead, the model's own
			// after them: their gain may reach below 1x (red team 44).
			line = fmt.Sprintf("%s against NCCL's %s/%s at %s%s; by the model's own times, %s against %s: %s",
				head, ch.NCCL.Algorithm, ch.NCCL.Protocol, units.FormatSize(ch.Size), dt, interval(ch.Ours), interval(ch.NCCL), gain)
		}
		if ch.Measured > 0 {
			// The choice as it was decided against that time (beatsNCCL):
			// its time as the tables ran its protocol near the size.
			ours, _ := ch.Decided()
			line += fmt.Sprintf("; against the %s a calibration table measured NCCL's own at, %s", units.FormatDuration(ch.Measured), gainText(ours, ch.Measured))
		}
		if ch.Withheld() {
			if ch.Misses() {
				line += "; " + missesText(ch)
			}
			if facts := ch.Assumed(); len(facts) > 0 {
				line += "; it rests on " + assumedText(facts) + ": settle " + pronoun(len(facts)) + " with -hw " + hwSetting(facts)
			}
			withheld = append(withheld, line)
			continue
		}
		taken = append(taken, line)
	}
	if len(taken) == 0 {
		c = append(c, "No rule takes the model's choice: nowhere does it beat NCCL's by more than its interval, on an algorithm and protocol a table ran near that size, under any time they measured NCCL's own choice at, "+
			"with most of the tables' points near that size inside their intervals, and without resting on an assumed fact.")
	} else {
		c = append(c, "The rules that take the model's choice, and what it expects of each at the size it was decided at (80% intervals):")
		c = append(c, taken...)
	}
	if own, why := keptOwn(m, req.comms); len(own) > 0 {
		c = append(c, fmt.Sprintf("On %s, %s.", words.And(own), why))
	}
	if len(withheld) > 0 {
		c = append(c, "Withheld, where the model's choice rests on an assumed fact that makes it possible or moves its gain within its interval (settle it with -hw), "+
			"or where most of the tables' points near its size lie outside their intervals; these sizes keep NCCL's own choice:")
		c = append(c, withheld...)
	}
	return c
}

// decidedText says, where the tables' points near the choice's size ran
// its protocol or NCCL's slower or faster than the model (beatsNCCL), the
// times the choice was decided on and the gain over them: a gain whose
// range reaches below 1x against the model's time for NCCL's own was taken
// because the tables ran NCCL's protocol slower than that (OCI's GB200
// NVLSTree/Simple, 1.43x, on 64 x 4), and the line says so.
func decidedText(ch predict.TunerChoice) string {
	slow, miss := cmp.Or(ch.OursSlow, 1), cmp.Or(ch.NCCLMiss, 1)
	ours, theirs := ch.Decided()
	floor := ours.Time == ch.OursFloor && ch.OursFloor > 0
	if !floor && math.Abs(math.Log(slow)) < math.Log(decidedShown) && math.Abs(math.Log(miss)) < math.Log(decidedShown) {
		return "" // within the tables' noise: the line's own times say it
	}
	var as []string
	if slow != 1 && !floor {
		as = append(as, fmt.Sprintf("%s %.2fx the model's time", ch.Ours.Protocol, slow))
	}
	if floor {
		as = append(as, fmt.Sprintf("%s/%s no faster than the tables ran it, their times carried on in a line beyond the largest size they ran it at", ch.Ours.Algorithm, ch.Ours.Protocol))
	}
	if miss != 1 {
		as = append(as, fmt.Sprintf("NCCL's %s %.2fx", ch.NCCL.Protocol, miss))
	}
	g := ours.GainOver(theirs)
	return fmt.Sprintf("; as the tables ran each protocol near %s (%s), %s [%s, %s] against %s: %.2fx faster (%.2fx-%.2fx)",
		units.FormatSize(ch.Size), strings.Join(as, ", "), units.FormatDuration(ours.Time), units.FormatDuration(ours.Low), units.FormatDuration(ours.High),
		units.FormatDuration(theirs), g.Times, g.Low, g.High)
}

// decidedSentence is decidedText as a sentence of its own, after a space:
// the times and gain a withheld choice would have been decided on.
func decidedSentence(ch predict.TunerChoice) string {
	t, ok := strings.CutPrefix(decidedText(ch), "; as ")
	if !ok {
		return ""
	}
	return " As " + t + "."
}

// decidedShown is how far from the model the tables must have run a
// protocol near a choice's size for the header to give the times the
// choice was decided on (decidedText).
const decidedShown = 1.05

// gainText is how much faster ours is than a time t of NCCL's own, with its
// range over ours' 80% interval (predict.Gain).
func gainText(ours predict.Prediction, t float64) string {
	g := ours.GainOver(t)
	return fmt.Sprintf("%.2fx faster (%s)", g.Times, g.Range("its"))
}
