package predict

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/presets"
	"github.com/inframethod/commlab/units"
)

// ForHosts returns h for runs of perHost GPUs a node (the most GPUs per
// node of any table or query, as far as the evidence shows), whose host
// holds at least that many (an assumed lower bound of gpus_per_node, where
// nothing gives the host's GPUs). Where the fabric is only assumed, it is
// the fabric of the host: of the host's GPUs where the catalog, a capture
// or the user gives them, else of perHost. A board of four or fewer NVLink
// GPUs has no NVSwitch, and more than four share one.
// HGX A100 and H100 boards of 4 and GH200 nodes of 4 join every pair of
// GPUs by NVLinks of its own (nvidia-smi topo -m prints NV4 or NV6 between
// each pair), so the fabric is a mesh and there is no NVLS. An NVLink
// domain that spans hosts (Domain) keeps its switch.
//
// An NVLink bridge that a table of 2 GPUs a node showed (withBridge) joins
// pairs of cards: hosts of more GPUs run their rings over PCIe between the
// pairs, so for them the fabric is PCIe again.
func (h Hardware) ForHosts(perHost int) Hardware {
	h = h.atLeast(perHost, SourceAssumed)
	host := max(perHost, h.PerHost())
	if host > 2 && h.bridged() {
		h.Fabric, h.NVLinks = FabricPCIe, 0
		h.Sources.Fabric, h.Sources.NVLinks, h.Sources.NVLS = SourceAssumed, SourceCatalog, SourceAssumed
	}
	if host >= 2 && host <= 4 && h.Fabric == FabricNVSwitch && h.Domain == 0 && !h.given(h.Sources.Fabric) {
		h.Fabric = FabricMesh
		if !h.given(h.Sources.NVLS) {
			h.NVLS = false
		}
	}
	if host > 4 && h.Fabric == FabricMesh && !h.given(h.Sources.Fabric) && !(cubeMesh(h.GPU) && host <= 8) {
		// No board joins more than four NVLink GPUs pair by pair but the
		// SXM2 boards' cube-mesh of 8: more share a switch (GH200 NVL32's,
		// a node of its domain).
		h.Fabric = FabricNVSwitch
		if !h.given(h.Sources.NVLS) {
			h.NVLS = h.GPU.SupportsNVLS()
		}
	}
	return h
}

// HostGPUs returns the most GPUs a host of the tables' machine is known to
// hold: a table's GPUs a node, or a device index its Rank lines print (a
// run of 2 GPUs a node on devices 4 and 5 had at least 6): the lower bound
// of gpus_per_node that the logs give (FromTables), for ForHosts.
func HostGPUs(tables []Table) int {
	n := 0
	for i := range tables {
		n = max(n, tables[i].PerNode, tables[i].DevicesShown())
	}
	return n
}

// DevicesShown returns the most GPUs t's Rank lines show on one host:
// their highest device index and one (device 3 is a host's fourth GPU at
// least), 0 where they print none. Unlike the table's GPUs a node, which
// under an NVLink domain may span hosts, it bounds a host.
func (t *Table) DevicesShown() int {
	n := 0
	for _, d := range t.Evidence.Devices {
		n = max(n, d.Device+1)
	}
	return n
}

// given reports that a fact's source is evidence, not an assumption.
func (h *Hardware) given(s Source) bool { return s != "" && s != SourceAssumed }

// A Guess is an assumed fact that moves a prediction: with Alternative
// in its place the prediction at Size is Ratio times what it is with the
// fact as assumed.
type Guess struct {
	// Fact is the assumed fact.
	Fact Fact
	// Alternative is the other value tried ("4", "200 Gb/s", "false").
	Alternative string
	// Size is where the prediction moves most, bytes, and Ratio the
	// prediction with Alternative over the prediction with Fact there.
	Size, Ratio float64
	// Choice is the algorithm and protocol ("Ring/LL128") the prediction
	// with Alternative runs at Size where that differs from the one with
	// Fact, "" where it does not: the calibration under the alternative
	// may take another choice, which can move the time either way.
	Choice string
	// Keys are the -hw keys of the facts the alternative changes: two
	// where they go together (half the NICs at half their rate), a guess
	// that stands for those keys' guesses alone (covers).
	Keys []string
	// Hint is the -hw setting that settles it ("nics=N"), or for NCCL's
	// release (Fact nccl_version) the calibration file's key
	// ("FILE:version=V"), which Pins.Version takes in a program, and
	// without tables UntabledVersionHint.
	Hint string
	// Times are the prediction with Alternative at each of the sizes
	// Guesses was given, s: what HoldGuesses widens an interval to hold.
	Times []float64
	// Better reports that the tables the fact concerns fit Alternative
	// better than the fact as assumed, by more than FitMargin and FitFloor
	// (the median of their median errors): the tables speak for it, though
	// only the fact given settles it.
	Better bool
}

// Flag is what settles g on the command line: its -hw setting ("-hw
// nics=N"), or for NCCL's release the calibration file's key on each file
// whose log prints none.
func (g Guess) Flag() string {
	switch {
	case g.Fact.Key == "version" && g.Hint == UntabledVersionHint:
		return "-calibrate " + g.Hint + " (a log of the machine, and the release the run used): without a log, no flag names the release"
	case g.Fact.Key == "version":
		return g.Hint + " (the release the run used) on each file whose log prints none"
	}
	return "-hw " + g.Hint
}

// UntabledVersionHint is the Hint of the guess of NCCL's release where
// there are no calibration tables (the model of the GPU's name alone):
// no file's key settles it, but calibrating on a log of the machine, with
// its release, does.
const UntabledVersionHint = "LOG:version=V"

// HoldGuesses returns preds, predictions at the sizes Guesses was given
// for gs, with each interval widened to hold every guess's time there: a
// machine the evidence does not tell from the one described (the tables
// fit the guess no worse, or there are none) may be the one measured, and
// an interval of the measured time holds its prediction too. Giving the
// facts the guesses name (their Hint) drops them, and the interval narrows
// to the model's own. A guess without a finite positive time at every
// size is passed over.
func HoldGuesses(preds []Prediction, gs []Guess) []Prediction {
	out := slices.Clone(preds)
	for _, g := range gs {
		if len(g.Times) != len(out) || slices.ContainsFunc(g.Times, func(t float64) bool { return !(t > 0 && t < math.Inf(1)) }) {
			continue
		}
		for i := range out {
			out[i].Low, out[i].High = min(out[i].Low, g.Times[i]), max(out[i].High, g.Times[i])
		}
	}
	return out
}

// GuessMoves is the relative change of a prediction from which a guess
// matters: 10%.
const GuessMoves = 0.10

// Guesses returns the assumed facts of h whose alternative moves the
// prediction of q at sizes by more than GuessMoves at some size, each
// tried alone (and the NICs' count and rate together, where neither alone
// moves it as far): the NICs per node and their rate (alternatives says
// which other values), the
// network's latency (its prior times e^NetworkSlower, rounded: 6 times NCCL's figure, 12 on an AMD host, whose prior is RCCL's), the host CPU (AMD for Intel)
// and the NICs' path (behind the CPU) where the tables or the query cross
// nodes, NVLS off where it is assumed on, and NVSwitch against a mesh on
// hosts of four or fewer GPUs, and on an NVLink domain across hosts (a
// GB200 rack) every host its own domain where the run crosses hosts and
// neither the user nor a log's MNNVL line places them. With tables, each description is
// calibrated on them (without the interval's refits), and one that fits
// the tables its fact concerns (alternative.concerns) worse than the
// description by more than FitMargin and FitFloor is no guess: the tables
// speak against it; without, NCCL's uncalibrated
// model compares them (Untabled). The guesses come in
// that order: the NICs, their rate, NVLS, the network's latency, the CPU,
// the NICs' path, the fabric, the domain; last, NCCL's release where a log prints none
// (olderRelease), whose Fact is nccl_version, keyed "version", and whose
// Hint is the calibration file's key (FILE:version=V), not a -hw one.
func Guesses(h Hardware, tables []Table, q Query, sizes []float64) ([]Guess, error) {
	g, err := newGuesser(h, tables, q)
	if err != nil {
		return nil, err
	}
	return g.at(sizes)
}

// A guesser holds what Guesses calibrates for a query, once, to give the
// guesses at any sizes (at): the description calibrated on the tables
// (nil without tables), its alternatives, and the tables calibrated as
// NCCL's oldest release that builds the GPU's code (olderRelease).
type guesser struct {
	h    Hardware
	q    Query
	base *Machine
	alts []tried
	// release is the older release's calibration (m nil without tables,
	// whose query then names the release: releaseQ), ok false where no
	// log lacks its release or the tables speak against it.
	release   tried
	releaseQ  Query
	releaseOK bool
}

// newGuesser calibrates the description h, its alternatives and the
// older release on tables for q. logs are tables of the machine the
// calibration does not take (the table diagnose holds to the model),
// whose NCCL debug lines rule alternatives out as the tables' do
// (alternatives): a log that shows GPUDirect RDMA at NCCL's default level
// rules out the NICs behind the CPU whether it calibrates the model or is
// diagnosed.
func newGuesser(h Hardware, tables []Table, q Query, logs ...Table) (*guesser, error) {
	base, alts, err := triedAlternatives(h, tables, q, logs)
	if err != nil {
		return nil, err
	}
	g := &guesser{h: h, q: q, base: base, alts: alts}
	g.release, g.releaseQ, g.releaseOK = olderRelease(h, tables, q, base)
	return g, nil
}

// at returns the guesses at sizes, as Guesses does.
func (gr *guesser) at(sizes []float64) ([]Guess, error) {
	basePreds, err := predictOn(gr.base, gr.h, gr.q, sizes)
	if err != nil {
		return nil, err
	}
	facts := gr.h.Facts()
	var out []Guess
	for _, a := range gr.alts {
		if a.against {
			continue // the tables speak against it: it fits them worse
		}
		preds, err := predictOn(a.m, a.hw, gr.q, sizes)
		if err != nil {
			continue // a description the query cannot run on says nothing of this one
		}
		g := a.guess(facts)
		g.Better = a.better
		if g.moves(sizes, basePreds, preds) && !(len(a.keys) == 2 && alone(out, g)) {
			out = append(out, g)
		}
	}
	if gr.releaseOK {
		if preds, err := predictOn(gr.release.m, gr.h, gr.releaseQ, sizes); err == nil {
			hint := "FILE:version=V"
			if gr.base == nil {
				// No file to key: the model of the GPU's name alone takes
				// no release, and a log of the machine is what settles it.
				hint = UntabledVersionHint
			}
			g := Guess{Fact: versionFact(nccl.Latest, nccl.Latest, SourceAssumed),
				Alternative: gr.release.value, Hint: hint}
			if g.moves(sizes, basePreds, preds) {
				out = append(out, g)
			}
		}
	}
	return out, nil
}

// alone reports whether a guess of out on one of both's facts alone
// moves the prediction within GuessMoves of both together: the one says
// what the two do. Where both together move it further (half the NICs at
// half their rate: a quarter of a node's network), both is a guess of its
// own, and the interval holds it too.
func alone(out []Guess, both Guess) bool {
	return slices.ContainsFunc(out, func(g Guess) bool { return both.covers(g) && sameMove(both.Ratio, g.Ratio) })
}

// sameMove reports whether ratios a and b of a prediction's move lie
// within GuessMoves of each other: one says what the other does.
func sameMove(a, b float64) bool { return math.Abs(math.Log(a/b)) <= math.Log1p(GuessMoves) }

// covers reports whether g, a guess of several facts together, stands for
// o, a guess of one of them alone.
func (g Guess) covers(o Guess) bool {
	return len(g.Keys) > 1 && len(o.Keys) == 1 && slices.Contains(g.Keys, o.Keys[0])
}

// moves sets g's Size and Ratio where preds, the predictions at sizes with
// g's alternative, differ most from base, and its Times to preds', and
// reports whether they differ there by more than GuessMoves.
func (g *Guess) moves(sizes []float64, base, preds []Prediction) bool {
	g.Times = make([]float64, len(preds))
	for i := range preds {
		g.Times[i] = preds[i].Time
		if r := preds[i].Time / base[i].Time; math.Abs(math.Log(r)) > math.Abs(math.Log(g.Ratio)) || g.Ratio == 0 {
			g.Size, g.Ratio, g.Choice = sizes[i], r, ""
			if c := choiceOf(preds[i]); c != choiceOf(base[i]) {
				g.Choice = c
			}
		}
	}
	return math.Abs(g.Ratio-1) > GuessMoves
}

// olderRelease returns the tables calibrated as another NCCL release where
// a table's log prints none (its tuner is taken as Latest's, versionOf)
// and the query names none: the tables' unknown releases taken as the
// oldest the model follows that builds code for the GPU (nccl.OldestFor:
// 2.18.0, or 2.25.1 for Blackwell), and the query to predict with it (the
// release named where there are no tables, for NCCL's uncalibrated model
// of it). It is false where every log prints its release or the tables
// speak against the older one (triedAlternatives' test, over every
// table). Releases differ in what NCCL's tuner enables (LL128 before 2.27
// only on the GPUs NCCL had validated, Blackwell among them from 2.25; PAT
// from 2.23; a Grace CPU's NICs as PHB before 2.27, with no LL128 across
// nodes) and in its latencies. RCCL's releases are not NCCL's, and its
// tables, and an AMD GPU's (GPU.ISA), whose logs may not say RCCL ran
// them, are passed over.
func olderRelease(h Hardware, tables []Table, q Query, base *Machine) (tried, Query, bool) {
	if q.Version != (nccl.Version{}) || RanRCCL(tables) || h.GPU.ISA != "" {
		return tried{}, q, false
	}
	oldest := nccl.OldestFor(h.GPU.CompCap)
	older := slices.Clone(tables)
	unknown := len(tables) == 0
	for i := range older {
		if older[i].Version == (nccl.Version{}) {
			older[i].Version, unknown = oldest, true
		}
	}
	if !unknown {
		return tried{}, q, false
	}
	m, err := calibratedWith(h, older)
	if err != nil {
		return tried{}, q, false
	}
	oq := q
	if m == nil {
		oq.Version = oldest // NCCL's uncalibrated model of the release
	}
	if m != nil && base != nil {
		was, is := base.tableErrors(tables), m.tableErrors(older)
		if was == nil || is == nil || !(fit.Median(is) <= fit.Median(was)*(1+FitMargin)+FitFloor) {
			return tried{}, q, false
		}
	}
	return tried{alternative: alternative{keys: []string{"version"}, value: oldest.String(), hw: h}, m: m}, oq, true
}

// A tried alternative is one calibrated on the tables without the
// interval's refits (m nil without tables); against reports that it fits
// the tables its fact concerns (alternative.concerns) worse than the
// description by more than FitMargin and FitFloor: the tables speak
// against it.
type tried struct {
	alternative
	m       *Machine
	against bool
	// better reports that the tables fit it better than the description,
	// by as much (Guess.Better).
	better bool
}

// triedAlternatives returns h calibrated on tables without the interval's
// refits (nil without tables) and h's alternatives for runs of tables and q
// (alternatives) that describe the tables, each calibrated alike and
// marked where the tables speak against it, less the network's latency
// where the tables fit it (no prior of it is left to guess). The
// alternatives are those of the tables and logs together (newGuesser).
func triedAlternatives(h Hardware, tables []Table, q Query, logs []Table) (*Machine, []tried, error) {
	base, err := calibratedWith(h, tables)
	if err != nil {
		return nil, nil, err
	}
	fitsNetLatency := base != nil && len(base.Params) == numParams && base.Params[parInter].Identified
	var baseErrs []float64
	if base != nil {
		baseErrs = base.tableErrors(tables)
	}
	var out []tried
	for _, a := range h.alternatives(append(slices.Clip(tables), logs...), q.PerNode, q.Ranks > q.PerNode) {
		if a.keys[0] == "net-lat" && fitsNetLatency {
			continue
		}
		m, err := calibratedWith(a.hw, tables)
		if err != nil {
			continue // not a description of these tables
		}
		var against, better bool
		if m != nil && baseErrs != nil {
			compare := func(m *Machine) (against, better bool) {
				var was, is []float64
				for i, e := range m.tableErrors(tables) {
					if a.concerns(&tables[i]) {
						was, is = append(was, baseErrs[i]), append(is, e)
					}
				}
				return len(is) > 0 && !(fit.Median(is) <= fit.Median(was)*(1+FitMargin)+FitFloor),
					len(is) > 0 && !(fit.Median(was) <= fit.Median(is)*(1+FitMargin)+FitFloor)
			}
			against, better = compare(m)
			if fast := a.hw; against && a.placement() && blackwellUltra(fast.GPU) && !fast.given(fast.Sources.NICBW) && fast.nicBW() < cx8NICBW && m.pushesBound(parNICBW) {
				// Hosts in separate NVLink domains put a table's traffic
				// across hosts on the NICs, which the tables would have
				// faster than the assumed rate allows: at ConnectX-8's
				// rate, the NICs' own guess, the placement may fit.
				fast.NICBW = cx8NICBW
				if mf, err := calibratedWith(fast, tables); err == nil && mf != nil {
					against, _ = compare(mf)
				}
			}
		}
		out = append(out, tried{a, m, against, better})
	}
	return base, out, nil
}

// nicPathSettled reports that the NICs' path is no guess: given, or
// within PXB by the tables' debug lines (gdrWithinPXB), where NCCL runs
// LL128 across nodes as it does on the path assumed.
func (h *Hardware) nicPathSettled(tables []Table) bool {
	return h.given(h.Sources.NICPath) || gdrWithinPXB(tables)
}

// gdrWithinPXB reports that a table's NCCL debug lines show GPUDirect
// RDMA between its GPUs and NICs (a channel "via NET/.../GDRDMA", or
// "Connected all rings ... GDR 1") under an NCCL_NET_GDR_LEVEL its
// environment sets to PXB or nearer: NCCL enables it only where the NIC
// lies within that level of the GPU (netGdrLevel, src/graph/paths.cc), so
// the NICs are not behind the CPU (PHB). A log without that line settles
// nothing: NCCL's default level is PXB, but the line is often trimmed
// from a pasted log, and sites that put the NICs behind the CPU raise the
// level to PHB in every job's environment (ALCF's Polaris), so GPUDirect
// RDMA alone leaves the path a guess.
func gdrWithinPXB(tables []Table) bool {
	for i := range tables {
		e := &tables[i].Evidence
		if !e.GPUDirect.Known() || !e.GPUDirect.Value {
			continue
		}
		k := slices.IndexFunc(e.Env, func(s nccltests.Setting) bool { return s.Name == "NCCL_NET_GDR_LEVEL" })
		if k < 0 {
			continue
		}
		if level, err := nccl.ParsePathType(strings.TrimSpace(e.Env[k].Value)); err == nil && level <= nccl.PathPXB {
			return true
		}
	}
	return false
}

// guess is the Guess of a, its Fact and Hint from facts, h's Facts, with
// no Size or Ratio.
func (a alternative) guess(facts []Fact) Guess {
	var hints []string
	for _, key := range a.keys {
		v := hintValue(key)
		if key == "nic-bw" && a.hw.sockets != "" {
			v = "RATE (the log shows NCCL ran over sockets, " + a.hw.sockets + ": the interface's speed, which NCCL reads from " + sysfsSpeed(a.hw.sockets) + " and the log does not print, such as 10Gb/s, 25Gb/s or 100Gb/s)"
		}
		hints = append(hints, key+"="+v)
	}
	g := Guess{Alternative: a.value, Hint: strings.Join(hints, ","), Keys: a.keys}
	var names, values []string
	for _, key := range a.keys {
		for _, f := range facts {
			if f.Key == key {
				g.Fact = f
				names, values = append(names, f.Name), append(values, f.Value)
			}
		}
	}
	if a.keys[0] == "domain" { // the rack is the catalog's; where the run's hosts are is guessed
		g.Fact.Value += " with the run's hosts in the fewest domains that hold them"
	}
	if len(a.keys) > 1 { // the facts together, one guess
		g.Fact = Fact{Name: strings.Join(names, " and "), Value: strings.Join(values, " of "), Source: SourceAssumed, Key: a.keys[0]}
	}
	return g
}

// changed returns the facts of facts (the described machine's) that a
// changes, and a's values of them, in a's order.
func (a alternative) changed(facts []Fact) (from []Fact, to []string) {
	other := a.hw.Facts()
	for _, key := range a.keys {
		k := slices.IndexFunc(facts, func(f Fact) bool { return f.Key == key })
		o := slices.IndexFunc(other, func(f Fact) bool { return f.Key == key })
		if k >= 0 && o >= 0 {
			from, to = append(from, facts[k]), append(to, other[o].Value)
		}
	}
	return from, to
}

// An alternative is h with an assumed fact changed, or two that go
// together: the Describe keys of the facts and their other value.
type alternative struct {
	keys  []string
	value string
	hw    Hardware
}

// placement reports that a is where a run's hosts are (in one NVLink
// domain or in several), which no tuner rule rests on: a communicator
// placed so is another count of nodes to NCCL, whose rules serve it
// (Machine.TunerPlan).
func (a alternative) placement() bool { return a.keys[0] == "domain" }

// concerns reports whether table t's runs depend on a's facts: the
// network's (the NICs, their rate and path, the network's latency, the
// CPU that drives them) only those that cross nodes, the others every
// table. A run within one node fits an alternative of the network as well
// as the description, so it says nothing of it, and a median over every
// table would hide the tables that do.
func (a alternative) concerns(t *Table) bool {
	switch a.keys[0] {
	case "nics", "nic-bw", "nic-path", "net-lat", "cpu":
		return t.Nodes > 1
	}
	return true
}

// alternatives returns h with each assumed fact that could matter
// changed in turn, for runs of tables and a query of perNode GPUs a node
// (0 for none) that crosses nodes or not: half the NICs per node (one on
// a host of PCIe cards) and half their rate (ConnectX-8's 800 Gb/s on
// Blackwell Ultra, Slingshot 400's on Slingshot), the network's latency at its prior times e^NetworkSlower (6 times NCCL's figure), the other x86
// vendor and a NIC behind the CPU (PHB) where some run crosses nodes, NVLS off where it is assumed on, NVSwitch
// against a mesh on hosts of four GPUs or fewer, on hosts of two
// cards that the catalog gives an NVLink bridge, the bridge, and on an
// NVLink domain across hosts every host its own domain.
func (h Hardware) alternatives(tables []Table, perNode int, acrossNodes bool) []alternative {
	perHost := perNode
	for i := range tables {
		acrossNodes = acrossNodes || tables[i].Nodes > 1
		perHost = max(perHost, tables[i].PerNode)
	}
	var alts []alternative
	if acrossNodes && !h.given(h.Sources.NICs) && perHost >= 2 {
		n := h.NICs
		if n == 0 {
			n = perHost
		}
		if n >= 2 {
			a := h
			a.NICs = n / 2
			if h.Fabric == FabricPCIe {
				// A server of PCIe cards, whose NICs are the server's
				// choice, not a board's: one a host is common among
				// inference servers (the catalog's PCIe systems give
				// none), and half of one a GPU hides it.
				a.NICs = 1
			}
			alts = append(alts, alternative{[]string{"nics"}, fmt.Sprint(a.NICs), a})
		}
	}
	if acrossNodes && !h.given(h.Sources.NICBW) {
		a := h
		a.NICBW = h.nicBW() / 2
		switch {
		case h.sockets != "" && h.nicBW() > socketFallbackBW:
			// Over sockets, the rate NCCL takes where sysfs gives none.
			a.NICBW = socketFallbackBW
		case h.slingshot && h.nicBW() == presets.SlingshotNICBW:
			// The cxi provider drives Slingshot 400's NICs too.
			a.NICBW = presets.Slingshot400NICBW
		case blackwellUltra(h.GPU) && h.nicBW() < cx8NICBW:
			// ConnectX-8 at its full rate, not a slower NIC.
			a.NICBW = cx8NICBW
		}
		alts = append(alts, alternative{[]string{"nic-bw"}, formatBitRate(a.NICBW), a})
	}
	if len(alts) == 2 && alts[1].hw.NICBW < h.nicBW() {
		// Half the NICs at half their rate: a node's network at a quarter,
		// which moves a prediction where either half alone does not (a
		// choice of NCCL's that changes with both).
		a := alts[0].hw
		a.NICBW = alts[1].hw.NICBW
		alts = append(alts, alternative{[]string{"nics", "nic-bw"}, alts[0].value + " of " + alts[1].value, a})
	}
	if h.NVLS && !h.given(h.Sources.NVLS) {
		a := h
		a.NVLS = false
		alts = append(alts, alternative{[]string{"nvls"}, "false", a})
	}
	if acrossNodes && !h.given(h.Sources.NetLatency) {
		// Public networks' latency lies up to some 16 times the prior's
		// figure (EFA, GCP's TCPXO): the slow side of their spread, about
		// the prior (RCCL's figure on an AMD host).
		a := h
		a.NetLatency = math.Round(h.netLatency() * math.Exp(NetworkSlower))
		alts = append(alts, alternative{[]string{"net-lat"}, fmt.Sprintf("%gx NCCL's", a.NetLatency), a})
	}
	if acrossNodes && !h.given(h.Sources.CPU) && cpuOf(h.CPU).cpu.Arch == nccl.X86 {
		// NCCL's network overhead per step is twice as long on AMD as on
		// Intel; the other x86 vendor is the alternative.
		a := h
		a.CPU = cpus[0].cpu
		if cpuOf(h.CPU) == cpus[0] {
			a.CPU = cpus[1].cpu
		}
		alts = append(alts, alternative{[]string{"cpu"}, cpuOf(a.CPU).key, a})
	}
	if acrossNodes && !h.nicPathSettled(tables) && (h.NICPath == 0 || h.NICPath == nccl.PathPIX) {
		// Through the CPU, NCCL runs no LL128 across nodes.
		a := h
		a.NICPath = nccl.PathPHB
		alts = append(alts, alternative{[]string{"nic-path"}, nicPathName(a.NICPath), a})
	}
	if h.hostCopy() && perHost >= 2 && !h.given(h.Sources.HostBW) {
		// Cards without P2P copy through host memory at the container
		// runs' rate (HostCopyBW); bare-metal hosts move up to three
		// quarters of the cards' PCIe figure, which the alternative takes
		// to hold them.
		a := h
		a.HostBW = h.intraBW()
		alts = append(alts, alternative{[]string{"host-bw"}, units.FormatBandwidth(a.hostBW()) + " (the PCIe figure, which bare-metal hosts approach)", a})
	}
	if (h.Fabric == FabricInfinity || h.Fabric == FabricMesh) && h.Sources.HostGPUs == SourceAssumed && perHost >= 2 && perHost < h.hostGPUs {
		// A host of the run's GPUs alone, each pair on more of the
		// GPU's links (sendLinks), where the host's GPUs are assumed
		// (amdMesh).
		a := h
		a.hostGPUs = perHost
		alts = append(alts, alternative{[]string{"gpus"}, fmt.Sprint(perHost), a})
	}
	if perHost <= 4 && !h.given(h.Sources.Fabric) {
		switch h.Fabric {
		case FabricMesh:
			a := h
			a.Fabric, a.NVLS = FabricNVSwitch, h.GPU.SupportsNVLS()
			alts = append(alts, alternative{[]string{"fabric"}, FabricNVSwitch.String(), a})
		case FabricNVSwitch:
			a := h
			a.Fabric, a.NVLS = FabricMesh, false
			alts = append(alts, alternative{[]string{"fabric"}, FabricMesh.String(), a})
		case FabricPCIe:
			// Two cards the catalog gives an optional NVLink bridge.
			if h.GPU.BridgeLinks > 0 && perHost == 2 && h.NVLinks == 0 {
				a := h
				a.Fabric, a.NVLinks, a.NVLS = FabricMesh, h.GPU.BridgeLinks, false
				alts = append(alts, alternative{[]string{"fabric"}, FabricMesh.String(), a})
			}
		}
	}
	if g := h.HostGPUs(perHost); acrossNodes && h.Domain > g && !h.Sources.Domain.evidence() && !sharedDomain(tables) {
		// The catalog's NVLink domain across hosts (an NVL72 rack) holds
		// a run's hosts only where the scheduler placed them in one rack
		// and the job runs MNNVL: hosts in separate racks, or a job
		// without it, meet over the network, every host a node. The
		// catalog gives the rack, not where a run's hosts are: its fact
		// is guessed unless the user or a log's lines give it.
		a := h
		a.Domain = g
		alts = append(alts, alternative{[]string{"domain"}, fmt.Sprintf("%d (every host its own domain)", g), a})
	}
	return alts
}

// sharedDomain reports that a table's NCCL_DEBUG=INFO comm line shows its
// hosts in a shared NVLink domain (runDomains): the machine's hosts run
// MNNVL where the scheduler places them together.
func sharedDomain(tables []Table) bool {
	return slices.ContainsFunc(tables, func(t Table) bool {
		_, hosts, ok := runDomains(&t)
		return ok && hosts > 1
	})
}

// hintValue is what a user writes after a Describe key to settle it, as
// Describe's parser takes the key (set); "" for a key no fact has.
func hintValue(key string) string {
	switch key {
	case "nics", "links", "gpus":
		return "N"
	case "group":
		return "N (the hosts under one switch of the network's first tier, a fat tree's leaf, or in one dragonfly group)"
	case "fabric":
		// NVIDIA's fabrics, which every guess of the fabric concerns;
		// an AMD host's is Fact.Hint's.
		return "nvswitch|mesh|pcie"
	case "nic-bw":
		return "RATE (the NICs' line rate, such as 25Gb/s, 100Gb/s, 200Gb/s, 400Gb/s or 800Gb/s)"
	case "link-bw":
		return "RATE (such as 25GB/s)"
	case "host-bw":
		return "RATE (the bus bandwidth of a one-host AllReduce of these cards, which a table of the machine gives with -calibrate)"
	case "nvls", "collnet", "pairs":
		return "true|false"
	case "cpu":
		return "intel|amd|arm|power"
	case "nic-path":
		return strings.Join(nicPaths(), "|")
	case "net-lat":
		return "K (the network's latency over NCCL's figure, such as 16 for EFA on p4d.24xlarge)"
	case "domain":
		return "N (the GPUs of the NVLink domain the run's hosts share, 72 in one NVL72 rack, or a host's GPUs where they share none: NCCL_DEBUG=INFO's comm line prints MNNVL and nNodes)"
	}
	return ""
}

// calibratedWith is h calibrated on tables without the interval's refits;
// without tables, nil.
func calibratedWith(h Hardware, tables []Table) (*Machine, error) {
	if len(tables) == 0 {
		return nil, nil
	}
	return Calibrate(h, tables, &Settings{NoIntervals: true})
}

// predictOn predicts q at sizes on m, or where m is nil on h as Untabled.
func predictOn(m *Machine, h Hardware, q Query, sizes []float64) ([]Prediction, error) {
	if m == nil {
		preds, _, err := Untabled(h, q, sizes)
		return preds, err
	}
	return m.Predict(q, sizes)
}

// WithEvidence returns h with the facts that the tables' NCCL_DEBUG=INFO
// lines give (nccltests.Evidence), where nothing stronger gave them (the
// user's -hw or a topo capture): the NICs of a host, their rate, their path
// from the GPUs (from a graph search of a run across nodes), and NVLS
// (which NCCL finds only on an NVSwitch: its multicast line, else its
// count of NVLS channels), and CollNet where NCCL's lines say whether it
// set CollNet up, and NCCL's channel count ("N coll channels", the fact
// coll_channels: withChannels), with a note where the model's own graph
// search plans another (channelsNote). Where the OFI plugin runs over
// Slingshot, the rate is Slingshot's (withSlingshot). Where the tables' lines
// disagree, the first table's stand, and a note says so. The GPUs a host
// holds at least are the tables' (HostGPUs), with the source log where
// their Rank lines show them and the user's where the user gave their
// shape (hostGPUsSource), where nothing gives the host's. A GPU the
// catalog lacks has the source of the name the tables give it
// (Table.GPUFrom): its facts stay assumed.
//
// Where the lines name the EC2 instance the log ran on (aws-ofi-nccl's
// platform line, Evidence.Platform) and the catalog holds it, its NICs
// and their rate fill what no debug line gave, from the catalog: AWS
// documents them and the plugin prints no NIC speed. A note names the
// platform and its line. NCCL's own count (its device lines, the plugin's
// NIC groups, the channel lines) outranks the catalog's, and a note says
// where the two differ; the plugin's "found N nics" (Evidence.PluginNICs)
// counts its provider's devices, 32 EFA devices on P5 that it groups into
// 8 NCCL devices (presets.Systems), and stands only where nothing else
// gives the count, with a note.
func (h Hardware) WithEvidence(tables []Table) (Hardware, []string) {
	weak := func(s Source) bool { return s == "" || s == SourceAssumed || s == SourceCatalog }
	var notes []string
	seen := map[string]string{} // fact -> the first table that gave it
	// take reports whether table is the first to give fact; a later
	// table's value that differs from the first's (have), where differs,
	// is noted.
	take := func(fact, table string, value, have any, differs bool) bool {
		first, ok := seen[fact]
		if !ok {
			seen[fact] = table
			return true
		}
		if differs {
			notes = append(notes, fmt.Sprintf("%s: NCCL's debug lines give %s %v, where %s's give %v; %s's is taken", table, fact, value, first, have, first))
		}
		return false
	}
	// set reports whether table gives fact, whose source is s: where the
	// source is weak and no table before it gave the fact; where a table
	// before it did (nccl-debug), it notes a value that differs.
	set := func(s Source, fact, table string, value, have any, differs bool) bool {
		if s == SourceNCCLDebug {
			if _, ok := seen[fact]; ok {
				take(fact, table, value, have, differs)
			}
			return false
		}
		return weak(s) && take(fact, table, value, have, differs)
	}
	if !h.GPU.Known && len(tables) > 0 && h.GPU.Name == tables[0].GPU {
		// A GPU the catalog lacks is known by the name the tables give it:
		// their log's, or the user's pin.
		h.Sources.GPU = tables[0].GPUFrom.orUser()
	}
	// given notes, once a fact, where the user's -hw or a -topo capture
	// gives another value than NCCL's debug lines: the user's stands, and
	// says so.
	given := func(fact, table string, src Source, line int, logs, has, or string) {
		flag := map[Source]string{SourceUser: "-hw", SourceTopo: "-topo"}[src]
		if flag == "" || logs == has || seen["given "+fact] != "" {
			return
		}
		seen["given "+fact] = table
		notes = append(notes, fmt.Sprintf("%s: NCCL's debug lines give %s %s (line %d), where %s gives %s: %s's is taken; check that the log is of this machine%s",
			table, fact, logs, line, flag, has, flag, or))
	}
	// A capture's NIC path is not NCCL's where NCCL read another tree:
	// left out before the tables' debug lines, whose path then stands.
	h, notes = h.withTopoFileEnv(tables, notes)
	for i := range tables {
		e, name := &tables[i].Evidence, tables[i].Name
		// A count of the NICs the channel lines name is a least: a log
		// may hold some channels' lines only.
		least := slices.ContainsFunc(e.HostNets, func(hn nccltests.HostNet) bool { return hn.Line == e.NICCount.Line })
		if n := e.NICCount.Value; e.NICCount.Known() && n > 0 && h.NICs > 0 && !(least && n < h.NICs) {
			or := ""
			if n < h.NICs {
				or = ", and that none of its NICs was down: " + activePorts
			}
			given("nics_per_node", name, h.Sources.NICs, e.NICCount.Line, fmt.Sprint(n), fmt.Sprint(h.NICs), or)
		}
		nvls := nvlsRan(&tables[i])
		if nvls.Known() {
			given("nvls", name, h.Sources.NVLS, nvls.Line, fmt.Sprint(nvls.Value), fmt.Sprint(h.NVLS), "")
		}
		if n := e.NICCount.Value; e.NICCount.Known() && n > 0 && set(h.Sources.NICs, "nics_per_node", name, n, h.NICs, n != h.NICs) {
			h.NICs, h.Sources.NICs = n, SourceNCCLDebug
			if per := tables[i].PerNode; !least && ibTransport(*e) && n >= 2 && (n+1 == per || 2*(n+1) == per || 4*(n+1) == per) &&
				!(h.given(h.Sources.HostGPUs) && h.PerHost() > per) && seen["odd nics"] == "" {
				// A host built with one NIC a GPU, a pair or four lists one
				// fewer where a port is down (7 for 8 GPUs): its NICs
				// divide its GPUs, and the count read does not. A run on
				// part of a known host says nothing of it, nor do other
				// builds (Summit's 4 NICs for 6 GPUs).
				seen["odd nics"] = name
				notes = append(notes, fmt.Sprintf("%s: NCCL's debug lines list %d NICs (line %d) for a node of %d GPUs, one fewer than a host of one NIC a GPU, a pair or four has: check that none of its NICs was down, as %s; -hw nics=N gives the host's count",
					name, n, e.NICCount.Line, per, activePorts))
			}
		}
		if hn, ok := e.RunNICs(); ok && set(h.Sources.RunNICs, "nics_in_use", name, len(hn.Devices), h.RunNICs, tables[i].PerNode == h.RunGPUs && len(hn.Devices) != h.RunNICs) {
			h, notes = h.withRunNICs(&tables[i], hn, notes)
		}
		// NCCL_MIN_NCHANNELS and its kin set the count: it is the
		// setting's, not the machine's graph's.
		byEnv := slices.IndexFunc(e.Env, func(v nccltests.Setting) bool { return slices.Contains(channelSettings, v.Name) })
		if c := e.Channels.Value; e.Channels.Known() && c.Coll > 0 {
			switch {
			case byEnv >= 0 && seen["env coll_channels"] == "":
				seen["env coll_channels"] = name
				notes = append(notes, fmt.Sprintf("%s: NCCL's debug lines give %d coll channels (line %d) under %s=%s set in the environment (line %d): the count is the setting's, and the model plans its own",
					name, c.Coll, e.Channels.Line, e.Env[byEnv].Name, e.Env[byEnv].Value, e.Env[byEnv].Line))
			case byEnv < 0 && set(h.Sources.Channels, "coll_channels", name, c.Coll, h.Channels, tables[i].PerNode == h.ChannelsGPUs && c.Coll != h.Channels):
				h = h.withChannels(&tables[i])
			}
		}
		if bw := e.NICBW.Value; e.NICBW.Known() && (bw > maxNICRate || bw > 0 && bw < minRate) {
			// A speed no NIC has is a misprint or another quantity, and
			// one below what the model describes a port that is down or
			// not the network's: the model takes none of it, as -hw
			// would refuse it.
			bound := fmt.Sprintf("beyond any NIC's line rate (at most %s)", formatBitRate(maxNICRate))
			if bw < minRate {
				bound = fmt.Sprintf("below the least rate the model describes (%s): a port down to it, or a link that is not the network's", formatBitRate(minRate))
			}
			notes = append(notes, fmt.Sprintf("%s: NCCL's debug lines give NICs of %s (line %d), %s: nic_bw is not taken from them; -hw nic-bw=RATE gives it",
				name, formatBitRate(bw), e.NICBW.Line, bound))
		} else if e.NICBW.Known() && bw > 0 && set(h.Sources.NICBW, "nic_bw", name, formatBitRate(bw), formatBitRate(h.NICBW), bw != h.NICBW) {
			h.NICBW, h.Sources.NICBW = bw, SourceNCCLDebug
			if mix := speedMix(e.NICs); mix != "" {
				notes = append(notes, fmt.Sprintf("%s: NCCL's debug lines list NICs of different speeds (%s, line %d): nic_bw is taken as %s, the first of them, for every NIC; -hw nics=N,nic-bw=RATE settles it",
					name, mix, e.NICs[0].Line, formatBitRate(bw)))
			}
		} else if e.NICBW.Known() && bw > 0 {
			given("nic_bw", name, h.Sources.NICBW, e.NICBW.Line, formatBitRate(bw), formatBitRate(h.NICBW), "")
		}
		// A graph search places NICs only where the communicator crosses
		// nodes.
		across := tables[i].Nodes > 1 || e.Nodes.Value > 1
		if p := e.NICPath.Value; e.NICPath.Known() && across && set(h.Sources.NICPath, "nic_path", name, p, h.NICPath, p != h.NICPath) {
			h.NICPath, h.Sources.NICPath = p, SourceNCCLDebug
		} else if e.NICPath.Known() && across {
			given("nic_path", name, h.Sources.NICPath, e.NICPath.Line, fmt.Sprint(p), fmt.Sprint(h.NICPath), "")
		}
		if on := nvls.Value; nvls.Known() && set(h.Sources.NVLS, "nvls", name, on, h.NVLS, on != h.NVLS) {
			h.NVLS, h.Sources.NVLS = on, SourceNCCLDebug
			if on && weak(h.Sources.Fabric) {
				h.Fabric, h.Sources.Fabric = FabricNVSwitch, SourceNCCLDebug
				if h.links() == 0 {
					// A GPU nothing names or the catalog lacks has no
					// NVLinks: NVLS runs on Hopper's NVSwitch, whose
					// GPUs have 18 (UnknownGPU is Hopper's), assumed;
					// their rate stays unknown, as a capture's would.
					h.NVLinks, h.Sources.NVLinks = 18, SourceAssumed
					notes = append(notes, fmt.Sprintf("%s: NCCL's debug lines say NVLS runs, so the GPUs sit on an NVSwitch; %s names no NVLink count, and 18 (Hopper's) is assumed: -gpu NAME or -hw links=N,link-bw=RATE settles it",
						name, h.GPU.Name))
				}
			}
		}
		// Without GPUDirect RDMA NCCL stages the network's data through
		// host memory, a path the model does not have.
		if noGDR(*e) && seen["no gdr"] == "" {
			seen["no gdr"] = name
			notes = append(notes, fmt.Sprintf("%s: NCCL ran some or all of its network connections without GPUDirect RDMA (line %d), staging their data in host memory, which the model does not: across nodes, mid sizes may take longer than predicted (AWS g7e's RTX PRO 6000s over EFA without it moved 1.01 to 4.91 GB/s of bus bandwidth from 256 KiB to 4 MiB on 8 nodes, 12.37 at 1 GiB); commlab diagnose names what to check",
				name, e.GPUDirect.Line))
		}
		// The OFI plugin asked for Simple over a transport whose LL and
		// LL128 could corrupt data, and the job's own protocol stood.
		if e.PluginSimple.Known() && e.PluginProtoKept.Known() && !strings.EqualFold(tables[i].Proto, "simple") && seen["plugin proto"] == "" {
			seen["plugin proto"] = name
			proto := cmp.Or(tables[i].Proto, "unset")
			said := fmt.Sprintf("asked for NCCL_PROTO=simple (%s), as LL and LL128 could corrupt data over its transport, but the job's own NCCL_PROTO (%s) stood (line %d)",
				pluginWhy(e.PluginSimple), proto, e.PluginProtoKept.Line)
			if e.PluginSimple.Line == e.PluginProtoKept.Line { // the warning of v1.7 to v1.14
				said = fmt.Sprintf("warned that the job's NCCL_PROTO (%s) may corrupt data over its transport (%s)", proto, pluginWhy(e.PluginSimple))
			}
			notes = append(notes, fmt.Sprintf("%s: the OFI plugin %s: check the run's results (nccl-tests' #wrong column), and run it with NCCL_PROTO=simple", name, said))
		}
		if !h.CollNet && !h.noCollNet() && tableCollNet(&tables[i]) && seen["collnet run"] == "" {
			seen["collnet run"] = name
			notes = append(notes, fmt.Sprintf("%s: NCCL_ALGO=%s leaves %v only CollNet, which NCCL runs only where CollNet is set up (a network whose switches reduce, and NCCL_COLLNET_ENABLE=1), so its run is modelled with CollNet, as is a prediction that pins CollNet; other runs keep collnet false: -hw collnet=true where they set NCCL_COLLNET_ENABLE=1 too",
				name, tables[i].Algo, tables[i].Collective))
		}
		// Whether NCCL set CollNet up, where its lines say
		// (nccltests.Evidence.CollNet; not its collnet channel count).
		if c := e.CollNet; c.Known() && set(h.Sources.CollNet, "collnet", name, c.Value, h.CollNet, c.Value != h.CollNet) {
			h.CollNet, h.Sources.CollNet = c.Value, SourceNCCLDebug
		}
	}
	h, notes = h.withRCCL(tables, weak, notes)
	h, notes = h.withRunNICsSpeed(tables, notes)
	h, notes = h.withSlingshot(tables, weak, notes)
	h, notes = h.withBridge(tables, weak, notes)
	h, notes = h.withPlatform(tables, weak, notes)
	h, notes = h.withSockets(tables, notes)
	// The OFI plugin's count of its provider's devices stands for the NICs
	// only where neither NCCL's lines nor the catalog give them: it counts
	// a p5's EFA devices before the plugin groups them (32 for 8) and a
	// Slingshot NIC twice on Perlmutter (8 for 4).
	for i := range tables {
		e := &tables[i].Evidence
		if n := e.PluginNICs.Value; e.PluginNICs.Known() && n > 0 && (h.Sources.NICs == "" || h.Sources.NICs == SourceAssumed) {
			// Still a guess, the plugin's count in place of one per GPU.
			h.NICs, h.Sources.NICs = n, SourceAssumed
			notes = append(notes, fmt.Sprintf("%s: nics_per_node %d is the OFI plugin's count of its provider's devices (line %d), which may differ from the NICs NCCL uses (a p5's 32 EFA devices are 8, a Perlmutter node's 8 cxi devices 4 NICs); -hw nics=N or -hw system=NAME settles it",
				tables[i].Name, n, e.PluginNICs.Line))
			break
		}
	}
	n := HostGPUs(tables)
	h = h.atLeast(n, hostGPUsSource(tables, n))
	return h, h.channelsNote(tables, notes)
}

// speedMix describes the speeds of nics where they differ ("4 of 400
// Gb/s, 1 of 100 Gb/s", in nccltests.NICSpeeds' order, whose first
// nccltests.Evidence.NICBW takes), "" where they do not.
func speedMix(nics []nccltests.NIC) string {
	speeds := nccltests.NICSpeeds(nics)
	if len(speeds) < 2 {
		return ""
	}
	var parts []string
	for _, s := range speeds {
		parts = append(parts, fmt.Sprintf("%d of %s", s.Count, formatBitRate(s.BW)))
	}
	return strings.Join(parts, ", ")
}

// nvlsRan returns whether NCCL ran NVLS on the hosts of table t, as its
// debug lines say, with the line that says it; unknown where they say
// nothing of the hosts. NCCL asks the GPU for multicast ("NVLS multicast
// support is [not ]available on dev 0", transport/nvls.cc) only where
// the communicator holds more than 2 GPUs of a host (2.18 to 2.28.3; 2 or
// more from 2.28.7), and in 2.17 and 2.20 only on one node (they return
// before it where "comm->nNodes > 1", 2.20 under MNNVL too); it clears
// NVLS where its NVLS graph then finds no channel (init.cc, "if
// (graphs[NCCL_ALGO_NVLS]->nChannels == 0) comm->nvlsSupport = 0"), which
// the channel count it prints at the end of its setup gives ("0 nvls
// channels", from 2.17). So the count, where printed, is the last word,
// but "0 nvls channels" of a communicator NCCL does not try NVLS on (2
// GPUs a host or fewer; across nodes in 2.17, 2.20 or a release the log
// does not print), or under NCCL_NVLS_ENABLE set in the environment, is
// the communicator's or the setting's, not the hosts'.
func nvlsRan(t *Table) nccltests.Fact[bool] {
	e := &t.Evidence
	if e.NVLS.Known() && !e.NVLS.Value {
		return e.NVLS // no multicast on the GPU
	}
	c := e.Channels.Value
	if !e.Channels.Known() || c.NVLS < 0 {
		return e.NVLS
	}
	if c.NVLS > 0 {
		return nccltests.Fact[bool]{Value: true, Line: e.Channels.Line}
	}
	perHost := t.PerNode
	if e.LocalRanks.Known() {
		perHost = e.LocalRanks.Value
	}
	set := slices.ContainsFunc(e.Env, func(v nccltests.Setting) bool { return v.Name == "NCCL_NVLS_ENABLE" })
	across := t.Nodes > 1 || e.Nodes.Value > 1 || e.MNNVL.Value
	v := t.Version
	oneNodeOnly := v == (nccl.Version{}) || v.Major == 2 && (v.Minor == 17 || v.Minor == 20)
	if perHost <= 2 || set || across && oneNodeOnly {
		return e.NVLS
	}
	return nccltests.Fact[bool]{Value: false, Line: e.Channels.Line}
}

// withChannels takes NCCL's runtime channel count that table t's line
// gives ("2 coll channels, ...", nccltests.Evidence.Channels) for runs of
// t's GPUs a host that cross nodes as t's does (Hardware.Channels).
func (h Hardware) withChannels(t *Table) Hardware {
	across := t.Nodes > 1 || t.Evidence.Nodes.Value > 1
	if s, err := h.tableShape(t); err == nil && t.Nodes > 1 {
		across = s.nodes > 1 // hosts of one NVLink domain are one node
	}
	v, _, _ := versionOf(t.Version)
	h.Channels, h.ChannelsGPUs, h.ChannelsAcross, h.channelsVersion = t.Evidence.Channels.Value.Coll, t.PerNode, across, v
	h.Sources.Channels = SourceNCCLDebug
	return h
}

// channelSettings are NCCL's environment variables that set a
// communicator's channel count (src/graph/connect.cc, src/init.cc): a
// count printed under one of them is the setting's.
var channelSettings = []string{"NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS", "NCCL_MIN_CTAS", "NCCL_MAX_CTAS"}

// channelsNote appends to notes, where h takes a log's channel count
// (withChannels), a line that names the log's count and the one the
// model's own graph search plans for the log's run where the two differ,
// and what the model runs on: the ring graph the log's count gives, or
// for RCCL, whose channel rules the model does not follow, its own.
func (h Hardware) channelsNote(tables []Table, notes []string) []string {
	if h.Channels == 0 || h.Sources.Channels != SourceNCCLDebug {
		return notes
	}
	k := slices.IndexFunc(tables, func(t Table) bool {
		return t.Evidence.Channels.Known() && t.Evidence.Channels.Value.Coll == h.Channels && t.PerNode == h.ChannelsGPUs
	})
	if k < 0 {
		return notes
	}
	t := &tables[k]
	own := h
	own.Channels = 0
	own = own.ForHosts(t.PerNode)
	rn, err := tableRun(&own, t)
	if err != nil {
		return notes
	}
	cfg, err := own.config(rn, false)
	if err != nil {
		return notes
	}
	m, err := nccl.New(cfg)
	if err != nil {
		return notes
	}
	planned, _ := m.MaxChannels(nccl.AlgoRing, nccl.Simple, 1e15)
	if planned == h.Channels {
		return notes
	}
	where := "on one node"
	if h.ChannelsAcross {
		where = "across nodes"
	}
	note := fmt.Sprintf("%s: NCCL's debug lines give %d coll channels (line %d) for a run of %s a host %s, where the model's graph search plans %d",
		t.Name, h.Channels, t.Evidence.Channels.Line, counted(t.PerNode, "GPU"), where, planned)
	if !own.CollNet && t.Nodes > 1 && plannedWithCollNet(own, t) == h.Channels {
		note += fmt.Sprintf(", and %d with CollNet, whose setup adds half the channels again (ncclTopoPostset) before it connects, and keeps them where CollNet then falls back; "+
			"these lines do not say CollNet connected (\"Connected CollNet\"), and a run that set NCCL_COLLNET_ENABLE=1 may have fallen back: -hw collnet=true where the run's full debug output says it connected", h.Channels)
	}
	withFact := h.ForHosts(t.PerNode)
	if rn2, err := tableRun(&withFact, t); err == nil && !withFact.rcclChannels(tables) {
		g := withFact.ringChannels(rn2, false)
		note += fmt.Sprintf(": the model takes NCCL's ring graph at %s (coll_channels, nccl-debug) for runs of that shape", counted(g, "channel"))
		if g > 0 && g < h.Channels {
			// The graph's channels are fewer than the lines' count:
			// NCCL's setup adds channels to the graph's before it prints
			// it (ncclTopoPostset, nccl.RuntimeChannels).
			note += fmt.Sprintf(", which NCCL's setup (ncclTopoPostset) makes the %d coll channels the lines give", h.Channels)
		}
	} else {
		note += ": RCCL's channel rules, which the model does not follow, are its own, and the model keeps its plan"
	}
	return append(notes, note)
}

// plannedWithCollNet is the runtime channel count the model's own graph
// search plans for table t's run on own with CollNet enabled, 0 where it
// plans none.
func plannedWithCollNet(own Hardware, t *Table) int {
	own.CollNet = true
	rn, err := tableRun(&own, t)
	if err != nil {
		return 0
	}
	cfg, err := own.config(rn, false)
	if err != nil {
		return 0
	}
	return nccl.RuntimeChannels(cfg)
}

// rcclChannels reports that h runs RCCL, as references.runsRCCL says of
// a machine calibrated with tables.
func (h *Hardware) rcclChannels(tables []Table) bool {
	return runsRCCL(h, RanRCCL(tables))
}

// withRunNICs takes the NICs that the ranks on one host of table t drive,
// as its channel lines show them for host hn (nccltests.Evidence.RunNICs),
// for runs of t's GPUs a node, with a note that names the host and its
// line where they are fewer than the NICs the log gives the host, or the
// log holds some of its channels' lines only.
func (h Hardware) withRunNICs(t *Table, hn nccltests.HostNet, notes []string) (Hardware, []string) {
	e := &t.Evidence
	h.RunNICs, h.RunGPUs, h.Sources.RunNICs = len(hn.Devices), t.PerNode, SourceNCCLDebug
	channels := runChannels(e)
	h.RunNICsLeast = hn.Channels < channels
	host := hn.Host
	if host == "" {
		host = "its host"
	}
	devs := make([]string, len(hn.Devices))
	for k, d := range hn.Devices {
		devs[k] = fmt.Sprint(d)
	}
	of := ""
	if e.NICCount.Known() {
		of = fmt.Sprintf(" of the host's %d", e.NICCount.Value)
	}
	note := fmt.Sprintf("%s: the channel lines of %s (line %d) name NET device %s: a run of %d GPUs a host drives %s%s",
		t.Name, host, hn.Line, words.And(devs), t.PerNode, counted(h.RunNICs, "NIC"), of)
	if h.RunNICsLeast {
		note += fmt.Sprintf(", at least (the log holds the lines of %d of NCCL's %d channels)", hn.Channels, channels)
	} else if !e.NICCount.Known() || e.NICCount.Value <= h.RunNICs {
		return h, notes // the run drives every NIC the log shows: nothing to check
	}
	return h, append(notes, note)
}

// runChannels returns the channels NCCL ran that e's lines count: its "N
// coll channels" line's, else its ring lines' ("Channel 00/16 :", which
// RCCL prints without the other), 0 where neither is printed.
func runChannels(e *nccltests.Evidence) int {
	if e.Channels.Known() {
		return e.Channels.Value.Coll
	}
	if e.Rings.Known() {
		return e.Rings.Value
	}
	return 0
}

// withRCCL takes a GPU the catalog lacks, whose tables ran RCCL, as AMD's
// (GPU.ISA nccl.UnknownISA: RCCL's rules, such as LL128 off by default,
// in place of NVIDIA's), and links described without a word of how they
// join it as Infinity Fabric's, one to each peer, not an NVSwitch's, with a
// note.
func (h Hardware) withRCCL(tables []Table, weak func(Source) bool, notes []string) (Hardware, []string) {
	if h.GPU.Known || h.GPU.ISA != "" || !RanRCCL(tables) {
		return h, notes
	}
	h.GPU.ISA = nccl.UnknownISA
	if h.Fabric == FabricNVSwitch && weak(h.Sources.Fabric) && !h.given(h.Sources.NVLS) {
		h.Fabric, h.NVLS = FabricInfinity, false
		h = h.amdMesh()
		notes = append(notes, fmt.Sprintf("the logs ran RCCL, so %s is AMD's, and its %s join it to each peer (Infinity Fabric), not through an NVSwitch: -hw fabric=infinity says so, or fabric=pcie for a PCIe card",
			h.GPU.Name, counted(h.links(), "link")))
	}
	return h, notes
}

// withRunNICsSpeed raises the NICs a log's channel lines show a run
// driving, where the log holds some channels' lines only (RunNICsLeast),
// to what a table of that run moved across nodes needs: a ring's bus
// bandwidth is at most what a node's NICs carry together (RingNICBound,
// with aboveNIC's 5% of slack; grouped sends are bound by their peers'
// NICs and say nothing of it). The count stays a least, of the tables'
// evidence, within the host's NICs.
func (h Hardware) withRunNICsSpeed(tables []Table, notes []string) (Hardware, []string) {
	if !h.RunNICsLeast || h.RunNICs == 0 || h.nicBW() <= 0 {
		return h, notes
	}
	for _, t := range tables {
		if t.PerNode != h.RunGPUs || t.Nodes < 2 || grouped(t.Collective) {
			continue
		}
		peak := 0.0
		for _, p := range t.Points {
			peak = max(peak, t.Collective.BusBW(t.Ranks(), p.Size, p.Time))
		}
		need := int(math.Ceil(peak / (1.05 * h.nicBW())))
		if h.NICs > 0 {
			need = min(need, h.NICs)
		}
		if need > h.RunNICs {
			// A count from a rate nothing gives is itself assumed.
			src, rate := SourceLog, "each"
			if !h.given(h.Sources.NICBW) {
				src, rate = SourceAssumed, "each, as assumed"
			}
			notes = append(notes, fmt.Sprintf("%s: its bus bandwidth reaches %s, more than the %s its channel lines name carry (%s %s): a run of %s a host drives %d NICs at least",
				t.Name, units.FormatBandwidth(peak), counted(h.RunNICs, "NIC"), formatBitRate(h.nicBW()), rate, counted(h.RunGPUs, "GPU"), need))
			h.RunNICs, h.Sources.RunNICs = need, src
		}
	}
	return h, notes
}

// withBridge takes the GPUs of a node as joined by their NVLink bridge (the
// catalog's GPU.BridgeLinks) where the fabric is assumed PCIe, every table
// ran 2 GPUs a node (a bridge joins a pair of cards: more GPUs a node cross
// PCIe between the pairs, ForHosts), and a table within one node moves more
// than PCIe carries: a bus bandwidth above twice NCCL's figure for the
// GPUs' x16 link (nccl.PCIeBW), which is above the link's signalling rate
// (63 GB/s a direction at Gen5, for NCCL's 48). The bandwidth is the
// table's own, so the fact's source is the log.
func (h Hardware) withBridge(tables []Table, weak func(Source) bool, notes []string) (Hardware, []string) {
	if h.Fabric != FabricPCIe || !weak(h.Sources.Fabric) || h.GPU.BridgeLinks == 0 || h.links() > 0 ||
		slices.ContainsFunc(tables, func(t Table) bool { return t.PerNode != 2 }) {
		return h, notes
	}
	limit := 2 * nccl.PCIeBW(h.GPU.PCIeGen)
	for i := range tables {
		t := &tables[i]
		if t.Nodes != 1 {
			continue
		}
		for _, p := range t.Points {
			bw := t.Collective.BusBW(t.PerNode, p.Size, p.Time)
			if bw <= limit {
				continue
			}
			h.Fabric, h.NVLinks, h.NVLS = FabricMesh, h.GPU.BridgeLinks, false
			h.Sources.Fabric, h.Sources.NVLinks, h.Sources.NVLS = SourceLog, SourceCatalog, SourceLog
			return h, append(notes, fmt.Sprintf("%s: %s of bus bandwidth within a node at %s is more than PCIe Gen%d carries: the node's 2 GPUs are taken as joined by the %s's NVLink bridge (%d NVLinks of %s, as the catalog gives it); -hw fabric=pcie if they are not",
				t.Name, units.FormatBandwidth(bw), units.FormatSize(p.Size), h.GPU.PCIeGen, h.GPU.Name, h.GPU.BridgeLinks, units.FormatBandwidth(h.GPU.NVLinkBW)))
		}
	}
	return h, notes
}

// withTopoFileEnv leaves a capture's NIC path out where a table's log
// shows NCCL read its PCIe tree from a file, not the host's: NCCL_TOPO_FILE
// set by the environment (src/graph/topo.cc, ncclTopoGetSystem), or
// aws-ofi-nccl's platform line, which it prints where it sets or keeps
// one. A VM's capture, as its hypervisor shows the tree, is then not
// NCCL's view (Azure's ND-series images set a file). The path before the
// capture (the GPU's default, a GH200's P2C, assumed or the catalog's)
// is taken again, which the tables' debug lines, run after, replace where
// they give NCCL's own; a note says so.
func (h Hardware) withTopoFileEnv(tables []Table, notes []string) (Hardware, []string) {
	if h.Sources.NICPath != SourceTopo {
		return h, notes
	}
	for i := range tables {
		e := &tables[i].Evidence
		k := slices.IndexFunc(e.Env, func(v nccltests.Setting) bool { return v.Name == "NCCL_TOPO_FILE" })
		var why string
		switch {
		case k >= 0:
			why = fmt.Sprintf("NCCL_TOPO_FILE was set by the environment to %s (line %d)", e.Env[k].Value, e.Env[k].Line)
		case e.Platform.Known():
			why = fmt.Sprintf("aws-ofi-nccl gave NCCL a topology file for the %s instance (line %d)", e.Platform.Value, e.Platform.Line)
		default:
			continue
		}
		was := h.NICPath
		h.NICPath, h.Sources.NICPath = h.beforeTopo.path, cmp.Or(h.beforeTopo.source, SourceAssumed)
		if nicPathName(h.NICPath) == nicPathName(was) {
			return h, notes // the capture says what the path before it did
		}
		return h, append(notes, fmt.Sprintf("%s: %s: NCCL read its PCIe tree from that file, not the host's, so the capture's nic_path %s is not NCCL's and is left out (NCCL's debug lines give it where they show it); -hw %s gives the file's",
			tables[i].Name, why, nicPathName(was), Fact{Key: "nic-path"}.Hint()))
	}
	return h, notes
}

// withSlingshot takes one NIC's rate as an HPE Slingshot 11 NIC's
// (presets.SlingshotNICBW), assumed, where a table's OFI plugin selected
// libfabric's cxi provider, which drives Slingshot NICs, and no line gave
// a speed: aws-ofi-nccl prints none. Slingshot 400's NICs use the same
// provider: theirs is the rate's other value (alternatives), and the note
// names the flag for them.
func (h Hardware) withSlingshot(tables []Table, weak func(Source) bool, notes []string) (Hardware, []string) {
	if !weak(h.Sources.NICBW) {
		return h, notes
	}
	for i := range tables {
		if p := tables[i].Evidence.Provider; p.Known() && p.Value == "cxi" {
			h.NICBW, h.Sources.NICBW, h.slingshot = presets.SlingshotNICBW, SourceAssumed, true
			return h, append(notes, fmt.Sprintf("%s: NCCL's OFI plugin selected libfabric's cxi provider (line %d), HPE Slingshot's, which drives Slingshot 11's NICs of %s and Slingshot 400's of %s alike: nic_bw is assumed Slingshot 11's; -hw nic-bw=%s for Slingshot 400",
				tables[i].Name, p.Line, formatBitRate(presets.SlingshotNICBW), formatBitRate(presets.Slingshot400NICBW), strings.ReplaceAll(formatBitRate(presets.Slingshot400NICBW), " ", "")))
		}
	}
	return h, notes
}

// socketNICBW is one NIC's rate assumed where NCCL ran over its socket
// transport (withSockets): 25 Gb/s, an Ethernet port's rate. The one
// public run over sockets the project holds, Azure's AKS example over
// IP-over-InfiniBand (data/nccltests/testdata/real's
// a100_2x8_allreduce_azure_ndasrv4_aks_ipoib_sockets.log), fits 25.9 Gb/s
// on its one interface of a 200 Gb/s link (-hw nics=1): sockets deliver
// an Ethernet rate, not an RDMA NIC's.
const socketNICBW = 25e9 / 8

// socketFallbackBW is the rate NCCL's socket transport takes for an
// interface whose speed sysfs does not give: 10 Gb/s
// (ncclNetSocketGetSpeed in src/transport/net_socket.cc reads
// /sys/class/net/IF/speed, "Defaulting to 10 Gbps"). It is the
// alternative the guess of the rate tries on sockets.
const socketFallbackBW = 10e9 / 8

// withSockets takes one NIC's rate as an Ethernet port's (socketNICBW),
// still assumed, where a table's NCCL_DEBUG=INFO lines say NCCL ran over
// its socket transport ("Using network Socket", Evidence.Network: no
// RDMA NIC was found or loaded) and nothing gave the rate: NCCL reads the
// interface's speed from sysfs and prints none. The rate of the GPU
// generation's RDMA NICs (400 Gb/s from Hopper on) would describe a
// network the run did not use. h.sockets records where the log says so,
// for the guess of the rate and its note.
func (h Hardware) withSockets(tables []Table, notes []string) (Hardware, []string) {
	for i := range tables {
		e := &tables[i].Evidence
		if !e.Network.Known() || e.Network.Value != "Socket" {
			continue
		}
		h.sockets = fmt.Sprintf("%s line %d", tables[i].Name, e.Network.Line)
		iface := ""
		if len(e.NICs) > 0 && e.NICs[0].Link == "" {
			iface = e.NICs[0].Name
			h.sockets += ", interface " + iface
		}
		if h.given(h.Sources.NICBW) || h.Sources.NICBW == SourceCatalog || slices.ContainsFunc(tables, func(t Table) bool { return t.Evidence.NICBW.Known() }) {
			return h, notes
		}
		h.NICBW, h.Sources.NICBW = socketNICBW, SourceAssumed
		return h, append(notes, fmt.Sprintf("%s: NCCL ran over sockets (\"Using network Socket\", line %d), not an RDMA NIC: nic_bw is assumed an Ethernet port's %s, not the GPU generation's RDMA NICs'; NCCL reads the interface's speed from %s and the log does not print it: -hw nic-bw=RATE settles it",
			tables[i].Name, e.Network.Line, formatBitRate(socketNICBW), sysfsSpeed(h.sockets)))
	}
	return h, notes
}

// sysfsSpeed is the sysfs file of the interface's speed that NCCL's
// socket transport reads, for sockets as withSockets writes it: the
// interface's where it names one.
func sysfsSpeed(sockets string) string {
	if _, iface, ok := strings.Cut(sockets, ", interface "); ok {
		return "/sys/class/net/" + iface + "/speed"
	}
	return "/sys/class/net/IF/speed"
}

// bridged reports that h's mesh is the NVLink bridge withBridge took from
// a table.
func (h *Hardware) bridged() bool {
	return h.Fabric == FabricMesh && h.Sources.Fabric == SourceLog && h.GPU.BridgeLinks > 0 && h.GPU.NVLinks == 0 && h.NVLinks == h.GPU.BridgeLinks
}

// withPlatform applies the catalog system that the first table naming a
// platform names (Evidence.Platform) to the NICs and their rate whose
// source is weak, after every table's debug lines, so that those outrank
// it.
func (h Hardware) withPlatform(tables []Table, weak func(Source) bool, notes []string) (Hardware, []string) {
	first := -1
	for i := range tables {
		p := tables[i].Evidence.Platform
		if !p.Known() {
			continue
		}
		if first < 0 {
			first = i
		} else if f := tables[first].Evidence.Platform; p.Value != f.Value {
			notes = append(notes, fmt.Sprintf("%s: aws-ofi-nccl names the platform %s (line %d), %s names %s; %s's is taken",
				tables[i].Name, p.Value, p.Line, tables[first].Name, f.Value, tables[first].Name))
		}
	}
	if first < 0 {
		return h, notes
	}
	p, name := tables[first].Evidence.Platform, tables[first].Name
	s, ok := presets.SystemByName(p.Value)
	if !ok {
		return h, notes
	}
	sys := h
	if err := sys.setSystem(s.Name); err != nil {
		return h, append(notes, fmt.Sprintf("%s: aws-ofi-nccl names the platform %s (line %d), but %v: its catalog facts are not taken", name, p.Value, p.Line, err))
	}
	h.System = s.Name
	var took []string
	if sys.Sources.NICs == SourceCatalog && weak(h.Sources.NICs) {
		h.NICs, h.Sources.NICs = sys.NICs, SourceCatalog
		took = append(took, fmt.Sprintf("nics_per_node %d", s.NICs))
	} else if s.NICs > 0 && h.Sources.NICs == SourceNCCLDebug && h.NICs != s.NICs {
		notes = append(notes, fmt.Sprintf("%s: the catalog gives %s %d NICs per node as NCCL sees them, NCCL's debug lines %d; NCCL's count is taken",
			name, s.Name, s.NICs, h.NICs))
	}
	if sys.Sources.NICBW == SourceCatalog && weak(h.Sources.NICBW) {
		h.NICBW, h.Sources.NICBW = sys.NICBW, SourceCatalog
		took = append(took, "nic_bw "+formatBitRate(s.NICBW))
	}
	if sys.Sources.CPU == SourceCatalog && weak(h.Sources.CPU) {
		h.CPU, h.Sources.CPU = sys.CPU, SourceCatalog
		took = append(took, "cpu "+s.CPU)
	}
	if sys.Sources.NetLatency == SourceCatalog && weak(h.Sources.NetLatency) {
		h.NetLatency, h.Sources.NetLatency = sys.NetLatency, SourceCatalog
		took = append(took, fmt.Sprintf("net_latency %gx NCCL's", s.NetLatency))
	}
	if sys.Sources.HostGPUs == SourceCatalog && (weak(h.Sources.HostGPUs) || !h.hostKnown()) {
		h.hostGPUs, h.Sources.HostGPUs, h.hostLeast = sys.hostGPUs, SourceCatalog, false
		took = append(took, fmt.Sprintf("gpus_per_node %d", s.PerHost))
	}
	if sys.Sources.Fabric == SourceCatalog && weak(h.Sources.Fabric) {
		h.Fabric, h.Sources.Fabric = sys.Fabric, SourceCatalog
		took = append(took, "fabric "+s.Fabric)
		if weak(h.Sources.NVLS) {
			h.NVLS, h.Sources.NVLS = sys.NVLS, SourceCatalog
		}
	}
	if len(took) > 0 {
		verb := "is"
		if len(took) > 1 {
			verb = "are"
		}
		notes = append(notes, fmt.Sprintf("%s: aws-ofi-nccl names the platform %s (line %d): %s %s the catalog's for it (docs/predict.md cites AWS)",
			name, p.Value, p.Line, words.And(took), verb))
	}
	return h, notes
}

// activePorts says why a NIC that is down is missing from NCCL's debug
// lines.
const activePorts = "NCCL lists only the ports that are active (src/transport/net_ib/init.cc at NCCL 2.30.7 skips one that is not IBV_PORT_ACTIVE); ibstat on the host shows each port's state"
