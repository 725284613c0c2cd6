package commmodel

import "math"

// A Line is a time linear in the message size,
//
//	T(S) = T0 + T1·S
//
// which every algorithm's time on one Link is: the steps and messages do not
// depend on S and the bytes are proportional to it (doc.go), so that
//
//	T0 = Steps·α + Messages·o,  T1 = (max(Bytes, PathBytes)/BW + Reduced·γ) / S
//
// Computing T0 and T1 once per algorithm and rank count leaves one multiply
// and one add per size: Flat.Line, TimeCurve and NewRegimeGrid work so.
type Line struct {
	// T0 is the intercept, the time of an empty message, in seconds.
	T0 float64
	// T1 is the slope, in seconds per byte.
	T1 float64
}

// At returns the time at S = size bytes, T0 + T1·S, in seconds. It is NaN
// for a negative or NaN size, as Time is.
func (l Line) At(size float64) float64 {
	if !(size >= 0) {
		return math.NaN()
	}
	return l.T0 + l.T1*size
}

// Line returns a's time on f as a Line, and true if a's time is known to be
// linear in S: that of every algorithm of this package is. For an Algorithm
// defined elsewhere, or a HierarchicalAllReduce whose Inter is one, ok is
// false and the Line zero.
//
// T0 and T1 are read off a's Cost of one byte: T0 its steps' and messages'
// time, T1 its bytes' and reduction's. The Line rounds differently from
// Time, which scales the bytes by S before it divides by BW: at every
// finite size the two agree to within 2^-50 relative (4 ulps;
// TestLineAgreesWithTime). The Line is NaN where Time is NaN at every size:
// on a Link that is not Valid, or a P that a does not fit.
func (f Flat) Line(a Algorithm) (Line, bool) {
	if !linear(a) {
		return Line{}, false
	}
	return a.Cost(f.P, 1).line(f.Link), true
}

// line returns the time of a cost of one byte scaled to S bytes on l as a
// Line: NaN if l is not Valid or the cost's bytes are NaN.
func (c Cost) line(l Link) Line {
	t1 := max(c.Bytes, c.PathBytes)/l.BW + c.Reduced*l.Gamma
	if !l.Valid() || math.IsNaN(t1) {
		return Line{T0: math.NaN(), T1: math.NaN()}
	}
	return Line{T0: float64(c.Steps)*l.Alpha + float64(c.Messages)*l.Overhead, T1: t1}
}

// A StageLine is a Stage on a Cluster as two Lines, the time of its traffic
// inside a node and that between nodes. The stage lasts as long as the
// slower of the two:
//
//	T(S) = max(Intra.At(S), Inter.At(S))
type StageLine struct {
	// Intra is the time of the stage's traffic on the intra-node link.
	Intra Line
	// Inter is the time of the stage's traffic on the network.
	Inter Line
}

// At returns the stage's time at S = size bytes, in seconds (NaN for a
// negative or NaN size).
func (s StageLine) At(size float64) float64 { return max(s.Intra.At(size), s.Inter.At(size)) }

// Lines returns a's stages on c as StageLines, and true if a's time is known
// to be linear in S stage by stage (as for Flat.Line). a's time on c is
//
//	T(S) = Σ_k max(Intra_k(S), Inter_k(S))
//
// piecewise linear and convex in S: it bends where the slower level of a
// stage changes, at most once per stage, and is linear between those sizes.
// Each Line is its part's, as in Flat.Line. The sum of
// StageLine.At agrees with Cluster.Time to within 2^-50 relative
// (TestClusterLinesAgreeWithTime). It panics if c has fewer than one node or
// rank per node.
func (c Cluster) Lines(a Algorithm) ([]StageLine, bool) {
	if !linear(a) {
		return nil, false
	}
	mustShape(c.Nodes, c.PerNode)
	ss, _ := stagesOf(a.(planner), c.Nodes, c.PerNode, 1)
	out := make([]StageLine, len(ss.list))
	for i, s := range ss.list {
		out[i] = StageLine{Intra: s.Intra.line(c.Intra), Inter: s.Inter.line(c.Inter)}
	}
	return out, true
}

// stagesAt returns the time of stages ss at S = size bytes, in seconds.
func stagesAt(ss []StageLine, size float64) float64 {
	t := 0.0
	for _, s := range ss {
		t += s.At(size)
	}
	return t
}

// TimeCurve puts into dst the time of a on t at each of sizes, in seconds,
// and returns dst: dst[i] is t.Time(a, sizes[i]) to within 2^-50 relative.
// It panics if dst and sizes differ in length.
//
// On a Flat link it evaluates a's Line (Flat.Line), on a Cluster its stages'
// Lines (Cluster.Lines), computed once for all sizes; other Timers and
// algorithms whose time is not known to be linear it times size by size.
func TimeCurve[T Timer](dst []float64, a Algorithm, t T, sizes []float64) []float64 {
	if len(dst) != len(sizes) {
		panic("commmodel: destination length does not match sizes")
	}
	c := curveOf(a, t)
	c.fill(dst, sizes)
	return dst
}

// A curve is one algorithm's time on one Timer as a function of the size,
// in the fastest form known for it: one Line, the Lines of its stages, or
// the Timer itself.
type curve struct {
	// line is the time on a Flat link; used if stages and time are nil.
	line Line
	// stages are the Lines of the stages on a Cluster.
	stages []StageLine
	// time times the size directly, where no Line is known.
	time func(size float64) float64
}

// curveOf returns a's time on t as a curve.
func curveOf[T Timer](a Algorithm, t T) curve {
	switch t := any(t).(type) {
	case Flat:
		if l, ok := t.Line(a); ok {
			return curve{line: l}
		}
	case Cluster:
		if ss, ok := t.Lines(a); ok {
			return curve{stages: ss}
		}
	}
	return curve{time: func(size float64) float64 { return t.Time(a, size) }}
}

// curves returns each algorithm's time on t as a curve.
func curves[T Timer](algs []Algorithm, t T) []curve {
	out := make([]curve, len(algs))
	for i, a := range algs {
		out[i] = curveOf(a, t)
	}
	return out
}

// at returns the curve's time at S = size bytes, in seconds.
func (c *curve) at(size float64) float64 {
	switch {
	case c.time != nil:
		return c.time(size)
	case c.stages != nil:
		return stagesAt(c.stages, size)
	}
	return c.line.At(size)
}

// fill puts the curve's time at each of sizes into dst.
func (c *curve) fill(dst, sizes []float64) {
	dst = dst[:len(sizes)]
	switch {
	case c.time != nil:
		for i, s := range sizes {
			dst[i] = c.time(s)
		}
	case c.stages != nil:
		for i, s := range sizes {
			dst[i] = stagesAt(c.stages, s)
		}
	default:
		l := c.line
		for i, s := range sizes {
			dst[i] = l.At(s)
		}
	}
}

// isLine reports whether the curve is a single Line.
func (c *curve) isLine() bool { return c.time == nil && c.stages == nil }
