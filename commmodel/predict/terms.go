package predict

import (
	"math"
	"sync"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// term is one point of the model: the coefficients of its time in the
// parameters (see Time in the package documentation).
type term struct {
	// launches is the host launches that bound one call (Layout.launches).
	launches float64
	// lat are NCCL's latency parts (base, intra, inter) of what ran, s.
	lat [3]float64
	// peers are the network peers of one rank's grouped sends (AllToAll,
	// SendRecv), each of which costs p2p_peer_latency times
	// inter_step_latency (p2pLatency); 0 for the collectives.
	peers float64
	// intra and net are the bytes over one GPU's intra-node egress and
	// over one NIC.
	intra, net float64
	// channels is the network bytes over one channel, which channel_bw
	// carries: of grouped sends (p2pChannels), or of an LL or LL128
	// collective under NCCL (termOf). Where the channels carry less than
	// the NICs they bound the network time; 0 within a node, and for
	// Simple collectives, CollNet and RCCL's collectives.
	channels float64
	// eff lists the efficiency parameters that divide the bandwidth
	// (parLL, parLL128, parNVLS, parTree), -1 for none.
	eff [2]int
	// netEff is the efficiency parameter that divides the network bytes
	// alone (parChain for Broadcast and Reduce), -1 for none.
	netEff int
	ch     choice
	// leave is the share of the network bytes that leave the node's group
	// (commmodel.Stage.Leaving): they cross the fabric above the group, whose
	// bandwidth is the NICs' over parFabric. 0 without groups.
	leave float64
	// nccl is NCCL's own uncalibrated time of ch, s; 0 where NCCL has no
	// model (grouped sends).
	nccl float64
	// maxChannels is the most channels NCCL runs ch on at this size
	// (nccl.Model.MaxChannels); 0 for grouped sends.
	maxChannels int
}

// sharpness is the exponent k of the smooth maximum of the model's two
// maxima (the launch floor, and the two links): (a^k + b^k)^(1/k) is within
// 2^(1/k) (4.4%) of max(a, b) where they are equal and exact where one
// dominates. It is a power of two, 2^sharpnessLog2, so that smax raises to
// it by squaring and takes its root by square roots.
const (
	sharpnessLog2 = 4
	sharpness     = 1 << sharpnessLog2
)

// smax is the smooth maximum of a and b >= 0,
//
//	(a^k + b^k)^(1/k) = a·(1 + (b/a)^k)^(1/k)   for a >= b, k = sharpness
//
// with (b/a)^k as sharpnessLog2 squarings and the k-th root as as many
// square roots: the same value as math.Pow's to a few units in the last
// place, and the model's time calls it twice per evaluation.
func smax(a, b float64) float64 {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	case a < b:
		a, b = b, a
	}
	p := b / a
	for range sharpnessLog2 {
		p *= p
	}
	root := 1 + p
	for range sharpnessLog2 {
		root = math.Sqrt(root)
	}
	return a * root
}

// parts returns the terms of t's time with parameters x: the launch
// floor, the latency, and the bandwidth times over one GPU's NVLink and
// over one NIC (the fabric above it where it binds), divided by the
// protocol's and algorithm's efficiencies.
func (t *term) parts(x *[numParams]float64) (launch, latency, nvlink, network float64) {
	launch = x[parLaunch] * t.launches
	latency = x[parBase]*t.lat[0] + x[parIntra]*t.lat[1] + x[parInter]*(t.lat[2]+x[parPeer]*t.peers)
	if t.intra > 0 || t.net > 0 {
		nics, channel := t.netTimes(x)
		nvlink, network = t.intra/x[parIntraBW], smax(nics, channel)
		for _, e := range t.eff {
			if e >= 0 {
				nvlink, network = nvlink/x[e], network/x[e]
			}
		}
	}
	return launch, latency, nvlink, network
}

// netTimes returns t's network times before the efficiencies of its
// protocol and algorithm divide them: over one NIC (over the fabric's
// share where it binds), and over one channel (0 where t has no channel
// term). netEff (chain_efficiency, the share of the NICs' rate that a
// Broadcast's or Reduce's ring gets) and the fabric scale the NICs' rate
// alone: a channel's rate is its transport's.
func (t *term) netTimes(x *[numParams]float64) (nics, channel float64) {
	nic := x[parNICBW]
	if t.netEff >= 0 {
		nic *= x[t.netEff]
	}
	if t.leave > 0 {
		// The group's uplinks, not its NICs, bound the network where
		// more leaves than they carry.
		nic /= smax(1, t.leave*x[parFabric])
	}
	if t.channels > 0 {
		channel = t.channels / x[parChannel]
	}
	return t.net / nic, channel
}

// time is the model's time of t with parameters x (natural values).
func (t *term) time(x *[numParams]float64) float64 {
	launch, l, nvlink, network := t.parts(x)
	return smax(launch, l+smax(nvlink, network))
}

// grad returns t's time at x, as time does, and sets g to its elasticities
// ∂ln T/∂ln x_k, the calibration's Jacobian (its residuals are logs, its
// parameters the logs of x). Each part of parts carries, beside its value
// v, the derivatives x_k·∂v/∂x_k, which sums and smooth maxima combine
// (smaxGrad) and which dividing by a parameter scales and lowers by v.
func (t *term) grad(x *[numParams]float64, g *[numParams]float64) float64 {
	var dLaunch, dLat, dNV, dNet [numParams]float64
	launch, latency, nvlink, network := t.parts(x)
	dLaunch[parLaunch] = launch
	dLat[parBase] = x[parBase] * t.lat[0]
	dLat[parIntra] = x[parIntra] * t.lat[1]
	dLat[parInter] = x[parInter] * (t.lat[2] + x[parPeer]*t.peers)
	dLat[parPeer] = x[parInter] * x[parPeer] * t.peers
	if t.intra > 0 || t.net > 0 {
		dNV[parIntraBW] = -nvlink
		// The network's time before the efficiencies divide it: the NICs'
		// (over the fabric's share where it binds), or the channels'.
		nics, c := t.netTimes(x)
		dNet[parNICBW] = -nics
		if t.netEff >= 0 {
			dNet[t.netEff] -= nics
		}
		if t.leave > 0 {
			f := t.leave * x[parFabric]
			s, _, df := smaxGrad(1, f)
			dNet[parFabric] = nics / s * df * f
		}
		if c > 0 {
			_, dn, dc := smaxGrad(nics, c)
			for k := range dNet {
				dNet[k] *= dn
			}
			dNet[parChannel] -= dc * c
		}
		div := 1.0
		for _, e := range t.eff {
			if e >= 0 {
				div *= x[e]
			}
		}
		for k := range dNet {
			dNet[k] /= div
		}
		for _, e := range t.eff {
			if e >= 0 {
				dNV[e] -= nvlink
				dNet[e] -= network
			}
		}
	}
	links, dv, dn := smaxGrad(nvlink, network)
	T, dl, dm := smaxGrad(launch, latency+links)
	if T == 0 {
		*g = [numParams]float64{}
		return 0
	}
	for k := range numParams {
		g[k] = (dl*dLaunch[k] + dm*(dLat[k]+dv*dNV[k]+dn*dNet[k])) / T
	}
	return T
}

// smaxGrad returns smax(a, b) and its derivatives in a and in b,
// (a/s)^(k-1) and (b/s)^(k-1); all 0 where a and b are.
func smaxGrad(a, b float64) (s, da, db float64) {
	s = smax(a, b)
	if s == 0 {
		return 0, 0, 0
	}
	return s, pow1(a / s), pow1(b / s)
}

// pow1 is q^(sharpness-1) for q in [0, 1].
func pow1(q float64) float64 {
	p := q
	for range sharpnessLog2 {
		p *= p
	}
	if q == 0 {
		return 0
	}
	return p / q
}

// bytes returns the bytes of choice ch of collective c over one GPU's
// intra-node egress and over one NIC, for size bytes on s with nics NICs
// per node. A GPU's bytes on each level are those of commmodel's
// algorithm of ch (nccl.Algo.Algorithm; its Stages summed; NCCL's ring,
// commmodel's Ring, RingAllGather, RingReduceScatter and
// PipelinedBroadcast, from their Cost, since every step of NCCL's channels
// runs on both levels at once); the package documentation tabulates them.
//
// The share of the network bytes that leave a group of group nodes is the
// stages' (commmodel.Stage.Leaving), weighted by their bytes.
//
// What one node sends over the network is one GPU's network bytes times
// the GPUs that send them (crossing). A node spreads it over its nics NICs.
func bytes(c commmodel.Collective, ch choice, s shape, nics, group int, size float64) (intra, net, leave float64) {
	n := s.nodes * s.per
	a := p2pAlgorithm(c)
	if !ch.p2p {
		a = ch.algo.Algorithm(c, s.per)
	}
	switch {
	case a == nil && (ch.algo == nccl.AlgoNVLS || ch.algo == nccl.AlgoNVLSTree || ch.algo.CollNet()):
		// NVLS and CollNet outside AllReduce (AllGather and ReduceScatter)
		// have no commmodel algorithm: a GPU's switch (NVLink's, or the
		// network's SHARP) moves the whole buffer in or out of it, and a
		// node's NICs the share of the other nodes, (nodes−1)/nodes of it,
		// which no switch can spare them: without it a 16 GiB AllGather
		// of 256 nodes took 46.6 µs (red team H).
		if s.per > 1 {
			intra = size
		}
		if s.nodes > 1 && nics > 0 {
			node := size * float64(s.nodes-1) / float64(s.nodes)
			net = node / float64(nics)
			leave = commmodel.Stage{Inter: commmodel.Cost{Bytes: node, Peers: 2}}.Leaving(s.nodes, s.per, group)
		}
		return intra, net, leave
	case a == nil:
		return 0, 0, 0
	case ch.algo == nccl.AlgoRing && !ch.p2p:
		ring := a.Cost(n, size).Bytes
		if s.per > 1 {
			intra = ring
		}
		if s.nodes > 1 && nics > 0 {
			net = ring / float64(nics)
			leave = commmodel.Stage{Inter: commmodel.Cost{Bytes: ring, Peers: 2}}.Leaving(s.nodes, s.per, group)
		}
		return intra, net, leave
	}
	var node, leaving float64
	for _, st := range (commmodel.Cluster{Nodes: s.nodes, PerNode: s.per}).Stages(a, size) {
		intra += st.Intra.Bytes
		node += st.Inter.Bytes
		leaving += st.Inter.Bytes * st.Leaving(s.nodes, s.per, group)
	}
	if node > 0 {
		leave = leaving / node
	}
	node *= float64(crossing(a, s.per))
	if s.nodes > 1 && nics > 0 {
		net = node / float64(nics)
	}
	return intra, net, leave
}

// crossing returns the GPUs of a node of per GPUs whose own bytes cross the
// network in a: every GPU for the algorithms that split the buffer into
// per-GPU slices (NVLSTree, CollNetDirect, AllToAll's Direct), and one for
// SendRecv's Shift (the node's last GPU sends to the next node) and for
// those whose crossing point NCCL's channels rotate over the node's GPUs
// (Ring, Tree, CollNetChain: each channel crosses at its own GPU and NIC).
func crossing(a commmodel.Algorithm, per int) int {
	switch a.(type) {
	case commmodel.Direct, commmodel.NVLSTree, commmodel.CollNetDirect:
		return per
	}
	return 1
}

// p2pAlgorithm returns commmodel's algorithm of the grouped sends NCCL runs
// for c outside its tuner, with ncclSend and ncclRecv: Direct for AllToAll
// (a send to every other rank), Shift for SendRecv (a send to the next
// rank). It is nil for the collectives of NCCL's tuner.
func p2pAlgorithm(c commmodel.Collective) commmodel.Algorithm {
	switch c {
	case commmodel.AllToAll:
		return commmodel.Direct{}
	case commmodel.SendRecv:
		return commmodel.Shift{}
	}
	return nil
}

// grouped reports whether NCCL runs c as grouped sends (p2pAlgorithm).
func grouped(c commmodel.Collective) bool { return p2pAlgorithm(c) != nil }

// p2pPeers returns the peers of the busiest rank of grouped sends c on s,
// inside its node and on other nodes: the peers of each level of c's
// algorithm's stages (p−1 and n−p for AllToAll; for SendRecv 1 and 1
// across nodes, where a node's edge ranks receive over NVLink and send
// over the network), and the sends it makes on either level, each with
// its receive (n−1, and 1: SendRecv's rank sends to one neighbour and
// receives from the other).
func p2pPeers(c commmodel.Collective, s shape) (intra, network, sends int) {
	a := p2pAlgorithm(c)
	if a == nil {
		return 0, 0, 0
	}
	for _, st := range (commmodel.Cluster{Nodes: s.nodes, PerNode: s.per}).Stages(a, 1) {
		intra += st.Intra.Peers
		network += st.Inter.Peers
	}
	return intra, network, a.Cost(s.nodes*s.per, 1).Messages
}

// p2pChannels returns the network bytes of grouped sends on rn over one
// of their channels, where a NIC carries net bytes: NCCL gives each
// network peer nccl.P2PNetChannels channels, each carrying
// channel_bw (prior nccl.P2PChannelNetBW), and a GPU's peers no more
// than the communicator's p2p channels, so a GPU whose sends cross the
// network (crossing), sending the bytes of its share of the node's nics
// NICs, moves them at
//
//	min(peers·perPeer, P2PChannels) · channel_bw
//
// at most, whatever its NICs' rate. On cluster01's H100s (NCCL 2.29.2, one
// 400 Gb/s NIC a GPU) a SendRecv of 2 nodes gets 4 channels a peer, of 10
// nodes of 1 to 4 GPUs 2, and of 80 ranks 1: 45.9, 24.9 to 26.2 and 15.2
// GB/s measured (data/logs/paired). An AllToAll's many peers fill every
// channel, which drive the NICs. It is 0 within one node.
func p2pChannels(h *Hardware, ref *nccl.Model, rn *run, nics int, net float64) float64 {
	_, peers, _ := p2pPeers(rn.collective, rn.shape)
	if peers == 0 || nics < 1 {
		return 0
	}
	perPeer := ref.P2PNetChannels(h.hostNICs(1, 1), h.nicBW())
	gpu := net * float64(nics) / float64(crossing(p2pAlgorithm(rn.collective), rn.shape.per))
	return gpu / float64(min(peers*perPeer, ref.P2PChannels()))
}

// efficiencies lists the efficiency parameters of a choice.
func efficiencies(ch choice) [2]int {
	e := [2]int{-1, -1}
	switch ch.proto {
	case nccl.LL:
		e[0] = parLL
	case nccl.LL128:
		e[0] = parLL128
	}
	switch {
	case ch.p2p:
	case ch.algo == nccl.AlgoNVLS || ch.algo == nccl.AlgoNVLSTree:
		e[1] = parNVLS
	case ch.algo == nccl.AlgoTree:
		e[1] = parTree
	}
	return e
}

// p2pLatency returns the intra-node latency of NCCL's grouped sends
// (AllToAll, SendRecv) on rn with protocol p, and the network peers whose cost
// p2p_peer_latency gives. NCCL (2.30, src/enqueue.cc scheduleP2pTasksToPlan
// and addP2pToPlan, src/graph/paths.cc ncclTopoComputeP2pChannels,
// src/proxy.cc progressOps, src/transport/net.cc) runs them so:
//
//   - Per peer: one send and one receive, in rounds of NCCL's p2p schedule
//     (a round pairs one send peer with one receive peer). A message of up
//     to 16 KiB per channel runs LL, above it Simple in chunks of
//     p2pChunkSize; a small message takes one channel.
//   - In parallel on the GPU: the rounds are spread over the p2p channels
//     (p2pnChannels, up to 32 or 64), and each channel's thread block
//     serves a batch of up to 8 peers at once (NCCL_MAX_DEV_WORK_P2P_PER_BATCH),
//     so the GPU side of p2pnChannels·8 peers overlaps; beyond that the
//     batches of a channel follow one another.
//   - Serialized on the host: every send and receive to a network peer is a
//     proxy operation, and one proxy thread per GPU progresses all of them
//     in one loop (progressOps), each with its own post (isend, irecv) and
//     completion (test) per chunk. So a rank pays its proxy's work once per
//     network peer, whatever the channels, and the peers' network latencies
//     overlap with it.
//   - Per NIC: a node's NICs carry p·(n−p) messages each way per call. At
//     the hundreds of millions of messages a second of an InfiniBand NIC
//     that is far below the proxy's cost, so the model has no message-rate
//     term; at thousands of peers congestion in the fabric (incast of every
//     rank's small messages) adds to the per-peer cost, which is why the
//     interval widens with the peers beyond the tables' (peerSpread).
//
// The intra-node part is NCCL's latency of one Ring step of p (over NVLink
// or PCI) per intra-node peer, scaled by intra_step_latency as the
// collectives' steps are. The network part is the network peers (p2pPeers:
// n − p for AllToAll, 1 for SendRecv across nodes), each costing p2p_peer_latency times the network's latency over NCCL's
// figure (inter_step_latency, Machine's parts): NCCL's one network step of
// LL (2.7 µs) is a ring's, whose proxy serves two peers, and says little of
// a proxy that serves thousands, but a network whose steps take k times
// NCCL's figure takes about k times as long per peer, as the same posts and
// completions make both: over EFA, an AllReduce of 8 to 128 B on two
// p5.48xlarge nodes fits a step latency 5.3 times NCCL's, and an AllToAll
// of 2 to 64 KiB on 16 ranks of the same test job a per-peer cost 5.4
// times the prior (data/nccltests/testdata/real, aws-k8s-tester#585 and
// bottlerocket-kernel-kit#313). The cost is the same with every protocol:
// that AllToAll grows 1.32 times from 256 KiB (LL) to 512 KiB (Simple), and
// 8 nodes of H800 at 8 MiB (nccl#1531, 56 network peers) leave at most
// 3.1 µs per peer, where NCCL's ratio of Simple's network step to LL's (14
// to 2.7 µs) would charge more than 11.
func p2pLatency(h *Hardware, rn *run, p nccl.Protocol) (intra, peers float64) {
	c := nccl.DefaultConstants(rn.version)
	hw := nccl.HWPCI
	if h.Fabric.oneHop() {
		hw = nccl.HWNVLink
	}
	local, network, _ := p2pPeers(rn.collective, rn.shape)
	return float64(local) * c.HWLatency[hw][nccl.AlgoRing][p] * 1e-6, float64(network)
}

// references caches NCCL's model per run. It is safe for concurrent use:
// the calls of a shared Machine fill it.
type references struct {
	hw *Hardware
	// rccl reports that the calibration tables say they ran RCCL
	// (nccltests.Evidence.RCCL): a GPU the catalog lacks is then AMD's
	// (runsRCCL).
	rccl bool
	mu   sync.Mutex // guards m
	m    map[runKey]*reference
}

type runKey struct {
	shape       shape
	version     nccl.Version
	algo, proto string
}

func (r *references) get(run *run) (*reference, error) {
	k := runKey{run.shape, run.version, run.algo, run.proto}
	r.mu.Lock()
	defer r.mu.Unlock()
	if ref, ok := r.m[k]; ok {
		return ref, nil
	}
	ref, err := newReference(r.hw, run, r.runsRCCL())
	if err != nil {
		return nil, err
	}
	if len(r.m) >= maxReferences {
		clear(r.m) // a long-lived Machine asked for many shapes starts afresh
	}
	r.m[k] = ref
	return ref, nil
}

// maxReferences bounds the NCCL models a references keeps: a calibration
// needs one per table's shape, and a Machine asked for thousands of shapes
// would otherwise keep them all (each some tens of KiB).
const maxReferences = 512

// p2pEnqueue is the host's time to enqueue one point-to-point call (a send
// or a receive of grouped sends), in launches (Layout.launches): 0.108, from
// SuperBench's fixtures of one process driving 8 A100s (-g 8,
// data/nccltests/testdata/real/a100_1x8_g8_*_superbench.log), whose
// AllToAll takes 87.33 us at the median of its rows of 32 B to 2 MiB and
// AllGather 34.84, both flat, 8 launches each: (87.33/34.84 - 1)/14 sends
// and receives. One process a GPU enqueues its 14 alone: with the prior's
// 3.1 us launch, 7.8 us, under the 9.5 us the article measured at 64 KiB
// on 8 H20s.
//
// It is NVIDIA's NCCL's alone: RCCL (runsRCCL), which has an AllToAll entry
// point of its own (ncclAllToAll), takes none. One process driving 8 AMD
// GPUs (-g 8, RCCL 2.27.7,
// data/nccltests/testdata/real/radeon_1x8_g8_*_aion.log) runs an AllToAll
// of 128 B in 38.24 us, less than its AllReduce of 4 B (45.99 us), where
// NCCL's cost would make it 2.5 times as long.
const p2pEnqueue = 0.108

// runsRCCL reports that the machine runs RCCL, AMD's NCCL (runsRCCL).
func (r *references) runsRCCL() bool { return runsRCCL(r.hw, r.rccl) }

// runsRCCL reports that h runs RCCL, AMD's NCCL: its GPU is AMD's
// (GPU.ISA, or an Infinity Fabric described for a GPU the catalog lacks),
// or the catalog lacks the GPU and the calibration tables say they ran
// RCCL (ranRCCL).
func runsRCCL(h *Hardware, ranRCCL bool) bool {
	return h.GPU.ISA != "" || h.Fabric == FabricInfinity || ranRCCL && !h.GPU.Known
}

// termOf builds the term of one call of size bytes of r.
func (r *references) termOf(rn *run, size float64) (term, error) {
	ref, err := r.get(rn)
	if err != nil {
		return term{}, err
	}
	n := rn.shape.nodes * rn.shape.per
	ch, err := ref.choose(rn.collective, n, size)
	if err != nil {
		return term{}, err
	}
	f, a := nccl.FuncBroadcast, nccl.AlgoRing // P2P: one step of the ring's latency
	if !ch.p2p {
		f, _ = nccl.FuncOf(rn.collective)
		a = ch.algo
	}
	t := term{launches: rn.layout.launches(r.runsRCCL()), ch: ch, eff: efficiencies(ch), netEff: -1}
	if ch.p2p && !r.runsRCCL() {
		// The host enqueues every send and its receive (to and from every
		// other rank for AllToAll) for each GPU it launches, one after the
		// other.
		_, _, sends := p2pPeers(rn.collective, rn.shape)
		t.launches *= 1 + float64(2*sends)*p2pEnqueue
	}
	if !ch.p2p && ch.algo == nccl.AlgoRing && (f == nccl.FuncBroadcast || f == nccl.FuncReduce) {
		t.netEff = parChain
	}
	t.lat[0], t.lat[1], t.lat[2] = ref.latency(f, a, ch.proto)
	if ch.p2p {
		t.lat[1], t.peers = p2pLatency(r.hw, rn, ch.proto)
		t.lat[2] = 0
	}
	nics := r.hw.nics(rn.shape.hosts, rn.shape.per/rn.shape.hosts, rn.version)
	if ch.p2p {
		// Grouped sends cross at the GPUs that send across nodes, each on
		// its own host's NICs.
		if k := crossing(p2pAlgorithm(rn.collective), rn.shape.per); k == rn.shape.per {
			nics = r.hw.hostNICs(rn.shape.hosts, rn.shape.per/rn.shape.hosts)
		} else {
			nics = r.hw.hostNICs(1, k)
		}
	}
	t.intra, t.net, t.leave = bytes(rn.collective, ch, rn.shape, nics, r.hw.groupNodes(rn.shape), size)
	// intra_bw is one GPU's bandwidth on all its links: a run that drives a
	// share of them (on a mesh, a run on part of the host, or SendRecv's
	// send to one neighbour) moves its bytes as if they were 1/share times
	// as many.
	t.intra /= r.hw.intraShare(rn.collective, rn.shape.per/rn.shape.hosts)
	if r.runsRCCL() && rn.shape.nodes > 1 && !ch.p2p {
		t.intra /= RCCLNodesGain
	}
	if ch.p2p {
		t.channels = p2pChannels(r.hw, ref.full, rn, nics, t.net)
		return t, nil
	}
	t.maxChannels, _ = ref.full.MaxChannels(ch.algo, ch.proto, size)
	if t.net > 0 && t.maxChannels > 0 && ch.proto != nccl.Simple && !ch.algo.CollNet() && !r.runsRCCL() {
		// LL and LL128 across nodes run a size on the channels NCCL
		// gives it (nccl.Model.MaxChannels), each of which carries
		// channel_bw over the network, as NCCL's own model caps LL128
		// a channel (perChMaxRingLL128Bw, perChMaxTreeLL128Bw): where
		// the channels carry less than the NICs, most often at mid
		// sizes, they bound the network time. Simple's channels carry
		// more than grouped sends', so Simple keeps the NICs' bound
		// alone; RCCL's channel rules are not NCCL's, which the model
		// follows, so RCCL keeps it too. The channels' rate is the
		// transport's: NCCL's per-size corrections below, which scale
		// the algorithm's bandwidth on its links, leave it.
		t.channels = t.net * float64(nics) / float64(t.maxChannels)
	}
	e, ok := ref.full.Estimate(f, ch.algo, ch.proto, size)
	if !ok {
		return t, nil
	}
	t.nccl = e.Time
	// NCCL's per-size rules (the Tree correction factors, the ring's
	// plateau; ncclTopoGetAlgoTime) scale its table's bandwidth and
	// latency at this size, and the calibrated ones alike.
	if b := ref.full.Bandwidth(f, ch.algo, ch.proto); b > 0 && e.Bandwidth > 0 && !math.IsInf(e.Bandwidth, 1) {
		t.intra, t.net = t.intra*b/e.Bandwidth, t.net*b/e.Bandwidth
	}
	if l := ref.full.Latency(f, ch.algo, ch.proto); l > 0 {
		for k := range t.lat {
			t.lat[k] *= e.Latency / l
		}
	}
	return t, nil
}
