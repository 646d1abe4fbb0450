package scan

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pdfapi "github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"

	"planreview/scan/hostile"
	"planreview/store"
	"planreview/store/blob"
)

const corpusDir = "../../shared/corpus"

// env is a real store, blob store and pipeline in a temp folder.
type env struct {
	t        *testing.T
	dir      string
	db       *store.DB
	blobs    *blob.Store
	runner   *Runner
	partner  string
	pipeline *Pipeline
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{t: t, dir: dir}
	e.open()
	p, _, err := e.db.EnsurePartner("test partner")
	if err != nil {
		t.Fatal(err)
	}
	e.partner = p.ID
	return e
}

func (e *env) open() {
	e.t.Helper()
	db, err := store.Open(filepath.Join(e.dir, "planreview.db"), store.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { db.Close() })
	blobs, err := blob.Open(filepath.Join(e.dir, "files"))
	if err != nil {
		e.t.Fatal(err)
	}
	if e.pipeline == nil {
		if e.pipeline, err = NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000); err != nil {
			e.t.Fatal(err)
		}
	}
	e.db, e.blobs = db, blobs
	e.runner = &Runner{Store: db, Blobs: blobs, Pipeline: e.pipeline, Workers: 2, Timeout: time.Minute,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// queue creates a job with the given PDFs uploaded and queues its scan.
func (e *env) queue(paths ...string) store.Version {
	e.t.Helper()
	j, _, err := e.db.CreateJob(store.Job{PartnerID: e.partner, Name: "job"})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, p := range paths {
		f, err := e.db.RegisterFile(e.partner, j.ID, store.File{FileName: filepath.Base(p), ContentType: "application/pdf"}, 100)
		if err != nil {
			e.t.Fatal(err)
		}
		src, err := os.Open(p)
		if err != nil {
			e.t.Fatal(err)
		}
		st, _ := src.Stat()
		stored, err := e.blobs.Put(f.ID, src, st.Size())
		src.Close()
		if err != nil {
			e.t.Fatalf("%s: %v", p, err)
		}
		if _, _, err := e.db.CommitUpload(f.ID, stored.Size, stored.SHA256); err != nil {
			e.t.Fatal(err)
		}
	}
	v, queued, err := e.db.StartScan(store.ScanRequest{PartnerID: e.partner, JobID: j.ID, Quota: 1000, Window: 24 * time.Hour})
	if err != nil || !queued {
		e.t.Fatalf("StartScan: queued=%v err=%v", queued, err)
	}
	return v
}

// drain runs the runner until every queued scan has finished.
func (e *env) drain(versionIDs ...string) map[string]store.Version {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.runner.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(2 * time.Minute)
	out := map[string]store.Version{}
	for len(out) < len(versionIDs) {
		if time.Now().After(deadline) {
			e.t.Fatalf("scans did not finish: %v", out)
		}
		for _, id := range versionIDs {
			v, err := e.db.VersionByID(id)
			if err != nil {
				e.t.Fatal(err)
			}
			if v.Status == store.StatusComplete || v.Status == store.StatusFailed {
				out[id] = v
			}
		}
		e.runner.Wake()
		time.Sleep(20 * time.Millisecond)
	}
	return out
}

func corpus(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(corpusDir, name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus absent: %v", err)
	}
	return p
}

// writePDF writes a PDF-looking file the blob store accepts but a parser
// may not.
func writePDF(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x.pdf")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCorpusScans: every corpus PDF either completes or fails with the
// contract's code; unreadable sheets yield not-reviewed findings, and a set
// that could not be read never looks clean.
func TestCorpusScans(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus absent")
	}
	e := newEnv(t)
	entries, _ := filepath.Glob(filepath.Join(corpusDir, "*.pdf"))
	var ids []string
	names := map[string]string{}
	for _, p := range entries {
		if strings.Contains(p, "FAKE_HTML") {
			continue // not a PDF: the upload refuses it; TestNotAPDFFailsItsScan
		}
		v := e.queue(p)
		ids = append(ids, v.ID)
		names[v.ID] = filepath.Base(p)
	}
	results := e.drain(ids...)
	for id, v := range results {
		name := names[id]
		_, findings, err := e.db.Findings(e.partner, v.JobID, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		notReviewed := 0
		for _, f := range findings {
			if strings.HasPrefix(f.RuleID, "coverage-") {
				notReviewed++
			}
		}
		t.Logf("%-52s %-9s findings=%d not-reviewed=%d", name, v.Status, len(findings), notReviewed)
		if v.Status != store.StatusComplete {
			t.Errorf("%s: status %s (%+v), want complete", name, v.Status, v.Pipeline.Error)
			continue
		}
		if v.Pipeline.CurrentStage != store.StageDone || v.Pipeline.Progress != 1 || v.Pipeline.PagesProcessed != v.Pipeline.PagesTotal {
			t.Errorf("%s: pipeline %+v", name, v.Pipeline)
		}
		unreadable := strings.Contains(name, "scanned") || strings.Contains(name, "kirkland")
		if unreadable && notReviewed == 0 {
			t.Errorf("%s: no not-reviewed finding for a set without machine-readable text", name)
		}
		if _, err := os.Stat(e.blobs.AnnotatedPath(fileOf(t, e, v))); err != nil {
			t.Errorf("%s: no marked-up copy: %v", name, err)
		}
	}
}

func fileOf(t *testing.T, e *env, v store.Version) string {
	files, err := e.db.ScanFiles(v.ID)
	if err != nil || len(files) == 0 {
		t.Fatalf("files of %s: %v", v.ID, err)
	}
	return files[0].ID
}

// TestNotAPDFFailsItsScan: the corpus's HTML page saved as .pdf is refused
// at upload (400 not_a_pdf); should such bytes reach the runner anyway (an
// older appliance, a restored backup), the scan fails with invalid_pdf.
func TestNotAPDFFailsItsScan(t *testing.T) {
	e := newEnv(t)
	html, err := os.ReadFile(corpus(t, "measurex_vancouver-dwelling-plans_FAKE_HTML.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.blobs.Put("file_x", bytes.NewReader(html), int64(len(html))); !errors.Is(err, blob.ErrNotPDF) {
		t.Fatalf("blob.Put of HTML = %v, want ErrNotPDF", err)
	}
	// Smuggle the bytes past the upload check, as a restored file would be.
	v := e.queue(writePDF(t, "%PDF-1.4\n"))
	files, _ := e.db.ScanFiles(v.ID)
	if err := os.WriteFile(e.blobs.Path(files[0].ID, files[0].SHA256), html, 0o600); err != nil {
		t.Fatal(err)
	}
	got := e.drain(v.ID)[v.ID]
	if got.Status != store.StatusFailed || got.Pipeline.Error == nil || got.Pipeline.Error.Code != CodeInvalidPDF {
		t.Fatalf("status %s error %+v, want failed invalid_pdf", got.Status, got.Pipeline.Error)
	}
}

// TestPasswordProtectedPDFFails: a PDF that needs a user password fails
// with encrypted_pdf and a message that says what to do.
func TestPasswordProtectedPDFFails(t *testing.T) {
	e := newEnv(t)
	pdfapi.DisableConfigDir()
	locked := filepath.Join(t.TempDir(), "locked.pdf")
	if err := pdfapi.EncryptFile(corpus(t, "fsec_pv_permit_sample_generated.pdf"), locked,
		model.NewAESConfiguration("user-secret", "owner-secret", 256)); err != nil {
		t.Fatal(err)
	}
	v := e.queue(locked)
	got := e.drain(v.ID)[v.ID]
	if got.Status != store.StatusFailed || got.Pipeline.Error == nil || got.Pipeline.Error.Code != CodeEncryptedPDF ||
		!strings.Contains(got.Pipeline.Error.Message, "password") {
		t.Fatalf("status %s error %+v, want failed encrypted_pdf", got.Status, got.Pipeline.Error)
	}
}

// TestBrokenPDFFailsOnlyItsOwnScan: a file that starts like a PDF but is
// not one fails its scan with invalid_pdf and is marked rejected, while a
// good scan queued beside it completes.
func TestBrokenPDFFailsOnlyItsOwnScan(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, body, code string
	}{
		{"garbage after header", "%PDF-1.7\n" + strings.Repeat("garbage ", 100), CodeInvalidPDF},
		{"truncated", "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R", CodeInvalidPDF},
		{"no pages", "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
			"trailer\n<< /Root 1 0 R /Size 3 >>\n%%EOF\n", CodeEmptyPDF},
	}
	good := e.queue(corpus(t, "fsec_pv_permit_sample_generated.pdf"))
	ids := []string{good.ID}
	want := map[string]string{}
	for _, c := range cases {
		v := e.queue(writePDF(t, c.body))
		ids = append(ids, v.ID)
		want[v.ID] = c.code
	}
	results := e.drain(ids...)
	if results[good.ID].Status != store.StatusComplete {
		t.Fatalf("good scan: %s %+v", results[good.ID].Status, results[good.ID].Pipeline.Error)
	}
	for id, code := range want {
		v := results[id]
		if v.Status != store.StatusFailed || v.Pipeline.Error == nil || v.Pipeline.Error.Code != code {
			t.Errorf("broken scan: status %s error %+v, want failed %s", v.Status, v.Pipeline.Error, code)
			continue
		}
		if v.Pipeline.CurrentStage != store.StageFailed {
			t.Errorf("currentStage = %s, want failed", v.Pipeline.CurrentStage)
		}
		files, _ := e.db.ScanFiles(id)
		if files[0].Status != store.FileRejected || files[0].Error == nil {
			t.Errorf("broken file: status %s error %+v, want rejected", files[0].Status, files[0].Error)
		}
	}
}

// TestInterruptedScanResumesOnce: a scan claimed by a worker that then died
// (the process was killed) is queued again at start-up and completes once,
// with its findings stored once.
func TestInterruptedScanResumesOnce(t *testing.T) {
	e := newEnv(t)
	v := e.queue(corpus(t, "fsec_pv_permit_sample_generated.pdf"))
	claimed, ok, err := e.db.ClaimScan()
	if err != nil || !ok || claimed.ID != v.ID {
		t.Fatalf("claim: %v %v %v", claimed.ID, ok, err)
	}
	// Findings from the dead worker's partial run must not survive.
	if err := e.db.UpdatePipeline(v.ID, func(p *store.Pipeline) { p.CurrentStage = store.StageReviewing }); err != nil {
		t.Fatal(err)
	}
	e.db.Close()
	e.open() // the restart

	done := e.drain(v.ID)[v.ID]
	if done.Status != store.StatusComplete {
		t.Fatalf("status %s, want complete", done.Status)
	}
	_, first, _ := e.db.Findings(e.partner, v.JobID, v.ID)
	if len(first) == 0 {
		t.Fatal("no findings")
	}
	// A second start-up finds nothing to resume and changes nothing.
	if rec, err := e.db.RecoverScans(3); err != nil || rec.Requeued != 0 || len(rec.Failed) != 0 {
		t.Fatalf("RecoverScans after completion = %+v, %v", rec, err)
	}
	_, again, _ := e.db.Findings(e.partner, v.JobID, v.ID)
	if len(again) != len(first) {
		t.Fatalf("findings changed from %d to %d", len(first), len(again))
	}
	seen := map[string]bool{}
	for _, f := range again {
		if seen[f.Fingerprint+f.Sheet.SheetNumber] && f.Fingerprint != "" {
			t.Errorf("duplicate finding %s %s", f.RuleID, f.Fingerprint)
		}
		seen[f.Fingerprint+f.Sheet.SheetNumber] = true
	}
}

// TestShutdownRequeues: a scan running when the server stops goes back to
// the queue instead of failing.
func TestShutdownRequeues(t *testing.T) {
	e := newEnv(t)
	v := e.queue(corpus(t, "fsec_pv_permit_sample_generated.pdf"))
	claimed, ok, err := e.db.ClaimScan()
	if err != nil || !ok {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the server is stopping
	e.runner.scan(ctx, claimed)
	got, _ := e.db.VersionByID(v.ID)
	if got.Status != store.StatusQueued || got.Pipeline.CurrentStage != store.StageQueued {
		t.Fatalf("after shutdown: %s/%s, want queued", got.Status, got.Pipeline.CurrentStage)
	}
	if next, ok, _ := e.db.ClaimScan(); !ok || next.ID != v.ID {
		t.Fatal("the stopped scan is not back in the queue")
	}
}

// TestScanTimeout: a scan over scan.timeout fails with code timeout.
func TestScanTimeout(t *testing.T) {
	e := newEnv(t)
	e.runner.Timeout = time.Nanosecond
	v := e.queue(corpus(t, "fsec_pv_permit_sample_generated.pdf"))
	got := e.drain(v.ID)[v.ID]
	if got.Status != store.StatusFailed || got.Pipeline.Error == nil || got.Pipeline.Error.Code != CodeTimeout {
		t.Fatalf("status %s error %+v, want failed timeout", got.Status, got.Pipeline.Error)
	}
}

// TestTooManyPages: a set over scan.max_pages fails with too_many_pages.
func TestTooManyPages(t *testing.T) {
	e := newEnv(t)
	e.runner.Pipeline = &Pipeline{Engine: e.pipeline.Engine, MaxPages: 4}
	v := e.queue(corpus(t, "fsec_pv_permit_sample_generated.pdf")) // 5 pages
	got := e.drain(v.ID)[v.ID]
	if got.Status != store.StatusFailed || got.Pipeline.Error == nil || got.Pipeline.Error.Code != CodeTooManyPages {
		t.Fatalf("status %s error %+v, want failed too_many_pages", got.Status, got.Pipeline.Error)
	}
}

// writeBytes writes data as a PDF file for queue.
func writeBytes(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHostileFilesFailWithTheirCode: in a set of a good file and a hostile
// one, the scan fails with the hostile file's code and only that file is
// rejected; a damaged page tree the extractor repairs is annotated too (no
// internal from the annotating stage).
func TestHostileFilesFailWithTheirCode(t *testing.T) {
	e := newEnv(t)
	good := writeBytes(t, "good.pdf", hostile.PageTreeCycle())
	cases := []struct {
		name string
		pdf  []byte
		code string
	}{
		{"bomb", hostile.ContentArrayBomb(), CodeTooComplex},
		{"fan-out", hostile.FormFanOut(15, 10, 1), CodeTooComplex},
		{"noise", hostile.RandomAfterHeader(1<<20, 3), CodeInvalidPDF},
		{"missing kid", hostile.MissingKid(), ""},
		{"lists itself", hostile.PageTreeSelf(), ""},
	}
	for _, c := range cases {
		v := e.queue(good, writeBytes(t, "hostile.pdf", c.pdf))
		got := e.drain(v.ID)[v.ID]
		files, _ := e.db.ScanFiles(v.ID)
		if c.code == "" {
			if got.Status != store.StatusComplete {
				t.Errorf("%s: status %s %+v, want complete", c.name, got.Status, got.Pipeline.Error)
			}
			continue
		}
		if got.Status != store.StatusFailed || got.Pipeline.Error == nil || got.Pipeline.Error.Code != c.code {
			t.Errorf("%s: status %s error %+v, want failed %s", c.name, got.Status, got.Pipeline.Error, c.code)
			continue
		}
		if files[0].Status == store.FileRejected || files[1].Status != store.FileRejected || files[1].Error.Code != c.code {
			t.Errorf("%s: files %s / %s %+v, want only the hostile one rejected", c.name, files[0].Status, files[1].Status, files[1].Error)
		}
	}
}

// TestHeapCeilingFailsTheScan: over scan.memory_limit_mb between pages
// (here a ceiling of one byte), the scan fails too_complex, not the process.
func TestHeapCeilingFailsTheScan(t *testing.T) {
	e := newEnv(t)
	e.runner.Pipeline = &Pipeline{Engine: e.pipeline.Engine, MaxPages: 2000, HeapLimit: 1}
	v := e.queue(writeBytes(t, "plans.pdf", hostile.PageTreeCycle()))
	got := e.drain(v.ID)[v.ID]
	if got.Status != store.StatusFailed || got.Pipeline.Error == nil || got.Pipeline.Error.Code != CodeTooComplex ||
		!strings.Contains(got.Pipeline.Error.Message, "memory") {
		t.Fatalf("status %s error %+v, want failed too_complex about memory", got.Status, got.Pipeline.Error)
	}
}
