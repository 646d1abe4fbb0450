package store_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"planreview/store"
	"planreview/webhooks"
)

// BenchmarkWebhookDrain: 10,000 events queued for one endpoint (a loopback
// receiver answering 204), drained by the delivery workers with the
// default settings (8 workers, one endpoint gets 4 at a time): signing,
// the guarded client, and the outcomes written back to bbolt with fsync.
// The figure is deliveries/s; the target is >= 500/s (docs/benchmarks.md).
func BenchmarkWebhookDrain(b *testing.B) {
	const events = 10_000
	var got atomic.Int64
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer recv.Close()
	policy, err := webhooks.ParsePolicy([]string{"127.0.0.1"})
	if err != nil {
		b.Fatal(err)
	}
	sealer, _ := webhooks.NewSealer(make([]byte, 32))
	var total time.Duration
	for range b.N {
		b.StopTimer()
		db, err := store.Open(filepath.Join(b.TempDir(), "planreview.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		p, _, _ := db.EnsurePartner("bench")
		secret, _ := webhooks.NewSecret()
		sealed, _ := sealer.Seal(secret)
		if _, err := db.CreateWebhook(store.Webhook{PartnerID: p.ID, URL: recv.URL + "/hook", Events: store.EventTypes, Secret: sealed}); err != nil {
			b.Fatal(err)
		}
		if err := db.RecordEvents(p.ID, store.EventScanCompleted, events, map[string]string{"jobId": "job_01JDQ40A1B2C3D4E5F6G7H8J9K"}); err != nil {
			b.Fatal(err)
		}
		d := &webhooks.Deliverer{Store: db, Client: policy.Client(), Sealer: sealer}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		b.StartTimer()
		start := time.Now()
		go func() { d.Run(ctx); close(done) }()
		for {
			c, err := db.DeliveryCounts()
			if err != nil {
				b.Fatal(err)
			}
			if c.Delivered == events {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		total += time.Since(start)
		b.StopTimer()
		cancel()
		<-done
		db.Close()
	}
	b.ReportMetric(float64(events*b.N)/total.Seconds(), "deliveries/s")
	b.ReportMetric(float64(got.Load())/float64(events*b.N), "requests/delivery")
}
