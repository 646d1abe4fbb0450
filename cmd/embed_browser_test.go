package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	cdpnetwork "github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/spf13/pflag"

	"planreview/api"
	"planreview/api/signing"
	"planreview/embed"
)

// browserRig is the real appliance in-process on loopback, a partner page
// on another loopback origin (127.0.0.2) that frames the screens, and a
// headless Chromium that records every request, response header and the
// screens' JavaScript contexts.
type browserRig struct {
	t       testing.TB
	ap      *appliance
	cfg     *Config
	key     string
	base    string // the appliance's origin
	partner string // the partner page's origin
	ctx     context.Context

	mu       sync.Mutex
	contexts map[string]runtime.ExecutionContextID // origin → newest context
	requests []string
	cookies  []string
	iframe   string // src of the frame the partner page shows next
	shots    string // screenshots folder
}

func newBrowserRig(t testing.TB) *browserRig { return newBrowserRigWith(t, nil) }

// newBrowserRigWith is newBrowserRig with the appliance's configuration
// changed by configure before it starts (nil: as loaded).
func newBrowserRigWith(t testing.TB, configure func(*Config)) *browserRig {
	chromium := "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		if chromium, err = exec.LookPath("chromium"); err != nil {
			t.Skip("chromium not installed")
		}
	}
	cfg, err := loadConfig(newViper(), "", pflag.NewFlagSet("browser", pflag.ContinueOnError))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Data.Dir = newDataDir(t)
	cfg.Server.Listen = "127.0.0.1:0"
	if configure != nil {
		configure(&cfg)
	}
	sheetImageModuleCache = filepath.Join(os.TempDir(), "planreview-test-wasm-cache")
	ap, err := startAppliance(cfg, newLogger(cfg, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ap.Shutdown(context.Background()) })

	r := &browserRig{t: t, ap: ap, cfg: &cfg, base: ap.publicURL, contexts: map[string]runtime.ExecutionContextID{}}
	// The partner's page: another loopback address, so another site.
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("127.0.0.2 is not a loopback address here: %v", err)
	}
	partnerSrv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		src := r.iframe
		r.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><style>body{margin:0}iframe{border:0;width:100%%;height:760px}</style></head>
<body><iframe id="pr" title="Plan review" src="%s"></iframe>
<script>window.msgs=[];addEventListener('message',function(e){msgs.push({origin:e.origin,data:e.data})});</script></body></html>`, src)
	})}
	go partnerSrv.Serve(ln)
	t.Cleanup(func() { partnerSrv.Close() })
	r.partner = "http://" + ln.Addr().String()

	admin := &api.Admin{Store: ap.db, Changed: ap.api.KeysChanged}
	k, err := admin.IssueKey(context.Background(), "Springfield")
	if err != nil {
		t.Fatal(err)
	}
	r.key = k.Key
	if _, err := admin.SetPartner(context.Background(), "Springfield", api.PartnerSettings{FrameOrigins: []string{r.partner}}); err != nil {
		t.Fatal(err)
	}

	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true),
		// One renderer for both sites, so the frame's DOM is reachable
		// from the page's DOM tree (the CSP and postMessage still apply).
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"),
	)...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx, chromedp.WithListener(func(ev any) {
		r.mu.Lock()
		defer r.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExecutionContextCreated:
			r.contexts[ev.Context.Origin] = ev.Context.ID
		case *cdpnetwork.EventRequestWillBeSent:
			r.requests = append(r.requests, ev.Request.URL)
		case *cdpnetwork.EventResponseReceivedExtraInfo:
			for name, v := range ev.Headers {
				if strings.EqualFold(name, "Set-Cookie") {
					r.cookies = append(r.cookies, fmt.Sprint(v))
				}
			}
		}
	}))
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	r.ctx = ctx
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdpnetwork.Enable, cdpnetwork.EnableParams{})
		return err
	}), chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	return r
}

// apiCall is a partner server call with the key.
func (r *browserRig) apiCall(method, path, body string, out any) int {
	r.t.Helper()
	req, _ := http.NewRequest(method, r.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+r.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		_ = json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

func (r *browserRig) link(screen, jobID string) string {
	var l struct{ URL string }
	body := fmt.Sprintf(`{"screen":%q}`, screen)
	if jobID != "" {
		body = fmt.Sprintf(`{"screen":%q,"jobId":%q}`, screen, jobID)
	}
	if st := r.apiCall("POST", "/api/v1/embed", body, &l); st != 200 {
		r.t.Fatalf("embed link: %d", st)
	}
	return l.URL
}

// open shows src in the partner page's iframe.
func (r *browserRig) open(src string) {
	r.t.Helper()
	r.mu.Lock()
	r.iframe = src
	delete(r.contexts, r.base)
	r.mu.Unlock()
	if err := chromedp.Do(r.ctx, chromedp.Navigate(r.partner+"/")); err != nil {
		r.t.Fatal(err)
	}
}

// frame evaluates JavaScript in the screen's frame; out receives its value.
func (r *browserRig) frame(expr string, out any) error {
	r.mu.Lock()
	id, ok := r.contexts[r.base]
	r.mu.Unlock()
	if !ok {
		return fmt.Errorf("no frame context yet")
	}
	raw, err := chromedp.Run(r.ctx, chromedp.Evaluate[[]byte](expr, func(p *runtime.EvaluateParams) {
		p.ContextID = id
		yes := true
		p.AwaitPromise = &yes
	}))
	if err != nil {
		return err
	}
	if out != nil && len(raw) > 0 {
		return json.Unmarshal(raw, out)
	}
	return nil
}

// waitFrame polls a boolean expression in the frame.
func (r *browserRig) waitFrame(what, expr string, timeout time.Duration) {
	r.t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for time.Now().Before(deadline) {
		var ok bool
		if lastErr = r.frame("!!("+expr+")", &ok); lastErr == nil && ok {
			return
		}
		time.Sleep(150 * time.Millisecond)
	}
	var state string
	_ = r.frame(`document.body ? document.body.innerText.slice(0, 800) : ''`, &state)
	r.t.Fatalf("%s: not within %s (%v); frame shows:\n%s", what, timeout, lastErr, state)
}

func (r *browserRig) mustFrame(expr string, out any) {
	r.t.Helper()
	if err := r.frame(expr, out); err != nil {
		r.t.Fatalf("%s: %v", expr, err)
	}
}

// uploadFiles sets the frame's file input to paths.
func (r *browserRig) uploadFiles(selector string, paths []string) {
	r.t.Helper()
	err := chromedp.Do(r.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		depth, pierce := int64(-1), true
		res, err := cdp.Call(ctx, tg, dom.GetDocument, dom.GetDocumentParams{Depth: &depth, Pierce: &pierce})
		if err != nil {
			return err
		}
		var doc *cdp.Node
		var find func(n *cdp.Node)
		find = func(n *cdp.Node) {
			if n.ContentDocument != nil && strings.HasPrefix(n.ContentDocument.DocumentURL, r.base) {
				doc = n.ContentDocument
			}
			for _, c := range n.Children {
				find(c)
			}
		}
		find(res.Root)
		if doc == nil {
			return fmt.Errorf("no appliance frame in the page")
		}
		q, err := cdp.Call(ctx, tg, dom.QuerySelector, dom.QuerySelectorParams{NodeID: doc.NodeID, Selector: selector})
		if err != nil {
			return err
		}
		_, err = cdp.Call(ctx, tg, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, NodeID: q.NodeID})
		return err
	}))
	if err != nil {
		r.t.Fatal(err)
	}
}

func (r *browserRig) screenshot(name string, width int64) {
	r.t.Helper()
	if err := chromedp.Do(r.ctx, chromedp.EmulateViewport(width, 900), chromedp.Sleep(300*time.Millisecond)); err != nil {
		r.t.Fatal(err)
	}
	png, err := chromedp.Run(r.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		r.t.Fatal(err)
	}
	dir := os.Getenv("PLANREVIEW_SCREENSHOTS")
	if dir == "" {
		r.mu.Lock()
		if r.shots == "" {
			r.shots = r.t.TempDir()
		}
		dir = r.shots
		r.mu.Unlock()
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.t.Logf("screenshot %s", path)
}

// TestEmbedScreensInBrowser drives the hosted screens in headless Chromium
// inside a partner's iframe: login lists and opens a job, a corpus PDF is
// uploaded through the job screen and scanned, findings and boxes agree,
// a finding brings its box into view, chat cites a sheet that opens with
// the words marked, an expired link tells the parent; no cookie, no
// request off the appliance, usable at 360 and 1280 px.
func TestEmbedScreensInBrowser(t *testing.T) {
	pdf := "../../shared/corpus/fsec_pv_permit_sample_generated.pdf"
	if _, err := os.Stat(pdf); err != nil {
		t.Skip("corpus absent")
	}
	pdf, _ = filepath.Abs(pdf)
	r := newBrowserRig(t)

	var job, older struct{ JobID string }
	r.apiCall("POST", "/api/v1/jobs", `{"name":"Old barn","externalId":"BLD-1"}`, &older)
	r.apiCall("POST", "/api/v1/jobs", `{"name":"Cocoa PV array","externalId":"BLD-2026-0042"}`, &job)

	// Login: both jobs, newest first; open the newest.
	r.open(r.link("login", ""))
	r.waitFrame("job list", `document.querySelectorAll('#jobs li').length === 2`, 20*time.Second)
	var first string
	r.mustFrame(`document.querySelector('#jobs li').dataset.job`, &first)
	if first != job.JobID {
		t.Fatalf("first job %s, want the newest %s", first, job.JobID)
	}
	r.screenshot("login-1280", 1280)
	r.mustFrame(`document.querySelector('#jobs li a').click()`, nil)

	// Job: upload through the browser, start, watch it complete.
	r.waitFrame("job screen with upload", `location.pathname.indexOf('/embed/job/') === 0 && !document.getElementById('upload').hidden`, 20*time.Second)
	notPDF := filepath.Join(t.TempDir(), "plans.pdf")
	if err := os.WriteFile(notPDF, []byte("<html>not a plan</html>"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.uploadFiles("#pdfs", []string{notPDF})
	r.waitFrame("a clear error for a file that is not a PDF", `(function(){ var e = document.querySelector('#uploads li.error'); return e && /Not a PDF/.test(e.textContent) })()`, 10*time.Second)
	r.uploadFiles("#pdfs", []string{pdf})
	r.waitFrame("upload done", `document.querySelector('#uploads li.done') && !document.getElementById('start').disabled`, 30*time.Second)
	r.mustFrame(`document.getElementById('start').click()`, nil)
	r.waitFrame("scan complete with findings", `document.querySelectorAll('.finding').length > 0`, 3*time.Minute)

	var findings struct {
		Findings []struct {
			FindingID       string
			EvidenceAnchors []struct{ Page int }
		}
	}
	r.apiCall("GET", "/api/v1/jobs/"+job.JobID+"/findings", "", &findings)
	// The viewer shows one sheet at a time: each anchored finding, opened,
	// brings its sheet with its boxes.
	anchored := ""
	for _, f := range findings.Findings {
		if len(f.EvidenceAnchors) == 0 {
			continue
		}
		onSheet := 0
		for _, a := range f.EvidenceAnchors {
			if a.Page == f.EvidenceAnchors[0].Page {
				onSheet++
			}
		}
		r.mustFrame(fmt.Sprintf(`document.querySelector('#finding-%s summary').click()`, f.FindingID), nil)
		r.waitFrame("finding's sheet with its boxes", fmt.Sprintf(`document.querySelectorAll('#v-port .box.active[data-finding=%q]').length === %d`, f.FindingID, onSheet), 30*time.Second)
		r.mustFrame(fmt.Sprintf(`document.getElementById('finding-%s').open = false`, f.FindingID), nil)
		if anchored == "" {
			anchored = f.FindingID
		}
	}
	var listed int
	r.mustFrame(`document.querySelectorAll('.finding').length`, &listed)
	if listed != len(findings.Findings) {
		t.Errorf("%d findings listed, API has %d", listed, len(findings.Findings))
	}
	// Each box lies inside its page image once the images loaded.
	r.waitFrame("sheet images loaded", `Array.prototype.every.call(document.querySelectorAll('.canvas img'), function(i){ i.loading='eager'; return i.complete && i.naturalWidth > 0 })`, 90*time.Second)
	var outside []string
	r.mustFrame(`Array.prototype.filter.call(document.querySelectorAll('.box'), function(b){
		var c = b.parentNode.querySelector('img').getBoundingClientRect(), r = b.getBoundingClientRect();
		return r.left < c.left - 1 || r.top < c.top - 1 || r.right > c.right + 1 || r.bottom > c.bottom + 1;
	}).map(function(b){ return b.dataset.finding })`, &outside)
	if len(outside) > 0 {
		t.Errorf("boxes outside their page: %v", outside)
	}
	if anchored == "" {
		t.Log("no finding with an anchor in this set: box scrolling not exercised")
	} else {
		r.mustFrame(`document.querySelector('.sheets-col').scrollTop = 0; window.scrollTo(0, 0)`, nil)
		r.mustFrame(fmt.Sprintf(`document.querySelector('#finding-%s summary').click()`, anchored), nil)
		r.waitFrame("clicked finding's box in view", fmt.Sprintf(`(function(){
			var b = document.querySelector('.box[data-finding=%q]').getBoundingClientRect();
			return b.top >= 0 && b.bottom <= innerHeight && b.left >= 0 && b.right <= innerWidth;
		})()`, anchored), 5*time.Second)
		// And a box opens its finding.
		r.mustFrame(fmt.Sprintf(`document.getElementById('finding-%s').open = false; document.querySelector('.box[data-finding=%q]').click()`, anchored, anchored), nil)
		r.waitFrame("box opens its finding", fmt.Sprintf(`document.getElementById('finding-%s').open`, anchored), 5*time.Second)
	}
	r.screenshot("job-1280", 1280)
	r.screenshot("job-360", 360)
	var overflow []string
	r.mustFrame(`document.documentElement.scrollWidth <= innerWidth + 1 ? [] :
		Array.prototype.filter.call(document.querySelectorAll('body *'), function(e){ return e.getBoundingClientRect().right > innerWidth + 1 })
		.map(function(e){ return e.tagName + '.' + e.className + '#' + e.id }).slice(0, 10)`, &overflow)
	if len(overflow) > 0 {
		t.Errorf("job screen scrolls sideways at 360 px: %v", overflow)
	}
	_ = chromedp.Do(r.ctx, chromedp.EmulateViewport(1280, 900))

	// Chat: an answer with a citation that opens its sheet, words marked.
	r.open(r.link("chat", job.JobID))
	r.waitFrame("chat screen", `document.getElementById('ask')`, 20*time.Second)
	cited := false
	for _, q := range []string{"What is the system size?", "What is the site address?", "Which inverter is used?"} {
		r.mustFrame(fmt.Sprintf(`document.getElementById('message').value = %q; document.getElementById('ask').requestSubmit()`, q), nil)
		r.waitFrame("answer", `document.querySelectorAll('.bot').length && !document.querySelector('.bot:last-child .muted')`, 20*time.Second)
		r.mustFrame(`!!document.querySelector('.bot:last-child .cite')`, &cited)
		if cited {
			break
		}
	}
	if !cited {
		t.Fatal("no chat answer carried a citation")
	}
	r.mustFrame(`document.querySelector('.bot:last-child .cite').click()`, nil)
	r.waitFrame("cited sheet with marked words", `!document.getElementById('cited').hidden && document.querySelector('#cited img').complete && document.querySelectorAll('#cited .mark').length > 0`, 60*time.Second)
	r.screenshot("chat-360", 360)
	r.screenshot("chat-1280", 1280)

	// An expired link: the 403 page, and the partner page hears of it.
	signer, err := signing.LoadOrCreate(r.cfg.SecretPath())
	if err != nil {
		t.Fatal(err)
	}
	past := &embed.Tokens{Signer: signer, Now: func() time.Time { return time.Now().Add(-time.Hour) }}
	token, _, err := past.Mint(r.partnerID(), embed.ScreenJob, job.JobID, 30*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r.open(r.base + "/embed/job/" + job.JobID + "?t=" + token)
	var got []struct {
		Origin string
		Data   struct{ Type, Screen, JobID string }
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(got) == 0 && time.Now().Before(deadline) {
		if raw, err := chromedp.Run(r.ctx, chromedp.Evaluate[[]byte](`window.msgs`)); err == nil {
			_ = json.Unmarshal(raw, &got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(got) != 1 || got[0].Data.Type != "planreview:expired" || got[0].Data.Screen != "job" || got[0].Data.JobID != job.JobID || got[0].Origin != r.base {
		t.Errorf("parent received %+v", got)
	}
	var heading string
	r.mustFrame(`document.querySelector('h1').textContent`, &heading)
	if !strings.Contains(heading, "expired") {
		t.Errorf("expired page heading %q", heading)
	}

	// Nothing left the appliance; no cookie was ever set.
	var cookie string
	if err := r.frame(`document.cookie`, &cookie); err != nil || cookie != "" {
		t.Errorf("document.cookie = %q (%v)", cookie, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, u := range r.requests {
		if !strings.HasPrefix(u, r.base+"/") && !strings.HasPrefix(u, r.partner+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("request off the appliance: %s", u)
		}
	}
	if len(r.cookies) > 0 {
		t.Errorf("Set-Cookie seen: %v", r.cookies)
	}
}

func (r *browserRig) partnerID() string {
	var p struct{ PartnerID string }
	r.apiCall("GET", "/api/v1/ping", "", &p)
	return p.PartnerID
}
