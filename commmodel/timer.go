package commmodel

import "math"

// A Timer times algorithms on a fixed number of ranks: P ranks on one Link
// (Flat), N nodes of p ranks with one link inside a node and another between
// nodes (Cluster), or one level of interconnect whose bandwidth depends on
// the fanout (Fabric). Fastest, Crossovers, WinnerChanges, NewRegimeGrid and
// TimeCurve take any Timer; on a Flat and a Cluster the last three compute
// each algorithm's Lines once (Flat.Line, Cluster.Lines) and evaluate them
// at every size.
//
// They take it as a type parameter, so that the time of one evaluation is a
// direct call on the concrete type: a Flat passed by value is never boxed
// into an interface, and nothing is allocated per evaluation.
type Timer interface {
	// Ranks returns the number of ranks, P.
	Ranks() int
	// Time returns how long a takes for S = size bytes, in seconds; NaN
	// where the time is not defined (a negative or NaN size, an invalid
	// link, a shape a does not fit).
	Time(a Algorithm, size float64) float64
}

// Flat is P ranks on one Link: every step of every algorithm runs on it.
type Flat struct {
	// P is the number of ranks.
	P int
	// Link is the link between every pair of ranks.
	Link Link
}

// Ranks returns P.
func (f Flat) Ranks() int { return f.P }

// Time returns how long a runs for S = size bytes on f, in seconds. Time
// (the function) is this method on Flat{p, l}, inlined.
//
// The algorithms of this package are told apart by their concrete types,
// each case's terms and elapsed inlined into it: a leaf for the
// single-level algorithms, one call for the composite ones. An algorithm
// defined elsewhere is timed from its Cost. Before, a switch returned the
// five terms to a second function that timed them, a call more: against
// that, over BenchmarkTime's and BenchmarkFlat's 57 forms in six alternated
// rounds, the geometric mean is 6% less, and seven of the eleven
// single-level forms of Time 9-29% less (scripts/bench-compare.sh).
func (f Flat) Time(a Algorithm, size float64) float64 {
	p, l := f.P, f.Link
	if !l.Valid() {
		// NaN, once the terms have panicked where they do (p < 1): α = NaN
		// makes every sum below NaN, and costs the valid links nothing.
		l = Link{Alpha: math.NaN()}
	}
	switch a := a.(type) {
	case Ring:
		return l.elapsed(a.terms(p, size))
	case RingReduceScatter:
		return l.elapsed(a.terms(p, size))
	case RingAllGather:
		return l.elapsed(a.terms(p, size))
	case HalvingDoubling:
		return l.elapsed(a.terms(p, size))
	case TwoShot:
		return l.elapsed(a.terms(p, size))
	case OneShot:
		return l.elapsed(a.terms(p, size))
	case PipelinedBroadcast:
		return l.elapsed(a.terms(p, size))
	case Direct:
		return l.elapsed(a.terms(p, size))
	case Pairwise:
		return l.elapsed(a.terms(p, size))
	case Bruck:
		return l.elapsed(a.terms(p, size))
	case HierarchicalAllReduce:
		return l.elapsed(a.terms(p, size))
	case HierarchicalAllToAll:
		return l.elapsed(a.terms(p, size))
	case Tree:
		return l.elapsed(a.terms(p, size))
	case NVLS:
		return l.elapsed(a.terms(p, size))
	case NVLSTree:
		return l.elapsed(a.terms(p, size))
	case CollNetDirect:
		return l.elapsed(a.terms(p, size))
	case CollNetChain:
		return l.elapsed(a.terms(p, size))
	case PATAllGather:
		return l.elapsed(a.terms(p, size))
	case PATReduceScatter:
		return l.elapsed(a.terms(p, size))
	case termed:
		return l.elapsed(a.terms(p, size))
	}
	c := a.Cost(p, size)
	return l.elapsed(c.Steps, c.Messages, c.Bytes, c.PathBytes, c.Reduced)
}

// Flats returns a Flat on l for every rank count of ps, in order: the rows
// of a regime grid on one link.
func Flats(ps []int, l Link) []Flat {
	out := make([]Flat, len(ps))
	for i, p := range ps {
		out[i] = Flat{P: p, Link: l}
	}
	return out
}

// The Timers of this package.
var (
	_ Timer = Flat{}
	_ Timer = Cluster{}
	_ Timer = Fabric{}
)
