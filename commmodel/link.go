package commmodel

import "math"

// Microsecond is one microsecond in seconds, the unit in which the article
// and nccl-tests print times.
const Microsecond = 1e-6

// Link is the alpha-beta-gamma model of one level of a fabric, seen from a rank.
type Link struct {
	// Alpha is the start-up latency of one step, in seconds.
	Alpha float64
	// BW is one rank's egress bandwidth (nccl-tests' bus bandwidth), in bytes per second.
	BW float64
	// Gamma is the time to reduce one byte locally, in seconds per byte (0 by default).
	Gamma float64
	// Overhead is the injection cost of one message, in seconds (LogP's o; 0 by
	// default, as in the article's model). It charges algorithms that send many
	// messages per step, such as direct AllToAll across nodes.
	Overhead float64
}

// Valid reports whether l can time a transfer: Alpha, Gamma and Overhead are
// finite and non-negative and BW is finite and positive.
func (l Link) Valid() bool {
	// A sum of non-negative numbers is finite only if each of them is.
	return l.Alpha >= 0 && l.Gamma >= 0 && l.Overhead >= 0 && l.BW > 0 &&
		l.Alpha+l.Gamma+l.Overhead+l.BW <= math.MaxFloat64
}

// Cost is what an algorithm asks of the busiest rank: how many steps, how many
// bytes and messages it sends, how many bytes it reduces, and how many peers it
// holds connections to. Where ranks do different work (the folded ranks of
// halving-doubling, the root of a broadcast) each field is the busiest rank's.
type Cost struct {
	// Steps is the number of sequential communication steps, each paying alpha.
	Steps int
	// Bytes is the number of bytes the busiest rank sends, in bytes.
	Bytes float64
	// PathBytes is the sum over steps of the most bytes any rank sends in that
	// step, in bytes: what the steps' durations add up to. It is never less
	// than Bytes and differs from it only where ranks take turns (the fold of
	// halving-doubling, the pipeline of a broadcast); zero means "equal to Bytes".
	PathBytes float64
	// Reduced is the number of bytes the busiest rank reduces locally, in bytes.
	Reduced float64
	// Peers is the number of distinct ranks a rank sends to or receives from
	// over the whole collective: the connections it must hold.
	Peers int
	// Fanout is the most peers a rank sends to within one step: 1 for the
	// one-at-a-time schedules (ring, pairwise, Bruck), P-1 for direct AllToAll.
	Fanout int
	// Messages is the sum over steps of the most messages any rank sends in
	// that step; like PathBytes, it exceeds the busiest rank's own count only
	// where ranks take turns.
	Messages int
}

// Path returns the bytes on the critical path: PathBytes, or Bytes if that is larger.
func (c Cost) Path() float64 {
	if c.PathBytes > c.Bytes {
		return c.PathBytes
	}
	return c.Bytes
}

// Time returns the cost's duration on l, in seconds:
//
//	T = Steps·α + Messages·o + Path/BW + Reduced·γ
//
// with o = l.Overhead (0 unless set) and Path the critical-path bytes (Bytes
// for every algorithm whose ranks all send in every step). It is NaN if l is
// not Valid or the byte counts are negative or NaN.
func (c Cost) Time(l Link) float64 {
	if !l.Valid() || c.Bytes < 0 || c.PathBytes < 0 || c.Reduced < 0 {
		return math.NaN()
	}
	// NaN byte counts make the result NaN by themselves.
	return float64(c.Steps)*l.Alpha + float64(c.Messages)*l.Overhead + max(c.Bytes, c.PathBytes)/l.BW + c.Reduced*l.Gamma
}

// scaled returns c with its byte counts multiplied by s.
func (c Cost) scaled(s float64) Cost {
	c.Bytes, c.PathBytes, c.Reduced = c.Bytes*s, c.PathBytes*s, c.Reduced*s
	return c
}

// Then returns the cost of running c and then d: steps, bytes and messages
// add; peers and fanout are the larger of the two (phases that talk to
// different ranks must count their distinct peers themselves).
func (c Cost) Then(d Cost) Cost {
	return Cost{
		Steps:     c.Steps + d.Steps,
		Bytes:     c.Bytes + d.Bytes,
		PathBytes: c.Path() + d.Path(),
		Reduced:   c.Reduced + d.Reduced,
		Peers:     max(c.Peers, d.Peers),
		Fanout:    max(c.Fanout, d.Fanout),
		Messages:  c.Messages + d.Messages,
	}
}
