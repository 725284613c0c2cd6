package commmodel

import "math"

// Link is the alpha-beta-gamma model of one level of a fabric, seen from a rank.
type Link struct {
	// Alpha is the start-up latency of one step, in seconds.
	Alpha float64
	// BW is one rank's egress bandwidth (nccl-tests' bus bandwidth), in bytes per second.
	BW float64
	// Gamma is the time to reduce one byte locally, in seconds per byte (0 by default).
	Gamma float64
}

// Valid reports whether l can time a transfer: Alpha and Gamma are finite and
// non-negative and BW is finite and positive.
func (l Link) Valid() bool {
	return l.Alpha >= 0 && !math.IsInf(l.Alpha, 0) &&
		l.BW > 0 && !math.IsInf(l.BW, 0) &&
		l.Gamma >= 0 && !math.IsInf(l.Gamma, 0)
}

// Cost is what an algorithm asks of the busiest rank: how many steps, how many
// bytes it sends and reduces, and how many peers it talks to.
type Cost struct {
	// Steps is the number of sequential communication steps, each paying alpha.
	Steps int
	// Bytes is the number of bytes the busiest rank sends, in bytes.
	Bytes float64
	// Reduced is the number of bytes the busiest rank reduces locally, in bytes.
	Reduced float64
	// Peers is the number of distinct peers a rank exchanges data with (connections).
	Peers int
}

// Time returns the cost's duration on l, in seconds:
//
//	T = Steps·α + Bytes/BW + Reduced·γ
//
// It is NaN if l is not Valid or the byte counts are negative or NaN.
func (c Cost) Time(l Link) float64 {
	if !l.Valid() || !(c.Bytes >= 0) || !(c.Reduced >= 0) {
		return math.NaN()
	}
	return float64(c.Steps)*l.Alpha + c.Bytes/l.BW + c.Reduced*l.Gamma
}

// Add returns the cost of running c and then d.
func (c Cost) Add(d Cost) Cost {
	return Cost{
		Steps:   c.Steps + d.Steps,
		Bytes:   c.Bytes + d.Bytes,
		Reduced: c.Reduced + d.Reduced,
		Peers:   max(c.Peers, d.Peers),
	}
}

// Sample is one measured point: a collective of Size bytes that took Time seconds.
type Sample struct {
	// Size is the message size in bytes, as nccl-tests prints it.
	Size float64
	// Time is the measured duration, in seconds.
	Time float64
}
