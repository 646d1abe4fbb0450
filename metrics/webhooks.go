package metrics

import "time"

// DeliveryCounts reads the webhook outbox's totals from the database:
// deliveries waiting (due or backing off), delivered, and given up after
// their 72 h of retries. Called once per scrape.
type DeliveryCounts func() (pending, delivered, failed int64, err error)

// WebhookMetrics are the webhook delivery metrics; it is the delivery
// workers' observer.
type WebhookMetrics struct {
	attempts *counterVec[string]   // outcome
	seconds  *histogramVec[string] // outcome
}

// webhookBuckets span a loopback receiver to the 10 s attempt timeout.
var webhookBuckets = []float64{.001, .005, .01, .05, .1, .25, .5, 1, 2.5, 5, 10}

var (
	attemptsDesc = desc{name: Namespace + "_webhook_attempts_total", kind: kindCounter,
		help:   "Webhook delivery attempts by this process, by outcome: delivered, retry (to be tried again), failed (retries over), refused (address not in webhooks.allowed_hosts).",
		labels: []string{"outcome"}}
	attemptSecondsDesc = desc{name: Namespace + "_webhook_attempt_duration_seconds", kind: kindHistogram,
		help:   "Time from sending a webhook delivery to its answer, by outcome.",
		labels: []string{"outcome"}}
	deliveriesDesc = desc{name: Namespace + "_webhook_deliveries_total", kind: kindCounter,
		help:   "Webhook deliveries (one event to one endpoint) ended, by state: delivered (answered 2xx) or failed (72 h of retries over); from the database, so kept across restarts.",
		labels: []string{"state"}}
	pendingDesc = desc{name: Namespace + "_webhook_deliveries_pending", kind: kindGauge,
		help: "Webhook deliveries waiting for their first or next attempt (from the database)."}
)

// Webhooks registers the delivery metrics: the outbox totals read through
// counts, and each attempt's outcome and duration.
func (m *Metrics) Webhooks(counts DeliveryCounts) *WebhookMetrics {
	w := &WebhookMetrics{
		attempts: newCounterVec(&attemptsDesc, oneLabel),
		seconds:  newHistogramVec(&attemptSecondsDesc, webhookBuckets, oneLabel),
	}
	m.register(w.attempts.collect, w.seconds.collect, func(s *scrape) {
		// A failed read of the outbox leaves its series out of this scrape.
		pending, delivered, failed, err := counts()
		if err != nil {
			return
		}
		s.add(&deliveriesDesc,
			series{labels: []string{"delivered"}, value: float64(delivered)},
			series{labels: []string{"failed"}, value: float64(failed)})
		s.gaugeValue(&pendingDesc, float64(pending))
	})
	for _, o := range []string{"delivered", "retry", "failed", "refused"} {
		w.attempts.with(o)
	}
	return w
}

// WebhookAttempt records one delivery attempt.
func (w *WebhookMetrics) WebhookAttempt(outcome string, took time.Duration) {
	w.attempts.with(outcome).add(1)
	w.seconds.with(outcome).observe(took.Seconds())
}
