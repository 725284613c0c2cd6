package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

// h20Server is the -server name of the source article's 8 x H20 server,
// whose links are the article's (presets.H20Cluster).
const h20Server = "h20"

// serverNames lists the -server names: the article's server, then the
// systems of the catalog.
func serverNames() string { return h20Server + ", " + presets.SystemNames() }

// machineLinkFlags are the flags that name the machine of the textbook
// model in model, crossover and simulate: -server, or -gpu and -hw with
// predict's meaning (predict.Describe).
type machineLinkFlags struct {
	server, gpu, hw string
}

func (f *machineLinkFlags) add(fs *flag.FlagSet, server string) {
	fs.StringVar(&f.server, "server", "", server+": "+serverNames()+
		"; a system of the catalog is -hw system=NAME")
	fs.StringVar(&f.gpu, "gpu", "", "GPU name (as nccl-tests' Rank lines print it) of the machine -hw describes; default: the -hw system's")
	fs.StringVar(&f.hw, "hw", "", hwUsage())
}

// described reports that -gpu or -hw is given.
func (f *machineLinkFlags) described() bool { return f.gpu != "" || f.hw != "" }

// given reports that any of the flags is given.
func (f *machineLinkFlags) given() bool { return f.server != "" || f.described() }

// exclude returns a usage error when the flags name a machine beside
// the links of the flags others (such as "-intra" with its value).
func (f *machineLinkFlags) exclude(fs *flag.FlagSet, others map[string]string) error {
	var set []string
	for _, name := range []string{"link", "alpha", "bw", "intra", "inter"} {
		if others[name] != "" {
			set = append(set, "-"+name)
		}
	}
	switch {
	case f.server != "" && f.described():
		return usageErrorf(fs, "-server names a machine that -gpu and -hw describe: give one or the other (-server %s is -hw system=%s)", f.server, f.server)
	case len(set) == 0 || !f.given():
		return nil
	}
	return usageErrorf(fs, "%s excludes %s: the machine gives the links", f.flagName(), strings.Join(set, " and "))
}

// flagName is the flag that names the machine, for messages.
func (f *machineLinkFlags) flagName() string {
	switch {
	case f.server != "":
		return "-server"
	case f.hw != "":
		return "-hw"
	}
	return "-gpu"
}

// A textbookMachine is the machine the flags name, as the textbook model
// takes it: its nodes and links, the hardware they come from (nil for the
// article's H20 server, whose links are the article's), and the names of
// its links for the output.
type textbookMachine struct {
	cluster              commmodel.Cluster
	hw                   *hardwareOutput
	intraName, interName string
	// caveats are the assumed facts the links rest on, each with the -hw
	// setting that settles it.
	caveats []string
	// pairBW is the bandwidth of a GPU's send to one peer of its host
	// (predict.Hardware.Links of SendRecv), below cluster.Intra's on a
	// mesh whose run reaches more than one peer; 0 for the article's
	// server.
	pairBW float64
}

// meshCaveat says, where the machine is a mesh, that the intra-node link is
// a GPU's links to all the run's peers and that those of algs which send
// to fewer peers at once over one channel would drive fewer of them: the
// textbook's one channel spreads over every pair as NCCL's channels do.
func (m textbookMachine) meshCaveat(algs []commmodel.Algorithm, p int) string {
	per := m.cluster.PerNode
	if !(m.pairBW > 0 && m.pairBW < m.cluster.Intra.BW) {
		return ""
	}
	var few []string
	for _, a := range algs {
		if a.Cost(p, 1<<20).Fanout < per-1 {
			few = append(few, a.Name())
		}
	}
	if len(few) == 0 {
		return ""
	}
	return fmt.Sprintf("the %s link is all of a GPU's links to its %d peers (each pair's its own), as NCCL's channels spread over them: %s send to fewer peers a step, which on one channel would drive those pairs' links alone, %s a pair",
		m.intraName, per-1, strings.Join(few, ", "), units.FormatBandwidth(m.pairBW))
}

// machine returns the machine of the flags for collective c on p ranks,
// perHost of them on each host (c settles the links a GPU's sends drive on
// a mesh, predict.Hardware.Links): where perHost is 0, a host's GPUs of the system, or 8
// without one (p where that is fewer: the run fits one host; without a
// system, defaultPerNode(p) where 8 does not divide p). The nodes of a
// catalog system are its NVLink domains where they span hosts
// (predict.Hardware.Cluster).
func (f *machineLinkFlags) machine(c commmodel.Collective, p, perHost int) (textbookMachine, error) {
	if f.server == h20Server {
		if perHost != 0 && perHost != presets.H20Cluster(1).PerNode {
			return textbookMachine{}, fmt.Errorf("-server %s has %d GPUs a node: leave out -per-node %d", f.server, presets.H20Cluster(1).PerNode, perHost)
		}
		cl := presets.H20Cluster(1)
		if p%cl.PerNode != 0 {
			return textbookMachine{}, fmt.Errorf("-p %d is not a multiple of -server %s's %d GPUs a node", p, f.server, cl.PerNode)
		}
		cl.Nodes = p / cl.PerNode
		return textbookMachine{cluster: cl, intraName: "h20-intra", interName: "h20-inter"}, nil
	}
	gpu, hw := f.gpu, f.hw
	if f.server != "" {
		sys, ok := presets.SystemByName(f.server)
		if !ok {
			return textbookMachine{}, flagErrorf("-server %q: want one of %s", f.server, serverNames())
		}
		gpu, hw = sys.GPU, "system="+sys.Name
	}
	spec, kvs, err := readDescription(hw)
	if err != nil {
		return textbookMachine{}, hwFileError(hw, err)
	}
	h, _, err := predictHardware(gpu, spec, nil)
	if err != nil {
		return textbookMachine{}, hwFileError(hw, hwError(hw, kvs, err))
	}
	user := h.Sources.HostGPUs == predict.SourceUser
	if host := h.PerHost(); perHost == 0 && (h.System != "" || user) {
		// The host's GPUs as a system or -hw gpus gives them.
		name := h.System
		if user {
			name = fmt.Sprintf("-hw gpus=%d", host)
		}
		if perHost = min(host, p); p%perHost != 0 {
			return textbookMachine{}, flagErrorf("-p %d is not a whole number of %s's hosts of %d GPUs; give -per-node, the run's GPUs a node: try -per-node %d",
				p, name, perHost, defaultPerNode(p))
		}
	}
	given := perHost > 0 // -per-node: the user's, as predict's query is
	if perHost == 0 {
		// No system: a host of up to 8 GPUs, or of the count every
		// catalog system of the GPU holds (GH200's 4), the run on one
		// where it fits.
		host := defaultHostGPUs
		if _, n, _ := catalogHostGPUs(gpu); n > 0 {
			host = n
		}
		if perHost = min(p, host); p%perHost != 0 {
			perHost = defaultPerNode(p)
		}
	}
	if p%perHost != 0 {
		return textbookMachine{}, flagErrorf("-p %d is not a multiple of -per-node %d; %s", p, perHost, perNodeAdvice(p, perHost))
	}
	if err := h.HostFits(perHost); err != nil {
		return textbookMachine{}, flagErrorf("-per-node %d: %v: give the run's GPUs a node, at most a host's", perHost, err)
	}
	if given {
		// A host of at least the run's GPUs a node, as the user gives
		// them (gpus_per_node's source hw, as predict's -per-node).
		h, _ = h.FromTables(nil, perHost)
	} else {
		h = h.ForHosts(perHost)
	}
	if err := domainHolds(&h, perHost); err != nil {
		return textbookMachine{}, err
	}
	if mis, ok := domainSplit(&h, p/perHost, perHost); ok {
		return textbookMachine{}, flagErrorf("-p %d on hosts of -per-node %d: %s", p, perHost, mis.advice(func(n int) string { return fmt.Sprintf("-p %d", n*perHost) }))
	}
	cl, err := h.Cluster(c, p, perHost)
	if err != nil {
		return textbookMachine{}, fmt.Errorf("-p %d on hosts of -per-node %d: %w", p, perHost, err)
	}
	name := h.GPU.Name
	if f.server != "" {
		name = f.server
	}
	out := hardwareOf(h, nil)
	pair, _ := h.Links(commmodel.SendRecv, perHost)
	m := textbookMachine{cluster: cl, hw: &out, intraName: name + " " + intraKind(h.Fabric), interName: name + " network", pairBW: pair.BW}
	assumed := h.AssumedLinkFacts()
	if p <= perHost {
		// One node: its NICs time nothing.
		assumed = slices.DeleteFunc(assumed, func(f predict.Fact) bool { return f.Name == "nics_per_node" || f.Name == "nic_bw" })
	}
	if msg := hwDescribesNothing(hw, spec, "-gpu and the catalog"); msg != "" {
		m.caveats = append(m.caveats, msg)
	}
	if len(assumed) > 0 {
		var facts, hints []string
		for _, a := range assumed {
			facts = append(facts, a.Name+" = "+a.Value)
			hints = append(hints, a.Hint())
		}
		m.caveats = append(m.caveats, fmt.Sprintf("the links rest on assumed facts, %s: settle them with -hw %s",
			strings.Join(facts, ", "), strings.Join(hints, ",")))
	}
	return m, nil
}

// intraKind names the link of a fabric between GPUs of a host.
func intraKind(f predict.Fabric) string {
	switch f {
	case predict.FabricPCIe:
		return "PCIe"
	case predict.FabricInfinity:
		return "Infinity Fabric"
	}
	return "NVLink"
}

// checkNVLS refuses an NVLS algorithm (nvls, nvlstree) on a machine whose
// facts say it has no NVLS, from anything but an assumption, or whose GPUs
// PCIe or Infinity Fabric join: NCCL runs them only on NVSwitch hosts with
// NVLink SHARP, and their row would time what the machine cannot run. An
// assumed nvls false on an NVLink host leaves them, as a what-if.
func (m textbookMachine) checkNVLS(algs []commmodel.Algorithm) error {
	if m.hw == nil {
		return nil
	}
	f, fabric := factOf(m.hw.Facts, "nvls"), factOf(m.hw.Facts, "fabric")
	why := ""
	// No NVSwitch, whatever the source: no NVLS either.
	kind := map[string]string{predict.FabricPCIe.String(): "PCIe", predict.FabricInfinity.String(): "Infinity Fabric"}[fabric.Value]
	switch {
	case kind != "":
		why = fmt.Sprintf("its GPUs are joined by %s (fabric %s, %s)", kind, fabric.Value, fabric.Source)
	case f.Value == "false" && !f.Guessed():
		why = fmt.Sprintf("the machine has no NVLS (nvls false, %s)", f.Source)
	default:
		return nil
	}
	for _, a := range algs {
		if name := a.Name(); name == "nvls" || name == "nvlstree" {
			return flagErrorf("-algo %s: %s: NCCL runs %s only on NVSwitch hosts with NVLink SHARP; drop it, or describe such a host with -hw fabric=nvswitch,nvls=true", name, why, name)
		}
	}
	return nil
}
