package nccltests

import (
	"errors"

	"github.com/inframethod/commlab/internal/parseerr"
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
	// ErrInconsistent: the table contradicts an override or its own labels,
	// or NCCL's lines contradict the table or each other (hosts that
	// disagree on GPUDirect RDMA) (a warning: the reader keeps the test).
	ErrInconsistent = errors.New("inconsistent")
	// ErrElided: the Rank lines skip ranks, elided by whoever posted the
	// log, so they name only some hosts (a warning, with ErrInconsistent:
	// the highest rank gives the count, and the node count stays unknown
	// unless NCCL's debug lines or an override give it).
	ErrElided = errors.New("elided")
	// ErrAmbiguous: the table fits several collectives alike and nothing
	// in the file or its name tells which ran (a warning: the reader takes
	// the first, Test.CollectiveFrom is FromGuess).
	ErrAmbiguous = errors.New("ambiguous collective")
	// ErrRejoined: rows that launcher tags had cut were put back together (a
	// warning: the rows are kept).
	ErrRejoined = errors.New("rows rejoined")
	// ErrFailed: nccl-tests' own check failed, a row with a non-zero
	// #wrong (the row is left out) or a trailer that counts out-of-bounds
	// values (a warning).
	ErrFailed = errors.New("failed nccl-tests' check")
	// ErrLongLine: a line longer than any nccl-tests or NCCL prints (a
	// warning: the line is left unread).
	ErrLongLine = errors.New("line too long")
	// ErrNULLine: a line holding a NUL byte (a warning: the line is left
	// unread). NCCL 2.17 to 2.19 write one, and the bytes that follow their
	// 1024-byte debug buffer, on a debug line longer than it.
	ErrNULLine = errors.New("NUL byte in a line")
	// ErrTooManyRows: the input holds more rows than Options.MaxRows, bad
	// rows among them, at the first row past it (the reader stops there,
	// its memory bounded).
	ErrTooManyRows = errors.New("too many rows")
	// ErrMoreProblems: the input holds more problems than MaxProblems;
	// the one problem past them counts the rest (the reader goes on).
	ErrMoreProblems = errors.New("more problems")
	// ErrStopped: the table ends below the header's maxBytes and no
	// "# Avg bus bandwidth" line follows it: the run stopped there (a hang
	// or a crash), or whoever posted the log cut it (a warning: the rows
	// are kept).
	ErrStopped = errors.New("table stops early")
	// ErrAbridged: a table that stops early (ErrStopped, which wraps it
	// too) in a log that says it was abridged: cut by whoever posted it,
	// not a run that stopped.
	ErrAbridged = errors.New("the log says it was abridged")
	// ErrJSON: the input is JSON that is not the output of nccl-tests -J,
	// or larger than any such output; or a text log holds a line of that
	// output (a warning: the line is left unread).
	ErrJSON = errors.New("not nccl-tests' JSON output")
	// ErrUnsplit: rccl-tests' CSV or JSON output gives the GPUs a process
	// drives (Test.ProcessGPUs) but not its threads and GPUs a thread (a
	// warning, with ErrInconsistent: taken as one thread of them). A
	// caller that is told the split drops it.
	ErrUnsplit = errors.New("threads unknown")
	// ErrSplit: the Rank lines name several groups, which nccl-tests'
	// NCCL_TESTS_SPLIT (or NCCL_TESTS_SPLIT_MASK) made, each its own
	// communicator run at the same time as the others; the table is rank
	// 0's group's, and the Rank lines of the others are left out (a
	// warning).
	ErrSplit = errors.New("split run")
)

// unsplit is ErrInconsistent marked as ErrUnsplit's, whose message reads
// as every inconsistency's.
type unsplit struct{}

func (unsplit) Error() string        { return ErrInconsistent.Error() }
func (unsplit) Unwrap() error        { return ErrInconsistent }
func (unsplit) Is(target error) bool { return target == ErrUnsplit }

// A ParseError is a problem at one place of a measurement file, in the style
// of encoding/csv's ParseError. It is the same type as topo.ParseError: File
// is the name given to the reader or ""; Line is 1-based, 0 when the error
// concerns the whole file; Column is the 1-based byte offset of the offending
// field in the line, 0 for the whole line; Err wraps one of the Err* sentinels
// above or an I/O error.
type ParseError = parseerr.ParseError
