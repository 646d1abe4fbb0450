package store

import "errors"

// Typed errors; the API maps them to the contract's error codes in one place.
var (
	ErrNotFound       = errors.New("not found")
	ErrVersionLocked  = errors.New("version locked")
	ErrTooManyFiles   = errors.New("too many files in version")
	ErrKeyRevoked     = errors.New("key revoked")
	ErrKeyReplaced    = errors.New("key already has a live replacement")
	ErrSchemaTooNew   = errors.New("database schema is newer than this binary")
	ErrDatabaseLocked = errors.New("database is locked by another process")
)
