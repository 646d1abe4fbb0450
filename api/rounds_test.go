package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"html"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"planreview/api"
	"planreview/scan"
)

type roundFindingJSON struct {
	FindingID string `json:"findingId"`
	FileID    string `json:"fileId"`
	Title     string `json:"title"`
	RuleID    string `json:"ruleId"`
	Source    string `json:"source"`
	Sheet     struct {
		Page        int    `json:"page"`
		SheetNumber string `json:"sheetNumber"`
	} `json:"sheet"`
	EvidenceAnchors []struct {
		Text string `json:"text"`
	} `json:"evidenceAnchors"`
	Disposition struct {
		Status string `json:"status"`
	} `json:"disposition"`
	Round *struct {
		Status            string  `json:"status"`
		PreviousFindingID *string `json:"previousFindingId"`
		PreviousVersionID *string `json:"previousVersionId"`
	} `json:"round"`
}

func (f roundFindingJSON) evidence() string {
	var parts []string
	for _, a := range f.EvidenceAnchors {
		parts = append(parts, a.Text)
	}
	return strings.ToUpper(strings.Join(strings.Fields(strings.Join(parts, " ")), " "))
}

type compareSheetJSON struct {
	SheetNumber *string `json:"sheetNumber"`
	Page        int     `json:"page"`
	Previous    *struct {
		SheetNumber *string `json:"sheetNumber"`
		Page        int     `json:"page"`
	} `json:"previous"`
	Renumbered bool     `json:"renumbered"`
	Reasons    []string `json:"reasons"`
	Changes    []struct {
		Kind string `json:"kind"`
	} `json:"changes"`
}

type compareJSON struct {
	From, To  *string
	FromRound *int `json:"fromRound"`
	ToRound   int  `json:"toRound"`
	Findings  struct {
		New, Persisting, Resolved []roundFindingJSON
	}
	Sheets struct {
		Added, Removed, Revised, Unchanged []compareSheetJSON
	}
}

func sheetNumbers(sheets []compareSheetJSON) []string {
	var out []string
	for _, s := range sheets {
		if s.SheetNumber != nil {
			out = append(out, *s.SheetNumber)
		}
	}
	slices.Sort(out)
	return out
}

// scanRunner runs the real scan pipeline on the harness's data while the
// test runs.
func scanRunner(t *testing.T, h *harness) *scan.Runner {
	t.Helper()
	pipeline, err := scan.NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	runner := &scan.Runner{Store: h.db, Blobs: h.blobs, Pipeline: pipeline, Workers: 1, Timeout: 2 * time.Minute,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { runner.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return runner
}

// submitRound registers and uploads one PDF into the job's open version
// (opening the next one after a scan) and starts its scan; it returns the
// version id.
func submitRound(t *testing.T, h *harness, p partner, jobID, name string, pdf []byte) string {
	t.Helper()
	reg := h.registerFile(p, jobID, name, len(pdf))
	wantStatus(t, h.upload(reg.UploadURL, pdf, nil), http.StatusOK)
	wantStatus(t, h.post(p.Key, "/api/v1/jobs/"+jobID+"/scan", nil), http.StatusOK)
	return reg.VersionID
}

func waitComplete(t *testing.T, h *harness, runner *scan.Runner, p partner, jobID, versionID string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		job := decode[jobJSON](t, h.get(p.Key, "/api/v1/jobs/"+jobID))
		for _, v := range job.Versions {
			if v.VersionID == versionID && (v.Status == "complete" || v.Status == "failed") {
				if v.Status == "failed" {
					t.Fatalf("scan of %s failed: %s", versionID, job.Pipeline.Error)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("scan of %s still %s", versionID, job.Status)
		}
		runner.Wake()
		time.Sleep(20 * time.Millisecond)
	}
}

func findingsOf(t *testing.T, h *harness, p partner, jobID, versionID string) []roundFindingJSON {
	t.Helper()
	r := h.get(p.Key, "/api/v1/jobs/"+jobID+"/findings?versionId="+versionID)
	wantStatus(t, r, http.StatusOK)
	return decode[struct{ Findings []roundFindingJSON }](t, r).Findings
}

// TestResubmittalRounds sends a real corpus set as round 1 and five
// revised sets as round 2 of five jobs, and checks over HTTP what compare
// and each finding's round say.
func TestResubmittalRounds(t *testing.T) {
	const name = "fsec_pv_permit_sample_generated.pdf" // G-001, G-002, W-001, W-002, W-003
	original := corpusPDF(t, name)
	inserted := corpusPDF(t, "au_7_flett_rd_structural_S2.01.pdf")
	h := newHarness(t)
	p := h.newPartner("rounds")
	runner := scanRunner(t, h)

	type variant struct {
		name  string
		pdf   []byte
		check func(t *testing.T, round1 []roundFindingJSON, c compareJSON)
	}
	allPersist := func(t *testing.T, round1 []roundFindingJSON, c compareJSON) {
		t.Helper()
		if len(c.Findings.Resolved) != 0 {
			t.Errorf("resolved %v, want none: nothing the round-1 findings stand on changed", ruleIDs(c.Findings.Resolved))
		}
		engine := 0
		for _, f := range c.Findings.Persisting {
			if f.Source != "examiner" {
				engine++
			}
		}
		if engine != len(round1) {
			t.Errorf("%d persisting, want all %d of round 1", engine, len(round1))
		}
	}
	variants := []variant{
		{"removed", collectPages(t, original, 1, 2, 3, 5), func(t *testing.T, round1 []roundFindingJSON, c compareJSON) {
			allPersist(t, round1, c)
			if got := sheetNumbers(c.Sheets.Removed); !slices.Equal(got, []string{"W-002"}) {
				t.Errorf("removed %v, want [W-002]", got)
			}
			if len(c.Sheets.Added) != 0 || len(c.Sheets.Revised) != 0 {
				t.Errorf("added %v revised %v, want none", sheetNumbers(c.Sheets.Added), sheetNumbers(c.Sheets.Revised))
			}
		}},
		{"corrected", replaceText(t, original, 3, "?", ""), func(t *testing.T, round1 []roundFindingJSON, c compareJSON) {
			if len(c.Findings.Resolved) != 1 || c.Findings.Resolved[0].RuleID != "completeness-unfinished-text" {
				t.Fatalf("resolved %v, want the unfinished note on W-001", ruleIDs(c.Findings.Resolved))
			}
			if len(c.Findings.Persisting) != len(round1)-1 || len(c.Findings.New) != 0 {
				t.Errorf("persisting %d new %v, want %d and none", len(c.Findings.Persisting), ruleIDs(c.Findings.New), len(round1)-1)
			}
			if got := sheetNumbers(c.Sheets.Revised); !slices.Equal(got, []string{"W-001"}) {
				t.Fatalf("revised %v, want [W-001]", got)
			}
			rev := c.Sheets.Revised[0]
			if !slices.Contains(rev.Reasons, "words") || len(rev.Changes) == 0 || rev.Changes[0].Kind != "removed" {
				t.Errorf("W-001 revised because %v with changes %v, want its removed words", rev.Reasons, rev.Changes)
			}
			if len(c.Sheets.Unchanged) != 4 {
				t.Errorf("unchanged %v, want the other four sheets", sheetNumbers(c.Sheets.Unchanged))
			}
		}},
		{"reordered", collectPages(t, original, 5, 4, 3, 2, 1), func(t *testing.T, round1 []roundFindingJSON, c compareJSON) {
			allPersist(t, round1, c)
			if len(c.Findings.New) != 0 {
				t.Errorf("new %v, want none", ruleIDs(c.Findings.New))
			}
			if len(c.Sheets.Unchanged) != 5 || len(c.Sheets.Added)+len(c.Sheets.Removed)+len(c.Sheets.Revised) != 0 {
				t.Errorf("sheets %+v, want all five unchanged", c.Sheets)
			}
			for _, s := range c.Sheets.Unchanged {
				if s.Previous == nil || s.Previous.Page != 6-s.Page {
					t.Errorf("sheet %v on page %d: previous %+v, want page %d", *s.SheetNumber, s.Page, s.Previous, 6-s.Page)
				}
			}
		}},
		{"inserted", mergePDFs(t, collectPages(t, original, 1, 2), inserted, collectPages(t, original, 3, 4, 5)), func(t *testing.T, round1 []roundFindingJSON, c compareJSON) {
			allPersist(t, round1, c)
			if got := sheetNumbers(c.Sheets.Added); !slices.Equal(got, []string{"S2.01"}) {
				t.Errorf("added %v, want [S2.01]", got)
			}
			if len(c.Sheets.Unchanged) != 5 {
				t.Errorf("unchanged %v, want the five sheets of round 1", sheetNumbers(c.Sheets.Unchanged))
			}
		}},
		{"renumbered", replaceText(t, original, 3, "W-001", "W-010"), func(t *testing.T, round1 []roundFindingJSON, c compareJSON) {
			allPersist(t, round1, c)
			var renumbered *compareSheetJSON
			for i, s := range c.Sheets.Revised {
				if s.Renumbered {
					renumbered = &c.Sheets.Revised[i]
				}
			}
			if renumbered == nil || *renumbered.SheetNumber != "W-010" || *renumbered.Previous.SheetNumber != "W-001" {
				t.Fatalf("revised %+v, want W-010 renumbered from W-001", c.Sheets.Revised)
			}
			if len(c.Sheets.Added)+len(c.Sheets.Removed) != 0 {
				t.Errorf("added %v removed %v, want none", sheetNumbers(c.Sheets.Added), sheetNumbers(c.Sheets.Removed))
			}
			for _, f := range c.Findings.Persisting {
				if f.Sheet.Page == 3 && f.Sheet.SheetNumber != "W-010" {
					t.Errorf("persisting finding %s on page 3 names sheet %q, want W-010", f.RuleID, f.Sheet.SheetNumber)
				}
			}
		}},
	}

	type job struct {
		id, v1, v2 string
		round1     []roundFindingJSON
	}
	jobs := make([]job, len(variants))
	for i, v := range variants {
		j := h.createJob(p, map[string]any{"name": "rounds " + v.name})
		jobs[i] = job{id: j.JobID, v1: submitRound(t, h, p, j.JobID, name, original)}
	}
	for i := range jobs {
		waitComplete(t, h, runner, p, jobs[i].id, jobs[i].v1)
		jobs[i].round1 = findingsOf(t, h, p, jobs[i].id, jobs[i].v1)
		if len(jobs[i].round1) < 3 {
			t.Fatalf("round 1 has %d findings; the test needs the corpus set's findings", len(jobs[i].round1))
		}
		for _, f := range jobs[i].round1 {
			if f.Round != nil {
				t.Errorf("round-1 finding %s has round %+v, want none", f.FindingID, f.Round)
			}
		}
		// An examiner accepts every finding; a persisting one carries it.
		for _, f := range jobs[i].round1 {
			wantStatus(t, h.send(req{Method: http.MethodPatch, Path: "/api/v1/jobs/" + jobs[i].id + "/findings/" + f.FindingID, Key: p.Key,
				Body: []byte(`{"status":"accepted","actor":{"id":"u1","name":"Ann Examiner"}}`), Header: map[string]string{"Content-Type": "application/json"}}), http.StatusOK)
		}
	}

	// An examiner's comment on W-001 in round 1 stands on W-001 in round 2,
	// wherever the sheet went (the inserted sheet moves it to page 4).
	insertedJob := &jobs[3]
	var w001 string
	for _, f := range insertedJob.round1 {
		if f.Sheet.SheetNumber == "W-001" {
			w001 = f.FileID
		}
	}
	comment := decode[roundFindingJSON](t, h.post(p.Key, "/api/v1/jobs/"+insertedJob.id+"/findings", map[string]any{
		"fileId": w001, "page": 3, "bbox": map[string]any{"left": 0.1, "top": 0.2, "width": 0.2, "height": 0.1},
		"title": "Label the grounding electrode conductor", "rationale": "Give its size and material.", "severity": "medium",
		"actor": map[string]any{"id": "u1", "name": "Ann Examiner"}}))

	// Registering the next round's file leaves round 1 readable: the job
	// names it as the last completed version.
	for i, v := range variants {
		jobs[i].v2 = submitRound(t, h, p, jobs[i].id, "revised-"+v.name+".pdf", v.pdf)
		jb := decode[struct {
			VersionID              string  `json:"versionId"`
			LastCompletedVersionID *string `json:"lastCompletedVersionId"`
		}](t, h.get(p.Key, "/api/v1/jobs/"+jobs[i].id))
		if jb.VersionID != jobs[i].v2 || jb.LastCompletedVersionID == nil || *jb.LastCompletedVersionID != jobs[i].v1 {
			t.Fatalf("job while round 2 is queued: versionId %s lastCompletedVersionId %v, want %s and %s", jb.VersionID, jb.LastCompletedVersionID, jobs[i].v2, jobs[i].v1)
		}
		findingsOf(t, h, p, jobs[i].id, jobs[i].v1)
	}

	for i, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			j := jobs[i]
			waitComplete(t, h, runner, p, j.id, j.v2)
			r := h.get(p.Key, "/api/v1/jobs/"+j.id+"/compare")
			wantStatus(t, r, http.StatusOK)
			c := decode[compareJSON](t, r)
			if c.From == nil || *c.From != j.v1 || c.To == nil || *c.To != j.v2 || c.ToRound != 2 {
				t.Fatalf("compare from %v to %v round %d, want %s to %s, round 2", c.From, c.To, c.ToRound, j.v1, j.v2)
			}
			v.check(t, j.round1, c)
			t.Logf("new: %v", ruleIDs(c.Findings.New))
			// No finding that only moved may read as resolved and new.
			for _, res := range c.Findings.Resolved {
				for _, n := range c.Findings.New {
					if res.RuleID == n.RuleID && res.evidence() == n.evidence() {
						t.Errorf("finding %s (%q) reads as resolved and new", res.RuleID, res.evidence())
					}
				}
			}
			// Each finding's stored round says what compare says.
			status := map[string]string{}
			for _, f := range c.Findings.New {
				status[f.FindingID] = "new"
			}
			for _, f := range c.Findings.Persisting {
				status[f.FindingID] = "persisting"
			}
			round2 := findingsOf(t, h, p, j.id, j.v2)
			for _, f := range round2 {
				if f.Round == nil || f.Round.Status != status[f.FindingID] {
					t.Errorf("finding %s: round %+v, compare says %q", f.FindingID, f.Round, status[f.FindingID])
				}
				if f.Round != nil && f.Round.Status == "persisting" && f.Disposition.Status != "accepted" {
					t.Errorf("finding %s persists from an accepted one but is %s", f.FindingID, f.Disposition.Status)
				}
			}
			if v.name == "inserted" {
				carried := false
				for _, f := range c.Findings.Persisting {
					if f.Source == "examiner" && f.Round.PreviousFindingID != nil && *f.Round.PreviousFindingID == comment.FindingID {
						carried = f.Sheet.SheetNumber == "W-001" && f.Sheet.Page == 4 && f.Disposition.Status == "accepted"
					}
				}
				if !carried {
					t.Errorf("the examiner's round-1 comment is not carried onto W-001 (page 4) as accepted: %v", ruleIDs(c.Findings.Persisting))
				}
			}
			// The CSV names each finding's round status in its last columns.
			csvResp := h.get(p.Key, "/api/v1/jobs/"+j.id+"/export/csv?versionId="+j.v2)
			wantStatus(t, csvResp, http.StatusOK)
			rows, err := csv.NewReader(bytes.NewReader(csvResp.Body)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			last := len(rows[0]) - 1
			if rows[0][last-1] != "roundStatus" || rows[0][last] != "previousFindingId" {
				t.Fatalf("CSV header ends %v", rows[0][last-1:])
			}
			for _, row := range rows[1:] {
				if row[last-1] != status[row[0]] {
					t.Errorf("CSV row %s: roundStatus %q, compare says %q", row[0], row[last-1], status[row[0]])
				}
			}
			// The audit chain holds with the carried events in it.
			if res, err := h.db.VerifyAudit(j.id); err != nil || res.Broken != nil {
				t.Errorf("audit chain: %v %+v", err, res.Broken)
			}
			// scan.completed names the round.
			events := decode[struct {
				Events []struct {
					Type string
					Data struct {
						VersionID string `json:"versionId"`
						Round     *struct {
							Number                    int
							PreviousVersionID         *string `json:"previousVersionId"`
							New, Persisting, Resolved int
						} `json:"round"`
					}
				}
			}](t, h.get(p.Key, "/api/v1/events?limit=100"))
			seen := false
			for _, ev := range events.Events {
				if ev.Type != "scan.completed" || ev.Data.VersionID != j.v2 {
					continue
				}
				seen = true
				rd := ev.Data.Round
				if rd == nil || rd.Number != 2 || rd.PreviousVersionID == nil || *rd.PreviousVersionID != j.v1 ||
					rd.New != len(c.Findings.New) || rd.Persisting != len(c.Findings.Persisting) || rd.Resolved != len(c.Findings.Resolved) {
					t.Errorf("scan.completed round %+v; compare has %d new, %d persisting, %d resolved", rd, len(c.Findings.New), len(c.Findings.Persisting), len(c.Findings.Resolved))
				}
			}
			if !seen {
				t.Errorf("no scan.completed event for round 2")
			}
			audit := string(h.get(p.Key, "/api/v1/jobs/"+j.id+"/audit").Body)
			if !strings.Contains(audit, `"finding.carried"`) && v.name != "corrected" {
				t.Errorf("audit has no finding.carried event: %s", audit)
			}
		})
	}

	// The second round's letter: what still stands, what is new, what was
	// resolved; with the partner's setting, no new comment that is not
	// life safety on a sheet that did not change.
	removed, corrected := jobs[0], jobs[1]
	text := letterText(t, h, p, removed.id)
	for _, want := range []string{"Still outstanding from round 1 (" + strconv.Itoa(len(removed.round1)) + ")", "New in round 2 (0)",
		"Resolved since round 1", "None of the earlier corrections is resolved yet.", "Not yet decided"} {
		if !strings.Contains(text, want) {
			t.Errorf("round-2 letter of %q lacks %q:\n%s", variants[0].name, want, text)
		}
	}
	text = letterText(t, h, p, corrected.id)
	var fixed string
	for _, f := range corrected.round1 {
		if f.RuleID == "completeness-unfinished-text" {
			fixed = f.Title
		}
	}
	if i := strings.Index(text, "Resolved since round 1"); i < 0 || !strings.Contains(text[i:], fixed) {
		t.Errorf("round-2 letter of %q does not list %q as resolved:\n%s", variants[1].name, fixed, text)
	}
	on := true
	if _, err := h.admin.SetPartner(context.Background(), p.Name, api.PartnerSettings{LaterRoundsLifeSafetyOnly: &on}); err != nil {
		t.Fatal(err)
	}
	text = letterText(t, h, p, removed.id)
	if !strings.Contains(text, "1 new finding(s) on sheets that did not change since round 1 are left out") ||
		strings.Contains(text, "Not yet decided") {
		t.Errorf("with laterRoundsLifeSafetyOnly the new index finding on unchanged G-001 is still in the letter:\n%s", text)
	}

	// Compare's errors.
	j := jobs[0]
	wantError(t, h.get(p.Key, "/api/v1/jobs/"+j.id+"/compare?from="+j.v2+"&to="+j.v1), http.StatusBadRequest, "invalid_request", "from")
	wantError(t, h.get(p.Key, "/api/v1/jobs/"+j.id+"/compare?to=ver_01M8DD6FKRPM4XTG3PKZ554PG6"), http.StatusNotFound, "not_found", "")
	open := h.registerFile(p, j.id, "round3.pdf", 100)
	wantError(t, h.get(p.Key, "/api/v1/jobs/"+j.id+"/compare?to="+open.VersionID), http.StatusConflict, "scan_not_complete", "")
	first := decode[compareJSON](t, h.get(p.Key, "/api/v1/jobs/"+j.id+"/compare?to="+j.v1))
	if first.From != nil || len(first.Findings.New) != len(j.round1) || len(first.Sheets.Added) != 5 {
		t.Errorf("compare of round 1 alone: from %v, %d new, %d sheets added; want null, %d, 5", first.From, len(first.Findings.New), len(first.Sheets.Added), len(j.round1))
	}
}

// letterText is the words of a job's current correction letter (DOCX).
func letterText(t *testing.T, h *harness, p partner, jobID string) string {
	t.Helper()
	r := h.get(p.Key, "/api/v1/jobs/"+jobID+"/letter?format=docx")
	wantStatus(t, r, http.StatusOK)
	zr, err := zip.NewReader(bytes.NewReader(r.Body), int64(len(r.Body)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name != "word/document.xml" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(rc)
		rc.Close()
		paras := regexp.MustCompile(`</w:p>`).ReplaceAllString(string(raw), "\n")
		return html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(paras, ""))
	}
	t.Fatal("letter has no word/document.xml")
	return ""
}

func ruleIDs(fs []roundFindingJSON) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.RuleID+"@"+f.Sheet.SheetNumber+":"+f.evidence())
	}
	return out
}
