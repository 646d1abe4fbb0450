package store

import (
	"path/filepath"
	"testing"
	"time"
)

// TestJobReadsNeverStale: reads go through the decode cache, and every
// write is visible to the next read.
func TestJobReadsNeverStale(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "planreview.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, _, _ := db.EnsurePartner("p")
	j, v, err := db.CreateJob(Job{PartnerID: p.ID, Name: "cached"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := db.RegisterFile(p.ID, j.ID, File{FileName: "a.pdf"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.CommitUpload(f.ID, 10, "abc"); err != nil {
		t.Fatal(err)
	}
	status := func() string {
		t.Helper()
		_, versions, err := db.Job(p.ID, j.ID)
		if err != nil || len(versions) != 1 {
			t.Fatalf("Job: %v, %d versions", err, len(versions))
		}
		return versions[0].Status + "/" + versions[0].Pipeline.CurrentStage
	}
	if got := status(); got != "created/not_started" {
		t.Fatalf("before the scan: %s", got)
	}
	if _, _, err := db.StartScan(ScanRequest{PartnerID: p.ID, JobID: j.ID, Quota: 10, Window: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if got := status(); got != "queued/queued" {
		t.Fatalf("after StartScan: %s", got)
	}
	if _, _, err := db.ClaimScan(); err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{StageExtracting, StageReviewing} {
		if err := db.UpdatePipeline(v.ID, func(p *Pipeline) { p.CurrentStage = stage }); err != nil {
			t.Fatal(err)
		}
		if got := status(); got != "processing/"+stage {
			t.Fatalf("after moving to %s: %s", stage, got)
		}
	}
	if _, _, err := db.Job("someone else", j.ID); err != ErrNotFound {
		t.Fatalf("a cached job leaked to another partner: %v", err)
	}
}
