package perpage

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

func TestEachReadsEveryPageOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, n := range []int{0, 1, 2, 7, 100} {
		seen := make([]atomic.Int32, n)
		Each(n, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Errorf("n=%d: page %d read %d times", n, i, got)
			}
		}
	}
}

// A panic on a worker reaches the caller's goroutine, where the scan
// recovers it, with the worker's stack.
func TestEachPanicReachesCaller(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func() {
		v := recover()
		wp, ok := v.(*workerPanic)
		if !ok {
			t.Fatalf("recovered %v (%T), want a *workerPanic", v, v)
		}
		if wp.value != "page 3" || !strings.Contains(wp.Error(), "perpage_test.go") {
			t.Errorf("panic %q lacks its value or the worker's stack", wp.Error())
		}
	}()
	Each(8, func(i int) {
		if i == 3 {
			panic("page 3")
		}
	})
	t.Fatal("Each returned after a worker panicked")
}
