package commmodel

import (
	"fmt"
	"math"
)

// FabricKind is how the ranks of one level are wired together.
type FabricKind int

// The fabric kinds.
const (
	// Switched is a crossbar such as NVSwitch: all of a rank's links go to the
	// switch, so any one peer, or any number of peers at once, can be reached
	// at the rank's full egress. The egress is the bottleneck.
	Switched FabricKind = iota
	// FullMesh is point-to-point links, the same number to every peer (Ascend
	// 910B HCCS: 7 links per NPU, one to each of its 7 peers). Sending to one
	// peer drives only that peer's links.
	FullMesh
	// SharedPCIe is devices that reach each other through PCIe (and the host):
	// one link per rank, shared by whatever it sends.
	SharedPCIe
)

var fabricKindNames = [...]string{Switched: "switched", FullMesh: "full-mesh", SharedPCIe: "pcie"}

// String returns "switched", "full-mesh" or "pcie".
func (k FabricKind) String() string { return nameOf(fabricKindNames[:], int(k), "FabricKind") }

// Fabric is one level of interconnect as a rank sees it. It is a Timer, whose
// bandwidth depends on how many peers an algorithm sends to at once.
type Fabric struct {
	// Kind is how the ranks are wired.
	Kind FabricKind
	// P is the number of ranks on the fabric.
	P int
	// Links is the number of links per rank: NVLinks into the switch
	// (Switched), point-to-point links spread evenly over the P-1 peers
	// (FullMesh), or 1 (SharedPCIe).
	Links int
	// LinkBW is one link's bandwidth in one direction, in bytes per second.
	LinkBW float64
	// Alpha is the start-up latency of one step, in seconds.
	Alpha float64
}

// Ranks returns P.
func (f Fabric) Ranks() int { return f.P }

// String describes f in a few words, its ranks as GPUs: "switched (NVSwitch),
// 8 GPUs x NV18", "full-mesh, 8 GPUs, 7 links each (1 per peer)", "pcie, 4
// GPUs, no uniform NVLink fabric" or "1 GPU, no GPU fabric".
func (f Fabric) String() string {
	switch {
	case f.P < 2:
		return fmt.Sprintf("%d GPU, no GPU fabric", f.P)
	case f.Kind == Switched:
		return fmt.Sprintf("switched (NVSwitch), %d GPUs x NV%d", f.P, f.Links)
	case f.Kind == FullMesh:
		return fmt.Sprintf("full-mesh, %d GPUs, %d links each (%g per peer)", f.P, f.Links, f.LinksPerPeer())
	}
	return fmt.Sprintf("%s, %d GPUs, no uniform NVLink fabric", f.Kind, f.P)
}

// Egress returns a rank's total link bandwidth, in bytes per second:
//
//	egress = Links·LinkBW
func (f Fabric) Egress() float64 { return float64(f.Links) * f.LinkBW }

// LinksPerPeer returns the links between a rank and each peer of a full mesh,
// Links/(P-1); for the other kinds all Links reach every peer.
func (f Fabric) LinksPerPeer() float64 {
	if f.Kind == FullMesh && f.P > 1 {
		return float64(f.Links) / float64(f.P-1)
	}
	return float64(f.Links)
}

// BW returns the egress bandwidth a rank reaches when it sends to fanout peers
// at once, in bytes per second:
//
//	Switched, SharedPCIe:  BW = Links·LinkBW                      (any fanout >= 1)
//	FullMesh:              BW = min(fanout, P-1)·Links/(P-1)·LinkBW
//
// On a switch the egress is the limit whoever the bytes go to; on a full mesh
// only the links to the peers being sent to carry them, so a ring (fanout 1)
// on 910B's 7-link mesh gets 1/7 of the egress. It is NaN for fanout < 1.
func (f Fabric) BW(fanout int) float64 {
	if fanout < 1 {
		return math.NaN()
	}
	if f.Kind == FullMesh && f.P > 1 {
		return float64(min(fanout, f.P-1)) * f.LinksPerPeer() * f.LinkBW
	}
	return f.Egress()
}

// Link returns the Link a collective sees when it sends to fanout peers per
// step: Alpha and BW(fanout).
func (f Fabric) Link(fanout int) Link { return Link{Alpha: f.Alpha, BW: f.BW(fanout)} }

// Time returns algorithm a's duration for S = size bytes on the fabric's P
// ranks, in seconds, at the bandwidth its fanout reaches:
//
//	T = Cost(P, S).Time(Link(Cost.Fanout))
//
// A one-rank collective (fanout 0) sends nothing and takes its steps' alpha.
func (f Fabric) Time(a Algorithm, size float64) float64 {
	c := a.Cost(f.P, size)
	l := f.Link(max(1, c.Fanout))
	return c.Time(l)
}

// LargeMessageRatio returns the limit, as the size grows, of a's time over b's
// on f: the ratio of their bandwidth terms, alphas dropped,
//
//	ratio = (Bytes_a / BW(fanout_a)) / (Bytes_b / BW(fanout_b))
//
// evaluated at 1 GiB (costs are linear in S at large S).
func (f Fabric) LargeMessageRatio(a, b Algorithm) float64 {
	const size = 1 << 30
	bw := func(x Algorithm) float64 {
		g := f
		g.Alpha = 0
		return g.Time(x, size)
	}
	return bw(a) / bw(b)
}

// SharedNICBW returns one GPU's share of a NIC that gpus GPUs use at once, in
// bytes per second (lineRate in bytes per second):
//
//	BW = lineRate / gpus
//
// It is NaN for gpus < 1.
func SharedNICBW(lineRate float64, gpus int) float64 {
	if gpus < 1 {
		return math.NaN()
	}
	return lineRate / float64(gpus)
}
