package store

import (
	"encoding/json"
	"io"

	bolt "go.etcd.io/bbolt"
)

// BlobRef names an uploaded file's bytes as one database state references
// them: files/<FileID>/<SHA256>.pdf in the blob store.
type BlobRef struct {
	FileID string
	SHA256 string
	Size   int64
}

// Snapshot hands write a consistent copy of the database (its size first,
// as an archive header needs it) and returns the uploads that copy
// references, all from one read transaction. The transaction ends when
// Snapshot returns: copying the referenced blobs afterwards keeps it short,
// since a long read transaction stops bbolt from growing the file and would
// stall writers.
func (db *DB) Snapshot(write func(size int64, src io.WriterTo) error) ([]BlobRef, error) {
	var refs []BlobRef
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var f struct {
			ID       string `json:"id"`
			SHA256   string `json:"sha256"`
			FileSize int64  `json:"fileSize"`
		}
		err := tx.Bucket(bucketFiles).ForEach(func(_, raw []byte) error {
			f.SHA256 = ""
			if err := json.Unmarshal(raw, &f); err != nil {
				return err
			}
			if f.SHA256 != "" { // pending uploads have no bytes yet
				refs = append(refs, BlobRef{FileID: f.ID, SHA256: f.SHA256, Size: f.FileSize})
			}
			return nil
		})
		if err != nil {
			return err
		}
		return write(tx.Size(), tx)
	})
	return refs, err
}
