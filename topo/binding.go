package topo

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/words"
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
	// NotIB says, for a NIC NCCL's InfiniBand transport does not list,
	// what it is and what picks it instead of NCCL_IB_HCA (NotIB); ""
	// otherwise.
	NotIB string
}

// A Binding holds no NCCL_IB_HCA of its own. NCCL pairs each GPU with its
// nearest NIC itself (ncclTopoSelectNets, src/graph/search.cc), and
// NCCL_IB_HCA must be one list on every rank: each rank builds its
// topology from the NICs its own NCCL_IB_HCA allows and searches its own
// graphs, and NCCL joins the rings from every rank's (src/init.cc at
// 5067397c, "firstRank = allGather3Data[r].topoRanks.ringRecv[0]"), so
// ranks that see different NICs compute rings that do not close ("ring
// does not loop back to start", src/graph/rings.cc). NCCL's maintainer:
// "You should not set NCCL_IB_HCA differently on each rank" (NVIDIA/nccl
// issue 1478, 2024-10-15). The host's one value is Topology.IBHCA.

// SameIBHCA says why NCCL_IB_HCA, where it is set, is the same on every
// rank: the reason every piece of NIC advice gives.
const SameIBHCA = "NCCL pairs each GPU with its nearest NIC itself, and an NCCL_IB_HCA that differs between ranks breaks the rings NCCL joins from every rank's own graph (NVIDIA/nccl#1478)"

// HostIBHCA is one value of NCCL_IB_HCA for every rank of a host.
type HostIBHCA struct {
	// Value is "=" and the devices of the NICs nearest to some GPU
	// (NearestToGPU; every NIC on a capture of one GPU), comma-separated
	// in NIC order: "=mlx5_0,mlx5_1". The "=" asks NCCL for exact names
	// (searchExact, src/transport/net_ib/init.cc), so that mlx5_1 does not
	// also select mlx5_10 by prefix. "" where the capture cannot give one:
	// such a NIC's device name is unknown, a name is no device's or two
	// NICs have one (a damaged NIC Legend, hcaFault), or none is a device
	// NCCL's InfiniBand transport lists (NotIB).
	Value string
	// Left are the NICs Value leaves out, "NIC8 (mlx5_8)": no GPU's
	// nearest, as a storage or management NIC is. NICs NCCL's InfiniBand
	// transport does not list are not among them.
	Left []string
	// Rails are the NICs no GPU of the capture is nearest that look like
	// the rails of GPUs it does not show, on a capture of part of the host
	// (a container given some of its GPUs, Topology.PartOfHost): Value is
	// "" and Left empty there, as a list would drop those rails.
	Rails []string
}

// IBHCA returns the host's NCCL_IB_HCA value, the same for every rank,
// where the GPUs a host holds are not known (IBHCAOf).
func (t *Topology) IBHCA() HostIBHCA { return t.IBHCAOf(0) }

// IBHCAOf is IBHCA for a host known to hold hostGPUs GPUs, 0 where that is
// not known: a capture of as many shows the whole host, whose NICs no GPU
// is nearest are left out however they sit (PartOfHost).
func (t *Topology) IBHCAOf(hostGPUs int) HostIBHCA {
	near := t.NearestToGPU()
	// As NICsUsed: a capture of one GPU cannot show the other GPUs'
	// nearest NICs, and one with no known GPU-NIC path shows none.
	all := len(t.gpus) < 2 || !slices.Contains(near, true)
	var devices, left []string
	if t.legendFault() {
		return HostIBHCA{}
	}
	for i, n := range t.nics {
		if NotIB(n.Device) != "" {
			continue
		}
		if near[i] || all {
			if n.Device == "" {
				return HostIBHCA{}
			}
			devices = append(devices, n.Device)
		} else if n.Device != "" {
			left = append(left, n.Name+" ("+n.Device+")")
		}
	}
	if len(devices) == 0 {
		return HostIBHCA{}
	}
	if len(left) > 0 && t.PartOfHost(hostGPUs) {
		return HostIBHCA{Rails: left}
	}
	return HostIBHCA{Value: "=" + strings.Join(devices, ","), Left: left}
}

// PartOfHost reports that t, a capture of two GPUs or more, may show part
// of its host, as a container given some of the host's GPUs and its
// network prints it: it shows fewer GPUs than hostGPUs, the GPUs its host
// is known to hold (0 where that is not known), and the NICs no GPU of t
// is nearest look like the rails of GPUs t does not show (railsLeft). A
// capture of as many GPUs as its host holds shows them all, whatever its
// NICs: a storage NIC on a GPU's PCIe switch is no rail. It is the one
// test of it: IBHCAOf gives no list there, and predict takes no fact of
// the whole host from such a capture that its other GPUs could change
// (Hardware.PartOfHost, which gives hostGPUs). A capture of one GPU, or
// with no known GPU-NIC path, is not tested: it shows no GPU's nearest
// NIC to hold the others against.
func (t *Topology) PartOfHost(hostGPUs int) bool {
	near := t.NearestToGPU()
	if len(t.gpus) < 2 || hostGPUs > 0 && len(t.gpus) >= hostGPUs || !slices.Contains(near, true) {
		return false
	}
	var kept, out []int
	for i := range t.nics {
		if near[i] {
			kept = append(kept, i)
		} else {
			out = append(out, i)
		}
	}
	return t.railsLeft(kept, out)
}

// hcaFault says why device, a NIC's RDMA device as a capture names it,
// cannot be an entry of NCCL_IB_HCA, "" where it can. NCCL reads the
// variable as an optional '^' (exclude) and then '=' (exact names) before
// a list split at ',', each entry a device name and then ':' and its port
// (src/transport/net_ib/init.cc:320-324 and parseStringList,
// src/misc/utils.cc:189, at 5067397c): a name holding ',' or ':' would
// be read as two entries or a name and a port, one starting '^' or '='
// as the prefixes. Verbs device names hold none of them, nor blanks
// (mlx5_0, mlx5_bond_0, ibp12s0), and nvidia-smi prints one word a
// legend entry: such a name is a damaged capture's.
func hcaFault(device string) string {
	if strings.ContainsFunc(device, unicode.IsSpace) {
		return "holds a blank, where nvidia-smi prints one word a NIC Legend entry and no RDMA device's name holds one"
	}
	if i := strings.IndexAny(device, ",=^:"); i >= 0 {
		return fmt.Sprintf("holds %q, which NCCL_IB_HCA reads as syntax (',' splits its entries, ':' starts a port, a leading '^' or '=' is a prefix) and no RDMA device's name holds", device[i])
	}
	return ""
}

// legendFault reports that a NIC's device is no name NCCL_IB_HCA can hold
// (hcaFault), or another NIC's too: a damaged NIC Legend (ErrLegendDevice),
// whose devices make no list.
func (t *Topology) legendFault() bool {
	seen := map[string]bool{}
	for _, n := range t.nics {
		if n.Device == "" {
			continue
		}
		if seen[n.Device] || hcaFault(n.Device) != "" {
			return true
		}
		seen[n.Device] = true
	}
	return false
}

// railsLeft reports that the NICs out, no GPU's nearest, look like the
// rails of GPUs the capture does not show rather than storage or
// management NICs: they are as many as the NICs kept (the GPUs' nearest)
// or more, as 6 of an HGX's 8 rails are on a capture of 2 of its GPUs,
// where a whole host holds fewer storage or management NICs than rails (a
// DGX A100's 2 beside 8, a DGX H100's 4 beside 8); or one shares a PCIe
// switch with a NIC kept (PIX or PXB between them), as the second NIC of
// a GPU pair's switch does on a capture of one GPU of the pair. A list
// that left such a NIC out would keep NCCL off a rail; NCCL's default,
// every NIC, cannot.
func (t *Topology) railsLeft(kept, out []int) bool {
	if len(out) == 0 {
		return false
	}
	if len(out) >= len(kept) {
		return true
	}
	for _, o := range out {
		for _, k := range kept {
			if c := t.Path(t.nics[o], t.nics[k]).Class; c == PIX || c == PXB {
				return true
			}
		}
	}
	return false
}

// Advice is what to do with NCCL_IB_HCA on the host, "" where h has no
// value: none is needed where it names every NIC of the capture (NCCL's
// InfiniBand transport takes every device it lists by default);
// otherwise it leaves out h.Left; either way the same on every rank
// (SameIBHCA).
func (h HostIBHCA) Advice() string {
	switch {
	case len(h.Rails) > 0:
		return "NCCL_IB_HCA: none from this capture, which may show part of the host: " + words.And(h.Rails) +
			" are no GPU's nearest and look like the rails of GPUs it does not show (as many as the NICs nearest its GPUs or more, or on their PCIe switch), which a list of its GPUs' NICs would drop; " +
			"NCCL takes every NIC by default; if set, name every rail, the same on every rank of the host: " + SameIBHCA
	case h.Value == "":
		return ""
	case len(h.Left) == 0:
		return "NCCL_IB_HCA: none needed, NCCL takes every NIC of the capture by default; if set, the same on every rank of the host, " + h.Value + ": " + SameIBHCA
	}
	return "NCCL_IB_HCA, the same on every rank of the host: " + h.Value + ", the NICs nearest the GPUs, leaving out " + words.And(h.Left) +
		", no GPU's nearest (a storage or management NIC, most likely, or the rails of GPUs the capture does not show): " + SameIBHCA
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
// node and CPU affinity, whether GPUDirect RDMA is advisable on the path and,
// for a NIC NCCL's InfiniBand transport does not list, what picks it instead
// (NotIB). When a GPU's NUMA node is unknown but its NIC's is, the NIC's node
// is used.
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
			b.NotIB = NotIB(b.Device)
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
		out[k] = words.And(devices[k]) + verb + n
	}
	return out
}
