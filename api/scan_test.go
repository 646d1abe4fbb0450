package api_test

import (
	"context"
	"encoding/csv"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"planreview/api/signing"
	"planreview/scan"
	"planreview/scan/plangen"
)

// scanFixture is a job of partner owner with one uploaded generated plan
// set that has known violations.
type scanFixture struct {
	owner  partner
	jobID  string
	fileID string
	pdf    []byte
}

func newScanFixture(t *testing.T, h *harness) scanFixture {
	t.Helper()
	set, err := plangen.Generate(plangen.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	fx := scanFixture{owner: h.newPartner("owner"), pdf: set.Files[0].PDF}
	job := decode[jobJSON](t, h.post(fx.owner.Key, "/api/v1/jobs", map[string]any{"name": "scan me"}))
	fx.jobID = job.JobID
	reg := h.post(fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/files", map[string]any{
		"fileName": "set.pdf", "fileSize": len(fx.pdf), "contentType": "application/pdf"})
	wantStatus(t, reg, http.StatusCreated)
	r := decode[struct{ FileID, UploadURL string }](t, reg)
	fx.fileID = r.FileID
	up := h.send(req{Method: http.MethodPut, Path: r.UploadURL, Body: fx.pdf, Header: map[string]string{"Content-Type": "application/pdf"}})
	wantStatus(t, up, http.StatusOK)
	return fx
}

// runScans runs the real scan pipeline on the harness's data until every
// queued scan has finished.
func runScans(t *testing.T, h *harness, jobID, key string) jobJSON {
	t.Helper()
	pipeline, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	runner := &scan.Runner{Store: h.db, Blobs: h.blobs, Pipeline: pipeline, Workers: 1, Timeout: time.Minute,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(time.Minute)
	for {
		job := decode[jobJSON](t, h.get(key, "/api/v1/jobs/"+jobID))
		if job.Status == "complete" || job.Status == "failed" {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("scan still %s", job.Status)
		}
		runner.Wake()
		time.Sleep(10 * time.Millisecond)
	}
}

func TestScanEndpointErrors(t *testing.T) {
	h := newHarness(t)
	p := h.newPartner("p")
	job := decode[jobJSON](t, h.post(p.Key, "/api/v1/jobs", map[string]any{"name": "empty"}))
	wantError(t, h.post(p.Key, "/api/v1/jobs/"+job.JobID+"/scan", nil), http.StatusBadRequest, "no_files", "")

	wantStatus(t, h.post(p.Key, "/api/v1/jobs/"+job.JobID+"/files", map[string]any{
		"fileName": "a.pdf", "fileSize": 100, "contentType": "application/pdf"}), http.StatusCreated)
	wantError(t, h.post(p.Key, "/api/v1/jobs/"+job.JobID+"/scan", nil), http.StatusBadRequest, "file_not_uploaded", "")
	wantError(t, h.post(p.Key, "/api/v1/jobs/job_01M7Y9Q9EDQJK8NR19V6JEZ7XK/scan", nil), http.StatusNotFound, "not_found", "")
	wantError(t, h.post(p.Key, "/api/v1/jobs/nonsense/scan", nil), http.StatusNotFound, "not_found", "")
}

// TestScanFindingsCSVAndMarkedUpPDF walks endpoints 7 to 10 in order: the
// answers before the scan finished, then after.
func TestScanFindingsCSVAndMarkedUpPDF(t *testing.T) {
	h := newHarness(t)
	fx := newScanFixture(t, h)
	key, jobPath := fx.owner.Key, "/api/v1/jobs/"+fx.jobID

	wantError(t, h.get(key, jobPath+"/findings"), http.StatusConflict, "scan_not_complete", "")
	wantError(t, h.get(key, jobPath+"/files/"+fx.fileID+"/annotated"), http.StatusNotFound, "not_ready", "")

	first := h.send(req{Method: http.MethodPost, Path: jobPath + "/scan", Key: key, Header: map[string]string{"Idempotency-Key": "scan-1"}})
	wantStatus(t, first, http.StatusOK)
	started := decode[struct{ JobID, VersionID, Status string }](t, first)
	if started.Status != "queued" || started.JobID != fx.jobID {
		t.Fatalf("scan answer %s", first.Body)
	}
	replay := h.send(req{Method: http.MethodPost, Path: jobPath + "/scan", Key: key, Header: map[string]string{"Idempotency-Key": "scan-1"}})
	if replay.Status != http.StatusOK || string(replay.Body) != string(first.Body) || replay.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("idempotent replay: %s", replay)
	}
	wantError(t, h.get(key, jobPath+"/findings"), http.StatusConflict, "scan_not_complete", "")
	wantError(t, h.get(key, jobPath+"/export/csv"), http.StatusConflict, "scan_not_complete", "")
	wantError(t, h.get(key, jobPath+"/files/"+fx.fileID+"/annotated"), http.StatusNotFound, "not_ready", "")

	job := runScans(t, h, fx.jobID, key)
	if job.Status != "complete" || job.Pipeline.CurrentStage != "done" {
		t.Fatalf("scan ended %s/%s: %s", job.Status, job.Pipeline.CurrentStage, job.Pipeline.Error)
	}

	// Findings: contract shape and order.
	body := decode[struct {
		JobID, VersionID string
		Findings         []struct {
			FindingID, RuleID, Severity, FileID, Fingerprint string
			Confidence                                       float64
			Sheet                                            struct{ Page int }
			EvidenceAnchors                                  []struct {
				Page int
				BBox struct{ Left, Top, Width, Height float64 }
			}
		}
		CodeBasis *struct {
			RequiresAck bool
			Lines       []string
		}
	}](t, h.get(key, jobPath+"/findings"))
	if body.VersionID != started.VersionID || len(body.Findings) == 0 || body.CodeBasis == nil || len(body.CodeBasis.Lines) == 0 {
		t.Fatalf("findings answer: %+v", body)
	}
	rank := map[string]int{"critical": 0, "high": 1, "medium": 2, "low": 3, "info": 4}
	for i, f := range body.Findings {
		if f.Confidence < 0 || f.Confidence > 1 || f.FileID != fx.fileID || f.Fingerprint == "" {
			t.Errorf("finding %d: %+v", i, f)
		}
		if i > 0 && rank[f.Severity] < rank[body.Findings[i-1].Severity] {
			t.Errorf("finding %d (%s) sorts after a %s one", i, f.Severity, body.Findings[i-1].Severity)
		}
		for _, a := range f.EvidenceAnchors {
			if a.Page < 1 || a.BBox.Left < 0 || a.BBox.Top < 0 || a.BBox.Left+a.BBox.Width > 1 || a.BBox.Top+a.BBox.Height > 1 {
				t.Errorf("finding %d anchor out of the page: %+v", i, a)
			}
		}
	}
	byVersion := h.get(key, jobPath+"/findings?versionId="+started.VersionID)
	wantStatus(t, byVersion, http.StatusOK)
	wantError(t, h.get(key, jobPath+"/findings?versionId=ver_01M7Y9Q9EDQJK8NR19V6JEZ7XM"), http.StatusNotFound, "not_found", "")

	// CSV export.
	export := h.get(key, jobPath+"/export/csv")
	wantStatus(t, export, http.StatusOK)
	if ct := export.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	wantDisposition := `attachment; filename="` + fx.jobID + "-" + started.VersionID + `-findings.csv"`
	if cd := export.Header.Get("Content-Disposition"); cd != wantDisposition {
		t.Errorf("Content-Disposition %q, want %q", cd, wantDisposition)
	}
	if !strings.Contains(string(export.Body), "\r\n") {
		t.Error("CSV lines do not end in CRLF")
	}
	rows, err := csv.NewReader(strings.NewReader(string(export.Body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The contract's columns in its order, then the additive ones.
	if strings.Join(rows[0], ",") != "findingId,versionId,fileId,page,sheetNumber,sheetType,severity,confidence,ruleId,title,governingRefs,rationale,left,top,width,height,source,disposition,dispositionNote,roundStatus,previousFindingId" {
		t.Errorf("CSV header %v", rows[0])
	}
	if len(rows) != len(body.Findings)+1 {
		t.Errorf("CSV has %d rows for %d findings", len(rows)-1, len(body.Findings))
	}
	for i, row := range rows[1:] {
		if row[0] != body.Findings[i].FindingID || row[1] != started.VersionID {
			t.Errorf("CSV row %d %v does not match finding %s", i, row[:3], body.Findings[i].FindingID)
		}
	}

	// Marked-up PDF: a signed URL that serves the PDF with Range support.
	ann := h.get(key, jobPath+"/files/"+fx.fileID+"/annotated")
	wantStatus(t, ann, http.StatusOK)
	link := decode[struct {
		URL       string
		ExpiresAt int64
	}](t, ann)
	if d := time.Until(time.Unix(link.ExpiresAt, 0)); d < 14*time.Minute || d > 16*time.Minute {
		t.Errorf("expiresAt %d is %s away, want about 15 minutes", link.ExpiresAt, d)
	}
	full := h.send(req{Method: http.MethodGet, Path: link.URL})
	wantStatus(t, full, http.StatusOK)
	if full.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(full.Body), "%PDF-") ||
		!strings.Contains(full.Header.Get("Content-Disposition"), "set-marked-up.pdf") || full.Header.Get("ETag") == "" {
		t.Fatalf("download headers %v", full.Header)
	}
	if len(full.Body) <= len(fx.pdf) {
		t.Errorf("marked-up copy (%d bytes) is not larger than the upload (%d)", len(full.Body), len(fx.pdf))
	}
	part := h.send(req{Method: http.MethodGet, Path: link.URL, Header: map[string]string{"Range": "bytes=0-99"}})
	if part.Status != http.StatusPartialContent || len(part.Body) != 100 || string(part.Body) != string(full.Body[:100]) {
		t.Fatalf("Range bytes=0-99: %d, %d bytes", part.Status, len(part.Body))
	}
	if cr := part.Header.Get("Content-Range"); cr != "bytes 0-99/"+strconv.Itoa(len(full.Body)) {
		t.Errorf("Content-Range %q", cr)
	}
	cached := h.send(req{Method: http.MethodGet, Path: link.URL, Header: map[string]string{"If-None-Match": full.Header.Get("ETag")}})
	wantStatus(t, cached, http.StatusNotModified)
}

// TestMarkedUpPDFLinks: tampered and expired links are 403, another
// partner's or an unknown file is 404.
func TestMarkedUpPDFLinks(t *testing.T) {
	h := newHarness(t)
	fx := newScanFixture(t, h)
	wantStatus(t, h.post(fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/scan", nil), http.StatusOK)
	runScans(t, h, fx.jobID, fx.owner.Key)
	link := decode[struct{ URL string }](t, h.get(fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/files/"+fx.fileID+"/annotated"))
	u, err := url.Parse(link.URL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	with := func(change func(q url.Values, u *url.URL)) string {
		u2, q2 := *u, url.Values{}
		for k, v := range q {
			q2[k] = append([]string(nil), v...)
		}
		change(q2, &u2)
		u2.RawQuery = q2.Encode()
		return u2.String()
	}
	tampered := []struct{ name, url string }{
		{"signature", with(func(q url.Values, _ *url.URL) { q.Set("signature", strings.Repeat("0", 64)) })},
		{"expiry pushed out", with(func(q url.Values, _ *url.URL) { q.Set("expires", "9999999999") })},
		{"other file", with(func(_ url.Values, u *url.URL) { u.Path = "/downloads/file_01M7Y9Q9HMSBMRTK86PEARYFY9/marked-up.pdf" })},
		{"no signature", with(func(q url.Values, _ *url.URL) { q.Del("signature") })},
	}
	for _, tc := range tampered {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, h.send(req{Method: http.MethodGet, Path: tc.url}), http.StatusForbidden, "signature_invalid", "")
		})
	}

	// An expired link: signed with the appliance's own secret an hour ago.
	raw, err := os.ReadFile(h.secretPath())
	if err != nil {
		t.Fatal(err)
	}
	secret, _ := hex.DecodeString(strings.TrimSpace(string(raw)))
	past := signing.New(secret, func() time.Time { return time.Now().Add(-time.Hour) })
	sig, expires := past.SignExpiring(15*time.Minute, http.MethodGet, fx.fileID, "marked-up")
	expired := with(func(q url.Values, _ *url.URL) {
		q.Set("signature", sig)
		q.Set("expires", strconv.FormatInt(expires, 10))
	})
	wantError(t, h.send(req{Method: http.MethodGet, Path: expired}), http.StatusForbidden, "url_expired", "")

	other := h.newPartner("other")
	wantError(t, h.get(other.Key, "/api/v1/jobs/"+fx.jobID+"/files/"+fx.fileID+"/annotated"), http.StatusNotFound, "not_found", "")
	wantError(t, h.get(fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/files/file_01M7Y9Q9HMSBMRTK86PEARYFY9/annotated"), http.StatusNotFound, "not_found", "")
	otherJob := decode[jobJSON](t, h.post(other.Key, "/api/v1/jobs", map[string]any{"name": "theirs"}))
	wantError(t, h.get(other.Key, "/api/v1/jobs/"+otherJob.JobID+"/files/"+fx.fileID+"/annotated"), http.StatusNotFound, "not_found", "")
	for _, path := range []string{"/findings", "/export/csv"} {
		wantError(t, h.get(other.Key, "/api/v1/jobs/"+fx.jobID+path), http.StatusNotFound, "not_found", "")
	}
	wantError(t, h.post(other.Key, "/api/v1/jobs/"+fx.jobID+"/scan", nil), http.StatusNotFound, "not_found", "")
}
