package figure

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"
)

// Align is a table column's alignment.
type Align int

const (
	Left Align = iota
	Right
	Center
)

// Table is a table of text cells, rendered as Markdown (GitHub-flavoured)
// or HTML.
type Table struct {
	Header []string
	Rows   [][]string
	Align  []Align // per column; missing entries are Left
}

// Markdown renders the table with columns padded to a common width, so that
// the source reads as a table too. A "|" in a cell is escaped and a newline
// becomes a space; rows shorter than the header are padded with empty cells.
// A row longer than the header is a programming error and panics.
func (t Table) Markdown() string {
	n := len(t.Header)
	cells := make([][]string, 0, len(t.Rows)+1)
	cells = append(cells, escapeRow(t.Header, n))
	for i, r := range t.Rows {
		if len(r) > n {
			panic(fmt.Sprintf("figure: table row %d has %d cells for %d columns", i, len(r), n))
		}
		cells = append(cells, escapeRow(r, n))
	}
	width := make([]int, n)
	for _, r := range cells {
		for j, c := range r {
			width[j] = max(width[j], utf8.RuneCountInString(c), 3)
		}
	}
	var b strings.Builder
	writeRow := func(r []string) {
		b.WriteString("|")
		for j, c := range r {
			b.WriteString(" " + pad(c, width[j], t.align(j)) + " |")
		}
		b.WriteString("\n")
	}
	writeRow(cells[0])
	b.WriteString("|")
	for j := range n {
		d := strings.Repeat("-", width[j])
		switch t.align(j) {
		case Right:
			d = d[1:] + ":"
		case Center:
			d = ":" + d[2:] + ":"
		}
		b.WriteString(" " + d + " |")
	}
	b.WriteString("\n")
	for _, r := range cells[1:] {
		writeRow(r)
	}
	return b.String()
}

func (t Table) align(j int) Align {
	if j < len(t.Align) {
		return t.Align[j]
	}
	return Left
}

func escapeRow(r []string, n int) []string {
	out := make([]string, n)
	for j := range r {
		c := strings.ReplaceAll(r[j], "\r\n", " ")
		c = strings.ReplaceAll(c, "\n", " ")
		out[j] = strings.ReplaceAll(c, "|", `\|`)
	}
	return out
}

func pad(s string, w int, a Align) string {
	gap := w - utf8.RuneCountInString(s)
	switch a {
	case Right:
		return strings.Repeat(" ", gap) + s
	case Center:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	}
	return s + strings.Repeat(" ", gap)
}

// HTML renders the table as an HTML <table>, the form notebook front ends
// render (Jupyter Notebook 6 shows Markdown output as its source): a header
// row of <th> and a <tr> of <td> per row, each cell escaped and aligned as
// t.Align says; rows shorter than the header are padded with empty cells,
// and a longer row panics, as in Markdown.
func (t Table) HTML() string {
	n := len(t.Header)
	var b strings.Builder
	cell := func(tag string, j int, s string) {
		fmt.Fprintf(&b, `<%s style="text-align:%s">%s</%s>`, tag, [...]string{"left", "right", "center"}[t.align(j)], html.EscapeString(s), tag)
	}
	b.WriteString("<table>\n<thead><tr>")
	for j, h := range t.Header {
		cell("th", j, h)
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for i, r := range t.Rows {
		if len(r) > n {
			panic(fmt.Sprintf("figure: table row %d has %d cells for %d columns", i, len(r), n))
		}
		b.WriteString("<tr>")
		for j := range n {
			s := ""
			if j < len(r) {
				s = r[j]
			}
			cell("td", j, s)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	return b.String()
}
