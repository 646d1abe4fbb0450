// Package metrics holds the appliance's Prometheus metrics: one registry
// per process, served as /metrics in the Prometheus text format. The API,
// the scan runner and the model client report to it through narrow
// interfaces of their own; only this package and cmd import client_golang.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric of the appliance.
const Namespace = "planreview"

// QueueDepth reports the scans waiting and the scans claimed by a worker;
// it is called once per scrape.
type QueueDepth func() (queued, active int, err error)

// Metrics is every metric of the appliance.
type Metrics struct {
	reg *prometheus.Registry

	requests     *prometheus.HistogramVec // route, method, status
	uploadBytes  prometheus.Counter
	refusals     *prometheus.CounterVec   // code, limit
	scans        *prometheus.CounterVec   // outcome, code
	scanSeconds  *prometheus.HistogramVec // outcome
	stageSeconds *prometheus.HistogramVec // stage
	scansRunning prometheus.Gauge
	modelCalls   *prometheus.CounterVec   // purpose, outcome
	modelSeconds *prometheus.HistogramVec // purpose
}

// requestBuckets span a cached GET (well under a millisecond) to a 100 MB
// upload on a slow link (minutes).
var requestBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300}

// scanBuckets span a one-page stage (milliseconds) to a 2,000-page scan
// (the 30-minute scan.timeout).
var scanBuckets = []float64{.01, .05, .1, .5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800}

// modelBuckets span a short chat answer to the 120 s model.timeout.
var modelBuckets = []float64{.1, .25, .5, 1, 2.5, 5, 10, 20, 30, 60, 120}

// New registers every metric, plus the Go runtime and process collectors.
// queue may be nil (no queue gauges).
func New(version string, queue QueueDepth) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Subsystem: "http", Name: "request_duration_seconds",
			Help:    "Time to serve an HTTP request, by route pattern, method and status; _count counts requests.",
			Buckets: requestBuckets,
		}, []string{"route", "method", "status"}),
		uploadBytes: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "upload_bytes_total",
			Help: "Bytes of PDF uploads stored (accepted uploads only).",
		}),
		refusals: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "refusals_total",
			Help: "Requests refused with 429: code rate_limited (limit key or address) or quota_exceeded (limit scan_quota).",
		}, []string{"code", "limit"}),
		scans: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "scans_total",
			Help: "Scans ended, by outcome (complete, failed, interrupted) and pipeline error code (empty unless failed).",
		}, []string{"outcome", "code"}),
		scanSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "scan_duration_seconds",
			Help:    "Wall time of a scan from claim to end, by outcome.",
			Buckets: scanBuckets,
		}, []string{"outcome"}),
		stageSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "scan_stage_duration_seconds",
			Help:    "Wall time of each pipeline stage of a scan.",
			Buckets: scanBuckets,
		}, []string{"stage"}),
		scansRunning: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: Namespace, Name: "scans_running",
			Help: "Scans a worker of this process is running now.",
		}),
		modelCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "model_requests_total",
			Help: "Calls to the configured model endpoint, by purpose (review, chat) and outcome (ok, error, timeout, rejected).",
		}, []string{"purpose", "outcome"}),
		modelSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "model_request_duration_seconds",
			Help:    "Time for the model endpoint to answer, by purpose.",
			Buckets: modelBuckets,
		}, []string{"purpose"}),
	}
	reg.MustRegister(m.requests, m.uploadBytes, m.refusals, m.scans, m.scanSeconds, m.stageSeconds,
		m.scansRunning, m.modelCalls, m.modelSeconds)
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "build_info",
		Help:        "Always 1; the version label names the running binary.",
		ConstLabels: prometheus.Labels{"version": version},
	}, func() float64 { return 1 }))
	if queue != nil {
		reg.MustRegister(&queueCollector{depth: queue})
	}
	// Series that exist from the start, so rate() and alerts see a zero
	// before the first event instead of no series at all.
	for _, l := range [][2]string{{"rate_limited", "key"}, {"rate_limited", "address"}, {"quota_exceeded", "scan_quota"}} {
		m.refusals.WithLabelValues(l[0], l[1])
	}
	m.scans.WithLabelValues("complete", "")
	return m
}

// Handler serves the registry in the Prometheus text (or OpenMetrics)
// format. A failing collector is reported in the scrape, not a 500.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true})
}

// Registry is the registry behind Handler, for tests and extra collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// statusText caches the status label of every HTTP status, so the request
// path allocates no string for it.
var statusText = func() (s [600]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

// Request records one served HTTP request. route is the mux pattern's path
// (bounded: unknown paths arrive as "unmatched"), never the raw path.
func (m *Metrics) Request(route, method string, status int, took time.Duration) {
	label := "other"
	if status >= 0 && status < len(statusText) {
		label = statusText[status]
	}
	m.requests.WithLabelValues(route, method, label).Observe(took.Seconds())
}

// UploadBytes records an accepted upload's size.
func (m *Metrics) UploadBytes(n int64) { m.uploadBytes.Add(float64(n)) }

// Refused records a 429: code is the error code, limit which limit refused.
func (m *Metrics) Refused(code, limit string) { m.refusals.WithLabelValues(code, limit).Inc() }

// ScanStarted records that a worker took a scan.
func (m *Metrics) ScanStarted() { m.scansRunning.Inc() }

// ScanEnded records a scan's end: outcome complete, failed (with the
// pipeline error code) or interrupted (stopped by shutdown, queued again).
func (m *Metrics) ScanEnded(outcome, code string, took time.Duration) {
	m.scansRunning.Dec()
	m.scans.WithLabelValues(outcome, code).Inc()
	m.scanSeconds.WithLabelValues(outcome).Observe(took.Seconds())
}

// StageEnded records how long one pipeline stage took.
func (m *Metrics) StageEnded(stage string, took time.Duration) {
	m.stageSeconds.WithLabelValues(stage).Observe(took.Seconds())
}

// ModelCall records one call to the model endpoint (review or chat).
func (m *Metrics) ModelCall(purpose, outcome string, took time.Duration) {
	m.modelCalls.WithLabelValues(purpose, outcome).Inc()
	m.modelSeconds.WithLabelValues(purpose).Observe(took.Seconds())
}

// CertificateExpiry exports when the served TLS certificate expires
// (Unix seconds), read at each scrape so a SIGHUP reload shows at once.
func (m *Metrics) CertificateExpiry(notAfter func() time.Time) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: Namespace, Name: "tls_certificate_expiry_timestamp_seconds",
		Help: "When the TLS certificate in service expires (Unix seconds); absent without TLS.",
	}, func() float64 { return float64(notAfter().Unix()) }))
}

// queueCollector reads the queue from the database once per scrape, so the
// gauges are right after a restart and cost nothing between scrapes.
type queueCollector struct{ depth QueueDepth }

var (
	queuedDesc = prometheus.NewDesc(Namespace+"_scan_queue_depth",
		"Scans queued and not yet taken by a worker (from the database).", nil, nil)
	activeDesc = prometheus.NewDesc(Namespace+"_scans_claimed",
		"Scans a worker has claimed and not finished (from the database).", nil, nil)
)

func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- queuedDesc; ch <- activeDesc }

func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	queued, active, err := c.depth()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(queuedDesc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(queuedDesc, prometheus.GaugeValue, float64(queued))
	ch <- prometheus.MustNewConstMetric(activeDesc, prometheus.GaugeValue, float64(active))
}
