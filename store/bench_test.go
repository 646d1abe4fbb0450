package store_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"planreview/store"
	"planreview/store/blob"
)

// benchDB opens a fresh database for a benchmark (real fsyncs: CreateJob's
// cost is mostly its commit).
func benchDB(b *testing.B) *store.DB {
	b.Helper()
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// benchJobs creates n jobs from 32 goroutines, so their commits batch and
// setup stays quick; it returns the newest.
func benchJobs(b *testing.B, db *store.DB, partnerID string, n int) store.Job {
	b.Helper()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		newest store.Job
		errs   []error
	)
	work := make(chan int)
	for range 32 {
		wg.Go(func() {
			for i := range work {
				j, _, err := db.CreateJob(store.Job{PartnerID: partnerID, Name: fmt.Sprintf("job %d", i), ApplicationDate: "2026-01-01"})
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else if j.ID > newest.ID {
					newest = j
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	return newest
}

func benchPartner(b *testing.B, db *store.DB) store.Partner {
	b.Helper()
	p, _, err := db.EnsurePartner("bench")
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkCreateJobParallel creates jobs from 64 goroutines (on 2 CPUs:
// parallelism 32), as POST /api/v1/jobs does under load; bbolt's Batch
// groups them into shared commits. Compare -cpu 1,2 and with
// BenchmarkCreateJobSerial, which pays one commit per job.
func BenchmarkCreateJobParallel(b *testing.B) {
	db := benchDB(b)
	p := benchPartner(b, db)
	b.ReportAllocs()
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := db.CreateJob(store.Job{PartnerID: p.ID, Name: "bench job", Description: "Bench job", ApplicationDate: "2026-01-01"}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkCreateJobSerial(b *testing.B) {
	db := benchDB(b)
	p := benchPartner(b, db)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := db.CreateJob(store.Job{PartnerID: p.ID, Name: "bench job", Description: "Bench job", ApplicationDate: "2026-01-01"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJob reads one job with its versions, as GET /api/v1/jobs/{id}
// does, from a database holding other jobs too.
func BenchmarkJob(b *testing.B) {
	db := benchDB(b)
	p := benchPartner(b, db)
	last := benchJobs(b, db, p.ID, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, versions, err := db.Job(p.ID, last.ID); err != nil || len(versions) != 1 {
				b.Errorf("Job: %v (%d versions)", err, len(versions))
				return
			}
		}
	})
}

// BenchmarkAuthLookup is the store's part of authenticating one request:
// the key by its hash, then its partner.
func BenchmarkAuthLookup(b *testing.B) {
	db := benchDB(b)
	hash := fmt.Sprintf("%064x", 42)
	k, _, err := db.CreateKey("bench", hash, "abcd")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			got, err := db.KeyByHash(hash)
			if err != nil || got.ID != k.ID {
				b.Errorf("KeyByHash: %v", err)
				return
			}
			if _, err := db.Partner(got.PartnerID); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkJobsList is GET /api/v1/jobs's default page of 50.
func BenchmarkJobsList(b *testing.B) {
	db := benchDB(b)
	p := benchPartner(b, db)
	benchJobs(b, db, p.ID, 500)
	b.ReportAllocs()
	for b.Loop() {
		items, _, err := db.Jobs(p.ID, store.JobQuery{Limit: 50})
		if err != nil || len(items) != 50 {
			b.Fatalf("Jobs: %v (%d)", err, len(items))
		}
	}
}

// BenchmarkBlobPut100MB is the disk half of a 100 MB upload: stream, hash,
// fsync, rename, from memory (no network). Its MB/s bounds what
// bench/api.sh's upload can reach; compare with cp on the same disk.
func BenchmarkBlobPut100MB(b *testing.B) {
	const size = 100 << 20
	data := make([]byte, size)
	if _, err := rand.Read(data); err != nil {
		b.Fatal(err)
	}
	copy(data, "%PDF-1.7\n")
	blobs, err := blob.Open(filepath.Join(b.TempDir(), "files"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(size)
	i := 0
	for b.Loop() {
		i++
		id := fmt.Sprintf("file_%d", i)
		if _, err := blobs.Put(id, bytes.NewReader(data), size); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := blobs.Prune(id, ""); err != nil { // keep the disk from filling
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
