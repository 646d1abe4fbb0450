package metrics

import (
	"compress/gzip"
	"errors"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// get scrapes h as a Prometheus server would, with the given headers, and
// returns the status, the headers and the (decompressed) body.
func get(t testing.TB, m *Metrics, header ...string) (int, map[string]string, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/metrics", nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	m.Handler().ServeHTTP(rec, req)
	body := rec.Body.Bytes()
	if rec.Header().Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(rec.Body)
		if err == nil {
			body, err = io.ReadAll(zr)
		}
		if err != nil {
			t.Errorf("gzipped scrape: %v", err)
		}
	}
	h := map[string]string{}
	for k := range rec.Header() {
		h[k] = rec.Header().Get(k)
	}
	return rec.Code, h, string(body)
}

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
	outboxErr := error(nil)
	w := m.Webhooks(func() (int64, int64, int64, error) { return 4, 5, 6, outboxErr })
	w.WebhookAttempt("retry", 20*time.Millisecond)

	code, header, body := get(t, m)
	for _, want := range []string{
		`planreview_http_request_duration_seconds_count{method="POST",route="/api/v1/jobs",status="201"} 1`,
		`planreview_http_request_duration_seconds_bucket{method="POST",route="/api/v1/jobs",status="201",le="0.0025"} 0`,
		`planreview_http_request_duration_seconds_bucket{method="POST",route="/api/v1/jobs",status="201",le="0.005"} 1`,
		`planreview_http_request_duration_seconds_bucket{method="POST",route="/api/v1/jobs",status="201",le="+Inf"} 1`,
		`planreview_http_request_duration_seconds_sum{method="POST",route="/api/v1/jobs",status="201"} 0.003`,
		`planreview_http_request_duration_seconds_count{method="POST",route="/api/v1/jobs",status="other"} 1`,
		`planreview_upload_bytes_total 1234`,
		`planreview_refusals_total{code="rate_limited",limit="key"} 1`,
		`planreview_refusals_total{code="rate_limited",limit="address"} 0`,
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
		`planreview_webhook_attempts_total{outcome="retry"} 1`,
		`planreview_webhook_attempts_total{outcome="refused"} 0`,
		`planreview_webhook_attempt_duration_seconds_bucket{outcome="retry",le="0.05"} 1`,
		`planreview_webhook_deliveries_total{state="delivered"} 5`,
		`planreview_webhook_deliveries_total{state="failed"} 6`,
		`planreview_webhook_deliveries_pending 4`,
		`# HELP planreview_upload_bytes_total Bytes of PDF uploads stored (accepted uploads only).`,
		`# TYPE planreview_http_request_duration_seconds histogram`,
		`# TYPE planreview_refusals_total counter`,
		`# TYPE planreview_scans_running gauge`,
		`go_info{version="` + runtime.Version() + `"} 1`,
	} {
		if !strings.Contains(body, "\n"+want+"\n") {
			t.Errorf("scrape lacks %s", want)
		}
	}
	if code != 200 || header["Content-Type"] != "text/plain; version=0.0.4; charset=utf-8" {
		t.Errorf("status %d, Content-Type %q", code, header["Content-Type"])
	}

	// A scraper that asks for OpenMetrics gets the text format, which
	// every Prometheus reads.
	if _, header, _ := get(t, m, "Accept", "application/openmetrics-text;version=1.0.0"); header["Content-Type"] != contentType {
		t.Errorf("OpenMetrics request answered with %q", header["Content-Type"])
	}

	// Failing callbacks leave out their own series only.
	queueErr, outboxErr = errors.New("database closed"), errors.New("database closed")
	code, _, body = get(t, m)
	if code != 200 || !strings.Contains(body, "\nplanreview_upload_bytes_total 1234\n") {
		t.Errorf("a failing callback broke the scrape: %d\n%s", code, body)
	}
	for _, gone := range []string{"planreview_scan_queue_depth", "planreview_scans_claimed", "planreview_webhook_deliveries_total", "planreview_webhook_deliveries_pending"} {
		if strings.Contains(body, gone) {
			t.Errorf("%s is in the scrape though its callback failed", gone)
		}
	}
	if !strings.Contains(body, `planreview_webhook_attempts_total{outcome="retry"} 1`) {
		t.Errorf("the attempt counters went with the outbox callback")
	}
}

// TestRuntimeAndProcessMetrics: the go_* and process_* series operators'
// dashboards and the example alerts use, with plausible values.
func TestRuntimeAndProcessMetrics(t *testing.T) {
	_, _, body := get(t, New("v", nil))
	samples := parseExposition(t, body).values
	positive := []string{"go_goroutines", "go_threads", "go_memstats_heap_alloc_bytes", "go_memstats_sys_bytes",
		"go_memstats_alloc_bytes_total", "go_memstats_mallocs_total", "go_sched_gomaxprocs_threads", "go_gc_gogc_percent"}
	if runtime.GOOS == "linux" {
		positive = append(positive, "process_resident_memory_bytes", "process_virtual_memory_bytes",
			"process_open_fds", "process_max_fds", "process_start_time_seconds", "process_virtual_memory_max_bytes")
		if _, ok := samples["process_cpu_seconds_total"]; !ok {
			t.Errorf("no process_cpu_seconds_total")
		}
		if start := samples["process_start_time_seconds"]; start > float64(time.Now().Unix())+1 || start < float64(time.Now().Add(-time.Hour).Unix()) {
			t.Errorf("process_start_time_seconds %v is not the start of this test process", start)
		}
		var limit syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit); err == nil && samples["process_max_fds"] != float64(limit.Cur) {
			t.Errorf("process_max_fds %v, getrlimit says %d", samples["process_max_fds"], limit.Cur)
		}
		if rss := samples["process_resident_memory_bytes"]; rss < 1<<20 || rss > samples["process_virtual_memory_bytes"] {
			t.Errorf("process_resident_memory_bytes %v (virtual %v)", rss, samples["process_virtual_memory_bytes"])
		}
	}
	for _, name := range positive {
		if samples[name] <= 0 {
			t.Errorf("%s = %v (present: %v)", name, samples[name], name)
		}
	}
	for _, name := range []string{"go_gc_duration_seconds_count", "go_gc_duration_seconds_sum", `go_gc_duration_seconds{quantile="0.5"}`, "go_memstats_last_gc_time_seconds"} {
		if _, ok := samples[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
}

// TestGzip: a scraper sending Accept-Encoding: gzip (Prometheus does) gets
// the same exposition compressed; one that does not gets it plain.
func TestGzip(t *testing.T) {
	m := New("v", nil)
	m.UploadBytes(42)
	_, header, body := get(t, m, "Accept-Encoding", "gzip")
	if header["Content-Encoding"] != "gzip" || !strings.Contains(body, "\nplanreview_upload_bytes_total 42\n") {
		t.Errorf("gzip: %v\n%s", header, body)
	}
	for _, accept := range []string{"", "identity", "gzip;q=0", "br"} {
		_, header, body := get(t, m, "Accept-Encoding", accept)
		if header["Content-Encoding"] != "" || !strings.Contains(body, "\nplanreview_upload_bytes_total 42\n") {
			t.Errorf("Accept-Encoding %q: %v", accept, header)
		}
	}
}

// TestRecordingDoesNotAllocate: recording into a series that exists costs
// no allocation (the request path runs it on every request).
func TestRecordingDoesNotAllocate(t *testing.T) {
	m := New("v", nil)
	w := m.Webhooks(func() (int64, int64, int64, error) { return 0, 0, 0, nil })
	route, method := "/api/v1/jobs/{jobId}", "GET"
	record := func() {
		m.Request(route, method, 200, time.Millisecond)
		m.Request(route, method, 1000, time.Millisecond)
		m.Refused("rate_limited", "key")
		m.UploadBytes(10)
		m.ScanStarted()
		m.StageEnded("extracting", time.Second)
		m.ScanEnded("complete", "", time.Second)
		m.ModelCall("review", "ok", time.Second)
		w.WebhookAttempt("delivered", time.Millisecond)
	}
	record()
	if n := testing.AllocsPerRun(100, record); n != 0 {
		t.Errorf("recording allocates %v times", n)
	}
}

func TestAppendFloat(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 1: "1", -1: "-1", 1234: "1234", 0.005: "0.005", 1.7e9: "1.7e+09", 2162272: "2.162272e+06",
		1e-7: "1e-07", 18446744073709551615: "1.8446744073709552e+19",
	} {
		if got := string(appendFloat(nil, v)); got != want {
			t.Errorf("%v written as %q, want %q", v, got, want)
		}
	}
	for _, c := range []struct {
		v    float64
		want string
	}{{math.Inf(1), "+Inf"}, {math.Inf(-1), "-Inf"}, {math.NaN(), "NaN"}} {
		if got := string(appendFloat(nil, c.v)); got != c.want {
			t.Errorf("%v written as %q", c.v, got)
		}
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
	_, _, body := get(t, m)
	exposed := parseExposition(t, body).types
	doc := string(raw)
	for _, name := range regexp.MustCompile(`\b(planreview|process|go)_[a-z_]*`).FindAllString(doc, -1) {
		if strings.HasSuffix(name, "_") {
			continue // a family of names: "go_*", "go_memstats_*"
		}
		base := name
		for _, suffix := range []string{"_bucket", "_count", "_sum"} {
			if trimmed, ok := strings.CutSuffix(name, suffix); ok && exposed[trimmed] != "" {
				base = trimmed
			}
		}
		if exposed[base] == "" {
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

// BenchmarkScrape is one whole scrape of a busy appliance's series.
func BenchmarkScrape(b *testing.B) {
	m := New("bench", func() (int, int, error) { return 1, 2, nil })
	m.Webhooks(func() (int64, int64, int64, error) { return 1, 2, 3, nil })
	for i := range 40 {
		for _, status := range []int{200, 201, 400, 404, 429} {
			m.Request("/route/"+string(rune('a'+i%26))+string(rune('a'+i/26)), "GET", status, time.Millisecond)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		m.render()
	}
}

// processCPU is the CPU time (user + system) this process has used, in ns.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
