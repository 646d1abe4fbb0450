package api_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"planreview/chat"
	"planreview/scan/pdftext"
)

type chatJSON struct {
	JobID     string          `json:"jobId"`
	VersionID string          `json:"versionId"`
	Answer    string          `json:"answer"`
	Citations []chat.Citation `json:"citations"`
	Source    string          `json:"source"`
}

// uploadedJob makes a job of p with one uploaded PDF and returns its id and
// the file's id.
func uploadedJob(t *testing.T, h *harness, p partner, name string, pdf []byte) (jobID, fileID string) {
	t.Helper()
	job := decode[jobJSON](t, h.post(p.Key, "/api/v1/jobs", map[string]any{"name": name}))
	reg := h.post(p.Key, "/api/v1/jobs/"+job.JobID+"/files", map[string]any{
		"fileName": name, "fileSize": len(pdf), "contentType": "application/pdf"})
	wantStatus(t, reg, http.StatusCreated)
	r := decode[struct{ FileID, UploadURL string }](t, reg)
	wantStatus(t, h.upload(r.UploadURL, pdf, map[string]string{"Content-Type": "application/pdf"}), http.StatusOK)
	return job.JobID, r.FileID
}

// pageWords are the extracted words of each page of a PDF, for checking
// citations against what is really on the page.
func pageWords(t *testing.T, path string) map[int]map[string]bool {
	t.Helper()
	doc, err := pdftext.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	out := map[int]map[string]bool{}
	for p := range doc.Pages(context.Background()) {
		words := map[string]bool{}
		for _, w := range p.Words {
			words[w.Text] = true
		}
		out[p.Number] = words
	}
	return out
}

// checkCitations fails when a citation's excerpt holds a word that is not
// on its page, or names another file.
func checkCitations(t *testing.T, q string, a chatJSON, fileID string, words map[int]map[string]bool) {
	t.Helper()
	for _, c := range a.Citations {
		if c.FileID != fileID || words[c.Page] == nil || strings.TrimSpace(c.Excerpt) == "" {
			t.Errorf("%q: citation %+v names no page of the file", q, c)
			continue
		}
		for _, part := range strings.Split(strings.ReplaceAll(c.Excerpt, chat.CellSep, chat.Sep), chat.Sep) {
			for _, w := range strings.Fields(part) {
				if !words[c.Page][w] {
					t.Errorf("%q: excerpt %q: word %q is not on page %d", q, c.Excerpt, w, c.Page)
				}
			}
		}
		if c.SheetType == "" {
			t.Errorf("%q: citation without sheetType: %+v", q, c)
		}
	}
}

func TestChatOnCorpusSetWithoutModel(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "corpus", "ca_calgary_sample_dp_bp_house_26p.pdf")
	pdf, err := os.ReadFile(path)
	if err != nil {
		t.Skip("corpus absent")
	}
	h := newHarness(t)
	p := h.newPartner("city")
	jobID, fileID := uploadedJob(t, h, p, "calgary.pdf", pdf)
	chatPath := "/api/v1/jobs/" + jobID + "/chat"
	wantError(t, h.post(p.Key, chatPath, map[string]any{"message": "what is the address?"}), http.StatusConflict, "scan_not_complete", "")
	wantStatus(t, h.post(p.Key, "/api/v1/jobs/"+jobID+"/scan", nil), http.StatusOK)
	if job := runScans(t, h, jobID, p.Key); job.Status != "complete" {
		t.Fatalf("scan %s", job.Status)
	}
	words := pageWords(t, path)

	for _, tc := range []struct {
		question string
		want     []string // in the answer
		page     int      // a citation on this page
	}{
		// Code analysis: which code the set is drawn to.
		{"Which building code applies to the construction?", []string{"ALBERTA BUILDING CODE"}, 18},
		// Sheet content: the stair on the section.
		{"How many risers does the main stair have?", []string{"MAIN STAIRS 15 RISERS", "age 17"}, 17},
		// Every title block prints it: any page will do (0).
		{"What is the municipal address?", []string{"MUNICIPAL ADDRESS", "3615 4 ST SW"}, 0},
		{"Which sheets show the window schedule?", []string{"page 19"}, 19},
	} {
		a := decode[chatJSON](t, h.post(p.Key, chatPath, map[string]any{"message": tc.question}))
		for _, w := range tc.want {
			if !strings.Contains(a.Answer, w) {
				t.Errorf("%q: answer %q lacks %q", tc.question, a.Answer, w)
			}
		}
		onPage := false
		for _, c := range a.Citations {
			onPage = onPage || c.Page == tc.page
		}
		if !onPage && tc.page != 0 {
			t.Errorf("%q: no citation on page %d: %+v", tc.question, tc.page, a.Citations)
		}
		if a.Source != "builtin" || a.JobID != jobID || a.VersionID == "" {
			t.Errorf("%q: answer %+v", tc.question, a)
		}
		checkCitations(t, tc.question, a, fileID, words)
	}

	// The review itself: the answer names a finding of the severity asked
	// for, as the findings endpoint lists them.
	listed := decode[struct {
		Findings []struct{ Severity, Title string }
	}](t, h.get(p.Key, "/api/v1/jobs/"+jobID+"/findings"))
	severity, title := "", ""
	for _, f := range listed.Findings {
		if f.Severity != "info" {
			severity, title = f.Severity, f.Title
			break
		}
	}
	if severity == "" {
		t.Fatal("the review of the Calgary set has no finding above info to ask about")
	}
	a := decode[chatJSON](t, h.post(p.Key, chatPath, map[string]any{"message": "What are the " + severity + " findings?"}))
	if !strings.Contains(a.Answer, severity+" finding") || !strings.Contains(a.Answer, title) {
		t.Errorf("findings answer %q, want %s finding %q", a.Answer, severity, title)
	}
	checkCitations(t, severity+" findings", a, fileID, words)

	for _, q := range []string{"What is the capital of France?", "Who won the 1998 World Cup final?"} {
		a := decode[chatJSON](t, h.post(p.Key, chatPath, map[string]any{"message": q}))
		if a.Answer != chat.NotSaid || len(a.Citations) != 0 {
			t.Errorf("%q: answer %q with %d citations, want %q and none", q, a.Answer, len(a.Citations), chat.NotSaid)
		}
	}
}

// TestChatFindingsCiteTheirAnchors asks about the findings of a generated
// set whose violations are anchored on the sheet.
func TestChatFindingsCiteTheirAnchors(t *testing.T) {
	h := newHarness(t)
	fx := newScanFixture(t, h)
	wantStatus(t, h.post(fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/scan", nil), http.StatusOK)
	runScans(t, h, fx.jobID, fx.owner.Key)
	path := filepath.Join(t.TempDir(), "set.pdf")
	if err := os.WriteFile(path, fx.pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	words := pageWords(t, path)
	a := decode[chatJSON](t, h.post(fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/chat", map[string]any{
		"message": "What are the high findings?"}))
	if !strings.Contains(a.Answer, "high finding") || len(a.Citations) == 0 {
		t.Fatalf("answer %q, %d citations", a.Answer, len(a.Citations))
	}
	checkCitations(t, "high findings", a, fx.fileID, words)
	stairs := decode[chatJSON](t, h.post(fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/chat", map[string]any{
		"message": "What findings are there about the stair risers?"}))
	if !strings.Contains(strings.ToLower(stairs.Answer), "riser") {
		t.Errorf("stair findings answer %q", stairs.Answer)
	}
	checkCitations(t, "stair findings", stairs, fx.fileID, words)
}

func TestChatRequestErrors(t *testing.T) {
	h := newHarness(t)
	fx := newScanFixture(t, h)
	key, chatPath := fx.owner.Key, "/api/v1/jobs/"+fx.jobID+"/chat"
	other := h.newPartner("other")

	// Before any scan: 409, with a valid body.
	wantError(t, h.post(key, chatPath, map[string]any{"message": "hello"}), http.StatusConflict, "scan_not_complete", "")
	wantStatus(t, h.post(key, "/api/v1/jobs/"+fx.jobID+"/scan", nil), http.StatusOK)
	runScans(t, h, fx.jobID, key)

	history := func(n int) []map[string]any {
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = map[string]any{"role": "user", "content": "q"}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
		param  string
	}{
		{"no message", map[string]any{}, 400, "missing_message", "message"},
		{"empty message", map[string]any{"message": ""}, 400, "missing_message", "message"},
		{"blank message", map[string]any{"message": " \n\t "}, 400, "missing_message", "message"},
		{"null message", map[string]any{"message": nil}, 400, "missing_message", "message"},
		{"long message", map[string]any{"message": strings.Repeat("a", 4001)}, 400, "invalid_request", "message"},
		{"message not a string", map[string]any{"message": 5}, 400, "invalid_request", "message"},
		{"51 history items", map[string]any{"message": "q", "history": history(51)}, 400, "invalid_request", "history"},
		{"bad role", map[string]any{"message": "q", "history": []map[string]any{{"role": "system", "content": "x"}}}, 400, "invalid_request", "history[0].role"},
		{"no content", map[string]any{"message": "q", "history": []map[string]any{{"role": "user"}}}, 400, "invalid_request", "history[0].content"},
		{"unknown field", map[string]any{"message": "q", "temperature": 1}, 400, "invalid_request", "temperature"},
		{"not JSON", "{", 400, "invalid_json", ""},
		{"foreign version", map[string]any{"message": "q", "versionId": "ver_01M7Y9Q9EDQJK8NR19V6JEZ7XK"}, 404, "not_found", ""},
		{"malformed version", map[string]any{"message": "q", "versionId": "nope"}, 404, "not_found", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, h.post(key, chatPath, tc.body), tc.status, tc.code, tc.param)
		})
	}
	// 4000 characters and 50 history items are allowed.
	ok := h.post(key, chatPath, map[string]any{"message": strings.Repeat("é", 4000), "history": history(50)})
	wantStatus(t, ok, http.StatusOK)

	wantError(t, h.post("", chatPath, map[string]any{"message": "q"}), http.StatusUnauthorized, "unauthorized", "")
	wantError(t, h.post(other.Key, chatPath, map[string]any{"message": "q"}), http.StatusNotFound, "not_found", "")
	wantError(t, h.post(key, "/api/v1/jobs/job_01M7Y9Q9EDQJK8NR19V6JEZ7XK/chat", map[string]any{"message": "q"}), http.StatusNotFound, "not_found", "")
	wantError(t, h.get(key, chatPath), http.StatusMethodNotAllowed, "method_not_allowed", "")

	// versionId names the version explicitly; another job's version is 404.
	job := decode[jobJSON](t, h.get(key, "/api/v1/jobs/"+fx.jobID))
	a := decode[chatJSON](t, h.post(key, chatPath, map[string]any{"message": "What are the findings?", "versionId": job.VersionID}))
	if a.VersionID != job.VersionID {
		t.Errorf("answered version %s, want %s", a.VersionID, job.VersionID)
	}
	otherJob := decode[jobJSON](t, h.post(key, "/api/v1/jobs", map[string]any{"name": "second"}))
	wantError(t, h.post(key, "/api/v1/jobs/"+otherJob.JobID+"/chat", map[string]any{"message": "q", "versionId": job.VersionID}),
		http.StatusNotFound, "not_found", "")
	wantError(t, h.post(key, "/api/v1/jobs/"+otherJob.JobID+"/chat", map[string]any{"message": "q"}),
		http.StatusConflict, "scan_not_complete", "")
}
