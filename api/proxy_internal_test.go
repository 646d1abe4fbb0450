package api

import (
	"crypto/tls"
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestProxiesClient(t *testing.T) {
	trusted, err := ParseTrustedProxies([]string{"10.0.0.0/8", "127.0.0.1", "2001:db8::/32"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		remote  string
		tls     bool
		header  map[string]string
		proxies []netip.Prefix
		addr    string
		scheme  string
	}{
		{name: "no proxies configured", remote: "127.0.0.1:5000", header: map[string]string{"X-Forwarded-For": "203.0.113.7"},
			addr: "127.0.0.1", scheme: "http"},
		{name: "untrusted peer's header ignored", remote: "192.0.2.9:5000", proxies: trusted,
			header: map[string]string{"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}, addr: "192.0.2.9", scheme: "http"},
		{name: "direct TLS", remote: "192.0.2.9:5000", tls: true, proxies: trusted, addr: "192.0.2.9", scheme: "https"},
		{name: "trusted peer, no header", remote: "127.0.0.1:5000", proxies: trusted, addr: "127.0.0.1", scheme: "http"},
		{name: "xff one hop", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}, addr: "203.0.113.7", scheme: "https"},
		{name: "xff spoofed left part", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"X-Forwarded-For": "1.2.3.4, 203.0.113.7"}, addr: "203.0.113.7", scheme: "http"},
		{name: "xff through two trusted proxies", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"X-Forwarded-For": "1.2.3.4, 203.0.113.7, 10.1.2.3"}, addr: "203.0.113.7", scheme: "http"},
		{name: "xff all trusted", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"X-Forwarded-For": "10.9.9.9, 10.1.2.3"}, addr: "10.9.9.9", scheme: "http"},
		{name: "xff garbage stops at the proxy", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"X-Forwarded-For": "not-an-ip"}, addr: "127.0.0.1", scheme: "http"},
		{name: "xff with port and v6", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"X-Forwarded-For": "[2001:db9::5]:443"}, addr: "2001:db9::5", scheme: "http"},
		{name: "forwarded one element", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"Forwarded": `for=203.0.113.7;proto=https;by=10.0.0.1`}, addr: "203.0.113.7", scheme: "https"},
		{name: "forwarded quoted v6 with port", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"Forwarded": `for="[2001:db9::1]:4711";proto=https`}, addr: "2001:db9::1", scheme: "https"},
		{name: "forwarded chain, case-insensitive keys", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"Forwarded": `for=1.2.3.4, For=203.0.113.7;Proto=https, for=10.0.0.5;proto=http`}, addr: "203.0.113.7", scheme: "https"},
		{name: "forwarded wins over xff", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"Forwarded": "for=203.0.113.7", "X-Forwarded-For": "198.51.100.1"}, addr: "203.0.113.7", scheme: "http"},
		{name: "forwarded unknown", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"Forwarded": "for=unknown"}, addr: "127.0.0.1", scheme: "http"},
		{name: "forwarded quoted comma", remote: "127.0.0.1:5000", proxies: trusted,
			header: map[string]string{"Forwarded": `for=203.0.113.7;by="a,b"`}, addr: "203.0.113.7", scheme: "http"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/v1/ping", nil)
			r.RemoteAddr = tc.remote
			if tc.tls {
				r.TLS = &tls.ConnectionState{}
			} else {
				r.TLS = nil
			}
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			addr, scheme := proxies(tc.proxies).client(r)
			if addr != tc.addr || scheme != tc.scheme {
				t.Errorf("client = %s %s, want %s %s", addr, scheme, tc.addr, tc.scheme)
			}
		})
	}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies([]string{"10.1.2.3/8", " 127.0.0.1 ", "::1", "::ffff:192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"10.0.0.0/8", "127.0.0.1/32", "::1/128", "192.0.2.1/32"}
	for i, p := range got {
		if p.String() != want[i] {
			t.Errorf("prefix %d = %s, want %s", i, p, want[i])
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.local", ""} {
		if _, err := ParseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func FuzzForwarded(f *testing.F) {
	f.Add(`for=203.0.113.7;proto=https, for="[2001:db8::1]:80"`, "1.2.3.4, 5.6.7.8")
	f.Add(`for="\"`, ",,,")
	trusted, _ := ParseTrustedProxies([]string{"127.0.0.0/8"})
	f.Fuzz(func(t *testing.T, fwd, xff string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "127.0.0.1:1"
		r.Header.Set("Forwarded", fwd)
		r.Header.Set("X-Forwarded-For", xff)
		addr, scheme := proxies(trusted).client(r)
		if addr == "" {
			// An empty address would put every such caller in one bucket.
			t.Errorf("empty client address for Forwarded %q", fwd)
		}
		if scheme != "http" && scheme != "https" {
			t.Errorf("scheme %q", scheme)
		}
	})
}

func TestMetricLabelsAreBounded(t *testing.T) {
	for _, tc := range []struct{ pattern, route string }{
		{"GET /api/v1/jobs/{jobId}", "/api/v1/jobs/{jobId}"},
		{"/", unmatchedRoute},
		{"", unmatchedRoute},
		{"GET /{$}", "/{$}"},
	} {
		r := httptest.NewRequest("GET", "/x", nil)
		r.Pattern = tc.pattern
		if got := routeLabel(r); got != tc.route {
			t.Errorf("routeLabel(%q) = %q, want %q", tc.pattern, got, tc.route)
		}
	}
	if methodLabel("BREW") != "other" || methodLabel("PUT") != "PUT" {
		t.Errorf("methodLabel does not bound unknown methods")
	}
}
