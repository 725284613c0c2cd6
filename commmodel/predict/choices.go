package predict

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
)

// Choices returns the calibrated time of q at size bytes for every
// algorithm and protocol NCCL can run it with (q's own pins are replaced;
// CollNet where the machine is known to run it, pinnable), fastest
// first. Grouped sends (AllToAll, SendRecv), which NCCL runs
// outside its tuner, are an error, and so is a query or size Predict
// refuses, with Predict's error (q's pins aside).
func (m *Machine) Choices(q Query, size float64) ([]Prediction, error) {
	if grouped(q.Collective) {
		return nil, queryError(fmt.Sprintf("predict: %v runs as grouped sends, outside NCCL's algorithms and protocols", q.Collective))
	}
	// The query's own error, not that no pin runs: its shape, layout and
	// hardware, its pins aside.
	unpinned := q
	unpinned.Algo, unpinned.Proto = "", ""
	if _, err := m.run(unpinned); err != nil {
		return nil, err
	}
	if err := checkSize(size); err != nil {
		return nil, err
	}
	var out []Prediction
	for _, a := range m.pinnable() {
		for p := range nccl.Protocol(nccl.NumProtocols) {
			ps, err := m.Predict(q.pinned(a, p), []float64{size})
			if err != nil {
				continue // not available to this shape, version or collective
			}
			out = append(out, ps[0])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("predict: no algorithm and protocol can run %v on %d ranks", q.Collective, q.Ranks)
	}
	slices.SortStableFunc(out, func(x, y Prediction) int {
		switch {
		case x.Time < y.Time:
			return -1
		case x.Time > y.Time:
			return 1
		}
		return 0
	})
	return out, nil
}

// pinned returns q with NCCL_ALGO and NCCL_PROTO pinned to a and p.
func (q Query) pinned(a nccl.Algo, p nccl.Protocol) Query {
	q.Algo, q.Proto = a.String(), nccl.ProtocolName(p)
	return q
}

// unmeasured reports that m was calibrated on tables none of which ran
// algorithm a with protocol p within two doublings of size bytes, of
// tables across nodes where across, else within one node: a gain the
// model expects of them there rests on its priors, on a protocol's
// efficiency carried far from the sizes it was fitted at, or on its form
// for an algorithm no table timed there (Tree/Simple 1.5 times as fast as
// NCCL's Ring/Simple from 512 MiB on Perlmutter's 2 x 4, whose one table
// ran Tree at 64 KiB at most), which no tuner rule or pin for a
// production job should rest on (TunerRules, pins). Without tables the
// model is NCCL's own, whose choices NCCL makes.
func (m *Machine) unmeasured(a nccl.Algo, p nccl.Protocol, across bool, size float64) bool {
	k := 0
	if across {
		k = 1
	}
	return len(m.Tables) > 0 && !near(m.ran[k][a][p], size)
}

// near reports that size lies within two doublings of the sizes r spans,
// the least and the most; r of zeros spans none. It is the one measure of
// "near a size" of the tuner's evidence: the tables' protocols and
// choices (unmeasured) and their points (nearMiss,
// missesNear).
func near(r [2]float64, size float64) bool {
	return r[1] > 0 && size >= r[0]/4 && size <= 4*r[1]
}

// measuredAt returns the time a calibration table of q's collective and
// shape, run with NCCL's own choices (no algorithm or protocol pinned but
// the exclusions every table ran with, TunerExclusions, under which the
// rules choose too; no tuner plugin), measured at size bytes, interpolated in logs between
// its nearest sizes; ok is false where no such table spans size. A row
// timed out of place and in place gives the faster of the two: NCCL's own
// choice ran that fast, and a rule must beat it (AWS's p5 2 x 8 AllReduce
// at 256 KiB: 128.0 us out of place, 104.7 in place).
func (m *Machine) measuredAt(q Query, size float64) (time float64, ok bool) {
	ex := m.TunerExclusions()
	for i := range m.tables {
		t := &m.tables[i]
		if t.Collective != q.Collective || t.Ranks() != q.Ranks || t.PerNode != q.PerNode || !ncclOwn(t, ex) {
			continue // pinned, or a tuner plugin's choices: not NCCL's own
		}
		for j := 1; j < len(t.Points); j++ {
			a, b := t.Points[j-1], t.Points[j]
			if a.Size <= size && size <= b.Size && a.Size > 0 && b.Size > a.Size {
				f := math.Log(size/a.Size) / math.Log(b.Size/a.Size)
				return math.Exp(math.Log(a.Fastest()) + f*math.Log(b.Fastest()/a.Fastest())), true
			}
		}
	}
	return 0, false
}

// beatsNCCL reports that ours, the model's choice for q at size bytes,
// Beats theirs, NCCL's own: ours taken as slow as the calibration points
// of its protocol near the size measured against the model (slowNear),
// theirs as slow or as fast as those of its protocol ran (missNear), and, where a calibration table measured NCCL's own at that size, beats
// the measured time too: a model that misses its own tables there has no
// gain to claim over them. On a node count beyond the tables' it never
// does (beyondNodes).
func (m *Machine) beatsNCCL(q Query, ours, theirs Prediction, size float64) bool {
	if m.beyondNodes(q) {
		return false // the tables' evidence does not reach: NCCL keeps its choice
	}
	// Each side as the calibration points of its protocol near the size
	// say the model misses them, ours no faster than the tables ran its
	// algorithm and protocol (decide).
	o, t := m.decide(q, ours, theirs, size).Decided()
	if !(o.High < t) {
		return false
	}
	if t, ok := m.measuredAt(q, size); ok {
		return o.High < t
	}
	return true
}

// Beats reports whether the model expects p to be faster than q by more
// than p's interval: q's time lies above p's High. It is the rule by which
// the model's choice replaces NCCL's own (TunerRules, ScoreSweep): a
// choice that beats NCCL's only within the model's error is no gain to
// count on.
func (p Prediction) Beats(q Prediction) bool { return p.High < q.Time }

// A Gain is how many times faster a prediction is than another choice's
// time: Times, that time over the prediction's Time, and its range over
// the prediction's 80% interval, Low (over High) to High (over Low).
type Gain struct{ Times, Low, High float64 }

// GainOver returns p's gain over time t, seconds, another choice's
// predicted or measured time.
func (p Prediction) GainOver(t float64) Gain { return Gain{t / p.Time, t / p.High, t / p.Low} }

// Range says the gain's range over whose interval: "1.21x-2.30x over the
// pin's 80% interval".
func (g Gain) Range(whose string) string {
	return fmt.Sprintf("%.2fx-%.2fx over %s 80%% interval", g.Low, g.High, whose)
}

// A Comm is a communicator a job creates: Nodes hosts of PerNode GPUs, one
// rank each.
type Comm struct{ Nodes, PerNode int }

// String is "2 x 8".
func (c Comm) String() string { return fmt.Sprintf("%d x %d", c.Nodes, c.PerNode) }

// TunerModel returns NCCL's tuning model of communicator c on the machine,
// at the machine's NCCL release (Version): what NCCL runs by default, with
// how many channels, and what it leaves in the cost table a tuner plugin
// edits.
func (m *Machine) TunerModel(c Comm) (*nccl.Model, error) {
	tm, _, err := m.tunerModel(c)
	return tm, err
}

// tunerModel returns TunerModel(c) and the nodes NCCL counts in c, which
// its tuner plugin receives: the NVLink domains, not the hosts. NCCL tells
// nodes apart by the first rank of their ring (src/init.cc, "Determine
// nNodes"), and a domain's hosts share one ring, so 18 GB200 hosts of one
// NVL72 rack are one node.
func (m *Machine) tunerModel(c Comm) (*nccl.Model, int, error) {
	rn, err := m.tunerRun(c)
	if err != nil {
		return nil, 0, err
	}
	ref, err := m.refs.get(rn)
	if err != nil {
		return nil, 0, err
	}
	return ref.full, rn.shape.nodes, nil
}

// tunerRun is the run of communicator c whose NCCL's model the tuner's
// rules follow: an AllReduce under the tables' environment.
func (m *Machine) tunerRun(c Comm) (*run, error) {
	ex := m.TunerExclusions()
	return m.run(Query{Collective: commmodel.AllReduce, Ranks: c.Nodes * c.PerNode, PerNode: c.PerNode, Algo: ex.Algo, Proto: ex.Proto})
}

// An Env is what a job's environment sets for NCCL's tuner in every
// communicator: NCCL_ALGO and NCCL_PROTO, "" where unset.
type Env struct{ Algo, Proto string }

// TablesEnv returns the NCCL_ALGO and NCCL_PROTO that every table of a
// collective NCCL's tuner chooses for ran with, each "" where the tables
// differ in it or one ran without: a site may set them for every job.
// Tables of point-to-point sends, which neither chooses, say nothing.
// NCCL_ALGO is in the names of the releases the model runs the tables
// under (nccl.AlgoListAt: a 2.12 run's CollNet is CollNetDirect), as a
// job of those releases reads them.
func TablesEnv(tables []Table) Env {
	var e Env
	first := true
	for i := range tables {
		if _, err := nccl.FuncOf(tables[i].Collective); err != nil {
			continue
		}
		t := &tables[i]
		algo := nccl.AlgoListAt(t.Version, FollowedRelease(t.Version), t.Algo)
		if first {
			e, first = Env{algo, t.Proto}, false
			continue
		}
		if !strings.EqualFold(e.Algo, algo) {
			e.Algo = ""
		}
		if !strings.EqualFold(e.Proto, t.Proto) {
			e.Proto = ""
		}
	}
	return e
}

// TunerExclusions returns the environment the tuner's rules keep to, as
// NCCL_ALGO and NCCL_PROTO: NCCL runs no rule for an algorithm or a
// protocol its environment leaves out. Each is the job's where ForJob gave
// it, else what the tables' environment (TablesEnv) excludes ("^LL128"):
// a tables' pin of one algorithm or protocol is more often a run's
// experiment than the site's setting, and rules made under it would force
// it on every call of a job that does not set it, so it is left out.
func (m *Machine) TunerExclusions() Env {
	e := TablesEnv(m.tables)
	if !strings.HasPrefix(e.Algo, "^") {
		e.Algo = ""
	}
	if !strings.HasPrefix(e.Proto, "^") {
		e.Proto = ""
	}
	return Env{cmp.Or(m.job.Algo, e.Algo), cmp.Or(m.job.Proto, e.Proto)}
}

// ForJob returns m for a job whose environment sets e (NCCL_ALGO and
// NCCL_PROTO as NCCL reads them, "" where unset): the tuner's rules and
// their checks keep to it (TunerExclusions), a pin of one protocol
// (NCCL_PROTO=Simple, as GKE's GPUDirect-TCPX environment sets) among
// them. m is not changed.
func (m *Machine) ForJob(e Env) *Machine {
	j := *m
	j.job = e
	return &j
}

// TunerComms returns NCCL's tuning model of each of comms, as
// nccl.CheckTunerRules takes them.
func (m *Machine) TunerComms(comms []Comm) ([]nccl.TunerComm, error) {
	out := make([]nccl.TunerComm, 0, len(comms))
	for _, c := range comms {
		tm, nodes, err := m.tunerModel(c)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", c, err)
		}
		out = append(out, nccl.TunerComm{Nodes: nodes, Model: tm})
	}
	return out, nil
}

// withoutMNNVL returns m on its hardware without NVLink domains across
// hosts: as NCCL runs a job without MNNVL (no IMEX channel,
// NCCL_MNNVL_ENABLE=0), every host a node.
func (m *Machine) withoutMNNVL() *Machine {
	flat := m.Hardware
	flat.Domain = 0
	return m.on(flat)
}

// Recounted returns each of comms as NCCL may count it otherwise than
// tunerModel does, where its hosts share NVLink domains, with NCCL's
// tuning model of it there: without MNNVL (no IMEX channel,
// NCCL_MNNVL_ENABLE=0), every host a node (withoutMNNVL), in flats, and
// placed across more domains than the fewest that hold it (straddled), at
// the counts placements samples, in across, one list for each of comms
// (nil where it has none). TunerPlan writes rules for them all, and a
// check of a file takes them.
func (m *Machine) Recounted(comms []Comm) (flats []nccl.TunerComm, across [][]nccl.TunerComm, err error) {
	across = make([][]nccl.TunerComm, len(comms))
	var flat *Machine // NCCL's models on it, built once for every comm
	for i, c := range comms {
		_, fewest, err := m.tunerModel(c)
		if err != nil || fewest == c.Nodes {
			continue
		}
		if flat == nil {
			flat = m.withoutMNNVL()
		}
		tm, nodes, err := flat.tunerModel(c)
		if err != nil {
			return nil, nil, fmt.Errorf("%v: %w", c, err)
		}
		flats = append(flats, nccl.TunerComm{Nodes: nodes, Model: tm})
		if across[i], err = m.placements(c, fewest); err != nil {
			return nil, nil, err
		}
	}
	return flats, across, nil
}

// placements returns NCCL's tuning model of communicator c, whose hosts
// fill fewest NVLink domains at the fewest, placed across each count of
// domains from one more to one short of its hosts (straddled), or where
// those are more than maxPlacements, across that many counts spread
// evenly over them, the first and the last among them: a 2000-host
// communicator has some 1900 counts, whose choices change little from one
// to the next.
func (m *Machine) placements(c Comm, fewest int) ([]nccl.TunerComm, error) {
	lo, hi := fewest+1, c.Nodes-1
	var counts []int
	switch n := hi - lo + 1; {
	case n <= 0:
		return nil, nil
	case n <= maxPlacements:
		for d := lo; d <= hi; d++ {
			counts = append(counts, d)
		}
	default:
		for k := range maxPlacements {
			counts = append(counts, lo+k*(n-1)/(maxPlacements-1))
		}
	}
	out := make([]nccl.TunerComm, len(counts))
	for i, d := range counts {
		tm, err := m.straddled(c, d)
		if err != nil {
			return nil, fmt.Errorf("%v on %d NVLink domains: %w", c, d, err)
		}
		out[i] = nccl.TunerComm{Nodes: d, Model: tm}
	}
	return out, nil
}

// maxPlacements bounds the counts of NVLink domains placements models a
// communicator across.
const maxPlacements = 32

// A PlacedCost is what a rules file costs a communicator of a job placed
// across more NVLink domains than it needs: the call where the rule the
// plugin takes, by NCCL's own model, is slowest against NCCL's own choice.
type PlacedCost struct {
	// Comm is the job's communicator, and Nodes the count of nodes NCCL
	// makes of it so placed.
	Comm  Comm
	Nodes int
	// Func and Size (bytes) are the call's, and Ratio the time of the
	// rule's choice over NCCL's own there (1 where they agree). LeftOut
	// reports a call NCCL leaves NVLS, NVLSTree, PAT and CollNet out of
	// (an ncclAvg of floats), whose own choice is among the others
	// (nccl.Model.FallbackPick).
	Func    nccl.Func
	Size    float64
	Ratio   float64
	LeftOut bool
}

// PlacedWorst returns the call of comms placed across more NVLink domains
// than they need (placements) at which rules serve them worst against
// NCCL's own choice, by NCCL's model (worstCall); ok is false where none
// of comms can be so placed.
func (m *Machine) PlacedWorst(comms []Comm, rules []nccl.TunerRule) (w PlacedCost, ok bool, err error) {
	idx := ruleIndex{rules: rules}
	for _, c := range comms {
		_, fewest, err := m.tunerModel(c)
		if err != nil {
			return PlacedCost{}, false, err
		}
		ps, err := m.placements(c, fewest)
		if err != nil {
			return PlacedCost{}, false, err
		}
		for _, p := range ps {
			pw, err := idx.worstCall(c, p.Model, p.Nodes, nil)
			if err != nil {
				return PlacedCost{}, false, err
			}
			if !ok || pw.Ratio > w.Ratio {
				w, ok = pw, true
			}
		}
	}
	return w, ok, nil
}

// OwnWorst returns the call of comms at which rules serve them worst
// against NCCL's own choice on m, by NCCL's model (worstCall): where a
// rule takes the model's choice, by design, or the rules were written for
// a machine described otherwise (another CPU, fabric or NICs), whose
// NCCL chooses otherwise.
func (m *Machine) OwnWorst(comms []Comm, rules []nccl.TunerRule) (PlacedCost, error) {
	idx := ruleIndex{rules: rules}
	return m.worstOf(comms, func(c Comm, tm *nccl.Model, nodes int) (PlacedCost, error) {
		return idx.worstCall(c, tm, nodes, nil)
	})
}

// worstOf returns the worst of each's calls for comms, each given NCCL's
// model of a communicator and the nodes it counts (tunerModel).
func (m *Machine) worstOf(comms []Comm, each func(c Comm, tm *nccl.Model, nodes int) (PlacedCost, error)) (PlacedCost, error) {
	w := PlacedCost{Ratio: 1}
	for _, c := range comms {
		tm, nodes, err := m.tunerModel(c)
		if err != nil {
			return PlacedCost{}, err
		}
		cw, err := each(c, tm, nodes)
		if err != nil {
			return PlacedCost{}, err
		}
		if cw.Ratio > w.Ratio {
			w = cw
		}
	}
	return w, nil
}

// ReleaseWorst returns the call of comms at which the rules that keep
// NCCL v's own choice (the release a file's header says it was written
// for) serve them worst against the own choice of m's release, both by
// NCCL's model of m's machine (worstCall with v's model as its base), at
// the powers of two and at the first and last size (up to 16 GiB) of every rule that
// keeps either release's own choice (nccl.Model.TunerRules), where one
// release's choice changes: a Ratio above 1 is where the two releases
// choose otherwise for comms and the file keeps v's; 1 where their
// choices agree there, whatever else differs between their tuning models.
// Rules of the model's own choice are not counted. A v that is no NCCL
// release (the zero Version among them) is ErrQuery.
func (m *Machine) ReleaseWorst(v nccl.Version, comms []Comm, rules []nccl.TunerRule) (PlacedCost, error) {
	if !v.Release() {
		return PlacedCost{}, queryError(fmt.Sprintf("predict: release %v: want an NCCL release 2.MINOR.PATCH", v))
	}
	at := *m
	at.version = FollowedRelease(v) // a release the model does not follow: the nearest it does
	idx := ruleIndex{rules: rules}
	return m.worstOf(comms, func(c Comm, tm *nccl.Model, nodes int) (PlacedCost, error) {
		base, _, err := at.tunerModel(c)
		if err != nil {
			return PlacedCost{}, err
		}
		edges := func(f nccl.Func) ([]float64, error) {
			var sizes []float64
			for _, o := range []*nccl.Model{tm, base} {
				own, err := o.TunerRules(f, nodes, o.DefaultPick(f), nil)
				if err != nil {
					return nil, err
				}
				for _, r := range own {
					sizes = append(sizes, float64(max(r.MinBytes, 1)), float64(min(r.MaxBytes, 1<<worstLog2)))
				}
			}
			return sizes, nil
		}
		return idx.worstCallAt(c, tm, nodes, base, edges)
	})
}

// An AssumedCost is what a rules file costs where an assumed fact of the
// machine takes its other value (the alternatives Guesses tries: the
// other x86 vendor, half the NICs, ...): NCCL, which reads that fact,
// makes other choices of its own, and the rules that keep its own
// choices as the model makes them on the assumed machine replace them.
// Worst is the call the rules serve worst against NCCL's own there.
type AssumedCost struct {
	// Facts are the assumed facts, and Tried their other values, in
	// order (two where they go together: half the NICs at half their
	// rate).
	Facts []Fact
	Tried []string
	Worst PlacedCost
}

// AssumedWorst returns, for each assumed fact of the machine whose other
// value NCCL's tuning reads (alternatives but placements), the call of
// comms at which the rules that keep NCCL's own choice on m serve them
// worst against NCCL's own choice on that machine, by NCCL's model
// (worstCall), in the order Guesses tries them. Rules of the model's own
// choice are withheld where an assumed fact moves their gain
// (TunerChoice.RestsOn), and are not counted here.
func (m *Machine) AssumedWorst(comms []Comm, rules []nccl.TunerRule) ([]AssumedCost, error) {
	idx := ruleIndex{rules: rules}
	facts := m.Hardware.Facts()
	var out []AssumedCost
	for _, c := range comms {
		base, _, err := m.tunerModel(c)
		if err != nil {
			return nil, err
		}
		for _, a := range m.Hardware.alternatives(m.tables, c.PerNode, c.Nodes > 1) {
			if a.placement() {
				continue
			}
			tm, nodes, err := m.on(a.hw).tunerModel(c)
			if err != nil {
				continue // NCCL cannot run c there: no rule of it is taken
			}
			w, err := idx.worstCall(c, tm, nodes, base)
			if err != nil {
				return nil, err
			}
			ac := AssumedCost{Worst: w}
			ac.Facts, ac.Tried = a.changed(facts)
			k := slices.IndexFunc(out, func(o AssumedCost) bool { return slices.Equal(o.Facts, ac.Facts) && slices.Equal(o.Tried, ac.Tried) })
			switch {
			case k < 0:
				out = append(out, ac)
			case w.Ratio > out[k].Worst.Ratio:
				out[k].Worst = w
			}
		}
	}
	// Facts tried together say nothing of their own where one of them
	// alone costs as much and more than GuessMoves (and so is said), as
	// Guesses drops such a guess (alone).
	var kept []AssumedCost
	for _, a := range out {
		if len(a.Facts) > 1 && slices.ContainsFunc(out, func(o AssumedCost) bool {
			return len(o.Facts) == 1 && slices.ContainsFunc(a.Facts, func(f Fact) bool { return f.Key == o.Facts[0].Key }) &&
				o.Worst.Ratio > 1+GuessMoves && sameMove(a.Worst.Ratio, o.Worst.Ratio)
		}) {
			continue
		}
		kept = append(kept, a)
	}
	return kept, nil
}

// A ruleIndex holds a file's rules and, built once each, the lists of
// them for a function and a count of ranks (or any), in the file's order.
type ruleIndex struct {
	rules []nccl.TunerRule
	lists map[ruleKey][]nccl.TunerRule
}

type ruleKey struct {
	f     nccl.Func
	ranks int
}

func (x *ruleIndex) of(f nccl.Func, ranks int) []nccl.TunerRule {
	k := ruleKey{f, ranks}
	if l, ok := x.lists[k]; ok {
		return l
	}
	if x.lists == nil {
		x.lists = map[ruleKey][]nccl.TunerRule{}
	}
	var l []nccl.TunerRule
	for _, r := range x.rules {
		if r.Func == f && (r.Ranks == -1 || r.Ranks == ranks) {
			l = append(l, r)
		}
	}
	x.lists[k] = l
	return l
}

// worstLog2 is the log2 of the largest size worstCall tries: 16 GiB, the
// largest of nccl-tests' usual sweeps (-e 16G).
const worstLog2 = 34

// worstCall returns the call at which the rules serve communicator c,
// counted as nodes nodes by NCCL's model tm, worst against NCCL's own
// choice by tm, at sizes of every power of two from 1 B to 16 GiB, in
// calls NCCL keeps every algorithm for and in those it leaves NVLS, PAT
// and CollNet out of; with base, only calls whose rule is NCCL's own
// choice by base. A call no rule takes, which runs on one channel, is the
// check's to report (nccl.CheckTunerRules), not counted here.
func (x *ruleIndex) worstCall(c Comm, tm *nccl.Model, nodes int, base *nccl.Model) (w PlacedCost, err error) {
	return x.worstCallAt(c, tm, nodes, base, func(nccl.Func) ([]float64, error) { return nil, nil })
}

// worstCallAt is worstCall at more sizes: those extra gives each function,
// besides the powers of two.
func (x *ruleIndex) worstCallAt(c Comm, tm *nccl.Model, nodes int, base *nccl.Model, extra func(nccl.Func) ([]float64, error)) (w PlacedCost, err error) {
	ranks := c.Nodes * c.PerNode
	w = PlacedCost{Comm: c, Nodes: nodes, Ratio: 1}
	for f := range nccl.Func(nccl.NumFuncs) {
		fs := x.of(f, ranks)
		sizes, err := extra(f)
		if err != nil {
			return PlacedCost{}, err
		}
		for k := 0; k <= worstLog2; k++ {
			sizes = append(sizes, math.Exp2(float64(k)))
		}
		for _, n := range sizes {
			for _, leftOut := range []bool{false, true} {
				pick := tm.DefaultPick(f)
				if leftOut {
					pick = tm.FallbackPick(f)
				}
				a, pr, err := pick(uint64(n))
				if err != nil {
					return PlacedCost{}, err
				}
				own, _ := tm.Time(f, a, pr, n)
				i := slices.IndexFunc(fs, func(r nccl.TunerRule) bool {
					return r.Matches(f, n, nodes, ranks, 1, 0) && tm.Available(f, r.Algo, r.Proto) && !(leftOut && nccl.MayBeIgnored(r.Algo))
				})
				if i < 0 || base != nil && !ownChoice(base, f, leftOut, n, fs[i]) {
					continue
				}
				t, _ := tm.Time(f, fs[i].Algo, fs[i].Proto, n)
				if r := t / own; r > w.Ratio {
					w = PlacedCost{Comm: c, Nodes: nodes, Func: f, Size: n, Ratio: r, LeftOut: leftOut}
				}
			}
		}
	}
	return w, nil
}

// ownChoice reports whether rule r takes NCCL's own choice by tm for a
// call of f of n bytes (leftOut: one NCCL leaves NVLS, PAT and CollNet out
// of).
func ownChoice(tm *nccl.Model, f nccl.Func, leftOut bool, n float64, r nccl.TunerRule) bool {
	pick := tm.DefaultPick(f)
	if leftOut {
		pick = tm.FallbackPick(f)
	}
	a, p, err := pick(uint64(n))
	return err == nil && a == r.Algo && p == r.Proto
}

// straddled returns NCCL's tuning model of communicator c placed across d
// of m's NVLink domains, more than the fewest that hold it, as a scheduler
// leaves it across a rack's edge (10 hosts of GB200s across two racks,
// which NCCL counts as 2 nodes, not 1). NCCL takes every node's graphs to
// be the smallest domain's (the least of the ranks' searched bandwidths
// and channels), whose hosts are at most c's over d: the model takes that
// many, with c's ranks.
func (m *Machine) straddled(c Comm, d int) (*nccl.Model, error) {
	rn, err := m.tunerRun(c)
	if err != nil {
		return nil, err
	}
	hosts := c.Nodes / d
	s := *rn
	s.shape = shape{nodes: d, per: hosts * c.PerNode, hosts: hosts}
	cfg, err := referenceConfig(&m.Hardware, &s, m.refs.runsRCCL())
	if err != nil {
		return nil, err
	}
	cfg.Ranks = c.Nodes * c.PerNode
	return nccl.New(cfg)
}

// TunerRules returns rules of NCCL's example tuner plugin (nccl.TunerRule)
// for every call of every function NCCL's tuner serves on each of comms,
// since the plugin runs a call no rule takes on one channel. Each rule
// keeps NCCL's own algorithm, protocol and channels
// (nccl.Model.DefaultPick), except for the collectives named, around each
// of sizes where the model's fastest choice (Choices) Beats NCCL's (and the
// time a calibration table measured NCCL's own at, beatsNCCL) and runs a
// protocol some calibration table ran: there
// the rule takes the model's choice, from the geometric mean of the size
// and the one before to that of the size and the next (the first from 0,
// the last to the largest size NCCL can ask), with NCCL's channels for it,
// but only as far as the choice still Beats NCCL's (beatsEdge).
// sizes must grow; layout is the runs' launch layout, as in Query. A
// rule's nNodes is the nodes NCCL counts, NVLink domains (tunerModel). A
// communicator of one rank, which NCCL never asks about, is an error.
func (m *Machine) TunerRules(collectives []commmodel.Collective, comms []Comm, layout Layout, sizes []float64) ([]nccl.TunerRule, error) {
	rules, _, err := m.TunerPlan(collectives, comms, layout, sizes)
	return rules, err
}

// assumedTunerModels returns NCCL's tuning model of communicator c on each
// machine that an assumed fact's other value describes instead (the
// alternatives Guesses tries: the NICs behind the CPU, no NVLS, ...), and
// on the machine without P2P between a node's GPUs (noP2P): a rule must
// hold on them too, and where one of them leaves its choice out of the
// cost table, rules after it give that machine's own
// (nccl.Model.TunerRules). An alternative NCCL cannot run c on is left out.
func (m *Machine) assumedTunerModels(c Comm) []*nccl.Model {
	var out []*nccl.Model
	for _, a := range m.Hardware.alternatives(m.tables, c.PerNode, c.Nodes > 1) {
		if a.placement() {
			continue
		}
		if tm, _, err := m.on(a.hw).tunerModel(c); err == nil {
			out = append(out, tm)
		}
	}
	// Where an alternative runs no LL128 at all (across NCCL's nodes, the
	// NICs behind the CPU), its rules already follow each LL128 rule and
	// take a job without P2P too: the machine without P2P would add rules
	// no call reaches.
	if h, ok := m.Hardware.noP2P(c.PerNode); ok && !slices.ContainsFunc(out, noLL128) {
		if tm, _, err := m.on(h).tunerModel(c); err == nil {
			out = append(out, tm)
		}
	}
	return out
}

// noLL128 reports that NCCL's model tm runs no call on LL128.
func noLL128(tm *nccl.Model) bool {
	for f := range nccl.Func(nccl.NumFuncs) {
		for a := range nccl.Algo(nccl.NumAlgos) {
			if tm.Available(f, a, nccl.LL128) {
				return false
			}
		}
	}
	return true
}

// noP2P returns h as NCCL finds it in a job without P2P between a node's
// GPUs, for a communicator of perNode GPUs a node, and whether that differs
// from h: the job, not the machine, decides it (NCCL_P2P_DISABLE=1, an
// NCCL_P2P_LEVEL below the GPUs' path, or each GPU in a container of its
// own, which NCCL's paths.cc routes through the CPU), and NCCL then runs
// no LL128 between them (tuning.cc enables LL128 only on an intra-node
// path of NVB or nearer). PCIe between the GPUs stands for the CPU's path,
// and NVLS is off (whether NCCL keeps it without P2P is not modelled): the
// rules of h then name Ring or Tree where NCCL's own choice would be
// NVLS, which NCCL never leaves out, so a fallback of them is never passed
// over.
func (h Hardware) noP2P(perNode int) (Hardware, bool) {
	if perNode < 2 || h.Fabric == FabricPCIe {
		return h, false
	}
	h.Fabric, h.NVLS = FabricPCIe, false
	return h, true
}

// on returns m on hardware h: its calibration, tables and release, and
// NCCL's models of its runs built anew for h.
func (m *Machine) on(h Hardware) *Machine {
	alt := *m
	alt.Hardware = h
	alt.refs = &references{hw: &alt.Hardware, rccl: m.refs.rccl, m: map[runKey]*reference{}}
	return &alt
}

// A TunerChoice is where rules of TunerPlan take the model's choice over
// NCCL's own: on communicator Comm, for Collective, from MinBytes to
// MaxBytes, decided at Size, where the model expects Ours against NCCL's
// own, NCCL (both with their intervals), and a calibration table of the
// communicator's shape measured NCCL's own at Measured seconds (0 where
// none did). OursSlow and NCCLMiss are the factors the choice was decided
// with (beatsNCCL): how much slower than the model the tables ran Ours'
// protocol near Size (at least 1), and how much slower or faster they ran
// NCCL's; 1 where no point says. OursFloor is the time the tables' own
// times of Ours' algorithm and protocol give it at Size where Size lies
// beyond every size they ran them at, a bound of the evidence, not of the
// machine, and FloorSpread the half-width in logs of the band about it
// that their repeat scatter makes there (beyondRan); 0 where Size lies
// within them. Near is the calibration points within two
// doublings of Size (of every table but a tuner plugin's and those of
// AllToAll and SendRecv, which NCCL runs outside its tuner), and Outside
// how many of them lie outside their 80% intervals. The choice is withheld
// (its sizes keep NCCL's own) where RestsOn holds assumed facts, or where
// the model Misses its tables near Size.
type TunerChoice struct {
	Comm                   Comm
	Collective             commmodel.Collective
	MinBytes, MaxBytes     uint64
	Size                   float64
	Ours, NCCL             Prediction
	Measured               float64
	RestsOn                []Reliance
	OursSlow, NCCLMiss     float64
	OursFloor, FloorSpread float64
	Near, Outside          int
}

// decide returns the choice of ours over theirs, NCCL's own, for q at
// size bytes with the factors and the floor it is decided with
// (TunerChoice's OursSlow, NCCLMiss, OursFloor and FloorSpread).
func (m *Machine) decide(q Query, ours, theirs Prediction, size float64) TunerChoice {
	c := TunerChoice{Size: size, Ours: ours, NCCL: theirs, OursSlow: m.slowNear(q, ours.Protocol, size),
		NCCLMiss: m.missNear(q, theirs.Protocol, ours.Protocol, size)}
	c.OursFloor, c.FloorSpread = m.beyondRan(q, ours, size)
	return c
}

// Decided returns Ours and NCCL's time as the choice was decided: each
// scaled by the factor the tables' points near Size give its protocol
// (OursSlow, NCCLMiss), and Ours no faster than OursFloor, its interval
// holding the band FloorSpread makes about it.
func (c TunerChoice) Decided() (ours Prediction, nccl float64) {
	ours, f := c.Ours, cmp.Or(c.OursSlow, 1)
	ours.Time, ours.Low, ours.High = ours.Time*f, ours.Low*f, ours.High*f
	if c.OursFloor > ours.Time {
		ours.Time = c.OursFloor
		ours.Low = max(ours.Low, c.OursFloor*math.Exp(-c.FloorSpread))
		ours.High = max(ours.High, c.OursFloor*math.Exp(c.FloorSpread))
	}
	return ours, c.NCCL.Time * cmp.Or(c.NCCLMiss, 1)
}

// A Reliance is an assumed fact (Guess: the fact, its alternative and the
// -hw setting that settles it, without Size or Ratio) on which a choice of
// the model over NCCL's own rests: with the alternative the choice cannot
// run (Runs false), or the alternative moves the choice's or NCCL's
// prediction by more than GuessMoves and the choice no longer Beats NCCL's,
// its Gain then over NCCL's choice on the alternative (its interval scaled
// with its time). Facts are the machine's facts the alternative changes,
// each on its own (the NICs' count and their rate where Guess changes
// both), and Tried the value of each tried in its place.
type Reliance struct {
	Guess Guess
	Facts []Fact
	Tried []string
	Runs  bool
	Gain  Gain
}

// Withheld reports that the choice rests on an assumed fact, or Misses,
// and its rules keep NCCL's own.
func (c TunerChoice) Withheld() bool { return len(c.RestsOn) > 0 || c.Misses() }

// Misses reports that more than half of the calibration points near the
// choice's size lie outside their 80% intervals: there the model does not
// follow the machine, and a gain beyond its interval is no gain to count
// on, however large.
func (c TunerChoice) Misses() bool { return 2*c.Outside > c.Near }

// Assumed returns every fact the choice rests on (each Reliance's Facts),
// each once, in the order RestsOn names them: the facts a description of
// the machine must give, all of them, before the choice can take a rule.
func (c TunerChoice) Assumed() []Fact {
	var out []Fact
	for _, r := range c.RestsOn {
		for _, f := range r.Facts {
			if !slices.ContainsFunc(out, func(o Fact) bool { return o.Name == f.Name }) {
				out = append(out, f)
			}
		}
	}
	return out
}

// TunerPlan returns TunerRules' rules and the model's choices, what each
// expects against NCCL's own: those in the rules, and those withheld
// (TunerChoice.Withheld), which rest on an assumed fact of the machine
// that makes the choice possible or moves its gain past Beats, or where
// the model misses its tables near the size. A collective NCCL's tuner
// does not serve (AllToAll, SendRecv) is ErrQuery.
func (m *Machine) TunerPlan(collectives []commmodel.Collective, comms []Comm, layout Layout, sizes []float64) ([]nccl.TunerRule, []TunerChoice, error) {
	for _, c := range collectives {
		if _, err := nccl.FuncOf(c); err != nil {
			return nil, nil, queryError(fmt.Sprintf("predict: %v: a tuner rule is for a collective NCCL's tuner serves (allreduce, allgather, reducescatter, broadcast); AllToAll and SendRecv run as grouped sends, outside it", c))
		}
	}
	for i := 1; i < len(sizes); i++ {
		if !(sizes[i] > sizes[i-1]) {
			return nil, nil, queryError(fmt.Sprintf("predict: tuner sizes must grow: %g after %g", sizes[i], sizes[i-1]))
		}
	}
	var rules []nccl.TunerRule
	var choices []TunerChoice
	// The plugin tells communicators apart only by the nNodes and nRanks
	// its init receives: two of the job's that NCCL counts alike (9 x 4
	// and 18 x 2 in one NVLink domain, nNodes 1 and nRanks 36 both) take
	// the same rules, the first's, which must then be the second's too.
	type pluginKey struct{ nodes, ranks int }
	type written struct {
		c     Comm
		rules []nccl.TunerRule
	}
	seen := map[pluginKey]written{}
	var flat *Machine // withoutMNNVL's, built once for every comm
	// placed holds NCCL's models of the communicators of each count of
	// ranks placed across more NVLink domains than they need, and ranks
	// those counts in the order of comms.
	placed := map[int][]*nccl.Model{}
	// placedNoP2P is NCCL's model of a placement of each count of ranks
	// without P2P between a node's GPUs (noP2P), whose own rules follow
	// the placed rules it leaves out, as assumedTunerModels' do.
	placedNoP2P := map[int]*nccl.Model{}
	var ranks []int
	for _, c := range comms {
		if c.Nodes == 1 && c.PerNode == 1 {
			return nil, nil, queryError(fmt.Sprintf("predict: communicator %v has one rank: NCCL never asks the tuner about it", c))
		}
		tm, nodes, err := m.tunerModel(c)
		if err != nil {
			return nil, nil, err
		}
		key := pluginKey{nodes, c.Nodes * c.PerNode}
		first, twin := seen[key]
		start, startChoices := len(rules), len(choices)
		alts := m.assumedTunerModels(c)
		for f := range nccl.Func(nccl.NumFuncs) {
			pick, breaks := tm.DefaultPick(f), []uint64(nil)
			if col, ok := f.Collective(); ok && slices.Contains(collectives, col) {
				q := Query{Collective: col, Ranks: c.Nodes * c.PerNode, PerNode: c.PerNode, Layout: layout}
				var cs []TunerChoice
				if pick, breaks, cs, err = m.overrides(q, tm, f, pick, sizes); err != nil {
					return nil, nil, err
				}
				for i := range cs {
					cs[i].Comm, cs[i].Collective = c, col
				}
				choices = append(choices, cs...)
			}
			rs, err := tm.TunerRules(f, nodes, pick, breaks, alts...)
			if err != nil {
				return nil, nil, err
			}
			rules = append(rules, rs...)
		}
		if !twin {
			seen[key] = written{c, rules[start:]}
		} else {
			if !slices.Equal(first.rules, rules[start:]) {
				return nil, nil, fmt.Errorf("predict: communicators %v and %v are one to the tuner plugin (nNodes %d, nRanks %d), which tells them apart by nothing else, "+
					"and their rules differ: no file serves both; write one for each job, or leave one out (its calls would take the other's rules)", first.c, c, key.nodes, key.ranks)
			}
			// The first's rules serve both.
			rules, choices = rules[:start], choices[:startChoices]
		}
		// An NVLink domain of several hosts is one node to NCCL where the
		// job runs MNNVL; where it does not (no IMEX channel,
		// NCCL_MNNVL_ENABLE=0), NCCL counts the hosts, and with no rule
		// for that count the plugin would run every call on one channel:
		// rules of NCCL's own choices there keep such a job as NCCL runs
		// it.
		if nodes == c.Nodes {
			continue
		}
		if flat == nil {
			flat = m.withoutMNNVL()
		}
		ftm, fnodes, err := flat.tunerModel(c)
		if err != nil {
			return nil, nil, err
		}
		if fkey := (pluginKey{fnodes, key.ranks}); seen[fkey].rules == nil {
			fstart := len(rules)
			for f := range nccl.Func(nccl.NumFuncs) {
				rs, err := ftm.TunerRules(f, fnodes, ftm.DefaultPick(f), nil, flat.assumedTunerModels(c)...)
				if err != nil {
					return nil, nil, err
				}
				rules = append(rules, rs...)
			}
			seen[fkey] = written{c, rules[fstart:]}
		}
		// A placement across more domains than the fewest that hold it
		// (a rack's edge, a fragmented allocation) is more nodes to
		// NCCL, whose count the job cannot know beforehand.
		ps, err := m.placements(c, nodes)
		if err != nil {
			return nil, nil, err
		}
		if len(ps) > 0 && placed[key.ranks] == nil {
			ranks = append(ranks, key.ranks)
		}
		for _, p := range ps {
			placed[key.ranks] = append(placed[key.ranks], p.Model)
		}
		if h, ok := m.Hardware.noP2P(c.PerNode); ok && len(ps) > 0 && placedNoP2P[key.ranks] == nil {
			if tm, err := m.on(h).straddled(c, ps[0].Nodes); err == nil {
				placedNoP2P[key.ranks] = tm
			}
		}
	}
	// Rules of any nNodes for each such count of ranks, after every
	// other rule, take each call of a placement no rule of its count
	// takes: at each size the choice, among NCCL's own on the placements
	// of every communicator of those ranks, least slower than NCCL's own
	// on any of them (leastWorst). One file serves them all.
	for _, r := range ranks {
		ms := placed[r]
		for f := range nccl.Func(nccl.NumFuncs) {
			own := func(m *nccl.Model) nccl.TunerPick { return m.DefaultPick(f) }
			steady := func(m *nccl.Model) nccl.TunerPick { return m.FallbackPick(f) }
			alts := ms[1:]
			if tm := placedNoP2P[r]; tm != nil {
				alts = append(slices.Clip(alts), tm)
			}
			rs, err := ms[0].TunerRulesFalling(f, -1, leastWorst(f, ms, own), leastWorst(f, ms, steady), nil, alts...)
			if err != nil {
				return nil, nil, err
			}
			rules = append(rules, rs...)
		}
	}
	return rules, choices, nil
}

// leastWorst is the pick of rules that serve calls of f on every model of
// ms: at each size, of the models' own choices (pick of each: NCCL's own,
// or its own where NCCL leaves NVLS, PAT and CollNet out), the one whose
// time on the model it serves worst, over that model's own choice's, is
// least. A model that leaves a choice out of its cost table passes over
// its rule, to the rules after it, and is not counted against it.
func leastWorst(f nccl.Func, ms []*nccl.Model, pick func(*nccl.Model) nccl.TunerPick) nccl.TunerPick {
	type choice struct {
		a nccl.Algo
		p nccl.Protocol
	}
	picks := make([]nccl.TunerPick, len(ms))
	for i, m := range ms {
		picks[i] = pick(m)
	}
	return func(n uint64) (nccl.Algo, nccl.Protocol, error) {
		own := make([]float64, len(ms))
		var cands []choice
		for i, m := range ms {
			a, p, err := picks[i](n)
			if err != nil {
				return 0, 0, err
			}
			t, ok := m.Time(f, a, p, float64(n))
			if !ok {
				return 0, 0, fmt.Errorf("predict: %v/%v, NCCL's choice for %v of %d B, is not in its cost table", a, nccl.ProtocolName(p), f, n)
			}
			own[i] = t
			if c := (choice{a, p}); !slices.Contains(cands, c) {
				cands = append(cands, c)
			}
		}
		best, least := cands[0], math.Inf(1)
		for _, c := range cands {
			worst := 1.0
			for i, m := range ms {
				if t, ok := m.Time(f, c.a, c.p, float64(n)); ok {
					worst = max(worst, t/own[i])
				}
			}
			if worst < least {
				best, least = c, worst
			}
		}
		return best.a, best.p, nil
	}
}

// maxTunedSize is the largest size, bytes, at which overrides checks that
// a choice Beats NCCL's: 1 TiB, beyond any buffer of one call.
const maxTunedSize = 1 << 40

// beatsAt reports that algorithm a with protocol p Beats NCCL's own choice
// for q (function f, NCCL's tuning model tm) at n bytes.
func (m *Machine) beatsAt(q Query, tm *nccl.Model, f nccl.Func, a nccl.Algo, p nccl.Protocol, n float64) bool {
	e, err := tm.Choose(f, n)
	if err != nil || e.Algo == a && e.Proto == p || m.unmeasured(a, p, q.Ranks > q.PerNode, n) {
		return false
	}
	ours, err := m.Predict(q.pinned(a, p), []float64{n})
	if err != nil {
		return false
	}
	theirs, err := m.Predict(q.pinned(e.Algo, e.Proto), []float64{n})
	return err == nil && m.beatsNCCL(q, ours[0], theirs[0], n)
}

// beatsEdge returns the size between out, where a with p does not beat
// NCCL's choice, and in, where it does, nearest out at which it still does,
// to a 1/256 of the two's distance in logs (eight halvings).
func (m *Machine) beatsEdge(q Query, tm *nccl.Model, f nccl.Func, a nccl.Algo, p nccl.Protocol, out, in float64) float64 {
	for range 8 {
		mid := math.Sqrt(out * in)
		if m.beatsAt(q, tm, f, a, p, mid) {
			in = mid
		} else {
			out = mid
		}
	}
	return in
}

// overrides returns def, replaced around each of sizes where the model's
// fastest choice for q Beats NCCL's own, and the sizes where the
// replacements start and end, with what each expects (TunerChoice, its
// communicator and collective left to the caller).
func (m *Machine) overrides(q Query, tm *nccl.Model, f nccl.Func, def nccl.TunerPick, sizes []float64) (nccl.TunerPick, []uint64, []TunerChoice, error) {
	type span struct {
		lo, hi uint64
		a      nccl.Algo
		p      nccl.Protocol
	}
	var spans []span
	var breaks []uint64
	var choices []TunerChoice
	var alts []tried
	altsTried := false
	for i, s := range sizes {
		cs, err := m.Choices(q, s)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("predict: %v on %d x %d at %g B: %w", q.Collective, q.Ranks/q.PerNode, q.PerNode, s, err)
		}
		e, err := tm.Choose(f, s)
		if err != nil {
			return nil, nil, nil, err
		}
		// A tuner picks only from NCCL's cost table: a protocol NCCL leaves
		// out on this machine (LL128 over a NIC behind the CPU) runs only
		// where NCCL_PROTO forces it, which Choices prices.
		cs = slices.DeleteFunc(cs, func(c Prediction) bool {
			a, aerr := nccl.ParseAlgo(c.Algorithm)
			p, perr := commmodel.ParseProtocol(c.Protocol)
			return aerr != nil || perr != nil || !tm.Available(f, a, p)
		})
		k := slices.IndexFunc(cs, func(p Prediction) bool {
			return p.Algorithm == e.Algo.String() && p.Protocol == nccl.ProtocolName(e.Proto)
		})
		if k <= 0 || !m.beatsNCCL(q, cs[0], cs[k], s) {
			continue // NCCL's own choice, or one the model cannot price
		}
		a, err := nccl.ParseAlgo(cs[0].Algorithm)
		if err != nil {
			return nil, nil, nil, err
		}
		p, err := commmodel.ParseProtocol(cs[0].Protocol)
		if err != nil {
			return nil, nil, nil, err
		}
		if m.unmeasured(a, p, q.Ranks > q.PerNode, s) {
			continue
		}
		sp := span{0, math.MaxUint64, a, p}
		if i > 0 {
			sp.lo = uint64(math.Sqrt(sizes[i-1]*s)) + 1
		}
		if i+1 < len(sizes) {
			sp.hi = uint64(math.Sqrt(s * sizes[i+1]))
		}
		// The span keeps only the sizes about s where the choice still
		// Beats NCCL's: an end where it does not is moved in, by halving
		// the distance in logs. A withheld choice keeps the span its rule
		// would have had.
		if lo := max(float64(sp.lo), 1); !m.beatsAt(q, tm, f, a, p, lo) {
			sp.lo = uint64(math.Ceil(m.beatsEdge(q, tm, f, a, p, lo, s)))
		}
		if hi := min(float64(sp.hi), maxTunedSize); !m.beatsAt(q, tm, f, a, p, hi) {
			sp.hi = uint64(m.beatsEdge(q, tm, f, a, p, hi, s))
		}
		measured, _ := m.measuredAt(q, s)
		if !altsTried {
			_, alts, err = triedAlternatives(m.Hardware, m.tables, q, nil)
			if err != nil {
				return nil, nil, nil, err
			}
			alts = slices.DeleteFunc(alts, func(t tried) bool { return t.placement() })
			altsTried = true
		}
		ch := m.decide(q, cs[0], cs[k], s)
		ch.MinBytes, ch.MaxBytes, ch.Measured = sp.lo, sp.hi, measured
		ch.Near, ch.Outside = m.missesNear(s)
		own, ex := q, m.TunerExclusions()
		own.Algo, own.Proto = ex.Algo, ex.Proto
		if ch.RestsOn = m.restsOn(q, own, alts, a, p, cs[0], cs[k], s); ch.Withheld() {
			choices = append(choices, ch)
			continue
		}
		spans = append(spans, sp)
		breaks = append(breaks, sp.lo, sp.hi+1)
		choices = append(choices, ch)
	}
	if len(spans) == 0 {
		return def, nil, choices, nil // withheld, if any
	}
	return func(n uint64) (nccl.Algo, nccl.Protocol, error) {
		k, found := slices.BinarySearchFunc(spans, n, func(sp span, n uint64) int {
			switch {
			case sp.hi < n:
				return -1
			case sp.lo > n:
				return 1
			}
			return 0
		})
		if found {
			return spans[k].a, spans[k].p, nil
		}
		return def(n)
	}, breaks, choices, nil
}

// restsOn returns the assumed facts on which the model's choice for q at
// size bytes, a with p predicted as ours, rests against the prediction of
// query against, theirs (NCCL's own for tune's rules, a pinned run's for
// diagnose's advice):
// each of alts (the alternatives Guesses tries) with which a with p cannot
// run, even one the tables fit worse (an assumed fact the choice needs is
// no ground for a rule in a production job), or, one the tables do not
// speak against, which moves ours or NCCL's own prediction by more than
// GuessMoves and leaves ours, its interval scaled with its time, no longer
// Beating NCCL's own.
func (m *Machine) restsOn(q, against Query, alts []tried, a nccl.Algo, p nccl.Protocol, ours, theirs Prediction, size float64) []Reliance {
	facts := m.Hardware.Facts()
	var out []Reliance
	for _, t := range alts {
		nc, err := predictOn(t.m, t.hw, against, []float64{size})
		if err != nil {
			continue // NCCL cannot run q there: it says nothing of the choice
		}
		r := Reliance{Guess: t.guess(facts)}
		r.Facts, r.Tried = t.changed(facts)
		alt, err := predictOn(t.m, t.hw, q.pinned(a, p), []float64{size})
		if err != nil || alt[0].Algorithm != a.String() || alt[0].Protocol != nccl.ProtocolName(p) {
			out = append(out, r)
			continue
		}
		if t.against {
			continue // a fact the tables favour, which the choice does not need
		}
		ro, rt := alt[0].Time/ours.Time, nc[0].Time/theirs.Time
		scaled := Prediction{Time: alt[0].Time, Low: ours.Low * ro, High: ours.High * ro}
		moves := math.Abs(ro-1) > GuessMoves || math.Abs(rt-1) > GuessMoves
		if moves && !scaled.Beats(nc[0]) {
			r.Runs, r.Gain = true, scaled.GainOver(nc[0].Time)
			out = append(out, r)
		}
	}
	return out
}
