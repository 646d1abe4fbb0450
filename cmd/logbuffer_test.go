package cmd

import (
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuilder struct {
	mu sync.Mutex
	sb strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sb.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sb.String()
}

// TestLogBufferFlushes: lines reach the log within the flush interval
// without Close, and Close writes the rest.
func TestLogBufferFlushes(t *testing.T) {
	var out lockedBuilder
	b := newLogBuffer(&out)
	b.Write([]byte("first\n"))
	deadline := time.Now().Add(10 * flushEvery)
	for !strings.Contains(out.String(), "first") {
		if time.Now().After(deadline) {
			t.Fatal("a line stayed in the buffer past the flush interval")
		}
		time.Sleep(flushEvery / 10)
	}
	b.Write([]byte("last\n"))
	b.Close()
	if out.String() != "first\nlast\n" {
		t.Fatalf("log %q", out.String())
	}
}
