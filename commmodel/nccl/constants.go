package nccl

// Arch is the GPU generation that indexes NCCL's per-generation tables
// (compCapIndex in NCCL 2.30.7 src/graph/tuning.cc), chosen from the lowest
// compute capability of the communicator.
type Arch int

// The generations of NCCL's tables. Blackwell has its own row from NCCL 2.25;
// before that a Blackwell GPU indexes the Hopper row.
const (
	Volta     Arch = iota // compute capability below 8.0 (Volta, Turing and older)
	Ampere                // 8.x (Ampere, Ada)
	Hopper                // 9.x
	Blackwell             // 10.0 and later
	// NumArchs is the number of generations.
	NumArchs = 4
)

var archNames = [NumArchs]string{"Volta", "Ampere", "Hopper", "Blackwell"}

// String returns the generation's name.
func (a Arch) String() string { return nameOf(archNames[:], int(a), "Arch") }

// HW is the hardware class that indexes NCCL's latency table (NCCL_HW_NVLINK,
// NCCL_HW_PCI, NCCL_HW_NET in NCCL 2.30.7 src/graph/tuning.cc).
type HW int

// NCCL's hardware classes.
const (
	HWNVLink HW = iota
	HWPCI
	HWNet
	// NumHW is the number of hardware classes.
	NumHW = 3
)

// Constants are the numbers of NCCL's tuning model, in NCCL's own units:
// latencies in microseconds and bandwidths in GB/s (1e9 B/s) per channel,
// as tuning.cc writes them. Tables indexed [Arch][scale] have three scale
// columns: one node, two nodes, three or more nodes.
//
// DefaultConstants returns them for a version; a caller may change any of
// them (NCCL 2.28 and later let a tuner plugin do the same through
// ncclTunerConstants_t, NCCL 2.30.7 src/include/plugin/tuner/tuner_v5.h).
type Constants struct {
	// BaseLatency[a][p] is the fixed latency of algorithm a with protocol
	// p, in us (baseLat; baseLatencies from NCCL 2.28).
	BaseLatency [NumAlgos][NumProtocols]float64
	// HWLatency[h][a][p] is the latency of one step of a with p over
	// hardware h, in us (hwLat; hwLatencies from NCCL 2.28).
	HWLatency [NumHW][NumAlgos][NumProtocols]float64
	// LLMaxBW caps the bus bandwidth of LL, in GB/s (llMaxBws). On one node
	// the row is the GPU's Arch; across nodes it is 0 for Intel or other
	// CPUs and 1 for AMD (or mixed) CPUs, so rows 2 and 3 are only read in
	// their one-node column.
	LLMaxBW [NumArchs][3]float64
	// PerChMaxRingLL128BW caps Ring/LL128 per channel, GB/s.
	PerChMaxRingLL128BW [NumArchs][3]float64
	// PerChMaxTreeLL128BW caps Tree/LL128 per channel, GB/s.
	PerChMaxTreeLL128BW [NumArchs][3]float64
	// PerChMaxTreeBW caps Tree AllReduce per channel, GB/s.
	PerChMaxTreeBW [NumArchs][3]float64
	// PerChMaxNVLSTreeBW caps NVLSTree per channel, GB/s (NCCL 2.28 on;
	// zero before, where it is not applied).
	PerChMaxNVLSTreeBW [NumArchs][3]float64
	// NVLSEfficiency scales the NVLS intra-node bandwidth per generation
	// (NCCL 2.28 on; unused before).
	NVLSEfficiency [NumArchs]float64
	// TreeCorrection[p][k] scales the Tree AllReduce bandwidth for messages
	// of nBytes in [64·2^k, 64·2^(k+1)), k = floor(log2(nBytes/64)); Tree
	// reads columns 0 to 22, NVLSTree (NCCL 2.29 on, Blackwell on x86 CPUs)
	// columns 0 to 23 (treeCorrectionFactor).
	TreeCorrection [NumProtocols][24]float64
	// CollNetArityLatency is the per-local-rank serialisation latency of
	// CollNetDirect, us (0.5 in NCCL 2.18, 0.4 later).
	CollNetArityLatency float64
	// PATFactor scales the PAT bus bandwidth (0.85 in NCCL 2.23, 0.75 later).
	PATFactor float64
	// NetOverhead is the per-step launch cost of a network step for an
	// x86 Intel CPU, an x86 AMD CPU, and any other CPU, us (getNetOverhead;
	// NCCL_NET_OVERHEAD overrides all three). Simple pays it three times.
	NetOverhead [3]float64
	// RingPlateau multiplies the Ring/Simple AllReduce latency across nodes
	// once every rank of every channel moves at least 64 bytes (NCCL 2.8:
	// once every rank moves 4 KiB): index 0 for compute capability below
	// 8.0, 1 otherwise.
	RingPlateau [2]float64
	// LL128MaxBWPerFunc caps Ring/LL128 and Tree/LL128 per channel by
	// function, GB/s (NCCL 2.8's ll128MaxBwPerCh; zero from 2.18, where
	// the per-generation caps above apply instead).
	LL128MaxBWPerFunc [NumFuncs]float64
	// BusBWCapSM80 caps every bus bandwidth when all GPUs are SM80 (A100),
	// GB/s (NCCL 2.8's 235; zero, no cap, from 2.18).
	BusBWCapSM80 float64
}

// DefaultConstants returns NCCL's constants for version v, read from
// src/graph/tuning.cc at tags v2.18.6-1, v2.19.4-1, v2.20.5-1, v2.21.5-1,
// v2.22.3-1, v2.23.4-1, v2.24.3-1, v2.25.1-1, v2.26.6-1, v2.27.7-1,
// v2.28.3-1, v2.28.9-1, v2.29.7-1 and v2.30.7-1. What changes:
//
//	2.18        CollNet and NVLS carry base latencies (CollNet 6.8/14/0 us, NVLS and
//	            NVLSTree Simple 23 us); Tree/Simple 4/6/14 us (NVLink/PCI/net);
//	            CollNetDirect Simple 8/8/10.7, CollNetChain 4.75/8/14; arity 0.5 us;
//	            the Hopper LL cap is Ampere's (87.7/22.5/19.0 GB/s).
//	2.19–2.22   base latencies of CollNet and NVLS go to 0; Tree/Simple is 28 us on
//	            every hardware class; CollNetDirect 3.7/3.7/31, CollNetChain 2.8/2.8/30;
//	            NVLS/NVLSTree 23 us on NVLink (25 from 2.21), 18 and 14 us on the net;
//	            from 2.21 the Hopper LL cap is 141/45/35 GB/s.
//	2.23–2.27   Tree/Simple back to 8.4 us base, 4/4/14 us per step; PAT appears
//	            (8 us base, bandwidth ×0.85 in 2.23, ×0.75 from 2.24); from 2.25 a
//	            Blackwell row at twice Hopper's values.
//	2.28–2.30   the constants move to ncclTunerConstants_t with a PAT row of 4/4/14 us;
//	            Blackwell retuned (Tree 70/42.8/24, Tree/LL128 55.6/31.67/20, Ring/LL128
//	            73.4 per channel, 34.6 on two nodes in 2.28.9, 40 from 2.29); NVLS
//	            efficiency 0.85 (Hopper) and 0.74 (Blackwell); an NVLSTree cap per
//	            channel (Blackwell three-node value 43.1 in 2.28.3, 43.8 in 2.28.9–2.29,
//	            80 in 2.30); NVLSTree net latency 20.9 us from 2.28.9.
//
// The zero Version is Latest, as in Config.Version, so that
// c := DefaultConstants(cfg.Version) is the table New uses for cfg. A
// version the model does not tabulate, which New refuses (Supported), gets
// the nearest table: Latest's after the 2.30 series (3.0.0, no release,
// included) and Oldest's before 2.18, the 2.8 series (Legacy's) apart.
//
// Formula changes that are not constants (the LL factor, the inter-node step
// count of Ring, the NVLS bandwidth model, ...) follow v inside New; the
// package documentation lists them.
func DefaultConstants(v Version) Constants {
	v = v.tabulated()
	if v.legacy() {
		return legacyConstants()
	}
	var c Constants
	// Rows shared by every version (NCCL 2.18.6 to 2.30.7 tuning.cc).
	c.BaseLatency[AlgoTree] = [3]float64{6.8, 14.0, 0}
	c.BaseLatency[AlgoRing] = [3]float64{6.6, 14.0, 8.4}
	c.HWLatency[HWNVLink][AlgoTree] = [3]float64{0.6, 1.25, 4}
	c.HWLatency[HWNVLink][AlgoRing] = [3]float64{0.6, 1.9, 3.4}
	c.HWLatency[HWPCI][AlgoTree] = [3]float64{1.0, 1.9, 6}
	c.HWLatency[HWPCI][AlgoRing] = [3]float64{1.0, 2.5, 5.7}
	c.HWLatency[HWNet][AlgoTree] = [3]float64{5.0, 8.5, 14}
	c.HWLatency[HWNet][AlgoRing] = [3]float64{2.7, 4.0, 14.0}
	c.LLMaxBW = [NumArchs][3]float64{
		{39.0, 39.0, 20.4},
		{87.7, 22.5, 19.0},
		{87.7, 22.5, 19.0},
	}
	c.PerChMaxRingLL128BW = [NumArchs][3]float64{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 36.7}}
	c.PerChMaxTreeLL128BW = [NumArchs][3]float64{{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}}
	c.PerChMaxTreeBW = [NumArchs][3]float64{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}}
	c.TreeCorrection = [NumProtocols][24]float64{
		{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
		{1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
		{.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
	}
	c.CollNetArityLatency = 0.4
	c.PATFactor = 0.75
	c.NetOverhead = [3]float64{1.0, 2.0, 1.0}
	c.RingPlateau = [2]float64{1.9, 1.4}

	switch {
	case !v.from(19, 0): // 2.18
		c.BaseLatency[AlgoCollNetDirect] = [3]float64{6.8, 14.0, 0}
		c.BaseLatency[AlgoCollNetChain] = [3]float64{6.8, 14.0, 0}
		c.BaseLatency[AlgoNVLS] = [3]float64{0, 0, 23}
		c.BaseLatency[AlgoNVLSTree] = [3]float64{0, 0, 23}
		c.HWLatency[HWNVLink][AlgoCollNetDirect] = [3]float64{0, 0, 8.0}
		c.HWLatency[HWNVLink][AlgoCollNetChain] = [3]float64{0, 0, 4.75}
		c.HWLatency[HWPCI][AlgoCollNetDirect] = [3]float64{0, 0, 8.0}
		c.HWLatency[HWPCI][AlgoCollNetChain] = [3]float64{0, 0, 8.0}
		c.HWLatency[HWNet][AlgoCollNetDirect] = [3]float64{0, 0, 10.7}
		c.HWLatency[HWNet][AlgoCollNetChain] = [3]float64{0, 0, 14}
		c.HWLatency[HWNet][AlgoNVLS] = [3]float64{0, 0, 18}
		c.HWLatency[HWNet][AlgoNVLSTree] = [3]float64{0, 0, 19}
		c.CollNetArityLatency = 0.5
		c.PATFactor = 0
		return c
	case !v.from(23, 0): // 2.19 to 2.22
		for h := range c.HWLatency {
			c.HWLatency[h][AlgoTree][Simple] = 28
		}
		nvl := 23.0
		if v.from(21, 0) {
			nvl = 25
			c.LLMaxBW[Hopper] = [3]float64{141.0, 45.0, 35.0}
		}
		c.setCollNetNVLSLatencies(nvl, 14)
		c.PATFactor = 0
		return c
	}
	// 2.23 and later.
	c.BaseLatency[AlgoTree][Simple] = 8.4
	c.HWLatency[HWPCI][AlgoTree][Simple] = 4
	c.BaseLatency[AlgoPAT] = [3]float64{8, 8, 8}
	c.LLMaxBW[Hopper] = [3]float64{141.0, 45.0, 35.0}
	netNVLSTree := 14.0
	if v.from(28, 9) {
		netNVLSTree = 20.9
	}
	c.setCollNetNVLSLatencies(25, netNVLSTree)
	if !v.from(24, 0) {
		c.PATFactor = 0.85
	}
	if v.from(25, 0) {
		c.LLMaxBW[Blackwell] = [3]float64{2 * 141.0, 2 * 45.0, 2 * 35.0}
		c.PerChMaxRingLL128BW[Blackwell] = [3]float64{2 * 36.7, 2 * 36.7, 2 * 36.7}
		c.PerChMaxTreeLL128BW[Blackwell] = [3]float64{2 * 36.7, 2 * 36.7, 2 * 29.0}
		c.PerChMaxTreeBW[Blackwell] = [3]float64{2 * 38.7, 2 * 41.4, 2 * 36.0}
	}
	if !v.from(28, 0) {
		return c
	}
	c.BaseLatency[AlgoPAT] = [3]float64{8, 8, 8}
	for h := range c.HWLatency {
		c.HWLatency[h][AlgoPAT][Simple] = 4
	}
	c.HWLatency[HWNet][AlgoPAT][Simple] = 14
	c.PerChMaxTreeLL128BW[Blackwell] = [3]float64{55.6, 31.67, 20.0}
	c.PerChMaxTreeBW[Blackwell] = [3]float64{70.0, 42.8, 24.0}
	nvlsTree3 := 43.1
	switch {
	case v.from(30, 0):
		nvlsTree3 = 80
	case v.from(28, 9):
		nvlsTree3 = 43.8
	}
	c.PerChMaxNVLSTreeBW = [NumArchs][3]float64{
		{26.5, 18.5, 10.0},
		{24.0, 23.6, 17.8},
		{0.0, 57.7, 45.5},
		{0.0, 96.0, nvlsTree3},
	}
	switch {
	case v.from(29, 0):
		c.PerChMaxRingLL128BW[Blackwell] = [3]float64{40, 40, 40}
	case v.from(28, 9):
		c.PerChMaxRingLL128BW[Blackwell][1] = 34.6
	}
	c.NVLSEfficiency = [NumArchs]float64{0, 0, 0.85, 0.74}
	return c
}

// legacyConstants are NCCL 2.8's constants (src/graph/tuning.cc at tag
// v2.8.4-1; v2.8.3-1 has the same). NCCL 2.8 has three algorithms, Tree,
// Ring and CollNet; its CollNet (the chain through the node's GPUs to the
// network's switch, NCCL_ALGO=CollNet) is CollNetChain here. What differs
// from 2.18:
//
//	base latency        Tree 4.4/4.4/0, Ring 3.6/10.0/8.4, CollNet 4.4/4.4/0 us (LL/LL128/Simple)
//	NVLink per step     Tree 0.52/1.25/28, Ring 0.47/1.9/3.4, CollNet 0.5/1.2/4.0 us
//	PCI per step        Tree 1.0/1.9/28, Ring 1.0/2.5/5.7, CollNet 1.0/1.9/5.5 us
//	network per step    Tree 5.0/8.5/28, Ring 2.7/4.0/9.6, CollNet 5.0/5.0/10.7 us
//	LL128 per channel   by function, not generation: Broadcast 18.8, Reduce 12.0,
//	                    AllGather 18.3, ReduceScatter 15.2, AllReduce 16.9 GB/s
//	Tree per channel    SM80 24.0/22.5/16.0 GB/s (one, two, more nodes), others 26.5/18.5/10.0
//	LL cap              39.0/39.0/20.4 (one node: not SM80; across nodes: Intel),
//	                    87.7/22.5/19.0 (SM80; AMD)
//	SM80                every bus bandwidth at most 235 GB/s
//	network overhead    none; the Ring plateau is 1.9 on every generation
//
// The rows of the tables indexed by generation are filled for every Arch:
// NCCL 2.8 has two rows, chosen by whether every GPU is SM80, so New reads
// the Ampere row for SM80 and the Volta row otherwise.
func legacyConstants() Constants {
	var c Constants
	c.BaseLatency[AlgoTree] = [3]float64{4.4, 4.4, 0}
	c.BaseLatency[AlgoRing] = [3]float64{3.6, 10.0, 8.4}
	c.BaseLatency[AlgoCollNetChain] = [3]float64{4.4, 4.4, 0}
	c.HWLatency[HWNVLink][AlgoTree] = [3]float64{0.52, 1.25, 28}
	c.HWLatency[HWNVLink][AlgoRing] = [3]float64{0.47, 1.9, 3.4}
	c.HWLatency[HWNVLink][AlgoCollNetChain] = [3]float64{0.5, 1.2, 4.0}
	c.HWLatency[HWPCI][AlgoTree] = [3]float64{1.0, 1.9, 28}
	c.HWLatency[HWPCI][AlgoRing] = [3]float64{1.0, 2.5, 5.7}
	c.HWLatency[HWPCI][AlgoCollNetChain] = [3]float64{1.0, 1.9, 5.5}
	c.HWLatency[HWNet][AlgoTree] = [3]float64{5.0, 8.5, 28}
	c.HWLatency[HWNet][AlgoRing] = [3]float64{2.7, 4.0, 9.6}
	c.HWLatency[HWNet][AlgoCollNetChain] = [3]float64{5.0, 5.0, 10.7}
	volta, ampere := [3]float64{39.0, 39.0, 20.4}, [3]float64{87.7, 22.5, 19.0}
	treeVolta, treeAmpere := [3]float64{26.5, 18.5, 10.0}, [3]float64{24.0, 22.5, 16.0}
	for a := range Arch(NumArchs) {
		c.LLMaxBW[a], c.PerChMaxTreeBW[a] = volta, treeVolta
	}
	c.LLMaxBW[Ampere], c.PerChMaxTreeBW[Ampere] = ampere, treeAmpere
	c.LL128MaxBWPerFunc = [NumFuncs]float64{18.8, 12.0, 18.3, 15.2, 16.9}
	c.BusBWCapSM80 = 235
	c.TreeCorrection = [NumProtocols][24]float64{
		{1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
		{1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .5, .6, .6, .7, .7, .8, .9, .9, .92, .92},
		{.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9},
	}
	c.RingPlateau = [2]float64{1.9, 1.9}
	return c
}

// setCollNetNVLSLatencies fills the per-step latencies of CollNet and NVLS
// from NCCL 2.19 on: NVLS and NVLSTree cost nvl us on NVLink and 18 and
// netNVLSTree us on the network.
func (c *Constants) setCollNetNVLSLatencies(nvl, netNVLSTree float64) {
	for _, h := range [...]HW{HWNVLink, HWPCI} {
		c.HWLatency[h][AlgoCollNetDirect] = [3]float64{0, 0, 3.7}
		c.HWLatency[h][AlgoCollNetChain] = [3]float64{0, 0, 2.8}
	}
	c.HWLatency[HWNet][AlgoCollNetDirect] = [3]float64{0, 0, 31}
	c.HWLatency[HWNet][AlgoCollNetChain] = [3]float64{0, 0, 30}
	c.HWLatency[HWNVLink][AlgoNVLS] = [3]float64{0, 0, nvl}
	c.HWLatency[HWNVLink][AlgoNVLSTree] = [3]float64{0, 0, nvl}
	c.HWLatency[HWNet][AlgoNVLS] = [3]float64{0, 0, 18}
	c.HWLatency[HWNet][AlgoNVLSTree] = [3]float64{0, 0, netNVLSTree}
}
