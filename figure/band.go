package figure

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotter"
)

// seriesColors returns each series' colour: its Color, or the one Colors
// gives its name.
func seriesColors(ss []Series) []color.Color {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = s.Name
	}
	colors := Colors(names)
	for i, s := range ss {
		if s.Color != nil {
			colors[i] = s.Color
		}
	}
	return colors
}

// bandAlpha is the opacity of an interval band: light enough that the
// lines and points over it, and another band under it, stay legible.
const bandAlpha = 0x40

// bands returns the interval band of each series that has Low and High, a
// polygon along Low and back along High filled with a translucent tint of
// its colour, and nil for the others. Low and High are checked as Y is.
func bands(ss []Series, colors []color.Color, x, y Axis) ([]*plotter.Polygon, error) {
	out := make([]*plotter.Polygon, len(ss))
	for i, s := range ss {
		if s.Low == nil && s.High == nil {
			continue
		}
		if len(s.Low) != len(s.X) || len(s.High) != len(s.X) {
			return nil, fmt.Errorf("series %q: %d x values but %d low and %d high bounds", s.Name, len(s.X), len(s.Low), len(s.High))
		}
		lo, err := points(Series{Name: s.Name + " (low)", X: s.X, Y: s.Low}, x, y)
		if err != nil {
			return nil, err
		}
		hi, err := points(Series{Name: s.Name + " (high)", X: s.X, Y: s.High}, x, y)
		if err != nil {
			return nil, err
		}
		ring := lo
		for j := len(hi) - 1; j >= 0; j-- {
			ring = append(ring, hi[j])
		}
		poly, err := plotter.NewPolygon(ring)
		if err != nil {
			return nil, fmt.Errorf("series %q: %v", s.Name, err)
		}
		tint := color.NRGBAModel.Convert(colors[i]).(color.NRGBA)
		tint.A = bandAlpha
		poly.Color = tint
		poly.LineStyle.Width = 0
		out[i] = poly
	}
	return out, nil
}
