package store_test

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"planreview/store"
)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// openDB opens a fresh database in a temp folder with a fake clock.
func openDB(t *testing.T) (*store.DB, *clock) {
	t.Helper()
	c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	db, err := store.Open(filepath.Join(t.TempDir(), "planreview.db"), store.Options{Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, c
}

func mustPartner(t *testing.T, db *store.DB, name string) store.Partner {
	t.Helper()
	p, _, err := db.EnsurePartner(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustJob(t *testing.T, db *store.DB, j store.Job) (store.Job, store.Version) {
	t.Helper()
	if j.Name == "" {
		j.Name = "job"
	}
	job, v, err := db.CreateJob(j)
	if err != nil {
		t.Fatal(err)
	}
	return job, v
}

func mustFile(t *testing.T, db *store.DB, partnerID, jobID, name string) store.File {
	t.Helper()
	f, err := db.RegisterFile(partnerID, jobID, store.File{FileName: name, FileSize: 10, ContentType: "application/pdf"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
