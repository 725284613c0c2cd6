package topo

import (
	"errors"
	"fmt"
)

// ParseError is a problem in `nvidia-smi topo -m` text, with its place.
type ParseError struct {
	// Line is the 1-based line number.
	Line int
	// Column is the 1-based column (in characters, a tab counting as one) of
	// the offending field, or 0 when the problem is the line as a whole.
	Column int
	// Err is the cause; errors.Is matches it against the Err* sentinels.
	Err error
}

func (e *ParseError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("line %d, column %d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Sentinel causes of a ParseError (besides ErrPathToken and ErrCPUList).
var (
	ErrNoMatrix   = errors.New("no topology matrix found (want a header line \"GPU0 GPU1 ...\" followed by rows \"GPU0 X NV18 ...\")")
	ErrNoHeader   = errors.New("matrix row without a header line of device columns above it")
	ErrUnknownRow = errors.New("row names a device that is not a column of the header")
	ErrDuplicate  = errors.New("device listed twice")
	ErrFieldCount = errors.New("more fields than the header has columns")
	ErrDiagonal   = errors.New("X (self) must be exactly the cell where a device meets itself")
	ErrAsymmetric = errors.New("path differs from the transposed cell")
	ErrNUMA       = errors.New("malformed NUMA node (want a number or N/A)")
	ErrTooLarge   = errors.New("input too large (more than 16 MiB or 1024 device columns)")
)
