package predict

import (
	"fmt"
	"slices"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// A run is what fixes NCCL's tuner for a table or a query: the hardware, the
// shape, the NCCL version and the NCCL_ALGO/NCCL_PROTO pins; and its launch
// layout (normalised).
type run struct {
	shape        shape
	version      nccl.Version
	algo, proto  string
	layout       Layout
	collective   commmodel.Collective
	versionGuess bool // the version was unknown and Latest is assumed
	versionClamp bool // the version is outside the model's releases (older or newer)
	// collNet reports that the run had CollNet set up whatever the
	// machine's collnet says: its NCCL_ALGO left its collective only
	// CollNet (tableCollNet; a query's likewise, Machine.run), and the
	// user did not say the machine has none (noCollNet).
	collNet bool
}

// FollowedRelease returns the NCCL release whose tuning model the model
// runs for release v (versionOf): v itself where the model follows it,
// else the nearest it does. The zero Version gives Latest.
func FollowedRelease(v nccl.Version) nccl.Version {
	tuner, _, _ := versionOf(v)
	return tuner
}

// versionOf returns the version the tuner model runs for v: v itself,
// Latest for the zero value and for releases after the series it follows,
// and Oldest (2.18) for releases before it, 2.8 included although
// commmodel/nccl tabulates it (see the package documentation). guess
// reports the zero value (an unknown release), outside a release outside
// those the model follows.
func versionOf(v nccl.Version) (tuner nccl.Version, guess, outside bool) {
	switch {
	case v == (nccl.Version{}):
		return nccl.Latest, true, false
	case v.Before(nccl.Oldest):
		return nccl.Oldest, false, true
	case v.Supported() != nil:
		return nccl.Latest, false, true
	}
	return v, false, false
}

// tableRun is the run of table t on h.
func tableRun(h *Hardware, t *Table) (*run, error) {
	if err := h.check(); err != nil {
		return nil, err
	}
	s, err := h.tableShape(t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Name, err)
	}
	v, guess, clamp := versionOf(t.Version)
	return &run{shape: s, version: v, algo: nccl.AlgoListAt(t.Version, v, t.Algo), proto: t.Proto, layout: t.Layout.norm(),
		collective: t.Collective, versionGuess: guess, versionClamp: clamp, collNet: tableCollNet(t) && !h.noCollNet()}, nil
}

// noCollNet reports that the user said the machine has no CollNet
// (-hw collnet=false): a pin that leaves only CollNet is then refused
// (ErrPin), a table's run as a query's.
func (h *Hardware) noCollNet() bool { return h.Sources.CollNet == SourceUser && !h.CollNet }

// tableCollNet reports that table t's NCCL_ALGO leaves its collective only
// CollNet's algorithms (onlyCollNet): NCCL fails a call that no enabled
// algorithm can run, so a run measured under it had CollNet set up
// (NCCL_COLLNET_ENABLE=1 and a network plugin whose switches reduce),
// whatever the machine's collnet says of other runs.
func tableCollNet(t *Table) bool {
	// Read as the release the model runs the table under reads it, the
	// names of the table's own translated (nccl.AlgoListAt), as tableRun
	// runs it.
	v, _, _ := versionOf(t.Version)
	return onlyCollNet(nccl.AlgoListAt(t.Version, v, t.Algo), t.Collective, v)
}

// collNetShown reports that the machine is known to run CollNet: its
// collnet fact, or a calibration table's run (tableCollNet).
func (m *Machine) collNetShown() bool {
	return m.Hardware.CollNet || slices.ContainsFunc(m.tables, func(t Table) bool { return tableCollNet(&t) })
}

// pinnable returns the algorithms m's choices and findings try pinning:
// NCCL's, but CollNet's where the machine is not known to run them
// (collNetShown), since a pin that leaves only CollNet takes it as set up.
func (m *Machine) pinnable() []nccl.Algo {
	var out []nccl.Algo
	collNet := m.collNetShown()
	for a := range nccl.Algo(nccl.NumAlgos) {
		if a.CollNet() && !collNet {
			continue
		}
		out = append(out, a)
	}
	return out
}

// onlyCollNet reports that NCCL_ALGO=algo leaves c only CollNet's
// algorithms under release v, the newest for the zero Version
// (nccl.OnlyCollNet).
func onlyCollNet(algo string, c commmodel.Collective, v nccl.Version) bool {
	f, err := nccl.FuncOf(c)
	if err != nil {
		return false
	}
	if v == (nccl.Version{}) {
		v = nccl.Latest
	}
	return nccl.OnlyCollNet(v, f, algo)
}

// run returns the run of q on m.
func (m *Machine) run(q Query) (*run, error) {
	if err := m.Hardware.check(); err != nil {
		return nil, err
	}
	if !slices.Contains(commmodel.Collectives(), q.Collective) {
		return nil, queryError(fmt.Sprintf("predict: %v is not a collective: want one of %s", q.Collective, commmodel.CollectiveNames()))
	}
	if q.Ranks < 1 || q.PerNode < 1 {
		return nil, fmt.Errorf("%w: %d ranks, %d per node", ErrShape, q.Ranks, q.PerNode)
	}
	if q.Ranks%q.PerNode != 0 {
		return nil, fmt.Errorf("%w: %d ranks is not a multiple of %d GPUs per node", ErrShape, q.Ranks, q.PerNode)
	}
	if err := q.Layout.check(); err != nil {
		return nil, err
	}
	l := m.Layout(q)
	if !l.fills(q.PerNode) {
		return nil, fmt.Errorf("%w: %d GPUs per node are not a whole number of processes (threads per process %d, GPUs per thread %d)",
			ErrLayout, q.PerNode, l.ThreadsPerProcess, l.GPUsPerThread)
	}
	s, err := m.Hardware.queryShape(q)
	if err != nil {
		return nil, err
	}
	v := q.Version
	if v != (nccl.Version{}) && !v.Release() {
		return nil, queryError(fmt.Sprintf("predict: Query.Version %v is no NCCL release: want 2.MINOR.PATCH, or the zero Version for the calibration's newest", v))
	}
	if v == (nccl.Version{}) {
		v = m.version
	}
	ran := v
	v, _, _ = versionOf(v)
	rn := &run{shape: s, version: v, algo: nccl.AlgoListAt(ran, v, q.Algo), proto: q.Proto, layout: l, collective: q.Collective}
	// A query that leaves only CollNet runs it, as NCCL would only where
	// the job set it up (Beyond says so where nothing showed CollNet),
	// unless the user said the machine has none.
	rn.collNet = onlyCollNet(rn.algo, q.Collective, v) && !m.Hardware.noCollNet()
	// NCCL's model of the run checks what only it knows (its rank count,
	// the pins under the run's version, whether they leave the collective
	// anything to run, which no size changes), so that a query NCCL would
	// refuse is an error before any size: Predict with no sizes, Beyond.
	ref, err := m.refs.get(rn)
	if err != nil {
		return nil, refusedQuery{err}
	}
	if f, err := nccl.FuncOf(q.Collective); err == nil {
		if _, err := ref.tuned(f, 1); err != nil {
			return nil, err
		}
	}
	return rn, nil
}

// refusedQuery is a query's error (queryError), or NCCL's model's of it
// (nccl.New: an unknown or excluding pin, more ranks than NCCL counts),
// which errors.Is takes for ErrQuery, with its own text and cause.
type refusedQuery struct{ err error }

func (e refusedQuery) Error() string        { return e.err.Error() }
func (e refusedQuery) Unwrap() error        { return e.err }
func (e refusedQuery) Is(target error) bool { return target == ErrQuery }

// check reports a fact of h out of the range Describe takes, naming the
// field and what it takes: a Hardware built in code is held to the same
// bounds as a description, each field's zero value (its default) allowed.
// Every run of a table or a query passes here, so Calibrate, Predict and
// the functions that time a Query on a Hardware refuse it alike.
func (h *Hardware) check() error {
	counts := []struct {
		name    string
		n, most int
	}{{"NVLinks", h.NVLinks, topo.MaxLinks}, {"NICs", h.NICs, maxNICs}, {"RunNICs", h.RunNICs, maxNICs}, {"RunGPUs", h.RunGPUs, maxCount}, {"Domain", h.Domain, maxCount}, {"Group", h.Group, maxCount}, {"Channels", h.Channels, maxCount}, {"ChannelsGPUs", h.ChannelsGPUs, maxCount}}
	for _, c := range counts {
		if c.n < 0 || c.n > c.most {
			return fmt.Errorf("%w: Hardware.%s %d: want 0 (its default) or a count up to %d", ErrHardware, c.name, c.n, c.most)
		}
	}
	if !(h.NICBW == 0 || h.NICBW >= minRate && h.NICBW <= maxNICRate) {
		return fmt.Errorf("%w: Hardware.NICBW %g B/s: want 0 (the GPU generation's NIC) or a rate in bytes a second from %g to %g, such as 50e9 for 400 Gb/s", ErrHardware, h.NICBW, minRate, maxNICRate)
	}
	if !(h.HostBW == 0 || h.HostBW >= minRate && h.HostBW <= maxLinkRate) {
		return fmt.Errorf("%w: Hardware.HostBW %g B/s: want 0 (HostCopyBW) or a bus bandwidth in bytes a second from %g to %g, such as 18e9", ErrHardware, h.HostBW, minRate, maxLinkRate)
	}
	if pcie := h.intraBW(); h.hostCopy() && h.HostBW > pcie {
		// A copy through host memory goes over the cards' PCIe, as
		// Describe's host-bw says.
		return fmt.Errorf("%w: Hardware.HostBW %g B/s: a copy through host memory goes over the cards' PCIe, %s's at %g B/s: want a rate up to it", ErrHardware, h.HostBW, h.GPU.Name, pcie)
	}
	if !(h.Oversubscription == 0 || h.Oversubscription >= 1 && h.Oversubscription < maxOversub) {
		return fmt.Errorf("%w: Hardware.Oversubscription %g: want 0 (non-blocking) or a ratio from 1 to under %g, such as 2 for 2:1", ErrHardware, h.Oversubscription, float64(maxOversub))
	}
	if !(h.NetLatency == 0 || h.NetLatency >= minNetLatency && h.NetLatency <= maxNetLatency) {
		return fmt.Errorf("%w: Hardware.NetLatency %g: want 0 (NCCL's figure) or a multiple of it from %g to %g, such as 16", ErrHardware, h.NetLatency, minNetLatency, float64(maxNetLatency))
	}
	return h.checkKinds()
}

// checkKinds reports, as check does, a GPU or a kind of fact out of the
// range Describe takes: a compute capability outside 3.0 to 19.9 (the zero
// GPU of a Hardware built without nccl.ParseGPU has none), links or a link
// rate that are negative, NaN or infinite, a PCIe generation other than 0
// (unknown) or 3 to 6, and a Fabric, NICPath or CPU that is none of its
// constants (NICPath up to nccl.PathSYS, 0 meaning PIX).
func (h *Hardware) checkKinds() error {
	g := &h.GPU
	switch {
	case g.CompCap < 30 || g.CompCap >= 200:
		return fmt.Errorf("%w: Hardware.GPU.CompCap %d: want a compute capability times ten from 30 to 199, such as 90 for 9.0 (nccl.ParseGPU or DefaultHardware gives the GPU's)", ErrHardware, g.CompCap)
	case g.NVLinks < 0 || g.NVLinks > topo.MaxLinks || g.BridgeLinks < 0 || g.BridgeLinks > topo.MaxLinks:
		return fmt.Errorf("%w: Hardware.GPU.NVLinks %d, BridgeLinks %d: want counts up to %d", ErrHardware, g.NVLinks, g.BridgeLinks, topo.MaxLinks)
	case !(g.NVLinkBW == 0 || g.NVLinkBW >= minRate && g.NVLinkBW <= maxLinkRate):
		return fmt.Errorf("%w: Hardware.GPU.NVLinkBW %g B/s: want 0 (no NVLink) or one link's rate in one direction, in bytes a second, from %g to %g, such as 25e9", ErrHardware, g.NVLinkBW, minRate, maxLinkRate)
	case g.PCIeGen != 0 && (g.PCIeGen < 3 || g.PCIeGen > 6):
		return fmt.Errorf("%w: Hardware.GPU.PCIeGen %d: want 0 (unknown) or 3 to 6", ErrHardware, g.PCIeGen)
	case h.Fabric < FabricPCIe || h.Fabric > FabricInfinity:
		return fmt.Errorf("%w: Hardware.Fabric %d: want FabricPCIe, FabricNVSwitch, FabricMesh or FabricInfinity", ErrHardware, int(h.Fabric))
	case h.NICPath < 0 || h.NICPath > nccl.PathSYS:
		return fmt.Errorf("%w: Hardware.NICPath %d: want 0 (PIX) or a path from nccl.PathPIX to nccl.PathSYS", ErrHardware, int(h.NICPath))
	case h.CPU.Arch < nccl.X86 || h.CPU.Arch > nccl.ARM || h.CPU.Vendor < nccl.Intel || h.CPU.Vendor > nccl.OtherVendor:
		return fmt.Errorf("%w: Hardware.CPU %+v: want an nccl.CPUArch and nccl.CPUVendor of their constants", ErrHardware, h.CPU)
	}
	return nil
}

// shape is the model's view of a run: nodes (NVLink domains) of per GPUs,
// and the hosts each node spans.
type shape struct {
	nodes, per, hosts int
}

// DomainsOf returns how the model splits nodes hosts of hostGPUs GPUs
// each into NVLink domains of domain GPUs (Hardware.Domain): a run within
// one domain is one domain of them all, and a larger run the fewest
// domains that hold it, of hostsEach hosts each; ok is false where those
// cannot be equal. hostGPUs is a host's GPUs, not a run's on it: a run of
// one GPU on each of 36 GB200 hosts of 4 spans two racks of 18 hosts, as
// NCCL counts them (two nodes), not one. A domain of no more than a host's
// GPUs leaves every host a domain. No hosts (nodes below 1) is not ok.
func DomainsOf(domain, nodes, hostGPUs int) (domains, hostsEach int, ok bool) {
	if nodes < 1 {
		return 0, 0, false
	}
	hostsPer := domainHosts(domain, hostGPUs)
	if hostsPer <= 1 || nodes == 1 {
		return nodes, 1, true
	}
	d := (nodes-1)/hostsPer + 1 // the ceiling, which nodes+hostsPer-1 overflows near MaxInt
	return d, nodes / d, nodes%d == 0
}

// domainHosts is the hosts of hostGPUs GPUs in an NVLink domain of domain
// GPUs, 1 where a domain is no more than a host.
func domainHosts(domain, hostGPUs int) int {
	if hostGPUs < 1 || domain <= hostGPUs { // a host of no GPUs known: every host its own
		return 1
	}
	return domain / hostGPUs
}

// Domains is DomainsOf for a run of nodes hosts of perHost GPUs on h
// (HostGPUs).
func (h *Hardware) Domains(nodes, perHost int) (domains, hostsEach int, ok bool) {
	return DomainsOf(h.Domain, nodes, h.HostGPUs(perHost))
}

// HostGPUs returns the GPUs of a host that a run of perHost GPUs a host
// runs on: those h gives a host (gpus_per_node, known or at least), or
// perHost where those are fewer or unknown.
func (h *Hardware) HostGPUs(perHost int) int { return max(perHost, h.hostGPUs) }

// runDomains returns the NVLink domains table t's run spanned and the
// hosts of each, as its NCCL_DEBUG=INFO comm line says them, ok false
// where it does not (one host, no such line, or domains the hosts do not
// fill alike). Under MNNVL NCCL takes a node for an NVLink clique, and
// nNodes counts the cliques (nccltests.Evidence.MNNVL): "nNodes 1 ...
// MNNVL 1" on 2 hosts is one domain of both, "nNodes 2 ... MNNVL 1" two
// of one host each. Without it (MNNVL 0: no IMEX channel, hosts of
// separate racks, NCCL_MNNVL_ENABLE=0, which a log without the comm line
// may say alone) every host is a node. Cliques the hosts do not fill
// alike (nNodes that does not divide them, or localRanks other than a
// clique's share of them) are not modelled: ok is false.
func runDomains(t *Table) (domains, hostsEach int, ok bool) {
	e := &t.Evidence
	_, off := mnnvlOff(t)
	if t.Nodes < 2 || !e.MNNVL.Known() && !off {
		return 0, 0, false
	}
	if !e.MNNVL.Value {
		return t.Nodes, 1, true
	}
	n := e.Nodes.Value
	if !e.Nodes.Known() || n < 1 || t.Nodes%n != 0 {
		return 0, 0, false
	}
	// localRanks is the printing rank's clique's: of equal cliques, all
	// of its hosts' GPUs.
	if l := e.LocalRanks; l.Known() && l.Value != t.Nodes/n*t.PerNode {
		return 0, 0, false
	}
	return n, t.Nodes / n, true
}

// mnnvlOff returns the setting of table t's environment that turns MNNVL
// off at its release, where one does (nccltests.Evidence.MNNVLOff): a
// table that names no release is taken as one of 2.27.3 or later.
func mnnvlOff(t *Table) (nccltests.Setting, bool) { return t.Evidence.MNNVLOff(t.Version) }

// tableShape is the shape of table t's run on h (queryShape of its
// Query).
func (h *Hardware) tableShape(t *Table) (shape, error) { return h.queryShape(t.Query()) }

// queryShape is the shape of q's run on h: its hosts grouped into NVLink
// domains as the log of its table says NCCL grouped them (Query.ran, from
// runDomains), else as h's domain would (shapeOf).
func (h *Hardware) queryShape(q Query) (shape, error) {
	if s := q.ran; s.nodes > 0 && s.nodes*s.per == q.Ranks && s.hosts*q.PerNode == s.per {
		return s, nil
	}
	return h.shapeOf(q.Ranks/q.PerNode, q.PerNode)
}

// CheckDomain returns ErrShape where h's NVLink domain does not hold whole
// hosts, or a node of perHost GPUs: NVLink joins a host's GPUs to each
// other, so a domain is a whole number of hosts, and a node lies within
// one. A host is h's (gpus_per_node: GB200's tray of 4, whose runs may
// take a node of 8 GPUs of two trays inside a domain), or where h gives
// none, a run's perHost GPUs. A negative perHost is ErrQuery.
func (h *Hardware) CheckDomain(perHost int) error {
	if perHost < 0 {
		return fmt.Errorf("%w: %d GPUs a host: want a count, or 0 for the host's", ErrQuery, perHost)
	}
	if h.Domain < 0 || h.Domain > maxCount {
		return fmt.Errorf("%w: Hardware.Domain %d: want 0 (its default) or a count up to %d", ErrHardware, h.Domain, maxCount)
	}
	g := h.hostGPUs
	if g == 0 {
		g = perHost
	}
	switch {
	case h.Domain == 0 || g < 1:
		return nil
	case h.Domain%g != 0:
		return shapeError(fmt.Sprintf("predict: NVLink domains of %d GPUs do not hold whole hosts of %d GPUs: give a multiple of %d (domain=%d for every host its own domain), or the host's GPUs (gpus=N) where %d is not their count",
			h.Domain, g, g, g, g))
	case perHost > h.Domain:
		return shapeError(fmt.Sprintf("predict: a node of %d GPUs does not fit an NVLink domain of %d: give a node of at most %d GPUs, or a larger domain",
			perHost, h.Domain, h.Domain))
	}
	return nil
}

// shapeOf groups nodes hosts of perHost GPUs into NVLink domains
// (Domains). It is ErrShape when they cannot be equal.
func (h *Hardware) shapeOf(nodes, perHost int) (shape, error) {
	if err := h.CheckDomain(perHost); err != nil {
		return shape{}, err
	}
	d, hosts, ok := h.Domains(nodes, perHost)
	if !ok {
		return shape{}, shapeError(fmt.Sprintf("predict: %d hosts of %d GPUs do not split equally into NVLink domains of %d GPUs (%d hosts)", nodes, perHost, h.Domain, domainHosts(h.Domain, h.HostGPUs(perHost))))
	}
	return shape{d, hosts * perHost, hosts}, nil
}
