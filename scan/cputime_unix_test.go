//go:build unix

package scan_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used:
// on a machine shared with other work, the cost of a stage is read better
// from it than from the wall clock, which also counts the time other
// processes held the cores.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
