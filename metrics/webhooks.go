package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// DeliveryCounts reads the webhook outbox's totals from the database:
// deliveries waiting (due or backing off), delivered, and given up after
// their 72 h of retries. Called once per scrape.
type DeliveryCounts func() (pending, delivered, failed int64, err error)

// WebhookMetrics are the webhook delivery metrics; it is the delivery
// workers' observer.
type WebhookMetrics struct {
	attempts *prometheus.CounterVec   // outcome
	seconds  *prometheus.HistogramVec // outcome
}

// webhookBuckets span a loopback receiver to the 10 s attempt timeout.
var webhookBuckets = []float64{.001, .005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10}

var (
	deliveriesDesc = prometheus.NewDesc(Namespace+"_webhook_deliveries_total",
		"Webhook deliveries (one event to one endpoint) ended, by state: delivered (answered 2xx) or failed (72 h of retries over); from the database, so kept across restarts.",
		[]string{"state"}, nil)
	pendingDesc = prometheus.NewDesc(Namespace+"_webhook_deliveries_pending",
		"Webhook deliveries waiting for their first or next attempt (from the database).", nil, nil)
)

// Webhooks registers the delivery metrics: the outbox totals read through
// counts, and each attempt's outcome and duration.
func (m *Metrics) Webhooks(counts DeliveryCounts) *WebhookMetrics {
	w := &WebhookMetrics{
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "webhook_attempts_total",
			Help: "Webhook delivery attempts by this process, by outcome: delivered, retry (to be tried again), failed (retries over), refused (address not in webhooks.allowed_hosts).",
		}, []string{"outcome"}),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "webhook_attempt_duration_seconds",
			Help:    "Time from sending a webhook delivery to its answer, by outcome.",
			Buckets: webhookBuckets,
		}, []string{"outcome"}),
	}
	m.reg.MustRegister(w.attempts, w.seconds, &outboxCollector{counts: counts})
	for _, o := range []string{"delivered", "retry", "failed", "refused"} {
		w.attempts.WithLabelValues(o)
	}
	return w
}

// WebhookAttempt records one delivery attempt.
func (w *WebhookMetrics) WebhookAttempt(outcome string, took time.Duration) {
	w.attempts.WithLabelValues(outcome).Inc()
	w.seconds.WithLabelValues(outcome).Observe(took.Seconds())
}

type outboxCollector struct{ counts DeliveryCounts }

func (c *outboxCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- deliveriesDesc
	ch <- pendingDesc
}

func (c *outboxCollector) Collect(ch chan<- prometheus.Metric) {
	pending, delivered, failed, err := c.counts()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(pendingDesc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(deliveriesDesc, prometheus.CounterValue, float64(delivered), "delivered")
	ch <- prometheus.MustNewConstMetric(deliveriesDesc, prometheus.CounterValue, float64(failed), "failed")
	ch <- prometheus.MustNewConstMetric(pendingDesc, prometheus.GaugeValue, float64(pending))
}
