package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

func init() {
	register("model", "time each algorithm of a collective at given sizes", runModel)
	register("crossover", "sizes at which one algorithm of a collective overtakes another", runCrossover)
}

// linkFlags are the flags that choose the links: -link, or -alpha and
// -bw, for one link; -intra and -inter, each ALPHA,BW, for a cluster of
// -per-node GPUs a node; or a machine's, named by -server, -gpu and -hw.
type linkFlags struct {
	named, alpha, bw, gamma string
	intra, inter            string
	machine                 machineLinkFlags
}

func (f *linkFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&f.named, "link", "", "a named link instead of -alpha/-bw: "+strings.Join(presets.LinkNames(), " or "))
	fs.StringVar(&f.alpha, "alpha", "", "start-up latency per step, with unit (e.g. 2us)")
	fs.StringVar(&f.bw, "bw", "", "per-rank bus bandwidth, with unit (e.g. 350GB/s, 400Gb/s)")
	fs.StringVar(&f.gamma, "gamma", "", "reduction time per byte, with -link or -alpha/-bw, with unit (e.g. 0.01ns/B, 10ns/KB); a bare number is seconds per byte (default 0)")
	fs.StringVar(&f.intra, "intra", "", "the link inside a node, ALPHA,BW (e.g. 2us,350GB/s); with -inter, the ranks form nodes of -per-node GPUs")
	fs.StringVar(&f.inter, "inter", "", "the link between nodes, per rank, ALPHA,BW (e.g. 15us,50GB/s); with -intra")
	f.machine.add(fs, "a server's nodes and links instead of -intra and -inter")
}

// byHand returns the link flags given by hand, by name without the dash,
// for machineLinkFlags.exclude.
func (f *linkFlags) byHand() map[string]string {
	return map[string]string{"link": f.named, "alpha": f.alpha, "bw": f.bw, "gamma": f.gamma, "intra": f.intra, "inter": f.inter}
}

// twoLevel reports whether the flags describe a cluster (-intra and -inter).
func (f *linkFlags) twoLevel() bool { return f.intra != "" || f.inter != "" }

// levels returns the links of -intra and -inter.
func (f *linkFlags) levels() (intra, inter commmodel.Link, err error) {
	if f.intra == "" || f.inter == "" {
		return intra, inter, fmt.Errorf("give both -intra and -inter, each ALPHA,BW such as 2us,350GB/s")
	}
	if f.named != "" || f.alpha != "" || f.bw != "" || f.gamma != "" {
		return intra, inter, flagErrorf("-intra and -inter exclude -link, -alpha, -bw and -gamma")
	}
	if intra, err = alphaBW("intra", f.intra); err != nil {
		return intra, inter, err
	}
	inter, err = alphaBW("inter", f.inter)
	return intra, inter, err
}

// alphaBW reads the value v of the link flag -name, ALPHA,BW.
func alphaBW(name, v string) (commmodel.Link, error) {
	a, b, ok := strings.Cut(v, ",")
	var l commmodel.Link
	var err error
	if !ok {
		return l, fmt.Errorf("-%s %q: want ALPHA,BW such as 2us,350GB/s", name, v)
	}
	if l.Alpha, err = units.ParseDuration(strings.TrimSpace(a)); err != nil {
		return l, fmt.Errorf("-%s: %w", name, err)
	}
	if l.BW, err = units.ParseBandwidth(strings.TrimSpace(b)); err != nil {
		return l, fmt.Errorf("-%s: %w", name, err)
	}
	if err := plausibleLink(l); err != nil {
		return l, fmt.Errorf("-%s %s: %w", name, v, err)
	}
	return l, nil
}

// plausibleLink bounds a link given by hand to what keeps every time of
// every size below 2^62 B finite, with room: a latency of at most an hour,
// a bandwidth of 1 B/s to 1000 TB/s, a reduction of at most a second a
// byte (-gamma 1e300s/B made every time +Inf, and the fastest among them
// arbitrary). Its callers name the flag and the value as given; the bounds
// are written as units.ParseDuration and ParseBandwidth read them (it said
// 1 PB/s, which they refuse, and the value rounded: 1001TB/s as 1000 TB/s).
func plausibleLink(l commmodel.Link) error {
	switch {
	case !(l.Alpha >= 0 && l.Alpha <= 3600):
		return errors.New("want a latency of 0 s to 3600 s, such as 2us")
	case !(l.BW >= 1 && l.BW <= 1e15):
		return errors.New("want a bandwidth of 1 B/s to 1000 TB/s, such as 350GB/s")
	case !(l.Gamma >= 0 && l.Gamma <= 1):
		return errors.New("want a reduction time of 0 s/B to 1 s/B, such as 0.01ns/B")
	}
	return nil
}

// link returns the link the flags choose, with -gamma's reduction cost.
func (f *linkFlags) link() (commmodel.Link, error) {
	l, err := f.base()
	if err != nil || f.gamma == "" {
		return l, err
	}
	if l.Gamma, err = units.ParseTimePerByte(f.gamma); err != nil {
		return l, flagErrorf("-gamma: %w", err)
	}
	if err := plausibleLink(l); err != nil {
		return l, flagErrorf("-gamma %s: %w", f.gamma, err)
	}
	return l, nil
}

// base returns the link of -link, or of -alpha and -bw.
func (f *linkFlags) base() (commmodel.Link, error) {
	if f.named != "" {
		if f.alpha != "" || f.bw != "" {
			return commmodel.Link{}, flagErrorf("-link and -alpha/-bw exclude each other")
		}
		l, ok := presets.Link(f.named)
		if !ok {
			return commmodel.Link{}, flagErrorf("-link %q: want %s", f.named, strings.Join(presets.LinkNames(), " or "))
		}
		return l, nil
	}
	if f.alpha == "" || f.bw == "" {
		return commmodel.Link{}, flagErrorf("need -alpha and -bw (e.g. -alpha 2us -bw 350GB/s), -link %s, or -intra and -inter", presets.LinkNames()[0])
	}
	var l commmodel.Link
	var err error
	if l.Alpha, err = units.ParseDuration(f.alpha); err != nil {
		return l, flagErrorf("-alpha: %w", err)
	}
	if l.BW, err = units.ParseBandwidth(f.bw); err != nil {
		return l, flagErrorf("-bw: %w", err)
	}
	if !l.Valid() {
		return l, flagErrorf("-alpha %s -bw %s: want a latency of 0 or more and a positive bandwidth, such as -alpha 2us -bw 350GB/s", f.alpha, f.bw)
	}
	if err := plausibleLink(l); err != nil {
		return l, flagErrorf("-alpha %s -bw %s: %w", f.alpha, f.bw, err)
	}
	return l, nil
}

// collectiveFlags choose the collective, rank count and algorithms.
type collectiveFlags struct {
	collective string
	p          int
	algos      string
	perNode    int
	interAlgo  string
}

func (f *collectiveFlags) add(fs *flag.FlagSet, withAlgos bool) {
	fs.StringVar(&f.collective, "collective", "allreduce", commmodel.CollectiveNames())
	fs.IntVar(&f.p, "p", 0, "number of ranks (GPUs)")
	fs.IntVar(&f.perNode, "per-node", 0, "the run's GPUs per node: of the hierarchical algorithms, and of the nodes -intra and -inter join (default: the largest divisor of -p up to 8 that leaves two nodes); with -server, -gpu or -hw, the run's GPUs on one host (default: the system's GPUs a host, 8 without a system, or -p where it is fewer), whose NVLink domain is the node")
	fs.StringVar(&f.interAlgo, "inter-algo", "ring", "AllReduce run between nodes by hierarchical AllReduce")
	if withAlgos {
		fs.StringVar(&f.algos, "algo", "", "comma-separated algorithms (default: every single-level one)")
	}
}

// perNodeAdvice is the advice of an error where -per-node does not divide
// -p into whole nodes: -per-node counts the run's GPUs a node, so one above
// -p is read as the host's GPUs, and a run on -p GPUs of one node is
// -per-node -p (2 GPUs of a 4-GPU node: -per-node 2); otherwise the
// default of -p (defaultPerNode).
func perNodeAdvice(p, perNode int) string {
	if perNode > p {
		return fmt.Sprintf("-per-node counts the run's GPUs a node, not the host's: a run on %d GPUs of one node is -per-node %d", p, p)
	}
	return fmt.Sprintf("try -per-node %d", defaultPerNode(p))
}

// resolve returns the collective and its algorithms; hierarchical ones are
// included only when named, since they need -per-node to divide -p.
func (f *collectiveFlags) resolve(fs *flag.FlagSet) (commmodel.Collective, []commmodel.Algorithm, error) {
	c, err := commmodel.ParseCollective(f.collective)
	if err != nil {
		return c, nil, err
	}
	if err := checkRanks(fs, f.p, "the number of ranks", "8"); err != nil {
		return c, nil, err
	}
	if f.perNode == 0 {
		f.perNode = defaultPerNode(f.p)
	}
	if err := checkCount(fs, "per-node", f.perNode, maxRanks, "the GPUs per node", "8"); err != nil {
		return c, nil, err
	}
	if f.algos == "" {
		return c, commmodel.Algorithms(c), nil
	}
	var algs []commmodel.Algorithm
	for _, name := range strings.Split(f.algos, ",") {
		opt, err := algorithmOptions(c, name, f.perNode, f.interAlgo, 0)
		if err != nil {
			return c, nil, err
		}
		a, err := commmodel.Lookup(c, name, opt)
		if err != nil {
			return c, nil, err
		}
		if math.IsNaN(a.Cost(f.p, 1).Bytes) { // a two-level algorithm whose nodes do not fit -p
			return c, nil, flagErrorf("%s: -p %d is not a multiple of -per-node %d; %s", name, f.p, f.perNode, perNodeAdvice(f.p, f.perNode))
		}
		algs = append(algs, a)
	}
	return c, algs, nil
}

type modelRow struct {
	Algorithm    string  `json:"algorithm"`
	SizeBytes    float64 `json:"size_bytes"`
	Steps        int     `json:"steps"`
	BytesPerRank float64 `json:"bytes_per_rank"`
	Connections  int     `json:"peers"`
	// PathBytes is the bytes on the critical path, the sum over steps of
	// the most any rank sends in the step: BytesPerRank except where ranks
	// take turns (halving-doubling at P not a power of two, a broadcast's
	// pipeline). On one link TimeS = Steps·alpha + PathBytes/BW +
	// ReducedBytes·gamma.
	PathBytes float64 `json:"path_bytes"`
	// ReducedBytes is the bytes the busiest rank reduces.
	ReducedBytes float64 `json:"reduced_bytes"`
	TimeS        float64 `json:"time_s"`
	Messages     int     `json:"messages"`
	BusBWBps     float64 `json:"bus_bw_Bps"`
	// Fastest marks the fastest algorithm at the row's size.
	Fastest bool `json:"fastest"`
}

// modelHeader opens the JSON of model and crossover: what was evaluated,
// on one link (alpha_s, bw_Bps) or on nodes of per_node GPUs joined by
// intra and inter.
//
// Model says which model the numbers come from and Caveats where it leaves
// the machine: the text prints them first, so that a reader comparing with
// predict (NCCL's model) or a measurement knows why they differ.
type modelHeader struct {
	Model      string    `json:"model"`
	Caveats    []string  `json:"caveats"`
	Collective string    `json:"collective"`
	P          int       `json:"p"`
	AlphaS     float64   `json:"alpha_s,omitempty"`
	BWBps      float64   `json:"bw_Bps,omitempty"`
	PerNode    int       `json:"per_node,omitempty"`
	Intra      *linkJSON `json:"intra,omitempty"`
	Inter      *linkJSON `json:"inter,omitempty"`
	// Hardware is the machine -server, -gpu or -hw describe, each fact
	// with its source; absent for links given by hand and for the
	// article's H20 server.
	Hardware *hardwareOutput `json:"hardware,omitempty"`
}

// linkJSON is a link in the JSON of model and crossover.
type linkJSON struct {
	AlphaS float64 `json:"alpha_s"`
	BWBps  float64 `json:"bw_Bps"`
}

// textbookModel names the model of model and crossover.
const textbookModel = "textbook (one channel, one alpha per step whatever its peers, the busiest rank's bytes over its link); for NCCL's channels and protocols, commlab predict"

// textbookCaveats are the places where the textbook costs of algs over p
// ranks, perNode to a node, leave the machine: a step to many peers charged
// one alpha, and NVLS across nodes, which needs the network to reduce.
func textbookCaveats(algs []commmodel.Algorithm, p, perNode int) []string {
	out := []string{}
	for _, a := range algs {
		// Beyond one node's NVSwitch a step to every peer is many network
		// messages, each with its own latency.
		if c := a.Cost(p, 1<<20); c.Peers > max(perNode, 8) && c.Steps <= 2 {
			out = append(out, fmt.Sprintf("%s charges one alpha for a step that sends to %d peers", a.Name(), c.Peers))
		}
		// Where ranks take turns the time follows the critical path, not
		// the bytes/rank column: say so, so that steps·alpha + bytes/BW is
		// not taken for the time.
		if c := a.Cost(p, 1<<20); c.Path() > c.Bytes*(1+1e-9) {
			out = append(out, fmt.Sprintf("%s's time carries %.4g S on its critical path (ranks take turns), more than the %.4g S its busiest rank sends (bytes/rank)",
				a.Name(), c.Path()/(1<<20), c.Bytes/(1<<20)))
		}
		if a.Name() == "nvls" && perNode > 0 && p > perNode {
			out = append(out, "nvls across nodes assumes the network reduces too (SHARP); without it NCCL runs NVLS inside a node only (nvlstree)")
		}
	}
	return out
}

func (h modelHeader) print(w io.Writer) {
	fmt.Fprintf(w, "model: %s\n", h.Model)
	for _, c := range h.Caveats {
		fmt.Fprintf(w, "note: %s\n", c)
	}
	if h.Hardware != nil {
		writeHardware(w, *h.Hardware)
	}
	fmt.Fprintln(w)
	if h.Intra != nil {
		nodes := fmt.Sprintf("%d nodes", h.P/h.PerNode)
		if h.P == h.PerNode {
			nodes = "1 node"
		}
		fmt.Fprintf(w, "%s, P = %d (%s of %d), inside a node alpha = %s, BW = %s; between nodes alpha = %s, BW = %s\n\n",
			h.Collective, h.P, nodes, h.PerNode, units.FormatDuration(h.Intra.AlphaS), units.FormatBandwidth(h.Intra.BWBps),
			units.FormatDuration(h.Inter.AlphaS), units.FormatBandwidth(h.Inter.BWBps))
		return
	}
	fmt.Fprintf(w, "%s, P = %d, alpha = %s, BW = %s\n\n", h.Collective, h.P, units.FormatDuration(h.AlphaS), units.FormatBandwidth(h.BWBps))
}

type modelResult struct {
	modelHeader
	Rows []modelRow `json:"rows"`
}

// modelCommand is what model and crossover share: a link, a collective with
// its algorithms, and the output format.
type modelCommand struct {
	fs     *flag.FlagSet
	link   linkFlags
	coll   collectiveFlags
	output *formatFlags
	format string
}

// perNodeGiven reports whether the command line set -per-node.
func (m *modelCommand) perNodeGiven() bool {
	given := false
	m.fs.Visit(func(f *flag.Flag) { given = given || f.Name == "per-node" })
	return given
}

func newModelCommand(name string) *modelCommand {
	m := &modelCommand{fs: newFlags(name)}
	m.link.add(m.fs)
	m.coll.add(m.fs, true)
	m.output = addFormatFlags(m.fs)
	size := " -size LIST"
	if name == "crossover" {
		size = ""
	}
	m.fs.Usage = func() {
		fmt.Fprintf(m.fs.Output(), "usage: commlab %s -p N%s (-alpha T -bw RATE | -link NAME | -intra ALPHA,BW -inter ALPHA,BW | -server NAME | -gpu NAME | -hw SPEC|FILE)\n", name, size)
		fmt.Fprintf(m.fs.Output(), "       %*s [-collective C] [-algo LIST] [-per-node G] [-format text|json|csv]\n", len("commlab "+name), "")
		m.fs.PrintDefaults()
	}
	return m
}

// parse reads args and returns the collective, its algorithms, the timer
// they run on (one link, or a cluster with -intra and -inter) and the
// header that says so.
func (m *modelCommand) parse(args []string) (commmodel.Collective, []commmodel.Algorithm, commmodel.Timer, modelHeader, error) {
	var h modelHeader
	if _, err := parseFlags(m.fs, args, 0); err != nil {
		return 0, nil, nil, h, err
	}
	var err error
	if m.format, err = m.output.get(); err != nil {
		return 0, nil, nil, h, err
	}
	if err := m.link.machine.exclude(m.fs, m.link.byHand()); err != nil {
		return 0, nil, nil, h, err
	}
	var mach textbookMachine
	if m.link.machine.given() {
		if err := checkRanks(m.fs, m.coll.p, "the number of ranks", "8"); err != nil {
			return 0, nil, nil, h, err
		}
		perHost := 0
		if m.perNodeGiven() {
			perHost = m.coll.perNode
		}
		// The collective settles the links a GPU's sends drive on a mesh.
		coll, err := commmodel.ParseCollective(m.coll.collective)
		if err != nil {
			return 0, nil, nil, h, err
		}
		if mach, err = m.link.machine.machine(coll, m.coll.p, perHost); err != nil {
			return 0, nil, nil, h, err
		}
		m.coll.perNode = mach.cluster.PerNode
	}
	c, algs, err := m.coll.resolve(m.fs)
	if err != nil {
		return c, nil, nil, h, err
	}
	if err := mach.checkNVLS(algs); err != nil {
		return c, nil, nil, h, err
	}
	caveats := append(textbookCaveats(algs, m.coll.p, m.coll.perNode), mach.caveats...)
	if c := mach.meshCaveat(algs, m.coll.p); c != "" {
		caveats = append(caveats, c)
	}
	h = modelHeader{Model: textbookModel, Caveats: caveats,
		Collective: c.String(), P: m.coll.p, Hardware: mach.hw}
	if m.link.machine.given() || m.link.twoLevel() {
		cl := mach.cluster
		if !m.link.machine.given() {
			if cl.Intra, cl.Inter, err = m.link.levels(); err != nil {
				return c, nil, nil, h, err
			}
			cl.PerNode = m.coll.perNode
			if m.coll.p%cl.PerNode != 0 {
				return c, nil, nil, h, flagErrorf("-p %d is not a multiple of -per-node %d; %s", m.coll.p, cl.PerNode, perNodeAdvice(m.coll.p, cl.PerNode))
			}
			cl.Nodes = m.coll.p / cl.PerNode
		}
		h.PerNode, h.Intra, h.Inter = cl.PerNode, &linkJSON{cl.Intra.Alpha, cl.Intra.BW}, &linkJSON{cl.Inter.Alpha, cl.Inter.BW}
		return c, algs, cl, h, nil
	}
	l, err := m.link.link()
	h.AlphaS, h.BWBps = l.Alpha, l.BW
	return c, algs, commmodel.Flat{P: m.coll.p, Link: l}, h, err
}

func runModel(args []string, stdout io.Writer) error {
	m := newModelCommand("model")
	sizes := m.fs.String("size", "", "comma-separated message sizes (e.g. 64KiB,1MB,1GiB)")
	c, algs, timer, header, err := m.parse(args)
	if err != nil {
		return asFlagError(err)
	}
	ss, err := sizesFlag(*sizes, "64KiB,1MiB or -size 1KiB..1GiB")
	if err != nil {
		return err
	}
	p := m.coll.p
	res := modelResult{modelHeader: header}
	for _, s := range ss {
		first := len(res.Rows)
		for _, a := range algs {
			cost := a.Cost(p, s)
			t := timer.Time(a, s)
			if math.IsNaN(t) {
				return fmt.Errorf("%s at %s: time undefined", a.Name(), units.FormatSize(s))
			}
			row := modelRow{
				Algorithm: a.Name(), SizeBytes: s, Steps: cost.Steps, BytesPerRank: cost.Bytes,
				Connections: cost.Peers, PathBytes: cost.Path(), ReducedBytes: cost.Reduced, TimeS: t, Messages: cost.Messages,
			}
			if t > 0 {
				row.BusBWBps = c.BusBW(p, s, t)
			}
			res.Rows = append(res.Rows, row)
		}
		if a, _ := commmodel.Fastest(algs, timer, s); a != nil {
			for i := first; i < len(res.Rows); i++ {
				res.Rows[i].Fastest = res.Rows[i].Algorithm == a.Name()
			}
		}
	}
	switch m.format {
	case formatJSON:
		return writeJSON(stdout, res)
	case formatCSV:
		return writeCSV(stdout, res.Rows)
	}
	res.print(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "size\talgorithm\tsteps\tbytes/rank\tpeers\ttime\tbusBW\tfastest\t")
	for _, r := range res.Rows {
		mark := ""
		if r.Fastest {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%d\t%s\t%s\t%s\t\n", units.FormatSize(r.SizeBytes), r.Algorithm, r.Steps,
			units.FormatSize(r.BytesPerRank), r.Connections, units.FormatDuration(r.TimeS), units.FormatBandwidth(r.BusBWBps), mark)
	}
	return tw.Flush()
}

type crossoverRow struct {
	A         string  `json:"a"`
	B         string  `json:"b"`
	SizeBytes float64 `json:"size_bytes"`
	// WinnerChange marks a crossover at which the fastest of all the
	// algorithms changes from A to B.
	WinnerChange bool `json:"winner_change"`
}

type crossoverResult struct {
	modelHeader
	Crossovers []crossoverRow `json:"crossovers"`
}

func runCrossover(args []string, stdout io.Writer) error {
	m := newModelCommand("crossover")
	_, algs, timer, header, err := m.parse(args)
	if err != nil {
		return asFlagError(err)
	}
	res := crossoverResult{modelHeader: header, Crossovers: []crossoverRow{}}
	changes := commmodel.WinnerChanges(algs, timer)
	for _, x := range commmodel.Crossovers(algs, timer) {
		change := slices.ContainsFunc(changes, func(w commmodel.Crossover) bool {
			return w.A.Name() == x.A.Name() && w.B.Name() == x.B.Name() && w.Size == x.Size
		})
		res.Crossovers = append(res.Crossovers, crossoverRow{A: x.A.Name(), B: x.B.Name(), SizeBytes: x.Size, WinnerChange: change})
	}
	switch m.format {
	case formatJSON:
		return writeJSON(stdout, res)
	case formatCSV:
		return writeCSV(stdout, res.Crossovers)
	}
	res.print(stdout)
	if len(res.Crossovers) == 0 {
		if len(algs) == 1 {
			fmt.Fprintf(stdout, "no crossovers: %s is the only algorithm compared\n", algs[0].Name())
			return nil
		}
		if a, best := commmodel.Fastest(algs, timer, 1<<20); a != nil {
			// Algorithms as fast as it (ring, halving-doubling and
			// two-shot without latency) tie: none is the one fastest.
			var tied []string
			for _, b := range algs {
				if t := timer.Time(b, 1<<20); math.Abs(t-best) <= 1e-9*best {
					tied = append(tied, b.Name())
				}
			}
			if len(tied) > 1 {
				fmt.Fprintf(stdout, "no crossovers: %s tie as fastest at every size\n", words.And(tied))
				return nil
			}
			fmt.Fprintf(stdout, "no crossovers: %s is fastest at every size\n", a.Name())
			return nil
		}
		fmt.Fprintln(stdout, "no crossovers: no algorithm is defined here")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "faster below\tfaster above\tsize\tbytes\twinner changes")
	for _, x := range res.Crossovers {
		mark := ""
		if x.WinnerChange {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.0f\t%s\n", x.A, x.B, units.FormatSize(x.SizeBytes), x.SizeBytes, mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if slices.ContainsFunc(res.Crossovers, func(x crossoverRow) bool { return x.WinnerChange }) {
		fmt.Fprintln(stdout, "\n* the fastest of all changes here")
	} else {
		// A red team: the footer explained a mark no row had.
		fmt.Fprintln(stdout, "\nnone of these changes the fastest of all: each pair crosses where a third is faster than both")
	}
	return nil
}
