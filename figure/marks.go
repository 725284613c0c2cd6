package figure

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// marks draws a figure's Marks: vertical dashed lines labelled near the top,
// or near the bottom when the legend is at the top, and labelled points.
// The lines' labels take rows in turn, so that neighbouring crossovers
// stay legible; one that would overlap a label of its row takes the next
// row that has room, and where no row has (a narrow figure) the line is
// drawn unlabelled. Labels sit on a translucent white box so that curves
// and grid lines do not cross them out. Only points take part in the data
// range.
//
// With inLegend the vertical lines take MarkDashes in turn and no label:
// the legend names them (Figure.MarksInLegend).
type marks struct {
	ms        []Mark
	labelsLow bool
	inLegend  bool
}

// MarkDashes are the dash patterns that tell vertical marks apart when the
// legend names them: dashed, dotted, dash-dot.
var MarkDashes = [][]vg.Length{
	{vg.Points(4), vg.Points(3)},
	{vg.Points(1), vg.Points(2)},
	{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)},
}

// markThumb is a vertical mark's legend icon: a line across the icon in
// its dash pattern, long enough for the pattern to show.
type markThumb struct{ dashes []vg.Length }

func (t markThumb) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(draw.LineStyle{Color: markColor, Width: vg.Points(1), Dashes: t.dashes}, c.Min.X, y, c.Max.X, y)
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
	row, k := 0, 0
	var taken [labelRows][]span // the labels placed in each row
	for _, mk := range m.ms {
		x := trX(mk.X)
		if mk.Y == 0 && m.inLegend {
			line.Dashes = MarkDashes[k%len(MarkDashes)]
			k++
			if c.ContainsX(x) {
				c.StrokeLine2(line, x, c.Min.Y, x, c.Max.Y)
			}
			continue
		}
		if !c.ContainsX(x) {
			continue
		}
		if mk.Y == 0 {
			c.StrokeLine2(line, x, c.Min.Y, x, c.Max.Y)
			at, fits := labelSpan(c, sty, x+gap, mk.Label)
			r, free := freeRow(&taken, row, at)
			row = (row + 1) % labelRows
			if !fits || !free {
				continue
			}
			taken[r] = append(taken[r], at)
			h := sty.FontExtents().Height * 1.3
			y := c.Max.Y - gap - vg.Length(r+1)*h
			if m.labelsLow {
				y = c.Min.Y + gap + vg.Length(r)*h
			}
			label(c, sty, vg.Point{X: at.lo + labelPad, Y: y}, mk.Label)
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

// labelRows is the number of rows the lines' labels take.
const labelRows = 4

// A span is the horizontal extent of a placed label.
type span struct{ lo, hi vg.Length }

// labelPad is the white margin around a label's text.
var labelPad = vg.Points(1.5)

// labelSpan is the extent of the box of a label of txt that starts at x,
// or ends left of it where it would run past the right edge (as label
// moves it); fits is false when it runs past the left edge then.
func labelSpan(c draw.Canvas, sty draw.TextStyle, x vg.Length, txt string) (at span, fits bool) {
	w := sty.Width(txt)
	if x+w+labelPad > c.Max.X {
		x -= w + 2*vg.Points(3) + labelPad
	}
	at = span{x - labelPad, x + w + labelPad}
	return at, at.lo >= c.Min.X
}

// freeRow returns the first row from first on (in turn) whose labels leave
// room for at, or false when none does.
func freeRow(taken *[labelRows][]span, first int, at span) (int, bool) {
	for k := range labelRows {
		r := (first + k) % labelRows
		if !slices.ContainsFunc(taken[r], func(s span) bool { return s.lo < at.hi && at.lo < s.hi }) {
			return r, true
		}
	}
	return 0, false
}

// label writes txt with its bottom left at pt on a translucent box; a label
// that would run past the right edge is moved left of pt.X (labelSpan).
func label(c draw.Canvas, sty draw.TextStyle, pt vg.Point, txt string) {
	w, h := sty.Width(txt), sty.FontExtents().Height
	pad := labelPad
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
