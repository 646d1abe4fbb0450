package store_test

import (
	"errors"
	"testing"
	"time"

	"planreview/store"
)

func TestLawSnapshots(t *testing.T) {
	db, clk := openDB(t)
	rec := store.LawSnapshot{JurisdictionID: "ocd-division/country:us/state:ca", Name: "CA", EffectiveFrom: "2023-01-01",
		Content: []byte(`{"schemaVersion":"local-law-snapshot-v1","name":"CA"}`)}
	first, created, err := db.PutLawSnapshot(rec)
	if err != nil || !created || first.ID != store.LawSnapshotID(rec.Content) || !store.ValidID(first.ID, store.PrefixLawSnapshot) {
		t.Fatalf("put: %+v %v %v", first, created, err)
	}
	clk.Advance(time.Hour)
	again, created, err := db.PutLawSnapshot(rec)
	if err != nil || created || again.ID != first.ID || !again.ImportedAt.Equal(first.ImportedAt) {
		t.Fatalf("same content again: %+v %v %v", again, created, err)
	}
	if all, _ := db.LawSnapshots("", false); len(all) != 1 || all[0].Content != nil {
		t.Fatalf("list: %+v", all)
	}
	if all, _ := db.LawSnapshots("ocd-division/country:us/state:ca", true); len(all) != 1 || string(all[0].Content) != string(rec.Content) {
		t.Fatalf("list with content: %+v", all)
	}
	if all, _ := db.LawSnapshots("ocd-division/country:us/state:ca/county:marin", false); len(all) != 0 {
		t.Fatalf("other jurisdiction: %+v", all)
	}

	c, err := db.CertifyLawSnapshot(first.ID, "CERT-1", []string{"life-safety"})
	if err != nil || !c.Certified() || !c.FreshnessCheckedAt.Equal(clk.Now()) {
		t.Fatalf("certify: %+v %v", c, err)
	}
	clk.Advance(time.Hour)
	v, err := db.VerifyLawSnapshot(first.ID)
	if err != nil || !v.FreshnessCheckedAt.Equal(clk.Now()) {
		t.Fatalf("verify: %+v %v", v, err)
	}

	if err := db.TamperLawSnapshot(first.ID, []byte(`{"schemaVersion":"local-law-snapshot-v1","name":"XX"}`)); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	if _, err := db.VerifyLawSnapshot(first.ID); !errors.Is(err, store.ErrSnapshotTampered) {
		t.Fatalf("verify after tampering: %v", err)
	}
	if s, _ := db.LawSnapshot(first.ID); !s.FreshnessCheckedAt.Equal(*v.FreshnessCheckedAt) {
		t.Errorf("a failed verify moved freshnessCheckedAt to %v", s.FreshnessCheckedAt)
	}
	if _, err := db.VerifyLawSnapshot("lsn_00000000000000000000000000"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}
