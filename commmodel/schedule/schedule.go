package schedule

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"

	"github.com/inframethod/commlab/commmodel"
)

// Op is what a transfer does at its destination.
type Op uint8

const (
	// Copy overwrites the destination range with the source range.
	Copy Op = iota
	// Reduce adds the source range into the destination range.
	Reduce
)

func (o Op) String() string {
	if o == Reduce {
		return "reduce"
	}
	return "copy"
}

// A Transfer moves Len elements from rank Src's buffer at SrcOff to rank Dst's
// buffer at DstOff, directly or through a switch.
type Transfer struct {
	// Src and Dst are the sending and receiving ranks, 0 <= Src, Dst < P.
	Src, Dst int
	// SrcOff and DstOff are element offsets in the ranks' buffers.
	SrcOff, DstOff int
	// Len is the number of elements moved; 0 is allowed (an empty part still
	// costs a message and its step).
	Len int
	// Op says whether the destination is overwritten or added to.
	Op Op
	// Switch is 0 for a transfer between two ranks, and 1 + the index of
	// the switch that carries it otherwise: a switch that reduces (Reduce:
	// NVLink SHARP's multimem.ld_reduce, a network switch's in-network
	// reduction) or multicasts (Copy: multimem.st). See the package comment.
	Switch int
}

// Local reports whether t stays inside one rank. A transfer through a switch
// never does: the switch reads or writes the rank's memory over its link.
func (t Transfer) Local() bool { return t.Src == t.Dst && t.Switch == 0 }

// moves reports whether t changes data: every transfer but one through a
// switch from a rank to itself, whose value is already in place.
func (t Transfer) moves() bool { return t.Src != t.Dst || t.Switch == 0 }

// A Schedule is an algorithm made explicit for P ranks and S bytes. Every rank
// has a buffer of Len elements; the collective's input and output regions sit
// at InOff and OutOff (see Simulate for each collective's layout).
type Schedule struct {
	// Algorithm is the name of the algorithm the schedule executes.
	Algorithm string
	// Collective is the operation it performs.
	Collective commmodel.Collective
	// P is the number of ranks.
	P int
	// Size is S, the collective's size in bytes as nccl-tests prints it.
	Size int64
	// ElemBytes is the size of one element, in bytes. Simulate holds
	// elements of any size as uint16 values (sim.go).
	ElemBytes int
	// Len is the length of each rank's buffer, in elements.
	Len int
	// InOff and OutOff are the element offsets of the input and output regions.
	InOff, OutOff int
	// Root is the broadcast's root rank (0 for other collectives).
	Root int
	// Steps are the steps in order; all transfers of a step happen at once.
	Steps [][]Transfer
}

// Elems returns n, the collective's size in elements.
func (s *Schedule) Elems() int { return int(s.Size / int64(s.ElemBytes)) }

// DefaultElemBytes is the element size New uses: 4 bytes, the float of
// nccl-tests' default data type.
const DefaultElemBytes = 4

// ErrUnknownAlgorithm is returned for an Algorithm that has no schedule.
var ErrUnknownAlgorithm = errors.New("no schedule for this algorithm")

// New builds the schedule of a for p ranks and S = size bytes in
// elements of DefaultElemBytes. See NewElem.
func New(a commmodel.Algorithm, p int, size int64) (*Schedule, error) {
	return NewElem(a, p, size, DefaultElemBytes)
}

// NewElem builds the schedule of a for p ranks and S = size bytes in
// elements of elemBytes bytes. It knows every algorithm of this package:
// Ring, HalvingDoubling, TwoShot, OneShot, RingReduceScatter, RingAllGather,
// PipelinedBroadcast, Direct, Pairwise, Bruck, HierarchicalAllReduce,
// HierarchicalAllToAll, Shift, Tree, NVLS, NVLSTree, PATAllGather,
// PATReduceScatter, CollNetDirect and CollNetChain; any other type gives
// ErrUnknownAlgorithm.
// Sizes that are not a whole number of elements, p < 1, hierarchical shapes
// that do not fit p, a pipelined tree or chain in its fluid limit
// (Chunks 0, which has no schedule of whole steps), and a schedule whose
// transfers would take more than MaxScheduleBytes (a Ring of more than
// about 4,400 ranks) are errors, refused before anything is allocated.
func NewElem(a commmodel.Algorithm, p int, size int64, elemBytes int) (*Schedule, error) {
	lay, err := check(a, p, size, elemBytes)
	if err != nil {
		return nil, err
	}
	s := &Schedule{
		Algorithm: a.Name(), Collective: a.Collective(), P: p, Size: size, ElemBytes: elemBytes,
		Len: lay.bufLen, InOff: lay.in, OutOff: lay.out,
	}
	b := &builder{}
	n := s.Elems()
	all := identityGroup(p)
	switch a := a.(type) {
	case commmodel.Ring, commmodel.HalvingDoubling, commmodel.TwoShot, commmodel.OneShot:
		allReduceGroup(b, 0, a, all, 0, n, lay.scratch)
	case commmodel.RingReduceScatter:
		ringReduceScatter(b, 0, all, 0, n)
	case commmodel.RingAllGather:
		ringAllGather(b, 0, all, 0, n)
	case commmodel.PATAllGather:
		patAllGather(b, p, n)
	case commmodel.PATReduceScatter:
		patReduceScatter(b, p, n)
	case commmodel.PipelinedBroadcast:
		chainBroadcast(b, all, n, a.Chunks)
	case commmodel.Direct:
		directAllToAll(b, p, n, lay)
	case commmodel.Pairwise:
		pairwiseAllToAll(b, p, n, lay)
	case commmodel.Bruck:
		bruckAllToAll(b, p, n, lay)
	case commmodel.HierarchicalAllReduce:
		hierarchicalAllReduce(b, a, p, n, lay.scratch)
	case commmodel.HierarchicalAllToAll:
		hierarchicalAllToAll(b, a.PerNode, p, n, lay)
	case commmodel.Shift:
		shiftSendRecv(b, p, n, lay)
	case commmodel.Tree:
		per := max(a.PerNode, 1)
		treeAllReduce(b, 0, all, 0, n, p/per, per, a.Chunks)
	case commmodel.NVLS:
		per := a.PerNode
		if per == 0 {
			per = p
		}
		nvlsAllReduce(b, p/per, per, n, nil)
	case commmodel.NVLSTree:
		nvlsAllReduce(b, p/a.PerNode, a.PerNode, n, &commmodel.Tree{PerNode: 1, Chunks: a.Chunks})
	case commmodel.CollNetDirect:
		collNetDirect(b, p/a.PerNode, a.PerNode, n)
	case commmodel.CollNetChain:
		collNetChain(b, p/a.PerNode, a.PerNode, n, a.Chunks)
	}
	s.Steps = b.steps
	return s, nil
}

// check returns the layout of a's schedule on p ranks and S = size bytes
// in elements of elemBytes, or the error NewElem and Footprint give for
// them: layoutOf's, or a schedule whose transfers would take more than
// MaxScheduleBytes, with the largest of p/2, p/4, ... ranks that would not.
func check(a commmodel.Algorithm, p int, size int64, elemBytes int) (layout, error) {
	lay, err := layoutOf(a, p, size, elemBytes)
	if err != nil {
		return layout{}, err
	}
	if b := scheduleBytes(a, p, size); b > MaxScheduleBytes {
		within := ""
		for q := p / 2; q >= 1; q /= 2 {
			if _, err := layoutOf(a, q, size, elemBytes); err == nil && scheduleBytes(a, q, size) <= MaxScheduleBytes {
				within = fmt.Sprintf("; %d ranks are within it", q)
				break
			}
		}
		return layout{}, fmt.Errorf("schedule: %s on %d ranks is about %.3g transfers, %.4g GiB, more than the %d GiB a schedule is built in (MaxScheduleBytes)%s",
			a.Name(), p, transfersOf(a, p, size), b/(1<<30), MaxScheduleBytes>>30, within)
	}
	return lay, nil
}

// layout is where a schedule keeps its regions, in elements of each rank's buffer.
type layout struct {
	bufLen  int // whole buffer
	in, out int // input and output regions
	scratch int // a scratch region of n elements, or -1
	work    int // AllToAll working region of P slots of slot elements, or -1
	slot    int // ⌈n/P⌉, the largest AllToAll block (n for SendRecv's one block)
	staged  int // bound on the elements a step reads from its snapshot, all ranks together
	// stagedReads bounds how many of a step's snapshot reads one offset
	// takes: a tile of L offsets snapshots at most stagedReads·L elements a
	// step (and at most staged).
	stagedReads int
}

// layoutOf checks a, p and size and lays out the buffers. It is the single
// place that knows how much memory each algorithm's schedule needs.
func layoutOf(a commmodel.Algorithm, p int, size int64, elemBytes int) (layout, error) {
	if p < 1 {
		return layout{}, fmt.Errorf("schedule: %d ranks; need at least 1", p)
	}
	if elemBytes < 1 {
		return layout{}, fmt.Errorf("schedule: element size %d B; need at least 1", elemBytes)
	}
	if size < 0 || size%int64(elemBytes) != 0 {
		return layout{}, fmt.Errorf("schedule: size %d B is not a whole number of %d-byte elements", size, elemBytes)
	}
	if size/int64(elemBytes) > 1<<40 {
		return layout{}, fmt.Errorf("schedule: size %d B is too large to simulate", size)
	}
	n := int(size / int64(elemBytes))
	inPlace := layout{bufLen: n, scratch: -1, work: -1}
	withScratch := layout{bufLen: 2 * n, scratch: n, work: -1}
	// An AllToAll of k blocks: input n elements, output k slots of
	// ⌈n/k⌉, then regions-1 working regions of as many (the first at work).
	a2a := func(k, regions int) layout {
		slot := (n + k - 1) / k
		l := layout{bufLen: n + regions*k*slot, out: n, scratch: -1, work: -1, slot: slot}
		if regions > 1 {
			l.work = n + k*slot
		}
		return l
	}
	if per, ok := nodeSize(a); ok && !wholeNodes(p, per) {
		return layout{}, fmt.Errorf("schedule: %d ranks are not whole nodes of %d GPUs", p, per)
	}
	if c, ok := treeChunksOf(a); ok {
		if err := treeChunks(c); err != nil {
			return layout{}, err
		}
	}
	switch a := a.(type) {
	case commmodel.Ring, commmodel.HalvingDoubling, commmodel.TwoShot, commmodel.RingReduceScatter, commmodel.RingAllGather,
		commmodel.PATAllGather, commmodel.PATReduceScatter, commmodel.NVLSTree, commmodel.Tree:
		return inPlace, nil
	case commmodel.OneShot:
		return withScratch, nil
	case commmodel.PipelinedBroadcast:
		if a.Chunks > 1<<20 {
			return layout{}, fmt.Errorf("schedule: broadcast in %d chunks; at most %d", a.Chunks, 1<<20)
		}
		return inPlace, nil
	case commmodel.NVLS:
		if a.PerNode != 0 {
			// Across nodes each GPU's slice is read by N-1 transfers that the
			// slice's own reduction overwrites: all of them from the snapshot.
			// A slice is on N GPUs, so an offset is read N(N-1) times.
			nodes := p / a.PerNode
			inPlace.staged = p * (nodes - 1) * ((n + a.PerNode - 1) / a.PerNode)
			inPlace.stagedReads = nodes * (nodes - 1)
		}
		return inPlace, nil
	case commmodel.CollNetDirect:
		nodes := p / a.PerNode
		inPlace.staged = p * (nodes - 1) * ((n + a.PerNode - 1) / a.PerNode) // as NVLS across nodes
		inPlace.stagedReads = nodes * (nodes - 1)
		return inPlace, nil
	case commmodel.CollNetChain:
		nodes := p / a.PerNode
		inPlace.staged = nodes * (nodes - 1) * ((n + a.Chunks - 1) / a.Chunks) // the heads' chunk, read N-1 times as it is reduced
		inPlace.stagedReads = nodes * (nodes - 1)
		return inPlace, nil
	case commmodel.Direct, commmodel.Pairwise:
		return a2a(p, 1), nil
	case commmodel.Shift:
		return a2a(1, 1), nil // one block: the whole input, bound for the next rank
	case commmodel.Bruck:
		l := a2a(p, 2)
		l.staged = p * (p + 1) / 2 * l.slot // a step forwards up to ⌈P/2⌉ slots it also receives into
		return l, nil
	case commmodel.HierarchicalAllToAll:
		return a2a(p, 2), nil
	case commmodel.HierarchicalAllReduce:
		switch interOf(a).(type) {
		case commmodel.Ring, commmodel.HalvingDoubling, commmodel.TwoShot:
			return inPlace, nil
		case commmodel.OneShot:
			return withScratch, nil
		}
		return layout{}, fmt.Errorf("schedule: hierarchical AllReduce: %w: inter %T", ErrUnknownAlgorithm, interOf(a))
	}
	return layout{}, fmt.Errorf("schedule: %w: %T", ErrUnknownAlgorithm, a)
}

// nodeSize returns the GPUs per node that a's schedule needs its ranks to
// fill whole nodes of, and false for an algorithm without nodes (NVLS on
// one node among them).
func nodeSize(a commmodel.Algorithm) (int, bool) {
	switch a := a.(type) {
	case commmodel.NVLS:
		return a.PerNode, a.PerNode != 0
	case commmodel.NVLSTree:
		return a.PerNode, true
	case commmodel.CollNetDirect:
		return a.PerNode, true
	case commmodel.CollNetChain:
		return a.PerNode, true
	case commmodel.Tree:
		return max(a.PerNode, 1), true
	case commmodel.HierarchicalAllToAll:
		return a.PerNode, true
	case commmodel.HierarchicalAllReduce:
		return a.PerNode, true
	}
	return 0, false
}

// treeChunksOf returns the chunk count of a tree's schedule, which
// treeChunks checks, and false for an algorithm that is not a tree.
func treeChunksOf(a commmodel.Algorithm) (int, bool) {
	switch a := a.(type) {
	case commmodel.NVLSTree:
		return a.Chunks, true
	case commmodel.CollNetChain:
		return a.Chunks, true
	case commmodel.Tree:
		return a.Chunks, true
	}
	return 0, false
}

// treeChunks checks the chunk count of a tree's schedule.
func treeChunks(c int) error {
	switch {
	case c < 1:
		return fmt.Errorf("schedule: tree with %d chunks is the fluid limit, which has no schedule; give at least 1 chunk", c)
	case c > 1<<20:
		return fmt.Errorf("schedule: tree in %d chunks; at most %d", c, 1<<20)
	}
	return nil
}

// Footprint estimates the memory Simulate needs for a on p ranks and S = size
// bytes in elements of elemBytes, in bytes: the ranks' buffers, 2 B an
// element whatever elemBytes, or, for a schedule that keeps its offsets,
// each worker's tile of them (Simulate), and the schedule's transfers with
// what checking, simulating and counting them holds, without building
// anything. It reports the same errors as NewElem, MaxScheduleBytes
// included.
func Footprint(a commmodel.Algorithm, p int, size int64, elemBytes int) (float64, error) {
	lay, err := check(a, p, size, elemBytes)
	if err != nil {
		return 0, err
	}
	n, workers := float64(size)/float64(elemBytes), float64(runtime.GOMAXPROCS(0))
	// Whole buffers, a snapshot, the x_k of every element and a reference
	// or a rank's expected output per worker (sim.go).
	values := float64(p)*float64(lay.bufLen) + float64(lay.staged) + n + workers*float64(lay.bufLen)
	if lay.keepsOffsets(a.Collective()) {
		tile := float64(min(tileOffsets(p), lay.bufLen))
		values = workers * (float64(p)*tile + 2*tile + float64(lay.tileStaged(int(tile))))
	}
	data := valueBytes * (values + 2*float64(p))
	perTransfer := float64(transferBytes + planBytes + indexBytes)
	return data + transfersOf(a, p, size)*perTransfer, nil
}

// transfersOf estimates the transfers of the schedule of a on p ranks and
// S = size bytes, without building it (Footprint, and NewElem's bound).
func transfersOf(a commmodel.Algorithm, p int, size int64) float64 {
	// Trees send each edge of each tree, up and down, once per chunk; NVLS
	// has p transfers per GPU in each switch step. (Their counts need no
	// Cost, whose pipelines walk every node.)
	switch a := a.(type) {
	case commmodel.Tree:
		return 4 * float64(a.Chunks) * float64(p-1)
	case commmodel.NVLS:
		per := a.PerNode
		if per == 0 {
			per = p
		}
		return float64(p) * float64(2*per+p/per)
	case commmodel.NVLSTree:
		return float64(p)*float64(2*a.PerNode) + 4*float64(a.Chunks)*float64(p-a.PerNode)
	case commmodel.CollNetDirect:
		return float64(p) * float64(2*a.PerNode+p/a.PerNode)
	case commmodel.CollNetChain:
		return float64(a.Chunks) * float64(2*p+p/a.PerNode*p/a.PerNode)
	}
	c := a.Cost(p, float64(size))
	// A message is one transfer per block it carries: up to P/2 blocks for
	// Bruck and PAT, N for the hierarchical gather, one otherwise; local copies are
	// 2P per rank for Bruck's rotations, one per rank for the other
	// out-of-place layouts, and Shift's send to itself at P = 1.
	perMsg, local := 1.0, 0.0
	switch a := a.(type) {
	case commmodel.Bruck:
		perMsg, local = float64(p)/2+1, 2*float64(p)
	case commmodel.PATAllGather, commmodel.PATReduceScatter:
		perMsg = float64(p)/2 + 1
	case commmodel.HierarchicalAllToAll:
		perMsg, local = float64(p/max(a.PerNode, 1)), 1
	case commmodel.Direct, commmodel.Pairwise, commmodel.OneShot:
		local = 1
	case commmodel.Shift:
		if p == 1 {
			local = 1
		}
	}
	return float64(p) * (float64(c.Messages)*perMsg + local)
}

// MaxScheduleBytes bounds the memory of the transfers NewElem builds,
// 2 GiB: transfersOf's count times the size of a Transfer (scheduleBytes).
// The build's time grows with it: a Ring of 8000 ranks, 1.3e8 transfers,
// took 34 s and 6.9 GB to build, and one of 23,000 ranks, 1.1e9 transfers
// (under the 2^30 transfers that bounded it before), ran out of memory (a
// red team's report). The largest Ring within it, 4379 ranks and 3.8e7
// transfers, builds in 7 s and 2.1 GB on two cores. Simulate holds more per
// transfer besides the ranks' buffers (Footprint).
const MaxScheduleBytes = 2 << 30

// scheduleBytes is the memory of the transfers of the schedule of a on p
// ranks and S = size bytes, in bytes: transfersOf times the size of a
// Transfer.
func scheduleBytes(a commmodel.Algorithm, p int, size int64) float64 {
	return transfersOf(a, p, size) * float64(transferBytes)
}

// transferBytes is the in-memory size of one Transfer; planBytes bounds what
// Validate and Count hold per transfer while they sort a step; indexBytes
// what Simulate holds per transfer to find a tile's (stepIndex): an int32,
// an int and a flag where a step has staged transfers.
var transferBytes = int(reflect.TypeFor[Transfer]().Size())

const (
	planBytes  = 48
	indexBytes = 13
)

// keepsOffsets reports whether the schedules laid out as lay for c keep
// their offsets, as far as the layout tells (Footprint): in place, and
// every rank's output part of one reference (not rankOutputs). Every such
// schedule does (TestKeepsOffsetsLayout); a few others do too, such as
// hierarchical AllReduce with one-shot on one node.
func (lay layout) keepsOffsets(c commmodel.Collective) bool {
	return !rankOutputs(c) && lay.scratch < 0 && lay.work < 0
}

// tileStaged bounds the elements a tile of tile offsets snapshots in a
// step: stagedReads·tile, and staged, where the layout knows how often an
// offset is read.
func (lay layout) tileStaged(tile int) int {
	if lay.stagedReads == 0 {
		return lay.staged
	}
	return min(lay.staged, lay.stagedReads*tile)
}

// partBounds returns part i of a range of n elements cut into k parts:
// [⌊i·n/k⌋, ⌊(i+1)·n/k⌋). It is the package's one rounding rule.
func partBounds(n, k, i int) (lo, hi int) {
	return i * n / k, (i + 1) * n / k
}

// builder collects transfers by step index, so that groups of ranks running
// in parallel (the nodes of a hierarchy) can write into the same steps.
type builder struct {
	steps [][]Transfer
}

// put adds t to step i.
func (b *builder) put(i int, t Transfer) {
	b.grow(i, 1)
	b.steps[i] = append(b.steps[i], t)
}

// grow makes room in step i for n more transfers, so that a generator that
// knows a step's size allocates it once.
func (b *builder) grow(i, n int) {
	for len(b.steps) <= i {
		b.steps = append(b.steps, nil)
	}
	b.steps[i] = slices.Grow(b.steps[i], n)
}

// identityGroup returns the ranks 0..p-1.
func identityGroup(p int) []int {
	g := make([]int, p)
	for i := range g {
		g[i] = i
	}
	return g
}

// wholeNodes reports whether p ranks are whole nodes of perNode ranks.
func wholeNodes(p, perNode int) bool { return perNode >= 1 && p%perNode == 0 }

// interOf is the AllReduce h runs between nodes: h.Inter, or commmodel.Ring
// when that is nil (see commmodel.HierarchicalAllReduce).
func interOf(h commmodel.HierarchicalAllReduce) commmodel.Algorithm {
	if h.Inter == nil {
		return commmodel.Ring{}
	}
	return h.Inter
}

func isPow2(n int) bool { return n > 0 && n&(n-1) == 0 }

// mod returns a mod m in [0, m).
func mod(a, m int) int { return ((a % m) + m) % m }

// Validate checks that the input and output regions and every transfer stay
// inside the buffers and that no copy overlaps another write of its step.
// Simulate calls it.
func (s *Schedule) Validate() error {
	_, err := s.hazards()
	return err
}

// parallelTransfers is the number of transfers from which Validate and
// Count split a schedule's steps over the workers.
const parallelTransfers = 1 << 14

// workers returns how many goroutines validate or count s, each a run of
// its steps: GOMAXPROCS once s has parallelTransfers transfers, else 1.
func (s *Schedule) workers() int {
	if s.transfers() < parallelTransfers {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

// transfers returns the number of transfers of s.
func (s *Schedule) transfers() int {
	n := 0
	for _, step := range s.Steps {
		n += len(step)
	}
	return n
}

// interval is one write of a step: rank, element range, and whether it is a copy.
type interval struct {
	rank, lo, hi int
	copy         bool
}

// hazards validates s and returns, for each step, the indices of the
// transfers whose source overlaps a write of the same step: Simulate reads
// those from a snapshot taken when the step begins. The steps are checked
// independently, over GOMAXPROCS goroutines when there are many transfers;
// the error is that of the first bad step.
func (s *Schedule) hazards() ([][]int, error) {
	if s.P < 1 || s.ElemBytes < 1 || s.Len < 0 {
		return nil, fmt.Errorf("schedule: schedule with %d ranks, %d-byte elements, %d-element buffers", s.P, s.ElemBytes, s.Len)
	}
	if in, out := s.regions(); s.Size < 0 || s.InOff < 0 || s.OutOff < 0 || s.InOff+in > s.Len || s.OutOff+out > s.Len {
		return nil, fmt.Errorf("schedule: %s of %d B: input [%d, +%d) or output [%d, +%d) is outside buffers of %d elements",
			s.Collective, s.Size, s.InOff, in, s.OutOff, out, s.Len)
	}
	out := make([][]int, len(s.Steps))
	w := s.workers()
	errs := make([]error, w) // errs[k]: the first error in worker k's steps
	inParts(len(s.Steps), w, func(k, lo, hi int) {
		var h hazardScan
		for si := lo; si < hi; si++ {
			if out[si], errs[k] = h.step(s, si); errs[k] != nil {
				return
			}
		}
	})
	for _, err := range errs { // the workers' ranges of steps are in order
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hazardScan checks steps one at a time, reusing its buffers.
type hazardScan struct {
	w      []interval // the step's writes, by rank and then offset
	endMax []int      // endMax[i]: the furthest end of w[:i+1] on w[i]'s rank
}

// step checks step si of s and returns the transfers that read a write of
// their own step.
func (h *hazardScan) step(s *Schedule, si int) ([]int, error) {
	step := s.Steps[si]
	h.w = h.w[:0]
	for ti, t := range step {
		if t.Src < 0 || t.Src >= s.P || t.Dst < 0 || t.Dst >= s.P || t.Len < 0 ||
			t.SrcOff < 0 || t.SrcOff+t.Len > s.Len || t.DstOff < 0 || t.DstOff+t.Len > s.Len {
			return nil, fmt.Errorf("schedule: step %d transfer %d (%d[%d:+%d] -> %d[%d]) is outside %d ranks of %d elements",
				si, ti, t.Src, t.SrcOff, t.Len, t.Dst, t.DstOff, s.P, s.Len)
		}
		if t.Switch < 0 {
			return nil, fmt.Errorf("schedule: step %d transfer %d: switch %d", si, ti, t.Switch)
		}
		if t.Len > 0 && t.moves() {
			h.w = append(h.w, interval{t.Dst, t.DstOff, t.DstOff + t.Len, t.Op == Copy})
		}
	}
	w := h.w
	slices.SortFunc(w, func(a, b interval) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.lo, b.lo)
	})
	// Sweep each rank's writes in order of offset: em and emc are the
	// furthest ends so far of any write and of a copy.
	h.endMax = h.endMax[:0]
	em, emc := 0, 0
	for i, x := range w {
		if i == 0 || w[i-1].rank != x.rank {
			em, emc = 0, 0
		}
		if x.lo < em && (x.copy || x.lo < emc) {
			return nil, fmt.Errorf("schedule: step %d: a copy into rank %d overlaps another write at [%d, %d)", si, x.rank, x.lo, x.hi)
		}
		em = max(em, x.hi)
		if x.copy {
			emc = max(emc, x.hi)
		}
		h.endMax = append(h.endMax, em)
	}
	var staged []int
	for ti, t := range step {
		if t.Len > 0 && t.moves() && h.overlaps(t.Src, t.SrcOff, t.SrcOff+t.Len) {
			staged = append(staged, ti)
		}
	}
	return staged, nil
}

// overlaps reports whether [lo, hi) on rank meets any write of the step.
func (h *hazardScan) overlaps(rank, lo, hi int) bool {
	// j is the first write on rank starting at or after hi, or a later rank.
	w, i, j := h.w, 0, len(h.w)
	for i < j {
		m := int(uint(i+j) >> 1)
		if x := w[m]; x.rank < rank || x.rank == rank && x.lo < hi {
			i = m + 1
		} else {
			j = m
		}
	}
	return i > 0 && w[i-1].rank == rank && h.endMax[i-1] > lo
}
