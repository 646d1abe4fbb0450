package store_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"planreview/store"
)

func readSchemaVersion(t *testing.T, path string) int {
	t.Helper()
	raw, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	v := -1
	raw.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("meta")); b != nil {
			if got := b.Get([]byte("schema_version")); len(got) == 8 {
				v = int(binary.BigEndian.Uint64(got))
			}
		}
		return nil
	})
	return v
}

func TestOpenWritesTheSchemaVersionAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "planreview.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := db.EnsurePartner("acme")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(); err != nil {
		t.Errorf("Ping: %v", err)
	}
	db.Close()
	if got := readSchemaVersion(t, path); got != store.SchemaVersion() || got < 1 {
		t.Errorf("schema version %d, want %d", got, store.SchemaVersion())
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("database file mode %v (%v), want 0600", info.Mode().Perm(), err)
	}

	db, err = store.Open(path, store.Options{}) // migrations are idempotent
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.Partner(p.ID); err != nil || got.Name != "acme" {
		t.Errorf("after reopen partner = %+v, %v", got, err)
	}
}

func TestOpenRefusesANewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "planreview.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw.Update(func(tx *bolt.Tx) error {
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], uint64(store.SchemaVersion()+1))
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), v[:])
	})
	raw.Close()
	if _, err := store.Open(path, store.Options{}); !errors.Is(err, store.ErrSchemaTooNew) {
		t.Errorf("Open of a newer schema: %v, want ErrSchemaTooNew", err)
	}
}

func TestSecondOpenIsDatabaseLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "planreview.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := store.Open(path, store.Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, store.ErrDatabaseLocked) {
		t.Errorf("second Open: %v, want ErrDatabaseLocked", err)
	}
}

func TestBackupIsAnOpenableCopy(t *testing.T) {
	db, _ := openDB(t)
	acme := mustPartner(t, db, "acme")
	j, _ := mustJob(t, db, store.Job{PartnerID: acme.ID, Name: "backed up"})
	mustFile(t, db, acme.ID, j.ID, "a.pdf")

	var buf bytes.Buffer
	n, err := db.Backup(&buf)
	if err != nil || n != int64(buf.Len()) || n == 0 {
		t.Fatalf("Backup wrote %d bytes (buffer %d): %v", n, buf.Len(), err)
	}
	// The live database keeps working after (and during) a backup.
	mustJob(t, db, store.Job{PartnerID: acme.ID, Name: "after"})

	path := filepath.Join(t.TempDir(), "restored.db")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	restored, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatalf("open backup: %v", err)
	}
	defer restored.Close()
	got, versions, err := restored.Job(acme.ID, j.ID)
	if err != nil || got.Name != "backed up" || len(versions) != 1 {
		t.Errorf("restored job %+v %v (%v)", got, versions, err)
	}
	if files, err := restored.Files(acme.ID, j.ID, ""); err != nil || len(files) != 1 {
		t.Errorf("restored files %d (%v), want 1", len(files), err)
	}
	if items, _, _ := restored.Jobs(acme.ID, store.JobQuery{Limit: 10}); len(items) != 1 {
		t.Errorf("the backup holds %d jobs, want the 1 made before it", len(items))
	}
	restored.Close()
	if got := readSchemaVersion(t, path); got != store.SchemaVersion() {
		t.Errorf("restored schema version %d, want %d", got, store.SchemaVersion())
	}
}

// TestMigrationCopiesTheDatabaseFirst: opening a database of an older
// schema writes a copy of it, at its old schema, before migrating, so a
// rollback to the previous binary has a database that binary opens.
func TestMigrationCopiesTheDatabaseFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "planreview.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := db.EnsurePartner("acme")
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(store.PreMigrationBackupPath(path, store.SchemaVersion())); !os.IsNotExist(err) {
		t.Fatalf("a database at the current schema was copied: %v", err)
	}
	raw, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := store.SchemaVersion() - 1
	raw.Update(func(tx *bolt.Tx) error {
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], uint64(old))
		return tx.Bucket([]byte("meta")).Put([]byte("schema_version"), v[:])
	})
	raw.Close()

	db, err = store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	backup := store.PreMigrationBackupPath(path, old)
	if got := readSchemaVersion(t, backup); got != old {
		t.Errorf("pre-migration copy has schema %d, want %d", got, old)
	}
	if got := readSchemaVersion(t, path); got != store.SchemaVersion() {
		t.Errorf("migrated database has schema %d, want %d", got, store.SchemaVersion())
	}
	info, err := os.Stat(backup)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("pre-migration copy mode %v, want 0600", info.Mode().Perm())
	}
	raw, err = bolt.Open(backup, 0o600, &bolt.Options{Timeout: time.Second, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.View(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte("partners")).Get([]byte(p.ID)) == nil {
			t.Errorf("pre-migration copy lacks partner %s", p.ID)
		}
		return nil
	})
}
