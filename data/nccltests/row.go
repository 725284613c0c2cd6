package nccltests

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/inframethod/commlab/internal/parseerr"
	"github.com/inframethod/commlab/units"
)

// row reads s as a table row if it is one and reports whether it was taken
// as a row (read, or reported broken). A line starting with a number is a
// row inside a table; outside one it must also look like a row: size,
// count, then a type name.
func (p *parser) row(n int, s string) bool {
	f, starts := splitFields(s, p.fields[:0], p.starts[:0])
	p.fields, p.starts = f, starts
	c := p.cur
	inTable := c != nil && c.lay != nil && !c.closed
	if !allDigits(f[0]) {
		if inTable && len(f) >= 3 && allDigits(f[1]) && isWord(f[2]) {
			// "268,435,456" or "2.7e+08" where nccl-tests prints the bytes
			// as a whole number: a row, but its size is unknown.
			if !p.count(n) {
				p.fieldProblem(n, 0, "%w: size %q; the row is left out", ErrNumber, parseerr.Excerpt(f[0]))
			}
			return true
		}
		return false
	}
	if !inTable && !(len(f) >= 3 && allDigits(f[1]) && isWord(f[2])) {
		return false
	}
	if p.count(n) {
		return true
	}
	if c == nil || c.closed {
		var lay *layout
		if c != nil {
			lay = c.lay // a second table printed without its own header
		}
		c = p.start(n, func(*testState) bool { return false })
		c.lay = lay
	}
	f, halves, inPlaceOnly, ok := p.rowLayout(n, c, f)
	if !ok {
		return true
	}
	r, ok := p.rowLead(n, c.lay, f)
	if !ok {
		return true
	}
	c.endSize, c.endLine, c.endCol = r.Size, n, p.jsonCol
	var res [2]Result
	for i, b := range halves {
		var col int
		if res[i], col, ok = p.half(f, b); !ok {
			if i == 1 && strings.EqualFold(f[b.start+b.time], "N/A") {
				res[i] = Result{} // no in-place time: the out-of-place one stands
				continue
			}
			p.fieldProblem(n, col, "%w: %s %q; the row is left out", ErrNumber, c.lay.names[min(col, len(c.lay.names)-1)], parseerr.Excerpt(f[col]))
			return true
		}
	}
	for i, b := range halves {
		// A #wrong count above 0 is a result nccl-tests found wrong; an
		// error column ("4e-07") is a float's rounding, not a failure.
		if w, err := strconv.Atoi(res[i].Wrong); err == nil && w > 0 {
			col := b.start + b.wrong
			p.fieldProblem(n, col, "%w: %s %d; the row is left out", ErrFailed, c.lay.names[min(col, len(c.lay.names)-1)], w)
			c.failed++
			return true
		}
	}
	for i, b := range halves {
		if t := res[i].Time; !strings.EqualFold(f[b.start+b.time], "N/A") && (t < 0 || r.Size > 0 && (t < MinTime || t > MaxTime)) {
			// nccl-tests times a call of bytes in microseconds with
			// two decimals: 0 is no measurement ("0", "-0", "1e-320"),
			// nor is a negative time, a time below 0.01 us it cannot
			// print, or one beyond any call's.
			col := b.start + b.time
			p.fieldProblem(n, col, "%w: time %q at %d bytes is no measurement (want 0.01 to 1e12 us); fits leave this half of the row out",
				ErrNumber, parseerr.Excerpt(f[col]), r.Size)
			res[i].Time = 0
		}
	}
	if r.Size > 0 && !p.algBWAgrees(n, c, r.Size, f, halves, &res) {
		return true
	}
	if inPlaceOnly {
		r.InPlace = res[0]
	} else {
		r.OutOfPlace, r.InPlace = res[0], res[1]
	}
	p.kept++
	c.observe(r, f, halves, res)
	c.rejoined.add(p, n)
	c.t.Rows = append(c.t.Rows, r)
	return true
}

// algBWSlack is how far beyond the rounding of its digits a printed algbw
// may lie from size / time: nccl-tests of 2019 printed it up to 9% below
// (testdata/real/v100_dgx2_five_tests_2019.log, AllGather at 512 MiB:
// 71.11 GB/s for 536870880 B in 6920.5 us, 77.58), and a size retyped is
// most often off by 2 or more (a power of two's neighbour, a factor of
// 1000).
const algBWSlack = 1.5

// algBWAgrees checks each half of row n of test c, of size bytes and
// fields f, whose time is a measurement (res, as read): nccl-tests prints
// algbw = size / time, so the printed algbw must lie within what size over
// the printed time allows, given the rounding of both (algBWBounds), to
// within a factor of algBWSlack. A
// half that disagrees has a cell retyped or pasted: its time, its algbw, or
// the row's size, and no cell tells which. Where every half with a time
// disagrees, the size is the likely one, and the row is left out, as a
// size printed twice is (a fit through a size 1000 times its own would
// read a bandwidth 1000 times the machine's); where one half of two does,
// its time or algbw is, and that half is left out (its Time set to 0), the
// other half kept. ok is false where the row is left out. Each is a
// warning, ErrInconsistent at the algbw field.
func (p *parser) algBWAgrees(n int, c *testState, size int64, f []string, halves []block, res *[2]Result) (ok bool) {
	var bad [2]bool
	timed, nBad := 0, 0
	for i, b := range halves {
		if res[i].Time <= 0 {
			continue
		}
		timed++
		ts, as := f[b.start+b.time], f[b.start+b.algBW]
		if p.fromRecords {
			// nccl-tests -J writes with %f the values it rounded as it
			// prints them: "93.250000", of two decimals.
			ts, as = trimZeros(ts), trimZeros(as)
		}
		if lo, hi := algBWBounds(size, res[i], ts, as); lo > hi*algBWSlack {
			bad[i] = true
			nBad++
		}
	}
	for i, b := range halves {
		if !bad[i] {
			continue
		}
		what := "fits leave this half of the row out (a time or an algbw retyped)"
		if nBad == timed {
			what = "the row is left out (a size retyped, or a row pasted from another test)"
		}
		col := b.start + b.algBW
		p.fieldProblem(n, col, "%w: %s %s GB/s, but size / time is %d B / %s us = %.4g GB/s: %s",
			ErrInconsistent, c.lay.names[col], f[col], size, f[b.start+b.time], float64(size)/res[i].Time/1e9, what)
		if nBad == timed {
			return false
		}
		res[i].Time = 0
	}
	return true
}

// trimZeros drops the zeros that end a decimal fraction: "93.250000" ->
// "93.25", "17290.000000" -> "17290".
func trimZeros(s string) string {
	if !strings.Contains(s, ".") || strings.ContainsAny(s, "eE") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// count counts the row on line n, read or bad, and reports whether it is
// past Options.MaxRows: the reader stops there (tooMany), so that a file of
// millions of rows, bad ones too, costs no more than MaxRows do.
func (p *parser) count(n int) (past bool) {
	if p.rows++; p.opt.MaxRows > 0 && p.rows > p.opt.MaxRows {
		if p.tooMany == 0 {
			p.tooMany = n
		}
		return true
	}
	return false
}

// rowLayout returns the fields of row f of test c that its layout reads
// (a time stamp dropped), the halves they hold and whether the one half is
// in-place, setting the layout from the field count when the table has no
// header; ok is false, with the problem reported, when f fits no layout.
func (p *parser) rowLayout(n int, c *testState, f []string) (fields []string, halves []block, inPlaceOnly, ok bool) {
	lay := c.lay
	if lay == nil {
		l, ok := defaultLayout(len(f))
		if !ok {
			p.problem(n, 0, "%w: %d; without a column header a row has 7, 8, 9, 11, 12 or 13", ErrFieldCount, len(f))
			return nil, nil, false, false
		}
		lay, c.lay, c.t.Columns = l, l, l.names
	}
	halves, inPlaceOnly = lay.halves, lay.inPlace
	switch {
	case len(f) == lay.width:
	case lay.stamp > 0 && len(f) == lay.width+lay.stamp:
		f = f[:lay.width]
	case len(lay.halves) == 2 && len(f) == lay.width-lay.halves[0].width &&
		slices.ContainsFunc(c.t.Rows, func(r Row) bool { return r.OutOfPlace.OK() }):
		// The table's other rows have both halves: this one was cut short
		// (a paste's or a file's end), not left blank by a trace replay.
		p.problem(n, 0, "%w: %d, want %d for columns %q: the row stops after one half of its times, where the table's others have both; it is left out",
			ErrFieldCount, len(f), lay.width, strings.Join(lay.names, " "))
		return nil, nil, false, false
	case lay.redop >= 0 && len(f) == lay.width-1 && !isWord(f[lay.redop]):
		// nccl-tests before 2022 printed a blank redop for a collective
		// without one (alltoall_perf): the row is read with none.
		f = slices.Insert(f, lay.redop, "")
		p.fields, p.starts = f, slices.Insert(p.starts, lay.redop, p.starts[lay.redop])
	case len(lay.halves) == 2 && len(f) == lay.width-lay.halves[0].width:
		// nccl-tests leaves the out-of-place half blank in trace replay.
		b := lay.halves[1]
		b.start = lay.lead
		halves, inPlaceOnly = []block{b}, true
	default:
		p.problem(n, 0, "%w: %d, want %d for columns %q", ErrFieldCount, len(f), lay.width, strings.Join(lay.names, " "))
		return nil, nil, false, false
	}
	return f, halves, inPlaceOnly, true
}

// MinTime and MaxTime bound a measured time, s: the least nccl-tests
// prints but 0 (0.01 us), and 11.6 days, beyond any call's. A time
// outside them is no measurement.
const MinTime, MaxTime = 0.01e-6, 1e6

// rowLead reads the columns before the halves: size, count, type, redop
// and root. ok is false, with the problem reported, for a bad field.
func (p *parser) rowLead(n int, lay *layout, f []string) (r Row, ok bool) {
	r = Row{Line: n, Root: -1, jsonCol: p.jsonCol}
	var err error
	if r.Size, err = strconv.ParseInt(f[0], 10, 64); err != nil || r.Size < 0 || r.Size >= units.MaxSize {
		p.fieldProblem(n, 0, "%w: size %q, want a count of bytes below 2^62; the row is left out", ErrNumber, parseerr.Excerpt(f[0]))
		return r, false
	}
	if i := lay.count; i >= 0 {
		if r.Count, err = strconv.ParseInt(f[i], 10, 64); err != nil || r.Count < 0 {
			p.fieldProblem(n, i, "%w: count %q; the row is left out", ErrNumber, parseerr.Excerpt(f[i]))
			return r, false
		}
	}
	for _, i := range [2]int{lay.typ, lay.redop} {
		if i >= 0 && !isWord(f[i]) && !(i == lay.redop && f[i] == "") {
			p.fieldProblem(n, i, "%w: %s %q is not a name; the row does not match the columns %q",
				ErrFieldCount, lay.names[i], parseerr.Excerpt(f[i]), strings.Join(lay.names, " "))
			return r, false
		}
	}
	r.Type = f[lay.typ]
	if i := lay.count; i >= 0 && r.Count > maxCount(r.Type) {
		// A count whose elements make 2^62 bytes or more is out of range,
		// as such a size is (a corrupt or retyped count: 2^62 floats
		// would make count × 4 wrap int64 to 0).
		p.fieldProblem(n, i, "%w: count %q of %s makes 2^62 bytes or more, beyond any size; the row is left out", ErrNumber, parseerr.Excerpt(f[i]), parseerr.Excerpt(r.Type))
		return r, false
	}
	if lay.redop >= 0 {
		r.RedOp = f[lay.redop]
	}
	if i := lay.root; i >= 0 {
		root, err := strconv.Atoi(f[i])
		if err != nil || root < -1 {
			p.fieldProblem(n, i, "%w: root %q; the row is left out", ErrNumber, parseerr.Excerpt(f[i]))
			return r, false
		}
		r.Root = root
	}
	return r, true
}

// observe lets good row r, of fields f, speak for the test's collective and
// ranks: its redop, root and #wrong columns, its count ratio and the
// busbw/algbw ratio of each half res.
func (c *testState) observe(r Row, f []string, halves []block, res [2]Result) {
	if len(c.t.Rows) == 0 {
		c.redopCol, c.reduces = c.lay.redop >= 0, r.RedOp != "none" && r.RedOp != ""
		c.blankRedop = c.redopCol && r.RedOp == ""
		c.rootCol = c.lay.root >= 0
	}
	if r.Root >= 0 {
		c.rooted = true
	}
	if len(halves) == 2 {
		c.check.add(r.OutOfPlace.Wrong, r.InPlace.Wrong)
	}
	if r.Size > 0 {
		c.countRatio.add(r.Size, r.Count, r.Type)
		for i, b := range halves {
			c.ratio.add(r.Size, res[i], f[b.start+b.time], f[b.start+b.algBW], f[b.start+b.busBW])
		}
	}
}

// half reads one placement's block; on failure it returns the index of the
// bad field. A negative time is read, for row to leave out as no
// measurement, the rest of the row kept; a negative bandwidth is a bad
// field.
func (p *parser) half(f []string, b block) (Result, int, bool) {
	var v [3]float64
	for k, off := range [3]int{b.time, b.algBW, b.busBW} {
		i := b.start + off
		x, ok := parseNumber(f[i])
		if !ok || !(x >= 0 || k == 0 && x < 0) || math.IsInf(x, 0) {
			return Result{}, i, false
		}
		v[k] = x
	}
	res := Result{Time: v[0] / 1e6, AlgBW: v[1] * 1e9, BusBW: v[2] * 1e9} // us -> s, GB/s -> B/s
	if b.wrong >= 0 {
		res.Wrong = f[b.start+b.wrong]
	}
	return res, 0, true
}

// isWord reports whether s starts with a letter (a type or redop name).
func isWord(s string) bool {
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z' || s[0] == '_')
}

// splitFields appends the space-separated fields of s to dst and their byte
// offsets in s to starts, like strings.Fields without its allocation.
func splitFields(s string, dst []string, starts []int) ([]string, []int) {
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			dst = append(dst, s[i:j])
			starts = append(starts, i)
		}
		i = j
	}
	return dst, starts
}

// exactPow10[i] = 10^i, exact in float64 up to 10^22.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseNumber reads a float as C's printf writes it, as strconv.ParseFloat
// does, with a fast path for the plain decimals nccl-tests prints
// ("1038.5", "0.00"): a mantissa below 2^53 divided by an exact power of
// ten is one correctly rounded division, the same value ParseFloat
// returns. Anything else goes to ParseFloat, but Go's own forms.
func parseNumber(s string) (float64, bool) {
	var m uint64
	digits, dec, dot := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			m = m*10 + uint64(c-'0')
			digits++
			if dot {
				dec++
			}
		case c == '.' && !dot:
			dot = true
		default:
			digits = 99 // not a plain decimal
		}
		if digits > 15 {
			// Go's number syntax beyond C's printf (1_000, 0x1p4, +5)
			// is no number nccl-tests prints.
			if strings.ContainsAny(s, "_xXpP") || strings.HasPrefix(s, "+") {
				return 0, false
			}
			x, err := strconv.ParseFloat(s, 64)
			return x, err == nil
		}
	}
	if digits == 0 {
		return 0, false
	}
	return float64(m) / exactPow10[dec], true
}

// checkRows checks the rows of test c when it ends, as nccl-tests prints
// them: each size once (a row of a size met before is left out, the first
// kept), each count size / sizeof(type), or that over the ranks for the
// collectives that count per rank, alike in every row (a row pasted from
// another test, or a size retyped, is named at its line), and the table
// up to the header's maxBytes, or closed by its "# Avg bus bandwidth"
// line.
func (p *parser) checkRows(c *testState) {
	rows := c.t.Rows
	type place struct {
		line, jsonCol, root int
		typ, redop          string
	} // a row's
	first := make(map[int64]place, len(rows))
	kept := rows[:0]
	for _, r := range rows {
		if at, ok := first[r.Size]; ok && r.Size > 0 {
			// A sweep of each data type (-d all), reduction (-o all) or
			// root (-r all) repeats the sizes in one table; rccl-tests'
			// CSV prints no root.
			why := "a row pasted twice, or a second sweep: nccl-tests -N, or -r all where the root is not printed"
			switch {
			case r.Type != at.typ:
				why = "a sweep of another data type, nccl-tests -d all"
			case r.RedOp != at.redop:
				why = "a sweep of another reduction, nccl-tests -o all"
			case r.Root != at.root:
				why = "a sweep of another root, nccl-tests -r all"
			}
			p.rowProblem(r, "%w: size %d again (first at %s): the second row is left out, the table keeps the first (%s)",
				ErrInconsistent, r.Size, p.where(Row{Line: at.line, jsonCol: at.jsonCol}), why)
			continue
		}
		first[r.Size] = place{r.Line, r.jsonCol, r.Root, r.Type, r.RedOp}
		kept = append(kept, r)
	}
	c.t.Rows = kept
	// k = size / (count * sizeof(type)) is 1, or the rank count for the
	// collectives whose count is per rank: the most rows' k is the table's.
	ks := map[int64]int{}
	best := int64(0)
	for _, r := range kept {
		if k, ok := countK(r); ok && k > 0 {
			if ks[k]++; ks[k] > ks[best] {
				best = k
			}
		}
	}
	for _, r := range kept {
		k, ok := countK(r)
		if !ok || best == 0 || k == best {
			continue
		}
		per := "size / sizeof(" + r.Type + ")"
		if best > 1 {
			per = fmt.Sprintf("size / sizeof(%s) / %d ranks", r.Type, best)
		}
		p.rowProblem(r, "%w: count %d does not match size %d of %s, where the table's other rows print count = %s: a row pasted from another test, or a size retyped",
			ErrInconsistent, r.Count, r.Size, r.Type, per)
	}
	if c.maxBytes > 0 && !c.closed && c.endLine > 0 && c.endSize < c.maxBytes-max(c.maxBytes/64, 4096) {
		why := errors.New("the run stopped there (a hang or a crash)")
		if p.abridged {
			why = ErrAbridged
		}
		trailer := "no '# Avg bus bandwidth' line follows"
		if p.fromRecords {
			trailer = "the JSON ends before its average_bus_bandwidth" // nccl-tests -J's trailer
		}
		p.rowProblem(Row{Line: c.endLine, jsonCol: c.endCol}, "%w: the table ends at %s, below the header's maxBytes %s, and %s: %w",
			ErrStopped, sizeText(c.endSize), sizeText(c.maxBytes), trailer, why)
	}
}

// countK is size / (count * sizeof(type)) of row r, with ok false where
// the row tells nothing (no count, an unknown type, size 0); k is 0 where
// it is no whole number.
func countK(r Row) (k int64, ok bool) {
	ts := typeSize(r.Type)
	if r.Count <= 0 || ts == 0 || r.Size <= 0 {
		return 0, false
	}
	k, _ = perCount(r.Size, r.Count, ts)
	return k, true
}

// perCount is size / (count·ts) for size >= 0 and count, ts > 0, whole
// false (and k 0) where it is no whole number. count·ts is formed only
// where it is at most size, so that it cannot wrap int64: a count whose
// bytes exceed the size is no count of it, and its product could wrap
// (2^62 floats make 0, a divisor of nothing; 2^61 + 1 doubles make 8).
func perCount(size, count, ts int64) (k int64, whole bool) {
	if count > size/ts {
		return 0, false
	}
	if d := count * ts; size%d == 0 {
		return size / d, true
	}
	return 0, false
}

// maxCount is the largest count of elements of type typ (of typeSize
// bytes, 1 for a type it does not know) that make fewer than 2^62 bytes,
// units.MaxSize, the bound of a size.
func maxCount(typ string) int64 {
	return (units.MaxSize - 1) / max(typeSize(typ), 1)
}

// sizeText writes bytes as nccl-tests' sweeps step them: "256 KiB", "8 GiB",
// or bytes where no binary unit divides them.
func sizeText(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	u := 0
	for u+1 < len(units) && b >= 1024 && b%1024 == 0 {
		b /= 1024
		u++
	}
	return fmt.Sprintf("%d %s", b, units[u])
}
