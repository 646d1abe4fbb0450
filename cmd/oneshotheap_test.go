package cmd

import (
	"math"
	"os"
	"os/exec"
	"runtime/debug"
	"testing"
	"time"
)

// TestOneShotHeap: in a process of its own (it changes the collector of
// the process it runs in), oneShotHeap turns collection off up to the
// starting heap, and the first cycle, started by the memory limit once
// the heap reaches it, puts the default collector back.
func TestOneShotHeap(t *testing.T) {
	if os.Getenv("PLANREVIEW_ONESHOT_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestOneShotHeap$", "-test.v")
		cmd.Env = append(os.Environ(), "PLANREVIEW_ONESHOT_CHILD=1")
		cmd.Env = append(cmd.Env, "GOGC=", "GOMEMLIMIT=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	os.Unsetenv("GOGC")
	os.Unsetenv("GOMEMLIMIT")
	gcPercent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	oneShotHeap()
	if p, limit := gcPercent(), debug.SetMemoryLimit(-1); p != -1 || limit != startingHeap {
		t.Fatalf("after oneShotHeap: GC percent %d, memory limit %d; want -1 and %d", p, limit, startingHeap)
	}
	// Fill the heap past the starting heap (fresh, untouched pages): the
	// limit starts a cycle, after which the defaults are back.
	var keep [][]byte
	for range startingHeap/(4<<20) + 8 {
		keep = append(keep, make([]byte, 4<<20))
	}
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() != 100 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		if time.Now().After(deadline) {
			t.Fatalf("defaults not back: GC percent %d, memory limit %d", gcPercent(), debug.SetMemoryLimit(-1))
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = keep
}
