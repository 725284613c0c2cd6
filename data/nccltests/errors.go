package nccltests

import (
	"errors"
	"fmt"
	"strconv"
)

// Causes of a ParseError. Test for them with errors.Is.
var (
	// ErrEmpty: the input holds nothing but white space.
	ErrEmpty = errors.New("empty file")
	// ErrNotText: the input holds NUL bytes or is mostly invalid UTF-8.
	ErrNotText = errors.New("not a text file")
	// ErrNoTable: no row of measurements could be read.
	ErrNoTable = errors.New("no measurement table")
	// ErrFieldCount: a row has a number of fields its table does not allow.
	ErrFieldCount = errors.New("wrong number of fields")
	// ErrNumber: a field that must be a number is not one, or is out of range.
	ErrNumber = errors.New("bad number")
	// ErrInconsistent: the table contradicts an override or its own labels
	// (a warning: the reader keeps the test).
	ErrInconsistent = errors.New("inconsistent")
	// ErrRejoined: rows that launcher tags had cut were put back together (a
	// warning: the rows are kept).
	ErrRejoined = errors.New("rows rejoined")
)

// A ParseError is a problem at one place of a measurement file, in the style
// of encoding/csv's ParseError. It has the same shape as topo.ParseError.
type ParseError struct {
	// File is the file name as given to the reader, "" when unnamed.
	File string
	// Line is the 1-based line number, 0 when the error concerns the whole
	// file.
	Line int
	// Column is the 1-based byte offset, in the line, of the start of the
	// offending field; 0 when the error concerns the whole line.
	Column int
	// Err is the cause, wrapping one of the Err* sentinels or an I/O error.
	Err error
}

// Error prints "file:line:column: cause", leaving out the parts that are
// empty or 0.
func (e *ParseError) Error() string {
	var b []byte
	b = append(b, e.File...)
	if e.Line > 0 {
		if len(b) > 0 {
			b = append(b, ':')
		}
		b = strconv.AppendInt(b, int64(e.Line), 10)
		if e.Column > 0 {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(e.Column), 10)
		}
	}
	if len(b) > 0 {
		b = append(b, ": "...)
	}
	return string(b) + fmt.Sprint(e.Err)
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }
