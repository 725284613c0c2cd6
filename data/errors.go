package data

import "errors"

// Causes of the tidy CSV's errors beside nccltests' (ErrEmpty, ErrNotText,
// ErrNoTable, ErrNumber). Test for them with errors.Is.
var (
	// ErrValue: a field that must be one of a few words is not, or a
	// field's CSV quoting is broken.
	ErrValue = errors.New("bad value")
	// ErrHeader: a CSV header lacks a required column.
	ErrHeader = errors.New("bad header")
)
