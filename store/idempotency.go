package store

import (
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"
)

// IdempotencyRecord is the first response to a POST sent with an
// Idempotency-Key, replayed for repeats of the same request.
type IdempotencyRecord struct {
	RequestHash string          `json:"requestHash"`
	Status      int             `json:"status"`
	Body        json.RawMessage `json:"body"`
	CreatedAt   time.Time       `json:"createdAt"`
}

// Idempotency returns the record for a partner's key.
func (db *DB) Idempotency(partnerID, key string) (IdempotencyRecord, error) {
	var stored storedIdempotency
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return getJSON(tx.Bucket(bucketIdempotency), string(indexKey(partnerID, key)), &stored)
	})
	rec := IdempotencyRecord{RequestHash: stored.RequestHash, Status: stored.Status, Body: stored.Body, CreatedAt: stored.CreatedAt}
	if stored.RawBody != nil {
		rec.Body = stored.RawBody
	}
	return rec, err
}

// storedIdempotency is a record as kept on disk. The body is kept as bytes
// (base64 in the JSON) rather than embedded JSON, which encoding/json would
// compact and HTML-escape, so a replay sends exactly the bytes of the first
// response. Body is read for records written before RawBody existed.
type storedIdempotency struct {
	RequestHash string          `json:"requestHash"`
	Status      int             `json:"status"`
	Body        json.RawMessage `json:"body,omitempty"`
	RawBody     []byte          `json:"rawBody,omitempty"`
	CreatedAt   time.Time       `json:"createdAt"`
}

// PutIdempotency stores a record on its own. The API stores its records
// with the write they answer instead (Reply), so a crash cannot part them.
func (db *DB) PutIdempotency(partnerID, key string, rec IdempotencyRecord) error {
	raw, err := json.Marshal(storedIdempotency{
		RequestHash: rec.RequestHash, Status: rec.Status, RawBody: []byte(rec.Body), CreatedAt: rec.CreatedAt,
	})
	if err != nil {
		return err
	}
	return db.bolt.Batch(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketIdempotency).Put(indexKey(partnerID, key), raw)
	})
}

// PurgeIdempotency deletes records created before cutoff.
func (db *DB) PurgeIdempotency(cutoff time.Time) (int, error) {
	n := 0
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketIdempotency)
		var expired [][]byte
		err := b.ForEach(func(k, v []byte) error {
			var rec IdempotencyRecord
			if err := json.Unmarshal(v, &rec); err != nil || rec.CreatedAt.Before(cutoff) {
				expired = append(expired, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range expired {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		n = len(expired)
		return nil
	})
	return n, err
}

// Reply is how a write answers the request that made it. Render runs
// inside the write's transaction, after the write, and builds the response
// from its result. When Key is set, a 2xx response is kept as that
// partner's Idempotency-Key record in the same transaction: a crash leaves
// the write and its record together, or neither, so a retry after a crash
// either replays the answer or makes the write for the first time.
type Reply[T any] struct {
	PartnerID, Key, RequestHash string
	Render                      func(T) (status int, body []byte, err error)
}

// answer renders r for result and stores it as the key's record when r
// asks for one. A nil Reply answers nothing.
func (r *Reply[T]) answer(tx *bolt.Tx, result T, now time.Time) error {
	if r == nil || r.Render == nil {
		return nil
	}
	status, body, err := r.Render(result)
	if err != nil || r.Key == "" || status < 200 || status > 299 {
		return err
	}
	raw, err := json.Marshal(storedIdempotency{RequestHash: r.RequestHash, Status: status, RawBody: body, CreatedAt: now.UTC()})
	if err != nil {
		return err
	}
	return tx.Bucket(bucketIdempotency).Put(indexKey(r.PartnerID, r.Key), raw)
}
