package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"planreview/api/signing"
	"planreview/embed"
)

// scanned creates a job, uploads a corpus PDF as the partner's server
// would and waits for its scan to end; it answers the job id.
func (r *browserRig) scanned(name, corpusFile string) string {
	r.t.Helper()
	return r.scannedFile(name, filepath.Join("../../shared/corpus", corpusFile))
}

// scannedFile is scanned for any PDF; the job's status may be failed.
func (r *browserRig) scannedFile(name, path string) string {
	r.t.Helper()
	corpusFile := filepath.Base(path)
	pdf, err := os.ReadFile(path)
	if err != nil {
		r.t.Skipf("PDF %s absent", path)
	}
	var job struct{ JobID string }
	r.apiCall("POST", "/api/v1/jobs", fmt.Sprintf(`{"name":%q}`, name), &job)
	var reg struct{ FileID, UploadURL string }
	r.apiCall("POST", "/api/v1/jobs/"+job.JobID+"/files", fmt.Sprintf(`{"fileName":%q,"fileSize":%d,"contentType":"application/pdf"}`, corpusFile, len(pdf)), &reg)
	if st, out := upload(r.t, reg.UploadURL, bytes.NewReader(pdf), int64(len(pdf))); st != 200 {
		r.t.Fatalf("upload: %d %v", st, out)
	}
	r.apiCall("POST", "/api/v1/jobs/"+job.JobID+"/scan", "", nil)
	deadline := time.Now().Add(4 * time.Minute)
	for time.Now().Before(deadline) {
		var st struct{ Status string }
		r.apiCall("GET", "/api/v1/jobs/"+job.JobID, "", &st)
		if st.Status == "complete" || st.Status == "failed" {
			return job.JobID
		}
		time.Sleep(300 * time.Millisecond)
	}
	r.t.Fatalf("scan of %s did not end", corpusFile)
	return ""
}

// press presses a key in whatever has focus (the frame's element).
func (r *browserRig) press(k string) {
	r.t.Helper()
	if err := chromedp.Do(r.ctx, chromedp.KeyEvent(k)); err != nil {
		r.t.Fatal(err)
	}
}

// parentMessages are the messages the partner page received.
type parentMessage struct {
	Origin string
	Data   struct {
		Type, Screen, JobID, URL string
		ExpiresAt                int64
		Height                   float64
	}
}

func (r *browserRig) parentMessages() []parentMessage {
	var got []parentMessage
	if raw, err := chromedp.Run(r.ctx, chromedp.Evaluate[[]byte](`window.msgs || []`)); err == nil {
		_ = json.Unmarshal(raw, &got)
	}
	return got
}

type rect struct{ Left, Top, Right, Bottom float64 }

func (a rect) contains(b rect, slack float64) bool {
	return b.Left >= a.Left-slack && b.Top >= a.Top-slack && b.Right <= a.Right+slack && b.Bottom <= a.Bottom+slack
}

// activeBoxHoldsItsWords: the active box's rectangle on screen contains
// the words of its finding's anchor, found on the page by the appliance's
// text layer and mapped to the screen through the sheet's rectangle; and
// the box is in the viewer's view.
func (r *browserRig) activeBoxHoldsItsWords(anchors map[string]anchorInfo) string {
	r.t.Helper()
	var active struct {
		ID          string
		Box, Canvas rect
		Port        rect
	}
	r.mustFrame(`(function(){
		var b = document.querySelector('#v-port .box.active'), c = document.querySelector('#v-port .canvas'), p = document.getElementById('v-port');
		function R(e){ var r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }
		return {id: b.dataset.finding, box: R(b), canvas: R(c), port: R(p)};
	})()`, &active)
	a, ok := anchors[active.ID]
	if !ok {
		r.t.Fatalf("active box of unknown finding %s", active.ID)
	}
	var words struct {
		Boxes []struct{ Left, Top, Width, Height float64 }
	}
	r.mustFrame(fmt.Sprintf(`fetch('/embed/api/jobs/' + document.getElementById('app').dataset.job + '/files/%s/pages/%d/words?text=' + encodeURIComponent(%q),
		{headers: {'X-Embed-Token': new URL(location.href).searchParams.get('t')}}).then(function(r){ return r.json() })`, a.FileID, a.Page, a.Text), &words)
	if len(words.Boxes) == 0 {
		// Words the text layer cannot find again by their text: the
		// anchor's own box stands in.
		words.Boxes = append(words.Boxes, struct{ Left, Top, Width, Height float64 }{a.BBox.Left, a.BBox.Top, a.BBox.Width, a.BBox.Height})
	}
	w, h := active.Canvas.Right-active.Canvas.Left, active.Canvas.Bottom-active.Canvas.Top
	for _, wb := range words.Boxes {
		onScreen := rect{active.Canvas.Left + wb.Left*w, active.Canvas.Top + wb.Top*h,
			active.Canvas.Left + (wb.Left+wb.Width)*w, active.Canvas.Top + (wb.Top+wb.Height)*h}
		if !active.Box.contains(onScreen, 2) {
			r.t.Errorf("finding %s: the active box %+v does not hold its words %q at %+v", active.ID, active.Box, a.Text, onScreen)
		}
	}
	if !active.Port.contains(active.Box, 1) {
		r.t.Errorf("finding %s: the active box %+v is not in the viewer's view %+v", active.ID, active.Box, active.Port)
	}
	return active.ID
}

type anchorInfo struct {
	FileID string
	Page   int
	Text   string
	BBox   struct{ Left, Top, Width, Height float64 }
}

func (r *browserRig) anchors(jobID string) (map[string]anchorInfo, []string) {
	var body struct {
		Findings []struct {
			FindingID, FileID string
			EvidenceAnchors   []struct {
				Page int
				Text string
				BBox struct{ Left, Top, Width, Height float64 }
			}
		}
	}
	r.apiCall("GET", "/api/v1/jobs/"+jobID+"/findings", "", &body)
	out, order := map[string]anchorInfo{}, []string{}
	for _, f := range body.Findings {
		if len(f.EvidenceAnchors) == 0 {
			continue
		}
		a := f.EvidenceAnchors[0]
		out[f.FindingID] = anchorInfo{FileID: f.FileID, Page: a.Page, Text: a.Text, BBox: a.BBox}
		order = append(order, f.FindingID)
	}
	return out, order
}

// TestSheetViewerInBrowser: a 42 x 30 in sheet in the job screen's
// viewer at 1366 px: numbered boxes match numbered list items; n and p
// step through the findings, each box holding its words and in view; +
// zooms to 8x and past it with the deepest tiles drawn under the box; the
// arrows pan.
func TestSheetViewerInBrowser(t *testing.T) {
	r := newBrowserRig(t)
	jobID := r.scanned("Kaiser Richmond E201A", "us_ca_kaiser_richmond_E201A_power_signal.pdf")
	anchors, order := r.anchors(jobID)
	if len(order) < 2 {
		t.Fatalf("the sheet has %d anchored findings; the test needs two", len(order))
	}
	if err := chromedp.Do(r.ctx, chromedp.EmulateViewport(1366, 900)); err != nil {
		t.Fatal(err)
	}
	r.open(r.link("job", jobID))
	r.waitFrame("sheet shown", `document.querySelector('#v-port .canvas img.base') && document.querySelector('#v-port .canvas img.base').complete && document.getElementById('v-loading').hidden && document.querySelectorAll('#v-port .box').length > 0`, time.Minute)

	// Numbers: every box's number is a listed finding's number.
	var numbers struct{ Boxes, Items []string }
	r.mustFrame(`({boxes: Array.prototype.map.call(document.querySelectorAll('#v-port .box'), function(b){ return b.dataset.finding + '=' + b.querySelector('.bnum').textContent }),
		items: Array.prototype.map.call(document.querySelectorAll('.finding'), function(li){ return li.dataset.finding + '=' + li.querySelector('.num').textContent })})`, &numbers)
	items := strings.Join(numbers.Items, " ")
	for _, b := range numbers.Boxes {
		if !strings.Contains(" "+items+" ", " "+b+" ") {
			t.Errorf("box %s has no list item with its number (list: %s)", b, items)
		}
	}
	if len(numbers.Boxes) != len(order) {
		t.Errorf("%d boxes on the sheet, %d anchored findings", len(numbers.Boxes), len(order))
	}

	// n: the first finding, framed.
	r.mustFrame(`document.getElementById('v-port').focus()`, nil)
	r.press("n")
	r.waitFrame("first finding active", fmt.Sprintf(`document.querySelector('#v-port .box.active[data-finding=%q]') && document.querySelector('.finding.active[data-finding=%q]')`, order[0], order[0]), 30*time.Second)
	r.waitFrame("tiles in", `!document.querySelector('#v-port .tile:not([src])') && Array.prototype.every.call(document.querySelectorAll('#v-port .tile'), function(i){ return i.complete })`, time.Minute)
	if id := r.activeBoxHoldsItsWords(anchors); id != order[0] {
		t.Errorf("active %s, want %s", id, order[0])
	}
	r.press("n")
	r.waitFrame("second finding active", fmt.Sprintf(`document.querySelector('#v-port .box.active[data-finding=%q]')`, order[1]), 30*time.Second)
	r.activeBoxHoldsItsWords(anchors)
	var activeBoxes int
	r.mustFrame(`document.querySelectorAll('#v-port .box.active').length`, &activeBoxes)
	if activeBoxes != 1 {
		t.Errorf("%d active boxes", activeBoxes)
	}
	r.press("p")
	r.waitFrame("back to the first", fmt.Sprintf(`document.querySelector('#v-port .box.active[data-finding=%q]')`, order[0]), 30*time.Second)

	// + up to 8x and beyond; the box stays on its words, the deepest tiles
	// come in under it.
	for i := 0; i < 10; i++ {
		var zoom float64
		r.mustFrame(`window.innerWidth && document.querySelector('#v-port .canvas').getBoundingClientRect().width / document.getElementById('v-port').clientWidth`, &zoom)
		if zoom >= 11.9 {
			break
		}
		r.press("+")
		time.Sleep(100 * time.Millisecond)
	}
	var zoomText string
	r.mustFrame(`document.getElementById('v-zoom').textContent`, &zoomText)
	if zoomText != "12×" {
		t.Errorf("zoom shows %q after + to the end, want 12×", zoomText)
	}
	var port struct{ Port, Canvas float64 }
	r.mustFrame(`({port: document.getElementById('v-port').clientWidth, canvas: document.querySelector('#v-port .canvas').getBoundingClientRect().width})`, &port)
	if port.Port > 1366 {
		t.Errorf("the viewer grew to %v px with a %v px sheet in it", port.Port, port.Canvas)
	}
	r.waitFrame("deepest tiles drawn", `(function(){
		var l = document.querySelector('#v-port .layer[data-level="3"]');
		return l && l.querySelectorAll('.tile').length > 0 && Array.prototype.every.call(l.querySelectorAll('.tile'), function(i){ return i.complete && i.naturalWidth === 512 });
	})()`, 2*time.Minute)
	r.activeBoxHoldsItsWords(anchors)
	// The tiles under the box are the deepest level's: sharp at this zoom.
	var under int
	r.mustFrame(`(function(){
		var b = document.querySelector('#v-port .box.active').getBoundingClientRect();
		return Array.prototype.filter.call(document.querySelectorAll('#v-port .layer[data-level="3"] .tile'), function(i){
			var t = i.getBoundingClientRect(); return t.left < b.right && t.right > b.left && t.top < b.bottom && t.bottom > b.top;
		}).length })()`, &under)
	if under == 0 {
		t.Error("no deepest-level tile under the active box at 12x")
	}

	// Pan: the arrows move the view.
	var before, after float64
	r.mustFrame(`document.getElementById('v-port').scrollLeft`, &before)
	r.mustFrame(`document.getElementById('v-port').focus()`, nil)
	r.press(kb.ArrowRight)
	r.mustFrame(`document.getElementById('v-port').scrollLeft`, &after)
	if after <= before {
		t.Errorf("ArrowRight did not pan: scrollLeft %v then %v", before, after)
	}
	r.press("0")
	r.waitFrame("fit again", `document.getElementById('v-zoom').textContent === 'Fit'`, 5*time.Second)
	r.screenshot("viewer-1366", 1366)
}

// TestLinkRenewInBrowser: a link about to end tells the parent
// (planreview:expiring with its expiry); the parent answers with a fresh
// link (planreview:renew) and the screen keeps working past the first
// link's end, without a reload; a renew for another job is ignored. The
// frame reports its height (planreview:resize) and again when it changes.
func TestLinkRenewInBrowser(t *testing.T) {
	r := newBrowserRig(t)
	jobID := r.scanned("Kaiser Richmond E201A", "us_ca_kaiser_richmond_E201A_power_signal.pdf")
	other := r.scanned("Another job", "fsec_pv_permit_sample_generated.pdf")
	signer, err := signing.LoadOrCreate(r.cfg.SecretPath())
	if err != nil {
		t.Fatal(err)
	}
	// A link with 20 s left (minted 30 min ago, say, with a lifetime that
	// ends now): within the two minutes, so expiring comes at once.
	life := 20 * time.Second
	short := &embed.Tokens{Signer: signer, Now: func() time.Time { return time.Now().Add(life - 30*time.Minute) }}
	token, claims, err := short.Mint(r.partnerID(), embed.ScreenJob, jobID, 30*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r.open(r.base + "/embed/job/" + jobID + "?t=" + token)
	r.waitFrame("sheet shown", `document.querySelector('#v-port .canvas img.base') && document.querySelector('#v-port .canvas img.base').complete`, time.Minute)

	var expiring *parentMessage
	deadline := time.Now().Add(10 * time.Second)
	for expiring == nil && time.Now().Before(deadline) {
		for _, m := range r.parentMessages() {
			if m.Data.Type == "planreview:expiring" {
				expiring = &m
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if expiring == nil {
		t.Fatal("no planreview:expiring from a link with 20 s left")
	}
	if expiring.Origin != r.base || expiring.Data.Screen != "job" || expiring.Data.JobID != jobID || expiring.Data.ExpiresAt != claims.ExpiresAt {
		t.Errorf("expiring message %+v, want screen job, job %s, expiresAt %d from %s", expiring, jobID, claims.ExpiresAt, r.base)
	}
	// A fresh link for another job is not taken.
	r.postToFrame(r.link("job", other))
	fresh := r.link("job", jobID)
	r.postToFrame(fresh)
	freshToken := fresh[strings.Index(fresh, "?t=")+3:]
	r.waitFrame("renewed", fmt.Sprintf(`new URL(location.href).searchParams.get('t') === %q`, freshToken), 10*time.Second)

	// Past the first link's end: a new sheet zoom loads its tiles, the
	// downloads carry the fresh token, no expired notice.
	time.Sleep(time.Until(time.Unix(claims.ExpiresAt, 0).Add(time.Second)))
	r.mustFrame(`document.getElementById('v-port').focus()`, nil)
	for i := 0; i < 3; i++ {
		r.press("+")
	}
	r.waitFrame("tiles after the first link ended", `(function(){
		var t = document.querySelectorAll('#v-port .tile');
		return t.length > 0 && Array.prototype.every.call(t, function(i){ return i.complete && i.naturalWidth === 512 });
	})()`, time.Minute)
	var csv struct {
		Status int
		Href   string
	}
	r.mustFrame(`(function(){ var a = document.querySelector('#downloads a'); return fetch(a.href).then(function(r){ return {status: r.status, href: a.href} }) })()`, &csv)
	if csv.Status != 200 || !strings.Contains(csv.Href, freshToken) {
		t.Errorf("CSV download after renewal: %d %s", csv.Status, csv.Href)
	}
	var notice bool
	r.mustFrame(`!!document.getElementById('expired-bar')`, &notice)
	if notice {
		t.Error("the screen says the link expired after it was renewed")
	}
	for _, m := range r.parentMessages() {
		if m.Data.Type == "planreview:expired" {
			t.Errorf("parent told the link expired: %+v", m)
		}
	}

	// Resize: the frame reported its height, and reports a change.
	lastHeight := func() float64 {
		h := 0.0
		for _, m := range r.parentMessages() {
			if m.Data.Type == "planreview:resize" {
				h = m.Data.Height
			}
		}
		return h
	}
	h0 := lastHeight()
	if h0 <= 0 {
		t.Fatal("no planreview:resize message")
	}
	r.mustFrame(`var d = document.createElement('div'); d.style.height = '900px'; document.getElementById('app').appendChild(d)`, nil)
	deadline = time.Now().Add(5 * time.Second)
	for lastHeight() < h0+800 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	var docHeight float64
	r.mustFrame(`document.documentElement.getBoundingClientRect().height`, &docHeight)
	if h := lastHeight(); h < h0+800 || h < docHeight-1 || h > docHeight+1 {
		t.Errorf("after the content grew by 900 px: last resize %v (first %v), document %v", h, h0, docHeight)
	}
}

// postToFrame has the partner page send planreview:renew with url.
func (r *browserRig) postToFrame(url string) {
	r.t.Helper()
	if _, err := chromedp.Run(r.ctx, chromedp.Evaluate[any](fmt.Sprintf(`document.getElementById('pr').contentWindow.postMessage({type: 'planreview:renew', url: %q}, '*')`, url))); err != nil {
		r.t.Fatal(err)
	}
}

// TestUnreadableSetInBrowser: a set of scanned sheets (no text) says it
// was not reviewed and names no code as applied.
func TestUnreadableSetInBrowser(t *testing.T) {
	r := newBrowserRig(t)
	jobID := r.scanned("Scanned floor plans", "yale_TC_scanned_floorplans_8p.pdf")
	r.open(r.link("job", jobID))
	r.waitFrame("results", `!document.getElementById('results').hidden && document.getElementById('basis').textContent.length > 0`, time.Minute)
	var shown struct{ Status, Basis string }
	r.mustFrame(`({status: document.getElementById('job-status').textContent, basis: document.getElementById('basis').textContent})`, &shown)
	if !strings.Contains(shown.Status, "Not reviewed") || strings.Contains(shown.Status, "complete") {
		t.Errorf("status %q", shown.Status)
	}
	if !strings.Contains(shown.Basis, "Nothing in this set could be read") || !strings.Contains(shown.Basis, "no code was applied") {
		t.Errorf("basis panel %q", shown.Basis)
	}
	for _, code := range []string{"IBC", "IRC", "International", "Codes applied"} {
		if strings.Contains(shown.Basis, code) {
			t.Errorf("basis panel names %q for a set nothing was read in: %q", code, shown.Basis)
		}
	}
}

// TestPhoneLayoutInBrowser: at phone width a finding opened shows its
// sheet crop right under its text, its box in the crop, without the page
// moving, and nothing scrolls sideways.
func TestPhoneLayoutInBrowser(t *testing.T) {
	r := newBrowserRig(t)
	jobID := r.scanned("Kaiser Richmond E201A", "us_ca_kaiser_richmond_E201A_power_signal.pdf")
	_, order := r.anchors(jobID)
	if len(order) == 0 {
		t.Fatal("no anchored finding")
	}
	if err := chromedp.Do(r.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	r.open(r.link("job", jobID))
	r.waitFrame("findings", `document.querySelectorAll('.finding').length > 0 && document.querySelector('#v-port .canvas img.base')`, time.Minute)
	var scrollBefore, scrollAfter float64
	r.mustFrame(fmt.Sprintf(`document.querySelector('#finding-%s summary').scrollIntoView(); scrollY`, order[0]), &scrollBefore)
	r.mustFrame(fmt.Sprintf(`document.querySelector('#finding-%s summary').click()`, order[0]), nil)
	r.waitFrame("crop shown", fmt.Sprintf(`(function(){ var c = document.querySelector('#finding-%s .crop'); return c && c.querySelector('.crop-box') && c.querySelector('img.base').complete })()`, order[0]), 30*time.Second)
	var layout struct {
		Summary, Crop, Box rect
		Scroll             float64
	}
	r.mustFrame(fmt.Sprintf(`(function(){
		function R(e){ var r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }
		var d = document.getElementById('finding-%s');
		return {summary: R(d.querySelector('summary')), crop: R(d.querySelector('.crop')), box: R(d.querySelector('.crop-box')), scroll: scrollY};
	})()`, order[0]), &layout)
	scrollAfter = layout.Scroll
	if gap := layout.Crop.Top - layout.Summary.Bottom; gap < 0 || gap > 40 {
		t.Errorf("the crop is %v px from its finding's text (summary %+v, crop %+v)", gap, layout.Summary, layout.Crop)
	}
	if !layout.Crop.contains(layout.Box, 1) {
		t.Errorf("the finding's box %+v is not inside its crop %+v", layout.Box, layout.Crop)
	}
	if d := scrollAfter - scrollBefore; d > 50 || d < -50 {
		t.Errorf("opening a finding moved the page by %v px", d)
	}
	var overflow []string
	r.mustFrame(`document.documentElement.scrollWidth <= innerWidth + 1 ? [] :
		Array.prototype.filter.call(document.querySelectorAll('body *'), function(e){ return e.getBoundingClientRect().right > innerWidth + 1 })
		.map(function(e){ return e.tagName + '.' + e.className + '#' + e.id }).slice(0, 10)`, &overflow)
	if len(overflow) > 0 {
		t.Errorf("job screen scrolls sideways at 390 px: %v", overflow)
	}
	r.screenshot("phone-390", 390)
}

// TestScreensLoadOnlyFromAppliance: the login, job (zoomed, with tiles),
// chat and expired screens request nothing but the appliance (and the
// partner page that frames them); no cookie is set.
func TestScreensLoadOnlyFromAppliance(t *testing.T) {
	r := newBrowserRig(t)
	jobID := r.scanned("Kaiser Richmond E201A", "us_ca_kaiser_richmond_E201A_power_signal.pdf")
	r.open(r.link("login", ""))
	r.waitFrame("job list", `document.querySelectorAll('#jobs li').length === 1`, 20*time.Second)
	r.mustFrame(`document.querySelector('#jobs .open-chat').click()`, nil)
	r.waitFrame("chat from the job list, titled", `location.pathname.indexOf('/embed/chat/') === 0 && /Kaiser Richmond E201A/.test(document.getElementById('job-title').textContent) && /Kaiser Richmond E201A/.test(document.title)`, 20*time.Second)
	r.open(r.link("job", jobID))
	r.waitFrame("sheet shown", `document.querySelector('#v-port .canvas img.base') && document.querySelector('#v-port .canvas img.base').complete && document.querySelectorAll('.thumb img').length > 0`, time.Minute)
	r.mustFrame(`document.getElementById('v-port').focus()`, nil)
	for i := 0; i < 4; i++ { // to 4x: past the screen image, tiles
		r.press("+")
	}
	r.waitFrame("tiles", `document.querySelectorAll('#v-port .tile').length > 0 && Array.prototype.every.call(document.querySelectorAll('#v-port .tile'), function(i){ return i.complete })`, time.Minute)
	// Chat from the job screen: the job's chat, titled with its name, and
	// back to the review.
	r.mustFrame(`document.getElementById('open-chat').click()`, nil)
	r.waitFrame("chat from the job screen", `location.pathname === '/embed/chat/' + `+fmt.Sprintf("%q", jobID)+` && /Kaiser Richmond E201A/.test(document.getElementById('job-title').textContent) && !document.getElementById('chat-back').hidden`, 20*time.Second)
	r.mustFrame(`document.getElementById('chat-back').click()`, nil)
	r.waitFrame("back on the job screen", `location.pathname.indexOf('/embed/job/') === 0 && document.getElementById('job-title').textContent === 'Kaiser Richmond E201A'`, 20*time.Second)
	r.open(r.base + "/embed/job/" + jobID + "?t=tampered.token")
	r.waitFrame("expired page", `/expired/.test(document.querySelector('h1').textContent)`, 10*time.Second)

	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.requests) < 10 {
		t.Fatalf("only %d requests recorded", len(r.requests))
	}
	for _, u := range r.requests {
		// The partner's page itself (its document, the browser's favicon
		// request for it) is the only other origin.
		if !strings.HasPrefix(u, r.base+"/") && u != r.partner+"/" && u != r.partner+"/favicon.ico" && !strings.HasPrefix(u, "data:") {
			t.Errorf("request off the appliance: %s", u)
		}
	}
	if len(r.cookies) > 0 {
		t.Errorf("Set-Cookie seen: %v", r.cookies)
	}
}

// TestFailedScanInBrowser: a scan that failed says why and what to do
// instead, and does not offer the same files again: the review starts
// only with a new upload.
func TestFailedScanInBrowser(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf not installed")
	}
	src, err := filepath.Abs("../../shared/corpus/fsec_pv_permit_sample_generated.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); err != nil {
		t.Skip("corpus absent")
	}
	locked := filepath.Join(t.TempDir(), "locked.pdf")
	if out, err := exec.Command(qpdf, "--encrypt", "user-secret", "owner-secret", "256", "--", src, locked).CombinedOutput(); err != nil {
		t.Fatalf("qpdf: %v %s", err, out)
	}
	r := newBrowserRig(t)
	jobID := r.scannedFile("Locked plans", locked)
	r.open(r.link("job", jobID))
	r.waitFrame("failure shown", `!document.getElementById('failure').hidden`, 30*time.Second)
	var shown struct {
		Failure, Start string
		Disabled       bool
	}
	r.mustFrame(`({failure: document.getElementById('failure').textContent, start: document.getElementById('start').textContent, disabled: document.getElementById('start').disabled})`, &shown)
	if !strings.Contains(shown.Failure, "password") || !strings.Contains(shown.Failure, "could not be done") {
		t.Errorf("failure panel %q: want the reason and what to do", shown.Failure)
	}
	if !shown.Disabled || strings.Contains(shown.Start, "again") {
		t.Errorf("start button %q (disabled %v): the same files offered again", shown.Start, shown.Disabled)
	}
	r.uploadFiles("#pdfs", []string{src})
	r.waitFrame("a new upload enables the review", `document.querySelector('#uploads li.done') && !document.getElementById('start').disabled`, 30*time.Second)
}
