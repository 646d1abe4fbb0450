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
	var rec IdempotencyRecord
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return getJSON(tx.Bucket(bucketIdempotency), string(indexKey(partnerID, key)), &rec)
	})
	return rec, err
}

// PutIdempotency stores a record; batched, as it follows every keyed POST.
func (db *DB) PutIdempotency(partnerID, key string, rec IdempotencyRecord) error {
	raw, err := json.Marshal(rec)
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
