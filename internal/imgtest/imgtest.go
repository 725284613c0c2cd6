// Package imgtest compares rendered figures with golden PNG files, in the
// manner of gonum/plot's cmpimg (gonum.org/v1/plot/cmpimg), which it uses for
// the comparison and the difference image. The tests of packages figure and
// article share it: a golden is testdata/golden/NAME.png beside the
// test, "go test -update" rewrites it, and a mismatch writes what was drawn
// (NAME.got.png) and the difference (NAME.diff.png, brighter where the images
// differ more) beside the golden, for a reader to look at.
//
// The comparison is exact, pixel for pixel. Rendering is deterministic: the
// fonts are the Liberation fonts gonum/plot embeds (no system font is read),
// the PNG size is set by each figure's Width and Height at plot.WriterTo's 96
// DPI, and nothing drawn depends on the time or on map order.
package imgtest

import (
	"bytes"
	"errors"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// Check compares got, a PNG, with the golden testdata/golden/name.png, or
// writes got there under -update. On a mismatch it writes
// testdata/golden/name.got.png and name.diff.png and fails t; a check that
// passes removes those two files. It returns after every Fatal, so that a
// testing.TB whose Fatal returns is safe.
func Check(t testing.TB, name string, got []byte) {
	t.Helper()
	dir := filepath.Join("testdata", "golden")
	golden := filepath.Join(dir, name+".png")
	gotPath, diffPath := filepath.Join(dir, name+".got.png"), filepath.Join(dir, name+".diff.png")
	if _, err := png.Decode(bytes.NewReader(got)); err != nil {
		t.Fatalf("%s: what was drawn is not a PNG: %v", name, err)
		return
	}
	// What a failed run left is stale once the figure matches or is the golden.
	clean := func() {
		for _, p := range []string{gotPath, diffPath} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
				return
			}
		}
	}
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
			return
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
			return
		}
		clean()
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
		return
	}
	same, err := cmpimg.Equal("png", got, want)
	if err != nil {
		t.Fatalf("%s: %v", golden, err)
		return
	}
	if same {
		clean()
		return
	}
	a, _ := png.Decode(bytes.NewReader(got))
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("%s: %v", golden, err)
		return
	}
	diff := image.NewRGBA64(a.Bounds().Union(b.Bounds()))
	cmpimg.Diff(diff, a, b)
	var buf bytes.Buffer
	if err := png.Encode(&buf, diff); err != nil {
		t.Fatal(err)
		return
	}
	if err := os.WriteFile(gotPath, got, 0o644); err != nil {
		t.Fatal(err)
		return
	}
	if err := os.WriteFile(diffPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
		return
	}
	t.Errorf("%s: the figure drawn (%v, %d pixels differ) is not the golden %s (%v): see %s and %s; go test -update rewrites the golden if the change is meant",
		name, a.Bounds().Size(), differing(a, b), golden, b.Bounds().Size(), gotPath, diffPath)
}

// differing counts the pixels of the union of a's and b's bounds whose
// colours differ, a pixel outside one image counting as differing.
func differing(a, b image.Image) int {
	n := 0
	r := a.Bounds().Union(b.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := image.Point{X: x, Y: y}
			if !p.In(a.Bounds()) || !p.In(b.Bounds()) {
				n++
				continue
			}
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				n++
			}
		}
	}
	return n
}
