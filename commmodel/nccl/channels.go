package nccl

// NCCL picks the channels and threads of a call after its algorithm and
// protocol (topoGetAlgoInfo in src/enqueue.cc; getAlgoInfo in NCCL 2.8 and
// 2.18–2.20, getChannnelThreadInfo in 2.21–2.22). Its time model does not
// see this: its bandwidth is that of every channel, while a small call runs
// on fewer. Channels follows NCCL 2.8.4 and 2.18–2.30.7; NCCL_NTHREADS,
// NCCL_THREAD_THRESHOLDS, NCCL_MIN/MAX_NCHANNELS, the communicator's CTA
// limits, tuner plugins and the NVLSTree tuning of multi-node Blackwell
// (2.29 on) are not modelled.

// Thread counts and thresholds (src/include/device.h, src/graph/tuning.cc).
const (
	maxNThreads       = 640 // NCCL_MAX_NTHREADS
	simpleMaxNThreads = 512 // NCCL_SIMPLE_MAX_NTHREADS
	llMaxNThreads     = 512 // NCCL_LL_MAX_NTHREADS
	ll128MaxNThreads  = 640 // NCCL_LL128_MAX_NTHREADS
	warpSize          = 32

	llThreadThreshold      = 8  // NCCL_LL_THREAD_THRESHOLD, times the ranks for Ring
	ll128ThreadThreshold   = 8  // NCCL_LL128_THREAD_THRESHOLD
	simpleThreadThreshold  = 64 // NCCL_SIMPLE_THREAD_THRESHOLD
	collNetThreadThreshold = 512

	// pciBW is PCI_BW (src/graph/topo.h), GB/s: a ring whose channels
	// together move no more runs Simple on 256 threads.
	pciBW = 12.0
)

// nvlsChannels is comm->nvlsChannels (src/transport/nvls.cc): 16, and from
// NCCL 2.25 on Blackwell (compute capability 10.0 and later) 32, which 2.27
// lowers to 24 inside one node.
func nvlsChannels(v Version, cc, nodes int) int {
	switch {
	case cc < 100 || !v.from(25, 0):
		return 16
	case v.from(27, 0) && nodes == 1:
		return 24
	}
	return 32
}

// maxThreads is comm->maxThreads[a][p].
func (m *Model) maxThreads(a Algo, p Protocol) int {
	switch {
	case p == LL:
		return llMaxNThreads
	case p == LL128:
		return ll128MaxNThreads
	case a == AlgoRing && m.ringPCI:
		return 256
	case a == AlgoRing || a == AlgoTree:
		return simpleMaxNThreads
	}
	return maxNThreads
}

// threadThreshold is comm->threadThresholds[a][p].
func (m *Model) threadThreshold(a Algo, p Protocol) int {
	switch {
	case p == LL && a == AlgoRing:
		return llThreadThreshold * m.nRanks
	case p == LL:
		return llThreadThreshold
	case p == LL128:
		return ll128ThreadThreshold
	case a.CollNet():
		return collNetThreadThreshold
	}
	return simpleThreadThreshold
}

// Channels returns the channels and threads per channel that a call of
// nBytes (the nccl-tests size) of f with algorithm a and protocol p runs
// on. NCCL first sets the most channels the call may use
// (topoGetAlgoInfo): Ring and Tree drop a channel at a time while nBytes <
// channels × threads × threshold, then halve their threads; NVLS and
// NVLSTree run on comm->nvlsChannels (across nodes NVLS on no more than
// comm->nChannels, from 2.28); CollNetDirect drops channels in steps down
// to 16, 8, 4, 2 and 1, with a halved threshold at each half-step. From
// NCCL 2.22 the scheduler then gives every channel at least a minimum of
// traffic (minTraffic; from 2.26 LL counts its traffic four times), so a
// small call uses fewer still. The threads do
// not count the warps NCCL adds after (a sync warp for Simple).
func (m *Model) Channels(f Func, a Algo, p Protocol, nBytes float64) (channels, threads int) {
	nc, nt := m.MaxChannels(a, p, nBytes)
	if a.CollNet() {
		return nc, nt // CollNet's tasks are split by chunks, not cells
	}
	minT := minTraffic(m.v)
	if minT == 0 {
		return nc, nt
	}
	// The task's traffic, and its cells: MinTrafficPerChannel of traffic
	// each, LL counting its flags four times (scheduleCollTasksToPlan).
	traffic, _ := wholeBytes(nBytes)
	if f == FuncAllReduce {
		traffic *= 2
	}
	cellTraffic := traffic
	if p == LL && m.v.from(26, 0) {
		cellTraffic *= 4
	}
	cells := max(divUp(cellTraffic, minT), 1)
	perChannel := max(divUp(max(minT, traffic)/int64(nc), minT), 1)
	return int(min(int64(nc), divUp(cells, perChannel))), nt
}

// minTraffic is MinTrafficPerChannel, bytes: 512 in NCCL 2.22, 16 KiB in
// 2.23–2.28, 32 KiB from 2.29; 0 before 2.22, whose scheduler spreads a
// call over all its channels.
func minTraffic(v Version) int64 {
	switch {
	case v.legacy() || !v.from(22, 0):
		return 0
	case !v.from(23, 0):
		return 512
	case !v.from(29, 0):
		return 16 << 10
	}
	return 32 << 10
}

func divUp(a, b int64) int64 { return (a + b - 1) / b }

// MaxChannels returns the most channels, and the threads per channel, a
// call of nBytes with a and p may run on: topoGetAlgoInfo's nMaxChannels,
// which a tuner plugin's channel count replaces, before the scheduler's
// minimum traffic per channel (Channels). A negative or NaN size counts as
// 0 bytes.
func (m *Model) MaxChannels(a Algo, p Protocol, size float64) (channels, threads int) {
	nBytes, _ := wholeBytes(size)
	nc, nt := m.ch, m.maxThreads(a, p)
	thr := int64(m.threadThreshold(a, p))
	need := func(nc, nt int) bool { return nBytes < int64(nc)*int64(nt)*thr }
	switch {
	case a == AlgoNVLS || a == AlgoNVLSTree:
		nc = nvlsChannels(m.v, m.maxCC, m.nNodes)
		if a == AlgoNVLS && m.nNodes > 1 && m.v.from(28, 0) {
			nc = min(nc, m.ch)
		}
		return nc, nt
	case a == AlgoCollNetDirect && m.v.legacy():
		return max(m.ch/2, 1), nt
	case a == AlgoCollNetDirect:
		heads := int64(max(m.nRanks/m.nNodes, 1))
		for sw := 16; sw >= 1; sw /= 2 {
			for nBytes < int64(nc)*int64(nt)*heads*thr && nc > sw {
				if nc == sw+sw/2 {
					thr /= 2
				}
				nc--
			}
			if !(nBytes < int64(nc)*int64(nt)*heads*thr) {
				break
			}
		}
		return nc, nt
	}
	for need(nc, nt) && nc >= 2 {
		nc--
	}
	for need(nc, nt) && nt%128 == 0 {
		nt /= 2
	}
	return nc, nt
}

// Uncapped reports that NCCL runs the channels a tuner plugin gives calls
// of algorithm a on this communicator as the plugin gives them, and returns
// the most it sets up for a, which NCCL's own choice never exceeds
// (MaxChannels of a call large enough to use them all). NCCL schedules
// CollNet's algorithms, and NVLS across nodes, as CollNet: its plan takes
// such a call's channels as they are, where it caps every other
// algorithm's at the communicator's (scheduleCollTasksToPlan in
// src/enqueue.cc from 2.22), so a plugin that gives more runs the call on
// channels the communicator never connected.
func (m *Model) Uncapped(a Algo) (most int, ok bool) {
	if a != AlgoCollNetDirect && a != AlgoCollNetChain && !(a == AlgoNVLS && m.nNodes > 1) {
		return 0, false
	}
	most, _ = m.MaxChannels(a, Simple, 1<<tunerProbeTop)
	return most, true
}

// FullChannels returns the channels and threads of a call of f with a and
// p large enough to use them all.
func (m *Model) FullChannels(f Func, a Algo, p Protocol) (channels, threads int) {
	return m.Channels(f, a, p, 1<<50)
}
