// Package store keeps the appliance's records in one bbolt file. It is the
// only package that imports bbolt; callers see typed records and the typed
// errors in errors.go.
package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"planreview/store/durable"
)

// Bucket names. Index buckets hold composite keys (parent id + 0x00 + child
// id) with empty values; ids are time-ordered, so a prefix scan lists
// children in creation order.
var (
	bucketMeta         = []byte("meta")
	bucketPartners     = []byte("partners")
	bucketPartnerNames = []byte("partner_names")
	bucketKeys         = []byte("keys")
	bucketKeyHashes    = []byte("key_hashes")
	bucketJobs         = []byte("jobs")
	bucketPartnerJobs  = []byte("partner_jobs")
	bucketVersions     = []byte("versions")
	bucketJobVersions  = []byte("job_versions")
	bucketFiles        = []byte("files")
	bucketVersionFiles = []byte("version_files")
	bucketIdempotency  = []byte("idempotency")

	keySchemaVersion = []byte("schema_version")
)

var allBuckets = [][]byte{
	bucketMeta, bucketPartners, bucketPartnerNames, bucketKeys, bucketKeyHashes,
	bucketJobs, bucketPartnerJobs, bucketVersions, bucketJobVersions,
	bucketFiles, bucketVersionFiles, bucketIdempotency,
}

// migration moves the database from version i to i+1 (migrations[i]).
// Append only; never edit a released one.
type migration func(tx *bolt.Tx) error

// migrations is the schema history. Migration 0 creates the first buckets.
var migrations = []migration{
	func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	},
	func(tx *bolt.Tx) error { // 2: scan queue, quota events, findings
		for _, name := range [][]byte{bucketScanQueue, bucketScanActive, bucketScanEvents, bucketFindings} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	},
	func(tx *bolt.Tx) error { // 3: whose turn it is to have a scan claimed
		_, err := tx.CreateBucketIfNotExists(bucketScanTurns)
		return err
	},
}

// SchemaVersion is the version this binary writes.
func SchemaVersion() int { return len(migrations) }

// DB is the appliance's database.
type DB struct {
	bolt *bolt.DB
	now  func() time.Time

	jobCache     decodeCache[Job]
	versionCache decodeCache[Version] // read-only paths only: versions share slices

	events atomic.Pointer[eventHook] // called after commits that recorded events (webhooks.go)
}

// Options tune Open.
type Options struct {
	// LockTimeout bounds the wait for bbolt's file lock; another process
	// holding the file yields ErrDatabaseLocked instead of hanging.
	LockTimeout time.Duration
	// Now replaces the clock (tests).
	Now func() time.Time
}

// Open opens or creates the database file and brings its schema up to date.
func Open(path string, opts Options) (*DB, error) {
	if opts.LockTimeout == 0 {
		opts.LockTimeout = 2 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	bdb, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.LockTimeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open %s: %w", path, ErrDatabaseLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Batched writes (an examiner's PATCH, a job's creation) wait this long
	// for others to share their commit. bbolt's 10 ms default made the wait
	// most of a PATCH's time; one commit (an fsync) costs a few ms here.
	bdb.MaxBatchDelay = 2 * time.Millisecond
	db := &DB{bolt: bdb, now: opts.Now}
	if err := db.migrate(); err != nil {
		bdb.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the database file.
func (db *DB) Close() error { return db.bolt.Close() }

// Path is the database file's path.
func (db *DB) Path() string { return db.bolt.Path() }

func schemaVersion(tx *bolt.Tx) int {
	if meta := tx.Bucket(bucketMeta); meta != nil {
		if v := meta.Get(keySchemaVersion); len(v) == 8 {
			return int(binary.BigEndian.Uint64(v))
		}
	}
	return 0
}

// PreMigrationBackupPath is where Open copies a database before it changes
// its schema: the copy an operator rolls back to with the older binary.
func PreMigrationBackupPath(dbPath string, fromVersion int) string {
	return fmt.Sprintf("%s.schema-%d.bak", dbPath, fromVersion)
}

func (db *DB) migrate() error {
	var current int
	if err := db.bolt.View(func(tx *bolt.Tx) error { current = schemaVersion(tx); return nil }); err != nil {
		return err
	}
	// An existing database about to change schema is copied first, so a
	// rollback to the previous binary has a database it can open.
	if current > 0 && current < len(migrations) {
		backup := PreMigrationBackupPath(db.bolt.Path(), current)
		if _, err := durable.WriteFrom(backup, 0o600, db.Backup); err != nil {
			return fmt.Errorf("copy the database before migrating it to schema %d: %w", len(migrations), err)
		}
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		current := schemaVersion(tx)
		if current > len(migrations) {
			return fmt.Errorf("schema version %d, binary knows %d: %w", current, len(migrations), ErrSchemaTooNew)
		}
		for i := current; i < len(migrations); i++ {
			if err := migrations[i](tx); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
		}
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], uint64(len(migrations)))
		return tx.Bucket(bucketMeta).Put(keySchemaVersion, v[:])
	})
}

// Backup writes a consistent copy of the database to w while it stays in use.
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Ping checks that the database answers a read.
func (db *DB) Ping() error {
	return db.bolt.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketMeta) == nil {
			return errors.New("meta bucket missing")
		}
		return nil
	})
}

// indexKey joins a parent and a child id into an index bucket key.
func indexKey(parent, child string) []byte {
	k := make([]byte, 0, len(parent)+1+len(child))
	k = append(k, parent...)
	k = append(k, 0)
	return append(k, child...)
}

// getJSON decodes the value at key into v; a missing key is ErrNotFound.
// json.Unmarshal copies, so nothing refers to bbolt's memory after the tx.
func getJSON(b *bolt.Bucket, key string, v any) error {
	raw := b.Get([]byte(key))
	if raw == nil {
		return ErrNotFound
	}
	return json.Unmarshal(raw, v)
}

func putJSON(b *bolt.Bucket, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put([]byte(key), raw)
}

func unmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v) }

func marshal(v any) ([]byte, error) { return json.Marshal(v) }
