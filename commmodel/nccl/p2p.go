package nccl

// P2PChannelNetBW is the network bandwidth NCCL takes one channel of
// grouped sends to carry to a network peer, B/s: P2P_PER_CHANNEL_NET_BW,
// 14 GB/s (NCCL 2.29 on, src/graph/paths.cc). NCCL gives a network peer
// enough channels to drive the GPU's NICs at that rate, unless the
// communicator's ranks leave too few channels a peer; a channel is a
// thread block and its proxy's pipeline of buffers, and earlier releases
// run the same channels, so the figure holds for them too.
const P2PChannelNetBW = 14e9

// maxDevWorkP2PPerBatch is NCCL_MAX_DEV_WORK_P2P_PER_BATCH: the peers one
// channel serves at once (src/include/device.h).
const maxDevWorkP2PPerBatch = 8

// P2PChannels returns the channels of the communicator's grouped sends
// (comm->p2pnChannels): its channels rounded up to a power of two
// (ncclTopoComputeP2pChannels, NCCL 2.18 to 2.30.7 src/graph/paths.cc;
// NCCL_MIN_P2P_NCHANNELS and NCCL_MAX_P2P_NCHANNELS are not modelled).
func (m *Model) P2PChannels() int { return pow2Up(m.ch) }

// P2PNetChannels returns the channels NCCL gives each network peer of a
// rank's grouped sends (comm->p2pnChannelsPerPeer across nodes), for a GPU
// whose own NICs are nics of nicBW B/s each; 0 within one node. NCCL
// (src/graph/paths.cc ncclTopoGetNchannels, ncclTopoComputeP2pChannels)
// starts from
//
//	2.18 to 2.20   2 (NCCL_NCHANNELS_PER_NET_PEER)
//	2.21 to 2.28   2, halved while 2·n > 4·C, at least the GPU's NICs
//	2.29 on        ⌈nics·nicBW / 14 GB/s⌉, at least the GPU's NICs, halved
//	               while it times ⌈n/8⌉ exceeds P2PChannels
//
// for n ranks and C channels of the communicator, rounded up to a power of
// two and at most P2PChannels. NCCL takes the fewest over every peer, and
// a peer inside the node has at least 2 (2 per NVLink's worth of
// bandwidth, 2 over PCIe), which bounds the network's only over PCIe
// and is left out.
func (m *Model) P2PNetChannels(nics int, nicBW float64) int {
	if m.nNodes <= 1 {
		return 0
	}
	p2p := m.P2PChannels()
	ch := 2
	switch {
	case !m.v.from(21, 0):
	case !m.v.from(29, 0):
		for ch*m.nRanks > 4*m.ch && ch > 1 {
			ch /= 2
		}
		ch = max(ch, nics)
	default:
		if nics > 0 {
			ch = max(nics, int(divUp(int64(float64(nics)*nicBW/1e9), int64(P2PChannelNetBW/1e9))))
		}
		ch = pow2Up(ch)
		for ch*int(divUp(int64(m.nRanks), maxDevWorkP2PPerBatch)) > p2p && ch > 1 {
			ch /= 2
		}
	}
	return min(pow2Up(ch), p2p)
}

// pow2Up returns the least power of two at least n (1 for n <= 1).
func pow2Up(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}
