package figure

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/inframethod/commlab/internal/imgtest"
)

// bandFigure is the ring model of figure_test.go with a ±20% band, and
// measurements drawn in the model's colour.
func bandFigure() Figure {
	xs := sizes()
	ys := ringModel(xs)
	lo, hi := make([]float64, len(xs)), make([]float64, len(xs))
	for i, y := range ys {
		lo[i], hi[i] = 0.8*y, 1.2*y
	}
	blue := palette[0]
	return Figure{
		Title: "ring and its interval",
		X:     Axis{Label: "message size S", Unit: Bytes, Log: true},
		Y:     Axis{Label: "time", Unit: Seconds, Log: true},
		Series: []Series{
			{Name: "measured", X: xs[:3], Y: []float64{3e-5, 3.1e-5, 3.3e-5}, Style: Points, Color: blue},
			{Name: "model", X: xs, Y: ys, Low: lo, High: hi, Color: blue},
		},
		Legend: TopLeft,
		Width:  4.5 * vg.Inch, Height: 3 * vg.Inch,
	}
}

func TestBand(t *testing.T) {
	f := bandFigure()
	b, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	// The golden: the model's line over a light blue band from 0.8 to 1.2
	// times it, the measured points in the same blue, the legend's model
	// entry a line over a tinted box.
	imgtest.Check(t, "band", b)

	p, err := f.Plot()
	if err != nil {
		t.Fatal(err)
	}
	// The band takes part in the data range: the y axis reaches 1.2 times
	// the model at 1 GiB, 1.2·(28 µs + 1.75·2^30 B / 350 GB/s).
	if want := 1.2 * (28e-6 + 1.75*(1<<30)/350e9); p.Y.Max < want*(1-1e-12) {
		t.Errorf("y axis ends at %g, want at least the band's top %g", p.Y.Max, want)
	}

	bad := f
	bad.Series = []Series{f.Series[1]}
	bad.Series[0].High = bad.Series[0].High[:2]
	if _, err := bad.PNG(); err == nil || !strings.Contains(err.Error(), `series "model": 11 x values but 11 low and 2 high bounds`) {
		t.Errorf("short High: err = %v", err)
	}
	bad.Series[0].High = make([]float64, len(f.Series[1].X)) // zeros on a log axis
	if _, err := bad.PNG(); err == nil || !strings.Contains(err.Error(), `series "model (high)": point 0`) {
		t.Errorf("High of zeros: err = %v", err)
	}
}

func TestSeriesColor(t *testing.T) {
	red := color.RGBA{0xFF, 0, 0, 0xFF}
	got := seriesColors([]Series{{Name: "ring"}, {Name: "fit", Color: red}, {Name: "measured"}})
	// ring keeps its blue; "fit" takes red in place of its palette colour;
	// "measured" takes the palette entry after the one "fit" was given
	// (Colors: palette 1, then 2).
	if got[0] != palette[0] || got[1] != red || got[2] != palette[2] {
		t.Errorf("colours %v", got)
	}
}

func TestSave(t *testing.T) {
	f := bandFigure()
	dir := t.TempDir()
	read := func(name string, dpi int) []byte {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := f.Save(path, dpi); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// 4.5 x 3 in at 200 DPI is 900 x 600 pixels; at 0, PNG's 96 DPI, 432 x 288.
	for _, c := range []struct {
		dpi  int
		want image.Point
	}{{200, image.Point{900, 600}}, {0, image.Point{432, 288}}} {
		if got := decode(t, read("f.png", c.dpi)).Bounds().Size(); got != c.want {
			t.Errorf("PNG at %d DPI is %v, want %v", c.dpi, got, c.want)
		}
	}
	svg := read("f.SVG", 200) // the extension's case does not matter
	if err := wellFormed(svg); err != nil {
		t.Errorf("SVG: %v", err)
	}
	for _, name := range []string{"measured", "model"} {
		if !bytes.Contains(svg, []byte(">"+name+"<")) {
			t.Errorf("the SVG holds no legend text %q", name)
		}
	}
	if pdf := read("f.pdf", 200); !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("the PDF starts with %q", pdf[:min(len(pdf), 8)])
	}

	err := f.Save(filepath.Join(dir, "f.jpg"), 0)
	if err == nil || !strings.Contains(err.Error(), "want a name ending in .png, .svg, .pdf") {
		t.Errorf(".jpg: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "f.jpg")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf(".jpg: a file was written (%v)", err)
	}
}

// wellFormed reads b to its end as XML.
func wellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}
