package cmd

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestAdviseHugeHeap: the heap's mapping is advised for huge pages as a
// whole, and the start-up space below the large allocation, touched 4 KiB
// at a time by then, is collapsed into huge pages where the kernel can.
func TestAdviseHugeHeap(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || bytes.Contains(mode, []byte("[never]")) {
		t.Skip("transparent huge pages are off on this machine")
	}
	failedBefore := vmstat(t, "thp_collapse_alloc_failed")
	heapProbe = new([64]byte)
	probe := uintptr(unsafe.Pointer(heapProbe))
	adviseHugeHeap(startingHeap)
	flags, hugeKB := smapsOf(t, probe)
	if !strings.Contains(flags, " hg") {
		t.Fatalf("the heap mapping holding %#x is not advised: VmFlags:%s", probe, flags)
	}
	var u unix.Utsname
	if unix.Uname(&u) != nil || !kernelAtLeast(unix.ByteSliceToString(u.Release[:]), 6, 1) {
		return // no MADV_COLLAPSE before 6.1
	}
	if vmstat(t, "thp_collapse_alloc_failed") > failedBefore {
		t.Skip("the kernel had no free huge page to collapse into")
	}
	if hugeKB < 2048 {
		t.Fatalf("the heap mapping holding %#x has %d kB in huge pages; want the start-up space collapsed", probe, hugeKB)
	}
}

func kernelAtLeast(release string, major, minor int) bool {
	var ma, mi int
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, _ = strconv.Atoi(parts[0])
	digits := strings.IndexFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })
	if digits < 0 {
		digits = len(parts[1])
	}
	mi, _ = strconv.Atoi(parts[1][:digits])
	return ma > major || ma == major && mi >= minor
}

// smapsOf returns the VmFlags and AnonHugePages (kB) of the mapping
// holding addr.
func smapsOf(t *testing.T, addr uintptr) (flags string, hugeKB int) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		first, _, _ := strings.Cut(line, " ")
		if from, to, ok := strings.Cut(first, "-"); ok && !strings.HasSuffix(first, ":") {
			// A mapping's header line: the fields that follow are its own.
			lo, err1 := strconv.ParseUint(from, 16, 64)
			hi, err2 := strconv.ParseUint(to, 16, 64)
			if in {
				break
			}
			in = err1 == nil && err2 == nil && uintptr(lo) <= addr && addr < uintptr(hi)
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			hugeKB, _ = strconv.Atoi(strings.Fields(v)[0])
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			flags = v
		}
	}
	return flags, hugeKB
}

func vmstat(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		t.Skipf("no vmstat: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, name+" "); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}
