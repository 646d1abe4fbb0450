package cmd

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logBuffer batches the server's log lines into few writes. One write per
// request line is a system call the request path does not need; lines reach
// the log at most flushEvery later, and Close writes what is left. A killed
// process loses at most that interval of log lines, never data.
type logBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

const flushEvery = 100 * time.Millisecond

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushLoop()
	return b
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *logBuffer) flushLoop() {
	defer close(b.done)
	tick := time.NewTicker(flushEvery)
	defer tick.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
			b.flush()
		}
	}
}

func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.w.Flush() // nowhere left to report a failing log
}

// Close stops the flusher and writes out every buffered line.
func (b *logBuffer) Close() {
	close(b.stop)
	<-b.done
	b.flush()
}
