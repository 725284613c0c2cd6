package nccl

import (
	"math"
	"slices"
)

// A ruleSweep is what the plugin does with the rules cand (indices into
// lines, in file order) for the calls of one function on one communicator,
// of one numPipeOps and regBuff: the sizes cut where a rule starts or ends
// into ranges each rule takes whole or not at all, the rule NCCL follows in
// each range, and how each rule fares. The plugin takes a call's first
// matching rule that NCCL's cost table holds; NCCL always holds a rule that
// names no algorithm it may leave out (MayBeIgnored), and the rules after
// such a rule are never asked. Time and memory are linear in cand's rules
// but for sorting their bounds: a rule is looked at once, not once a range.
type ruleSweep struct {
	// bounds holds the first size of each range, from 0 up.
	bounds []uint64
	// taken holds, for each range, the first rule NCCL's cost table holds,
	// the one the plugin follows (-1 where none); sure the first of those
	// that NCCL holds in every call (-1 where none).
	taken, sure []int
	// reached reports, for each rule of cand (by its place in cand), that
	// the plugin asks it in some range: no sure rule comes before it there.
	reached []bool
	// shadowed holds, for each rule of cand, the first range it matches
	// where a sure rule comes before it, -1 where none.
	shadowed []int
}

// sweepRules sweeps the rules cand of lines, available reporting that
// NCCL's cost table holds a rule's algorithm and protocol.
func sweepRules(lines []pluginLine, cand []int, available func(i int) bool) ruleSweep {
	bounds := []uint64{0}
	for _, i := range cand {
		r := lines[i].rule
		bounds = append(bounds, r.MinBytes)
		if r.MaxBytes < math.MaxUint64 {
			bounds = append(bounds, r.MaxBytes+1)
		}
	}
	slices.Sort(bounds)
	bounds = slices.Compact(bounds)
	k := len(bounds)
	sw := ruleSweep{bounds: bounds, taken: filled(k, -1), sure: filled(k, -1), reached: make([]bool, len(cand)), shadowed: filled(len(cand), -1)}
	// first and last are the ranges of each rule of cand.
	first, last := make([]int, len(cand)), make([]int, len(cand))
	for n, i := range cand {
		r := lines[i].rule
		first[n], _ = slices.BinarySearch(bounds, r.MinBytes)
		last[n] = k - 1
		if r.MaxBytes < math.MaxUint64 {
			b, _ := slices.BinarySearch(bounds, r.MaxBytes+1)
			last[n] = b - 1
		}
	}
	// sureAt is the place in cand of each range's sure rule, len(cand)
	// where none. Each range takes the first rule in file order that
	// covers it: a range filled is passed over after.
	sureAt := filled(k, len(cand))
	takenLeft, sureLeft := newNextLeft(k), newNextLeft(k)
	for n, i := range cand {
		if !available(i) {
			continue
		}
		for r := takenLeft.find(first[n]); r <= last[n]; r = takenLeft.find(r) {
			sw.taken[r] = i
			takenLeft.remove(r)
		}
		if MayBeIgnored(lines[i].rule.Algo) {
			continue
		}
		for r := sureLeft.find(first[n]); r <= last[n]; r = sureLeft.find(r) {
			sw.sure[r], sureAt[r] = i, n
			sureLeft.remove(r)
		}
	}
	// The ranges whose sure rule is each rule of cand, or none (len(cand)).
	bySure := make([][]int, len(cand)+1)
	for r, n := range sureAt {
		bySure[n] = append(bySure[n], r)
	}
	// reached: some range of the rule's has its sure rule at or after it.
	// Going down cand, the ranges whose sure rule comes before the rule
	// are removed.
	open := newNextLeft(k)
	for n := range cand {
		if n > 0 {
			for _, r := range bySure[n-1] {
				open.remove(r)
			}
		}
		sw.reached[n] = open.find(first[n]) <= last[n]
	}
	// shadowed: the first range of the rule's whose sure rule comes before
	// it. Going up cand from its end, the ranges whose sure rule is the
	// rule itself, or none or after it, are removed.
	before := newNextLeft(k)
	for _, r := range bySure[len(cand)] {
		before.remove(r)
	}
	for n := len(cand) - 1; n >= 0; n-- {
		for _, r := range bySure[n] {
			before.remove(r)
		}
		if r := before.find(first[n]); r <= last[n] {
			sw.shadowed[n] = r
		}
	}
	return sw
}

// hi returns the last size of range r.
func (sw ruleSweep) hi(r int) uint64 {
	if r+1 < len(sw.bounds) {
		return sw.bounds[r+1] - 1
	}
	return math.MaxUint64
}

// filled returns n copies of v.
func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// nextLeft finds, of the positions 0 to n-1, the first not yet removed at
// or after a position (n where none): union-find with path halving, near
// constant time a call whatever order positions are removed in.
type nextLeft []int

func newNextLeft(n int) nextLeft {
	l := make(nextLeft, n+1)
	for k := range l {
		l[k] = k
	}
	return l
}

// find returns the first position at or after k not removed.
func (l nextLeft) find(k int) int {
	for l[k] != k {
		l[k] = l[l[k]]
		k = l[k]
	}
	return k
}

// remove removes position k.
func (l nextLeft) remove(k int) { l[k] = k + 1 }
