package figure

import (
	"math"
	"strconv"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// FrameTable renders a gota DataFrame as a Table: the column names as the
// header and one row per frame row. Numbers are right-aligned, with 4
// significant digits or all the digits of their integer part, whichever is
// more: whole ones and those of 1000 or more to the unit (1048576, 64101 for
// 64101.3), others as 9.5, -0.7722, 2.164e-06; NaN, gota's missing value, is
// an empty cell. Strings are as they are. It returns the frame's error, if it
// carries one.
func FrameTable(df dataframe.DataFrame) (Table, error) {
	if df.Err != nil {
		return Table{}, df.Err
	}
	t := Table{Header: df.Names()}
	rows, _ := df.Dims()
	t.Rows = make([][]string, rows)
	for i := range t.Rows {
		t.Rows[i] = make([]string, len(t.Header))
	}
	for j, name := range t.Header {
		col := df.Col(name)
		switch col.Type() {
		case series.Float, series.Int:
			t.Align = append(t.Align, Right)
			for i, v := range col.Float() {
				t.Rows[i][j] = frameNumber(v)
			}
		default:
			t.Align = append(t.Align, Left)
			for i, v := range col.Records() {
				t.Rows[i][j] = v
			}
		}
	}
	return t, nil
}

// frameNumber writes a cell of a numeric column (see FrameTable).
func frameNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case (v == math.Trunc(v) || math.Abs(v) >= 1e3) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}
