package store

import bolt "go.etcd.io/bbolt"

// RecordEvents records n events of one type for a partner, each in its own
// transaction as a change would, without the change (benchmarks and tests
// of the outbox).
func (db *DB) RecordEvents(partnerID, eventType string, n int, data any) error {
	for range n {
		if err := db.bolt.Update(func(tx *bolt.Tx) error {
			_, err := db.recordEvent(tx, partnerID, eventType, data)
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// RecordFindingUpdated records a finding.updated event through the helper
// the finding changes call in their own transaction.
func (db *DB) RecordFindingUpdated(partnerID string, data FindingUpdatedData) error {
	return db.bolt.Update(func(tx *bolt.Tx) error { return db.recordFindingUpdated(tx, partnerID, data) })
}
