package topo

import (
	"slices"

	"github.com/inframethod/commlab/commmodel/nccl"
)

// NCCL returns NCCL's type of an nvidia-smi path (nccl.PathType, NCCL
// 2.30.7 src/graph/topo.h):
//
//	X -> LOC, NV# -> NVL, PIX -> PIX, PXB -> PXB, PHB -> PHB,
//	NODE -> PHB, SYS -> SYS, Unknown -> DIS, and XGMI (rocm-smi's) -> NVL,
//	as RCCL types an xGMI link
//
// NODE maps to PHB because NCCL's topology puts every PCIe root port of one
// NUMA node under one CPU node (ncclTopoAddCpu, src/graph/topo.cc) and types
// a PCIe path through a CPU node PHB (ncclTopoSetPaths, src/graph/paths.cc),
// so a path across two host bridges of one NUMA node is PHB to NCCL. This
// matters for GPUDirect RDMA: NCCL's default NCCL_NET_GDR_LEVEL is PXB, so
// GDR is off on NODE paths. nvidia-smi prints none of NVB, C2C, P2C, PXN and
// NET: NCCL builds those routes on top of the paths it shows.
func (p Path) NCCL() nccl.PathType {
	switch p.Class {
	case Self:
		return nccl.PathLOC
	case NVLink, XGMI:
		return nccl.PathNVL
	case PIX:
		return nccl.PathPIX
	case PXB:
		return nccl.PathPXB
	case PHB, NODE:
		return nccl.PathPHB
	case SYS:
		return nccl.PathSYS
	}
	return nccl.PathDIS
}

// DefaultGDRLevel is NCCL's default NCCL_NET_GDR_LEVEL: GPUDirect RDMA is
// used when the GPU-NIC path is PXB or nearer (ncclTopoCheckGdr in NCCL's
// src/graph/paths.cc sets netGdrLevel = PATH_PXB unless the variable is set).
const DefaultGDRLevel = nccl.PathPXB

// GDR reports whether GPUDirect RDMA is advisable between a GPU and a NIC on
// path p when NCCL_NET_GDR_LEVEL is level: the path's NCCL type is level or
// nearer. Unknown paths never qualify.
//
//	GDR(p, level) = p.NCCL() <= level and p is known
func GDR(p Path, level nccl.PathType) bool {
	n := p.NCCL()
	return n != nccl.PathDIS && n <= level
}

// NICPath returns the type NCCL gives the path from GPU g to the NIC it
// reaches best, and DIS when no path from g to a NIC is known. A GPU whose
// every NIC is beyond the CPU (PHB or SYS) reaches one at PXN when a GPU
// NVLinked to it is among that NIC's nearest GPUs at PXB or nearer: NCCL
// then sends through that GPU (PXN, on unless NCCL_PXN_DISABLE=1; the
// NIC's local GPU and conditions (1) to (4) of ncclTopoComputePaths, NCCL
// 2.30.7 src/graph/paths.cc, with GPUDirect RDMA taken to work on paths of
// PXB or nearer, NCCL's default level).
func (t *Topology) NICPath(g int) nccl.PathType {
	best := nccl.PathDIS
	for n := range t.nics {
		best = min(best, t.gpuNIC(g, n))
	}
	return best
}

// gpuNIC is the type NCCL gives the path from GPU g to NIC n: PXN where
// it sends through an NVLinked GPU (NICPath).
func (t *Topology) gpuNIC(g, n int) nccl.PathType {
	p := t.GPUNIC(g, n).NCCL()
	if (p == nccl.PathPHB || p == nccl.PathSYS) && t.pxn(g, n) {
		p = nccl.PathPXN
	}
	return p
}

// RingNICPath returns the type of the paths by which NCCL's ring enters
// and leaves the host (its graph's typeInter), DIS when no GPU has a known
// path to a NIC. A ring's channel enters at one GPU from a NIC and leaves
// at another GPU to a NIC. NCCL's search (NCCL 2.30.7 src/graph/search.cc)
// first keeps both ends on one NIC, widening the path type until a ring
// fits, then tries leaving by another NIC (NCCL_CROSS_NIC's default of 2)
// and keeps the graph of more bandwidth. Leaving by the same NIC keeps
// its bandwidth where the exit reaches it with GPUDirect RDMA, at PXN or
// nearer (NCCL's default GDR level is PXB, and PXN relays through a GPU
// within it); farther, the exit goes through host memory, and with two
// NICs or more the other NIC's ring carries more. So each NIC the GPUs
// are nearest to (NearestToGPU) counts at its second-nearest GPU where
// that is PXN or nearer, else, with two NICs or more, at its nearest GPU
// paired with another NIC's; the host's type is the farthest of those
// NICs'. On the article's H20 server a channel enters at a NIC's PIX GPU
// and leaves by the same NIC at PXN (through that GPU); on ALCF's Polaris,
// whose two NICs each sit at PHB of one GPU and SYS of the other three, it
// enters at one NIC's GPU and leaves at the other's, at PHB; NCCL's own
// search on two H20s, each with its NIC and PXN off, prints "crossNic 1
// ... type NVL/PIX" (NVIDIA/nccl#1189). Paths count PXN where NCCL relays
// through an NVLinked GPU (NICPath). With one GPU it is that GPU's
// NICPath.
func (t *Topology) RingNICPath() nccl.PathType {
	if len(t.gpus) == 1 {
		return t.NICPath(0)
	}
	used := t.NearestToGPU()
	if !slices.Contains(used, true) {
		return nccl.PathDIS
	}
	worst := nccl.PathDIS
	for a := range t.nics {
		if !used[a] {
			continue
		}
		same := make([]nccl.PathType, len(t.gpus))
		for x := range t.gpus {
			same[x] = t.gpuNIC(x, a)
		}
		slices.Sort(same)
		p := same[1] // the second nearest: both ends on NIC a
		if p > nccl.PathPXN && len(t.nics) > 1 {
			// Leave by another NIC: a's nearest GPU, another GPU's
			// nearest NIC.
			p = nccl.PathDIS
			for x := range t.gpus {
				for y := range t.gpus {
					for b := range t.nics {
						if x != y && b != a {
							p = min(p, max(t.gpuNIC(x, a), t.gpuNIC(y, b)))
						}
					}
				}
			}
			p = min(p, same[1])
		}
		if worst == nccl.PathDIS || p != nccl.PathDIS && p > worst {
			worst = p
		}
	}
	return worst
}

// pxn reports that GPU g reaches NIC n through a GPU NVLinked to it: one of
// the GPUs nearest to n, at PXB or nearer.
func (t *Topology) pxn(g, n int) bool {
	near := nccl.PathDIS
	for h := range t.gpus {
		near = min(near, t.GPUNIC(h, n).NCCL())
	}
	if near > nccl.PathPXB {
		return false
	}
	for h := range t.gpus {
		if h != g && t.GPUNIC(h, n).NCCL() == near && t.Path(t.gpus[g], t.gpus[h]).Class == NVLink {
			return true
		}
	}
	return false
}
