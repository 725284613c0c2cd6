package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RegimeMap is a grid image: cell (i, j) at column Xs[i] and row Ys[j] is
// coloured by the regime Cells[j][i] indexes in Names (typically the fastest
// algorithm at that size and rank count); -1 leaves a cell blank. Cell edges
// sit halfway between neighbouring centres (geometrically on a log axis).
// Lines, if any, are drawn over the cells (a crossover size against P).
type RegimeMap struct {
	Title         string
	X, Y          Axis
	Xs, Ys        []float64 // cell centres, increasing, in the axes' units
	Cells         [][]int   // len(Ys) rows of len(Xs) regime indexes
	Names         []string  // regime names; an algorithm name keeps its colour
	Lines         []Series  // optional overlays
	Legend        LegendPos // where the legend goes; zero value: bottom right
	Width, Height vg.Length // PNG size; zero: DefaultWidth x DefaultHeight
}

// Plot builds the gonum plot; bad shapes or indexes give an error.
func (m RegimeMap) Plot() (*plot.Plot, error) {
	if err := m.validate(); err != nil {
		return nil, err
	}
	g := grid{
		xe: edges(m.Xs, m.X.Log), ye: edges(m.Ys, m.Y.Log),
		cells: m.Cells, colors: make([]fillColor, len(m.Names)),
	}
	// The legend lists the regimes after the overlay lines, in Names order.
	var entries []legendEntry
	colors := Colors(m.Names)
	for k, name := range m.Names {
		g.colors[k] = fillColor{light(colors[k], 0.55)}
		entries = append(entries, legendEntry{name, []plot.Thumbnailer{g.colors[k]}})
	}
	f := Figure{Title: m.Title, X: m.X, Y: m.Y, Series: m.Lines, Legend: m.Legend}
	p, err := f.plot([]plot.Plotter{g}, entries) // cells under the grid lines and overlays
	if err != nil {
		return nil, err
	}
	if m.Y.Unit == Plain {
		p.Y.Tick.Marker = unitTicks(m.Ys, Plain)
	}
	return p, nil
}

func (m RegimeMap) validate() error {
	if len(m.Xs) == 0 || len(m.Ys) == 0 {
		return fmt.Errorf("regime map %q: no cells", m.Title)
	}
	for _, ax := range []struct {
		vs  []float64
		log bool
		n   string
	}{{m.Xs, m.X.Log, "Xs"}, {m.Ys, m.Y.Log, "Ys"}} {
		for i, v := range ax.vs {
			if !finite(v) || (ax.log && v <= 0) || (i > 0 && v <= ax.vs[i-1]) {
				return fmt.Errorf("regime map %q: %s[%d] = %g: want finite, increasing (and > 0 on a log axis)", m.Title, ax.n, i, v)
			}
		}
	}
	if len(m.Cells) != len(m.Ys) {
		return fmt.Errorf("regime map %q: %d rows of cells for %d Ys", m.Title, len(m.Cells), len(m.Ys))
	}
	for j, row := range m.Cells {
		if len(row) != len(m.Xs) {
			return fmt.Errorf("regime map %q: row %d has %d cells for %d Xs", m.Title, j, len(row), len(m.Xs))
		}
		for i, k := range row {
			if k < -1 || k >= len(m.Names) {
				return fmt.Errorf("regime map %q: cell (%d, %d) = %d: want -1 or an index into %d names", m.Title, i, j, k, len(m.Names))
			}
		}
	}
	return nil
}

// PNG renders the map to PNG bytes.
func (m RegimeMap) PNG() ([]byte, error) {
	p, err := m.Plot()
	if err != nil {
		return nil, err
	}
	return PNG(p, m.Width, m.Height)
}

// edges returns len(cs)+1 cell boundaries around centres cs.
func edges(cs []float64, log bool) []float64 {
	mid := func(a, b float64) float64 {
		if log {
			return math.Sqrt(a * b)
		}
		return (a + b) / 2
	}
	e := make([]float64, len(cs)+1)
	for i := 1; i < len(cs); i++ {
		e[i] = mid(cs[i-1], cs[i])
	}
	switch {
	case len(cs) == 1 && log:
		e[0], e[1] = cs[0]/math.Sqrt2, cs[0]*math.Sqrt2
	case len(cs) == 1:
		e[0], e[1] = cs[0]-0.5, cs[0]+0.5
	case log:
		e[0], e[len(cs)] = cs[0]*cs[0]/e[1], cs[len(cs)-1]*cs[len(cs)-1]/e[len(cs)-1]
	default:
		e[0], e[len(cs)] = 2*cs[0]-e[1], 2*cs[len(cs)-1]-e[len(cs)-1]
	}
	return e
}

// grid draws the coloured cells.
type grid struct {
	xe, ye []float64
	cells  [][]int
	colors []fillColor
}

func (g grid) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for j, row := range g.cells {
		for i, k := range row {
			if k < 0 {
				continue
			}
			// Overlap neighbours by a hair so that anti-aliasing leaves no seams.
			const seam = vg.Length(0.4)
			x0, x1 := trX(g.xe[i])-seam, trX(g.xe[i+1])+seam
			y0, y1 := trY(g.ye[j])-seam, trY(g.ye[j+1])+seam
			pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
			c.FillPolygon(g.colors[k].c, c.ClipPolygonXY(pts))
		}
	}
}

func (g grid) DataRange() (xmin, xmax, ymin, ymax float64) {
	return g.xe[0], g.xe[len(g.xe)-1], g.ye[0], g.ye[len(g.ye)-1]
}

// fillColor is a legend thumbnail: a filled box.
type fillColor struct{ c color.Color }

func (f fillColor) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(f.c, pts)
}
