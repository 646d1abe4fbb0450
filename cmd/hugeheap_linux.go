package cmd

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

const hugePage = 2 << 20

// heapProbe holds a small allocation made before the large one, so that
// its address (in the heap space the runtime mapped at start-up) is known.
var heapProbe *[64]byte

// adviseHugeHeap makes the heap fault in 2 MiB at a time instead of
// 4 KiB. A fresh process reading a set touches 20-40 MB of new heap; on a
// virtual machine where a fault costs about 10 µs that alone was a third
// of `inspect --sheets`. The runtime maps the space for one large
// allocation of n bytes, the kernel is asked for huge pages in the whole
// heap mapping (MADV_HUGEPAGE: honoured where transparent huge pages are
// "always" or "madvise", a no-op where they are "never"), and the
// allocation is let go (the caller collects it), so the pages that follow
// are laid out in that space.
//
// The space mapped at start-up, below the large allocation, was already
// touched by the packages' initialisation, 4 KiB at a time: its 2 MiB
// ranges are collapsed into huge pages (MADV_COLLAPSE, Linux 6.1), since
// the runtime keeps handing out its free pages first and a review faulted
// in there some 700 times.
func adviseHugeHeap(n int) heapAdvice {
	heapProbe = new([64]byte)
	b := make([]byte, n)
	probe := uintptr(unsafe.Pointer(heapProbe))
	heapProbe = nil
	first := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	end := first + uintptr(n)
	lo, hi, ok := mappingAround(probe)
	if !ok || first < lo || end > hi {
		// The large allocation is not in the start-up space's mapping:
		// only its own space is advised.
		_ = unix.Madvise(b, unix.MADV_HUGEPAGE) // an old kernel refuses: nothing changes
		return heapAdvice{}
	}
	a := heapAdvice{lo: lo, hi: hi}
	if madvise(lo, hi-lo, unix.MADV_HUGEPAGE) != nil {
		return a
	}
	a.whole = true
	for r := (lo + hugePage - 1) &^ (hugePage - 1); r < first; r += hugePage {
		a.tried++
		// Refused before 6.1 or without a free huge page: nothing changes.
		if madvise(r, hugePage, unix.MADV_COLLAPSE) == nil {
			a.collapsed++
		}
	}
	return a
}

// heapAdvice is what adviseHugeHeap did: the heap mapping [lo, hi) it
// advised as a whole (whole), and how many of the start-up space's 2 MiB
// ranges it tried to collapse and did.
type heapAdvice struct {
	lo, hi           uintptr
	whole            bool
	tried, collapsed int
}

func madvise(addr, n uintptr, advice int) error {
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, addr, n, uintptr(advice)); errno != 0 {
		return errno
	}
	return nil
}

// mappingAround returns the bounds of the mapping holding addr, from
// /proc/self/maps.
func mappingAround(addr uintptr) (lo, hi uintptr, ok bool) {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		span, _, _ := bytes.Cut(sc.Bytes(), []byte(" "))
		from, to, found := bytes.Cut(span, []byte("-"))
		if !found {
			continue
		}
		l, err1 := strconv.ParseUint(string(from), 16, 64)
		h, err2 := strconv.ParseUint(string(to), 16, 64)
		if err1 == nil && err2 == nil && uintptr(l) <= addr && addr < uintptr(h) {
			return uintptr(l), uintptr(h), true
		}
	}
	return 0, 0, false
}
