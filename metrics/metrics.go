// Package metrics holds the appliance's Prometheus metrics, served as
// /metrics in the Prometheus text format. The API, the scan runner and the
// model client report to it through narrow interfaces of their own.
//
// The exposition is written here with the standard library: the Prometheus
// Go client's package initialisation (its default registry, protobuf
// descriptors, procfs) cost every one-shot command milliseconds of start-up
// (docs/benchmarks.md, "Metrics overhead"), for a small, fixed set of
// metrics. Nothing here runs before New; the runtime and process figures
// are read at each scrape.
package metrics

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Namespace prefixes every metric of the appliance.
const Namespace = "planreview"

// QueueDepth reports the scans waiting and the scans claimed by a worker;
// it is called once per scrape.
type QueueDepth func() (queued, active int, err error)

// Metrics is every metric of the appliance.
type Metrics struct {
	requests     *histogramVec[requestKey]
	uploadBytes  counter
	refusals     *counterVec[[2]string] // code, limit
	scans        *counterVec[[2]string] // outcome, code
	scanSeconds  *histogramVec[string]  // outcome
	stageSeconds *histogramVec[string]  // stage
	scansRunning gauge
	modelCalls   *counterVec[[2]string] // purpose, outcome
	modelSeconds *histogramVec[string]  // purpose

	mu         sync.Mutex
	collectors []func(*scrape) // in registration order; the scrape sorts families by name
	lastSize   atomic.Int64    // bytes of the last scrape's text
}

// requestKey is the labels of one request series. status is kept as a
// number (otherStatus when outside 0-599), so the request path makes no
// string of it; the scrape does.
type requestKey struct {
	route, method string
	status        int
}

const otherStatus = -1

func requestLabels(k requestKey) []string {
	status := "other"
	if k.status != otherStatus {
		status = strconv.Itoa(k.status)
	}
	return []string{k.route, k.method, status}
}

// requestBuckets span a cached GET (well under a millisecond) to a 100 MB
// upload on a slow link (minutes).
var requestBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}

// scanBuckets span a one-page stage (milliseconds) to a 2,000-page scan
// (the 30-minute scan.timeout).
var scanBuckets = []float64{.01, .05, .1, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800}

// modelBuckets span a short chat answer to the 120 s model.timeout.
var modelBuckets = []float64{.1, .25, .5, 1, 2.5, 5, 10, 20, 30, 60, 120}

var (
	requestsDesc = desc{name: Namespace + "_http_request_duration_seconds", kind: kindHistogram,
		help:   "Time to serve an HTTP request, by route pattern, method and status; _count counts requests.",
		labels: []string{"route", "method", "status"}}
	uploadBytesDesc = desc{name: Namespace + "_upload_bytes_total", kind: kindCounter,
		help: "Bytes of PDF uploads stored (accepted uploads only)."}
	refusalsDesc = desc{name: Namespace + "_refusals_total", kind: kindCounter,
		help:   "Requests refused with 429: code rate_limited (limit key or address) or quota_exceeded (limit scan_quota).",
		labels: []string{"code", "limit"}}
	scansDesc = desc{name: Namespace + "_scans_total", kind: kindCounter,
		help:   "Scans ended, by outcome (complete, failed, interrupted) and pipeline error code (empty unless failed).",
		labels: []string{"outcome", "code"}}
	scanSecondsDesc = desc{name: Namespace + "_scan_duration_seconds", kind: kindHistogram,
		help:   "Wall time of a scan from claim to end, by outcome.",
		labels: []string{"outcome"}}
	stageSecondsDesc = desc{name: Namespace + "_scan_stage_duration_seconds", kind: kindHistogram,
		help:   "Wall time of each pipeline stage of a scan.",
		labels: []string{"stage"}}
	scansRunningDesc = desc{name: Namespace + "_scans_running", kind: kindGauge,
		help: "Scans a worker of this process is running now."}
	modelCallsDesc = desc{name: Namespace + "_model_requests_total", kind: kindCounter,
		help:   "Calls to the configured model endpoint, by purpose (review, chat) and outcome (ok, error, timeout, rejected).",
		labels: []string{"purpose", "outcome"}}
	modelSecondsDesc = desc{name: Namespace + "_model_request_duration_seconds", kind: kindHistogram,
		help:   "Time for the model endpoint to answer, by purpose.",
		labels: []string{"purpose"}}
	buildInfoDesc = desc{name: Namespace + "_build_info", kind: kindGauge,
		help:   "Always 1; the version label names the running binary.",
		labels: []string{"version"}}
	certExpiryDesc = desc{name: Namespace + "_tls_certificate_expiry_timestamp_seconds", kind: kindGauge,
		help: "When the TLS certificate in service expires (Unix seconds); absent without TLS."}
	queuedDesc = desc{name: Namespace + "_scan_queue_depth", kind: kindGauge,
		help: "Scans queued and not yet taken by a worker (from the database)."}
	activeDesc = desc{name: Namespace + "_scans_claimed", kind: kindGauge,
		help: "Scans a worker has claimed and not finished (from the database)."}
)

// New makes every metric, plus the Go runtime and process metrics.
// queue may be nil (no queue gauges).
func New(version string, queue QueueDepth) *Metrics {
	m := &Metrics{
		requests:     newHistogramVec(&requestsDesc, requestBuckets, requestLabels),
		refusals:     newCounterVec(&refusalsDesc, twoLabels),
		scans:        newCounterVec(&scansDesc, twoLabels),
		scanSeconds:  newHistogramVec(&scanSecondsDesc, scanBuckets, oneLabel),
		stageSeconds: newHistogramVec(&stageSecondsDesc, scanBuckets, oneLabel),
		modelCalls:   newCounterVec(&modelCallsDesc, twoLabels),
		modelSeconds: newHistogramVec(&modelSecondsDesc, modelBuckets, oneLabel),
	}
	m.register(m.requests.collect, m.refusals.collect, m.scans.collect, m.scanSeconds.collect,
		m.stageSeconds.collect, m.modelCalls.collect, m.modelSeconds.collect,
		func(s *scrape) {
			s.add(&uploadBytesDesc, series{value: m.uploadBytes.value()})
			s.gaugeValue(&scansRunningDesc, m.scansRunning.value())
			s.add(&buildInfoDesc, series{labels: []string{version}, value: 1})
		},
		collectRuntime, collectProcess)
	if queue != nil {
		// Read from the database once per scrape, so the gauges are right
		// after a restart and cost nothing between scrapes. A failed read
		// leaves them out of this scrape; the rest is served.
		m.register(func(s *scrape) {
			queued, active, err := queue()
			if err != nil {
				return
			}
			s.gaugeValue(&queuedDesc, float64(queued))
			s.gaugeValue(&activeDesc, float64(active))
		})
	}
	// Series that exist from the start, so rate() and alerts see a zero
	// before the first event instead of no series at all.
	for _, l := range [][2]string{{"rate_limited", "key"}, {"rate_limited", "address"}, {"quota_exceeded", "scan_quota"}} {
		m.refusals.with(l)
	}
	m.scans.with([2]string{"complete", ""})
	return m
}

func (m *Metrics) register(collectors ...func(*scrape)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.collectors = append(m.collectors, collectors...)
}

// Handler serves the metrics in the Prometheus text format, version 0.0.4.
// A failing callback (queue, webhook outbox) leaves its series out of the
// scrape; the rest is served with 200.
func (m *Metrics) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serve(w, r, m.render())
	})
}

// render is one scrape's whole exposition.
func (m *Metrics) render() []byte {
	m.mu.Lock()
	collectors := m.collectors[:len(m.collectors):len(m.collectors)]
	m.mu.Unlock()
	var s scrape
	for _, collect := range collectors {
		collect(&s)
	}
	last := int(m.lastSize.Load())
	text := s.render(last + last/8)
	m.lastSize.Store(int64(len(text)))
	return text
}

// Request records one served HTTP request. route is the mux pattern's path
// (bounded: unknown paths arrive as "unmatched"), never the raw path.
func (m *Metrics) Request(route, method string, status int, took time.Duration) {
	if status < 0 || status > 599 {
		status = otherStatus
	}
	m.requests.with(requestKey{route, method, status}).observe(took.Seconds())
}

// UploadBytes records an accepted upload's size (a counter only grows, so
// a size below one adds nothing).
func (m *Metrics) UploadBytes(n int64) {
	if n > 0 {
		m.uploadBytes.add(uint64(n))
	}
}

// Refused records a 429: code is the error code, limit which limit refused.
func (m *Metrics) Refused(code, limit string) { m.refusals.with([2]string{code, limit}).add(1) }

// ScanStarted records that a worker took a scan.
func (m *Metrics) ScanStarted() { m.scansRunning.add(1) }

// ScanEnded records a scan's end: outcome complete, failed (with the
// pipeline error code) or interrupted (stopped by shutdown, queued again).
func (m *Metrics) ScanEnded(outcome, code string, took time.Duration) {
	m.scansRunning.add(-1)
	m.scans.with([2]string{outcome, code}).add(1)
	m.scanSeconds.with(outcome).observe(took.Seconds())
}

// StageEnded records how long one pipeline stage took.
func (m *Metrics) StageEnded(stage string, took time.Duration) {
	m.stageSeconds.with(stage).observe(took.Seconds())
}

// ModelCall records one call to the model endpoint (review or chat).
func (m *Metrics) ModelCall(purpose, outcome string, took time.Duration) {
	m.modelCalls.with([2]string{purpose, outcome}).add(1)
	m.modelSeconds.with(purpose).observe(took.Seconds())
}

// CertificateExpiry exports when the served TLS certificate expires
// (Unix seconds), read at each scrape so a SIGHUP reload shows at once.
func (m *Metrics) CertificateExpiry(notAfter func() time.Time) {
	m.register(func(s *scrape) { s.gaugeValue(&certExpiryDesc, float64(notAfter().Unix())) })
}
