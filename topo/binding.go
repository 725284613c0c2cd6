package topo

import "github.com/inframethod/commlab/commmodel/nccl"

// Binding is the recommended placement of the process that drives one GPU.
type Binding struct {
	// GPU is the GPU's name ("GPU0").
	GPU string
	// NIC is the closest NIC's name ("NIC0"), "" when the GPU has none.
	NIC string
	// Device is that NIC's RDMA device ("mlx5_bond_0"), "" if unknown.
	Device string
	// Path is the GPU-NIC path.
	Path Path
	// NCCL is the path's NCCL type (NODE reads as PHB).
	NCCL nccl.PathType
	// GDR reports whether GPUDirect RDMA is advisable on Path at NCCL's
	// default NCCL_NET_GDR_LEVEL (PXB).
	GDR bool
	// Sharing is the number of GPUs that share the NIC (this one included).
	Sharing int
	// NUMA is the NUMA node to bind memory to (numactl --membind), -1 if unknown.
	NUMA int
	// CPUs is the CPU list to bind the process to (taskset -c, numactl
	// --physcpubind): the GPU's CPU affinity, nil if unknown.
	CPUs CPUList
	// NCCLIBHCA is a value for NCCL_IB_HCA that restricts the process to the
	// NIC: "=" and the device name, so that mlx5_1 does not also select
	// mlx5_10 by prefix; "" if the device name is unknown.
	NCCLIBHCA string
}

// Bindings returns one Binding per GPU: its NIC from NICAssignment, its NUMA
// node and CPU affinity, whether GPUDirect RDMA is advisable on the path and
// an NCCL_IB_HCA value. When a GPU's NUMA node is unknown but its NIC's is,
// the NIC's node is used.
func (t *Topology) Bindings() []Binding {
	assign := t.NICAssignment()
	groups := t.NICGroups()
	out := make([]Binding, len(t.gpus))
	for g, gpu := range t.gpus {
		b := Binding{GPU: gpu.Name, NUMA: gpu.NUMA, CPUs: gpu.CPUs, NCCL: nccl.PathDIS}
		if n := assign[g]; n >= 0 {
			nic := t.nics[n]
			b.NIC, b.Device = nic.Name, nic.Device
			b.Path = t.GPUNIC(g, n)
			b.NCCL = b.Path.NCCL()
			b.GDR = GDR(b.Path, DefaultGDRLevel)
			b.Sharing = len(groups[n])
			if b.Device != "" {
				b.NCCLIBHCA = "=" + b.Device
			}
			if b.NUMA < 0 {
				b.NUMA = nic.NUMA
			}
		}
		out[g] = b
	}
	return out
}
