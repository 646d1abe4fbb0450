package store

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Id prefixes of webhook endpoints and events.
const (
	PrefixWebhook = "whk_"
	PrefixEvent   = "evt_"
)

// Event types a webhook may subscribe to.
const (
	EventScanCompleted  = "scan.completed"
	EventScanFailed     = "scan.failed"
	EventFindingUpdated = "finding.updated"
)

// EventTypes lists every event type, in the order documentation shows them.
var EventTypes = []string{EventScanCompleted, EventScanFailed, EventFindingUpdated}

// Delivery states. A delivery is pending until an attempt is answered 2xx
// (delivered) or its retry window ends (failed); deleting its webhook
// cancels it.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	DeliveryCanceled  = "canceled"
)

// RetryWindow is how long a delivery is retried (contract: 72 h).
const RetryWindow = 72 * time.Hour

// ErrWebhookLimit is returned when a partner already has MaxWebhooks.
var ErrWebhookLimit = errors.New("too many webhooks")

// MaxWebhooks bounds a partner's endpoints: every event is delivered to
// each subscribed one, so the count multiplies outbound requests.
const MaxWebhooks = 16

var (
	bucketWebhooks        = []byte("webhooks")         // webhook id -> Webhook
	bucketPartnerWebhooks = []byte("partner_webhooks") // partner id 0x00 webhook id -> nil
	bucketEvents          = []byte("events")           // event id -> Event
	bucketPartnerEvents   = []byte("partner_events")   // partner id 0x00 event id -> nil
	bucketDeliveries      = []byte("deliveries")       // event id 0x00 webhook id -> Delivery
	bucketDeliveriesDue   = []byte("deliveries_due")   // unix nanos (8 bytes BE) event id 0x00 webhook id -> nil
	bucketWebhookStats    = []byte("webhook_stats")    // state -> count (8 bytes BE)
)

// Webhook is a partner's endpoint. Secrets are sealed by the caller (the
// store never holds them in clear); PreviousSecret is the one a rotation
// replaced, still signed with until PreviousSecretExpiresAt.
type Webhook struct {
	ID                      string     `json:"id"`
	PartnerID               string     `json:"partnerId"`
	URL                     string     `json:"url"`
	Events                  []string   `json:"events"`
	Secret                  []byte     `json:"secret"`
	PreviousSecret          []byte     `json:"previousSecret,omitempty"`
	PreviousSecretExpiresAt *time.Time `json:"previousSecretExpiresAt,omitempty"`
	CreatedAt               time.Time  `json:"createdAt"`
	UpdatedAt               time.Time  `json:"updatedAt"`
}

// Subscribes reports whether the webhook wants events of this type.
func (w Webhook) Subscribes(eventType string) bool { return slices.Contains(w.Events, eventType) }

// Secrets are the sealed secrets deliveries are signed with at now: the
// current one, then the previous one during its grace period.
func (w Webhook) Secrets(now time.Time) [][]byte {
	out := [][]byte{w.Secret}
	if w.PreviousSecret != nil && w.PreviousSecretExpiresAt != nil && now.Before(*w.PreviousSecretExpiresAt) {
		out = append(out, w.PreviousSecret)
	}
	return out
}

// Event is something that happened to a partner's data, kept 30 days.
type Event struct {
	ID        string          `json:"id"`
	PartnerID string          `json:"partnerId"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

// Delivery is one event's journey to one webhook.
type Delivery struct {
	EventID       string     `json:"eventId"`
	WebhookID     string     `json:"webhookId"`
	PartnerID     string     `json:"partnerId"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	RetryUntil    time.Time  `json:"retryUntil"`
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"` // pending only
	LastAttemptAt *time.Time `json:"lastAttemptAt,omitempty"`
	LastStatus    int        `json:"lastStatus,omitempty"` // HTTP status of the last answer
	LastError     string     `json:"lastError,omitempty"`
	DeliveredAt   *time.Time `json:"deliveredAt,omitempty"`
}

// DueDelivery is a delivery to attempt, with what the attempt sends.
type DueDelivery struct {
	Delivery
	Event   Event
	Webhook Webhook
}

// DeliveryKey names one delivery.
type DeliveryKey struct{ EventID, WebhookID string }

// Key is the delivery's name.
func (d Delivery) Key() DeliveryKey { return DeliveryKey{d.EventID, d.WebhookID} }

// AttemptResult is the outcome of one delivery attempt. NextAttemptAt zero
// with Delivered false means the retry window is over: the delivery fails.
type AttemptResult struct {
	DeliveryKey
	At            time.Time
	Delivered     bool
	Status        int
	Error         string
	NextAttemptAt time.Time
}

// DeliveryCounts are the outbox's totals, kept in the database so they
// survive restarts.
type DeliveryCounts struct{ Pending, Delivered, Failed int64 }

// eventHook is called after a transaction that recorded events committed.
type eventHook struct{ fn func() }

var noEventHook = &eventHook{fn: func() {}}

// OnEvents sets fn to be called after every commit that recorded an event,
// so the delivery workers start at once instead of at their next poll.
func (db *DB) OnEvents(fn func()) { db.events.Store(&eventHook{fn: fn}) }

// recordEvent writes an event of partnerID and a pending delivery to each
// of the partner's webhooks subscribed to its type, in tx: the event
// commits or vanishes with the change it reports. Every change that
// reports an event calls it inside its own transaction; data is the
// event's "data" object.
func (db *DB) recordEvent(tx *bolt.Tx, partnerID, eventType string, data any) (Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	now := db.now().UTC()
	ev := Event{ID: NewID(PrefixEvent), PartnerID: partnerID, Type: eventType, CreatedAt: now, Data: raw}
	events, err := tx.CreateBucketIfNotExists(bucketEvents)
	if err != nil {
		return Event{}, err
	}
	if err := putJSON(events, ev.ID, ev); err != nil {
		return Event{}, err
	}
	index, err := tx.CreateBucketIfNotExists(bucketPartnerEvents)
	if err != nil {
		return Event{}, err
	}
	if err := index.Put(indexKey(partnerID, ev.ID), nil); err != nil {
		return Event{}, err
	}
	hooks, err := partnerWebhooks(tx, partnerID)
	if err != nil {
		return Event{}, err
	}
	queued := int64(0)
	for _, w := range hooks {
		if !w.Subscribes(eventType) {
			continue
		}
		d := Delivery{EventID: ev.ID, WebhookID: w.ID, PartnerID: partnerID, Status: DeliveryPending,
			RetryUntil: now.Add(RetryWindow), NextAttemptAt: &now}
		if err := putDelivery(tx, d); err != nil {
			return Event{}, err
		}
		if err := setDue(tx, d.Key(), now); err != nil {
			return Event{}, err
		}
		queued++
	}
	if queued > 0 {
		if err := addStat(tx, DeliveryPending, queued); err != nil {
			return Event{}, err
		}
		hook := db.events.Load()
		if hook == nil {
			hook = noEventHook
		}
		tx.OnCommit(hook.fn)
	}
	return ev, nil
}

// ScanEventData is the data of scan.completed and scan.failed events.
type ScanEventData struct {
	JobID         string        `json:"jobId"`
	VersionID     string        `json:"versionId"`
	VersionNumber int           `json:"versionNumber"`
	ExternalID    *string       `json:"externalId"`
	Status        string        `json:"status"`
	FindingCounts FindingCounts `json:"findingCounts"`
	Error         *Problem      `json:"error"`
	FinishedAt    time.Time     `json:"finishedAt"`
	// Round is the version's round and its comparison with the previous
	// completed version (scan.completed only; null when failed).
	Round *RoundSummary `json:"round"`
}

// recordScanEvent reports a version's scan that just ended (complete or
// failed) in the transaction that ended it.
func (db *DB) recordScanEvent(tx *bolt.Tx, v Version) error {
	var j Job
	if err := getJSON(tx.Bucket(bucketJobs), v.JobID, &j); err != nil {
		return err
	}
	data := ScanEventData{JobID: j.ID, VersionID: v.ID, VersionNumber: v.Number, Status: v.Status,
		FindingCounts: v.FindingCounts, Error: v.Pipeline.Error, FinishedAt: v.UpdatedAt, Round: v.Round}
	if j.ExternalID != "" {
		data.ExternalID = &j.ExternalID
	}
	eventType := EventScanCompleted
	if v.Status == StatusFailed {
		eventType = EventScanFailed
	}
	_, err := db.recordEvent(tx, j.PartnerID, eventType, data)
	return err
}

// FindingUpdatedData is the data of a finding.updated event: which
// finding changed, and the finding as it now is (the contract's shape,
// whatever the caller passes).
type FindingUpdatedData struct {
	JobID     string `json:"jobId"`
	VersionID string `json:"versionId"`
	FindingID string `json:"findingId"`
	// Finding is the finding after the change, as GET /findings shows it.
	Finding any `json:"finding"`
	// Changed names the fields the change set (status, note, title, ...).
	Changed []string `json:"changed"`
	// Actor is who made the change ({id, name}), nil for the appliance.
	Actor any `json:"actor"`
}

// recordFindingUpdated reports a change of a finding (its disposition or
// edited text) in the transaction that stores the change. Call it from
// that transaction, once per finding changed.
func (db *DB) recordFindingUpdated(tx *bolt.Tx, partnerID string, data FindingUpdatedData) error {
	_, err := db.recordEvent(tx, partnerID, EventFindingUpdated, data)
	return err
}

func putDelivery(tx *bolt.Tx, d Delivery) error {
	b, err := tx.CreateBucketIfNotExists(bucketDeliveries)
	if err != nil {
		return err
	}
	return putJSON(b, string(indexKey(d.EventID, d.WebhookID)), d)
}

func dueKey(k DeliveryKey, at time.Time) []byte {
	out := make([]byte, 8, 8+len(k.EventID)+1+len(k.WebhookID))
	binary.BigEndian.PutUint64(out, uint64(at.UnixNano()))
	out = append(out, k.EventID...)
	out = append(out, 0)
	return append(out, k.WebhookID...)
}

func parseDueKey(key []byte) (DeliveryKey, time.Time, bool) {
	if len(key) < 9 {
		return DeliveryKey{}, time.Time{}, false
	}
	at := time.Unix(0, int64(binary.BigEndian.Uint64(key[:8])))
	ev, hook, ok := bytes.Cut(key[8:], []byte{0})
	return DeliveryKey{string(ev), string(hook)}, at, ok
}

func setDue(tx *bolt.Tx, k DeliveryKey, at time.Time) error {
	b, err := tx.CreateBucketIfNotExists(bucketDeliveriesDue)
	if err != nil {
		return err
	}
	return b.Put(dueKey(k, at), nil)
}

func clearDue(tx *bolt.Tx, d Delivery) error {
	b := tx.Bucket(bucketDeliveriesDue)
	if b == nil || d.NextAttemptAt == nil {
		return nil
	}
	return b.Delete(dueKey(d.Key(), *d.NextAttemptAt))
}

func addStat(tx *bolt.Tx, state string, n int64) error {
	b, err := tx.CreateBucketIfNotExists(bucketWebhookStats)
	if err != nil {
		return err
	}
	var cur int64
	if raw := b.Get([]byte(state)); len(raw) == 8 {
		cur = int64(binary.BigEndian.Uint64(raw))
	}
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], uint64(max(cur+n, 0)))
	return b.Put([]byte(state), v[:])
}

// CreateWebhook stores a new webhook of w.PartnerID (its id is assigned).
func (db *DB) CreateWebhook(w Webhook) (Webhook, error) {
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		existing, err := partnerWebhooks(tx, w.PartnerID)
		if err != nil {
			return err
		}
		if len(existing) >= MaxWebhooks {
			return ErrWebhookLimit
		}
		now := db.now().UTC()
		w.ID, w.CreatedAt, w.UpdatedAt = NewID(PrefixWebhook), now, now
		b, err := tx.CreateBucketIfNotExists(bucketWebhooks)
		if err != nil {
			return err
		}
		if err := putJSON(b, w.ID, w); err != nil {
			return err
		}
		index, err := tx.CreateBucketIfNotExists(bucketPartnerWebhooks)
		if err != nil {
			return err
		}
		return index.Put(indexKey(w.PartnerID, w.ID), nil)
	})
	return w, err
}

func partnerWebhooks(tx *bolt.Tx, partnerID string) ([]Webhook, error) {
	index, hooks := tx.Bucket(bucketPartnerWebhooks), tx.Bucket(bucketWebhooks)
	if index == nil || hooks == nil {
		return nil, nil
	}
	var out []Webhook
	prefix := indexKey(partnerID, "")
	c := index.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		var w Webhook
		if err := getJSON(hooks, string(k[len(prefix):]), &w); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// Webhooks lists a partner's webhooks, oldest first; partnerID "" lists
// every partner's (operators).
func (db *DB) Webhooks(partnerID string) ([]Webhook, error) {
	var out []Webhook
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if partnerID != "" {
			var err error
			out, err = partnerWebhooks(tx, partnerID)
			return err
		}
		b := tx.Bucket(bucketWebhooks)
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, raw []byte) error {
			var w Webhook
			if err := unmarshal(raw, &w); err != nil {
				return err
			}
			out = append(out, w)
			return nil
		})
	})
	return out, err
}

// ownedWebhook loads a webhook; another partner's is ErrNotFound.
func ownedWebhook(tx *bolt.Tx, partnerID, id string) (Webhook, error) {
	var w Webhook
	b := tx.Bucket(bucketWebhooks)
	if b == nil {
		return w, ErrNotFound
	}
	if err := getJSON(b, id, &w); err != nil {
		return w, err
	}
	if w.PartnerID != partnerID {
		return Webhook{}, ErrNotFound
	}
	return w, nil
}

// Webhook returns one of a partner's webhooks.
func (db *DB) Webhook(partnerID, id string) (Webhook, error) {
	var w Webhook
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		w, err = ownedWebhook(tx, partnerID, id)
		return err
	})
	return w, err
}

// DeleteWebhook removes a partner's webhook; its pending deliveries are
// canceled (their events stay listed in GET /events).
func (db *DB) DeleteWebhook(partnerID, id string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		if _, err := ownedWebhook(tx, partnerID, id); err != nil {
			return err
		}
		if err := tx.Bucket(bucketWebhooks).Delete([]byte(id)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketPartnerWebhooks).Delete(indexKey(partnerID, id)); err != nil {
			return err
		}
		due := tx.Bucket(bucketDeliveriesDue)
		if due == nil {
			return nil
		}
		var canceled []DeliveryKey
		c := due.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if dk, _, ok := parseDueKey(k); ok && dk.WebhookID == id {
				canceled = append(canceled, dk)
			}
		}
		now := db.now().UTC()
		for _, dk := range canceled {
			d, err := delivery(tx, dk)
			if err != nil {
				return err
			}
			if err := clearDue(tx, d); err != nil {
				return err
			}
			d.Status, d.NextAttemptAt, d.LastError = DeliveryCanceled, nil, "webhook deleted at "+now.Format(time.RFC3339)
			if err := putDelivery(tx, d); err != nil {
				return err
			}
		}
		return addStat(tx, DeliveryPending, -int64(len(canceled)))
	})
}

// RotateWebhookSecret makes sealed the webhook's secret; the one it
// replaces keeps signing deliveries (beside the new one) for grace. A
// rotation during a grace period ends the older secret at once.
func (db *DB) RotateWebhookSecret(partnerID, id string, sealed []byte, grace time.Duration) (Webhook, error) {
	var w Webhook
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if w, err = ownedWebhook(tx, partnerID, id); err != nil {
			return err
		}
		now := db.now().UTC()
		w.PreviousSecret, w.PreviousSecretExpiresAt = nil, nil
		if grace > 0 {
			until := now.Add(grace)
			w.PreviousSecret, w.PreviousSecretExpiresAt = w.Secret, &until
		}
		w.Secret, w.UpdatedAt = sealed, now
		return putJSON(tx.Bucket(bucketWebhooks), w.ID, w)
	})
	return w, err
}

// Events lists a partner's events created at or after since, oldest
// first, starting after the event id after (""); more reports whether
// another page follows.
func (db *DB) Events(partnerID, after string, since time.Time, limit int) (out []Event, more bool, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		index, events := tx.Bucket(bucketPartnerEvents), tx.Bucket(bucketEvents)
		if index == nil || events == nil {
			return nil
		}
		prefix := indexKey(partnerID, "")
		c := index.Cursor()
		var k []byte
		if after != "" {
			k, _ = c.Seek(indexKey(partnerID, after))
			if k != nil && bytes.Equal(k, indexKey(partnerID, after)) {
				k, _ = c.Next()
			}
		} else {
			k, _ = c.Seek(prefix)
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			var ev Event
			if err := getJSON(events, string(k[len(prefix):]), &ev); err != nil {
				if errors.Is(err, ErrNotFound) {
					continue
				}
				return err
			}
			if ev.CreatedAt.Before(since) {
				continue
			}
			if len(out) == limit {
				more = true
				return nil
			}
			out = append(out, ev)
		}
		return nil
	})
	return out, more, err
}

// EventByID returns an event; partnerID "" finds any partner's (operators).
func (db *DB) EventByID(partnerID, id string) (Event, error) {
	var ev Event
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketEvents)
		if b == nil {
			return ErrNotFound
		}
		if err := getJSON(b, id, &ev); err != nil {
			return err
		}
		if partnerID != "" && ev.PartnerID != partnerID {
			return ErrNotFound
		}
		return nil
	})
	return ev, err
}

func delivery(tx *bolt.Tx, k DeliveryKey) (Delivery, error) {
	var d Delivery
	b := tx.Bucket(bucketDeliveries)
	if b == nil {
		return d, ErrNotFound
	}
	return d, getJSON(b, string(indexKey(k.EventID, k.WebhookID)), &d)
}

// Deliveries lists the deliveries of an event ("" : of every event,
// newest event first), optionally only those in one state, at most limit.
func (db *DB) Deliveries(eventID, status string, limit int) ([]Delivery, error) {
	var out []Delivery
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDeliveries)
		if b == nil {
			return nil
		}
		keep := func(raw []byte) (bool, error) {
			var d Delivery
			if err := unmarshal(raw, &d); err != nil {
				return false, err
			}
			if status == "" || d.Status == status {
				out = append(out, d)
			}
			return limit > 0 && len(out) >= limit, nil
		}
		c := b.Cursor()
		if eventID != "" {
			prefix := indexKey(eventID, "")
			for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
				if done, err := keep(raw); err != nil || done {
					return err
				}
			}
			return nil
		}
		for k, raw := c.Last(); k != nil; k, raw = c.Prev() {
			if done, err := keep(raw); err != nil || done {
				return err
			}
		}
		return nil
	})
	return out, err
}

// DueDeliveries returns up to limit pending deliveries due at now, oldest
// due first, skipping those skip names (already in flight). next is when
// the earliest delivery not returned falls due (zero: none waiting).
func (db *DB) DueDeliveries(now time.Time, limit int, skip func(DeliveryKey) bool) (out []DueDelivery, next time.Time, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		due := tx.Bucket(bucketDeliveriesDue)
		if due == nil {
			return nil
		}
		events, hooks := tx.Bucket(bucketEvents), tx.Bucket(bucketWebhooks)
		c := due.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			dk, at, ok := parseDueKey(k)
			if !ok || skip(dk) {
				continue
			}
			if at.After(now) || len(out) >= limit {
				next = at // keys are in due order: the first one left is the earliest
				return nil
			}
			d, err := delivery(tx, dk)
			if err != nil {
				continue // the sweep of dangling entries is RecordAttempts' work
			}
			dd := DueDelivery{Delivery: d}
			if events == nil || hooks == nil || getJSON(events, dk.EventID, &dd.Event) != nil ||
				getJSON(hooks, dk.WebhookID, &dd.Webhook) != nil {
				continue
			}
			out = append(out, dd)
		}
		return nil
	})
	return out, next, err
}

// RecordAttempts stores the outcomes of delivery attempts, all in one
// transaction (the workers hand them over in batches). An outcome for a
// delivery no longer pending (its webhook was deleted meanwhile) is
// dropped.
func (db *DB) RecordAttempts(results []AttemptResult) error {
	if len(results) == 0 {
		return nil
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		var pending, delivered, failed int64
		for _, r := range results {
			d, err := delivery(tx, r.DeliveryKey)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if d.Status != DeliveryPending {
				continue
			}
			if err := clearDue(tx, d); err != nil {
				return err
			}
			at := r.At.UTC()
			d.Attempts++
			d.LastAttemptAt, d.LastStatus, d.LastError, d.NextAttemptAt = &at, r.Status, r.Error, nil
			switch {
			case r.Delivered:
				d.Status, d.DeliveredAt = DeliveryDelivered, &at
				pending--
				delivered++
			case r.NextAttemptAt.IsZero():
				d.Status = DeliveryFailed
				pending--
				failed++
			default:
				next := r.NextAttemptAt.UTC()
				d.NextAttemptAt = &next
				if err := setDue(tx, d.Key(), next); err != nil {
					return err
				}
			}
			if err := putDelivery(tx, d); err != nil {
				return err
			}
		}
		for state, n := range map[string]int64{DeliveryPending: pending, DeliveryDelivered: delivered, DeliveryFailed: failed} {
			if n != 0 {
				if err := addStat(tx, state, n); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// RetryEvent sends an event again to every webhook it was for, now, with a
// fresh retry window, whatever each delivery's state (receivers tell
// repeats apart by the event id). A canceled delivery (webhook deleted)
// stays canceled. It returns the deliveries queued.
func (db *DB) RetryEvent(eventID string) ([]Delivery, error) {
	var out []Delivery
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		out = nil
		if b := tx.Bucket(bucketEvents); b == nil || b.Get([]byte(eventID)) == nil {
			return ErrNotFound
		}
		b := tx.Bucket(bucketDeliveries)
		if b == nil {
			return nil
		}
		var all []Delivery
		prefix := indexKey(eventID, "")
		c := b.Cursor()
		for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
			var d Delivery
			if err := unmarshal(raw, &d); err != nil {
				return err
			}
			all = append(all, d)
		}
		now := db.now().UTC()
		for _, d := range all {
			switch d.Status {
			case DeliveryCanceled:
				continue
			case DeliveryPending:
				if err := clearDue(tx, d); err != nil {
					return err
				}
			default:
				if err := addStat(tx, d.Status, -1); err != nil {
					return err
				}
				if err := addStat(tx, DeliveryPending, 1); err != nil {
					return err
				}
			}
			d.Status, d.RetryUntil, d.NextAttemptAt, d.DeliveredAt = DeliveryPending, now.Add(RetryWindow), &now, nil
			if err := setDue(tx, d.Key(), now); err != nil {
				return err
			}
			if err := putDelivery(tx, d); err != nil {
				return err
			}
			out = append(out, d)
		}
		if len(out) > 0 {
			if hook := db.events.Load(); hook != nil {
				tx.OnCommit(hook.fn)
			}
		}
		return nil
	})
	return out, err
}

// DeliveryCounts reads the outbox totals.
func (db *DB) DeliveryCounts() (DeliveryCounts, error) {
	var c DeliveryCounts
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketWebhookStats)
		if b == nil {
			return nil
		}
		get := func(state string) int64 {
			if raw := b.Get([]byte(state)); len(raw) == 8 {
				return int64(binary.BigEndian.Uint64(raw))
			}
			return 0
		}
		c = DeliveryCounts{Pending: get(DeliveryPending), Delivered: get(DeliveryDelivered), Failed: get(DeliveryFailed)}
		return nil
	})
	return c, err
}

// PurgeEvents deletes events created before cutoff with their deliveries
// (a pending one is canceled: an event past the listing's 30 days is past
// its 72 h of retries unless an operator retried it since).
func (db *DB) PurgeEvents(cutoff time.Time) (int, error) {
	n := 0
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		n = 0
		events := tx.Bucket(bucketEvents)
		if events == nil {
			return nil
		}
		var old []Event
		c := events.Cursor()
		for k, raw := c.First(); k != nil && len(old) < 10000; k, raw = c.Next() {
			var ev Event
			if err := unmarshal(raw, &ev); err != nil {
				return err
			}
			if !ev.CreatedAt.Before(cutoff) {
				break // ids, so keys, are in creation order
			}
			old = append(old, ev)
		}
		deliveries := tx.Bucket(bucketDeliveries)
		var pending int64
		for _, ev := range old {
			if deliveries != nil {
				var keys [][]byte
				prefix := indexKey(ev.ID, "")
				dc := deliveries.Cursor()
				for k, raw := dc.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = dc.Next() {
					var d Delivery
					if err := unmarshal(raw, &d); err != nil {
						return err
					}
					if d.Status == DeliveryPending {
						if err := clearDue(tx, d); err != nil {
							return err
						}
						pending++
					}
					keys = append(keys, append([]byte(nil), k...))
				}
				for _, k := range keys {
					if err := deliveries.Delete(k); err != nil {
						return err
					}
				}
			}
			if err := events.Delete([]byte(ev.ID)); err != nil {
				return err
			}
			if index := tx.Bucket(bucketPartnerEvents); index != nil {
				if err := index.Delete(indexKey(ev.PartnerID, ev.ID)); err != nil {
					return err
				}
			}
			n++
		}
		if pending > 0 {
			return addStat(tx, DeliveryPending, -pending)
		}
		return nil
	})
	return n, err
}
