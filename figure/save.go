package figure

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// SaveFormats are the file extensions Save writes: PNG, at a resolution
// of one's choice, and the vector formats SVG and PDF.
var SaveFormats = []string{".png", ".svg", ".pdf"}

// Save draws the figure at its Width x Height into the file path, in the
// format its extension names (see Save).
func (f Figure) Save(path string, dpi int) error {
	p, err := f.Plot()
	if err != nil {
		return err
	}
	return Save(p, f.Width, f.Height, dpi, path)
}

// Save draws p at w x h (zero: DefaultWidth x DefaultHeight) into the file
// path, in the format its extension names, one of SaveFormats: PNG at dpi
// dots per inch (0: the 96 of PNG), or SVG or PDF, whose vector drawings
// have no resolution. Another extension is an error, and no file is
// written.
func Save(p *plot.Plot, w, h vg.Length, dpi int, path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if !slices.Contains(SaveFormats, ext) {
		return fmt.Errorf("figure: cannot save %q: want a name ending in %s", path, strings.Join(SaveFormats, ", "))
	}
	wt, err := render(p, w, h, ext[1:], dpi)
	if err != nil {
		return err
	}
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := wt.WriteTo(file); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// PNG renders any gonum plot to PNG bytes at 96 dots per inch; zero sizes
// mean DefaultWidth x DefaultHeight.
func PNG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	wt, err := render(p, w, h, "png", 0)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// render draws p at w x h (zero: the defaults) in format, a gonum format
// name ("png", "svg", "pdf"), PNG at dpi dots per inch (0: vgimg's 96).
func render(p *plot.Plot, w, h vg.Length, format string, dpi int) (io.WriterTo, error) {
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	if format != "png" {
		return p.WriterTo(w, h, format)
	}
	if dpi <= 0 {
		dpi = vgimg.DefaultDPI
	}
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
	p.Draw(draw.New(c))
	return vgimg.PngCanvas{Canvas: c}, nil
}
