package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"planreview/store"
)

// completedJob is a job whose first version finished its scan with n
// findings on one file.
func completedJob(tb testing.TB, db *store.DB, partner string, n int) (store.Job, store.File, []store.Finding) {
	tb.Helper()
	p, _, err := db.EnsurePartner(partner)
	if err != nil {
		tb.Fatal(err)
	}
	j, _, err := db.CreateJob(store.Job{PartnerID: p.ID, Name: "desk"})
	if err != nil {
		tb.Fatal(err)
	}
	f, err := db.RegisterFile(p.ID, j.ID, store.File{FileName: "a.pdf", FileSize: 10, ContentType: "application/pdf"}, 100)
	if err != nil {
		tb.Fatal(err)
	}
	if _, _, err := db.CommitUpload(f.ID, 10, "00"); err != nil {
		tb.Fatal(err)
	}
	if _, _, err := db.StartScan(store.ScanRequest{PartnerID: p.ID, JobID: j.ID, Quota: 100, Window: time.Hour}); err != nil {
		tb.Fatal(err)
	}
	v, ok, err := db.ClaimScan()
	if err != nil || !ok {
		tb.Fatal(err, ok)
	}
	var findings []store.Finding
	for i := range n {
		findings = append(findings, store.Finding{ID: store.NewID(store.PrefixFinding), Number: i + 1, Title: fmt.Sprint("finding ", i),
			Severity: "medium", Source: "rules", FileID: f.ID, Sheet: store.SheetRef{Page: 1 + i%3}})
	}
	if err := db.CompleteScan(v.ID, store.ScanResult{Findings: findings}, v.Pipeline); err != nil {
		tb.Fatal(err)
	}
	return j, f, findings
}

// TestDeskChain: changes and comments chain, a no-op records nothing,
// another partner sees nothing, and the verifier accepts the trail.
func TestDeskChain(t *testing.T) {
	db, _ := openDB(t)
	j, f, findings := completedJob(t, db, "A", 3)
	ann := store.Actor{ID: "u1", Name: "Ann"}
	accepted, dismissed := store.DispositionAccepted, store.DispositionDismissed
	note, title := "duplicate of 1", "Better title"
	for _, ch := range []store.FindingChange{
		{Status: &accepted, Actor: ann},
		{Status: &accepted, Actor: ann}, // no change: no event
		{Status: &dismissed, Note: &note, Actor: ann},
		{Title: &title, Actor: ann},
	} {
		id := findings[0].ID
		if ch.Title != nil {
			id = findings[1].ID
		}
		if _, err := db.UpdateFinding(j.PartnerID, j.ID, id, ch); err != nil {
			t.Fatal(err)
		}
	}
	c, err := db.AddExaminerFinding(j.PartnerID, j.ID, store.Finding{FileID: f.ID, Title: "comment", Severity: "low",
		Sheet: store.SheetRef{Page: 2}}, ann, nil)
	if err != nil || c.Finding.Number != 4 || c.Finding.Source != store.SourceExaminer {
		t.Fatalf("comment: %+v %v", c.Finding, err)
	}
	if _, err := db.UpdateFinding("ptr_other", j.ID, findings[0].ID, store.FindingChange{Status: &accepted, Actor: ann}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another partner's change: %v", err)
	}
	events, next, err := db.Audit(j.PartnerID, j.ID, store.AuditQuery{})
	if err != nil || next != "" || len(events) != 4 {
		t.Fatalf("audit: %d events, %v", len(events), err)
	}
	if events[0].PrevHash != store.GenesisHash || events[1].PrevHash != events[0].Hash || events[3].Action != store.ActionCreated {
		t.Errorf("chain: %+v", events)
	}
	res, err := db.VerifyAudit(j.ID)
	if err != nil || res.Broken != nil || res.Events != 4 || res.Head != events[3].Hash {
		t.Errorf("verify: %+v %v", res, err)
	}
	_, list, _ := db.Findings(j.PartnerID, j.ID, "")
	if len(list) != 4 || list[0].Severity != "medium" || list[3].Source != store.SourceExaminer {
		t.Errorf("findings in contract order: %+v", list)
	}
}

// BenchmarkUpdateFindingParallel: 16 examiners PATCHing one job's findings
// at once, each change and its audit event in one transaction (bbolt's
// Batch shares the commits). BenchmarkCreateJobParallel is the reference.
func BenchmarkUpdateFindingParallel(b *testing.B) {
	db := benchDB(b)
	j, _, findings := completedJob(b, db, "bench", 40)
	b.ReportAllocs()
	b.SetParallelism(8) // 16 goroutines on 2 CPUs
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			note := fmt.Sprint("note ", i)
			if _, err := db.UpdateFinding(j.PartnerID, j.ID, findings[i%len(findings)].ID,
				store.FindingChange{Note: &note, Actor: store.Actor{ID: "u", Name: "U"}}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// TestFindingChangeReportsFindingUpdated: a disposition change writes its
// finding.updated event in the same transaction, with the fields it set
// and the finding as the caller shows it; a change that changes nothing
// reports nothing.
func TestFindingChangeReportsFindingUpdated(t *testing.T) {
	db, _ := openDB(t)
	j, _, findings := completedJob(t, db, "p", 1)
	accepted, note := store.DispositionAccepted, "checked on A-201"
	change := store.FindingChange{Status: &accepted, Note: &note, Actor: store.Actor{ID: "u1", Name: "Dana"},
		View: func(f store.Finding) any { return map[string]string{"shown": f.ID} }}
	for range 2 { // the second is a retry: no change, no event
		if _, err := db.UpdateFinding(j.PartnerID, j.ID, findings[0].ID, change); err != nil {
			t.Fatal(err)
		}
	}
	all, _, err := db.Events(j.PartnerID, "", time.Time{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var events []store.Event
	for _, e := range all {
		if e.Type != store.EventScanCompleted {
			events = append(events, e)
		}
	}
	if len(events) != 1 || events[0].Type != store.EventFindingUpdated {
		t.Fatalf("events %+v: want one finding.updated", events)
	}
	var data struct {
		FindingID string            `json:"findingId"`
		Finding   map[string]string `json:"finding"`
		Changed   []string          `json:"changed"`
		Actor     store.Actor       `json:"actor"`
	}
	if err := json.Unmarshal(events[0].Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.FindingID != findings[0].ID || data.Finding["shown"] != findings[0].ID || fmt.Sprint(data.Changed) != "[status note]" || data.Actor.Name != "Dana" {
		t.Errorf("event data %s", events[0].Data)
	}
}
