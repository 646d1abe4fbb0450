package api_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestUnknownRouteIsJSON404(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	for _, path := range []string{"/nope", "/api/v1/nope", "/api/v2/ping", "/api/v1/jobs/job_x/files/y/z", "/api/v1/jobs/job_x/nope", "/uploads"} {
		t.Run(path, func(t *testing.T) {
			wantError(t, h.get(acme.Key, path), http.StatusNotFound, "not_found", "")
		})
	}
}

func TestWrongMethodIsJSON405WithAllow(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	tests := []struct {
		method, path string
		allow        []string
	}{
		{http.MethodDelete, "/api/v1/jobs", []string{"GET", "POST"}},
		{http.MethodPut, "/api/v1/ping", []string{"GET"}},
		{http.MethodPost, "/api/v1/ping", []string{"GET"}},
		{http.MethodDelete, "/api/v1/jobs/" + job.JobID, []string{"GET"}},
		{http.MethodPatch, "/api/v1/jobs/" + job.JobID + "/files", []string{"GET", "POST"}},
		{http.MethodGet, "/uploads/file_x", []string{"PUT", "OPTIONS"}},
		{http.MethodPost, "/healthz", []string{"GET"}},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := h.send(req{Method: tc.method, Path: tc.path, Key: acme.Key})
			wantError(t, r, http.StatusMethodNotAllowed, "method_not_allowed", "")
			allow := strings.Split(r.Header.Get("Allow"), ", ")
			for _, m := range tc.allow {
				if !slices.Contains(allow, m) {
					t.Errorf("Allow %q lacks %s", r.Header.Get("Allow"), m)
				}
			}
			if slices.Contains(allow, tc.method) {
				t.Errorf("Allow %q lists the refused method", r.Header.Get("Allow"))
			}
		})
	}
}

func TestHandlerPanicIs500AndServerKeepsServing(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	h.store.panicJobs.Store(true)
	r := h.get(acme.Key, "/api/v1/jobs")
	e := wantError(t, r, http.StatusInternalServerError, "internal", "")
	if strings.Contains(e.Error.Message, "injected") || strings.Contains(e.Error.Message, "panic") {
		t.Errorf("500 message leaks internals: %q", e.Error.Message)
	}
	if !strings.Contains(h.logs.String(), "injected store panic") {
		t.Errorf("the panic was not logged for the operator")
	}
	h.store.panicJobs.Store(false)
	wantStatus(t, h.get(acme.Key, "/api/v1/jobs"), http.StatusOK)
	wantStatus(t, h.get(acme.Key, "/api/v1/ping"), http.StatusOK)
}

func TestEveryResponseHasARequestID(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	f := h.registerFile(acme, job.JobID, "a.pdf", len(tinyPDF("id")))
	requests := []req{
		{Method: "GET", Path: "/healthz"},
		{Method: "GET", Path: "/readyz"},
		{Method: "GET", Path: "/api/v1/ping", Key: acme.Key},
		{Method: "GET", Path: "/api/v1/ping"},
		{Method: "GET", Path: "/api/v1/jobs", Key: acme.Key},
		{Method: "GET", Path: "/api/v1/jobs/" + job.JobID, Key: acme.Key},
		{Method: "POST", Path: "/api/v1/jobs", Key: acme.Key, Body: "nope"},
		{Method: "GET", Path: "/nope"},
		{Method: "DELETE", Path: "/api/v1/jobs"},
		{Method: "OPTIONS", Path: "/uploads/" + f.FileID},
		{Method: "PUT", Path: f.UploadURL, Body: tinyPDF("id"), Header: map[string]string{"Content-Type": "application/pdf"}},
		{Method: "PUT", Path: withQuery(t, f.UploadURL, "signature", "00"), Body: tinyPDF("id")},
	}
	seen := map[string]bool{}
	for _, rq := range requests {
		r := h.send(rq)
		id := r.Header.Get("X-Request-Id")
		if id == "" {
			t.Errorf("%s %s (%d) has no X-Request-Id", rq.Method, rq.Path, r.Status)
		}
		if seen[id] {
			t.Errorf("X-Request-Id %s repeated", id)
		}
		seen[id] = true
	}
}

func TestHealthAndReadiness(t *testing.T) {
	h := newHarness(t)
	wantStatus(t, h.get("", "/healthz"), http.StatusOK)
	wantStatus(t, h.get("", "/readyz"), http.StatusOK)

	h.server.Drain()
	wantError(t, h.get("", "/readyz"), http.StatusServiceUnavailable, "unavailable", "")
	wantStatus(t, h.get("", "/healthz"), http.StatusOK)
	// Draining only turns readiness off; requests in flight still complete.
	acme := h.newPartner("acme")
	wantStatus(t, h.get(acme.Key, "/api/v1/ping"), http.StatusOK)
}

func TestReadinessFailsWhenTheDatabaseIsClosed(t *testing.T) {
	h := newHarness(t)
	if err := h.db.Close(); err != nil {
		t.Fatal(err)
	}
	h.db = nil
	wantError(t, h.get("", "/readyz"), http.StatusServiceUnavailable, "unavailable", "")
	wantStatus(t, h.get("", "/healthz"), http.StatusOK)
}

func TestRegisterFileBodyOverOneMiB(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	body := `{"fileName": "a.pdf", "fileSize": 1, "contentType": "application/pdf", "fileTag": "` + strings.Repeat("t", 1<<20) + `"}`
	r := h.send(req{Method: http.MethodPost, Path: "/api/v1/jobs/" + job.JobID + "/files", Key: acme.Key, Body: body})
	wantError(t, r, http.StatusBadRequest, "invalid_request", "")
}

// TestAccessLogNeverHoldsSecrets: the log names key ids and paths, never a
// secret key (valid or not) nor an upload URL's signature.
func TestAccessLogNeverHoldsSecrets(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	pdf := tinyPDF("log")
	f := h.registerFile(acme, job.JobID, "a.pdf", len(pdf))
	wantStatus(t, h.upload(f.UploadURL, pdf, nil), http.StatusOK)
	h.upload(withQuery(t, f.UploadURL, "expires", "1"), pdf, nil)
	h.get(flipLastChar(acme.Key), "/api/v1/ping")
	h.store.panicJobs.Store(true)
	h.get(acme.Key, "/api/v1/jobs")
	h.store.panicJobs.Store(false)
	h.send(req{Method: http.MethodPost, Path: "/api/v1/jobs", Key: acme.Key, Body: "{", Header: map[string]string{"Idempotency-Key": "k"}})

	u, _ := url.Parse(f.UploadURL)
	sig := u.Query().Get("signature")
	logs := h.logs.String()
	for _, secret := range []string{acme.Key, flipLastChar(acme.Key), acme.Key[len("prk_live_"):20], sig, "signature="} {
		if strings.Contains(logs, secret) {
			t.Errorf("log contains %q:\n%s", secret, logs)
		}
	}
	// It does name the key id of authenticated requests.
	found := false
	for _, e := range h.logEntries() {
		if e["msg"] == "request" && e["path"] == "/api/v1/ping" {
			continue
		}
		if e["msg"] == "request" && e["key_id"] == acme.KeyID {
			found = true
		}
	}
	if !found {
		t.Errorf("no access log line names key %s", acme.KeyID)
	}
	if n := h.countAccessLogs(http.MethodPut, u.Path); n != 2 {
		t.Errorf("%d access log lines for the upload path, want 2 (query stripped)", n)
	}
}

func TestStoreFailureIs500WithoutInternals(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	if err := h.db.Close(); err != nil {
		t.Fatal(err)
	}
	h.db = nil
	r := h.get(acme.Key, "/api/v1/ping")
	e := wantError(t, r, http.StatusInternalServerError, "internal", "")
	if strings.Contains(strings.ToLower(e.Error.Message), "database") || strings.Contains(e.Error.Message, "bolt") {
		t.Errorf("500 message leaks internals: %q", e.Error.Message)
	}
	// The operator's log has the cause, tied to the request id.
	found := false
	for _, entry := range h.logEntries() {
		if entry["msg"] == "request failed" && entry["request_id"] == e.Error.RequestID && entry["error"] != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("no error log line for request %s:\n%s", e.Error.RequestID, h.logs.String())
	}
}
