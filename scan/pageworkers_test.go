package scan

import (
	"sync"
	"testing"
)

// The page workers of a pipeline are shared by the scans running on it:
// a lone scan takes them all, scans side by side share them, none takes
// more than the pool holds, and a scan that finds none free reads on its
// own goroutine.
func TestPageWorkersShared(t *testing.T) {
	p := &Pipeline{PageWorkers: 3}
	first := p.takePageWorkers()
	if first != 3 {
		t.Fatalf("a lone scan took %d page workers, want 3", first)
	}
	if second := p.takePageWorkers(); second != 0 {
		t.Fatalf("a scan beside it took %d, want 0 (its own goroutine)", second)
	}
	p.releasePageWorkers(first)

	var wg sync.WaitGroup
	var mu sync.Mutex
	held, most := 0, 0
	for range 8 {
		wg.Go(func() {
			for range 200 {
				n := p.takePageWorkers()
				mu.Lock()
				held += n
				most = max(most, held)
				mu.Unlock()
				mu.Lock()
				held -= n
				mu.Unlock()
				p.releasePageWorkers(n)
			}
		})
	}
	wg.Wait()
	if most > 3 {
		t.Errorf("%d page workers held at once, over the pool of 3", most)
	}
	if got := p.takePageWorkers(); got != 3 {
		t.Errorf("after the scans, %d page workers free, want 3", got)
	}
}
