//go:build !linux

package schedule

// populate touches the pages of b, where Linux's madvise is not there to
// fault them in at once.
func populate(b []byte) { touch(b) }

// hugePages does nothing where Linux's madvise is not there to ask for huge
// pages.
func hugePages([]byte) {}
