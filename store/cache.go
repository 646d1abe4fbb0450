package store

import (
	"bytes"
	"encoding/json"
	"sync"
)

// decodeCache remembers records decoded from JSON together with the bytes
// they came from. A read whose stored bytes equal the remembered ones
// reuses the decoded value instead of decoding again, which is most of the
// cost of GET /jobs/{id}. It cannot serve a stale record: a write changes
// the bytes, and changed bytes are decoded afresh. Decoded values are
// shared between readers, so only read-only paths use it.
type decodeCache[T any] struct {
	mu      sync.RWMutex
	entries map[string]decoded[T]
}

type decoded[T any] struct {
	raw []byte
	v   T
}

// maxCachedRecords bounds the cache; past it the cache starts over.
const maxCachedRecords = 20000

// decode returns raw decoded, from the cache when raw is unchanged. raw may
// point into bbolt's memory map: it is copied before it is kept.
func (c *decodeCache[T]) decode(key string, raw []byte) (T, error) {
	c.mu.RLock()
	e, ok := c.entries[key]
	c.mu.RUnlock()
	if ok && bytes.Equal(e.raw, raw) {
		return e.v, nil
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.entries == nil || len(c.entries) >= maxCachedRecords {
		c.entries = make(map[string]decoded[T])
	}
	c.entries[key] = decoded[T]{raw: bytes.Clone(raw), v: v}
	c.mu.Unlock()
	return v, nil
}
