package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestExaminerDeskInBrowser: in headless Chromium, inside a partner's
// iframe, an examiner accepts a finding, dismisses one with a reason,
// draws a comment on a real corpus sheet from a standard comment and
// reads a finding's history; the list, the boxes on the sheets, the API
// and the letter agree. A viewer link on the same job shows no controls.
func TestExaminerDeskInBrowser(t *testing.T) {
	pdf, err := os.ReadFile("../../shared/corpus/fsec_pv_permit_sample_generated.pdf")
	if err != nil {
		t.Skip("corpus absent")
	}
	r := newBrowserRig(t)
	var job struct{ JobID string }
	r.apiCall("POST", "/api/v1/jobs", `{"name":"Cocoa PV array","externalId":"BLD-2026-0042"}`, &job)
	var reg struct{ FileID, UploadURL string }
	r.apiCall("POST", "/api/v1/jobs/"+job.JobID+"/files", fmt.Sprintf(`{"fileName":"pv.pdf","fileSize":%d,"contentType":"application/pdf"}`, len(pdf)), &reg)
	if st, out := upload(t, reg.UploadURL, bytes.NewReader(pdf), int64(len(pdf))); st != 200 {
		t.Fatalf("upload: %d %v", st, out)
	}
	r.apiCall("POST", "/api/v1/jobs/"+job.JobID+"/scan", "", nil)
	var tpl struct{ TemplateID, Title string }
	r.apiCall("POST", "/api/v1/comment-templates", `{"title":"Provide rapid shutdown labeling","text":"Show the rapid shutdown placard at the service equipment.","governingRefs":"NEC 2020 690.56(C)","severity":"medium"}`, &tpl)

	var link struct{ URL string }
	if st := r.apiCall("POST", "/api/v1/embed", fmt.Sprintf(`{"screen":"job","jobId":%q,"role":"examiner","actor":{"id":"u-7","name":"Ann Examiner"}}`, job.JobID), &link); st != 200 {
		t.Fatalf("examiner link: %d", st)
	}
	r.open(link.URL)
	r.waitFrame("findings listed", `document.querySelectorAll('.finding').length > 0 && !document.getElementById('desk-tools').hidden`, 3*time.Minute)
	r.waitFrame("sheet images loaded", `Array.prototype.every.call(document.querySelectorAll('.canvas img'), function(i){ i.loading='eager'; return i.complete && i.naturalWidth > 0 })`, 90*time.Second)

	var ids []string
	r.mustFrame(`Array.prototype.map.call(document.querySelectorAll('.finding'), function(li){ return li.dataset.finding })`, &ids)
	if len(ids) < 3 {
		t.Fatalf("%d findings listed", len(ids))
	}
	accepted, dismissed := ids[0], ids[1]

	// Accept.
	r.mustFrame(fmt.Sprintf(`document.getElementById('finding-%s').open = true; document.querySelector('#finding-%s .act-accept').click()`, accepted, accepted), nil)
	r.waitFrame("accepted", fmt.Sprintf(`document.querySelector('.finding[data-finding=%q]').dataset.status === 'accepted'`, accepted), 10*time.Second)
	// Dismiss with a reason.
	r.mustFrame(fmt.Sprintf(`document.getElementById('finding-%s').open = true; document.querySelector('#finding-%s .act-dismiss').click()`, dismissed, dismissed), nil)
	r.waitFrame("dismiss form", fmt.Sprintf(`document.querySelector('#finding-%s .dismiss-form')`, dismissed), 5*time.Second)
	r.mustFrame(fmt.Sprintf(`document.getElementById('reason-%s').value = 'Shown on sheet E-1 already'; document.querySelector('#finding-%s .dismiss-form').requestSubmit()`, dismissed, dismissed), nil)
	r.waitFrame("dismissed", fmt.Sprintf(`document.querySelector('.finding[data-finding=%q]').dataset.status === 'dismissed'`, dismissed), 10*time.Second)

	// Draw a comment on the second sheet with the mouse.
	r.mustFrame(`document.querySelectorAll('.thumb')[1].click()`, nil)
	r.waitFrame("second sheet shown", `document.querySelector('#v-port .canvas').dataset.sheet === document.querySelectorAll('.thumb')[1].dataset.sheet && document.querySelector('#v-port img.base').complete && document.getElementById('v-loading').hidden`, time.Minute)
	r.mustFrame(`document.getElementById('add-comment').click(); document.getElementById('v-port').scrollIntoView({block: 'center'})`, nil)
	var frameBox, canvasBox struct{ X, Y, W, H float64 }
	raw, err := chromedp.Run(r.ctx, chromedp.Evaluate[[]byte](`(function(){ var b = document.getElementById('pr').getBoundingClientRect(); return {x: b.left, y: b.top, w: b.width, h: b.height} })()`))
	if err != nil {
		t.Fatal(err)
	}
	decodeInto(t, raw, &frameBox)
	r.mustFrame(`(function(){ var b = document.querySelector('#v-port .canvas').getBoundingClientRect(); return {x: b.left, y: b.top, w: b.width, h: b.height} })()`, &canvasBox)
	x0, y0 := frameBox.X+canvasBox.X+0.2*canvasBox.W, frameBox.Y+canvasBox.Y+0.2*canvasBox.H
	x1, y1 := frameBox.X+canvasBox.X+0.6*canvasBox.W, frameBox.Y+canvasBox.Y+0.5*canvasBox.H
	if y1 > frameBox.Y+frameBox.H {
		t.Fatalf("the sheet is not in view to draw on: %+v %+v", frameBox, canvasBox)
	}
	for _, ev := range []struct {
		typ  input.DispatchMouseEventType
		x, y float64
	}{{chromedp.MousePressed, x0, y0}, {chromedp.MouseMoved, (x0 + x1) / 2, (y0 + y1) / 2}, {chromedp.MouseMoved, x1, y1}, {chromedp.MouseReleased, x1, y1}} {
		if err := chromedp.Do(r.ctx, chromedp.MouseEvent(ev.typ, ev.x, ev.y, chromedp.ButtonLeft)); err != nil {
			t.Fatal(err)
		}
	}
	r.waitFrame("comment form", `document.querySelector('.comment-form') && document.querySelectorAll('#c-template option').length > 1`, 10*time.Second)
	r.mustFrame(fmt.Sprintf(`var s = document.getElementById('c-template'); s.value = %q; s.dispatchEvent(new Event('change')); document.querySelector('.comment-form').requestSubmit()`, tpl.TemplateID), nil)
	r.waitFrame("comment listed", `document.querySelector('.finding[data-source="examiner"]')`, 15*time.Second)
	var comment string
	r.mustFrame(`document.querySelector('.finding[data-source="examiner"]').dataset.finding`, &comment)

	// History of the accepted finding.
	r.mustFrame(fmt.Sprintf(`document.querySelector('#finding-%s .act-history').click()`, accepted), nil)
	r.waitFrame("history", fmt.Sprintf(`(function(){ var h = document.querySelector('#finding-%s .history li'); return h && /accepted by Ann Examiner/.test(h.textContent) })()`, accepted), 10*time.Second)
	r.screenshot("desk-1280", 1280)

	// The list, the marks and the API agree.
	var body struct {
		Findings []struct {
			FindingID       string
			FileID          string
			Title           string
			Source          string
			EvidenceAnchors []struct {
				Page int
				BBox struct{ Left, Top, Width, Height float64 }
			}
			Disposition struct {
				Status string
				Note   string
				Actor  *struct{ Name string }
			}
		}
	}
	r.apiCall("GET", "/api/v1/jobs/"+job.JobID+"/findings", "", &body)
	titles := map[string]string{}
	for _, f := range body.Findings {
		titles[f.FindingID] = f.Title
		var listed string
		r.mustFrame(fmt.Sprintf(`(function(){ var li = document.querySelector('.finding[data-finding=%q]'); return li ? li.dataset.status : '' })()`, f.FindingID), &listed)
		if listed != f.Disposition.Status {
			t.Errorf("finding %s: listed %q, API %q", f.FindingID, listed, f.Disposition.Status)
		}
		// The viewer shows one sheet: the boxes of the finding's first
		// anchor's sheet.
		var boxes, dashed int
		onSheet := 0
		if len(f.EvidenceAnchors) > 0 {
			key := fmt.Sprintf("%s:%d", f.FileID, f.EvidenceAnchors[0].Page)
			r.mustFrame(fmt.Sprintf(`document.querySelector('.thumb[data-sheet=%q]').click()`, key), nil)
			r.waitFrame("sheet "+key, fmt.Sprintf(`document.querySelector('#v-port .canvas').dataset.sheet === %q`, key), 10*time.Second)
			for _, a := range f.EvidenceAnchors {
				if a.Page == f.EvidenceAnchors[0].Page {
					onSheet++
				}
			}
		}
		r.mustFrame(fmt.Sprintf(`document.querySelectorAll('.box[data-finding=%q]').length`, f.FindingID), &boxes)
		r.mustFrame(fmt.Sprintf(`document.querySelectorAll('.box-dismissed[data-finding=%q]').length`, f.FindingID), &dashed)
		if boxes != onSheet || (f.Disposition.Status == "dismissed") != (dashed > 0 || boxes == 0 && f.Disposition.Status == "dismissed") {
			t.Errorf("finding %s (%s): %d boxes (%d dismissed-style), %d anchors", f.FindingID, f.Disposition.Status, boxes, dashed, len(f.EvidenceAnchors))
		}
		switch f.FindingID {
		case accepted:
			if f.Disposition.Status != "accepted" || f.Disposition.Actor == nil || f.Disposition.Actor.Name != "Ann Examiner" {
				t.Errorf("accepted finding in the API: %+v", f.Disposition)
			}
		case dismissed:
			if f.Disposition.Status != "dismissed" || f.Disposition.Note != "Shown on sheet E-1 already" {
				t.Errorf("dismissed finding in the API: %+v", f.Disposition)
			}
		case comment:
			a := f.EvidenceAnchors
			if f.Source != "examiner" || f.Title != tpl.Title || len(a) != 1 || a[0].Page != 2 ||
				abs(a[0].BBox.Left-0.2) > 0.02 || abs(a[0].BBox.Top-0.2) > 0.02 || abs(a[0].BBox.Width-0.4) > 0.02 || abs(a[0].BBox.Height-0.3) > 0.02 {
				t.Errorf("drawn comment in the API: %+v", f)
			}
		}
	}

	// The letter the screen links to: accepted and drawn items in, the
	// dismissed one out.
	var href string
	r.mustFrame(`document.querySelector('a[data-letter="pdf"]').href`, &href)
	resp, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("letter from the screen: %d %s", resp.StatusCode, buf.String())
	}
	text := pdfText(t, buf.Bytes())
	if !strings.Contains(text, titles[accepted]) || !strings.Contains(text, tpl.Title) {
		t.Errorf("letter lacks the accepted finding or the drawn comment:\n%s", text)
	}
	if unique := !strings.Contains(strings.Join(otherTitles(titles, dismissed), "\n"), titles[dismissed]); unique && strings.Contains(text, titles[dismissed]) {
		t.Errorf("letter shows the dismissed finding %q:\n%s", titles[dismissed], text)
	}

	// A viewer link on the same job: dispositions shown, no controls.
	var viewer struct{ URL string }
	r.apiCall("POST", "/api/v1/embed", fmt.Sprintf(`{"screen":"job","jobId":%q}`, job.JobID), &viewer)
	r.open(viewer.URL)
	r.waitFrame("viewer findings", `document.querySelectorAll('.finding').length > 0`, 30*time.Second)
	var controls int
	r.mustFrame(`document.querySelectorAll('.desk-actions button').length + (document.getElementById('desk-tools').hidden ? 0 : 1)`, &controls)
	var shown string
	r.mustFrame(fmt.Sprintf(`document.querySelector('.finding[data-finding=%q]').dataset.status`, dismissed), &shown)
	if controls != 0 || shown != "dismissed" {
		t.Errorf("viewer screen: %d controls, dismissed finding shown as %q", controls, shown)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.cookies) > 0 {
		t.Errorf("Set-Cookie seen: %v", r.cookies)
	}
	for _, u := range r.requests {
		if !strings.HasPrefix(u, r.base+"/") && !strings.HasPrefix(u, r.partner+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("request off the appliance: %s", u)
		}
	}
}

func otherTitles(titles map[string]string, except string) []string {
	var out []string
	for id, t := range titles {
		if id != except {
			out = append(out, t)
		}
	}
	return out
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func decodeInto(t *testing.T, raw []byte, out any) {
	t.Helper()
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
}
