//go:build !linux

package cmd

// adviseHugeHeap is Linux's (hugeheap_linux.go); elsewhere the heap is
// laid out as the runtime does it.
func adviseHugeHeap(int) {}
