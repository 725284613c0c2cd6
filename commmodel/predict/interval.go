package predict

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/words"
	"github.com/inframethod/commlab/units"
)

// The interval of a prediction is an 80% interval of the measured time. It
// is built in logs, where the model's errors are about symmetric: ln of the
// measured time over the prediction is taken as normal with a mean (the
// bias) and a variance, so that
//
//	Low, High = Time · exp(bias ∓ z80·sd)
//
// The variance adds five parts:
//
//   - the spread of the calibrated model's errors on tables it did not see,
//     from the refits that leave out each calibration table in turn (at
//     the points of the call's protocol, where held-out tables ran it; the
//     bias likewise), less
//     what each held-out point owes to the parameters its refit left
//     unidentified (the last part below, which counts the prediction's own),
//     pooled with priorSpread as if priorTables tables had shown it (so that
//     one or two tables do not make the interval narrow by chance); a
//     single table, which no refit can leave out, pools its own errors at
//     the fit instead: they understate its errors on other runs, which the
//     prior's equal weight makes up for, but a table the model fits badly
//     says that the model strays on its machine, and one it fits within a
//     few percent that it does not;
//   - for a query whose collective is none of the tables', the error of
//     such predictions where at least minCrossTables held-out tables
//     measured it (tables whose collective no other table ran), else
//     priorSpread again; but not for a single table, where no table was
//     held out and priorSpread alone already stands for every error of a
//     prediction from other tables, another collective's included;
//   - a variance per doubling of nodes or ranks outside the tables' range,
//     one on each side of the time (SlowerAbove² and FasterAbove² above the
//     tables' largest, SlowerBelow² and FasterBelow² below their smallest),
//     and layoutSpread when GPUs per thread differ from every table's;
//   - the parameters the tables do not identify, through the prediction's
//     sensitivity to each (the delta method, with each log's posterior
//     standard deviation, at most priorSpread: the prior's width is set
//     wide for the fit, wider than what is known of a GPU's or NIC's
//     rate before any table); but not for a single table, for the same
//     reason as another collective's: priorSpread, the error of the paired
//     machines' held-out tables, already holds that of predictions that
//     rest on a parameter their calibration left unidentified;
//   - where no table crossed nodes, the network's latency at the spread
//     public networks show about NCCL's figure, on each side apart
//     (unmeasuredNetwork);
//   - where no table identifies the NICs' bandwidth, for a call that sends
//     bytes over the network, the spread of public networks' bandwidth
//     below the NICs' line rate, on the slow side alone: the line rate
//     bounds the fast side (unmeasuredNICs).
//
// Low stops at the least time the line rates the evidence gives allow
// (floor), which no spread can take the measurement under.
const (
	// z80 is the standard normal's 90th percentile: ±z80 holds 80%.
	z80 = 1.2815515655446004
	// priorSpread is the standard deviation of ln(measured/model) before
	// any held-out table is seen. It is wider than the paired machines'
	// held-out errors (pooled over their points, an 80% interval of ±0.31
	// in logs, a standard deviation of 0.24, from 0.08 on one machine to
	// 0.53 on another): clusters the model was not built on miss by more,
	// and at this width the intervals of public logs it had not seen held
	// 50% to 89% of their points.
	priorSpread = 0.4
	// priorTables is the weight of priorSpread, in held-out tables.
	priorTables = 1
	// minVariance keeps a table the model fits exactly from pulling the
	// pooled variance to 0: a 1% error.
	minVariance = 1e-4
	// minDegrees is the fewest degrees of freedom of a single table's errors
	// at its fit for their variance to count (pool): 3, from which the standard error of
	// its log, √ψ₁(ν/2), is below 1 (0.97; 1.28 at 2, 2.22 at 1), so the
	// estimate is within a factor e of the variance.
	minDegrees = 3
	// layoutSpread is added when the query's GPUs per thread (the launch
	// floor) is none of the tables'. It is assumed, not fitted: few paired
	// tables change layout.
	layoutSpread = 0.2
	// referenceBias and referenceSpread are the mean and standard
	// deviation of ln(measured/NCCL) for NCCL's uncalibrated model, which
	// is mostly fast: the mean of the paired machines' medians, and the
	// middle of their spreads (docs/scores.md gives its coverage).
	referenceBias   = 0.5
	referenceSpread = 0.6
	// minBlendTables and blendMargin say when a blend with NCCL's
	// uncalibrated model replaces the calibration (ncclWeight): it needs
	// enough held-out tables modelled by NCCL to judge, and a clear gain.
	// They were chosen on the paired logs' scores, which are therefore not
	// held out from this choice (docs/scores.md).
	minBlendTables = 3
	blendMargin    = 0.95
	// minCrossTables is how many held-out tables must have been predicted
	// without any table of their collective before their pooled error
	// stands for that of a new collective, in place of priorSpread: two
	// are often mirror images (AllGather and ReduceScatter) that say
	// little of a third collective's algorithms.
	minCrossTables = 3
)

// repeatSpread is the least half-width of each side of an interval, in
// logs: where the held-out tables' bias moves a side past the prediction,
// the side still holds the scatter of repeated runs of one call. It is the
// 80th percentile of |ln(in-place/out-of-place)| over the rows of 1 MiB
// and more of the repository's public logs, the same call timed twice in
// one run (TestRepeatSpread measures it).
const repeatSpread = 0.022

// SlowerAbove and FasterAbove are the standard deviations of
// ln(measured/model) that an interval adds over one doubling of the node
// count (or of the ranks) beyond the calibration tables' largest:
// SlowerAbove above the prediction, FasterAbove below it. SlowerBelow and
// FasterBelow are the same below the tables' smallest. Over d doublings the
// variance is d times theirs, as if each doubling added an independent
// error: the paired logs' predictions across several doublings miss by less
// than d one-doubling misses, and this form explains the slow side, which
// sets the width, better than a standard deviation d times theirs (package
// heldout, "Beyond the tables' nodes" and "Below the tables' nodes" in
// docs/scores.md, compare the two likelihoods). Each is the root mean
// square of ln(measured/model)/√d of the paired logs' tables predicted from
// their machine's tables of fewer nodes (above) or of more (below), over
// those measured slower and those measured faster (the tests hold them to
// that measurement), which are therefore not held out from this choice.
// Beyond the largest, a network level the tables did not reach (switch
// tiers, the fabric's bisection, congestion) makes the measurement slower
// far more often than faster; below the smallest, the two sides are nearer,
// and the slow one is mostly tables of one node, whose NVLink runs measure
// slower than tables across nodes imply.
const (
	SlowerAbove = 0.20
	FasterAbove = 0.085
	SlowerBelow = 0.20
	FasterBelow = 0.11
)

// spread is what Calibrate learns of its own errors: the mean and
// variance of ln(measured/model) on held-out tables, pooled with the
// prior, and the shapes of the tables it saw.
type spread struct {
	// bias and variance are pooled over all points, and protocols over
	// the points of each protocol where a held-out table had some (ok).
	bias, variance float64
	protocols      [nccl.NumProtocols]struct {
		bias, variance float64
		ok             bool
	}
	// heldOut counts the held-out tables behind them: 0 for a single
	// table, whose spread pools its own errors with the prior.
	heldOut int
	// crossVariance is the variance pooled over the held-out tables whose
	// collective no other table ran, 0 if there were fewer than
	// minCrossTables: the error of predicting one collective from the
	// others, measured.
	crossVariance float64
	// collectives, nodes and layouts are the tables' collectives, node
	// range and layouts (normalised).
	collectives []commmodel.Collective
	minNodes    int
	maxNodes    int
	// minRanks and maxRanks are the tables' range of ranks.
	minRanks, maxRanks int
	// peers is the most network peers of a rank in a table of grouped
	// sends (p2pPeers: an AllToAll's ranks less its GPUs per node, a
	// SendRecv's one across nodes), 0 without one.
	peers   int
	layouts []Layout
	// acrossLayouts are the layouts of the tables of several nodes.
	acrossLayouts []Layout
	// network reports a table of several hosts, which measured the
	// network's latency (unmeasuredNetwork).
	network bool
	// bandwidth reports a table point whose time, at the fit, a bandwidth
	// bounds more than latency or launch: without one, the tables measured
	// no bandwidth, and a single table's interval adds what the
	// bandwidths' priors leave open (Machine.interval).
	bandwidth bool
}

// A heldTable is one calibration table predicted without it: ln(measured
// /model) at each of its points, for the calibration and for NCCL's
// uncalibrated model (nil where NCCL has no model).
type heldTable struct {
	// protocols are the protocols the points ran, whose errors pool
	// apart (spread.pool).
	protocols        []nccl.Protocol
	calibrated, nccl []float64
	// unidentified is each point's variance from the parameters the
	// calibration without the table did not identify, on the faster and
	// the slower side (unidentified), and network its
	// variance from the network's latency where that calibration did not
	// identify it, on the faster and the slower side (unmeasuredNetwork),
	// and nic its slower side's variance from the NICs' bandwidth where
	// that calibration did not identify it (unmeasuredNICs);
	// terms are the points' terms and x that calibration's parameters,
	// for the per-peer spread of AllToAll points (peersBeyond).
	unidentified [][2]float64
	network      [][2]float64
	nic          []float64
	terms        []*term
	x            [numParams]float64
	// own reports errors at the table's own fit (a single table), and
	// fitted counts the parameters its points fixed there: the errors have
	// that many degrees of freedom fewer than points.
	own    bool
	fitted int
}

// only returns h with the points of protocol p alone, for pool (without
// terms, which pool does not read). A single table's own errors count
// there as a held-out table's, every point free: charging each protocol
// its share of the parameters the fit fixed (pool's degrees of freedom)
// widened the intervals of the machines the model already covers best
// (each table alone: cluster01 94.7% to 96.0%, GB300 87.5% to 100%) and
// hardly moved those it covers least (ABCI's A100 69.9% to 70.5%).
func (h heldTable) only(p nccl.Protocol) heldTable {
	var out heldTable
	if h.own && len(h.calibrated)-h.fitted < minDegrees {
		// Too few points beyond its fitted parameters for the whole
		// table's errors to say anything of its spread (pool): nor do
		// any protocol's.
		out.own, out.fitted = true, len(h.calibrated)
	}
	for i, q := range h.protocols {
		if q != p {
			continue
		}
		out.protocols = append(out.protocols, q)
		out.calibrated = append(out.calibrated, h.calibrated[i])
		out.unidentified = append(out.unidentified, h.unidentified[i])
		if h.nccl != nil {
			out.nccl = append(out.nccl, h.nccl[i])
		}
	}
	return out
}

// spreadOf returns the spread of a calibration on tables whose held-out
// errors are held, held[k] those of tables[k], with weight w on NCCL's
// model; heldOut counts the tables held out (0 for a single table, whose
// own errors at the fit stand in for a held-out table's, and for none).
// The tables whose collective no other table ran give crossVariance.
func spreadOf(tables []Table, held []heldTable, heldOut int, w float64) spread {
	var s spread
	s.sawTables(tables)
	s.heldOut = heldOut
	s.pool(held, w)
	var cross []heldTable
	for k := range held {
		if ranCollective(tables, tables[k].Collective) == 1 {
			cross = append(cross, held[k])
		}
	}
	if len(cross) >= minCrossTables {
		_, s.crossVariance = pool(cross, w)
	}
	return s
}

// pool sets the spread's bias and variance from the held-out tables, with
// weight w on NCCL's model: over all their points, and over the points of
// each protocol. Each protocol has its own latencies and efficiency, and
// its errors their own scale: LL's are the launch floor's and latency's,
// Simple's at large sizes a link's.
func (s *spread) pool(held []heldTable, w float64) {
	s.bias, s.variance = pool(held, w)
	for p := range s.protocols {
		var in []heldTable
		for _, h := range held {
			if hp := h.only(nccl.Protocol(p)); len(hp.protocols) > 0 {
				in = append(in, hp)
			}
		}
		if len(in) > 0 {
			s.protocols[p].bias, s.protocols[p].variance = pool(in, w)
			s.protocols[p].ok = true
		}
	}
}

// at returns the bias and variance of a call that runs protocol p: the
// protocol's where held-out tables ran it, else those over all points, at
// least the prior's: no table ran p, whose efficiency and latencies the
// other protocols' errors say nothing of.
func (s *spread) at(p nccl.Protocol) (bias, variance float64) {
	if c := s.protocols[p]; c.ok {
		return c.bias, c.variance
	}
	return s.bias, max(s.variance, priorSpread*priorSpread)
}

// errors are the table's log errors of the blend with weight w on NCCL's
// model.
func (h heldTable) errors(w float64) []float64 {
	if h.nccl == nil || w == 0 {
		return h.calibrated
	}
	r := make([]float64, len(h.calibrated))
	for i := range r {
		r[i] = (1-w)*h.calibrated[i] + w*h.nccl[i]
	}
	return r
}

// ncclWeight returns the weight of NCCL's model against the calibration.
// It is 0 unless NCCL models at least minBlendTables held-out tables and a
// blend, on a grid of tenths, brings the held-out errors (the sum over
// tables of each table's median absolute log error) below blendMargin of
// the calibration's own: a few tables choose noisily, and a blend chosen by
// a hair loses more tables than it wins.
func ncclWeight(held []heldTable) float64 {
	var s blendScores
	for _, h := range held {
		s = s.plus(blendScoresOf(h), 1)
	}
	return s.weight()
}

// blendSteps is the number of tenths on ncclWeight's grid.
const blendSteps = 10

// blendScores are what ncclWeight weighs: for each weight k/blendSteps on
// NCCL's model, the sum over held-out tables of each table's median
// absolute log error of the blend, and the tables NCCL models.
type blendScores struct {
	modelled int
	sum      [blendSteps + 1]float64
}

// blendScoresOf returns the blendScores of one held-out table.
func blendScoresOf(h heldTable) blendScores {
	var s blendScores
	if h.nccl != nil {
		s.modelled = 1
	}
	abs := make([]float64, len(h.calibrated))
	for k := range s.sum {
		for i, v := range h.errors(float64(k) / blendSteps) {
			abs[i] = math.Abs(v)
		}
		s.sum[k] = fit.Median(abs)
	}
	return s
}

// plus returns s with sign (1 or −1) times t added: the scores of more
// tables, or of fewer.
func (s blendScores) plus(t blendScores, sign int) blendScores {
	s.modelled += sign * t.modelled
	for k := range s.sum {
		s.sum[k] += float64(sign) * t.sum[k]
	}
	return s
}

// weight is ncclWeight's choice from the scores.
func (s blendScores) weight() float64 {
	if s.modelled < minBlendTables {
		return 0
	}
	best, bestW := blendMargin*s.sum[0], 0.0
	for k := 1; k <= blendSteps; k++ {
		if s.sum[k] < best {
			best, bestW = s.sum[k], float64(k)/blendSteps
		}
	}
	return bestW
}

// pool pools the held-out log errors of the blend with weight w on NCCL's
// model with the prior. Every table counts once, whatever its number of
// points: the bias is the tables' mean error shrunk towards 0, and the
// variance the geometric mean of the prior's and each table's mean square
// error about the bias, since the model's error scale differs between
// machines by more than an order of magnitude. A table's mean square error
// is net of its points' unidentified variance: a refit without the only
// table of a network or an algorithm misses by what its priors allow, and
// a prediction's interval adds that for its own unidentified parameters,
// not again through the spread. In a blend with NCCL's model, the
// calibration's share of the log scales that variance by its square.
//
// The log of a mean square of n normal errors falls short of the log of
// their variance by ln(n/2) − ψ(n/2) on average (ψ the digamma function):
// 0.58 for two points, 0.04 for 24. Each table's log adds that back, so
// that tables of two points do not narrow the interval by 44%.
func pool(held []heldTable, w float64) (bias, variance float64) {
	tables := make([][]float64, len(held))
	for i, h := range held {
		tables[i] = h.errors(w)
	}
	// A table's errors at its own fit (a single table) estimate their
	// variance with as many degrees of freedom as it has points less the
	// parameters they fixed; below minDegrees the estimate says nothing the
	// prior does not. A held-out table's errors are a prediction's, all
	// its points free.
	informs := func(i int) bool { return !held[i].own || len(tables[i])-held[i].fitted >= minDegrees }
	var sum float64
	count := 0
	for i, r := range tables {
		if informs(i) {
			sum += stat.Mean(r, nil)
			count++
		}
	}
	bias = sum / float64(count+priorTables)
	logs := priorTables * math.Log(priorSpread*priorSpread)
	for i, r := range tables {
		if !informs(i) {
			continue
		}
		share := 1.0 // of the calibration in the blend's log
		if held[i].nccl != nil {
			share = 1 - w
		}
		var ss float64
		for j, v := range r {
			u := held[i].unidentified[j]
			ss += (v-bias)*(v-bias) - share*share*(u[0]+u[1])/2
		}
		nu := float64(len(r) - held[i].fitted) // degrees of freedom
		logs += math.Log(max(ss/nu, minVariance)) + math.Log(nu/2) - mathext.Digamma(nu/2)
	}
	return bias, math.Exp(logs / float64(count+priorTables))
}

// sawTables records the shapes of the calibration tables.
func (s *spread) sawTables(tables []Table) {
	s.minNodes, s.maxNodes = math.MaxInt, 0
	s.minRanks, s.maxRanks = math.MaxInt, 0
	for i := range tables {
		t := &tables[i]
		if !slices.Contains(s.collectives, t.Collective) {
			s.collectives = append(s.collectives, t.Collective)
		}
		same := func(l Layout) func(Layout) bool {
			return func(x Layout) bool { return x.launchKey() == l.launchKey() }
		}
		if l := t.Layout.norm(); !slices.ContainsFunc(s.layouts, same(l)) {
			s.layouts = append(s.layouts, l)
		}
		if l := t.Layout.norm(); t.Nodes > 1 && !slices.ContainsFunc(s.acrossLayouts, same(l)) {
			s.acrossLayouts = append(s.acrossLayouts, l)
		}
		s.minNodes, s.maxNodes = min(s.minNodes, t.Nodes), max(s.maxNodes, t.Nodes)
		s.network = s.network || t.Nodes > 1
		s.minRanks, s.maxRanks = min(s.minRanks, t.Nodes*t.PerNode), max(s.maxRanks, t.Nodes*t.PerNode)
		if _, network, _ := p2pPeers(t.Collective, shape{t.Nodes, t.PerNode, 1}); network > 0 {
			s.peers = max(s.peers, network)
		}
	}
}

// A departure is how a run goes beyond the calibration tables: what its
// interval widens for (variance), and what Machine.Beyond says.
type departure struct {
	// collective is the variance added when none of the tables ran the
	// run's collective; newCollective reports that case.
	collective    float64
	newCollective bool
	nodes, ranks  int     // the run's hosts (nodes of -per-node GPUs) and ranks
	nodeDoublings float64 // doublings of nodes beyond the tables' range
	rankDoublings float64 // doublings of ranks beyond the tables' range
	// peers are the network peers of one rank of a run of grouped sends
	// (0 for the collectives), and peerDoublings its doublings beyond the
	// most of the tables' runs of grouped sends (beyond one peer without
	// any).
	peers         int
	peerDoublings float64
	// larger reports more nodes or more ranks than any table's.
	larger bool
	layout bool // none of the tables ran the run's layout
}

// departure returns how rn goes beyond the tables; nothing without tables,
// where the prior spread stands for everything.
func (s *spread) departure(rn *run) departure {
	d := departure{nodes: rn.shape.nodes * rn.shape.hosts, ranks: rn.shape.nodes * rn.shape.per}
	if len(s.collectives) == 0 {
		return d
	}
	if d.newCollective = !slices.Contains(s.collectives, rn.collective); d.newCollective && s.heldOut > 0 {
		d.collective = priorSpread * priorSpread
		if s.crossVariance > 0 {
			d.collective = max(s.crossVariance-s.variance, 0)
		}
	}
	d.nodeDoublings = doublings(d.nodes, s.minNodes, s.maxNodes)
	d.rankDoublings = doublings(d.ranks, s.minRanks, s.maxRanks)
	d.larger = d.nodes > s.maxNodes || d.ranks > s.maxRanks
	d.layout = !s.seen(rn.layout)
	if _, d.peers, _ = p2pPeers(rn.collective, shape{d.nodes, d.ranks / d.nodes, 1}); d.peers > 0 {
		if ref := max(s.peers, 1); d.peers > ref {
			d.peerDoublings = math.Log2(float64(d.peers) / float64(ref))
		}
	}
	return d
}

// beyond names, in a phrase, how a run with departure d goes beyond the
// tables s saw: another collective, nodes or ranks outside theirs, more
// network peers than their grouped sends had, or a launch layout none
// ran; "" where the tables surround it.
func (s *spread) beyond(d departure) string {
	var what []string
	if d.newCollective {
		what = append(what, "a collective they did not")
	}
	if d.nodeDoublings > 0 {
		what = append(what, fmt.Sprintf("%s against their %s", counted(d.nodes, "node"), span(s.minNodes, s.maxNodes)))
	}
	if d.rankDoublings > 0 {
		what = append(what, fmt.Sprintf("%s against their %s", counted(d.ranks, "rank"), span(s.minRanks, s.maxRanks)))
	}
	if d.peerDoublings > 0 {
		what = append(what, fmt.Sprintf("%d network peers a rank against %s", d.peers, peersPhrase(s.peers)))
	}
	if d.layout {
		what = append(what, "a launch layout none of them ran")
	}
	return words.And(what)
}

// doublings returns how many doublings n lies outside [lo, hi].
func doublings(n, lo, hi int) float64 {
	switch {
	case n > hi:
		return math.Log2(float64(n) / float64(hi))
	case n < lo:
		return math.Log2(float64(lo) / float64(n))
	}
	return 0
}

// variance is what d adds to the variance of ln(measured/model) on the side
// where the measurement is faster than the model and on the side where it
// is slower. Nodes and ranks beyond the tables count once, by the farther
// of the two (a run on more nodes of as many GPUs has both), a variance per
// doubling. Network peers beyond the tables' AllToAll runs add their own
// (peersBeyond).
func (d departure) variance() (faster, slower float64) {
	far := max(d.nodeDoublings, d.rankDoublings)
	v := d.collective
	if d.layout {
		v += layoutSpread * layoutSpread
	}
	faster, slower = v, v
	if d.larger {
		return faster + far*FasterAbove*FasterAbove, slower + far*SlowerAbove*SlowerAbove
	}
	return faster + far*FasterBelow*FasterBelow, slower + far*SlowerBelow*SlowerBelow
}

// counted is n of thing, "1 node" or "8 nodes" (words.Count).
func counted(n int, thing string) string { return words.Count(n, thing, thing+"s") }

// beyondOrBelow says where n lies against a range that starts at least.
func beyondOrBelow(n, least int) string {
	if n < least {
		return "below"
	}
	return "beyond"
}

// Beyond says, one sentence each, where a prediction of q goes beyond the
// calibration tables, each a reason its interval is wider than the tables'
// own errors: a collective none of them ran, a node count outside theirs,
// a layout none of them had; and first, a CollNet that q's pin takes as
// set up where neither the machine's collnet nor a table's run shows it.
// It is nil within the tables, and for a Machine calibrated on none
// (Uncalibrated), whose interval is the prior's throughout, but for that
// CollNet. A query Predict refuses is an error, Predict's.
func (m *Machine) Beyond(q Query) ([]string, error) {
	if err := oneRank(q); err != nil {
		return nil, err
	}
	rn, err := m.run(q)
	if err != nil {
		return nil, err
	}
	d, s := m.spread.departure(rn), &m.spread
	var out []string
	if rn.collNet && !m.collNetShown() {
		through := ""
		if len(m.tables) > 0 {
			through = " through the other tables' fit"
		}
		out = append(out, fmt.Sprintf("NCCL_ALGO=%s leaves %v only CollNet, which NCCL runs only where the job set it up (a network whose switches reduce, such as InfiniBand SHARP, and NCCL_COLLNET_ENABLE=1): the prediction takes it as set up, but no table ran CollNet, so its times are NCCL's model's%s; -hw collnet=true says the machine has it, and -hw collnet=false refuses such a query",
			q.Algo, q.Collective, through))
	}
	if d.newCollective {
		out = append(out, fmt.Sprintf("no calibration table ran %v: its latencies and efficiencies come from the other collectives' tables, and the interval allows for the error that brings",
			q.Collective))
	}
	if d.nodeDoublings > 0 {
		why := fmt.Sprintf("%s is %.1f doublings %s the tables' %s, and the interval widens with each%s",
			counted(d.nodes, "node"), d.nodeDoublings, beyondOrBelow(d.nodes, s.minNodes), span(s.minNodes, s.maxNodes), d.slowSide())
		switch {
		case d.nodes > s.maxNodes && s.maxNodes == 1:
			why += ": no table crossed the network, so the NICs' bandwidth and the network's latency are their priors, and the interval allows for public networks' spread about them (NICs that deliver well under their line rate, latencies many times NCCL's); give the NICs with -hw nics=N,nic-bw=RATE and the latency with -hw net-lat=K, or calibrate with a table of several nodes"
		case d.nodes > s.maxNodes && q.Collective == commmodel.AllToAll:
			why += ": the network above the tables' nodes (a leaf's uplinks, a fabric's bisection, a dragonfly's global links) is not measured; describe it with -hw group=HOSTS,oversub=R, or calibrate with a table of more nodes"
		case d.nodes > s.maxNodes:
			// A ring's or a tree's neighbours sit on the nearest nodes
			// (commmodel.Stage.Leaving): a group's uplinks bind only near
			// an oversubscription of the group's hosts.
			why += fmt.Sprintf(": the network above the tables' nodes (a leaf's uplinks, a fabric's bisection, a dragonfly's global links) is not measured, and a table of more nodes is what narrows it; -hw group=HOSTS,oversub=R moves AllToAll, most of whose bytes leave a group, but the rings and trees of %v send 1/HOSTS of their bytes out of a group, which binds its uplinks only as R nears HOSTS",
				q.Collective)
		}
		out = append(out, why)
	}
	if d.rankDoublings > d.nodeDoublings {
		// The interval widens by the farther of the two (variance).
		out = append(out, fmt.Sprintf("%s is %.1f doublings %s the tables' %s: NCCL's steps grow with the ranks, so the latencies the tables measured are extrapolated, and the interval widens with each doubling%s",
			counted(d.ranks, "rank"), d.rankDoublings, beyondOrBelow(d.ranks, s.minRanks), span(s.minRanks, s.maxRanks), d.slowSide()))
	}
	if d.peerDoublings > 0 {
		out = append(out, fmt.Sprintf("%d network peers per rank is %.1f doublings beyond %s: the per-peer cost of grouped sends (p2p_peer_latency) is extrapolated, and the interval widens with each doubling, most on its slow side",
			d.peers, d.peerDoublings, peersPhrase(s.peers)))
	}
	if d.layout {
		l := m.Layout(q)
		out = append(out, fmt.Sprintf("no calibration table ran %s a process of %s each with %s: the launch floor is scaled from the tables', not measured, and the interval is wider for it",
			counted(l.ThreadsPerProcess, "thread"), counted(l.GPUsPerThread, "GPU"), graphsPhrase(l.Graphs)))
	}
	return out, nil
}

// slowSide says, for a run larger than the tables, which side of the
// interval widens most (departure.variance).
func (d departure) slowSide() string {
	if !d.larger {
		return ""
	}
	return ", most on its slow side (beyond the tables' nodes, runs measure slower than the model far more often than faster)"
}

// peersPhrase names the network peers the tables' grouped sends measured.
func peersPhrase(peers int) string {
	if peers == 0 {
		return "one, as no calibration table ran AllToAll or SendRecv across nodes"
	}
	return fmt.Sprintf("the %d of the tables' AllToAll and SendRecv runs", peers)
}

// span is "lo" or "lo to hi".
func span(lo, hi int) string {
	if hi > lo {
		return fmt.Sprintf("%d to %d", lo, hi)
	}
	return fmt.Sprint(lo)
}

// graphsPhrase says whether a run captures its calls in CUDA graphs.
func graphsPhrase(graphs int) string {
	if graphs > 0 {
		return "CUDA graphs"
	}
	return "no CUDA graphs"
}

// unidentified returns the variance of ln T(t) from the parameters the
// tables do not identify, on the side where the measurement is faster and
// on the side where it is slower (unidentified).
func (m *Machine) unidentified(t *term) [2]float64 {
	if len(m.Params) == 0 {
		return [2]float64{} // NCCL's uncalibrated model: the prior spread stands for all
	}
	return unidentified(t, &m.x, func(k int) (float64, bool) { return m.Params[k].SD, m.Params[k].Identified })
}

// unidentified is Machine.unidentified at x, with param giving each
// parameter's posterior standard deviation and whether it is identified:
// Σ_k (∂ln T/∂ln x_k)²·sd_k² over them on both sides, but for the
// network's oversubscription above a group (fabric_oversubscription),
// whose effect stops where the network above the group is as fast as the
// NICs: its sides are the time's changes with it moved each way (moved),
// so that a description of the groups does not widen the faster side past
// the time without them.
func unidentified(t *term, x *[numParams]float64, param func(k int) (sd float64, identified bool)) [2]float64 {
	var v [2]float64
	var g [numParams]float64 // ∂ln T/∂ln x_k
	t.grad(x, &g)
	for k := range numParams {
		sd, ok := param(k)
		if ok {
			continue
		}
		sd = min(sd, priorSpread)
		if k == parFabric {
			down, up := moved(t, x, k, sd, sd)
			v[0], v[1] = v[0]+down, v[1]+up
			continue
		}
		v[0] += g[k] * g[k] * sd * sd
		v[1] += g[k] * g[k] * sd * sd
	}
	return v
}

// unmeasuredNetwork returns the variance of ln T(t) at x from the
// network's latency (inter_step_latency) where no calibration table
// crossed nodes to measure it (spread.network): on the side where the
// measurement is faster, and on the side where it is slower. Public
// networks lie far above NCCL's figure as often as near it
// (NetworkSlower, NetworkFaster), so each side is the change of ln T with
// the latency z80 of that side's standard deviations away (moved), not the
// delta method's: the time is linear in the latency, not in its log.
func unmeasuredNetwork(t *term, x *[numParams]float64) (faster, slower float64) {
	if t.lat[2] == 0 && t.peers == 0 {
		return 0, 0
	}
	return moved(t, x, parInter, NetworkFaster, NetworkSlower)
}

// unmeasuredNICs returns the variance of ln T(t) at x, on the side where
// the measurement is slower, from the NICs' bandwidth (nic_bw) where no
// calibration table identifies it: its prior is the NICs' line rate, of
// which public networks deliver from all to a quarter (NICSlower), never
// more. The time is inversely linear in the rate, not in its log, so
// the side is the change of ln T with the rate NICSlower·z80 below it
// (moved).
func unmeasuredNICs(t *term, x *[numParams]float64) (slower float64) {
	if t.net == 0 {
		return 0
	}
	slower, _ = moved(t, x, parNICBW, NICSlower, 0)
	return slower
}

// moved returns the variance of ln T(t) at x from parameter k, whose log
// has standard deviation below under its value and above over it: on each
// side, the change of ln T with k moved z80 of that side's standard
// deviations, over z80, squared. A latency moved down makes the call
// faster, a bandwidth slower. Where the time is linear in k or in its
// inverse, this keeps a larger call's interval from narrowing where the
// delta method's would.
func moved(t *term, x *[numParams]float64, k int, below, above float64) (down, up float64) {
	t0 := t.time(x)
	hi, lo := *x, *x
	hi[k] *= math.Exp(z80 * above)
	lo[k] *= math.Exp(-z80 * below)
	d := math.Log(t.time(&lo)/t0) / z80
	u := math.Log(t.time(&hi)/t0) / z80
	return d * d, u * u
}

// interval returns Low and High of a prediction of time t0 of term t of
// run rn. The interval is centred in logs on t0·exp(bias), the measured
// time the held-out tables lead one to expect; where the bias is larger
// than a side's half-width, that side is extended past t0 by the scatter
// of repeated runs (repeatSpread), so that the prediction always lies
// within its own interval, and a run timed a hair under it too. The prediction itself
// stays the model's: moved by the bias, it is further from the paired
// logs' held-out tables than unmoved.
func (m *Machine) interval(t *term, t0 float64, rn *run) (low, high float64) {
	share := 1.0 // of the calibration in the blend's log (Predict)
	if t.nccl > 0 {
		share = 1 - m.NCCLWeight
	}
	var net [2]float64
	if h := &m.Hardware; !h.given(h.Sources.NetLatency) {
		// A latency the description gives is not public networks' spread.
		net[0], net[1] = unmeasuredNetwork(t, &m.x)
		net[0], net[1] = share*share*net[0], share*share*net[1]
	}
	var nic float64
	if len(m.Params) == 0 || !m.Params[parNICBW].Identified {
		nic = share * share * unmeasuredNICs(t, &m.x)
	}
	var u [2]float64
	if m.spread.heldOut > 0 || !m.spread.bandwidth {
		// From a single table, priorSpread stands for every error of a
		// prediction of another run, one that rests on a parameter the
		// table leaves unidentified included, as for another collective
		// (spread.departure); but the paired logs behind it all ran
		// sizes that a bandwidth bounds, and a table of latency alone
		// leaves the bandwidths to their priors.
		u = m.unidentified(t)
	}
	d := m.spread.departure(rn)
	var peer [2]float64
	peer[0], peer[1] = peersBeyond(t, &m.x, d.peerDoublings)
	peer[0], peer[1] = share*share*peer[0], share*share*peer[1]
	u[0], u[1] = share*share*u[0], share*share*u[1]
	lo, hi := m.spread.bounds(t.ch.proto, u, net, nic, d, peer)
	return t0 * math.Exp(lo), t0 * math.Exp(hi)
}

// peersBeyond returns the variance of ln T(t) at x from the per-peer cost
// of an AllToAll whose network peers lie doublings doublings beyond the
// tables' (departure): on the faster side and on the slower, each the
// change of ln T with p2p_peer_latency z80 of that side's standard
// deviations away (doublings·FasterAbove, doublings·SlowerAbove; moved).
// The time is linear in the cost, not in its log, so the High of a larger
// call, whose time the cost shares with its bytes, does not fall as the
// bytes take a larger share (the other spreads, added in quadrature, let
// it sag slightly: TestAllToAllHighGrowsWithSize).
func peersBeyond(t *term, x *[numParams]float64, doublings float64) (faster, slower float64) {
	if t.peers == 0 || doublings == 0 {
		return 0, 0
	}
	return moved(t, x, parPeer, doublings*FasterAbove, doublings*SlowerAbove)
}

// floorParams are the parameters of the least time the hardware allows a
// call (floor): the line rates the description gives from evidence (the
// GPU's links from the catalog or the user, the NICs' rate from anything
// but an assumption), every efficiency at its physical bound
// (Machine.upper; 1 where a parameter has none), no oversubscription, and
// no bound from the channels of grouped sends. A rate that is only assumed
// bounds nothing: the hardware may be faster.
func (m *Machine) floorParams() [numParams]float64 {
	h := &m.Hardware
	u := m.upper(m.prior())
	var x [numParams]float64
	for k := range x {
		x[k] = 1
	}
	// A channel of grouped sends is NCCL's software, whose rate bounds
	// nothing the hardware states.
	x[parIntraBW], x[parNICBW], x[parChannel] = math.Inf(1), math.Inf(1), math.Inf(1)
	if !h.assumedLinks() && h.given(h.Sources.LinkBW) {
		x[parIntraBW] = u[parIntraBW]
	}
	if h.given(h.Sources.NICBW) {
		x[parNICBW] = u[parNICBW]
	}
	x[parLL], x[parLL128] = u[parLL], u[parLL128]
	x[parFabric] = 0
	return x
}

// floor returns the least time the hardware allows t, its bytes over each
// level at the parameters x of floorParams, without latency or launch. The
// interval's low end stops at it.
func floor(t *term, x *[numParams]float64) float64 {
	_, _, nvlink, network := t.parts(x)
	return max(nvlink, network)
}

// bounds returns ln(Low/Time) and ln(High/Time) of the interval of a call
// that runs protocol p, whose prediction has variance u from the parameters
// the tables leave unidentified and net from the network's latency where
// they do not measure it (each faster, slower: unidentified,
// unmeasuredNetwork), nic on its slower side from the NICs' bandwidth
// where they do not identify it (unmeasuredNICs), departs from the tables
// by d, and has variance peer from its network peers beyond the tables'
// (faster, slower: peersBeyond). A side that the bias moves past the
// prediction ends at it (interval).
func (s *spread) bounds(p nccl.Protocol, u, net [2]float64, nic float64, d departure, peer [2]float64) (lo, hi float64) {
	bias, v := s.at(p)
	faster, slower := d.variance()
	faster, slower = faster+peer[0]+u[0], slower+peer[1]+u[1]+nic
	if !s.network {
		faster, slower = faster+net[0], slower+net[1]
	}
	return min(bias-z80*math.Sqrt(v+faster), -repeatSpread), max(bias+z80*math.Sqrt(v+slower), repeatSpread)
}

// misfits says, one note a table, where the machine misses a calibration
// table beyond what an 80% interval allows: more than half of the table's
// points outside the intervals the machine gives for the table's own query,
// or a median error larger than the intervals' median width, both in logs
// and the error from each interval's centre, √(Low·High), or a point
// misfitFactor times or more off its prediction, inside its interval or
// not (a form that cannot follow the table there, whatever its other
// points do: GKE's A3 High AllGather over TCPX, flat at 1 ms from 1 to 16
// MiB, fitted 72.5 µs at 1 MiB as the catalog's a3-highgpu-8g; Azure's
// AKS AllReduce over IPoIB sockets, 3.2 times its prediction from 128 MiB
// to 8 GiB inside intervals 5 times wide). The note names the table, the
// share of its points outside, and its worst point: the point farthest off
// its prediction where one is misfitFactor times off or more, else the
// point farthest from its interval's centre. It records every point in m.own (slowNear,
// missesNear) but a tuner plugin's table's.
func (m *Machine) misfits(tables []Table) []string {
	var out []string
	for i := range tables {
		t := &tables[i]
		ps, err := m.predictTable(t)
		if err != nil || len(ps) == 0 {
			continue // Calibrate modelled every point: it does not fail here
		}
		outside, worst, far := 0, 0, -1
		own, plugin := ncclOwn(t, m.TunerExclusions()), t.Evidence.TunerPlugin.Known()
		errs, widths := make([]float64, len(ps)), make([]float64, len(ps))
		off := func(j int) float64 { return Gap(t.Points[j].Time / ps[j].Time) }
		for j, p := range ps {
			if !p.Holds(t.Points[j].Time) {
				outside++
			}
			if off(j) >= misfitFactor && (far < 0 || off(j) > off(far)) {
				far = j
			}
			// Grouped sends run outside NCCL's algorithms (p2p): how far
			// the model misses them says nothing of a collective's ring or
			// tree on the same protocol (slowNear). A tuner plugin's table
			// ran the plugin's choices, which the model prices as NCCL's.
			if pr, err := commmodel.ParseProtocol(p.Protocol); err == nil && !grouped(t.Collective) && !plugin {
				fastest := t.Points[j].Time
				if in := t.Points[j].InPlace; in > 0 {
					fastest = min(fastest, in)
				}
				m.own[pr] = append(m.own[pr], ownPoint{p.Size, fastest, t.Points[j].Time / p.Time, p.Algorithm, t.Collective, t.Ranks(), t.PerNode, own, p.Holds(t.Points[j].Time)})
			}
			errs[j] = math.Abs(math.Log(t.Points[j].Time / math.Sqrt(p.Low*p.High)))
			widths[j] = math.Log(p.High / p.Low)
			if errs[j] > errs[worst] {
				worst = j
			}
		}
		if 2*outside <= len(ps) && fit.Median(errs) <= fit.Median(widths) && far < 0 {
			continue
		}
		if far >= 0 {
			worst = far
		}
		p, meas := ps[worst], t.Points[worst].Time
		beyond := "beyond its 80% interval"
		if p.Holds(meas) {
			beyond = "by a factor its 80% interval holds only by its width"
		}
		out = append(out, fmt.Sprintf("%s (%v on %d x %d): the calibration misses its own table %s, %d of %d points outside it; worst %s predicted against %s measured at %s: %.1fx",
			t.Name, t.Collective, t.Nodes, t.PerNode, beyond, outside, len(ps), units.FormatDuration(p.Time), units.FormatDuration(meas),
			units.FormatSize(p.Size), Gap(meas/p.Time)))
	}
	return out
}

// misfitFactor is how far off its prediction one point of a calibration
// table, inside its interval or not, must be for misfits to name the table
// whatever its other points do.
const misfitFactor = 3

// NetworkSlower and NetworkFaster are the standard deviations of the log
// of the network's latency (inter_step_latency) about its prior, above and
// below, where no table crossed nodes to measure it: the root mean square
// of ln(fitted/prior) over the public multi-node logs' smallest sizes whose
// network is slower than the prior, and over those faster
// (TestNetworkSpread measures them: EFA, GCP's TCPXO and an RCCL RoCE
// cluster are 11 to 16 times the prior, the last RCCL's figure;
// InfiniBand, Slingshot, RoCE on OCI and Pollara and sockets within about
// 2.1 times of it).
const (
	NetworkSlower = 1.73
	NetworkFaster = 0.33
)

// NICSlower is the standard deviation of the log of the NICs' bandwidth
// (nic_bw) below its prior, the line rate, where no table identifies it:
// the root mean square of ln(fitted/line rate) over the public multi-node
// AllReduce tables whose sources document the NICs (TestNICSpread measures
// it: cluster01's InfiniBand, OCI's RoCE, A3 Mega's TCPXO and p5's EFA at
// the line rate; ABCI's InfiniBand, p4d's EFA and Alps' Slingshot at 0.6
// to 0.9 of it; nccl-tests#290's NDR cluster at 0.24 to 0.34 and p3dn's
// EFA under NCCL 2.6 at 0.22). The line rate bounds the faster side.
const NICSlower = 0.52
