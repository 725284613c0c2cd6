package figure

import (
	"strings"
	"testing"
)

// TestTableHTML: one <tr> per row after the header's, cells escaped and
// aligned, short rows padded, and a long row refused.
func TestTableHTML(t *testing.T) {
	tb := Table{Header: []string{"size", "time <us>"}, Rows: [][]string{{"1 KiB", "3 & 4"}, {"2 KiB"}}, Align: []Align{Left, Right}}
	h := tb.HTML()
	if n := strings.Count(h, "<tr>"); n != 3 {
		t.Errorf("%d rows, want the header's and 2:\n%s", n, h)
	}
	for _, want := range []string{`<th style="text-align:right">time &lt;us&gt;</th>`, `<td style="text-align:right">3 &amp; 4</td>`,
		"<tr><td style=\"text-align:left\">2 KiB</td><td style=\"text-align:right\"></td></tr>"} {
		if !strings.Contains(h, want) {
			t.Errorf("lacks %s:\n%s", want, h)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a row longer than the header did not panic")
		}
	}()
	Table{Header: []string{"a"}, Rows: [][]string{{"1", "2"}}}.HTML()
}
