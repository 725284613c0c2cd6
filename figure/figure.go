package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Axis describes one axis of a figure.
type Axis struct {
	Label    string    // the quantity, e.g. "message size S"; tick labels carry the unit
	Unit     Unit      // unit of the values on this axis, in its SI base
	Log      bool      // logarithmic scale (all values must then be > 0)
	Min, Max float64   // fixed range in the unit's SI base; both 0: from the data
	Ticks    []float64 // if set, the only ticks, labelled in Unit (e.g. the TP sizes 2, 4, 8, 16)
}

// Style is how a series is drawn.
type Style int

const (
	Line       Style = iota // a line through the points (a model curve)
	Points                  // markers only (measurements)
	LinePoints              // a line with a marker at each point
)

// Series is one named curve or set of measurements.
type Series struct {
	// Name is the legend entry; an algorithm name keeps its colour across
	// figures. Series of one name share one entry, their marks drawn
	// together (a model's curve and the measurements it describes).
	Name  string
	X, Y  []float64 // coordinates in the axes' units; equal lengths
	Style Style
	// Low and High, when set, bound an interval of Y at each X (a model's
	// 80% interval), drawn as a translucent band of the series' colour
	// under every series; the same length as X.
	Low, High []float64
	// Color, when not nil, replaces the colour Colors gives Name (a model's
	// curve in the colour of the measurements it describes).
	Color color.Color
}

// Mark labels one place on a figure. With Y == 0 it is a dashed vertical line
// at X across the whole plot (a crossover size); with Y > 0 it is a labelled
// point at (X, Y) (a measured crossover, a threshold).
type Mark struct {
	X, Y  float64 // position in the axes' units
	Label string  // text drawn beside the line or point
}

// Figure is a line or scatter plot with a legend, labelled axes and marks.
type Figure struct {
	Title  string
	X, Y   Axis
	Series []Series
	Marks  []Mark
	// MarksInLegend names the vertical Marks in the legend, each line with
	// its own dash pattern (the first len(MarkDashes) apart; more repeat
	// them), and draws no label in the data area, where it could cover a
	// curve; labelled points are drawn as ever.
	MarksInLegend bool
	Legend        LegendPos // where the legend goes; zero value: bottom right
	Width, Height vg.Length // PNG size; zero: DefaultWidth x DefaultHeight
}

// LegendPos places the legend inside the data area.
type LegendPos int

const (
	BottomRight LegendPos = iota // empty on a time-against-size plot: curves rise to the right
	TopLeft
	TopRight
	BottomLeft
	// LeastCovering is the corner whose box covers the fewest of the
	// series' points (measurements and a curve's vertices), TopLeft,
	// BottomRight, TopRight, BottomLeft first on a tie; where every corner
	// covers some and Y's range is not fixed, Y's maximum rises (up to 3
	// times its span) until a top corner is clear. For a figure whose
	// curves' shape is not known beforehand.
	LeastCovering
)

// Plot builds the gonum plot. It returns an error naming the series when
// lengths differ, a value is NaN or infinite, or a log axis meets a value <= 0.
func (f Figure) Plot() (*plot.Plot, error) { return f.plot(nil, nil) }

// LegendFits returns an error when the figure's legend is taller or wider
// than its data area at Width x Height: drawn, its box would run past the
// figure's edge and its last entries (the marks' names) be cut off.
func (f Figure) LegendFits() error {
	p, leg, err := f.plotLegend(nil, nil)
	if err != nil {
		return err
	}
	w, h := f.Width, f.Height
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	return leg.fits(p, w, h)
}

// plot builds the figure over the plotters in under (drawn first), with the
// legend entries extra after the series'.
func (f Figure) plot(under []plot.Plotter, extra []legendEntry) (*plot.Plot, error) {
	p, _, err := f.plotLegend(under, extra)
	return p, err
}

// plotLegend is plot, with the legend it adds last.
func (f Figure) plotLegend(under []plot.Plotter, extra []legendEntry) (*plot.Plot, *legendBox, error) {
	p := plot.New()
	p.Title.Text = f.Title
	setAxis(&p.X, f.X, labelsFor(f.Width, DefaultWidth))
	setAxis(&p.Y, f.Y, labelsFor(f.Height, DefaultHeight))
	leg := &legendBox{pos: f.Legend}
	var all plotter.XYs // every series' points, which the legend should not cover
	p.Add(under...)
	p.Add(plotter.NewGrid())
	colors := seriesColors(f.Series)
	bands, err := bands(f.Series, colors, f.X, f.Y)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range bands {
		if b != nil {
			p.Add(b)
		}
	}
	for i, s := range f.Series {
		xys, err := points(s, f.X, f.Y)
		if err != nil {
			return nil, nil, err
		}
		col := colors[i]
		var thumbs []plot.Thumbnailer
		if bands[i] != nil {
			thumbs = append(thumbs, bands[i])
		}
		if s.Style != Points {
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, nil, fmt.Errorf("series %q: %v", s.Name, err)
			}
			l.Color = col
			l.Width = vg.Points(1.8)
			l.Dashes = dashes[i%len(dashes)]
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		if s.Style != Line {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, nil, fmt.Errorf("series %q: %v", s.Name, err)
			}
			sc.Color = col
			sc.Shape = glyphs[i%len(glyphs)]
			sc.Radius = vg.Points(3)
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		if s.Name != "" {
			leg.add(s.Name, thumbs...)
		}
		all = append(all, xys...)
	}
	for _, m := range f.Marks {
		if !finite(m.X) || !finite(m.Y) || (f.X.Log && m.X <= 0) || (f.Y.Log && m.Y < 0) {
			return nil, nil, fmt.Errorf("mark %q: position (%g, %g) is not on the axes", m.Label, m.X, m.Y)
		}
	}
	leg.entries = append(leg.entries, extra...)
	if f.MarksInLegend {
		k := 0
		for _, m := range f.Marks {
			if m.Y == 0 {
				leg.add(m.Label, markThumb{MarkDashes[k%len(MarkDashes)]})
				k++
			}
		}
	}
	if leg.pos == LeastCovering {
		leg.pos = leg.leastCovering(p, all, f.Width, f.Height, f.Y.Max == 0)
	}
	p.Add(marks{ms: f.Marks, labelsLow: leg.pos == TopLeft || leg.pos == TopRight, inLegend: f.MarksInLegend})
	p.Add(leg)
	return p, leg, nil
}

// glyphs cycles marker shapes so that measurement series differ without colour.
var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{},
}

// PNGer is anything that renders to PNG bytes: Figure, RegimeMap.
type PNGer interface {
	PNG() ([]byte, error)
}

// PNG renders the figure to PNG bytes at its Width x Height.
func (f Figure) PNG() ([]byte, error) {
	p, err := f.Plot()
	if err != nil {
		return nil, err
	}
	return PNG(p, f.Width, f.Height)
}

// setAxis sets a from ax, a log axis with at most labels labelled ticks.
func setAxis(a *plot.Axis, ax Axis, labels int) {
	a.Label.Text = ax.Label
	if ax.Log {
		a.Scale = plot.LogScale{}
		a.Tick.Marker = logTicks{unit: ax.Unit, labels: labels}
	} else {
		a.Tick.Marker = linearTicks{ax.Unit}
	}
	if len(ax.Ticks) > 0 {
		a.Tick.Marker = unitTicks(ax.Ticks, ax.Unit)
	}
	if ax.Min != 0 || ax.Max != 0 {
		a.Min, a.Max = ax.Min, ax.Max
	}
}

// points checks one series against the axes and converts it.
func points(s Series, x, y Axis) (plotter.XYs, error) {
	if len(s.X) != len(s.Y) {
		return nil, fmt.Errorf("series %q: %d x values but %d y values", s.Name, len(s.X), len(s.Y))
	}
	if len(s.X) == 0 {
		return nil, fmt.Errorf("series %q: no points", s.Name)
	}
	xys := make(plotter.XYs, len(s.X))
	for i := range s.X {
		xv, yv := s.X[i], s.Y[i]
		switch {
		case !finite(xv) || !finite(yv):
			return nil, fmt.Errorf("series %q: point %d is (%g, %g)", s.Name, i, xv, yv)
		case x.Log && xv <= 0, y.Log && yv <= 0:
			return nil, fmt.Errorf("series %q: point %d (%g, %g) is not positive on a log axis", s.Name, i, xv, yv)
		}
		xys[i] = plotter.XY{X: xv, Y: yv}
	}
	return xys, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
