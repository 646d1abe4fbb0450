package api_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"planreview/store"
)

func TestCreateJobReturns201WithTheJob(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")

	r := h.post(acme.Key, "/api/v1/jobs", map[string]any{
		"name": "Main St ADU", "description": "Two-storey ADU\nrear lot",
		"externalId": "PERMIT-2026-0042", "applicationDate": "2026-03-01",
	})
	wantStatus(t, r, http.StatusCreated)
	job := decode[jobJSON](t, r)
	if !store.ValidID(job.JobID, store.PrefixJob) || !store.ValidID(job.VersionID, store.PrefixVersion) {
		t.Errorf("ids %q, %q are not job_/ver_ ids", job.JobID, job.VersionID)
	}
	if job.Name != "Main St ADU" || deref(job.Description) != "Two-storey ADU\nrear lot" ||
		deref(job.ExternalID) != "PERMIT-2026-0042" || job.ApplicationDate != "2026-03-01" {
		t.Errorf("job fields not echoed: %s", r.Body)
	}
	if job.Status != store.StatusCreated {
		t.Errorf("status %q, want created", job.Status)
	}
	if _, err := time.Parse(time.RFC3339, job.CreatedAt); err != nil || !strings.HasSuffix(job.CreatedAt, "Z") {
		t.Errorf("createdAt %q is not RFC 3339 UTC", job.CreatedAt)
	}
	if loc := r.Header.Get("Location"); loc != h.srv.URL+"/api/v1/jobs/"+job.JobID {
		t.Errorf("Location %q", loc)
	}

	got := decode[jobJSON](t, h.get(acme.Key, "/api/v1/jobs/"+job.JobID))
	if got.JobID != job.JobID || got.VersionID != job.VersionID || got.Name != job.Name {
		t.Errorf("GET job = %+v, want the created job", got)
	}
}

func TestCreateJobDefaultsApplicationDateToTodayAndOmitsOptionals(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	r := h.post(acme.Key, "/api/v1/jobs", map[string]any{"name": "Only a name"})
	wantStatus(t, r, http.StatusCreated)
	job := decode[jobJSON](t, r)
	if want := h.clock.Now().UTC().Format(time.DateOnly); job.ApplicationDate != want {
		t.Errorf("applicationDate %q, want today %q", job.ApplicationDate, want)
	}
	if job.Description != nil || job.ExternalID != nil {
		t.Errorf("absent description/externalId should be null: %s", r.Body)
	}
}

func TestCreateJobRejectsInvalidBodies(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	long := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name  string
		body  string
		code  string
		param string
	}{
		{"empty body", ``, "invalid_json", ""},
		{"whitespace body", "  \n", "invalid_json", ""},
		{"not JSON", `name=x`, "invalid_json", ""},
		{"truncated JSON", `{"name": "x"`, "invalid_json", ""},
		{"trailing data", `{"name": "x"} {"name": "y"}`, "invalid_json", ""},
		{"array body", `[{"name": "x"}]`, "invalid_request", ""},
		{"string body", `"x"`, "invalid_request", ""},
		{"null body", `null`, "invalid_request", "name"},
		{"missing name", `{}`, "invalid_request", "name"},
		{"null name", `{"name": null}`, "invalid_request", "name"},
		{"empty name", `{"name": ""}`, "invalid_request", "name"},
		{"blank name", `{"name": "  \t "}`, "invalid_request", "name"},
		{"name of 201 characters", `{"name": "` + long(201) + `"}`, "invalid_request", "name"},
		{"name with newline", `{"name": "a\nb"}`, "invalid_request", "name"},
		{"name with control character", `{"name": "a\u0007b"}`, "invalid_request", "name"},
		{"name is a number", `{"name": 5}`, "invalid_request", "name"},
		{"description of 4001 characters", `{"name": "x", "description": "` + long(4001) + `"}`, "invalid_request", "description"},
		{"description is an object", `{"name": "x", "description": {}}`, "invalid_request", "description"},
		{"externalId of 201 characters", `{"name": "x", "externalId": "` + long(201) + `"}`, "invalid_request", "externalId"},
		{"applicationDate not a date", `{"name": "x", "applicationDate": "yesterday"}`, "invalid_request", "applicationDate"},
		{"applicationDate with time", `{"name": "x", "applicationDate": "2026-03-01T00:00:00Z"}`, "invalid_request", "applicationDate"},
		{"applicationDate impossible day", `{"name": "x", "applicationDate": "2026-02-30"}`, "invalid_request", "applicationDate"},
		{"applicationDate US order", `{"name": "x", "applicationDate": "03/01/2026"}`, "invalid_request", "applicationDate"},
		{"unknown field", `{"name": "x", "colour": "red"}`, "invalid_request", "colour"},
		{"field name differing in case only", `{"Name": "x"}`, "invalid_request", "Name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.send(req{Method: http.MethodPost, Path: "/api/v1/jobs", Key: acme.Key, Body: tc.body})
			wantError(t, r, http.StatusBadRequest, tc.code, tc.param)
		})
	}
}

func TestCreateJobAcceptsLimitsExactly(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	r := h.post(acme.Key, "/api/v1/jobs", map[string]any{
		"name":        strings.Repeat("é", 200), // characters, not bytes
		"description": strings.Repeat("d", 4000),
		"externalId":  strings.Repeat("e", 200),
	})
	wantStatus(t, r, http.StatusCreated)
}

func TestCreateJobRejectsBodyOverOneMiB(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	body := `{"name": "x", "description": "` + strings.Repeat("a", 1<<20) + `"}`
	r := h.send(req{Method: http.MethodPost, Path: "/api/v1/jobs", Key: acme.Key, Body: body})
	wantError(t, r, http.StatusBadRequest, "invalid_request", "")
	if jobs := decode[jobListJSON](t, h.get(acme.Key, "/api/v1/jobs")).Jobs; len(jobs) != 0 {
		t.Errorf("an oversized body created %d jobs", len(jobs))
	}
}

func TestGetJobShape(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, map[string]any{"name": "Shape"})

	r := h.get(acme.Key, "/api/v1/jobs/"+job.JobID)
	wantStatus(t, r, http.StatusOK)
	got := decode[jobJSON](t, r)
	if got.Status != "created" || got.Pipeline.CurrentStage != "not_started" {
		t.Errorf("status %q stage %q, want created/not_started", got.Status, got.Pipeline.CurrentStage)
	}
	var stages []string
	for _, s := range got.Pipeline.Stages {
		stages = append(stages, s.Name)
		if s.Status != "pending" {
			t.Errorf("stage %s is %q, want pending", s.Name, s.Status)
		}
	}
	if want := "preparing,extracting,classifying,reviewing,indexing,annotating"; strings.Join(stages, ",") != want {
		t.Errorf("stages %v, want %s", stages, want)
	}
	if got.Pipeline.Progress == nil || string(got.Pipeline.Error) != "null" {
		t.Errorf("pipeline progress/error missing: %s", r.Body)
	}
	if string(got.LocalLawCoverage) != "null" {
		t.Errorf("localLawCoverage = %s, want null before any scan", got.LocalLawCoverage)
	}
	for _, sev := range []string{"critical", "high", "medium", "low", "info"} {
		if n, ok := got.FindingCounts[sev]; !ok || n != 0 {
			t.Errorf("findingCounts.%s = %d (present %v), want 0", sev, n, ok)
		}
	}
	if len(got.Versions) != 1 || got.Versions[0].VersionID != job.VersionID || got.Versions[0].Number != 1 ||
		got.Versions[0].Status != "created" {
		t.Errorf("versions = %+v, want version 1 %s created", got.Versions, job.VersionID)
	}
	for _, field := range []string{`"localLawCoverage":null`, `"updatedAt":`, `"createdAt":`, `"applicationDate":`} {
		if !strings.Contains(string(r.Body), field) {
			t.Errorf("GET job lacks %s: %s", field, r.Body)
		}
	}
}

func TestGetJobUnknownOrMalformedIdIs404(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	for _, id := range []string{store.NewID(store.PrefixJob), "job_nope", "ver_" + store.NewID("")[:26], "..%2F..%2Fetc"} {
		t.Run(id, func(t *testing.T) {
			wantError(t, h.get(acme.Key, "/api/v1/jobs/"+id), http.StatusNotFound, "not_found", "")
		})
	}
}

// TestOtherPartnersJobsLookMissing: every job-scoped route answers another
// partner's job exactly like a job that does not exist (R1.1, R5.4).
func TestOtherPartnersJobsLookMissing(t *testing.T) {
	h := newHarness(t)
	acme, other := h.newPartner("acme"), h.newPartner("other")
	job := h.createJob(acme, nil)
	h.registerFile(acme, job.JobID, "a.pdf", 1000)
	missing := store.NewID(store.PrefixJob)

	fileBody := map[string]any{"fileName": "b.pdf", "fileSize": 1000, "contentType": "application/pdf"}
	routes := []struct {
		name   string
		method string
		suffix string
		body   any
	}{
		{"GET job", http.MethodGet, "", nil},
		{"POST files", http.MethodPost, "/files", fileBody},
		{"GET files", http.MethodGet, "/files", nil},
		{"GET files of a version", http.MethodGet, "/files?versionId=" + job.VersionID, nil},
	}
	for _, rt := range routes {
		t.Run(rt.name, func(t *testing.T) {
			foreign := h.send(req{Method: rt.method, Path: "/api/v1/jobs/" + job.JobID + rt.suffix, Key: other.Key, Body: rt.body})
			absent := h.send(req{Method: rt.method, Path: "/api/v1/jobs/" + missing + rt.suffix, Key: other.Key, Body: rt.body})
			ef := wantError(t, foreign, http.StatusNotFound, "not_found", "")
			ea := wantError(t, absent, http.StatusNotFound, "not_found", "")
			if ef.Error.Message != ea.Error.Message || ef.Error.Param != ea.Error.Param {
				t.Errorf("foreign job %+v differs from missing job %+v", ef.Error, ea.Error)
			}
			if foreign.Header.Get("Content-Type") != absent.Header.Get("Content-Type") {
				t.Errorf("content types differ")
			}
		})
	}
	// And the owner's job is unchanged: the foreign POST registered nothing.
	if files := h.files(acme, job.JobID); len(files) != 1 {
		t.Errorf("owner sees %d files, want 1", len(files))
	}
	if jobs := decode[jobListJSON](t, h.get(other.Key, "/api/v1/jobs")).Jobs; len(jobs) != 0 {
		t.Errorf("other partner lists %d jobs, want 0", len(jobs))
	}
}

func TestListJobsNewestFirstWithPaging(t *testing.T) {
	h := newHarness(t)
	acme, other := h.newPartner("acme"), h.newPartner("other")
	var created []string
	for i := range 7 {
		created = append(created, h.createJob(acme, map[string]any{"name": fmt.Sprintf("job %d", i)}).JobID)
		h.createJob(other, map[string]any{"name": "not acme's"})
	}

	all := decode[jobListJSON](t, h.get(acme.Key, "/api/v1/jobs"))
	if len(all.Jobs) != 7 || all.NextCursor != nil {
		t.Fatalf("default page: %d jobs, cursor %v; want 7 and null", len(all.Jobs), all.NextCursor)
	}
	for i, j := range all.Jobs {
		if want := created[len(created)-1-i]; j.JobID != want {
			t.Errorf("item %d is %s, want %s (newest first)", i, j.JobID, want)
		}
		if j.Versions != nil || j.Pipeline.Stages != nil {
			t.Errorf("list items carry versions or stages: %+v", j)
		}
		if j.VersionID == "" || j.Status != "created" || j.Pipeline.CurrentStage != "not_started" {
			t.Errorf("list item lacks job status fields: %+v", j)
		}
	}

	for _, limit := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprintf("limit %d", limit), func(t *testing.T) {
			var seen []string
			path := fmt.Sprintf("/api/v1/jobs?limit=%d", limit)
			for pages := 0; ; pages++ {
				if pages > 10 {
					t.Fatal("paging does not end")
				}
				r := h.get(acme.Key, path)
				wantStatus(t, r, http.StatusOK)
				page := decode[jobListJSON](t, r)
				if len(page.Jobs) > limit || len(page.Jobs) == 0 {
					t.Fatalf("page of %d items with limit %d", len(page.Jobs), limit)
				}
				for _, j := range page.Jobs {
					seen = append(seen, j.JobID)
				}
				if page.NextCursor == nil {
					break
				}
				path = fmt.Sprintf("/api/v1/jobs?limit=%d&cursor=%s", limit, url.QueryEscape(*page.NextCursor))
			}
			if len(seen) != len(created) {
				t.Fatalf("saw %d jobs across pages, want %d: %v", len(seen), len(created), seen)
			}
			for i, id := range seen {
				if want := created[len(created)-1-i]; id != want {
					t.Errorf("position %d is %s, want %s (no gaps, no duplicates, newest first)", i, id, want)
				}
			}
		})
	}
}

func TestListJobsFilters(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	a := h.createJob(acme, map[string]any{"name": "a", "externalId": "PERMIT-1"})
	h.createJob(acme, map[string]any{"name": "b", "externalId": "PERMIT-2"})
	c := h.createJob(acme, map[string]any{"name": "c", "externalId": "PERMIT-1"})
	d := h.createJob(acme, map[string]any{"name": "d"})
	h.lockVersion(acme, d.JobID) // d's current version is now queued

	ids := func(path string) []string {
		t.Helper()
		r := h.get(acme.Key, path)
		wantStatus(t, r, http.StatusOK)
		var out []string
		for _, j := range decode[jobListJSON](t, r).Jobs {
			out = append(out, j.JobID)
		}
		return out
	}
	tests := []struct {
		name string
		path string
		want []string
	}{
		{"externalId", "/api/v1/jobs?externalId=PERMIT-1", []string{c.JobID, a.JobID}},
		{"externalId no match", "/api/v1/jobs?externalId=NOPE", nil},
		{"status queued", "/api/v1/jobs?status=queued", []string{d.JobID}},
		{"status created and externalId", "/api/v1/jobs?status=created&externalId=PERMIT-1", []string{c.JobID, a.JobID}},
		{"status complete", "/api/v1/jobs?status=complete", nil},
		{"externalId paged", "/api/v1/jobs?externalId=PERMIT-1&limit=1&cursor=" + base64.RawURLEncoding.EncodeToString([]byte(c.JobID)), []string{a.JobID}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ids(tc.path); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}

	// A filtered page that is full points at the next match, and the last
	// match ends the listing.
	page := decode[jobListJSON](t, h.get(acme.Key, "/api/v1/jobs?externalId=PERMIT-1&limit=1"))
	if len(page.Jobs) != 1 || page.Jobs[0].JobID != c.JobID || page.NextCursor == nil {
		t.Fatalf("first filtered page = %+v", page)
	}
	page = decode[jobListJSON](t, h.get(acme.Key, "/api/v1/jobs?externalId=PERMIT-1&limit=1&cursor="+*page.NextCursor))
	if len(page.Jobs) != 1 || page.Jobs[0].JobID != a.JobID || page.NextCursor != nil {
		t.Fatalf("second filtered page = %+v", page)
	}
}

func TestListJobsRejectsBadQueries(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	h.createJob(acme, nil)
	tests := []struct {
		query string
		param string
	}{
		{"limit=0", "limit"},
		{"limit=201", "limit"},
		{"limit=-1", "limit"},
		{"limit=abc", "limit"},
		{"limit=1.5", "limit"},
		{"limit=99999999999999999999", "limit"},
		{"cursor=not-a-cursor", "cursor"},
		{"cursor=" + base64.RawURLEncoding.EncodeToString([]byte("file_01ARZ3NDEKTSV4RRFFQ69G5FAV")), "cursor"},
		{"cursor=" + base64.StdEncoding.EncodeToString([]byte("job_01ARZ3NDEKTSV4RRFFQ69G5FA")), "cursor"},
		{"cursor=%00", "cursor"},
		{"status=done", "status"},
		{"status=COMPLETE", "status"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			wantError(t, h.get(acme.Key, "/api/v1/jobs?"+tc.query), http.StatusBadRequest, "invalid_request", tc.param)
		})
	}
	for _, ok := range []string{"limit=1", "limit=200", "status=created", "status=failed"} {
		t.Run(ok, func(t *testing.T) { wantStatus(t, h.get(acme.Key, "/api/v1/jobs?"+ok), http.StatusOK) })
	}
}

func TestListJobsEmptyIsAnEmptyArray(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	r := h.get(acme.Key, "/api/v1/jobs")
	wantStatus(t, r, http.StatusOK)
	if got := strings.TrimSpace(string(r.Body)); got != `{"jobs":[],"nextCursor":null}` {
		t.Errorf("empty list = %s", got)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
