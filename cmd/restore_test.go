package cmd

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"planreview/scan/plangen"
	"strings"
	"sync"
	"testing"
	"time"
)

// ack is a write the server acknowledged: a job with one uploaded file.
type ack struct {
	jobID, fileID, sha string
	at                 time.Time
}

// loadClient makes jobs with one upload each, without the test helpers'
// t.Fatal (it runs outside the test goroutine); it returns its first error.
func loadClient(base, key string, body []byte) (ack, error) {
	call := func(method, path string, in, out any) error {
		raw, _ := json.Marshal(in)
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			b, _ := io.ReadAll(resp.Body)
			return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return json.NewDecoder(resp.Body).Decode(out)
	}
	var job jobSummary
	if err := call(http.MethodPost, "/api/v1/jobs", map[string]string{"name": "load"}, &job); err != nil {
		return ack{}, err
	}
	var reg registered
	if err := call(http.MethodPost, "/api/v1/jobs/"+job.JobID+"/files", map[string]any{
		"fileName": "plans.pdf", "fileSize": len(body), "contentType": "application/pdf"}, &reg); err != nil {
		return ack{}, err
	}
	req, _ := http.NewRequest(http.MethodPut, reg.UploadURL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/pdf")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ack{}, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ack{}, fmt.Errorf("upload: %d", resp.StatusCode)
	}
	return ack{jobID: job.JobID, fileID: reg.FileID, sha: sha256Hex(body), at: time.Now()}, nil
}

func fileSHA(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func getBytes(t *testing.T, u string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// TestBackupUnderLoadRestores: a backup taken while 16 clients create jobs
// and upload is restored into a new folder; a server on it answers every
// job and file acknowledged before the backup began (same SHA-256 on disk
// and in the API), the scanned job's findings, and a signed download URL
// the original server issued (the signing key came along). A copy of the
// archive with one flipped byte is refused, naming the damaged entry, and
// leaves its target empty.
func TestBackupUnderLoadRestores(t *testing.T) {
	dir := newDataDir(t)
	srv := startServer(t, dir, "--config", writeConfig(t, "scan:\n  workers: 1\n"))
	key := issueKey(t, dir, "Load Co")
	mustCLI(t, dir, "partners", "set", "Load Co", "--rate-limit", "100000", "--rate-burst", "100000", "--scan-quota", "1000")
	c := apiClient{t: t, base: srv.base, key: key.Key}

	// One scanned job: findings and a marked-up copy to come back.
	set, err := plangen.Generate(plangen.Options{Seed: 5}) // a set with planted violations
	if err != nil {
		t.Fatal(err)
	}
	scanned := c.jobWithUpload("scanned", set.Files[0].PDF)
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+scanned+"/scan", nil, nil); status != http.StatusOK {
		t.Fatalf("scan: %d", status)
	}
	if s := c.waitTerminal(scanned, 2*time.Minute); s.Status != "complete" {
		t.Fatalf("scan: %+v", s)
	}
	wantFindings := c.findings(scanned)
	if len(wantFindings.Findings) == 0 {
		t.Fatal("the scanned set has no findings to compare")
	}
	scannedFile := c.listFiles(scanned)[0].FileID
	var signed struct{ URL string }
	if status := c.do(http.MethodGet, "/api/v1/jobs/"+scanned+"/files/"+scannedFile+"/annotated", nil, &signed); status != http.StatusOK {
		t.Fatalf("annotated: %d", status)
	}
	status, markedUp := getBytes(t, signed.URL)
	if status != http.StatusOK {
		t.Fatalf("download marked-up: %d", status)
	}

	// 16 clients write until told to stop; the backup runs in the middle.
	var (
		mu   sync.Mutex
		acks []ack
		errs []error
		wg   sync.WaitGroup
	)
	stop := make(chan struct{})
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				a, err := loadClient(srv.base, key.Key, pdfBytes(t, 16<<10+i*1000+n))
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					acks = append(acks, a)
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	archive := filepath.Join(t.TempDir(), "planreview.tar")
	backupStart := time.Now()
	res := mustCLI(t, dir, "backup", archive)
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	for _, err := range errs {
		t.Errorf("client: %v", err)
	}
	var before []ack
	for _, a := range acks {
		if a.at.Before(backupStart) {
			before = append(before, a)
		}
	}
	t.Logf("backup took %s (%s); %d writes acknowledged before it, %d in all", time.Since(backupStart), strings.TrimSpace(res.stderr), len(before), len(acks))
	if len(before) < 16 || len(acks) == len(before) {
		t.Fatalf("no load around the backup: %d acknowledged before, %d in all", len(before), len(acks))
	}

	// Restore into a new folder and serve it.
	restored := newDataDir(t)
	os.Remove(restored) // absent: restore creates it
	res = mustCLI(t, restored, "restore", archive)
	if !strings.Contains(res.stderr, "Restored") {
		t.Errorf("restore said %q", res.stderr)
	}
	srv2 := startServer(t, restored)
	c2 := apiClient{t: t, base: srv2.base, key: key.Key}
	for _, a := range before {
		var job jobSummary
		if status := c2.do(http.MethodGet, "/api/v1/jobs/"+a.jobID, nil, &job); status != http.StatusOK {
			t.Errorf("restored server: job %s acknowledged before the backup: %d", a.jobID, status)
			continue
		}
		files := c2.listFiles(a.jobID)
		if len(files) != 1 || files[0].FileID != a.fileID || files[0].SHA256 == nil || *files[0].SHA256 != a.sha {
			t.Errorf("restored job %s files %+v, want %s with sha256 %s", a.jobID, files, a.fileID, a.sha)
			continue
		}
		if got := fileSHA(t, filepath.Join(restored, "files", a.fileID, a.sha+".pdf")); got != a.sha {
			t.Errorf("restored upload %s hashes to %s, want %s", a.fileID, got, a.sha)
		}
	}
	// Writes during the backup may or may not be in it, but what is there
	// is whole: a file the database calls uploaded has its bytes.
	for _, a := range acks[len(before):] {
		var job jobSummary
		if c2.do(http.MethodGet, "/api/v1/jobs/"+a.jobID, nil, &job) != http.StatusOK {
			continue
		}
		for _, f := range c2.listFiles(a.jobID) {
			if f.SHA256 != nil {
				if got := fileSHA(t, filepath.Join(restored, "files", f.FileID, *f.SHA256+".pdf")); got != *f.SHA256 {
					t.Errorf("restored upload %s (written during the backup) hashes to %s, want %s", f.FileID, got, *f.SHA256)
				}
			}
		}
	}
	gotFindings := c2.findings(scanned)
	if len(gotFindings.Findings) != len(wantFindings.Findings) {
		t.Errorf("restored findings: %d, want %d", len(gotFindings.Findings), len(wantFindings.Findings))
	}
	for i := range min(len(gotFindings.Findings), len(wantFindings.Findings)) {
		if gotFindings.Findings[i] != wantFindings.Findings[i] {
			t.Errorf("restored finding %d = %+v, want %+v", i, gotFindings.Findings[i], wantFindings.Findings[i])
		}
	}
	u, err := url.Parse(signed.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = srv2.addr // the original server's URL, pointed at the restored one
	status, got := getBytes(t, u.String())
	if status != http.StatusOK || sha256Hex(got) != sha256Hex(markedUp) {
		t.Errorf("restored server, original signed URL: %d, %d bytes (want 200 and the same %d bytes)", status, len(got), len(markedUp))
	}

	// One flipped byte inside an upload: refused, naming that entry.
	raw, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	victim := before[len(before)/2]
	body := pdfBytesOf(t, filepath.Join(restored, "files", victim.fileID, victim.sha+".pdf"))
	at := bytes.Index(raw, body[:4096])
	if at < 0 {
		t.Fatal("upload not found in the archive")
	}
	raw[at+2048] ^= 0x20
	damaged := filepath.Join(t.TempDir(), "damaged.tar")
	if err := os.WriteFile(damaged, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	target := newDataDir(t)
	res = runCLI(t, target, "restore", damaged)
	entry := "files/" + victim.fileID + "/" + victim.sha + ".pdf"
	if res.code == 0 || !strings.Contains(res.stderr, entry) {
		t.Errorf("restore of a damaged archive: exit %d, stderr %q; want a failure naming %s", res.code, res.stderr, entry)
	}
	if left, _ := os.ReadDir(target); len(left) != 0 {
		t.Errorf("refused restore left %v in the folder", left)
	}
	// A folder that is not empty is refused too.
	if res := runCLI(t, restored, "restore", archive); res.code == 0 || !strings.Contains(res.stderr, "not empty") {
		t.Errorf("restore over a data folder: exit %d, %q", res.code, res.stderr)
	}
}

func pdfBytesOf(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
