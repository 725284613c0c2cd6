package predict

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/levmar"
	"github.com/inframethod/commlab/units"
)

// Settings tune Calibrate; nil means the defaults.
type Settings struct {
	// PriorWidth is the standard deviation of the log of every parameter
	// around its prior; 0 means ln 3 (a factor of 3). intra_bw's is at
	// most ln 2: NVLink is the GPU board's, the network the cluster's.
	// inter_step_latency's is at least NetworkSlower: public networks'
	// latency lies up to 16 times the prior's figure.
	PriorWidth float64
	// Noise is the scale of the relative error of one table's points; 0
	// means 0.1. It sets how far the data outweighs the prior: a table's
	// mean squared log error counts 1/Noise² against the prior's
	// 1/PriorWidth² per parameter.
	Noise float64
	// Huber is the log error beyond which a point's weight falls as
	// Huber's (its pull grows linearly); 0 means 0.05.
	Huber float64
	// NoIntervals skips the leave-one-table-out refits that measure the
	// model's errors on tables it did not see: Predict's interval then
	// rests on the prior spread alone (interval.go).
	NoIntervals bool

	// wideLinks widens intra_bw's prior to wideWidth: the GPU's links are
	// assumed, not known (Hardware.assumedLinks).
	wideLinks bool
}

// wideWidth is the prior's width of intra_bw's log for a GPU whose links
// are assumed: a factor of 10 either way.
const wideWidth = math.Ln10

// check returns ErrSettings naming a field of s that is negative, NaN or
// infinite: 0 is its default, and nothing else describes a fit.
func (s *Settings) check() error {
	if s == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"PriorWidth", s.PriorWidth}, {"Noise", s.Noise}, {"Huber", s.Huber}} {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%w: Settings.%s %g: want 0 (its default) or a positive finite value", ErrSettings, f.name, f.v)
		}
	}
	return nil
}

func (s *Settings) withDefaults() Settings {
	var out Settings
	if s != nil {
		out = *s
	}
	if out.PriorWidth <= 0 {
		out.PriorWidth = math.Ln10 * math.Log10(3)
	}
	if out.Noise <= 0 {
		out.Noise = 0.1
	}
	if out.Huber <= 0 {
		out.Huber = 0.05
	}
	return out
}

// A Param is one calibrated parameter of a Machine.
type Param struct {
	// Name and Unit ("intra_bw", "B/s"); Doc says what it is.
	Name, Unit, Doc string
	// Value is the calibrated value and Prior the value the fit is pulled
	// towards, in Unit.
	Value, Prior float64
	// Used reports that some calibration point depends on the parameter;
	// an unused one stays at its prior.
	Used bool
	// Identified reports that the data, not the prior, fixes the value:
	// the posterior standard deviation of its log is under half the prior's.
	Identified bool
	// SD is that posterior standard deviation of the log (about the
	// relative uncertainty), from the fit's curvature.
	SD float64
}

// A Machine is the model calibrated on tables of one machine. Calibrate
// and Uncalibrated make one; the zero Machine and a nil *Machine are not
// usable (Predict and most methods panic). Its exported fields report the
// calibration and are read-only: changing one does not recalibrate the
// machine (a Hardware.NICBW changed after Calibrate leaves every prediction
// as it was, while some methods read other fields of Hardware anew), and
// voids the Concurrency guarantee. Calibrate anew on the changed Hardware.
type Machine struct {
	// GPU is the GPU name the tables share.
	GPU string
	// Hardware is the description the model was built on.
	Hardware Hardware
	// Tables names the calibration tables.
	Tables []string
	// Params are the parameters in a fixed order (see the package
	// documentation), with their units and whether the data identified
	// them.
	Params []Param
	// Notes say what the model assumed (an unknown NCCL version, one
	// older than the tuner model) and which parameters the tables could
	// not identify or pushed against their bound; first, the tables that
	// the other tables do not predict (offTables).
	Notes []string
	// Residual is the median relative error of the calibration points.
	Residual float64
	// LOO is, for each calibration table in order, the median relative
	// error of its points predicted by the refit without it (empty with
	// Settings.NoIntervals); LOOMedian is the median of those.
	LOO       []float64
	LOOMedian float64
	// HeldOutCoverage is the share of the calibration points inside an 80%
	// interval set without their table: each table's points predicted by
	// the refit without it (those of LOO), against the interval Predict
	// builds (interval.go) from the spread and NCCL weight of the other
	// tables' held-out errors alone, and from how the table departs from
	// the other tables (collective, nodes, layout). Those errors come from
	// refits that saw the table, so it is not package heldout's LeaveOneOut,
	// which calibrates anew without each table, refits included, at n times
	// the cost; but a table's own errors never widen its interval. NaN with
	// one table or Settings.NoIntervals.
	HeldOutCoverage float64
	// NCCLWeight is the weight of NCCL's uncalibrated model against the
	// calibration, in logs: a prediction is Calibrated^(1−w) · NCCL^w where
	// NCCL has a model. It is 0 unless the tables held out in turn show the
	// blend to be clearly better (the package documentation says when).
	NCCLWeight float64

	version nccl.Version
	// release is the nccl_version fact of the table whose release's
	// tuner version is (Table.VersionFact), zero without tables.
	release Fact
	x       [numParams]float64 // natural values; latency factors are dimensionless
	held    [numParams]bool    // on their physical bound, which the tables push against (fitResult)
	free    [numParams]float64 // the fit without the bounds where one holds (design.unbounded)
	spread  spread
	refs    *references
	// tables are the calibration tables, whose measured times bound what
	// a tuner rule may claim (measuredAt).
	tables []Table
	// job is the environment of the job the tuner's rules are for
	// (ForJob), "" where the tables' exclusions stand.
	job Env
	// ran holds, for tables within one node ([0]) and across nodes ([1]),
	// for each algorithm and protocol, the least and the most bytes of the
	// calibration points that ran them (0, 0 for none): where a tuner rule
	// may take them (unmeasured).
	ran [2][nccl.NumAlgos][nccl.NumProtocols][2]float64
	// own holds, for each protocol, the calibration points the model says
	// NCCL ran with it, each its size and measured/predicted (misfits):
	// where those near a size measured slower, a gain of the protocol
	// there counts for less (slowNear), and where most near a size lie
	// outside their intervals, no gain there counts (missesNear).
	own [nccl.NumProtocols][]ownPoint
}

// An ownPoint is a calibration point as the calibrated model predicts it:
// its size, bytes, the faster of its out-of-place and in-place times,
// seconds (the call ran that fast, as measuredAt takes it), its
// out-of-place time over the prediction's, the algorithm the model says
// ran it, with its table's
// collective and shape, whether the table ran NCCL's own choices
// (ncclOwn), and whether the measured time lies inside the prediction's
// 80% interval.
type ownPoint struct {
	size, time, ratio float64
	algo              string
	collective        commmodel.Collective
	ranks, perNode    int
	ncclOwn           bool
	inside            bool
}

// BlendWeight returns the weight of NCCL's uncalibrated model in m's
// predictions of collective c: NCCLWeight where NCCL's model times c, 0
// for grouped sends (AllToAll, SendRecv), which it does not.
func (m *Machine) BlendWeight(c commmodel.Collective) float64 {
	if grouped(c) {
		return 0
	}
	return m.NCCLWeight
}

// Version returns the NCCL release whose tuner the model runs when a query
// does not name one: the newest of the tables' (versionOf).
func (m *Machine) Version() nccl.Version { return m.version }

// RunsRCCL reports that the machine runs RCCL, AMD's NCCL, not NVIDIA's:
// its GPU is AMD's, or the catalog lacks the GPU and the calibration
// tables' logs say they ran RCCL (Evidence.RCCL).
func (m *Machine) RunsRCCL() bool { return m.refs.runsRCCL() }

// design holds the terms of every calibration point and the run of every
// table.
type design struct {
	runs   []*run
	terms  []term
	obs    []float64 // measured times
	table  []int     // the table of each point
	weight []float64 // 1 / points of its table
	// upper are the parameters' physical bounds (Machine.upper), 0 for
	// none.
	upper [numParams]float64
}

// Calibrate fits the machine's parameters to tables of one machine on
// hardware h (DefaultHardware of the tables' GPU is a start). Each table is
// modelled with the algorithm and protocol NCCL ran at each size: its pin,
// or NCCL's tuner's choice for the table's shape and version. The fit
// minimises, over the logs x of the parameters,
//
//	Σ_tables 1/n_t Σ_points ρ(ln(T(x)/t))/σ² + Σ_k (x_k − x0_k)²/(2w²)
//
// with ρ Huber's loss (quadratic up to Settings.Huber), σ = Settings.Noise
// and w = Settings.PriorWidth: each table counts once whatever its size
// count, and a parameter no table informs stays at its prior x0. Unless
// Settings.NoIntervals, with two tables or more it then refits without each
// table in turn; the errors of those refits on the tables they left out set
// the spread of Predict's interval. A single table sets it with its own
// errors at the fit, pooled with the prior's spread.
//
// Fewer points than parameters calibrate too: the priors hold what the
// points do not fix, and the parameters stay unidentified (Param), which
// widens the interval. It returns ErrSettings for a setting out of range,
// ErrMixedMachines naming every table's GPU
// when the GPU names differ, ErrTooFew with no table, and ErrBadTable for a
// table that cannot be modelled, naming it and its point, before any row
// is left out as a stall: a time of +Inf or NaN is a bad table.
func Calibrate(h Hardware, tables []Table, s *Settings) (*Machine, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	set := s.withDefaults()
	if len(tables) == 0 {
		return nil, fmt.Errorf("%w: no table", ErrTooFew)
	}
	if err := SameMachine(tables); err != nil {
		return nil, err
	}
	m := &Machine{GPU: tables[0].GPU, Hardware: h, refs: &references{hw: &h, rccl: RanRCCL(tables), m: map[runKey]*reference{}}}
	// Every table is checked before its stalls are left out: a time of
	// +Inf is a bad table, not a row that stalled (it was left out as one).
	for i := range tables {
		if err := tables[i].check(); err != nil {
			return nil, err
		}
	}
	tables, m.Notes = withoutStalls(tables)
	if len(tables) == 0 {
		return nil, fmt.Errorf("%w: every row of the tables stalled: %s", ErrTooFew, strings.Join(m.Notes, "; "))
	}
	switch {
	case h.assumedLinks():
		set.wideLinks = true
		what := h.GPU.Name + " is not in commlab's catalog"
		if h.GPU.Name == UnnamedGPU {
			what = "the logs name no GPU (-gpu NAME names it)"
		}
		describe := "-hw cc=X.Y,links=N,link-bw=RATE, or cc=X.Y,fabric=pcie,pcie=GEN for a PCIe card"
		switch {
		case RanRCCL(tables):
			describe = "the logs ran RCCL, so it is AMD's: -hw cc=X.Y,fabric=infinity,links=N,link-bw=RATE"
		case nccl.AMDName(h.GPU.Name):
			describe = "its name is AMD's: -hw cc=X.Y,fabric=infinity,links=N,link-bw=RATE"
		}
		m.Notes = append(m.Notes, fmt.Sprintf("%s: its links are assumed (%s), and intra_bw is calibrated from the tables with a prior 10x wide either way; describe the GPU: %s",
			what, h.Fabric, describe))
	case h.Fabric == FabricPCIe:
		// What NCCL gets between PCIe cards is P2P at the link's rate, or
		// a copy through host memory where P2P is off (GeForce cards have
		// none, nccl-tests#287; containers may hide it), or sockets: public
		// tables lie from near the rate to a tenth of it.
		set.wideLinks = true
	}
	d, notes, err := m.design(tables)
	if err != nil {
		return nil, err
	}
	m.Notes = append(m.Notes, notes...)
	used := d.used()
	x0 := m.prior()
	d.upper = m.upper(x0)
	all := d.bestFit(x0, used, set)
	m.x, m.held = all.x, all.held
	m.free = d.unbounded(x0, &all, used, set)
	for _, t := range tables {
		m.Tables = append(m.Tables, t.Name)
	}
	m.tables = tables
	m.ran = choiceSizes(tables, d)
	m.Params = m.params(x0, all, used, set)
	// Only a table of one node tells the cards' links from the NICs, and
	// only one whose ranks have GPUs of their own (the Rank lines' buses).
	oneNode := slices.ContainsFunc(tables, func(t Table) bool {
		ids := busIDs(&t)
		return t.Nodes == 1 && t.PerNode > 1 && (ids == "" || strings.Count(ids, ",")+1 == t.Ranks())
	})
	if note := m.beyondPCIe(oneNode); note != "" {
		m.Notes = append([]string{note}, m.Notes...) // before the notes that take the links as assumed
	}
	if r := m.x[parIntraBW] / h.intraBW(); h.Fabric == FabricPCIe && oneNode && r < 0.5 && !h.hostCopy() {
		// Cards the catalog gives no P2P copy through host memory at
		// their prior, HostCopyBW: no surprise to note.
		m.Notes = append(m.Notes, fmt.Sprintf("the tables fit intra_bw at %s, %.2f of the PCIe rate: between these cards NCCL got less than PCIe's rate, by P2P across the CPUs' link between sockets (nvidia-smi topo -m: SYS), a copy through host memory where P2P is off (GeForce cards; a container may hide it), or sockets; NCCL_DEBUG=INFO's channel lines say which (\"via P2P\", \"via SHM\", \"via NET\")",
			FormatValue(m.x[parIntraBW], params[parIntraBW].unit), r))
	}
	if note := m.slowLinks(tables); note != "" {
		m.Notes = append(m.Notes, note)
	}
	var unused, loose []string
	for _, p := range m.Params {
		switch {
		case !p.Used && (p.Name != params[parFabric].name || m.Hardware.Group > 0):
			unused = append(unused, p.Name)
		case !p.Used:
		case !p.Identified:
			// One note for all: a line each put the guesses a page down.
			if r := fromPrior(p.Value, p.Prior); r != "at" {
				loose = append(loose, p.Name+" "+r+" its prior")
			} else {
				loose = append(loose, p.Name)
			}
		}
	}
	if len(loose) > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("these tables do not identify %s: they lean on their priors (the parameter table gives each value and prior)",
			strings.Join(loose, ", ")))
	}
	if len(unused) > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("no table depends on %s: they stay at their priors", strings.Join(unused, ", ")))
	}
	bandwidth := d.bandwidthBound(&m.x)
	if bandwidth {
		// A bound that only latency-bound sizes push against says nothing
		// of the links.
		m.Notes = append(m.Notes, m.implausible(used)...)
		if note := m.slowNICs(used); note != "" {
			m.Notes = append(m.Notes, note)
		}
	}
	m.Residual = d.medianError(&m.x, nil)
	m.LOOMedian, m.HeldOutCoverage = math.NaN(), math.NaN()
	var held []heldTable
	switch {
	case !set.NoIntervals && len(tables) > 1:
		for i := range tables {
			f := d.refit(x0, &all, used, set, i)
			x := f.x
			m.LOO = append(m.LOO, d.medianError(&x, func(j int) bool { return d.table[j] != i }))
			held = append(held, d.heldOut(&f, used, set, i))
		}
		m.LOOMedian = fit.Median(m.LOO)
		m.Notes = append(offTables(tables, d, held, m.LOO), m.Notes...)
		m.NCCLWeight = ncclWeight(held)
		if m.NCCLWeight > 0 {
			m.Notes = append(m.Notes, fmt.Sprintf("on the tables held out in turn, NCCL's uncalibrated model is as good as the calibration "+
				"or better: predictions blend the two, with weight %.1f on NCCL's", m.NCCLWeight))
		}
		m.spread = spreadOf(tables, held, len(held), m.NCCLWeight)
		m.HeldOutCoverage = d.heldOutCoverage(tables, held)
	case !set.NoIntervals:
		// No table can be held out: the table's own errors stand in for
		// a held-out table's, pooled with the prior (pool). At the fit
		// they owe nothing to the parameters the table leaves
		// unidentified, which the fit set to meet its points.
		own := d.heldOut(&all, used, set, 0)
		clear(own.unidentified)
		own.own = true
		for k := range numParams {
			if all.identified(k, used, set) {
				own.fitted++
			}
		}
		m.spread = spreadOf(tables, []heldTable{own}, 0, 0)
	default:
		m.spread = spreadOf(tables, nil, 0, 0)
	}
	m.spread.bandwidth = bandwidth
	if !bandwidth {
		m.Notes = append(m.Notes, "no table ran a size whose time a bandwidth bounds: the links' and NICs' bandwidths rest on their priors, and the intervals of larger sizes widen for them; calibrate with a table of larger sizes")
	}
	m.Notes = append(m.Notes, m.misfits(tables)...)
	m.Notes = append(m.Notes, d.beatFloor(m, tables)...)
	m.Notes = append(m.Notes, disagreements(tables)...)
	m.Notes = append(m.Notes, tunerPlugins(tables)...)
	return m, nil
}

// offRatio is how far the median point of a table may lie from the other
// tables' prediction of it, as a ratio either way, before the calibration
// says the table is off. Of the tables that their machine's others
// surround (offTables), the paired machines' lie within 1.66x (ABCI's
// V100 Broadcast on 1 x 4, 1.66x slower; the others within 1.51x) and the
// public machines' within 1.41x (kalavai's RTX 4090 AllReduce on 2 GPUs
// under k8s, 1.41x faster), while the Voltage Park H100 cluster's one-node
// -g 8 AllGather and Broadcast, which move a quarter of the bus bandwidth
// of its one-node AllReduce (116.11 and 131.99 against 477.12 GB/s at 4
// GiB), lie 2.0x to 2.5x off (ZiyanIshani/vpbenchmarking, with the
// cluster's other tables or all but its 4-node AllReduce), and its sound
// one-node AllReduce, which they pull down, 1.55x faster: 1.8 is about the
// middle, in logs, of 1.66 and 2.0.
const offRatio = 1.8

// offTables names the tables the others do not predict, a note each,
// first among the notes, with three tables or more (with two, each is
// predicted by the other alone and their errors mirror each other). Each
// table is predicted by the refit without it (held[i], the errors of
// Machine.LOO, loo[i]). A table that the others surround (its collective,
// launch layout, nodes and ranks within theirs: departure) and that runs
// more than offRatio slower or faster than they predict, by the median of
// ln(measured/predicted) over its points, may not have timed the machine
// as they did. Otherwise the table held out worst is named where the
// median of the tables' errors would hide it: an error over worstShown
// and twice the median. Its note says what it ran beyond the others,
// their collectives together or its own alone (sameCollective), whose
// reach is then the model's, or that they surround it.
func offTables(tables []Table, d *design, held []heldTable, loo []float64) []string {
	if len(tables) < 3 {
		return nil
	}
	median := fit.Median(loo)
	worst := 0
	for i := range loo {
		if loo[i] > loo[worst] {
			worst = i
		}
	}
	var out []string
	for i := range tables {
		var s spread
		s.sawTables(slices.Concat(tables[:i], tables[i+1:]))
		dep := s.departure(d.runs[i])
		beyond := s.beyond(dep)
		r := fit.Median(held[i].calibrated)
		what := "slower"
		if r < 0 {
			what = "faster"
		}
		guessed := ""
		if tables[i].CollectiveFrom == SourceAssumed {
			guessed = fmt.Sprintf("; its collective, %v, is the reader's guess (the log names no binary): if it ran another, give FILE:test=K:collective=NAME", tables[i].Collective)
		}
		switch {
		case beyond == "" && math.Abs(r) > math.Log(offRatio):
			out = append(out, fmt.Sprintf("%s runs %.1fx %s than the other tables predict (the median of its %d points, each predicted by the calibration without it; a table that ran as the others did lies within %.1fx): "+
				"it may not have timed the machine as the others did (another job on the GPUs, a fault, a setting its log does not print), or it ran something the model misdescribes, and the parameters fitted to it are off with it; "+
				"calibrate without it and compare, or give it what it ran (FILE:algo=..., proto=..., version=...)%s",
				tables[i].Name, math.Exp(math.Abs(r)), what, len(held[i].calibrated), offRatio, guessed))
		case i == worst && loo[i] > worstShown && loo[i] > 2*median:
			why := "the other tables surround its shape, so what sets it apart is not in the model's inputs (a setting its log does not print, the hosts, a fault) or not in the model"
			if beyond == "" {
				beyond = sameCollective(tables, i)
			}
			if beyond != "" {
				why = "it ran " + beyond + ", outside the other tables, so its error is the model's reach there, which predictions of such runs share"
			}
			out = append(out, fmt.Sprintf("%s is the table held out worst: %.1f%% median error (it runs %s than the other tables predict), against the tables' median of %.1f%%; %s%s",
				tables[i].Name, 100*loo[i], what, 100*median, why, guessed))
		}
	}
	return out
}

// sameCollective names, in a phrase, the ranks of tables[i] outside
// those of the other tables of its collective, "" where they surround
// it: whose steps, and a grouped send's channels to each network peer,
// the tables of other collectives do not time (cluster01's SendRecv on
// 80 ranks, where its other SendRecvs ran at most 40).
func sameCollective(tables []Table, i int) string {
	lo, hi := math.MaxInt, 0
	for j := range tables {
		if j != i && tables[j].Collective == tables[i].Collective {
			lo, hi = min(lo, tables[j].Ranks()), max(hi, tables[j].Ranks())
		}
	}
	if n := tables[i].Ranks(); hi > 0 && (n < lo || n > hi) {
		return fmt.Sprintf("%s against their %s of %v", counted(n, "rank"), span(lo, hi), tables[i].Collective)
	}
	return ""
}

// worstShown is the held-out error above which offTables names the table
// held out worst: the targets' 15%.
const worstShown = 0.15

// tunerPlugins says, one note a table, where NCCL ran an external tuner
// plugin (Evidence.TunerPlugin): its choices of algorithm, protocol and
// channels replace NCCL's tuning model's, which the calibration takes the
// run to have followed.
func tunerPlugins(tables []Table) []string {
	var out []string
	for i := range tables {
		if p := tables[i].Evidence.TunerPlugin; p.Known() && tables[i].Algo == "" && tables[i].Proto == "" {
			out = append(out, fmt.Sprintf("%s: NCCL ran the tuner plugin %s (line %d), whose choices of algorithm, protocol and channels replace NCCL's tuning model's, which the calibration takes the run to have followed: where the plugin's rules say what it ran, give it (FILE:algo=NAME:proto=NAME)",
				tables[i].Name, p.Value, p.Line))
		}
	}
	return out
}

// bandwidthBound reports a point whose time at x a bandwidth bounds more
// than latency or launch: without one, the tables measured no bandwidth.
func (d *design) bandwidthBound(x *[numParams]float64) bool {
	for i := range d.terms {
		launch, latency, nvlink, network := d.terms[i].parts(x)
		if max(nvlink, network) > max(launch, latency) {
			return true
		}
	}
	return false
}

// beatFloor says, a note for each table, where the table's points ran
// faster than the line rates the description gives allow (floor): the
// description is off, and a prediction's interval, which starts at that
// floor, is off with it.
func (d *design) beatFloor(m *Machine, tables []Table) []string {
	fx := m.floorParams()
	var out []string
	for i := range tables {
		n, worst, at, k := 0, 1.0, 0.0, 0 // k: the point of table i
		for j := range d.terms {
			if d.table[j] != i {
				continue
			}
			if f := floor(&d.terms[j], &fx); d.obs[j] < 0.95*f {
				n++
				if r := d.obs[j] / f; r < worst {
					worst, at = r, tables[i].Points[k].Size
				}
			}
			k++
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%s: %d of its points ran faster than the line rates the description gives allow, %.2f of that time at %s: the description is off (-hw fabric, links, link-bw, nics, nic-bw, or the catalog's entry for the GPU)",
				tables[i].Name, n, worst, units.FormatSize(at)))
		}
	}
	return out
}

// heldOutCoverage is Machine.HeldOutCoverage of tables, whose held-out
// errors are held (held[i] those of tables[i] predicted by the refit
// without it). The spreads of the other tables are pooled anew for each
// table, which is arithmetic on errors at hand, no fit; their NCCL weight
// comes from the scores of all tables less the table's own.
func (d *design) heldOutCoverage(tables []Table, held []heldTable) float64 {
	scores := make([]blendScores, len(held))
	var all blendScores
	for i, h := range held {
		scores[i] = blendScoresOf(h)
		all = all.plus(scores[i], 1)
	}
	var inside, points int
	for i := range tables {
		others := slices.Concat(held[:i], held[i+1:])
		w := all.plus(scores[i], -1).weight()
		s := spreadOf(slices.Concat(tables[:i], tables[i+1:]), others, len(others), w)
		dep := s.departure(d.runs[i])
		h := &held[i]
		share := 1.0 // of the calibration in the blend's log
		if h.nccl != nil {
			share = 1 - w
		}
		for j, e := range h.errors(w) {
			net := [2]float64{share * share * h.network[j][0], share * share * h.network[j][1]}
			f, sl := peersBeyond(h.terms[j], &h.x, dep.peerDoublings)
			u := [2]float64{share * share * h.unidentified[j][0], share * share * h.unidentified[j][1]}
			lo, hi := s.bounds(h.protocols[j], u, net, share*share*h.nic[j], dep, [2]float64{share * share * f, share * share * sl})
			if lo <= e && e <= hi {
				inside++
			}
			points++
		}
	}
	return float64(inside) / float64(points)
}

// beyondPCIe returns the note for an assumed PCIe fabric whose GPUs moved
// more than PCIe carries: intra_bw fitted above the PCIe figure
// (Hardware.intraBW) on tables of one node (oneNode), by a fifth for a GPU
// of the catalog, whose PCIe generation is known (its NVLink bridge, where
// the card takes one: bridgeable), twice for one it lacks, is GPU links the
// description lacks, which it names. Under RCCL they are an AMD Instinct host's
// Infinity Fabric, a link from each GPU to each other of the host, of the
// rate that puts InfinityShare of the links at the fitted intra_bw (the
// prior Calibrate gives such a description); NVIDIA's are NVLink. It is ""
// otherwise.
func (m *Machine) beyondPCIe(oneNode bool) string {
	h := &m.Hardware
	r := m.x[parIntraBW] / h.intraBW()
	beyond := 1.2
	if !h.GPU.Known {
		beyond = 2
	}
	if h.Fabric != FabricPCIe || h.given(h.Sources.Fabric) || h.nvlinkPairs || !oneNode || !(r > beyond) {
		return "" // given: a PCIe fabric, or its bridged pairs (pairs=true)
	}
	fit := FormatValue(m.x[parIntraBW], params[parIntraBW].unit)
	pcie := fmt.Sprintf("the tables fit intra_bw at %s, %.1f times the rate of the assumed PCIe fabric (%s): %s's GPUs are joined by more than PCIe",
		fit, r, pcieLink(h.GPU.PCIeGen), h.GPU.Name)
	if host := max(HostGPUs(m.tables), h.PerHost()); h.GPU.Known && h.GPU.BridgeLinks > 0 && host > 2 && !m.refs.runsRCCL() {
		// A bridge joins two cards: on a host of more, pairs of them
		// (Azure's NC96 A100 v4: NV12 within each pair, SYS between),
		// whose rings cross PCIe between the pairs. The calibration already
		// takes the fitted rate (bridgeable); a mesh or a switch would have
		// every GPU reach every other over NVLink, which the tables do not
		// show (the NC96's two tables, held out, 3.7% off as assumed,
		// 26.1% with fabric=mesh).
		return fmt.Sprintf("%s, by the NVLink bridges the card takes (%d NVLinks of %s), which join pairs of a host's %d cards, not all of them (nvidia-smi topo -m: NV# within a pair, a PCIe path between pairs): the calibration takes the fitted rate as the pairs'; -hw pairs=true (bridged pairs) or the hosts' nvidia-smi topo -m (-topo FILE) says so, not fabric=mesh or fabric=nvswitch, which would join every pair",
			pcie, h.GPU.BridgeLinks, units.FormatBandwidth(h.GPU.NVLinkBW), host)
	}
	if !m.refs.runsRCCL() {
		hint := pcie + ", by NVLink: give the hosts' nvidia-smi topo -m (-topo FILE), or describe them with -hw links=N,link-bw=RATE (fabric=nvswitch or fabric=mesh)"
		if !h.GPU.Known {
			// No RCCL line says whose GPU it is: an AMD Instinct host's
			// Infinity Fabric is as likely.
			hint = pcie + ", by NVLink or, on an AMD Instinct host, Infinity Fabric: name the GPU with -gpu NAME if the catalog holds it (-gpu \"AMD Instinct MI300X\"), or give the hosts' nvidia-smi topo -m (-topo FILE), or describe them with -hw links=N,link-bw=RATE (fabric=nvswitch, mesh or, for AMD, infinity)"
		}
		return hint
	}
	links := max(HostGPUs(m.tables)-1, 1)
	bw := m.x[parIntraBW] / (InfinityShare * float64(links))
	var why string
	switch {
	case RanRCCL(m.tables):
		why = "the logs ran RCCL"
	case h.CompCapISA() != "":
		why = fmt.Sprintf("its compute capability, %d.%d, is AMD's %s", h.GPU.CompCap/10, h.GPU.CompCap%10, h.GPU.ISA)
	case nccl.ISAOf(h.GPU.Name) != "":
		why = "its name is AMD's target " + h.GPU.ISA
	default:
		why = "its name is AMD's" // nccl.UnknownGPU
	}
	return fmt.Sprintf("%s; %s, so it is an AMD GPU, whose Infinity Fabric links each GPU to the others: describe it with -hw fabric=infinity,links=%d,link-bw=%.0fGB/s "+
		"(%d links, at the rate that the fit implies; the datasheet's rate where known, cc=X.Y for its generation)", pcie, why, links, bw/1e9, links)
}

// envRead are the environment's settings the model reads (Pins, from
// Evidence.Algo and Proto, NCCL_NVLS_ENABLE, whose 0 leaves NVLS out of
// the pins: withoutNVLS, and NCCL_MNNVL_ENABLE, whose 0 makes every host a
// node: runDomains) or that change no time: where NCCL's bootstrap
// and its debug output go, how much it prints, and how a RoCE NIC is
// addressed. NCCL_P2P_DISABLE and NCCL_P2P_LEVEL are read for MNNVL alone
// (mnnvlOff), and stay among the unread for the rest of what they do
// (unreadEnv).
var envRead = []string{"NCCL_ALGO", "NCCL_PROTO", "NCCL_NVLS_ENABLE", "NCCL_MNNVL_ENABLE", "NCCL_SOCKET_IFNAME", "NCCL_SOCKET_FAMILY", "NCCL_IB_GID_INDEX",
	"NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_FILE", "NCCL_TOPO_DUMP_FILE", "NCCL_GRAPH_DUMP_FILE", "NCCL_COMM_ID", "NCCL_HOSTID"}

// unreadEnv lists the settings of t's environment the model does not read
// as NAME=VALUE, "" where there are none, and the words that follow "which
// the model does not read": "", or where one of them turned MNNVL off
// (mnnvlOff: P2P off, which the model reads for that alone, not for the
// rest of what it does to the run), " but for MNNVL (NCCL_P2P_DISABLE=1
// turns it off, every host a node)", as domainsNote says of the hosts.
func unreadEnv(t *Table) (env, but string) {
	var out []string
	for _, v := range t.Evidence.Env {
		if !slices.Contains(envRead, v.Name) {
			out = append(out, v.Name+"="+v.Value)
		}
	}
	if v, off := mnnvlOff(t); off && !slices.Contains(envRead, v.Name) {
		but = fmt.Sprintf(" but for MNNVL (%s=%s turns it off, every host a node)", v.Name, v.Value)
	}
	return strings.Join(out, ", "), but
}

// DomainsNote says where table t's log groups its hosts into NVLink
// domains otherwise than m's domain would, or in cliques the model cannot
// split equally: Diagnose holds t to the run NCCL made (Table.Query), as
// Calibrate models its tables and notes them, and the machine's domain
// stays what m's Hardware says for other runs. It is "" where the two
// agree or the log does not say.
func (m *Machine) DomainsNote(t Table) string { return domainsNote(&m.Hardware, &t) }

// domainsNote says where table t's log groups its hosts into NVLink
// domains otherwise than h's domain would (runDomains against shapeOf):
// the table is modelled as its log says, and the machine's domain stays
// what h says for other runs.
func domainsNote(h *Hardware, t *Table) string {
	d, hosts, ok := runDomains(t)
	s, err := h.shapeOf(t.Nodes, t.PerNode)
	e := &t.Evidence
	if !ok && t.Nodes > 1 && e.MNNVL.Known() && e.MNNVL.Value && err == nil {
		n, l := e.Nodes.Value, e.LocalRanks.Value
		if n > t.Nodes || n < 1 || l > t.Ranks() || l < t.PerNode {
			return fmt.Sprintf("%s: NCCL's comm line (line %d: nNodes %d, localRanks %d under MNNVL) does not fit the table's %s of %s: the table is modelled with the machine's NVLink domain (nvlink_domain %d)",
				t.Name, e.MNNVL.Line, n, l, counted(t.Nodes, "host"), counted(t.PerNode, "GPU"), h.Domain)
		}
		return fmt.Sprintf("%s: NCCL ran its %d hosts as %s, this rank's of %s (line %d: nNodes %d, localRanks %d under MNNVL), which do not split them equally as the model needs: the table is modelled with the machine's NVLink domain (nvlink_domain %d) instead",
			t.Name, t.Nodes, counted(n, "NVLink clique"), counted(l, "rank"), e.MNNVL.Line, n, l, h.Domain)
	}
	if !ok || err != nil || s.nodes == d {
		return ""
	}
	line, said := e.MNNVL.Line, fmt.Sprintf("nNodes %d under MNNVL", e.Nodes.Value)
	switch {
	case !e.MNNVL.Known():
		v, _ := mnnvlOff(t)
		line, said = v.Line, v.Name+"="+v.Value+" (MNNVL off), every host a node"
	case !e.MNNVL.Value:
		said = "MNNVL 0, every host a node"
	}
	return fmt.Sprintf("%s: NCCL ran its %d hosts as %s of %s (line %d: %s), where the machine's NVLink domain (nvlink_domain %d) would hold them in %s; the table is modelled as NCCL ran it",
		t.Name, t.Nodes, counted(d, "node"), counted(hosts, "host"), line, said, h.Domain, counted(s.nodes, "domain"))
}

// RanRCCL reports that a table's log says it ran RCCL (rccl-tests'
// header, RCCL's version line).
func RanRCCL(tables []Table) bool {
	return slices.ContainsFunc(tables, func(t Table) bool { return t.Evidence.RCCL.Value })
}

// unreadVersion says where t's log names a version that is no release
// nccl.ParseVersion reads (a header's nccl-library=2950), so that an
// unknown version is not taken for an unprinted one: ", as line 1's
// "2950" is no release (FILE:version=2.MINOR.PATCH gives it)", or "".
func unreadVersion(t *Table) string {
	for _, v := range []nccltests.Fact[string]{t.Evidence.Library, t.Evidence.NCCLVersion} {
		if _, err := nccl.ParseVersion(v.Value); v.Known() && err != nil {
			return fmt.Sprintf(", as line %d's %q is no release (FILE:version=2.MINOR.PATCH gives it)", v.Line, v.Value)
		}
	}
	return ""
}

// design builds the calibration points of tables and the notes on their
// versions.
func (m *Machine) design(tables []Table) (*design, []string, error) {
	d := &design{}
	var notes []string
	for i := range tables {
		t := &tables[i]
		if err := t.check(); err != nil {
			return nil, nil, err
		}
		rn, err := tableRun(&m.Hardware, t)
		if err != nil {
			return nil, nil, err
		}
		// Another table's release is not taken for it (a file may hold the
		// runs of two clusters), but named, with the key that pins it.
		// The key that settles it, with another table's release where
		// one gives it.
		other := ": give FILE:version=2.MINOR.PATCH, the release the run used, which the log does not print"
		if k := slices.IndexFunc(tables, func(u Table) bool { return u.Version != (nccl.Version{}) }); rn.versionGuess && k >= 0 {
			other = fmt.Sprintf(" (%s ran %v: if this run did too, give FILE:version=%[2]v for its file)", tables[k].Name, tables[k].Version)
		}
		unread := ""
		if rn.versionGuess {
			unread = unreadVersion(t)
		}
		if unread != "" && strings.HasPrefix(other, ": give") {
			other = "" // the unread version's words name the key
		}
		switch {
		case rn.versionGuess && m.refs.runsRCCL():
			notes = append(notes, fmt.Sprintf("%s: RCCL version unknown%s; its tuner is taken as NCCL %v's%s", t.Name, unread, rn.version, other))
		case rn.versionGuess:
			notes = append(notes, fmt.Sprintf("%s: NCCL version unknown%s; NCCL %v's tuner is assumed%s", t.Name, unread, rn.version, other))
		case rn.versionClamp:
			notes = append(notes, fmt.Sprintf("%s: NCCL %v is outside the releases the tuner model follows (%v to %v); NCCL %v's is used",
				t.Name, t.Version, nccl.Oldest, nccl.Latest, rn.version))
		}
		if env, but := unreadEnv(t); env != "" && !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, env) }) {
			what, without := "what it does", "it"
			if strings.Contains(env, ",") {
				what, without = "what they do", "them"
			}
			notes = append(notes, fmt.Sprintf("%s: the log shows %s set in the environment, which the model does not read%s: the calibration takes %s as the machine's, and a run without %s may differ",
				t.Name, env, but, what, without))
		}
		if n := domainsNote(&m.Hardware, t); n != "" {
			notes = append(notes, n)
		}
		if m.version.Before(rn.version) {
			m.version, m.release = rn.version, t.VersionFact()
		}
		d.runs = append(d.runs, rn)
		for _, p := range t.Points {
			tm, err := m.refs.termOf(rn, p.Size)
			if err != nil {
				return nil, nil, tableError(t, err)
			}
			d.terms = append(d.terms, tm)
			d.obs = append(d.obs, p.Time)
			d.table = append(d.table, i)
			d.weight = append(d.weight, 1/float64(len(t.Points)))
		}
	}
	return d, notes, nil
}

// latencyUnits are the seconds one unit of each latency factor stands for:
// NCCL's Ring/LL base, intra-node step and network step latency of the
// machine's newest version.
func (m *Machine) latencyUnits() (base, intra, inter float64) {
	c := nccl.DefaultConstants(m.version)
	hw := nccl.HWPCI
	if m.Hardware.Fabric.oneHop() {
		hw = nccl.HWNVLink
	}
	return c.BaseLatency[nccl.AlgoRing][nccl.LL] * 1e-6, c.HWLatency[hw][nccl.AlgoRing][nccl.LL] * 1e-6,
		c.HWLatency[nccl.HWNet][nccl.AlgoRing][nccl.LL] * 1e-6
}

// params reports the fitted parameters.
func (m *Machine) params(x0 [numParams]float64, f fitResult, used [numParams]bool, set Settings) []Param {
	var unit [numParams]float64
	for k := range unit {
		unit[k] = 1
	}
	unit[parBase], unit[parIntra], unit[parInter] = m.latencyUnits()
	out := make([]Param, numParams)
	for k := range out {
		info := &params[k]
		out[k] = Param{Name: info.name, Unit: info.unit, Doc: info.doc,
			Value: f.x[k] * unit[k], Prior: x0[k] * unit[k], Used: used[k], SD: f.sd[k]}
		out[k].Identified = f.identified(k, used, set)
	}
	return out
}

// fromPrior says where value lies against prior: "at" within 1%, else
// how many percent above or below ("52% below").
func fromPrior(value, prior float64) string {
	r := value/prior - 1
	switch {
	case math.Abs(r) < 0.01:
		return "at"
	case r > 0:
		return fmt.Sprintf("%.0f%% above", 100*r)
	}
	return fmt.Sprintf("%.0f%% below", -100*r)
}

// FormatValue prints a parameter's value in its unit ("s", "B/s", "B" or
// "1") with commmodel's formatters.
func FormatValue(v float64, unit string) string {
	switch unit {
	case "s":
		return units.FormatDuration(v)
	case "B/s":
		return units.FormatBandwidth(v)
	case "B":
		return units.FormatSize(v)
	}
	return units.FormatNumber(v)
}

// FormatParam prints value v of the parameter named name in its unit
// (FormatValue), and nic_bw, one NIC's rate in bytes a second, with its
// line rate in bits as the fact nic_bw gives it ("50 GB/s (400 Gb/s)"), so
// that the two read as one quantity.
func FormatParam(name, unit string, v float64) string {
	s := FormatValue(v, unit)
	if name == params[parNICBW].name {
		s += " (" + formatBitRate(v) + ")"
	}
	return s
}

// medianError is the median |T/t - 1| at x of the points skip does not
// drop (nil: all).
func (d *design) medianError(x *[numParams]float64, skip func(int) bool) float64 {
	var e []float64
	for i := range d.terms {
		if skip == nil || !skip(i) {
			e = append(e, math.Abs(d.terms[i].time(x)/d.obs[i]-1))
		}
	}
	return fit.Median(e)
}

// heldOut returns the errors of table i's points, predicted at x by a
// calibration without it, and NCCL's uncalibrated errors of the same points.
func (d *design) heldOut(f *fitResult, used [numParams]bool, set Settings, i int) heldTable {
	h := heldTable{x: f.x}
	x := &f.x
	for j := range d.terms {
		if d.table[j] != i {
			continue
		}
		h.protocols = append(h.protocols, d.terms[j].ch.proto)
		h.calibrated = append(h.calibrated, math.Log(d.obs[j]/d.terms[j].time(x)))
		param := func(k int) (float64, bool) { return f.sd[k], f.identified(k, used, set) }
		h.unidentified = append(h.unidentified, unidentified(&d.terms[j], x, param))
		faster, slower := unmeasuredNetwork(&d.terms[j], x)
		h.network = append(h.network, [2]float64{faster, slower})
		var nic float64
		if !f.identified(parNICBW, used, set) {
			nic = unmeasuredNICs(&d.terms[j], x)
		}
		h.nic = append(h.nic, nic)
		h.terms = append(h.terms, &d.terms[j])
		if d.terms[j].nccl > 0 {
			h.nccl = append(h.nccl, math.Log(d.obs[j]/d.terms[j].nccl))
		}
	}
	if len(h.nccl) != len(h.calibrated) {
		h.nccl = nil // NCCL models all of a table's points or none
	}
	return h
}

// slowLinks says where the tables of one node's collectives fit intra_bw
// below minLinkShare of its prior on NVLink or Infinity Fabric links the
// catalog, a capture or the user gave: the runs moved well below what the
// GPU's links carry, and the prior, narrow because the links are the
// product's, may hold the model faster than they ran. The GPU may be misnamed
// (an A100's table named B200 fits 0.51 of the B200's prior), or a setting
// or fault slowed the links (NCCL_GRAPH_FILE on Azure's A100 pair, 0.33;
// one process driving 8 H100s in Voltage Park's AllGather, 0.42). Grouped
// sends are left out: a pair of GPUs of a mesh shares a few of the links.
// The note says what the tables show, not that the model misses them: a
// misnamed A100 table the fit follows (named H100, 0.59) gives it too,
// and so do a correctly named GPU's runs that a setting or one thread
// driving many GPUs slowed (the DGX-2's -g 12 ReduceScatter, 0.52).
func (m *Machine) slowLinks(tables []Table) string {
	h, p := &m.Hardware, m.Params[parIntraBW]
	if h.Fabric == FabricPCIe || h.assumedLinks() || !p.Used || !(p.Value < minLinkShare*p.Prior) {
		return ""
	}
	if !slices.ContainsFunc(tables, func(t Table) bool { return t.Nodes == 1 && t.PerNode > 1 && !grouped(t.Collective) }) {
		return ""
	}
	slowed := "a setting or a fault slowed them"
	if slices.ContainsFunc(tables, func(t Table) bool { return t.Layout.norm().GPUsPerThread > 1 }) {
		// One thread driving several GPUs (the DGX-2's -g 12, 0.52).
		slowed = "a setting or a fault slowed them, or one thread driving several GPUs (-g) did"
	}
	return fmt.Sprintf("the tables fit intra_bw at %s, %.2f of its prior for %s's links (%s): the runs moved well below what those links carry; if the GPU is not %s, name it (-gpu NAME, or gpu=NAME for a file); if it is, %s (commlab diagnose on a one-node table, without -calibrate, sets it against NCCL's model of the product)",
		FormatValue(p.Value, params[parIntraBW].unit), p.Value/p.Prior, h.GPU.Name, h.Sources.NVLinks, h.GPU.Name, slowed)
}

// minLinkShare is the share of intra_bw's prior below which one node's
// tables make slowLinks speak: the public and paired logs' one-node
// tables of a collective fit 0.62 or more of it, but for the three runs
// slowLinks names and the DGX-2's ReduceScatter of one process driving 12
// V100s (0.52), and an H100 PCIe pair's NVLink bridge (0.49).
const minLinkShare = 0.6

// fitResult is the outcome of one fit: natural parameter values and the
// posterior standard deviation of each log.
type fitResult struct {
	x  [numParams]float64
	sd [numParams]float64
	f  float64 // the objective at x
	// held reports the parameters on their physical bound (design.upper)
	// that the objective would take beyond it (levmar.Result.Held).
	held [numParams]bool
}

// identified reports that the data, not the prior, fix parameter k: it is
// used, and its posterior standard deviation is under half the prior's.
func (f *fitResult) identified(k int, used [numParams]bool, set Settings) bool {
	return used[k] && f.sd[k] < set.width(k)/2
}

// bestFit fits from the prior x0 and, for each bandwidth the tables use,
// from x0 with that bandwidth a quarter of its prior, and keeps the fit of
// the lowest objective. A table of several nodes that runs slower than the
// priors can be fitted as slow NVLink or as a slow network; from the prior
// alone the fit slides towards whichever bandwidth is nearer, and stops
// there even where the other fits the tables better.
func (d *design) bestFit(x0 [numParams]float64, used [numParams]bool, set Settings) fitResult {
	best := d.fit(x0, x0, used, set, nil, false)
	for _, k := range []int{parIntraBW, parNICBW} {
		if !used[k] {
			continue
		}
		start := x0
		start[k] /= 4
		if f := d.fit(x0, start, used, set, nil, false); f.f < best.f {
			best = f
		}
	}
	return best
}

// unbounded returns the values of the fit of every table without the
// physical bounds (design.upper), from f, where f holds a parameter on
// its bound: how far beyond it the tables would take it. Where f holds
// none, it returns f's values.
func (d *design) unbounded(x0 [numParams]float64, f *fitResult, used [numParams]bool, set Settings) [numParams]float64 {
	if !slices.Contains(f.held[:], true) {
		return f.x
	}
	free := *d
	free.upper = [numParams]float64{}
	return free.fit(x0, f.x, used, set, nil, true).x
}

// refit fits the tables but table i from the fit all of every table.
// Starting that near its minimum, its steps take Huber's curvature
// (levmar.Problem.Curvature) and reach the minimum in a few iterations,
// where the reweighted steps of a fit from the prior creep the last
// stretch: the refits, one per table, cost about as much as the fits of
// bestFit together, not one each.
func (d *design) refit(x0 [numParams]float64, all *fitResult, used [numParams]bool, set Settings, i int) fitResult {
	return d.fit(x0, all.x, used, set, func(j int) bool { return d.table[j] == i }, true)
}

// fit minimises Calibrate's objective over the logs of the used
// parameters, with prior x0 and from start, over the points skip does not
// drop, with Huber's curvature in the steps if curved (problem). A
// parameter not used keeps its prior value and the prior's width.
func (d *design) fit(x0, start [numParams]float64, used [numParams]bool, set Settings, skip func(int) bool, curved bool) fitResult {
	var idx []int // the parameters fitted
	for k := range used {
		if used[k] {
			idx = append(idx, k)
		}
	}
	at := func(z []float64) [numParams]float64 {
		x := x0
		for j, p := range idx {
			x[p] = math.Exp(z[j])
		}
		return x
	}
	z := make([]float64, len(idx))
	for j, p := range idx {
		z[j] = math.Log(start[p])
	}
	p := d.problem(at, x0, idx, set, skip)
	if !curved {
		p.Curvature = nil
	}
	res := levmar.Minimize(p, z)
	out := fitResult{x: at(res.X), f: res.F}
	for j, p := range idx {
		out.held[p] = res.Held != nil && res.Held[j]
	}
	for p := range out.sd {
		out.sd[p] = set.width(p)
	}
	if res.Cov != nil {
		for j, p := range idx {
			out.sd[p] = math.Sqrt(res.Cov.At(j, j))
		}
	}
	return out
}

// problem is the objective of fit: over the points skip does not drop,
//
//	Σ w_i ρ(ln(T_i(at(z))/t_i))/σ² + Σ_j (z_j − ln x0_j)²/(2w²)
//
// with ρ Huber's loss at Settings.Huber and w_i the weight of point i's
// table, 1 over the points of the table kept, so that every table counts
// the same, and Huber's curvature for the steps that want it (refit).
func (d *design) problem(at func([]float64) [numParams]float64, x0 [numParams]float64, idx []int, set Settings, skip func(int) bool) levmar.Problem {
	var pts []int
	for i := range d.obs {
		if skip == nil || !skip(i) {
			pts = append(pts, i)
		}
	}
	counts := map[int]int{}
	for _, i := range pts {
		counts[d.table[i]]++
	}
	wt := make([]float64, len(pts))
	for n, i := range pts {
		wt[n] = 1 / float64(counts[d.table[i]])
	}
	mean, width, upper := make([]float64, len(idx)), make([]float64, len(idx)), make([]float64, len(idx))
	for j, p := range idx {
		mean[j], width[j], upper[j] = math.Log(x0[p]), set.width(p), math.Inf(1)
		if u := d.upper[p]; u > 0 {
			upper[j] = math.Log(u)
		}
	}
	sig2 := set.Noise * set.Noise
	return levmar.Problem{
		M: len(pts),
		Residuals: func(r, z []float64) {
			x := at(z)
			for n, i := range pts {
				r[n] = math.Log(d.terms[i].time(&x) / d.obs[i])
			}
		},
		// z_j is ln x_idx[j], so ∂r/∂z_j is grad's elasticity.
		Jacobian: func(jac, z []float64) {
			x := at(z)
			var g [numParams]float64
			for n, i := range pts {
				d.terms[i].grad(&x, &g)
				row := jac[n*len(idx) : (n+1)*len(idx)]
				for j, p := range idx {
					row[j] = g[p]
				}
			}
		},
		Loss:      func(n int, r float64) float64 { return wt[n] * fit.Huber.Rho(r, set.Huber) / sig2 },
		Weight:    func(n int, r float64) float64 { return wt[n] * fit.Huber.Weight(r, set.Huber) / sig2 },
		Curvature: func(n int, r float64) float64 { return wt[n] * fit.Huber.Curvature(r, set.Huber) / sig2 },
		Mean:      mean, Width: width, Upper: upper,
	}
}

// upper returns the bounds the hardware sets on the parameters, 0 for
// none: a bandwidth at most the hardware's line rate (the NIC's, the prior
// x0 of nic_bw; one GPU's links at the datasheet's rate, Hardware.intraBW),
// a protocol's efficiency at most what its wire format carries of the
// links' rate (LL: 4 data bytes of 8, LL128: 120 of 128; commmodel.Protocol)
// over Simple's share of it, intra_bw's prior (NCCL's figure, about 0.8 of
// the links' rate): LL128 reaches 120/128 of the links where Simple, whose
// bandwidth it is a share of, does not reach them; and NVLS's efficiency
// at most 1: NVLS runs Simple on the NVLinks whose egress with Simple
// intra_bw is, and its bytes, the buffer once and the reduced slice once
// (the switch's reduction and multicast free), are all a GPU's links carry
// out. Tree's and the chain's efficiencies have no bound of their own:
// across nodes they are shares of nic_bw, the NICs' bandwidth as the
// tables' rings reach it, which may lie well below their line rate (PCIe
// paths a NIC shares with GPUs), and the NICs' line rate bounds only their
// product with it; ABCI's A100 tables of 2 to 16 nodes fit Tree at up to
// 1.6 times nic_bw, nic_bw at 35-45% of the line rate. The fit holds every
// parameter within the bounds. Where the links are assumed (a GPU the catalog
// does not hold, described by nothing) or the fabric is an assumed PCIe
// between cards that take an NVLink bridge (bridgeable), their rate bounds
// nothing: intra_bw may reach the top of its wide prior, wideWidth above
// it, and beyondPCIe names what it reached.
func (m *Machine) upper(x0 [numParams]float64) [numParams]float64 {
	var u [numParams]float64
	u[parNICBW], u[parIntraBW] = x0[parNICBW], m.Hardware.intraBW()
	simple := min(x0[parIntraBW]/u[parIntraBW], 1) // Simple's share of the links' rate
	u[parLL], u[parLL128] = commmodel.LL.Efficiency()/simple, commmodel.LL128.Efficiency()/simple
	u[parNVLS] = 1
	if h := &m.Hardware; h.assumedLinks() || h.bridgeable() {
		u[parIntraBW] = max(u[parIntraBW], x0[parIntraBW]*math.Exp(wideWidth))
	}
	return u
}

// implausible names the fitted values held on their physical bound
// (Machine.upper) that the tables push against: they would have them
// higher than the hardware allows, by more than the smooth maximum of
// two equal terms adds (smax). Such a value stands for something the model leaves
// out, and predictions far from the tables lean on it.
func (m *Machine) implausible(used [numParams]bool) []string {
	var out []string
	why := [numParams]string{
		parLL:      "where LL carries 4 data bytes in 8 at the links' rate: where NCCL runs LL, the tables are faster than the model allows",
		parLL128:   "where LL128 carries 120 data bytes in 128 at the links' rate: where NCCL runs LL128, the tables are faster than the model allows",
		parNVLS:    "where NVLS, which runs Simple on the same NVLinks, moves a GPU's bytes no faster than intra_bw, its egress with Simple: where NCCL runs NVLS, the tables are faster than the tables that set intra_bw (Ring within a node) allow, or those ran slow",
		parNICBW:   "the NIC's line rate: the description (-hw) or the tables' shape may be off",
		parIntraBW: "the GPU links' rate: the description (-hw fabric, links and link-bw, or a -topo capture) or the tables' shape may be off",
	}
	if h := &m.Hardware; h.Fabric == FabricPCIe && h.links() == 0 && !h.nvlinkPairs && !h.hostCopy() && !noBridge(h.GPU) {
		// PCIe cards faster than PCIe: NVLink bridges between pairs
		// (nvidia-smi topo -m: NV# within a pair) are the likeliest
		// cause, which -hw pairs=true takes without joining every pair,
		// on cards that may take a bridge.
		why[parIntraBW] = "PCIe's rate: where NVLink bridges join the cards in pairs (nvidia-smi topo -m: NV# within a pair), -hw pairs=true or a -topo capture says so; otherwise the description (-hw fabric, links and link-bw) or the tables' shape may be off"
	}
	for _, k := range []int{parLL, parLL128, parNVLS, parNICBW, parIntraBW} {
		if !used[k] || !m.pushesBound(k) {
			continue
		}
		bound, beyond := FormatValue(m.x[k], params[k].unit), ""
		if free := FormatValue(m.free[k], params[k].unit); m.free[k] > m.x[k] && free != bound {
			beyond = " (the tables would put it at " + free + ")"
		}
		out = append(out, fmt.Sprintf("%s is held at its bound %s%s, %s", params[k].name, bound, beyond, why[k]))
	}
	return out
}

// noBridge reports that g is a card of the catalog that takes no NVLink
// bridge: one the catalog gives none (BridgeLinks), such as Ada's and
// Blackwell's PCIe cards, T4 or A10, but the cards whose datasheets offer
// a bridge the catalog does not describe (bridgeUndescribed).
func noBridge(g nccl.GPU) bool {
	return g.Known && g.BridgeLinks == 0 && !slices.Contains(bridgeUndescribed, g.Name)
}

// bridgeUndescribed are the catalog's PCIe cards whose products offer an
// NVLink bridge of a rate the catalog does not give: A30, A800 PCIe and
// H800 PCIe.
var bridgeUndescribed = []string{"A30", "A800 PCIe", "H800 PCIe"}

// pushesBound reports that parameter k is held on its physical bound and
// the tables would have it beyond by more than smax's blend of two equal
// terms (2^(1/sharpness), 4.4%): within that, they ask for nothing the
// model's form does not.
func (m *Machine) pushesBound(k int) bool {
	return m.held[k] && m.free[k] > m.x[k]*math.Pow(2, 1.0/sharpness)
}

// slowNICs says where the tables fit nic_bw below slowNICShare of the
// NICs' line rate as described: no public network of documented NICs
// delivers so little (NICSlower: the least, p3dn's EFA under NCCL 2.6, 0.22
// of it), so fewer NICs carry the traffic than described, or slower ones.
// Azure's AKS run over IP-over-InfiniBand sockets, taken for 8 NICs of
// 200 Gb/s a node, fits 0.05 of it: NCCL's sockets ran over the one
// interface NCCL_SOCKET_IFNAME named.
func (m *Machine) slowNICs(used [numParams]bool) string {
	line := m.Hardware.nicBW()
	if !used[parNICBW] || !(m.x[parNICBW] < slowNICShare*line) {
		return ""
	}
	nics := "one per GPU"
	if m.Hardware.NICs > 0 {
		nics = fmt.Sprint(m.Hardware.NICs)
	}
	// The hint of fewer NICs helps only where a node of the tables drove
	// more than one.
	fewer := "fewer NICs carry the traffic (NCCL over sockets uses the interfaces NCCL_SOCKET_IFNAME names, often one: -hw nics=1), or slower ones (-hw nic-bw=RATE)"
	if !slices.ContainsFunc(m.tables, func(t Table) bool { return t.Nodes > 1 && m.Hardware.hostNICs(1, t.PerNode) > 1 }) {
		fewer = "the tables' nodes drove one NIC each, so it is slower than described (-hw nic-bw=RATE: sockets over Ethernet, a shared or throttled link)"
	}
	return fmt.Sprintf("the tables fit nic_bw at %s, %.2f of the line rate of the NICs as described (%s a node, %s): no public network of known NICs delivers under a fifth of it, so %s",
		FormatValue(m.x[parNICBW], params[parNICBW].unit), m.x[parNICBW]/line, nics, formatBitRate(line), fewer)
}

// slowNICShare is the share of the NICs' line rate under which slowNICs
// speaks: an eighth, four standard deviations of NICSlower below it.
const slowNICShare = 0.125

// ranCollective counts the tables of collective c.
func ranCollective(tables []Table, c commmodel.Collective) int {
	n := 0
	for i := range tables {
		if tables[i].Collective == c {
			n++
		}
	}
	return n
}

// LinkShare is the share of a GPU's links times their rate that NCCL's
// tuning model gives Ring/Simple AllReduce as bus bandwidth within one
// node: 0.8 for every NVSwitch GPU its tables hold, V100 to GB300
// (TestLinkShare). For links NCCL's tables do not hold, it carries over.
const LinkShare = 0.8

// InfinityShare is LinkShare for AMD's Infinity Fabric, which NCCL's tables
// do not hold: the bus bandwidth of the largest one-node Ring/Simple
// AllReduce of 8 GPUs in public rccl-tests tables over the datasheet's
// links, MI300X 315.69 and 318.98 GB/s of 7 x 64 (0.705, 0.712; the
// rccl-tests and rocm-blogs logs of data/nccltests/testdata/real) and
// MI355X 406.76 of 7 x 76.8 (0.757, the OCI guide's), to two digits.
const InfinityShare = 0.73

// RCCLNodesGain is how many times more a collective across nodes moves
// under RCCL over one GPU's links than it moves within one node: the ratio
// of the bus bandwidths of the largest Ring AllReduce of 2 x 8 and 1 x 8
// AMD Instinct GPUs in public rccl-tests tables, MI300X 356.14 over 315.69
// GB/s at 8 GiB (1.128; AMD's AAC10 and AAC8 clusters) and MI325X 350.24
// over 319.08 at 16 GiB (1.098; AAC11, NCCL_ALGO=Ring), their geometric
// mean to two digits (TestRCCLNodesGain). RCCL sets the channels of a
// communicator across nodes by rules of its own, apart from those of one
// node (ncclTopoPostset in its src/graph/connect.cc), which the tables do
// not print. intra_bw stays what one node moves; grouped sends, which run
// on p2p channels, take no gain.
const RCCLNodesGain = 1.11

// HostCopyBW is the prior of intra_bw between GPUs without P2P
// (Hardware.hostCopy), whose data NCCL copies through host memory, where
// the user gives no rate (-hw host-bw): the median bus bandwidth, to two
// digits, of the largest AllReduce of the public one-host tables of such
// cards (TestHostCopyBW): RTX 4090s of data/nccltests/testdata/real's
// kalavai logs, 2.24 and 3.85 GB/s on 2 GPUs and 2.59 and 2.59 on 4 at 2
// GiB, a tenth of their PCIe Gen4 figure (24 GB/s). Every one of those
// runs was in a Docker or Kubernetes container, and bare-metal hosts move
// 7 to 13 times as much through host memory: 4 RTX 4090s 18 GB/s over SHM
// (NVIDIA/nccl#1603: "compared to SHM, got 18->22 BUSBW"; 0.75 of PCIe
// Gen4's 24 GB/s), 8 and 4 RTX 5090s 28 and 35 GB/s (NVIDIA/nccl#1639,
// all_reduce_perf -b 1g -e 8g -g 8; 0.58 and 0.73 of Gen5's 48 GB/s). So
// the fact host_bw is assumed, and its guess tries the cards' PCIe figure,
// which those runs approach (TestHostCopyBareMetal).
const HostCopyBW = 2.6e9

// intraPrior is the prior of intra_bw: the bus bandwidth NCCL's tuning
// model gives Ring/Simple AllReduce within one NVSwitch node of 8 GPUs
// (fewer if the NVLink domain is smaller), what NCCL's per-channel speeds
// make of the links (LinkShare of the datasheet's NVLinks times their
// rate on every generation). NCCL's speeds are its own GPUs': for a GPU
// its table does not know, or whose links the description changed (an
// AMD Instinct's Infinity Fabric), the prior is LinkShare (InfinityShare)
// of the hardware's figure (Hardware.intraBW), and without NVLink, or where
// NCCL's model fails, the figure itself (NCCL's own for PCIe), but
// HostCopyBW between PCIe cards without P2P.
func (m *Machine) intraPrior() float64 {
	h := &m.Hardware
	if h.hostCopy() {
		return h.hostBW()
	}
	if !h.ncclLinks() {
		if h.Fabric.oneHop() && h.links() > 0 && h.GPU.NVLinkBW > 0 {
			if h.Fabric == FabricInfinity {
				return InfinityShare * h.intraBW()
			}
			return LinkShare * h.intraBW()
		}
		return h.intraBW()
	}
	per := 8
	if d := h.Domain; d > 0 {
		per = min(per, d)
	}
	rn, err := m.run(Query{Collective: commmodel.AllReduce, Ranks: per, PerNode: per})
	if err != nil {
		return h.intraBW()
	}
	ref, err := m.refs.get(rn)
	if err != nil {
		return h.intraBW()
	}
	// NCCL's bandwidth is the algorithm bandwidth.
	bw := ref.full.Bandwidth(nccl.FuncAllReduce, nccl.AlgoRing, nccl.Simple) * commmodel.AllReduce.BusFactor(per)
	if !(bw > 0) {
		return h.intraBW()
	}
	return bw
}

// stallRatio is how many times longer than two larger sizes of its table a
// row must take to be a stall: no switch of NCCL's algorithm or protocol
// makes a larger call that much faster (the steepest such drop in the
// repository's real logs is under 2x), while a row that another job or a
// network fault held up can take fifty times as long. inPlaceRatio is the
// same for the call timed in place in the same run, the same work but for
// its buffers: in the repository's real logs an out-of-place time is under
// twice its in-place time (1.92x at most) but at the stalls.
const (
	stallRatio   = 4
	inPlaceRatio = 2
	// inPlaceAgree is how near most rows' in-place times must be to their
	// out-of-place ones for the column to tell stalls: the real logs'
	// medians lie within a few percent.
	inPlaceAgree = 1.5
)

// withoutStalls returns the tables without their stalled rows (stalls),
// which did not time the collective alone, and a note for each table that
// had some. The tables passed in are not changed.
func withoutStalls(tables []Table) ([]Table, []string) {
	var notes []string
	out := make([]Table, 0, len(tables))
	for _, t := range tables {
		var kept []Point
		var stalled, held []string
		var why stall
		for k, s := range rowStalls(t.Points) {
			switch {
			case s == stallHeldUp:
				held = append(held, units.FormatSize(t.Points[k].Size))
			case s != 0:
				stalled = append(stalled, units.FormatSize(t.Points[k].Size))
				why |= s
			default:
				kept = append(kept, t.Points[k])
			}
		}
		if len(stalled)+len(held) == 0 {
			out = append(out, t)
			continue
		}
		leaves := func(n int) string {
			switch {
			case len(kept) == 0:
				return "the calibration leaves the table out"
			case n == 1:
				return "the calibration leaves it out"
			}
			return "the calibration leaves them out"
		}
		if len(kept) > 0 {
			t.Points = kept
			out = append(out, t)
		}
		if len(stalled) > 0 {
			rows, they := "the rows of "+strings.Join(stalled, ", ")+" take", "they"
			if len(stalled) == 1 {
				rows, they = "the row of "+stalled[0]+" takes", "it"
			}
			notes = append(notes, fmt.Sprintf("%s: %s %s: %s did not time the collective alone (another job, a network fault, a cold first call), and %s",
				t.Name, rows, why, they, leaves(len(stalled))))
		}
		for _, r := range held {
			notes = append(notes, fmt.Sprintf("%s: the row of %s takes %s, as no one choice of NCCL's grows: something held it up (another job, a network fault), or NCCL ran that size alone on a far slower choice, which a rerun tells apart; %s",
				t.Name, r, stallHeldUp, leaves(1)))
		}
	}
	return out, notes
}

// stalledRows reports for each row whether it stalled by any test.
func stalledRows(kinds []stall) []bool {
	out := make([]bool, len(kinds))
	for i, k := range kinds {
		out[i] = k != 0
	}
	return out
}

// A stall is the set of tests by which a row stalled (stalls).
type stall uint8

const (
	stallLarger  stall = 1 << iota // over stallRatio times two larger sizes
	stallPerByte                   // over stallRatio times two smaller sizes at their time per byte
	stallInPlace                   // over inPlaceRatio times the same call in place
	stallHeldUp                    // grew faster than its bytes, and fell after (heldUpRows)
)

// String says what the rows of s took: "more than 4 times as long as two
// larger sizes of the table, or 2 times as long as the same call in place".
func (s stall) String() string {
	var what []string
	if s&stallLarger != 0 {
		what = append(what, fmt.Sprintf("more than %d times as long as two larger sizes of the table", stallRatio))
	}
	if s&stallPerByte != 0 {
		what = append(what, fmt.Sprintf("more than %d times as long as two smaller sizes would at their time per byte", stallRatio))
	}
	if s&stallInPlace != 0 {
		what = append(what, fmt.Sprintf("more than %d times as long as the same call in place", inPlaceRatio))
	}
	if s&stallHeldUp != 0 {
		what = append(what, "longer than the row before it by more than its bytes grew, and longer than the row after it")
	}
	return strings.Join(what, ", or ")
}

// rowStalls is stalls with the held-up rows among the others (heldUpRows,
// stallHeldUp): the one test of a row that did not time its choice of
// NCCL's alone, which the calibration leaves out and diagnose names.
func rowStalls(points []Point) []stall {
	kinds := stalls(points)
	for i, h := range heldUpRows(points, stalledRows(kinds)) {
		if h {
			kinds[i] |= stallHeldUp
		}
	}
	return kinds
}

// stalls reports for each point the tests by which it stalled, 0 for
// none: it took more than
// stallRatio times as long as two larger sizes (the second least time of
// a larger size, so that one larger row too fast to be true does not make
// every smaller row a stall), or as two smaller sizes at their time per
// byte (a plateau of stalls, where rows of 64 MiB to 512 MiB all take
// about 100 ms), or inPlaceRatio times as long as the same call in place,
// where the table's in-place times agree with the others.
func stalls(points []Point) []stall {
	out := make([]stall, len(points))
	inPlace := inPlaceTells(points)
	// The points by size, in runs of one size each, so that one pass down
	// the sizes keeps the two least times of the larger ones and one pass
	// up the two least times per byte of the smaller ones: n log n, where
	// each row against every other is n².
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(points[a].Size, points[b].Size) })
	var runs [][]int
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && points[order[j]].Size == points[order[i]].Size {
			j++
		}
		runs, i = append(runs, order[i:j]), j
	}
	// Down the sizes: second is the second least time of a larger size.
	least, second := math.Inf(1), math.Inf(1)
	for r := len(runs) - 1; r >= 0; r-- {
		for _, k := range runs[r] {
			if points[k].Time > stallRatio*second {
				out[k] |= stallLarger
			}
		}
		for _, k := range runs[r] {
			least, second = min(least, points[k].Time), min(second, max(least, points[k].Time))
		}
	}
	// Up the sizes: a call moves its bytes no slower than a smaller one,
	// which has less to move for the same fixed cost, so the smaller
	// sizes' two least times per byte (q1, q2) bound p.
	q1, q2 := -1, -1
	perByte := func(q int) float64 { return points[q].Time / points[q].Size }
	for _, run := range runs {
		for _, k := range run {
			p := points[k]
			if q2 >= 0 && p.Time > stallRatio*(points[q2].Time*p.Size/points[q2].Size) {
				out[k] |= stallPerByte
			}
			if inPlace && p.InPlace > 0 && p.Time > inPlaceRatio*p.InPlace {
				out[k] |= stallInPlace
			}
		}
		for _, k := range run {
			if !(points[k].Size > 0) {
				continue
			}
			switch {
			case q1 < 0 || perByte(k) < perByte(q1):
				q1, q2 = k, q1
			case q2 < 0 || perByte(k) < perByte(q2):
				q2 = k
			}
		}
	}
	return out
}

// inPlaceTells reports whether the points' in-place times tell a stall:
// only where they time the same calls as the out-of-place ones, most rows
// within inPlaceAgree of them; a column apart throughout is the run's or
// a damaged log's.
func inPlaceTells(points []Point) bool {
	var apart []float64
	for _, p := range points {
		if p.InPlace > 0 {
			apart = append(apart, math.Abs(math.Log(p.Time/p.InPlace)))
		}
	}
	return len(apart) > 0 && fit.Median(apart) < math.Log(inPlaceAgree)
}

// busIDs returns the PCI buses of t's GPUs from its Rank lines, sorted
// and joined ("1a,1b", from "[0x1a]" or "[0000:1a:00]" alike), "" where
// the lines do not give every rank's.
func busIDs(t *Table) string {
	var ids []string
	for _, d := range t.Evidence.Devices {
		if d.BusID == "" {
			return ""
		}
		id := strings.ToLower(strings.TrimPrefix(d.BusID, "0x"))
		if f := strings.Split(id, ":"); len(f) == 3 {
			id = f[1] // domain:bus:device
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(t.Evidence.Devices) < t.Ranks() {
		return ""
	}
	slices.Sort(ids)
	return strings.Join(ids, ",")
}

// sameRunRatio is how far apart two tables of one run shape may lie at a
// size before that size says they are different runs: separate runs of one
// shape agree within about 1% (Together's AllReduce on one H100 node,
// pinned to Ring and left to a tuner that chose Ring, from 64 MiB). Where a
// third of their common sizes or more lie farther apart, the runs differ.
const sameRunRatio = 1.2

// disagreements says where two tables of one run shape (Table.Query: the
// collective, hosts, GPUs a host, launch layout, pins and release) take
// times more than sameRunRatio apart at a third of their common sizes or
// more: the runs differed in something their logs do not print, and no
// one description of the machine can fit both. A table gets one note, with
// the first earlier table it disagrees with.
func disagreements(tables []Table) []string {
	var out []string
	for j := range tables {
		for i := range j {
			a, b := &tables[i], &tables[j]
			// A comm line in one log alone (one run with NCCL_DEBUG=INFO,
			// one without) says nothing the other denies: the shapes are
			// compared without the domains it gives.
			qa, qb := a.Query(), b.Query()
			if qa.ran == (shape{}) || qb.ran == (shape{}) {
				qa.ran, qb.ran = shape{}, shape{}
			}
			if qa != qb {
				continue
			}
			common, apart := 0, 0
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range a.Points {
				for _, q := range b.Points {
					if p.Size == q.Size {
						r := q.Time / p.Time
						common++
						if Gap(r) > sameRunRatio {
							apart++
						}
						lo, hi = min(lo, r), max(hi, r)
					}
				}
			}
			if common == 0 || 3*apart < common {
				continue
			}
			why := "the runs differed in something their logs do not print (an NCCL_ variable such as NCCL_ALGO, NCCL_PROTO or NCCL_MIN_NCHANNELS, the NCCL release, CUDA graphs, the hosts); " +
				"give each file what it set (FILE:algo=..., proto=..., version=..., graph=N), or calibrate on one"
			if apartSmall(a, b) || apartSmall(b, a) {
				why = "the runs differ only at small sizes, where the host's launches bound a call: one may have run with CUDA graphs (nccl-tests -G, which some builds' header prints as graph: 0), or another launch layout (-g, -t); " +
					"calibrate on the run launched as the job is (the model's launch floor may not tell the two apart even where each file says what it ran: FILE:graph=1, g=N, threads=N)"
			}
			if ga, gb := busIDs(a), busIDs(b); ga != "" && gb != "" && ga != gb {
				why = fmt.Sprintf("they ran on different GPUs of their hosts (bus %s against %s), whose paths to each other may differ (nvidia-smi topo -m shows them); calibrate on the run of the GPUs the job uses", ga, gb)
			}
			out = append(out, fmt.Sprintf("%s and %s ran the same shape (%s on %d x %d), but their times differ by more than %.1fx at %d of their %d common sizes (the second takes %.2fx to %.2fx the first's): %s",
				a.Name, b.Name, a.Collective, a.Nodes, a.PerNode, sameRunRatio, apart, common, lo, hi, why))
			break
		}
	}
	return out
}

// apartSmall reports whether the run of fast is faster than slow's by more
// than sameRunRatio only below some size, from which their times agree
// within it (at two common sizes at least), and never slower by as much.
func apartSmall(slow, fast *Table) bool {
	n, last := 0, -1
	for _, p := range slow.Points {
		for _, q := range fast.Points {
			if p.Size != q.Size {
				continue
			}
			switch r := q.Time / p.Time; {
			case r > sameRunRatio:
				return false
			case r < 1/sameRunRatio:
				last = n
			}
			n++
		}
	}
	return last >= 0 && n-last > 2
}

// choiceSizes returns the least and the most bytes of the points of
// tables that ran each algorithm and protocol in design d (whose terms are
// the tables' points in order), of tables within one node and across nodes
// apart. Grouped sends (AllToAll, SendRecv) run as p2p operations, outside
// NCCL's algorithms and its tuner: their choice is no evidence for a
// collective's (a rule, a pin), and they are left out.
func choiceSizes(tables []Table, d *design) (ran [2][nccl.NumAlgos][nccl.NumProtocols][2]float64) {
	i := 0
	for _, t := range tables {
		across := 0
		if t.Nodes > 1 {
			across = 1
		}
		for _, p := range t.Points {
			if i >= len(d.terms) {
				return ran
			}
			if !grouped(t.Collective) {
				r := &ran[across][d.terms[i].ch.algo][d.terms[i].ch.proto]
				if r[0] == 0 || p.Size < r[0] {
					r[0] = p.Size
				}
				r[1] = max(r[1], p.Size)
			}
			i++
		}
	}
	return ran
}
