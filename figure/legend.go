package figure

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendBox is a legend drawn inside the data area on a translucent white
// box, so that it stays legible over grid cells, curves and mark labels
// (gonum's own legend has no background). It is added as the last plotter.
type legendBox struct {
	pos     LegendPos
	entries []legendEntry
}

type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// add adds an entry, or joins thumbs to the entry of the same name: its
// bands drawn first, then lines, then markers, so none hides another.
func (l *legendBox) add(name string, thumbs ...plot.Thumbnailer) {
	for i := range l.entries {
		if e := &l.entries[i]; e.name == name {
			e.thumbs = append(e.thumbs, thumbs...)
			slices.SortStableFunc(e.thumbs, func(a, b plot.Thumbnailer) int { return thumbLayer(a) - thumbLayer(b) })
			return
		}
	}
	l.entries = append(l.entries, legendEntry{name, thumbs})
}

// thumbLayer orders a legend entry's thumbnails: bands, lines, markers.
func thumbLayer(t plot.Thumbnailer) int {
	switch t.(type) {
	case *plotter.Polygon:
		return 0
	case *plotter.Scatter:
		return 2
	}
	return 1
}

// leastCovering returns the corner where the legend's box, in the data
// area of p drawn at width x height (zero: the defaults), covers the fewest
// of pts, TopLeft first on a tie. With growY, where a top corner still
// covers some, it raises p's Y maximum until the box clears them (up to 3
// times the span of Y): room above the curves for the legend.
func (l *legendBox) leastCovering(p *plot.Plot, pts plotter.XYs, width, height vg.Length, growY bool) LegendPos {
	if width <= 0 {
		width = DefaultWidth
	}
	if height <= 0 {
		height = DefaultHeight
	}
	best, fewest := TopLeft, -1
	for _, pos := range []LegendPos{TopLeft, BottomRight, TopRight, BottomLeft} {
		if n := l.covered(p, pts, pos, width, height); fewest < 0 || n < fewest {
			best, fewest = pos, n
		}
	}
	if fewest == 0 || !growY {
		return best
	}
	_, log := p.Y.Scale.(plot.LogScale)
	lo, hi := p.Y.Min, p.Y.Max
	if log && lo <= 0 {
		return best
	}
	for _, pos := range []LegendPos{TopLeft, TopRight} {
		for k := 1; k <= 20; k++ {
			if log {
				p.Y.Max = hi * math.Pow(hi/lo, 0.1*float64(k))
			} else {
				p.Y.Max = hi + 0.1*float64(k)*(hi-lo)
			}
			if l.covered(p, pts, pos, width, height) == 0 {
				return pos
			}
		}
	}
	p.Y.Max = hi
	return best
}

// covered counts the points of pts under the legend's box at pos.
func (l *legendBox) covered(p *plot.Plot, pts plotter.XYs, pos LegendPos, width, height vg.Length) int {
	da := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: width, Y: height}}})
	trX, trY := p.Transforms(&da)
	box := l.box(da, p, pos)
	n := 0
	for _, pt := range pts {
		if x, y := trX(pt.X), trY(pt.Y); x >= box.Min.X && x <= box.Max.X && y >= box.Min.Y && y <= box.Max.Y {
			n++
		}
	}
	return n
}

// box is the legend's box at pos in the data area c.
func (l *legendBox) box(c draw.Canvas, p *plot.Plot, pos LegendPos) vg.Rectangle {
	_, _, _, _, w, h := l.layout(p)
	x0, y1 := c.Min.X+legendMargin, c.Max.Y-legendMargin
	if pos == TopRight || pos == BottomRight {
		x0 = c.Max.X - legendMargin - w
	}
	if pos == BottomLeft || pos == BottomRight {
		y1 = c.Min.Y + legendMargin + h
	}
	return vg.Rectangle{Min: vg.Point{X: x0, Y: y1 - h}, Max: vg.Point{X: x0 + w, Y: y1}}
}

// legendMargin is the room between the legend's box and the data area's
// edges.
const legendMargin = vg.Length(6)

// layout returns the legend's text style, padding, thumbnail width, row
// height and box size as Plot draws them in p.
func (l *legendBox) layout(p *plot.Plot) (sty draw.TextStyle, pad, thumbW, rowH, w, h vg.Length) {
	sty = p.X.Tick.Label
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	pad, thumbW = vg.Points(5), vg.Points(26)
	rowH = sty.FontExtents().Height * 1.25
	var textW vg.Length
	for _, e := range l.entries {
		textW = max(textW, sty.Width(e.name))
	}
	w = pad + thumbW + pad + textW + pad
	h = pad*2 + rowH*vg.Length(len(l.entries))
	return sty, pad, thumbW, rowH, w, h
}

// fits says whether the legend's box fits inside the data area of p drawn
// at width x height: a box taller or wider than it would be cut at the
// figure's edge, its last entries lost, over the axis' labels.
func (l *legendBox) fits(p *plot.Plot, width, height vg.Length) error {
	if len(l.entries) == 0 {
		return nil
	}
	da := p.DataCanvas(draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: width, Y: height}}})
	_, _, _, _, w, h := l.layout(p)
	availW, availH := da.Max.X-da.Min.X-2*legendMargin, da.Max.Y-da.Min.Y-2*legendMargin
	if h > availH || w > availW {
		return fmt.Errorf("the legend's %d entries take %.0fpt x %.0fpt, more than the %.0fpt x %.0fpt the data area of a %.3gin x %.3gin figure holds: the box runs past the figure's edge, its last entries cut off",
			len(l.entries), float64(w), float64(h), float64(max(availW, 0)), float64(max(availH, 0)), float64(width/vg.Inch), float64(height/vg.Inch))
	}
	return nil
}

var legendFill = color.NRGBA{0xFF, 0xFF, 0xFF, 0xE0}

func (l *legendBox) Plot(c draw.Canvas, p *plot.Plot) {
	if len(l.entries) == 0 {
		return
	}
	sty, pad, thumbW, rowH, _, _ := l.layout(p)
	r := l.box(c, p, l.pos)
	x0, y1 := r.Min.X, r.Max.Y
	box := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
	c.FillPolygon(legendFill, box)
	c.StrokeLines(draw.LineStyle{Color: color.Gray{0xB0}, Width: vg.Points(0.5)}, append(box, box[0]))
	for i, e := range l.entries {
		top := y1 - pad - rowH*vg.Length(i)
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x0 + pad, Y: top - rowH + vg.Points(2)},
			Max: vg.Point{X: x0 + pad + thumbW, Y: top - vg.Points(2)},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&icon)
		}
		c.FillText(sty, vg.Point{X: x0 + pad + thumbW + pad, Y: top - rowH/2}, e.name)
	}
}
