package commmodel

// Pipelined schedules.
//
// A pipelined algorithm cuts each part of its data into C chunks and moves
// them in lockstep: a rank that sends chunk 0 of a part in step s sends
// chunk c of it in step s+c. All a rank does is then a set of windows, each
// a run of C consecutive steps from some start in which it sends a fixed
// number of chunks to one peer over one level of the fabric (or receives
// and reduces them). In the step model a step lasts as long as its busiest
// rank's step, so the time needs, for every step, the most chunks and
// messages any rank sends in it: over all levels together on one Link, and
// over each level on a Cluster.
//
// A rank's load changes only where one of its windows starts or ends. With
// L the latest start plus one, and T = L - 1 + C steps in all, every step
// of L..C-1 (when C > L) has every window open and looks alike, so the
// profile keeps at most 2L distinct steps, however large C is: its cost is
// that of the ranks times 2L, not of the ranks times T.

// A window is a run of C steps, from start on, in which a rank sends (or,
// if reduce is set, receives and reduces) chunks chunks per step.
type window struct {
	start  int  // the step of chunk 0
	chunks int  // chunks per step
	peer   int  // the other end; what a rank sends one peer in one step is one message
	inter  bool // the window crosses the network
	reduce bool // received and reduced, not sent
}

// maxWindows bounds the windows of one rank.
const maxWindows = 16

// A sender is the windows of one rank.
type sender struct {
	w [maxWindows]window
	n int
}

// send adds a window in which the rank sends chunks chunks per step to peer.
func (s *sender) send(start, chunks, peer int, inter bool) {
	s.w[s.n] = window{start: start, chunks: chunks, peer: peer, inter: inter}
	s.n++
}

// receive adds a window in which the rank reduces chunks chunks per step.
func (s *sender) receive(start, chunks int, inter bool) {
	s.w[s.n] = window{start: start, chunks: chunks, inter: inter, reduce: true}
	s.n++
}

// total returns the chunks the rank sends over all its windows (per step of
// each, so times C for the whole pipeline), and those it sends over the
// network, and those it reduces.
func (s *sender) total() (sent, network, reduced int) {
	for _, w := range s.w[:s.n] {
		switch {
		case w.reduce:
			reduced += w.chunks
		case w.inter:
			network += w.chunks
			sent += w.chunks
		default:
			sent += w.chunks
		}
	}
	return sent, network, reduced
}

// stepLoad is what the busiest rank does in one step, in chunks and
// messages: over all levels (all, allMsgs, allReduced) and over each.
type stepLoad struct {
	all, allMsgs, allReduced       int16
	intra, intraMsgs, intraReduced int16
	inter, interMsgs, interReduced int16
}

// load returns what s does in step t of a pipeline of c chunks.
func (s *sender) load(t, c int) stepLoad {
	var l stepLoad
	var seen [maxWindows]int
	n := 0
	for _, w := range s.w[:s.n] {
		if t < w.start || t >= w.start+c {
			continue
		}
		if w.reduce {
			l.allReduced += int16(w.chunks)
			if w.inter {
				l.interReduced += int16(w.chunks)
			} else {
				l.intraReduced += int16(w.chunks)
			}
			continue
		}
		l.all += int16(w.chunks)
		if w.inter {
			l.inter += int16(w.chunks)
		} else {
			l.intra += int16(w.chunks)
		}
		dup := false
		for _, p := range seen[:n] {
			dup = dup || p == w.peer
		}
		if dup {
			continue
		}
		seen[n] = w.peer
		n++
		l.allMsgs++
		if w.inter {
			l.interMsgs++
		} else {
			l.intraMsgs++
		}
	}
	return l
}

// maxOf raises every field of l to that of m.
func (l *stepLoad) maxOf(m stepLoad) {
	l.all, l.allMsgs, l.allReduced = max(l.all, m.all), max(l.allMsgs, m.allMsgs), max(l.allReduced, m.allReduced)
	l.intra, l.intraMsgs, l.intraReduced = max(l.intra, m.intra), max(l.intraMsgs, m.intraMsgs), max(l.intraReduced, m.intraReduced)
	l.inter, l.interMsgs, l.interReduced = max(l.inter, m.inter), max(l.interMsgs, m.interMsgs), max(l.interReduced, m.interReduced)
}

// A pipeline is the profile of a pipelined schedule of C chunks whose
// latest window starts at step last. It is filled in two passes over the
// ranks, each calling add once per rank: newPipeline and add give the
// busiest rank's step (path); split, add again and stages split it into the
// stages of a two-level fabric.
type pipeline struct {
	chunks, last int
	slots        []stepLoad // the busiest rank's step, per distinct step (slot)
	runs         []pipeRun  // after split: runs of slots alike on both levels
}

// A pipeRun is a run of slots in which the busiest ranks send alike over
// each level.
type pipeRun struct {
	first, end int      // slots
	steps      int      // steps the slots stand for
	load       stepLoad // the busiest rank's step, all-level fields zero
	most       [2]int   // the most chunks one rank sends in the run: intra, inter
}

// steps returns T, the pipeline's number of steps.
func (q *pipeline) steps() int { return q.last + q.chunks }

// nslots is the number of distinct steps: T, or 2L when C > L.
func (q *pipeline) nslots() int {
	if l := q.last + 1; q.chunks > l {
		return 2 * l
	}
	return q.steps()
}

// slot returns the step that slot j stands for and how many steps it does.
func (q *pipeline) slot(j int) (t, n int) {
	l := q.last + 1
	switch {
	case q.chunks <= l || j < l:
		return j, 1
	case j == l:
		return l, q.chunks - l
	}
	return q.chunks + j - l - 1, 1
}

// newPipeline returns an empty pipeline of c >= 1 chunks whose latest
// window starts at step last >= 0.
func newPipeline(c, last int) pipeline {
	q := pipeline{chunks: c, last: last}
	q.slots = make([]stepLoad, q.nslots())
	return q
}

// add takes rank s into the profile, or after split into the runs.
func (q *pipeline) add(s *sender) {
	if q.runs == nil {
		lo, hi := q.span(s)
		for j := lo; j < hi; j++ {
			t, _ := q.slot(j)
			q.slots[j].maxOf(s.load(t, q.chunks))
		}
		return
	}
	for k := range q.runs {
		r := &q.runs[k]
		var in, out int
		for j := r.first; j < r.end; j++ {
			t, n := q.slot(j)
			l := s.load(t, q.chunks)
			in += n * int(l.intra)
			out += n * int(l.inter)
		}
		r.most[0], r.most[1] = max(r.most[0], in), max(r.most[1], out)
	}
}

// span returns the slots in which s has a window open.
func (q *pipeline) span(s *sender) (lo, hi int) {
	if s.n == 0 {
		return 0, 0
	}
	first, last := s.w[0].start, s.w[0].start
	for _, w := range s.w[1:s.n] {
		first, last = min(first, w.start), max(last, w.start)
	}
	return q.slotOf(first), q.slotOf(last+q.chunks-1) + 1
}

// slotOf returns the slot that stands for step t.
func (q *pipeline) slotOf(t int) int {
	l := q.last + 1
	switch {
	case q.chunks <= l || t < l:
		return t
	case t < q.chunks:
		return l
	}
	return t - q.chunks + l + 1
}

// path returns the sum over steps of the busiest rank's chunks and of its
// messages, over all levels, and the most messages one rank sends in a step.
func (q *pipeline) path() (chunks, messages, fanout int) {
	for j, l := range q.slots {
		_, n := q.slot(j)
		chunks += n * int(l.all)
		messages += n * int(l.allMsgs)
		fanout = max(fanout, int(l.allMsgs))
	}
	return chunks, messages, fanout
}

// split cuts the filled profile into runs of steps whose busiest ranks send
// alike over each level; the ranks must then be added again.
func (q *pipeline) split() {
	q.runs = make([]pipeRun, 0, 8)
	for j, l := range q.slots {
		_, n := q.slot(j)
		l.all, l.allMsgs, l.allReduced = 0, 0, 0
		if k := len(q.runs) - 1; k >= 0 && q.runs[k].load == l {
			q.runs[k].end, q.runs[k].steps = j+1, q.runs[k].steps+n
			continue
		}
		q.runs = append(q.runs, pipeRun{first: j, end: j + 1, steps: n, load: l})
	}
}

// stages returns the runs as stages of a two-level fabric, with the busiest
// rank's chunks and messages of every step on the stage's critical path
// (PathBytes, Messages), the most one rank sends over the stage (Bytes),
// and the reduction of every step's busiest reducer (Reduced). chunk is the
// size of a chunk in bytes; peers the connections a rank holds inside its
// node and across the network.
func (q *pipeline) stages(chunk float64, intraPeers, interPeers int) []Stage {
	out := make([]Stage, len(q.runs))
	for k, r := range q.runs {
		part := func(chunks, msgs, reduced int16, most, peers int) Cost {
			if chunks == 0 && msgs == 0 {
				return Cost{}
			}
			return Cost{
				Steps: r.steps, Bytes: float64(most) * chunk, PathBytes: float64(r.steps) * float64(chunks) * chunk,
				Reduced: float64(r.steps) * float64(reduced) * chunk, Peers: peers, Fanout: int(msgs),
				Messages: r.steps * int(msgs),
			}
		}
		out[k] = Stage{
			Intra: part(r.load.intra, r.load.intraMsgs, r.load.intraReduced, r.most[0], intraPeers),
			Inter: part(r.load.inter, r.load.interMsgs, r.load.interReduced, r.most[1], interPeers),
		}
	}
	return out
}
