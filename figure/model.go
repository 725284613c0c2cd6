package figure

import (
	"fmt"
	"math"
	"strconv"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/units"
)

// Sizes returns the sizes from lo up to hi bytes at perOctave points per
// doubling, lo·2^(k/perOctave) for k = 0, 1, ...: from a power of two, the
// sizes nccl-tests sweeps, refined for smooth curves. They are
// commmodel.LogSizes from lo to the last of them at or below hi.
func Sizes(lo, hi float64, perOctave int) []float64 {
	steps := int(math.Floor(math.Log2(hi/lo)*float64(perOctave) + 1e-9))
	if steps < 0 {
		return nil
	}
	return commmodel.LogSizes(lo, lo*math.Exp2(float64(steps)/float64(perOctave)), steps+1)
}

// ModelTable tabulates algs at p ranks on l as a model table does: steps,
// bytes sent per rank (as a multiple of S), peers, and the time at each size.
func ModelTable(algs []commmodel.Algorithm, p int, l commmodel.Link, sizes []float64) Table {
	t := Table{Header: []string{"algorithm", "steps", "bytes per rank", "peers"}, Align: []Align{Left, Right, Right, Right}}
	for _, s := range sizes {
		t.Header = append(t.Header, "T("+units.FormatSize(s)+")")
		t.Align = append(t.Align, Right)
	}
	for _, a := range algs {
		c := a.Cost(p, 1) // per byte of S: every cost here is linear in S
		row := []string{a.Name(), strconv.Itoa(c.Steps), units.FormatNumber(c.Bytes) + " S", strconv.Itoa(c.Peers)}
		for _, s := range sizes {
			row = append(row, units.FormatDuration(commmodel.Time(a, p, s, l)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// TimeFigure plots each algorithm's model time on t against size, log-log,
// with the sizes where the fastest algorithm changes marked (TimeSeries,
// WinnerMarks). t is any commmodel.Timer: P ranks on one link
// (commmodel.Flat), nodes of a cluster (commmodel.Cluster), a fabric.
func TimeFigure[T commmodel.Timer](title string, algs []commmodel.Algorithm, t T, sizes []float64) Figure {
	return Figure{
		Title:  title,
		X:      Axis{Label: "message size S (per rank)", Unit: Bytes, Log: true},
		Y:      Axis{Label: "time per call", Unit: Seconds, Log: true},
		Series: TimeSeries(algs, t, sizes, nil),
		Marks:  WinnerMarks(algs, t),
	}
}

// TimeSeries returns one line per algorithm: its time on t at each size, in
// seconds (t.Time), named by name(a), or by a.Name() when name is nil.
func TimeSeries[T commmodel.Timer](algs []commmodel.Algorithm, t T, sizes []float64, name func(commmodel.Algorithm) string) []Series {
	if name == nil {
		name = commmodel.Algorithm.Name
	}
	out := make([]Series, 0, len(algs))
	for _, a := range algs {
		s := Series{Name: name(a), X: sizes, Y: commmodel.TimeCurve(make([]float64, len(sizes)), a, t, sizes)}
		out = append(out, s)
	}
	return out
}

// WinnerMarks marks the sizes where the fastest of algs on t changes
// (commmodel.WinnerChanges), each labelled "a | b size": a is fastest below
// the size, b above.
func WinnerMarks[T commmodel.Timer](algs []commmodel.Algorithm, t T) []Mark {
	var out []Mark
	for _, c := range commmodel.WinnerChanges(algs, t) {
		out = append(out, Mark{X: c.Size, Label: fmt.Sprintf("%s | %s %s", c.A.Name(), c.B.Name(), units.FormatSize(c.Size))})
	}
	return out
}

// TimeTable lists each algorithm's time on t at each size: one row per
// algorithm, named by name(a) (a.Name() when name is nil), one column
// "T(size)" per size.
func TimeTable[T commmodel.Timer](algs []commmodel.Algorithm, t T, sizes []float64, name func(commmodel.Algorithm) string) Table {
	if name == nil {
		name = commmodel.Algorithm.Name
	}
	tb := Table{Header: []string{"algorithm"}, Align: []Align{Left}}
	for _, s := range sizes {
		tb.Header = append(tb.Header, "T("+units.FormatSize(s)+")")
		tb.Align = append(tb.Align, Right)
	}
	for _, a := range algs {
		row := []string{name(a)}
		for _, s := range sizes {
			row = append(row, units.FormatDuration(t.Time(a, s)))
		}
		tb.Rows = append(tb.Rows, row)
	}
	return tb
}

// CrossoverTable lists crossovers: a is faster below the size, b above.
func CrossoverTable(cs []commmodel.Crossover) Table {
	t := Table{Header: []string{"faster below", "faster above", "size", "bytes"}, Align: []Align{Left, Left, Right, Right}}
	for _, c := range cs {
		t.Rows = append(t.Rows, []string{c.A.Name(), c.B.Name(), units.FormatSize(c.Size), strconv.FormatFloat(c.Size, 'f', 0, 64)})
	}
	return t
}

// RegimeFigure colours each (size, P) cell by the fastest of algs on l. The
// legend lists only the algorithms that win somewhere; the notebook's text
// names the ones that never do.
func RegimeFigure(title string, algs []commmodel.Algorithm, ps []int, sizes []float64, l commmodel.Link) RegimeMap {
	rm := commmodel.NewRegimeGrid(algs, commmodel.Flats(ps, l), sizes)
	m := RegimeMap{
		Title: title,
		X:     Axis{Label: "message size S (per rank)", Unit: Bytes, Log: true},
		Y:     Axis{Label: "GPUs P", Unit: Plain},
		Xs:    sizes,
		Ys:    make([]float64, len(ps)),
		Cells: make([][]int, len(ps)),
		// Small sizes at many ranks are one regime throughout: the legend hides least there.
		Legend: TopLeft,
	}
	index := map[int]int{} // rm's algorithm index -> m.Names index
	for _, w := range rm.Winner {
		if _, seen := index[w]; !seen && w >= 0 {
			index[w] = 0
		}
	}
	for k, a := range rm.Algorithms {
		if _, wins := index[k]; wins {
			index[k] = len(m.Names)
			m.Names = append(m.Names, a.Name())
		}
	}
	index[-1] = -1
	for i, p := range ps {
		m.Ys[i] = float64(p)
		m.Cells[i] = make([]int, len(sizes))
		for j := range sizes {
			m.Cells[i][j] = index[rm.Winner[i*len(sizes)+j]]
		}
	}
	return m
}

// Ranks returns the rank counts lo, lo+1, ..., hi, from 1 where lo is
// below it (no model runs on fewer ranks), and nil where hi is below lo.
func Ranks(lo, hi int) []int {
	var ps []int
	for p := max(lo, 1); p <= hi; p++ {
		ps = append(ps, p)
	}
	return ps
}
