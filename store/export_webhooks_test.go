package store

import bolt "go.etcd.io/bbolt"

// RecordEvents records n events of one type for a partner, as changes
// would, without the changes (benchmarks and tests of the outbox); up to
// 1000 share a transaction, so filling a large outbox is quick.
func (db *DB) RecordEvents(partnerID, eventType string, n int, data any) error {
	for n > 0 {
		batch := min(n, 1000)
		n -= batch
		if err := db.bolt.Update(func(tx *bolt.Tx) error {
			for range batch {
				if _, err := db.recordEvent(tx, partnerID, eventType, data); err != nil {
					return err
				}
			}
			return nil
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
