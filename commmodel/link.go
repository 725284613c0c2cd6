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
	return duration(c.Steps, c.Messages, c.Bytes, c.PathBytes, c.Reduced, l)
}

// duration is Cost.Time on the fields the time depends on. Passing them as
// scalars keeps them in registers; the whole Cost is too large for that.
func duration(steps, messages int, bytes, pathBytes, reduced float64, l Link) float64 {
	if !l.Valid() {
		return math.NaN()
	}
	return l.elapsed(steps, messages, bytes, pathBytes, reduced)
}

// elapsed is duration on l, a link known to be Valid. As a method, it takes
// a terms method's results whole: l.elapsed(a.terms(p, size)).
func (l Link) elapsed(steps, messages int, bytes, pathBytes, reduced float64) float64 {
	if bytes < 0 || pathBytes < 0 || reduced < 0 {
		return math.NaN()
	}
	// NaN byte counts make the result NaN by themselves.
	return float64(steps)*l.Alpha + float64(messages)*l.Overhead + max(bytes, pathBytes)/l.BW + reduced*l.Gamma
}

// elapsedTwice is l.elapsed(steps, messages, bytes, 0, r) for r = 0
// (plain) and r = reduced (reducing), to the bit, on a link known to be
// Valid: the times of two stages that send the same bytes, of which one
// reduces them (the reduce-scatter and all-gather halves of an AllReduce).
//
//	plain = steps·α + messages·o + bytes/BW,  reducing = plain + reduced·γ
//
// The two share their one division. plain is elapsed's sum before its
// last term, 0·γ = +0, which leaves it unchanged: it is never -0 (its
// first term is +0 or more).
func (l Link) elapsedTwice(steps, messages int, bytes, reduced float64) (plain, reducing float64) {
	if bytes < 0 || reduced < 0 {
		return math.NaN(), math.NaN()
	}
	plain = float64(steps)*l.Alpha + float64(messages)*l.Overhead + max(bytes, 0)/l.BW
	return plain, plain + reduced*l.Gamma
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

// termed is implemented by the built-in algorithms: terms returns the parts
// of Cost(p, size) that its time depends on, as scalars, for the hot path of
// Time and Fastest. Cost is built from the same terms (costOf).
//
// The terms are linear in the size by construction: the steps and messages
// do not depend on it and the byte counts are proportional to it, so that
// the time is a Line (Flat.Line). An algorithm that composes another
// Algorithm is linear only if that one is (see linear).
type termed interface {
	terms(p int, size float64) (steps, messages int, bytes, pathBytes, reduced float64)
}

// costOf assembles a Cost from its time terms; the caller adds peers and fanout.
func costOf(steps, messages int, bytes, pathBytes, reduced float64) Cost {
	return Cost{Steps: steps, Messages: messages, Bytes: bytes, PathBytes: pathBytes, Reduced: reduced}
}
