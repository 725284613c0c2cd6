package nbplot

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// marks draws a figure's Marks: vertical dashed lines labelled near the top
// (labels stacked so that neighbouring crossovers stay legible) and labelled
// points. Only points take part in the data range.
type marks struct {
	ms   []Mark
	logY bool
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
			h := sty.FontExtents().Height
			y := c.Max.Y - gap - vg.Length(row+1)*h*1.2
			row = (row + 1) % 4
			c.FillText(sty, vg.Point{X: x + gap, Y: y}, mk.Label)
			continue
		}
		pt := vg.Point{X: x, Y: trY(mk.Y)}
		if !c.Contains(pt) {
			continue
		}
		c.DrawGlyph(dot, pt)
		c.FillText(sty, vg.Point{X: pt.X + dot.Radius + gap, Y: pt.Y - dot.Radius - gap}, mk.Label)
	}
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
