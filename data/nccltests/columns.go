package nccltests

import "strings"

// A layout maps the fields of an nccl-tests row to columns. nccl-tests prints
// leading columns (size count type redop root since 2022; before, each test
// printed only those it has: all_gather "size count type", broadcast "size
// count type root", all_reduce "size count type redop"; in 2017 "bytes N type
// op"), then one block per placement that starts with "time" (or "cputime")
// and holds algbw, busbw and "#wrong" (or "error"), sometimes "#bitdiff" and
// per-iteration statistics, and may end with a two-field timestamp.
type layout struct {
	names []string
	// count, typ, redop and root are the field indices of those leading
	// columns, -1 when the table lacks them; size is field 0.
	count, typ, redop, root int
	lead                    int     // number of leading columns
	halves                  []block // out-of-place, then in-place (one block in single-half tables)
	width                   int     // fields in a full row, without the timestamp
	stamp                   int     // fields of a trailing timestamp (0 or 2)
	// inPlace: the one block of a single-block table is in-place.
	inPlace bool
	// header: the layout is a column header's, not taken from a row's
	// field count.
	header bool
}

// separate reports a column header of nccl-tests before 2022, whose
// tests each printed only the leading columns they have (one without a
// redop or a root column); since 2022 every test prints both.
func (l *layout) separate() bool {
	return l.header && l.names[0] == "size" && (l.redop < 0 || l.root < 0)
}

// A block is the columns of one placement; offsets are from the block start,
// -1 when the column is missing.
type block struct {
	start, width              int
	time, algBW, busBW, wrong int
}

func isTimeColumn(s string) bool { return s == "time" || s == "cputime" }

// parseLayout reads a column header's tokens ("size count type redop root
// time algbw busbw #wrong time ..."), or reports false if they are not one.
func parseLayout(tok []string) (*layout, bool) {
	if len(tok) < 5 || tok[0] != "size" && tok[0] != "bytes" { // "bytes N type op" before 2018
		return nil, false
	}
	l := &layout{names: tok, count: -1, typ: -1, redop: -1, root: -1}
	i := 1
	for ; i < len(tok) && !isTimeColumn(tok[i]); i++ {
		var col *int
		switch tok[i] {
		case "count", "N":
			col = &l.count
		case "type":
			col = &l.typ
		case "redop", "op":
			col = &l.redop
		case "root":
			col = &l.root
		default:
			return nil, false
		}
		if *col >= 0 {
			return nil, false
		}
		*col = i
	}
	l.lead = i
	if l.typ < 0 {
		return nil, false
	}
	for i < len(tok) && isTimeColumn(tok[i]) {
		b := block{start: i, time: 0, algBW: -1, busBW: -1, wrong: -1}
		j := i + 1
		for j < len(tok) && !isTimeColumn(tok[j]) && tok[j] != "timestamp" {
			switch strings.TrimPrefix(tok[j], "#") {
			case "algbw":
				b.algBW = j - i
			case "busbw":
				b.busBW = j - i
			case "wrong", "error", "errors", "res":
				b.wrong = j - i
			}
			j++
		}
		b.width = j - i
		if b.algBW < 0 || b.busBW < 0 {
			return nil, false
		}
		l.halves = append(l.halves, b)
		i = j
	}
	if len(l.halves) == 0 || len(l.halves) > 2 {
		return nil, false
	}
	l.width = i
	if i < len(tok) && tok[i] == "timestamp" {
		l.stamp = 2 // "%Y-%m-%d %H:%M:%S"
		i++
	}
	if i != len(tok) {
		return nil, false
	}
	return l, true
}

// defaultLayout is the layout of a row of n fields when the file has no
// column header: 13 (root, two halves), 12 (no root, two halves), 11 (no
// redop nor root, two halves: all_gather and alltoall before 2022), and 9,
// 8 and 7 (one half).
func defaultLayout(n int) (*layout, bool) {
	half := []string{"time", "algbw", "busbw", "#wrong"}
	var tok []string
	switch n {
	case 13, 9:
		tok = []string{"size", "count", "type", "redop", "root"}
	case 12, 8:
		tok = []string{"size", "count", "type", "redop"}
	case 11, 7:
		tok = []string{"size", "count", "type"}
	default:
		return nil, false
	}
	tok = append(tok, half...)
	if n >= 11 {
		tok = append(tok, half...)
	}
	return parseLayout(tok)
}
