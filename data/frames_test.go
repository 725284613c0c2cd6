package data

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/inframethod/commlab/commmodel"
	"github.com/inframethod/commlab/commmodel/fit"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/presets"
	"gonum.org/v1/gonum/floats/scalar"
)

// A frame hands the fit the samples the points give, bit for bit, for every
// embedded dataset: so an analysis fed a filtered frame fits what it fitted
// when fed the points. FramePoints inverts Frame (but for Line, which the
// frame does not carry, and busBW to rounding).
func TestSamplesOfFrames(t *testing.T) {
	for name, ps := range map[string]Points{"article": Article(), "kernels": Kernels(), "public logs": PublicPoints()} {
		got, err := Samples(ps.Frame())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := ps.Samples(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Samples(Frame()) differs from Samples()", name)
		}
		back, err := FramePoints(ps.Frame())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, p := range ps {
			q := back[i]
			if !scalar.EqualWithinAbs(q.BusBW, p.BusBW, 1e-12*p.BusBW) {
				t.Errorf("%s row %d: busBW %g, want %g", name, i, q.BusBW, p.BusBW)
			}
			p.Line, q.BusBW = 0, p.BusBW
			if q != p {
				t.Errorf("%s row %d: %+v, want %+v", name, i, q, p)
			}
		}
	}
}

// A frame saved as CSV with gota's WriteCSV reads back through
// ReadTidyCSV to the points it was made of, for every embedded dataset:
// article_h20.csv (Article), kernels_public.csv (Kernels) and logs/*.log
// (PublicPoints). Before, every row was refused (red team rt4): Frame's
// size_bytes is a float column, which WriteCSV writes "65536.000000".
// WriteCSV writes a float with %f, six decimals: time_us and busbw_gbps come
// back to within half a unit of the sixth (0.5e-6 us, 0.5e-6 GB/s); the
// rest, the size among them, exactly. A bus bandwidth the source does not
// give is NaN in the frame, which ReadTidyCSV reads as none, with a
// problem at its field (TestReadTidyCSVBadBusBW): those are the only
// problems.
func TestFrameCSVRoundTrip(t *testing.T) {
	for name, ps := range map[string]Points{"article_h20.csv": Article(), "kernels_public.csv": Kernels(), "logs/*.log": PublicPoints()} {
		var b bytes.Buffer
		if err := ps.Frame().WriteCSV(&b); err != nil {
			t.Fatalf("%s: WriteCSV: %v", name, err)
		}
		text := b.String()
		back, problems, err := ReadTidyCSV(&b, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(back) != len(ps) {
			t.Fatalf("%s: %d points back, want %d", name, len(back), len(ps))
		}
		lines := strings.Split(text, "\n")
		noBW := 0
		for i, p := range ps {
			q := back[i]
			if q.Line != i+2 {
				t.Errorf("%s point %d: line %d, want %d (after the header)", name, i, q.Line, i+2)
			}
			if !scalar.EqualWithinAbs(q.Time, p.Time, 0.5e-12*(1+1e-9)) || !scalar.EqualWithinAbs(q.BusBW, p.BusBW, 0.5e3*(1+1e-9)) {
				t.Errorf("%s point %d (%s): %g s at %g B/s, want %g s at %g B/s", name, i, lines[i+1], q.Time, q.BusBW, p.Time, p.BusBW)
			}
			if p.BusBW == 0 {
				noBW++
			}
			p.Line, p.Time, p.BusBW = q.Line, q.Time, q.BusBW
			if q != p {
				t.Errorf("%s point %d: %+v, want %+v", name, i, q, p)
			}
		}
		for _, p := range problems {
			var pe *nccltests.ParseError
			if !errors.As(p, &pe) || !errors.Is(pe, nccltests.ErrNumber) || !strings.Contains(pe.Error(), `busbw_gbps "NaN"`) ||
				pe.Line < 2 || pe.Line > len(ps)+1 || back[pe.Line-2].BusBW != 0 {
				t.Errorf("%s: problem %v; want only busbw_gbps NaN where the point has none", name, p)
			}
		}
		if len(problems) != noBW { // fewer than nccltests.MaxProblems
			t.Errorf("%s: %d problems, want one per point without a bus bandwidth (%d)", name, len(problems), noBW)
		}
	}
}

// A frame without the columns, or with values a fit cannot take, is an
// error naming the column, never a NaN sample.
func TestSamplesErrors(t *testing.T) {
	good := Article().Frame()
	for _, c := range []struct {
		name string
		df   dataframe.DataFrame
		want string
	}{
		{"no time", good.Drop("time_us"), "no column time_us"},
		{"string size", good.Mutate(series.New(good.Col("source").Records(), series.String, "size_bytes")), "size_bytes is string"},
		{"NaN time", good.Mutate(series.New(make([]float64, good.Nrow()), series.Float, "time_us")), "row 0: time_us = 0"},
		{"negative size", good.Mutate(series.New(append([]float64{-1}, good.Col("size_bytes").Float()[1:]...), series.Float, "size_bytes")), "row 0: size_bytes = -1"},
		{"frame error", dataframe.DataFrame{Err: errors.New("gota says no")}, "gota says no"},
	} {
		if _, err := Samples(c.df); !errors.Is(err, ErrFrame) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want ErrFrame mentioning %q", c.name, err, c.want)
		}
		if _, err := FramePoints(c.df); !errors.Is(err, ErrFrame) {
			t.Errorf("%s: FramePoints: %v; want ErrFrame", c.name, err)
		}
	}
	frac := good.Mutate(series.New(append([]float64{1.5}, good.Col("size_bytes").Float()[1:]...), series.Float, "size_bytes"))
	if _, err := FramePoints(frac); !errors.Is(err, ErrFrame) || !strings.Contains(err.Error(), "whole number") {
		t.Errorf("1.5 bytes: %v", err)
	}
}

// WithModel joins model columns on size: every row of a log frame (two rows,
// one per placement, at each size) gets the model at its size, and the
// relative error against its own time.
func TestWithModel(t *testing.T) {
	l, err := PublicLog("h20-3e_2x2_alltoall_nccltests321.log", nil)
	if err != nil {
		t.Fatal(err)
	}
	df := l.Frame()
	direct := func(s float64) float64 { return commmodel.Time(commmodel.Direct{}, 4, s, presets.H20Inter) }
	out, err := WithModel(df, Curve{Name: "direct", Time: direct}, Curve{Name: "double", Time: func(s float64) float64 { return 2 * direct(s) }})
	if err != nil {
		t.Fatal(err)
	}
	wantCols := append(df.Names(), "direct_us", "double_us", "direct_rel_err", "double_rel_err")
	if !reflect.DeepEqual(out.Names(), wantCols) || out.Nrow() != df.Nrow() {
		t.Fatalf("columns %v, %d rows; want %v, %d", out.Names(), out.Nrow(), wantCols, df.Nrow())
	}
	size, meas := out.Col("size_bytes").Float(), out.Col("time_us").Float()
	model, rel, rel2 := out.Col("direct_us").Float(), out.Col("direct_rel_err").Float(), out.Col("double_rel_err").Float()
	for i := range size {
		m := direct(size[i]) * 1e6
		if model[i] != m || !scalar.EqualWithinAbs(rel[i], (m-meas[i])/meas[i], 1e-15) || !scalar.EqualWithinAbs(rel2[i], (2*m-meas[i])/meas[i], 1e-15) {
			t.Errorf("row %d (%g B, %g us): model %g, rel %g %g; want %g", i, size[i], meas[i], model[i], rel[i], rel2[i], m)
		}
		if df.Col("placement").Elem(i).String() != out.Col("placement").Elem(i).String() {
			t.Errorf("row %d moved", i)
		}
	}
	// A curve with no Time, or a time that is infinite or negative at one
	// of the frame's sizes (1 MiB is one of this log's), is refused; a NaN
	// time is no value, and its columns are NaN there alone.
	at1MiB := func(v float64) func(float64) float64 {
		return func(s float64) float64 {
			if s == 1<<20 {
				return v
			}
			return direct(s)
		}
	}
	for _, bad := range [][]Curve{{{Name: "", Time: direct}}, {{Name: "two words", Time: direct}}, {{Name: "a", Time: direct}, {Name: "a", Time: direct}}, {{Name: "time", Time: direct}},
		{{Name: "none"}}, {{Name: "inf", Time: at1MiB(math.Inf(1))}}, {{Name: "negative", Time: at1MiB(-1e-6)}}} {
		if _, err := WithModel(df, bad...); !errors.Is(err, ErrFrame) {
			t.Errorf("curves %q: %v; want ErrFrame", bad[0].Name, err)
		}
	}
	out, err = WithModel(df, Curve{Name: "nan", Time: at1MiB(math.NaN())})
	if err != nil {
		t.Fatal(err)
	}
	size, model, rel = out.Col("size_bytes").Float(), out.Col("nan_us").Float(), out.Col("nan_rel_err").Float()
	for i := range size {
		if math.IsNaN(model[i]) != (size[i] == 1<<20) || math.IsNaN(rel[i]) != (size[i] == 1<<20) {
			t.Errorf("row %d (%g B): a curve NaN at 1 MiB alone gives %g us, rel %g", i, size[i], model[i], rel[i])
		}
	}
}

// ErrorSummary's median, max and count by group, checked by hand, in group
// order; and gota's median is fit.Median, the one median of commlab.
func TestErrorSummary(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"b", "a", "b", "a", "a", "b"}, series.String, "log"),
		series.New([]float64{0.1, -0.2, -0.3, 0.4, 0.05, 0.02}, series.Float, "rel_err"),
	)
	sum, err := ErrorSummary(df, []string{"log"}, "rel_err")
	if err != nil {
		t.Fatal(err)
	}
	// a: |-0.2|, 0.4, 0.05 -> median 0.2, max 0.4; b: 0.1, 0.3, 0.02 -> median 0.1, max 0.3.
	logs := sum.Col("log").Records()
	med, mx, n := sum.Col("rel_err_abs_MEDIAN").Float(), sum.Col("rel_err_abs_MAX").Float(), sum.Col("rel_err_abs_COUNT").Float()
	if !reflect.DeepEqual(logs, []string{"a", "b"}) || med[0] != 0.2 || mx[0] != 0.4 || med[1] != 0.1 || mx[1] != 0.3 || n[0] != 3 || n[1] != 3 {
		t.Errorf("summary %v %v %v %v", logs, med, mx, n)
	}
	if _, err := ErrorSummary(df, []string{"log"}, "nope"); !errors.Is(err, ErrFrame) {
		t.Errorf("missing column: %v", err)
	}
	for _, x := range [][]float64{{3, 1, 2}, {4, 1, 3, 2}, {0.25, 0.5, 1e-9, 7, 7, 3.5}} {
		if g, f := series.Floats(x).Median(), fit.Median(x); g != f {
			t.Errorf("median of %v: gota %g, fit %g", x, g, f)
		}
	}
}
