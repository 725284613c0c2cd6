package nccl

import (
	"fmt"
	"math"
)

// System describes a machine well enough to derive the graphs NCCL's search
// would find on it (System.Graphs) and the rest of a Config
// (System.Config). Bandwidths are SI, B/s; zero fields take the GPU's
// figures.
type System struct {
	// GPU is the product (ParseGPU), or figures given by hand.
	GPU GPU
	// GPUsPerNode and Nodes count the ranks: one rank per GPU.
	GPUsPerNode, Nodes int
	// NVSwitch reports that every GPU of a node reaches the others through
	// NVSwitch with GPU.NVLinks links (HGX and DGX boards). Without it the
	// node is taken to be PCIe only: NVLink bridges and direct NVLink
	// meshes are not modelled.
	NVSwitch bool
	// Mesh reports that the node's GPUs are joined pair by pair (a direct
	// NVLink mesh, or AMD's Infinity Fabric), not through an NVSwitch:
	// with NVSwitch set, the search takes each pair's links as one hop,
	// as through a switch, but NCCL counts no NVSwitch (nvsCount 0), and
	// runs neither CollNetDirect nor NVLS (NCCL 2.30.7 src/graph/tuning.cc).
	Mesh bool
	// NVLinks overrides GPU.NVLinks (links per GPU into NVSwitch). NCCL
	// counts every link at its own per-generation figure (20.6 GB/s for
	// Hopper, 40.1 for Blackwell in NCCL 2.30.7 src/graph/topo.h), not at
	// the product's GPU.NVLinkBW, and so does the search here.
	NVLinks int
	// PCIeBW is the bandwidth of one GPU's PCIe link, B/s; zero takes
	// NCCL's figure for GPU.PCIeGen x16 (12, 24, 48, 96 GB/s for Gen3 to
	// Gen6, NCCL 2.30.7 src/graph/topo.cc).
	PCIeBW float64
	// NICs is the number of NICs per node and NICBW the line rate of one,
	// B/s (400 Gb/s is 50e9); a NIC sits on its GPU's PCIe switch (PIX).
	NICs  int
	NICBW float64
	// NICPath overrides the graphs' typeInter, the path by which a ring
	// enters and leaves a node between a GPU and a NIC (PIX when zero).
	NICPath PathType
	// PCIePath is the GPU-to-GPU path of a PCIe-only node (PHB when zero).
	PCIePath PathType
	// CPU is the host CPU.
	CPU CPU
	// NVLS reports NVLink SHARP support (multicast with the fabric
	// manager); it needs NVSwitch and GPU.SupportsNVLS.
	NVLS bool
	// CollNet reports that the network reduces in its switches (SHARP,
	// through a CollNet network plugin) and the job enables it
	// (NCCL_COLLNET_ENABLE=1): Config enables CollNet on
	// NCCL_COLLNET_NODE_THRESHOLD (2) nodes or more, below which init.cc
	// disables it, and Graphs derives its graphs there.
	CollNet bool
}

// Config returns the Config of a communicator over every GPU of s under
// version v (Latest when zero, as Config.Version), with the graphs of
// s.Graphs(v).
func (s System) Config(v Version) (Config, error) {
	gs, err := s.Graphs(v)
	if err != nil {
		return Config{}, err
	}
	return Config{
		Version: v, Ranks: s.GPUsPerNode * s.Nodes, Nodes: s.Nodes,
		MinCompCap: s.GPU.CompCap, ISA: s.GPU.ISA, CPU: s.CPU, Graphs: gs, NVSwitch: s.NVSwitch && !s.Mesh,
		CollNet: s.collNet(),
	}, nil
}

// nvlinkBW is NCCL's bandwidth of one NVLink for a compute capability
// (ncclTopoNVLinkBw and SMxx_NVLINK_BW, NCCL 2.30.7 src/graph/topo.h), GB/s:
// Hopper links are 20 GB/s before NCCL 2.20 and 20.6 after; Blackwell links
// count as Hopper's before 2.25, 40 from 2.25 and 40.1 from 2.27. NCCL 2.8
// counts SM70 and SM80 links at 21 GB/s (SM70_NVLINK_WIDTH and
// SM80_NVLINK_WIDTH, src/graph/topo.h at tag v2.8.4-1).
func nvlinkBW(v Version, cc int) float64 {
	switch {
	case v.legacy() && cc >= 70 && cc != 86:
		return 21.0
	case cc >= 100 && v.from(27, 0):
		return 40.1
	case cc >= 100 && v.from(25, 0):
		return 40.0
	case cc >= 90 && v.from(20, 0):
		return 20.6
	case cc >= 90:
		return 20.0
	case cc == 86:
		return 12.0
	case cc >= 70:
		return 20.0
	case cc >= 60:
		return 18.0
	}
	return 20.0
}

// PCIeBW is NCCL's bandwidth of a x16 PCIe link of a generation, B/s: 12,
// 24, 48 and 96 GB/s for Gen3 to Gen6 (width · per-lane speed / 80 with
// the speeds of kvDictPciGen, NCCL 2.30.7 src/graph/topo.cc), below the
// links' signalling rates by their encoding and NCCL's margin; an unknown
// generation counts as Gen3. It is commlab's one figure of a PCIe link.
func PCIeBW(gen int) float64 {
	switch gen {
	case 4:
		return 24e9
	case 5:
		return 48e9
	case 6:
		return 96e9
	}
	return 12e9
}

// speedArray is the list of per-channel bandwidths NCCL's search tries,
// highest first (NCCL 2.30.7 src/graph/search.cc, and the tags before it):
// one list for a single node and one across nodes, per generation. NCCL 2.8
// has one list for every case (speedArray, src/graph/search.cc at tag
// v2.8.4-1).
func speedArray(v Version, cc int, inter bool) []float64 {
	switch {
	case v.legacy():
		return []float64{42, 30, 24, 21, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12}
	case cc >= 100 && v.from(25, 0):
		if !inter {
			switch {
			case v.from(29, 0):
				return []float64{90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18}
			case v.from(27, 0):
				return []float64{90, 80, 70, 60, 50, 40, 30, 24, 20, 19, 18}
			}
			return []float64{90, 80, 70, 60, 50, 40, 30, 24, 20, 19}
		}
		switch {
		case v.from(30, 0):
			return []float64{96, 86, 80, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12}
		case v.from(29, 0):
			return []float64{96, 80, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12}
		case v.from(27, 0):
			return []float64{96, 48, 45.1, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12}
		}
		return []float64{48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12}
	case cc >= 90:
		if inter {
			if !v.from(19, 0) {
				return []float64{48, 45, 42, 40, 30, 24, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12}
			}
			return []float64{48, 45, 42, 40, 30, 24, 22, 20, 17.5, 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12}
		}
		switch {
		case v.from(21, 0):
			return []float64{60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3}
		case v.from(19, 0):
			return []float64{60, 50, 40, 30, 24, 20, 15, 12, 6, 3}
		}
		return []float64{60, 40, 30, 24, 20, 15, 12, 6, 3}
	}
	if inter {
		return []float64{48, 30, 28, 24, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12}
	}
	return []float64{40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3}
}

// searchSystem is the capacity model of the simplified search, GB/s.
type searchSystem struct {
	v        Version
	cc       int
	gpus     int     // per node
	nodes    int     // nodes
	intra    float64 // one GPU's NVLink (NVSwitch) or PCIe bandwidth
	pcie     float64
	nics     int
	nic      float64
	speeds   []float64
	maxCh    int
	nicPath  PathType
	intraTyp PathType
}

// channels is how many channels of speed s fit: every channel takes s of
// each GPU's intra-node bandwidth (a ring or chain passes through every
// GPU once per direction) and, across nodes, s of one NIC per direction,
// channels spread evenly over the NICs.
func (ss *searchSystem) channels(s float64) int {
	n := int(math.Floor(ss.intra/s + 1e-9))
	if ss.nodes > 1 {
		n = min(n, ss.nics*int(math.Floor(ss.nic/s+1e-9)))
	}
	return min(n, ss.maxCh)
}

// maxBw is the best single path of the search: GPU to GPU on one node, GPU
// to NIC across nodes (through the GPU's PCIe link).
func (ss *searchSystem) maxBw() float64 {
	if ss.nodes > 1 {
		return math.Min(ss.pcie, ss.nic)
	}
	return ss.intra
}

// Graphs derives the graphs NCCL's search finds on s for version v. The
// search is simplified to a capacity model (NCCL 2.30.7
// src/graph/search.cc does a timed recursive search over the topology):
//
//   - A ring or tree channel of speed b takes b of each GPU's NVLink (or
//     PCIe) bandwidth and, across nodes, b of one NIC per direction; the
//     GPU-to-NIC path is limited by the GPU's PCIe link.
//   - The speeds tried are NCCL's speed arrays from the highest at most
//     the best path (maxBw) with at least one channel fitting the GPU's
//     total bandwidth, down while the next speed exceeds 0.49 of the best
//     found; the most nChannels·b wins, ties to fewer channels. A solution
//     that uses the GPU's total bandwidth ends the search.
//   - Then ncclTopoDupChannels: bwIntra ≥ 25 GB/s doubles the channels and
//     halves their speed (not from SM90 on below 50 GB/s with more than 4
//     channels), and a second pass raises the speed at that channel count
//     where it still fits (for trees bwIntra only, up to twice bwInter).
//   - The tree has the ring's channel count; its pattern is TREE (all NIC
//     traffic through one GPU) for one GPU per node, or across nodes from
//     Hopper on when each GPU has its own NIC (the balanced tree fails there
//     and SM90 tries the simpler one first), else BALANCED_TREE.
//   - NVLS (Hopper on, with NVSwitch and s.NVLS): one channel per GPU, at
//     most NCCL_MAX_NVLS_ARITY (32) and, across nodes, one per NIC. Every
//     channel loads each GPU's NVLink with bwIntra and its head GPU's with
//     twice that (ncclTopoSearchTryNvls, NCCL 2.30.7 src/graph/search.cc),
//     so the busiest link carries nChannels+1 shares; bwInter rises to
//     twice bwIntra on one node, and to the NIC path across nodes.
//   - PCIe-only nodes get the same capacity model on the PCIe link, which
//     ignores the CPU's share of peer traffic: give their GRAPH values.
//   - CollNet (s.CollNet, two nodes or more): CollNetChain is a tree search
//     held to the ring's channel count (collNetChainGraph's min and max
//     channels, NCCL 2.30.7 src/init.cc), so the tree's channels and
//     speeds. CollNetDirect (pattern 6, from NCCL 2.19) takes one channel
//     per head GPU, at most NCCL_MAX_DIRECT_ARITY+1 (8) and, across
//     nodes, as many as the NICs carry at its speed; each channel's head
//     sends to and receives from every other GPU at 1/(G−1) of the speed
//     (ncclTopoSearchTryCollnetDirect), so the link of a head carries
//     shares of 1 + (n−1)/(G−1). NCCL 2.18 and before search one CollNet
//     graph, the chain's, for both, and NCCL 2.8 runs only the chain.
//
// The graphs are those of a communicator over every GPU of s under
// version v, Latest when zero (as Config.Version).
func (s System) Graphs(v Version) (Graphs, error) {
	v = v.orLatest()
	if s.GPUsPerNode < 1 || s.Nodes < 1 {
		return Graphs{}, fmt.Errorf("nccl: system of %d GPUs per node on %d nodes", s.GPUsPerNode, s.Nodes)
	}
	if s.GPU.CompCap < 30 {
		return Graphs{}, fmt.Errorf("nccl: system GPU %q has no compute capability", s.GPU.Name)
	}
	links := s.NVLinks
	if links == 0 {
		links = s.GPU.NVLinks
	}
	if s.NVSwitch && links <= 0 {
		return Graphs{}, fmt.Errorf("nccl: NVSwitch system without NVLink count for %q", s.GPU.Name)
	}
	pcie := s.PCIeBW / gbps
	if pcie == 0 {
		pcie = PCIeBW(s.GPU.PCIeGen) / gbps
	}
	if !(pcie > 0) || math.IsInf(pcie, 0) {
		return Graphs{}, fmt.Errorf("nccl: PCIe bandwidth %g B/s", s.PCIeBW)
	}
	if s.Nodes > 1 && (s.NICs < 1 || !(s.NICBW > 0) || math.IsInf(s.NICBW, 0)) {
		return Graphs{}, fmt.Errorf("nccl: %d nodes need NICs with a bandwidth (%d NICs of %g B/s)", s.Nodes, s.NICs, s.NICBW)
	}
	ss := &searchSystem{v: v, cc: s.GPU.CompCap, gpus: s.GPUsPerNode, nodes: s.Nodes, pcie: pcie,
		nics: s.NICs, nic: s.NICBW / gbps, nicPath: s.NICPath, intraTyp: PathNVL}
	if ss.nicPath == PathLOC {
		ss.nicPath = PathPIX
	}
	switch {
	case s.NVSwitch:
		ss.intra = float64(links) * nvlinkBW(v, s.GPU.CompCap)
	default:
		ss.intra = pcie
		ss.intraTyp = s.PCIePath
		if ss.intraTyp == PathLOC {
			ss.intraTyp = PathPHB
		}
	}
	if s.GPUsPerNode == 1 {
		ss.intraTyp = PathLOC
	}
	ss.speeds = speedArray(v, s.GPU.CompCap, s.Nodes > 1)
	ss.maxCh = 16 // MAXCHANNELS/2 for rings
	if v.from(25, 0) {
		ss.maxCh = 32
	}

	var gs Graphs
	ringCh, ringBW := ss.search(1)
	gs.Ring = ss.graph(PatternRing, ringCh, ringBW, ringBW)
	gs.Ring.SameChannels = true

	// The tree takes the ring's channel count; non-ring patterns may count
	// the GPU's bandwidth as ngpus/(ngpus-1) larger when choosing the start.
	treeBW := ss.fixed(ringCh, ringBW)
	pattern := PatternBalancedTree
	if s.GPUsPerNode == 1 || s.Nodes > 1 && s.GPU.CompCap >= 90 && s.NICs >= s.GPUsPerNode {
		pattern = PatternTree
	}
	intra := treeBW
	for i := ss.index(treeBW) - 1; i >= 0 && intra < 2*treeBW; i-- {
		if float64(ringCh)*ss.speeds[i] > ss.intra+1e-9 {
			break
		}
		intra = ss.speeds[i]
	}
	gs.Tree = ss.graph(pattern, ringCh, intra, treeBW)

	if s.NVLS && s.NVSwitch && !s.Mesh && s.GPU.SupportsNVLS() && s.GPUsPerNode > 1 {
		gs.NVLS = ss.nvls()
	}
	if s.collNet() {
		gs.CollNetChain = ss.graph(PatternTree, ringCh, intra, treeBW)
		switch {
		case v.from(19, 0):
			gs.CollNetDirect = ss.collNetDirect()
		case !v.legacy():
			gs.CollNetDirect = gs.CollNetChain
		}
	}
	return gs, nil
}

// collNet reports that CollNet runs on s: enabled, on two nodes or more.
func (s System) collNet() bool { return s.CollNet && s.Nodes >= 2 }

// collNetDirect is the simplified CollNetDirect search.
func (ss *searchSystem) collNetDirect() Graph {
	n := min(ss.gpus, 8) // NCCL_MAX_DIRECT_ARITY+1 (NCCL 2.30.7 src/graph/search.cc)
	load := 1.0
	if ss.gpus > 1 {
		load += float64(n-1) / float64(ss.gpus-1)
	}
	for _, s := range ss.speeds {
		if s > ss.maxBw() || load*s > ss.intra+1e-9 {
			continue
		}
		if k := ss.nics * int(math.Floor(ss.nic/s+1e-9)); k < n {
			if k < 1 {
				continue
			}
			n = k
		}
		return ss.graph(PatternCollNetDirect, n, s, s)
	}
	return Graph{}
}

// search runs pass 1, the channel duplication and pass 2 for a ring.
func (ss *searchSystem) search(minCh int) (int, float64) {
	maxBw := ss.maxBw()
	i := 0
	for i < len(ss.speeds)-1 && (ss.speeds[i] > maxBw || ss.speeds[i]*float64(minCh) > ss.intra) {
		i++
	}
	bestN, bestS := 0, 0.0
	for ; i < len(ss.speeds); i++ {
		s := ss.speeds[i]
		if bestN > 0 && s/bestS <= 0.49 {
			break
		}
		if n := ss.channels(s); n >= minCh && float64(n)*s > float64(bestN)*bestS+1e-9 {
			bestN, bestS = n, s
			if float64(n)*s >= ss.intra-1e-9 {
				break // uses the GPU's whole bandwidth
			}
		}
	}
	if bestN == 0 {
		return 1, 0.1 // NCCL's fallback: one channel in GPU order at 0.1 GB/s
	}
	if ss.v.legacy() {
		// NCCL 2.8 duplicates after pass 2, which raises only a tree's
		// speed (src/graph/search.cc at tag v2.8.4-1).
		return ss.dup(bestN, bestS)
	}
	n, s := ss.dup(bestN, bestS)
	for j := ss.index(s) - 1; j >= 0 && ss.channels(ss.speeds[j]) >= n; j-- {
		s = ss.speeds[j]
	}
	return n, s
}

// dup is ncclTopoDupChannels.
func (ss *searchSystem) dup(n int, s float64) (int, float64) {
	if s < 25 || !ss.v.legacy() && ss.cc > 80 && s < 50 && n > 4 {
		return n, s
	}
	d := min(2*n, ss.maxCh)
	return d, s / float64((d+n-1)/n)
}

// fixed is the highest speed at which n channels fit, from the start rule
// of a non-ring pattern (the GPU's bandwidth counted ngpus/(ngpus-1) times).
func (ss *searchSystem) fixed(n int, ringBW float64) float64 {
	total := ss.intra
	if ss.gpus > 1 {
		total *= float64(ss.gpus) / float64(ss.gpus-1)
	}
	maxBw := ss.maxBw()
	for _, s := range ss.speeds {
		if s > maxBw || s*float64(n) > total+1e-9 || ss.channels(s) < n {
			continue
		}
		return s
	}
	return ringBW
}

// index is the position of s in the speed array (or of the first smaller).
func (ss *searchSystem) index(s float64) int {
	for i, x := range ss.speeds {
		if x <= s+1e-9 {
			return i
		}
	}
	return len(ss.speeds) - 1
}

// nvls is the simplified NVLS search.
func (ss *searchSystem) nvls() Graph {
	n := min(ss.gpus, 32) // NCCL_MAX_NVLS_ARITY (NCCL 2.30.7 src/include/device.h)
	if ss.nodes > 1 {
		n = min(n, ss.nics)
	}
	intra := 0.0
	for _, s := range ss.speeds {
		if s <= ss.maxBw() && float64(n+1)*s <= ss.intra+1e-9 {
			intra = s
			break
		}
	}
	if intra == 0 || n < 1 {
		return Graph{}
	}
	inter := intra
	limit := math.Inf(1)
	if ss.nodes > 1 {
		limit = math.Min(ss.pcie, ss.nic)
	}
	for i := ss.index(intra) - 1; i >= 0 && inter < 2*intra && ss.speeds[i] <= limit; i-- {
		inter = ss.speeds[i]
	}
	return ss.graph(PatternNVLS, n, intra, inter)
}

func (ss *searchSystem) graph(p Pattern, n int, intra, inter float64) Graph {
	g := Graph{Pattern: p, NChannels: n, BWIntra: intra, BWInter: inter, TypeIntra: ss.intraTyp, TypeInter: PathPIX}
	if ss.nodes > 1 {
		g.TypeInter = ss.nicPath
		if g.TypeInter == PathP2C && !ss.v.from(27, 0) {
			// Before 2.27 NCCL types a NIC on a Grace CPU's PCIe, reached
			// over C2C, as PHB (src/graph/paths.cc at v2.26.2-1 and
			// v2.27.3-1, which retypes PHB over C2C as P2C).
			g.TypeInter = PathPHB
		}
	}
	return g
}

// DomainNICs is the most NICs NCCL uses between multi-node NVLink (MNNVL)
// domains, whatever the NICs of a domain's hosts add up to: 16 from NCCL
// 2.27.3 (its release notes: "Increase to 16 the number of NICs used to
// communicate between MNNVL domains on GB200 systems"), and 0 (no known
// limit) before, where the notes give no figure.
func DomainNICs(v Version) int {
	if v.Before(Version{2, 27, 3}) {
		return 0
	}
	return 16
}
