package api_test

import (
	"strings"
	"testing"
)

// TestAccessLogShowsRouteAndIDsOnly: whatever a client puts in a path, the
// log shows the route pattern and well-formed ids, never the raw text.
func TestAccessLogShowsRouteAndIDsOnly(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	file := h.registerFile(acme, job.JobID, "a.pdf", 100)
	const secret = "prk_live_PastedIntoAPathByMistake0123456789"
	for _, c := range []struct {
		method, path    string
		route, loggedAs string
	}{
		{"GET", "/api/v1/jobs/" + secret, "/api/v1/jobs/{jobId}", "/api/v1/jobs/{jobId}"},
		{"GET", "/api/v1/jobs/" + job.JobID + "/files/" + secret, "/api/v1/jobs/{jobId}/files/{fileId}", "/api/v1/jobs/" + job.JobID + "/files/{fileId}"},
		{"DELETE", "/api/v1/jobs/" + secret + "/files/" + file.FileID, "/api/v1/jobs/{jobId}/files/{fileId}", "/api/v1/jobs/{jobId}/files/" + file.FileID},
		{"GET", "/api/v1/jobs/" + job.JobID + "/files/" + file.FileID, "/api/v1/jobs/{jobId}/files/{fileId}", "/api/v1/jobs/" + job.JobID + "/files/" + file.FileID},
		{"GET", "/api/v1/" + secret + "/nowhere", "/", ""},
		{"PUT", "/uploads/" + secret + "?expires=1&signature=" + secret, "/uploads/{fileId}", "/uploads/{fileId}"},
		{"GET", "/assets/" + secret, "/assets/{name}", "/assets/{name}"},
		{"GET", "/", "/{$}", "/"},
	} {
		h.send(req{Method: c.method, Path: c.path, Key: acme.Key})
		var found bool
		for _, e := range h.logEntries() {
			if e["msg"] == "request" && e["method"] == c.method && e["route"] == c.route && e["path"] == c.loggedAs {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %s: no access log line with route %q and path %q", c.method, c.path, c.route, c.loggedAs)
		}
	}
	if strings.Contains(h.logs.String(), "PastedIntoAPath") {
		t.Errorf("the log holds text from a request path:\n%s", h.logs)
	}
	// Every access line names its route ("/" where none matched).
	for _, e := range h.logEntries() {
		if e["msg"] == "request" && e["route"] == nil {
			t.Errorf("access log line without a route: %v", e)
		}
	}
}
