package nbplot

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// marks draws a figure's Marks: vertical dashed lines labelled near the top,
// or near the bottom when the legend is at the top (labels stacked so that
// neighbouring crossovers stay legible), and labelled points. Labels sit on a
// translucent white box so that curves and grid lines do not cross them out.
// Only points take part in the data range.
type marks struct {
	ms        []Mark
	labelsLow bool
}

var inf = math.Inf(1)

var markColor = color.RGBA{0x44, 0x44, 0x44, 0xFF}

func (m marks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := p.X.Tick.Label // the tick label font, in dark grey
	sty.Color = markColor
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	line := draw.LineStyle{Color: markColor, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	dot := draw.GlyphStyle{Color: markColor, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
	gap := vg.Points(3)
	row := 0
	for _, mk := range m.ms {
		x := trX(mk.X)
		if !c.ContainsX(x) {
			continue
		}
		if mk.Y == 0 {
			c.StrokeLine2(line, x, c.Min.Y, x, c.Max.Y)
			h := sty.FontExtents().Height * 1.3
			y := c.Max.Y - gap - vg.Length(row+1)*h
			if m.labelsLow {
				y = c.Min.Y + gap + vg.Length(row)*h
			}
			row = (row + 1) % 4
			label(c, sty, vg.Point{X: x + gap, Y: y}, mk.Label)
			continue
		}
		pt := vg.Point{X: x, Y: trY(mk.Y)}
		if !c.Contains(pt) {
			continue
		}
		c.DrawGlyph(dot, pt)
		label(c, sty, vg.Point{X: pt.X + dot.Radius + gap, Y: pt.Y - dot.Radius - gap - sty.FontExtents().Height}, mk.Label)
	}
}

// label writes txt with its bottom left at pt on a translucent box; a label
// that would run past the right edge is moved left of pt.X.
func label(c draw.Canvas, sty draw.TextStyle, pt vg.Point, txt string) {
	w, h := sty.Width(txt), sty.FontExtents().Height
	pad := vg.Points(1.5)
	if pt.X+w+pad > c.Max.X {
		pt.X -= w + 2*vg.Points(3) + pad
	}
	box := []vg.Point{
		{X: pt.X - pad, Y: pt.Y - pad}, {X: pt.X + w + pad, Y: pt.Y - pad},
		{X: pt.X + w + pad, Y: pt.Y + h}, {X: pt.X - pad, Y: pt.Y + h},
	}
	c.FillPolygon(legendFill, box)
	c.FillText(sty, vg.Point{X: pt.X, Y: pt.Y + sty.FontExtents().Descent}, txt)
}

// DataRange includes the labelled points, not the vertical lines.
func (m marks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = inf, inf
	xmax, ymax = -inf, -inf
	for _, mk := range m.ms {
		if mk.Y == 0 {
			continue
		}
		xmin, xmax = min(xmin, mk.X), max(xmax, mk.X)
		ymin, ymax = min(ymin, mk.Y), max(ymax, mk.Y)
	}
	return xmin, xmax, ymin, ymax
}
