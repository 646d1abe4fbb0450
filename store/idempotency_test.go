package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"planreview/store"
)

func TestIdempotencyRecordsRoundTripExactBytesPerPartner(t *testing.T) {
	db, c := openDB(t)
	// A response body as writeJSON sends it: unescaped & and a newline.
	body := json.RawMessage("{\"uploadUrl\":\"http://x/uploads/f?expires=1&signature=ab\",\"n\": 1}\n")
	rec := store.IdempotencyRecord{RequestHash: "h1", Status: 201, Body: body, CreatedAt: c.Now()}
	if err := db.PutIdempotency("ptr_a", "key", rec); err != nil {
		t.Fatal(err)
	}
	got, err := db.Idempotency("ptr_a", "key")
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Body) != string(body) || got.Status != 201 || got.RequestHash != "h1" || !got.CreatedAt.Equal(c.Now()) {
		t.Errorf("record read back as %+v (body %q), want the bytes stored", got, got.Body)
	}
	if _, err := db.Idempotency("ptr_b", "key"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another partner's key: %v, want ErrNotFound", err)
	}
	if _, err := db.Idempotency("ptr_a", "other"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown key: %v, want ErrNotFound", err)
	}
}

func TestPurgeIdempotencyDeletesOnlyOlderRecords(t *testing.T) {
	db, c := openDB(t)
	start := c.Now()
	for i, key := range []string{"old1", "old2", "new"} {
		at := start.Add(time.Duration(i) * time.Hour)
		if key == "new" {
			at = start.Add(48 * time.Hour)
		}
		if err := db.PutIdempotency("ptr_a", key, store.IdempotencyRecord{Status: 201, Body: json.RawMessage(`{}`), CreatedAt: at}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := db.PurgeIdempotency(start.Add(24 * time.Hour))
	if err != nil || n != 2 {
		t.Fatalf("purged %d (%v), want 2", n, err)
	}
	for key, want := range map[string]error{"old1": store.ErrNotFound, "old2": store.ErrNotFound, "new": nil} {
		if _, err := db.Idempotency("ptr_a", key); !errors.Is(err, want) {
			t.Errorf("%s after purge: %v, want %v", key, err, want)
		}
	}
	if n, err := db.PurgeIdempotency(start.Add(24 * time.Hour)); err != nil || n != 0 {
		t.Errorf("second purge removed %d (%v), want 0", n, err)
	}
}

// TestReplyIsStoredWithItsWrite: a write's answer is kept under its key in
// the write's own transaction; a write that fails keeps neither, a render
// that fails undoes the write, and a non-2xx answer is not kept (the write stands).
func TestReplyIsStoredWithItsWrite(t *testing.T) {
	db, _ := openDB(t)
	p := mustPartner(t, db, "acme")
	render := func(status int) func(store.JobWithVersion) (int, []byte, error) {
		return func(jv store.JobWithVersion) (int, []byte, error) {
			return status, []byte(`{"jobId":"` + jv.Job.ID + `"}`), nil
		}
	}
	j, _, err := db.CreateJobWithReply(store.Job{PartnerID: p.ID, Name: "kept"},
		&store.Reply[store.JobWithVersion]{PartnerID: p.ID, Key: "k1", RequestHash: "h", Render: render(201)})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := db.Idempotency(p.ID, "k1")
	if err != nil || rec.Status != 201 || string(rec.Body) != `{"jobId":"`+j.ID+`"}` || rec.RequestHash != "h" {
		t.Fatalf("record %+v (%v), want the rendered answer", rec, err)
	}

	broken := errors.New("render failed")
	_, _, err = db.CreateJobWithReply(store.Job{PartnerID: p.ID, Name: "undone"},
		&store.Reply[store.JobWithVersion]{PartnerID: p.ID, Key: "k2", Render: func(store.JobWithVersion) (int, []byte, error) {
			return 0, nil, broken
		}})
	if !errors.Is(err, broken) {
		t.Fatalf("failing render: %v", err)
	}
	if _, err := db.Idempotency(p.ID, "k2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("record of a failed write: %v", err)
	}

	if _, _, err := db.CreateJobWithReply(store.Job{PartnerID: p.ID, Name: "not kept"},
		&store.Reply[store.JobWithVersion]{PartnerID: p.ID, Key: "k3", Render: render(409)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CreateJobWithReply(store.Job{PartnerID: p.ID, Name: "no key"},
		&store.Reply[store.JobWithVersion]{Render: render(201)}); err != nil {
		t.Fatal(err)
	}

	// A write the store refuses keeps no record either.
	for i := range 2 {
		if _, err := db.RegisterFile(p.ID, j.ID, store.File{FileName: fmt.Sprint(i)}, 2); err != nil {
			t.Fatal(err)
		}
	}
	_, err = db.RegisterFileWithReply(p.ID, j.ID, store.File{FileName: "third"}, 2, &store.Reply[store.File]{
		PartnerID: p.ID, Key: "k4", Render: func(store.File) (int, []byte, error) { return 201, []byte(`{}`), nil },
	})
	if !errors.Is(err, store.ErrTooManyFiles) {
		t.Fatalf("third file: %v", err)
	}
	if _, err := db.Idempotency(p.ID, "k4"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("record of a refused write: %v", err)
	}

	jobs, _, err := db.Jobs(p.ID, store.JobQuery{Limit: 10})
	if err != nil || len(jobs) != 3 {
		t.Errorf("jobs: %d (%v), want kept, not kept (409) and no key; the failed render's job undone", len(jobs), err)
	}
	if rec, err := db.Idempotency(p.ID, "k3"); err == nil {
		t.Errorf("a 409 answer was kept: %+v", rec)
	}
}
