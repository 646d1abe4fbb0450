package webhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"planreview/store"
	"planreview/webhooks"
)

func TestPolicyCheckURL(t *testing.T) {
	p, err := webhooks.ParsePolicy([]string{"hooks.example.gov", "*.permits.example.gov", "10.20.0.0/16", "127.0.0.1", "::1"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, ok := range []string{"https://hooks.example.gov/x", "https://HOOKS.example.gov./x", "https://a.permits.example.gov/",
		"http://10.20.3.4:8080/h", "http://127.0.0.1:9/", "http://[::1]:9/"} {
		if err := p.CheckURL(ctx, ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"https://evil.example.com/", "http://127.0.0.2/", "http://10.21.0.1/", "ftp://hooks.example.gov/",
		"https://user:pw@hooks.example.gov/", "/relative", "https://permits.example.gov/", "http://169.254.169.254/"} {
		if err := p.CheckURL(ctx, bad); err == nil {
			t.Errorf("%s allowed", bad)
		}
	}
	empty, _ := webhooks.ParsePolicy(nil)
	if err := empty.CheckURL(ctx, "http://127.0.0.1/"); err == nil || !strings.Contains(err.Error(), "webhooks.allowed_hosts") {
		t.Errorf("empty policy: %v", err)
	}
	for _, bad := range []string{"", "10.0.0.0/33", "*.", "exa mple.gov"} {
		if _, err := webhooks.ParsePolicy([]string{bad}); err == nil {
			t.Errorf("entry %q accepted", bad)
		}
	}
	// A name resolving into a listed network is allowed without being listed.
	internal := p.WithResolver(func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("10.20.0.9")}, nil
	})
	if err := internal.CheckURL(ctx, "https://intranet.city.local/hook"); err != nil {
		t.Errorf("name inside a listed network: %v", err)
	}
}

func TestPublic(t *testing.T) {
	for s, want := range map[string]bool{"8.8.8.8": true, "2606:4700::1111": true, "10.0.0.1": false, "127.0.0.2": false,
		"169.254.169.254": false, "100.64.0.1": false, "::1": false, "fd00::1": false, "::ffff:10.0.0.1": false, "0.0.0.0": false} {
		if got := webhooks.Public(netip.MustParseAddr(s)); got != want {
			t.Errorf("Public(%s) = %v", s, got)
		}
	}
}

func TestSignatureAndSealer(t *testing.T) {
	body := []byte(`{"id":"evt_1"}`)
	h := webhooks.SignatureValue([]string{"whsec_new", "whsec_old"}, 1700000000, body)
	for _, secret := range []string{"whsec_new", "whsec_old"} {
		if !webhooks.Verify(h, secret, body, 1700000100, 300) {
			t.Errorf("%s does not verify %s", secret, h)
		}
	}
	if webhooks.Verify(h, "whsec_other", body, 1700000100, 300) || webhooks.Verify(h, "whsec_new", []byte("x"), 1700000100, 300) ||
		webhooks.Verify(h, "whsec_new", body, 1700001000, 300) {
		t.Error("verified what it should not")
	}
	s, err := webhooks.NewSealer(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	sealed, _ := s.Seal("whsec_abc")
	if strings.Contains(string(sealed), "whsec_abc") {
		t.Fatal("sealed secret holds the clear text")
	}
	if got, err := s.Open(sealed); err != nil || got != "whsec_abc" {
		t.Fatalf("open: %q %v", got, err)
	}
}

func TestBackoffGrowsWithJitterAndCap(t *testing.T) {
	d := &webhooks.Deliverer{RetryBase: time.Minute}
	for attempt, base := range map[int]time.Duration{1: time.Minute, 3: 4 * time.Minute, 30: 6 * time.Hour} {
		for range 50 {
			if w := d.Backoff(attempt); w < base/2 || w > base {
				t.Fatalf("Backoff(%d) = %s, want in [%s, %s]", attempt, w, base/2, base)
			}
		}
	}
}

// rig is a real store, a deliverer running against it and a partner.
type rig struct {
	db      *store.DB
	partner store.Partner
	sealer  *webhooks.Sealer
	cancel  context.CancelFunc
	done    chan struct{}
}

func newRig(t *testing.T, policy *webhooks.Policy) *rig {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "planreview.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := db.EnsurePartner("p")
	sealer, _ := webhooks.NewSealer(make([]byte, 32))
	d := &webhooks.Deliverer{Store: db, Client: policy.Client(), Sealer: sealer, RetryBase: 20 * time.Millisecond, Workers: 4}
	db.OnEvents(d.Wake)
	ctx, cancel := context.WithCancel(context.Background())
	r := &rig{db: db, partner: p, sealer: sealer, cancel: cancel, done: make(chan struct{})}
	go func() { d.Run(ctx); close(r.done) }()
	t.Cleanup(func() { cancel(); <-r.done; db.Close() })
	return r
}

func (r *rig) hook(t *testing.T, url string) (store.Webhook, string) {
	t.Helper()
	secret, _ := webhooks.NewSecret()
	sealed, _ := r.sealer.Seal(secret)
	w, err := r.db.CreateWebhook(store.Webhook{PartnerID: r.partner.ID, URL: url, Events: store.EventTypes, Secret: sealed})
	if err != nil {
		t.Fatal(err)
	}
	return w, secret
}

// completeScan takes a job of the partner through a scan that completes,
// which records scan.completed.
func (r *rig) completeScan(t *testing.T) {
	t.Helper()
	db := r.db
	job, _, err := db.CreateJob(store.Job{PartnerID: r.partner.ID, Name: "j"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := db.RegisterFileWithReply(r.partner.ID, job.ID, store.File{FileName: "a.pdf", FileSize: 10, ContentType: "application/pdf"}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CommitUpload(f.ID, 10, "00"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.StartScan(store.ScanRequest{PartnerID: r.partner.ID, JobID: job.ID, Quota: 100, Window: 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	v, ok, err := db.ClaimScan()
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	p := store.NewPipeline()
	p.CurrentStage = store.StageDone
	if err := db.CompleteScan(v.ID, store.ScanResult{}, p); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestRetriesKeepTheEventID(t *testing.T) {
	var mu sync.Mutex
	var ids []string
	var sigOK []bool
	var secret string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev struct{ ID string }
		_ = json.Unmarshal(body, &ev)
		mu.Lock()
		defer mu.Unlock()
		ids = append(ids, ev.ID)
		sigOK = append(sigOK, webhooks.Verify(r.Header.Get(webhooks.SignatureHeader), secret, body, time.Now().Unix(), 300))
		if len(ids) == 1 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer recv.Close()
	policy, _ := webhooks.ParsePolicy([]string{"127.0.0.1"})
	r := newRig(t, policy)
	_, secret = r.hook(t, recv.URL)
	r.completeScan(t)
	waitFor(t, "delivery", func() bool { c, _ := r.db.DeliveryCounts(); return c.Delivered == 1 })
	mu.Lock()
	defer mu.Unlock()
	if len(ids) != 2 || ids[0] != ids[1] || !strings.HasPrefix(ids[0], "evt_") || !sigOK[0] || !sigOK[1] {
		t.Fatalf("ids %v, signatures valid %v", ids, sigOK)
	}
}

// TestGuardRefusesAtConnectTime: a listed name that resolves to a loopback
// address outside the listed ones is never dialed, and a redirect is not
// followed.
func TestGuardRefusesAtConnectTime(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2 here: %v", err)
	}
	var forbiddenHits sync.Map
	forbidden := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { forbiddenHits.Store(r.URL.Path, true) })}
	go forbidden.Serve(ln)
	defer forbidden.Close()
	redirector := httptest.NewServer(http.RedirectHandler("http://"+ln.Addr().String()+"/redirected", http.StatusFound))
	defer redirector.Close()

	_, port, _ := net.SplitHostPort(ln.Addr().String())
	policy, _ := webhooks.ParsePolicy([]string{"127.0.0.1", "hooks.test"})
	policy = policy.WithResolver(func(_ context.Context, host string) ([]netip.Addr, error) {
		if host == "hooks.test" {
			return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
		}
		return nil, errors.New("no such host")
	})
	if err := policy.CheckURL(context.Background(), "http://hooks.test:"+port+"/"); err != nil {
		t.Fatalf("a listed name is refused at registration: %v", err)
	}
	r := newRig(t, policy)
	r.hook(t, "http://hooks.test:"+port+"/rebound")
	r.hook(t, redirector.URL)
	r.completeScan(t)
	waitFor(t, "both attempts", func() bool {
		ds, _ := r.db.Deliveries("", "", 0)
		return len(ds) == 2 && ds[0].Attempts > 0 && ds[1].Attempts > 0
	})
	ds, _ := r.db.Deliveries("", "", 0)
	var errs []string
	for _, d := range ds {
		errs = append(errs, d.LastError)
	}
	joined := strings.Join(errs, " | ")
	if !strings.Contains(joined, "127.0.0.2, which is not in webhooks.allowed_hosts") || !strings.Contains(joined, "answered 302") {
		t.Fatalf("last errors: %s", joined)
	}
	forbiddenHits.Range(func(k, _ any) bool { t.Errorf("the forbidden address got %v", k); return true })
}

// TestDeliveryFailsAfterRetryWindow: an attempt whose next retry would
// fall after the event's 72 h ends the delivery failed.
func TestDeliveryFailsAfterRetryWindow(t *testing.T) {
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	defer recv.Close()
	policy, _ := webhooks.ParsePolicy([]string{"127.0.0.1"})
	db, err := store.Open(filepath.Join(t.TempDir(), "planreview.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := &rig{db: db}
	r.partner, _, _ = db.EnsurePartner("p")
	r.sealer, _ = webhooks.NewSealer(make([]byte, 32))
	r.hook(t, recv.URL)
	r.completeScan(t)
	late := func() time.Time { return time.Now().Add(store.RetryWindow - time.Second) }
	d := &webhooks.Deliverer{Store: db, Client: policy.Client(), Sealer: r.sealer, RetryBase: time.Minute, Now: late}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	waitFor(t, "the delivery to fail", func() bool { c, _ := db.DeliveryCounts(); return c.Failed == 1 })
	ds, _ := db.Deliveries("", "", 0)
	if len(ds) != 1 || ds[0].Status != store.DeliveryFailed || ds[0].Attempts != 1 || ds[0].LastStatus != 503 || ds[0].NextAttemptAt != nil {
		t.Fatalf("delivery: %+v", ds)
	}
}
