package article

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/figure"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
)

// Notebook 02, "The H20 server's topology": the article's 8 x H20 / 4-NIC
// server (topo.H20Article) beside the public capture of an 8 x H20-3e VM with
// 8 NICs (data/topology/h20-3e_8gpu_8nic_vm.txt): GPU-NIC distance tables,
// NUMA and PCIe groups, NIC bindings and the NIC arithmetic.

// H20Machine is one 8 x H20 server of notebook 02.
type H20Machine struct {
	// Name labels the machine in tables ("article: 8 x H20, 4 NICs").
	Name string
	// Short labels it in figures ("article's server").
	Short string
	// Source says where the topology comes from.
	Source string
	// Topology is the server's devices and paths.
	Topology *topo.Topology
	// NICLineRate is one NIC's line rate, in bytes per second.
	NICLineRate float64
	// LineRateSource says where NICLineRate comes from.
	LineRateSource string
	// Measured is the per-GPU network rate measured on the machine; zero
	// (BW 0) when there is no measurement.
	Measured MeasuredNetworkRate
}

// publicH20Capture is the embedded topology of the public H20 machine.
const publicH20Capture = "h20-3e_8gpu_8nic_vm"

// PublicH20AllToAllLog is the embedded nccl-tests log of the same H20-3e VMs
// (2 VMs x 2 GPUs, NVIDIA/nccl-tests issue #321).
const PublicH20AllToAllLog = "h20-3e_2x2_alltoall_nccltests321.log"

// articleH20 returns the article's server: topo.H20Article with its 400G
// (2 x 200G bond) NICs, presets.H20NICLineRate.
func articleH20() H20Machine {
	return H20Machine{
		Name:           "article: 8 x H20, 4 NICs",
		Short:          "article's server",
		Source:         "the article (SGLang #5186 topology), topo.H20Article",
		Topology:       topo.H20Article(),
		NICLineRate:    presets.H20NICLineRate,
		LineRateSource: "article: 2 x 200G bond = 400 Gb/s",
	}
}

// PublicH20 returns the public 8 x H20-3e VM of nccl-tests issue #321, with
// the network rate measured on VMs of the same kind (publicNetworkRate). The
// capture does not give the NICs' line rate; it is taken equal to the
// article's (400 Gb/s) and LineRateSource says so.
func publicH20() (H20Machine, error) {
	t, err := data.Topology(publicH20Capture)
	if err != nil {
		return H20Machine{}, err
	}
	rate, err := publicNetworkRate()
	if err != nil {
		return H20Machine{}, err
	}
	return H20Machine{
		Name:           "public: 8 x H20-3e VM, 8 NICs",
		Short:          "H20-3e VM",
		Source:         "nvidia-smi topo -m, NVIDIA/nccl-tests #321 (data/topology/" + publicH20Capture + ".txt)",
		Topology:       t,
		NICLineRate:    presets.H20NICLineRate,
		LineRateSource: "not in the capture; assumed 400 Gb/s as the article's",
		Measured:       rate,
	}, nil
}

// H20Machines returns the article's server and the public one, in that order.
func H20Machines() ([]H20Machine, error) {
	pub, err := publicH20()
	if err != nil {
		return nil, err
	}
	return []H20Machine{articleH20(), pub}, nil
}

// GPUNICTable is the complete GPU-NIC distance table of t: one row per GPU
// with its NUMA node, one column per NIC (with its RDMA device when known),
// each cell the `nvidia-smi topo -m` path class.
func GPUNICTable(t *topo.Topology) figure.Table {
	tb := figure.Table{Header: []string{"GPU (NUMA)"}}
	for _, n := range t.NICs() {
		h := n.Name + " (NUMA " + numaString(n.NUMA) + ")"
		if n.Device != "" && n.Device != n.Name {
			h = n.Name + " " + n.Device + " (NUMA " + numaString(n.NUMA) + ")"
		}
		tb.Header = append(tb.Header, h)
	}
	for g, row := range t.GPUNICTable() {
		r := []string{t.GPU(g).Name + " (" + numaString(t.GPU(g).NUMA) + ")"}
		for _, p := range row {
			r = append(r, p.String())
		}
		tb.Rows = append(tb.Rows, r)
	}
	return tb
}

// PIXGroups returns, for each NIC of t, the GPUs under the same PCIe switch
// (a PIX path), in index order: the PCIe groups of the server.
func PIXGroups(t *topo.Topology) [][]int {
	out := make([][]int, len(t.NICs()))
	for n := range out {
		for g := range t.GPUs() {
			if t.GPUNIC(g, n).Class == topo.PIX {
				out[n] = append(out[n], g)
			}
		}
	}
	return out
}

// NUMATable lists, per machine and NUMA node, the GPUs and NICs on the node,
// the GPUs' CPU affinity, and the PCIe (PIX) groups inside it: each NIC with
// the GPUs that share its PCIe switch.
func NUMATable(ms []H20Machine) figure.Table {
	tb := figure.Table{Header: []string{"machine", "NUMA", "GPUs", "NICs", "GPU CPU affinity", "PCIe switch groups (PIX)"}}
	for _, m := range ms {
		t := m.Topology
		pix := PIXGroups(t)
		for _, node := range t.NUMANodes() {
			gpus, nics := t.OnNUMA(node)
			var cpus []string
			for _, g := range gpus {
				if s := t.GPU(g).CPUs.String(); s != "" && !slices.Contains(cpus, s) {
					cpus = append(cpus, s)
				}
			}
			var groups []string
			for _, n := range nics {
				if len(pix[n]) > 0 {
					groups = append(groups, t.NIC(n).Name+" + "+gpuList(t, pix[n]))
				}
			}
			tb.Rows = append(tb.Rows, []string{m.Name, strconv.Itoa(node), gpuList(t, gpus), nicList(t, nics),
				orNone(strings.Join(cpus, "; ")), orNone(strings.Join(groups, "; "))})
		}
	}
	return tb
}

// BindingsTable is t's recommended placement per GPU (topo.Bindings): the
// closest NIC and its path, the path's NCCL type, whether GPUDirect RDMA is
// advisable at NCCL's default NCCL_NET_GDR_LEVEL (PXB), how many GPUs share
// the NIC, and the NUMA node and CPUs to bind to. It has no NCCL_IB_HCA
// column: NCCL pairs each GPU with its nearest NIC itself, and NCCL_IB_HCA
// is one value for every rank of the host (topo.HostIBHCA).
func BindingsTable(t *topo.Topology) figure.Table {
	tb := figure.Table{
		Header: []string{"GPU", "nearest NIC", "path", "NCCL path", "GDR at PXB", "GPUs on NIC", "NUMA", "CPUs"},
		Align:  []figure.Align{figure.Left, figure.Left, figure.Left, figure.Left, figure.Left, figure.Right, figure.Right},
	}
	for _, b := range t.Bindings() {
		nic := orNone(b.NIC)
		if b.Device != "" {
			nic += " (" + b.Device + ")"
		}
		gdr := "no"
		if b.GDR {
			gdr = "yes"
		}
		tb.Rows = append(tb.Rows, []string{b.GPU, nic, b.Path.String(), b.NCCL.String(), gdr,
			strconv.Itoa(b.Sharing), numaString(b.NUMA), orNone(b.CPUs.String())})
	}
	return tb
}

// NICShare is the NIC arithmetic of one machine.
type NICShare struct {
	// NICs is the number of NICs.
	NICs int
	// GPUsPerNIC is the most GPUs that share one NIC under the closest-NIC
	// assignment (topo.MaxGPUsPerNIC).
	GPUsPerNIC int
	// PerGPU is one GPU's network bandwidth when every GPU sends at once, in
	// bytes per second: NICLineRate / GPUsPerNIC.
	PerGPU float64
	// Egress is the node's network egress, in bytes per second: NICs · NICLineRate.
	Egress float64
	// Ratio is the intra-node over the inter-node bandwidth that
	// topo.Levels gives with the figures Share was given (the article's:
	// NVLink at NCCL's Hopper figure) and this machine's NIC line rate; the
	// article states 17.5.
	Ratio float64
}

// Share computes m's NIC arithmetic with the per-link figures fig (the
// article's: topo.H20Figures), whose NIC line rate is replaced by m's.
func (m H20Machine) Share(fig topo.Figures) (NICShare, error) {
	fig.NICBW = m.NICLineRate
	lv, err := m.Topology.Levels(fig)
	if err != nil {
		return NICShare{}, fmt.Errorf("%s: %w", m.Name, err)
	}
	n := len(m.Topology.NICs())
	return NICShare{NICs: n, GPUsPerNIC: lv.GPUsPerNIC, PerGPU: lv.Inter.BW, Egress: float64(n) * m.NICLineRate, Ratio: lv.Ratio()}, nil
}

// activeShare returns the network bandwidth of the busiest of the GPUs
// active when they send at once, each through its closest NIC
// (topo.NICAssignment), in bytes per second:
//
//	BW = lineRate / max over NICs of #{active GPUs assigned to the NIC}
//
// It is NaN when active is empty or none of its GPUs has a NIC.
func activeShare(t *topo.Topology, lineRate float64, active []int) float64 {
	assign := t.NICAssignment()
	load := map[int]int{}
	most := 0
	for _, g := range active {
		if n := assign[g]; n >= 0 {
			load[n]++
			most = max(most, load[n])
		}
	}
	return commmodel.SharedNICBW(lineRate, most)
}

// spreadOrder returns t's GPUs in the order that keeps NIC sharing lowest as
// GPUs are added one by one: each next GPU is the lowest-index one whose
// closest NIC has the fewest GPUs chosen so far.
func spreadOrder(t *topo.Topology) []int {
	assign := t.NICAssignment()
	load := map[int]int{}
	left := make([]int, len(assign))
	for g := range left {
		left[g] = g
	}
	var out []int
	for len(left) > 0 {
		best := 0
		for i, g := range left {
			if load[assign[g]] < load[assign[left[best]]] {
				best = i
			}
		}
		g := left[best]
		out = append(out, g)
		load[assign[g]]++
		left = slices.Delete(left, best, best+1)
	}
	return out
}

// MeasuredNetworkRate is the per-GPU network rate measured on the public
// H20-3e VMs: the peak over sizes of the bytes each GPU sends to the other
// node (commmodel.Cluster.NetworkBytes of direct AllToAll) over the
// measured out-of-place time.
type MeasuredNetworkRate struct {
	// Nodes and PerNode are the shape of the run (2 VMs x 2 GPUs).
	Nodes, PerNode int
	// Size is the message size of the peak, in bytes.
	Size float64
	// Time is the measured time at Size, in seconds.
	Time float64
	// NetworkBytes is what one GPU sends across the network at Size, in bytes.
	NetworkBytes float64
	// BW is NetworkBytes / Time, in bytes per second.
	BW float64
	// Source names the log.
	Source string
}

// publicNetworkRate reads PublicH20AllToAllLog as AllToAll and returns its
// peak per-GPU network rate (NetworkRate).
func publicNetworkRate() (MeasuredNetworkRate, error) {
	l, err := data.PublicLog(PublicH20AllToAllLog, &nccltests.Options{Collective: "alltoall"})
	if err != nil {
		return MeasuredNetworkRate{}, err
	}
	if len(l.Tests) != 1 {
		return MeasuredNetworkRate{}, fmt.Errorf("%s: %d tests, want 1", PublicH20AllToAllLog, len(l.Tests))
	}
	return networkRate(l.Tests[0])
}

// NetworkRate returns the peak over sizes of the per-GPU network rate of a
// multi-node AllToAll test: the bytes each GPU sends to other nodes
// (commmodel.Cluster.NetworkBytes of direct AllToAll, on the test's nodes
// and ranks) over the out-of-place time.
func networkRate(ts *nccltests.Test) (MeasuredNetworkRate, error) {
	if ts.Nodes < 2 || ts.Ranks%ts.Nodes != 0 {
		return MeasuredNetworkRate{}, fmt.Errorf("%s: %d ranks on %d nodes is not a multi-node run of equal nodes", ts.Source, ts.Ranks, ts.Nodes)
	}
	c := commmodel.Cluster{Nodes: ts.Nodes, PerNode: ts.Ranks / ts.Nodes}
	best := MeasuredNetworkRate{Nodes: c.Nodes, PerNode: c.PerNode, Source: ts.Source}
	for _, s := range data.TestSamples(ts, nccltests.OutOfPlace) {
		b := c.NetworkBytes(commmodel.Direct{}, s.Size)
		if bw := b / s.Time; bw > best.BW {
			best.Size, best.Time, best.NetworkBytes, best.BW = s.Size, s.Time, b, bw
		}
	}
	if best.BW == 0 {
		return MeasuredNetworkRate{}, fmt.Errorf("%s: no out-of-place times", ts.Source)
	}
	return best, nil
}

// MachinesTable sets the machines side by side, one row per property, all
// computed from their topologies: devices, fabric, NUMA layout, PIX pairs,
// NIC sharing, GPUDirect RDMA at NCCL's default level, and the NIC arithmetic
// with the per-link figures fig (Share).
func MachinesTable(ms []H20Machine, fig topo.Figures) (figure.Table, error) {
	tb := figure.Table{Header: []string{"property"}}
	rows := [][]string{
		{"source"}, {"GPUs, NICs"}, {"GPU fabric"}, {"NUMA layout"}, {"PIX pairs (GPU-NIC under one PCIe switch)"},
		{"GPUs with a PIX NIC"}, {"GPUs sharing a NIC (closest-NIC assignment)"},
		{"GDR advisable at NCCL_NET_GDR_LEVEL=PXB"}, {"NIC line rate"}, {"node network egress"},
		{"network BW per GPU, all GPUs sending"}, {"intra / inter BW (article: 17.5)"}, {"measured network BW per GPU"},
	}
	for _, m := range ms {
		t := m.Topology
		sh, err := m.Share(fig)
		if err != nil {
			return figure.Table{}, err
		}
		tb.Header = append(tb.Header, m.Name)
		var numa, pixPairs, sharing, gdr []string
		withPIX := 0
		for _, node := range t.NUMANodes() {
			g, n := t.OnNUMA(node)
			numa = append(numa, fmt.Sprintf("NUMA%d: %s, %s", node, gpuList(t, g), nicList(t, n)))
		}
		for n, gs := range PIXGroups(t) {
			for _, g := range gs {
				pixPairs = append(pixPairs, t.GPU(g).Name+"-"+t.NIC(n).Name)
			}
		}
		for g := range t.GPUs() {
			if slices.ContainsFunc(PIXGroups(t), func(gs []int) bool { return slices.Contains(gs, g) }) {
				withPIX++
			}
		}
		for n, gs := range t.NICGroups() {
			if len(gs) > 1 {
				sharing = append(sharing, gpuList(t, gs)+" on "+t.NIC(n).Name)
			}
		}
		var gdrGPUs []int
		for g, b := range t.Bindings() {
			if b.GDR {
				gdrGPUs = append(gdrGPUs, g)
			}
		}
		gdr = append(gdr, fmt.Sprintf("%d of %d: %s", len(gdrGPUs), len(t.GPUs()), orNone(gpuList(t, gdrGPUs))))
		meas := "-"
		if mr := m.Measured; mr.BW > 0 {
			meas = fmt.Sprintf("%s (peak of %d x %d AllToAll: %s over the network in %s at S = %s)", units.FormatBandwidth(mr.BW), mr.Nodes, mr.PerNode,
				units.FormatSize(mr.NetworkBytes), units.FormatDuration(mr.Time), units.FormatSize(mr.Size))
		}
		vals := []string{
			m.Source,
			fmt.Sprintf("%d, %d", len(t.GPUs()), sh.NICs),
			topo.InferFabric(t).String(),
			strings.Join(numa, "; "),
			orNone(strings.Join(pixPairs, ", ")),
			fmt.Sprintf("%d of %d", withPIX, len(t.GPUs())),
			orNone(strings.Join(sharing, "; ")),
			strings.Join(gdr, ""),
			units.FormatBandwidth(m.NICLineRate) + " (" + m.LineRateSource + ")",
			fmt.Sprintf("%d x %s = %s", sh.NICs, units.FormatBandwidth(m.NICLineRate), units.FormatBandwidth(sh.Egress)),
			fmt.Sprintf("%s / %d = %s", units.FormatBandwidth(m.NICLineRate), sh.GPUsPerNIC, units.FormatBandwidth(sh.PerGPU)),
			fmt.Sprintf("%.1f", sh.Ratio),
			meas,
		}
		for i := range rows {
			rows[i] = append(rows[i], vals[i])
		}
	}
	tb.Rows = rows
	return tb, nil
}

// gpuList and nicList write t's GPUs or NICs of the given indices by their
// names (nameList): a capture's NICs need not be numbered from 0, as on a VM
// that passes NIC2..NIC5 through.
func gpuList(t *topo.Topology, idx []int) string {
	return nameList("GPU", idx, func(i int) string { return t.GPU(i).Name })
}

func nicList(t *topo.Topology, idx []int) string {
	return nameList("NIC", idx, func(i int) string { return t.NIC(i).Name })
}

// nameList writes the devices of the given indices by name: as indexList of
// their numbers when every name is prefix and a number, else the names.
func nameList(prefix string, idx []int, name func(int) string) string {
	nums := make([]int, 0, len(idx))
	names := make([]string, 0, len(idx))
	numbered := true
	for _, i := range idx {
		n := name(i)
		names = append(names, n)
		k, err := strconv.Atoi(strings.TrimPrefix(n, prefix))
		numbered = numbered && err == nil && strings.HasPrefix(n, prefix)
		nums = append(nums, k)
	}
	if !numbered {
		return strings.Join(names, ", ")
	}
	return indexList(prefix, nums)
}

// indexList writes device indices with a prefix, runs of three or more
// consecutive indices as ranges: indexList("GPU", {0,1,2,3}) is "GPU0-3",
// indexList("GPU", {1,3,4}) is "GPU1, GPU3, GPU4".
func indexList(prefix string, idx []int) string {
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("%s%d-%d", prefix, idx[i], idx[j]))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, prefix+strconv.Itoa(idx[k]))
			}
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

func numaString(n int) string {
	if n < 0 {
		return "?"
	}
	return strconv.Itoa(n)
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
