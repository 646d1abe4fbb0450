//go:build unix

package sheetimage

import "golang.org/x/sys/unix"

const reservable = true

// reserve maps n bytes of zeroed, private, uncommitted memory: the kernel
// backs a page only when it is first written.
func reserve(n uint64) ([]byte, error) {
	return unix.Mmap(-1, 0, int(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
}

// discard gives b's pages back to the system; the mapping stays, and
// reads as zeros.
func discard(b []byte) {
	if len(b) > 0 {
		_ = unix.Madvise(b, unix.MADV_DONTNEED)
	}
}
