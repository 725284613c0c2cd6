package topo

import (
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel/nccl"
)

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
	// mlx5_10 by prefix; "" if the device name is unknown or names a NIC
	// NCCL's InfiniBand transport does not list (NotIB).
	NCCLIBHCA string
	// NotIB says, for a NIC NCCL's InfiniBand transport does not list,
	// what it is and what picks it instead of NCCL_IB_HCA (NotIB); ""
	// otherwise.
	NotIB string
}

// NotIB returns, for the RDMA device name of a NIC as a capture's NIC
// Legend shows it, what the NIC is where NCCL's InfiniBand transport does
// not list it, and so NCCL_IB_HCA, which filters that transport's list
// alone, does not select it; "" for a name that transport may list. The
// transport lists the verbs devices (ibv_get_device_list) whose ports'
// link layer is InfiniBand or Ethernet (RoCE), skipping the others
// (src/transport/net_ib/init.cc:364 in NCCL 2.30.7): mlx5_0, bnxt_re0,
// ionic_0, irdma0, and rdma-core's stable names ibp12s0 (InfiniBand) and
// rocep1s0f0 (RoCE) are such devices. Two kinds of NIC are not, both
// reached through the OFI plugin (aws-ofi-nccl), which reads no
// NCCL_IB_* and groups the NICs with the GPUs by their place in the PCIe
// tree itself (src/nccl_ofi_topo.cpp): HPE Slingshot's Cassini NICs
// (cxi0), which are no verbs devices (libfabric's cxi provider drives
// them), and AWS's EFA (efa_0, or rdmap16s27, rdma-core's stable name
// for a device of neither link layer), a verbs device of an unspecified
// link layer. A name of neither form is taken as a verbs device.
func NotIB(device string) string {
	const ofi = "which NCCL reaches through the OFI plugin (aws-ofi-nccl): the plugin reads no NCCL_IB_* and pairs each GPU with its nearest NICs by the PCIe tree itself, so there is nothing to set"
	switch {
	case strings.HasPrefix(device, "cxi"):
		return "HPE Slingshot's NICs (Cassini, libfabric's cxi provider), no InfiniBand devices, " + ofi
	case strings.HasPrefix(device, "efa"), strings.HasPrefix(device, "rdmap"):
		return "AWS EFA devices, whose link layer NCCL's InfiniBand transport skips, " + ofi
	}
	return ""
}

// Bindings returns one Binding per GPU: its NIC from NICAssignment, its NUMA
// node and CPU affinity, whether GPUDirect RDMA is advisable on the path and
// an NCCL_IB_HCA value (or why none, NotIB). When a GPU's NUMA node is unknown but its NIC's is,
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
			if b.NotIB = NotIB(b.Device); b.Device != "" && b.NotIB == "" {
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

// NotIBNotes says, once for each kind of NIC of bs that NCCL's InfiniBand
// transport does not list (Binding.NotIB), which devices they are and
// what picks them instead of NCCL_IB_HCA: "cxi0 and cxi1 are HPE
// Slingshot's NICs ...".
func NotIBNotes(bs []Binding) []string {
	var notes []string
	var devices [][]string
	for _, b := range bs {
		if b.NotIB == "" {
			continue
		}
		k := slices.Index(notes, b.NotIB)
		if k < 0 {
			notes, devices = append(notes, b.NotIB), append(devices, nil)
			k = len(notes) - 1
		}
		if !slices.Contains(devices[k], b.Device) {
			devices[k] = append(devices[k], b.Device)
		}
	}
	out := make([]string, len(notes))
	for k, n := range notes {
		verb := " are "
		if len(devices[k]) == 1 {
			verb = " is one of "
		}
		out[k] = joinAnd(devices[k]) + verb + n
	}
	return out
}
