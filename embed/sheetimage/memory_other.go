//go:build !unix

package sheetimage

// Elsewhere wazero's allocator (the Go heap) is used.
const reservable = false

func reserve(uint64) ([]byte, error) { return nil, nil }

func discard([]byte) {}
