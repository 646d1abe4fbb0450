package cmd

import (
	"crypto/subtle"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"planreview/api"
	"planreview/metrics"
)

// validateNetwork checks the TLS, proxy and metrics keys.
func (c *Config) validateNetwork() []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", key, fmt.Sprintf(format, args...)))
	}
	if (c.Server.TLSCertFile == "") != (c.Server.TLSKeyFile == "") {
		bad("server.tls_cert_file", "server.tls_cert_file and server.tls_key_file are set together or not at all")
	}
	for _, p := range c.Server.TrustedProxies {
		if _, err := api.ParseTrustedProxies([]string{p}); err != nil {
			bad("server.trusted_proxies", "%q is not a CIDR (10.0.0.0/8) or an address", p)
		}
	}
	if c.Metrics.Listen != "" {
		if _, _, err := net.SplitHostPort(c.Metrics.Listen); err != nil {
			bad("metrics.listen", "%q is not host:port", c.Metrics.Listen)
		} else if c.Metrics.Listen == c.Server.Listen && !strings.HasSuffix(c.Server.Listen, ":0") {
			bad("metrics.listen", "%q is server.listen; give metrics their own port", c.Metrics.Listen)
		}
	}
	return errs
}

// ListenScheme is https when the appliance terminates TLS itself.
func (c *Config) ListenScheme() string {
	if c.Server.TLSCertFile != "" {
		return "https"
	}
	return "http"
}

// network is what serve needs from the TLS, proxy and metrics settings,
// read before anything is opened so a bad file stops start-up cleanly.
type network struct {
	cert           *certReloader // nil without TLS
	trustedProxies []netip.Prefix
	metricsToken   string // empty: no /metrics on the main listener
}

func loadNetwork(cfg Config) (network, error) {
	var n network
	var err error
	if n.trustedProxies, err = api.ParseTrustedProxies(cfg.Server.TrustedProxies); err != nil {
		return n, fmt.Errorf("server.trusted_proxies: %w", err)
	}
	if cfg.Server.TLSCertFile != "" {
		if n.cert, err = newCertReloader(cfg.Server.TLSCertFile, cfg.Server.TLSKeyFile); err != nil {
			return n, err
		}
	}
	if cfg.Metrics.TokenFile != "" {
		raw, err := os.ReadFile(cfg.Metrics.TokenFile)
		if err != nil {
			return n, fmt.Errorf("metrics.token_file: %w", err)
		}
		n.metricsToken = strings.TrimSpace(string(raw))
		if len(n.metricsToken) < 16 {
			return n, fmt.Errorf("metrics.token_file: %s holds %d characters; use a random token of 16 or more (e.g. openssl rand -hex 32)",
				cfg.Metrics.TokenFile, len(n.metricsToken))
		}
	}
	return n, nil
}

// certReloader serves the certificate and key of server.tls_cert_file and
// server.tls_key_file. reload (on SIGHUP) swaps in the files' current
// contents atomically: handshakes from then on get the new certificate,
// connections already open keep theirs, nothing is dropped. A pair that
// fails to load leaves the previous one in service.
type certReloader struct {
	certFile, keyFile string
	current           atomic.Pointer[tls.Certificate]
}

func newCertReloader(certFile, keyFile string) (*certReloader, error) {
	c := &certReloader{certFile: certFile, keyFile: keyFile}
	if err := c.reload(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *certReloader) reload() error {
	pair, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("server.tls_cert_file %s / server.tls_key_file %s: %w", c.certFile, c.keyFile, err)
	}
	c.current.Store(&pair)
	return nil
}

func (c *certReloader) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return c.current.Load(), nil
}

// notAfter is when the certificate in service expires.
func (c *certReloader) notAfter() time.Time {
	if leaf := c.current.Load().Leaf; leaf != nil {
		return leaf.NotAfter
	}
	return time.Time{}
}

// describe names the certificate in service for the log.
func (c *certReloader) describe() []any {
	leaf := c.current.Load().Leaf
	if leaf == nil {
		return nil
	}
	return []any{"subject", leaf.Subject.String(), "serial", leaf.SerialNumber.Text(16),
		"not_after", leaf.NotAfter.UTC().Format(time.RFC3339), "expires_in_days", int(time.Until(leaf.NotAfter).Hours() / 24)}
}

// tlsConfig is TLS 1.2 or later with Go's default cipher suites, HTTP/2
// offered.
func (c *certReloader) tlsConfig() *tls.Config {
	return &tls.Config{
		MinVersion:     tls.VersionTLS12,
		GetCertificate: c.getCertificate,
		NextProtos:     []string{"h2", "http/1.1"},
	}
}

// reloadCertificate is serve's SIGHUP: reload the TLS pair if there is one.
func (ap *appliance) reloadCertificate() {
	if ap.cert == nil {
		ap.log.Info("SIGHUP: no TLS certificate configured; nothing to reload")
		return
	}
	if err := ap.cert.reload(); err != nil {
		ap.log.Error("SIGHUP: TLS certificate not reloaded; the previous one stays in service", "error", err)
		return
	}
	ap.log.Info("SIGHUP: TLS certificate reloaded", ap.cert.describe()...)
}

// metricsHandler guards /metrics of the separate metrics listener with
// the token, when one is configured.
func metricsHandler(m *metrics.Metrics, token string) http.Handler {
	h := m.Handler()
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" {
			scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
			if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
				http.Error(w, "metrics need Authorization: Bearer with the token of metrics.token_file", http.StatusUnauthorized)
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	return mux
}

// startMetricsListener serves /metrics on metrics.listen, if set.
func (ap *appliance) startMetricsListener(cfg Config, m *metrics.Metrics, token string, errorLog *slog.Logger) error {
	if cfg.Metrics.Listen == "" {
		return nil
	}
	ln, err := net.Listen("tcp", cfg.Metrics.Listen)
	if err != nil {
		return fmt.Errorf("metrics.listen: %w", err)
	}
	ap.metricsAddr = ln.Addr().String()
	ap.metricsHTTP = &http.Server{
		Handler:           metricsHandler(m, token),
		ReadHeaderTimeout: cfg.Server.ReadHeaderTimeout,
		WriteTimeout:      time.Minute,
		ErrorLog:          slog.NewLogLogger(errorLog.Handler(), slog.LevelWarn),
	}
	go ap.serveOn(ap.metricsHTTP, ln)
	return nil
}
