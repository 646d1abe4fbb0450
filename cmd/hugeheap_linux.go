package cmd

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// hugeHeapBytes is how much of the heap a one-shot reading of a plan set
// asks to have backed by transparent huge pages: more than the largest
// corpus set's peak heap (about 30 MB), and free where it is not touched.
const hugeHeapBytes = 64 << 20

// hugeHeap makes the heap's first touches cost one page fault per 2 MiB
// instead of one per 4 KiB. A fresh process reading a set touches some
// 20 MB of new heap; on a virtual machine where a fault costs about 10 µs
// that alone was a third of `inspect --sheets`. The runtime maps the
// space for one large allocation, the kernel is asked for huge pages
// there (MADV_HUGEPAGE: honoured where transparent huge pages are
// "always" or "madvise", a no-op where they are "never"), and the
// allocation is let go at once, so the pages that follow are laid out in
// that space. Only the one-shot commands do this: the server keeps its
// heap between scans and pays these faults once.
func hugeHeap() {
	adviseHuge(make([]byte, hugeHeapBytes))
	runtime.GC()
}

func adviseHuge(b []byte) {
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // an old kernel refuses: nothing changes
}
