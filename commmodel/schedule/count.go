package schedule

import (
	"cmp"
	"math/bits"
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

// message is what one rank sends another rank, or a switch, in one step.
type message struct {
	src, dst int // dst >= P: switch dst-P, for a schedule of P ranks
	via      int // the rank over whose link from src the message goes (dst for a direct one)
	off      int // a switch message's first source offset (to find repeated ranges)
	elems    int // elements sent
	reduced  int // of which the receiver reduces
}

// messagesOf appends the messages of step over p ranks to buf[:0], sorted by
// source and then destination, and returns it. What a rank sends through a
// switch in one step is one message to the switch, and a source range the
// switch hands to several ranks is sent once.
func messagesOf(step []Transfer, p int, buf []message) []message {
	// One pass builds the messages and learns whether their pairs
	// (src, dst) strictly increase, as most generators write them: then
	// they are sorted and one to a pair already, and nothing is merged.
	buf = slices.Grow(buf[:0], len(step))
	ordered := true
	for _, t := range step {
		if t.Local() {
			continue
		}
		m := message{src: t.Src, dst: t.Dst, via: t.Dst, elems: t.Len}
		switch {
		case t.Switch > 0:
			m.dst, m.off = p+t.Switch-1, t.SrcOff
		case t.Op == Reduce:
			m.reduced = t.Len
		}
		if k := len(buf) - 1; k >= 0 && ordered {
			last := &buf[k]
			ordered = last.src < m.src || last.src == m.src && last.dst < m.dst
		}
		buf = append(buf, m)
	}
	if ordered {
		return buf
	}
	if !slices.IsSortedFunc(buf, messageOrder) {
		slices.SortFunc(buf, messageOrder)
	}
	out := buf[:0] // merge transfers between the same pair
	last := message{src: -1}
	for _, m := range buf {
		if k := len(out) - 1; k >= 0 && out[k].src == m.src && out[k].dst == m.dst {
			if m.dst < p || m.off != last.off || m.elems != last.elems { // a switch sends a range once
				out[k].elems += m.elems
				out[k].reduced += m.reduced
			}
			last = m
			continue
		}
		out = append(out, m)
		last = m
	}
	return out
}

// messageOrder orders messages by source, destination, offset and length.
func messageOrder(a, b message) int {
	if c := cmp.Compare(a.src, b.src); c != 0 {
		return c
	}
	if c := cmp.Compare(a.dst, b.dst); c != 0 {
		return c
	}
	if c := cmp.Compare(a.off, b.off); c != 0 {
		return c
	}
	return cmp.Compare(a.elems, b.elems)
}

// A delivery is a range a switch writes into a rank in one step.
type delivery struct{ dst, sw, off, elems int }

// deliveriesOf appends to buf[:0] the ranges the switches of step write into
// ranks, each once however many ranks it sums, and returns it.
func deliveriesOf(step []Transfer, buf []delivery) []delivery {
	buf = buf[:0]
	for _, t := range step {
		if t.Switch > 0 {
			buf = append(buf, delivery{t.Dst, t.Switch, t.DstOff, t.Len})
		}
	}
	slices.SortFunc(buf, func(a, b delivery) int {
		return cmp.Or(cmp.Compare(a.dst, b.dst), cmp.Compare(a.sw, b.sw), cmp.Compare(a.off, b.off), cmp.Compare(a.elems, b.elems))
	})
	return slices.Compact(buf)
}

// Count counts s's traffic without moving data. A switch counts as one peer
// of every rank that sends to it or receives from it; what it writes into a
// rank is received once however many ranks it sums. It does not validate s;
// ranks out of range panic. A schedule of many transfers is counted over
// GOMAXPROCS goroutines, each a run of steps, and their counts added up.
func Count(s *Schedule) Counts {
	w := s.workers()
	parts := make([]counter, w)
	inParts(len(s.Steps), w, func(k, lo, hi int) {
		parts[k] = newCounter(s.P, int64(s.ElemBytes))
		for _, step := range s.Steps[lo:hi] {
			parts[k].step(step)
		}
	})
	all := &parts[0]
	for i := range parts[1:] {
		all.add(&parts[1+i])
	}
	c := all.c
	c.Peers = make([]int, s.P)
	for r := range c.Peers {
		for _, x := range all.seen[r*all.words : (r+1)*all.words] {
			c.Peers[r] += bits.OnesCount64(x)
		}
		for _, sw := range all.switches {
			c.Peers[r] += int(sw[r/64] >> (r % 64) & 1)
		}
	}
	return c
}

// A counter counts the traffic of a run of steps (Count), Peers aside.
type counter struct {
	c        Counts
	p        int
	eb       int64      // bytes per element
	words    int        // uint64s per rank in seen, and per switch in switches
	seen     []uint64   // seen[r·words + q/64] bit q: ranks r and q have exchanged data
	switches [][]uint64 // switches[i][r/64] bit r: rank r and switch i have exchanged data
	incast   []int      // this step's senders per rank
	msgs     []message
	dels     []delivery
}

// newCounter returns a counter for p ranks of elements of eb bytes.
func newCounter(p int, eb int64) counter {
	words := (p + 63) / 64
	return counter{
		c: Counts{
			Sent: make([]int64, p), Received: make([]int64, p), Reduced: make([]int64, p),
			Messages: make([]int, p),
		},
		p: p, eb: eb, words: words, seen: make([]uint64, p*words), incast: make([]int, p),
	}
}

// link marks that rank a has exchanged data with b: a rank, or from p on
// switch b-p, whose bits are added as switches are met (so Count need not
// read the schedule twice to learn how many there are).
func (k *counter) link(a, b int) {
	if b < k.p {
		k.seen[a*k.words+b/64] |= 1 << (b % 64)
		return
	}
	k.switchBits(b - k.p)[a/64] |= 1 << (a % 64)
}

// switchBits returns switch i's bits in switches, adding those of the
// switches up to i that are not there yet.
func (k *counter) switchBits(i int) []uint64 {
	for len(k.switches) <= i {
		k.switches = append(k.switches, make([]uint64, k.words))
	}
	return k.switches[i]
}

// step counts one step.
func (k *counter) step(step []Transfer) {
	c, p, eb := &k.c, k.p, k.eb
	k.msgs = messagesOf(step, p, k.msgs)
	if len(k.msgs) == 0 {
		return
	}
	k.dels = deliveriesOf(step, k.dels)
	for _, d := range k.dels {
		c.Received[d.dst] += int64(d.elems) * eb
		k.link(d.dst, p+d.sw-1)
	}
	c.Steps++
	msgs := k.msgs
	var stepBytes int64
	stepMsgs := 0
	for i := 0; i < len(msgs); {
		j, bytes := i, int64(0)
		for ; j < len(msgs) && msgs[j].src == msgs[i].src; j++ {
			m := msgs[j]
			b := int64(m.elems) * eb
			bytes += b
			c.Sent[m.src] += b
			c.Messages[m.src]++
			k.link(m.src, m.dst)
			if m.dst < p {
				c.Received[m.dst] += b
				c.Reduced[m.dst] += int64(m.reduced) * eb
				k.link(m.dst, m.src)
				k.incast[m.dst]++
				c.Incast = max(c.Incast, k.incast[m.dst])
			}
		}
		stepBytes = max(stepBytes, bytes)
		stepMsgs = max(stepMsgs, j-i)
		i = j
	}
	for _, m := range msgs {
		if m.dst < p {
			k.incast[m.dst] = 0
		}
	}
	c.Fanout = max(c.Fanout, stepMsgs)
	c.StepFanout = append(c.StepFanout, stepMsgs)
	c.PathBytes += stepBytes
	c.PathMessages += stepMsgs
}

// add adds the counts of q, which counted the steps after k's, to k's.
func (k *counter) add(q *counter) {
	c, d := &k.c, &q.c
	for r := range k.p {
		c.Sent[r] += d.Sent[r]
		c.Received[r] += d.Received[r]
		c.Reduced[r] += d.Reduced[r]
		c.Messages[r] += d.Messages[r]
	}
	for i, x := range q.seen {
		k.seen[i] |= x
	}
	for i, sw := range q.switches {
		own := k.switchBits(i)
		for j, x := range sw {
			own[j] |= x
		}
	}
	c.Steps += d.Steps
	c.StepFanout = append(c.StepFanout, d.StepFanout...)
	c.Fanout, c.Incast = max(c.Fanout, d.Fanout), max(c.Incast, d.Incast)
	c.PathBytes += d.PathBytes
	c.PathMessages += d.PathMessages
}
