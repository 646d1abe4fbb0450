package api

import (
	"math"
	"sync"
	"time"
)

// limiter keeps one token bucket per key (or client address) in memory. A
// restart refills every bucket, which errs on the client's side.
type limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucket
	now     func() time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// decision is the outcome of one take, with what the RateLimit-* headers say.
type decision struct {
	allowed    bool
	limit      int // the burst: what a full bucket holds
	remaining  int
	reset      int // seconds until the bucket is full again
	retryAfter int // seconds until one token is back (when refused)
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{buckets: make(map[string]*bucket), now: now}
}

func (l *limiter) take(key string, rate float64, burst int) decision {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: float64(burst), last: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(float64(burst), b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	d := decision{limit: burst}
	if b.tokens >= 1 {
		b.tokens--
		d.allowed = true
	} else {
		d.retryAfter = int(math.Ceil((1 - b.tokens) / rate))
	}
	d.remaining = int(b.tokens)
	d.reset = int(math.Ceil((float64(burst) - b.tokens) / rate))
	return d
}

// sweep forgets buckets that have been full for a while, so the map does
// not grow with every address that ever called.
func (l *limiter) sweep(idle time.Duration) {
	cutoff := l.now().Add(-idle)
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, b := range l.buckets {
		if b.last.Before(cutoff) {
			delete(l.buckets, k)
		}
	}
}
