package store

import bolt "go.etcd.io/bbolt"

// LockVersion marks a version as queued for a scan, as StartScan does, but
// without its preconditions (uploaded files, quota), so tests can lock any
// version.
func (db *DB) LockVersion(versionID string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		var v Version
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return err
		}
		v.Status = StatusQueued
		v.Pipeline.CurrentStage = StageQueued
		return putJSON(tx.Bucket(bucketVersions), v.ID, v)
	})
}

// TamperLawSnapshot rewrites a stored snapshot's content without its hash,
// as someone editing the database file would.
func (db *DB) TamperLawSnapshot(id string, content []byte) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLawContents).Put([]byte(id), content)
	})
}
