package nccltests

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/internal/words"
)

// maxRanks bounds the rank counts the reader solves for.
const maxRanks = 1 << 20

// ratioBounds is the interval that busbw/algbw must lie in given every cell
// of a table. A printed value v with d decimals stands for [v-h, v+h],
// h = 0.5·10^-d; algbw is also bounded by size/time, whose time column has
// more significant digits than the algbw column at small sizes:
//
//	algbw ∈ [a-hₐ, a+hₐ] ∩ [S/((t+hₜ)·1e3), S/((t-hₜ)·1e3)]   (S in B, t in us, GB/s)
//	busbw/algbw ∈ [(b-h_b)/algbw_hi, (b+h_b)/algbw_lo]
//
// nccl-tests computes busbw = algbw·factor exactly, so the intersection of
// all cells' intervals holds the factor.
type ratioBounds struct {
	lo, hi   float64 // intersection so far
	n        int     // cells intersected
	bestLo   float64 // the narrowest single cell, the fallback when the
	bestHi   float64 // intersection is empty (an edited or corrupted table)
	bestRel  float64
	conflict bool
}

// add intersects the interval of one cell: res as read, ts, as and bs the
// time, algbw and busbw fields as printed.
func (r *ratioBounds) add(size int64, res Result, ts, as, bs string) {
	if res.Time <= 0 {
		return
	}
	b, hb := res.BusBW/1e9, halfUnit(bs) // back to GB/s
	alo, ahi := algBWBounds(size, res, ts, as)
	if !(alo > 0) || alo > ahi {
		return
	}
	lo, hi := max(b-hb, 0)/ahi, (b+hb)/alo
	if rel := (hi - lo) / (hi + lo); r.n == 0 || rel < r.bestRel {
		r.bestLo, r.bestHi, r.bestRel = lo, hi, rel
	}
	if r.n == 0 {
		r.lo, r.hi = lo, hi
	} else {
		r.lo, r.hi = max(r.lo, lo), min(r.hi, hi)
	}
	r.n++
}

// algBWBounds is the interval algbw lies in given its printed digits, as,
// and those of the time, ts, that it is size over (see ratioBounds), in
// GB/s: empty (lo > hi) where the row's cells contradict each other.
// res.Time must be above 0.
func algBWBounds(size int64, res Result, ts, as string) (lo, hi float64) {
	t, a := res.Time*1e6, res.AlgBW/1e9 // back to us and GB/s
	ht, ha := halfUnit(ts), halfUnit(as)
	s := float64(size)
	lo, hi = max(a-ha, s/((t+ht)*1e3)), a+ha
	if t > ht {
		hi = min(hi, s/((t-ht)*1e3))
	}
	return lo, hi
}

// bounds returns the interval, widened by a relative 1e-9 for rounding; ok
// is false when no cell bounded it. An empty intersection falls back to the
// narrowest cell widened by 1% and sets conflict.
func (r *ratioBounds) bounds() (lo, hi float64, ok bool) {
	if r.n == 0 {
		return 0, 0, false
	}
	if r.lo > r.hi*(1+1e-9) {
		r.conflict = true
		return r.bestLo * 0.99, r.bestHi * 1.01, true
	}
	return r.lo * (1 - 1e-9), r.hi * (1 + 1e-9), true
}

// halfUnit is half a unit in the last printed digit of a number:
// "53.47" -> 0.005, "16035" -> 0.5, "1.2e+05" -> 5e3.
func halfUnit(s string) float64 {
	exp, dec, dot := 0, 0, -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			dot = i
		case 'e', 'E':
			exp, _ = strconv.Atoi(s[i+1:])
			s = s[:i]
		}
	}
	if dot >= 0 {
		dec = len(s) - dot - 1
	}
	if e := exp - dec; e >= -len(pow10) && e < 0 {
		return 0.5 / pow10[-e-1]
	} else if e >= 0 && e < len(pow10) {
		return 0.5 * pow10[e] / 10
	}
	return 0.5 * math.Pow(10, float64(exp-dec))
}

// pow10[i] = 10^(i+1).
var pow10 = [...]float64{1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// countRatio tracks k = size/(count·type size) over a table's rows: the rank
// count for collectives with a per-rank count column, 1 for the others.
type countRatio struct {
	k     int64
	n     int
	mixed bool
}

// add takes a row of size bytes, above 0, and count elements of type typ;
// a row without a count or of a type it does not know tells nothing.
func (c *countRatio) add(size, count int64, typ string) {
	ts := typeSize(typ)
	if count <= 0 || ts == 0 {
		return
	}
	k, whole := perCount(size, count, ts)
	if !whole {
		c.mixed = true
		return
	}
	if c.n == 0 {
		c.k = k
	} else if k != c.k {
		c.mixed = true
	}
	c.n++
}

func (c *countRatio) value() (int, bool) {
	if c.n == 0 || c.mixed || c.k < 1 || c.k > maxRanks {
		return 0, false
	}
	return int(c.k), true
}

// checkColumn tracks what a table's #wrong columns say of the in-place
// check: rows whose in-place column prints "N/A" while the out-of-place one
// prints a count (the test checks only out-of-place results, as AllToAll
// and SendRecv do), and rows whose in-place column prints a count.
type checkColumn struct {
	unchecked, checked int
}

func (c *checkColumn) add(outOfPlace, inPlace string) {
	switch {
	case inPlace == "N/A" && outOfPlace != "" && outOfPlace != "N/A":
		c.unchecked++
	case inPlace != "" && inPlace != "N/A":
		c.checked++
	}
}

// value reports whether the table's tests leave their in-place results
// unchecked; known is false when no row tells, or rows disagree.
func (c checkColumn) value() (unchecked, known bool) {
	if (c.unchecked > 0) == (c.checked > 0) {
		return false, false
	}
	return c.unchecked > 0, true
}

// typeSize is the size in bytes of an nccl-tests data type name, 0 if unknown.
func typeSize(t string) int64 {
	switch t {
	case "int8", "uint8", "char", "fp8_e4m3", "fp8_e5m2", "f8e4m3", "f8e5m2":
		return 1
	case "half", "float16", "fp16", "bfloat16", "bf16":
		return 2
	case "float", "float32", "int32", "uint32", "int":
		return 4
	case "double", "float64", "int64", "uint64":
		return 8
	}
	return 0
}

// fit reports whether the table of s fits op o over n ranks (n = 0:
// unknown) and which rank counts [nlo, nhi] it allows (0, 0 when it does
// not bound them), without the evidence relaxations[s.relax] drops and,
// when s.noCheck, without the #wrong columns.
func (s *testState) fit(o op, n int) (nlo, nhi int, ok bool) {
	drop := relaxations[s.relax].drop
	if drop&dropLabels == 0 && (s.redopCol && o.reduces != s.reduces || s.rootCol && o.rooted != s.rooted) {
		return 0, 0, false
	}
	if drop&dropLabels == 0 && s.lay != nil {
		switch {
		case s.csv == nil && s.lay.separate() && (o.noRedop == s.redopCol || o.blankRedop != s.blankRedop):
			// The columns of one test before 2022 (rccl-tests' CSV has
			// no count or root column, and a redop in every test's rows).
			return 0, 0, false
		case !s.lay.header && s.lay.redop < 0 && (o.reduces || o.rooted):
			// Rows without a header whose fields leave no room for a
			// redop (11 or 7): a test whose rows print one, or a root,
			// did not print them.
			return 0, 0, false
		}
	}
	if u, known := s.check.value(); drop&dropCheck == 0 && !s.noCheck && known && u != o.unchecked {
		return 0, 0, false
	}
	k, haveK := s.countRatio.value()
	if haveK && drop&dropCount == 0 {
		switch {
		case !o.perRank && k != 1:
			return 0, 0, false
		case o.perRank && n > 0 && k != n:
			return 0, 0, false
		case o.perRank:
			n = k
		}
	}
	lo, hi, haveRatio := s.ratio.bounds()
	if n > 0 {
		if haveRatio && !within(o.bus.BusFactor(n), lo, hi) {
			return 0, 0, false
		}
		return n, n, true
	}
	if !haveRatio {
		return 0, 0, true
	}
	nlo, nhi = solveRanks(o.bus, lo, hi)
	if nlo > nhi {
		return 0, 0, false
	}
	if nhi == maxRanks {
		nhi = 0 // unbounded above
	}
	return nlo, nhi, true
}

func within(x, lo, hi float64) bool { return x >= lo && x <= hi }

// solveRanks returns the rank counts n in [1, maxRanks] with
// c.BusFactor(n) in [lo, hi]; nlo > nhi when there are none. Every bus
// factor is constant or increasing in n.
func solveRanks(c commmodel.Collective, lo, hi float64) (nlo, nhi int) {
	f := c.BusFactor
	if f(1) == f(maxRanks) {
		if within(f(1), lo, hi) {
			return 1, maxRanks
		}
		return 1, 0
	}
	nlo = 1 + sort.Search(maxRanks, func(i int) bool { return f(i+1) >= lo })
	nhi = sort.Search(maxRanks, func(i int) bool { return f(i+1) > hi })
	return nlo, nhi
}

// infer finishes test s: source, system, ranks, nodes and collective. want
// is the op of the collective Options name, nil for none.
func (p *parser) infer(s *testState, want *op) {
	t := s.t
	t.Source = p.name
	p.splitGroups(s)
	if len(s.gpus) == 1 {
		t.System = s.gpus[0]
	}
	p.inferCounts(s)
	t.Evidence = s.debug.evidence()
	if a, b, mixed := s.debug.gdrConflict(); mixed {
		p.problem(b.gdr.Line, 0, "%w: %s says GPUDirect RDMA %s (line %d), %s %s: GPUDirect RDMA is left unknown",
			ErrInconsistent, hostName(a.host), onOff(a.gdr.Value), a.gdr.Line, hostName(b.host), onOff(b.gdr.Value))
	}
	if v, w, ok := t.Evidence.releases(); ok && v != w {
		lib := "NCCL"
		if t.Evidence.RCCL.Value {
			lib = "RCCL"
		}
		p.problem(max(t.Evidence.NCCLVersion.Line, t.Evidence.Library.Line), 0, "%w: %s's version line gives %v (line %d), the header's %s-library %v (line %d), where one process loads one library: the lines are of two runs; %[2]s's line is taken",
			ErrInconsistent, lib, v, t.Evidence.NCCLVersion.Line, strings.ToLower(lib), w, t.Evidence.Library.Line)
	}
	if a, b, na, nb, mixed := s.debug.listConflict(); mixed {
		why := "each lists its own host's ports, and a host that lists fewer may have one down (ibstat on it shows each port's state)"
		if a.host != "" && a.host == b.host {
			why = "each lists the devices it may use, and processes of one host that list different ones were given different NCCL_IB_HCA (or devices)"
		}
		count := "the NIC count is left unknown"
		if c := t.Evidence.NICCount; c.Known() {
			count = fmt.Sprintf("the NIC count is the %d the channel lines name (line %d)", c.Value, c.Line)
		}
		p.problem(b.line, 0, "%w: NCCL's processes list different NICs, %d on %s and %d on %s: %s; NCCL's rings cross every host's NICs, and %s",
			ErrInconsistent, na, a.where(), nb, b.where(), why, count)
	}
	// One algorithm (protocol) in the TUNING lines of calls of as many
	// sizes as the table's rows is what NCCL ran at every size; lines of
	// fewer sizes (a log that holds some calls' lines) say it of those
	// calls only.
	sized := 0
	for _, r := range t.Rows {
		if r.Count != 0 || r.Size > 0 {
			sized++
		}
	}
	every := sized > 0 && len(s.ranBytes) >= sized
	for k, line := range s.ranAlgo {
		if len(s.ranAlgo) == 1 && every {
			t.Evidence.RanAlgo.set(k, line)
		}
	}
	for k, line := range s.ranProto {
		if len(s.ranProto) == 1 && every {
			t.Evidence.RanProto.set(k, line)
		}
	}
	t.Evidence.Devices = s.devices
	if len(s.devices) == len(s.rankLines) && len(s.devices) == t.Ranks {
		t.Evidence.gpusPerHost() // every rank listed once
	}
	if chosen, known := p.inferOp(s, want); known {
		p.checkOp(s, chosen)
	}
	p.csvLayout(s)
	p.inferProcesses(s)
	p.checkComm(t)
	p.checkMNNVL(t)
}

// csvLayout sets the process layout of a test read from rccl-tests' CSV
// (s.csv): one GPU a process is one thread of one GPU; more are some
// threads of some GPUs each, which the CSV does not split (a warning).
func (p *parser) csvLayout(s *testState) {
	c, t := s.csv, s.t
	switch {
	case c == nil || c.perProcess == 0:
	case c.perProcess == 1:
		t.Threads, t.GPUsPerThread, t.ProcessGPUs = 1, 1, 1
	default:
		t.Processes, t.ProcessGPUs = c.processes, c.perProcess
		p.problem(c.line, 0, "%w: rccl-tests' output gives %d GPUs a process (its %s) but not how many threads drive them (-t) and how many GPUs each (-g): taken as one thread of %d GPUs; give threads=T or g=G where they differ, and the other makes up the %[2]d",
			unsplit{}, c.perProcess, c.column, c.perProcess)
		t.Threads, t.GPUsPerThread = 1, c.perProcess
		if c.processes == 1 && t.Nodes == 0 {
			t.Nodes, t.NodesFrom = 1, FromLayout
		}
	}
}

// checkComm reports where NCCL's own count of the communicator ("comm
// 0x55d3 rank 0 nRanks 16 nNodes 2", or an "Init COMPLETE" line's nranks:
// Evidence.Ranks and Nodes) differs
// from the test's ranks or nodes (from the Rank lines or the overrides): a
// log of two runs pasted together, an edited one, or a split communicator
// (NCCL_TESTS_SPLIT_MASK) whose table is not the whole job's.
func (p *parser) checkComm(t *Test) {
	e := &t.Evidence
	if e.Ranks.Line > 0 && t.Ranks > 0 && e.Ranks.Value != t.Ranks {
		p.problem(e.Ranks.Line, 0, "%w: NCCL's communicator has %d ranks (its nRanks or nranks), the test %d (%s)", ErrInconsistent, e.Ranks.Value, t.Ranks, t.RanksFrom)
	}
	// With MNNVL NCCL counts a node by its NVLink clique (init.cc: nNodes
	// counts the ranks' first ring ranks): 2 trays of one GB200 rack are
	// "nNodes 1 localRanks 8 MNNVL 1", of two racks "nNodes 2".
	if e.Nodes.Line > 0 && t.Nodes > 0 && e.Nodes.Value != t.Nodes && !e.MNNVL.Value {
		p.problem(e.Nodes.Line, 0, "%w: NCCL's communicator spans %d nodes (nNodes), the test %d (%s)", ErrInconsistent, e.Nodes.Value, t.Nodes, t.NodesFrom)
	}
}

// checkMNNVL reports a comm line's MNNVL 1 where the environment keeps
// NCCL from setting MNNVL up (Evidence.MNNVLOff): NCCL_MNNVL_ENABLE=0 in
// any release, or P2P off in a release known to be 2.27.3 or later (in
// an earlier one, or one the log does not name, P2P off leaves MNNVL
// alone). NCCL prints the comm line's MNNVL from comm->MNNVL, which
// only ncclMnnvlCheck sets (src/mnnvl.cc:95, init.cc:1422 at 5067397c),
// so the two lines are not one run's as NCCL printed them. MNNVL is read
// as the comm line says.
func (p *parser) checkMNNVL(t *Test) {
	e := &t.Evidence
	if !e.MNNVL.Known() || !e.MNNVL.Value {
		return
	}
	release := e.Release()
	v, off := e.MNNVLOff(release)
	if !off || v.Name != "NCCL_MNNVL_ENABLE" && release == (nccl.Version{}) {
		return
	}
	from := ""
	if v.Name != "NCCL_MNNVL_ENABLE" {
		from = fmt.Sprintf(" %s, which tries MNNVL only where P2P is on,", release)
	}
	p.problem(e.MNNVL.Line, 0, "%w: the comm line says MNNVL 1, where %s=%s (line %d) keeps NCCL%s from setting MNNVL up: MNNVL is read as the comm line says",
		ErrInconsistent, v.Name, v.Value, v.Line, from)
}

// inferProcesses sets the process count of s: the distinct host and Pid
// pairs of its Rank lines when they list each of its ranks once, else the
// ranks over the header's threads and GPUs per thread (nccl-tests runs
// processes·threads·GPUs per thread ranks). Where both are known and
// differ, or the header's threads and GPUs do not divide the ranks, it
// reports ErrInconsistent and keeps the Rank lines' count.
func (p *parser) inferProcesses(s *testState) {
	t := s.t
	listed := t.Ranks > 0 && len(s.rankLines) == t.Ranks
	for r, k := range s.rankLines {
		listed = listed && r < t.Ranks && k == 1
	}
	if listed {
		t.Processes = len(s.procs)
	}
	if t.Ranks < 1 || t.Threads < 1 || t.GPUsPerThread < 1 {
		return
	}
	procs := t.Ranks / t.Threads / t.GPUsPerThread // from the header
	switch {
	case t.Ranks%t.Threads != 0 || t.Ranks/t.Threads%t.GPUsPerThread != 0:
		p.problem(t.Line, 0, "%w: %d ranks are not a whole number of processes of %d threads of %d GPUs (the header's nThread and nGpus)",
			ErrInconsistent, t.Ranks, t.Threads, t.GPUsPerThread)
	case !listed:
		t.Processes = procs
	case t.Processes != procs:
		p.problem(t.Line, 0, "%w: the Rank lines show %d processes (host and Pid), the header %d (%d ranks over nThread %d and nGpus %d)",
			ErrInconsistent, t.Processes, procs, t.Ranks, t.Threads, t.GPUsPerThread)
		return
	}
	if procs == 1 && t.Nodes == 0 {
		t.Nodes, t.NodesFrom = 1, FromLayout // a process runs on one host
	}
}

// splitGroups records the Rank lines of s that print their group. Where
// they name one, every line is the run's. Where they name several, the
// run was split: nccl-tests splits its processes by NCCL_TESTS_SPLIT into
// groups, each its own communicator, all run at once (MPI_Comm_split by
// the colour the Rank line prints as its Group, src/common.cu at
// nccl-tests a0b82b2); the table's bus bandwidth counts the ranks of rank
// 0's group (its nProcs, the split communicator's), and its times are the
// mean over every group's processes (Allreduce of the time over
// MPI_COMM_WORLD, divided by all of them). Rank 0's group's lines are kept,
// those of the others left out, with a warning (ErrSplit) at the first of
// them, and where the groups differ in size, ErrInconsistent too: the
// mean then mixes runs of different sizes. Without rank 0's line, the
// group of the lowest rank listed stands for it.
func (p *parser) splitGroups(s *testState) {
	if len(s.grouped) == 0 {
		return
	}
	sizes := map[int]int{}
	low := s.grouped[0]
	top, listed := 0, map[int]bool{} // the highest rank listed, and every one
	for _, r := range s.grouped {
		sizes[r.group]++
		if r.d.Rank < low.d.Rank {
			low = r
		}
		top, listed[r.d.Rank] = max(top, r.d.Rank), true
	}
	s.split = len(sizes) > 1
	first := 0 // the line of the first Rank line of another group
	for _, r := range s.grouped {
		if !s.split || r.group == low.group {
			s.addRank(r.d, r.hasPid)
		} else if first == 0 {
			first = r.d.Line
		}
	}
	if !s.split {
		return
	}
	whose := "rank 0's group"
	if low.d.Rank != 0 {
		whose = fmt.Sprintf("the group of rank %d, the lowest listed (no Rank line lists rank 0)", low.d.Rank)
	}
	// Lines missing (elided, or cut) leave the groups' sizes unknown.
	missing := len(listed) != top+1
	least := ""
	if missing {
		least = "at least "
	}
	kept := sizes[low.group]
	msg := fmt.Sprintf("the Rank lines name %d groups, which nccl-tests' NCCL_TESTS_SPLIT makes, each group its own communicator, all run at once: the table's bus bandwidth counts %sthe %s of %s, and its times are the mean over every group's processes; the %s of the other groups %s left out",
		len(sizes), least, words.Count(kept, "rank", "ranks"), whose, words.Count(len(s.grouped)-kept, "Rank line", "Rank lines"), words.Verb(len(s.grouped)-kept, "is", "are"))
	if missing {
		p.problem(first, 0, "%w: %s; the Rank lines list %d of ranks 0..%d, so the groups' sizes are not known", ErrSplit, msg, len(listed), top)
		return
	}
	counts := slices.Sorted(maps.Values(sizes))
	if counts[0] != counts[len(counts)-1] {
		var each []string
		for _, g := range slices.Sorted(maps.Keys(sizes)) {
			each = append(each, strconv.Itoa(sizes[g]))
		}
		p.problem(first, 0, "%w: %s; the groups differ in size (%s Rank lines), so the mean mixes runs of different sizes, which no model of one run holds: %w", ErrSplit, msg, strings.Join(each, ", "), ErrInconsistent)
		return
	}
	p.problem(first, 0, "%w: %s", ErrSplit, msg)
}

// inferCounts sets the rank and node counts of s from the overrides or the
// Rank lines, and reports Rank lines that repeat or skip ranks.
func (p *parser) inferCounts(s *testState) {
	t := s.t
	ranks := make([]int, 0, len(s.rankLines))
	for r := range s.rankLines {
		ranks = append(ranks, r)
	}
	sort.Ints(ranks)
	for _, r := range ranks {
		if k := s.rankLines[r]; k > 1 {
			p.problem(t.Line, 0, "%w: rank %d is listed %d times (an nccl-tests built without MPI runs one 1-rank test per process)", ErrInconsistent, r, k)
			break
		}
	}
	// Rank lines that skip ranks were elided by whoever posted the log
	// ("#  Rank 0", "#  Rank 1", "...", "#  Rank 63"): the highest rank
	// gives the count, and the hosts listed are only some of them. Those
	// of a split run's group skip the other groups' ranks: each of its
	// lines is one of the group's ranks.
	split := s.split
	elided := len(ranks) > 0 && !split && (ranks[len(ranks)-1]+1 > len(ranks) || p.opt.Ranks > len(ranks))
	switch {
	case elided && ranks[len(ranks)-1]+1 == len(ranks):
		// Every rank listed, and the override gives more.
		p.problem(t.Line, 0, "%w: the Rank lines list ranks 0..%d, and the ranks given are %d: those past %d are taken as %w, node count unknown; give the run's ranks (%d), or nodes=N as well",
			ErrInconsistent, len(ranks)-1, p.opt.Ranks, len(ranks)-1, ErrElided, len(ranks))
	case elided:
		p.problem(t.Line, 0, "%w: the Rank lines list %d of ranks 0..%d (%w): %d ranks, node count unknown",
			ErrInconsistent, len(ranks), ranks[len(ranks)-1], ErrElided, ranks[len(ranks)-1]+1)
	}
	switch {
	case p.opt.Ranks > 0:
		t.Ranks, t.RanksFrom = p.opt.Ranks, FromOverride
	case s.csv != nil && s.csv.ranks > 0:
		t.Ranks, t.RanksFrom = s.csv.ranks, FromColumns
	case split:
		t.Ranks, t.RanksFrom = len(ranks), FromRankLines
	case len(ranks) > 0:
		t.Ranks, t.RanksFrom = ranks[len(ranks)-1]+1, FromRankLines
	}
	switch {
	case p.opt.Nodes > 0:
		t.Nodes, t.NodesFrom = p.opt.Nodes, FromOverride
	case len(t.Hosts) > 0 && !elided:
		t.Nodes, t.NodesFrom = len(t.Hosts), FromHosts
	}
}

// inferOp sets the operation and collective of s: the override, the
// binary's name, or the ops whose table s's fits, with the least evidence
// dropped, and among collectives it fits alike the one the file's name
// names. It returns the op the table is then held to, known false when
// there is none, and reports a collective left to a guess.
func (p *parser) inferOp(s *testState, want *op) (chosen op, known bool) {
	t := s.t
	switch {
	case want != nil:
		t.Collective, t.CollectiveFrom, t.Op = want.bus, FromOverride, want.stem
		return *want, true
	case t.Op != "":
		chosen, known = opByStem(t.Op)
		if !known || !p.contradicts(s, chosen) {
			if known && chosen.model {
				t.Collective, t.CollectiveFrom = chosen.bus, FromName
			}
			return chosen, known
		}
		t.Op, t.Name = "", ""
	}
	fitting := s.fitting(t.Ranks)
	if len(fitting) == 0 && t.RanksFrom == FromRankLines {
		// Rank lines 0..k-1 that a poster cut short: the table may fit
		// more ranks (checkOp takes its count, or leaves the op unknown).
		fitting, s.countFree = s.fitting(0), true
	}
	for _, o := range fitting {
		if o.model {
			t.Candidates = append(t.Candidates, o.bus)
		}
	}
	if len(fitting) == 1 {
		t.Op = fitting[0].stem
	}
	switch {
	case len(t.Candidates) == 1:
		t.Collective, t.CollectiveFrom = t.Candidates[0], FromTable
		if _, told := s.check.value(); told {
			s.noCheck = true
			unchecked := s.fitting(t.Ranks)
			s.noCheck = false
			if models(unchecked) > 1 {
				t.CollectiveFrom = FromCheckColumn
				var cs []commmodel.Collective
				for _, o := range unchecked {
					if o.model {
						cs = append(cs, o.bus)
					}
				}
				// The file's name is the weaker evidence, but a name
				// that contradicts the column may mean a column pasted
				// or printed otherwise: say which was taken.
				if named, ok := namedCollective(p.name, cs); ok && named != t.Collective {
					p.problem(t.Line, 0, "%w: the in-place #wrong column reads as %s's, but the file's name says %s: read as %s; if it ran %s, give FILE:collective=%s (FILE:test=K:collective=%s for test K of several)",
						ErrAmbiguous, t.Collective, named, t.Collective, named, named, named)
				}
			}
		}
	case len(t.Candidates) > 1:
		if c, ok := namedCollective(p.name, t.Candidates); ok {
			// The file's name is the last evidence read: say that it
			// chose, and what settles it otherwise.
			t.Collective, t.CollectiveFrom = c, FromFileName
			other := t.Candidates[0]
			if other == c {
				other = t.Candidates[1]
			}
			p.problem(t.Line, 0, "the table fits %s alike, and only the file's name says %s, which is taken: if it ran %s, give FILE:collective=%s (FILE:test=K:collective=%s for test K of several; -collective %s to commlab fit)",
				joinCollectives(t.Candidates), c, other, other, other, other)
			break
		}
		t.Collective, t.CollectiveFrom = t.Candidates[0], FromGuess
		p.problem(t.Line, 0, "%w: the table fits %s alike, and neither the file (no binary name, no in-place #wrong column that tells) nor its name says which: read as %s; give the collective: -collective NAME to commlab fit, FILE:collective=NAME to -calibrate (FILE:test=K:collective=NAME for test K of several)",
			ErrAmbiguous, joinCollectives(t.Candidates), t.Collective)
	}
	if len(t.Candidates) > 0 {
		return opOf(t.Collective), true
	}
	if len(fitting) > 0 {
		return fitting[0], true
	}
	return op{}, false
}

// contradicts reports that the table of s contradicts op o, which a
// command line or comment named (testState.mentioned) rather than
// nccl-tests' own "Collective test starting" line: o does not fit the
// table with all its evidence, and other collectives do. Such a line may
// be of another run (a shell history, a wrapper's echo, a note), and the
// table is what this run printed: it reports the line and leaves the
// collective to the table.
func (p *parser) contradicts(s *testState, o op) bool {
	if s.mentioned == 0 {
		return false
	}
	s.relax = 0
	if _, _, ok := s.fit(o, s.t.Ranks); ok {
		return false
	}
	var fit []commmodel.Collective
	for _, f := range ops {
		if _, _, ok := s.fit(f, s.t.Ranks); f.infer && f.model && ok {
			fit = append(fit, f.bus)
		}
	}
	if len(fit) == 0 {
		return false
	}
	lo, hi, _ := s.ratio.bounds()
	settle := fmt.Sprintf("if it ran %s, give FILE:collective=%s (FILE:test=K:collective=%[1]s for test K of several)", o.bus, o.bus)
	if !o.model {
		settle = fmt.Sprintf("if it ran %s_perf, which commlab does not model, leave the file out", o.stem)
	}
	p.problem(s.mentioned, 0, "%w: this line names %s_perf, but the table (redop %s, busbw/algbw in [%.4g, %.4g]) is not its over %s ranks and fits %s: the collective is read from the table; %s",
		ErrInconsistent, o.stem, redopWord(s.reduces), lo, hi, rankWord(s.t.Ranks), joinCollectives(fit), settle)
	return true
}

// fitting returns the ops considered for inference that the table of s
// fits over n ranks, with the least evidence dropped that lets one fit.
func (s *testState) fitting(n int) []op {
	var out []op
	for s.relax = 0; s.relax < len(relaxations) && len(out) == 0; s.relax++ {
		for _, o := range ops {
			if _, _, ok := s.fit(o, n); o.infer && ok {
				out = append(out, o)
			}
		}
	}
	return out
}

// models counts the collectives commlab models among ops.
func models(ops []op) int {
	n := 0
	for _, o := range ops {
		if o.model {
			n++
		}
	}
	return n
}

// joinCollectives is "a and b", "a, b and c".
func joinCollectives(cs []commmodel.Collective) string {
	var b strings.Builder
	for i, c := range cs {
		switch {
		case i > 0 && i == len(cs)-1:
			b.WriteString(" and ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(c.String())
	}
	return b.String()
}

// fileNameWords are the ways file names spell each collective besides its
// name (Collective.String), without '_', '-', '.' and ' ' and in lower case.
var fileNameWords = map[commmodel.Collective][]string{
	commmodel.Broadcast: {"bcast"},
}

// namedCollective returns the one collective of cs that the base name of
// the file path names ("h100_alltoall_2x8.log"); ok is false when it names
// none or several of them.
func namedCollective(path string, cs []commmodel.Collective) (named commmodel.Collective, ok bool) {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	key := strings.NewReplacer("_", "", "-", "", ".", "", " ", "").Replace(strings.ToLower(base))
	for _, c := range cs {
		for _, w := range append([]string{c.String()}, fileNameWords[c]...) {
			if strings.Contains(key, w) {
				if ok && named != c {
					return 0, false
				}
				named, ok = c, true
			}
		}
	}
	return named, ok
}

// checkOp holds the table of s to op o, with the least evidence dropped
// that lets it fit, reports what was dropped or that nothing fits, and
// takes the rank count from the table when only one fits.
func (p *parser) checkOp(s *testState, o op) {
	t := s.t
	var nlo, nhi int
	ok := false
	for s.relax = 0; s.relax < len(relaxations) && !ok; s.relax++ {
		nlo, nhi, ok = s.fit(o, t.Ranks)
	}
	if s.relax--; ok && s.relax > 0 {
		p.problem(t.Line, 0, "%w: the %s columns do not fit %s; it was read from %s",
			ErrInconsistent, relaxations[s.relax].what, o.stem, relaxations[s.relax].left)
	}
	if !ok && t.RanksFrom == FromRankLines {
		// Rank lines 0..k-1 that a poster cut short: the table may give
		// more ranks, on hosts the lines do not show.
		for s.relax = 0; s.relax < len(relaxations) && !ok; s.relax++ {
			nlo, nhi, ok = s.fit(o, 0)
			ok = ok && nhi > 0 && nlo > t.Ranks // bounded, and more than the lines list
		}
		s.relax--
		switch {
		case ok && nlo == nhi:
			p.problem(t.Line, 0, "%w: the Rank lines list ranks 0..%d, but the table (busbw/algbw) gives %d ranks (%w): node count unknown",
				ErrInconsistent, t.Ranks-1, nlo, ErrElided)
			t.Ranks, t.RanksFrom, t.Nodes, t.NodesFrom = nlo, FromTable, 0, Unknown
		case ok:
			p.problem(t.Line, 0, "%w: the Rank lines list ranks 0..%d, but the table (busbw/algbw) fits %d to %d ranks (%w): rank and node counts unknown; give ranks=N with nodes=N or per-node=G",
				ErrInconsistent, t.Ranks-1, nlo, nhi, ErrElided)
			t.Ranks, t.RanksFrom, t.Nodes, t.NodesFrom = 0, Unknown, 0, Unknown
		}
	}
	if !ok {
		lo, hi, _ := s.ratio.bounds()
		p.problem(t.Line, 0, "%w: the table (redop %s, busbw/algbw in [%.4g, %.4g]) does not fit %s over %s ranks",
			ErrInconsistent, redopWord(s.reduces), lo, hi, o.stem, rankWord(t.Ranks))
		if s.countFree {
			// The op was inferred for a count the Rank lines deny.
			t.Collective, t.CollectiveFrom, t.Op, t.Candidates = 0, Unknown, "", nil
		}
		return
	}
	if t.Ranks == 0 && nlo > 0 && nlo == nhi {
		t.Ranks, t.RanksFrom = nlo, FromTable
		if _, haveK := s.countRatio.value(); haveK && o.perRank && relaxations[s.relax].drop&dropCount == 0 {
			t.RanksFrom = FromCounts
		}
	}
	if s.ratio.conflict {
		p.problem(t.Line, 0, "%w: the busbw/algbw ratio differs between rows", ErrInconsistent)
	}
}

// Evidence the inference may drop, from the weakest: the #wrong columns
// (a fork may check in-place results), the count column (a fork may print
// the total count), and the redop and root columns.
const (
	dropCheck = 1 << iota
	dropCount
	dropLabels
)

// relaxations are the sets of evidence fit drops, in the order tried: what
// each drops and what is left, for the warnings.
var relaxations = [...]struct {
	drop       int
	what, left string
}{
	{0, "", ""},
	{dropCheck, "#wrong", "the other columns"},
	{dropCount, "count", "the other columns"},
	{dropCheck | dropCount, "count and #wrong", "the redop and root columns and the busbw/algbw ratio"},
	{dropCheck | dropCount | dropLabels, "count, redop, root and #wrong", "the busbw/algbw ratio alone"},
}

func redopWord(reduces bool) string {
	if reduces {
		return "a reduction"
	}
	return "none"
}

func rankWord(n int) string {
	if n == 0 {
		return "any number of"
	}
	return fmt.Sprint(n)
}

// hostName names a host of NCCL's line prefixes in a problem: "host
// gpu34", or "a line without a host" for "".
func hostName(h string) string {
	if h == "" {
		return "a line without a host"
	}
	return "host " + h
}

// onOff is "on" for true, "off" for false.
func onOff(v bool) string {
	if v {
		return "on"
	}
	return "off"
}
