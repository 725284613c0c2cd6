package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("predict", "predict a collective's time on a machine from nccl-tests logs of it (or NCCL's own model)", runPredict)
}

// predictOutput is the JSON of "commlab predict" (a fixed
// contract; "problems" as "commlab topo" has it). Sizes in B, times in us.
type predictOutput struct {
	Collective  string            `json:"collective"`
	P           int               `json:"p"`
	PerNode     int               `json:"per_node"`
	Nodes       int               `json:"nodes"`
	Algo        string            `json:"algo"`
	Proto       string            `json:"proto"`
	Calibration predictCalib      `json:"calibration"`
	Predictions []predictPoint    `json:"predictions"`
	Problems    []problem         `json:"problems"`
	Model       string            `json:"model"`
	Hardware    hardwareOutput    `json:"hardware"`
	Notes       []string          `json:"notes"`
	Tables      []predictTableLOO `json:"tables"`
	Layout      *predictLayout    `json:"layout"`
	// TablePins are the NCCL_ALGO and NCCL_PROTO every calibration table
	// ran with where the prediction leaves them to NCCL ("NCCL_PROTO=Simple").
	TablePins []string `json:"table_pins,omitempty"`
	// nvlsOff is set where every calibration table's NCCL_ALGO pin is
	// their logs' NCCL_NVLS_ENABLE=0, not an NCCL_ALGO they set.
	nvlsOff bool
}

// predictLayout is the launch layout the model ran the query in
// (predict.Machine.Layout): the tables' where they share one, else the
// query's, and NCCL's uncalibrated model's launch floor comes from it.
type predictLayout struct {
	Processes         int `json:"processes"`
	ThreadsPerProcess int `json:"threads_per_process"`
	GPUsPerThread     int `json:"gpus_per_thread"`
	Graphs            int `json:"graphs"`
	// Tables is the layout the calibration tables share, when they share
	// one and the prediction's differs from it, or where they do not, the
	// layout of the tables of the query's node count when those share one
	// that differs from the prediction's; omitted otherwise.
	Tables *predictLayout `json:"tables,omitempty"`
	// Nodes is, in Tables, the node count of the tables it is the layout
	// of where the other tables ran another; omitted where all share it.
	Nodes int `json:"nodes,omitempty"`
}

// layoutDiffers reports whether layouts a and b launch differently: other
// threads per process or GPUs per thread, or CUDA graphs in one alone.
func layoutDiffers(a, b predict.Layout) bool {
	return max(a.ThreadsPerProcess, 1) != max(b.ThreadsPerProcess, 1) || max(a.GPUsPerThread, 1) != max(b.GPUsPerThread, 1) ||
		min(max(a.Graphs, 0), 1) != min(max(b.Graphs, 0), 1)
}

// sameNodesLayout returns a calibration table of q's node count where
// every such table ran one layout and q gives neither threads nor GPUs per
// thread: where the tables' layouts differ (Voltage Park's 4 x 8 runs of
// one process per GPU, its 1 x 8 runs of one process driving 8, -g 8), the
// query takes one process per GPU (predict.Machine.Layout), which the
// tables of its shape may not have run.
func sameNodesLayout(tables []predict.Table, q predict.Query) (predict.Table, bool) {
	if q.ThreadsPerProcess != 0 || q.GPUsPerThread != 0 || q.PerNode <= 0 {
		return predict.Table{}, false
	}
	var same []predict.Table
	for _, t := range tables {
		if t.Nodes == q.Ranks/q.PerNode {
			same = append(same, t)
		}
	}
	if len(same) == 0 || slices.ContainsFunc(same[1:], func(t predict.Table) bool { return layoutDiffers(t.Layout, same[0].Layout) }) {
		return predict.Table{}, false
	}
	return same[0], true
}

// layoutOutput is l for a run of ranks ranks.
func layoutOutput(l predict.Layout, ranks int) *predictLayout {
	return &predictLayout{Processes: l.Processes(ranks), ThreadsPerProcess: l.ThreadsPerProcess, GPUsPerThread: l.GPUsPerThread, Graphs: l.Graphs}
}

// String says the layout as nccl-tests would run it.
func (l *predictLayout) String() string {
	graphs := "no CUDA graphs"
	if l.Graphs > 0 {
		graphs = fmt.Sprintf("CUDA graphs (-G %d)", l.Graphs)
	}
	return fmt.Sprintf("%s of %s of %s, %s", words.Count(l.Processes, "process", "processes"),
		words.Count(l.ThreadsPerProcess, "thread", "threads"), words.Count(l.GPUsPerThread, "GPU", "GPUs"), graphs)
}

// predictCalib is the calibration: its files, the parameters and the
// leave-one-table-out median relative error (null without calibration).
type predictCalib struct {
	Files           []string       `json:"files"`
	Parameters      []predictParam `json:"parameters"`
	LOOMedianRelErr *float64       `json:"loo_median_rel_err"`
	// LOOCoverage is the share of the held-out points inside their 80%
	// interval when each table is predicted from the others
	// (predict.Machine.HeldOutCoverage); null with one table.
	LOOCoverage *float64 `json:"loo_coverage"`
}

type predictParam struct {
	Name       string  `json:"name"`
	Unit       string  `json:"unit"`
	Value      float64 `json:"value"`
	Prior      float64 `json:"prior"`
	Identified bool    `json:"identified"`
}

type predictPoint struct {
	SizeBytes float64 `json:"size_bytes"`
	TimeS     float64 `json:"time_s"`
	Algorithm string  `json:"algorithm"`
	Protocol  string  `json:"protocol"`
	// Channels is the most channels NCCL runs the call on; 0 for AllToAll
	// and SendRecv, which NCCL runs as point-to-point sends.
	Channels int     `json:"channels"`
	LowS     float64 `json:"low_s"`
	HighS    float64 `json:"high_s"`
	// Bound is the term that dominates the calibrated time: launch,
	// latency, links, network or channels; empty for NCCL's uncalibrated
	// model.
	Bound string `json:"bound,omitempty"`
}

// predictTableLOO is one calibration table's leave-one-out error.
type predictTableLOO struct {
	Table           string  `json:"table"`
	LOOMedianRelErr float64 `json:"loo_median_rel_err"`
}

// predictPins returns NCCL_ALGO and NCCL_PROTO for -algo and -proto
// (algoPin, protoPin).
func predictPins(algo, proto string) (ncclAlgo, ncclProto string, err error) {
	if ncclAlgo, err = algoPin(algo); err != nil {
		return "", "", flagErrorf("-algo %q: %v", algo, err)
	}
	if ncclProto, err = protoPin(proto); err != nil {
		return "", "", flagErrorf("-proto %q: %v", proto, err)
	}
	return ncclAlgo, ncclProto, nil
}

// algoPin returns NCCL_ALGO for an -algo or algo= value: "" for auto, both
// CollNets for collnet, NCCL's name of one algorithm (nccl.ParseAlgo), and
// a list or an exclusion as NCCL reads it ("^nvls", "allreduce:ring,tree"),
// as given.
func algoPin(algo string) (string, error) {
	switch a := strings.ToLower(algo); {
	case a == "auto", a == "^":
		// "^" excludes nothing: NCCL runs every algorithm.
		return "", nil
	case a == "collnet":
		return nccl.AlgoCollNetDirect.String() + "," + nccl.AlgoCollNetChain.String(), nil
	case isEnableList(a):
		// -algo's own names, in NCCL's spelling.
		algo = collnetNames.ReplaceAllStringFunc(algo, func(name string) string {
			switch strings.ToLower(name) {
			case "collnet-direct":
				return nccl.AlgoCollNetDirect.String()
			case "collnet-chain":
				return nccl.AlgoCollNetChain.String()
			}
			return nccl.AlgoCollNetDirect.String() + "," + nccl.AlgoCollNetChain.String()
		})
		if err := nccl.CheckEnable(algo, ""); err != nil {
			return "", err
		}
		return algo, nil
	}
	na, err := nccl.ParseAlgo(algo)
	if err != nil {
		return "", fmt.Errorf("want auto, ring, tree, nvls, nvlstree, pat, collnet, collnet-direct or collnet-chain, or an NCCL_ALGO list such as ^nvls")
	}
	return na.String(), nil
}

// collnetNames spells -algo's CollNet names as NCCL_ALGO does inside a
// list: collnet is both.
var collnetNames = regexp.MustCompile(`(?i)\bcollnet(-direct|-chain)?\b`)

// protoPin returns NCCL_PROTO for a -proto or proto= value: "" for auto,
// NCCL's name of one protocol, and a list or an exclusion as NCCL reads it
// ("^ll128"), as given.
func protoPin(proto string) (string, error) {
	switch {
	case strings.EqualFold(proto, "auto"), proto == "^":
		return "", nil
	case isEnableList(proto):
		if err := nccl.CheckEnable("", proto); err != nil {
			return "", err
		}
		return proto, nil
	}
	p, err := commmodel.ParseProtocol(proto)
	if err != nil {
		return "", fmt.Errorf("want auto, ll, ll128 or simple, or an NCCL_PROTO list such as ^ll128")
	}
	return nccl.ProtocolName(p), nil
}

// isEnableList reports whether an -algo or -proto value is an NCCL_ALGO
// or NCCL_PROTO list rather than one name: an exclusion, several names,
// or per-function entries.
func isEnableList(s string) bool { return strings.ContainsAny(s, "^,;:") }

// sharedPins returns the NCCL_ALGO and NCCL_PROTO that the tables ran with
// (predict.TablesEnv) where q leaves them to NCCL's tuner.
func sharedPins(tables []predict.Table, q predict.Query) []string {
	if _, err := nccl.FuncOf(q.Collective); err != nil {
		return nil // point-to-point sends take no pin
	}
	e := predict.TablesEnv(tables)
	var out []string
	if q.Algo == "" && e.Algo != "" {
		out = append(out, "NCCL_ALGO="+e.Algo)
	}
	if q.Proto == "" && e.Proto != "" {
		out = append(out, "NCCL_PROTO="+e.Proto)
	}
	return out
}

// allNVLSOff reports that every table of a collective NCCL tunes ran
// with NCCL_NVLS_ENABLE=0 and no NCCL_ALGO of its log's or of a
// FILE:algo=, so that the pin it is taken as ("^NVLS,NVLSTree",
// predict.Table.Algo) is the setting's alone.
func allNVLSOff(tables []predict.Table) bool {
	n := 0
	for i := range tables {
		if _, err := nccl.FuncOf(tables[i].Collective); err != nil {
			continue
		}
		e := &tables[i].Evidence
		if _, off := e.Off("NCCL_NVLS_ENABLE"); !off || e.Algo.Known() || !strings.EqualFold(tables[i].Algo, "^NVLS,NVLSTree") {
			return false
		}
		n++
	}
	return n > 0
}

// runPredict runs "commlab predict": it checks the flags, reads the
// calibration logs and the topology capture, predicts, and prints.
func runPredict(args []string, stdout, stderr io.Writer) error {
	req, err := parsePredictFlags(args)
	if err != nil {
		return err
	}
	out := predictOutput{Collective: req.query.Collective.String(), P: req.query.Ranks, PerNode: req.query.PerNode,
		Nodes: req.query.Ranks / req.query.PerNode, Algo: req.algo, Proto: req.proto,
		Calibration: predictCalib{Files: []string{}, Parameters: []predictParam{}},
		Predictions: []predictPoint{}, Problems: []problem{}, Notes: []string{}, Tables: []predictTableLOO{}}
	pins := predict.Pins{Algo: req.query.Algo, Proto: req.query.Proto, Hosts: []predict.Comm{{Nodes: req.query.Ranks / req.query.PerNode, PerNode: req.query.PerNode}}}
	m, err := req.machine.load(pins, req.query.PerNode)
	if err != nil {
		return err
	}
	out.Calibration.Files = append(out.Calibration.Files, m.files...)
	out.Problems = append(out.Problems, m.problems...)
	if _, err := nccl.FuncOf(req.query.Collective); err != nil && (req.algo != "auto" || req.proto != "auto") {
		what := "-algo and -proto pin the calibration tables only"
		if len(m.tables) == 0 {
			what = "-algo and -proto change nothing of it"
		}
		out.Problems = append(out.Problems, problem{Message: fmt.Sprintf("%v runs NCCL's point-to-point sends, which NCCL_ALGO does not choose and whose protocol NCCL picks by the bytes per channel (LL up to 16 KiB, src/enqueue.cc): %s", req.query.Collective, what)})
	}
	hw, tables := m.hw, m.tables
	if err := domainHolds(&hw, req.query.PerNode); err != nil {
		return err
	}
	if mis, ok := domainSplit(&hw, req.query.Ranks/req.query.PerNode, req.query.PerNode); ok {
		// The model splits a run into equal NVLink domains: a usage error
		// that names the node counts it can predict.
		return flagErrorf("-nodes %d -per-node %d: %s", mis.nodes, mis.perHost, mis.advice(func(n int) string {
			return fmt.Sprintf("-nodes %d", n)
		}))
	}
	out.TablePins = sharedPins(tables, req.query)
	out.nvlsOff = len(out.TablePins) > 0 && allNVLSOff(tables)
	var guesses []predict.Guess
	if n := sizesPastMemory(m.gpuNames(), req.sizes); n != "" {
		out.Problems = append(out.Problems, problem{Message: n})
	}
	out.Hardware, guesses, err = describeHardware(hw, tables, m.gpuNames(), req.query, req.sizes)
	if err == nil {
		err = out.predict(hw, tables, req.query, req.sizes, guesses) // after: it adds the fitted values to the facts
	}
	if errors.Is(err, predict.ErrLayout) {
		// The flags ask for a layout the shape cannot run: a usage error.
		return &flagError{fmt.Errorf("%w: give -g and -threads whose product divides -per-node %d", err, req.query.PerNode)}
	}
	if errors.Is(err, predict.ErrPin) {
		// -algo names what the described machine does not run: a usage error.
		return &flagError{err}
	}
	if err != nil {
		return err
	}
	switch req.format {
	case formatJSON:
		return writeJSON(stdout, out)
	case formatCSV:
		// The table alone on standard output; what the text's first lines
		// say of it (the tables' pins, the guesses its interval holds) on
		// standard error, before the problems.
		writePins(stderr, &out)
		writeGuesses(stderr, out.Hardware)
		writeProblems(stderr, out.Problems)
		return writeCSV(stdout, out.Predictions)
	}
	// The calibration's notes follow the prediction, whose first lines
	// are the guesses that move it and the flags that settle them; what
	// the readers set aside comes before, as it concerns the input.
	first, notes := splitNotes(out.Problems, out.Notes)
	writeProblems(stderr, first)
	if err := writePredictTable(stdout, &out); err != nil {
		return err
	}
	writeProblems(stderr, notes)
	return nil
}

// splitNotes returns problems without the calibration's notes, then the
// notes among them, each in its order.
func splitNotes(problems []problem, notes []string) (first, last []problem) {
	for _, p := range problems {
		if p.File == "" && slices.Contains(notes, p.Message) {
			last = append(last, p)
		} else {
			first = append(first, p)
		}
	}
	return first, last
}

// predictRequest is a "commlab predict" command line, its flags checked.
type predictRequest struct {
	// query is what to predict: the collective, the ranks, the GPUs per
	// node, and the NCCL_ALGO and NCCL_PROTO of -algo and -proto.
	query predict.Query
	// algo and proto are -algo and -proto as given, in lower case.
	algo, proto string
	// machine are the flags that describe the machine.
	machine machineFlags
	// sizes are the -size list, in bytes.
	sizes  []float64
	format string
}

// parsePredictFlags parses and checks the flags of "commlab predict".
func parsePredictFlags(args []string) (predictRequest, error) {
	fs := newFlags("predict")
	machine := addMachineFlags(fs)
	collective := fs.String("collective", "", "collective to predict: "+commmodel.CollectiveNames())
	p := fs.Int("p", 0, "ranks (GPUs); with -nodes, -nodes x -per-node")
	nodes := fs.Int("nodes", 0, "nodes of -per-node GPUs each, as tune's -nodes counts them: the ranks are -nodes x -per-node (with -p as well, they must agree)")
	perNode := fs.Int("per-node", 0, "GPUs per node")
	layoutFlags := addLayoutFlags(fs)
	algo := fs.String("algo", "auto", "NCCL_ALGO of the calibration runs and the prediction: auto|ring|tree|nvls|nvlstree|pat|collnet|collnet-direct|collnet-chain, or a comma-separated list NCCL reads, such as ring,tree or ^nvls")
	proto := fs.String("proto", "auto", "NCCL_PROTO of the calibration runs and the prediction: auto|ll|ll128|simple, or a comma-separated list NCCL reads, such as ll,simple or ^ll128")
	sizes := fs.String("size", "", "comma-separated sizes (nccl-tests' size column), e.g. 1MiB,64MiB")
	output := addFormatFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab predict [-calibrate A.log[:KEY=VALUE...],B.log[,...]] -collective C (-p N | -nodes N) -per-node G [-g N] [-threads N] [-graph N]\n"+
			"                      [-algo auto|ring|tree|nvls|nvlstree|pat|collnet|collnet-direct|collnet-chain] [-proto auto|ll|ll128|simple]\n"+
			"                      [-gpu NAME] [-hw SPEC|FILE] [-topo FILE] -size LIST [-format text|json|csv]\n"+
			"without -calibrate, -gpu NAME or -hw system=NAME names the machine, and the model predicts uncalibrated")
		fs.PrintDefaults()
	}
	if _, err := parseFlags(fs, args, 0); err != nil {
		return predictRequest{}, err
	}
	format, err := output.get()
	if err != nil {
		return predictRequest{}, err
	}
	if *collective == "" {
		return predictRequest{}, usageErrorf(fs, "give -collective, the collective to predict (%s), such as -collective allreduce", commmodel.CollectiveNames())
	}
	c, err := commmodel.ParseCollective(*collective)
	if err != nil {
		return predictRequest{}, flagErrorf("-collective: %w", err)
	}
	if err := ranksOfNodes(fs, p, *nodes, *perNode); err != nil {
		return predictRequest{}, err
	}
	if err := checkRanks(fs, *p, "the ranks (GPUs) to predict for (or -nodes N of -per-node GPUs)", "16"); err != nil {
		return predictRequest{}, err
	}
	example := *p // a run that fits one node
	if example > 8 {
		example = defaultPerNode(*p)
	}
	if err := checkCount(fs, "per-node", *perNode, maxRanks, "the GPUs per node", strconv.Itoa(example)); err != nil {
		return predictRequest{}, err
	}
	if *p%*perNode != 0 {
		return predictRequest{}, flagErrorf("-p %d is not a multiple of -per-node %d; %s", *p, *perNode, perNodeAdvice(*p, *perNode))
	}
	ncclAlgo, ncclProto, err := predictPins(*algo, *proto)
	if err != nil {
		return predictRequest{}, err
	}
	list, err := sizesFlag(*sizes, "1MiB,64MiB or -size 1KiB..1GiB")
	if err != nil {
		return predictRequest{}, err
	}
	if slices.Contains(list, 0) {
		return predictRequest{}, flagErrorf("-size 0: a call moves at least 1 byte, such as -size 8,1MiB")
	}
	layout, err := layoutFlags.layout(fs)
	if err != nil {
		return predictRequest{}, err
	}
	return predictRequest{
		query: predict.Query{Collective: c, Ranks: *p, PerNode: *perNode, Layout: layout,
			Algo: ncclAlgo, Proto: ncclProto},
		algo:    strings.ToLower(*algo),
		proto:   strings.ToLower(*proto),
		machine: machine,
		sizes:   list,
		format:  format,
	}, nil
}

// ranksOfNodes applies predict's -nodes, where given: the ranks are its
// nodes times -per-node, which *p takes where -p is left out and must
// equal where it is given (a usage error naming both otherwise).
func ranksOfNodes(fs *flag.FlagSet, p *int, nodes, perNode int) error {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "nodes" })
	if !given {
		return nil
	}
	if nodes < 1 || nodes > maxRanks {
		return usageErrorf(fs, "-nodes %d: want the nodes of -per-node GPUs each, from 1 to %d, such as -nodes 4", nodes, maxRanks)
	}
	if err := checkCount(fs, "per-node", perNode, maxRanks, "the GPUs per node of the -nodes nodes", "8"); err != nil {
		return err
	}
	ranks := nodes * perNode
	switch {
	case ranks > maxRanks:
		return usageErrorf(fs, "-nodes %d x -per-node %d: %d ranks, above the limit of %d that bounds the work and memory it takes", nodes, perNode, ranks, maxRanks)
	case *p == 0:
		*p = ranks
	case *p != ranks:
		return flagErrorf("-p %d and -nodes %d disagree: -nodes %d x -per-node %d is %d ranks; give one of -p and -nodes, or -p %d", *p, nodes, nodes, perNode, ranks, ranks)
	}
	return nil
}

// layoutFlags are -g, -threads and -graph: the launch layout of the
// predicted run, as nccl-tests' -g, -t and -G.
type layoutFlags struct{ gpusPerThread, threads, graph *int }

func addLayoutFlags(fs *flag.FlagSet) layoutFlags {
	return layoutFlags{
		fs.Int("g", 0, "GPUs per thread of the predicted run (nccl-tests -g); 0 takes the calibration tables' when they share one, else 1"),
		fs.Int("threads", 0, "threads per process of the predicted run (nccl-tests -t); 0 takes the calibration tables' when they share one, else 1"),
		fs.Int("graph", 0, "CUDA graph launches of the predicted run (nccl-tests -G), 0 for none; unset takes the calibration tables' when they share one, else none"),
	}
}

// layout is the predict.Query layout of the flags, parsed on fs: each 0
// takes the calibration tables', but -graph 0, given, asks for no graphs.
func (lf layoutFlags) layout(fs *flag.FlagSet) (predict.Layout, error) {
	gpusPerThread, threads, graph := *lf.gpusPerThread, *lf.threads, *lf.graph
	switch {
	case gpusPerThread < 0:
		return predict.Layout{}, flagErrorf("-g %d: want a positive count, or 0 for the calibration tables'", gpusPerThread)
	case threads < 0:
		return predict.Layout{}, flagErrorf("-threads %d: want a positive count, or 0 for the calibration tables'", threads)
	case graph < 0:
		return predict.Layout{}, flagErrorf("-graph %d: want a count of graph launches, or 0 for none", graph)
	}
	l := predict.Layout{ThreadsPerProcess: threads, GPUsPerThread: gpusPerThread, Graphs: graph}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "graph" && graph == 0 {
			l.Graphs = predict.NoGraphs
		}
	})
	return l, nil
}

// errNoCalibrationTable: the files read hold no table the model can take.
var errNoCalibrationTable = errors.New("no table the model can take")

// readCalibration reads the tables of the files (-calibrate's, or the
// one diagnose or plot reads), each run taken with its file's pins, named
// by its file and its index in it ("a.log#0"). It returns the files read,
// the tables, and the lines the reader set aside; files that give no table
// of a collective the model predicts are an error, which names why a table
// was left out, or else the first line set aside.
func readCalibration(files []calibrationFile) (paths []string, tables []predict.Table, problems []problem, err error) {
	if len(files) == 0 {
		return nil, nil, nil, nil
	}
	// paths are the files a table was taken from; all, every file read.
	var all []string
	for _, f := range files {
		if !slices.Contains(all, f.path) {
			all = append(all, f.path)
		}
		ts, bad, err := readTables(f.path, f.pins, f.tests)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, pr := range bad {
			problems = append(problems, problemOf(f.path, pr))
		}
		for i := range ts {
			ts[i].Name = f.path + ts[i].Name[strings.LastIndex(ts[i].Name, "#"):]
		}
		n := len(tables)
		if len(f.tests) == 0 {
			tables = append(tables, ts...)
		}
		for _, k := range f.tests {
			t, err := tableOfTest(ts, problems, f.path, k, "test=")
			if err != nil {
				return nil, nil, nil, err
			}
			tables = append(tables, t)
		}
		if len(tables) > n && !slices.Contains(paths, f.path) {
			paths = append(paths, f.path)
		}
	}
	if len(tables) == 0 {
		// The reason a table was left out says more than the reader's
		// first remark.
		why := ""
		if len(problems) > 0 {
			k := max(slices.IndexFunc(problems, func(p problem) bool { return strings.Contains(p.String(), "left out") }), 0)
			why = ": " + problems[k].String()
		}
		return all, nil, problems, fmt.Errorf("%w in %s%s", errNoCalibrationTable, strings.Join(all, ", "), why)
	}
	// A table given twice (a file named twice, or a copy) would be held
	// out against itself: the leave-one-out errors would measure nothing.
	kept := tables[:0]
	for _, t := range tables {
		if k := slices.IndexFunc(kept, func(u predict.Table) bool {
			return u.Collective == t.Collective && u.Ranks() == t.Ranks() && slices.Equal(u.Points, t.Points)
		}); k >= 0 {
			problems = append(problems, problem{Message: fmt.Sprintf("%s repeats %s (the same run, sizes and times): it counts once", t.Name, kept[k].Name)})
			continue
		}
		kept = append(kept, t)
	}
	return paths, kept, problems, nil
}

// predictHardware returns the hardware of the GPU named gpu, or when gpu
// is "" of the first table's GPU or the GPU of the system spec names,
// described by spec (predict.Describe). Where the logs name no GPU
// (predict.UnnamedGPU), a system spec names names it; a GPU the logs name
// stays theirs, and a system of another GPU is an error.
func predictHardware(gpu, spec string, tables []predict.Table) (predict.Hardware, []problem, error) {
	hw, problems, _, err := captureHardware(gpu, spec, "", nil, nil, tables)
	return hw, problems, err
}

// captureHardware is predictHardware with what the topology capture tp,
// read from topoFile with the problems bad, settles
// (Hardware.SetTopology) when it is not nil, the problems it raises, and
// tp.
func captureHardware(gpu, spec, topoFile string, tp *topo.Topology, bad []*topo.ParseError, tables []predict.Table) (predict.Hardware, []problem, *topo.Topology, error) {
	name := gpu
	if name == "" && len(tables) > 0 && (tables[0].GPU != predict.UnnamedGPU || systemGPU(spec) == "") {
		name = tables[0].GPU
	}
	hw, err := predict.Describe(name, spec)
	if err != nil {
		return predict.Hardware{}, nil, nil, &describeError{err}
	}
	if name == "" && hw.System == "" {
		return predict.Hardware{}, nil, nil, flagErrorf("without -calibrate, -gpu NAME or -hw system=NAME says which machine the model describes")
	}
	var problems []problem
	if note := nccl.AmbiguousGPU(gpu); note != "" {
		problems = append(problems, problem{Message: "-gpu: " + note})
	}
	if note := hw.LinksNote(); note != "" {
		problems = append(problems, problem{Message: note})
	}
	if tp == nil {
		return hw, problems, nil, nil
	}
	for _, pr := range bad {
		problems = append(problems, problemOf(topoFile, pr))
	}
	catalogLinks := hw.GPU.Known && hw.GPU.NVLinks > 0
	// A card with an optional NVLink bridge may be captured either way.
	bridged := hw.GPU.BridgeLinks > 0
	if n := len(tp.GPUs()); hw.System != "" && n >= 2 && n != hw.PerHost() && !hw.PartOfHost(tp) {
		// As -hw system=NAME,gpus=N is refused unless N is the system's;
		// a capture of part of the host (a container's) shows fewer.
		return predict.Hardware{}, nil, nil, flagErrorf("-topo %s: the capture shows a host of %d GPUs, where -hw system=%s holds %d: it is a capture of another host; leave out -hw system= or -topo",
			topoFile, n, hw.System, hw.PerHost())
	}
	system := hw
	if note := hw.C2CNote(tp); note != "" {
		problems = append(problems, problem{Message: fmt.Sprintf("%s: %s", topoFile, note)})
	}
	if note := hw.TopoFileNote(tp); note != "" {
		problems = append(problems, problem{Message: fmt.Sprintf("%s: %s", topoFile, note)})
	}
	if note := hw.CaptureNote(tp); note != "" && hw.System == "" {
		// A system's facts stand where the capture settles none.
		problems = append(problems, problem{Message: fmt.Sprintf("%s: %s", topoFile, note)})
	}
	if kept := hw.SetTopology(tp); len(kept) > 0 {
		problems = append(problems, problem{Message: fmt.Sprintf("%s: the capture shows %s, which -hw gives otherwise: -hw stands", topoFile, strings.Join(kept, " and "))})
	}
	// GPUs with fewer NVLinks than the others, or off the NVSwitch, are
	// named, since the fabric and links the capture gives follow from them.
	notes := topo.FabricNotes(tp)
	if !topo.FabricKnown(tp) && hw.Sources.Fabric == predict.SourceUser {
		notes = nil // the capture's unknown links, which -hw fabric settles
	}
	for _, n := range notes {
		problems = append(problems, problem{Message: fmt.Sprintf("%s: %s", topoFile, n)})
	}
	// Such a host's healthy GPUs show the catalog's links: the capture is
	// of this machine, and the notes above say why its fabric or links
	// differ from the catalog's.
	faulty := len(notes) > 0 && topo.ReadNVLinks(tp).Most() == hw.GPU.NVLinks
	if err := otherVendor(&hw, tp, "-topo "+topoFile); err != nil {
		return predict.Hardware{}, nil, nil, err
	}
	amd := hw.GPU.Known && hw.GPU.ISA != ""
	if hw.System != "" {
		if shown, keep := systemFactsChanged(&system, &hw); len(shown) > 0 {
			problems = append(problems, problem{Message: fmt.Sprintf("%s: the capture shows %s: it stands over -hw system=%s (-hw system=%s,%s keeps the system's)",
				topoFile, strings.Join(shown, " and "), hw.System, hw.System, strings.Join(keep, ","))})
		}
		return hw, problems, tp, nil // the system, not the GPU's catalog entry, is what the capture is checked against
	}
	captured := hw.Sources.Fabric == predict.SourceTopo && hw.Fabric != predict.FabricPCIe
	links := "NVLinks"
	if amd {
		links = "Infinity Fabric links"
	}
	// rocm-smi counts no links: an XGMI capture leaves them the catalog's.
	if captured && catalogLinks && hw.Sources.NVLinks == predict.SourceTopo && hw.NVLinks != hw.GPU.NVLinks && !bridged && !faulty {
		problems = append(problems, problem{Message: fmt.Sprintf("%s: the capture gives a GPU %d %s, but the catalog gives %s %d: is it a capture of this machine? It is taken as given",
			topoFile, hw.NVLinks, links, hw.GPU.Name, hw.GPU.NVLinks)})
	}
	// A GPU the catalog does not hold has no links there to hold the
	// capture to.
	if hw.GPU.Known && len(tp.GPUs()) >= 2 && hw.Sources.Fabric == predict.SourceTopo && !bridged && catalogLinks == (hw.Fabric == predict.FabricPCIe) && !faulty {
		// A capture of another machine would describe this one wrongly.
		what := fmt.Sprintf("%d %s", hw.GPU.NVLinks, links)
		if !catalogLinks {
			what = "no NVLink"
		}
		by := map[predict.Fabric]string{predict.FabricNVSwitch: "NVSwitch", predict.FabricMesh: "an NVLink mesh", predict.FabricPCIe: "PCIe", predict.FabricInfinity: "Infinity Fabric"}[hw.Fabric]
		problems = append(problems, problem{Message: fmt.Sprintf("%s: the capture joins its GPUs by %s, but the catalog gives %s %s: is it a capture of this machine? It is taken as given",
			topoFile, cmp.Or(by, hw.Fabric.String()), hw.GPU.Name, what)})
	}
	return hw, problems, tp, nil
}

// otherVendor returns a usage error where capture tp, named by what, is
// of the other vendor's GPUs than hw's, with its facts applied: rocm-smi
// shows AMD's GPUs, nvidia-smi NVIDIA's, so such a capture is of another
// machine, whatever its fabric, and would describe this one as no machine
// is (an H100 host joined by Infinity Fabric), against a system's GPU too.
func otherVendor(hw *predict.Hardware, tp *topo.Topology, what string) error {
	rocm, amd := len(tp.ROCm()) > 0, hw.GPU.Known && hw.GPU.ISA != ""
	if !hw.GPU.Known || len(tp.GPUs()) == 0 || rocm == amd {
		return nil
	}
	kind, own, tool := "rocm-smi's, of AMD GPUs", "NVIDIA's", "nvidia-smi topo -m"
	if !rocm {
		kind, own, tool = "nvidia-smi's, of NVIDIA GPUs", "AMD's", "rocm-smi --showtopo"
	}
	if hw.Fabric == predict.FabricInfinity && hw.Sources.Fabric == predict.SourceTopo {
		kind = "rocm-smi's, joining AMD GPUs by Infinity Fabric (XGMI)"
	}
	return flagErrorf("%s: the capture is %s, but %s is %s: it is a capture of another machine; give this machine's (%s), or -gpu NAME where the GPU's name is wrong",
		what, kind, hw.GPU.Name, own, tool)
}

// systemFactsChanged lists the facts of a catalog system (was) that a
// capture replaced in now: as the capture shows them ("nics_per_node 3
// for the system's 8"), and as -hw KEY=VALUE of the system's ("nics=8").
func systemFactsChanged(was, now *predict.Hardware) (shown, keep []string) {
	before := map[string]predict.Fact{}
	for _, f := range was.Facts() {
		before[f.Name] = f
	}
	for _, f := range now.Facts() {
		b, ok := before[f.Name]
		if ok && b.Source == predict.SourceCatalog && f.Source == predict.SourceTopo && b.Value != f.Value {
			shown = append(shown, fmt.Sprintf("%s %s for the system's %s", f.Name, f.Value, b.Value))
			keep = append(keep, b.Key+"="+b.Value)
		}
	}
	return shown, keep
}

// poorLOO is the leave-one-table-out median error beyond which predict
// says that the tables do not predict each other: three times the 15% a
// prediction is held to (docs/scores.md's targets) and more.
const poorLOO = 0.5

// untabledModel says which model predict.Untabled's preds of q on hw
// are, why being its reason for the model at its priors.
func untabledModel(hw predict.Hardware, q predict.Query, preds []predict.Prediction, why string) string {
	if why != "" {
		return "uncalibrated: the model at its priors (commmodel/predict), as " + why
	}
	model := "NCCL's tuning model, uncalibrated (commmodel/nccl)"
	if k := hw.NetLatency; k > 0 && k != 1 && q.Ranks > q.PerNode {
		model += fmt.Sprintf(", with the network's latency at %gx NCCL's figure added (net_latency)", k)
	}
	if slices.ContainsFunc(preds, func(p predict.Prediction) bool { return p.Bound == predict.TermLaunch }) {
		model += ", under the launch floor of the host launching each GPU's kernel in turn where it is longer (bound: launch)"
	}
	return model
}

// sizesBeyond says where sizes lie more than two doublings below the
// smallest or above the largest size the calibration tables of collective
// c ran (of every collective where none ran c): the model's form carries
// the tables' fit there, which no table measured. "" where none does.
func sizesBeyond(tables []predict.Table, c commmodel.Collective, sizes []float64) string {
	lo, hi := math.Inf(1), 0.0
	for _, own := range []bool{true, false} {
		for _, t := range tables {
			if own && t.Collective != c {
				continue
			}
			for _, p := range t.Points {
				lo, hi = min(lo, p.Size), max(hi, p.Size)
			}
		}
		if hi > 0 {
			break
		}
	}
	if !(hi > 0) {
		return ""
	}
	// The doublings as printed, to a tenth: "2.0" is not more than two.
	tenths := func(d float64) float64 { return math.Round(d*10) / 10 }
	var far []string
	for _, s := range sizes {
		switch below, above := tenths(math.Log2(lo/s)), tenths(math.Log2(s/hi)); {
		case below > 2:
			far = append(far, fmt.Sprintf("%s is %.1f doublings below", units.FormatSize(s), below))
		case above > 2:
			far = append(far, fmt.Sprintf("%s is %.1f doublings above", units.FormatSize(s), above))
		}
	}
	if len(far) == 0 {
		return ""
	}
	return fmt.Sprintf("%s the tables' sizes (%s to %s): the model's form carries their fit there, which no table measured; a table that ran such sizes measures it",
		words.And(far), units.FormatSize(lo), units.FormatSize(hi))
}

// sizesPastMemory says where sizes exceed what one GPU holds, as the GPU's
// names print its memory (predict.GPUMemory, GB read as GiB; "" where they
// print none):
// past the largest size nccl-tests runs there, and past the memory
// itself, which even an in-place call's buffer must fit in. nccl-tests
// keeps a reserve of 1 GiB per 16 GiB of the memory, at most 4 GiB, and
// 1 GiB more, and fits three buffers of its largest size in the rest (to
// send, to receive, and the result it checks against; two with -c 0),
// cutting maxBytes to it ("Reducing maxBytes to %ld due to memory
// limitation", src/common.cu at nccl-tests a0b82b2).
func sizesPastMemory(names []string, sizes []float64) string {
	mem := predict.GPUMemory(names)
	if mem == 0 {
		return ""
	}
	const gib = 1 << 30
	runs := (mem - min(math.Ceil(mem/(16*gib)), 4)*gib - gib) / 3
	least := func(above float64) float64 {
		out := 0.0
		for _, s := range sizes {
			if s > above && (out == 0 || s < out) {
				out = s
			}
		}
		return out
	}
	over, past := least(runs), least(mem)
	if over == 0 {
		return ""
	}
	n := fmt.Sprintf("from %s, the sizes are beyond what nccl-tests runs on a GPU of the %.0f GB its name prints: it runs up to %s there, three buffers of the largest size (to send, to receive, and the result it checks against) in the memory less a reserve",
		units.FormatSize(over), mem/gib, units.FormatSize(runs))
	if past > 0 {
		n += fmt.Sprintf("; from %s, beyond the memory itself, which holds even an in-place call's buffer: no run makes those sizes, and their times are the model's form carried there", units.FormatSize(past))
	}
	return n
}

// predict predicts q at sizes bytes on hw, as predict.Untabled does when
// there are no tables and with hw calibrated on them otherwise, and
// records the model, its calibration and the predictions in out.
func (out *predictOutput) predict(hw predict.Hardware, tables []predict.Table, q predict.Query, sizes []float64, guesses []predict.Guess) error {
	var preds []predict.Prediction
	var err error
	var rccl bool // the machine runs RCCL
	if len(tables) == 0 {
		var why string
		if preds, why, err = predict.Untabled(hw, q, sizes); err != nil {
			return err
		}
		out.Model = untabledModel(hw, q, preds, why)
		m := predict.Uncalibrated(hw)
		// The release Untabled runs, NCCL's latest, assumed.
		out.Hardware.Facts = withFact(out.Hardware.Facts, factOf(m.Facts(), "nccl_version"))
		rccl = m.RunsRCCL()
		out.Layout = layoutOutput(m.Layout(q), q.Ranks)
		beyond, err := m.Beyond(q)
		if err != nil {
			return err
		}
		for _, b := range beyond {
			out.Problems = append(out.Problems, problem{Message: b})
		}
	} else {
		out.Model = "calibrated (commmodel/predict)"
		m, err := predict.Calibrate(hw, tables, nil)
		if err != nil {
			return err
		}
		if w := m.BlendWeight(q.Collective); w > 0 {
			out.Model += fmt.Sprintf(", blended with NCCL's uncalibrated model at weight %.1f", w)
		}
		out.addCalibration(m)
		out.Hardware.Facts = m.Facts()
		rccl = m.RunsRCCL()
		if preds, err = m.Predict(q, sizes); err != nil {
			return err
		}
		beyond, err := m.Beyond(q)
		if err != nil {
			return err
		}
		for _, b := range beyond {
			out.Problems = append(out.Problems, problem{Message: b})
		}
		if b := sizesBeyond(tables, q.Collective, sizes); b != "" {
			out.Problems = append(out.Problems, problem{Message: b})
		}
		// Tables whose layouts differ have none to state: a layout none of
		// them ran is one of Beyond's notes.
		l, tl := m.Layout(q), m.TablesLayouts()
		out.Layout = layoutOutput(l, q.Ranks)
		if len(tl) == 1 && layoutDiffers(tl[0], l) {
			out.Layout.Tables = layoutOutput(tl[0], tables[0].Ranks())
		} else if t, ok := sameNodesLayout(tables, q); ok && layoutDiffers(t.Layout, l) {
			// The tables' layouts differ, so the query takes one process
			// per GPU; but those of its own node count ran another, whose
			// launch floor a user of that shape measures.
			out.Layout.Tables = layoutOutput(t.Layout, t.Ranks())
			out.Layout.Tables.Nodes = t.Nodes
		}
	}
	// RCCL's choices are its own where the model takes NCCL's tuner's:
	// not for the grouped sends of AllToAll and SendRecv, which no tuner
	// chooses, nor for what -algo and -proto pin (the channels stay the
	// model's).
	if p2p := q.Collective == commmodel.AllToAll || q.Collective == commmodel.SendRecv; rccl && !p2p {
		cols := "the algorithm, protocol and channels columns are"
		switch {
		case q.Algo != "" && q.Proto != "":
			cols = "the channels column holds"
		case q.Algo != "" || q.Proto != "":
			cols = "the columns that -algo and -proto do not pin are"
		}
		out.Problems = append(out.Problems, problem{Message: rcclChoicesNote(cols)})
	}
	// The interval holds what each guess predicts: the evidence does not
	// tell those machines from the one described.
	held := predict.HoldGuesses(preds, guesses)
	markWidening(out.Hardware.Guesses, guesses, preds, held, sizes)
	preds = held
	for i, pr := range preds {
		out.Predictions = append(out.Predictions, predictPoint{SizeBytes: sizes[i], TimeS: pr.Time,
			Algorithm: pr.Algorithm, Protocol: pr.Protocol, Channels: pr.Channels, LowS: pr.Low, HighS: pr.High, Bound: pr.Bound})
	}
	return nil
}

// markWidening marks each printed guess whose prediction at its size lies
// outside the model's own interval there (own), so that the interval
// printed (held) was widened to hold it, with held's width there: a user
// reads on the guess line that settling it narrows the interval so.
func markWidening(outs []guessOutput, gs []predict.Guess, own, held []predict.Prediction, sizes []float64) {
	for _, g := range gs {
		i := slices.Index(sizes, g.Size)
		if i < 0 || len(g.Times) != len(own) || own[i].Holds(g.Times[i]) || held[i].Low <= 0 {
			continue
		}
		for j := range outs {
			if outs[j].Fact == g.Fact.Name && outs[j].Alternative == g.Alternative {
				outs[j].widens = held[i].High / held[i].Low
			}
		}
	}
}

// addCalibration records m's parameters, its leave-one-table-out errors
// and its notes, which are also problems.
func (out *predictOutput) addCalibration(m *predict.Machine) {
	for _, pr := range m.Params {
		out.Calibration.Parameters = append(out.Calibration.Parameters,
			predictParam{Name: pr.Name, Unit: pr.Unit, Value: pr.Value, Prior: pr.Prior, Identified: pr.Identified})
	}
	if loo := m.LOOMedian; !math.IsNaN(loo) {
		out.Calibration.LOOMedianRelErr = &loo
	}
	if c := m.HeldOutCoverage; !math.IsNaN(c) {
		out.Calibration.LOOCoverage = &c
	}
	for i, e := range m.LOO {
		out.Tables = append(out.Tables, predictTableLOO{Table: m.Tables[i], LOOMedianRelErr: e})
	}
	out.Notes = append(out.Notes, m.Notes...)
	for _, n := range m.Notes {
		out.Problems = append(out.Problems, problem{Message: n})
	}
}

// writePins prints, where every calibration table ran NCCL_ALGO or
// NCCL_PROTO and the prediction does not, that the prediction is NCCL's
// own choice, with the flags that predict a run like theirs: the tables'
// pins may be the site's.
func writePins(w io.Writer, out *predictOutput) {
	if len(out.TablePins) == 0 {
		return
	}
	var flags []string
	for _, p := range out.TablePins {
		name, v, _ := strings.Cut(p, "=")
		flag := map[string]string{"NCCL_ALGO": "-algo", "NCCL_PROTO": "-proto"}[name]
		flags = append(flags, flag+" "+strings.ToLower(v))
	}
	pins := slices.Clone(out.TablePins)
	for i, p := range pins {
		if out.nvlsOff && strings.HasPrefix(p, "NCCL_ALGO=") {
			pins[i] += " (their logs set NCCL_NVLS_ENABLE=0, which leaves NVLS and NVLSTree out)"
		}
	}
	ran := strings.Join(pins, " and ")
	fmt.Fprintf(w, "pins: every calibration table ran %s, and this prediction is NCCL's own choice: give %s to predict a run like theirs\n",
		ran, strings.Join(flags, " "))
}

func writePredictTable(w io.Writer, out *predictOutput) error {
	fmt.Fprintf(w, "%s on %d ranks (%d x %d GPUs), algo %s, proto %s\n", out.Collective, out.P, out.Nodes, out.PerNode, out.Algo, out.Proto)
	writePins(w, out)
	if l := out.Layout; l != nil && l.Tables != nil {
		// A layout that is not the tables' moves the launch floor: say so first.
		why := "give -g, -threads and -graph to predict another"
		if out.Nodes > 1 {
			why = "across nodes a job runs one process per GPU unless -g and -threads say otherwise"
		}
		if n := l.Tables.Nodes; n > 0 {
			fmt.Fprintf(w, "layout: %s, where the tables of %s ran %s (the tables' layouts differ, and the prediction takes one process per GPU: give -g, -threads and -graph to predict a run like theirs)\n",
				l, words.Count(n, "node", "nodes"), l.Tables)
		} else {
			fmt.Fprintf(w, "layout: %s, where the tables ran %s (%s)\n", l, l.Tables, why)
		}
	}
	writeHardware(w, out.Hardware)
	fmt.Fprintf(w, "model: %s\n", out.Model)
	if l := out.Layout; l != nil && l.Tables == nil {
		fmt.Fprintf(w, "layout: %s\n", l)
	}
	if len(out.Calibration.Files) > 0 {
		if e := out.Calibration.LOOMedianRelErr; e != nil {
			cov := ""
			if c := out.Calibration.LOOCoverage; c != nil {
				cov = fmt.Sprintf(", %.0f%% of held-out points inside the 80%% interval", 100**c)
			}
			poor := ""
			if *e > poorLOO {
				poor = ": the tables predict each other that far off, and the prediction below may be as far; settle what the guess lines name, or calibrate on tables of the predicted run's collective and shape"
			}
			fmt.Fprintf(w, "calibrated on %s; leave-one-table-out median error %.1f%%%s%s\n", strings.Join(out.Calibration.Files, ", "), 100**e, cov, poor)
		} else {
			fmt.Fprintf(w, "calibrated on %s; one table, so no table was held out (predicted from the others to test the calibration, and set against NCCL's uncalibrated model: "+
				"a second table of the machine would do both): the interval pools the table's own misses at the fit with a spread assumed beforehand (docs/predict.md, One table is enough)\n",
				strings.Join(out.Calibration.Files, ", "))
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "parameter\tvalue\tprior\tidentified\t")
		for _, p := range out.Calibration.Parameters {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%v\t\n", p.Name, predict.FormatParam(p.Name, p.Unit, p.Value), predict.FormatParam(p.Name, p.Unit, p.Prior), p.Identified)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	// NCCL's uncalibrated model says nothing of what bounds its time.
	bound := slices.ContainsFunc(out.Predictions, func(p predictPoint) bool { return p.Bound != "" })
	head := "size\ttime\tlow\thigh\talgorithm\tprotocol\tchannels\t"
	if bound {
		head += "bound\t"
	}
	fmt.Fprintln(tw, head)
	d := units.FormatDuration
	for _, p := range out.Predictions {
		ch := "-"
		if p.Channels > 0 {
			ch = fmt.Sprint(p.Channels)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t", units.FormatSize(p.SizeBytes), d(p.TimeS), d(p.LowS), d(p.HighS), p.Algorithm, p.Protocol, ch)
		if bound {
			fmt.Fprintf(tw, "%s\t", p.Bound)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func derefNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// readTables reads the tables of the measurement file at path, an
// nccl-tests log or a tidy CSV (readLog), with pins on each, and
// returns them with the reader's problems and those of the tables left out:
// of the file, and of its tests numbered in tests (all of them where tests
// is empty). TablesOf names each table by its test's number ("a.log#3").
func readTables(path string, pins predict.Pins, tests []int) ([]predict.Table, []error, error) {
	// The reader infers each test with what the pins say of it: a
	// collective or a rank count it would otherwise have guessed.
	l, err := readLog(path, &nccltests.Options{Collective: pins.Collective, Ranks: pins.Ranks, Nodes: pins.Nodes})
	if err != nil {
		return nil, nil, err
	}
	pinsOf := func(int) predict.Pins { return pins }
	ts, problems := predict.TablesOf(l.Tests, path, pinsOf)
	// Keep the problems of the tests taken (all without test=), and of the
	// file; an elided Rank list is no problem where the table has its node
	// count (a pin, or NCCL's nNodes).
	built := map[int]bool{}
	for _, t := range ts {
		if k, err := strconv.Atoi(t.Name[strings.LastIndex(t.Name, "#")+1:]); err == nil {
			built[k] = true
		}
	}
	var kept []error
	for _, pr := range append(predict.Unsettled(l.Problems, l.Tests, pinsOf), problems...) {
		k := -1 // the test whose lines hold the problem, -1 for the file's
		var pe *nccltests.ParseError
		if errors.As(pr, &pe) {
			for i, t := range l.Tests {
				if t.Line <= pe.Line {
					k = i
				}
			}
		}
		if k >= 0 && (len(tests) > 0 && !slices.Contains(tests, k) || built[k] && errors.Is(pr, nccltests.ErrElided)) {
			continue
		}
		if k >= 0 && errors.Is(pr, nccltests.ErrAmbiguous) && l.Tests[k].Ambiguous() {
			g := &guessedCollective{test: k, err: pe.Err}
			for _, c := range l.Tests[k].Candidates {
				g.candidates = append(g.candidates, c.String())
			}
			wrapped := *pe
			wrapped.Err = g
			pr = &wrapped
		}
		if k >= 0 && runFailed(pr) {
			wrapped := *pe
			wrapped.Err = &failedRun{test: k, err: pe.Err}
			pr = &wrapped
		}
		kept = append(kept, pr)
	}
	return ts, kept, nil
}

// runFailed reports that the reader's problem err says the run failed:
// nccl-tests' own check (#wrong, out-of-bounds values), or a table that
// stops early where the log does not say it was abridged (a hang or a
// crash).
func runFailed(err error) bool {
	return errors.Is(err, nccltests.ErrFailed) || errors.Is(err, nccltests.ErrStopped) && !errors.Is(err, nccltests.ErrAbridged)
}

// A failedRun is a reader's problem that says the run of the log's test of
// index test failed (runFailed): readTables wraps it, so that diagnose can
// say so with its findings.
type failedRun struct {
	test int
	err  error
}

func (f *failedRun) Error() string { return f.err.Error() }
func (f *failedRun) Unwrap() error { return f.err }

// A describeError is a -hw description predict.Describe refuses: a usage
// error (flagError) when -hw gives it on the command line, a failure when
// it comes from a file (hwError says which).
type describeError struct{ err error }

func (e *describeError) Error() string { return "-hw: " + e.err.Error() }
func (e *describeError) Unwrap() error { return e.err }

// hwError returns err, a usage error where it is a description that the
// -hw value hw gives on the command line and predict.Describe refuses; a
// file's refused value is named at its line among kvs, the file's pairs
// (readDescription's).
func hwError(hw string, kvs []hwPair, err error) error {
	var d *describeError
	if errors.As(err, &d) && !hwFile(hw) {
		return &flagError{err}
	}
	if errors.As(err, &d) {
		// The file's line of the KEY=VALUE that Describe names, its key
		// and value trimmed ("fabric= x" is fabric=x) and in any case
		// (Describe writes values in lower case), or quoted where it is no
		// KEY=VALUE (hardware "0": ...); else the file alone.
		msg := strings.ToLower(d.err.Error())
		for _, kv := range kvs {
			text := kv.text
			if key, value, ok := strings.Cut(text, "="); ok {
				text = strings.TrimSpace(key) + "=" + strings.TrimSpace(value)
			}
			for _, named := range []string{"hardware " + strings.ToLower(text), "hardware " + strings.ToLower(strconv.Quote(text))} {
				if _, after, ok := strings.Cut(msg, named); ok && (after == "" || after[0] == ':' || after[0] == ' ') {
					return &describeError{fmt.Errorf("%s:%d: %w", hw, kv.line, d.err)}
				}
			}
		}
		return &describeError{fmt.Errorf("%s: %w", hw, d.err)}
	}
	return err
}

// An hwPair is one KEY=VALUE of a -hw description and the line of the
// file that gives it (0 on the command line).
type hwPair struct {
	text string
	line int
}

// hwPairs returns the KEY=VALUE pairs of the -hw value hw, a description
// or a file of KEY=VALUE lines (# starts a comment), each trimmed.
func hwPairs(hw string) ([]hwPair, error) {
	if !hwFile(hw) {
		var out []hwPair
		for _, kv := range strings.Split(hw, ",") {
			if kv = strings.TrimSpace(kv); kv != "" {
				out = append(out, hwPair{kv, 0})
			}
		}
		return out, nil
	}
	b, err := readInput(hw)
	if err != nil {
		return nil, fmt.Errorf("-hw: %w (give KEY=VALUE,... or a file of such lines)", err)
	}
	var out []hwPair
	// A byte-order mark, which an editor may write, begins no key.
	for i, line := range strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n") {
		if k := strings.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		for _, kv := range strings.Split(line, ",") {
			if kv = strings.TrimSpace(kv); kv != "" {
				out = append(out, hwPair{kv, i + 1})
			}
		}
	}
	return out, nil
}

// hwDescribesNothing is the warning, "" for none, where the -hw value hw
// names a file whose description spec (readDescription's) is empty: a file
// of no KEY=VALUE (/dev/null, or only comments and blank lines) describes
// nothing, and the machine is what it would be without -hw, which
// without names ("the logs, the capture and the catalog").
func hwDescribesNothing(hw, spec, without string) string {
	if !hwFile(hw) || spec != "" {
		return ""
	}
	return fmt.Sprintf("-hw %s: the file gives no KEY=VALUE (it is empty, or holds only comments and blank lines): it describes nothing, and the machine is what %s say", hw, without)
}

// hwFile reports whether the -hw value hw names a file rather than giving
// KEY=VALUE pairs.
func hwFile(hw string) bool { return hw != "" && !strings.Contains(hw, "=") }

// readDescription returns the -hw description, the flag itself or the
// KEY=VALUE lines of the file it names (# starts a comment) joined by
// commas, and its pairs (hwPairs).
func readDescription(hw string) (string, []hwPair, error) {
	kvs, err := hwPairs(hw)
	if err != nil {
		return "", nil, err
	}
	// A key given two values would be read as its last without a word
	// (links=18,links=2).
	given := map[string]hwPair{}
	texts := make([]string, len(kvs))
	for i, kv := range kvs {
		texts[i] = kv.text
		key, value, _ := strings.Cut(kv.text, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		first, ok := given[key]
		if !ok {
			given[key] = hwPair{value, kv.line}
			continue
		}
		if first.text == value {
			continue
		}
		if kv.line == 0 {
			return "", nil, flagErrorf("-hw: %s given twice (%s=%s and %s=%s): give it once", key, key, first.text, key, value)
		}
		return "", nil, fmt.Errorf("-hw: %s:%d: %s given twice (%s=%s here, %s=%s on line %d): give it once", hw, kv.line, key, key, value, key, first.text, first.line)
	}
	if !hwFile(hw) {
		return hw, kvs, nil
	}
	return strings.Join(texts, ","), kvs, nil
}
