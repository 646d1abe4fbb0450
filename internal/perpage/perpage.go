// Package perpage runs a set's per-page readings on every core.
package perpage

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Each runs read(i) for every page index below n, on up to GOMAXPROCS
// goroutines. A page's reading depends on that page alone (and on what
// the set decided before) and is stored at its index, so the model is the
// one a single goroutine reads; the reading runs after extraction, when
// the cores it used are free. A panic in read is raised again on the
// caller's goroutine, where the scan recovers it, with the worker's stack.
func Each(n int, read func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			read(i)
		}
		return
	}
	var next atomic.Int64
	var failed atomic.Pointer[workerPanic]
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					failed.CompareAndSwap(nil, &workerPanic{value: v, stack: debug.Stack()})
				}
			}()
			for failed.Load() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				read(i)
			}
		})
	}
	wg.Wait()
	if p := failed.Load(); p != nil {
		panic(p)
	}
}

// workerPanic is a panic raised in one of Each's workers.
type workerPanic struct {
	value any
	stack []byte
}

func (p *workerPanic) Error() string { return fmt.Sprintf("%v\n[page reader]\n%s", p.value, p.stack) }
