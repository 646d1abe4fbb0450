package cmd

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// startingHeap is how far the heap of a one-shot command grows before
// the collector first runs: more than a corpus set's review allocates in
// all (30-55 MB), so a typical set is read with no collection at all.
const startingHeap = 128 << 20

// oneShotHeap tunes the heap of a command that reads one plan set and
// exits (review, inspect). Such a process allocates a few tens of
// megabytes and keeps much of it; collecting on the way (from a 4 MB
// first goal, eight cycles for Calgary) cost CPU and, in every cycle's
// sweep, fresh runtime pages. As the Go compiler does for itself, the
// collector waits until the heap reaches startingHeap, and from its first
// cycle on runs as GOGC says. GOGC or GOMEMLIMIT set by the operator
// win (and the heap is then left as the runtime lays it out). The server
// keeps its heap between scans and is left alone.
func oneShotHeap() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	// Collection is off before the advised allocation is made, so that
	// no cycle is running while it is still referenced: the one forced
	// here frees it for certain, at the cost of one cycle over a heap of
	// a megabyte or two. Its pages stay advised.
	debug.SetGCPercent(-1)
	adviseHugeHeap(startingHeap)
	runtime.GC()
	debug.SetMemoryLimit(startingHeap)
	// The default collector comes back after the first cycle, which only
	// the memory limit can start: the sentinel is unreachable at once, so
	// its cleanup runs after that cycle.
	runtime.AddCleanup(new(cycleSentinel), func(struct{}) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}, struct{}{})
}

type cycleSentinel struct{ _ int64 } // not zero-sized: a cleanup needs a real allocation
