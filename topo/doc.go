// Package topo describes the topology of real GPU servers: GPUs, NICs, NUMA
// nodes and CPU affinity, and the path class of every pair of devices as
// `nvidia-smi topo -m` prints it. It reads that output (Parse), holds the
// source article's 8 x H20 / 4-NIC server as a preset (H20Article), answers
// affinity questions (nearest NIC, NIC sharing, NUMA locality, rails,
// GPUDirect RDMA, a recommended binding per GPU) and hands per-level figures
// to the fabric math in commmodel (Levels).
//
// # Path classes
//
// Classes are ordered from near to far:
//
//	X     the device itself
//	NV#   a bonded set of # NVLinks (more links is nearer)
//	PIX   at most one PCIe bridge
//	PXB   several PCIe bridges, not through a host bridge
//	PHB   through a PCIe host bridge (the CPU)
//	NODE  across PCIe host bridges within one NUMA node
//	SYS   across the SMP interconnect between NUMA nodes (QPI/UPI/xGMI)
//
// NCCL names its own path types LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, PHB,
// SYS, NET; Path.NCCL gives the mapping (NODE becomes PHB, because NCCL does
// not tell host bridges of one CPU apart). Topology.NICPath is the type of
// a GPU's path to the NIC it reaches best (PXN where NCCL relays through an
// NVLinked GPU), and Topology.RingNICPath the type of the paths by which
// NCCL's ring enters and leaves the host, its graph's typeInter, which
// commmodel/predict takes as the host's nic_path.
//
// # Fabric
//
// InferFabric reads how the GPUs are joined from their NV# cells
// (ReadNVLinks): NVSwitch where some GPU's NVLinks summed over its peers
// are more than any GPU has (MaxNVLinksPerGPU), a pair on the switch that
// shows none taken as joined through it; a mesh where NVLinks join every
// GPU to every other, directly or through others, without a switch; PCIe
// otherwise. A GPU with links down shows fewer NVLinks than the others
// (NV17 to every peer where the rest show NV18) and keeps its fabric,
// whose links are the fewest of a GPU; behind NVSwitch a GPU with none is
// off the switch, and groups that reach each other over PCIe alone are
// its partitions: a run of every GPU crosses PCIe. Where N/A cells alone
// keep GPUs apart, the capture does not settle the fabric (FabricKnown).
// FabricNotes names such GPUs, groups and pairs.
//
// # Failure channels
//
// Bad input text is reported as a *ParseError carrying the file, line and
// column and one of the sentinel causes (ErrNoMatrix, ErrPathToken, ...).
// Damage that Parse can read past (a row short of cells, a pair whose two
// cells disagree) does not stop it: Parse returns it as problems, *ParseErrors
// of the same shape, beside the topology. Asking for a device the topology
// does not have is reported with an error by the name-based queries; the
// index-based ones panic, as an out-of-range slice index does.
package topo
