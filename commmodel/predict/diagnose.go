package predict

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
	"github.com/inframethod/commlab/units"
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
	// KindHiddenSwitch: the time falls as the size grows in both of a
	// row's timings, where the model keeps one choice: NCCL probably
	// changes its algorithm, protocol or channels there (RCCL its kernels)
	// and the model does not.
	KindHiddenSwitch = "non-monotone, the model's choice unchanged"
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
	// KindStall: rows that took far longer than larger sizes or than the
	// same call in place (stalls): something else held them up, and no
	// setting of NCCL's explains them; or a row that grew faster than its
	// bytes from the row before it and took longer than the row after it
	// (heldUpRows), held up or run alone on a far slower choice of NCCL's,
	// which a rerun tells apart.
	KindStall = "stalled"
	// KindHostCopy: on one host of cards without P2P, an uncalibrated
	// model whose host-copy rate is assumed (host_bw, from container
	// runs), the table moves far less through host memory than bare-metal
	// hosts do (hostCopyFinding): the model's own point is no sign of
	// health there.
	KindHostCopy = "slower than bare metal through host memory"
	// KindNoGDR: across nodes, NCCL's debug lines say it ran the network
	// without GPUDirect RDMA, staging its data in host memory, which the
	// model does not: a fact of the log, not a departure from the model,
	// whose interval may hold such a run.
	KindNoGDR = "network without GPUDirect RDMA"
)

// Terms of the model that can dominate a size's time (Finding.Term,
// Prediction.Bound). TermLinks is the links inside a node, whatever they
// are: NVLink, Infinity Fabric, or PCIe on a host without either.
// TermNetwork is the NICs; TermChannels the channels NCCL runs the size on
// across nodes, each carrying channel_bw, where they carry less than the
// NICs: grouped sends to few peers, and LL and LL128 under NCCL (most
// often at mid sizes, where NCCL runs few channels).
const (
	TermLaunch   = "launch"
	TermLatency  = "latency"
	TermLinks    = "links"
	TermNetwork  = "network"
	TermChannels = "channels"
)

// A Finding is a range of a table's sizes where the measurement departs
// from the model, or a known pattern.
type Finding struct {
	// FromBytes and ToBytes are the range's first and last sizes.
	FromBytes, ToBytes float64
	// MeasuredOverModel is the median of measured/model over the range;
	// for a switch finding (KindSwitch) it is the ratio at the larger of
	// its two sizes, where the time fell, and for a bus bandwidth above
	// the NICs' rate (KindAboveNIC) the ratio at the size that moved the
	// most bus bandwidth.
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
	// Guesses are the assumed facts of the machine that may explain the
	// finding (Guesses): the model has seen no table across nodes and
	// the finding is in the latency or network term. Network advice
	// waits for them to be settled.
	Guesses []Guess
	// Assumed names the assumed facts the finding itself rests on
	// ("nics_per_node", "nic_bw": the NICs behind a line-rate bound,
	// KindAboveNIC), which its advice says how to settle.
	Assumed []string
}

// AssumedFacts names the assumed facts of the machine behind f: those it
// rests on itself (Assumed), then those that may explain it (Guesses),
// each once.
func (f *Finding) AssumedFacts() []string {
	out := slices.Clone(f.Assumed)
	for _, g := range f.Guesses {
		if !slices.Contains(out, g.Fact.Name) {
			out = append(out, g.Fact.Name)
		}
	}
	return out
}

// Diagnose compares table t with m, the model calibrated on other tables of
// the machine (or, Uncalibrated, the prediction from the GPU's name that
// Untabled gives): the ranges of sizes where t lies outside
// the model's 80% interval, with the term that bounds the model there, what
// NCCL runs and what to try, and the known patterns. A finding spans only
// sizes of one cause: one bound term and one algorithm and protocol of
// NCCL's. A table the model follows gives no finding. inside counts t's
// points within the interval. A table of another GPU than m's calibration
// tables is ErrMixedMachines.
func (m *Machine) Diagnose(t Table) (findings []Finding, inside int, err error) {
	if err := t.check(); err != nil {
		return nil, 0, err
	}
	if len(m.tables) > 0 {
		if err := SameMachine(append([]Table{t}, m.tables...)); err != nil {
			return nil, 0, err
		}
	}
	q := t.Query()
	sizes := make([]float64, len(t.Points))
	for i, p := range t.Points {
		sizes[i] = p.Size
	}
	// The table's query refused (its pins, its ranks) is a bad table;
	// what the machine refuses (its hardware, its domains) stays its own.
	rn, err := m.run(q)
	if errors.Is(err, ErrQuery) {
		return nil, 0, tableError(&t, err)
	} else if err != nil {
		return nil, 0, err
	}
	preds, err := m.Expect(q, sizes)
	if err != nil {
		return nil, 0, err
	}
	for i, p := range preds {
		if p.Holds(t.Points[i].Time) {
			inside++
		}
	}
	kinds := rowStalls(t.Points)
	stalled := stalledRows(kinds)
	held := make([]bool, len(kinds))
	for i := range kinds {
		held[i] = kinds[i] == stallHeldUp
		if held[i] {
			kinds[i] = 0 // heldUpFindings' own finding
		}
	}
	findings = append(findings, stallFindings(t, preds, kinds)...)
	findings = append(findings, heldUpFindings(t, preds, held)...)
	findings = append(findings, m.departures(t, preds, stalled, len(findings))...)
	msccl := ""
	if m.RunsRCCL() && m.Hardware.links() == 7 {
		msccl = m.Hardware.GPU.ISA
	}
	findings = append(findings, switches(t, preds, stalled, msccl)...)
	findings = append(findings, m.aboveNIC(t, preds, rn)...)
	findings = append(findings, m.fabric(t, preds, stalled)...)
	findings = append(findings, m.otherChoice(t, preds, stalled)...)
	findings = append(findings, m.hostCopyFinding(t, preds, stalled)...)
	findings = append(findings, noGDRFinding(t, preds, stalled, findings)...)
	referOtherChoice(findings)
	return findings, inside, nil
}

// referOtherChoice starts the advice of each finding that lies within the
// sizes of a KindOtherChoice finding, on the algorithm that one replaces
// (a gap, or a switch between its protocols), with a reference to it: if
// NCCL ran the other algorithm there, as the times suggest, the finding's
// own reading (the latency, a late switch) is moot, and that is settled
// first.
func referOtherChoice(findings []Finding) {
	for k, o := range findings {
		if o.Kind != KindOtherChoice {
			continue
		}
		model, run, _ := strings.Cut(o.NCCL, " -> ")
		for i := range findings {
			f := &findings[i]
			if f.Kind != KindSlower && f.Kind != KindFaster && f.Kind != KindSwitch || f.FromBytes < o.FromBytes || f.ToBytes > o.ToBytes {
				continue
			}
			ran := true
			for _, c := range strings.Split(f.NCCL, " -> ") {
				algo, _, _ := strings.Cut(c, "/")
				ran = ran && algo == model
			}
			if ran {
				f.Advice = append([]string{fmt.Sprintf("finding %d finds that the times at these sizes follow %s, where the model runs %s: if NCCL ran %s, the rest of this finding does not apply; settle that first",
					k+1, run, model, run)}, f.Advice...)
			}
		}
	}
}

// spans returns the maximal runs [i, j] of consecutive indices below n
// that share a key other than "".
func spans(n int, key func(i int) string) [][2]int {
	var out [][2]int
	for i := 0; i < n; {
		k := key(i)
		if k == "" {
			i++
			continue
		}
		j := i
		for j+1 < n && key(j+1) == k {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j + 1
	}
	return out
}

// choiceOf is what NCCL runs at p's size by the model, "Ring/LL128".
func choiceOf(p Prediction) string { return p.Algorithm + "/" + p.Protocol }

// departures groups the points outside the interval into ranges of one
// side, one bound term and one choice of NCCL's. They follow the before
// findings of the table: a departure that refers to another names it by
// its number among them all, from 1.
func (m *Machine) departures(t Table, preds []Prediction, stalled []bool, before int) []Finding {
	var out []Finding
	hinted := false   // the host hint is given once, on the first finding it fits
	var guessed []int // the indices in out of the findings that name their guesses; each set is named once
	var gr *guesser   // the guesses' calibrations, made once for every range (networkGuesses)
	// The alternatives a pin may rest on, tried once for every range
	// (pins), for the first pin that needs them.
	var tr []tried
	var trErr error
	trDone := false
	alts := func() ([]tried, error) {
		if !trDone {
			_, tr, trErr = triedAlternatives(m.Hardware, m.tables, t.Query(), []Table{t})
			trDone = true
		}
		return tr, trErr
	}
	key := func(i int) string {
		switch p := t.Points[i]; {
		case stalled[i]:
			return "" // stallFindings'
		case preds[i].Holds(p.Time) || m.beyondSiblings(t, preds, i):
			return "" // fabric's
		case p.Time > preds[i].High:
			return "slower " + preds[i].Bound + " " + choiceOf(preds[i])
		}
		return "faster " + preds[i].Bound + " " + choiceOf(preds[i])
	}
	for _, r := range spans(len(preds), key) {
		i, j := r[0], r[1]
		var ratios []float64
		for k := i; k <= j; k++ {
			ratios = append(ratios, t.Points[k].Time/preds[k].Time)
		}
		f := Finding{FromBytes: t.Points[i].Size, ToBytes: t.Points[j].Size, MeasuredOverModel: fit.Median(ratios),
			Kind: KindSlower, Term: preds[i].Bound, NCCL: choiceOf(preds[i])}
		if t.Points[i].Time < preds[i].Low {
			f.Kind = KindFaster
		}
		// A guess explains the gap only where its alternative moves the
		// model at the finding's sizes, towards the table (a ratio of 0: a
		// fact no ratio measures).
		toward := slices.DeleteFunc(m.networkGuesses(&gr, t, i, j), func(g Guess) bool {
			// The network's latency moves small calls: it explains no gap
			// far above the size where it moves the model most.
			far := g.Fact.Key == "net-lat" && g.Size*4 < f.FromBytes
			// A NIC's count or rate that no ratio measures (AllToAll and
			// SendRecv at the priors) moves bandwidth, not a latency-bound
			// time: a 256 B SendRecv is no guess of the NICs.
			unmeasured := g.Ratio == 0 && (g.Fact.Key == "nics" || g.Fact.Key == "nic-bw") && (f.Term == TermLatency || f.Term == TermLaunch)
			return far || unmeasured || g.Ratio > 0 && (f.Kind == KindSlower) != (g.Ratio > 1)
		})
		// Across nodes an assumed network or NVLS moves an NVLink-bound
		// time too (a slower network than assumed binds in its place).
		onGuess := len(toward) > 0 && (f.Term == TermLatency || acrossNodes(f.Term) || f.Term == TermLinks && t.Nodes > 1)
		if onGuess {
			f.Guesses = toward
		}
		same := slices.IndexFunc(guessed, func(k int) bool {
			return slices.EqualFunc(out[k].Guesses, toward, func(a, b Guess) bool { return a.Fact.Name == b.Fact.Name })
		})
		misfit := m.misfitOf(t, preds, i, j, f.Kind)
		// own is the advice for the run itself, the guesses aside.
		own := func() []string {
			if misfit != "" {
				who, lean := misfit+", a calibration table of this run's collective, shape and settings,", "fast"
				if misfit == t.Name {
					who = "this table, on which it was calibrated,"
				}
				if f.Kind == KindFaster {
					lean = "slow"
				}
				return []string{fmt.Sprintf("the model misses %s alike at these sizes: its form does not follow the machine here (the bound column says which term it puts there), and the run need not be at fault; predictions at these sizes lean %s", who, lean)}
			}
			if lo, hi, ok := floorFollowed(t, preds); ok && f.Kind == KindSlower && f.Term == TermLaunch && f.MeasuredOverModel > floorGap {
				// The table's own rows show the floor: these rows'
				// gap is not the launches.
				return []string{fmt.Sprintf("the model's time here is the launch floor of %s, which the table's rows of %s follow; these rows' gap (measured/model) is not the launches, but "+heldUp,
					launchers(t), sizeSpan(lo, hi))}
			}
			if n := m.Hardware.links(); f.Kind == KindSlower && f.Term == TermLinks && t.Nodes == 1 && n > 1 && f.MeasuredOverModel > float64(n) {
				// The model's time has the bytes cross all n links; one
				// of them alone would move them faster than measured.
				return []string{fmt.Sprintf("these rows take %.2fx the model's time over the GPU's %d links, more than one link alone would: not the links, but "+heldUp,
					f.MeasuredOverModel, n)}
			}
			return advice(f, t, &m.Hardware, m.refs.runsRCCL())
		}
		// short says where every guess moves the model by a measured
		// ratio and all of them together fall short of the gap: the run
		// is at fault beyond what they explain, whether the guesses are
		// named here or by an earlier finding.
		short := func() bool {
			most, ok := guessesMove(toward)
			if !ok || !(Gap(f.MeasuredOverModel) > most) {
				return false
			}
			rest := "check the run as well"
			if t.ShapeFrom == SourceAssumed {
				// The layout is a guess no ratio above measures.
				rest = fmt.Sprintf("the table's layout, %d x %d, is assumed too (its log places no rank on a host): give FILE:nodes=N:per-node=G, then check the run", t.Nodes, t.PerNode)
			}
			if f.Kind == KindFaster {
				// A run faster than the model is at no fault: the
				// model misses it.
				rest = "the model misses more here than its guesses explain"
			}
			f.Advice = append(f.Advice, fmt.Sprintf("the assumed facts move the model %.2fx at most together, short of this %.2fx gap: %s", most, Gap(f.MeasuredOverModel), rest))
			f.Advice = append(f.Advice, own()...)
			return true
		}
		switch {
		case onGuess && same < 0:
			f.Advice = []string{guessAdvice(toward, len(m.tables) > 0 && m.spread.maxNodes > 1)}
			guessed = append(guessed, len(out))
			if !short() && noGDR(t.Evidence) && f.Kind == KindSlower && f.Term != TermLatency {
				f.Advice = append(f.Advice, networkAdvice(t.Evidence))
			}
		case onGuess:
			f.Advice = []string{fmt.Sprintf("the gap may be the assumed hardware, as for finding %d", before+guessed[same]+1)}
			short()
		default:
			f.Advice = own()
		}
		if hint, ok := m.hostHint(f, t); ok && !hinted {
			f.Advice, hinted = append(f.Advice, hint), true
		}
		if f.Kind == KindSlower && !onGuess && misfit == "" {
			f.Advice = append(f.Advice, m.pins(t, preds[i:j+1], alts)...)
		}
		out = append(out, f)
	}
	if env, but := unreadEnv(&t); env != "" && !slices.Contains(m.Tables, t.Name) && len(out) > 0 {
		// Once, on the first range slower than the model (else the
		// first): the same settings stand behind every range, and a
		// setting a job makes is more often the cause of a slower run.
		k := max(slices.IndexFunc(out, func(f Finding) bool { return f.Kind == KindSlower }), 0)
		it, them := "it", "it"
		if strings.Contains(env, ",") {
			it, them = "they", "them"
		}
		out[k].Advice = append(out[k].Advice, fmt.Sprintf("the log shows %s set in the environment, which the model does not read%s: %s may cause the gap (a run without %s tells)", env, but, it, them))
	}
	return out
}

// dominant names the term that sets t's time under m's parameters: the
// launch floor where it outlasts the rest, else the larger of the latency
// and the bandwidth time over NVLink or the network, whose NICs or
// channels, the slower, name it.
func (m *Machine) dominant(t *term) string {
	launch, latency, nvlink, network := t.parts(&m.x)
	if launch >= latency+max(nvlink, network) {
		return TermLaunch // the floor is the larger side of the time's maximum
	}
	best, name := latency, TermLatency
	for _, c := range []struct {
		v    float64
		name string
	}{{nvlink, TermLinks}, {network, TermNetwork}} {
		if c.v > best {
			best, name = c.v, c.name
		}
	}
	if nics, channel := t.netTimes(&m.x); name == TermNetwork && channel > nics {
		return TermChannels
	}
	return name
}

// heldUp ends the advice for rows far beyond what the model's bound could
// take (floorGap, a link-bound row beyond the links' count times the
// model): the calls were held up, and a second run tells.
const heldUp = "something that held these calls up (another process on the GPUs or on the host's CPUs, as the table's stalls may show); run the sizes again (more warm-up iterations, nccl-tests -w)"

// floorGap is the most a launch-bound row of a table measures over its
// empty call's floor where the launches alone explain it: the host's work
// for each channel grows the floor with the channels a call runs, and
// superbench's A100 AllGather of one thread driving 8 GPUs (nccl-tests -g 8;
// data/nccltests/testdata/real/a100_1x8_g8_allgather_oldcolumns_superbench.log)
// takes 34.27 us at 0 B and 77.28 at 2 MiB, 2.3 times, a latency-bound
// call. A row more than floorGap times a floor the table's other rows
// follow was held up by something else.
const floorGap = 3

// floorFollowed returns the least and the greatest size of t's rows that
// the launch floor bounds in the model (preds) and that lie inside their
// interval; ok is false where there are none.
func floorFollowed(t Table, preds []Prediction) (lo, hi float64, ok bool) {
	for k, p := range preds {
		if p.Bound == TermLaunch && p.Holds(t.Points[k].Time) {
			if !ok {
				lo = t.Points[k].Size
			}
			hi, ok = t.Points[k].Size, true
		}
	}
	return lo, hi, ok
}

// sizeSpan writes the sizes lo to hi, "1 KiB" where they are one.
func sizeSpan(lo, hi float64) string {
	if lo == hi {
		return units.FormatSize(lo)
	}
	return units.FormatSize(lo) + ".." + units.FormatSize(hi)
}

// advice lists the settings worth checking for a departure, by the term
// that bounds the model there, on hardware h.
func advice(f Finding, t Table, h *Hardware, rccl bool) []string {
	if f.Kind == KindFaster {
		// Where the model's links are a guess, a faster table may be the
		// guess's; not a run of one GPU a node, which crosses none.
		switch {
		case t.PerNode == 1:
		case h.assumedLinks() && h.GPU.Name == UnnamedGPU:
			return []string{fmt.Sprintf("the model is too slow here, and the log names no GPU: its links are assumed (%s); name the GPU with -gpu NAME before reading the gap as the run's", h.Fabric)}
		case h.assumedLinks():
			return []string{fmt.Sprintf("the model is too slow here, and %s is not in commlab's catalog: its links are assumed (%s); describe them with -hw, or calibrate on this table with the others (-calibrate), so that it learns the machine", h.GPU.Name, h.Fabric)}
		}
		return []string{"the model is too slow here: calibrate on this table with the others (-calibrate), so that it learns the machine"}
	}
	switch f.Term {
	case TermLaunch:
		return []string{launchAdvice(t)}
	case TermLatency:
		if grouped(t.Collective) {
			// NCCL runs grouped sends on its p2p path, which takes no
			// algorithm (src/enqueue.cc, NCCL_P2P_LL_THRESHOLD sets LL).
			return []string{"per-step latency of grouped sends (" + f.NCCL + "), which no NCCL_ALGO setting changes: check the launch layout (-g)"}
		}
		var set []string
		for _, v := range [][2]string{{"NCCL_ALGO", t.Algo}, {"NCCL_PROTO", t.Proto}} {
			if v[1] != "" && !(v[0] == "NCCL_PROTO" && pluginSimple(t)) {
				set = append(set, v[0]+"="+v[1])
			}
		}
		if pluginSimple(t) {
			s := fmt.Sprintf("per-step latency of %s, under the NCCL_PROTO=simple the OFI plugin set itself (NCCL_DEBUG=INFO, %s), as LL and LL128 could corrupt data over its transport: not a setting to take off",
				f.NCCL, pluginWhy(t.Evidence.PluginSimple))
			if len(set) > 0 {
				s += fmt.Sprintf("; under the run's %s too (which the model follows), a run without it tells what it costs here", set[0])
			}
			return []string{s + "; check the launch layout (-g)"}
		}
		if len(set) > 0 {
			// The run's own setting, which the model follows: no other
			// to look for.
			return []string{fmt.Sprintf("per-step latency of %s, under the run's %s (which the model follows): a run without it tells what the setting costs here; check the launch layout (-g)",
				f.NCCL, strings.Join(set, " and "))}
		}
		return []string{"per-step latency: check that no NCCL_PROTO or NCCL_ALGO setting in the job's environment rules out NCCL's choice here (" + f.NCCL + "), and the launch layout (-g)"}
	case TermLinks:
		var a []string
		switch h.Fabric {
		case FabricInfinity:
			a = []string{"Infinity Fabric: check its links (rocm-smi --showtopo) and that RCCL uses them (NCCL_DEBUG=INFO lines \"via P2P/IPC\")"}
		case FabricPCIe:
			// An AMD host has no nvidia-smi: rocm-smi and lspci say
			// the same.
			numa, p2p, width := "nvidia-smi topo -m: CPU Affinity", "nvidia-smi topo -m and topo -p2p r", "nvidia-smi -q: PCIe Generation, Link Width"
			if rccl {
				numa, p2p, width = "rocm-smi --showtoponuma", "rocm-smi --showtopo", "lspci -vv: LnkSta"
			}
			if h.hostCopy() {
				a = []string{"host memory between the GPUs: these cards have no P2P, and NCCL copies through the CPU's memory (NCCL_DEBUG=INFO lines \"via SHM\"); check the CPUs' memory bandwidth and the GPUs' NUMA placement (" + numa + ")"}
				break
			}
			// Where the GPUs meet at a host bridge or across CPUs (PHB,
			// NODE, SYS), NCCL bounces through host memory (SHM) on
			// purpose: P2P forced there (NCCL_P2P_LEVEL=SYS) gains some
			// 20% on AllReduce and costs 9 times on AllToAll
			// (NVIDIA/nccl#1603, 4 RTX 4090s: 18 to 22 and 18 to 2 GB/s).
			a = []string{"PCIe between the GPUs: check which transport NCCL runs between them (NCCL_DEBUG=INFO lines \"via P2P\" or \"via SHM\") against their path (" + p2p + "): within a PCIe switch (PIX, PXB) NCCL runs P2P, while across a host bridge or the CPUs (PHB, NODE, SYS) \"via SHM\" is NCCL's intended default, not a fault; do not force P2P there with NCCL_P2P_LEVEL=SYS, which can gain some 20% on AllReduce but cost 9 times on AllToAll and MoE traffic (NVIDIA/nccl#1603); and check their PCIe links' generation and width (" + width + ")"}
		default:
			a = []string{"NVLink: check its links (nvidia-smi nvlink --status) and that NCCL uses them (NCCL_DEBUG=INFO lines \"via P2P/CUMEM\" or \"via P2P/IPC\", not \"via SHM\"; an NCCL_P2P_LEVEL or NCCL_P2P_DISABLE in the job's environment can keep it off them)"}
		}
		if t.Nodes > 1 {
			// Across nodes a network slower than described binds in the
			// links' place, and is the likelier cause: a node's links
			// are checked by a table of one node.
			return []string{networkAdvice(t.Evidence), "or, within each node, " + a[0]}
		}
		return a
	}
	a := []string{networkAdvice(t.Evidence)}
	if f.Term == TermChannels {
		// The fabric above the NICs does not bind where the channels
		// carry less than the NICs.
		return append(a, "the channels NCCL runs these sizes on across nodes (commlab predict's channels column; for grouped sends, those it gives each network peer) carry less than the NICs: a channel's rate is its transport's (its proxy, GPUDirect, its queue pairs), which the line above checks")
	}
	if t.Nodes > 2 {
		a = append(a, "across more nodes the fabric above the NICs may bind: describe it to the model (-hw group=HOSTS,oversub=R)")
	}
	return a
}

// acrossNodes reports that term is one of the network's: the NICs or the
// channels that cross them.
func acrossNodes(term string) bool { return term == TermNetwork || term == TermChannels }

// launchers names who launches t's calls: the GPUs a thread launches in
// turn (nccl-tests -g N), or one GPU a thread or process.
func launchers(t Table) string {
	if n := t.GPUsPerThread; n > 1 {
		return fmt.Sprintf("%d GPUs a thread launches in turn", n)
	}
	return "one GPU a thread or process"
}

// launchAdvice is what to try where the launch floor bounds the model: a
// thread that launches several GPUs in turn (nccl-tests -g N) can hand
// them to threads or processes of their own, and calls outside CUDA graphs
// can be captured in one. A table of one GPU a thread run with CUDA graphs
// (nccl-tests -G) has neither left: AMD's MI300X and MI350X AllReduce of
// one process a GPU (-g 1) were told to run one GPU a thread or process,
// "each thread launches its 1 GPUs one after the other".
func launchAdvice(t Table) string {
	var try []string
	if t.Layout.Graphs == 0 {
		try = append(try, "CUDA graphs (nccl-tests -G 1)")
	}
	if n := t.GPUsPerThread; n > 1 {
		try = append(try, "one GPU per thread or process (-g 1 with -t or -np)")
		return fmt.Sprintf("the launch floor: each thread launches its %d GPUs one after the other; try %s", n, strings.Join(try, " or "))
	}
	if len(try) == 0 {
		return "the launch floor, though each GPU has a thread or process of its own and the calls run in CUDA graphs: the host's CPUs launch them late (check the ranks' CPU binding and what else runs on those CPUs)"
	}
	return "the launch floor: each GPU has a thread or process of its own, and the host launches each call's kernels in turn; try " + try[0] + ", which launches the calls of a graph together"
}

// pluginWhy is where and why the OFI plugin asked for NCCL_PROTO=simple
// (Evidence.PluginSimple): "line 162: GDR not supported", or "line 162"
// where it gave no reason.
func pluginWhy(f nccltests.Fact[string]) string {
	if f.Value == "" {
		return fmt.Sprintf("line %d", f.Line)
	}
	return fmt.Sprintf("line %d: %s not supported", f.Line, f.Value)
}

// pluginSimple reports that t ran NCCL_PROTO=simple because the OFI
// plugin set it for correctness (Evidence.PluginSimple), not the job,
// whose own NCCL_PROTO the plugin keeps (Evidence.PluginProtoKept).
func pluginSimple(t Table) bool {
	e := &t.Evidence
	return e.PluginSimple.Known() && !e.PluginProtoKept.Known() && strings.EqualFold(t.Proto, "simple")
}

// PluginSimpleOf says where the first of tables ran NCCL_PROTO=simple
// because the OFI plugin set it itself (pluginSimple): "a.log#0 (line
// 166: GDR not supported)". The plugin sets it in every job on hosts
// whose transport lacks what it names, so a job on them runs Simple
// whatever it leaves to NCCL. "" where none did.
func PluginSimpleOf(tables []Table) string {
	for _, t := range tables {
		if pluginSimple(t) {
			return fmt.Sprintf("%s (%s)", t.Name, pluginWhy(t.Evidence.PluginSimple))
		}
	}
	return ""
}

// misfitOf returns the name of a calibration table of t's run (t itself,
// or another of its collective, nodes, GPUs a node, layout, NCCL_ALGO and
// NCCL_PROTO) that lies on the side of kind of preds at each of t's sizes
// i..j it ran too, within RerunNoise of t's time, "" for none: where the
// run is the table the model was calibrated on, to within the scatter of
// reruns, a gap of t's there is the model's form, not the run's (a red
// team: the calibration table itself, and reruns of it 1% apart, got
// advice to change the launch at 1.23x the model, whether the table's own
// point lay just outside the interval or just inside). A run further off
// than its calibration table is the run's (baseline findings set the two
// side by side).
func (m *Machine) misfitOf(t Table, preds []Prediction, i, j int, kind string) string {
	for _, c := range m.tables {
		if c.Name != t.Name && (c.Collective != t.Collective || c.Nodes != t.Nodes || c.PerNode != t.PerNode ||
			c.Layout != t.Layout || c.Algo != t.Algo || c.Proto != t.Proto) {
			continue
		}
		alike, ran := true, false
		for k := i; k <= j; k++ {
			for _, p := range c.Points {
				if p.Size != t.Points[k].Size {
					continue
				}
				ran = true
				side := kind == KindSlower && p.Time > preds[k].Time || kind == KindFaster && p.Time < preds[k].Time
				alike = alike && side && math.Abs(math.Log(t.Points[k].Time/p.Time)) <= math.Log1p(RerunNoise)
			}
		}
		if ran && alike {
			return c.Name
		}
	}
	return ""
}

// RerunNoise is the least difference between two runs of one call, as a
// fraction of the time, that counts as a change: the noise floor of commlab
// compare and of diagnose's baseline findings (docs/compare.md gives the
// figures behind it). Within it a run and its calibration table of one
// shape are one run of the machine to misfitOf, so that the two never
// disagree (a review: a rerun 9% slower was a change to the baseline and
// a misfit to the model).
const RerunNoise = 0.05

// noGDRFinding is the KindNoGDR finding of table t, predicted preds, where
// it ran across nodes over NCCL's InfiniBand transport (IB, RoCE) and its
// debug lines say NCCL ran the network without GPUDirect RDMA (noGDR):
// over the sizes the network bounds (TermNetwork, TermChannels) that did
// not stall, with the median of measured/model there and networkAdvice;
// none where no size is the network's, or where a finding before it
// already gives that advice. A run whose bytes cross host memory may still
// lie within the interval (a red team: a 4 x 2 A100 AllReduce without GDR,
// 2.5 times as slow from 4 MiB up, had no finding), and a cluster built
// with GDR should run with it.
func noGDRFinding(t Table, preds []Prediction, stalled []bool, before []Finding) []Finding {
	if t.Nodes < 2 || !noGDR(t.Evidence) || !ibTransport(t.Evidence) {
		// Over an OFI plugin (EFA, Slingshot) GPUDirect RDMA is the
		// provider's and the instance's to offer (a p3dn has none):
		// networkAdvice says what the plugin decided where it did.
		return nil
	}
	a := networkAdvice(t.Evidence)
	if slices.ContainsFunc(before, func(f Finding) bool { return slices.Contains(f.Advice, a) }) {
		return nil // a departure's advice says it already
	}
	r, ok := overRange(t, preds, func(i int) float64 { return preds[i].Time }, func(i int) bool {
		return !stalled[i] && (preds[i].Bound == TermNetwork || preds[i].Bound == TermChannels)
	})
	if !ok {
		return nil
	}
	return []Finding{{FromBytes: t.Points[r.first].Size, ToBytes: t.Points[r.last].Size, MeasuredOverModel: r.ratio,
		Kind: KindNoGDR, Term: preds[r.last].Bound, NCCL: strings.Join(r.choices, ", "), Advice: []string{a}}}
}

// A sizeRange is the sizes of a table a finding spans (overRange): the
// first and last of them, the median over them of the measured time over
// a reference time, and the model's choices there in size order, each
// once.
type sizeRange struct {
	first, last int
	ratio       float64
	choices     []string
}

// overRange returns the sizeRange of table t, predicted preds, over the
// sizes keep takes, its ratio over the time ref gives at each; ok is false
// where keep takes none.
func overRange(t Table, preds []Prediction, ref func(i int) float64, keep func(i int) bool) (r sizeRange, ok bool) {
	var ratios []float64
	r.first, r.last = -1, -1
	for i := range preds {
		if !keep(i) {
			continue
		}
		ratios = append(ratios, t.Points[i].Time/ref(i))
		if r.first < 0 {
			r.first = i
		}
		r.last = i
		if c := choiceOf(preds[i]); !slices.Contains(r.choices, c) {
			r.choices = append(r.choices, c)
		}
	}
	if len(ratios) == 0 {
		return sizeRange{}, false
	}
	r.ratio = fit.Median(ratios)
	return r, true
}

// noGDR reports that NCCL's debug lines say it ran an RDMA network without
// GPUDirect RDMA.
func noGDR(e nccltests.Evidence) bool {
	return e.GPUDirect.Known() && !e.GPUDirect.Value && e.Network.Value != "Socket"
}

// networkAdvice is what to check of a network slower than the model, for
// the network NCCL's debug lines name ("Using network IB", init.cc): the
// NCCL_IB_* settings of NCCL's InfiniBand and RoCE transport apply to it
// whether NCCL runs its own or a plugin's build of it (ibTransport); an
// OFI plugin (aws-ofi-nccl over EFA or Slingshot) has settings of its own,
// and sockets mean no RDMA transport was found.
func networkAdvice(e nccltests.Evidence) string {
	if noGDR(e) && e.PluginNoGDR.Known() {
		a := fmt.Sprintf("the network: NCCL ran some or all of its network connections without GPUDirect RDMA (NCCL_DEBUG=INFO, line %d), staging their data in host memory, which the OFI plugin decided itself (line %d: %q): its libfabric provider could not register GPU memory with the NIC, which NCCL's GDR settings do not change; check that the GPUs' memory can be registered (DMA-BUF with NVIDIA's open kernel module, or the nvidia-peermem module) and the aws-ofi-nccl and libfabric versions the cluster documents",
			e.GPUDirect.Line, e.PluginNoGDR.Line, e.PluginNoGDR.Value)
		if e.PluginSimple.Known() {
			a += fmt.Sprintf("; with GPUDirect RDMA the plugin may also leave NCCL's protocols free (line %d: without it, it asks for NCCL_PROTO=simple)", e.PluginSimple.Line)
		}
		return a
	}
	if noGDR(e) {
		return fmt.Sprintf("the network: NCCL ran some or all of its network connections without GPUDirect RDMA (NCCL_DEBUG=INFO, line %d), staging their data in host memory: check that the GPUs' memory can be registered with the NICs (the nvidia-peermem module, or DMA-BUF, which NCCL uses by default where the kernel and NVIDIA's open kernel module support it), and NCCL_NET_GDR_LEVEL and the NIC's PCIe path to the GPU (-topo)", e.GPUDirect.Line)
	}
	// NCCL pairs each GPU with its nearest NIC itself: what a rank is
	// bound to is its CPUs and memory, and NCCL_IB_HCA is one list for
	// every rank (topo.SameIBHCA).
	const ib = "bind each rank's CPUs and memory to its GPU's NUMA node (-topo names them); set NCCL_IB_HCA, if at all, to one list on every rank, the NICs the GPUs use without a storage or management NIC (-topo gives it): " + topo.SameIBHCA + "; check GPUDirect RDMA (NCCL_NET_GDR_LEVEL) and NCCL_IB_QPS_PER_CONNECTION"
	const ofi = "whose settings are its own (NCCL_IB_* do not apply): check that it uses every NIC with GPUDirect RDMA (NCCL_DEBUG=INFO's channel lines say \"via NET/%s/N/GDRDMA\"), the plugin's and libfabric's versions the cluster documents, and each rank's CPU affinity to its NIC's NUMA node"
	n := e.Network.Value
	switch {
	case n == "IB":
		return "the network: " + ib
	case ibTransport(e) && strings.HasPrefix(n, rdmaPlugin):
		return fmt.Sprintf("the network: NCCL ran over the network plugin %q (NCCL_DEBUG=INFO, line %d): HPC-X's nccl-rdma-sharp-plugins, NCCL's InfiniBand transport built as a plugin (its channel lines say \"via NET/IBext_v8/...\"), which reads NCCL_IB_*: %s", n, e.Network.Line, ib)
	case ibTransport(e) && e.Network.Known():
		return fmt.Sprintf("the network: NCCL ran over the network plugin %q, which lists its devices as NCCL's InfiniBand transport does (NCCL_DEBUG=INFO, line %d), a build of that transport: %s", n, e.NICs[0].Line, ib)
	case !e.Network.Known() && !e.Provider.Known():
		if ibTransport(e) {
			// The IB device line, with no line naming the network:
			// NCCL's InfiniBand transport, its own or a plugin's build.
			return fmt.Sprintf("the network: NCCL listed InfiniBand devices (NCCL_DEBUG=INFO, line %d), as its own InfiniBand transport and the nccl-rdma-sharp-plugins build of it do, both of which read NCCL_IB_*: %s", e.NICs[0].Line, ib)
		}
		// No line says which transport ran: NCCL_IB_* act on the
		// InfiniBand transport alone.
		return "the network: bind each rank's CPUs and memory to its GPU's NUMA node, and check GPUDirect RDMA (NCCL_NET_GDR_LEVEL); over NCCL's InfiniBand or RoCE transport, NCCL_IB_HCA (one list on every rank, from -topo: " + topo.SameIBHCA + ") and NCCL_IB_QPS_PER_CONNECTION, while an OFI network plugin (aws-ofi-nccl over EFA or Slingshot) has settings of its own (NCCL_DEBUG=INFO's \"Using network\" line says which ran)"
	case !e.Network.Known():
		return fmt.Sprintf("the network: NCCL ran over the OFI plugin's %s provider, "+ofi, e.Provider.Value, "...")
	case n == "Socket":
		return "the network: NCCL ran over sockets, without RDMA: check that its InfiniBand transport or the cluster's network plugin loads (NCCL_DEBUG=INFO says \"Using network IB\" or the plugin's name), and NCCL_SOCKET_IFNAME, NCCL_SOCKET_NTHREADS and NCCL_NSOCKS_PERTHREAD if sockets it must be"
	case ofiPlugin(e):
		return fmt.Sprintf("the network: NCCL ran over the OFI plugin %q, "+ofi, n, n)
	}
	return fmt.Sprintf("the network: NCCL ran over the network plugin %q, whose settings its documentation gives: check that it uses every NIC with GPUDirect RDMA (NCCL_DEBUG=INFO's channel lines say \"via NET/.../N/GDRDMA\"), its version the cluster documents, and each rank's CPU affinity to its NIC's NUMA node", n)
}

// ibTransport reports that the network NCCL ran is its InfiniBand and
// RoCE transport, which NCCL_IB_* configure: "Using network IB", or a
// plugin that is not OFI whose devices the log lists as that transport
// lists them ("NET/IB : Using [0]mlx5_0:1/IB/SHARP ...", net_ib.cc). HPC-X's
// nccl-rdma-sharp-plugins is such a build: it names itself "NCCL RDMA
// Plugin v8" ("Using network NCCL RDMA Plugin v8"), runs its IB transport
// IBext_v8 ("P2P plugin v8 IBext_v8", the name its channel lines carry:
// "via NET/IBext_v8/1/GDRDMA"), and reads NCCL_IB_HCA and the NCCL_IB_*
// parameters (src/p2p_plugin.c, src/ib_plugin.c). aws-ofi-nccl prints no
// such line. A log without the network's line whose devices are listed so
// ran one of the two.
func ibTransport(e nccltests.Evidence) bool {
	switch {
	case e.Network.Value == "IB":
		return true
	case e.Network.Value == "Socket" || ofiPlugin(e):
		return false
	}
	return strings.HasPrefix(e.Network.Value, rdmaPlugin) ||
		slices.ContainsFunc(e.NICs, func(n nccltests.NIC) bool { return n.Link == "IB" || n.Link == "RoCE" || n.Link == "ETH" })
}

// rdmaPlugin begins the name of nccl-rdma-sharp-plugins' network, "NCCL
// RDMA Plugin v8" (src/p2p_plugin.c).
const rdmaPlugin = "NCCL RDMA Plugin"

// ofiPlugin reports that the network NCCL ran is the OFI plugin
// (aws-ofi-nccl, over EFA or Slingshot's cxi): its provider line ("NET/OFI
// Selected Provider is efa") or its name ("Using network AWS Libfabric",
// "Libfabric" in releases outside AWS).
func ofiPlugin(e nccltests.Evidence) bool {
	return e.Provider.Known() || strings.Contains(e.Network.Value, "Libfabric")
}

// pins returns the advice on NCCL_ALGO and NCCL_PROTO over a range of t
// slower than the model, preds' sizes, decided as commlab tune decides a
// rule (TunerPlan), so that no setting is advised that tune would not
// write or that rests on less evidence than a rule:
//
//   - where t ran NCCL's own choices under the exclusions every
//     calibration table ran with (runSetting), the rule tune writes for
//     t's communicator and collective over the range, if it takes one
//     choice of the model's at every size (not withheld) that is not what
//     ran;
//   - where t's run set NCCL_ALGO or NCCL_PROTO beyond those exclusions
//     (and kept them otherwise), NCCL's own choice where it differs from
//     the run's at every size of the range and beats it there (pinTaken),
//     on an algorithm and protocol the tables ran near the sizes
//     (unmeasured): the setting is what to undo.
//
// Each says how much faster, with the range its 80% interval gives,
// medians over the sizes, each side taken as the calibration tables ran
// its protocol near the sizes (TunerChoice.Decided). Grouped sends
// (AllToAll, SendRecv) run outside NCCL's algorithms and get none, and
// nor does a run under a tuner plugin, whose choices are the plugin's.
// alts gives the alternatives a choice may rest on, tried once a
// diagnosis.
func (m *Machine) pins(t Table, preds []Prediction, alts func() ([]tried, error)) []string {
	if grouped(t.Collective) || t.Ranks() < 2 || t.Evidence.TunerPlugin.Known() {
		return nil
	}
	sizes := make([]float64, len(preds))
	for i, p := range preds {
		sizes[i] = p.Size
	}
	q := t.Query()
	ex := m.TunerExclusions()
	algo := runSetting(t.Algo, t.Evidence.Algo, t.Evidence.RanAlgo)
	proto := runSetting(t.Proto, t.Evidence.Proto, t.Evidence.RanProto)
	var set []string
	for _, v := range []struct{ name, run, ex string }{{"NCCL_ALGO", algo, ex.Algo}, {"NCCL_PROTO", proto, ex.Proto}} {
		switch {
		case v.name == "NCCL_PROTO" && pluginSimple(t):
			// The OFI plugin's, for correctness: not the run's to undo,
			// nor NCCL's own choice to hold it to.
			if len(set) == 0 {
				return nil
			}
		case strings.EqualFold(v.run, v.ex):
		case v.run == "":
			return nil // the run left out an exclusion the tables ran with
		default:
			set = append(set, v.name+"="+v.run)
		}
	}
	if len(set) == 0 {
		return m.tunedPin(t, q, preds, sizes)
	}
	own := q
	own.Algo, own.Proto = ex.Algo, ex.Proto
	if t.Evidence.PluginSimple.Known() {
		own.Proto = "simple" // the OFI plugin's, once the job's own goes
	}
	ps, err := m.Predict(own, sizes)
	if err != nil {
		return nil
	}
	speed, lo, hi := make([]float64, len(ps)), make([]float64, len(ps)), make([]float64, len(ps))
	for i, p := range ps {
		if choiceOf(p) != choiceOf(ps[0]) || choiceOf(p) == choiceOf(preds[i]) {
			return nil // NCCL's own changes over the range, or the run's setting runs it
		}
		pr, err := commmodel.ParseProtocol(p.Protocol)
		if err != nil {
			return nil
		}
		if a, err := nccl.ParseAlgo(p.Algorithm); err != nil || m.unmeasured(a, pr, q.Ranks > q.PerNode, p.Size) {
			return nil // a gain on priors, or on the model's form, where no table timed NCCL's choice: as tune's rules
		}
		k := slices.IndexFunc(t.Points, func(pt Point) bool { return pt.Size == p.Size })
		if k < 0 {
			return nil
		}
		g, taken := m.pinTaken(q, own, p, preds[i], t.Points[k].Fastest(), alts)
		if !taken {
			return nil
		}
		speed[i], lo[i], hi[i] = g.Times, g.Low, g.High
	}
	g := Gain{fit.Median(speed), fit.Median(lo), fit.Median(hi)}
	a := fmt.Sprintf("the run's setting %s moves NCCL off its own choice here, %s, which the model predicts %.2fx as fast as the run's %s, as the calibration tables ran each protocol near these sizes (%s)",
		strings.Join(set, " "), choiceOf(ps[0]), g.Times, choiceOf(preds[0]), g.Range("its"))
	return []string{a + m.unsetCost(t, q, own)}
}

// unsetCost ends the advice to unset a run's setting (pins), which the job
// makes for every call: where the model predicts the run's setting (q)
// faster than NCCL's own choices (own) at some size of t, it says where
// and by how much, and that tuner rules must keep the setting's choice
// there (NCCL's tuner plugin picks among what the environment leaves it,
// so the setting goes and the rules come together); else that it predicts
// NCCL's own no slower at every size of t.
func (m *Machine) unsetCost(t Table, q, own Query) string {
	sizes := make([]float64, len(t.Points))
	for i, p := range t.Points {
		sizes[i] = p.Size
	}
	run, err1 := m.Predict(q, sizes)
	ours, err2 := m.Predict(own, sizes)
	if err1 != nil || err2 != nil {
		return ": unset it only where a run without it confirms the gain, for the setting is the job's, at every size and collective"
	}
	// worst is the size where the model predicts the run's choice the
	// most faster than NCCL's own, among those where it beats it beyond
	// its interval (Beats), else among those where it is faster at all.
	worst, beats := -1, false
	for i := range sizes {
		b := run[i].Beats(ours[i])
		if run[i].Time < ours[i].Time && (worst < 0 || b && !beats || b == beats && ours[i].Time/run[i].Time > ours[worst].Time/run[worst].Time) {
			worst, beats = i, b
		}
	}
	const job = "the setting is the job's: the other collectives, which the table does not time, change too"
	switch {
	case worst < 0:
		return ": unset it; at every size of the table the model predicts NCCL's own choices no slower (" + job + ")"
	case !beats:
		g := run[worst].GainOver(ours[worst].Time)
		return fmt.Sprintf(": unset it; where the model predicts the run's choice faster than NCCL's own, at most %.2fx (%s, at %s), its interval reaches below 1x, so it cannot tell the two apart there, and commlab tune would write no rule for them (%s)",
			g.Times, g.Range("its"), units.FormatSize(sizes[worst]), job)
	}
	// The sizes where the run's choice of the worst size beats NCCL's own
	// choice there beyond its interval.
	first, last := worst, worst
	for i := range sizes {
		if run[i].Beats(ours[i]) && choiceOf(run[i]) == choiceOf(run[worst]) && choiceOf(ours[i]) == choiceOf(ours[worst]) {
			first, last = min(first, i), max(last, i)
		}
	}
	g := run[worst].GainOver(ours[worst].Time)
	return fmt.Sprintf(": but the setting is the job's, at every size and collective, and at %s the model predicts the run's %s faster than NCCL's own %s beyond its interval, %.2fx at %s (%s): unset it together with tuner rules that keep the run's choice there (commlab tune, calibrated on these tables, writes them where the gain holds beyond its interval)",
		sizeSpan(sizes[first], sizes[last]), choiceOf(run[worst]), choiceOf(ours[worst]), g.Times, units.FormatSize(sizes[worst]), g.Range("its"))
}

// runSetting returns v, a table's NCCL_ALGO or NCCL_PROTO, where the run
// set it: its environment (env, the log's "set by environment" line) or
// the user's pin. It is "" where v is empty or NCCL chose it, as its
// TUNING lines name it (ran, which readEvidence takes as the table's pin).
func runSetting(v string, env, ran nccltests.Fact[string]) string {
	if env.Known() || !ran.Known() || !strings.EqualFold(strings.ReplaceAll(ran.Value, "_", ""), v) {
		return v
	}
	return ""
}

// tunedPin returns the rule commlab tune writes over every size of a
// range of t, which ran NCCL's own choices, where the model's choice
// replaces NCCL's (TunerPlan): one choice, not withheld, at every size,
// and not what ran; nil elsewhere.
func (m *Machine) tunedPin(t Table, q Query, preds []Prediction, sizes []float64) []string {
	if m.RunsRCCL() {
		return nil // tune writes no rules for RCCL
	}
	_, choices, err := m.TunerPlan([]commmodel.Collective{t.Collective}, []Comm{{t.Nodes, t.PerNode}}, q.Layout, sizes)
	if err != nil || len(choices) != len(sizes) {
		return nil
	}
	speed, lo, hi := make([]float64, len(sizes)), make([]float64, len(sizes)), make([]float64, len(sizes))
	var from, to uint64
	for i, ch := range choices {
		if ch.Withheld() || ch.Size != sizes[i] || choiceOf(ch.Ours) != choiceOf(choices[0].Ours) || choiceOf(ch.Ours) == choiceOf(preds[i]) {
			return nil
		}
		ours, theirs := ch.Decided()
		g := ours.GainOver(theirs)
		speed[i], lo[i], hi[i] = g.Times, g.Low, g.High
		if i == 0 {
			from = ch.MinBytes
		}
		to = ch.MaxBytes
	}
	ch := choices[0]
	g := Gain{fit.Median(speed), fit.Median(lo), fit.Median(hi)}
	args := make([]string, len(sizes))
	for i, s := range sizes {
		args[i] = sizeArg(s)
	}
	return []string{fmt.Sprintf("commlab tune, given this diagnosis's -calibrate (with each file's settings), -hw and launch flags, with -comms %dx%d -collective %v -size %s, writes a tuner rule of %s from %d to %d B, "+
		"which the model predicts %.2fx as fast as NCCL's own %s here, as the calibration tables ran each protocol near these sizes (%s); "+
		"add to -comms every other communicator the job creates, as the plugin runs every call of one the file has no rules for on one channel, and the rest of the file keeps NCCL's own choices; "+
		"NCCL_ALGO and NCCL_PROTO in the job's environment would pin every size and collective instead",
		t.Nodes, t.PerNode, t.Collective, strings.Join(args, ","), choiceOf(ch.Ours), from, to, g.Times, choiceOf(ch.NCCL), g.Range("its"))}
}

// sizeArg writes b bytes as a flag's size: "256KiB" where that reads back
// as b, else the bytes.
func sizeArg(b float64) string {
	s := strings.ReplaceAll(units.FormatSize(b), " ", "")
	if n, err := units.ParseSize(s); err == nil && float64(n) == b {
		return s
	}
	return strconv.FormatFloat(b, 'f', -1, 64)
}

// pinTaken reports that ours, NCCL's own choice for the query own,
// replaces theirs, the prediction of what a run of q that set NCCL_ALGO
// or NCCL_PROTO ran, measured at ran seconds, by the test a tuner rule of
// tune passes (beatsNCCL): it beats theirs beyond its interval with each
// side as the tables ran its protocol near the size, on a node count
// within the tables', a calibration table that measured NCCL's own choice
// at the size measured it faster than the run, the model follows its
// tables near the size (missesNear), and it rests on no assumed fact
// (restsOn, over alts' alternatives). It returns the gain it was decided
// on (TunerChoice.Decided).
func (m *Machine) pinTaken(q, own Query, ours, theirs Prediction, ran float64, alts func() ([]tried, error)) (Gain, bool) {
	size := ours.Size
	c := m.decide(q, ours, theirs, size)
	c.Near, c.Outside = m.missesNear(size)
	o, t := c.Decided()
	g := o.GainOver(t)
	if m.beyondNodes(q) || !(o.High < t) || c.Misses() {
		return g, false
	}
	if measured, ok := m.measuredAt(q, size); ok && !(measured < ran) {
		return g, false
	}
	if len(m.tables) == 0 {
		return g, true
	}
	tr, err := alts()
	a, aerr := nccl.ParseAlgo(ours.Algorithm)
	p, perr := commmodel.ParseProtocol(ours.Protocol)
	return g, err == nil && aerr == nil && perr == nil && len(m.restsOn(own, q, tr, a, p, ours, theirs, size)) == 0
}

// networkGuesses returns, for a table across nodes that is not one of m's
// calibration tables, the assumed facts of
// m's hardware that move the prediction of t's points i to j by more than
// GuessMoves and that m's calibration tables do not settle: Guesses on the
// tables, as commlab predict prints them, or on no tables (Untabled) where
// m has none, less those t's own debug lines rule out, as predict's
// calibrated on t would (newGuesser). A departure there in the latency or network term may then
// be the guess. Without tables, grouped sends (AllToAll, SendRecv), which
// NCCL's model lacks, take the NICs' count and rate where they are
// assumed. *gr holds the guesses' calibrations for t's query, made on the
// first call that needs them.
func (m *Machine) networkGuesses(gr **guesser, t Table, i, j int) []Guess {
	if t.Nodes < 2 || slices.Contains(m.Tables, t.Name) {
		return nil // a calibration table departs where the model's form misses it
	}
	sizes := make([]float64, 0, j-i+1)
	for _, p := range t.Points[i : j+1] {
		sizes = append(sizes, p.Size)
	}
	if len(m.tables) > 0 || !grouped(t.Collective) {
		if *gr == nil {
			if g, err := newGuesser(m.Hardware, m.tables, t.Query(), t); err == nil {
				*gr = g
			}
		}
		if *gr != nil {
			if gs, err := (*gr).at(sizes); err == nil {
				return gs
			}
		}
	}
	var out []Guess
	for _, f := range m.Hardware.Facts() {
		if f.Guessed() && (f.Key == "nics" || f.Key == "nic-bw") {
			out = append(out, Guess{Fact: f, Hint: f.Key + "=" + hintValue(f.Key)})
		}
	}
	return out
}

// guessAdvice says that a departure may be the assumed facts gs, and what
// settles each; across reports that the calibration tables crossed nodes,
// and so measured the network the facts did not settle.
func guessAdvice(gs []Guess, across bool) string {
	var facts, hints []string
	for _, g := range gs {
		s := g.Fact.Name + " = " + g.Fact.Value
		if g.Ratio > 0 {
			s += fmt.Sprintf(" (with %s, the prediction at %s is %.2fx)", g.Alternative, units.FormatSize(g.Size), g.Ratio)
		}
		facts = append(facts, s)
		if !slices.ContainsFunc(gs, func(o Guess) bool { return o.covers(g) }) {
			hints = append(hints, g.Flag()) // a guess of it and another together names both
		}
	}
	if across {
		return "the calibration tables do not settle what the model assumed of " + strings.Join(facts, " and ") +
			": the gap may be the guess, not the run; settle it with " + strings.Join(hints, " and ") +
			", or calibrate on a table of this run's shape (-calibrate), before tuning the network"
	}
	return "the model has seen no table across nodes of this machine and assumed " + strings.Join(facts, " and ") +
		": the gap may be the guess, not the run; settle it with " + strings.Join(hints, " and ") +
		", or calibrate on a table across nodes (-calibrate), before tuning the network"
}

// guessesMove returns the most the guesses gs move the model together
// towards a departure: the product of their ratios, each taken as a gap
// (gap), which overstates what facts moving one term together do; a guess
// of several facts together (Guess.covers) counts once with the guesses
// of each alone, the larger of its gap and theirs. It is false where a
// guess has no ratio (a fact no alternative measures).
func guessesMove(gs []Guess) (float64, bool) {
	most := 1.0
	for _, g := range gs {
		if g.Ratio <= 0 {
			return 0, false
		}
		if slices.ContainsFunc(gs, func(o Guess) bool { return o.covers(g) }) {
			continue // counted with the guess that covers it
		}
		move := Gap(g.Ratio)
		if len(g.Keys) > 1 {
			alone := 1.0
			for _, o := range gs {
				if g.covers(o) {
					alone *= Gap(o.Ratio)
				}
			}
			move = max(move, alone)
		}
		most *= move
	}
	return most, true
}

// Gap is a ratio of times, which is positive, as a factor of at least 1,
// either way (how far off, whichever side): 2 for 0.5 and for 2.
func Gap(r float64) float64 { return max(r, 1/r) }

// hostHint asks, for a table of several nodes slower than the model in
// its latency or network term, for the host facts the model assumed and
// NCCL reads: where the NICs sit (beyond PXN NCCL runs no LL128 across
// nodes; on an AMD host, which has no nvidia-smi, by its PCIe tree) unless
// t's or the tables' debug lines settle it (nicPathSettled), and an
// AMD CPU (twice Intel's per-step network overhead) where it assumed
// another.
func (m *Machine) hostHint(f Finding, t Table) (string, bool) {
	h := &m.Hardware
	if f.Kind != KindSlower || t.Nodes < 2 || f.Term != TermLatency && !acrossNodes(f.Term) {
		return "", false
	}
	var took, ask []string
	if !h.nicPathSettled(append([]Table{t}, m.tables...)) {
		took = append(took, "the NICs to be next to the GPUs")
		// A capture gives the path NCCL's rings enter and leave a host by
		// (topo.Topology.RingNICPath), which one GPU's row does not.
		rccl := m.refs.runsRCCL()
		ll128 := ": NCCL then runs no LL128 across nodes"
		switch {
		case !nccl.DefaultLL128(isaOf(h, rccl), t.PerNode):
			ll128 = "" // RCCL runs no LL128 on it by default, wherever the NICs sit
		case rccl:
			ll128 = ": RCCL then runs no LL128 across nodes"
		}
		topology := "the hosts' nvidia-smi topo -m, read by commlab topo, shows nic_path PHB or SYS (-topo FILE gives the capture, -hw nic-path=phb the path" + ll128 + ")"
		if rccl {
			topology = "the PCIe tree (lspci -tv) puts a GPU and its NIC under different switches or CPUs (-hw nic-path=phb" + ll128 + ")"
		}
		ask = append(ask, topology)
	}
	if amd := cpus[1]; !h.given(h.Sources.CPU) && h.CPU != amd.cpu {
		// An AMD CPU, which an MI250X host is assumed to have, would make
		// the model slower: NCCL's per-step network overhead is twice
		// Intel's there (getNetOverhead).
		took = append(took, "the CPU to be "+cpuOf(h.CPU).name)
		ask = append(ask, "the hosts have AMD CPUs (-hw cpu=amd: NCCL's per-step network overhead is twice Intel's)")
	}
	if len(ask) == 0 {
		return "", false
	}
	return "the model took " + strings.Join(took, " and ") + ": describe the hosts if " + strings.Join(ask, ", or if "), true
}

// otherChoice looks for one algorithm, pinned at every size of t (the
// tuner picking its protocol), that the measured times follow with at most
// half the model's median error and at most otherChoiceMax, where the model's own choices are off by
// otherChoiceMin or more at the median and leave some of the points outside
// their interval: what NCCL ran is then more likely that one than what its
// tuner would pick on the modelled machine (an algorithm unavailable there,
// such as NVLS without multicast, or a setting), of those it may pin
// (pinnable). A finding spans the sizes
// where the model's choice is one other algorithm, with a point outside
// the interval; where the model already runs that algorithm there is none.
// Stalled rows count for no algorithm and end a span. Tables with pins, and
// grouped sends, have no other choice.
func (m *Machine) otherChoice(t Table, preds []Prediction, stalled []bool) []Finding {
	if t.Algo != "" || t.Proto != "" || grouped(t.Collective) {
		return nil
	}
	sizes := make([]float64, len(t.Points))
	outside := 0
	for i, p := range t.Points {
		sizes[i] = p.Size
		if !stalled[i] && !preds[i].Holds(p.Time) {
			outside++
		}
	}
	if outside == 0 {
		return nil
	}
	logErr := func(ps []Prediction) float64 {
		var e []float64
		for i, p := range ps {
			if !stalled[i] {
				e = append(e, math.Abs(math.Log(t.Points[i].Time/p.Time)))
			}
		}
		return fit.Median(e)
	}
	own := logErr(preds)
	if own < math.Log1p(otherChoiceMin) {
		return nil
	}
	var best []Prediction
	bestErr := min(own/2, math.Log1p(otherChoiceMax))
	q := t.Query()
	for _, a := range m.pinnable() {
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
		return nil
	}
	run := best[0].Algorithm
	var out []Finding
	for _, r := range spans(len(preds), func(i int) string {
		if stalled[i] || preds[i].Algorithm == run {
			return ""
		}
		return preds[i].Algorithm
	}) {
		i, j := r[0], r[1]
		var ratios []float64
		outside := false
		for k := i; k <= j; k++ {
			ratios = append(ratios, t.Points[k].Time/preds[k].Time)
			outside = outside || !preds[k].Holds(t.Points[k].Time)
		}
		if !outside {
			continue
		}
		choice := preds[i].Algorithm
		why := fmt.Sprintf("the measured times follow %s (its protocols as the tuner picks them; median error %.0f%% over the table) rather than the model's choices (%.0f%%), %s at these sizes: NCCL probably ran %s; NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING prints what it ran",
			run, 100*(math.Exp(bestErr)-1), 100*(math.Exp(own)-1), choice, run)
		if strings.HasPrefix(choice, "NVLS") && !strings.HasPrefix(run, "NVLS") {
			why += "; if NVLS was off, NCCL_DEBUG=INFO says \"NVLS multicast support is not available\" (it needs the fabric manager's multicast, and IMEX channels across hosts)"
		}
		why += fmt.Sprintf("; to predict such runs, pin it: -algo %s, with :algo=auto on calibration files the tuner chose", strings.ToLower(run))
		out = append(out, Finding{FromBytes: sizes[i], ToBytes: sizes[j], MeasuredOverModel: fit.Median(ratios),
			Kind: KindOtherChoice, NCCL: choice + " -> " + run, Advice: []string{why}})
	}
	return out
}

// otherChoiceMin is the least median error of the model's choices for
// which otherChoice looks further: below it the prediction is as good as
// the paired tables' target (15%), and another algorithm that fits better
// is within what calibration errors allow.
const otherChoiceMin = 0.15

// otherChoiceMax is the largest median error of another algorithm that
// the measured times can be said to follow: beyond it that algorithm
// explains the table no better than a broken calibration would.
const otherChoiceMax = 0.5

// switchDrop is the least fall in time, as a share, that counts as
// non-monotone: less is noise.
const switchDrop = 0.05

// fallNoise is the least fall, in logs, that both of a pair of rows'
// timings (out of place and in place) must show to tell a change of
// NCCL's choice the model does not make: the 95th percentile of
// |ln(in-place/out-of-place)| over every row of the repository's public
// logs but the stalls, the same call timed twice in one run
// (TestFallNoise measures it).
// Smaller falls in the latency floor's flat rows are that scatter.
const fallNoise = 0.15

// mscclFrom is the least AllReduce of floats that RCCL 2.21.5 and later
// hand to MSCCL on one node of 8 MI300- or MI350-series GPUs: its all-pairs
// LL algorithm (ROCm/rccl tools/msccl-algorithms/allreduce-allpairs-8n-ll-
// 32tb.xml: nchunksperloop 256, minBytes 0, maxBytes 65536) takes a call
// whose element count 256 divides (src/misc/msccl/msccl_lifecycle.cc), 1 KiB
// of 4-byte floats, past RCCL's tuner. RCCL turns MSCCL on by default only
// on the platform of 8 GPUs of 7 links each (src/graph/rome_models.cc: the
// one model of 8 GPUs whose options hold mscclEnabled=1; its README: "On
// MI300X, MSCCL is enabled by default"), not on an MI250X's 8 GCDs.
const mscclFrom = 1 << 10

// mscclppFrom is the least AllReduce that RCCL 2.21.5 built with MSCCL++
// hands to it on gfx942 (src/init.cc: mscclppCompatible, and
// RCCL_MSCCLPP_ENABLE on by default in such a build): one captured in a graph, one rank a GPU, of a byte count 32
// divides, up to RCCL_MSCCLPP_THRESHOLD (1 MiB; src/misc/msccl/
// msccl_lifecycle.cc), past RCCL's tuner.
const mscclppFrom = 32

// switches finds sizes where the measured time falls as the size grows.
// Across a change of NCCL's choice (the model's) at or next to it, a fall
// of switchDrop says the switch is early or late for this machine
// (KindSwitch). Where the model keeps one choice, a fall beyond fallNoise
// in both timings says NCCL changes its choice there and the model does
// not (KindHiddenSwitch); a table without in-place times cannot tell that
// from noise. A row whose in-place time lies more than inPlaceAgree from
// its out-of-place one times noise, not NCCL's choice (the RTX 6000D
// AllReduce's 8 MiB, 2005.46 us and 4856.79 in place), and marks neither.
// msccl is the GPUs' ISA where RCCL runs MSCCL on this machine by default
// (mscclFrom; MSCCL++ on gfx942, mscclppFrom), "" elsewhere.
func switches(t Table, preds []Prediction, stalled []bool, msccl string) []Finding {
	var out []Finding
	noisy := func(p Point) bool {
		return p.InPlace > 0 && math.Abs(math.Log(p.Time/p.InPlace)) > math.Log(inPlaceAgree)
	}
	for i := 0; i+1 < len(preds); i++ {
		a, b := t.Points[i], t.Points[i+1]
		if stalled[i] || stalled[i+1] || noisy(a) || noisy(b) || !(b.Size > a.Size && b.Time < (1-switchDrop)*a.Time) {
			continue
		}
		// NCCL's choices (the model's) from the row before the fall to
		// the row after it, each change in turn: a switch at or next to it.
		var chain []string
		for k := max(i-1, 0); k <= min(i+2, len(preds)-1); k++ {
			if c := choiceOf(preds[k]); len(chain) == 0 || chain[len(chain)-1] != c {
				chain = append(chain, c)
			}
		}
		from := chain[0]
		f := Finding{FromBytes: a.Size, ToBytes: b.Size, MeasuredOverModel: b.Time / preds[i+1].Time,
			Kind: KindSwitch, NCCL: strings.Join(chain, " -> ")}
		switch {
		case len(chain) > 1:
			f.Advice = []string{fmt.Sprintf("the time falls from %s to %s where NCCL changes from %s: NCCL may switch late or early here on this machine; commlab tune, calibrated on these tables, writes a tuner rule for these sizes alone only where the model's choice beats NCCL's beyond its interval on evidence near them, and says so in its file's header (NCCL_ALGO and NCCL_PROTO in the job's environment would pin every size and collective)",
				units.FormatDuration(a.Time), units.FormatDuration(b.Time), strings.Join(chain, " to "))}
		case i == 0:
			// A fall from the table's first row is more often that call
			// running cold (the first of the sweep) than a change of
			// NCCL's choice: AMD's 2 x 8 MI300X AllReduce, 256.5 us at 8 B
			// and 218.7 at 16 B, then flat.
			continue
		case a.InPlace > 0 && b.InPlace > 0 && math.Log(a.Time/b.Time) > fallNoise && math.Log(a.InPlace/b.InPlace) > fallNoise:
			f.Kind, f.NCCL = KindHiddenSwitch, from
			fall := fmt.Sprintf("the time falls from %s at %s to %s at %s, and in place from %s to %s, more than a call timed twice differs in 19 of 20 rows",
				units.FormatDuration(a.Time), units.FormatSize(a.Size), units.FormatDuration(b.Time), units.FormatSize(b.Size),
				units.FormatDuration(a.InPlace), units.FormatDuration(b.InPlace))
			oneNode := msccl != "" && t.Collective == commmodel.AllReduce && t.Nodes == 1 && t.PerNode == 8
			if oneNode && msccl == "gfx942" && t.Layout.Graphs > 0 && a.Size < mscclppFrom && b.Size >= mscclppFrom {
				f.Advice = []string{fall + ": on MI300-series GPUs RCCL (2.21.5 and later, built with MSCCL++: RCCL_MSCCLPP_ENABLE is then on by default) sends an AllReduce captured in a graph, one rank a GPU, whose byte count 32 divides, up to 1 MiB (RCCL_MSCCLPP_THRESHOLD), to MSCCL++, past its tuner, and smaller calls to MSCCL or its own kernels (src/misc/msccl/msccl_lifecycle.cc). NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL names the calls MSCCL++ takes (mscclpp_ncclAllReduce), and RCCL_MSCCLPP_ENABLE=0 runs them on MSCCL or RCCL's own kernels; no setting gives the smaller calls to MSCCL++, and commlab tune writes no rule for it"}
				break
			}
			if oneNode && a.Size < mscclFrom && b.Size >= mscclFrom {
				f.Advice = []string{fall + ": on one node of an 8-GPU platform of 7 Infinity Fabric links a GPU (MI300 and MI350 series) RCCL (2.21.5 on) sends an AllReduce whose element count 256 divides, from 1 KiB of floats to 64 KiB, to MSCCL's all-pairs LL kernels, past its tuner, and smaller calls to its own (RCCL_MSCCL_ENABLE, on by default; ROCm/rccl tools/msccl-algorithms/allreduce-allpairs-8n-ll-32tb.xml). NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=COLL names the calls MSCCL takes, and RCCL_MSCCL_ENABLE=0 runs every call on RCCL's own kernels; no setting gives the smaller calls to MSCCL, and commlab tune writes no rule for it"}
				break
			}
			f.Advice = []string{fmt.Sprintf("%s: the likeliest cause is a change of NCCL's algorithm, protocol or channels between these sizes, which the model does not make (it keeps %s). The %s call would take no longer than %s on NCCL's choice at %s with as many channels, %.0f%% less. NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING prints NCCL's choice for each call (\"Bytes -> Algo\", RCCL too); the model cannot say which it is, so commlab tune writes no rule for it",
				fall, from, units.FormatSize(a.Size), units.FormatDuration(b.Time), units.FormatSize(b.Size), 100*(1-b.Time/a.Time))}
		default:
			continue
		}
		out = append(out, f)
	}
	return out
}

// heldUpRows reports the rows that took longer than the row before them
// by more than their bytes grew, and longer than the row after them, in
// both timings and beyond the noise of a call timed twice (fallNoise),
// where none of the three stalled: one choice of NCCL's takes a fixed cost
// and a cost per byte, which never grow faster than the bytes, so no
// change of its choice between two that grow so gives such a row: one
// held-up call does, or NCCL running that size alone on a far slower
// choice (KISTI's CollNet run, nccl-tests#311: 1473.4 us at 1 MiB between
// 167.6 at 256 KiB and 402.7 at 4 MiB), which a rerun tells apart. A table
// without in-place times cannot tell it from noise.
func heldUpRows(points []Point, stalled []bool) []bool {
	out := make([]bool, len(points))
	for i := 1; i+1 < len(points); i++ {
		p, a, b := points[i-1], points[i], points[i+1]
		if stalled[i-1] || stalled[i] || stalled[i+1] || !(p.Size > 0 && a.Size > p.Size && b.Size > a.Size) || p.InPlace <= 0 || a.InPlace <= 0 || b.InPlace <= 0 {
			continue
		}
		grew := math.Log(a.Size/p.Size) + fallNoise
		out[i] = math.Log(a.Time/p.Time) > grew && math.Log(a.InPlace/p.InPlace) > grew &&
			math.Log(a.Time/b.Time) > fallNoise && math.Log(a.InPlace/b.InPlace) > fallNoise
	}
	return out
}

// heldUpFindings returns a stall finding for each held-up row
// (heldUpRows).
func heldUpFindings(t Table, preds []Prediction, held []bool) []Finding {
	var out []Finding
	for i, h := range held {
		if !h {
			continue
		}
		p, a, b := t.Points[i-1], t.Points[i], t.Points[i+1]
		out = append(out, Finding{FromBytes: a.Size, ToBytes: a.Size, MeasuredOverModel: a.Time / preds[i].Time, Kind: KindStall, NCCL: choiceOf(preds[i]),
			Advice: []string{fmt.Sprintf("the %s row took %.2fx as long as the %s row (%.2fx in place) for %.3gx its bytes, more than the time of one choice of NCCL's grows (a fixed cost and a cost per byte), and longer than the %s row: this row alone was held up (another job, a network fault), or NCCL ran this size alone on a far slower choice; run the sizes again (with more warm-up iterations, nccl-tests -w): a held-up row does not repeat, and NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING names NCCL's choice for each call",
				units.FormatSize(a.Size), a.Time/p.Time, units.FormatSize(p.Size), a.InPlace/p.InPlace, a.Size/p.Size, units.FormatSize(b.Size))}})
	}
	return out
}

// stallFindings returns a finding for each run of stalled rows (stalls).
func stallFindings(t Table, preds []Prediction, kinds []stall) []Finding {
	var out []Finding
	for _, r := range spans(len(preds), func(i int) string {
		if kinds[i] != 0 {
			return KindStall
		}
		return ""
	}) {
		var ratios []float64
		var why stall
		for k := r[0]; k <= r[1]; k++ {
			ratios = append(ratios, t.Points[k].Time/preds[k].Time)
			why |= kinds[k]
		}
		cause, look := "another job, a network fault", "the fault in the window of the run (the NICs' error counters, the job's neighbours)"
		if t.Nodes == 1 { // one node's run crosses no network
			cause, look = "another job on the GPUs", "what else ran on the GPUs in the window of the run"
		}
		advice := fmt.Sprintf("these rows took %s: %s or a first call before the warm-up held them up, not a setting of NCCL's; run the sizes again (with more warm-up iterations, nccl-tests -w), and look for %s", why, cause, look)
		out = append(out, Finding{FromBytes: t.Points[r[0]].Size, ToBytes: t.Points[r[1]].Size, MeasuredOverModel: fit.Median(ratios),
			Kind: KindStall, NCCL: choiceOf(preds[r[0]]), Advice: []string{advice}})
	}
	return out
}

// aboveNIC reports bus bandwidth above a ring's bound across nodes: a ring
// moves a GPU's bus bytes over its node's NICs together, so a greater bus
// bandwidth means NCCL ran something that crosses the network less (Tree,
// NVLSTree, CollNet), and the table says little of the network itself. A
// finding spans one choice of NCCL's; where the NICs' count or rate is
// assumed, it says so. Hosts of one NVLink domain (an NVL72 rack's) reach
// each other over NVLink, not the NICs: no bound.
func (m *Machine) aboveNIC(t Table, preds []Prediction, rn *run) []Finding {
	nb, ok := m.ringNICBound(t, rn)
	if !ok {
		return nil
	}
	bound := nb.BusBW
	h := &m.Hardware
	n := t.Ranks()
	bus := func(i int) float64 { return t.Collective.BusBW(n, t.Points[i].Size, t.Points[i].Time) }
	var out []Finding
	for _, r := range spans(len(preds), func(i int) string {
		if bus(i) > 1.05*bound {
			return choiceOf(preds[i])
		}
		return ""
	}) {
		best := r[0]
		for k := r[0]; k <= r[1]; k++ {
			if bus(k) > bus(best) {
				best = k
			}
		}
		a := fmt.Sprintf("bus bandwidth reaches %.1f GB/s against the %.1f GB/s a ring could get from a node's NICs: NCCL ran an algorithm that sends less over the network (the model: %s); to measure the network itself, run with NCCL_ALGO=Ring",
			bus(best)/1e9, bound/1e9, choiceOf(preds[best]))
		switch {
		case strings.EqualFold(t.Algo, "Ring"):
			a = fmt.Sprintf("bus bandwidth reaches %.1f GB/s against the %.1f GB/s a ring could get from a node's NICs as described, though the run ran Ring (the table's algo=, or NCCL's debug lines): the nodes have more NIC bandwidth than described",
				bus(best)/1e9, bound/1e9)
		case strings.HasPrefix(choiceOf(preds[best]), "Ring/"):
			a = fmt.Sprintf("bus bandwidth reaches %.1f GB/s against the %.1f GB/s a ring could get from a node's NICs as described, which the model's %s cannot: ",
				bus(best)/1e9, bound/1e9, choiceOf(preds[best]))
			nvswitch := h.Fabric == FabricNVSwitch
			switch others := lessOverNetwork(t.Collective, h.NVLS, h.CollNet || rn.collNet, nvswitch); {
			case others != "":
				a += fmt.Sprintf("NCCL ran an algorithm that sends less over the network (%s), or the nodes have more NIC bandwidth than described; to measure the network itself, run with NCCL_ALGO=Ring", others)
			case (t.Collective == commmodel.AllGather || t.Collective == commmodel.ReduceScatter) && nvswitch:
				fewer := "CollNet then sends fewer"
				if h.NVLS {
					fewer = "NVLS and CollNet then send fewer"
				}
				a += fmt.Sprintf("across nodes NCCL runs %v on Ring or PAT, which send as many bytes, unless CollNet is set up (%s: -hw collnet=true if the job set NCCL_COLLNET_ENABLE=1), so the nodes have more NIC bandwidth than described", t.Collective, fewer)
			case t.Collective == commmodel.AllGather || t.Collective == commmodel.ReduceScatter:
				a += fmt.Sprintf("across nodes without an NVSwitch NCCL runs %v on Ring or PAT alone, which send as many bytes, so the nodes have more NIC bandwidth than described", t.Collective)
			default:
				a += fmt.Sprintf("NCCL runs %v on Ring alone, so the nodes have more NIC bandwidth than described", t.Collective)
			}
		}
		switch len(nb.Assumed) {
		case 2:
			a += "; the NICs' count and rate behind that bound are assumed: -hw nics=N,nic-bw=RATE settles them"
		case 1:
			a += fmt.Sprintf("; the NICs' %s behind that bound is assumed: -hw %s settles it", nicFacts[nb.Assumed[0]][0], nicFacts[nb.Assumed[0]][1])
		}
		out = append(out, Finding{FromBytes: t.Points[r[0]].Size, ToBytes: t.Points[r[1]].Size, MeasuredOverModel: t.Points[best].Time / preds[best].Time,
			Kind: KindAboveNIC, NCCL: choiceOf(preds[best]), Advice: []string{a}, Assumed: nb.Assumed})
	}
	return out
}

// A NICBound is the most bus bandwidth a ring of a run across nodes gets
// from the NICs of one of its nodes (RingNICBound).
type NICBound struct {
	// BusBW is the bound, B/s: a ring crosses between nodes at a
	// different GPU in each channel, so a node's NICs together carry one
	// GPU's bus bytes.
	BusBW float64
	// NICs are the node's NICs the model gives the run, each of the
	// machine's NIC rate.
	NICs int
	// DomainHosts is the hosts of an NVLink domain the model takes for
	// one node (Hardware.Domains), 1 where a node is a host.
	DomainHosts int
	// DomainLimit reports that NICs is the most NCCL uses in a domain
	// (nccl.DomainNICs), whatever its hosts hold.
	DomainLimit bool
	// Assumed names the assumed facts the bound rests on: nics_per_node
	// (but where NCCL's limit of a domain's NICs sets the count) and
	// nic_bw.
	Assumed []string
}

// nicFacts says, for each fact a NICBound may rest on, what of the NICs
// it is and the -hw setting that settles it.
var nicFacts = map[string][2]string{"nics_per_node": {"count", "nics=N"}, "nic_bw": {"rate", "nic-bw=RATE"}}

// RingNICBound returns the bus bandwidth a ring gets from a node's NICs as
// m's hardware describes them, for t's run. It is false for grouped sends
// (AllToAll, SendRecv), whose peers' NICs bound them instead; where the
// run crosses no NICs (one node, or hosts of one NVLink domain); where the
// run drives fewer GPUs a node than it is given NICs, which its GPUs'
// paths to them bound instead; where the NICs carry more than a GPU's own
// links, which then bound a ring; and where m refuses t's query.
func (m *Machine) RingNICBound(t Table) (NICBound, bool) {
	rn, err := m.run(t.Query())
	if err != nil || grouped(t.Collective) {
		return NICBound{}, false
	}
	b, ok := m.ringNICBound(t, rn)
	return b, ok && b.NICs <= rn.shape.per && b.BusBW < m.Hardware.intraBW()
}

// ringNICBound is RingNICBound's bound of t's run rn, for every
// collective, false where the run crosses no NICs.
func (m *Machine) ringNICBound(t Table, rn *run) (NICBound, bool) {
	if t.Nodes < 2 || rn.shape.nodes < 2 {
		return NICBound{}, false
	}
	h := &m.Hardware
	perHost := rn.shape.per / rn.shape.hosts
	nics := h.nics(rn.shape.hosts, perHost, rn.version)
	most := nccl.DomainNICs(rn.version)
	b := NICBound{BusBW: h.nicBW() * float64(nics), NICs: nics, DomainHosts: rn.shape.hosts,
		DomainLimit: rn.shape.hosts > 1 && most > 0 && h.hostNICs(rn.shape.hosts, perHost) >= most}
	if !h.given(h.Sources.NICs) && !b.DomainLimit {
		b.Assumed = append(b.Assumed, "nics_per_node")
	}
	if !h.given(h.Sources.NICBW) {
		b.Assumed = append(b.Assumed, "nic_bw")
	}
	return b, true
}

// lessOverNetwork names the algorithms NCCL can run c on across nodes
// that cross the network with fewer bytes than a ring, NVLS's where the
// machine has it and CollNet's where it is set up (collnet): NCCL's tuner
// offers AllReduce Tree, NVLSTree and CollNet, AllGather and ReduceScatter
// PAT (as many bytes as a ring), Ring, and NVLS and CollNetDirect only with
// CollNet across nodes and an NVSwitch in the node (nvswitch; NCCL
// disables CollNetDirect where it counts none), Broadcast and Reduce Ring
// alone (ncclTopoTuneModel); "" for none.
func lessOverNetwork(c commmodel.Collective, nvls, collnet, nvswitch bool) string {
	var out []string
	switch c {
	case commmodel.AllReduce:
		out = append(out, "Tree")
		if nvls {
			out = append(out, "NVLSTree")
		}
		if collnet {
			out = append(out, "CollNet")
		}
	case commmodel.AllGather, commmodel.ReduceScatter:
		if nvls && collnet && nvswitch {
			out = append(out, "NVLS")
		}
		if collnet && nvswitch {
			out = append(out, "CollNet")
		}
	}
	return strings.Join(out, ", ")
}

// beyondSiblings reports that t is on more nodes than every calibration
// table, some of which crossed nodes, and its point i is slower than the
// interval where the network bounds the model: the fabric's finding rather
// than a departure. Tables of one node never measured the network: a run
// across nodes slower than they predict says nothing of the fabric above
// the NICs, whose facts (assumed or given) the finding names instead.
// Sizes the channels bound are not the fabric's: its oversubscription
// divides the NICs' rate, not a channel's.
func (m *Machine) beyondSiblings(t Table, preds []Prediction, i int) bool {
	return len(m.Tables) > 0 && m.spread.maxNodes > 1 && t.Nodes > m.spread.maxNodes && preds[i].Bound == TermNetwork && t.Points[i].Time > preds[i].High
}

// fabric reports a table on more nodes than every calibration table that is
// slower than the interval in its bandwidth regime (network-bound sizes),
// a finding for each choice of NCCL's. Stalled rows are stallFindings':
// a row held up by something else says nothing of the fabric (Microsoft's
// 8 x 8 A100 AllToAll of msccl#48, whose 1 MiB row took 5 times the model
// and longer than 2 and 4 MiB).
func (m *Machine) fabric(t Table, preds []Prediction, stalled []bool) []Finding {
	var out []Finding
	for _, r := range spans(len(preds), func(i int) string {
		if !stalled[i] && m.beyondSiblings(t, preds, i) {
			return choiceOf(preds[i])
		}
		return ""
	}) {
		var ratios []float64
		for k := r[0]; k <= r[1]; k++ {
			ratios = append(ratios, t.Points[k].Time/preds[k].Time)
		}
		a := fmt.Sprintf("on %d nodes the network is slower than the tables of up to %d nodes predict: the fabric above the NICs (a leaf's uplinks, a dragonfly's global links, or congestion) binds, or a link of it is at fault; on a fabric built non-blocking, check the switches' and NICs' error counters and link rates first; once it is sound, describe it (-hw group=HOSTS,oversub=R) and calibrate with this table to fit it",
			t.Nodes, m.spread.maxNodes)
		if len(out) > 0 {
			a = fmt.Sprintf("the fabric above the NICs, as at %s..%s", units.FormatSize(out[0].FromBytes), units.FormatSize(out[0].ToBytes))
		}
		out = append(out, Finding{FromBytes: t.Points[r[0]].Size, ToBytes: t.Points[r[1]].Size, MeasuredOverModel: fit.Median(ratios),
			Kind: KindFabric, Term: TermNetwork, NCCL: choiceOf(preds[r[0]]), Advice: []string{a}})
	}
	return out
}

// Expect returns the time m expects of q at each size, bytes, with its 80%
// interval: Predict's, but for a machine calibrated on no table
// (Uncalibrated), the prediction from the GPU's name that Untabled gives,
// NCCL's own model where it times the run, with the model's Bound and
// Channels. Diagnose holds a table to it.
func (m *Machine) Expect(q Query, sizes []float64) ([]Prediction, error) {
	preds, err := m.Predict(q, sizes)
	if err != nil || len(m.tables) > 0 {
		return preds, err
	}
	u, why, err := Untabled(m.Hardware, q, sizes)
	if err != nil {
		return nil, err
	}
	if why == "" {
		for i := range preds {
			preds[i].Time, preds[i].Low, preds[i].High = u[i].Time, u[i].Low, u[i].High
		}
	}
	return preds, nil
}

// Uncalibrated returns the model of h at its priors, calibrated on no
// table. Its interval rests on the prior spread and the parameters no
// table identifies. Its Expect is NCCL's model where that times the run
// (WhyNotNCCL), as Untabled predicts.
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

// hostCopySlow is how many times the time of a Ring AllReduce at the
// cards' PCIe figure a one-host table through host memory may take before
// hostCopyFinding calls it slower than bare metal: twice the slowest
// public bare-metal run's 1.72 (8 RTX 5090s at 28 GB/s of Gen5's 48,
// NVIDIA/nccl#1639; 4 RTX 4090s took 1.33, 18 GB/s of Gen4's 24,
// NVIDIA/nccl#1603), rounded down.
const hostCopySlow = 3

// hostCopyFinding reports a one-host table of cards without P2P that,
// at the sizes its links bound, takes more than hostCopySlow times what
// the cards' PCIe figure gives, where the model is uncalibrated and its
// host-copy rate assumed (HostCopyBW, fitted on container runs): the
// model's point is those runs', so a table that follows it may be a
// container's slow path, not a healthy host. Its MeasuredOverModel is
// the median of the table over the PCIe figure's times there.
func (m *Machine) hostCopyFinding(t Table, preds []Prediction, stalled []bool) []Finding {
	h := m.Hardware
	ids := busIDs(&t)
	if len(m.tables) > 0 || !h.hostCopy() || h.given(h.Sources.HostBW) || t.Nodes != 1 || t.PerNode < 2 ||
		ids != "" && strings.Count(ids, ",")+1 != t.Ranks() { // ranks that share a GPU copy nothing between cards
		return nil
	}
	bare := h
	bare.HostBW = h.intraBW()
	sizes := make([]float64, len(t.Points))
	for i, p := range t.Points {
		sizes[i] = p.Size
	}
	at, _, err := Untabled(bare, t.Query(), sizes)
	if err != nil {
		return nil
	}
	rg, ok := overRange(t, preds, func(i int) float64 { return at[i].Time }, func(i int) bool {
		return !stalled[i] && preds[i].Bound == TermLinks && at[i].Time > 0
	})
	if !ok || !(rg.ratio > hostCopySlow) {
		return nil
	}
	bus := t.Collective.BusBW(t.Ranks(), t.Points[rg.last].Size, t.Points[rg.last].Time)
	a := fmt.Sprintf("%.1f GB/s of bus bandwidth at %s, %.1fx the time the cards' PCIe figure (%s) gives: the model's host_bw (%s) is the rate of container runs (Docker, Kubernetes), so a table that follows it is no sign of a healthy host; bare-metal hosts of GeForce cards copy through host memory at 0.58 to 0.75 of the PCIe figure (18 GB/s on 4 RTX 4090s, NVIDIA/nccl#1603; 28 and 35 GB/s on 8 and 4 RTX 5090s, NVIDIA/nccl#1639). Check NCCL's transport between the GPUs (NCCL_DEBUG=INFO: \"via SHM\", not \"via NET/Socket\"), and in a container that its processes share host memory (docker run --ipc=host, or a larger --shm-size); once the host runs as it should, -hw host-bw=RATE or -calibrate with its table sets the model's rate",
		bus/1e9, units.FormatSize(t.Points[rg.last].Size), rg.ratio, units.FormatBandwidth(h.intraBW()), units.FormatBandwidth(h.hostBW()))
	return []Finding{{FromBytes: t.Points[rg.first].Size, ToBytes: t.Points[rg.last].Size, MeasuredOverModel: rg.ratio,
		Kind: KindHostCopy, Term: TermLinks, NCCL: strings.Join(rg.choices, ", "), Advice: []string{a}, Assumed: []string{"host_bw"}}}
}
