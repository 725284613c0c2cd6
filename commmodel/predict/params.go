package predict

import (
	"math"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// The parameters of the calibrated model, in the order of Machine.Params;
// params describes each.
const (
	parLaunch = iota
	parBase
	parIntra
	parInter
	parIntraBW
	parNICBW
	parLL
	parLL128
	parNVLS
	parTree
	parChain
	parFabric
	parPeer
	parChannel
	numParams
)

// A param describes one parameter of the calibrated model: everything
// that calibration, the interval and the report need of it. Adding a
// parameter means an index above and an entry in params.
type param struct {
	// name, unit and doc are what Machine.Params reports.
	name, unit, doc string
	// prior is the value the fit is pulled towards (the package
	// documentation gives each one's source); latency factors are
	// dimensionless, scaled to seconds by Machine.latencyUnits.
	prior func(m *Machine) float64
	// uses reports that the time of t depends on the parameter.
	uses func(t *term) bool
	// narrow and wide are the largest and the least width of the prior of
	// the parameter's log, 0 for Settings.PriorWidth alone.
	narrow, wide float64
}

// params describes every parameter, by its index.
var params = [numParams]param{
	// The launch's prior is the vendor's: RCCL's host spends more on each
	// GPU it drives, and adds rcclLaunches to every call (Layout.launches).
	parLaunch: {name: "launch", unit: "s",
		doc: "host time of one kernel launch; a call costs at least GPUs-per-thread launches, and under RCCL a fixed few more, none with CUDA graphs",
		prior: func(m *Machine) float64 {
			if m.refs.runsRCCL() {
				return launchPriorRCCL
			}
			return launchPrior
		},
		uses: func(t *term) bool { return t.launches > 0 }},
	parBase: {name: "base_latency", unit: "s",
		doc:   "NCCL's base latency of Ring/LL, scaled (every algorithm and protocol by the same factor)",
		prior: func(*Machine) float64 { return 1 },
		uses:  func(t *term) bool { return t.lat[0] > 0 }},
	parIntra: {name: "intra_step_latency", unit: "s",
		doc:   "NCCL's NVLink (PCI) latency of one Ring/LL step, scaled likewise",
		prior: func(*Machine) float64 { return 1 },
		uses:  func(t *term) bool { return t.lat[1] > 0 }},
	// The network's latency differs from NCCL's figure by as much as public
	// networks spread about it (NetworkSlower, up to 16 times on EFA, GCP's
	// TCPXO and RCCL over RoCE): its prior is that wide, so that a table
	// across nodes fits such a network's latency.
	parInter: {name: "inter_step_latency", unit: "s",
		doc:   "NCCL's network latency of one Ring/LL step, scaled likewise (and an AllToAll's cost per network peer with it)",
		prior: func(m *Machine) float64 { return m.Hardware.netLatency() },
		uses:  func(t *term) bool { return t.lat[2] > 0 || t.peers > 0 },
		wide:  NetworkSlower},
	// NVLink's bandwidth belongs to the GPU board and its switches, alike
	// on every machine of a product, while the network's depends on the
	// cluster (its NICs' count, rate and PCIe paths, its switches): its
	// prior is at most ln 2 wide, so that where a table of several nodes
	// runs slower than both priors allow, the fit looks for the cause in
	// the network first.
	parIntraBW: {name: "intra_bw", unit: "B/s",
		doc:    "one GPU's NVLink (PCIe) egress with Simple",
		prior:  (*Machine).intraPrior,
		uses:   func(t *term) bool { return t.intra > 0 },
		narrow: math.Ln2},
	parNICBW: {name: "nic_bw", unit: "B/s",
		doc:   "one NIC's bandwidth with Simple",
		prior: func(m *Machine) float64 { return m.Hardware.nicBW() },
		uses:  func(t *term) bool { return t.net > 0 }},
	parLL: {name: "ll_efficiency", unit: "1",
		doc:   "LL's bandwidth as a share of Simple's",
		prior: func(*Machine) float64 { return commmodel.LL.Efficiency() },
		uses:  func(t *term) bool { return t.divides(parLL) }},
	parLL128: {name: "ll128_efficiency", unit: "1",
		doc:   "LL128's bandwidth as a share of Simple's; above 1 where the tables ran LL128 faster than the model's Simple at the same sizes (NCCL's own tuning model takes 0.92 of Simple's for Ring, 120 of every 128 bytes being data, and caps it per channel: src/graph/tuning.cc)",
		prior: func(*Machine) float64 { return commmodel.LL128.Efficiency() },
		uses:  func(t *term) bool { return t.divides(parLL128) }},
	parNVLS: {name: "nvls_efficiency", unit: "1",
		doc: "NVLS's bandwidth on NVLink as a share of the egress model's",
		prior: func(m *Machine) float64 {
			if e := nccl.DefaultConstants(m.version).NVLSEfficiency[nccl.ArchOf(m.Hardware.GPU.CompCap)]; e > 0 {
				return e
			}
			return 0.85
		},
		uses: func(t *term) bool { return t.divides(parNVLS) }},
	parTree: {name: "tree_efficiency", unit: "1",
		doc:   "Tree's bandwidth as a share of the egress model's",
		prior: func(*Machine) float64 { return 0.92 },
		uses:  func(t *term) bool { return t.divides(parTree) }},
	parChain: {name: "chain_efficiency", unit: "1",
		doc:   "Broadcast's and Reduce's ring bandwidth across nodes as a share of the NICs'",
		prior: func(*Machine) float64 { return 1 },
		uses:  func(t *term) bool { return t.netEff == parChain && t.net > 0 }},
	parFabric: {name: "fabric_oversubscription", unit: "1",
		doc: "the NICs' bandwidth over the network's above a group of nodes (a leaf switch, a dragonfly group)",
		prior: func(m *Machine) float64 {
			if o := m.Hardware.Oversubscription; o > 0 {
				return o
			}
			return 1
		},
		uses: func(t *term) bool { return t.leave > 0 && t.net > 0 }},
	// A rank's grouped sends cost it this much per network peer on a
	// network of NCCL's latency, times inter_step_latency's departure from
	// it, whatever the protocol: its proxy thread serves every network send
	// and receive in turn (terms.go, p2pLatency). The prior is what the public
	// multi-node AllToAll tables of small messages measure (the package
	// documentation gives them); only AllToAll tables with messages of a
	// few KiB per peer identify it, and beyond their peers the interval
	// widens (peerSpread).
	parPeer: {name: "p2p_peer_latency", unit: "s",
		doc:   "the time one rank's grouped sends (AllToAll) take per network peer on a network of NCCL's latency: its proxy's send, receive and completion of each",
		prior: func(*Machine) float64 { return peerPrior },
		uses:  func(t *term) bool { return t.peers > 0 }},
	// A channel carries this much over the network (terms.go): of grouped
	// sends to a network peer (p2pChannels), or of an LL or LL128
	// collective across nodes under NCCL, before the efficiencies of its
	// protocol and algorithm (termOf);
	// NCCL's own figure for grouped sends its prior. It binds where a rank
	// has few network peers and NCCL gives each few channels (a SendRecv
	// across many ranks), and where NCCL runs a collective's mid sizes on
	// fewer channels than the NICs need; such tables identify it.
	parChannel: {name: "channel_bw", unit: "B/s",
		doc:   "the bandwidth one channel carries over the network: of grouped sends (SendRecv, AllToAll) to a peer, or of an LL or LL128 collective across nodes before its protocol's and algorithm's efficiencies",
		prior: func(*Machine) float64 { return nccl.P2PChannelNetBW },
		uses:  func(t *term) bool { return t.channels > 0 }},
}

// launchPrior is the prior of the launch under NVIDIA's NCCL, s: the
// public H20 run's empty-call floor (data's claims). launchPriorRCCL is
// RCCL's, c1 of its floor c0 + c1·G (rcclLaunches gives the source).
const (
	launchPrior     = 3.1e-6
	launchPriorRCCL = 4.6e-6
)

// peerPrior is the prior of p2p_peer_latency, s per network peer.
const peerPrior = 2.2e-6

// divides reports that efficiency parameter k divides t's bandwidth.
func (t *term) divides(k int) bool {
	return (t.eff[0] == k || t.eff[1] == k) && (t.intra > 0 || t.net > 0)
}

// prior returns the prior values of the parameters.
func (m *Machine) prior() [numParams]float64 {
	var x [numParams]float64
	for k := range params {
		x[k] = params[k].prior(m)
	}
	return x
}

// used reports which parameters some point depends on.
func (d *design) used() [numParams]bool {
	var u [numParams]bool
	for i := range d.terms {
		for k := range params {
			u[k] = u[k] || params[k].uses(&d.terms[i])
		}
	}
	return u
}

// width is the prior's width of parameter k's log: PriorWidth, but at
// most the parameter's narrow width, and for intra_bw of a GPU whose links
// are assumed at least wideWidth.
func (s Settings) width(k int) float64 {
	if k == parIntraBW && s.wideLinks {
		return max(s.PriorWidth, wideWidth)
	}
	if n := params[k].narrow; n > 0 {
		return min(s.PriorWidth, n)
	}
	return max(s.PriorWidth, params[k].wide)
}
