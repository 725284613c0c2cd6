package predict

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/internal/words"
)

// FitMargin is how much lower the held-out error of one description must
// be than another's for FitNICs to tell them apart: a fifth, so that
// tables which fit several descriptions about as well keep the assumption
// where it is one of them (and the guess that names its flag).
const FitMargin = 0.2

// FitNICs returns h with its NICs per node chosen by the held-out fit of
// the tables where nothing gave them (their source is assumed) and the
// tables can tell the counts apart: at least two tables across nodes at
// each of two numbers of GPUs a node or more, whose network bandwidth per
// GPU differs with the NICs (a node of g GPUs moves min(g, NICs) NICs'
// worth). One table of a shape is one run, whose network may differ from
// the others' for reasons of its own (a public pair of runs, one over
// sockets and one over RoCE, would choose one NIC for a node of 2 GPUs).
// Every count from 1 up to the most GPUs a node, by doublings and that
// most, is calibrated on the tables and scored by the median over the
// tables across nodes, which alone the count moves, of their
// leave-one-table-out errors (Machine.LOO; acrossMedian), or passed over
// where its own fit already misses those tables by more than the assumed
// count does held out. (Over every table, a machine of many one-node
// tables would choose by their median, which the count hardly moves:
// AICR's B200 tables with their SHARP runs chose one NIC a host by it,
// under which their 2 x 8 AllGather was 4.4 times too slow.)
// The counts whose error is within FitMargin of the lowest fit the tables
// alike; if the assumed count is not among them, the one of them nearest to
// it (in doublings) is taken, with the source SourceFitted. The note says
// what was chosen, or that the assumption stands, and how every count fits;
// it is "" where nothing was tried. A calibration that fails leaves the
// assumption too: Calibrate says why where it is called with it.
func (h Hardware) FitNICs(tables []Table) (Hardware, string) {
	if h.given(h.Sources.NICs) {
		return h, ""
	}
	across := map[int]int{} // tables across nodes by GPUs a node
	most := 0
	for i := range tables {
		most = max(most, tables[i].PerNode)
		if tables[i].Nodes > 1 {
			across[tables[i].PerNode]++
		}
	}
	var perNode []int
	for g, n := range across {
		if n >= 2 {
			perNode = append(perNode, g)
		}
	}
	if len(perNode) < 2 {
		return h, ""
	}
	assumed := h.NICs
	if assumed == 0 || assumed > most {
		assumed = most
	}
	var counts []int
	for c := 1; c < most; c *= 2 {
		counts = append(counts, c)
	}
	counts = append(counts, most)
	if !slices.Contains(counts, assumed) {
		counts = append(counts, assumed)
	}
	// A count whose own fit misses the tables by more than the assumed
	// count misses them held out cannot fit them as well held out (a
	// refit without a table fits it no better than the fit with it):
	// its held-out error is not computed, and its fit's stands as a
	// lower bound. The leave-one-out refits of a count far from the
	// tables are the slow ones.
	fitErrs := make([]float64, len(counts))
	at := slices.Index(counts, assumed)
	for i, c := range counts {
		if i == at {
			continue // held out below
		}
		hc := h
		hc.NICs = c
		m, err := Calibrate(hc, tables, &Settings{NoIntervals: true})
		if err != nil {
			return h, ""
		}
		fitErrs[i] = acrossMedian(tables, m.tableErrors(tables))
	}
	errs := make([]float64, len(counts))
	bound := make([]bool, len(counts))
	loo := func(i int) bool {
		hc := h
		hc.NICs = counts[i]
		m, err := Calibrate(hc, tables, nil)
		if err != nil {
			return false
		}
		errs[i] = acrossMedian(tables, m.LOO)
		return !math.IsNaN(errs[i])
	}
	if !loo(at) {
		return h, ""
	}
	best := at
	for i := range counts {
		if i == at {
			continue
		}
		if fitErrs[i] >= errs[at] {
			errs[i], bound[i] = fitErrs[i], true
			continue
		}
		if !loo(i) {
			return h, ""
		}
		if errs[i] < errs[best] {
			best = i
		}
	}
	alike := func(i int) bool { return !bound[i] && errs[i] <= errs[best]/(1-FitMargin) }
	pick := at
	if !alike(at) {
		pick = best
		for i := range counts {
			if alike(i) && math.Abs(math.Log2(float64(counts[i])/float64(assumed))) < math.Abs(math.Log2(float64(counts[pick])/float64(assumed))) {
				pick = i
			}
		}
	}
	var others []string
	for i, c := range counts {
		switch {
		case i == pick:
		case bound[i]:
			others = append(others, fmt.Sprintf("over %.1f%% with %d (its own fit's error)", 100*errs[i], c))
		default:
			others = append(others, fmt.Sprintf("%.1f%% with %d", 100*errs[i], c))
		}
	}
	slices.Sort(perNode)
	fitOf := fmt.Sprintf("the held-out fit of the tables across nodes of %s GPUs a node", joinInts(perNode))
	against := fmt.Sprintf("their leave-one-table-out median error %.1f%%, against %s", 100*errs[pick], strings.Join(others, ", "))
	if pick == at {
		fact := "one NIC per GPU"
		if h.NICs > 0 {
			fact = fmt.Sprintf("nics_per_node = %d", h.NICs)
		}
		return h, fmt.Sprintf("%s stays assumed: %s fits it as well as any count from 1 to %d, the most GPUs a node of any table (%s); -hw nics=N settles it",
			fact, fitOf, most, against)
	}
	note := fmt.Sprintf("nics_per_node = %d is chosen by %s: %s; -hw nics=N overrides it", counts[pick], fitOf, against)
	h.NICs, h.Sources.NICs = counts[pick], SourceFitted
	return h, note
}

// acrossMedian returns the median of errs, one per table of tables (a
// fit's or its leave-one-out refits'), over the tables across nodes; NaN
// where errs has none of them (no refits, or a table not predicted).
func acrossMedian(tables []Table, errs []float64) float64 {
	if len(errs) != len(tables) {
		return math.NaN()
	}
	var e []float64
	for i := range tables {
		if tables[i].Nodes > 1 {
			e = append(e, errs[i])
		}
	}
	if len(e) == 0 {
		return math.NaN()
	}
	return fit.Median(e)
}

// FitCeiling is the most leave-one-table-out median error a description
// may have for FitSwitches to choose it: 20%, what the held-out targets
// allow over all sizes. Where every description misses the tables by more,
// they do not say which is right, only that the model misses them.
const FitCeiling = 0.2

// FitFloor is how much lower, besides FitMargin, an alternative's held-out
// error must be for FitSwitches to choose it: 2 points. Below it, two
// descriptions differ by less than repeated runs of a size differ (the
// paired logs' in-place and out-of-place times, 0.3% to 1.2% apart at
// their median and 3% to 8% at their 90th percentile, machine by machine).
const FitFloor = 0.02

// switchKeys are the Describe keys of the facts FitSwitches chooses: NVLS
// on or off, the NICs beside the GPUs or behind the CPU, a switch or a
// mesh, and the NICs' rate. The NICs' count has FitNICs. The CPU vendor
// sets the prior of a parameter the calibration fits (the network's
// latency), which the tables settle themselves; the NICs' rate sets
// nic_bw's prior too, but also the algorithms NCCL's tuner picks, which no
// fit moves.
var switchKeys = []string{"nvls", "nic-path", "fabric", "nic-bw"}

// slowerNICs returns h with its NICs' rate, where assumed and some table
// crosses nodes, at a half, a quarter and an eighth of it, down to
// minNICRate: a node's network slower than the GPU's generation assumes
// (fewer NICs than GPUs, or slower ones), for FitSwitches.
func (h Hardware) slowerNICs(tables []Table) []alternative {
	if h.given(h.Sources.NICBW) || !slices.ContainsFunc(tables, func(t Table) bool { return t.Nodes > 1 }) {
		return nil
	}
	var alts []alternative
	for _, f := range []float64{2, 4, 8} {
		if r := h.nicBW() / f; r >= minNICRate {
			a := h
			a.NICBW = r
			alts = append(alts, alternative{[]string{"nic-bw"}, formatBitRate(r), a})
		}
	}
	return alts
}

// minNICRate is the slowest NIC rate slowerNICs tries, bytes a second:
// 10 Gb/s Ethernet.
const minNICRate = 10e9 / 8

// FitSwitches returns h with each assumed either-or fact that the tables
// settle chosen by their held-out fit, with a note for each choice. The
// alternatives are those Guesses tries for the facts of switchKeys. With
// three tables or more (so that each leave-one-out refit has two), the
// description as assumed and each alternative are calibrated on the tables
// and scored by their leave-one-table-out median error (Machine.LOOMedian);
// an alternative is taken, with the source SourceFitted, where its error is
// at most FitCeiling, and lower than the description's so far by more than
// FitMargin of it and by more than FitFloor. The best such alternative is
// taken first, and the others are tried again against it. An alternative
// whose own fit misses the tables by more than it could be taken at is
// passed over without its refits, and so is a NIC rate whose fit holds
// nic_bw at that line rate while the tables would have it above twice it,
// the rate tried before (Alps' three GH200 tables took 25 Gb/s by their
// median error over all sizes, though their fit under it would put nic_bw
// at 96.7 Gb/s, and then predicted their own 2 x 4 at 128 MiB five times
// slow; nccl-tests#290's H100 tables, which fit 7.44 GB/s a NIC, keep 50
// Gb/s, 6.25 GB/s).
func (h Hardware) FitSwitches(tables []Table) (Hardware, []string) {
	if len(tables) < 3 {
		return h, nil
	}
	m, err := Calibrate(h, tables, nil)
	if err != nil || math.IsNaN(m.LOOMedian) {
		return h, nil
	}
	cur := m.LOOMedian
	var notes []string
	for {
		var best alternative
		bestErr := math.Inf(1)
		for _, a := range append(h.alternatives(tables, 0, false), h.slowerNICs(tables)...) {
			if len(a.keys) != 1 || !slices.Contains(switchKeys, a.keys[0]) {
				continue
			}
			need := min(FitCeiling, cur*(1-FitMargin), cur-FitFloor, bestErr)
			if !(need > 0) {
				continue
			}
			am, err := Calibrate(a.hw, tables, &Settings{NoIntervals: true})
			if err != nil || !(am.fitError(tables) < need) {
				continue
			}
			if a.keys[0] == "nic-bw" && am.held[parNICBW] && am.free[parNICBW] > 2*am.x[parNICBW] {
				// The tables move more than twice this line rate, the
				// next rate tried: they speak against it, whatever the
				// median error of the many sizes it does not bound.
				continue
			}
			if am, err = Calibrate(a.hw, tables, nil); err == nil && am.LOOMedian < need {
				best, bestErr = a, am.LOOMedian
			}
		}
		if best.keys == nil {
			return h, notes
		}
		key := best.keys[0]
		name, was := factOf(&h, key)
		notes = append(notes, fmt.Sprintf("%s = %s is chosen by the held-out fit of the %d tables: leave-one-table-out median error %.1f%%, against %.1f%% with %s = %s; -hw %s=%s overrides it",
			name, best.value, len(tables), 100*bestErr, 100*cur, name, was, key, hintValue(key)))
		nvls := h.NVLS
		h, cur = best.hw, bestErr
		h.setSource(key, SourceFitted)
		if h.NVLS != nvls {
			h.setSource("nvls", SourceFitted)
		}
	}
}

// factOf returns the name and value of the fact of h that the Describe key
// key sets.
func factOf(h *Hardware, key string) (name, value string) {
	for _, f := range h.Facts() {
		if f.Key == key {
			return f.Name, f.Value
		}
	}
	return key, ""
}

// joinInts is "1, 2 and 8".
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return words.And(s)
}

// fitError is the median over the tables of each table's median error
// |predicted/measured − 1| at m's fit (tableErrors): Machine.LOOMedian's
// measure, with every table in the fit.
func (m *Machine) fitError(tables []Table) float64 {
	e := m.tableErrors(tables)
	if e == nil {
		return math.NaN()
	}
	return fit.Median(e)
}

// tableErrors returns each table's median error |predicted/measured − 1|
// at m's fit, or nil where a table cannot be predicted.
func (m *Machine) tableErrors(tables []Table) []float64 {
	per := make([]float64, 0, len(tables))
	for i := range tables {
		t := &tables[i]
		ps, err := m.predictTable(t)
		if err != nil {
			return nil
		}
		e := make([]float64, len(ps))
		for j, p := range ps {
			e[j] = math.Abs(p.Time/t.Points[j].Time - 1)
		}
		per = append(per, fit.Median(e))
	}
	return per
}

// hostGPUsSource is the source of n, the tables' HostGPUs: the log where
// a table's Rank lines place every rank of a run of n GPUs a node or name
// a device of index n−1, else NCCL's debug lines where a table's
// communicator line gives n ranks on its node ("localRanks 8", outside a
// multi-node NVLink domain, where a node is the domain), else the user
// where a table of n GPUs a node has its shape from the user
// (Table.ShapeFrom), else assumed (the predicted run's hosts taken for a
// log of no Rank lines).
func hostGPUsSource(tables []Table, n int) Source {
	src := SourceAssumed
	for i := range tables {
		t := &tables[i]
		if t.PerNode == n && len(t.Evidence.Devices) >= t.Ranks() {
			return SourceLog
		}
		for _, d := range t.Evidence.Devices {
			if d.Device+1 == n {
				return SourceLog
			}
		}
		switch e := &t.Evidence; {
		case e.LocalRanks.Known() && e.LocalRanks.Value == n && !e.MNNVL.Value:
			src = SourceNCCLDebug
		case t.PerNode == n && t.ShapeFrom.orUser() == SourceUser && src == SourceAssumed:
			src = SourceUser
		}
	}
	return src
}

// FromTables returns h with what the tables say of the machine, for runs
// of perHost GPUs a host (0 for the tables' own): the facts their logs
// print, the GPUs a host holds at least among them (WithEvidence), the fabric
// of a host of that many GPUs (ForHosts), the NICs a node that the tables
// across nodes fit best (FitNICs) and the fabric they settle
// (FitSwitches). It is what commlab's commands make of a user's logs, and
// the notes say, one a line, what was read, inferred or chosen, for the
// user to check.
func (h Hardware) FromTables(tables []Table, perHost int) (Hardware, []string) {
	tablesHost := HostGPUs(tables)
	hw, notes := h.WithEvidence(tables)
	hw = hw.atLeast(perHost, SourceUser) // the runs the caller predicts
	perHost = max(perHost, tablesHost)
	host := hw.ForHosts(perHost)
	switch {
	case host.Fabric != hw.Fabric && hw.Sources.Fabric == SourceLog:
		notes = append(notes, fmt.Sprintf("an NVLink bridge joins pairs of cards: on %d GPUs a node the rings cross PCIe between the pairs, which no table ran, and the prediction takes PCIe", perHost))
	case len(tables) > 0 && perHost > tablesHost && host.Fabric != hw.ForHosts(tablesHost).Fabric:
		// The run's hosts are not the tables': their fabric is another.
		notes = append(notes, fmt.Sprintf("%d GPUs a node, more than the tables' %d, take a host of at least %[1]d, whose fabric is taken as %[3]s, which no table ran; -hw fabric=%[4]s keeps the tables'",
			perHost, tablesHost, host.Fabric, hw.ForHosts(tablesHost).Fabric))
	}
	hw, fitted := host.FitNICs(tables)
	if fitted != "" {
		notes = append(notes, fitted)
	}
	hw, chosen := hw.FitSwitches(tables)
	return hw, append(notes, chosen...)
}
