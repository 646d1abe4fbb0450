package store_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"planreview/store"
)

// queuedScan creates a job of partner with one uploaded file and queues
// its scan.
func queuedScan(t *testing.T, db *store.DB, partner store.Partner, name string) store.Version {
	t.Helper()
	job, _ := mustJob(t, db, store.Job{PartnerID: partner.ID, Name: name})
	f := mustFile(t, db, partner.ID, job.ID, name+".pdf")
	if _, _, err := db.CommitUpload(f.ID, 10, strings.Repeat("a", 64)); err != nil {
		t.Fatal(err)
	}
	v, queued, err := db.StartScan(store.ScanRequest{PartnerID: partner.ID, JobID: job.ID, Quota: 1000, Window: 24 * time.Hour})
	if err != nil || !queued {
		t.Fatalf("start scan: %v %v", queued, err)
	}
	return v
}

// TestClaimIsFairBetweenPartners: a partner that queued many scans first
// does not get every worker; the others' scans are claimed in turn.
func TestClaimIsFairBetweenPartners(t *testing.T) {
	db, _ := openDB(t)
	a, b, c := mustPartner(t, db, "A"), mustPartner(t, db, "B"), mustPartner(t, db, "C")
	owner := map[string]string{}
	for i := range 5 {
		owner[queuedScan(t, db, a, fmt.Sprintf("a%d", i)).ID] = "A"
	}
	owner[queuedScan(t, db, b, "b0").ID] = "B"
	owner[queuedScan(t, db, b, "b1").ID] = "B"
	owner[queuedScan(t, db, c, "c0").ID] = "C"

	claim := func() string {
		t.Helper()
		v, ok, err := db.ClaimScan()
		if err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
		return v.ID
	}
	// Two workers: A's first scan, then B's (A already has one running).
	first, second := claim(), claim()
	if owner[first] != "A" || owner[second] != "B" {
		t.Fatalf("two workers claimed %s and %s, want A then B", owner[first], owner[second])
	}
	// A third worker: C, the partner with nothing running.
	third := claim()
	if owner[third] != "C" {
		t.Fatalf("third claim went to %s, want C", owner[third])
	}
	// All three finish; the next three claims are one per partner still
	// waiting, round robin (A, B, then A again: C has nothing left).
	for _, id := range []string{first, second, third} {
		if err := db.FailScan(id, nil, store.Pipeline{}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for range 3 {
		id := claim()
		got = append(got, owner[id])
		if err := db.FailScan(id, nil, store.Pipeline{}); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(got, "") != "ABA" {
		t.Errorf("claims went to %v, want A B A", got)
	}
}

// TestCrashedScanFailsAfterMaxAttempts: a scan claimed and never finished
// (the process died) is queued again at start-up until it has been
// claimed maxAttempts times; then it fails internal with a message, its
// only file rejected, and start-up goes on.
func TestCrashedScanFailsAfterMaxAttempts(t *testing.T) {
	db, _ := openDB(t)
	p := mustPartner(t, db, "A")
	v := queuedScan(t, db, p, "bomb")
	for attempt := 1; attempt <= 3; attempt++ {
		claimed, ok, err := db.ClaimScan()
		if err != nil || !ok || claimed.ID != v.ID {
			t.Fatalf("attempt %d: claim %v %v", attempt, ok, err)
		}
		// The process dies here; the next start recovers.
		rec, err := db.RecoverScans(3)
		if err != nil {
			t.Fatal(err)
		}
		if attempt < 3 && (rec.Requeued != 1 || len(rec.Failed) != 0) {
			t.Fatalf("attempt %d: recovery %+v, want requeued", attempt, rec)
		}
		if attempt == 3 && (rec.Requeued != 0 || len(rec.Failed) != 1) {
			t.Fatalf("attempt %d: recovery %+v, want failed", attempt, rec)
		}
	}
	got, err := db.VersionByID(v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.StatusFailed || got.Pipeline.Error == nil || got.Pipeline.Error.Code != "internal" ||
		!strings.Contains(got.Pipeline.Error.Message, "stopped 3 times") {
		t.Fatalf("version %s, error %+v", got.Status, got.Pipeline.Error)
	}
	files, err := db.ScanFiles(v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if files[0].Status != store.FileRejected || files[0].Error == nil {
		t.Errorf("file %s %+v, want rejected", files[0].Status, files[0].Error)
	}
	if _, ok, _ := db.ClaimScan(); ok {
		t.Error("the failed scan is still queued")
	}
	// A shutdown is not a crash: requeueing gives the attempt back.
	v2 := queuedScan(t, db, p, "fine")
	for range 5 {
		if _, ok, err := db.ClaimScan(); err != nil || !ok {
			t.Fatal(ok, err)
		}
		if err := db.RequeueScan(v2.ID); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := db.VersionByID(v2.ID); got.ScanAttempts != 0 {
		t.Errorf("attempts after 5 shutdowns = %d, want 0", got.ScanAttempts)
	}
}
