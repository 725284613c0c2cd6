package figure

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
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

func (l *legendBox) add(name string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{name, thumbs})
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
	sty, pad, thumbW, rowH, w, h := l.layout(p)
	margin := legendMargin
	x0, y1 := c.Min.X+margin, c.Max.Y-margin
	if l.pos == TopRight || l.pos == BottomRight {
		x0 = c.Max.X - margin - w
	}
	if l.pos == BottomLeft || l.pos == BottomRight {
		y1 = c.Min.Y + margin + h
	}
	box := []vg.Point{{X: x0, Y: y1 - h}, {X: x0 + w, Y: y1 - h}, {X: x0 + w, Y: y1}, {X: x0, Y: y1}}
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
