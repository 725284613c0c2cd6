package figure

import (
	"image/color"

	"gonum.org/v1/plot/vg"
)

// palette is the Okabe-Ito colour-blind-safe set (Okabe and Ito, "Color
// Universal Design", 2008), in the order series are coloured.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// algorithmColor keeps one colour per algorithm name across every figure, so
// that a reader learns "ring is blue" once. Names are commmodel's Name()s.
var algorithmColor = map[string]int{
	"ring":             0,
	"halving-doubling": 2,
	"two-shot":         1,
	"one-shot":         3,
	"direct":           0,
	"pairwise":         1,
	"bruck":            2,
	"hierarchical":     4,
}

// Colors assigns one colour per name: algorithm names keep their own colour,
// and every other name takes the next palette entry that no algorithm of the
// same figure holds, so that "measured" never wears ring's blue beside ring.
func Colors(names []string) []color.Color {
	taken := make([]bool, len(palette))
	for _, n := range names {
		if k, ok := algorithmColor[n]; ok {
			taken[k] = true
		}
	}
	out := make([]color.Color, len(names))
	next := 0
	for i, n := range names {
		if k, ok := algorithmColor[n]; ok {
			out[i] = palette[k]
			continue
		}
		for tries := 0; taken[next%len(palette)] && tries < len(palette); tries++ {
			next++
		}
		out[i] = palette[next%len(palette)]
		next++
	}
	return out
}

// light returns c blended with white, for filled regions behind lines.
func light(c color.Color, keep float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8(float64(v>>8)*keep + 255*(1-keep)) }
	return color.RGBA{mix(r), mix(g), mix(b), 0xFF}
}

// dashes cycles line dash patterns so that series differ without colour too.
var dashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)},
}

// Default figure size: 7 x 4.5 inches, 672 x 432 pixels at the 96 DPI that
// plot.WriterTo uses for PNG.
const (
	DefaultWidth  = 7 * vg.Inch
	DefaultHeight = 4.5 * vg.Inch
)

// NumColors is how many series Colors tells apart: a further one repeats
// a colour.
func NumColors() int { return len(palette) }
