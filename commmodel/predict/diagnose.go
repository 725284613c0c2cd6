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
)

// Kinds of Finding.
const (
	// KindSlower and KindFaster: a range of sizes where the table is
	// outside the model's 80% interval, above it or below it.
	KindSlower = "slower than the model"
	KindFaster = "faster than the model"
	// KindSwitch: the time falls as the size grows, where NCCL changes its
	// choice: the switch is early or late for this machine.
	KindSwitch = "non-monotone at an algorithm switch"
	// KindAboveNIC: across nodes, bus bandwidth above what the NICs can
	// carry for a ring: what NCCL ran moves fewer bytes over the network
	// than the ring that bus bandwidth assumes (Tree, NVLSTree, CollNet).
	KindAboveNIC = "bus bandwidth above the NICs' line rate"
	// KindFabric: a run on more nodes than the calibration tables that is
	// slower than they predict, in the bandwidth regime: the network beyond
	// the NICs.
	KindFabric = "slower than its smaller siblings"
	// KindOtherChoice: the table follows one algorithm NCCL can run far
	// better than the model's choices: NCCL probably ran that one.
	KindOtherChoice = "follows another algorithm than the model's"
)

// Terms of the model that can dominate a size's time (Finding.Term,
// Prediction.Bound).
const (
	TermLaunch  = "launch"
	TermLatency = "latency"
	TermNVLink  = "nvlink"
	TermNetwork = "network"
)

// A Finding is a range of a table's sizes where the measurement departs
// from the model, or a known pattern.
type Finding struct {
	// FromBytes and ToBytes are the range's first and last sizes.
	FromBytes, ToBytes float64
	// MeasuredOverModel is the median of measured/model over the range.
	MeasuredOverModel float64
	// Kind says what was found (KindSlower, ...).
	Kind string
	// Term is the model's dominant term over the range (TermLaunch, ...).
	Term string
	// NCCL is what NCCL ran there by the model ("Ring/LL128"), or the
	// switch ("Ring/LL128 -> Ring/Simple").
	NCCL string
	// Advice lists the settings worth trying.
	Advice []string
}

// Diagnose compares table t with m, the model calibrated on other tables of
// the machine (or Uncalibrated): the ranges of sizes where t lies outside
// the model's 80% interval, with the term that dominates there, what NCCL
// runs and what to try, and the known patterns. A table the model follows
// gives no finding. inside counts t's points within the interval.
func (m *Machine) Diagnose(t Table) (findings []Finding, inside int, err error) {
	if err := t.check(); err != nil {
		return nil, 0, err
	}
	q := t.Query()
	sizes := make([]float64, len(t.Points))
	for i, p := range t.Points {
		sizes[i] = p.Size
	}
	preds, err := m.Predict(q, sizes)
	if err != nil {
		return nil, 0, err
	}
	rn, err := m.run(q)
	if err != nil {
		return nil, 0, err
	}
	terms := make([]term, len(sizes))
	for i, s := range sizes {
		if terms[i], err = m.refs.termOf(rn, s); err != nil {
			return nil, 0, err
		}
	}
	for i, p := range preds {
		if p.Holds(t.Points[i].Time) {
			inside++
		}
	}
	findings = append(findings, m.departures(t, preds, terms)...)
	findings = append(findings, switches(t, preds)...)
	if f, ok := m.aboveNIC(t, preds, rn); ok {
		findings = append(findings, f)
	}
	if f, ok := m.fabric(t, preds, terms); ok {
		findings = append(findings, f)
	}
	if f, ok := m.otherChoice(t, preds); ok {
		findings = append(findings, f)
	}
	return findings, inside, nil
}

// departures groups the points outside the interval into ranges of one
// side.
func (m *Machine) departures(t Table, preds []Prediction, terms []term) []Finding {
	var out []Finding
	hinted := false // the host hint is given once, on the first finding it fits
	side := func(i int) int {
		switch p := t.Points[i]; {
		case preds[i].Holds(p.Time):
			return 0
		case p.Time > preds[i].High:
			return 1
		}
		return -1
	}
	for i := 0; i < len(preds); {
		s := side(i)
		if s == 0 {
			i++
			continue
		}
		j := i
		for j+1 < len(preds) && side(j+1) == s {
			j++
		}
		var ratios []float64
		worst := i
		for k := i; k <= j; k++ {
			r := t.Points[k].Time / preds[k].Time
			ratios = append(ratios, r)
			if math.Abs(math.Log(r)) > math.Abs(math.Log(t.Points[worst].Time/preds[worst].Time)) {
				worst = k
			}
		}
		f := Finding{FromBytes: t.Points[i].Size, ToBytes: t.Points[j].Size, MeasuredOverModel: fit.Median(ratios),
			Kind: KindSlower, Term: m.dominant(&terms[worst]), NCCL: preds[worst].Algorithm + "/" + preds[worst].Protocol}
		if s < 0 {
			f.Kind = KindFaster
		}
		f.Advice = advice(f, t)
		if hint, ok := m.hostHint(f, t); ok && !hinted {
			f.Advice, hinted = append(f.Advice, hint), true
		}
		if alt, ok := m.faster(t, preds[worst]); ok {
			f.Advice = append(f.Advice, alt)
		}
		out = append(out, f)
		i = j + 1
	}
	return out
}

// dominant names the largest of t's terms under m's parameters: the launch
// floor, the latency, or the bandwidth time over NVLink or the network.
func (m *Machine) dominant(t *term) string {
	launch, latency, nvlink, network := t.parts(&m.x)
	best, name := launch, TermLaunch
	for _, c := range []struct {
		v    float64
		name string
	}{{latency, TermLatency}, {nvlink, TermNVLink}, {network, TermNetwork}} {
		if c.v > best {
			best, name = c.v, c.name
		}
	}
	return name
}

// advice lists the settings worth trying for a departure.
func advice(f Finding, t Table) []string {
	if f.Kind == KindFaster {
		return []string{"the model is too slow here: calibrate on this table with the others (-calibrate), so that it learns the machine"}
	}
	switch f.Term {
	case TermLaunch:
		return []string{fmt.Sprintf("the launch floor: each thread launches its %d GPUs one after the other; try CUDA graphs (nccl-tests -G 1) or one GPU per thread or process (-g 1 with -t or -np)", max(t.GPUsPerThread, 1))}
	case TermLatency:
		return []string{latencyAdvice(f.NCCL, t.Nodes)}
	case TermNVLink:
		return []string{"NVLink: check its links (nvidia-smi nvlink --status) and that NCCL uses them (NCCL_P2P_LEVEL=NVL, NCCL_DEBUG=INFO lines \"via P2P/CUMEM\"); NCCL_MIN_NCHANNELS raises the channels of mid-size calls"}
	}
	a := []string{"the network: pin each rank's NIC (NCCL_IB_HCA, from -topo) and its CPU affinity to the NIC's NUMA node; check GPUDirect RDMA (NCCL_NET_GDR_LEVEL) and NCCL_IB_QPS_PER_CONNECTION"}
	if t.Nodes > 2 {
		a = append(a, "across more nodes the fabric above the NICs may bind: describe it to the model (-hw group=HOSTS,oversub=R)")
	}
	return a
}

// hostHint asks, for a table of several nodes slower than the model in
// its latency or network term, for the host facts the model assumed and
// NCCL reads: where the NICs sit (beyond PXN NCCL runs no LL128 across
// nodes) and an AMD CPU (twice Intel's per-step network overhead).
func (m *Machine) hostHint(f Finding, t Table) (string, bool) {
	h := &m.Hardware
	if f.Kind != KindSlower || t.Nodes < 2 || f.Term != TermLatency && f.Term != TermNetwork {
		return "", false
	}
	var took, ask []string
	if h.NICPath == 0 {
		took = append(took, "the NICs to be next to the GPUs")
		ask = append(ask, "nvidia-smi topo -m shows NODE, PHB or SYS between a GPU and its NIC (-hw nic-path=phb: NCCL then runs no LL128 across nodes)")
	}
	if h.CPU == (nccl.CPU{}) {
		took = append(took, "the CPU to be x86 Intel")
		ask = append(ask, "the hosts have AMD CPUs (-hw cpu=amd: NCCL's per-step network overhead is twice Intel's)")
	}
	if len(ask) == 0 {
		return "", false
	}
	return "the model took " + strings.Join(took, " and ") + ": describe the hosts if " + strings.Join(ask, ", or if "), true
}

// latencyAdvice names the settings with shorter steps that NCCL did not
// run over the range, from ran, what it ran there ("Ring/Simple", or
// "Ring/LL -> Ring/LL128" across a switch): the low-latency protocols, and
// Tree across nodes.
func latencyAdvice(ran string, nodes int) string {
	algos, protos := map[string]bool{}, map[string]bool{}
	for _, choice := range strings.Split(ran, " -> ") {
		a, p, _ := strings.Cut(choice, "/")
		algos[a], protos[p] = true, true
	}
	var try []string
	for _, p := range []string{"LL", "LL128"} {
		if !protos[p] {
			try = append(try, "NCCL_PROTO="+p)
		}
	}
	if nodes > 1 && !algos["Tree"] {
		try = append(try, "NCCL_ALGO=Tree")
	}
	if len(try) == 0 {
		return "per-step latency: NCCL already runs the shortest steps it has here (" + ran + "); check that no NCCL_PROTO or NCCL_ALGO setting rules others out, and the launch layout (-g)"
	}
	return "per-step latency: try " + strings.Join(try, " or ") + " at these sizes, and check that no NCCL_PROTO or NCCL_ALGO setting rules them out"
}

// faster returns advice to pin the model's fastest choice at p's size when
// it is not what NCCL ran and is predicted at least 10% faster.
func (m *Machine) faster(t Table, p Prediction) (string, bool) {
	if t.Algo != "" || t.Proto != "" || t.Collective == commmodel.AllToAll {
		return "", false
	}
	cs, err := m.Choices(t.Query(), p.Size)
	if err != nil || cs[0].Algorithm == p.Algorithm && cs[0].Protocol == p.Protocol || !(cs[0].Time < 0.9*p.Time) {
		return "", false
	}
	return fmt.Sprintf("the model predicts NCCL_ALGO=%s NCCL_PROTO=%s %.0f%% faster here than %s/%s (commlab tune writes it as a tuner rule)",
		cs[0].Algorithm, cs[0].Protocol, 100*(1-cs[0].Time/p.Time), p.Algorithm, p.Protocol), true
}

// otherChoice looks for one algorithm, pinned at every size of t (the
// tuner picking its protocol), that the measured times follow with at most
// half the model's median error, where the model's own choices are off by
// otherChoiceMin or more at the median and leave some of the points outside
// their interval: what NCCL ran is then more likely that one than what its
// tuner would pick on the modelled machine (an algorithm unavailable there,
// such as NVLS without multicast, or a setting). Tables with pins, and
// AllToAll, have no other choice.
func (m *Machine) otherChoice(t Table, preds []Prediction) (Finding, bool) {
	if t.Algo != "" || t.Proto != "" || t.Collective == commmodel.AllToAll {
		return Finding{}, false
	}
	sizes := make([]float64, len(t.Points))
	outside := 0
	for i, p := range t.Points {
		sizes[i] = p.Size
		if !preds[i].Holds(p.Time) {
			outside++
		}
	}
	if outside == 0 {
		return Finding{}, false
	}
	logErr := func(ps []Prediction) float64 {
		e := make([]float64, len(ps))
		for i, p := range ps {
			e[i] = math.Abs(math.Log(t.Points[i].Time / p.Time))
		}
		return fit.Median(e)
	}
	own := logErr(preds)
	if own < math.Log1p(otherChoiceMin) {
		return Finding{}, false
	}
	var best []Prediction
	bestErr := own / 2
	q := t.Query()
	for a := range nccl.Algo(nccl.NumAlgos) {
		pq := q
		pq.Algo = a.String()
		ps, err := m.Predict(pq, sizes)
		if err != nil {
			continue // not available to this shape, version or collective
		}
		if e := logErr(ps); e < bestErr {
			best, bestErr = ps, e
		}
	}
	if best == nil {
		return Finding{}, false
	}
	ratios := make([]float64, len(preds))
	for i, p := range preds {
		ratios[i] = t.Points[i].Time / p.Time
	}
	run, choice := best[0].Algorithm, preds[len(preds)-1].Algorithm
	why := fmt.Sprintf("the measured times follow %s (its protocols as the tuner picks them; median error %.0f%%) rather than the model's choice, %s (%.0f%%): NCCL probably ran %s; NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING prints what it ran",
		run, 100*(math.Exp(bestErr)-1), choice, 100*(math.Exp(own)-1), run)
	if strings.HasPrefix(choice, "NVLS") && !strings.HasPrefix(run, "NVLS") {
		why += "; if NVLS was off, NCCL_DEBUG=INFO says \"NVLS multicast support is not available\" (it needs the fabric manager's multicast, and IMEX channels across hosts)"
	}
	why += fmt.Sprintf("; to predict such runs, pin it: -algo %s, with :algo=auto on calibration files the tuner chose", strings.ToLower(run))
	return Finding{FromBytes: sizes[0], ToBytes: sizes[len(sizes)-1], MeasuredOverModel: fit.Median(ratios),
		Kind: KindOtherChoice, NCCL: choice + " -> " + run, Advice: []string{why}}, true
}

// otherChoiceMin is the least median error of the model's choices for
// which otherChoice looks further: below it the prediction is as good as
// the paired tables' target (15%), and another algorithm that fits better
// is within what calibration errors allow.
const otherChoiceMin = 0.15

// switchDrop is the least fall in time, as a share, that counts as
// non-monotone: less is noise.
const switchDrop = 0.05

// switches finds sizes where the measured time falls as the size grows
// across a change of NCCL's choice (the model's) at or next to it.
func switches(t Table, preds []Prediction) []Finding {
	var out []Finding
	choice := func(i int) string { return preds[i].Algorithm + "/" + preds[i].Protocol }
	for i := 0; i+1 < len(preds); i++ {
		a, b := t.Points[i], t.Points[i+1]
		if !(b.Size > a.Size && b.Time < (1-switchDrop)*a.Time) {
			continue
		}
		lo, hi := max(i-1, 0), min(i+2, len(preds)-1)
		from, to := choice(lo), choice(hi)
		if from == to {
			continue
		}
		out = append(out, Finding{FromBytes: a.Size, ToBytes: b.Size, MeasuredOverModel: (b.Time / preds[i+1].Time),
			Kind: KindSwitch, NCCL: from + " -> " + to,
			Advice: []string{fmt.Sprintf("the time falls from %s to %s where NCCL changes from %s to %s: pin the faster side with NCCL_ALGO and NCCL_PROTO around this size, or write a tuner rule for it (commlab tune)",
				formatMicro(a.Time), formatMicro(b.Time), from, to)}})
	}
	return out
}

func formatMicro(s float64) string { return fmt.Sprintf("%.1f us", s*1e6) }

// aboveNIC reports bus bandwidth above a ring's bound across nodes: a ring
// moves a GPU's bus bytes over its node's NICs together, so a greater bus
// bandwidth means NCCL ran something that crosses the network less (Tree,
// NVLSTree, CollNet), and the table says little of the network itself.
func (m *Machine) aboveNIC(t Table, preds []Prediction, rn *run) (Finding, bool) {
	if t.Nodes < 2 {
		return Finding{}, false
	}
	nics := m.Hardware.nics(rn.shape.hosts, rn.shape.per/rn.shape.hosts, rn.version)
	nicBW := m.Hardware.nicBW()
	// A ring crosses between nodes at a different GPU in each channel, so
	// a node's NICs together carry one GPU's bus bytes.
	bound := nicBW * float64(nics)
	n := t.Ranks()
	var idx []int
	for i, p := range t.Points {
		if t.Collective.BusBW(n, p.Size, p.Time) > 1.05*bound {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return Finding{}, false
	}
	i, j := idx[0], idx[len(idx)-1]
	best := slices.MaxFunc(idx, func(a, b int) int {
		return cmp.Compare(t.Points[a].Size/t.Points[a].Time, t.Points[b].Size/t.Points[b].Time)
	})
	bus := t.Collective.BusBW(n, t.Points[best].Size, t.Points[best].Time)
	return Finding{FromBytes: t.Points[i].Size, ToBytes: t.Points[j].Size, MeasuredOverModel: t.Points[best].Time / preds[best].Time,
		Kind: KindAboveNIC, NCCL: preds[best].Algorithm + "/" + preds[best].Protocol,
		Advice: []string{fmt.Sprintf("bus bandwidth reaches %.1f GB/s against the %.1f GB/s a ring could get from a node's NICs: NCCL ran an algorithm that sends less over the network (the model: %s/%s); to measure the network itself, run with NCCL_ALGO=Ring",
			bus/1e9, bound/1e9, preds[best].Algorithm, preds[best].Protocol)}}, true
}

// fabric reports a table on more nodes than every calibration table that is
// slower than the interval in its bandwidth regime (network-bound sizes).
func (m *Machine) fabric(t Table, preds []Prediction, terms []term) (Finding, bool) {
	if len(m.Tables) == 0 || t.Nodes <= m.spread.maxNodes {
		return Finding{}, false
	}
	var ratios []float64
	lo, hi := math.Inf(1), 0.0
	for i, p := range t.Points {
		if m.dominant(&terms[i]) == TermNetwork && p.Time > preds[i].High {
			ratios = append(ratios, p.Time/preds[i].Time)
			lo, hi = min(lo, p.Size), max(hi, p.Size)
		}
	}
	if len(ratios) == 0 {
		return Finding{}, false
	}
	return Finding{FromBytes: lo, ToBytes: hi, MeasuredOverModel: fit.Median(ratios), Kind: KindFabric, Term: TermNetwork,
		Advice: []string{fmt.Sprintf("on %d nodes the network is slower than the tables of up to %d nodes predict: the fabric above the NICs (a leaf's uplinks, a dragonfly's global links, or congestion) binds; describe it (-hw group=HOSTS,oversub=R) and calibrate with this table to fit it",
			t.Nodes, m.spread.maxNodes)}}, true
}

// Uncalibrated returns the model of h at its priors, calibrated on no
// table: what Diagnose compares a table with when no other table of the
// machine is given. Its interval rests on the prior spread and the
// parameters no table identifies.
func Uncalibrated(h Hardware) *Machine {
	m := &Machine{GPU: h.GPU.Name, Hardware: h, refs: &references{hw: &h, m: map[runKey]*reference{}}, LOOMedian: math.NaN()}
	m.version, _, _ = versionOf(m.version)
	m.x = m.prior()
	var used [numParams]bool
	for k := range used {
		used[k] = true
	}
	var f fitResult
	f.x = m.x
	set := (*Settings)(nil).withDefaults()
	for k := range f.sd {
		f.sd[k] = set.width(k)
	}
	m.Params = m.params(m.x, f, used, set)
	m.spread.variance = priorSpread * priorSpread
	return m
}
