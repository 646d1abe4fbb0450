package sheetimage

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestGateOrder: a freed slot goes to the best priority, the earliest
// among equals, and a waiter's priority counts as it is when the slot
// frees (a background render a screen then asks for moves up).
func TestGateOrder(t *testing.T) {
	g := newGate(1)
	g.acquire(fixed(foreground)) // a render in progress
	var mu sync.Mutex
	var order []string
	var promoted sync.Map
	var wg sync.WaitGroup
	wait := func(name string, class func() priority) {
		n := g.queued()
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.acquire(class)
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			g.release()
		}()
		for g.queued() == n {
			time.Sleep(time.Millisecond)
		}
	}
	wait("level", fixed(backgroundLevel))
	wait("screen-1", fixed(backgroundScreen))
	wait("screen-2", func() priority {
		if _, ok := promoted.Load("screen-2"); ok {
			return foreground
		}
		return backgroundScreen
	})
	wait("click", fixed(foreground))
	promoted.Store("screen-2", true) // a screen now waits for it too
	g.release()
	wg.Wait()
	want := []string{"screen-2", "click", "screen-1", "level"}
	if len(order) != len(want) {
		t.Fatalf("order %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
}

func fixed(p priority) func() priority { return func() priority { return p } }

// TestScreenRenderGoesFirst: with the one render slot busy and the
// background drawing of a just-scanned file queued (screen images, a
// zoom level), a sheet a screen asks for is drawn before any of them.
func TestScreenRenderGoesFirst(t *testing.T) {
	path := "../../../shared/corpus/ca_calgary_sample_dp_bp_house_26p.pdf"
	if _, err := os.Stat(path); err != nil {
		t.Skip("corpus file absent")
	}
	r := &Renderer{CacheDir: t.TempDir(), Timeout: time.Minute,
		ModuleCacheDir: filepath.Join(os.TempDir(), "planreview-test-wasm-cache")}
	r.Start()
	t.Cleanup(r.Close)
	<-r.ready
	r.slots.acquire(fixed(foreground)) // a render in progress

	ctx := context.Background()
	const sum = "sum-priority"
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	start := func(name string, draw func() error) {
		n := r.slots.queued()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := draw(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
		}()
		for r.slots.queued() == n {
			time.Sleep(time.Millisecond)
		}
	}
	start("level 1 of page 1", func() error {
		_, err := r.tile(ctx, path, sum, 1, 1, 0, 0, backgroundLevel)
		return err
	})
	start("screen image of page 2", func() error {
		_, err := r.page(ctx, path, sum, 2, SizeThumb, backgroundScreen)
		return err
	})
	start("clicked page 20", func() error {
		_, err := r.Page(ctx, path, sum, 20, SizeScreen)
		return err
	})
	r.slots.release()
	wg.Wait()
	want := []string{"clicked page 20", "screen image of page 2", "level 1 of page 1"}
	for i := range want {
		if i >= len(order) || order[i] != want[i] {
			t.Fatalf("finished in the order %q, want %q", order, want)
		}
	}
}
