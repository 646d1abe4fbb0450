package cmd

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// deskFinding is what these tests read of a finding.
type deskFinding struct {
	FindingID     string `json:"findingId"`
	Number        int    `json:"number"`
	Title         string `json:"title"`
	Rationale     string `json:"rationale"`
	Severity      string `json:"severity"`
	GoverningRefs string `json:"governingRefs"`
	Source        string `json:"source"`
	FileID        string `json:"fileId"`
	TemplateID    string `json:"templateId"`
	Sheet         struct {
		Page        int    `json:"page"`
		SheetNumber string `json:"sheetNumber"`
	} `json:"sheet"`
	EvidenceAnchors []struct {
		Page int    `json:"page"`
		Text string `json:"text"`
	} `json:"evidenceAnchors"`
	Disposition struct {
		Status string `json:"status"`
		Note   string `json:"note"`
		Actor  *struct{ ID, Name string }
	} `json:"disposition"`
}

type auditEvent map[string]any

// deskJob scans a corpus sheet set on a fresh server and returns the
// client, job and findings.
func deskJob(t *testing.T, dir string, srv *server) (apiClient, string, []deskFinding) {
	t.Helper()
	pdf, err := os.ReadFile("../../shared/corpus/fsec_pv_permit_sample_generated.pdf")
	if err != nil {
		t.Skip("corpus absent")
	}
	c := apiClient{t: t, base: srv.base, key: issueKey(t, dir, "Springfield").Key}
	mustCLI(t, dir, "partners", "set", "Springfield", "--rate-limit", "100000", "--rate-burst", "100000")
	var job struct{ JobID string }
	if st := c.do("POST", "/api/v1/jobs", map[string]any{"name": "Cocoa PV array", "externalId": "BLD-2026-0042"}, &job); st != 201 {
		t.Fatalf("create job: %d", st)
	}
	reg := c.registerFile(job.JobID, "pv.pdf", len(pdf))
	if st, out := upload(t, reg.UploadURL, bytes.NewReader(pdf), int64(len(pdf))); st != 200 {
		t.Fatalf("upload: %d %v", st, out)
	}
	if st := c.do("POST", "/api/v1/jobs/"+job.JobID+"/scan", nil, nil); st != 200 {
		t.Fatalf("scan: %d", st)
	}
	// Before the scan finished: 409, never a change.
	st := c.do("PATCH", "/api/v1/jobs/"+job.JobID+"/findings/fnd_01JD0000000000000000000000",
		map[string]any{"status": "accepted", "actor": map[string]string{"id": "u1", "name": "Ann"}}, nil)
	if s := c.state(job.JobID); s.Status != "complete" && st != 409 {
		t.Errorf("PATCH before the scan finished: %d, want 409", st)
	}
	if s := c.waitTerminal(job.JobID, 3*time.Minute); s.Status != "complete" {
		t.Fatalf("scan: %+v", s)
	}
	var body struct{ Findings []deskFinding }
	if st := c.do("GET", "/api/v1/jobs/"+job.JobID+"/findings", nil, &body); st != 200 {
		t.Fatalf("findings: %d", st)
	}
	if len(body.Findings) < 4 {
		t.Fatalf("want at least 4 findings of the PV set, got %d", len(body.Findings))
	}
	for _, f := range body.Findings {
		if f.Disposition.Status != "open" || f.Disposition.Actor != nil {
			t.Fatalf("fresh finding %s: disposition %+v", f.FindingID, f.Disposition)
		}
	}
	return c, job.JobID, body.Findings
}

// rawDo sends a request and returns status and body whatever the status.
func rawDo(t *testing.T, method, url string, body any, header ...string) (int, []byte, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, url, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw, resp.Header
}

func errorCode(raw []byte) string {
	var e struct{ Error struct{ Code, Param string } }
	_ = json.Unmarshal(raw, &e)
	return e.Error.Code
}

// TestExaminerDeskOverHTTP drives the examiner's desk like a partner: accept,
// dismiss with a reason, edit text, a standard comment placed on a sheet,
// the letter in both formats checked by its text, CSV and marked-up copy,
// cross-partner 404s, a viewer link refused, the audit chain recomputed by
// the client and by `audit verify`, kept through backup and restore, and
// broken by an offline edit of the database.
func TestExaminerDeskOverHTTP(t *testing.T) {
	dir := newDataDir(t)
	srv := startServer(t, dir)
	c, jobID, findings := deskJob(t, dir, srv)
	other := apiClient{t: t, base: srv.base, key: issueKey(t, dir, "Shelbyville").Key}
	ann := map[string]string{"id": "u-17", "name": "Ann Examiner"}
	jobPath := "/api/v1/jobs/" + jobID

	byTitle := map[string]int{}
	for _, f := range findings {
		byTitle[f.Title]++
	}
	// Pick: the one to dismiss has a title no other finding shares, so its
	// absence from the letter is telling.
	var accept, dismiss, edit, open deskFinding
	for _, f := range findings {
		switch {
		case dismiss.FindingID == "" && byTitle[f.Title] == 1 && f.Severity == "low":
			dismiss = f
		case accept.FindingID == "" && f.Sheet.Page == 1 && len(f.EvidenceAnchors) > 0:
			accept = f
		case edit.FindingID == "" && f.Severity == "medium":
			edit = f
		default:
			open = f
		}
	}
	if accept.FindingID == "" || dismiss.FindingID == "" || edit.FindingID == "" || open.FindingID == "" {
		t.Fatalf("the PV set's findings changed; cannot pick roles from %+v", findings)
	}

	// Malformed requests get the contract's codes.
	for _, tc := range []struct {
		body       any
		code, parm string
	}{
		{map[string]any{"status": "accepted"}, "invalid_request", "actor"},
		{map[string]any{"actor": ann}, "invalid_request", ""},
		{map[string]any{"status": "dismissed", "actor": ann}, "invalid_request", "note"},
		{map[string]any{"status": "done", "actor": ann}, "invalid_request", "status"},
		{map[string]any{"severity": "urgent", "actor": ann}, "invalid_request", "severity"},
		{map[string]any{"status": "accepted", "actor": ann, "colour": "red"}, "invalid_request", "colour"},
		{map[string]any{"status": "accepted", "actor": map[string]string{"id": "", "name": "x"}}, "invalid_request", "actor.id"},
	} {
		st, raw, _ := rawDo(t, "PATCH", srv.base+jobPath+"/findings/"+accept.FindingID, tc.body, "Authorization", "Bearer "+c.key)
		var e struct{ Error struct{ Code, Param string } }
		_ = json.Unmarshal(raw, &e)
		if st != 400 || e.Error.Code != tc.code || e.Error.Param != tc.parm {
			t.Errorf("PATCH %v: %d %s", tc.body, st, raw)
		}
	}
	if st, raw, _ := rawDo(t, "PATCH", srv.base+jobPath+"/findings/fnd_01JD0000000000000000000000",
		map[string]any{"status": "accepted", "actor": ann}, "Authorization", "Bearer "+c.key); st != 404 || errorCode(raw) != "not_found" {
		t.Errorf("PATCH an unknown finding: %d %s", st, raw)
	}

	var got deskFinding
	if st := c.do("PATCH", jobPath+"/findings/"+accept.FindingID, map[string]any{"status": "accepted", "actor": ann}, &got); st != 200 {
		t.Fatalf("accept: %d", st)
	}
	if got.Disposition.Status != "accepted" || got.Disposition.Actor == nil || got.Disposition.Actor.Name != "Ann Examiner" {
		t.Errorf("accepted finding: %+v", got.Disposition)
	}
	// The same PATCH again changes nothing and records nothing.
	c.do("PATCH", jobPath+"/findings/"+accept.FindingID, map[string]any{"status": "accepted", "actor": ann}, nil)
	const reason = "Shown on sheet E-1 already"
	if st := c.do("PATCH", jobPath+"/findings/"+dismiss.FindingID, map[string]any{"status": "dismissed", "note": reason, "actor": ann}, &got); st != 200 || got.Disposition.Note != reason {
		t.Fatalf("dismiss: %d %+v", st, got.Disposition)
	}
	const editedTitle = "Fill in the inverter schedule"
	if st := c.do("PATCH", jobPath+"/findings/"+edit.FindingID, map[string]any{"title": editedTitle, "severity": "high", "actor": ann}, &got); st != 200 || got.Title != editedTitle || got.Severity != "high" {
		t.Fatalf("edit: %d %+v", st, got)
	}
	if st := c.do("PATCH", jobPath+"/findings/"+edit.FindingID, map[string]any{"status": "accepted", "actor": ann}, nil); st != 200 {
		t.Fatalf("accept the edited finding: %d", st)
	}

	// A standard comment, placed on page 2 by a drawn box.
	var tpl struct{ TemplateID, Title, Text string }
	tplBody := map[string]any{"title": "Provide rapid shutdown labeling", "text": "Show the rapid shutdown placard and its location at the service equipment.",
		"governingRefs": "NEC 2020 690.56(C)", "severity": "medium"}
	if st := c.do("POST", "/api/v1/comment-templates", tplBody, &tpl, "Idempotency-Key", "tpl-1"); st != 201 || !strings.HasPrefix(tpl.TemplateID, "tpl_") {
		t.Fatalf("create template: %d %+v", st, tpl)
	}
	var again struct{ TemplateID string }
	c.do("POST", "/api/v1/comment-templates", tplBody, &again, "Idempotency-Key", "tpl-1")
	if again.TemplateID != tpl.TemplateID {
		t.Errorf("a repeated keyed POST made template %s, first %s", again.TemplateID, tpl.TemplateID)
	}
	comment := map[string]any{"fileId": accept.FileID, "page": 2, "templateId": tpl.TemplateID, "actor": ann,
		"bbox": map[string]float64{"left": 0.1, "top": 0.1, "width": 0.5, "height": 0.3}}
	var added deskFinding
	if st := c.do("POST", jobPath+"/findings", comment, &added, "Idempotency-Key", "comment-1"); st != 201 {
		t.Fatalf("add comment: %d", st)
	}
	if added.Source != "examiner" || added.Disposition.Status != "accepted" || added.Title != tpl.Title || added.TemplateID != tpl.TemplateID ||
		added.GoverningRefs != "NEC 2020 690.56(C)" || len(added.EvidenceAnchors) != 1 || added.Sheet.Page != 2 {
		t.Errorf("examiner comment: %+v", added)
	}
	var replay deskFinding
	c.do("POST", jobPath+"/findings", comment, &replay, "Idempotency-Key", "comment-1")
	if replay.FindingID != added.FindingID {
		t.Errorf("a repeated keyed comment made %s, first %s", replay.FindingID, added.FindingID)
	}
	comment["page"] = 99
	if st, raw, _ := rawDo(t, "POST", srv.base+jobPath+"/findings", comment, "Authorization", "Bearer "+c.key); st != 400 || !strings.Contains(string(raw), `"param":"page"`) {
		t.Errorf("comment on page 99: %d %s", st, raw)
	}

	// The findings list carries it all.
	var list struct{ Findings []deskFinding }
	c.do("GET", jobPath+"/findings", nil, &list)
	state := map[string]deskFinding{}
	for _, f := range list.Findings {
		state[f.FindingID] = f
	}
	if len(list.Findings) != len(findings)+1 || state[dismiss.FindingID].Disposition.Status != "dismissed" || state[added.FindingID].Source != "examiner" {
		t.Fatalf("findings after the desk: %+v", list.Findings)
	}

	// Another partner sees none of it.
	for _, rq := range []struct{ method, path string }{
		{"PATCH", jobPath + "/findings/" + accept.FindingID}, {"POST", jobPath + "/findings"}, {"GET", jobPath + "/audit"},
		{"GET", jobPath + "/letter"}, {"DELETE", "/api/v1/comment-templates/" + tpl.TemplateID},
	} {
		st, raw, _ := rawDo(t, rq.method, srv.base+rq.path, map[string]any{"status": "open", "actor": ann}, "Authorization", "Bearer "+other.key)
		if rq.method == "GET" || rq.method == "DELETE" {
			st, raw, _ = rawDo(t, rq.method, srv.base+rq.path, nil, "Authorization", "Bearer "+other.key)
		}
		if st != 404 || errorCode(raw) != "not_found" {
			t.Errorf("%s %s by another partner: %d %s", rq.method, rq.path, st, raw)
		}
	}
	var theirs struct{ Templates []any }
	other.do("GET", "/api/v1/comment-templates", nil, &theirs)
	if len(theirs.Templates) != 0 {
		t.Errorf("another partner lists %d templates", len(theirs.Templates))
	}

	// Embed links: a viewer's write is refused; an examiner acts as the
	// person the link names.
	var viewer, examiner struct{ URL string }
	c.do("POST", "/api/v1/embed", map[string]any{"screen": "job", "jobId": jobID}, &viewer)
	if st := c.do("POST", "/api/v1/embed", map[string]any{"screen": "job", "jobId": jobID, "role": "examiner"}, nil); st != 400 {
		t.Errorf("examiner link without actor: %d", st)
	}
	c.do("POST", "/api/v1/embed", map[string]any{"screen": "job", "jobId": jobID, "role": "examiner",
		"actor": map[string]string{"id": "u-18", "name": "Bo Checker"}}, &examiner)
	tokenOf := func(u string) string { return u[strings.Index(u, "?t=")+3:] }
	embedPatch := srv.base + "/embed/api/jobs/" + jobID + "/findings/" + open.FindingID
	if st, raw, _ := rawDo(t, "PATCH", embedPatch, map[string]any{"status": "accepted"}, "X-Embed-Token", tokenOf(viewer.URL)); st != 403 {
		t.Errorf("viewer link PATCH: %d %s", st, raw)
	}
	if st, raw, _ := rawDo(t, "POST", srv.base+"/embed/api/jobs/"+jobID+"/findings", map[string]any{"fileId": accept.FileID, "page": 1,
		"title": "x", "rationale": "y", "severity": "low"}, "X-Embed-Token", tokenOf(viewer.URL)); st != 403 {
		t.Errorf("viewer link POST comment: %d %s", st, raw)
	}
	st, raw, _ := rawDo(t, "PATCH", embedPatch, map[string]any{"note": "Checking with the fire marshal"}, "X-Embed-Token", tokenOf(examiner.URL))
	if st != 200 || !strings.Contains(string(raw), `"name":"Bo Checker"`) || !strings.Contains(string(raw), `"status":"open"`) {
		t.Errorf("examiner link PATCH: %d %s", st, raw)
	}

	// The audit trail: append-only, oldest first, chained; the client can
	// recompute every hash; the edit keeps the engine's text.
	var trail struct {
		Events     []json.RawMessage
		NextCursor *string
	}
	c.do("GET", jobPath+"/audit", nil, &trail)
	if len(trail.Events) != 6 || trail.NextCursor != nil {
		t.Fatalf("audit: %d events (cursor %v), want 6: accept, dismiss, edit, accept, comment, note", len(trail.Events), trail.NextCursor)
	}
	prev := strings.Repeat("0", 64)
	var dismissEvent string
	for i, raw := range trail.Events {
		var ev map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&ev); err != nil {
			t.Fatal(err)
		}
		hash := ev["hash"].(string)
		delete(ev, "hash")
		var canon bytes.Buffer
		enc := json.NewEncoder(&canon)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(ev) // maps encode with sorted keys
		sum := sha256.Sum256(append([]byte(prev), bytes.TrimSuffix(canon.Bytes(), []byte("\n"))...))
		if ev["prevHash"] != prev || hex.EncodeToString(sum[:]) != hash {
			t.Errorf("event %d does not chain: %s", i, raw)
		}
		prev = hash
		if ev["action"] == "finding.dismissed" {
			dismissEvent = ev["eventId"].(string)
		}
		if ev["action"] == "finding.edited" && ev["findingId"] == edit.FindingID {
			before := ev["before"].(map[string]any)
			if before["title"] != edit.Title || ev["after"].(map[string]any)["title"] != editedTitle {
				t.Errorf("edit event does not keep the engine's title %q: %s", edit.Title, raw)
			}
		}
	}
	var one struct{ Events []auditEvent }
	c.do("GET", jobPath+"/audit?findingId="+edit.FindingID, nil, &one)
	if len(one.Events) != 2 {
		t.Errorf("audit of one finding: %d events, want 2", len(one.Events))
	}
	var paged struct {
		Events     []auditEvent
		NextCursor *string
	}
	c.do("GET", jobPath+"/audit?limit=4", nil, &paged)
	if len(paged.Events) != 4 || paged.NextCursor == nil {
		t.Errorf("first page: %d events, cursor %v", len(paged.Events), paged.NextCursor)
	} else {
		c.do("GET", jobPath+"/audit?limit=4&cursor="+*paged.NextCursor, nil, &paged)
		if len(paged.Events) != 2 || paged.NextCursor != nil {
			t.Errorf("second page: %d events, cursor %v", len(paged.Events), paged.NextCursor)
		}
	}

	// The letter: accepted and examiner items numbered by sheet in set
	// order, the dismissed one absent, the open one apart.
	st, pdf, hdr := rawDo(t, "GET", srv.base+jobPath+"/letter", nil, "Authorization", "Bearer "+c.key)
	if st != 200 || hdr.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("letter PDF: %d %s", st, hdr.Get("Content-Type"))
	}
	text := pdfText(t, pdf)
	for _, want := range []string{"Plan check correction letter", "Cocoa PV array", "BLD-2026-0042", "Review round: 1",
		"Corrections (3)", accept.Title, editedTitle, tpl.Title, "NEC 2020 690.56(C)", "Not yet decided", open.Title} {
		if !strings.Contains(text, want) {
			t.Errorf("letter PDF lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, dismiss.Title) {
		t.Errorf("letter PDF shows the dismissed finding %q", dismiss.Title)
	}
	corrections := text[strings.Index(text, "Corrections (3)"):strings.Index(text, "Not yet decided")]
	if strings.Contains(corrections, open.Title) {
		t.Errorf("the open finding is among the corrections")
	}
	// Sheet order: page 1 (accepted), page 2 (the comment), page 3 (edited).
	at := func(s string) int { return strings.Index(corrections, s) }
	if !(at("1. "+accept.Title) >= 0 && at("1. "+accept.Title) < at("2. "+tpl.Title) && at("2. "+tpl.Title) < at("3. "+editedTitle)) {
		t.Errorf("letter numbering or set order wrong (pages %d, 2, %d):\n%s", accept.Sheet.Page, edit.Sheet.Page, corrections)
	}

	st, docx, hdr := rawDo(t, "GET", srv.base+jobPath+"/letter?format=docx", nil, "Authorization", "Bearer "+c.key)
	if st != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/vnd.openxmlformats-officedocument.wordprocessingml.document") {
		t.Fatalf("letter DOCX: %d %s", st, hdr.Get("Content-Type"))
	}
	paras := docxParagraphs(t, docx)
	var items, headings []string
	for _, p := range paras {
		switch p.style {
		case "CorrectionItem":
			items = append(items, p.text)
		case "Heading2":
			headings = append(headings, p.text)
		}
	}
	if len(items) != 3 || !strings.HasPrefix(items[0], "1.") || !strings.Contains(items[0], accept.Title) ||
		!strings.HasPrefix(items[1], "2.") || !strings.Contains(items[1], tpl.Title) || !strings.HasPrefix(items[2], "3.") || !strings.Contains(items[2], editedTitle) {
		t.Errorf("DOCX items: %q", items)
	}
	if len(headings) != 3 {
		t.Errorf("DOCX sheet headings: %q", headings)
	}
	if strings.Contains(string(docxAll(paras)), dismiss.Title) {
		t.Errorf("DOCX shows the dismissed finding")
	}
	libreOfficeOpens(t, docx)
	if st, raw, _ := rawDo(t, "GET", srv.base+jobPath+"/letter?format=odt", nil, "Authorization", "Bearer "+c.key); st != 400 || errorCode(raw) != "invalid_request" {
		t.Errorf("letter format odt: %d %s", st, raw)
	}

	// CSV: every finding, with its disposition.
	st, csvBody, _ := rawDo(t, "GET", srv.base+jobPath+"/export/csv", nil, "Authorization", "Bearer "+c.key)
	if st != 200 || !strings.Contains(string(csvBody), added.FindingID) || !strings.Contains(string(csvBody), "dismissed,"+reason) {
		t.Errorf("CSV: %d\n%s", st, csvBody)
	}

	// The marked-up copy is drawn again: the comment on, the dismissed off.
	var link struct{ URL string }
	c.do("GET", jobPath+"/files/"+accept.FileID+"/annotated", nil, &link)
	st, marked, _ := rawDo(t, "GET", link.URL, nil)
	if st != 200 || !bytes.Contains(marked, []byte(added.FindingID)) || bytes.Contains(marked, []byte(dismiss.FindingID)) {
		t.Errorf("marked-up copy: status %d, comment %v, dismissed %v", st,
			bytes.Contains(marked, []byte(added.FindingID)), bytes.Contains(marked, []byte(dismiss.FindingID)))
	}

	// Templates: listed, deleted, gone.
	var mine struct{ Templates []struct{ TemplateID string } }
	c.do("GET", "/api/v1/comment-templates", nil, &mine)
	if len(mine.Templates) != 1 {
		t.Errorf("templates: %+v", mine)
	}
	if st := c.do("DELETE", "/api/v1/comment-templates/"+tpl.TemplateID, nil, nil); st != 204 {
		t.Errorf("delete template: %d", st)
	}
	if st := c.do("DELETE", "/api/v1/comment-templates/"+tpl.TemplateID, nil, nil); st != 404 {
		t.Errorf("delete it again: %d", st)
	}

	// audit verify through the running server, through a backup and
	// restore, and after an offline edit of the database.
	if res := mustCLI(t, dir, "audit", "verify", jobID); !strings.Contains(res.stdout, "verified: 6 events") {
		t.Errorf("audit verify: %s", res.stdout)
	}
	archive := filepath.Join(t.TempDir(), "backup.tar")
	mustCLI(t, dir, "backup", archive)
	restored := newDataDir(t)
	os.Remove(restored)
	mustCLI(t, "", "restore", archive, "--data-dir", restored)
	if res := mustCLI(t, restored, "audit", "verify", jobID); !strings.Contains(res.stdout, "verified: 6 events") {
		t.Errorf("audit verify after restore: %s", res.stdout)
	}
	srv.signal(15)
	srv.wait(30 * time.Second)
	db := filepath.Join(dir, "planreview.db")
	raw, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	forged := "Shown on sheet E-2 already"
	if n := bytes.Count(raw, []byte(reason)); n == 0 {
		t.Fatal("the dismissal note is not in the database file")
	}
	// Edit the audit record only: in the event's "after" the note is
	// followed by the title (in the finding's disposition, by the actor).
	raw = bytes.ReplaceAll(raw, []byte(`"note":"`+reason+`","title"`), []byte(`"note":"`+forged+`","title"`))
	if err := os.WriteFile(db, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	res := runCLI(t, dir, "audit", "verify", jobID)
	if res.code != 1 || !strings.Contains(res.stderr, dismissEvent) {
		t.Errorf("audit verify of an edited chain: exit %d, want 1 naming %s\nstdout %s\nstderr %s", res.code, dismissEvent, res.stdout, res.stderr)
	}
}

// pdfText is a PDF's words as the appliance's own extractor reads them,
// page after page, lines joined by newlines.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "letter.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	doc, err := pdftext.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("the letter is not a readable PDF: %v", err)
	}
	defer doc.Close()
	var b strings.Builder
	for p := range doc.Pages(context.Background()) {
		lp := layout.AnalyzeLines(p)
		for _, li := range lp.ReadingOrder() {
			for i, wi := range lp.Lines[li].Words {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(p.Words[wi].Text)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

type docxPara struct{ style, text string }

// docxParagraphs checks the package's structure (content types, the main
// part, styles) and returns its paragraphs with their styles.
func docxParagraphs(t *testing.T, docx []byte) []docxPara {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatalf("DOCX is not a zip: %v", err)
	}
	parts := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		parts[f.Name], _ = io.ReadAll(rc)
		rc.Close()
	}
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/styles.xml", "word/_rels/document.xml.rels", "docProps/core.xml"} {
		if parts[name] == nil {
			t.Fatalf("DOCX lacks %s", name)
		}
		var v any
		if err := xml.Unmarshal(parts[name], &v); err != nil && err != io.EOF {
			t.Fatalf("DOCX %s is not well-formed XML: %v", name, err)
		}
	}
	if !bytes.Contains(parts["[Content_Types].xml"], []byte("wordprocessingml.document.main+xml")) {
		t.Fatal("DOCX content types do not name the main document")
	}
	var doc struct {
		Body struct {
			Paras []struct {
				Style struct {
					Val string `xml:"val,attr"`
				} `xml:"pPr>pStyle"`
				Runs []struct {
					Text []string `xml:"t"`
				} `xml:"r"`
			} `xml:"p"`
		} `xml:"body"`
	}
	if err := xml.Unmarshal(parts["word/document.xml"], &doc); err != nil {
		t.Fatal(err)
	}
	var out []docxPara
	for _, p := range doc.Body.Paras {
		var b strings.Builder
		for _, r := range p.Runs {
			b.WriteString(strings.Join(r.Text, "\n"))
		}
		out = append(out, docxPara{style: p.Style.Val, text: b.String()})
	}
	return out
}

func docxAll(paras []docxPara) string {
	var b strings.Builder
	for _, p := range paras {
		b.WriteString(p.text + "\n")
	}
	return b.String()
}

// libreOfficeOpens converts the DOCX to PDF with LibreOffice when it is
// installed: the check that an office suite opens what the appliance writes.
func libreOfficeOpens(t *testing.T, docx []byte) {
	t.Helper()
	office, err := exec.LookPath("soffice")
	if err != nil {
		if office, err = exec.LookPath("libreoffice"); err != nil {
			t.Log("LibreOffice not installed: DOCX checked for structure only")
			return
		}
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "letter.docx")
	if err := os.WriteFile(in, docx, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, office, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--convert-to", "pdf", "--outdir", dir, in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("LibreOffice could not convert the DOCX: %v\n%s", err, out)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "letter.pdf"))
	if err != nil {
		t.Fatalf("LibreOffice made no PDF: %s", out)
	}
	if text := pdfText(t, pdf); !strings.Contains(text, "Plan check correction letter") {
		t.Errorf("LibreOffice's rendering lacks the title:\n%s", text)
	}
}

// TestDeskSurvivesSIGKILL: examiners PATCH findings concurrently while the
// server is killed; after a restart every acknowledged change is in the
// audit trail and the chain verifies.
func TestDeskSurvivesSIGKILL(t *testing.T) {
	dir := newDataDir(t)
	srv := startServer(t, dir)
	c, jobID, findings := deskJob(t, dir, srv)
	var mu sync.Mutex
	var acked []string
	stop := make(chan struct{})
	var wg sync.WaitGroup
	client := &http.Client{Timeout: 5 * time.Second}
	for g := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				f := findings[(g+i)%len(findings)]
				note := fmt.Sprintf("examiner %d change %d", g, i)
				body, _ := json.Marshal(map[string]any{"note": note, "actor": map[string]string{"id": fmt.Sprint("u", g), "name": "Examiner"}})
				req, _ := http.NewRequest("PATCH", srv.base+"/api/v1/jobs/"+jobID+"/findings/"+f.FindingID, bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+c.key)
				req.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					return // the server is gone
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 {
					mu.Lock()
					acked = append(acked, note)
					mu.Unlock()
				}
			}
		})
	}
	time.Sleep(1500 * time.Millisecond)
	srv.kill()
	close(stop)
	wg.Wait()
	if len(acked) < 10 {
		t.Fatalf("only %d changes acknowledged before the kill", len(acked))
	}
	srv = startServer(t, dir)
	c.base = srv.base
	notes := map[string]bool{}
	cursor := ""
	for {
		var page struct {
			Events []struct {
				After struct{ Note string }
			}
			NextCursor *string
		}
		if st := c.do("GET", "/api/v1/jobs/"+jobID+"/audit?limit=500"+cursor, nil, &page); st != 200 {
			t.Fatalf("audit: %d", st)
		}
		for _, ev := range page.Events {
			notes[ev.After.Note] = true
		}
		if page.NextCursor == nil {
			break
		}
		cursor = "&cursor=" + *page.NextCursor
	}
	for _, n := range acked {
		if !notes[n] {
			t.Errorf("acknowledged change %q lost", n)
		}
	}
	res := mustCLI(t, dir, "audit", "verify", jobID)
	if !regexp.MustCompile(`verified: \d+ events`).MatchString(res.stdout) {
		t.Errorf("audit verify: %s", res.stdout)
	}
	t.Logf("%d changes acknowledged before SIGKILL, %d events after restart", len(acked), len(notes))
}
