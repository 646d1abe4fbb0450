package cmd

import (
	"golang.org/x/sys/unix"
)

// hugeHeapBytes is how much of the heap a one-shot reading of a plan set
// asks to have backed by transparent huge pages: the starting heap below,
// and free where it is not touched.
const hugeHeapBytes = startingHeap

// adviseHugeHeap makes the heap's first touches cost one page fault per
// 2 MiB instead of one per 4 KiB. A fresh process reading a set touches
// 20-40 MB of new heap; on a virtual machine where a fault costs about
// 10 µs that alone was a third of `inspect --sheets`. The runtime maps
// the space for one large allocation, the kernel is asked for huge pages
// there (MADV_HUGEPAGE: honoured where transparent huge pages are
// "always" or "madvise", a no-op where they are "never"), and the
// allocation is let go (the caller collects it), so the pages that
// follow are laid out in that space.
func adviseHugeHeap() {
	b := make([]byte, hugeHeapBytes)
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // an old kernel refuses: nothing changes
}
