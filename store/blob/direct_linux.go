package blob

import (
	"os"
	"syscall"
)

const openDirect = syscall.O_DIRECT

// clearDirect turns O_DIRECT off for an open file.
func clearDirect(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var opErr error
	err = rc.Control(func(fd uintptr) {
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		if errno != 0 {
			opErr = errno
			return
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETFL, flags&^syscall.O_DIRECT); errno != 0 {
			opErr = errno
		}
	})
	if err != nil {
		return err
	}
	return opErr
}
