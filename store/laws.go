package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
)

// PrefixLawSnapshot prefixes local-law snapshot ids. Unlike the other ids
// they are derived from the snapshot's canonical content (LawSnapshotID),
// so importing the same content twice names the same snapshot.
const PrefixLawSnapshot = "lsn_"

// Local-law snapshot buckets. They are created by the first import rather
// than by a schema migration: a database without them simply has no
// snapshots, and older binaries ignore buckets they do not know.
var (
	bucketLawSnapshots     = []byte("law_snapshots")     // snapshot id -> LawSnapshot without Content
	bucketLawContents      = []byte("law_contents")      // snapshot id -> canonical content
	bucketLawJurisdictions = []byte("law_jurisdictions") // jurisdiction id 0x00 snapshot id -> nil
)

// ErrSnapshotTampered is returned by VerifyLawSnapshot when the stored
// content no longer hashes to the stored hash or id.
var ErrSnapshotTampered = errors.New("stored snapshot content does not match its hash")

// LawSnapshot is one imported local-law snapshot: its canonical content
// (JSON, as hashed), the hash, the fields selection needs without decoding
// the content, and the operator's certification.
type LawSnapshot struct {
	ID             string `json:"id"`
	JurisdictionID string `json:"jurisdictionId"`
	Name           string `json:"name"`
	EffectiveFrom  string `json:"effectiveFrom"`  // YYYY-MM-DD, inclusive
	EffectiveUntil string `json:"effectiveUntil"` // YYYY-MM-DD, inclusive; "" = open-ended
	SHA256         string `json:"sha256"`         // of Content
	// Content is the canonical JSON of the snapshot file; hashing it gives
	// SHA256 and the id. It is stored apart from the record (law_contents),
	// so listings and selection never decode it.
	Content    []byte    `json:"-"`
	ImportedAt time.Time `json:"importedAt"`
	// Certification: set by CertifyLawSnapshot; FreshnessCheckedAt is also
	// moved by a successful VerifyLawSnapshot.
	CertificateID      string     `json:"certificateId,omitempty"`
	CertifiedScope     []string   `json:"certifiedScope,omitempty"`
	CertifiedAt        *time.Time `json:"certifiedAt,omitempty"`
	FreshnessCheckedAt *time.Time `json:"freshnessCheckedAt,omitempty"`
}

// Certified reports whether the operator certified the snapshot.
func (s LawSnapshot) Certified() bool { return s.CertificateID != "" }

// LawSnapshotID is the content-derived id: lsn_ + the first 128 bits of the
// content's SHA-256 in the ULID alphabet.
func LawSnapshotID(content []byte) string {
	sum := sha256.Sum256(content)
	var raw [16]byte
	copy(raw[:], sum[:16])
	// ValidID wants the first character to hold 3 bits, as a ULID's does.
	raw[0] &= 0x7f
	return PrefixLawSnapshot + encodeCrockford(raw)
}

// lawHash is the hex SHA-256 stored beside the content.
func lawHash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// PutLawSnapshot stores a snapshot unless one with the same content is
// stored already; created says which. Id, hash and import time are set
// here from the content, so a caller cannot store a mismatched pair.
func (db *DB) PutLawSnapshot(s LawSnapshot) (stored LawSnapshot, created bool, err error) {
	s.ID = LawSnapshotID(s.Content)
	s.SHA256 = lawHash(s.Content)
	s.ImportedAt = db.now().UTC()
	s.CertificateID, s.CertifiedScope, s.CertifiedAt, s.FreshnessCheckedAt = "", nil, nil, nil
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		snaps, err := tx.CreateBucketIfNotExists(bucketLawSnapshots)
		if err != nil {
			return err
		}
		index, err := tx.CreateBucketIfNotExists(bucketLawJurisdictions)
		if err != nil {
			return err
		}
		contents, err := tx.CreateBucketIfNotExists(bucketLawContents)
		if err != nil {
			return err
		}
		if snaps.Get([]byte(s.ID)) != nil {
			if err := getJSON(snaps, s.ID, &stored); err != nil {
				return err
			}
			stored.Content = append([]byte(nil), contents.Get([]byte(s.ID))...)
			return nil
		}
		if err := putJSON(snaps, s.ID, s); err != nil {
			return err
		}
		if err := contents.Put([]byte(s.ID), s.Content); err != nil {
			return err
		}
		stored, created = s, true
		return index.Put(indexKey(s.JurisdictionID, s.ID), nil)
	})
	return stored, created, err
}

// LawSnapshot returns one stored snapshot with its content.
func (db *DB) LawSnapshot(id string) (LawSnapshot, error) {
	var s LawSnapshot
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		s, err = lawSnapshot(tx, id)
		return err
	})
	return s, err
}

func lawSnapshot(tx *bolt.Tx, id string) (LawSnapshot, error) {
	var s LawSnapshot
	b, contents := tx.Bucket(bucketLawSnapshots), tx.Bucket(bucketLawContents)
	if b == nil || contents == nil {
		return s, ErrNotFound
	}
	if err := getJSON(b, id, &s); err != nil {
		return s, err
	}
	// Copied: bbolt's memory is only valid inside the transaction.
	s.Content = append([]byte(nil), contents.Get([]byte(id))...)
	return s, nil
}

// LawSnapshots lists stored snapshots, of one jurisdiction or ("") of all,
// ordered by jurisdiction, then effective date, then id. Content is
// left out when withContent is false (listings and selection need only the
// metadata; a 5,000-amendment content is large).
func (db *DB) LawSnapshots(jurisdictionID string, withContent bool) ([]LawSnapshot, error) {
	var out []LawSnapshot
	err := db.bolt.View(func(tx *bolt.Tx) error {
		snaps := tx.Bucket(bucketLawSnapshots)
		index := tx.Bucket(bucketLawJurisdictions)
		if snaps == nil || index == nil {
			return nil
		}
		add := func(id []byte) error {
			var s LawSnapshot
			if err := unmarshal(snaps.Get(id), &s); err != nil {
				return err
			}
			if withContent {
				if c := tx.Bucket(bucketLawContents); c != nil {
					s.Content = append([]byte(nil), c.Get(id)...)
				}
			}
			out = append(out, s)
			return nil
		}
		if jurisdictionID == "" {
			return snaps.ForEach(func(k, _ []byte) error { return add(k) })
		}
		prefix := indexKey(jurisdictionID, "")
		c := index.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			if err := add(k[len(prefix):]); err != nil {
				return err
			}
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.JurisdictionID != b.JurisdictionID {
			return a.JurisdictionID < b.JurisdictionID
		}
		if a.EffectiveFrom != b.EffectiveFrom {
			return a.EffectiveFrom < b.EffectiveFrom
		}
		return a.ID < b.ID
	})
	return out, err
}

// CertifyLawSnapshot records the operator's certification: certificate id
// and scope. Certifying attests that the snapshot is complete and current,
// so it also sets FreshnessCheckedAt. The content hash is checked first: a
// tampered snapshot cannot be certified.
func (db *DB) CertifyLawSnapshot(id, certificateID string, scope []string) (LawSnapshot, error) {
	return db.changeLawSnapshot(id, func(s *LawSnapshot, now time.Time) {
		s.CertificateID, s.CertifiedScope = certificateID, scope
		s.CertifiedAt, s.FreshnessCheckedAt = &now, &now
	})
}

// VerifyLawSnapshot re-checks the stored content against its hash and id
// and, when they hold, records FreshnessCheckedAt = now. When they do not,
// nothing changes and the error is ErrSnapshotTampered.
func (db *DB) VerifyLawSnapshot(id string) (LawSnapshot, error) {
	return db.changeLawSnapshot(id, func(s *LawSnapshot, now time.Time) { s.FreshnessCheckedAt = &now })
}

func (db *DB) changeLawSnapshot(id string, change func(*LawSnapshot, time.Time)) (LawSnapshot, error) {
	var s LawSnapshot
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if s, err = lawSnapshot(tx, id); err != nil {
			return err
		}
		if lawHash(s.Content) != s.SHA256 || LawSnapshotID(s.Content) != s.ID {
			return ErrSnapshotTampered
		}
		change(&s, db.now().UTC())
		return putJSON(tx.Bucket(bucketLawSnapshots), s.ID, s)
	})
	return s, err
}

// JobByID returns a job without a partner check, for the scan runner
// (which needs its jurisdiction and application date).
func (db *DB) JobByID(jobID string) (Job, error) {
	var j Job
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return getJSON(tx.Bucket(bucketJobs), jobID, &j)
	})
	return j, err
}
