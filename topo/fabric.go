package topo

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/presets"
)

// MaxNVLinksPerGPU is the most NVLinks any NVIDIA GPU has (18 on Hopper and
// Blackwell). nvidia-smi reports, for each GPU pair, the NVLinks that connect
// them; behind NVSwitch every pair shows all of a GPU's links, so the counts
// summed over a GPU's peers exceed what a GPU can have.
const MaxNVLinksPerGPU = 18

// NVLinks is what a capture's NV# cells show of each GPU's NVLinks
// (ReadNVLinks).
type NVLinks struct {
	// Switched reports NVSwitch: some GPU shows more NVLinks summed over
	// its peers than MaxNVLinksPerGPU, which no GPU's direct links can
	// give (7 peers x NV17 is 119), so that no direct mesh reads them. It
	// does not ask that every pair show the same NV#: a GPU with a link
	// down shows one fewer to every peer (NV17 where the rest show NV18)
	// and is still on the switch. NCCL knows NVSwitch by what is at the
	// far end of a GPU's links (NVML's remote device type), not by their
	// counts: the GPU's active links whose remote device is an NVSwitch
	// join it to the one NVS node, at their count times the per-link
	// bandwidth (ncclTopoAddNvLinks, src/graph/topo.cc). A capture does not
	// show the far end, and the sum stands in for it.
	Switched bool
	// PerGPU holds each GPU's NVLinks, in GPU order: behind NVSwitch its
	// links into the switch, the most NVLinks any of its pairs shows (a
	// pair through the switch is taken to show the fewer of its two GPUs'
	// links, the bandwidth of NCCL's path through the switch);
	// otherwise its NVLinks summed over its peers. 0 for a GPU with no
	// NVLink.
	PerGPU []int
	// Off holds, behind NVSwitch, the GPUs (indices) with no NVLink to any
	// other GPU: off the switch, their links down.
	Off []int
	// Islands holds, behind NVSwitch, the groups of GPUs (indices) that
	// NVLinks join to each other, directly or through others, where there
	// are two or more: a switch partitioned between them (NVIDIA's fabric
	// manager partitions a host's NVSwitches so), each GPU reaching the
	// others' over PCIe alone. Nil for one group.
	Islands [][]int
	// Unjoined holds, behind NVSwitch with one group, the pairs of GPUs
	// (indices, the lower first) on the switch whose cell shows no NVLink
	// (N/A, or a PCIe path): a switch joins every GPU on it, and they are
	// taken as joined through it.
	Unjoined [][2]int
	// Joined reports that NVLinks join every GPU to every other, directly
	// or through others (every GPU is on the switch, in one group, or a
	// mesh reaches them all).
	Joined bool
	// Unsettled reports that N/A cells decide the fabric: were they
	// NVLinks, every GPU would be joined where the cells that show paths
	// leave some apart (a GPU whose row is N/A beside the switch, groups
	// that N/A alone parts, a PCIe host whose pairs NVLink might join).
	Unsettled bool
}

// ReadNVLinks reads t's GPU pairs' NV# cells into NVLinks.
func ReadNVLinks(t *Topology) NVLinks {
	p := len(t.gpus)
	l := NVLinks{PerGPU: make([]int, p)}
	sums := make([]int, p)
	links := func(i, j int) int {
		if q := t.Path(t.gpus[i], t.gpus[j]); i != j && q.Class == NVLink {
			return q.NVLinks
		}
		return 0
	}
	// known counts a GPU-to-GPU link a cell shows, NVLink or XGMI (an AMD
	// capture's); maybe an N/A cell too, which may hide one. Where N/A
	// cells join GPUs that the known links leave apart, they decide the
	// fabric.
	known := func(i, j int) int {
		if i != j && t.Path(t.gpus[i], t.gpus[j]).Class == XGMI {
			return 1
		}
		return links(i, j)
	}
	maybe := func(i, j int) int {
		if i != j && t.Path(t.gpus[i], t.gpus[j]).Class == Unknown {
			return 1
		}
		return known(i, j)
	}
	all := make([]int, p)
	for i := range all {
		all[i] = i
	}
	unsettled := p >= 2 && len(islands(all, maybe)) == 1 && len(islands(all, known)) > 1
	for i := range p {
		for j := range p {
			sums[i] += links(i, j)
			l.PerGPU[i] = max(l.PerGPU[i], links(i, j))
		}
		l.Switched = l.Switched || sums[i] > MaxNVLinksPerGPU
	}
	if l.Switched {
		// A switch joins every GPU on it to every other: GPUs with
		// NVLinks that reach each other through no chain of them are
		// switches' partitions, and a pair within one group that shows
		// none a cell the capture left out or damaged.
		on := make([]int, 0, p)
		for i := range p {
			if sums[i] == 0 {
				l.Off = append(l.Off, i)
			} else {
				on = append(on, i)
			}
		}
		if l.Islands = islands(on, links); len(l.Islands) < 2 {
			l.Islands = nil
			for a, i := range on {
				for _, j := range on[a+1:] {
					if links(i, j) == 0 {
						l.Unjoined = append(l.Unjoined, [2]int{i, j})
					}
				}
			}
		}
		l.Joined = len(l.Off) == 0 && l.Islands == nil
		l.Unsettled = unsettled
		return l
	}
	copy(l.PerGPU, sums)
	l.Joined = p >= 2 && reach(p, links) == p
	l.Unsettled = unsettled
	return l
}

// islands returns the groups of the GPUs gpus that links join, directly
// or through others, each in the order of gpus: one group where they reach
// each other. Time quadratic in the GPUs.
func islands(gpus []int, links func(i, j int) int) [][]int {
	var out [][]int
	seen := map[int]bool{}
	for _, g := range gpus {
		if seen[g] {
			continue
		}
		seen[g] = true
		group := []int{g}
		for next := 0; next < len(group); next++ {
			for _, j := range gpus {
				if !seen[j] && links(group[next], j) > 0 {
					seen[j] = true
					group = append(group, j)
				}
			}
		}
		slices.Sort(group)
		out = append(out, group)
	}
	return out
}

// reach returns how many of p GPUs GPU 0 reaches over links, directly or
// through others, visiting each GPU once: time quadratic in p.
func reach(p int, links func(i, j int) int) int {
	if p == 0 {
		return 0
	}
	reached := make([]bool, p)
	reached[0] = true
	queue := []int{0} // the GPUs reached, in order; those from next on are yet to visit
	for next := 0; next < len(queue); next++ {
		for j := range p {
			if !reached[j] && links(queue[next], j) > 0 {
				reached[j] = true
				queue = append(queue, j)
			}
		}
	}
	return len(queue)
}

// Least returns the fewest NVLinks of a GPU of l, the GPUs off the switch
// left out, and 0 where no GPU has NVLink.
func (l NVLinks) Least() int {
	least := 0
	for _, n := range l.PerGPU {
		if n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	return least
}

// Most returns the most NVLinks of a GPU of l.
func (l NVLinks) Most() int {
	most := 0
	for _, n := range l.PerGPU {
		most = max(most, n)
	}
	return most
}

// degraded returns the GPUs (indices) of l that show fewer NVLinks than
// the most, the GPUs off the switch left out.
func (l NVLinks) degraded() []int {
	var low []int
	for i, n := range l.PerGPU {
		if n > 0 && n < l.Most() {
			low = append(low, i)
		}
	}
	return low
}

// InferFabric describes how t's GPUs are wired, with LinkBW and Alpha left 0
// (ReadNVLinks reads the NV# cells):
//
//   - NVSwitch (NVLinks.Switched) with every GPU on it: Switched, with
//     the fewest links of a GPU into the switch. A GPU with links down
//     shows fewer to every peer (NV17 where the rest show NV18), and the
//     host keeps its switch: the model takes that GPU's count for every
//     GPU, as its links are the ones a ring or NVLS crosses at every step
//     (each channel enters and leaves every GPU), and NCCL's search, which
//     sets a path through the switch at the bandwidth of its slower link
//     (ncclTopoSetPaths, src/graph/paths.cc), finds its channels' speed
//     bound by that GPU's links.
//   - NVSwitch with some GPU off it (no NVLink to any other GPU), or
//     groups of GPUs that reach each other over PCIe alone (partitions):
//     SharedPCIe, one link per GPU: a communicator of every GPU crosses
//     PCIe, through the CPU, and its rings run at that path's speed, not
//     the switch's. FabricNotes names the GPUs. A pair on the switch that
//     shows no NVLink is taken as joined through it.
//   - NVLinks that join every GPU to every other, directly or through
//     others, with no switch: FullMesh of the fewest NVLinks of a GPU,
//     summed over its peers. That is n·(P-1) where every pair shows NV<n>
//     (a 4-GPU HGX board: NV6 to 3 peers, 18 an H100), a GPU's all where
//     its pairs differ and every GPU has as many (DGX-1's hybrid
//     cube-mesh, NV1 or NV2 to 4 of 7 peers, 6 a V100, which NCCL's rings
//     run over), and the fewest where a link is down (NV5 in a mesh of
//     NV6: that GPU's 17), as a ring runs at its slowest GPU's links;
//   - every GPU pair XGMI (rocm-smi --showtopo, ParseROCm): FullMesh of
//     the fewest peers a GPU is joined to directly (XGMIPeers), a link to
//     each: P-1 where every pair is direct, as on the MI300 and MI350
//     series' platform of 8 (7 links a GPU, one to each peer). rocm-smi
//     prints no link count, so that count is the least the capture shows,
//     an assumption beyond it: an MI250X's GCDs have 4 links each, some
//     pairs joined by several and some by none, reached through another
//     GCD (hops 2, or a weight above one XGMI hop's 15);
//   - anything else (no NVLink, or pairs of GPUs no NVLink joins to each
//     other, such as NVLink-bridged pairs): SharedPCIe, one link per GPU,
//     the conservative model of the pairs without NVLink.
//
// A topology with fewer than two GPUs is Switched with no links.
func InferFabric(t *Topology) commmodel.Fabric {
	p := len(t.gpus)
	f := commmodel.Fabric{Kind: commmodel.SharedPCIe, P: p, Links: 1}
	if p < 2 {
		return commmodel.Fabric{Kind: commmodel.Switched, P: p}
	}
	if AllXGMI(t) {
		f.Kind, f.Links = commmodel.FullMesh, max(1, slices.Min(XGMIPeers(t)))
		return f
	}
	switch l := ReadNVLinks(t); {
	case l.Switched && l.Joined:
		f.Kind, f.Links = commmodel.Switched, l.Least()
	case l.Joined:
		f.Kind, f.Links = commmodel.FullMesh, l.Least()
	}
	return f
}

// UnknownPairs returns t's GPU pairs (indices, the lower first) whose cell
// gives no path (N/A): what joins them is unknown.
func UnknownPairs(t *Topology) [][2]int {
	var out [][2]int
	for i := range t.gpus {
		for j := i + 1; j < len(t.gpus); j++ {
			if t.Path(t.gpus[i], t.gpus[j]).Class == Unknown {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

// FabricKnown reports that t settles its GPUs' fabric (InferFabric): its
// N/A cells (UnknownPairs) do not decide it (NVLinks.Unsettled). Where
// NVLinks join every GPU, or the cells that show paths keep some GPUs
// apart whatever the N/A ones hide (a PCIe host with one pair N/A), the
// capture settles it; where N/A cells alone keep GPUs apart, they may be
// the links the capture leaves out (nvidia-smi prints N/A for what it
// cannot read, and a capture of NVLinks all N/A reads as PCIe).
func FabricKnown(t *Topology) bool { return fabricKnown(t, ReadNVLinks(t), UnknownPairs(t)) }

// fabricKnown is FabricKnown of t, whose NV# cells read l and whose N/A
// pairs are u. An AMD host is Infinity Fabric where every pair is XGMI
// (AllXGMI): N/A pairs among XGMI ones alone may be XGMI too.
func fabricKnown(t *Topology, l NVLinks, u [][2]int) bool {
	if len(t.gpus) < 2 || AllXGMI(t) {
		return true
	}
	if len(t.rocm) > 0 && len(u) > 0 && everyPair(t, func(c Class) bool { return c == XGMI || c == Unknown }) {
		return false
	}
	return !l.Unsettled
}

// AllXGMI reports that t has two or more GPUs and every pair of them is
// XGMI (AMD's Infinity Fabric, as rocm-smi --showtopo types it).
func AllXGMI(t *Topology) bool {
	return len(t.gpus) >= 2 && everyPair(t, func(c Class) bool { return c == XGMI })
}

// everyPair reports whether the path class of every pair of t's GPUs is
// one ok takes.
func everyPair(t *Topology, ok func(Class) bool) bool {
	for i := range t.gpus {
		for j := i + 1; j < len(t.gpus); j++ {
			if !ok(t.Path(t.gpus[i], t.gpus[j]).Class) {
				return false
			}
		}
	}
	return true
}

// gpuNames returns the names of t's GPUs of indices gpus.
func (t *Topology) gpuNames(gpus []int) []string {
	out := make([]string, len(gpus))
	for k, g := range gpus {
		out[k] = t.gpus[g].Name
	}
	return out
}

// NVLinkGraph returns the NVLinks of a GPU of t where NVLinks join every
// GPU to every other, directly or through others, with no switch: the
// fewest of a GPU, summed over its peers (DGX-1's hybrid cube-mesh: NV1 or
// NV2 to four peers of seven, 6 a GPU, which NCCL rings over NVLink). It
// returns 0 where they do not (NVLink-bridged pairs, whose rings cross
// PCIe between the pairs), behind NVSwitch (ReadNVLinks: a GPU's pairs
// sum to more than MaxNVLinksPerGPU), or where t has fewer than two GPUs.
func NVLinkGraph(t *Topology) int {
	if l := ReadNVLinks(t); l.Joined && !l.Switched {
		return l.Least()
	}
	return 0
}

// FabricNotes says what a capture shows of its GPUs' NVLinks beyond the
// fabric InferFabric gives it, one sentence a note, none on a sound host:
//
//   - GPUs that show fewer NVLinks than the others (a link down or not
//     trained), each with its count: their NVLink bandwidth is lower, and
//     the fabric's links are the fewest (InferFabric);
//   - behind NVSwitch, GPUs with no NVLink to any other: off the switch,
//     which makes a communicator of every GPU cross PCIe (SharedPCIe),
//     where a communicator of the other GPUs alone runs on the switch;
//   - behind NVSwitch, groups of GPUs that reach each other over PCIe
//     alone (partitions), and pairs on the switch that show no NVLink,
//     taken as joined through it;
//   - where the fabric is unsettled (FabricKnown), the N/A pairs on which
//     it turns, in place of the rest.
func FabricNotes(t *Topology) []string {
	if len(t.gpus) < 2 || AllXGMI(t) {
		return nil
	}
	l, u := ReadNVLinks(t), UnknownPairs(t)
	if !fabricKnown(t, l, u) && len(u) > 0 {
		which := fmt.Sprintf("%s-%s", t.gpus[u[0][0]].Name, t.gpus[u[0][1]].Name)
		if len(u) > 1 {
			which += " among them"
		}
		keys, link := "fabric=nvswitch|mesh|pcie", "NVLink"
		if len(t.rocm) > 0 {
			keys, link = "fabric=infinity|pcie", "XGMI"
		}
		pairs := fmt.Sprintf("between %d of its %d GPU pairs (%s)", len(u), len(t.gpus)*(len(t.gpus)-1)/2, which)
		if len(t.gpus) == 2 {
			pairs = "between its 2 GPUs"
		}
		return []string{fmt.Sprintf("unknown links: the capture gives no path (N/A) %s, and whether %s joins every GPU turns on them: "+
			"the capture settles no fabric; -hw %s settles it", pairs, link, keys)}
	}
	if !l.Joined && !l.Switched {
		return nil // PCIe, or NVLink-bridged pairs: no fabric of NVLinks to fall short of
	}
	var notes []string
	names := t.gpuNames
	if low := l.degraded(); len(low) > 0 {
		var each []string
		for _, g := range low {
			each = append(each, fmt.Sprintf("%s %d", t.gpus[g].Name, l.PerGPU[g]))
		}
		where, what := "into the NVSwitch", "the switch"
		if !l.Switched {
			their := words.Verb(len(low), "its", "their")
			where, what = "summed over "+their+" peers", their+" peers"
		}
		notes = append(notes, fmt.Sprintf("degraded NVLinks: %s %s fewer NVLinks %s than the other GPUs' %d (%s): "+
			"links to %s are down or not trained, and the NVLink bandwidth is lower; "+
			"the capture gives links %d, the fewest, as a ring crosses every GPU's links (nvidia-smi nvlink -s shows each link's state)",
			words.And(names(low)), words.Verb(len(low), "shows", "show"), where, l.Most(), strings.Join(each, ", "), what, l.Least()))
	}
	if !l.Switched && l.Joined && len(u) > 0 {
		// A mesh's N/A pairs count no links, which they may hide.
		var pairs []string
		for _, p := range u {
			pairs = append(pairs, t.gpus[p[0]].Name+"-"+t.gpus[p[1]].Name)
		}
		notes = append(notes, fmt.Sprintf("the capture gives no path (N/A) between %s: the NVLinks summed over their peers leave out any it hides, and a GPU of fewer sets the links; -hw links=N gives a GPU's whole count",
			words.And(pairs)))
	}
	if len(l.Off) > 0 {
		on := len(t.gpus) - len(l.Off)
		off := words.And(names(l.Off))
		n := fmt.Sprintf("off the NVSwitch: %s %s no NVLink to any other GPU: a run of all %d GPUs crosses PCIe to %s, so the capture gives fabric pcie",
			off, words.Verb(len(l.Off), "has", "have"), len(t.gpus), off)
		if len(l.Islands) == 0 {
			n = fmt.Sprintf("off the NVSwitch: %s %s no NVLink to any other GPU, where the other %d reach each other through NVSwitch: "+
				"a run of all %d GPUs crosses PCIe to %s, so the capture gives fabric pcie; a run of the other %d alone is -hw fabric=nvswitch,links=%d",
				off, words.Verb(len(l.Off), "has", "have"), on, len(t.gpus), off, on, l.Least())
		}
		notes = append(notes, n)
	}
	if len(l.Islands) > 0 {
		var groups, sizes []string
		for _, g := range l.Islands {
			groups = append(groups, strings.Join(names(g), "-"))
			if s := fmt.Sprint(len(g)); !slices.Contains(sizes, s) {
				sizes = append(sizes, s)
			}
		}
		notes = append(notes, fmt.Sprintf("NVSwitch partitions: %s reach each other over NVLink only within their group (the fabric manager's partitions, or a VM given one): "+
			"a run across the groups crosses PCIe between them, so the capture gives fabric pcie; a run within one group is -hw fabric=nvswitch,links=%d,gpus=G, G its GPUs (%s)",
			words.And(groups), l.Least(), strings.Join(sizes, " or ")))
	}
	if len(l.Unjoined) > 0 {
		var pairs []string
		for _, u := range l.Unjoined {
			a, b := t.gpus[u[0]], t.gpus[u[1]]
			pairs = append(pairs, fmt.Sprintf("%s-%s (%s)", a.Name, b.Name, t.Path(a, b)))
		}
		n := fmt.Sprintf("the capture shows no NVLink between %s, where both GPUs of each reach the others on the switch over NVLink: "+
			"a switch joins every GPU on it, and the %s taken as joined (a cell the capture left out or damaged; nvidia-smi topo -m on the host shows it again)",
			words.And(pairs), words.Verb(len(pairs), "pair is", "pairs are"))
		if len(l.Off) == 0 {
			n += fmt.Sprintf("; -hw fabric=pcie if a run of all %d GPUs crosses PCIe there", len(t.gpus))
		}
		notes = append(notes, n)
	}
	return notes
}

// DescribeFabric describes t's GPU fabric in a few words, as InferFabric
// infers it (commmodel.Fabric.String), except that
//
//   - a mesh whose pairs are joined unevenly (DGX-1's hybrid cube-mesh,
//     NVLinkGraph) names the NVLinks its pairs show and how many peers each
//     GPU reaches over them, "full-mesh, 8 GPUs, 6 links each (NV1 or NV2
//     to 4 of 7 peers, no NVLink to the rest)", not an average of links
//     per peer that no pair of the capture has;
//   - where GPUs show fewer NVLinks than the others (FabricNotes), it
//     names them with their counts, "switched (NVSwitch), 8 GPUs x NV17
//     (the fewest: GPU3 17, the other GPUs 18)";
//   - NVSwitch with GPUs off it names them, "pcie, 8 GPUs: NVSwitch (NV18)
//     joins 7, GPU3 has no NVLink (off the switch)".
//
// An Infinity Fabric host (AllXGMI) is described as the capture shows it,
// "Infinity Fabric (XGMI) between every pair of 8 GPUs", with the pairs
// reached through other GPUs where it shows some (XGMIPeers), and what
// rocm-smi does not show, its links, as an assumption. A PCIe host whose
// GPUs XGMI bridges join in groups names the groups (XGMIGroups).
func DescribeFabric(t *Topology) string {
	l, u := ReadNVLinks(t), UnknownPairs(t)
	if !fabricKnown(t, l, u) {
		if len(t.gpus) == 2 {
			return "unknown, 2 GPUs: no path (N/A) between them"
		}
		return fmt.Sprintf("unknown, %d GPUs: no path (N/A) between %d of their %d pairs, on which it turns", len(t.gpus), len(u), len(t.gpus)*(len(t.gpus)-1)/2)
	}
	f := InferFabric(t)
	if AllXGMI(t) {
		peers := XGMIPeers(t)
		least, most := slices.Min(peers), slices.Max(peers)
		if least == f.P-1 {
			return fmt.Sprintf("Infinity Fabric (XGMI) between every pair of %d GPUs; AMD's topology tools (rocm-smi, amd-smi) print no link count: one link to each peer, %d a GPU, is assumed", f.P, f.Links)
		}
		direct := fmt.Sprint(least)
		if most != least {
			direct = fmt.Sprintf("%d-%d", least, most)
		}
		return fmt.Sprintf("Infinity Fabric (XGMI) between every pair of %d GPUs, a GPU joined directly to %s of its %d peers and to the rest through other GPUs (hops 2, or a weight above one XGMI hop's 15); "+
			"AMD's topology tools (rocm-smi, amd-smi) print no link count: at least %d a GPU, one to each direct peer, is assumed",
			f.P, direct, f.P-1, f.Links)
	}
	if len(t.rocm) > 0 && f.Kind != commmodel.FullMesh {
		if groups := XGMIGroups(t); len(groups) > 0 {
			var each []string
			for _, g := range groups {
				each = append(each, strings.Join(g, "-"))
			}
			return fmt.Sprintf("%s, %d GPUs: XGMI bridges join %s, PCIe between them (pairs)", f.Kind, f.P, words.And(each))
		}
		return fmt.Sprintf("%s, %d GPUs, no XGMI between every pair", f.Kind, f.P)
	}
	if len(l.Islands) > 0 {
		var groups []string
		for _, g := range l.Islands {
			groups = append(groups, strings.Join(t.gpuNames(g), "-"))
		}
		return fmt.Sprintf("%s, %d GPUs: NVSwitch (NV%d) joins %s, each group apart (partitions)", f.Kind, f.P, l.Most(), words.And(groups))
	}
	if len(l.Off) > 0 {
		off := t.gpuNames(l.Off)
		return fmt.Sprintf("%s, %d GPUs: NVSwitch (NV%d) joins %d, %s %s no NVLink (off the switch)",
			f.Kind, f.P, l.Most(), f.P-len(off), words.And(off), words.Verb(len(off), "has", "have"))
	}
	low := ""
	if d := l.degraded(); (f.Kind == commmodel.Switched || f.Kind == commmodel.FullMesh) && len(d) > 0 {
		var each []string
		for _, g := range d {
			each = append(each, fmt.Sprintf("%s %d", t.gpus[g].Name, l.PerGPU[g]))
		}
		low = fmt.Sprintf("the fewest: %s, the other GPUs %d", strings.Join(each, ", "), l.Most())
	}
	if f.Kind != commmodel.FullMesh || len(t.gpus) < 2 {
		if low != "" {
			return f.String() + " (" + low + ")"
		}
		return f.String()
	}
	p := len(t.gpus)
	counts := map[int]bool{}
	least, most := p, 0
	for i := range p {
		peers := 0
		for j := range p {
			if q := t.Path(t.gpus[i], t.gpus[j]); i != j && q.Class == NVLink {
				counts[q.NVLinks] = true
				peers++
			}
		}
		least, most = min(least, peers), max(most, peers)
	}
	if len(counts) == 1 && least == p-1 {
		return f.String()
	}
	var nv []string
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		nv = append(nv, fmt.Sprintf("NV%d", n))
	}
	peers := fmt.Sprint(least)
	if most != least {
		peers = fmt.Sprintf("%d-%d", least, most)
	}
	rest := ""
	if least < p-1 {
		rest = ", no NVLink to the rest"
	}
	if low != "" {
		rest += "; " + low
	}
	return fmt.Sprintf("full-mesh, %d GPUs, %d links each (%s to %s of %d peers%s)",
		p, f.Links, strings.Join(nv, " or "), peers, p-1, rest)
}

// Figures are the per-link numbers a topology does not carry.
type Figures struct {
	// NVLinkBW is one NVLink's bandwidth in one direction, in bytes per second
	// (NCCL models a Hopper NVLink as presets.NCCLHopperNVLinkBW, 20.6 GB/s).
	NVLinkBW float64
	// PCIeBW is one GPU's PCIe bandwidth in one direction, in bytes per second,
	// used when the GPUs have no uniform NVLink fabric.
	PCIeBW float64
	// NICBW is one NIC's line rate, in bytes per second (400 Gb/s = 50e9).
	NICBW float64
	// IntraAlpha and InterAlpha are the per-step latencies inside a node and
	// across nodes, in seconds.
	IntraAlpha, InterAlpha float64
}

// H20Figures are the article's server's figures: NCCL's Hopper NVLink
// (20.6 GB/s), the article's 400G NICs (50 GB/s), PCIe Gen5 x16 as NCCL
// rates it (nccl.PCIeBW, 48 GB/s, for completeness), and the article's alphas (2 us inside, 15 us across, from
// presets.H20Intra and H20Inter).
var H20Figures = Figures{
	NVLinkBW:   presets.NCCLHopperNVLinkBW,
	PCIeBW:     nccl.PCIeBW(5),
	NICBW:      presets.H20NICLineRate,
	IntraAlpha: presets.H20Intra.Alpha,
	InterAlpha: presets.H20Inter.Alpha,
}

// Levels are the two levels of a cluster of copies of one server, as the
// topology and the per-link figures give them.
type Levels struct {
	// Fabric is the intra-node fabric with its figures.
	Fabric commmodel.Fabric
	// Intra is the intra-node Link of an algorithm that drives all of a GPU's
	// links (Fabric.Link(P-1)); ask Fabric.Link for other fanouts.
	Intra commmodel.Link
	// GPUsPerNIC is the most GPUs that share one NIC (MaxGPUsPerNIC).
	GPUsPerNIC int
	// Inter is a GPU's share of the network: NICBW / GPUsPerNIC with
	// InterAlpha; the zero Link when the topology has no NIC.
	Inter commmodel.Link
}

// Ratio returns Intra.BW / Inter.BW, the quantity the article puts at 17.5.
func (l Levels) Ratio() float64 { return l.Intra.BW / l.Inter.BW }

// Levels turns t and fig into the intra- and inter-node Links. It is an error
// for fig to lack the bandwidth the fabric needs.
func (t *Topology) Levels(fig Figures) (Levels, error) {
	f := InferFabric(t)
	f.Alpha = fig.IntraAlpha
	switch f.Kind {
	case commmodel.SharedPCIe:
		f.LinkBW = fig.PCIeBW
	default:
		f.LinkBW = fig.NVLinkBW
	}
	if len(t.gpus) > 1 && !(f.LinkBW > 0) {
		return Levels{}, fmt.Errorf("topo: %s fabric needs a positive per-link bandwidth", f.Kind)
	}
	l := Levels{Fabric: f, Intra: f.Link(max(1, len(t.gpus)-1)), GPUsPerNIC: t.MaxGPUsPerNIC()}
	if l.GPUsPerNIC > 0 {
		if !(fig.NICBW > 0) {
			return Levels{}, fmt.Errorf("topo: NIC line rate must be positive")
		}
		l.Inter = commmodel.Link{Alpha: fig.InterAlpha, BW: commmodel.SharedNICBW(fig.NICBW, l.GPUsPerNIC)}
	}
	return l, nil
}
