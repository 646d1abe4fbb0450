package store_test

import (
	"fmt"
	"testing"
	"time"

	"planreview/store"
)

// nextRound registers one file into the job (opening its next version),
// scans it and ends the scan with findings made by make (on that file);
// failed ends it failed instead.
func nextRound(t *testing.T, db *store.DB, p store.Partner, j store.Job, failed bool, make func(fileID string) []store.Finding) store.Version {
	t.Helper()
	f := mustFile(t, db, p.ID, j.ID, "revised.pdf")
	if _, _, err := db.CommitUpload(f.ID, 10, "00"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.StartScan(store.ScanRequest{PartnerID: p.ID, JobID: j.ID, Quota: 100, Window: time.Hour}); err != nil {
		t.Fatal(err)
	}
	v, ok, err := db.ClaimScan()
	if err != nil || !ok {
		t.Fatal(err, ok)
	}
	if failed {
		v.Pipeline.Error = &store.Problem{Code: "invalid_pdf", Message: "unreadable"}
		if err := db.FailScan(v.ID, nil, v.Pipeline); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := db.CompleteScan(v.ID, store.ScanResult{Findings: make(f.ID)}, v.Pipeline); err != nil {
		t.Fatal(err)
	}
	return v
}

// sheetFindings are one finding per sheet A1..A3, on pages in the given
// order, with evidence that names the sheet.
func sheetFindings(fileID string, pages ...int) []store.Finding {
	var out []store.Finding
	for i, page := range pages {
		n := fmt.Sprintf("A%d", i+1)
		out = append(out, store.Finding{ID: store.NewID(store.PrefixFinding), Number: i + 1, RuleID: "rule", Title: "t", Severity: "low",
			Source: "rules", FileID: fileID, Sheet: store.SheetRef{Page: page, SheetNumber: n},
			Anchors: []store.Anchor{{Page: page, Text: "NOTE ON SHEET " + n}}})
	}
	return out
}

// TestRoundsAcrossFailedVersion: a version scanned without stored sheets is
// compared by its findings' sheet numbers; a failed version is skipped (the
// next completed one compares with the last completed one), and the job
// names its last completed version throughout.
func TestRoundsAcrossFailedVersion(t *testing.T) {
	db, _ := openDB(t)
	p := mustPartner(t, db, "rounds")
	j, v1 := mustJob(t, db, store.Job{PartnerID: p.ID})
	first := nextRound(t, db, p, j, false, func(id string) []store.Finding { return sheetFindings(id, 1, 2, 3) })
	if first.ID != v1.ID {
		t.Fatalf("first round scanned %s, want %s", first.ID, v1.ID)
	}
	accepted := store.DispositionAccepted
	_, v1Findings, _ := db.Findings(p.ID, j.ID, v1.ID)
	if _, err := db.UpdateFinding(p.ID, j.ID, v1Findings[1].ID, store.FindingChange{Status: &accepted, Actor: store.Actor{ID: "u", Name: "U"}}); err != nil {
		t.Fatal(err)
	}
	v2 := nextRound(t, db, p, j, true, nil)
	if job, _, _ := db.Job(p.ID, j.ID); job.LastCompletedVersionID != v1.ID {
		t.Fatalf("after a failed round 2 the last completed version is %q, want %s", job.LastCompletedVersionID, v1.ID)
	}
	// Round 3: the sheets in another order, A2's note gone.
	v3 := nextRound(t, db, p, j, false, func(id string) []store.Finding {
		fs := sheetFindings(id, 3, 1, 2)
		return append(fs[:1], fs[2:]...)
	})
	_, got, err := db.Findings(p.ID, j.ID, v3.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		if f.Round == nil || f.Round.Status != store.RoundPersisting || *f.Round.PreviousVersionID != v1.ID {
			t.Errorf("finding on %s: round %+v, want persisting from round 1", f.Sheet.SheetNumber, f.Round)
		}
	}
	c, err := db.Compare(p.ID, j.ID, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if c.From == nil || c.From.ID != v1.ID || c.To.ID != v3.ID || len(c.FindingMatch.Pairs) != 2 || len(c.FindingMatch.Resolved) != 1 ||
		c.Prev[c.FindingMatch.Resolved[0]].Sheet.SheetNumber != "A2" {
		t.Fatalf("compare %v -> %s: %+v", c.From, c.To.ID, c.FindingMatch)
	}
	if _, err := db.Compare(p.ID, j.ID, "", v2.ID); err != store.ErrScanNotComplete {
		t.Errorf("compare to a failed version: %v, want ErrScanNotComplete", err)
	}
	if _, err := db.Compare(p.ID, j.ID, v3.ID, v1.ID); err != store.ErrVersionOrder {
		t.Errorf("compare backwards: %v, want ErrVersionOrder", err)
	}
	v3r, _ := db.Version(p.ID, j.ID, v3.ID)
	if v3r.Round == nil || v3r.Round.Number != 3 || v3r.Round.Persisting != 2 || v3r.Round.Resolved != 1 {
		t.Errorf("round 3's summary %+v", v3r.Round)
	}
}
