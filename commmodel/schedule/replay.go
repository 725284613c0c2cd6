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
	eb := float64(s.ElemBytes)
	reduce := make([]float64, s.P) // this step's reduction time per rank, s
	send := make([]float64, s.P)   // this step's send time per rank, s
	arrive := make([]float64, s.P) // when the last message to each rank has arrived, s
	var msgs []message
	type part struct {
		l     commmodel.Link
		msgs  int
		bytes float64
	}
	var parts []part
	// linkOf returns the link m goes over and adds m's reduction at its
	// receiver.
	linkOf := func(m *message) commmodel.Link {
		l := link(m.src, m.via)
		if m.dst < s.P {
			reduce[m.dst] += float64(m.reduced) * eb * l.Gamma
		}
		return l
	}
	total := 0.0
	for _, step := range s.Steps {
		msgs = messagesOf(step, s.P, msgs)
		if len(msgs) == 0 {
			continue
		}
		for i := 0; i < len(msgs); {
			// The messages of one source: their links and their receivers'
			// reductions, and the source's send time, each link's time once.
			j := i + 1
			for j < len(msgs) && msgs[j].src == msgs[i].src {
				j++
			}
			if j == i+1 { // one message, as in a ring: no parts to gather
				m := &msgs[i]
				l := linkOf(m)
				if !l.Valid() {
					return math.NaN()
				}
				send[m.src] = l.Alpha + l.Overhead + float64(m.elems)*eb/l.BW
				i = j
				continue
			}
			parts = parts[:0]
			for k := i; k < j; k++ {
				m := &msgs[k]
				l := linkOf(m)
				if !l.Valid() {
					return math.NaN()
				}
				q := 0
				for q < len(parts) && parts[q].l != l {
					q++
				}
				if q == len(parts) {
					parts = append(parts, part{l: l})
				}
				parts[q].msgs++
				parts[q].bytes += float64(m.elems) * eb
			}
			t := 0.0
			for _, q := range parts {
				t = max(t, q.l.Alpha+float64(q.msgs)*q.l.Overhead+q.bytes/q.l.BW)
			}
			send[msgs[i].src] = t
			i = j
		}
		for _, m := range msgs {
			if m.dst < s.P {
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
			if m.dst < s.P {
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
			if m.dst < s.P {
				arrive[m.dst], reduce[m.dst] = 0, 0
			}
		}
		for _, t := range step {
			if t.Switch > 0 {
				arrive[t.Dst] = 0
			}
		}
		total += slowest
	}
	return total
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
