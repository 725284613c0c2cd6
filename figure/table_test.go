package figure

import (
	"strings"
	"testing"
)

func TestTableMarkdown(t *testing.T) {
	tb := Table{
		Header: []string{"algorithm", "steps", "time"},
		Align:  []Align{Left, Right, Center},
		Rows: [][]string{
			{"ring", "14", "28 µs"}, // article: 14 steps at P = 8
			{"one|shot", "1"},       // short row, and a pipe to escape
			{"two\nshot", "2", "x"},
		},
	}
	got := tb.Markdown()
	want := "" +
		"| algorithm | steps | time  |\n" +
		"| --------- | ----: | :---: |\n" +
		"| ring      |    14 | 28 µs |\n" +
		"| one\\|shot |     1 |       |\n" +
		"| two shot  |     2 |   x   |\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Well-formed: every line has the same number of unescaped pipes.
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	for i, l := range lines {
		if n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|"); n != 4 {
			t.Errorf("line %d has %d separators: %q", i, n, l)
		}
	}
}

func TestTableLongRowPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a row longer than the header did not panic")
		}
	}()
	Table{Header: []string{"a"}, Rows: [][]string{{"1", "2"}}}.Markdown()
}
