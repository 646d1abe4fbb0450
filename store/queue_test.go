package store_test

import (
	"testing"
	"time"

	"planreview/store"
)

// TestScanQueueDepth follows a scan from queued to claimed to done.
func TestScanQueueDepth(t *testing.T) {
	db, _ := openDB(t)
	p := mustPartner(t, db, "acme")
	depth := func() [2]int {
		t.Helper()
		q, a, err := db.ScanQueueDepth()
		if err != nil {
			t.Fatal(err)
		}
		return [2]int{q, a}
	}
	if got := depth(); got != [2]int{0, 0} {
		t.Fatalf("empty database: %v", got)
	}
	for _, name := range []string{"a", "b"} {
		j, _ := mustJob(t, db, store.Job{PartnerID: p.ID, Name: name})
		f := mustFile(t, db, p.ID, j.ID, name+".pdf")
		if _, _, err := db.CommitUpload(f.ID, 10, "abc"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := db.StartScan(store.ScanRequest{PartnerID: p.ID, JobID: j.ID, Quota: 10, Window: time.Hour}); err != nil {
			t.Fatal(err)
		}
	}
	if got := depth(); got != [2]int{2, 0} {
		t.Fatalf("two queued: %v", got)
	}
	v, ok, err := db.ClaimScan()
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if got := depth(); got != [2]int{1, 1} {
		t.Fatalf("one claimed: %v", got)
	}
	if err := db.CompleteScan(v.ID, store.ScanResult{}, v.Pipeline); err != nil {
		t.Fatal(err)
	}
	if got := depth(); got != [2]int{1, 0} {
		t.Fatalf("one done, one queued: %v", got)
	}
}
