package api_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestGetFileGivesAFreshUploadURL: a registration whose upload URL expired
// gets a new one from GET /jobs/{jobId}/files/{fileId}, and it works; once a
// scan locked the version the file has no upload URL.
func TestGetFileGivesAFreshUploadURL(t *testing.T) {
	h := newHarnessWith(t, harnessConfig{UploadTTL: time.Second})
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	body := pdfOfSize("fresh", 4096)
	reg := h.registerFile(acme, job.JobID, "A-101.pdf", len(body))

	// Signed URLs count real seconds: wait until the first one expired.
	time.Sleep(time.Until(time.Unix(reg.UploadExpiresAt+1, 0)))
	wantError(t, h.upload(reg.UploadURL, body, nil), http.StatusForbidden, "url_expired", "")

	r := h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files/"+reg.FileID)
	wantStatus(t, r, http.StatusOK)
	fresh := decode[fileJSON](t, r)
	if fresh.FileID != reg.FileID || fresh.Status != "pending_upload" || fresh.FileName != "A-101.pdf" || fresh.VersionID != job.VersionID {
		t.Fatalf("GET file = %s", r.Body)
	}
	if fresh.UploadURL == "" || fresh.UploadURL == reg.UploadURL || fresh.UploadExpiresAt <= reg.UploadExpiresAt {
		t.Fatalf("GET file of a pending file: uploadUrl %q expires %d, want a new URL (first expired at %d)",
			fresh.UploadURL, fresh.UploadExpiresAt, reg.UploadExpiresAt)
	}
	wantStatus(t, h.upload(fresh.UploadURL, body, nil), http.StatusOK)

	// Uploaded, version still open: a URL to replace the bytes.
	r = h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files/"+reg.FileID)
	if f := decode[fileJSON](t, r); f.Status != "uploaded" || f.UploadURL == "" || f.SHA256 == nil || *f.SHA256 != sha256Hex(body) {
		t.Errorf("GET uploaded file = %s", r.Body)
	}

	h.lockVersion(acme, job.JobID)
	r = h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files/"+reg.FileID)
	wantStatus(t, r, http.StatusOK)
	raw := decode[map[string]any](t, r)
	if raw["uploadUrl"] != nil || raw["uploadExpiresAt"] != nil {
		t.Errorf("GET file of a locked version offers an upload: %s", r.Body)
	}

	// Unknown, malformed and foreign ids are all 404.
	other := h.newPartner("other")
	for _, c := range []struct{ key, path string }{
		{acme.Key, "/api/v1/jobs/" + job.JobID + "/files/file_01J00000000000000000000000"},
		{acme.Key, "/api/v1/jobs/" + job.JobID + "/files/not-an-id"},
		{other.Key, "/api/v1/jobs/" + job.JobID + "/files/" + reg.FileID},
		{acme.Key, "/api/v1/jobs/" + h.createJob(acme, nil).JobID + "/files/" + reg.FileID},
	} {
		wantError(t, h.get(c.key, c.path), http.StatusNotFound, "not_found", "")
	}
}

// TestDeleteFile: a file of an open version goes with its bytes, and the
// version becomes scannable again; a locked version's file stays (409).
func TestDeleteFile(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	body := pdfOfSize("kept", 2048)
	kept := h.registerFile(acme, job.JobID, "kept.pdf", len(body))
	wantStatus(t, h.upload(kept.UploadURL, body, nil), http.StatusOK)
	orphan := h.registerFile(acme, job.JobID, "never-uploaded.pdf", 1000)
	uploaded := h.registerFile(acme, job.JobID, "uploaded.pdf", len(body))
	wantStatus(t, h.upload(uploaded.UploadURL, pdfOfSize("gone", len(body)), nil), http.StatusOK)

	// The pending registration blocks the scan, as the issue found.
	wantError(t, h.post(acme.Key, "/api/v1/jobs/"+job.JobID+"/scan", nil), http.StatusBadRequest, "file_not_uploaded", "")

	other := h.newPartner("other")
	del := func(key, fileID string) response {
		return h.send(req{Method: http.MethodDelete, Path: "/api/v1/jobs/" + job.JobID + "/files/" + fileID, Key: key})
	}
	wantError(t, del(other.Key, orphan.FileID), http.StatusNotFound, "not_found", "")
	wantError(t, del(acme.Key, "file_01J00000000000000000000000"), http.StatusNotFound, "not_found", "")

	for _, f := range []fileJSON{orphan, uploaded} {
		r := del(acme.Key, f.FileID)
		wantStatus(t, r, http.StatusNoContent)
		if len(r.Body) != 0 || r.Header.Get("X-Request-Id") == "" || r.Header.Get("RateLimit-Limit") == "" {
			t.Errorf("DELETE answer: body %q, headers %v", r.Body, r.Header)
		}
		if _, err := os.Stat(filepath.Join(h.filesDir(), f.FileID)); !os.IsNotExist(err) {
			t.Errorf("blobs of deleted %s still there: %v", f.FileID, err)
		}
		wantError(t, del(acme.Key, f.FileID), http.StatusNotFound, "not_found", "")
		wantError(t, h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files/"+f.FileID), http.StatusNotFound, "not_found", "")
	}
	// The deleted registration's upload URL no longer takes bytes.
	wantError(t, h.upload(orphan.UploadURL, pdfOfSize("late", 1000), nil), http.StatusNotFound, "not_found", "")

	files := h.files(acme, job.JobID)
	if len(files) != 1 || files[0].FileID != kept.FileID {
		t.Fatalf("files after deletes: %+v", files)
	}
	if _, err := os.Stat(filepath.Join(h.filesDir(), kept.FileID, sha256Hex(body)+".pdf")); err != nil {
		t.Errorf("the kept file's bytes: %v", err)
	}
	r := h.post(acme.Key, "/api/v1/jobs/"+job.JobID+"/scan", nil)
	wantStatus(t, r, http.StatusOK)

	// Locked by the scan: the file stays.
	wantError(t, del(acme.Key, kept.FileID), http.StatusConflict, "version_locked", "")
	if files := h.files(acme, job.JobID); len(files) != 1 {
		t.Errorf("files after a refused delete: %+v", files)
	}
}

// TestDeleteFileDuringUpload: a file deleted while its body streams is not
// resurrected by the upload's commit, and leaves no bytes.
func TestDeleteFileDuringUpload(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	body := pdfOfSize("racing", 64<<10)
	f := h.registerFile(acme, job.JobID, "racing.pdf", len(body))
	hook := func() {
		r := h.send(req{Method: http.MethodDelete, Path: "/api/v1/jobs/" + job.JobID + "/files/" + f.FileID, Key: acme.Key})
		wantStatus(t, r, http.StatusNoContent)
	}
	h.blobs.afterPut.Store(&hook)
	r := h.upload(f.UploadURL, body, nil)
	h.blobs.afterPut.Store(nil)
	if r.Status != http.StatusNotFound {
		t.Fatalf("upload of a file deleted while it streamed: %s, want 404", r)
	}
	if files := h.files(acme, job.JobID); len(files) != 0 {
		t.Errorf("files: %+v, want none", files)
	}
	if _, err := os.Stat(filepath.Join(h.filesDir(), f.FileID)); !os.IsNotExist(err) {
		t.Errorf("blobs of the deleted file remain: %v", err)
	}
}
