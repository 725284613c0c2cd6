package data

import (
	"errors"
	"fmt"
)

// Causes of a ParseError. Test for them with errors.Is.
var (
	// ErrEmpty: the file holds nothing but white space.
	ErrEmpty = errors.New("empty file")
	// ErrNotText: the file holds NUL bytes or is mostly invalid UTF-8.
	ErrNotText = errors.New("not a text file")
	// ErrNoTable: no row of measurements could be read.
	ErrNoTable = errors.New("no measurement table")
	// ErrFieldCount: a row has a number of fields its table does not allow.
	ErrFieldCount = errors.New("wrong number of fields")
	// ErrNumber: a field that must be a number is not one, or is out of range.
	ErrNumber = errors.New("bad number")
	// ErrValue: a field that must be one of a few words is not.
	ErrValue = errors.New("bad value")
	// ErrHeader: a CSV header lacks a required column.
	ErrHeader = errors.New("bad header")
	// ErrInconsistent: the table contradicts an override or its own labels
	// (a warning: the reader keeps the test).
	ErrInconsistent = errors.New("inconsistent")
)

// A ParseError is a problem at one place of a measurement file, in the style of
// encoding/csv's ParseError. Line 0 means the file as a whole.
type ParseError struct {
	File   string // file name as given to the reader
	Line   int    // 1-based line number; 0 for the whole file
	Column int    // 1-based field number; 0 when not about one field
	Err    error  // the cause, wrapping one of the Err* sentinels
}

func (e *ParseError) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	case e.Column == 0:
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: field %d: %v", e.File, e.Line, e.Column, e.Err)
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }
