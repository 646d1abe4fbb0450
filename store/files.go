package store

import (
	"bytes"
	"time"

	bolt "go.etcd.io/bbolt"
)

// File statuses.
const (
	FilePendingUpload = "pending_upload"
	FileUploaded      = "uploaded"
	FileScanned       = "scanned"
	FileRejected      = "rejected"
)

// File is one PDF registered into a version.
type File struct {
	ID          string     `json:"id"`
	JobID       string     `json:"jobId"`
	VersionID   string     `json:"versionId"`
	PartnerID   string     `json:"partnerId"`
	FileName    string     `json:"fileName"`
	FileSize    int64      `json:"fileSize"`
	ContentType string     `json:"contentType"`
	FileTag     string     `json:"fileTag"`
	Status      string     `json:"status"`
	SHA256      string     `json:"sha256"`
	PageCount   *int       `json:"pageCount"`
	Error       *Problem   `json:"error,omitempty"`
	CreatedAt   time.Time  `json:"createdAt"`
	UploadedAt  *time.Time `json:"uploadedAt"`
	// AnnotatedRevision is the version's FindingsRevision the marked-up
	// copy on disk shows.
	AnnotatedRevision int `json:"annotatedRevision,omitempty"`
}

// RegisterFile adds a file to the job's current version. When a scan has
// locked that version, the next version is opened first (a resubmittal) and
// the file goes there; the returned file names its version.
func (db *DB) RegisterFile(partnerID, jobID string, f File, maxPerVersion int) (File, error) {
	return db.RegisterFileWithReply(partnerID, jobID, f, maxPerVersion, nil)
}

// RegisterFileWithReply is RegisterFile answering reply in the same
// transaction.
func (db *DB) RegisterFileWithReply(partnerID, jobID string, f File, maxPerVersion int, reply *Reply[File]) (File, error) {
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		j, err := ownedJob(tx, partnerID, jobID)
		if err != nil {
			return err
		}
		var current Version
		if err := getJSON(tx.Bucket(bucketVersions), j.CurrentVersionID, &current); err != nil {
			return err
		}
		now := db.now().UTC()
		if !current.Open() {
			current = Version{ID: NewID(PrefixVersion), JobID: j.ID, Number: current.Number + 1,
				Status: StatusCreated, Pipeline: NewPipeline(), CreatedAt: now, UpdatedAt: now}
			if err := putVersion(tx, current); err != nil {
				return err
			}
			j.CurrentVersionID = current.ID
		}
		if countPrefix(tx.Bucket(bucketVersionFiles), indexKey(current.ID, "")) >= maxPerVersion {
			return ErrTooManyFiles
		}
		f.ID = NewID(PrefixFile)
		f.JobID, f.VersionID, f.PartnerID = j.ID, current.ID, partnerID
		f.Status, f.CreatedAt = FilePendingUpload, now
		if err := putJSON(tx.Bucket(bucketFiles), f.ID, f); err != nil {
			return err
		}
		if err := tx.Bucket(bucketVersionFiles).Put(indexKey(current.ID, f.ID), nil); err != nil {
			return err
		}
		j.UpdatedAt = now
		if err := putJSON(tx.Bucket(bucketJobs), j.ID, j); err != nil {
			return err
		}
		return reply.answer(tx, f, now)
	})
	return f, err
}

func countPrefix(b *bolt.Bucket, prefix []byte) int {
	n := 0
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		n++
	}
	return n
}

// File returns a file by id, whoever owns it. Only signed URLs use it: the
// signature, not a partner key, authorises them.
func (db *DB) File(fileID string) (File, error) {
	var f File
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return getJSON(tx.Bucket(bucketFiles), fileID, &f)
	})
	return f, err
}

// UploadTarget returns the file and reports ErrVersionLocked when its version
// no longer takes uploads, so a doomed upload is refused before its body.
func (db *DB) UploadTarget(fileID string) (File, error) {
	var f File
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		f, err = uploadTarget(tx, fileID)
		return err
	})
	return f, err
}

func uploadTarget(tx *bolt.Tx, fileID string) (File, error) {
	var f File
	if err := getJSON(tx.Bucket(bucketFiles), fileID, &f); err != nil {
		return f, err
	}
	var v Version
	if err := getJSON(tx.Bucket(bucketVersions), f.VersionID, &v); err != nil {
		return f, err
	}
	if !v.Open() {
		return f, ErrVersionLocked
	}
	return f, nil
}

// CommitUpload points the file at its newly stored bytes. It re-checks the
// version in the same transaction, so a scan that locked the version while
// the body streamed wins and the upload is refused. previous is the hash
// of the bytes it replaced ("" if none), for the caller to delete.
func (db *DB) CommitUpload(fileID string, size int64, sha256 string) (f File, previous string, err error) {
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		if f, err = uploadTarget(tx, fileID); err != nil {
			return err
		}
		previous = f.SHA256
		now := db.now().UTC()
		f.Status, f.FileSize, f.SHA256, f.UploadedAt = FileUploaded, size, sha256, &now
		return putJSON(tx.Bucket(bucketFiles), f.ID, f)
	})
	return f, previous, err
}

// Files lists a partner job's files, oldest first: of one version, or of
// every version when versionID is "".
func (db *DB) Files(partnerID, jobID, versionID string) ([]File, error) {
	var out []File
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if _, err := ownedJob(tx, partnerID, jobID); err != nil {
			return err
		}
		found := versionID == ""
		for _, id := range versionIDs(tx, jobID) {
			if versionID != "" && id != versionID {
				continue
			}
			found = true
			files, err := versionFiles(tx, id)
			if err != nil {
				return err
			}
			out = append(out, files...)
		}
		if !found {
			return ErrNotFound
		}
		return nil
	})
	sortByID(out, func(f File) string { return f.ID })
	return out, err
}

func versionFiles(tx *bolt.Tx, versionID string) ([]File, error) {
	var out []File
	prefix := indexKey(versionID, "")
	c := tx.Bucket(bucketVersionFiles).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		var f File
		if err := getJSON(tx.Bucket(bucketFiles), string(k[len(prefix):]), &f); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// JobFile returns a file of a partner's job with its version; a file of
// another job or partner is ErrNotFound.
func (db *DB) JobFile(partnerID, jobID, fileID string) (File, Version, error) {
	var f File
	var v Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if _, err := ownedJob(tx, partnerID, jobID); err != nil {
			return err
		}
		if err := getJSON(tx.Bucket(bucketFiles), fileID, &f); err != nil {
			return err
		}
		if f.JobID != jobID {
			return ErrNotFound
		}
		return getJSON(tx.Bucket(bucketVersions), f.VersionID, &v)
	})
	return f, v, err
}

// DeleteFile removes a file of a partner's job from its version while the
// version is open (ErrVersionLocked once a scan locked it; ErrNotFound for
// a file of another job or partner). The caller removes its bytes; a crash
// before it does leaves them to the start-up sweep of unreferenced blobs.
func (db *DB) DeleteFile(partnerID, jobID, fileID string) (File, error) {
	var f File
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		j, err := ownedJob(tx, partnerID, jobID)
		if err != nil {
			return err
		}
		if err := getJSON(tx.Bucket(bucketFiles), fileID, &f); err != nil {
			return err
		}
		if f.JobID != jobID {
			return ErrNotFound
		}
		var v Version
		if err := getJSON(tx.Bucket(bucketVersions), f.VersionID, &v); err != nil {
			return err
		}
		if !v.Open() {
			return ErrVersionLocked
		}
		if err := tx.Bucket(bucketFiles).Delete([]byte(f.ID)); err != nil {
			return err
		}
		if err := tx.Bucket(bucketVersionFiles).Delete(indexKey(v.ID, f.ID)); err != nil {
			return err
		}
		now := db.now().UTC()
		v.UpdatedAt, j.UpdatedAt = now, now
		if err := putJSON(tx.Bucket(bucketVersions), v.ID, v); err != nil {
			return err
		}
		return putJSON(tx.Bucket(bucketJobs), j.ID, j)
	})
	return f, err
}

// UploadHashes maps every file the database knows to the hash of its
// committed upload ("" while pending), for the start-up sweep of
// unreferenced blobs.
func (db *DB) UploadHashes() (map[string]string, error) {
	out := make(map[string]string)
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketFiles).ForEach(func(k, v []byte) error {
			var f struct {
				SHA256 string `json:"sha256"`
			}
			if err := unmarshal(v, &f); err != nil {
				return err
			}
			out[string(k)] = f.SHA256
			return nil
		})
	})
	return out, err
}
