package api_test

// The harness starts the real appliance HTTP stack on a loopback listener:
// real bbolt database, real blob store and real signing secret in a
// t.TempDir(), keys issued through api.Admin, and a fake clock for the API
// and the store. Tests drive it over HTTP like a partner would.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"planreview/api"
	"planreview/api/signing"
	"planreview/store"
	"planreview/store/blob"
)

// fakeClock is the API's and the store's clock. It starts at the real time
// so URLs signed with the real clock agree with it, and only moves when a
// test advances it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// syncBuffer collects the server's log output; handlers log from their own
// goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testStore is the real database with two test hooks: it counts key lookups
// (to prove malformed keys never reach storage) and can be told to panic in
// the job listing (to prove a handler panic is contained).
type testStore struct {
	*store.DB
	keyLookups atomic.Int64
	panicJobs  atomic.Bool
}

func (s *testStore) KeyByHash(hash string) (store.Key, error) {
	s.keyLookups.Add(1)
	return s.DB.KeyByHash(hash)
}

func (s *testStore) Jobs(partnerID string, q store.JobQuery) ([]store.JobWithVersion, string, error) {
	if s.panicJobs.Load() {
		panic("test: injected store panic")
	}
	return s.DB.Jobs(partnerID, q)
}

// testBlobs is the real blob store with a hook that runs after a Put
// finished streaming, before the upload is committed.
type testBlobs struct {
	*blob.Store
	afterPut atomic.Pointer[func()]
}

func (b *testBlobs) Put(fileID string, r io.Reader, size int64) (blob.Stored, error) {
	st, err := b.Store.Put(fileID, r, size)
	if hook := b.afterPut.Load(); hook != nil && err == nil {
		(*hook)()
	}
	return st, err
}

// harnessConfig tunes a harness; the zero value is a roomy default.
type harnessConfig struct {
	RateLimit   float64
	RateBurst   int
	UploadTTL   time.Duration
	CORSOrigins []string
	// TrustedProxies and Metrics go to api.Options as they are.
	TrustedProxies []netip.Prefix
	Metrics        api.Metrics
	Webhooks       api.WebhookOptions
}

type harness struct {
	t       *testing.T
	cfg     harnessConfig
	dir     string
	clock   *fakeClock
	logs    *syncBuffer
	srv     *httptest.Server
	current atomic.Pointer[api.Server]

	// Replaced on restart.
	db     *store.DB
	store  *testStore
	blobs  *testBlobs
	server *api.Server
	admin  *api.Admin
}

func newHarness(t *testing.T) *harness { return newHarnessWith(t, harnessConfig{}) }

func newHarnessWith(t *testing.T, cfg harnessConfig) *harness {
	t.Helper()
	if cfg.RateLimit == 0 {
		cfg.RateLimit = 1000
	}
	if cfg.RateBurst == 0 {
		cfg.RateBurst = 100000
	}
	if cfg.UploadTTL == 0 {
		cfg.UploadTTL = time.Hour
	}
	h := &harness{
		t: t, cfg: cfg, dir: t.TempDir(),
		clock: &fakeClock{now: time.Now().UTC().Truncate(time.Second)},
		logs:  &syncBuffer{},
	}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.current.Load().ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		h.srv.Close()
		if h.db != nil {
			h.db.Close()
		}
	})
	h.start()
	return h
}

func (h *harness) dbPath() string     { return filepath.Join(h.dir, "planreview.db") }
func (h *harness) secretPath() string { return filepath.Join(h.dir, "signing.key") }
func (h *harness) filesDir() string   { return filepath.Join(h.dir, "files") }

// start opens the data folder and installs a fresh api.Server.
func (h *harness) start() {
	t := h.t
	t.Helper()
	db, err := store.Open(h.dbPath(), store.Options{Now: h.clock.Now})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	signer, err := signing.LoadOrCreate(h.secretPath())
	if err != nil {
		t.Fatalf("signing secret: %v", err)
	}
	blobs, err := blob.Open(h.filesDir())
	if err != nil {
		t.Fatalf("blob store: %v", err)
	}
	h.db, h.blobs = db, &testBlobs{Store: blobs}
	h.store = &testStore{DB: db}
	h.admin = &api.Admin{Store: db, Now: h.clock.Now, Changed: func() { h.current.Load().KeysChanged() }}
	h.server = api.New(api.Options{
		Store: h.store, Blobs: h.blobs, Signer: signer,
		Logger:    slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		PublicURL: h.srv.URL, UploadURLTTL: h.cfg.UploadTTL, CORSOrigins: h.cfg.CORSOrigins,
		RateLimit: h.cfg.RateLimit, RateBurst: h.cfg.RateBurst, Now: h.clock.Now,
		TrustedProxies: h.cfg.TrustedProxies, Metrics: h.cfg.Metrics, Webhooks: h.cfg.Webhooks,
	})
	h.current.Store(h.server)
}

// restart closes the database and starts a new server on the same data
// folder and address, as a restarted appliance would.
func (h *harness) restart() {
	t := h.t
	t.Helper()
	if err := h.db.Close(); err != nil {
		t.Fatalf("close store: %v", err)
	}
	h.db = nil
	h.start()
}

// lockVersion locks the job's current version the way a partner does: it
// starts a scan (no runner runs in these tests, so it stays queued). A scan
// needs every file uploaded, so pending files get PDF-looking bytes of
// their registered size first, and an empty version gets one file.
func (h *harness) lockVersion(p partner, jobID string) {
	t := h.t
	t.Helper()
	job := decode[jobJSON](t, h.get(p.Key, "/api/v1/jobs/"+jobID))
	var pending []fileJSON
	for _, f := range h.files(p, jobID) {
		if f.VersionID == job.VersionID && f.Status == "pending_upload" {
			pending = append(pending, f)
		}
	}
	if len(pending) == 0 && len(h.filesOf(p, jobID, job.VersionID)) == 0 {
		pending = append(pending, h.registerFile(p, jobID, "lock.pdf", 64))
	}
	signer, err := signing.LoadOrCreate(h.secretPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pending {
		sig, expires := signer.SignExpiring(time.Hour, http.MethodPut, f.FileID, "application/pdf")
		u := fmt.Sprintf("%s/uploads/%s?expires=%d&signature=%s", h.srv.URL, f.FileID, expires, sig)
		body := append([]byte("%PDF-"), bytes.Repeat([]byte{' '}, int(f.FileSize)-5)...)
		wantStatus(t, h.upload(u, body, nil), http.StatusOK)
	}
	r := h.post(p.Key, "/api/v1/jobs/"+jobID+"/scan", nil)
	wantStatus(t, r, http.StatusOK)
	if st := decode[jobJSON](t, r).Status; st != "queued" {
		t.Fatalf("scan to lock the version answered status %q", st)
	}
}

// filesOf lists the files of one version of a job.
func (h *harness) filesOf(p partner, jobID, versionID string) []fileJSON {
	h.t.Helper()
	r := h.get(p.Key, "/api/v1/jobs/"+jobID+"/files?versionId="+versionID)
	wantStatus(h.t, r, http.StatusOK)
	return decode[struct{ Files []fileJSON }](h.t, r).Files
}

// partner is a partner with an issued key.
type partner struct {
	Name  string
	ID    string
	Key   string
	KeyID string
}

func (h *harness) newPartner(name string) partner {
	h.t.Helper()
	k, err := h.admin.IssueKey(context.Background(), name)
	if err != nil {
		h.t.Fatalf("issue key for %s: %v", name, err)
	}
	return partner{Name: name, ID: k.PartnerID, Key: k.Key, KeyID: k.KeyID}
}

// response is a fully read HTTP response.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) String() string {
	return fmt.Sprintf("%d %s", r.Status, r.Body)
}

// req is one request to send; Body is JSON-encoded unless it is []byte or
// string.
type req struct {
	Method string
	Path   string // path and query, or an absolute URL
	Key    string // bearer key; "" sends no Authorization
	Body   any
	Header map[string]string
}

func (h *harness) send(r req) response {
	h.t.Helper()
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case []byte:
		body = bytes.NewReader(b)
	case string:
		body = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			h.t.Fatalf("encode body: %v", err)
		}
		body = bytes.NewReader(raw)
	}
	target := r.Path
	if !strings.HasPrefix(target, "http") {
		target = h.srv.URL + target
	}
	hr, err := http.NewRequest(r.Method, target, body)
	if err != nil {
		h.t.Fatalf("new request: %v", err)
	}
	if r.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+r.Key)
	}
	if r.Body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	for k, v := range r.Header {
		hr.Header.Set(k, v)
	}
	resp, err := h.srv.Client().Do(hr)
	if err != nil {
		h.t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatalf("read body: %v", err)
	}
	// Every answer a test sees is also held to api/openapi.json: documented
	// status, schema, no undeclared field, declared headers.
	if problems := api.CheckAgainstOpenAPI(r.Method, hr.URL.Path, resp.StatusCode, resp.Header, raw); len(problems) > 0 {
		h.t.Errorf("%s %s: the answer does not match api/openapi.json:\n  %s", r.Method, hr.URL.Path, strings.Join(problems, "\n  "))
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

func (h *harness) get(key, path string) response {
	h.t.Helper()
	return h.send(req{Method: http.MethodGet, Path: path, Key: key})
}

func (h *harness) post(key, path string, body any) response {
	h.t.Helper()
	return h.send(req{Method: http.MethodPost, Path: path, Key: key, Body: body})
}

// decode unmarshals a response body, failing the test on bad JSON.
func decode[T any](t *testing.T, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("response is not the expected JSON: %v\n%s", err, r.Body)
	}
	return v
}

// errorEnvelope is the contract's error body.
type errorEnvelope struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		Param     string `json:"param"`
		RequestID string `json:"requestId"`
	} `json:"error"`
}

// wantError checks status, code and (when not "") param, and that the body
// is the contract's envelope with the response's request id.
func wantError(t *testing.T, r response, status int, code, param string) errorEnvelope {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	e := decode[errorEnvelope](t, r)
	if e.Error.Code != code {
		t.Errorf("error.code %q, want %q; body %s", e.Error.Code, code, r.Body)
	}
	if param != "" && e.Error.Param != param {
		t.Errorf("error.param %q, want %q; body %s", e.Error.Param, param, r.Body)
	}
	if e.Error.Message == "" {
		t.Errorf("error.message is empty")
	}
	if id := r.Header.Get("X-Request-Id"); id == "" || e.Error.RequestID != id {
		t.Errorf("error.requestId %q, X-Request-Id %q: want equal and set", e.Error.RequestID, id)
	}
	return e
}

func wantStatus(t *testing.T, r response, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
}

// Response shapes, as a partner's client would decode them.

type jobJSON struct {
	JobID            string          `json:"jobId"`
	VersionID        string          `json:"versionId"`
	Name             string          `json:"name"`
	Description      *string         `json:"description"`
	ExternalID       *string         `json:"externalId"`
	ApplicationDate  string          `json:"applicationDate"`
	Status           string          `json:"status"`
	Pipeline         pipelineJSON    `json:"pipeline"`
	FindingCounts    map[string]int  `json:"findingCounts"`
	LocalLawCoverage json.RawMessage `json:"localLawCoverage"`
	Versions         []versionJSON   `json:"versions"`
	CreatedAt        string          `json:"createdAt"`
	UpdatedAt        string          `json:"updatedAt"`
}

type pipelineJSON struct {
	CurrentStage string `json:"currentStage"`
	Stages       []struct {
		Name   string `json:"name"`
		Status string `json:"status"`
	} `json:"stages"`
	Progress *float64        `json:"progress"`
	Error    json.RawMessage `json:"error"`
}

type versionJSON struct {
	VersionID string `json:"versionId"`
	Number    int    `json:"number"`
	Status    string `json:"status"`
	CreatedAt string `json:"createdAt"`
}

type jobListJSON struct {
	Jobs       []jobJSON `json:"jobs"`
	NextCursor *string   `json:"nextCursor"`
}

type fileJSON struct {
	FileID          string  `json:"fileId"`
	UploadURL       string  `json:"uploadUrl"`
	UploadExpiresAt int64   `json:"uploadExpiresAt"`
	VersionID       string  `json:"versionId"`
	FileName        string  `json:"fileName"`
	FileSize        int64   `json:"fileSize"`
	ContentType     string  `json:"contentType"`
	FileTag         *string `json:"fileTag"`
	Status          string  `json:"status"`
	SHA256          *string `json:"sha256"`
	CreatedAt       string  `json:"createdAt"`
	UploadedAt      *string `json:"uploadedAt"`
}

type fileListJSON struct {
	Files []fileJSON `json:"files"`
}

// createJob creates a job and returns it.
func (h *harness) createJob(p partner, body map[string]any) jobJSON {
	h.t.Helper()
	if body == nil {
		body = map[string]any{"name": "Plan set"}
	}
	r := h.post(p.Key, "/api/v1/jobs", body)
	wantStatus(h.t, r, http.StatusCreated)
	return decode[jobJSON](h.t, r)
}

// registerFile registers a PDF of size bytes into the job.
func (h *harness) registerFile(p partner, jobID string, name string, size int) fileJSON {
	h.t.Helper()
	r := h.post(p.Key, "/api/v1/jobs/"+jobID+"/files", map[string]any{
		"fileName": name, "fileSize": size, "contentType": "application/pdf",
	})
	wantStatus(h.t, r, http.StatusCreated)
	return decode[fileJSON](h.t, r)
}

// upload PUTs body to a signed upload URL as a browser or partner would.
func (h *harness) upload(uploadURL string, body []byte, header map[string]string) response {
	h.t.Helper()
	hdr := map[string]string{"Content-Type": "application/pdf"}
	for k, v := range header {
		hdr[k] = v
	}
	return h.send(req{Method: http.MethodPut, Path: uploadURL, Body: body, Header: hdr})
}

// files lists the job's files.
func (h *harness) files(p partner, jobID string) []fileJSON {
	h.t.Helper()
	r := h.get(p.Key, "/api/v1/jobs/"+jobID+"/files")
	wantStatus(h.t, r, http.StatusOK)
	return decode[fileListJSON](h.t, r).Files
}

// logEntries parses the JSON log lines written so far.
func (h *harness) logEntries() []map[string]any {
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(h.logs.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			h.t.Fatalf("log line is not JSON: %q", line)
		}
		out = append(out, m)
	}
	return out
}

// countAccessLogs counts access log lines for a method and path.
func (h *harness) countAccessLogs(method, path string) int {
	n := 0
	for _, e := range h.logEntries() {
		if e["msg"] == "request" && e["method"] == method && e["path"] == path {
			n++
		}
	}
	return n
}

// waitFor polls cond until it holds or a few seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// pdfOfSize returns a small valid one-page PDF, padded with a comment to
// exactly size bytes (when size is larger than the bare document). tag goes
// into the page text so different tags give different bytes.
func pdfOfSize(tag string, size int) []byte {
	pad := 0
	for range 5 {
		doc := buildPDF(tag, pad)
		if size <= 0 || len(doc) == size {
			return doc
		}
		if len(doc) > size && pad == 0 {
			return doc // cannot shrink below the bare document
		}
		pad += size - len(doc)
		if pad < 0 {
			pad = 0
		}
	}
	panic(fmt.Sprintf("pdfOfSize(%d) did not converge", size))
}

// tinyPDF is a minimal valid PDF.
func tinyPDF(tag string) []byte { return buildPDF(tag, 0) }

func buildPDF(tag string, pad int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	if pad > 0 {
		n := max(pad-2, 0)
		b.WriteString("%" + strings.Repeat("x", n) + "\n")
	}
	content := fmt.Sprintf("BT /F1 12 Tf 72 720 Td (Plan sheet A-101 %s) Tj ET", tag)
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// corpusPDF returns one PDF of the shared corpus, or skips the test.
func corpusPDF(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("/work/shared/corpus", name))
	if err != nil {
		t.Skipf("corpus file not available: %v", err)
	}
	return raw
}

// withQuery returns rawURL with one query parameter replaced.
func withQuery(t *testing.T, rawURL, key, value string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}
