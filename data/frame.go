package data

import (
	"bytes"
	"math"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/inframethod/commlab/data/nccltests"
)

// Frame returns the points as a gota DataFrame with the TidyColumns, in the
// file units of the schema (size_bytes B, time_us us, busbw_gbps GB/s).
// A bus bandwidth the source does not give is NaN, gota's missing value.
func (ps Points) Frame() dataframe.DataFrame {
	n := len(ps)
	str := func() []string { return make([]string, n) }
	source, system, coll, algo, place, note := str(), str(), str(), str(), str(), str()
	ranks, nodes := make([]int, n), make([]int, n)
	size, time, bw := make([]float64, n), make([]float64, n), make([]float64, n)
	for i, p := range ps {
		source[i], system[i], coll[i], algo[i], place[i], note[i] = p.Source, p.System, p.Collective, p.Algorithm, p.Placement, p.Note
		ranks[i], nodes[i] = p.NRanks, p.NNodes
		size[i], time[i] = float64(p.Size), p.Time*1e6 // s -> us
		bw[i] = math.NaN()
		if p.BusBW > 0 {
			bw[i] = p.BusBW / 1e9 // B/s -> GB/s
		}
	}
	return dataframe.New(
		series.New(source, series.String, "source"),
		series.New(system, series.String, "system"),
		series.New(coll, series.String, "collective"),
		series.New(algo, series.String, "algorithm"),
		series.New(ranks, series.Int, "nranks"),
		series.New(nodes, series.Int, "nnodes"),
		series.New(size, series.Float, "size_bytes"),
		series.New(time, series.Float, "time_us"),
		series.New(bw, series.Float, "busbw_gbps"),
		series.New(place, series.String, "placement"),
		series.New(note, series.String, "note"),
	)
}

// Points returns every measured cell of the log's tests as a point: one per
// row and placement, with the test's collective (or its Op when the
// collective is unknown), ranks and nodes.
func (l *Log) Points() Points {
	var out Points
	for _, t := range l.Tests {
		coll := t.Op
		if c, ok := Collective(t); ok {
			coll = c.String()
		}
		for _, r := range t.Rows {
			for _, pl := range []nccltests.Placement{nccltests.OutOfPlace, nccltests.InPlace} {
				res := r.Get(pl)
				if !res.OK() {
					continue
				}
				out = append(out, Point{Source: t.Source, System: t.System, Collective: coll,
					Algorithm: t.Algorithm, NRanks: t.Ranks, NNodes: t.Nodes, Size: r.Size,
					Time: res.Time, BusBW: res.BusBW, Placement: pl.String(), Line: r.Line})
			}
		}
	}
	return out
}

// Frame returns the log's points as a DataFrame (see Points.Frame).
func (l *Log) Frame() dataframe.DataFrame { return l.Points().Frame() }

// ArticleFrame returns Article() as a DataFrame.
func ArticleFrame() dataframe.DataFrame { return Article().Frame() }

// PublicFrame returns PublicPoints() as a DataFrame.
func PublicFrame() dataframe.DataFrame { return PublicPoints().Frame() }

// KernelsFrame returns the public kernel-latency table with its own columns
// (source, gpu, nranks, collective, algorithm, size_bytes, time_us, note).
func KernelsFrame() dataframe.DataFrame {
	b, err := Files.ReadFile("kernels_public.csv")
	if err != nil {
		panic(err)
	}
	df := dataframe.ReadCSV(bytes.NewReader(b), dataframe.WithTypes(map[string]series.Type{
		"source": series.String, "gpu": series.String, "nranks": series.Int,
		"collective": series.String, "algorithm": series.String, "size_bytes": series.Int,
		"time_us": series.Float, "note": series.String,
	}))
	if df.Err != nil {
		panic("data: embedded kernels_public.csv: " + df.Err.Error())
	}
	return df
}

// StatementsFrame returns Statements() as a DataFrame; low and high are in
// SI units of the unit column.
func StatementsFrame() dataframe.DataFrame {
	ss := Statements()
	cols := make([][]string, 7)
	low, high := make([]float64, len(ss)), make([]float64, len(ss))
	for i, s := range ss {
		for j, v := range []string{s.ID, s.Source, s.System, s.Collective, s.Text, s.Quantity, s.Unit} {
			cols[j] = append(cols[j], v)
		}
		low[i], high[i] = s.Low, s.High
	}
	names := []string{"id", "source", "system", "collective", "statement", "quantity", "unit"}
	var se []series.Series
	for j, c := range cols {
		se = append(se, series.New(c, series.String, names[j]))
	}
	se = append(se, series.New(low, series.Float, "low"), series.New(high, series.Float, "high"))
	return dataframe.New(se...)
}
