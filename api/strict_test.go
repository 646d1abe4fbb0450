package api_test

import (
	"net/http"
	"testing"
)

// TestStrictBodies: field names match exactly and text must be valid
// Unicode; both are 400 invalid_request naming the field, and nothing is
// stored.
func TestStrictBodies(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	for _, c := range []struct {
		name, path, body, param string
	}{
		{"capitalised field", "/api/v1/jobs", `{"Name":"x"}`, "Name"},
		{"upper-case field", "/api/v1/jobs", `{"name":"x","EXTERNALID":"B-1"}`, "EXTERNALID"},
		{"invalid UTF-8 in name", "/api/v1/jobs", "{\"name\":\"Main \xff St\"}", "name"},
		{"truncated UTF-8 sequence", "/api/v1/jobs", "{\"name\":\"x\",\"description\":\"caf\xc3\"}", "description"},
		{"unpaired surrogate escape", "/api/v1/jobs", `{"name":"x","externalId":"\ud800"}`, "externalId"},
		{"file field case", "/api/v1/jobs/" + job.JobID + "/files", `{"FileName":"a.pdf","fileSize":1,"contentType":"application/pdf"}`, "FileName"},
		{"invalid UTF-8 in fileName", "/api/v1/jobs/" + job.JobID + "/files", "{\"fileName\":\"\xc0\xaf.pdf\",\"fileSize\":1,\"contentType\":\"application/pdf\"}", "fileName"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, key := range []string{"", "strict-" + c.name} {
				r := h.send(req{Method: http.MethodPost, Path: c.path, Key: acme.Key, Body: []byte(c.body),
					Header: map[string]string{"Content-Type": "application/json", "Idempotency-Key": key}})
				wantError(t, r, http.StatusBadRequest, "invalid_request", c.param)
			}
		})
	}
	jobs := decode[jobListJSON](t, h.get(acme.Key, "/api/v1/jobs"))
	if len(jobs.Jobs) != 1 || len(h.files(acme, job.JobID)) != 0 {
		t.Errorf("refused bodies stored something: %d jobs, files %+v", len(jobs.Jobs), h.files(acme, job.JobID))
	}

	// What the client means literally stays accepted: U+FFFD itself, a
	// valid surrogate pair, non-ASCII text.
	for _, body := range []string{`{"name":"a \ufffd b"}`, "{\"name\":\"a \uFFFD b\"}", `{"name":"\ud83d\ude00 Café"}`} {
		r := h.send(req{Method: http.MethodPost, Path: "/api/v1/jobs", Key: acme.Key, Body: []byte(body)})
		wantStatus(t, r, http.StatusCreated)
	}
}
