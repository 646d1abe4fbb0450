package api

// Fuzz targets for the JSON request decoders, through the real handler
// chain (auth, rate limit, idempotency, decode, validate, render) with an
// in-memory store. Run one with, for example:
//
//	go test ./api -run '^$' -fuzz FuzzCreateJobBody -fuzztime 60s
//
// As plain `go test` they run their seeds (below and in testdata/fuzz).

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"planreview/api/signing"
	"planreview/scan/codebasis"
	"planreview/store"
	"planreview/store/blob"
)

// fuzzStore is the real database in a temp folder, recording what the
// handlers stored so the targets can check it.
type fuzzStore struct {
	*store.DB
	mu        sync.Mutex
	jobs      []store.Job
	files     []store.File
	lastQuery store.JobQuery
}

func (m *fuzzStore) CreateJobWithReply(j store.Job, reply *store.Reply[store.JobWithVersion]) (store.Job, store.Version, error) {
	j, v, err := m.DB.CreateJobWithReply(j, reply)
	if err == nil {
		m.mu.Lock()
		m.jobs = append(m.jobs, j)
		m.mu.Unlock()
	}
	return j, v, err
}

func (m *fuzzStore) RegisterFileWithReply(partnerID, jobID string, f store.File, max int, reply *store.Reply[store.File]) (store.File, error) {
	f, err := m.DB.RegisterFileWithReply(partnerID, jobID, f, max, reply)
	if err == nil {
		m.mu.Lock()
		m.files = append(m.files, f)
		m.mu.Unlock()
	}
	return f, err
}

func (m *fuzzStore) Jobs(partnerID string, q store.JobQuery) ([]store.JobWithVersion, string, error) {
	m.mu.Lock()
	m.lastQuery = q
	m.mu.Unlock()
	return m.DB.Jobs(partnerID, q)
}

type fuzzServer struct {
	srv    *Server
	store  *fuzzStore
	secret string
	jobID  string // a job of the key's partner, for file registrations
	lister string // a key whose partner has no jobs, for listings
}

func newFuzzServer(t testing.TB) *fuzzServer {
	dir := t.TempDir()
	db, err := store.Open(filepath.Join(dir, "planreview.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	blobs, err := blob.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	admin := &Admin{Store: db}
	issued, err := admin.IssueKey(context.Background(), "fuzz")
	if err != nil {
		t.Fatal(err)
	}
	lister, err := admin.IssueKey(context.Background(), "lister")
	if err != nil {
		t.Fatal(err)
	}
	job, _, err := db.CreateJob(store.Job{PartnerID: issued.PartnerID, Name: "fuzz target"})
	if err != nil {
		t.Fatal(err)
	}
	st := &fuzzStore{DB: db}
	srv := New(Options{
		Store: st, Blobs: blobs, Signer: signing.New([]byte("0123456789abcdef0123456789abcdef"), nil),
		PublicURL: "http://appliance.test", UploadURLTTL: time.Hour,
		RateLimit: 1e9, RateBurst: 1 << 30,
	})
	return &fuzzServer{srv: srv, store: st, secret: issued.Key, jobID: job.ID, lister: lister.Key}
}

// post sends body through the whole handler chain.
func (fs *fuzzServer) post(path string, body []byte, idempotencyKey string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(body)))
	r.Header.Set("Authorization", "Bearer "+fs.secret)
	r.Header.Set("Content-Type", "application/json")
	if idempotencyKey != "" {
		r.Header.Set("Idempotency-Key", idempotencyKey)
	}
	w := httptest.NewRecorder()
	fs.srv.ServeHTTP(w, r)
	return w
}

// checkAnswer asserts the properties every answer to a fuzzed body has: no
// 5xx, success or a 4xx in the contract's envelope with an allowed code.
func checkAnswer(t *testing.T, w *httptest.ResponseRecorder, success int, codes ...string) bool {
	t.Helper()
	if w.Code >= 500 {
		t.Fatalf("status %d for a client's body: %s", w.Code, w.Body)
	}
	if w.Code == success {
		return true
	}
	if w.Code < 400 {
		t.Fatalf("status %d, want %d or 4xx", w.Code, success)
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("4xx Content-Type %q", ct)
	}
	var env struct {
		Error *struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			Param     string `json:"param"`
			RequestID string `json:"requestId"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Error == nil {
		t.Fatalf("4xx body is not the error envelope (%v): %s", err, w.Body)
	}
	e := env.Error
	if e.Code == "" || e.Message == "" || e.RequestID == "" || e.RequestID != w.Header().Get("X-Request-Id") {
		t.Fatalf("incomplete error envelope: %s", w.Body)
	}
	allowed := false
	for _, c := range codes {
		allowed = allowed || e.Code == c
	}
	if !allowed {
		t.Fatalf("error code %q (status %d) not among %v: %s", e.Code, w.Code, codes, w.Body)
	}
	if e.Code == "invalid_request" && e.Param != "" && !utf8.ValidString(e.Param) {
		t.Fatalf("param is not UTF-8: %q", e.Param)
	}
	return false
}

// checkAcceptedBody asserts that an accepted body was valid UTF-8 and named
// only the given fields, exactly (encoding/json alone would take "Name"
// for name and turn invalid bytes into U+FFFD).
func checkAcceptedBody(t *testing.T, body []byte, fields ...string) {
	t.Helper()
	if !utf8.Valid(body) {
		t.Fatalf("accepted a body that is not valid UTF-8: %q", body)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		t.Fatalf("accepted a body that is not a JSON object: %v", err)
	}
	for k := range top {
		if !slices.Contains(fields, k) {
			t.Fatalf("accepted field %q, not exactly one of %v", k, fields)
		}
	}
}

// checkText asserts the contract's text rules on an accepted value.
func checkAcceptedText(t *testing.T, field, v string, required bool, maxLen int, singleLine bool) {
	t.Helper()
	if required && strings.TrimSpace(v) == "" {
		t.Fatalf("accepted a blank %s", field)
	}
	if !utf8.ValidString(v) || utf8.RuneCountInString(v) > maxLen {
		t.Fatalf("accepted %s %q (invalid UTF-8 or over %d characters)", field, v, maxLen)
	}
	for _, r := range v {
		if (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) && (singleLine || (r != '\n' && r != '\r' && r != '\t')) {
			t.Fatalf("accepted %s with control character %U", field, r)
		}
	}
}

var createJobSeeds = []string{
	`{"name": "Marin ADU", "jurisdictionId": "ocd-division/country:us/state:ca/county:marin"}`,
	`{"name": "bad", "jurisdictionId": "ocd-division/country:us/state:CA"}`,
	`{"name": "Main St ADU"}`,
	`{"name": "Main St ADU", "description": "Two-storey ADU\nrear lot", "externalId": "PERMIT-2026-0042", "applicationDate": "2026-03-01"}`,
	`{"name": ""}`,
	`{"name": "   "}`,
	`{"name": null, "description": null}`,
	`{"name": 5}`,
	`{"name": "x", "colour": "red"}`,
	`{"name": "x", "applicationDate": "2026-02-30"}`,
	`{"name": "x"} trailing`,
	`{"name": "\u0000"}`,
	`{"name": "\ud800"}`,
	`{"name": "a\u2028b"}`,
	`[]`,
	`null`,
	`"name"`,
	`{`,
	``,
	`{"name": "x", "name": "y"}`,
	`{"name": {"nested": [1, 2, {"deep": true}]}}`,
	`{"name": "` + strings.Repeat("n", 201) + `"}`,
	`{"Name": "x"}`,
	`{"name": "x", "ExternalId": "B-1"}`,
	"{\"name\": \"Main \xff St\"}",
	`{"name": "\ufffd is fine"}`,
}

func FuzzCreateJobBody(f *testing.F) {
	for _, s := range createJobSeeds {
		f.Add([]byte(s), false)
	}
	f.Add([]byte(`{"name": "keyed"}`), true)
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte, keyed bool) {
		key := ""
		if keyed {
			key = "fuzz-" + store.NewID("")
		}
		fs.store.mu.Lock()
		before := len(fs.store.jobs)
		fs.store.mu.Unlock()
		w := fs.post("/api/v1/jobs", body, key)
		if !checkAnswer(t, w, http.StatusCreated, "invalid_json", "invalid_request") {
			if len(fs.store.jobs) != before {
				t.Fatalf("a rejected body created a job")
			}
			return
		}
		if len(fs.store.jobs) != before+1 {
			t.Fatalf("201 without exactly one job created")
		}
		j := fs.store.jobs[len(fs.store.jobs)-1]
		checkAcceptedBody(t, body, "name", "description", "externalId", "applicationDate", "jurisdictionId")
		checkAcceptedText(t, "name", j.Name, true, 200, true)
		checkAcceptedText(t, "description", j.Description, false, 4000, false)
		checkAcceptedText(t, "externalId", j.ExternalID, false, 200, false)
		if _, err := time.Parse(time.DateOnly, j.ApplicationDate); err != nil {
			t.Fatalf("accepted applicationDate %q", j.ApplicationDate)
		}
		if j.JurisdictionID != "" && !codebasis.ValidJurisdictionID(j.JurisdictionID) {
			t.Fatalf("accepted jurisdictionId %q", j.JurisdictionID)
		}
		var out struct {
			JobID string `json:"jobId"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.JobID != j.ID {
			t.Fatalf("201 body does not name the job: %s", w.Body)
		}
	})
}

var registerFileSeeds = []string{
	`{"fileName": "A-101.pdf", "fileSize": 12345, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": 104857600, "contentType": "APPLICATION/PDF", "fileTag": "architectural"}`,
	`{"fileName": "A-101.pdf", "fileSize": 104857601, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": 0, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": -1, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": 1.5, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": 1e3, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": 1e999999, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": 99999999999999999999999999, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": "12", "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": true, "contentType": "application/pdf"}`,
	`{"fileName": "plans/A-101.pdf", "fileSize": 1, "contentType": "application/pdf"}`,
	`{"fileName": "A\\101.pdf", "fileSize": 1, "contentType": "application/pdf"}`,
	`{"fileName": "A\u0085.pdf", "fileSize": 1, "contentType": "application/pdf"}`,
	`{"fileName": "A-101.pdf", "fileSize": 1, "contentType": "image/png"}`,
	`{"fileName": "A-101.pdf", "fileSize": 1, "contentType": "application/pdf", "extra": 1}`,
	`{"fileName": "A-101.pdf", "fileSize": 1}`,
	`{"fileSize": 1, "contentType": "application/pdf"}`,
	`{"fileName": null, "fileSize": null, "contentType": null}`,
	`{}`,
	`[]`,
	`{`,
	`{"FileName": "A-101.pdf", "fileSize": 1, "contentType": "application/pdf"}`,
	"{\"fileName\": \"A\xc3.pdf\", \"fileSize\": 1, \"contentType\": \"application/pdf\"}",
}

func FuzzRegisterFileBody(f *testing.F) {
	for _, s := range registerFileSeeds {
		f.Add([]byte(s), false)
	}
	f.Add([]byte(registerFileSeeds[0]), true)
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte, keyed bool) {
		key := ""
		if keyed {
			key = "fuzz-" + store.NewID("")
		}
		before := len(fs.store.files)
		w := fs.post("/api/v1/jobs/"+fs.jobID+"/files", body, key)
		if !checkAnswer(t, w, http.StatusCreated, "invalid_json", "invalid_request", "file_too_large", "unsupported_content_type") {
			if len(fs.store.files) != before {
				t.Fatalf("a rejected body registered a file")
			}
			return
		}
		if len(fs.store.files) != before+1 {
			t.Fatalf("201 without exactly one file registered")
		}
		file := fs.store.files[len(fs.store.files)-1]
		checkAcceptedBody(t, body, "fileName", "fileSize", "contentType", "fileTag")
		checkAcceptedText(t, "fileName", file.FileName, true, 255, true)
		if strings.ContainsAny(file.FileName, `/\`) {
			t.Fatalf("accepted fileName %q", file.FileName)
		}
		checkAcceptedText(t, "fileTag", file.FileTag, false, 64, false)
		if file.FileSize < 1 || file.FileSize > maxFileSize {
			t.Fatalf("accepted fileSize %d", file.FileSize)
		}
		if file.ContentType != "application/pdf" {
			t.Fatalf("stored contentType %q", file.ContentType)
		}
		var out struct {
			FileID    string `json:"fileId"`
			UploadURL string `json:"uploadUrl"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil || out.FileID != file.ID ||
			!strings.HasPrefix(out.UploadURL, "http://appliance.test/uploads/"+file.ID+"?") {
			t.Fatalf("201 body does not name the file and its upload URL: %s", w.Body)
		}
	})
}

func FuzzListJobsQuery(f *testing.F) {
	for _, s := range []string{
		"", "limit=1", "limit=200", "limit=0", "limit=201", "limit=-1", "limit=1.5", "limit=%2B5",
		"status=created", "status=queued&externalId=PERMIT-1", "status=bogus",
		"cursor=am9iXzAxQVJaM05ERUtUU1Y0UlJGRlE2OUc1RkFW", "cursor=%%%", "cursor=", "externalId=%00",
		"limit=1&limit=2", "a=b&c", ";;;",
	} {
		f.Add(s)
	}
	fs := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, query string) {
		r := httptest.NewRequest(http.MethodGet, "/api/v1/jobs", nil)
		r.URL.RawQuery = query
		r.Header.Set("Authorization", "Bearer "+fs.lister)
		w := httptest.NewRecorder()
		fs.srv.ServeHTTP(w, r)
		if !checkAnswer(t, w, http.StatusOK, "invalid_request") {
			return
		}
		q := fs.store.lastQuery
		if q.Limit < 1 || q.Limit > 200 {
			t.Fatalf("listing ran with limit %d", q.Limit)
		}
		if q.After != "" && !store.ValidID(q.After, store.PrefixJob) {
			t.Fatalf("listing ran after %q, not a job id", q.After)
		}
		if q.Status != "" && q.Status != store.StatusCreated && q.Status != store.StatusQueued &&
			q.Status != store.StatusProcessing && q.Status != store.StatusComplete && q.Status != store.StatusFailed {
			t.Fatalf("listing ran with status %q", q.Status)
		}
		if strings.TrimSpace(w.Body.String()) != `{"jobs":[],"nextCursor":null}` {
			t.Fatalf("empty listing rendered as %s", w.Body)
		}
	})
}
