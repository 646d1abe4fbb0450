package cmd

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestAdviseHugeHeap: the heap's mapping is advised for huge pages as a
// whole, and the start-up space below the large allocation, touched 4 KiB
// at a time by then, is collapsed into huge pages where the kernel can.
// It runs in a fresh process, as the one-shot commands that advise their
// heap do: in this one, other tests' heap and the runtime's scavenger
// (which gives free pages back, splitting a huge page) are at work.
func TestAdviseHugeHeap(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || bytes.Contains(mode, []byte("[never]")) {
		t.Skip("transparent huge pages are off on this machine")
	}
	if os.Getenv("PLANREVIEW_TEST_HUGE_HEAP") == "" {
		child := exec.Command(os.Args[0], "-test.run=^TestAdviseHugeHeap$", "-test.v")
		child.Env = append(os.Environ(), "PLANREVIEW_TEST_HUGE_HEAP=1")
		out, err := child.CombinedOutput()
		switch {
		case err != nil:
			t.Fatalf("in a fresh process: %v\n%s", err, out)
		case bytes.Contains(out, []byte("--- SKIP")):
			t.Skipf("in a fresh process:\n%s", out)
		}
		return
	}
	debug.SetGCPercent(-1) // as oneShotHeap: no collection while the allocation is advised
	a := adviseHugeHeap(startingHeap)
	if !a.whole {
		t.Skipf("the heap mapping was not advised as a whole here (%+v)", a)
	}
	flags, hugeKB := smapsOf(t, a.lo)
	if !strings.Contains(flags, " hg") {
		t.Fatalf("the heap mapping %#x-%#x is not advised: VmFlags:%s", a.lo, a.hi, flags)
	}
	switch {
	case a.tried == 0:
		t.Fatalf("no start-up range below the large allocation was tried (%+v)", a)
	case a.collapsed == 0:
		t.Skipf("the kernel collapsed none of %d ranges (before Linux 6.1, or no free huge page)", a.tried)
	case hugeKB < a.collapsed*2048:
		t.Fatalf("the heap mapping has %d kB in huge pages after %d ranges were collapsed", hugeKB, a.collapsed)
	}
}

// smapsOf returns the VmFlags and AnonHugePages (kB) of the mapping that
// starts at lo.
func smapsOf(t *testing.T, lo uintptr) (flags string, hugeKB int) {
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
		if from, _, ok := strings.Cut(first, "-"); ok && !strings.HasSuffix(first, ":") {
			// A mapping's header line: the fields that follow are its own.
			if in {
				break
			}
			start, err := strconv.ParseUint(from, 16, 64)
			in = err == nil && uintptr(start) == lo
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
