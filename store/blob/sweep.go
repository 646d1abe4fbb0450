package blob

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"planreview/store/durable"
)

// SweepPolicy says what Sweep may remove.
type SweepPolicy struct {
	// Current reports whether the database knows fileID and the hash of
	// its committed upload ("" while none is).
	Current func(fileID string) (sha256 string, known bool)
	// TempBefore: temp files (of uploads and of durable writes) last
	// written before it are a crash's leftovers; younger ones may belong
	// to an upload still streaming and stay.
	TempBefore time.Time
	// OrphanBefore: blobs the database does not reference (a deleted
	// file's, a superseded upload's) go once last written before it; the
	// grace keeps bytes whose record a restore or an operator may yet
	// bring back.
	OrphanBefore time.Time
}

// Swept is one file Sweep removed.
type Swept struct {
	Path   string // relative to the blob root: <fileId>/<name>
	Bytes  int64
	Reason string // "temp" or "unreferenced"
}

// SweepStats counts what one sweep removed.
type SweepStats struct {
	Temps, Unreferenced int
	Bytes               int64
}

// Sweep removes stale temp files and unreferenced blobs under the root, as
// policy allows, and reports each removal to removed. Of a file the
// database knows, only superseded uploads can be unreferenced: its
// committed upload, its marked-up copy and anything else beside them stay.
// A folder of a file the database does not know is unreferenced as a whole. Run it while nothing
// writes blobs (at start-up, before the server listens).
func (s *Store) Sweep(policy SweepPolicy, removed func(Swept)) (SweepStats, error) {
	var stats SweepStats
	dirs, err := os.ReadDir(s.root)
	if err != nil {
		return stats, err
	}
	var errs []error
	rootChanged := false
	for _, d := range dirs {
		if !d.IsDir() {
			continue // Put only makes folders here
		}
		fileID := d.Name()
		current, known := policy.Current(fileID)
		dir := filepath.Join(s.root, fileID)
		entries, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		left := len(entries)
		for _, e := range entries {
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			name := e.Name()
			reason := ""
			switch {
			case isTemp(name):
				if info.ModTime().Before(policy.TempBefore) {
					reason = "temp"
				}
			case known && (name == current+".pdf" || !isUpload(name)):
				// The committed upload, and whatever else a known file
				// keeps beside it (its marked-up copy): never swept.
			case info.ModTime().Before(policy.OrphanBefore):
				reason = "unreferenced"
			}
			if reason == "" {
				continue
			}
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			left--
			if reason == "temp" {
				stats.Temps++
			} else {
				stats.Unreferenced++
			}
			stats.Bytes += info.Size()
			if removed != nil {
				removed(Swept{Path: fileID + "/" + name, Bytes: info.Size(), Reason: reason})
			}
		}
		if left == len(entries) {
			continue
		}
		if left == 0 && !known {
			if err := os.Remove(dir); err == nil {
				rootChanged = true
				continue
			}
		}
		if err := durable.SyncDir(dir); err != nil {
			errs = append(errs, err)
		}
	}
	if rootChanged {
		errs = append(errs, durable.SyncDir(s.root))
	}
	return stats, errors.Join(errs...)
}

// annotatedName is the marked-up copy's name in a file's folder.
const annotatedName = "marked-up.pdf"

// isUpload matches the names Put gives uploads: <sha256 hex>.pdf.
func isUpload(name string) bool {
	sum, ok := strings.CutSuffix(name, ".pdf")
	return ok && len(sum) == 64 && strings.Trim(sum, "0123456789abcdef") == ""
}

// isTemp matches the temp names of uploads (.upload.tmp-*) and of durable
// writes (.<name>.tmp-*).
func isTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}
