package metrics

import (
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// TestEveryMetricIsExposed: each recording method shows up in the scrape
// under its documented name (docs/operations.md), the queue gauges
// come from the callback, and a failing callback does not fail the scrape.
func TestEveryMetricIsExposed(t *testing.T) {
	queueErr := error(nil)
	m := New("v1.2.3", func() (int, int, error) { return 3, 1, queueErr })
	m.Request("/api/v1/jobs", "POST", 201, 3*time.Millisecond)
	m.Request("/api/v1/jobs", "POST", 999, time.Millisecond)
	m.UploadBytes(1234)
	m.Refused("rate_limited", "key")
	m.ScanStarted()
	m.StageEnded("extracting", 2*time.Second)
	m.ScanEnded("failed", "invalid_pdf", 3*time.Second)
	m.ModelCall("chat", "timeout", 120*time.Second)
	m.CertificateExpiry(func() time.Time { return time.Unix(1700000000, 0) })

	scrape := func() (int, string) {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		return rec.Code, rec.Body.String()
	}
	code, body := scrape()
	for _, want := range []string{
		`planreview_http_request_duration_seconds_count{method="POST",route="/api/v1/jobs",status="201"} 1`,
		`planreview_http_request_duration_seconds_bucket{method="POST",route="/api/v1/jobs",status="201",le="0.005"} 1`,
		`planreview_http_request_duration_seconds_count{method="POST",route="/api/v1/jobs",status="other"} 1`,
		`planreview_upload_bytes_total 1234`,
		`planreview_refusals_total{code="rate_limited",limit="key"} 1`,
		`planreview_refusals_total{code="quota_exceeded",limit="scan_quota"} 0`,
		`planreview_scans_total{code="invalid_pdf",outcome="failed"} 1`,
		`planreview_scans_total{code="",outcome="complete"} 0`,
		`planreview_scan_duration_seconds_count{outcome="failed"} 1`,
		`planreview_scan_stage_duration_seconds_sum{stage="extracting"} 2`,
		`planreview_scans_running 0`,
		`planreview_scan_queue_depth 3`,
		`planreview_scans_claimed 1`,
		`planreview_model_requests_total{outcome="timeout",purpose="chat"} 1`,
		`planreview_model_request_duration_seconds_count{purpose="chat"} 1`,
		`planreview_build_info{version="v1.2.3"} 1`,
		`planreview_tls_certificate_expiry_timestamp_seconds 1.7e+09`,
		`go_goroutines `,
	} {
		if !strings.Contains(body, want+"\n") && !strings.Contains(body, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
	if code != 200 {
		t.Errorf("status %d", code)
	}

	// A scraper that asks for OpenMetrics gets it.
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept", "application/openmetrics-text;version=1.0.0")
	m.Handler().ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") || !strings.HasSuffix(rec.Body.String(), "# EOF\n") {
		t.Errorf("OpenMetrics not negotiated: %q", ct)
	}

	queueErr = errors.New("database closed")
	code, body = scrape()
	if code != 200 || !strings.Contains(body, "planreview_upload_bytes_total 1234") {
		t.Errorf("a failing queue callback broke the scrape: %d\n%s", code, body)
	}
}

// TestDocumentedMetricsExist: every planreview_* name the operator's guide
// mentions (table and example alerts) is one this package exposes, and
// the example rule file is YAML with an expression in every rule.
func TestDocumentedMetricsExist(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := New("v", func() (int, int, error) { return 0, 0, nil })
	m.Request("/x", "GET", 200, 0)
	m.ScanStarted()
	m.ScanEnded("complete", "", 0)
	m.StageEnded("extracting", 0)
	m.ModelCall("chat", "ok", 0)
	m.CertificateExpiry(time.Now)
	m.Webhooks(func() (int64, int64, int64, error) { return 0, 0, 0, nil }).WebhookAttempt("delivered", 0)
	families, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	exposed := map[string]bool{}
	for _, f := range families {
		exposed[f.GetName()] = true
	}
	doc := string(raw)
	for _, name := range regexp.MustCompile(`planreview_[a-z_]+`).FindAllString(doc, -1) {
		base := name
		for _, suffix := range []string{"_bucket", "_count", "_sum"} {
			if trimmed, ok := strings.CutSuffix(name, suffix); ok && exposed[trimmed] {
				base = trimmed
			}
		}
		if !exposed[base] {
			t.Errorf("docs/operations.md names %s, which is not exposed", name)
		}
	}

	start := strings.Index(doc, "```yaml\ngroups:")
	if start < 0 {
		t.Fatal("no example rule file in the guide")
	}
	block := doc[start+len("```yaml\n"):]
	block = block[:strings.Index(block, "```")]
	var rules struct {
		Groups []struct {
			Name  string
			Rules []struct {
				Alert, Expr, For string
			}
		}
	}
	if err := yaml.Unmarshal([]byte(block), &rules); err != nil {
		t.Fatalf("example rules are not YAML: %v", err)
	}
	if len(rules.Groups) != 1 || len(rules.Groups[0].Rules) < 5 {
		t.Fatalf("example rules: %+v", rules)
	}
	for _, r := range rules.Groups[0].Rules {
		if r.Alert == "" || strings.TrimSpace(r.Expr) == "" {
			t.Errorf("rule without alert name or expression: %+v", r)
		}
	}
}

// BenchmarkRequest is what the metrics add to every HTTP request: one
// histogram observation under route, method and status labels, from many
// goroutines at once (compare with a request's cost, docs/benchmarks.md).
func BenchmarkRequest(b *testing.B) {
	m := New("bench", nil)
	routes := []string{"/api/v1/jobs/{jobId}", "/api/v1/jobs", "/api/v1/ping", "/uploads/{fileId}"}
	b.SetParallelism(32)
	b.ReportAllocs()
	cpu := processCPU()
	defer func() { b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op") }()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			m.Request(routes[i%len(routes)], "GET", 200, 1500*time.Microsecond)
			i++
		}
	})
}

// processCPU is the CPU time (user + system) this process has used, in ns.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
