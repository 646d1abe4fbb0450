package blob

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSweep lays out every kind of file a crash or a delete leaves, with
// ages on both sides of the cutoffs, and checks what one sweep keeps.
func TestSweep(t *testing.T) {
	s := open(t)
	now := time.Now()
	const (
		known   = "file_01ARZ3NDEKTSV4RRFFQ69G5FAV"
		pending = "file_01ARZ3NDEKTSV4RRFFQ69G5FAW"
		deleted = "file_01ARZ3NDEKTSV4RRFFQ69G5FAX"
		young   = "file_01ARZ3NDEKTSV4RRFFQ69G5FAY"
	)
	hash := func(c byte) string { return string(slices.Repeat([]byte{c}, 64)) }
	current := hash('a')
	old, veryOld, fresh := now.Add(-2*time.Hour), now.Add(-48*time.Hour), now.Add(-time.Minute)
	files := []struct {
		path string
		at   time.Time
		kept bool
	}{
		{known + "/" + current + ".pdf", veryOld, true},      // referenced: never removed
		{known + "/marked-up.pdf", veryOld, true},            // a known file's marked-up copy
		{known + "/pages.cache", veryOld, true},              // not a blob name Sweep knows: left alone
		{known + "/" + hash('b') + ".pdf", veryOld, false},   // superseded upload, past the grace
		{known + "/" + hash('c') + ".pdf", old, true},        // superseded, within the grace
		{known + "/.upload.tmp-123", old, false},             // temp older than the longest upload
		{known + "/.upload.tmp-456", fresh, true},            // temp of an upload that may be streaming
		{known + "/.marked-up.pdf.tmp-789", old, false},      // durable write's temp
		{pending + "/.upload.tmp-1", fresh, true},            // a pending file's first upload, streaming
		{deleted + "/" + hash('d') + ".pdf", veryOld, false}, // a deleted file's bytes
		{deleted + "/marked-up.pdf", veryOld, false},         // and its marked-up copy
		{young + "/" + hash('e') + ".pdf", old, true},        // unknown but within the grace
	}
	for _, f := range files {
		p := filepath.Join(s.root, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("%PDF-1.7 "+f.path), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, f.at, f.at); err != nil {
			t.Fatal(err)
		}
	}
	db := map[string]string{known: current, pending: ""}
	var logged []Swept
	stats, err := s.Sweep(SweepPolicy{
		Current:      func(id string) (string, bool) { sum, ok := db[id]; return sum, ok },
		TempBefore:   now.Add(-time.Hour),
		OrphanBefore: now.Add(-24 * time.Hour),
	}, func(sw Swept) { logged = append(logged, sw) })
	if err != nil {
		t.Fatal(err)
	}
	removed := 0
	for _, f := range files {
		_, err := os.Stat(filepath.Join(s.root, f.path))
		if exists := err == nil; exists != f.kept {
			t.Errorf("%s: exists=%v, want %v", f.path, exists, f.kept)
		}
		if !f.kept {
			removed++
			if !slices.ContainsFunc(logged, func(sw Swept) bool { return sw.Path == f.path && sw.Bytes > 0 }) {
				t.Errorf("%s removed but not reported: %+v", f.path, logged)
			}
		}
	}
	if stats.Temps != 2 || stats.Unreferenced != 3 || len(logged) != removed {
		t.Errorf("stats %+v, %d reported, want 2 temps and 3 unreferenced", stats, len(logged))
	}
	if _, err := os.Stat(filepath.Join(s.root, deleted)); !os.IsNotExist(err) {
		t.Errorf("the deleted file's emptied folder remains: %v", err)
	}
	// A second sweep finds nothing more.
	again, err := s.Sweep(SweepPolicy{
		Current:      func(id string) (string, bool) { sum, ok := db[id]; return sum, ok },
		TempBefore:   now.Add(-time.Hour),
		OrphanBefore: now.Add(-24 * time.Hour),
	}, nil)
	if err != nil || again != (SweepStats{}) {
		t.Errorf("second sweep: %+v %v", again, err)
	}
}
