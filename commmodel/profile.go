package commmodel

import (
	"math"
	"sync/atomic"
)

// Profiles of pipelines, memoized.
//
// A chunked pipeline's profile (pipeline.go) depends on its shape alone:
// the schedule (Tree's double binary tree over chains, CollNet's chain),
// the nodes N, the GPUs per node p and the chunk count C; not on the size
// or the links. Sweeping it costs ranks x 2L x windows, and a time needs
// only a few numbers of it: on one Link the steps, messages and
// critical-path chunks (for the chain in closed form, chainPath); on a
// Cluster the loads of its runs of steps. A profile keeps those numbers.
// The first evaluation of a shape sweeps it twice (the path, then the
// runs) and allocates its profile, 1-104 µs and 3-8 allocations for the
// shapes of BenchmarkProfileSweep (docs/performance.md); later
// ones find the profile in a table, profiles, shared by all goroutines: an
// evaluation then costs a hash and two dependent loads more than the fluid
// limit's, and on a Cluster a max of two levels per run of steps.

// A pipeKind is one of the pipelined schedules.
type pipeKind uint8

const (
	treePipe  pipeKind = iota // Tree's (and NVLSTree's trees), on two halves
	chainPipe                 // CollNetChain's, on one buffer
)

// A pipeShape is what a pipeline's profile depends on: its schedule, N, p
// and C; C = 0 is the fluid limit, which has no profile.
type pipeShape struct {
	kind                   pipeKind
	nodes, perNode, chunks int
}

// parts is how many parts the buffer is cut into before each is cut into
// C chunks: a chunk is S/(parts·C).
func (s pipeShape) parts() int {
	if s.kind == treePipe {
		return 2
	}
	return 1
}

// sweep returns the profile of s, from every rank's windows, kept in buf if
// it fits.
func (s pipeShape) sweep(buf []stepLoad) pipeline {
	var q pipeline
	if s.kind == treePipe {
		h := s.perNode - 1 + treeHeight(s.nodes)
		q = newPipeline(s.chunks, 2*h-1, buf) // the last rank to forward is at depth H-1
	} else {
		fill, _ := chainSteps(s.nodes, s.perNode)
		q = newPipeline(s.chunks, fill-1, buf) // the last to forward is GPU p-2 (or the head to the switch)
	}
	s.windows(&q)
	return q
}

// windows adds every rank's windows to q.
func (s pipeShape) windows(q *pipeline) {
	if s.kind == treePipe {
		treeWindows(s.nodes, s.perNode, q)
	} else {
		chainWindows(s.nodes, s.perNode, q)
	}
}

// stages returns the stages of s on a two-level fabric for S = size bytes
// (Tree.Stages, CollNetChain.Stages), its ranks holding intraPeers peers
// inside a node and interPeers across the network: the sweep's runs if it
// is chunked (pipeline.stages), else the fluid limit (fluidStages).
func (s pipeShape) stages(size float64, intraPeers, interPeers int) []Stage {
	size = checkSize(size)
	switch {
	case s.nodes*s.perNode == 1:
		return []Stage{{}}
	case s.chunks >= 1:
		q := s.sweep(nil)
		q.split()
		s.windows(&q)
		return q.stages(size/float64(s.parts()*s.chunks), intraPeers, interPeers)
	}
	is, es, ib, ir, eb, er := s.fluid(size)
	return fluidStages(is, es,
		Cost{Bytes: ib, Reduced: ir, Peers: intraPeers, Fanout: intraPeers},
		Cost{Bytes: eb, Reduced: er, Peers: interPeers, Fanout: interPeers})
}

// timeFrom returns acc plus the sum of the times of s's stages (stages) for
// S = size bytes on the Valid links intra and inter, computed without
// building them: in the fluid limit from the same terms, to the bit;
// chunked from the memoized profile (profile.time), to a few ulps. An
// infinite size, where the stages' 0·Inf make some parts NaN and others
// not, is timed from the stages themselves.
func (s pipeShape) timeFrom(acc, size float64, intra, inter Link) float64 {
	size = checkSize(size)
	switch {
	case s.nodes*s.perNode == 1:
		return acc
	case s.chunks < 1:
		is, es, ib, ir, eb, er := s.fluid(size)
		return fluidTime(acc, is, es, ib, ir, eb, er, intra, inter)
	}
	if !math.IsInf(size, 0) {
		p := cachedProfile(s.key())
		if p == nil {
			p = otherProfile(s)
		}
		return acc + p.time(size, intra, inter)
	}
	for _, st := range s.stages(size, 0, 0) {
		acc += st.Time(intra, inter)
	}
	return acc
}

// terms returns the steps, messages and critical-path bytes of s, chunked,
// on one Link for S = size bytes of which the busiest rank sends bytes:
// the chain's in closed form (chainPath), the tree's from its memoized
// profile, to the bit what the sweep gives.
func (s pipeShape) terms(bytes, size float64) (steps, messages int, pathBytes float64) {
	if s.kind == chainPipe {
		steps, chunks, _ := chainPath(s.nodes, s.perNode, s.chunks)
		return steps, chunks, max(bytes, float64(chunks)/float64(s.chunks)*size)
	}
	p := cachedProfile(s.key())
	if p == nil {
		p = otherProfile(s)
	}
	// The path is never below the busiest rank's bytes; max keeps rounding from saying so.
	return p.steps, p.messages, max(bytes, p.path*size)
}

// fluid returns the terms of the fluid limit of s (Chunks = 0) for S =
// size bytes, a checked size: the first chunk's steps inside a node and
// across the network, and the bytes the busiest rank sends and reduces on
// each level (see Tree.Stages, CollNetChain.Stages).
func (s pipeShape) fluid(size float64) (intraSteps, interSteps int, intraBytes, intraReduced, interBytes, interReduced float64) {
	if s.kind == treePipe {
		intraBytes, interBytes, _, _ = treeBytes(s.nodes, s.perNode, size)
		return 2 * (s.perNode - 1), 2 * treeHeight(s.nodes), intraBytes, size, interBytes, float64(min(s.nodes-1, 2)) * size / 2
	}
	intraBytes, interBytes, _, intraReduced = chainBytes(s.nodes, s.perNode, size)
	return 2 * (s.perNode - 1), min(s.nodes-1, 1), intraBytes, intraReduced, interBytes, 0
}

// fluidStages returns the fluid limit of a pipeline on two levels: the
// first chunk's intraSteps steps inside a node and interSteps across the
// network pay each level's α, one message each, and the data then streams at
// the pace of the slower level, the busiest rank sending intra inside its
// node and inter across the network at once. A level with no steps has no
// part.
func fluidStages(intraSteps, interSteps int, intra, inter Cost) []Stage {
	out := make([]Stage, 0, 3)
	var bw Stage
	if intraSteps > 0 {
		out = append(out, Stage{Intra: Cost{Steps: intraSteps, Messages: intraSteps, Peers: intra.Peers, Fanout: 1}})
		bw.Intra = intra
	}
	if interSteps > 0 {
		out = append(out, Stage{Inter: Cost{Steps: interSteps, Messages: interSteps, Peers: inter.Peers, Fanout: 1}})
		bw.Inter = inter
	}
	return append(out, bw)
}

// fluidTime returns t >= +0 plus the times of fluidStages, one after the
// other, on Valid links, for bytes of a checked size: a stage on one level
// lasts as long as its part there. Each part's time is elapsed's without
// the terms that are +0 (0/BW, 0·α) and the max of elapsed's bytes with
// PathBytes = 0: the same to the bit, but that a part of S = -0 is -0, not
// +0, which t absorbs.
func fluidTime(t float64, intraSteps, interSteps int, intraBytes, intraReduced, interBytes, interReduced float64, intra, inter Link) float64 {
	var in, out float64
	if intraSteps > 0 {
		t += float64(intraSteps)*intra.Alpha + float64(intraSteps)*intra.Overhead
		in = intraBytes/intra.BW + intraReduced*intra.Gamma
	}
	if interSteps > 0 {
		t += float64(interSteps)*inter.Alpha + float64(interSteps)*inter.Overhead
		out = interBytes/inter.BW + interReduced*inter.Gamma
	}
	return t + max(in, out)
}

// A profile is what the times of a pipeline of one shape need of its sweep.
type profile struct {
	shape pipeShape
	key   uint64 // shape.key(), what cachedProfile compares
	// steps is T; chunks, messages and fanout are pipeline.path's.
	steps, messages, fanout int
	// path is the critical path's bytes per byte of S over all levels:
	// chunks/(parts·C), the sweep's chunks times a chunk.
	path float64
	// both are the runs of steps with traffic on both levels (pipeline.split),
	// those of equal loads merged; intra and inter are the runs with traffic
	// on one level only, summed.
	both         []twoLevels
	intra, inter levelLoad
}

// A levelLoad is what the busiest ranks of a run of steps do on one level,
// summed over its steps: the steps and the messages, and the bytes sent and
// reduced per byte of S (the chunks times 1/(parts·C)).
type levelLoad struct {
	steps, messages, bytes, reduced float64
}

// twoLevels is the loads on both levels of the runs whose busiest ranks'
// step is load.
type twoLevels struct {
	load         stepLoad
	intra, inter levelLoad
}

// time returns the run's time on l, given the time u = S/BW to send S and
// g = S·γ to reduce it, in seconds:
//
//	T = steps·α + messages·o + bytes·u + reduced·g
//
// the time of the stage's part (pipeline.stages), whose Bytes never exceed
// its PathBytes: a rank sends in a run at most what the busiest sends in
// each of its steps. On a link of α and BW only (alphaBW), the terms that
// are 0 are not computed: the sum is the same to the bit.
func (l *levelLoad) time(link Link, u, g float64, alphaBW bool) float64 {
	t := l.steps*link.Alpha + l.bytes*u
	if alphaBW {
		return t
	}
	return t + l.messages*link.Overhead + l.reduced*g
}

// add adds m's steps and traffic to l.
func (l *levelLoad) add(m levelLoad) {
	l.steps, l.messages, l.bytes, l.reduced = l.steps+m.steps, l.messages+m.messages, l.bytes+m.bytes, l.reduced+m.reduced
}

// perByte turns l's chunks (in bytes and reduced) into bytes per byte of S:
// a chunk is 1/k of S.
func (l *levelLoad) perByte(k float64) {
	l.bytes, l.reduced = l.bytes/k, l.reduced/k
}

// time returns the sum of the profile's stages' times for S = size bytes,
// a finite checked size, on Valid links, in seconds: every run lasts as
// long as the slower of its two levels,
//
//	T = Σ_runs max(T_intra, T_inter)
//
// which for a run on one level is that level's time, so those runs add up
// per level first. It rounds differently from the stages, which scale
// their chunks by the chunk's bytes and add the runs in order: the two
// agree to a few ulps (TestPipelineClusterTime).
func (p *profile) time(size float64, intra, inter Link) float64 {
	ui, gi := size/intra.BW, size*intra.Gamma
	ue, ge := size/inter.BW, size*inter.Gamma
	alphaBW := intra.Overhead == 0 && intra.Gamma == 0 && inter.Overhead == 0 && inter.Gamma == 0
	t := p.intra.time(intra, ui, gi, alphaBW) + p.inter.time(inter, ue, ge, alphaBW)
	for i := range p.both {
		r := &p.both[i]
		t += max(r.intra.time(intra, ui, gi, alphaBW), r.inter.time(inter, ue, ge, alphaBW))
	}
	return t
}

// newProfile sweeps s and keeps what its times need.
func newProfile(s pipeShape) *profile {
	q := s.sweep(nil)
	p := &profile{shape: s, key: s.key(), steps: q.steps()}
	var chunks int
	chunks, p.messages, p.fanout = q.path()
	p.path = float64(chunks) / float64(s.parts()*s.chunks)
	q.split()
	s.windows(&q)
	for _, r := range q.runs {
		n := float64(r.steps)
		level := func(chunks, msgs, reduced int16) levelLoad {
			if chunks == 0 && msgs == 0 { // no part on this level (pipeline.stages)
				return levelLoad{}
			}
			return levelLoad{steps: n, messages: n * float64(msgs), bytes: n * float64(chunks), reduced: n * float64(reduced)}
		}
		in := level(r.load.intra, r.load.intraMsgs, r.load.intraReduced)
		out := level(r.load.inter, r.load.interMsgs, r.load.interReduced)
		switch {
		case out.steps == 0:
			p.intra.add(in)
		case in.steps == 0:
			p.inter.add(out)
		default:
			p.addBoth(r.load, in, out)
		}
	}
	k := float64(s.parts() * s.chunks)
	p.intra.perByte(k)
	p.inter.perByte(k)
	for i := range p.both {
		p.both[i].intra.perByte(k)
		p.both[i].inter.perByte(k)
	}
	return p
}

// addBoth adds a run on both levels whose busiest ranks' step is load: to
// the run of the same load if there is one (the two last as long as the
// slower level, the same in each), or as a run of its own.
func (p *profile) addBoth(load stepLoad, in, out levelLoad) {
	for i := range p.both {
		if r := &p.both[i]; r.load == load {
			r.intra.add(in)
			r.inter.add(out)
			return
		}
	}
	p.both = append(p.both, twoLevels{load, in, out})
}

// profileBits is the log2 of the number of sets of profiles, each of
// profileWays slots.
const (
	profileBits = 7
	profileWays = 2
)

// profiles is the table of memoized profiles, 2-way set-associative: a
// shape's profile is in one of the two slots of set s.set() or nowhere. A
// new profile takes the set's first slot and moves the one there to the
// second, so that the set keeps the two shapes last swept in it, and two
// shapes evaluated in turn do not evict each other. It is bounded (256
// profiles), and safe for concurrent use: profiles are immutable once
// stored and a slot is one atomic pointer, so a reader sees either a whole
// profile or nil; a reader that misses while another goroutine moves a
// profile, or two that miss at once, sweep again, and the later store wins.
var profiles [1 << profileBits][profileWays]atomic.Pointer[profile]

// profileOf returns the profile of s, from profiles if it is there, else
// swept and stored there.
func profileOf(s pipeShape) *profile {
	if p := cachedProfile(s.key()); p != nil {
		return p
	}
	return otherProfile(s)
}

// cachedProfile returns the profile in the first slot of the set of the
// shape of key if it is that shape's, else nil. It inlines (cost 42), where
// profileOf, with its call, does not: the evaluations call it and, on a
// miss, otherProfile, one call fewer than through profileOf. Through
// profileOf, Tree in 8 chunks on one link took 14% longer (44.4 against
// 38.9 ns, eight alternated rounds, p = 0.015).
func cachedProfile(key uint64) *profile {
	p := profiles[setOf(key)][0].Load()
	if p == nil || p.key != key || key == 0 {
		return nil
	}
	return p
}

// otherProfile returns the profile of s from either slot of its set,
// compared by shape (cachedProfile finds no shape of key 0 in the first),
// or sweeps s and stores its profile in the first slot, the one there
// moving to the second.
//
//go:noinline
func otherProfile(s pipeShape) *profile {
	set := &profiles[s.set()]
	for i := range set {
		if p := set[i].Load(); p != nil && p.shape == s {
			return p
		}
	}
	p := newProfile(s)
	set[1].Store(set[0].Swap(p))
	return p
}

// key packs s in 64 bits, N, p and C in 21 bits each and the kind in the
// top bit, or is 0 if one of them does not fit: then two shapes may not
// share a key, and a profile's key tells its shape from every other.
func (s pipeShape) key() uint64 {
	if uint(s.nodes|s.perNode|s.chunks) >= 1<<21 {
		return 0
	}
	return uint64(s.nodes) | uint64(s.perNode)<<21 | uint64(s.chunks)<<42 | uint64(s.kind)<<63
}

// set is the set of s in profiles (setOf).
func (s pipeShape) set() uint { return setOf(s.key()) }

// setOf hashes a shape's key into profiles: the key multiplied by 2^64/φ
// (Knuth's multiplicative hashing), its top bits, which spreads shapes that
// differ in any of their numbers across the table.
func setOf(key uint64) uint {
	return uint((key * 0x9e3779b97f4a7c15) >> (64 - profileBits))
}
