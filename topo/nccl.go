package topo

import "fmt"

// NCCLPath is one of NCCL's path types, in NCCL's order from near to far
// (src/graph/topo.h; NCCL 2.2x numbering):
//
//	LOC  the device itself
//	NVL  NVLink, directly or through NVSwitch
//	NVB  NVLink through an intermediate GPU
//	C2C  a chip-to-chip link to the CPU (Grace Hopper, Grace Blackwell)
//	PIX  at most one PCIe bridge
//	PXB  several PCIe bridges, without the host bridge
//	P2C  GPU to NIC through C2C and the CPU's PCIe
//	PXN  GPU to NIC through NVLink to a peer GPU and that GPU's PCIe
//	PHB  through a PCIe host bridge
//	SYS  across the SMP interconnect between NUMA nodes
//	NET  through the network
//
// nvidia-smi prints only X, NV#, PIX, PXB, PHB, NODE and SYS; NVB, C2C, P2C,
// PXN and NET are routes NCCL builds on top of them.
type NCCLPath uint8

// NCCL's path types.
const (
	NCCLLOC NCCLPath = iota
	NCCLNVL
	NCCLNVB
	NCCLC2C
	NCCLPIX
	NCCLPXB
	NCCLP2C
	NCCLPXN
	NCCLPHB
	NCCLSYS
	NCCLNET
	NCCLDIS // disconnected: no path (an Unknown cell)
)

var ncclNames = [...]string{"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS", "NET", "DIS"}

// String returns NCCL's name of the path type.
func (n NCCLPath) String() string {
	if int(n) >= len(ncclNames) {
		return fmt.Sprintf("NCCLPath(%d)", int(n))
	}
	return ncclNames[n]
}

// MarshalText encodes the path type by name.
func (n NCCLPath) MarshalText() ([]byte, error) { return []byte(n.String()), nil }

// NCCL returns the NCCL path type of an nvidia-smi path:
//
//	X -> LOC, NV# -> NVL, PIX -> PIX, PXB -> PXB, PHB -> PHB,
//	NODE -> PHB, SYS -> SYS, Unknown -> DIS
//
// NODE maps to PHB because NCCL's topology puts every PCIe root port of one
// CPU under one CPU node, so a path across two host bridges of one NUMA node is
// PHB to NCCL (src/graph/paths.cc). This matters for GPUDirect RDMA: NCCL's
// default NCCL_NET_GDR_LEVEL is PXB, so GDR is off on NODE paths.
func (p Path) NCCL() NCCLPath {
	switch p.Class {
	case Self:
		return NCCLLOC
	case NVLink:
		return NCCLNVL
	case PIX:
		return NCCLPIX
	case PXB:
		return NCCLPXB
	case PHB, NODE:
		return NCCLPHB
	case SYS:
		return NCCLSYS
	}
	return NCCLDIS
}

// DefaultGDRLevel is NCCL's default NCCL_NET_GDR_LEVEL: GPUDirect RDMA is
// used when the GPU-NIC path is PXB or nearer (ncclTopoCheckGdr in NCCL's
// src/graph/paths.cc sets netGdrLevel = PATH_PXB unless the variable is set).
const DefaultGDRLevel = NCCLPXB

// GDR reports whether GPUDirect RDMA is advisable between a GPU and a NIC on
// path p when NCCL_NET_GDR_LEVEL is level: the path's NCCL type is level or
// nearer. Unknown paths never qualify.
//
//	GDR(p, level) = p.NCCL() <= level and p is known
func GDR(p Path, level NCCLPath) bool {
	n := p.NCCL()
	return n != NCCLDIS && n <= level
}
