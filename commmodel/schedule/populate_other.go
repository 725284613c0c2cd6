//go:build !linux

package schedule

// populate touches the pages of b, where Linux's madvise is not there to
// fault them in at once.
func populate(b []byte) { touch(b) }
