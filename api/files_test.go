package api_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"planreview/store"
)

func TestRegisterFileReturns201WithSignedUploadURL(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)

	r := h.post(acme.Key, "/api/v1/jobs/"+job.JobID+"/files", map[string]any{
		"fileName": "A-101 Floor Plan.pdf", "fileSize": 12345, "contentType": "Application/PDF", "fileTag": "architectural",
	})
	wantStatus(t, r, http.StatusCreated)
	f := decode[fileJSON](t, r)
	if !store.ValidID(f.FileID, store.PrefixFile) {
		t.Errorf("fileId %q is not a file_ id", f.FileID)
	}
	if f.VersionID != job.VersionID {
		t.Errorf("versionId %q, want the job's first version %q", f.VersionID, job.VersionID)
	}
	u, err := url.Parse(f.UploadURL)
	if err != nil {
		t.Fatalf("uploadUrl %q: %v", f.UploadURL, err)
	}
	if !strings.HasPrefix(f.UploadURL, h.srv.URL+"/uploads/"+f.FileID+"?") {
		t.Errorf("uploadUrl %q is not {public_url}/uploads/{fileId}?…", f.UploadURL)
	}
	if u.Query().Get("signature") == "" || u.Query().Get("expires") != strconv.FormatInt(f.UploadExpiresAt, 10) {
		t.Errorf("uploadUrl %q lacks signature or expires=%d", f.UploadURL, f.UploadExpiresAt)
	}
	// Lifetime one hour (configured), in Unix seconds.
	if d := time.Until(time.Unix(f.UploadExpiresAt, 0)); d < 59*time.Minute || d > 61*time.Minute {
		t.Errorf("uploadExpiresAt is %v from now, want about 1h", d)
	}
	if f.Status != "pending_upload" || f.FileSize != 12345 || f.ContentType != "application/pdf" || deref(f.FileTag) != "architectural" {
		t.Errorf("file fields: %s", r.Body)
	}

	files := h.files(acme, job.JobID)
	if len(files) != 1 || files[0].FileID != f.FileID || files[0].Status != "pending_upload" ||
		files[0].SHA256 != nil || files[0].UploadedAt != nil || files[0].FileName != "A-101 Floor Plan.pdf" {
		t.Errorf("files list = %+v", files)
	}
	if files[0].UploadURL != "" {
		t.Errorf("the list repeats the upload URL; it is returned on registration only")
	}
}

func TestRegisterFileRejectsInvalidBodies(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	body := func(name, size, ctype string) string {
		return fmt.Sprintf(`{"fileName": %s, "fileSize": %s, "contentType": %s}`, name, size, ctype)
	}
	const pdf = `"application/pdf"`
	tests := []struct {
		name   string
		body   string
		status int
		code   string
		param  string
	}{
		{"invalid JSON", `{"fileName":`, 400, "invalid_json", ""},
		{"unknown field", `{"fileName": "a.pdf", "fileSize": 1, "contentType": "application/pdf", "pages": 3}`, 400, "invalid_request", "pages"},
		{"missing fileName", `{"fileSize": 1, "contentType": "application/pdf"}`, 400, "invalid_request", "fileName"},
		{"blank fileName", body(`"  "`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName of 256 characters", body(`"`+strings.Repeat("a", 252)+`.pdf"`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName with slash", body(`"plans/a.pdf"`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName with backslash", body(`"plans\\a.pdf"`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName with newline", body(`"a\n.pdf"`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName with tab", body(`"a\t.pdf"`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName with NUL", body(`"a\u0000.pdf"`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName with C1 control", body(`"a\u0085.pdf"`, "1", pdf), 400, "invalid_request", "fileName"},
		{"fileName is a number", body(`7`, "1", pdf), 400, "invalid_request", "fileName"},
		{"missing fileSize", `{"fileName": "a.pdf", "contentType": "application/pdf"}`, 400, "invalid_request", "fileSize"},
		{"fileSize 0", body(`"a.pdf"`, "0", pdf), 400, "invalid_request", "fileSize"},
		{"fileSize negative", body(`"a.pdf"`, "-5", pdf), 400, "invalid_request", "fileSize"},
		{"fileSize 1.5", body(`"a.pdf"`, "1.5", pdf), 400, "invalid_request", "fileSize"},
		{"fileSize 1e-3", body(`"a.pdf"`, "1e-3", pdf), 400, "invalid_request", "fileSize"},
		{"fileSize one over the limit", body(`"a.pdf"`, "104857601", pdf), 400, "file_too_large", "fileSize"},
		{"fileSize huge integer", body(`"a.pdf"`, "99999999999999999999999999999", pdf), 400, "file_too_large", "fileSize"},
		{"fileSize huge exponent", body(`"a.pdf"`, "1e30", pdf), 400, "file_too_large", "fileSize"},
		{"fileSize beyond int64", body(`"a.pdf"`, "9223372036854775808", pdf), 400, "file_too_large", "fileSize"},
		{"fileSize is a boolean", body(`"a.pdf"`, "true", pdf), 400, "invalid_request", "fileSize"},
		{"fileSize is a numeric string", body(`"a.pdf"`, `"12"`, pdf), 400, "invalid_request", "fileSize"},
		{"fileSize is an object", body(`"a.pdf"`, `{}`, pdf), 400, "invalid_request", "fileSize"},
		{"fileSize null", body(`"a.pdf"`, "null", pdf), 400, "invalid_request", "fileSize"},
		{"missing contentType", `{"fileName": "a.pdf", "fileSize": 1}`, 400, "invalid_request", "contentType"},
		{"contentType image/png", body(`"a.pdf"`, "1", `"image/png"`), 400, "unsupported_content_type", "contentType"},
		{"contentType with parameters", body(`"a.pdf"`, "1", `"application/pdf; charset=binary"`), 400, "unsupported_content_type", "contentType"},
		{"contentType empty", body(`"a.pdf"`, "1", `""`), 400, "unsupported_content_type", "contentType"},
		{"fileTag of 65 characters", `{"fileName": "a.pdf", "fileSize": 1, "contentType": "application/pdf", "fileTag": "` + strings.Repeat("t", 65) + `"}`, 400, "invalid_request", "fileTag"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.send(req{Method: http.MethodPost, Path: "/api/v1/jobs/" + job.JobID + "/files", Key: acme.Key, Body: tc.body})
			wantError(t, r, tc.status, tc.code, tc.param)
		})
	}
	if files := h.files(acme, job.JobID); len(files) != 0 {
		t.Errorf("rejected registrations left %d files", len(files))
	}
}

func TestRegisterFileAcceptsLimitsExactly(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	tests := []map[string]any{
		{"fileName": strings.Repeat("é", 251) + ".pdf", "fileSize": 104857600, "contentType": "application/pdf"},
		{"fileName": "a.pdf", "fileSize": 1, "contentType": "APPLICATION/PDF", "fileTag": strings.Repeat("t", 64)},
		{"fileName": "a.pdf", "fileSize": 1e3, "contentType": "application/pdf"}, // 1000 written as a float
	}
	for i, body := range tests {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			wantStatus(t, h.post(acme.Key, "/api/v1/jobs/"+job.JobID+"/files", body), http.StatusCreated)
		})
	}
	// A JSON exponent written by hand is a whole number too.
	r := h.send(req{Method: http.MethodPost, Path: "/api/v1/jobs/" + job.JobID + "/files", Key: acme.Key,
		Body: `{"fileName": "b.pdf", "fileSize": 2.5e2, "contentType": "application/pdf"}`})
	wantStatus(t, r, http.StatusCreated)
	if got := decode[fileJSON](t, r).FileSize; got != 250 {
		t.Errorf("fileSize 2.5e2 stored as %d, want 250", got)
	}
}

func TestRegisterFileOnUnknownJobIs404(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	body := map[string]any{"fileName": "a.pdf", "fileSize": 1, "contentType": "application/pdf"}
	for _, id := range []string{store.NewID(store.PrefixJob), "job_x", store.NewID(store.PrefixFile)} {
		wantError(t, h.post(acme.Key, "/api/v1/jobs/"+id+"/files", body), http.StatusNotFound, "not_found", "")
		wantError(t, h.get(acme.Key, "/api/v1/jobs/"+id+"/files"), http.StatusNotFound, "not_found", "")
	}
}

func TestListFilesOldestFirstAndByVersion(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	f1 := h.registerFile(acme, job.JobID, "1.pdf", 10)
	f2 := h.registerFile(acme, job.JobID, "2.pdf", 20)
	h.lockVersion(acme, job.JobID)
	f3 := h.registerFile(acme, job.JobID, "3.pdf", 30)
	if f3.VersionID == job.VersionID {
		t.Fatalf("file registered after the lock went into the locked version")
	}

	names := func(files []fileJSON) string {
		var out []string
		for _, f := range files {
			out = append(out, f.FileName)
		}
		return strings.Join(out, ",")
	}
	if got := names(h.files(acme, job.JobID)); got != "1.pdf,2.pdf,3.pdf" {
		t.Errorf("all files = %s, want oldest first 1,2,3", got)
	}
	tests := []struct {
		versionID string
		want      string
	}{
		{job.VersionID, "1.pdf,2.pdf"},
		{f3.VersionID, "3.pdf"},
	}
	for _, tc := range tests {
		r := h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files?versionId="+tc.versionID)
		wantStatus(t, r, http.StatusOK)
		files := decode[fileListJSON](t, r).Files
		if got := names(files); got != tc.want {
			t.Errorf("files of %s = %s, want %s", tc.versionID, got, tc.want)
		}
		for _, f := range files {
			if f.VersionID != tc.versionID {
				t.Errorf("file %s of version %s listed under %s", f.FileID, f.VersionID, tc.versionID)
			}
		}
	}
	_ = f1
	_ = f2

	// A version of another job, a malformed and an unknown version id: 404.
	other := h.createJob(acme, nil)
	for _, v := range []string{other.VersionID, "ver_bad", store.NewID(store.PrefixVersion)} {
		wantError(t, h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files?versionId="+v), http.StatusNotFound, "not_found", "")
	}
}

func TestListFilesEmptyIsAnEmptyArray(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	r := h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files")
	wantStatus(t, r, http.StatusOK)
	if got := strings.TrimSpace(string(r.Body)); got != `{"files":[]}` {
		t.Errorf("empty list = %s", got)
	}
}

// TestRegisterAfterLockOpensNextVersion: once a scan locked the current
// version, registering opens version 2 (empty) and the 201 names it.
func TestRegisterAfterLockOpensNextVersion(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	h.registerFile(acme, job.JobID, "v1.pdf", 100)
	h.lockVersion(acme, job.JobID)

	f := h.registerFile(acme, job.JobID, "v2.pdf", 100)
	if f.VersionID == job.VersionID || !store.ValidID(f.VersionID, store.PrefixVersion) {
		t.Fatalf("201 names version %q, want a new version", f.VersionID)
	}
	again := h.registerFile(acme, job.JobID, "v2b.pdf", 100)
	if again.VersionID != f.VersionID {
		t.Errorf("second registration went to %s, want the open version 2 %s", again.VersionID, f.VersionID)
	}

	got := decode[jobJSON](t, h.get(acme.Key, "/api/v1/jobs/"+job.JobID))
	if got.VersionID != f.VersionID || got.Status != "created" {
		t.Errorf("job current version %s status %s, want %s created", got.VersionID, got.Status, f.VersionID)
	}
	if len(got.Versions) != 2 || got.Versions[0].Number != 1 || got.Versions[0].Status != "queued" ||
		got.Versions[1].Number != 2 || got.Versions[1].VersionID != f.VersionID || got.Versions[1].Status != "created" {
		t.Errorf("versions = %+v, want 1 queued then 2 created", got.Versions)
	}
	v2files := decode[fileListJSON](t, h.get(acme.Key, "/api/v1/jobs/"+job.JobID+"/files?versionId="+f.VersionID)).Files
	if len(v2files) != 2 {
		t.Errorf("version 2 holds %d files, want 2 (it starts empty)", len(v2files))
	}
}

func TestAtMost100FilesPerVersion(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	for i := range 100 {
		h.registerFile(acme, job.JobID, fmt.Sprintf("%03d.pdf", i), 10)
	}
	r := h.post(acme.Key, "/api/v1/jobs/"+job.JobID+"/files", map[string]any{
		"fileName": "101.pdf", "fileSize": 10, "contentType": "application/pdf",
	})
	wantError(t, r, http.StatusBadRequest, "invalid_request", "")
	if n := len(h.files(acme, job.JobID)); n != 100 {
		t.Errorf("%d files, want 100", n)
	}
	// A new version has room again.
	h.lockVersion(acme, job.JobID)
	h.registerFile(acme, job.JobID, "next.pdf", 10)
}
