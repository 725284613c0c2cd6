package data

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/inframethod/commlab/commmodel/fit"
)

// ErrFrame is the cause of every error about a DataFrame's columns: one
// missing, of the wrong type, or holding a value out of range.
var ErrFrame = errors.New("bad frame")

// frameColumn returns df's column name as float64 values, or an error
// naming the column and the columns df has.
func frameColumn(df dataframe.DataFrame, name string) ([]float64, error) {
	if df.Err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFrame, df.Err)
	}
	for _, n := range df.Names() {
		if n == name {
			s := df.Col(name)
			if t := s.Type(); t != series.Float && t != series.Int {
				return nil, fmt.Errorf("%w: column %s is %s, want numbers", ErrFrame, name, t)
			}
			return s.Float(), nil
		}
	}
	return nil, fmt.Errorf("%w: no column %s (have %s)", ErrFrame, name, strings.Join(df.Names(), ", "))
}

// Samples returns the rows of df as fit samples, in row order: Size from the
// size_bytes column (B) and Time from time_us (µs, returned in s), the
// columns of Points.Frame and of every frame of this package. Filter the
// frame first (collective, ranks, placement); 0-byte rows are kept, as
// TestSamples keeps them (fit.SplitEmpty sets them aside).
//
// The error, wrapping ErrFrame, names a missing or non-numeric column, or
// the first row whose size is negative or not finite or whose time is not a
// positive finite number.
func Samples(df dataframe.DataFrame) ([]fit.Sample, error) {
	size, err := frameColumn(df, "size_bytes")
	if err != nil {
		return nil, err
	}
	time, err := frameColumn(df, "time_us")
	if err != nil {
		return nil, err
	}
	out := make([]fit.Sample, len(size))
	for i := range size {
		switch {
		case !(size[i] >= 0) || math.IsInf(size[i], 0):
			return nil, fmt.Errorf("%w: row %d: size_bytes = %g, want a size >= 0", ErrFrame, i, size[i])
		case !(time[i] > 0) || math.IsInf(time[i], 0):
			return nil, fmt.Errorf("%w: row %d: time_us = %g, want a positive time", ErrFrame, i, time[i])
		}
		out[i] = fit.Sample{Size: size[i], Time: time[i] / 1e6} // us -> s, as the readers convert
	}
	return out, nil
}

// FramePoints returns the rows of a frame of the tidy schema (Points.Frame's
// columns) as Points, in row order; it is Points.Frame's inverse. It needs
// size_bytes and time_us (as Samples does) and reads whichever of the other
// TidyColumns the frame has: a missing string column is "", a missing
// count 0, a missing or NaN busbw_gbps 0.
func FramePoints(df dataframe.DataFrame) (Points, error) {
	s, err := Samples(df)
	if err != nil {
		return nil, err
	}
	ps := make(Points, len(s))
	for i, x := range s {
		ps[i].Size, ps[i].Time = int64(x.Size), x.Time
		if float64(ps[i].Size) != x.Size {
			return nil, fmt.Errorf("%w: row %d: size_bytes = %g is not a whole number of bytes", ErrFrame, i, x.Size)
		}
	}
	has := map[string]bool{}
	for _, n := range df.Names() {
		has[n] = true
	}
	for _, c := range []struct {
		name string
		set  func(p *Point, v string)
	}{
		{"source", func(p *Point, v string) { p.Source = v }},
		{"system", func(p *Point, v string) { p.System = v }},
		{"collective", func(p *Point, v string) { p.Collective = v }},
		{"algorithm", func(p *Point, v string) { p.Algorithm = v }},
		{"placement", func(p *Point, v string) { p.Placement = v }},
		{"note", func(p *Point, v string) { p.Note = v }},
	} {
		if has[c.name] {
			for i, v := range df.Col(c.name).Records() {
				c.set(&ps[i], v)
			}
		}
	}
	for _, c := range []struct {
		name string
		set  func(p *Point, v int)
	}{
		{"nranks", func(p *Point, v int) { p.NRanks = v }},
		{"nnodes", func(p *Point, v int) { p.NNodes = v }},
	} {
		if !has[c.name] {
			continue
		}
		vs, err := frameColumn(df, c.name)
		if err != nil {
			return nil, err
		}
		for i, v := range vs {
			if !(v >= 0) || v != math.Trunc(v) || v > math.MaxInt32 {
				return nil, fmt.Errorf("%w: row %d: %s = %g, want a count >= 0", ErrFrame, i, c.name, v)
			}
			c.set(&ps[i], int(v))
		}
	}
	if has["busbw_gbps"] {
		vs, err := frameColumn(df, "busbw_gbps")
		if err != nil {
			return nil, err
		}
		for i, v := range vs {
			if v > 0 && !math.IsInf(v, 0) {
				ps[i].BusBW = v * 1e9 // GB/s -> B/s
			}
		}
	}
	return ps, nil
}

// A Curve is a named model time: Time(size) in seconds for a size in bytes,
// such as fit.Result.Predict or a closure over commmodel.Time.
type Curve struct {
	// Name names the curve's columns (NAME_us, NAME_rel_err): a short word
	// without spaces ("direct", "fitted").
	Name string
	// Time is the model's time at size bytes, in seconds.
	Time func(size float64) float64
}

// WithModel returns df with two columns per curve, joined on size_bytes: the
// model time NAME_us (µs, the unit of time_us) and the relative error
// NAME_rel_err = (model - measured)/measured. The model is evaluated once
// per distinct size of df, and its frame is left-joined to df on size_bytes
// (gota's LeftJoin), the relative errors added with Mutate; the rows and
// columns of df keep their order. It fails, wrapping ErrFrame, as Samples
// does, when a curve has no name or two have the same, when a curve has no
// Time, and when a Time is negative or infinite at one of df's sizes. A
// NaN time is no value (a model with none at that size, as
// predict.Machine.Curve gives where Predict fails): its two columns are NaN
// there.
func WithModel(df dataframe.DataFrame, curves ...Curve) (dataframe.DataFrame, error) {
	samples, err := Samples(df)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	var sizes []float64
	seen := map[float64]bool{}
	for _, s := range samples {
		if !seen[s.Size] {
			seen[s.Size] = true
			sizes = append(sizes, s.Size)
		}
	}
	cols := []series.Series{series.New(sizes, series.Float, "size_bytes")}
	names := append([]string(nil), df.Names()...)
	for _, c := range curves {
		col := c.Name + "_us"
		if c.Name == "" || strings.ContainsAny(c.Name, " \t") || slices.Contains(names, col) {
			return dataframe.DataFrame{}, fmt.Errorf("%w: curve name %q is empty, has a space or is taken", ErrFrame, c.Name)
		}
		if c.Time == nil {
			return dataframe.DataFrame{}, fmt.Errorf("%w: curve %q has no Time", ErrFrame, c.Name)
		}
		model := make([]float64, len(sizes))
		for i, s := range sizes {
			t := c.Time(s)
			if t < 0 || math.IsInf(t, 0) {
				return dataframe.DataFrame{}, fmt.Errorf("%w: curve %q gives %g s at %g bytes: want a finite time of at least 0, or NaN for none", ErrFrame, c.Name, t, s)
			}
			model[i] = t * 1e6 // s -> us
		}
		cols = append(cols, series.New(model, series.Float, col))
		names = append(names, col)
	}
	// The join needs the same key type on both sides: Points.Frame's
	// size_bytes is Float, KernelsFrame's Int.
	left := df.Mutate(series.New(df.Col("size_bytes").Float(), series.Float, "size_bytes"))
	out := left.LeftJoin(dataframe.New(cols...), "size_bytes")
	measured := out.Col("time_us").Float()
	for _, c := range curves {
		model := out.Col(c.Name + "_us").Float()
		rel := make([]float64, len(model))
		for i := range model {
			rel[i] = (model[i] - measured[i]) / measured[i]
		}
		out = out.Mutate(series.New(rel, series.Float, c.Name+"_rel_err"))
		names = append(names, c.Name+"_rel_err")
	}
	out = out.Select(names)
	if out.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("%w: %v", ErrFrame, out.Err)
	}
	return out, nil
}

// ErrorSummary summarises relative errors by group: for each distinct value
// of the columns by, and for each column col of relative errors (such as
// WithModel's NAME_rel_err), the number of rows, and the median and the
// largest absolute error, as columns COL_abs_MEDIAN, COL_abs_MAX and
// COL_abs_COUNT (gota's GroupBy and Aggregation on a Mutate of |col|). The
// rows are sorted by the by columns. It fails, wrapping ErrFrame, for a
// missing or non-numeric column.
func ErrorSummary(df dataframe.DataFrame, by []string, cols ...string) (dataframe.DataFrame, error) {
	if len(by) == 0 || len(cols) == 0 {
		return dataframe.DataFrame{}, fmt.Errorf("%w: ErrorSummary needs group columns and error columns", ErrFrame)
	}
	var typs []dataframe.AggregationType
	var aggCols []string
	for _, c := range cols {
		v, err := frameColumn(df, c)
		if err != nil {
			return dataframe.DataFrame{}, err
		}
		abs := make([]float64, len(v))
		for i, x := range v {
			abs[i] = math.Abs(x)
		}
		df = df.Mutate(series.New(abs, series.Float, c+"_abs"))
		typs = append(typs, dataframe.Aggregation_MEDIAN, dataframe.Aggregation_MAX, dataframe.Aggregation_COUNT)
		aggCols = append(aggCols, c+"_abs", c+"_abs", c+"_abs")
	}
	g := df.GroupBy(by...)
	if g.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("%w: %v", ErrFrame, g.Err)
	}
	out := g.Aggregation(typs, aggCols)
	var order []dataframe.Order
	for _, b := range by {
		order = append(order, dataframe.Sort(b))
	}
	names := append([]string(nil), by...)
	for _, c := range cols {
		names = append(names, c+"_abs_MEDIAN", c+"_abs_MAX", c+"_abs_COUNT")
	}
	out = out.Arrange(order...).Select(names)
	if out.Err != nil {
		return dataframe.DataFrame{}, fmt.Errorf("%w: %v", ErrFrame, out.Err)
	}
	return out, nil
}
