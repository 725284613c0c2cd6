package nccl

import "math"

// ArchOf returns the generation of a compute capability (90 for 9.0): 10.0
// and later Blackwell, 9.x Hopper, 8.x Ampere, below Volta.
func ArchOf(cc int) Arch {
	switch {
	case cc >= 100:
		return Blackwell
	case cc >= 90:
		return Hopper
	case cc >= 80:
		return Ampere
	}
	return Volta
}

// compCapIndex is NCCL's table row of the lowest compute capability: its
// ArchOf, but Hopper's row for Blackwell before NCCL 2.25 gave it its own.
func compCapIndex(v Version, minCC int) Arch {
	if a := ArchOf(minCC); a != Blackwell || v.from(25, 0) {
		return a
	}
	return Hopper
}

// log2i is NCCL's log2i: floor(log2 n), which NCCL 2.22 and later (log2Down)
// make -1 for n = 0 and earlier versions make 0.
func log2i(v Version, n int64) int {
	if n <= 0 {
		if v.from(22, 0) {
			return -1
		}
		return 0
	}
	l := 0
	for n > 1 {
		n >>= 1
		l++
	}
	return l
}

// modelled reports whether ncclTopoTuneModel computes (f, a) at all; the
// others keep latency and bandwidth 0.
func (m *Model) modelled(f Func, a Algo) bool {
	v := m.v
	if v.legacy() {
		// NCCL 2.8: Ring for every function, Tree and CollNet for AllReduce.
		return a == AlgoRing || f == FuncAllReduce && (a == AlgoTree || a == AlgoCollNetChain)
	}
	switch f {
	case FuncBroadcast, FuncReduce:
		return a == AlgoRing
	case FuncAllGather, FuncReduceScatter:
		switch a {
		case AlgoRing:
			return true
		case AlgoNVLS:
			return v.from(19, 0)
		case AlgoCollNetDirect:
			return v.from(20, 0)
		case AlgoPAT:
			return v.from(23, 0)
		}
		return false
	}
	return a != AlgoPAT
}

// patEnabled is ncclPatEnable (NCCL 2.30.7 src/graph/tuning.cc): PAT needs
// SM60 (checked from 2.26) and, by default, one rank per node and a host
// network device (assumed).
func (m *Model) patEnabled(mode PATMode) bool {
	if m.v.from(26, 0) && m.minCC < 60 {
		return false
	}
	switch mode {
	case PATOn:
		return true
	case PATOff:
		return false
	}
	return m.nNodes == m.nRanks
}

// netOverhead is getNetOverhead, us.
func (m *Model) netOverhead(override *float64) float64 {
	if override != nil {
		return *override
	}
	switch {
	case m.cpu.Arch == X86 && m.cpu.Vendor == Intel:
		return m.c.NetOverhead[0]
	case m.cpu.Arch == X86 && m.cpu.Vendor == AMD:
		return m.c.NetOverhead[1]
	}
	return m.c.NetOverhead[2]
}

// tune fills m.lat and m.bw as ncclTopoTuneModel does for m.v, before the
// enable masks.
func (m *Model) tune(gs *Graphs, cfg *Config) {
	t := m.tuning(cfg)
	for f := range Func(NumFuncs) {
		nsteps := m.nRanks
		switch f {
		case FuncAllReduce:
			nsteps = 2 * (m.nRanks - 1)
		case FuncAllGather, FuncReduceScatter:
			nsteps = m.nRanks - 1
		}
		for a := range Algo(NumAlgos) {
			if !m.modelled(f, a) {
				continue
			}
			g := gs.of(a)
			intraHW, hw := HWPCI, HWNet
			if g.TypeIntra == PathNVL {
				intraHW = HWNVLink
			}
			if m.nNodes == 1 {
				hw = intraHW
			}
			for p := range Protocol(NumProtocols) {
				if (a == AlgoNVLS || a == AlgoNVLSTree) && p != Simple || a == AlgoPAT && (p != Simple || !t.pat) ||
					rcclSkips(m.v, m.isa, m.nNodes, a, p) {
					continue
				}
				busBw, ok := m.busBW(f, a, p, gs, &t)
				if !ok {
					continue
				}
				m.bw[f][a][p] = busBw * m.ratio(f, a, nsteps)
				if a == AlgoRing {
					m.ringBackup[f][p] = m.bw[f][a][p]
				}
				m.lat[f][a][p] = m.latency(f, a, p, g, intraHW, hw, nsteps, &t)
			}
		}
	}
}

// A tuning holds what ncclTopoTuneModel works out once for a communicator
// before its loops over functions, algorithms and protocols: the rows of
// the per-generation tables, the caps they give, and the shape.
type tuning struct {
	arch Arch // the row of the per-generation tables
	sm80 bool // every GPU is SM80 (A100)
	// llMax, treeMax, ringLL128Max, treeLL128Max and nvlsTreeMax are the
	// caps of the row and scale (LL's row follows the CPU across nodes), GB/s.
	llMax, treeMax, ringLL128Max, treeLL128Max, nvlsTreeMax float64
	hwLat                                                   [NumHW][NumAlgos][NumProtocols]float64 // the latency table, us
	ppn                                                     float64                                // ranks per node
	ppnInt                                                  int                                    // ranks per node, rounded down
	logNodes                                                float64                                // log2i of the node count
	pat                                                     bool                                   // PAT is enabled
	collNet                                                 bool                                   // Config.CollNet
	overhead                                                *float64                               // Config.NetOverhead
}

// tuning returns m's tuning under the configuration cfg.
func (m *Model) tuning(cfg *Config) tuning {
	v, c := m.v, &m.c
	t := tuning{arch: compCapIndex(v, m.minCC), sm80: m.minCC == 80 && m.maxCC == 80,
		hwLat: c.HWLatency, pat: m.patEnabled(cfg.PAT), collNet: cfg.CollNet, overhead: cfg.NetOverhead}
	if v.legacy() {
		// NCCL 2.8's tables have two rows: every GPU SM80, or not.
		t.arch = Volta
		if t.sm80 {
			t.arch = Ampere
		}
	}
	scale := min(m.nNodes-1, 2)
	llRow := int(t.arch)
	if m.nNodes > 1 {
		// Across nodes the LL cap follows the CPU, not the GPU.
		llRow = 0
		if m.cpu.Vendor == AMD || m.cpu.Vendor == Mixed {
			llRow = 1
		}
	}
	t.llMax = c.LLMaxBW[llRow][scale]
	t.treeMax = c.PerChMaxTreeBW[t.arch][scale]
	t.ringLL128Max = c.PerChMaxRingLL128BW[t.arch][scale]
	t.treeLL128Max = c.PerChMaxTreeLL128BW[t.arch][scale]
	t.nvlsTreeMax = c.PerChMaxNVLSTreeBW[t.arch][scale]
	if m.cpu.Arch == Power {
		// De-penalise Tree/Simple on POWER to favour Tree.
		t.hwLat[HWPCI][AlgoTree][Simple] = t.hwLat[HWPCI][AlgoRing][Simple]
	}
	t.ppn = float64(m.nRanks) / float64(m.nNodes)
	t.ppnInt = m.nRanks / m.nNodes
	t.logNodes = float64(log2i(v, int64(m.nNodes)))
	return t
}

// busBW is the bus bandwidth of (f, a, p) on the graphs gs: the channels'
// bandwidth after the model's refinements, in tuning.cc's order; false
// where NCCL skips the combination.
func (m *Model) busBW(f Func, a Algo, p Protocol, gs *Graphs, t *tuning) (float64, bool) {
	v, c, nNodes, ppn := m.v, &m.c, m.nNodes, t.ppn
	g := gs.of(a)
	nCh := float64(g.NChannels)
	collnet := a.CollNet()
	bw := g.BWInter
	if nNodes <= 2 || collnet {
		bw = g.BWIntra
	}
	if a == AlgoNVLS || a == AlgoNVLSTree {
		var ok bool
		if bw, ok = m.nvlsBW(f, a, g, ppn, t.arch, t.nvlsTreeMax, bw); !ok {
			return 0, false
		}
	}
	busBw := nCh * bw
	if t.sm80 && c.BusBWCapSM80 > 0 {
		busBw = math.Min(busBw, c.BusBWCapSM80)
	}
	ll128Max := nCh * c.LL128MaxBWPerFunc[f]
	if a == AlgoRing && p == LL {
		factor := 0.5
		if !v.from(21, 0) {
			factor = 1.0 / 3.0
			if nNodes > 1 || f == FuncAllReduce || f == FuncReduce {
				factor = 1.0 / 4.0
			}
		}
		busBw = math.Min(t.llMax, busBw*factor)
	}
	if a == AlgoRing && p == LL128 {
		factor := 0.92
		if !v.from(23, 0) && ppn < 2 {
			factor = 0.7
		}
		if ll128Max == 0 {
			ll128Max = nCh * t.ringLL128Max
		}
		busBw = math.Min(busBw*factor, ll128Max)
	}
	if a == AlgoTree && (f == FuncAllReduce || !v.from(23, 0)) {
		busBw = math.Min(busBw*0.92, nCh*t.treeMax)
	}
	if a == AlgoTree && p == LL {
		busBw = math.Min(busBw/3.8, t.llMax)
	}
	if a == AlgoTree && p == LL128 {
		factor := 120.0 / 128.0
		switch {
		case nNodes == 1:
			factor = 7.0 / 9.0
		case v.legacy():
			factor = 0.915
		}
		if ll128Max == 0 {
			ll128Max = nCh * t.treeLL128Max
		}
		busBw = math.Min(busBw*factor, ll128Max)
	}
	if a == AlgoTree && gs.Tree.Pattern == PatternTree && !v.legacy() {
		busBw *= 0.85
	}
	if a == AlgoPAT {
		busBw *= c.PATFactor
	}
	if collnet && v.legacy() {
		// NCCL 2.8's CollNet: 0.9, LL a sixth of that (no GDR read on
		// either side), no LL128.
		busBw *= 0.9
		switch p {
		case LL:
			busBw /= 6
		case LL128:
			busBw = 0
		}
	} else if collnet && p != Simple {
		busBw = 0
	}
	if a == AlgoCollNetDirect && p == Simple {
		busBw = m.collNetDirectBW(f, g, ppn, busBw, t.collNet)
	}
	gather := f == FuncAllGather || f == FuncReduceScatter
	if v.from(27, 0) && (a == AlgoNVLS || a == AlgoCollNetDirect) && p == Simple && gather && nNodes > 1 {
		// AllGather/ReduceScatter across nodes need CollNet with a head
		// for every local rank.
		if !t.collNet || t.ppnInt > gs.CollNetDirect.NChannels {
			busBw = 0
		}
	}
	return busBw, true
}

// nvlsBW is the per-channel bandwidth of NVLS and NVLSTree; false means
// NCCL skips the combination (fewer than two channels, NCCL 2.28 on).
func (m *Model) nvlsBW(f Func, a Algo, g *Graph, ppn float64, arch Arch, nvlsTreeMax, bw float64) (float64, bool) {
	v, nNodes := m.v, m.nNodes
	switch {
	case v.from(28, 0):
		if g.NChannels < 2 {
			return 0, false
		}
		nCh := float64(g.NChannels)
		intra := g.BWIntra * m.c.NVLSEfficiency[arch] * (nCh - 1) / nCh
		if f == FuncAllReduce {
			intra *= 2 // AllReduce pipelines two operations
		} else {
			intra *= (ppn - 1) / ppn
		}
		inter := g.BWInter
		if a == AlgoNVLSTree && nNodes <= 2 {
			inter *= 2
		}
		bw = math.Min(intra, inter)
		if a == AlgoNVLSTree {
			bw = math.Min(bw, nvlsTreeMax)
		}
	case !v.from(19, 0):
		// 2.18 reads bwIntra or bwInter like every algorithm.
	case a == AlgoNVLSTree:
		inter := g.BWInter
		if nNodes > 2 {
			inter /= 2
		}
		bw = math.Min(g.BWIntra, inter)
	case f != FuncAllReduce && v.from(27, 0):
		bw = math.Min(g.BWIntra*(ppn-1)/ppn, g.BWInter*0.9)
	default:
		bw = math.Min(g.BWIntra, g.BWInter)
	}
	return bw, true
}

// collNetDirectBW is CollNetDirect/Simple's bus bandwidth.
func (m *Model) collNetDirectBW(f Func, g *Graph, ppn, busBw float64, collNet bool) float64 {
	v := m.v
	if (f == FuncAllGather || f == FuncReduceScatter) && v.from(20, 0) {
		if v.from(27, 0) {
			return ppn * math.Min(g.BWIntra, g.BWInter*0.9)
		}
		bw := ppn * g.BWIntra
		if m.nNodes > 1 && (!collNet || ppn > float64(g.NChannels)) {
			// 1:1 GPU:NIC needed; the heads are the graph's channels.
			bw = 0
		}
		w := (ppn - 1) / (8 - 1)
		return bw * (w*0.85 + (1-w)*0.95)
	}
	if g.NChannels == 0 {
		return 0
	}
	// CollNetDirect needs a local NIC per GPU for full speed.
	factor := ppn / float64(g.NChannels)
	factor -= (factor - 1) / 2
	busBw /= factor
	if m.minCC >= 90 {
		busBw *= 0.85
	}
	return busBw
}

// ratio converts a bus bandwidth to the algorithm bandwidth NCCL stores.
func (m *Model) ratio(f Func, a Algo, nsteps int) float64 {
	v := m.v
	gather := f == FuncAllGather || f == FuncReduceScatter
	switch {
	case v.from(23, 0) && gather && a != AlgoRing:
		return 1 // PAT, NVLS and CollNetDirect store an algorithm bandwidth already
	case v.from(20, 0) && gather && a == AlgoCollNetDirect:
		return 1
	}
	steps := float64(m.nRanks) / float64(nsteps)
	switch a {
	case AlgoRing:
		return steps
	case AlgoNVLS, AlgoNVLSTree:
		if v.from(28, 0) {
			return steps
		}
		if a == AlgoNVLSTree && !v.from(19, 0) {
			if m.nNodes == 1 {
				return 0 // 2.18 divides by zero here; NVLSTree is disabled on one node
			}
			return 0.70 * float64(m.nNodes) / float64(2*(m.nNodes-1))
		}
		return 5.0 / 6.0
	}
	return 0.5
}

// latency is comm->latencies[f][a][p], us, for graph g whose links within
// a node are of class intraHW and whose algorithm's hops are of class hw.
func (m *Model) latency(f Func, a Algo, p Protocol, g *Graph, intraHW, hw HW, nsteps int, t *tuning) float64 {
	v, c := m.v, &m.c
	nNodes := m.nNodes
	hwLat, ppn, ppnInt, logNodes := &t.hwLat, t.ppn, t.ppnInt, t.logNodes
	lat := c.BaseLatency[a][p]
	intraLat := hwLat[intraHW][a][p]
	interLat := hwLat[HWNet][a][p]
	if v.from(23, 0) && ppn == 1 {
		// With one rank per node the network latency is fully exposed.
		interLat = hwLat[HWNet][AlgoTree][p]
	}
	if v.legacy() && nNodes > 1 && p == LL {
		intraLat *= 1.8
	}
	interLat += g.LatencyInter
	if p == Simple {
		interLat += g.LatencyInter // the flush
	}
	switch a {
	case AlgoRing:
		l := hwLat[hw][AlgoRing][p]
		if f == FuncBroadcast || f == FuncReduce {
			if g.SameChannels {
				return lat + l
			}
			if p == Simple {
				l = hwLat[hw][AlgoTree][p]
			}
			return lat + float64(nsteps)*l
		}
		netOverhead := 0.0
		if nNodes > 1 {
			netOverhead = m.netOverhead(t.overhead)
			if p == Simple {
				netOverhead *= 3
			}
		}
		intraLat = math.Max(intraLat, netOverhead)
		inter := 0
		switch {
		case f != FuncAllReduce:
			inter = nNodes - 1
		case nNodes == 1:
		case v.from(23, 0) || v.legacy():
			inter = 2 * (nNodes - 1)
		default:
			inter = 2 * nNodes
		}
		return lat + float64(nsteps-inter)*intraLat + float64(inter)*interLat
	case AlgoTree:
		if f == FuncAllReduce || !v.from(23, 0) {
			lat += 2 * (float64(ppnInt-1)*intraLat + logNodes*interLat)
		}
		return lat
	case AlgoCollNetDirect:
		return lat + 2*(float64(min(1, ppnInt-1))*intraLat+float64(ppnInt-1)*c.CollNetArityLatency) + interLat
	case AlgoCollNetChain:
		return lat + 2*float64(ppnInt-1)*intraLat + interLat
	case AlgoNVLS:
		if !v.from(19, 0) {
			if nNodes > 1 {
				lat += hwLat[HWNet][AlgoNVLS][p]
			}
			return lat
		}
		lat = intraLat
		if nNodes > 1 {
			lat += interLat
		}
		return lat
	case AlgoNVLSTree:
		if !v.from(19, 0) {
			return lat + 2*float64(nNodes-1)*hwLat[HWNet][AlgoNVLSTree][p]
		}
		return lat + intraLat + 2*logNodes*interLat
	case AlgoPAT:
		return lat + logNodes*(interLat/3.5) + float64(m.nRanks)*2.8
	}
	return lat
}
