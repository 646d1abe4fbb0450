//go:build !unix

package scan_test

import "time"

// processCPU is not read on this platform: the CPU-time metrics report 0.
func processCPU() time.Duration { return 0 }
