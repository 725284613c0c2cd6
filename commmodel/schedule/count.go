package schedule

import (
	"cmp"
	"slices"
)

// Counts is the traffic of a schedule, counted transfer by transfer. A message
// is everything one rank sends to one other rank in one step, however many
// transfers it is made of; local transfers are not messages.
type Counts struct {
	// Steps is the number of communication steps (steps with a message).
	Steps int
	// Sent, Received and Reduced are each rank's bytes sent, received, and
	// received with reduce semantics, in bytes.
	Sent, Received, Reduced []int64
	// Messages is the number of messages each rank sends.
	Messages []int
	// Peers is the number of distinct ranks each rank sends to or receives from.
	Peers []int
	// Fanout is the most ranks one rank sends to in one step.
	Fanout int
	// StepFanout is, for each communication step, the most ranks one rank
	// sends to in it: the peers per rank per step.
	StepFanout []int
	// Incast is the most ranks that send to one rank in one step.
	Incast int
	// PathBytes is the sum over steps of the most bytes one rank sends in that step, in bytes.
	PathBytes int64
	// PathMessages is the sum over steps of the most messages one rank sends in that step.
	PathMessages int
}

// MaxSent returns the busiest rank's bytes sent, in bytes.
func (c Counts) MaxSent() int64 { return slices.Max(append([]int64{0}, c.Sent...)) }

// MaxReduced returns the most bytes one rank reduces, in bytes.
func (c Counts) MaxReduced() int64 { return slices.Max(append([]int64{0}, c.Reduced...)) }

// MaxMessages returns the most messages one rank sends.
func (c Counts) MaxMessages() int { return slices.Max(append([]int{0}, c.Messages...)) }

// MaxPeers returns the most distinct peers of one rank: its connections.
func (c Counts) MaxPeers() int { return slices.Max(append([]int{0}, c.Peers...)) }

// message is what one rank sends another in one step.
type message struct {
	src, dst int
	elems    int // elements sent
	reduced  int // of which the receiver reduces
}

// messagesOf appends the messages of step to buf[:0], sorted by source and
// then destination, and returns it.
func messagesOf(step []Transfer, buf []message) []message {
	buf = buf[:0]
	for _, t := range step {
		if t.Local() {
			continue
		}
		m := message{src: t.Src, dst: t.Dst, elems: t.Len}
		if t.Op == Reduce {
			m.reduced = t.Len
		}
		buf = append(buf, m)
	}
	sorted := true // as most generators write them
	for i := 1; i < len(buf) && sorted; i++ {
		a, b := buf[i-1], buf[i]
		sorted = a.src < b.src || a.src == b.src && a.dst <= b.dst
	}
	if !sorted {
		slices.SortFunc(buf, func(a, b message) int {
			if c := cmp.Compare(a.src, b.src); c != 0 {
				return c
			}
			return cmp.Compare(a.dst, b.dst)
		})
	}
	out := buf[:0] // merge transfers between the same pair
	for _, m := range buf {
		if k := len(out) - 1; k >= 0 && out[k].src == m.src && out[k].dst == m.dst {
			out[k].elems += m.elems
			out[k].reduced += m.reduced
			continue
		}
		out = append(out, m)
	}
	return out
}

// Count counts s's traffic without moving data. It does not validate s;
// ranks out of range panic.
func Count(s *Schedule) Counts {
	p, eb := s.P, int64(s.ElemBytes)
	c := Counts{
		Sent: make([]int64, p), Received: make([]int64, p), Reduced: make([]int64, p),
		Messages: make([]int, p), Peers: make([]int, p),
	}
	words := (p + 63) / 64
	seen := make([]uint64, p*words) // seen[r·words + q/64] bit q: r and q have exchanged data
	link := func(a, b int) {
		if w := &seen[a*words+b/64]; *w&(1<<(b%64)) == 0 {
			*w |= 1 << (b % 64)
			c.Peers[a]++
		}
	}
	incast := make([]int, p)
	var msgs []message
	for _, step := range s.Steps {
		msgs = messagesOf(step, msgs)
		if len(msgs) == 0 {
			continue
		}
		c.Steps++
		var stepBytes int64
		stepMsgs := 0
		for i := 0; i < len(msgs); {
			j, bytes := i, int64(0)
			for ; j < len(msgs) && msgs[j].src == msgs[i].src; j++ {
				m := msgs[j]
				b := int64(m.elems) * eb
				bytes += b
				c.Sent[m.src] += b
				c.Received[m.dst] += b
				c.Reduced[m.dst] += int64(m.reduced) * eb
				c.Messages[m.src]++
				link(m.src, m.dst)
				link(m.dst, m.src)
				incast[m.dst]++
				c.Incast = max(c.Incast, incast[m.dst])
			}
			stepBytes = max(stepBytes, bytes)
			stepMsgs = max(stepMsgs, j-i)
			i = j
		}
		for _, m := range msgs {
			incast[m.dst] = 0
		}
		c.Fanout = max(c.Fanout, stepMsgs)
		c.StepFanout = append(c.StepFanout, stepMsgs)
		c.PathBytes += stepBytes
		c.PathMessages += stepMsgs
	}
	return c
}
