package cmd

import "errors"

// ExitError carries a process exit status out of a command's RunE, for the
// commands whose status means something (review's 1 = findings, 2 = error).
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// withExitCode wraps err so that Execute exits with code.
func withExitCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &ExitError{Code: code, Err: err}
}

// exitCodeOf maps a command's error to the process exit status: 0 for none,
// the carried code for an ExitError, 1 otherwise.
func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return 1
}
