package store_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"planreview/store"
)

// scanToEnd runs a job's version through a scan that ends complete (or
// failed), the way the runner does, and returns the version.
func scanToEnd(t *testing.T, db *store.DB, partnerID string, fail bool) store.Version {
	t.Helper()
	job, _ := mustJob(t, db, store.Job{PartnerID: partnerID, ExternalID: "BLD-1"})
	f, err := db.RegisterFileWithReply(partnerID, job.ID, store.File{FileName: "a.pdf", FileSize: 10, ContentType: "application/pdf"}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CommitUpload(f.ID, 10, "00"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.StartScan(store.ScanRequest{PartnerID: partnerID, JobID: job.ID, Quota: 100, Window: 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	v, ok, err := db.ClaimScan()
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	p := store.NewPipeline()
	if fail {
		p.CurrentStage, p.Error = store.StageFailed, &store.Problem{Code: "invalid_pdf", Message: "bad"}
		err = db.FailScan(v.ID, nil, p)
	} else {
		p.CurrentStage = store.StageDone
		err = db.CompleteScan(v.ID, store.ScanResult{Findings: []store.Finding{{ID: "fnd_1", Severity: "high"}}}, p)
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestScanEndRecordsEventAndDeliveries(t *testing.T) {
	db, _ := openDB(t)
	a, b := mustPartner(t, db, "a"), mustPartner(t, db, "b")
	woken := 0
	db.OnEvents(func() { woken++ })
	hook, err := db.CreateWebhook(store.Webhook{PartnerID: a.ID, URL: "https://x.test/", Events: []string{store.EventScanCompleted}, Secret: []byte{1}})
	if err != nil {
		t.Fatal(err)
	}
	failedOnly, err := db.CreateWebhook(store.Webhook{PartnerID: a.ID, URL: "https://y.test/", Events: []string{store.EventScanFailed}, Secret: []byte{1}})
	if err != nil {
		t.Fatal(err)
	}
	v := scanToEnd(t, db, a.ID, false)
	scanToEnd(t, db, a.ID, true)

	events, more, err := db.Events(a.ID, "", time.Time{}, 10)
	if err != nil || more || len(events) != 2 {
		t.Fatalf("events: %d more=%v err=%v", len(events), more, err)
	}
	if events[0].Type != store.EventScanCompleted || events[1].Type != store.EventScanFailed {
		t.Fatalf("types: %s, %s", events[0].Type, events[1].Type)
	}
	var data store.ScanEventData
	if err := json.Unmarshal(events[0].Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.VersionID != v.ID || data.Status != "complete" || data.FindingCounts.High != 1 || data.ExternalID == nil || *data.ExternalID != "BLD-1" {
		t.Fatalf("data: %+v", data)
	}
	if woken != 2 {
		t.Fatalf("wake-ups after commit: %d, want 2", woken)
	}
	// Each event goes only to the webhook subscribed to its type.
	due, _, err := db.DueDeliveries(time.Now().Add(time.Hour), 10, func(store.DeliveryKey) bool { return false })
	if err != nil || len(due) != 2 {
		t.Fatalf("due: %d %v", len(due), err)
	}
	got := map[string]string{due[0].WebhookID: due[0].Event.Type, due[1].WebhookID: due[1].Event.Type}
	if got[hook.ID] != store.EventScanCompleted || got[failedOnly.ID] != store.EventScanFailed {
		t.Fatalf("deliveries: %v", got)
	}
	if c, _ := db.DeliveryCounts(); c.Pending != 2 {
		t.Fatalf("counts: %+v", c)
	}
	// Another partner sees none of it.
	if evs, _, _ := db.Events(b.ID, "", time.Time{}, 10); len(evs) != 0 {
		t.Fatalf("partner b sees %d events", len(evs))
	}
	if _, err := db.EventByID(b.ID, events[0].ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("event of a for b: %v", err)
	}
	if _, err := db.Webhook(b.ID, hook.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("webhook of a for b: %v", err)
	}
	if err := db.DeleteWebhook(b.ID, hook.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete a's webhook as b: %v", err)
	}
}

func TestDeliveryLifecycle(t *testing.T) {
	db, clk := openDB(t)
	a := mustPartner(t, db, "a")
	hook, _ := db.CreateWebhook(store.Webhook{PartnerID: a.ID, URL: "https://x.test/", Events: store.EventTypes, Secret: []byte{1}})
	if err := db.RecordEvents(a.ID, store.EventScanCompleted, 3, map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordFindingUpdated(a.ID, store.FindingUpdatedData{JobID: "job_x", FindingID: "fnd_x", Changed: []string{"status"}}); err != nil {
		t.Fatal(err)
	}
	none := func(store.DeliveryKey) bool { return false }
	due, _, _ := db.DueDeliveries(clk.Now(), 10, none)
	if len(due) != 4 || due[3].Event.Type != store.EventFindingUpdated {
		t.Fatalf("due: %d", len(due))
	}
	now := clk.Now()
	results := []store.AttemptResult{
		{DeliveryKey: due[0].Key(), At: now, Delivered: true, Status: 200},
		{DeliveryKey: due[1].Key(), At: now, Status: 500, Error: "answered 500", NextAttemptAt: now.Add(time.Minute)},
		{DeliveryKey: due[2].Key(), At: now, Status: 500, Error: "answered 500"}, // window over
	}
	if err := db.RecordAttempts(results); err != nil {
		t.Fatal(err)
	}
	if c, _ := db.DeliveryCounts(); c != (store.DeliveryCounts{Pending: 2, Delivered: 1, Failed: 1}) {
		t.Fatalf("counts: %+v", c)
	}
	due, next, _ := db.DueDeliveries(now, 10, none)
	if len(due) != 1 || !next.Equal(now.Add(time.Minute)) {
		t.Fatalf("due now: %d, next %v", len(due), next)
	}
	// The retry brings the failed and the delivered one back.
	if ds, err := db.RetryEvent(results[2].EventID); err != nil || len(ds) != 1 || ds[0].Status != store.DeliveryPending {
		t.Fatalf("retry: %+v %v", ds, err)
	}
	if c, _ := db.DeliveryCounts(); c != (store.DeliveryCounts{Pending: 3, Delivered: 1, Failed: 0}) {
		t.Fatalf("counts after retry: %+v", c)
	}
	// Deleting the webhook cancels what waits.
	if err := db.DeleteWebhook(a.ID, hook.ID); err != nil {
		t.Fatal(err)
	}
	if due, _, _ := db.DueDeliveries(now.Add(time.Hour), 10, none); len(due) != 0 {
		t.Fatalf("due after delete: %d", len(due))
	}
	if c, _ := db.DeliveryCounts(); c.Pending != 0 {
		t.Fatalf("pending after delete: %+v", c)
	}
	// Events are kept 30 days.
	clk.Advance(31 * 24 * time.Hour)
	if n, err := db.PurgeEvents(clk.Now().Add(-30 * 24 * time.Hour)); err != nil || n != 4 {
		t.Fatalf("purge: %d %v", n, err)
	}
	if evs, _, _ := db.Events(a.ID, "", time.Time{}, 10); len(evs) != 0 {
		t.Fatalf("events after purge: %d", len(evs))
	}
}

func TestEventsPageWithAfter(t *testing.T) {
	db, _ := openDB(t)
	a := mustPartner(t, db, "a")
	if err := db.RecordEvents(a.ID, store.EventScanCompleted, 5, nil); err != nil {
		t.Fatal(err)
	}
	var seen []string
	after := ""
	for {
		evs, more, err := db.Events(a.ID, after, time.Time{}, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			seen = append(seen, e.ID)
		}
		if !more {
			break
		}
		after = evs[len(evs)-1].ID
	}
	if len(seen) != 5 {
		t.Fatalf("paged %d events, want 5", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] <= seen[i-1] {
			t.Fatalf("not oldest first: %v", seen)
		}
	}
}
