package imgtest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Check reports instead of failing.
type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// square is a 4 x 4 white PNG with n black pixels in its first row.
func square(t *testing.T, n int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			img.Set(x, y, color.White)
			if y == 0 && x < n {
				img.Set(x, y, color.Black)
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

func TestCheck(t *testing.T) {
	t.Chdir(t.TempDir())
	golden := filepath.Join("testdata", "golden", "sq.png")
	got, diff := filepath.Join("testdata", "golden", "sq.got.png"), filepath.Join("testdata", "golden", "sq.diff.png")

	r := &recorder{TB: t}
	Check(r, "sq", square(t, 1))
	if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], "go test -update writes it") {
		t.Fatalf("no golden yet: %q", r.msgs)
	}

	*update = true
	Check(t, "sq", square(t, 1))
	*update = false
	if !exists(golden) {
		t.Fatal("-update wrote no golden")
	}
	Check(t, "sq", square(t, 1)) // the same image passes

	r = &recorder{TB: t}
	Check(r, "sq", square(t, 3)) // two more black pixels
	if len(r.msgs) != 1 || !strings.Contains(r.msgs[0], "2 pixels differ") || !exists(got) || !exists(diff) {
		t.Fatalf("a changed image: %q, got written %v, diff written %v", r.msgs, exists(got), exists(diff))
	}
	// The difference is bright where the images differ and black elsewhere.
	f, err := os.Open(diff)
	if err != nil {
		t.Fatal(err)
	}
	d, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _, _ := d.At(1, 0).RGBA(); r == 0 {
		t.Error("diff image is dark at a differing pixel")
	}
	if r, _, _, _ := d.At(0, 0).RGBA(); r != 0 {
		t.Error("diff image is bright at an equal pixel")
	}

	Check(t, "sq", square(t, 1)) // passing again removes the stale files
	if exists(got) || exists(diff) {
		t.Error("a passing check left the files of the failed one")
	}

	r = &recorder{TB: t}
	Check(r, "sq", []byte("not a png"))
	if len(r.msgs) == 0 || !strings.Contains(r.msgs[0], "not a PNG") {
		t.Errorf("bytes that are not a PNG: %q", r.msgs)
	}
}
