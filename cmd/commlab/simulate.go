package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/schedule"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

func init() {
	registerWarn("simulate", "execute an algorithm's schedule on in-memory ranks and hold it to the model", runSimulate)
}

// simulateResult is the JSON of "commlab simulate" (the contract in docs/design.md,
// plus the fields after model_bytes_per_rank).
type simulateResult struct {
	Algorithm        string  `json:"algorithm"`
	Collective       string  `json:"collective"`
	P                int     `json:"p"`
	SizeBytes        int64   `json:"size_bytes"`
	Steps            int     `json:"steps"`
	MaxBytesSent     int64   `json:"max_bytes_sent_per_rank"`
	MaxPeers         int     `json:"max_peers"`
	Correct          bool    `json:"correct"`
	ModelSteps       int     `json:"model_steps"`
	ModelBytes       float64 `json:"model_bytes_per_rank"`
	ModelPeers       int     `json:"model_peers"`
	ElemBytes        int     `json:"elem_bytes"`
	MaxBytesReceived int64   `json:"max_bytes_received_per_rank"`
	MaxBytesReduced  int64   `json:"max_bytes_reduced_per_rank"`
	MaxMessages      int     `json:"max_messages_per_rank"`
	Fanout           int     `json:"fanout"`
	Incast           int     `json:"incast"`
	PathBytes        int64   `json:"path_bytes"`
	ModelPathBytes   float64 `json:"model_path_bytes"`
	ReplayTime       float64 `json:"replay_time_s"`
	ModelTime        float64 `json:"model_time_s"`
	// FluidModelTime is, for the pipelines commlab model times without a
	// chunk count (tree, nvlstree, collnet-chain), that fluid limit's time on
	// the same links: what model prints for the algorithm, where ModelTime
	// is the model of the schedule's chunks.
	FluidModelTime    float64 `json:"model_fluid_time_s,omitempty"`
	Links             string  `json:"links"`
	PerNode           int     `json:"per_node,omitempty"`
	Mismatch          string  `json:"mismatch,omitempty"`
	MemoryBytesNeeded float64 `json:"memory_bytes_needed"`
}

// simulateOutput is what simulate prints: the result, and in JSON and text
// (the CSV row is the result's alone) the machine of the replay's links
// where -server, -gpu or -hw describe one, with the assumed facts the links
// rest on.
type simulateOutput struct {
	simulateResult
	Caveats  []string        `json:"caveats,omitempty"`
	Hardware *hardwareOutput `json:"hardware,omitempty"`
}

// defaultMaxMem is the default -max-mem, the one place it is chosen: half
// of the machine's physical memory (MemTotal in /proc/meminfo), leaving the
// other half to the system and to whatever else runs, or 4 GiB where
// /proc/meminfo cannot be read. A request whose buffers and schedule
// (schedule.Footprint) would need more is refused before anything is
// allocated. On a 24 GiB machine the default is 12 GiB.
func defaultMaxMem() float64 {
	if total, err := memTotal("/proc/meminfo"); err == nil {
		return total / 2
	}
	return 4 << 30
}

// memTotal reads MemTotal, in bytes, from a file in the form of /proc/meminfo
// ("MemTotal:       24684084 kB").
func memTotal(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil || kb == 0 {
				return 0, fmt.Errorf("%s: bad MemTotal %q", path, f[1])
			}
			return float64(kb) * 1024, nil
		}
	}
	return 0, fmt.Errorf("%s: no MemTotal line in kB", path)
}

// runSimulate runs "commlab simulate": it checks the flags, executes the
// schedule, holds it to the model, and prints.
func runSimulate(args []string, stdout, stderr io.Writer) error {
	req, err := parseSimulateFlags(args)
	if err != nil {
		return asFlagError(err)
	}
	// Under -format json nothing goes to standard error: the note that a
	// simulation takes long is the JSON's caveat.
	progress := stderr
	if req.format == formatJSON {
		progress = io.Discard
	}
	res, err := simulate(req, progress)
	if err != nil {
		return err
	}
	out := simulateOutput{simulateResult: res, Caveats: append(slices.Clone(req.caveats), simulateNotes(req, res)...), Hardware: req.hw}
	if note := longSimulation(req); note != "" && req.format == formatJSON {
		out.Caveats = append(out.Caveats, note)
	}
	switch req.format {
	case formatJSON:
		return writeJSON(stdout, out)
	case formatCSV:
		return writeCSV(stdout, []simulateResult{res})
	}
	return printSimulate(stdout, out)
}

// simulateRequest is a "commlab simulate" command line, its flags checked.
type simulateRequest struct {
	c commmodel.Collective
	a commmodel.Algorithm
	// p is the rank count and size the buffer S, in bytes.
	p    int
	size int64
	// perNode is the node size of the replay's two links; 0 for one link.
	perNode int
	// intra and inter are the replay's links (-intra, -inter; the H20's by
	// default), named for the output.
	intra, inter         commmodel.Link
	intraName, interName string
	// caveats and hw are the machine's, where the flags name one.
	caveats []string
	hw      *hardwareOutput
	// elem is the element size, in bytes.
	elem int
	seed uint64
	// maxMem is the most memory the simulation may need, in bytes.
	maxMem int64
	format string
}

// parseSimulateFlags parses and checks the flags of "commlab simulate", with
// their defaults: the node size of the algorithms that need one
// (defaultPerNode), the chunks of a pipeline, the element size and -max-mem
// (defaultMaxMem).
func parseSimulateFlags(args []string) (simulateRequest, error) {
	fs := newFlags("simulate")
	collective := fs.String("collective", "allreduce", "collective: "+commmodel.CollectiveNames())
	algo := fs.String("algo", "", "algorithm of the collective: "+algorithmsByCollective())
	p := fs.Int("p", 0, "number of ranks")
	sizeText := fs.String("size", "", "size S in bytes as nccl-tests prints it (e.g. 960000, 1MiB)")
	perNode := fs.Int("per-node", 0, "GPUs per node: the node size of hierarchical, nvlstree and collnet (default: the largest divisor of -p up to 8 that leaves two nodes); with any algorithm, times the replay on H20 NVLink inside a node and H20 RDMA between nodes; with -server, -gpu or -hw, the run's GPUs on one host (default: the system's GPUs a host, 8 without a system, or -p where it is fewer), whose NVLink domain is the node")
	inter := fs.String("inter-algo", "", "hierarchical AllReduce: the algorithm between nodes (default ring)")
	chunks := fs.Int("chunks", 0, "pipelined broadcast and tree: chunk count, per half for the tree (default 8)")
	elemText := fs.String("elem", "", "element size (default 4B: float, as nccl-tests; a bare number is bytes)")
	seed := fs.Uint64("seed", 1, "seed of the ranks' input data")
	maxMemText := fs.String("max-mem", "", "refuse a simulation that needs more memory than this, e.g. 8GiB or 16GB; a bare number is bytes (default: half the physical memory)")
	intraText := fs.String("intra", "", "the replay's link inside a node, or between every pair without -per-node, ALPHA,BW (default: h20-intra)")
	interText := fs.String("inter", "", "the replay's link between nodes, ALPHA,BW (default: h20-inter)")
	var machine machineLinkFlags
	machine.add(fs, "a server's links for the replay, and its node size when -per-node is not given")
	output := addFormatFlags(fs)
	if _, err := parseFlags(fs, args, 0); err != nil {
		return simulateRequest{}, err
	}
	format, err := output.get()
	if err != nil {
		return simulateRequest{}, err
	}
	if err := machine.exclude(fs, map[string]string{"intra": *intraText, "inter": *interText}); err != nil {
		return simulateRequest{}, err
	}
	links, err := parseReplayLinks(*intraText, *interText)
	if err != nil {
		return simulateRequest{}, err
	}
	c, err := commmodel.ParseCollective(*collective)
	if err != nil {
		return simulateRequest{}, err
	}
	var mach textbookMachine
	if machine.given() {
		if err := checkRanks(fs, *p, "the number of ranks", "8"); err != nil {
			return simulateRequest{}, err
		}
		if mach, err = machine.machine(c, *p, *perNode); err != nil {
			return simulateRequest{}, err
		}
		links = replayLinks{mach.cluster.Intra, mach.cluster.Inter, mach.intraName, mach.interName}
		*perNode = mach.cluster.PerNode
	}
	if names := commmodel.Names(c); *algo == "" && len(names) == 1 {
		*algo = names[0] // SendRecv's shift: nothing to choose
	} else if *algo == "" {
		return simulateRequest{}, flagErrorf("need -algo, one of %s", strings.Join(names, ", "))
	}
	if err := checkRanks(fs, *p, "the number of ranks", "8"); err != nil {
		return simulateRequest{}, err
	}
	if *sizeText == "" {
		return simulateRequest{}, flagErrorf("need -size, the buffer per rank, such as -size 1MiB")
	}
	size, err := units.ParseSize(*sizeText)
	if err != nil {
		return simulateRequest{}, flagErrorf("-size: %w", err)
	}
	if *perNode < 0 || *perNode > 0 && *p%*perNode != 0 {
		return simulateRequest{}, flagErrorf("-per-node %d does not divide -p %d into whole nodes; %s", *perNode, *p, perNodeAdvice(*p, *perNode))
	}
	if *perNode == 0 && (*algo == "hierarchical" || *algo == "nvlstree" || strings.HasPrefix(*algo, "collnet")) {
		*perNode = defaultPerNode(*p)
	}
	if *chunks == 0 {
		*chunks = defaultChunks
	}
	opt, err := algorithmOptions(c, *algo, *perNode, *inter, *chunks)
	if err != nil {
		return simulateRequest{}, err
	}
	a, err := commmodel.Lookup(c, *algo, opt)
	if err != nil {
		return simulateRequest{}, err
	}
	if err := mach.checkNVLS([]commmodel.Algorithm{a}); err != nil {
		return simulateRequest{}, err
	}
	elem, err := sizeFlag("elem", *elemText, schedule.DefaultElemBytes)
	if err != nil {
		return simulateRequest{}, err
	}
	if int64(int(elem)) != elem {
		return simulateRequest{}, flagErrorf("-elem %d B: too large", elem)
	}
	if elem < 1 {
		return simulateRequest{}, flagErrorf("-elem %d B: want at least 1 B, such as -elem 4B (a float, as nccl-tests)", elem)
	}
	if size%elem != 0 {
		// Two flags that disagree: a usage error, not the schedule's.
		whole := fmt.Sprintf("-size %d", (size/elem+1)*elem)
		if size > elem {
			whole = fmt.Sprintf("-size %d or %d", size/elem*elem, (size/elem+1)*elem)
		}
		return simulateRequest{}, flagErrorf("-size %d B is not a whole number of %d-byte elements (-elem): give %s", size, elem, whole)
	}
	maxMem, err := sizeFlag("max-mem", *maxMemText, int64(defaultMaxMem()))
	if err != nil {
		return simulateRequest{}, err
	}
	return simulateRequest{c: c, a: a, p: *p, size: size, perNode: *perNode, intra: links.intra, inter: links.inter,
		intraName: links.intraName, interName: links.interName, caveats: mach.caveats, hw: mach.hw,
		elem: int(elem), seed: *seed, maxMem: maxMem, format: format}, nil
}

// replayLinks are the links a simulation's replay is timed on, with the
// names its output gives them.
type replayLinks struct {
	intra, inter         commmodel.Link
	intraName, interName string
}

// parseReplayLinks returns the replay's links of -intra and -inter, the
// article's H20 links where they are not given.
func parseReplayLinks(intra, inter string) (replayLinks, error) {
	links := replayLinks{presets.H20Intra, presets.H20Inter, "h20-intra", "h20-inter"}
	if intra != "" {
		l, err := alphaBW("intra", intra)
		if err != nil {
			return replayLinks{}, err
		}
		links.intra, links.intraName = l, "-intra "+intra
	}
	if inter != "" {
		l, err := alphaBW("inter", inter)
		if err != nil {
			return replayLinks{}, err
		}
		links.inter, links.interName = l, "-inter "+inter
	}
	return links, nil
}

// longElements is the most elements a simulation copies between its ranks
// before it says first that it will take long: 1e11, minutes on two cores
// (allreduce ring on 4096 ranks of 4 MiB, 8.6e9 elements, took 37 s on
// one of 2 cores and 24 GiB).
const longElements = 1e11

// longSimulation says, before it starts, that req's simulation copies more
// than longElements between its ranks (the model's bytes of the busiest
// rank, times the ranks), and how to hold the same schedule to the model
// sooner: its steps and messages do not grow with -size, which only moves
// more elements in each. It is "" for a simulation of fewer.
func longSimulation(req simulateRequest) string {
	c := req.a.Cost(req.p, float64(req.size))
	elems := c.Bytes * float64(req.p) / float64(req.elem)
	if !(elems > longElements) {
		return ""
	}
	// The size at which the simulation copies about longElements/100,
	// rounded down to a power of two, no less than one element a rank.
	small := float64(req.size) * longElements / 100 / elems
	small = math.Max(math.Exp2(math.Floor(math.Log2(small))), float64(req.p*req.elem))
	return fmt.Sprintf("%s %s on %d ranks of %s copies about %.2g elements between ranks (minutes at 1e11, hours at 1e12); "+
		"its steps and messages do not grow with -size, so -size %s holds the same schedule to the model sooner",
		req.c, req.a.Name(), req.p, units.FormatSize(float64(req.size)), elems, units.FormatSize(small))
}

// simulate executes req's schedule on in-memory ranks, after checking that
// it fits in req.maxMem, and sets what it did beside the model's cost and
// time: the replay and the model on req.intra inside nodes of req.perNode
// GPUs and req.inter between them, or on req.intra between every pair.
// A simulation that copies more than longElements says so first to
// stderr (longSimulation).
func simulate(req simulateRequest, stderr io.Writer) (simulateResult, error) {
	c, a, p, size := req.c, req.a, req.p, req.size
	need, err := schedule.Footprint(a, p, size, req.elem)
	if err != nil {
		return simulateResult{}, err
	}
	if need > float64(req.maxMem) {
		return simulateResult{}, fmt.Errorf("%s %s on %d ranks of %d B would need about %s of memory, more than the limit of %s (-max-mem); use a smaller -p or -size, or -max-mem %s if the machine has that much",
			c, a.Name(), p, size, units.FormatSize(need), units.FormatSize(float64(req.maxMem)), enoughMem(need))
	}
	if note := longSimulation(req); note != "" {
		fmt.Fprintf(stderr, "commlab simulate: %s\n", note)
	}
	s, err := schedule.NewElem(a, p, size, req.elem)
	if err != nil {
		return simulateResult{}, err
	}
	res, err := schedule.Simulate(s, req.seed)
	if err != nil {
		return simulateResult{}, err
	}
	model := a.Cost(p, float64(size))
	out := simulateResult{
		Algorithm: a.Name(), Collective: c.String(), P: p, SizeBytes: size,
		Steps: res.Steps, MaxBytesSent: res.MaxSent(), MaxPeers: res.MaxPeers(), Correct: res.Correct,
		ModelSteps: model.Steps, ModelBytes: model.Bytes, ModelPeers: model.Peers,
		ElemBytes: req.elem, MaxBytesReceived: maxOf(res.Received), MaxBytesReduced: res.MaxReduced(),
		MaxMessages: res.MaxMessages(), Fanout: res.Fanout, Incast: res.Incast,
		PathBytes: res.PathBytes, ModelPathBytes: model.Path(),
		Mismatch: res.Mismatch, MemoryBytesNeeded: need,
	}
	if req.perNode > 0 && req.perNode < p {
		cl := commmodel.Cluster{Nodes: p / req.perNode, PerNode: req.perNode, Intra: req.intra, Inter: req.inter}
		out.Links = fmt.Sprintf("%s inside nodes of %d, %s between them", req.intraName, req.perNode, req.interName)
		out.PerNode = req.perNode
		out.ReplayTime = schedule.Replay(s, schedule.TwoLevel(req.perNode, cl.Intra, cl.Inter))
		out.ModelTime = cl.Time(a, float64(size))
		if f := fluidForm(a); f != nil {
			out.FluidModelTime = cl.Time(f, float64(size))
		}
	} else {
		out.Links = req.intraName + " between every pair"
		out.ReplayTime = schedule.Replay(s, schedule.Uniform(req.intra))
		out.ModelTime = model.Time(req.intra)
		if f := fluidForm(a); f != nil {
			out.FluidModelTime = commmodel.Time(f, p, float64(size), req.intra)
		}
	}
	return out, nil
}

// fluidForm returns a with no chunk count, the form commlab model times,
// for the pipelines that have one (tree, nvlstree, collnet-chain); nil for
// every other algorithm, which model times as simulate executes it.
func fluidForm(a commmodel.Algorithm) commmodel.Algorithm {
	switch a := a.(type) {
	case commmodel.Tree:
		return commmodel.Tree{PerNode: a.PerNode}
	case commmodel.NVLSTree:
		return commmodel.NVLSTree{PerNode: a.PerNode}
	case commmodel.CollNetChain:
		return commmodel.CollNetChain{PerNode: a.PerNode}
	}
	return nil
}

// simulateNotes says where the two time columns part, or part from what
// commlab model prints, and why: a pipeline model times as its fluid limit,
// and a replay that is not the model's time: a schedule whose parts are
// rounded to whole elements (its critical-path bytes are not the model's),
// or, on two levels, a stage whose busiest rank on either level is not the
// replay's slowest.
func simulateNotes(req simulateRequest, r simulateResult) []string {
	var out []string
	if r.FluidModelTime > 0 {
		out = append(out, fmt.Sprintf("commlab model times %s as its pipeline's fluid limit, no chunk count: %s on these links; this schedule and the model column run -chunks %d",
			r.Algorithm, units.FormatDuration(r.FluidModelTime), chunksOf(req.a)))
	}
	whole := math.Abs(float64(r.PathBytes)-r.ModelPathBytes) > 1e-9*r.ModelPathBytes
	if d := r.ReplayTime / r.ModelTime; r.ModelTime > 0 && math.Abs(d-1) > 1e-6 {
		why := ""
		switch {
		case whole:
			why = fmt.Sprintf(": the schedule's parts are whole elements, %d critical-path bytes where the model's even parts give %.8g", r.PathBytes, r.ModelPathBytes)
		case req.perNode > 0 && req.perNode < r.P:
			why = ": the model times each stage by its busiest rank on either level, the replay every rank's messages on the links they take"
		}
		out = append(out, fmt.Sprintf("the replay's time is %.7gx the model's%s", d, why))
	} else if b := float64(r.PathBytes) / r.ModelPathBytes; whole && math.Abs(b-1) > 1e-3 {
		// The times agree to a millionth while the bytes part by more
		// than a thousandth: the steps' latency outweighs them (a red
		// team: 8032 against 2013.5, no note).
		out = append(out, fmt.Sprintf("the schedule's parts are whole elements: %d critical-path bytes where the model's even parts give %.8g (%.3gx), which the times do not show, as the steps' latency outweighs them here",
			r.PathBytes, r.ModelPathBytes, b))
	}
	if c := chunksOf(req.a); c > 0 && req.size > 0 && float64(c) > float64(req.size)/float64(req.elem) {
		out = append(out, fmt.Sprintf("-chunks %d is more than the %d elements of -size %d B: most chunks are empty, and each still takes a step's latency", c, req.size/int64(req.elem), req.size))
	}
	return out
}

// chunksOf is the chunk count of a pipeline, 0 for other algorithms.
func chunksOf(a commmodel.Algorithm) int {
	switch a := a.(type) {
	case commmodel.Tree:
		return a.Chunks
	case commmodel.NVLSTree:
		return a.Chunks
	case commmodel.CollNetChain:
		return a.Chunks
	}
	return 0
}

// algorithmsByCollective lists the algorithms of each collective, as
// "allreduce: ring, ...; alltoall: direct, ...".
func algorithmsByCollective() string {
	var parts []string
	for _, c := range commmodel.Collectives() {
		parts = append(parts, c.String()+": "+strings.Join(commmodel.Names(c), ", "))
	}
	return strings.Join(parts, "; ")
}

// enoughMem is a -max-mem value, in bytes, that admits a simulation needing
// need bytes: need rounded up to two significant digits, in the form
// 4.6e+09.
func enoughMem(need float64) string {
	e := math.Pow(10, math.Floor(math.Log10(max(need, 1)))-1)
	return strconv.FormatFloat(math.Ceil(need/e)*e, 'g', 2, 64)
}

// defaultPerNode is the node size of a hierarchical simulation without
// -per-node: the largest divisor of p that is at most 8 (the article's 8-GPU
// node) and leaves at least two nodes; 1 for p = 1 and for prime p.
func defaultPerNode(p int) int {
	for d := min(8, p/2); d > 1; d-- {
		if p%d == 0 {
			return d
		}
	}
	return 1
}

func maxOf(xs []int64) int64 {
	m := int64(0)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func printSimulate(w io.Writer, r simulateOutput) error {
	fmt.Fprintf(w, "%s %s, P = %d, S = %d B (%d-byte elements): correct = %v\n", r.Collective, r.Algorithm, r.P, r.SizeBytes, r.ElemBytes, r.Correct)
	if r.Mismatch != "" {
		fmt.Fprintf(w, "first wrong element: %s\n", r.Mismatch)
	}
	for _, c := range r.Caveats {
		fmt.Fprintf(w, "note: %s\n", c)
	}
	if r.Hardware != nil {
		writeHardware(w, *r.Hardware)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tsimulated\tmodel\t")
	fmt.Fprintf(tw, "steps\t%d\t%d\t\n", r.Steps, r.ModelSteps)
	// The model's byte counts are whole in all but a few shapes; printed
	// in full, they compare digit by digit with the simulation's.
	full := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	fmt.Fprintf(tw, "bytes sent, busiest rank\t%d\t%s\t\n", r.MaxBytesSent, full(r.ModelBytes))
	fmt.Fprintf(tw, "critical-path bytes\t%d\t%s\t\n", r.PathBytes, full(r.ModelPathBytes))
	fmt.Fprintf(tw, "peers\t%d\t%d\t\n", r.MaxPeers, r.ModelPeers)
	fmt.Fprintf(tw, "time (%s)\t%s\t%s\t\n", r.Links, units.FormatDuration(r.ReplayTime), units.FormatDuration(r.ModelTime))
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "bytes received %d, reduced %d, messages %d per rank at most; fanout %d, incast %d\n",
		r.MaxBytesReceived, r.MaxBytesReduced, r.MaxMessages, r.Fanout, r.Incast)
	return err
}
