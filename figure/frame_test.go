package figure

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// A frame becomes a table column for column: names as the header, numbers
// right-aligned and short, NaN empty, strings as they are.
func TestFrameTable(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"a", "b"}, series.String, "name"),
		series.New([]int{8, 16}, series.Int, "nranks"),
		series.New([]float64{1048576, 65536}, series.Float, "size_bytes"),
		// 9.5 us and -0.772210526: (2.164 - 9.5)/9.5 to 4 digits is -0.7722.
		series.New([]float64{9.5, (2.164 - 9.5) / 9.5}, series.Float, "x"),
		// 4 digits or more before the point: all of them, none after (1038.5
		// rounds to even).
		series.New([]float64{64101.3, 1038.5}, series.Float, "t"),
		series.New([]float64{math.NaN(), 2.72e11}, series.Float, "busbw"),
	)
	tb, err := FrameTable(df)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a", "8", "1048576", "9.5", "64101", ""}, {"b", "16", "65536", "-0.7722", "1038", "272000000000"}}
	if !equal(tb.Header, []string{"name", "nranks", "size_bytes", "x", "t", "busbw"}) || len(tb.Rows) != 2 ||
		!equal(tb.Rows[0], want[0]) || !equal(tb.Rows[1], want[1]) {
		t.Errorf("table %v %v, want rows %v", tb.Header, tb.Rows, want)
	}
	if tb.Align[0] != Left || tb.Align[1] != Right || tb.Align[5] != Right {
		t.Errorf("align %v", tb.Align)
	}
	bad := dataframe.DataFrame{Err: errors.New("broken")}
	if _, err := FrameTable(bad); err == nil {
		t.Error("a frame with an error: no error")
	}
}
