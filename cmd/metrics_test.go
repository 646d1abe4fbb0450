package cmd

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// scrape is one /metrics answer: every sample by its name and labels
// ("name{a=\"x\",b=\"y\"}" with labels as the server wrote them).
type scrape map[string]float64

var sampleLine = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)`)

// getMetrics scrapes url with the bearer token and parses the text format.
func getMetrics(t *testing.T, url, token string) scrape {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("scrape %s: %d %s\n%s", url, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	out := scrape{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		m := sampleLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			t.Fatalf("bad sample line %q", line)
		}
		out[m[1]+m[2]] = v
	}
	return out
}

// statusOf is the status of a request to url with the bearer token.
func statusOf(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

var metricsAddrLog = regexp.MustCompile(`metrics_addr=(\S+)`)

// TestMetricsAfterScriptedFlow: a partner's whole flow (job, file, upload,
// scan, findings) plus a quota refusal and a rate-limit refusal move the
// counters by exactly what happened, on the separate metrics listener and
// on the main one behind the token.
func TestMetricsAfterScriptedFlow(t *testing.T) {
	dir := newDataDir(t)
	token := "0123456789abcdef0123456789abcdef"
	tokenFile := filepath.Join(dir, "metrics.token")
	if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfgFile := filepath.Join(dir, "planreview.yaml")
	cfgText := "metrics:\n  listen: 127.0.0.1:0\n  token_file: " + tokenFile + "\nlimits:\n  scan_quota: 1\n"
	if err := os.WriteFile(cfgFile, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, dir, "--config", cfgFile)
	m := metricsAddrLog.FindStringSubmatch(srv.stderr.String())
	if m == nil {
		t.Fatalf("no metrics_addr in the serving line:\n%s", srv.stderr)
	}
	separate, main := "http://"+m[1]+"/metrics", srv.base+"/metrics"

	// Both listeners want the token; with it both answer.
	for _, u := range []string{separate, main} {
		if got := statusOf(t, u, ""); got != http.StatusUnauthorized {
			t.Errorf("%s without the token: %d, want 401", u, got)
		}
		if got := statusOf(t, u, "wrong-token-wrong-token"); got != http.StatusUnauthorized {
			t.Errorf("%s with a wrong token: %d, want 401", u, got)
		}
	}
	before := getMetrics(t, separate, token)

	key := issueKey(t, dir, "metered")
	c := apiClient{t: t, base: srv.base, key: key.Key}
	pdf := benchSet(t, 2)
	first := c.jobWithUpload("first", pdf)
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+first+"/scan", nil, nil); status != http.StatusOK {
		t.Fatalf("scan: %d", status)
	}
	if st := c.waitTerminal(first, 2*time.Minute); st.Status != "complete" {
		t.Fatalf("scan ended %+v", st)
	}
	c.findings(first)
	second := c.jobWithUpload("second", pdf)
	if status := c.do(http.MethodPost, "/api/v1/jobs/"+second+"/scan", nil, nil); status != http.StatusTooManyRequests {
		t.Fatalf("scan over the quota of 1: %d, want 429", status)
	}
	if status := c.do(http.MethodGet, "/api/v1/no-such-route", nil, nil); status != http.StatusNotFound {
		t.Fatalf("unknown route: %d", status)
	}
	mustCLI(t, dir, "partners", "set", "metered", "--rate-burst", "2", "--rate-limit", "0.01")
	pings := map[int]int{}
	for range 3 {
		pings[ping(t, srv.base, key.Key)]++
	}
	if pings[200] != 2 || pings[429] != 1 {
		t.Fatalf("3 pings with a burst of 2: %v", pings)
	}

	after := getMetrics(t, main, token)
	req := func(route, method, status string) string {
		return `planreview_http_request_duration_seconds_count{method="` + method + `",route="` + route + `",status="` + status + `"}`
	}
	want := map[string]float64{
		req("/api/v1/jobs", "POST", "201"):                                    2,
		req("/api/v1/jobs/{jobId}/files", "POST", "201"):                      2,
		req("/uploads/{fileId}", "PUT", "200"):                                2,
		req("/api/v1/jobs/{jobId}/scan", "POST", "200"):                       1,
		req("/api/v1/jobs/{jobId}/scan", "POST", "429"):                       1,
		req("/api/v1/jobs/{jobId}/findings", "GET", "200"):                    1,
		req("/api/v1/ping", "GET", "200"):                                     2,
		req("/api/v1/ping", "GET", "429"):                                     1,
		req("unmatched", "GET", "404"):                                        1,
		`planreview_upload_bytes_total`:                                       float64(2 * len(pdf)),
		`planreview_refusals_total{code="quota_exceeded",limit="scan_quota"}`: 1,
		`planreview_refusals_total{code="rate_limited",limit="key"}`:          1,
		`planreview_refusals_total{code="rate_limited",limit="address"}`:      0,
		`planreview_scans_total{code="",outcome="complete"}`:                  1,
		`planreview_scan_duration_seconds_count{outcome="complete"}`:          1,
	}
	for _, stage := range []string{"preparing", "extracting", "classifying", "reviewing", "annotating"} {
		want[`planreview_scan_stage_duration_seconds_count{stage="`+stage+`"}`] = 1
	}
	for name, delta := range want {
		if got := after[name] - before[name]; got != delta {
			t.Errorf("%s moved by %v, want %v", name, got, delta)
		}
	}
	// Gauges: nothing queued or running once the scan is done; the one
	// refused by quota never entered the queue.
	for _, name := range []string{"planreview_scan_queue_depth", "planreview_scans_claimed", "planreview_scans_running"} {
		if v, ok := after[name]; !ok || v != 0 {
			t.Errorf("%s = %v (present %v), want 0", name, v, ok)
		}
	}
	if after[`planreview_build_info{version="`+version+`"}`] != 1 {
		t.Errorf("planreview_build_info{version=%q} is not 1", version)
	}
	if after[req("/api/v1/jobs/{jobId}", "GET", "200")] < 1 {
		t.Errorf("job polls were not counted")
	}
	if after["go_goroutines"] == 0 || after["process_resident_memory_bytes"] == 0 {
		t.Errorf("Go runtime and process collectors are missing")
	}
}

// TestMetricsOffByDefault: with no metrics settings, /metrics on the main
// listener is the JSON 404 and no other port is opened.
func TestMetricsOffByDefault(t *testing.T) {
	dir := newDataDir(t)
	srv := startServer(t, dir)
	if got := statusOf(t, srv.base+"/metrics", ""); got != http.StatusNotFound {
		t.Errorf("/metrics with no token_file: %d, want 404", got)
	}
	if m := metricsAddrLog.FindStringSubmatch(srv.stderr.String()); m != nil && m[1] != `""` {
		t.Errorf("a metrics listener was opened: %s", m[1])
	}
}
