package predict

import (
	"fmt"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/units"
)

// A Source says where a hardware fact came from.
type Source string

// The sources of a fact, from the strongest evidence to none.
const (
	// SourceLog is the tables' own lines: the Rank lines and the header.
	SourceLog Source = "log"
	// SourceNCCLDebug is NCCL's NCCL_DEBUG=INFO lines in a log.
	SourceNCCLDebug Source = "nccl-debug"
	// SourceTopo is a topology that SetTopology took: an nvidia-smi topo
	// -m (or rocm-smi --showtopo) capture, or a preset of one, such as
	// topo.H20Article's.
	SourceTopo Source = "topo"
	// SourceUser is what the user gave: the description (-hw, Describe),
	// the GPU's name (-gpu, gpu=NAME) and the run's shape (-per-node, a
	// log's nodes= and per-node=).
	SourceUser Source = "hw"
	// SourceFitted is a choice among descriptions by the held-out fit of
	// the calibration tables (Hardware.FitNICs, Hardware.FitSwitches).
	SourceFitted Source = "fitted"
	// SourceCatalog is a catalog entry, with its citation: the GPU's
	// (nccl.ParseGPU, its datasheet) or a system's (presets.Systems, its
	// maker's or its site's documentation), which Describe's system key
	// names, or a log does where its network plugin names the platform.
	// A default the entry implies (a host its own NVLink domain) is
	// labelled with it.
	SourceCatalog Source = "catalog"
	// SourceAssumed is a default that nothing the user gave confirms.
	SourceAssumed Source = "assumed"
)

// Sources says where each fact of a Hardware came from; an empty Source
// means assumed.
type Sources struct {
	GPU, HostGPUs, Fabric, NVLinkPairs, NVLinks, LinkBW, HostBW, NVLS, NICs, RunNICs, Channels, NICBW, NICPath, CollNet, CPU, Domain, Group, NetLatency Source
}

// A Fact is one fact of a machine's description, with its source.
type Fact struct {
	// Name is the fact's name: gpu, gpus_per_node, fabric, nvlink_pairs (where
	// a PCIe fabric has them), links (a GPU's NVLinks, or Infinity Fabric links on an AMD host), link_bw,
	// host_bw (where cards without P2P copy through host memory), nvls,
	// nics_per_node, nics_in_use (where a log shows it), coll_channels
	// (where a log's line gives it), nic_bw, nic_path,
	// collnet, cpu, nvlink_domain, network_group, net_latency; and of a
	// run, not of the hardware, nccl_version (Machine.Facts,
	// Table.VersionFact).
	Name string `json:"name"`
	// Value is the fact as text ("nvswitch", "8", "400 Gb/s").
	Value string `json:"value"`
	// Source is where it came from.
	Source Source `json:"source"`
	// Key is the Describe key (the -hw key) that settles it.
	Key string `json:"-"`
	// Fitted is, for a calibrated machine (Machine.Facts), the value the
	// calibration tables fit for the fact where they identify it, "" where
	// they do not: nic_bw's is the bandwidth one NIC moved with Simple
	// (the nic_bw parameter), which a wrong NIC count or rate shows.
	Fitted string `json:"fitted,omitempty"`
}

// Guessed reports that nothing the user gave confirms the fact.
func (f Fact) Guessed() bool { return f.Source == SourceAssumed || f.Source == "" }

// Hint is the -hw setting that settles f ("nics=N"), "" for a fact that
// no Describe key sets (gpu, nics_in_use, coll_channels: the GPU's name
// and the logs give them).
func (f Fact) Hint() string {
	v := hintValue(f.Key)
	if f.Key == "fabric" && f.Value == FabricInfinity.String() {
		v = FabricInfinity.String() + "|" + FabricPCIe.String() // an AMD host's, which Describe holds to these
	}
	if v == "" {
		return ""
	}
	return f.Key + "=" + v
}

// fact describes one fact: its name, Describe key, value and source.
type fact struct {
	name, key string
	value     func(h *Hardware) string
	source    func(s *Sources) *Source
}

// facts lists the facts of a Hardware in the order Facts reports them.
var facts = []fact{
	{"gpu", "", func(h *Hardware) string { return h.GPU.Name }, func(s *Sources) *Source { return &s.GPU }},
	{"gpus_per_node", "gpus", func(h *Hardware) string {
		switch {
		case h.hostGPUs == 0:
			return "the run's" // a run of k GPUs a node takes the host as its own
		case !h.hostKnown():
			return fmt.Sprintf("at least %d", h.hostGPUs)
		}
		return fmt.Sprint(h.hostGPUs)
	}, func(s *Sources) *Source { return &s.HostGPUs }},
	{"fabric", "fabric", func(h *Hardware) string { return h.Fabric.String() }, func(s *Sources) *Source { return &s.Fabric }},
	{"nvlink_pairs", "pairs", func(h *Hardware) string {
		if h.Fabric != FabricPCIe || !h.nvlinkPairs {
			return "" // not listed
		}
		return "true"
	}, func(s *Sources) *Source { return &s.NVLinkPairs }},
	{"links", "links", func(h *Hardware) string { return fmt.Sprint(h.links()) }, func(s *Sources) *Source { return &s.NVLinks }},
	{"link_bw", "link-bw", func(h *Hardware) string {
		if h.links() > 0 && h.GPU.NVLinkBW == 0 {
			return "unknown" // a capture's NVLinks on a GPU the catalog lacks
		}
		if h.links() == 0 { // no NVLink: the cards' PCIe link
			v := pcieLink(h.GPU.PCIeGen)
			if h.hostCopy() {
				v += ", no P2P" // intra_bw's prior is HostCopyBW
			}
			return v
		}
		return units.FormatBandwidth(h.GPU.NVLinkBW)
	}, func(s *Sources) *Source { return &s.LinkBW }},
	{"host_bw", "host-bw", func(h *Hardware) string {
		if !h.hostCopy() {
			return "" // not listed: the cards' link sets intra_bw's prior
		}
		// intra_bw's prior, a bus bandwidth: HostCopyBW, from container
		// runs, unless the user gave it.
		return units.FormatBandwidth(h.hostBW()) + " through host memory"
	}, func(s *Sources) *Source { return &s.HostBW }},
	{"nvls", "nvls", func(h *Hardware) string { return fmt.Sprint(h.NVLS) }, func(s *Sources) *Source { return &s.NVLS }},
	{"nics_per_node", "nics", func(h *Hardware) string {
		if h.NICs == 0 {
			return "one per GPU"
		}
		return fmt.Sprint(h.NICs)
	}, func(s *Sources) *Source { return &s.NICs }},
	{"nics_in_use", "", func(h *Hardware) string {
		if h.RunNICs == 0 {
			return "" // not listed
		}
		v := fmt.Sprintf("%d at %s a host", h.RunNICs, counted(h.RunGPUs, "GPU"))
		if h.RunNICsLeast {
			v = "at least " + v
		}
		return v
	}, func(s *Sources) *Source { return &s.RunNICs }},
	{"coll_channels", "", func(h *Hardware) string {
		if h.Channels == 0 {
			return "" // not listed
		}
		where := "on one node"
		if h.ChannelsAcross {
			where = "across nodes"
		}
		return fmt.Sprintf("%d at %s a host %s", h.Channels, counted(h.ChannelsGPUs, "GPU"), where)
	}, func(s *Sources) *Source { return &s.Channels }},
	{"nic_bw", "nic-bw", func(h *Hardware) string { return formatBitRate(h.nicBW()) }, func(s *Sources) *Source { return &s.NICBW }},
	{"nic_path", "nic-path", func(h *Hardware) string { return nicPathName(h.NICPath) }, func(s *Sources) *Source { return &s.NICPath }},
	{"collnet", "collnet", func(h *Hardware) string { return fmt.Sprint(h.CollNet) }, func(s *Sources) *Source { return &s.CollNet }},
	{"cpu", "cpu", func(h *Hardware) string { return cpuOf(h.CPU).key }, func(s *Sources) *Source { return &s.CPU }},
	{"nvlink_domain", "domain", func(h *Hardware) string { return fmt.Sprint(h.Domain) }, func(s *Sources) *Source { return &s.Domain }},
	{"network_group", "group", func(h *Hardware) string { return fmt.Sprint(h.Group) }, func(s *Sources) *Source { return &s.Group }},
	{"net_latency", "net-lat", func(h *Hardware) string {
		if h.netLatency() == 1 {
			return "NCCL's"
		}
		return units.FormatNumber(h.netLatency()) + "x NCCL's"
	}, func(s *Sources) *Source { return &s.NetLatency }},
}

// Facts lists h's facts with their sources, in a fixed order; a fact
// known only from a log (nics_in_use, coll_channels) is listed where one
// gave it.
func (h *Hardware) Facts() []Fact {
	out := make([]Fact, 0, len(facts))
	for _, f := range facts {
		v := f.value(h)
		if v == "" {
			continue
		}
		src := *f.source(&h.Sources)
		if f.name == "links" && h.links() == 0 && h.GPU.BridgeLinks > 0 && h.Fabric == FabricPCIe {
			// A card of an NVLink bridge has no links only on the PCIe
			// fabric, whose source its 0 rests on, not the catalog's
			// (which gives the bridge's links).
			src = h.Sources.Fabric
		}
		if src == "" {
			src = SourceAssumed
		}
		out = append(out, Fact{Name: f.name, Value: v, Source: src, Key: f.key})
	}
	return out
}

// Facts lists the facts of m's hardware as Hardware.Facts does, each with
// the value the calibration fit for it where the tables identify the
// parameter that measures it (Fact.Fitted): nic_bw, and where the fit is
// held at the line rate, the rate the tables would put it at. Last comes
// nccl_version, that of the table whose release's tuner the model runs
// (Version; Table.VersionFact).
func (m *Machine) Facts() []Fact {
	release := m.release
	if release.Name == "" { // no table
		release = versionFact(m.version, m.version, SourceAssumed)
	}
	out := append(m.Hardware.Facts(), release)
	if len(m.Params) != numParams {
		return out
	}
	for i := range out {
		switch {
		case out[i].Name == "nic_bw" && m.Params[parNICBW].Identified:
			out[i].Fitted = formatBitRate(m.Params[parNICBW].Value)
			if m.pushesBound(parNICBW) { // Machine.implausible says so too
				out[i].Fitted += ", the line rate it is held at; they would put it at " + formatBitRate(m.free[parNICBW])
			}
		case out[i].Name == "net_latency" && m.Params[parInter].Identified && m.Params[parInter].Prior > 0:
			// The prior is NCCL's figure times net_latency.
			k := m.Params[parInter].Value / m.Params[parInter].Prior * m.Hardware.netLatency()
			out[i].Fitted = fmt.Sprintf("%.2gx NCCL's", k)
		}
	}
	return out
}

// pcieLink describes a card's PCIe x16 link of generation gen and NCCL's
// rate for it (nccl.PCIeBW), Gen3's where gen is 0, unknown.
func pcieLink(gen int) string {
	if gen == 0 {
		return fmt.Sprintf("PCIe %s, generation unknown (Gen3's rate)", units.FormatBandwidth(nccl.PCIeBW(0)))
	}
	return fmt.Sprintf("PCIe Gen%d %s", gen, units.FormatBandwidth(nccl.PCIeBW(gen)))
}

// versionFact is the fact nccl_version: NCCL's release v, from src, whose
// tuner the model runs, or, where the tuner model follows no such release,
// the nearest it follows, tuner.
func versionFact(v, tuner nccl.Version, src Source) Fact {
	value := v.String()
	if tuner != v {
		value += fmt.Sprintf(" (the model runs NCCL %v's tuner)", tuner)
	}
	return Fact{Name: "nccl_version", Value: value, Source: src, Key: "version"}
}

// VersionFact returns t's nccl_version: its Version from VersionFrom and
// the release whose tuner the model runs for it, the nearest the tuner
// model follows where it follows no other (versionOf); NCCL's latest
// assumed where t gives none.
func (t *Table) VersionFact() Fact {
	v, guess, _ := versionOf(t.Version)
	if guess {
		return versionFact(v, v, SourceAssumed)
	}
	return versionFact(t.Version, v, t.VersionFrom.orUser())
}

// Spec returns the Describe spec, comma-separated KEY=VALUE pairs in Facts'
// order, that sets the facts of h whose source is src: for the facts a
// capture settles (SourceTopo), "fabric=nvswitch,links=18,nics=8,nic-path=PIX".
// Facts that no Describe key sets (the GPU) are left out.
func (h *Hardware) Spec(src Source) string {
	var kvs []string
	for _, f := range h.Facts() {
		// A lower bound sets nothing, nor do a bridge card's links that
		// follow its fabric (Facts).
		if f.Source == src && f.Key != "" && !(f.Key == "gpus" && !h.hostKnown()) && !(f.Key == "links" && h.Sources.NVLinks != src) {
			kvs = append(kvs, f.Key+"="+f.Value)
		}
	}
	return strings.Join(kvs, ",")
}

// setSource records src as the source of the fact that the Describe key
// key sets.
func (h *Hardware) setSource(key string, src Source) {
	if key == "switch" {
		key = "fabric"
	}
	if key == "gpu-bw" {
		key = "link-bw"
	}
	if k := slices.IndexFunc(facts, func(f fact) bool { return f.key == key }); k >= 0 {
		*facts[k].source(&h.Sources) = src
	}
}

// nicPaths are the NIC paths a description takes, by NCCL's names: its
// path types from PIX to SYS, the nearest to the farthest a NIC can be.
func nicPaths() []string {
	var out []string
	for t := nccl.PathPIX; t <= nccl.PathSYS; t++ {
		out = append(out, t.String())
	}
	return out
}

// nicPathName is NCCL's name of a GPU-to-NIC path, PIX for the zero path.
func nicPathName(p nccl.PathType) string {
	if p == 0 {
		return nccl.PathPIX.String()
	}
	return p.String()
}

// formatBitRate writes a line rate in bits per second, as NICs are sold
// ("400 Gb/s").
func formatBitRate(bps float64) string { return units.FormatNumber(bps*8/1e9) + " Gb/s" }

// cpuOf returns the cpus entry of c, Intel's for a CPU it does not list.
func cpuOf(c nccl.CPU) cpuName {
	if k := slices.IndexFunc(cpus, func(n cpuName) bool { return n.cpu == c }); k >= 0 {
		return cpus[k]
	}
	return cpus[0]
}
