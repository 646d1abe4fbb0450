package api_test

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"planreview/api"
	"planreview/api/signing"
	"planreview/store"
)

// signUploadURL makes an upload URL for fileID with the appliance's own
// secret but a chosen clock, as the server would have at time now.
func (h *harness) signUploadURL(fileID string, now time.Time, ttl time.Duration) string {
	h.t.Helper()
	raw, err := os.ReadFile(h.secretPath())
	if err != nil {
		h.t.Fatal(err)
	}
	secret, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil {
		h.t.Fatal(err)
	}
	signer := signing.New(secret, func() time.Time { return now })
	sig, expires := signer.SignExpiring(ttl, http.MethodPut, fileID, "application/pdf")
	q := url.Values{"expires": {strconv.FormatInt(expires, 10)}, "signature": {sig}}
	return h.srv.URL + "/uploads/" + fileID + "?" + q.Encode()
}

type uploadJSON struct {
	FileID string `json:"fileId"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// blobNames lists the file's folder in the blob store.
func (h *harness) blobNames(fileID string) []string {
	h.t.Helper()
	entries, err := os.ReadDir(filepath.Join(h.filesDir(), fileID))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// uploadFixture is a partner with a job and one registered file.
type uploadFixture struct {
	h    *harness
	p    partner
	job  jobJSON
	file fileJSON
	pdf  []byte
}

func newUploadFixture(t *testing.T, h *harness, pdf []byte) uploadFixture {
	t.Helper()
	p := h.newPartner("acme")
	job := h.createJob(p, nil)
	f := h.registerFile(p, job.JobID, "A-101.pdf", len(pdf))
	return uploadFixture{h: h, p: p, job: job, file: f, pdf: pdf}
}

func TestUploadStoresThePDF(t *testing.T) {
	h := newHarness(t)
	fx := newUploadFixture(t, h, tinyPDF("v1"))

	r := h.upload(fx.file.UploadURL, fx.pdf, nil)
	wantStatus(t, r, http.StatusOK)
	got := decode[uploadJSON](t, r)
	want := sha256Hex(fx.pdf)
	if got.FileID != fx.file.FileID || got.Size != int64(len(fx.pdf)) || got.SHA256 != want {
		t.Errorf("upload answer %+v, want %s %d %s", got, fx.file.FileID, len(fx.pdf), want)
	}
	if etag := r.Header.Get("ETag"); etag != `"`+want+`"` {
		t.Errorf("ETag %q, want quoted sha256", etag)
	}
	if r.Header.Get("X-Request-Id") == "" {
		t.Errorf("upload answer lacks X-Request-Id")
	}

	files := h.files(fx.p, fx.job.JobID)
	if len(files) != 1 || files[0].Status != "uploaded" || deref(files[0].SHA256) != want || files[0].UploadedAt == nil {
		t.Errorf("listed file = %+v, want uploaded with sha %s", files, want)
	}
	stored, err := os.ReadFile(filepath.Join(h.filesDir(), fx.file.FileID, want+".pdf"))
	if err != nil || string(stored) != string(fx.pdf) {
		t.Errorf("stored bytes differ from the upload (err %v)", err)
	}
	if names := h.blobNames(fx.file.FileID); len(names) != 1 {
		t.Errorf("file folder holds %v, want just the PDF", names)
	}
}

func TestUploadOfACorpusPDF(t *testing.T) {
	pdf := corpusPDF(t, "au_7_flett_rd_structural_S2.01.pdf")
	h := newHarness(t)
	fx := newUploadFixture(t, h, pdf)
	r := h.upload(fx.file.UploadURL, pdf, nil)
	wantStatus(t, r, http.StatusOK)
	if got := decode[uploadJSON](t, r).SHA256; got != sha256Hex(pdf) {
		t.Errorf("sha256 %s, want %s", got, sha256Hex(pdf))
	}
}

func TestUploadNeedsNoBearerKeyAndContentTypeParametersAreFine(t *testing.T) {
	h := newHarness(t)
	fx := newUploadFixture(t, h, tinyPDF("x"))
	r := h.upload(fx.file.UploadURL, fx.pdf, map[string]string{"Content-Type": "Application/PDF; name=plan.pdf"})
	wantStatus(t, r, http.StatusOK)
}

func TestReuploadBeforeScanReplacesTheFile(t *testing.T) {
	h := newHarness(t)
	first := pdfOfSize("first", 2000)
	second := pdfOfSize("second", 2000)
	if len(first) != len(second) || sha256Hex(first) == sha256Hex(second) {
		t.Fatal("fixtures must differ in content, not size")
	}
	fx := newUploadFixture(t, h, first)
	wantStatus(t, h.upload(fx.file.UploadURL, first, nil), http.StatusOK)

	r := h.upload(fx.file.UploadURL, second, nil)
	wantStatus(t, r, http.StatusOK)
	if got := decode[uploadJSON](t, r).SHA256; got != sha256Hex(second) {
		t.Errorf("re-upload answered sha %s, want %s", got, sha256Hex(second))
	}
	if got := deref(h.files(fx.p, fx.job.JobID)[0].SHA256); got != sha256Hex(second) {
		t.Errorf("file lists sha %s, want the replacement's %s", got, sha256Hex(second))
	}
	if names := h.blobNames(fx.file.FileID); len(names) != 1 || names[0] != sha256Hex(second)+".pdf" {
		t.Errorf("file folder holds %v, want only the replacement", names)
	}
}

func TestUploadRejections(t *testing.T) {
	h := newHarness(t)
	pdf := tinyPDF("rejected")
	fx := newUploadFixture(t, h, pdf)
	other := h.registerFile(fx.p, fx.job.JobID, "other.pdf", len(pdf))
	good := fx.file.UploadURL
	u, _ := url.Parse(good)
	sig, exp := u.Query().Get("signature"), u.Query().Get("expires")
	expNum, _ := strconv.ParseInt(exp, 10, 64)
	flipped := []byte(sig)
	if flipped[0] == 'a' {
		flipped[0] = 'b'
	} else {
		flipped[0] = 'a'
	}
	otherPath := strings.Replace(good, fx.file.FileID, other.FileID, 1)
	notPDF := []byte(strings.Repeat("<html>", len(pdf)/6+1))[:len(pdf)]

	tests := []struct {
		name   string
		url    string
		body   []byte
		header map[string]string
		status int
		code   string
	}{
		{"expired", h.signUploadURL(fx.file.FileID, time.Now().Add(-2*time.Hour), time.Hour), pdf, nil, 403, "url_expired"},
		{"expiring this second", h.signUploadURL(fx.file.FileID, time.Now().Add(-time.Hour), time.Hour), pdf, nil, 403, "url_expired"},
		{"tampered signature", withQuery(t, good, "signature", string(flipped)), pdf, nil, 403, "signature_invalid"},
		{"signature of another length", withQuery(t, good, "signature", sig[:10]), pdf, nil, 403, "signature_invalid"},
		{"missing signature", strings.Split(good, "?")[0] + "?expires=" + exp, pdf, nil, 403, "signature_invalid"},
		{"no query at all", strings.Split(good, "?")[0], pdf, nil, 403, "signature_invalid"},
		{"tampered expires (later)", withQuery(t, good, "expires", strconv.FormatInt(expNum+3600, 10)), pdf, nil, 403, "signature_invalid"},
		{"tampered expires (earlier, already past)", withQuery(t, good, "expires", "1"), pdf, nil, 403, "signature_invalid"},
		{"expires not a number", withQuery(t, good, "expires", "soon"), pdf, nil, 403, "signature_invalid"},
		{"signature of another file", otherPath, pdf, nil, 403, "signature_invalid"},
		{"wrong Content-Type", good, pdf, map[string]string{"Content-Type": "application/octet-stream"}, 400, "unsupported_content_type"},
		{"text Content-Type", good, pdf, map[string]string{"Content-Type": "text/plain"}, 400, "unsupported_content_type"},
		{"Content-Length shorter than fileSize", good, pdf[:len(pdf)-1], nil, 400, "invalid_request"},
		{"Content-Length longer than fileSize", good, append(append([]byte{}, pdf...), '\n'), nil, 400, "invalid_request"},
		{"body not a PDF", good, notPDF, nil, 400, "not_a_pdf"},
		{"body starts %PDF without dash", good, append([]byte("%PDF1"), pdf[5:]...), nil, 400, "not_a_pdf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.upload(tc.url, tc.body, tc.header)
			wantError(t, r, tc.status, tc.code, "")
		})
	}
	t.Run("unknown file with a valid signature", func(t *testing.T) {
		r := h.upload(h.signUploadURL(store.NewID(store.PrefixFile), time.Now(), time.Hour), pdf, nil)
		wantError(t, r, http.StatusNotFound, "not_found", "")
	})
	t.Run("missing Content-Type", func(t *testing.T) {
		hr, _ := http.NewRequest(http.MethodPut, good, strings.NewReader(string(pdf)))
		resp, err := http.DefaultClient.Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		wantError(t, response{resp.StatusCode, resp.Header, raw}, 400, "unsupported_content_type", "")
	})

	for _, f := range h.files(fx.p, fx.job.JobID) {
		if f.Status != "pending_upload" || f.SHA256 != nil {
			t.Errorf("a rejected upload changed file %s: %+v", f.FileID, f)
		}
		if names := h.blobNames(f.FileID); len(names) != 0 {
			t.Errorf("a rejected upload left %v in %s's folder", names, f.FileID)
		}
	}
}

func TestUploadOfTooShortBodyIsNotAPDF(t *testing.T) {
	h := newHarness(t)
	p := h.newPartner("acme")
	job := h.createJob(p, nil)
	f := h.registerFile(p, job.JobID, "short.pdf", 3)
	wantError(t, h.upload(f.UploadURL, []byte("%PD"), nil), http.StatusBadRequest, "not_a_pdf", "")
}

func TestUploadOfCorpusHTMLDisguisedAsPDFIsNotAPDF(t *testing.T) {
	fake := corpusPDF(t, "measurex_vancouver-dwelling-plans_FAKE_HTML.pdf")
	h := newHarness(t)
	fx := newUploadFixture(t, h, fake)
	wantError(t, h.upload(fx.file.UploadURL, fake, nil), http.StatusBadRequest, "not_a_pdf", "")
}

func TestChunkedUploadIs411LengthRequired(t *testing.T) {
	h := newHarness(t)
	fx := newUploadFixture(t, h, tinyPDF("chunked"))
	pr, pw := io.Pipe()
	go func() {
		pw.Write(fx.pdf)
		pw.Close()
	}()
	hr, err := http.NewRequest(http.MethodPut, fx.file.UploadURL, pr)
	if err != nil {
		t.Fatal(err)
	}
	hr.Header.Set("Content-Type", "application/pdf")
	resp, err := h.srv.Client().Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	wantError(t, response{resp.StatusCode, resp.Header, raw}, http.StatusLengthRequired, "length_required", "")
}

func TestUploadToLockedVersionIs409(t *testing.T) {
	h := newHarness(t)
	fx := newUploadFixture(t, h, tinyPDF("locked"))
	wantStatus(t, h.upload(fx.file.UploadURL, fx.pdf, nil), http.StatusOK)
	h.lockVersion(fx.p, fx.job.JobID)

	const origin = "https://portal.acme.test"
	if _, err := h.admin.SetPartner(t.Context(), fx.p.Name, api.PartnerSettings{FrameOrigins: []string{origin}}); err != nil {
		t.Fatal(err)
	}
	replacement := pdfOfSize("late", len(fx.pdf))
	r := h.upload(fx.file.UploadURL, replacement, map[string]string{"Origin": origin})
	wantError(t, r, http.StatusConflict, "version_locked", "")
	if got := r.Header.Get("Access-Control-Allow-Origin"); got != origin {
		t.Errorf("the partner's browser cannot read the 409: Allow-Origin %q", got)
	}
	if got := deref(h.files(fx.p, fx.job.JobID)[0].SHA256); got != sha256Hex(fx.pdf) {
		t.Errorf("locked file's sha changed to %s", got)
	}
	if names := h.blobNames(fx.file.FileID); len(names) != 1 || names[0] != sha256Hex(fx.pdf)+".pdf" {
		t.Errorf("file folder holds %v, want only the scanned upload", names)
	}
}

func TestUploadURLSurvivesRestart(t *testing.T) {
	h := newHarness(t)
	fx := newUploadFixture(t, h, tinyPDF("restart"))
	h.restart() // same data folder: the signing secret is reused
	wantStatus(t, h.upload(fx.file.UploadURL, fx.pdf, nil), http.StatusOK)
}

// TestCutOffUploadLeavesNothingBehind sends the headers and half the body
// over a raw connection and hangs up: no temp file may stay in the file's
// folder and the earlier upload must be intact.
func TestCutOffUploadLeavesNothingBehind(t *testing.T) {
	h := newHarness(t)
	const size = 256 << 10
	earlier := pdfOfSize("earlier", size)
	fx := newUploadFixture(t, h, earlier)
	wantStatus(t, h.upload(fx.file.UploadURL, earlier, nil), http.StatusOK)

	u, err := url.Parse(fx.file.UploadURL)
	if err != nil {
		t.Fatal(err)
	}
	before := h.countAccessLogs(http.MethodPut, u.Path)
	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	replacement := pdfOfSize("never-finished", size)
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\n\r\n",
		u.RequestURI(), u.Host, size)
	if _, err := conn.Write(replacement[:size/2]); err != nil {
		t.Fatal(err)
	}
	// Let the server start streaming into a temp file before hanging up.
	waitFor(t, "the upload to start streaming", func() bool {
		for _, n := range h.blobNames(fx.file.FileID) {
			if strings.HasPrefix(n, ".upload.tmp-") {
				return true
			}
		}
		return false
	})
	conn.Close()
	waitFor(t, "the cut-off request to finish", func() bool {
		return h.countAccessLogs(http.MethodPut, u.Path) > before
	})

	if names := h.blobNames(fx.file.FileID); len(names) != 1 || names[0] != sha256Hex(earlier)+".pdf" {
		t.Errorf("after the cut the folder holds %v, want only the earlier upload", names)
	}
	files := h.files(fx.p, fx.job.JobID)
	if deref(files[0].SHA256) != sha256Hex(earlier) || files[0].Status != "uploaded" {
		t.Errorf("file after cut = %+v, want the earlier upload", files[0])
	}
	stored, err := os.ReadFile(filepath.Join(h.filesDir(), fx.file.FileID, sha256Hex(earlier)+".pdf"))
	if err != nil || sha256Hex(stored) != sha256Hex(earlier) {
		t.Errorf("earlier upload not readable intact: %v", err)
	}
	// The server still takes a complete upload afterwards.
	wantStatus(t, h.upload(fx.file.UploadURL, replacement, nil), http.StatusOK)
}

// TestCutOffFirstUploadLeavesNoFile: with no earlier upload, a cut leaves
// the file pending and its folder without data.
func TestCutOffFirstUploadLeavesNoFile(t *testing.T) {
	h := newHarness(t)
	const size = 128 << 10
	pdf := pdfOfSize("first", size)
	fx := newUploadFixture(t, h, pdf)
	u, _ := url.Parse(fx.file.UploadURL)
	before := h.countAccessLogs(http.MethodPut, u.Path)

	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\n\r\n",
		u.RequestURI(), u.Host, size)
	w.Write(pdf[:size/3])
	w.Flush()
	conn.Close()
	waitFor(t, "the cut-off request to finish", func() bool {
		return h.countAccessLogs(http.MethodPut, u.Path) > before
	})
	for _, n := range h.blobNames(fx.file.FileID) {
		t.Errorf("cut-off first upload left %s", n)
	}
	if f := h.files(fx.p, fx.job.JobID)[0]; f.Status != "pending_upload" || f.SHA256 != nil {
		t.Errorf("file after cut = %+v, want pending_upload", f)
	}
}

func TestUploadCORS(t *testing.T) {
	const configured, partnerOrigin, stranger = "https://permits.example.gov", "https://portal.acme.test", "https://evil.example"
	h := newHarnessWith(t, harnessConfig{CORSOrigins: []string{configured}})
	fx := newUploadFixture(t, h, tinyPDF("cors"))
	frame := []string{partnerOrigin}
	if _, err := h.admin.SetPartner(t.Context(), fx.p.Name, api.PartnerSettings{FrameOrigins: frame}); err != nil {
		t.Fatal(err)
	}

	preflight := func(origin string) response {
		return h.send(req{Method: http.MethodOptions, Path: fx.file.UploadURL, Header: map[string]string{
			"Origin": origin, "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "content-type",
		}})
	}
	for _, origin := range []string{configured, partnerOrigin} {
		t.Run("preflight from "+origin, func(t *testing.T) {
			r := preflight(origin)
			if r.Status != http.StatusNoContent && r.Status != http.StatusOK {
				t.Fatalf("status %d", r.Status)
			}
			if got := r.Header.Get("Access-Control-Allow-Origin"); got != origin {
				t.Errorf("Allow-Origin %q, want %q", got, origin)
			}
			if got := r.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(got, "PUT") {
				t.Errorf("Allow-Methods %q lacks PUT", got)
			}
			if got := strings.ToLower(r.Header.Get("Access-Control-Allow-Headers")); !strings.Contains(got, "content-type") {
				t.Errorf("Allow-Headers %q lacks Content-Type", got)
			}
		})
	}
	t.Run("preflight from an unknown origin", func(t *testing.T) {
		r := preflight(stranger)
		for k := range r.Header {
			if strings.HasPrefix(k, "Access-Control-Allow-") {
				t.Errorf("unknown origin got %s: %s", k, r.Header.Get(k))
			}
		}
	})
	t.Run("PUT from a configured origin can read the answer", func(t *testing.T) {
		r := h.upload(fx.file.UploadURL, fx.pdf, map[string]string{"Origin": configured})
		wantStatus(t, r, http.StatusOK)
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != configured {
			t.Errorf("Allow-Origin %q on the PUT answer", got)
		}
		if got := r.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "ETag") {
			t.Errorf("Expose-Headers %q lacks ETag", got)
		}
	})
	t.Run("a browser can read why a PUT was refused", func(t *testing.T) {
		expired := h.signUploadURL(fx.file.FileID, time.Now().Add(-2*time.Hour), time.Hour)
		r := h.upload(expired, fx.pdf, map[string]string{"Origin": configured})
		wantError(t, r, http.StatusForbidden, "url_expired", "")
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != configured {
			t.Errorf("Allow-Origin %q on the 403", got)
		}
		r = h.upload(fx.file.UploadURL, fx.pdf[:10], map[string]string{"Origin": partnerOrigin})
		wantError(t, r, http.StatusBadRequest, "invalid_request", "Content-Length")
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != partnerOrigin {
			t.Errorf("Allow-Origin %q on the 400", got)
		}
		r = h.upload(expired, fx.pdf, map[string]string{"Origin": stranger})
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("unknown origin allowed on the 403: %q", got)
		}
	})
	t.Run("PUT from an unknown origin gets no CORS headers", func(t *testing.T) {
		r := h.upload(fx.file.UploadURL, fx.pdf, map[string]string{"Origin": stranger})
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("unknown origin allowed: %q", got)
		}
	})
}

// TestScanLockingDuringStreamingWins: when a scan locks the version while an
// upload's body streams, the upload is refused with 409 and only the bytes
// the scan saw stay on disk.
func TestScanLockingDuringStreamingWins(t *testing.T) {
	h := newHarness(t)
	scanned := pdfOfSize("scanned", 1500)
	fx := newUploadFixture(t, h, scanned)
	wantStatus(t, h.upload(fx.file.UploadURL, scanned, nil), http.StatusOK)

	hook := func() {
		_, queued, err := h.db.StartScan(store.ScanRequest{PartnerID: fx.p.ID, JobID: fx.job.JobID, Quota: 10, Window: 24 * time.Hour})
		if err != nil || !queued {
			t.Errorf("StartScan: queued %v, %v", queued, err)
		}
	}
	h.blobs.afterPut.Store(&hook)
	late := pdfOfSize("late", 1500)
	wantError(t, h.upload(fx.file.UploadURL, late, nil), http.StatusConflict, "version_locked", "")
	h.blobs.afterPut.Store(nil)

	if got := deref(h.files(fx.p, fx.job.JobID)[0].SHA256); got != sha256Hex(scanned) {
		t.Errorf("file sha %s, want the scanned upload's", got)
	}
	if names := h.blobNames(fx.file.FileID); len(names) != 1 || names[0] != sha256Hex(scanned)+".pdf" {
		t.Errorf("file folder holds %v, want only the scanned bytes", names)
	}
	// And a register now opens version 2, named in the answer.
	f2 := h.registerFile(fx.p, fx.job.JobID, "resubmittal.pdf", 10)
	if f2.VersionID == fx.job.VersionID {
		t.Errorf("registration after a scan went into the scanned version")
	}
}

// TestConcurrentReuploadsBothSucceed: a re-PUT that commits while an earlier
// PUT of the same file is still streaming must not break the earlier one;
// the last commit wins and nothing else stays on disk.
func TestConcurrentReuploadsBothSucceed(t *testing.T) {
	h := newHarness(t)
	const size = 256 << 10
	slow, quick := pdfOfSize("slow", size), pdfOfSize("quick", size)
	fx := newUploadFixture(t, h, slow)
	u, _ := url.Parse(fx.file.UploadURL)

	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
		u.RequestURI(), u.Host, size)
	if _, err := conn.Write(slow[:size/2]); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the slow upload to start streaming", func() bool {
		for _, n := range h.blobNames(fx.file.FileID) {
			if strings.HasPrefix(n, ".upload.tmp-") {
				return true
			}
		}
		return false
	})
	wantStatus(t, h.upload(fx.file.UploadURL, quick, nil), http.StatusOK)

	if _, err := conn.Write(slow[size/2:]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	wantStatus(t, response{resp.StatusCode, resp.Header, raw}, http.StatusOK)

	if got := deref(h.files(fx.p, fx.job.JobID)[0].SHA256); got != sha256Hex(slow) {
		t.Errorf("file sha %s, want the last commit's (slow) %s", got, sha256Hex(slow))
	}
	if names := h.blobNames(fx.file.FileID); len(names) != 1 || names[0] != sha256Hex(slow)+".pdf" {
		t.Errorf("file folder holds %v, want only the last commit", names)
	}
}
