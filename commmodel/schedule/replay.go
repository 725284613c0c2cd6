package schedule

import (
	"math"

	"github.com/inframethod/commlab/commmodel"
)

// Replay returns how long s takes under the alpha-beta model, in seconds, when
// link(src, dst) is the Link between two ranks. Each step lasts as long as its
// slowest rank. A rank's egress serialises what it sends over one kind of link
// in a step, and different kinds of link (NVLink and the network) carry their
// parts at once, so rank r finishes sending after
//
//	send_r = max over links l of (α_l + m_l·o_l + B_l/BW_l)
//
// where m_l and B_l are the messages and bytes it sends over l and o_l the
// link's per-message Overhead. What r receives has arrived when the last of
// its senders has finished; it then reduces R_r bytes at the γ of the link
// they came over, so r's step takes
//
//	max(send_r, max over senders q of send_q) + Σ R_r·γ
//
// A switch passes on what it is sent within the step: a rank sends a switch
// what it sends through it, each source range once, as one message over its
// link to the ranks it reaches; a rank that receives through a switch has it
// when the last rank sending to it through the switch has finished; the
// switch's reduction costs no γ.
//
// Steps of local transfers only take no time. With one Link for every pair
// this is the closed form Cost.Time, Steps·α + Messages·o + PathBytes/BW +
// Reduced·γ, for every algorithm here. It is NaN if some Link is not Valid.
func Replay(s *Schedule, link func(src, dst int) commmodel.Link) float64 {
	r := replayer{p: s.P, link: link, eb: float64(s.ElemBytes),
		reduce: make([]float64, s.P), send: make([]float64, s.P), arrive: make([]float64, s.P)}
	total := 0.0
	for _, step := range s.Steps {
		r.msgs = messagesOf(step, s.P, r.msgs)
		if len(r.msgs) == 0 {
			continue
		}
		if !r.sendTimes() {
			return math.NaN()
		}
		total += r.finish(step)
	}
	return total
}

// A replayer holds Replay's state: each rank's times in the step being
// replayed, all zero between steps, and buffers reused from step to step.
type replayer struct {
	p      int                               // ranks
	link   func(src, dst int) commmodel.Link // the Link between two ranks
	eb     float64                           // bytes per element
	reduce []float64                         // this step's reduction time per rank, s
	send   []float64                         // this step's send time per rank, s
	arrive []float64                         // when the last message to each rank has arrived, s
	msgs   []message                         // this step's messages, by source
	parts  []linkPart                        // one source's parts, by link
}

// A linkPart is what one source sends over one Link in a step.
type linkPart struct {
	l     commmodel.Link
	msgs  int
	bytes float64
}

// linkOf returns the link m goes over and adds m's reduction at its
// receiver.
func (r *replayer) linkOf(m *message) commmodel.Link {
	l := r.link(m.src, m.via)
	if m.dst < r.p {
		r.reduce[m.dst] += float64(m.reduced) * r.eb * l.Gamma
	}
	return l
}

// sendTimes sets the send time of each source of the step's messages and
// adds their reductions at their receivers; false if a Link is not Valid.
func (r *replayer) sendTimes() bool {
	msgs := r.msgs
	for i := 0; i < len(msgs); {
		j := i + 1
		for j < len(msgs) && msgs[j].src == msgs[i].src {
			j++
		}
		t, ok := r.sourceTime(msgs[i:j])
		if !ok {
			return false
		}
		r.send[msgs[i].src] = t
		i = j
	}
	return true
}

// sourceTime returns how long one source takes to send msgs, its messages
// of a step: the slowest of its links, each link's time once; false if a
// Link is not Valid.
func (r *replayer) sourceTime(msgs []message) (float64, bool) {
	if len(msgs) == 1 { // one message, as in a ring: no parts to gather
		m := &msgs[0]
		l := r.linkOf(m)
		if !l.Valid() {
			return 0, false
		}
		return l.Alpha + l.Overhead + float64(m.elems)*r.eb/l.BW, true
	}
	r.parts = r.parts[:0]
	for k := range msgs {
		m := &msgs[k]
		l := r.linkOf(m)
		if !l.Valid() {
			return 0, false
		}
		q := 0
		for q < len(r.parts) && r.parts[q].l != l {
			q++
		}
		if q == len(r.parts) {
			r.parts = append(r.parts, linkPart{l: l})
		}
		r.parts[q].msgs++
		r.parts[q].bytes += float64(m.elems) * r.eb
	}
	t := 0.0
	for _, q := range r.parts {
		t = max(t, q.l.Alpha+float64(q.msgs)*q.l.Overhead+q.bytes/q.l.BW)
	}
	return t, true
}

// finish returns the step's time, that of its slowest rank, from the send
// times: each rank's messages, direct or through a switch, have arrived
// when their last sender has finished; then it reduces. It zeroes the
// step's times for the next.
func (r *replayer) finish(step []Transfer) float64 {
	msgs, send, arrive, reduce := r.msgs, r.send, r.arrive, r.reduce
	for _, m := range msgs {
		if m.dst < r.p {
			arrive[m.dst] = max(arrive[m.dst], send[m.src])
		}
	}
	for _, t := range step {
		if t.Switch > 0 {
			arrive[t.Dst] = max(arrive[t.Dst], send[t.Src])
		}
	}
	slowest := 0.0
	for _, m := range msgs {
		slowest = max(slowest, max(send[m.src], arrive[m.src])+reduce[m.src])
		if m.dst < r.p {
			slowest = max(slowest, max(send[m.dst], arrive[m.dst])+reduce[m.dst])
		}
	}
	for _, t := range step {
		if t.Switch > 0 {
			slowest = max(slowest, max(send[t.Dst], arrive[t.Dst])+reduce[t.Dst])
		}
	}
	for _, m := range msgs {
		send[m.src] = 0
		if m.dst < r.p {
			arrive[m.dst], reduce[m.dst] = 0, 0
		}
	}
	for _, t := range step {
		if t.Switch > 0 {
			arrive[t.Dst] = 0
		}
	}
	return slowest
}

// Uniform returns a link function that gives l for every pair of ranks.
func Uniform(l commmodel.Link) func(src, dst int) commmodel.Link {
	return func(int, int) commmodel.Link { return l }
}

// TwoLevel returns the link function of ranks numbered node by node, perNode
// to a node: intra between ranks of one node, inter between nodes. It panics
// if perNode < 1.
func TwoLevel(perNode int, intra, inter commmodel.Link) func(src, dst int) commmodel.Link {
	if perNode < 1 {
		panic("schedule: TwoLevel needs at least one rank per node")
	}
	return func(src, dst int) commmodel.Link {
		if src/perNode == dst/perNode {
			return intra
		}
		return inter
	}
}
