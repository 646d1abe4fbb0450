package store

import (
	bolt "go.etcd.io/bbolt"
)

// bucketChatIndex holds each scanned version's chat index (version id →
// the index's own compact encoding, package chat, whose bytes carry their
// format version: chat.Decode reads every earlier format, so stored indexes
// need no migration either). It is made on the first write, like the law
// buckets, so older databases need no migration.
var bucketChatIndex = []byte("chat_index")

// putChatIndex stores a version's chat index in a scan's transaction; nil
// removes a stale one (a failed rescan keeps no index of an earlier run).
func putChatIndex(tx *bolt.Tx, versionID string, index []byte) error {
	if index == nil {
		if b := tx.Bucket(bucketChatIndex); b != nil {
			return b.Delete([]byte(versionID))
		}
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketChatIndex)
	if err != nil {
		return err
	}
	return b.Put([]byte(versionID), index)
}

// ChatIndex returns a version of a partner's job (the current one when
// versionID is "") and its stored chat index, nil when the version has
// none (not scanned, or scanned before chat existed). need(versionID)
// false skips copying the index out (the caller holds it decoded already);
// found then says whether one is stored. ErrNotFound for an unknown or
// foreign job, or a version of another job.
func (db *DB) ChatIndex(partnerID, jobID, versionID string, need func(versionID string) bool) (v Version, index []byte, found bool, err error) {
	err = db.bolt.View(func(tx *bolt.Tx) error {
		j, err := db.cachedOwnedJob(tx, partnerID, jobID)
		if err != nil {
			return err
		}
		if versionID == "" {
			versionID = j.CurrentVersionID
		}
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return err
		}
		if v.JobID != jobID {
			return ErrNotFound
		}
		if b := tx.Bucket(bucketChatIndex); b != nil {
			if raw := b.Get([]byte(versionID)); raw != nil {
				found = true
				if need == nil || need(versionID) {
					index = append([]byte(nil), raw...)
				}
			}
		}
		return nil
	})
	return v, index, found, err
}
