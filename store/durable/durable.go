// Package durable writes files so that a crash at any moment leaves either
// the old content or the new, never a torn file: temp file in the same
// folder, fsync, rename, fsync the folder.
package durable

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile atomically replaces path with data.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	_, err := WriteFrom(path, perm, func(w io.Writer) (int64, error) {
		n, err := w.Write(data)
		return int64(n), err
	})
	return err
}

// WriteFrom streams fill's output into a temp file beside path and, only if
// fill succeeds, makes it durable and renames it into place. On any error
// the temp file is removed and path is untouched.
func WriteFrom(path string, perm os.FileMode, fill func(io.Writer) (int64, error)) (int64, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return 0, err
	}
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := fill(tmp)
	if err != nil {
		return n, err
	}
	if err := tmp.Chmod(perm); err != nil {
		return n, err
	}
	if err := tmp.Sync(); err != nil {
		return n, fmt.Errorf("fsync %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return n, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return n, err
	}
	committed = true
	return n, SyncDir(dir)
}

// SyncDir fsyncs a folder so that renames and creations in it survive a
// power cut.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", dir, err)
	}
	return nil
}

// RemoveTemps deletes temp files a crash left in dir (names WriteFrom uses).
func RemoveTemps(dir string) error {
	matches, err := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	if err != nil {
		return err
	}
	for _, m := range matches {
		if err := os.Remove(m); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}
