package sheetimage

import "sync"

// priority orders the renders waiting for a slot: one a screen waits for
// first, then the screen images drawn after a scan (the first view of
// every sheet), then the zoom levels drawn ahead of use.
type priority int

const (
	foreground priority = iota
	backgroundScreen
	backgroundLevel
)

// gate hands out the render slots. A freed slot goes to the waiter of the
// best priority (the earliest among equals), so a screen's render is never
// behind more than the renders already running. A waiter's priority is
// read when a slot frees, not when it queued: a background render a
// screen then asks for moves to the front.
type gate struct {
	mu      sync.Mutex
	free    int
	waiters []*slotWaiter
}

type slotWaiter struct {
	class func() priority
	ready chan struct{}
}

func newGate(slots int) *gate { return &gate{free: slots} }

// acquire waits for a slot.
func (g *gate) acquire(class func() priority) {
	g.mu.Lock()
	if g.free > 0 {
		g.free--
		g.mu.Unlock()
		return
	}
	w := &slotWaiter{class: class, ready: make(chan struct{})}
	g.waiters = append(g.waiters, w)
	g.mu.Unlock()
	<-w.ready
}

// release frees a slot: to the best waiter if any.
func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiters) == 0 {
		g.free++
		return
	}
	best, bestClass := 0, g.waiters[0].class()
	for i, w := range g.waiters[1:] {
		if c := w.class(); c < bestClass {
			best, bestClass = i+1, c
		}
	}
	w := g.waiters[best]
	g.waiters = append(g.waiters[:best], g.waiters[best+1:]...)
	close(w.ready)
}

// queued is how many renders wait for a slot.
func (g *gate) queued() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.waiters)
}
