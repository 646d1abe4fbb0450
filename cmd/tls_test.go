package cmd

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// testCA is a certificate authority made for one test; nothing outside
// the test trusts it.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newTestCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "planreview test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

// issue writes a server certificate for 127.0.0.1 with the given serial
// and its key to certFile and keyFile, each replaced by rename as an
// operator's renewal tool would.
func (ca *testCA) issue(t *testing.T, serial int64, certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	writeReplacing(t, keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
	writeReplacing(t, certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func writeReplacing(t *testing.T, path string, data []byte) {
	t.Helper()
	tmp := path + ".new"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// tlsClient trusts only ca and keeps one connection per host, so a test
// can tell a reused connection from a new one.
func tlsClient(ca *testCA) *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: ca.pool}, MaxConnsPerHost: 1, MaxIdleConnsPerHost: 1,
	}}
}

// getServed GETs url and reports the status, the serial of the
// certificate the connection presented, and whether the connection was
// reused from an earlier request.
func getServed(t *testing.T, c *http.Client, url string) (status int, serial int64, reused bool) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
	}))
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.TLS.PeerCertificates[0].SerialNumber.Int64(), reused
}

// startTLSServer runs serve with the TLS pair and returns its https base.
func startTLSServer(t *testing.T, dir, certFile, keyFile string) (*server, string) {
	t.Helper()
	cfgFile := filepath.Join(dir, "planreview.yaml")
	cfg := "server:\n  tls_cert_file: " + certFile + "\n  tls_key_file: " + keyFile + "\n"
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := launchServer(t, dir, "--config", cfgFile)
	if !srv.logged("planreview serving", 20*time.Second) {
		t.Fatalf("serve did not start:\n%s", srv.stderr)
	}
	srv.addr = servingAddr.FindStringSubmatch(srv.stderr.String())[1]
	return srv, "https://" + srv.addr
}

// TestTLSServesAndReloadsOnSIGHUP: a client that trusts the test CA gets
// the API over HTTPS, signed URLs and the OpenAPI document say https; a
// certificate replaced on disk is served to new connections after SIGHUP
// while an open keep-alive connection and an upload in flight carry on; a
// broken replacement leaves the working certificate in service.
func TestTLSServesAndReloadsOnSIGHUP(t *testing.T) {
	dir := newDataDir(t)
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	ca := newTestCA(t)
	ca.issue(t, 1001, certFile, keyFile)
	srv, base := startTLSServer(t, dir, certFile, keyFile)
	if !strings.Contains(srv.stderr.String(), "public_url="+base) {
		t.Errorf("default public URL is not %s:\n%s", base, srv.stderr)
	}

	kept := tlsClient(ca)
	if status, serial, _ := getServed(t, kept, base+"/readyz"); status != 200 || serial != 1001 {
		t.Fatalf("readyz over TLS: %d, certificate %d", status, serial)
	}
	// The partner API over HTTPS, with a client trusting only the test CA.
	key := issueKey(t, dir, "tls partner")
	saved := http.DefaultClient
	http.DefaultClient = tlsClient(ca)
	defer func() { http.DefaultClient = saved }()
	c := apiClient{t: t, base: base, key: key.Key}
	if got := ping(t, base, key.Key); got != http.StatusOK {
		t.Fatalf("ping over TLS: %d", got)
	}
	job := c.createJob("tls")
	body := pdfBytes(t, 256<<10)
	reg := c.registerFile(job.JobID, "a.pdf", len(body))
	if !strings.HasPrefix(reg.UploadURL, base+"/uploads/") {
		t.Errorf("upload URL %s is not on %s", reg.UploadURL, base)
	}
	var doc struct{ Servers []struct{ URL string } }
	if c.do(http.MethodGet, "/api/v1/openapi.json", nil, &doc); len(doc.Servers) != 1 || doc.Servers[0].URL != base {
		t.Errorf("OpenAPI servers %+v, want %s", doc.Servers, base)
	}

	// An upload in flight across the reload: half the body before SIGHUP,
	// the rest after.
	pr, pw := io.Pipe()
	uploadDone := make(chan int, 1)
	go func() {
		status, _ := upload(t, reg.UploadURL, pr, int64(len(body)))
		uploadDone <- status
	}()
	if _, err := pw.Write(body[:len(body)/2]); err != nil {
		t.Fatal(err)
	}

	ca.issue(t, 1002, certFile, keyFile)
	srv.signal(syscall.SIGHUP)
	if !srv.logged("SIGHUP: TLS certificate reloaded", 10*time.Second) {
		t.Fatalf("no reload logged:\n%s", srv.stderr)
	}
	if _, err := pw.Write(body[len(body)/2:]); err != nil {
		t.Fatalf("upload in flight broken by the reload: %v", err)
	}
	pw.Close()
	if status := <-uploadDone; status != http.StatusOK {
		t.Errorf("upload across the reload: %d", status)
	}
	status, serial, reused := getServed(t, kept, base+"/readyz")
	if status != 200 || !reused || serial != 1001 {
		t.Errorf("kept connection after reload: status %d reused %v certificate %d; want 200 on the same connection (1001)", status, reused, serial)
	}
	if status, serial, _ := getServed(t, tlsClient(ca), base+"/readyz"); status != 200 || serial != 1002 {
		t.Errorf("new connection after reload: %d, certificate %d, want 1002", status, serial)
	}

	// HTTP/2 is offered to clients that ask for it.
	h2 := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: ca.pool}, ForceAttemptHTTP2: true}}
	if resp, err := h2.Get(base + "/readyz"); err != nil {
		t.Errorf("HTTP/2 client: %v", err)
	} else {
		resp.Body.Close()
		if resp.ProtoMajor != 2 {
			t.Errorf("negotiated %s, want HTTP/2", resp.Proto)
		}
	}

	// A broken replacement: logged, and the working pair stays.
	writeReplacing(t, certFile, []byte("not a certificate"))
	srv.signal(syscall.SIGHUP)
	if !srv.logged("TLS certificate not reloaded", 10*time.Second) {
		t.Fatalf("broken certificate not reported:\n%s", srv.stderr)
	}
	if status, serial, _ := getServed(t, tlsClient(ca), base+"/readyz"); status != 200 || serial != 1002 {
		t.Errorf("after a failed reload: %d, certificate %d, want 1002 still", status, serial)
	}
	// Plain HTTP to the TLS port is refused, not served.
	if resp, err := saved.Get("http://" + srv.addr + "/readyz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Errorf("plain HTTP served on the TLS listener")
		}
	}
}

// TestTLSBadPairStopsStartup: a missing key or a half-configured pair is
// refused before anything is created, naming the key.
func TestTLSBadPairStopsStartup(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	cases := []struct{ name, yaml, want string }{
		{"cert without key", "server:\n  tls_cert_file: " + filepath.Join(dir, "x.crt") + "\n", "server.tls_cert_file"},
		{"missing files", "server:\n  tls_cert_file: /nonexistent/x.crt\n  tls_key_file: /nonexistent/x.key\n", "/nonexistent/x.crt"},
		{"bad proxy", "server:\n  trusted_proxies: [10.0.0.0/40]\n", "server.trusted_proxies"},
		{"bad metrics listen", "metrics:\n  listen: nine\n", "metrics.listen"},
		{"short metrics token", "metrics:\n  token_file: " + writeConfig(t, "short") + "\n", "metrics.token_file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dataDir := filepath.Join(t.TempDir(), "data")
			root := newRootCmd()
			var out bytes.Buffer
			root.SetOut(&out)
			root.SetErr(&out)
			root.SetArgs([]string{"serve", "--data-dir", dataDir, "--listen", "127.0.0.1:0", "--config", writeConfig(t, tc.yaml)})
			err := root.Execute()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %s", err, tc.want)
			}
			if _, statErr := os.Stat(dataDir); statErr == nil {
				t.Errorf("data dir created despite the bad setting")
			}
		})
	}
}

// TestPublicURLNamesEveryLink: with --public-url (a proxy in front), the
// served OpenAPI document's servers, signed upload and download links and
// a new job's Location all name the public URL, not the listen address.
func TestPublicURLNamesEveryLink(t *testing.T) {
	dir := newDataDir(t)
	public := "https://plans.example.gov"
	srv := startServer(t, dir, "--public-url", public)
	key := issueKey(t, dir, "public url")
	c := apiClient{t: t, base: srv.base, key: key.Key}
	var doc struct{ Servers []struct{ URL string } }
	if status := c.do(http.MethodGet, "/api/v1/openapi.json", nil, &doc); status != 200 || len(doc.Servers) != 1 || doc.Servers[0].URL != public {
		t.Errorf("OpenAPI servers %+v (status %d), want %s", doc.Servers, status, public)
	}
	job := c.createJob("public")
	pdf := benchSet(t, 1)
	reg := c.registerFile(job.JobID, "a.pdf", len(pdf))
	if !strings.HasPrefix(reg.UploadURL, public+"/uploads/"+reg.FileID+"?") {
		t.Errorf("upload URL %s does not name %s", reg.UploadURL, public)
	}
	// The proxy would forward it here.
	if status, out := upload(t, srv.base+strings.TrimPrefix(reg.UploadURL, public), bytes.NewReader(pdf), int64(len(pdf))); status != 200 {
		t.Fatalf("upload: %d %v", status, out)
	}
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+job.JobID+"/scan", nil, nil); status != 200 {
		t.Fatalf("scan: %d", status)
	}
	c.waitTerminal(job.JobID, time.Minute)
	var link struct{ URL string }
	if status := c.do(http.MethodGet, "/api/v1/jobs/"+job.JobID+"/files/"+reg.FileID+"/annotated", nil, &link); status != 200 ||
		!strings.HasPrefix(link.URL, public+"/downloads/"+reg.FileID+"/marked-up.pdf?") {
		t.Errorf("marked-up PDF link %q (status %d) does not name %s", link.URL, status, public)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.base+"/api/v1/jobs", strings.NewReader(`{"name":"loc"}`))
	req.Header.Set("Authorization", "Bearer "+key.Key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, public+"/api/v1/jobs/job_") {
		t.Errorf("Location %q does not name %s", loc, public)
	}
}
