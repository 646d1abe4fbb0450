//go:build !linux

package cmd

// hugeHeap is Linux's (hugeheap_linux.go); elsewhere the heap is left as
// the runtime lays it out.
func hugeHeap() {}
