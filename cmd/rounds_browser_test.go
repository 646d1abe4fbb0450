package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"planreview/rounds/pdfedit"
)

// TestRoundsInBrowser: while round 2 is being scanned the job screen shows
// round 1's findings under a banner, not "Waiting for plans"; when round 2
// completes the screen shows it, each finding's round status and what was
// resolved since round 1. The scan is held in its reviewing stage by an
// on-prem model server (a real OpenAI-compatible endpoint on loopback)
// that answers only when the test lets it.
func TestRoundsInBrowser(t *testing.T) {
	pdf, err := os.ReadFile("../../shared/corpus/fsec_pv_permit_sample_generated.pdf")
	if err != nil {
		t.Skip("corpus absent")
	}
	// Round 2: the cover sheet G-001 left out (its sheet-index findings are
	// resolved), the other sheets in another order, and on W-001 the
	// flagged "?" struck (a revised sheet, its finding resolved).
	corrected, err := pdfedit.ReplaceText(pdf, 3, "?", "")
	if err != nil {
		t.Fatal(err)
	}
	revised, err := pdfedit.Collect(corrected, 3, 2, 4, 5)
	if err != nil {
		t.Fatal(err)
	}

	var (
		mu      sync.Mutex
		hold    bool
		release = make(chan struct{})
	)
	modelSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		held := hold
		mu.Unlock()
		if held {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
			"model": "local", "choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": `{"findings": []}`}}}})
	}))
	t.Cleanup(modelSrv.Close)
	r := newBrowserRigWith(t, func(c *Config) {
		c.Model.BaseURL = modelSrv.URL + "/v1"
		c.Model.Name = "local"
		c.Model.Timeout = 3 * time.Minute
	})
	var once sync.Once
	let := func() { once.Do(func() { close(release) }) }
	t.Cleanup(let) // before the appliance shuts down

	var job struct{ JobID string }
	r.apiCall("POST", "/api/v1/jobs", `{"name":"Cocoa PV array","externalId":"BLD-2026-0042"}`, &job)
	submit := func(name string, body []byte) string {
		var reg struct{ FileID, UploadURL, VersionID string }
		r.apiCall("POST", "/api/v1/jobs/"+job.JobID+"/files", fmt.Sprintf(`{"fileName":%q,"fileSize":%d,"contentType":"application/pdf"}`, name, len(body)), &reg)
		if st, out := upload(t, reg.UploadURL, bytes.NewReader(body), int64(len(body))); st != 200 {
			t.Fatalf("upload: %d %v", st, out)
		}
		if st := r.apiCall("POST", "/api/v1/jobs/"+job.JobID+"/scan", "", nil); st != 200 {
			t.Fatalf("scan: %d", st)
		}
		return reg.VersionID
	}
	type jobState struct {
		Status                 string
		LastCompletedVersionID *string
		Pipeline               struct{ CurrentStage string }
	}
	waitJob := func(what string, ok func(jobState) bool) jobState {
		deadline := time.Now().Add(3 * time.Minute)
		for {
			var j jobState
			r.apiCall("GET", "/api/v1/jobs/"+job.JobID, "", &j)
			if ok(j) {
				return j
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: job is %+v", what, j)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	v1 := submit("pv.pdf", pdf)
	waitJob("round 1 complete", func(j jobState) bool { return j.Status == "complete" })
	var round1 struct{ Findings []struct{ FindingID string } }
	r.apiCall("GET", "/api/v1/jobs/"+job.JobID+"/findings?versionId="+v1, "", &round1)
	if len(round1.Findings) < 3 {
		t.Fatalf("round 1: %d findings", len(round1.Findings))
	}

	mu.Lock()
	hold = true
	mu.Unlock()
	v2 := submit("pv-revised.pdf", revised)
	waitJob("round 2 held in review", func(j jobState) bool { return j.Status == "processing" && j.Pipeline.CurrentStage == "reviewing" })

	r.open(r.link("job", job.JobID))
	r.waitFrame("round 1 shown under the banner", `!document.getElementById('round-banner').hidden && document.querySelectorAll('.finding').length > 0`, time.Minute)
	var shown struct {
		Banner, Round, Status string
		IDs                   []string
	}
	r.mustFrame(`({banner: document.getElementById('round-banner').textContent, round: document.getElementById('round-number').textContent,
		status: document.getElementById('job-status').textContent,
		ids: Array.prototype.map.call(document.querySelectorAll('.finding'), function (li) { return li.dataset.finding })})`, &shown)
	if !strings.Contains(shown.Banner, "Round 2 is being reviewed") || !strings.Contains(shown.Banner, "results of round 1") || shown.Round != "1" {
		t.Errorf("banner %q, round %q; want round 2 being reviewed, round 1 shown", shown.Banner, shown.Round)
	}
	if shown.Status != "Reviewing revised plans" {
		t.Errorf("job status says %q while round 1's review stands, want \"Reviewing revised plans\"", shown.Status)
	}
	if len(shown.IDs) != len(round1.Findings) {
		t.Errorf("screen lists %d findings, round 1 has %d", len(shown.IDs), len(round1.Findings))
	}
	for i, f := range round1.Findings {
		if i < len(shown.IDs) && shown.IDs[i] != f.FindingID {
			t.Errorf("finding %d on screen is %s, round 1's is %s", i, shown.IDs[i], f.FindingID)
		}
	}
	r.screenshot("rounds-round2-scanning", 1280)

	// Round 2 completes: the same screen (polling) shows it.
	let()
	waitJob("round 2 complete", func(j jobState) bool {
		return j.Status == "complete" && j.LastCompletedVersionID != nil && *j.LastCompletedVersionID == v2
	})
	r.waitFrame("round 2 shown", `document.getElementById('round-number').textContent === '2' && document.getElementById('round-banner').hidden && document.querySelectorAll('.round-badge').length > 0 && !document.getElementById('resolved').hidden`, time.Minute)
	var after struct {
		Badges   []string
		Resolved string
		Items    int
	}
	r.mustFrame(`({badges: Array.prototype.map.call(document.querySelectorAll('.round-badge'), function (b) { return b.dataset.round }),
		resolved: document.getElementById('resolved-h').textContent, items: document.querySelectorAll('#resolved-list li[data-finding]').length})`, &after)
	if !strings.HasPrefix(after.Resolved, "Resolved since round 1") || after.Items == 0 {
		t.Errorf("resolved list %q with %d items; want the cover sheet's findings", after.Resolved, after.Items)
	}
	persisting := 0
	for _, b := range after.Badges {
		if b == "persisting" {
			persisting++
		}
	}
	if persisting == 0 {
		t.Errorf("round badges %v: no finding still standing", after.Badges)
	}
	// W-001 is revised: its changed regions are drawn on it, with a caption.
	r.waitFrame("revised sheet marked", `document.querySelector('.thumb[data-revised]') !== null`, 30*time.Second)
	r.mustFrame(`document.querySelector('.thumb[data-revised]').click()`, nil)
	r.waitFrame("changed regions drawn", `document.querySelectorAll('#viewer[data-revised] .change').length > 0`, 30*time.Second)
	var overlay struct {
		Caption string
		Removed int
	}
	r.mustFrame(`(function () { var f = document.querySelector('#viewer[data-revised]');
		return {caption: f.querySelector('.sheet-revised-note').textContent, removed: f.querySelectorAll('.change[data-change="removed"]').length} })()`, &overlay)
	if !strings.HasPrefix(overlay.Caption, "Revised since round 1") || overlay.Removed == 0 {
		t.Errorf("revised sheet caption %q with %d removed regions; want W-001's struck note", overlay.Caption, overlay.Removed)
	}
	r.mustFrame(`document.getElementById('viewer').scrollIntoView({block: 'start'})`, nil)
	r.screenshot("rounds-round2-complete", 1280)
}
