package schedule

import "syscall"

// madvPopulateWrite is Linux's MADV_POPULATE_WRITE (5.14 on), which the
// syscall package does not name.
const madvPopulateWrite = 23

// populate faults in the pages of b as if each were written, in one call
// (madvise MADV_POPULATE_WRITE) rather than one fault per page; on a kernel
// without it, or where b does not start on a page, it touches them. On this
// project's 2-core virtual machine, 2 GiB over two threads took 0.66-1.19 s
// this way against 0.88-3.16 s for the faults of touching (docs/performance.md, seven rounds each).
func populate(b []byte) {
	if len(b) > 0 && syscall.Madvise(b, madvPopulateWrite) != nil {
		touch(b)
	}
}

// hugePages asks the kernel to back b with transparent huge pages where it
// can (madvise MADV_HUGEPAGE; transparent_hugepage set to "madvise" or
// "always"): a fault and a zeroing per 2 MiB instead of 512 of each, and as
// many fewer pages to free at exit. Where it cannot or will not, b keeps
// its small pages, which is no error of the simulation. For the 2 GiB of
// commlab simulate's 1024-rank ring the command took 2.81 s at the median
// of 10 runs, against 2.99 s without; in a standalone measurement most of
// such a gain was the exit's freeing of the pages (docs/performance.md).
func hugePages(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
