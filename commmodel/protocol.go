package commmodel

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Protocol is one of NCCL's wire protocols, a dimension of its own beside
// the algorithm: the same steps and bytes cost differently under each. The
// protocols are numbered as NCCL numbers them (NCCL_PROTO_LL = 0, LL128 = 1,
// Simple = 2; NCCL 2.30.7 src/include/plugin/nccl_tuner.h).
//
// A protocol changes two things, one a fact of its wire format and one of
// the machine. Its payload efficiency, the share of the bytes on the wire
// that are data, divides the bandwidth (Efficiency). Its latency per step
// is the cost of its synchronisation: LL and LL128 carry a flag in every
// line, so a receiver polls the data itself and a step costs little;
// Simple sends whole buffers and synchronises with memory fences and a
// separate flag, which costs the most per step (and, across nodes, a flush
// of the network buffers) but moves data at the link's full bandwidth. How
// long a step takes is a machine figure, which the caller supplies to Link
// and Cluster. NCCL's tuning model, for one, puts ring steps over NVLink at
// 0.6, 1.9 and 3.4 us and over the network at 2.7, 4.0 and 14 us for LL,
// LL128 and Simple (hwLatencies, NCCL 2.30.7 src/graph/tuning.cc), and caps
// LL's bandwidth well below the link's (llMaxBws), which a caller applies to
// the Link it passes.
type Protocol int

// NCCL's protocols.
const (
	// LL (low latency) moves 8-byte words, each half data and half flag.
	LL Protocol = iota
	// LL128 moves 128-byte lines, each 120 bytes of data and an 8-byte flag.
	LL128
	// Simple moves the data itself and synchronises apart.
	Simple
)

var protocolNames = [...]string{LL: "ll", LL128: "ll128", Simple: "simple"}

// Protocols lists the three protocols in NCCL's order.
func Protocols() []Protocol { return []Protocol{LL, LL128, Simple} }

// String returns the protocol's name in lower case, as the CLI spells it
// (ll, ll128, simple).
func (p Protocol) String() string { return nameOf(protocolNames[:], int(p), "Protocol") }

// ParseProtocol reads a protocol's name, ignoring case: ll, ll128 or simple
// (NCCL_PROTO's LL, LL128, Simple).
func ParseProtocol(s string) (Protocol, error) {
	if p := slices.Index(protocolNames[:], strings.ToLower(strings.TrimSpace(s))); p >= 0 {
		return Protocol(p), nil
	}
	return 0, fmt.Errorf("unknown protocol %q (want ll, ll128 or simple)", s)
}

// Efficiency returns the share of the bytes p puts on the wire that are
// payload (NCCL 2.30.7 src/include/device.h):
//
//	LL      1/2    a 16-byte ncclLLFifoLine is data1, flag1, data2, flag2 of 4 bytes each
//	LL128   15/16  of a line's NCCL_LL128_LINEELEMS = 16 eight-byte words,
//	               NCCL_LL128_DATAELEMS = 15 are data: 120 of 128 bytes
//	Simple  1
//
// It is NaN for a value that is not a protocol.
func (p Protocol) Efficiency() float64 {
	switch p {
	case LL:
		return 0.5
	case LL128:
		return 15.0 / 16
	case Simple:
		return 1
	}
	return math.NaN()
}

// Link returns l as protocol p sees it: its bandwidth times p's Efficiency,
// since p puts 1/Efficiency bytes on the wire for each byte of data, and
// alpha, p's latency per step on this link in seconds, as its α. Gamma and
// Overhead stay. An algorithm's time under p is then its time on the
// returned Link (Time, Cost.Time). For a value that is not a protocol the
// Link is not Valid.
func (p Protocol) Link(l Link, alpha float64) Link {
	l.BW *= p.Efficiency()
	l.Alpha = alpha
	return l
}

// Cluster returns c as protocol p sees it: both links transformed by Link,
// with intraAlpha and interAlpha p's latencies per step inside a node and
// across the network, in seconds. An algorithm's time under p on c is then
// its Cluster.Time on the result.
func (p Protocol) Cluster(c Cluster, intraAlpha, interAlpha float64) Cluster {
	c.Intra = p.Link(c.Intra, intraAlpha)
	c.Inter = p.Link(c.Inter, interAlpha)
	return c
}

// NCCLProtocols returns the protocols NCCL runs a with (the kernels of
// NCCL 2.30.7 src/device/all_reduce.h, all_gather.h and reduce_scatter.h,
// and the protocols its tuning model considers, src/graph/tuning.cc): LL,
// LL128 and Simple for ring, tree and the chain broadcast; Simple alone for
// NVLS, NVLSTree, CollNet and PAT. It returns nil for an algorithm NCCL
// does not have. The slice is new.
func NCCLProtocols(a Algorithm) []Protocol {
	switch a.(type) {
	case Ring, RingAllGather, RingReduceScatter, PipelinedBroadcast, Tree:
		return []Protocol{LL, LL128, Simple}
	case NVLS, NVLSTree, CollNetDirect, CollNetChain, PATAllGather, PATReduceScatter:
		return []Protocol{Simple}
	}
	return nil
}
