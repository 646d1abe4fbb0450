package store

import bolt "go.etcd.io/bbolt"

// ScanQueueDepth counts the scans waiting in the queue and those claimed by
// a worker; the metrics endpoint reads it at each scrape.
func (db *DB) ScanQueueDepth() (queued, active int, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		queued = tx.Bucket(bucketScanQueue).Stats().KeyN
		active = tx.Bucket(bucketScanActive).Stats().KeyN
		return nil
	})
	return queued, active, err
}
