package commmodel

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
	// link, a shape a does not fit, more than 2^60 ranks or chunks, whose
	// steps an int does not count).
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

// Time returns how long a runs for S = size bytes on f, in seconds: its
// Cost timed on the link (Cost.Time).
func (f Flat) Time(a Algorithm, size float64) float64 {
	if q, ok := a.(planner); ok {
		l, _ := loadOn(q, f.P, size)
		return l.time(f.Link)
	}
	return a.Cost(f.P, size).Time(f.Link)
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
