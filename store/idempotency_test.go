package store_test

import (
	"encoding/json"
	"errors"
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
