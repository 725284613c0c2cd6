package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/topo"
)

func init() {
	registerWarn("topo", "read `nvidia-smi topo -m` or `rocm-smi --showtopo` output (or a preset): paths, closest NICs, bindings", runTopo)
}

type topoGPU struct {
	Name      string `json:"name"`
	NUMA      int    `json:"numa"`
	NIC       string `json:"nic"`
	Path      string `json:"path"`
	Device    string `json:"device"`
	NCCLPath  string `json:"nccl_path"`
	GDR       bool   `json:"gdr"`
	GPUsOnNIC int    `json:"gpus_on_nic"`
	CPUs      string `json:"cpus"`
	// NotIB says, for a NIC NCCL's InfiniBand transport does not list,
	// that NCCL_IB_HCA does not select it, and what picks it instead
	// (topo.NotIB). A GPU has no NCCL_IB_HCA of its own: the host's is
	// topoOut.NCCLIBHCA, the same on every rank.
	NotIB string `json:"nccl_ib_hca_note"`
}

type topoNIC struct {
	Name   string `json:"name"`
	NUMA   int    `json:"numa"`
	Device string `json:"device"`
	// Nearest reports that the NIC is some GPU's nearest, one NCCL
	// prefers (topo.Topology.NearestToGPU).
	Nearest bool `json:"nearest"`
}

type topoPair struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Path string `json:"path"`
}

type topoFabric struct {
	Kind  string `json:"kind"`
	GPUs  int    `json:"gpus"`
	Links int    `json:"links"`
}

type topoOut struct {
	Source string `json:"source"`
	// Hardware is the machine predict takes from the capture: the facts
	// it settles, or with -gpu every fact of that GPU with them applied.
	Hardware hardwareOutput `json:"hardware"`
	// HW is the -hw spec of the facts the capture settles.
	HW     string     `json:"hw"`
	GPUs   []topoGPU  `json:"gpus"`
	NICs   []topoNIC  `json:"nics"`
	Pairs  []topoPair `json:"pairs"`
	Fabric topoFabric `json:"fabric"`
	// NCCLIBHCA is the host's NCCL_IB_HCA, the same on every rank
	// (topo.HostIBHCA), "" where the capture gives none; NCCLIBHCALeft
	// the NICs it leaves out, no GPU's nearest; NCCLIBHCARails the NICs
	// that look like the rails of GPUs the capture does not show, where
	// it gives none for that reason.
	NCCLIBHCA      string   `json:"nccl_ib_hca"`
	NCCLIBHCALeft  []string `json:"nccl_ib_hca_leaves_out"`
	NCCLIBHCARails []string `json:"nccl_ib_hca_unshown_rails"`
	// Notes say what the capture shows of the GPUs' NVLinks beyond the
	// fabric (topo.FabricNotes): GPUs with fewer NVLinks than the others,
	// GPUs off the NVSwitch; and, last, where it may show part of its
	// host, the facts it leaves unsettled and the -hw that settles them
	// (predict.Hardware.CaptureNote), as the text prints it.
	Notes    []string  `json:"notes"`
	Problems []problem `json:"problems"`
}

func runTopo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("topo")
	output := addFormatFlags(fs)
	preset := fs.String("preset", "", "a built-in topology instead of FILE: h20-article (the article's 8 x H20 / 4-NIC server) or one of "+
		strings.Join(slices.DeleteFunc(data.Topologies(), func(n string) bool { return n == "h20-article" }), ", "))
	gpu := fs.String("gpu", "", "GPU name (as nccl-tests' Rank lines print it): show every fact of the machine predict takes for it with -topo FILE")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: commlab topo [-format text|json|csv] [-gpu NAME] FILE | -preset NAME\n\nFILE is the text `nvidia-smi topo -m` or `rocm-smi --showtopo` prints; - reads standard input.\n"+
			"First comes the machine as predict, diagnose, tune and plot take it with -topo FILE:\n"+
			"the facts the capture settles and the -hw spec that says the same.\n"+
			"The CSV holds the GPUs, one a line, with their NICs and bindings.\n"+
			"Damage the reader reads past (a short row, an asymmetric pair) is reported on\n"+
			"standard error as FILE:LINE[:COLUMN]: message, or with -format json in \"problems\".")
		fs.PrintDefaults()
	}
	pos, err := parseFlags(fs, args, 1)
	if err != nil {
		return err
	}
	format, err := output.get()
	if err != nil {
		return err
	}
	t, source, problems, err := loadTopology(pos, *preset)
	if err != nil {
		return err
	}
	m, err := topoHardware(t, *gpu)
	if err != nil {
		return err
	}
	out := topoJSON(t, source, problems, m.host)
	out.Hardware, out.HW = m.out, m.hw
	if m.note != "" {
		out.Notes = append(out.Notes, m.note)
	}
	if m.c2c != "" {
		out.Notes = append(out.Notes, m.c2c)
	}
	switch format {
	case formatJSON:
		return writeJSON(stdout, out)
	case formatCSV:
		writeProblems(stderr, out.Problems)
		return writeCSV(stdout, out.GPUs)
	}
	writeProblems(stderr, out.Problems)
	writeTopoHardware(stdout, out, topo.XGMIPeers(t), *gpu != "", m.note != "", *preset == "" && source != "-", *preset)
	fmt.Fprintf(stdout, "\n%s: ", source)
	if err := topo.WriteHostReport(stdout, t, m.host); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "\nGPU fabric: %s\n", topo.DescribeFabric(t))
	return err
}

// loadTopology reads FILE or the preset; exactly one must be given. problems
// are the warnings of reading FILE (FILE "-" is standard input).
func loadTopology(pos []string, preset string) (t *topo.Topology, source string, problems []*topo.ParseError, err error) {
	switch {
	case preset != "" && len(pos) > 0:
		return nil, "", nil, flagErrorf("give FILE or -preset, not both")
	case preset == "h20-article":
		return topo.H20Article(), "preset h20-article", nil, nil
	case preset != "" && !slices.Contains(data.Topologies(), preset):
		return nil, "", nil, flagErrorf("-preset %q: want one of %s", preset, strings.Join(data.Topologies(), ", "))
	case preset != "":
		t, err := data.Topology(preset)
		return t, "preset " + preset, nil, err
	case len(pos) == 0:
		return nil, "", nil, flagErrorf("need FILE (nvidia-smi topo -m output) or -preset h20-article")
	}
	name := pos[0]
	t, problems, err = readTopo(name)
	return t, name, problems, err
}

// topoJSON is what the capture t, read from source with problems, shows,
// its NCCL_IB_HCA for a host known to hold hostGPUs GPUs (0 for unknown:
// topo.Topology.IBHCAOf); runTopo adds the machine predict takes from it.
func topoJSON(t *topo.Topology, source string, problems []*topo.ParseError, hostGPUs int) topoOut {
	out := topoOut{Source: source, GPUs: []topoGPU{}, NICs: []topoNIC{}, Pairs: []topoPair{}, Problems: topoProblems(source, problems)}
	for i, b := range t.Bindings() {
		out.GPUs = append(out.GPUs, topoGPU{
			Name: b.GPU, NUMA: t.GPU(i).NUMA, NIC: b.NIC, Path: pathOrEmpty(b), Device: b.Device,
			NCCLPath: b.NCCL.String(), GDR: b.GDR, GPUsOnNIC: b.Sharing, CPUs: b.CPUs.String(), NotIB: b.NotIB,
		})
	}
	h := t.IBHCAOf(hostGPUs)
	out.NCCLIBHCA, out.NCCLIBHCALeft, out.NCCLIBHCARails = h.Value, append([]string{}, h.Left...), append([]string{}, h.Rails...)
	near := t.NearestToGPU()
	for i, n := range t.NICs() {
		out.NICs = append(out.NICs, topoNIC{Name: n.Name, NUMA: n.NUMA, Device: n.Device, Nearest: near[i]})
	}
	for _, p := range t.Pairs() {
		out.Pairs = append(out.Pairs, topoPair{A: p.A, B: p.B, Path: p.Path.String()})
	}
	f := topo.InferFabric(t)
	out.Fabric = topoFabric{Kind: f.Kind.String(), GPUs: f.P, Links: f.Links}
	if !topo.FabricKnown(t) {
		out.Fabric = topoFabric{Kind: "unknown", GPUs: f.P} // N/A pairs decide it
	}
	out.Notes = append([]string{}, topo.FabricNotes(t)...)
	return out
}

// topoMachine is the machine predict takes from a capture with -topo
// (topoHardware).
type topoMachine struct {
	// out is the facts the capture settles, or with -gpu every fact of
	// that GPU with them applied; hw the -hw spec of the facts it
	// settles.
	out hardwareOutput
	hw  string
	// note says what a capture that may show part of its host leaves
	// unsettled (predict.Hardware.CaptureNote), "" for nothing.
	note string
	// c2c says where the catalog's path over NVLink-C2C to a Grace CPU's
	// NICs stands against the capture's (predict.Hardware.C2CNote), ""
	// for nothing.
	c2c string
	// host is the GPUs a host of -gpu's GPU is known to hold
	// (predict.Hardware.CaptureHost), 0 without -gpu: commlab topo knows no
	// GPU's host then, and takes a capture for part of one by its NICs
	// alone (topo.Topology.PartOfHost).
	host int
}

// topoHardware returns the machine predict takes from t with -topo, of
// GPU gpu where it is given.
func topoHardware(t *topo.Topology, gpu string) (topoMachine, error) {
	var hw predict.Hardware
	if gpu != "" {
		var err error
		if hw, err = predict.Describe(gpu, ""); err != nil {
			return topoMachine{}, fmt.Errorf("-gpu: %w", err)
		}
	}
	host, note, c2c := hw.CaptureHost(t), hw.CaptureNote(t), hw.C2CNote(t)
	hw.SetTopology(t)
	if err := otherVendor(&hw, t, "-gpu "+gpu); err != nil {
		return topoMachine{}, err
	}
	out := hardwareOutput{Summary: hw.String(), Facts: hw.Facts(), Guesses: []guessOutput{}}
	// rocm-smi prints no link count: the links assumed for an XGMI host
	// are shown with their source, never silently. The -hw spec gives
	// them, as fabric=infinity needs a count, only where the capture joins
	// every pair directly, a link each at least (topo.XGMIPeers): where it
	// reaches some pairs through other GPUs, the count is the GPU's, which
	// the capture cannot say (an MI250X GCD's 4), and the spec leaves it
	// out rather than give the least it shows as the count.
	allDirect := false
	if peers := topo.XGMIPeers(t); topo.AllXGMI(t) {
		allDirect = slices.Min(peers) == len(peers)-1
	}
	assumedLinks := func(f predict.Fact) bool {
		return f.Name == "links" && f.Source == predict.SourceAssumed && hw.Fabric == predict.FabricInfinity
	}
	if gpu == "" {
		out.Facts = slices.DeleteFunc(out.Facts, func(f predict.Fact) bool {
			return f.Source != predict.SourceTopo && !assumedLinks(f)
		})
		out.Summary = topoFacts(out.Facts)
	}
	spec := hw.Spec(predict.SourceTopo)
	if k := slices.IndexFunc(hw.Facts(), assumedLinks); k >= 0 && allDirect {
		spec += ",links=" + hw.Facts()[k].Value
	}
	return topoMachine{out: out, hw: spec, note: note, c2c: c2c, host: host}, nil
}

// topoFacts lists the facts of source topo as "name value, ...".
func topoFacts(facts []predict.Fact) string {
	var settled []string
	for _, f := range facts {
		if f.Source == predict.SourceTopo {
			settled = append(settled, f.Name+" "+f.Value)
		}
	}
	return strings.Join(settled, ", ")
}

// writeTopoHardware prints the machine predict takes from the capture
// first: the facts it settles, the -hw spec that says the same and, with
// -gpu, the whole machine as predict prints it. peers are the XGMI peers
// the capture joins to each GPU directly (topo.XGMIPeers), nil for none;
// part says the capture may show part of its host (out.Notes holds
// predict.Hardware.CaptureNote), whose NICs and NIC path it does not
// settle, so no line speaks of them; preset names the built-in topology
// read in place of a capture, "" for none.
func writeTopoHardware(w io.Writer, out topoOut, peers []int, gpu, part, file bool, preset string) {
	if out.HW == "" && part {
		// A capture of part of a host (predict.Hardware.CaptureNote).
		fmt.Fprintln(w, "machine: the capture settles no fact the model takes")
		for _, n := range out.Notes {
			fmt.Fprintln(w, n)
		}
		writeHostHint(w, part, gpu)
		if gpu {
			writeHardware(w, out.Hardware)
		}
		return
	}
	if out.HW == "" {
		fmt.Fprintln(w, "machine: the capture settles no fact the model takes (it shows fewer than two GPUs and no NIC)")
		return
	}
	// Some facts are read off the matrix (GPUs, NICs, NV#), others
	// derived from it as NCCL would (a PXN path, the fabric).
	from := "read or derived from the capture"
	if preset != "" {
		from = "from the preset " + preset
	}
	fmt.Fprintf(w, "machine: %s (each %s: topo)\n", topoFacts(out.Hardware.Facts), from)
	for _, n := range out.Notes {
		fmt.Fprintln(w, n)
	}
	writeHostHint(w, part, gpu)
	writeXGMILinks(w, out.Hardware.Facts, peers)
	var far []string
	for _, n := range out.NICs {
		if !n.Nearest {
			far = append(far, n.Name)
		}
	}
	if len(far) > 0 && len(far) < len(out.NICs) && len(out.GPUs) >= 2 && !part {
		fmt.Fprintf(w, "nics_per_node leaves out %s: no GPU's nearest NIC, and NCCL runs on each GPU's nearest\n", strings.Join(far, ", "))
	}
	// An Infinity Fabric spec without links (writeXGMILinks: the capture
	// cannot count them) describes a GPU the catalog lacks with links=N
	// alone, as -hw refuses fabric=infinity without a count.
	links := ""
	if strings.Contains(out.HW, "fabric=infinity") && !strings.Contains(out.HW, "links=") {
		links = ", with -gpu NAME of the catalog or links=N added (a GPU's Infinity Fabric links)"
	}
	if file {
		fmt.Fprintf(w, "predict, diagnose, tune and plot take these with -topo %s, or as -hw %s%s\n", out.Source, out.HW, links)
	} else {
		fmt.Fprintf(w, "predict, diagnose, tune and plot take these as -hw %s%s\n", out.HW, links)
	}
	// nic_path is the ring's, which the bindings' paths, each GPU's to its
	// own NIC, need not show (an HGX H100's PXN over bindings at PIX).
	for _, f := range out.Hardware.Facts {
		var own []string
		for _, g := range out.GPUs {
			if g.NCCLPath != "" && !slices.Contains(own, g.NCCLPath) {
				own = append(own, g.NCCLPath)
			}
		}
		// Only the capture's own path (not the catalog's or an assumed one,
		// with -gpu) is the ring's reading of these bindings.
		if f.Name == "nic_path" && f.Source == predict.SourceTopo && !part && len(out.GPUs) >= 2 && len(own) > 0 && !slices.Equal(own, []string{f.Value}) {
			fmt.Fprintf(w, "nic_path %s is the path by which NCCL's ring enters and leaves the host, not a GPU's to its own NIC (the bindings' NCCL column: %s): a ring's channel enters at one GPU and leaves at another (docs/topology.md)\n",
				f.Value, strings.Join(own, ", "))
		}
	}
	if gpu {
		writeHardware(w, out.Hardware)
	}
}

// writeHostHint says, for a capture that may show part of its host (part)
// read without -gpu (gpu false), that no host size was held against it
// (topoMachine.host): with -gpu, a capture of as many GPUs as a host of
// that GPU holds is the whole host, whatever its NICs, as predict takes it.
func writeHostHint(w io.Writer, part, gpu bool) {
	if part && !gpu {
		fmt.Fprintln(w, "without -gpu, topo knows no host size: with -gpu NAME, as in predict, diagnose, tune and plot, a capture of as many GPUs as the catalog's hosts of that GPU hold is taken for the whole host, whatever its NICs")
	}
}

// writeXGMILinks says what an Infinity Fabric capture shows of the links
// a GPU (facts' links) where peers, the peers it joins to each GPU
// directly (topo.XGMIPeers), are given: rocm-smi prints no link count.
// Where every pair is direct the links assumed are one to each peer;
// where some pairs are reached through other GPUs the count is unknown,
// at least the fewest direct peers, and the -hw spec leaves it out
// (topoHardware); links the catalog or -hw gives that are fewer than the
// direct peers contradict the capture.
func writeXGMILinks(w io.Writer, facts []predict.Fact, peers []int) {
	fabric := slices.IndexFunc(facts, func(f predict.Fact) bool { return f.Name == "fabric" })
	k := slices.IndexFunc(facts, func(f predict.Fact) bool { return f.Name == "links" })
	if len(peers) == 0 || fabric < 0 || facts[fabric].Value != "infinity" || k < 0 {
		return
	}
	f := facts[k]
	least, most := slices.Min(peers), slices.Max(peers)
	direct := fmt.Sprint(least)
	if most != least {
		direct = fmt.Sprintf("%d-%d", least, most)
	}
	links, _ := strconv.Atoi(f.Value)
	switch {
	case f.Source == predict.SourceAssumed && least == len(peers)-1:
		fmt.Fprintf(w, "assumed: links %s, one to each peer: AMD's topology tools print no link count (XGMI, hops 1 need not be one direct link); -gpu NAME takes the catalog's, -hw links=N gives them\n", f.Value)
	case f.Source == predict.SourceAssumed:
		fmt.Fprintf(w, "links unknown: AMD's topology tools print no link count, and the capture joins a GPU directly to %s of its %d peers (XGMI of hops 1 and weight 15), the rest through other GPUs (hops 2, or a weight above 15): "+
			"at least %d a GPU, one to each direct peer, which the model assumes until -gpu NAME takes the catalog's or -hw links=N gives them; the -hw spec below leaves links out\n",
			direct, len(peers)-1, least)
	case links < least:
		fmt.Fprintf(w, "links %s (%s) are fewer than the %d peers the capture joins directly to every GPU, a link each at least: is the capture of this GPU?\n", f.Value, f.Source, least)
	}
}

// topoProblems are the warnings of reading source as problems.
func topoProblems(source string, problems []*topo.ParseError) []problem {
	out := []problem{}
	for _, p := range problems {
		out = append(out, problemOf(source, p))
	}
	return out
}

// pathOrEmpty is the GPU's path to its NIC, "" when it has none.
func pathOrEmpty(b topo.Binding) string {
	if b.NIC == "" {
		return ""
	}
	return b.Path.String()
}

// captureNICNotes warns, once a table, where the InfiniBand or RoCE
// devices NCCL's debug lines list include one that the capture in file
// does not show (unshownNICs): the capture is of another machine, or the
// log is, and NCCL_IB_HCA taken from the capture would leave out NICs the
// run had (diagnose then gives none: bindingAdvice).
func captureNICNotes(file string, t *topo.Topology, tables []predict.Table) []problem {
	var notes []problem
	for _, tab := range tables {
		missing, line := unshownNICs(t, tab.Evidence)
		if len(missing) == 0 {
			continue
		}
		var names []string
		for _, n := range t.NICs() {
			names = append(names, n.Device)
		}
		notes = append(notes, problem{Message: fmt.Sprintf("%s: NCCL's debug lines list %s (line %d), which the capture %s does not show (its NICs are %s): is it a capture of this machine? Its NICs are taken as given",
			tab.Name, words.And(missing), line, file, words.And(names))})
	}
	return notes
}

// unshownNICs returns the InfiniBand or RoCE devices NCCL's debug lines
// list ("NET/IB : Using [0]mlx5_0:1/IB ...", nccltests.Evidence.NICs) that
// the capture t, whose NIC legend names every NIC, does not show, and the
// line of the first; none where t names no NIC device. A device the
// capture shows that NCCL does not list is no sign: NCCL_IB_HCA may leave
// it out.
func unshownNICs(t *topo.Topology, e nccltests.Evidence) (missing []string, line int) {
	if t == nil || len(t.NICs()) == 0 {
		return nil, 0
	}
	shown := map[string]bool{}
	for _, n := range t.NICs() {
		if n.Device == "" {
			return nil, 0 // a capture without a NIC legend names no device
		}
		shown[n.Device] = true
	}
	for _, n := range e.NICs {
		if n.Link == "" || shown[n.Name] || slices.Contains(missing, n.Name) {
			continue // a socket's interface is no RDMA device of the capture
		}
		if line == 0 {
			line = n.Line
		}
		missing = append(missing, n.Name)
	}
	return missing, line
}
