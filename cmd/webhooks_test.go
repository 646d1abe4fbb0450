package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"planreview/api"
	"planreview/scan/plangen"
	"planreview/store"
	"planreview/webhooks"
)

// delivery is one request a test receiver got.
type delivery struct {
	ID, Type  string
	Data      map[string]any
	Signature string
	ValidSig  bool
	At        time.Time
}

// receiver is a webhook endpoint on 127.0.0.1 that records what it gets;
// answer picks the status of the n-th request (0-based).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []delivery
	secret string
	answer func(n int, r *http.Request) int
}

func newReceiver(t *testing.T, answer func(n int, r *http.Request) int) *receiver {
	t.Helper()
	rc := &receiver{answer: answer}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct {
			ID, Type string
			Data     map[string]any
		}
		_ = json.Unmarshal(body, &ev)
		rc.mu.Lock()
		n := len(rc.got)
		sig := r.Header.Get(webhooks.SignatureHeader)
		rc.got = append(rc.got, delivery{ID: ev.ID, Type: ev.Type, Data: ev.Data, Signature: sig,
			ValidSig: webhooks.Verify(sig, rc.secret, body, time.Now().Unix(), 300), At: time.Now()})
		rc.mu.Unlock()
		status := http.StatusOK
		if rc.answer != nil {
			status = rc.answer(n, r)
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

func (rc *receiver) waitFor(t *testing.T, n int, timeout time.Duration) []delivery {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if got := rc.deliveries(); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("receiver %s got %d deliveries, want %d", rc.URL, len(rc.deliveries()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type webhookAnswer struct {
	WebhookID string   `json:"webhookId"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	Secret    string   `json:"secret"`
}

func (c apiClient) registerWebhook(rc *receiver, events ...string) webhookAnswer {
	c.t.Helper()
	var w webhookAnswer
	if status := c.do(http.MethodPost, "/api/v1/webhooks", map[string]any{"url": rc.URL + "/hook", "events": events}, &w); status != http.StatusCreated {
		c.t.Fatalf("register webhook: %d", status)
	}
	if !strings.HasPrefix(w.Secret, "whsec_") {
		c.t.Fatalf("secret %q", w.Secret)
	}
	rc.mu.Lock()
	rc.secret = w.Secret
	rc.mu.Unlock()
	return w
}

// apiError is the contract's error body.
type apiError struct {
	Error struct{ Code, Param string } `json:"error"`
}

func (c apiClient) errorOf(method, path string, body any) (int, apiError) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.base+path, nil)
	if body != nil {
		raw, _ := json.Marshal(body)
		req, _ = http.NewRequest(method, c.base+path, strings.NewReader(string(raw)))
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var e apiError
	_ = json.NewDecoder(resp.Body).Decode(&e)
	return resp.StatusCode, e
}

const webhookConfig = "webhooks:\n  allowed_hosts: [127.0.0.1]\n  retry_base: 50ms\n"

// TestWebhookScanCompleted: a real scan ends; a loopback receiver gets
// scan.completed signed with its secret; a receiver that answers 500 first
// gets the same event id again and then has it delivered; the operator sees
// the deliveries and sends the event again; another partner sees none of it.
func TestWebhookScanCompleted(t *testing.T) {
	dir := newDataDir(t)
	srv := startServer(t, dir, "--config", writeConfig(t, webhookConfig))
	c := apiClient{t: t, base: srv.base, key: issueKey(t, dir, "hooked").Key}
	other := apiClient{t: t, base: srv.base, key: issueKey(t, dir, "other").Key}

	good := newReceiver(t, nil)
	flaky := newReceiver(t, func(n int, _ *http.Request) int {
		if n == 0 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	})
	goodHook := c.registerWebhook(good, "scan.completed", "scan.failed")
	c.registerWebhook(flaky, "scan.completed")

	set, err := plangen.Generate(plangen.Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	jobID := c.jobWithUpload("hooked", set.Files[0].PDF)
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+jobID+"/scan", nil, nil); status != http.StatusOK {
		t.Fatalf("scan: %d", status)
	}
	got := good.waitFor(t, 1, 2*time.Minute)[0]
	if got.Type != "scan.completed" || !got.ValidSig || got.Data["jobId"] != jobID || got.Data["status"] != "complete" {
		t.Fatalf("delivery: %+v", got)
	}
	if finished, err := time.Parse(time.RFC3339Nano, fmt.Sprint(got.Data["finishedAt"])); err == nil {
		t.Logf("delivered %s after the scan completed", got.At.Sub(finished).Round(time.Millisecond))
	}
	twice := flaky.waitFor(t, 2, 30*time.Second)
	if twice[0].ID != got.ID || twice[1].ID != got.ID || !twice[1].ValidSig {
		t.Fatalf("flaky receiver got %s then %s, want %s twice", twice[0].ID, twice[1].ID, got.ID)
	}

	// Reconciliation lists the event; the operator sees both deliveries.
	var events struct {
		Events []struct{ ID, Type string } `json:"events"`
	}
	if status := c.do(http.MethodGet, "/api/v1/events?limit=10", nil, &events); status != http.StatusOK || len(events.Events) != 1 || events.Events[0].ID != got.ID {
		t.Fatalf("GET /events: %d %+v", status, events)
	}
	var ds []struct {
		EventID, Status string
		Attempts        int
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := mustCLI(t, dir, "webhooks", "deliveries", "--event", got.ID, "--json")
		ds = nil
		if err := json.Unmarshal([]byte(res.stdout), &ds); err != nil {
			t.Fatalf("deliveries --json: %v\n%s", err, res.stdout)
		}
		if len(ds) == 2 && ds[0].Status == "delivered" && ds[1].Status == "delivered" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries: %+v", ds)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if attempts := ds[0].Attempts + ds[1].Attempts; attempts != 3 {
		t.Fatalf("attempts %d, want 1 + 2", attempts)
	}
	list := mustCLI(t, dir, "webhooks", "list", "--partner", "hooked")
	if !strings.Contains(list.stdout, goodHook.WebhookID) || strings.Contains(list.stdout, "whsec_") {
		t.Fatalf("webhooks list:\n%s", list.stdout)
	}
	mustCLI(t, dir, "webhooks", "retry", got.ID)
	if again := good.waitFor(t, 2, 10*time.Second); again[1].ID != got.ID {
		t.Fatalf("retry sent %s, want %s", again[1].ID, got.ID)
	}

	// Another partner never sees the endpoints or the events.
	for _, p := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/webhooks/" + goodHook.WebhookID},
		{http.MethodDelete, "/api/v1/webhooks/" + goodHook.WebhookID},
		{http.MethodPost, "/api/v1/webhooks/" + goodHook.WebhookID + "/rotate-secret"},
		{http.MethodGet, "/api/v1/events/" + got.ID},
	} {
		if status, e := other.errorOf(p.method, p.path, nil); status != http.StatusNotFound || e.Error.Code != "not_found" {
			t.Errorf("%s %s as another partner: %d %s", p.method, p.path, status, e.Error.Code)
		}
	}
	var otherEvents, otherHooks map[string][]any
	other.do(http.MethodGet, "/api/v1/events", nil, &otherEvents)
	other.do(http.MethodGet, "/api/v1/webhooks", nil, &otherHooks)
	if len(otherEvents["events"]) != 0 || len(otherHooks["webhooks"]) != 0 {
		t.Fatalf("another partner sees %v and %v", otherEvents, otherHooks)
	}

	// Rotation: both secrets sign during the grace period.
	var rotated webhookAnswer
	if status := c.do(http.MethodPost, "/api/v1/webhooks/"+goodHook.WebhookID+"/rotate-secret", map[string]any{"gracePeriodSeconds": 3600}, &rotated); status != http.StatusOK || rotated.Secret == goodHook.Secret {
		t.Fatalf("rotate: %d %+v", status, rotated)
	}
	mustCLI(t, dir, "webhooks", "retry", got.ID)
	third := good.waitFor(t, 3, 10*time.Second)[2]
	if strings.Count(third.Signature, "v1=") != 2 || !third.ValidSig {
		t.Fatalf("after rotation: %q (old secret valid %v)", third.Signature, third.ValidSig)
	}
}

// TestWebhookRegistrationGuard: with no allowed hosts (the default) every
// URL is refused; with some, a URL outside them is refused, with the
// contract's error.
func TestWebhookRegistrationGuard(t *testing.T) {
	for _, tc := range []struct {
		config, url, param string
	}{
		{"", "http://127.0.0.1:9/hook", "url"},
		{webhookConfig, "http://127.0.0.2:9/hook", "url"},
		{webhookConfig, "ftp://127.0.0.1:9/hook", "url"},
		{webhookConfig, "http://127.0.0.1:9/hook#x", "url"},
	} {
		dir := newDataDir(t)
		srv := startServer(t, dir, "--config", writeConfig(t, tc.config+"log:\n  level: info\n"))
		c := apiClient{t: t, base: srv.base, key: issueKey(t, dir, "guarded").Key}
		status, e := c.errorOf(http.MethodPost, "/api/v1/webhooks", map[string]any{"url": tc.url, "events": []string{"scan.completed"}})
		if status != http.StatusBadRequest || e.Error.Code != "invalid_request" || e.Error.Param != tc.param {
			t.Errorf("config %q url %s: %d %+v", tc.config, tc.url, status, e)
		}
		srv.signal(15)
		srv.wait(30 * time.Second)
	}
}

// TestWebhookSurvivesSIGKILL: the server dies (SIGKILL) after the scan's
// end committed and while its delivery is in flight; after a restart the
// event is delivered, with the same id.
func TestWebhookSurvivesSIGKILL(t *testing.T) {
	dir := newDataDir(t)
	cfg := writeConfig(t, webhookConfig)
	srv := startServer(t, dir, "--config", cfg)
	c := apiClient{t: t, base: srv.base, key: issueKey(t, dir, "killed").Key}
	hold := make(chan struct{})
	rc := newReceiver(t, func(n int, r *http.Request) int {
		if n == 0 {
			<-hold // the first attempt hangs until the server is dead
		}
		return http.StatusOK
	})
	c.registerWebhook(rc, "scan.failed")
	jobID := c.jobWithUpload("unreadable", pdfBytes(t, 4096)) // not a PDF past its header: the scan fails
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+jobID+"/scan", nil, nil); status != http.StatusOK {
		t.Fatalf("scan: %d", status)
	}
	first := rc.waitFor(t, 1, time.Minute)[0]
	srv.kill()
	close(hold)

	srv = startServer(t, dir, "--config", cfg)
	again := rc.waitFor(t, 2, 30*time.Second)[1]
	if again.ID != first.ID || again.Type != "scan.failed" || !again.ValidSig || again.Data["jobId"] != jobID {
		t.Fatalf("after restart: %+v, first %+v", again, first)
	}
}

// TestWebhookRefusedAddressAtDelivery: the in-process appliance, with DNS
// replaced so that a listed name, hooks.test, resolves to 127.0.0.2 while
// only 127.0.0.1 is listed as an address. Registration accepts the name;
// every delivery to it is refused at connect time (nothing reaches
// 127.0.0.2), while an endpoint on 127.0.0.1 gets the same event; the
// metrics count both.
func TestWebhookRefusedAddressAtDelivery(t *testing.T) {
	forbidden, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("127.0.0.2 is not a loopback address here: %v", err)
	}
	var hits atomic.Int64
	forbiddenSrv := &http.Server{Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) })}
	go forbiddenSrv.Serve(forbidden)
	t.Cleanup(func() { forbiddenSrv.Close() })

	webhookResolver = func(_ context.Context, host string) ([]netip.Addr, error) {
		if host == "hooks.test" {
			return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
		}
		return nil, fmt.Errorf("no such host %s in this test", host)
	}
	t.Cleanup(func() { webhookResolver = nil })
	cfg, err := loadConfig(newViper(), "", pflag.NewFlagSet("webhooks", pflag.ContinueOnError))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Data.Dir = newDataDir(t)
	cfg.Server.Listen, cfg.Metrics.Listen = "127.0.0.1:0", "127.0.0.1:0"
	cfg.Webhooks.AllowedHosts = []string{"127.0.0.1", "hooks.test"}
	cfg.Webhooks.RetryBase = time.Hour // one attempt each in this test
	ap, err := startAppliance(cfg, newLogger(cfg, io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ap.Shutdown(context.Background()) })
	admin := &api.Admin{Store: ap.db, Changed: ap.api.KeysChanged}
	k, err := admin.IssueKey(context.Background(), "guarded")
	if err != nil {
		t.Fatal(err)
	}
	c := apiClient{t: t, base: ap.publicURL, key: k.Key}

	good := newReceiver(t, nil)
	c.registerWebhook(good, "scan.failed")
	var rebound webhookAnswer
	_, port, _ := net.SplitHostPort(forbidden.Addr().String())
	if status := c.do(http.MethodPost, "/api/v1/webhooks", map[string]any{"url": "http://hooks.test:" + port + "/hook", "events": []string{"scan.failed"}}, &rebound); status != http.StatusCreated {
		t.Fatalf("a listed name is refused at registration: %d", status)
	}
	jobID := c.jobWithUpload("unreadable", pdfBytes(t, 4096))
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+jobID+"/scan", nil, nil); status != http.StatusOK {
		t.Fatalf("scan: %d", status)
	}
	event := good.waitFor(t, 1, time.Minute)[0]
	deadline := time.Now().Add(30 * time.Second)
	for {
		ds, err := ap.db.Deliveries(event.ID, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var refused *store.Delivery
		for i := range ds {
			if ds[i].WebhookID == rebound.WebhookID && ds[i].Attempts > 0 {
				refused = &ds[i]
			}
		}
		if refused != nil {
			if refused.Status != store.DeliveryPending || !strings.Contains(refused.LastError, "hooks.test resolves to 127.0.0.2, which is not in webhooks.allowed_hosts") {
				t.Fatalf("refused delivery: %+v", refused)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no attempt to hooks.test: %+v", ds)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("127.0.0.2 got %d requests", n)
	}
	wants := []string{`planreview_webhook_attempts_total{outcome="refused"} 1`, `planreview_webhook_deliveries_total{state="delivered"} 1`,
		`planreview_webhook_deliveries_total{state="failed"} 0`, "planreview_webhook_deliveries_pending 1"}
	deadline = time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + ap.metricsAddr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var missing []string
		for _, want := range wants {
			if !strings.Contains(string(body), want) {
				missing = append(missing, want)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("metrics lack %q", missing)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
