package topo

import "github.com/inframethod/commlab/commmodel/nccl"

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
		p := t.GPUNIC(g, n).NCCL()
		if (p == nccl.PathPHB || p == nccl.PathSYS) && t.pxn(g, n) {
			p = nccl.PathPXN
		}
		best = min(best, p)
	}
	return best
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
