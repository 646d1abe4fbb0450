package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"planreview/api"
)

// clientFrom is an HTTP client whose connections come from localIP (any
// 127.0.0.0/8 address is this machine), so one test can be several peers.
func clientFrom(t *testing.T, localIP string) *http.Client {
	t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(localIP)}, Timeout: 5 * time.Second}
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialer.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// pingAs sends an unauthenticated ping (limited per client address) from
// client with the given forwarding headers; it answers the status.
func pingAs(t *testing.T, h *harness, client *http.Client, header map[string]string) int {
	t.Helper()
	r, err := http.NewRequest(http.MethodGet, h.srv.URL+"/api/v1/ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	resp, err := client.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// loggedRemotes is the remote of every access log line, in order.
func loggedRemotes(t *testing.T, logs string) []string {
	t.Helper()
	var out []string
	for _, line := range bytes.Split([]byte(logs), []byte("\n")) {
		var rec struct{ Msg, Remote string }
		if json.Unmarshal(line, &rec) == nil && rec.Msg == "request" {
			out = append(out, rec.Remote)
		}
	}
	return out
}

func count(list []string, s string) (n int) {
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

// TestTrustedProxySeparatesCallers: two callers behind one trusted proxy
// (127.0.0.2) get a rate bucket each and their own address in the log,
// whether the proxy says so with X-Forwarded-For or with Forwarded.
func TestTrustedProxySeparatesCallers(t *testing.T) {
	proxy := netip.MustParsePrefix("127.0.0.2/32")
	h := newHarnessWith(t, harnessConfig{RateLimit: 1, RateBurst: 2, TrustedProxies: []netip.Prefix{proxy}})
	viaProxy := clientFrom(t, "127.0.0.2")

	alice := map[string]string{"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
	bob := map[string]string{"Forwarded": `for="198.51.100.8:5123";proto=https`}
	// The clock stands still: a bucket of 2 never refills in this test.
	for i, want := range []int{401, 401, 429} {
		if got := pingAs(t, h, viaProxy, alice); got != want {
			t.Fatalf("alice request %d: %d, want %d", i+1, got, want)
		}
	}
	for i, want := range []int{401, 401, 429} {
		if got := pingAs(t, h, viaProxy, bob); got != want {
			t.Fatalf("bob request %d (alice's bucket is empty, bob's is not): %d, want %d", i+1, got, want)
		}
	}
	remotes := loggedRemotes(t, h.logs.String())
	if count(remotes, "203.0.113.7") != 3 || count(remotes, "198.51.100.8") != 3 || count(remotes, "127.0.0.2") != 0 {
		t.Errorf("logged remotes %v: want alice's and bob's addresses 3 times each, never the proxy's", remotes)
	}
	if !bytes.Contains([]byte(h.logs.String()), []byte(`"remote":"203.0.113.7","scheme":"https","via":"127.0.0.2"`)) {
		t.Errorf("the access log does not carry the scheme and the proxy (via):\n%s", h.logs)
	}
}

// TestUntrustedPeerForwardingIgnored: a peer outside trusted_proxies
// cannot pick its bucket or its logged address with X-Forwarded-For.
func TestUntrustedPeerForwardingIgnored(t *testing.T) {
	proxy := netip.MustParsePrefix("127.0.0.2/32")
	h := newHarnessWith(t, harnessConfig{RateLimit: 1, RateBurst: 2, TrustedProxies: []netip.Prefix{proxy}})
	direct := clientFrom(t, "127.0.0.3")
	for i, want := range []int{401, 401, 429, 429} {
		spoof := map[string]string{"X-Forwarded-For": "192.0.2." + string(rune('1'+i)), "Forwarded": "for=192.0.2.99"}
		if got := pingAs(t, h, direct, spoof); got != want {
			t.Fatalf("request %d with a fresh X-Forwarded-For: %d, want %d (one bucket for the peer)", i+1, got, want)
		}
	}
	remotes := loggedRemotes(t, h.logs.String())
	if len(remotes) != 4 || count(remotes, "127.0.0.3") != 4 {
		t.Errorf("logged remotes %v, want the peer 127.0.0.3 four times", remotes)
	}
}

// TestNoTrustedProxiesIgnoresForwarding is the default: nobody is believed.
func TestNoTrustedProxiesIgnoresForwarding(t *testing.T) {
	h := newHarnessWith(t, harnessConfig{RateLimit: 1, RateBurst: 1})
	client := clientFrom(t, "127.0.0.2")
	if got := pingAs(t, h, client, map[string]string{"X-Forwarded-For": "203.0.113.1"}); got != 401 {
		t.Fatalf("first: %d", got)
	}
	if got := pingAs(t, h, client, map[string]string{"X-Forwarded-For": "203.0.113.2"}); got != 429 {
		t.Fatalf("second with another X-Forwarded-For: %d, want 429", got)
	}
	if remotes := loggedRemotes(t, h.logs.String()); count(remotes, "127.0.0.2") != 2 {
		t.Errorf("logged remotes %v", remotes)
	}
}

// TestOpenAPIServersNamePublicURL: the served document names the public
// URL, and apart from servers it is the source document unchanged.
func TestOpenAPIServersNamePublicURL(t *testing.T) {
	h := newHarness(t)
	r := h.get("", "/api/v1/openapi.json")
	wantStatus(t, r, http.StatusOK)
	var doc map[string]any
	if err := json.Unmarshal(r.Body, &doc); err != nil {
		t.Fatal(err)
	}
	servers, _ := doc["servers"].([]any)
	if len(servers) != 1 || servers[0].(map[string]any)["url"] != h.srv.URL {
		t.Errorf("servers = %v, want one naming %s", doc["servers"], h.srv.URL)
	}

	for _, public := range []string{"https://plans.example.gov", "https://plans.example.gov:8443"} {
		s := api.New(api.Options{PublicURL: public})
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/openapi.json", nil))
		var served, source map[string]json.RawMessage
		if err := json.Unmarshal(rec.Body.Bytes(), &served); err != nil {
			t.Fatalf("served document for %s is not JSON: %v", public, err)
		}
		if err := json.Unmarshal(api.OpenAPISource(), &source); err != nil {
			t.Fatal(err)
		}
		var got []struct{ URL string }
		if err := json.Unmarshal(served["servers"], &got); err != nil || len(got) != 1 || got[0].URL != public {
			t.Errorf("servers = %s, want %s", served["servers"], public)
		}
		for k, v := range source {
			if k != "servers" && !bytes.Equal(served[k], v) {
				t.Errorf("member %s changed in the served document", k)
			}
		}
	}
}
