package predict

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/presets"
)

// setSystem applies Describe's system key: the facts of the system of that
// name in the catalog (presets.Systems, which cites each one's
// documentation), from the catalog, for a GPU of the system's product. A
// fact the system leaves to the buyer, or its source does not state (an
// instance whose provider does not say how its GPUs are joined), keeps its
// value and source. NVLS follows the fabric: on an NVSwitch host of a GPU
// that runs it, and never on a mesh, Infinity Fabric or PCIe host.
func (h *Hardware) setSystem(name string) error {
	s, ok := presets.SystemByName(name)
	if near := presets.NearSystems(name); !ok && len(near) > 0 {
		return fmt.Errorf("did you mean %s? The catalog names each system as its maker or provider does: %s", strings.Join(near, " or "), presets.SystemNames())
	}
	if !ok {
		return fmt.Errorf("want one of %s", presets.SystemNames())
	}
	g, err := nccl.ParseGPU(s.GPU)
	if err != nil {
		return err
	}
	if h.GPU.Name != g.Name {
		return fmt.Errorf("%s is a system of %s, not of %s", s.Name, g.Name, h.GPU.Name)
	}
	if s.Fabric != "" {
		f := slices.Index(fabricNames[:], s.Fabric)
		if f < 0 {
			return fmt.Errorf("%s: the catalog's fabric %q is not one of %v", s.Name, s.Fabric, fabricNames)
		}
		h.Fabric, h.Sources.Fabric = Fabric(f), SourceCatalog
		h.NVLS, h.Sources.NVLS = h.Fabric == FabricNVSwitch && h.GPU.SupportsNVLS(), SourceCatalog
	}
	if s.PairLinks > 0 {
		h.NVLinks, h.Sources.NVLinks = s.PairLinks*(s.PerHost-1), SourceCatalog
	}
	h.Domain, h.Sources.Domain = s.Domain, SourceCatalog // 0: the system's NVLink domain is one host
	h.System, h.hostGPUs, h.Sources.HostGPUs, h.hostLeast = s.Name, s.PerHost, SourceCatalog, false
	if s.NICs > 0 {
		h.NICs, h.Sources.NICs = s.NICs, SourceCatalog
	}
	if s.NICBW > 0 {
		h.NICBW, h.Sources.NICBW = s.NICBW, SourceCatalog
	}
	if s.NetLatency > 0 {
		h.NetLatency, h.Sources.NetLatency = s.NetLatency, SourceCatalog
	}
	if s.CPU != "" {
		k := slices.IndexFunc(cpus, func(c cpuName) bool { return c.key == s.CPU })
		if k < 0 {
			return fmt.Errorf("%s: the catalog's CPU %q is not one of intel, amd, arm or power", s.Name, s.CPU)
		}
		h.CPU, h.Sources.CPU = cpus[k].cpu, SourceCatalog
	}
	if s.NICPath != "" {
		t, err := nccl.ParsePathType(s.NICPath)
		if err != nil || !(t >= nccl.PathPIX && t <= nccl.PathSYS) {
			return fmt.Errorf("%s: the catalog's NIC path %q is not one of %s", s.Name, s.NICPath, strings.Join(nicPaths(), ", "))
		}
		h.NICPath, h.Sources.NICPath = t, SourceCatalog
	}
	h.topoFile = s.TopoFile
	return nil
}

// SystemsOf returns the names of the catalog's systems (presets.Systems)
// that could be h's machine and would settle some of the facts named
// (Fact.Name, such as the assumed facts of Guesses): those of h's GPU (of
// any GPU where the logs name none, UnnamedGPU, but of AMD's where it is
// AMD's: mayBeUnnamed) whose
// hosts hold perHost GPUs (h's own where it gives its host's GPUs, or more
// where perHost is 1 or 2, a run that may use part of a host), or whose NVLink domains do for a domain's host,
// and whose entry gives one of those facts or more beyond what the GPU's
// own entry gives, those that settle the most first. Naming one (Describe's system key) replaces those
// assumptions with its documented facts; a fact its entry does not
// document (the NICs' PCIe path, which only alcf-polaris's gives) stays a
// guess. None is offered where h names its system
// already (Hardware.System), and no system whose entry contradicts a fact
// of h that evidence gave (Source.evidence: the NICs a node that NCCL's
// debug lines list, a NIC rate or fabric given with -hw).
func SystemsOf(h Hardware, perHost int, facts []string) []string {
	return systemsSettling(h, perHost, facts, false)
}

// SystemsGiving returns the systems SystemsOf offers whose entry gives
// every one of the facts named, none where no entry does (the NICs' PCIe
// path, which only alcf-polaris's documents, among them elsewhere): those
// that settle the facts at once.
func SystemsGiving(h Hardware, perHost int, facts []string) []string {
	return systemsSettling(h, perHost, facts, true)
}

// systemsSettling returns SystemsOf(h, perHost, facts), only those whose
// entry gives every one of facts where every is true.
func systemsSettling(h Hardware, perHost int, facts []string, every bool) []string {
	if h.System != "" {
		return nil // named already, by -hw or by the log's platform line
	}
	// The host's own count, not a run's; but a host said to hold fewer
	// GPUs than a run placed on it (a capture of part of it) holds at
	// least the run's.
	perHost = max(perHost, h.PerHost())
	known := map[string]string{}
	for _, f := range h.Facts() {
		// A lower bound of the host's GPUs (the log's) is no value a
		// system's contradicts: the test of its hosts' size below takes it.
		if f.Source.evidence() && !(f.Name == "gpus_per_node" && !h.hostKnown()) {
			known[f.Name] = f.Value
		}
	}
	wanted := map[string]bool{}
	for _, f := range facts {
		wanted[f] = true
	}
	type offer struct {
		name    string
		settled int
	}
	var offers []offer
	for _, s := range presets.Systems {
		g, err := nccl.ParseGPU(s.GPU)
		// A run of one or two GPUs a host says little of the host: it may
		// be part of a larger one.
		fits := s.PerHost == perHost || perHost <= 2 && perHost <= s.PerHost || s.Domain > 0 && perHost <= s.PerHost
		// A GPU the logs do not name may be any system's, of its target
		// where it is AMD's (-hw cc=9.4: gfx942's; the logs ran RCCL:
		// AMD's, nccl.UnknownISA).
		if err != nil || g.Name != h.GPU.Name && (h.GPU.Name != UnnamedGPU || !mayBeUnnamed(g, h.GPU)) || !fits {
			continue
		}
		hs, err := Describe(s.GPU, "system="+s.Name)
		if err != nil {
			continue
		}
		bare, err := Describe(s.GPU, "")
		if err != nil {
			continue
		}
		// A fact the GPU's own entry gives (an AMD Instinct's Infinity
		// Fabric) is not the system's to settle; of a GPU the logs do not
		// name it still tells the system from the evidence (an NVLink
		// mesh a capture shows is no MI300X platform).
		fromGPU := map[string]bool{}
		for _, f := range bare.Facts() {
			fromGPU[f.Name] = f.Source == SourceCatalog
		}
		settled, contradicts := 0, false
		for _, f := range hs.Facts() {
			if f.Source != SourceCatalog || fromGPU[f.Name] && h.GPU.Name != UnnamedGPU {
				continue // not the system's to say
			}
			if v, ok := known[f.Name]; ok && v != f.Value {
				contradicts = true
			}
			if wanted[f.Name] && !fromGPU[f.Name] {
				settled++
			}
		}
		if settled > 0 && !contradicts && (!every || settled == len(wanted)) {
			offers = append(offers, offer{s.Name, settled})
		}
	}
	slices.SortStableFunc(offers, func(a, b offer) int { return b.settled - a.settled })
	var out []string
	for _, o := range offers {
		out = append(out, o.name)
	}
	return out
}

// SystemsOfGPUs returns systems, names of the catalog's systems (as
// SystemsOf returns them), without those that cannot be the machine whose
// GPUs print names: a system whose entry gives its GPUs' memory (its GPU
// name, "A100-SXM4-80GB", and its source's words, "8 NVIDIA A100 GPUs of
// 80 GiB") is left out where every name prints another (Polaris' and
// OCI's BM.GPU4.8's "NVIDIA A100-SXM4-40GB" are no p4de.24xlarge,
// a2-ultragpu-8g or BM.GPU.A100-v2.8). A system whose source names no
// memory (dgx-a100, sold with 40 GB and 80 GB A100s) stays, as do all where
// the names print no memory or differ in it.
func SystemsOfGPUs(systems, names []string) []string {
	mem := ""
	for _, n := range names {
		m := gpuMemory(n)
		if m == "" || mem != "" && m != mem {
			return systems // no memory, or two: the names do not tell
		}
		mem = m
	}
	if mem == "" {
		return systems
	}
	return slices.DeleteFunc(slices.Clone(systems), func(name string) bool {
		s, ok := presets.SystemByName(name)
		if !ok {
			return false
		}
		m := gpuMemory(s.GPU)
		return m != "" && m != mem && slices.Contains(documentedMemories(s.Source), m)
	})
}

// gpuMemoryRE finds the memory a GPU's name prints: "A100-SXM4-40GB",
// "NVIDIA A100 80GB PCIe", and a superchip's, "NVIDIA GH200 120GB".
var gpuMemoryRE = regexp.MustCompile(`(?i)(?:^|[^0-9])([0-9]+) ?GB(?:$|[^/a-z])`)

// gpuMemory returns the memory, in GB, that a GPU's name prints, "" for
// none.
func gpuMemory(name string) string {
	if m := gpuMemoryRE.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return ""
}

// GPUMemory returns the memory of one GPU that names print, the least
// where they print several, in bytes: a name's "80GB" (nccl-tests' Rank
// lines print the CUDA device's name, "NVIDIA H100 80GB HBM3") read as
// 80 GiB, about what the device reports (81559 MiB for that H100). It
// returns 0 where a name prints none ("NVIDIA H200", "AMD Instinct
// MI300X"), the catalog holding no memory sizes, and for a Grace
// superchip's, whose number is the superchip's ("GH200 480GB": its
// CPU's LPDDR5X).
func GPUMemory(names []string) float64 {
	least := 0.0
	for _, n := range names {
		if g, err := nccl.ParseGPU(n); err == nil && graceSuperchip(g.Name) {
			return 0 // "GH200 480GB" names the Grace CPU's memory, not the GPU's
		}
		m, err := strconv.Atoi(gpuMemory(n))
		if err != nil || m <= 0 {
			return 0
		}
		if b := float64(m) * (1 << 30); least == 0 || b < least {
			least = b
		}
	}
	return least
}

// documentedMemoryRE finds memory sizes in a catalog source's words ("A100
// 40GB GPUs", "of 80 GiB", "A100 80 GB"), not rates ("200 GB/s").
var documentedMemoryRE = regexp.MustCompile(`(?:^|[^0-9.])([0-9]+) ?Gi?B(?:$|[^/a-zA-Z])`)

// documentedMemories returns the memory sizes, in GB, a catalog source
// names.
func documentedMemories(source string) []string {
	var out []string
	for _, m := range documentedMemoryRE.FindAllStringSubmatch(source, -1) {
		out = append(out, m[1])
	}
	return out
}

// evidence reports that a fact of source s was read from the machine (its
// logs, NCCL's debug lines, a capture) or given by the user, not taken
// from a catalog, fitted or assumed.
func (s Source) evidence() bool {
	switch s {
	case SourceLog, SourceNCCLDebug, SourceTopo, SourceUser:
		return true
	}
	return false
}

// HostFits reports an error where a run of perHost GPUs a host does not fit
// the hosts h documents (gpus_per_node): a catalog system's (its PerHost),
// the 8 modules of an MI300- or MI350-series platform, or the user's
// (Describe's gpus key), outside an NVLink domain that spans hosts. It is
// nil where nothing documents the hosts, or only a capture does: a
// container's capture may show part of its host.
func (h Hardware) HostFits(perHost int) error {
	host := h.hostGPUs
	if !h.hostKnown() || h.Domain > host || perHost <= host {
		return nil
	}
	switch {
	case h.Sources.HostGPUs == SourceUser:
		return fmt.Errorf("%d GPUs a node, where -hw gpus=%d gives a host %d", perHost, host, host)
	case h.Sources.HostGPUs != SourceCatalog:
		return nil
	case h.System != "":
		return fmt.Errorf("%d GPUs a node, where %s holds %d a host", perHost, h.System, host)
	}
	return fmt.Errorf("%d GPUs a node, where %s's platform holds %d a host", perHost, h.GPU.Name, host)
}

// mayBeUnnamed reports whether the catalog's GPU g may be unnamed, a GPU
// the logs do not name: any GPU where nothing makes unnamed AMD's (ISA
// ""), else one of AMD's, of unnamed's target where that is known (not
// nccl.UnknownISA).
func mayBeUnnamed(g, unnamed nccl.GPU) bool {
	switch unnamed.ISA {
	case "":
		return true
	case nccl.UnknownISA:
		return g.ISA != ""
	}
	return g.ISA == unnamed.ISA
}
