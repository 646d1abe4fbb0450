package cmd

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStartupSweep: after a kill, the restart removes old upload temp files
// and blobs the database does not reference (past data.orphan_grace),
// logging each, and keeps every referenced blob and young temp file.
func TestStartupSweep(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Sweeper")
	c := apiClient{t: t, base: srv.base, key: key.Key}
	job := c.createJob("swept")
	body := pdfBytes(t, 32<<10)
	reg := c.registerFile(job.JobID, "kept.pdf", len(body))
	if status, out := upload(t, reg.UploadURL, bytes.NewReader(body), int64(len(body))); status != http.StatusOK {
		t.Fatalf("upload: %d %v", status, out)
	}
	pending := c.registerFile(job.JobID, "pending.pdf", 1000)
	srv.kill()

	files := filepath.Join(dir, "files")
	now := time.Now()
	plant := []struct {
		path string
		age  time.Duration
		kept bool
	}{
		{reg.FileID + "/" + sha256Hex(body) + ".pdf", 72 * time.Hour, true}, // referenced, however old
		{reg.FileID + "/.upload.tmp-cut-off", 3 * time.Hour, false},         // a cut-off upload's temp
		{reg.FileID + "/.upload.tmp-streaming", time.Minute, true},          // young: may still stream
		{reg.FileID + "/" + strings.Repeat("b", 64) + ".pdf", 48 * time.Hour, false},
		{pending.FileID + "/.upload.tmp-old", 2 * time.Hour, false},
		{"file_01J0000000000000000000000Z/" + strings.Repeat("c", 64) + ".pdf", 48 * time.Hour, false}, // no record
		{"file_01J0000000000000000000000Y/" + strings.Repeat("d", 64) + ".pdf", time.Hour, true},       // within the grace
	}
	for _, p := range plant {
		full := filepath.Join(files, p.path)
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(full); err != nil {
			if err := os.WriteFile(full, bytes.Repeat([]byte("x"), 4096), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		at := now.Add(-p.age)
		if err := os.Chtimes(full, at, at); err != nil {
			t.Fatal(err)
		}
	}

	srv = startServer(t, dir)
	c.base = srv.base
	for _, p := range plant {
		_, err := os.Stat(filepath.Join(files, p.path))
		if exists := err == nil; exists != p.kept {
			t.Errorf("%s after restart: exists=%v, want %v", p.path, exists, p.kept)
		}
		if logged := strings.Contains(srv.stderr.String(), "files/"+p.path); logged == p.kept {
			t.Errorf("%s: logged as removed=%v, want %v", p.path, logged, !p.kept)
		}
	}
	if !srv.logged("temp_files=2 unreferenced_blobs=2", 5*time.Second) {
		t.Errorf("no sweep summary with the counts in the log:\n%s", srv.stderr)
	}
	// The referenced upload is intact and the file still takes its scan.
	if st := c.do(http.MethodDelete, "/api/v1/jobs/"+job.JobID+"/files/"+pending.FileID, nil, nil); st != http.StatusNoContent {
		t.Fatalf("delete pending file: %d", st)
	}
	if st := c.do(http.MethodPost, "/api/v1/jobs/"+job.JobID+"/scan", nil, nil); st != http.StatusOK {
		t.Errorf("scan after the sweep: %d", st)
	}
}
