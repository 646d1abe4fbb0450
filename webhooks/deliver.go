package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
	"time"

	"planreview/store"
)

// Store is what delivery needs of the database.
type Store interface {
	DueDeliveries(now time.Time, limit int, skip func(store.DeliveryKey) bool) ([]store.DueDelivery, time.Time, error)
	RecordAttempts(results []store.AttemptResult) error
	PurgeEvents(cutoff time.Time) (int, error)
}

// Observer receives what delivery measures; *metrics.Metrics implements it.
type Observer interface {
	// WebhookAttempt records one attempt: outcome delivered, retry (will be
	// tried again), failed (retry window over) or refused (by the guard).
	WebhookAttempt(outcome string, took time.Duration)
}

// EventRetention is how long events stay listed (GET /events).
const EventRetention = 30 * 24 * time.Hour

// maxBackoff caps the wait between attempts, so a receiver back after a
// day's outage gets its events within hours, not at the 72 h mark.
const maxBackoff = 6 * time.Hour

// Deliverer drains the outbox: it POSTs each due delivery, signed, and
// records the outcome; failures are retried with exponential backoff and
// jitter until the delivery's retry window ends.
type Deliverer struct {
	Store    Store
	Client   *http.Client // Policy.Client(): the guarded client
	Sealer   *Sealer
	Log      *slog.Logger
	Observer Observer
	// Workers is how many deliveries are in flight at once; one webhook
	// gets at most half of them, so a slow receiver cannot hold them all.
	Workers int
	// RetryBase is the first wait after a failure; each next one doubles
	// (up to 6 h), with jitter.
	RetryBase time.Duration
	// UserAgent names the appliance in deliveries.
	UserAgent string
	Now       func() time.Time

	wakeOnce sync.Once
	wake     chan struct{}
}

func (d *Deliverer) init() {
	d.wakeOnce.Do(func() {
		d.wake = make(chan struct{}, 1)
		if d.Workers < 1 {
			d.Workers = 8
		}
		if d.RetryBase <= 0 {
			d.RetryBase = 30 * time.Second
		}
		if d.Now == nil {
			d.Now = time.Now
		}
		if d.Log == nil {
			d.Log = slog.New(slog.DiscardHandler)
		}
	})
}

// Wake tells the deliverer that deliveries were queued.
func (d *Deliverer) Wake() {
	d.init()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Backoff is the wait after the attempts-th failed attempt: RetryBase
// doubled attempts-1 times, capped at 6 h, then drawn uniformly from its
// upper half (jitter, so deliveries that failed together do not return
// together).
func (d *Deliverer) Backoff(attempts int) time.Duration {
	d.init()
	wait := d.RetryBase
	for i := 1; i < attempts && wait < maxBackoff; i++ {
		wait *= 2
	}
	wait = min(wait, maxBackoff)
	return wait/2 + rand.N(wait/2+1)
}

type outcome struct {
	res     store.AttemptResult
	skipped bool // interrupted by shutdown: not an attempt
}

// Run delivers until ctx ends, then waits for attempts in flight and
// records those that finished.
func (d *Deliverer) Run(ctx context.Context) {
	d.init()
	jobs := make(chan store.DueDelivery, d.Workers)
	results := make(chan outcome, d.Workers)
	var wg sync.WaitGroup
	for range d.Workers {
		wg.Go(func() {
			for job := range jobs {
				results <- d.safeAttempt(ctx, job)
			}
		})
	}
	// Outcomes are written by a committer of their own, in batches, so the
	// workers go on sending while bbolt syncs the last batch to disk.
	toCommit := make(chan []store.AttemptResult)
	committed := make(chan []store.AttemptResult)
	go func() {
		defer close(committed)
		for batch := range toCommit {
			if err := d.Store.RecordAttempts(batch); err != nil {
				// The attempts stay due and are made again: at least once.
				d.Log.Error("webhooks: record delivery attempts", "error", err, "count", len(batch))
			}
			committed <- batch
		}
	}()

	// inflight: sent to a worker or waiting to be committed (never fetched
	// again meanwhile); sending counts those a worker has, per webhook.
	inflight := map[store.DeliveryKey]bool{}
	sending := map[string]int{}
	busy := 0
	hookCap := max(1, d.Workers/2)
	var uncommitted []store.AttemptResult
	committing := false
	commit := func() {
		if !committing && len(uncommitted) > 0 {
			toCommit <- uncommitted
			uncommitted, committing = nil, true
		}
	}
	done := func(batch []store.AttemptResult) {
		for _, r := range batch {
			delete(inflight, r.DeliveryKey)
		}
		committing = false
	}
	finished := func(o outcome) {
		busy--
		if sending[o.res.WebhookID]--; sending[o.res.WebhookID] <= 0 {
			delete(sending, o.res.WebhookID)
		}
		if o.skipped {
			delete(inflight, o.res.DeliveryKey)
			return
		}
		uncommitted = append(uncommitted, o.res)
	}

	purge := time.NewTicker(time.Hour)
	defer purge.Stop()
	d.purge()
	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	for ctx.Err() == nil {
		var next time.Time
		if busy < d.Workers {
			var err error
			var due []store.DueDelivery
			due, next, err = d.Store.DueDeliveries(d.Now(), d.Workers-busy, func(k store.DeliveryKey) bool {
				return inflight[k] || sending[k.WebhookID] >= hookCap
			})
			if err != nil {
				d.Log.Error("webhooks: read due deliveries", "error", err)
				next = d.Now().Add(5 * time.Second)
			}
			for _, job := range due {
				if sending[job.WebhookID] >= hookCap {
					continue // filled by an earlier one of this batch
				}
				inflight[job.Key()] = true
				sending[job.WebhookID]++
				busy++
				jobs <- job // never blocks: busy <= Workers, the channel holds Workers
			}
		}
		wait := time.Minute // a poll, in case a wake-up was missed
		if !next.IsZero() {
			wait = min(wait, max(next.Sub(d.Now()), time.Millisecond))
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
		case o := <-results:
			finished(o)
		drain:
			for {
				select {
				case o := <-results:
					finished(o)
				default:
					break drain
				}
			}
		case batch := <-committed:
			done(batch)
		case <-d.wake:
		case <-timer.C:
		case <-purge.C:
			d.purge()
		}
		commit()
	}
	// Shutdown: attempts in flight end (their requests carry ctx); what
	// finished is still recorded so it is not sent again.
	close(jobs)
	go func() { wg.Wait(); close(results) }()
	for o := range results {
		finished(o)
	}
	if committing {
		done(<-committed)
	}
	commit()
	close(toCommit)
	for range committed {
	}
}

func (d *Deliverer) purge() {
	if n, err := d.Store.PurgeEvents(d.Now().Add(-EventRetention)); err != nil {
		d.Log.Error("webhooks: purge old events", "error", err)
	} else if n > 0 {
		d.Log.Info("webhooks: purged events older than 30 days", "count", n)
	}
}

// safeAttempt is attempt with a panic contained to the one delivery (it is
// retried like a failed attempt).
func (d *Deliverer) safeAttempt(ctx context.Context, job store.DueDelivery) (o outcome) {
	defer func() {
		if v := recover(); v != nil {
			d.Log.Error("webhooks: delivery attempt panicked", "event_id", job.EventID, "webhook_id", job.WebhookID, "panic", v)
			o = d.failed(job, d.Now(), 0, "internal error in the appliance", 0)
		}
	}()
	return d.attempt(ctx, job)
}

// Payload is the JSON body of a delivery (contract: id, type, createdAt,
// data). It is the same bytes on every attempt.
func Payload(ev store.Event) ([]byte, error) {
	return json.Marshal(struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		CreatedAt time.Time       `json:"createdAt"`
		Data      json.RawMessage `json:"data"`
	}{ev.ID, ev.Type, ev.CreatedAt.UTC(), ev.Data})
}

func (d *Deliverer) attempt(ctx context.Context, job store.DueDelivery) outcome {
	start := d.Now()
	body, err := Payload(job.Event)
	if err != nil {
		return d.failed(job, start, 0, "encode event: "+err.Error(), 0)
	}
	var secrets []string
	for _, sealed := range job.Webhook.Secrets(start) {
		s, err := d.Sealer.Open(sealed)
		if err != nil {
			return d.failed(job, start, 0, err.Error(), 0)
		}
		secrets = append(secrets, s)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, job.Webhook.URL, bytes.NewReader(body))
	if err != nil {
		return d.failed(job, start, 0, "bad url: "+err.Error(), 0)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", d.UserAgent)
	req.Header.Set(SignatureHeader, SignatureValue(secrets, start.Unix(), body))
	resp, err := d.Client.Do(req)
	took := d.Now().Sub(start)
	if err != nil {
		if ctx.Err() != nil {
			return outcome{res: store.AttemptResult{DeliveryKey: job.Key()}, skipped: true}
		}
		msg := err.Error()
		var ue *url.Error
		if errors.As(err, &ue) {
			msg = ue.Err.Error() // without the URL, whose query may hold the partner's token
		}
		refused := errors.Is(err, ErrNotAllowed)
		if refused {
			d.Log.Warn("webhooks: delivery refused by webhooks.allowed_hosts", "event_id", job.EventID,
				"webhook_id", job.WebhookID, "error", msg)
		}
		return d.failed(job, start, 0, msg, took, refused)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxResponseBytes))
	resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		d.observe("delivered", took)
		return outcome{res: store.AttemptResult{DeliveryKey: job.Key(), At: start, Delivered: true, Status: resp.StatusCode}}
	}
	msg := fmt.Sprintf("answered %d", resp.StatusCode)
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		msg += " (redirects are not followed)"
	}
	return d.failed(job, start, resp.StatusCode, msg, took)
}

// failed schedules the next attempt, or ends the delivery when the next
// one would fall after its retry window.
func (d *Deliverer) failed(job store.DueDelivery, at time.Time, status int, msg string, took time.Duration, refused ...bool) outcome {
	res := store.AttemptResult{DeliveryKey: job.Key(), At: at, Status: status, Error: msg}
	next := at.Add(d.Backoff(job.Attempts + 1))
	label := "retry"
	if next.After(job.RetryUntil) {
		label = "failed"
	} else {
		res.NextAttemptAt = next
	}
	if len(refused) > 0 && refused[0] {
		label = "refused"
	}
	d.observe(label, took)
	return outcome{res: res}
}

func (d *Deliverer) observe(outcome string, took time.Duration) {
	if d.Observer != nil {
		d.Observer.WebhookAttempt(outcome, took)
	}
}
