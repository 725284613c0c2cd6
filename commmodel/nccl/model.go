package nccl

import (
	"fmt"
	"math"
	"reflect"
)

// CPUArch is the host CPU architecture NCCL detects (NCCL_TOPO_CPU_ARCH_*).
type CPUArch int

// CPU architectures. The zero value is x86.
const (
	X86 CPUArch = iota
	Power
	ARM
)

// CPUVendor is the host CPU vendor NCCL detects (NCCL_TOPO_CPU_VENDOR_*).
// Mixed is what NCCL 2.24 and later record when the ranks disagree.
type CPUVendor int

// CPU vendors. The zero value is Intel.
const (
	Intel CPUVendor = iota
	AMD
	Zhaoxin
	Mixed
	OtherVendor
)

// CPU is the host CPU of a communicator.
type CPU struct {
	Arch   CPUArch
	Vendor CPUVendor
}

// PATMode is NCCL_PAT_ENABLE: Auto (the default, 2) enables PAT when every
// node holds one rank; On and Off force it.
type PATMode int

// PAT modes.
const (
	PATAuto PATMode = iota
	PATOn
	PATOff
)

// Config describes a communicator to NCCL's tuning model: the values NCCL
// has when it runs ncclTopoTuneModel (NCCL 2.30.7 src/graph/tuning.cc).
// The zero value of each optional field is NCCL's default.
type Config struct {
	// Version is the NCCL release; zero means Latest.
	Version Version
	// Constants replaces DefaultConstants(Version) when not nil.
	Constants *Constants
	// Ranks and Nodes are nRanks and nNodes; Ranks/Nodes is the number
	// of ranks per node.
	Ranks, Nodes int
	// MinCompCap and MaxCompCap are the lowest and highest compute
	// capability of the ranks, times ten (90 for 9.0); MaxCompCap 0 means
	// MinCompCap.
	MinCompCap, MaxCompCap int
	// ISA is an AMD GPU's LLVM target (GPU.ISA: gfx90a, gfx942, gfx950),
	// UnknownISA for an AMD GPU of a target the catalog does not give, ""
	// for NVIDIA's: RCCL enables LL128 on its own terms and leaves
	// Tree/Simple out on one node of gfx942.
	ISA string
	// CPU is the host CPU (x86 Intel when zero).
	CPU CPU
	// Graphs are the searched graphs. Ring and Tree need at least one
	// channel; NCCL forces them to the same count, the smaller one.
	Graphs Graphs
	// NVSwitch reports an NVSwitch in the node. CollNetDirect needs one;
	// NVLS needs one and Hopper or later, and New ignores an NVLS graph
	// without them.
	NVSwitch bool
	// CollNet enables CollNet (NCCL_COLLNET_ENABLE=1 with a network
	// plugin that supports every operation, with a head for every local
	// rank).
	CollNet bool
	// PAT is NCCL_PAT_ENABLE.
	PAT PATMode
	// NetOverhead, when not nil, is NCCL_NET_OVERHEAD in us (NCCL reads
	// ns).
	NetOverhead *float64
	// NoLL128C2C is NCCL_LL128_C2C=0 (NCCL 2.27 on).
	NoLL128C2C bool
	// Algo and Proto are NCCL_ALGO and NCCL_PROTO ("" when unset), with
	// NCCL's syntax: "Ring,Tree", "^LL128", and from NCCL 2.24 per-function
	// lists such as "^LL128;allreduce:LL128".
	Algo, Proto string
	// Channels is comm->nChannels at run time, which the Ring/Simple
	// plateau rule and the channels of a call (Model.Channels) start from;
	// 0 derives it from the ring graph (see New).
	Channels int
}

// Model is NCCL's tuning model of one communicator: the latency and
// bandwidth of every (function, algorithm, protocol), computed once by New,
// and the per-size time and choice of NCCL's tuner.
type Model struct {
	v      Version
	c      Constants
	nRanks int
	nNodes int
	minCC  int
	maxCC  int
	cpu    CPU
	isa    string // an AMD GPU's target, whose LL128 rule is RCCL's
	ch     int    // runtime channels (comm->nChannels)
	// algoEnv and protoEnv are NCCL_ALGO and NCCL_PROTO as Config gave them.
	algoEnv, protoEnv string
	// ringPCI reports a ring whose channels together move at most PCI_BW:
	// Ring/Simple then runs on 256 threads.
	ringPCI bool
	// lat and bw are NCCL's comm->latencies (us) and comm->bandwidths
	// (algorithm bandwidth, GB/s; 0 = not available).
	lat, bw [NumFuncs][NumAlgos][NumProtocols]float64
	// ringBackup is NCCL 2.19–2.23's ringbdw: Ring's bandwidth before the
	// enable masks, the fallback when nothing else is available.
	ringBackup [NumFuncs][NumProtocols]float64
	// skip marks combinations the per-call selection leaves out even with
	// a bandwidth (enqueue.cc's checks).
	skip [NumFuncs][NumAlgos]bool
	// nvSwitch, collNet and pat are Config's; nvlsCh is the NVLS graph's
	// channels after New drops a graph NCCL would not search. leftOut
	// reads them to say why an algorithm is not in the cost table.
	nvSwitch, collNet bool
	pat               PATMode
	nvlsCh            int
}

// New runs NCCL's tuning model for cfg. It returns an error for a version
// outside 2.8.x and 2.18–2.30, counts that do not make a communicator, a compute
// capability below 3.0, negative or non-finite graph values, a NetOverhead
// or a value of Constants that is negative, NaN or infinite, a Ring or
// Tree graph without channels, and NCCL_ALGO/NCCL_PROTO values NCCL would
// refuse.
//
// The runtime channel count, when cfg.Channels is 0, is ncclTopoPostset's
// (RuntimeChannels).
func New(cfg Config) (*Model, error) {
	v := cfg.Version.orLatest()
	if err := v.Supported(); err != nil {
		return nil, err
	}
	if cfg.Ranks < 1 || cfg.Nodes < 1 || cfg.Nodes > cfg.Ranks {
		return nil, fmt.Errorf("nccl: %d ranks on %d nodes: want 1 <= nodes <= ranks", cfg.Ranks, cfg.Nodes)
	}
	if cfg.Ranks > math.MaxInt32 {
		// NCCL counts ranks in a C int; the model multiplies them by channel
		// and byte counts, which a larger count would overflow.
		return nil, fmt.Errorf("nccl: %d ranks: NCCL counts ranks in an int, at most %d", cfg.Ranks, math.MaxInt32)
	}
	maxCC := cfg.MaxCompCap
	if maxCC == 0 {
		maxCC = cfg.MinCompCap
	}
	if cfg.MinCompCap < 30 || maxCC < cfg.MinCompCap {
		return nil, fmt.Errorf("nccl: compute capability %d to %d: want 30 <= min <= max (9.0 is 90)", cfg.MinCompCap, maxCC)
	}
	if err := cfg.checkFloats(); err != nil {
		return nil, err
	}
	m := &Model{v: v, nRanks: cfg.Ranks, nNodes: cfg.Nodes, minCC: cfg.MinCompCap, maxCC: maxCC, cpu: cfg.CPU, isa: cfg.ISA,
		algoEnv: cfg.Algo, protoEnv: cfg.Proto, nvSwitch: cfg.NVSwitch, collNet: cfg.CollNet, pat: cfg.PAT}
	if cfg.Constants != nil {
		m.c = *cfg.Constants
	} else {
		m.c = DefaultConstants(v)
	}
	gs := cfg.Graphs
	if err := gs.check(cfg.Ranks); err != nil {
		return nil, err
	}
	if cfg.MinCompCap < 90 || !cfg.NVSwitch {
		// NCCL searches NVLS only with an NVSwitch from Hopper on.
		gs.NVLS = Graph{}
	}
	m.nvlsCh = gs.NVLS.NChannels
	// comm->nChannels = treeGraph->nChannels = ringGraph->nChannels =
	// min(tree, ring) (NCCL 2.30.7 src/init.cc).
	nc := min(gs.Ring.NChannels, gs.Tree.NChannels)
	gs.Ring.NChannels, gs.Tree.NChannels = nc, nc
	m.ringPCI = gs.Ring.BWIntra*float64(nc) <= pciBW
	m.ch = cfg.Channels
	if m.ch <= 0 {
		m.ch = runtimeChannels(v, nc, &cfg, &gs)
	}
	masks, err := enableLists(v, cfg.Algo, cfg.Proto)
	if err != nil {
		return nil, err
	}
	if cfg.Ranks == 1 {
		return m, nil
	}
	m.tune(&gs, &cfg)
	m.mask(&gs, &cfg, maxCC, masks)
	return m, nil
}

// checkFloats refuses a NetOverhead or a value of Constants that is
// negative, NaN or infinite (Graphs.check refuses the graphs'): NCCL's
// latencies, bandwidths and factors are finite and non-negative, and a NaN
// NetOverhead made Time NaN with ok true and Choose return a NaN estimate
// with no error. DefaultConstants, taken where Constants is nil, are NCCL's.
func (cfg *Config) checkFloats() error {
	if o := cfg.NetOverhead; o != nil && (!(*o >= 0) || math.IsInf(*o, 0)) {
		return fmt.Errorf("nccl: NetOverhead %g us: want a finite non-negative value", *o)
	}
	if cfg.Constants == nil {
		return nil
	}
	c := reflect.ValueOf(cfg.Constants).Elem()
	for i := range c.NumField() {
		if path, x, ok := badFloat(c.Field(i)); !ok {
			return fmt.Errorf("nccl: Constants.%s%s %g: want a finite non-negative value", c.Type().Field(i).Name, path, x)
		}
	}
	return nil
}

// badFloat finds a float64 in v, a float64 or an array of them to any
// depth, that is negative, NaN or infinite: ok is false, and path ("[2][0]")
// and x say where it is and what. Every field of Constants is such a value
// (TestNewRefusesBadFloats checks that each is read).
func badFloat(v reflect.Value) (path string, x float64, ok bool) {
	switch v.Kind() {
	case reflect.Float64:
		x = v.Float()
		return "", x, x >= 0 && !math.IsInf(x, 0)
	case reflect.Array:
		for i := range v.Len() {
			if p, x, ok := badFloat(v.Index(i)); !ok {
				return fmt.Sprintf("[%d]%s", i, p), x, false
			}
		}
	}
	return "", 0, true
}

// check refuses graph values NCCL could not have printed.
func (gs *Graphs) check(ranks int) error {
	names := [...]string{"Ring", "Tree", "CollNetChain", "CollNetDirect", "NVLS"}
	for i, g := range [...]*Graph{&gs.Ring, &gs.Tree, &gs.CollNetChain, &gs.CollNetDirect, &gs.NVLS} {
		for _, x := range [...]float64{g.BWIntra, g.BWInter, g.LatencyInter} {
			if !(x >= 0) || math.IsInf(x, 0) {
				return fmt.Errorf("nccl: %s graph: %v is not a finite non-negative value", names[i], x)
			}
		}
		if g.NChannels < 0 || g.TypeIntra < 0 || g.TypeIntra >= numPathTypes || g.TypeInter < 0 || g.TypeInter >= numPathTypes {
			return fmt.Errorf("nccl: %s graph: bad channel count or path type", names[i])
		}
		if i < 2 && ranks > 1 && g.NChannels < 1 {
			return fmt.Errorf("nccl: %s graph has no channels (NCCL always finds at least one)", names[i])
		}
	}
	return nil
}

// RuntimeChannels returns the runtime channel count (comm->nChannels, the
// count NCCL's "N coll channels" line prints) that New derives from cfg
// where cfg.Channels is 0: ncclTopoPostset's, from the smaller of the Ring
// and Tree graphs' channels (NCCL holds both to it), under cfg.Version
// (Latest when zero). NCCL (src/graph/connect.cc, tags v2.18.1-1 to
// v2.30.7-1) runs, in order:
//
//   - Duplication: twice the graph's channels, at most MAXCHANNELS (32
//     before 2.25, 64 from 2.25; NCCL 2.8 stops here). Followed.
//   - CollNet: where CollNet is enabled (cfg.CollNet on two nodes or more,
//     NCCL_COLLNET_NODE_THRESHOLD; NCCL drops it without a CollNetChain
//     graph, and before 2.23 with more than NCCL_MAX_DIRECT_ARITY+1 (8)
//     ranks on a node), the communicator has more ranks than nodes, and the
//     CollNet graph's bwIntra exceeds its bwInter (CollNetDirect's before
//     2.22, CollNetChain's from 2.22), half the channels again:
//     min(MAXCHANNELS, n + n/2) (v2.30.7-1 connect.cc line 467). Followed;
//     NCCL adds them before it sets CollNet up, so a run whose CollNet
//     setup then fails keeps them. The model's own CollNetDirect graph
//     (System.Graphs) has bwIntra = bwInter, so under 2.19 to 2.21 only a
//     graph a log gives adds them.
//   - Hopper: twice again across nodes where the ring's bwIntra exceeds
//     45 GB/s on compute capability 9.0 (from 2.25 9.0 and later), while
//     twice fits MAXCHANNELS (2.18, 2.19) or below 16 channels (from 2.20)
//     (line 481). Followed.
//   - Unpack (2.22 on): twice again across nodes below 16 channels where the
//     network device is NCCL_NET_DEVICE_UNPACK (GPUDirect TCPX/TCPXO's
//     plugin) and NCCL_UNPACK_DOUBLE_NCHANNELS is 1, its default (line
//     487). Not followed: Config does not name the network device; give
//     Channels.
//   - NCCL_MIN_NCHANNELS, NCCL_MAX_NCHANNELS, the config's minCTAs and
//     maxCTAs, and a split communicator's parent's count. Not modelled.
//
// NVLS's channels (comm->nvlsChannels) and the grouped sends' (P2PChannels,
// from this count) are NCCL's others, not this one.
func RuntimeChannels(cfg Config) int {
	v := cfg.Version.orLatest()
	return runtimeChannels(v, min(cfg.Graphs.Ring.NChannels, cfg.Graphs.Tree.NChannels), &cfg, &cfg.Graphs)
}

// runtimeChannels is RuntimeChannels under v from nc channels of the ring
// and tree graphs, with cfg's counts and gs's graphs.
func runtimeChannels(v Version, nc int, cfg *Config, gs *Graphs) int {
	maxCh := 32
	if v.from(25, 0) {
		maxCh = 64
	}
	nc = min(2*nc, maxCh)
	if v.legacy() {
		return nc
	}
	if collNetChannels(v, cfg, gs) {
		nc = min(maxCh, nc+nc/2)
	}
	hopper := cfg.MinCompCap == 90 || v.from(25, 0) && cfg.MinCompCap >= 90
	room := 2*nc <= maxCh
	if v.from(20, 0) {
		room = nc < 16
	}
	if hopper && cfg.Nodes > 1 && gs.Ring.BWIntra > 45 && room {
		nc = min(2*nc, maxCh)
	}
	return nc
}

// collNetChannels reports that ncclTopoPostset adds CollNet's channels.
func collNetChannels(v Version, cfg *Config, gs *Graphs) bool {
	if !cfg.CollNet || cfg.Nodes < 2 || cfg.Ranks <= cfg.Nodes || gs.CollNetChain.NChannels == 0 {
		return false
	}
	if !v.from(23, 0) && cfg.Ranks > 8*cfg.Nodes {
		return false // init.cc: "CollNet currently only supports up to 8 GPUs per node"
	}
	g := gs.CollNetChain
	if !v.from(22, 0) {
		g = gs.CollNetDirect
	}
	return g.BWIntra > g.BWInter
}

// Version returns the NCCL version the model follows.
func (m *Model) Version() Version { return m.v }

// Latency returns NCCL's latency of (f, a, p) before the per-size
// corrections, in seconds: the value the TUNING table prints (left of the
// slash) in us. It is computed, and printed, for some disabled
// combinations too; Available says which can run. An index outside NCCL's
// enums gives NaN.
func (m *Model) Latency(f Func, a Algo, p Protocol) float64 {
	if !valid(f, a, p) {
		return math.NaN()
	}
	return m.lat[f][a][p] * usec
}

// Bandwidth returns NCCL's algorithm bandwidth of (f, a, p) before the
// per-size corrections, in bytes per second of nBytes: the value the TUNING
// table prints (right of the slash) in GB/s. It is 0 where (f, a, p) is not
// available, NaN for an index outside NCCL's enums.
func (m *Model) Bandwidth(f Func, a Algo, p Protocol) float64 {
	if !valid(f, a, p) {
		return math.NaN()
	}
	return m.bw[f][a][p] * gbps
}

// Available reports whether the tuner may pick (f, a, p).
func (m *Model) Available(f Func, a Algo, p Protocol) bool {
	if !valid(f, a, p) {
		return false
	}
	if m.nRanks == 1 {
		return a == AlgoRing && p == Simple
	}
	return m.bw[f][a][p] > 0 && !m.skip[f][a]
}

func valid(f Func, a Algo, p Protocol) bool {
	return f >= 0 && f < NumFuncs && a >= 0 && a < NumAlgos && p >= 0 && p < NumProtocols
}
