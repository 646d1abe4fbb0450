package store_test

import (
	"errors"
	"testing"
	"time"

	"planreview/store"
)

func TestKeysIssueRevokeAndRotate(t *testing.T) {
	db, c := openDB(t)
	k, p, err := db.CreateKey("acme", "hash1", "abcd")
	if err != nil {
		t.Fatal(err)
	}
	if !store.ValidID(k.ID, store.PrefixKey) || !store.ValidID(p.ID, store.PrefixPartner) || k.PartnerID != p.ID {
		t.Fatalf("key %+v partner %+v", k, p)
	}
	k2, p2, err := db.CreateKey("acme", "hash2", "efgh")
	if err != nil || p2.ID != p.ID {
		t.Fatalf("second key for the same partner made partner %s (%v)", p2.ID, err)
	}
	if got, err := db.KeyByHash("hash1"); err != nil || got.ID != k.ID {
		t.Errorf("KeyByHash = %+v, %v", got, err)
	}
	if _, err := db.KeyByHash("nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown hash: %v", err)
	}

	if _, err := db.RevokeKey(k2.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.KeyByHash("hash2"); got.Active(c.Now()) {
		t.Errorf("revoked key is active")
	}

	old, repl, err := db.RotateKey(k.ID, "hash3", "ijkl", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if old.ReplacedBy != repl.ID || repl.PartnerID != p.ID || old.ExpiresAt == nil {
		t.Errorf("rotation old %+v new %+v", old, repl)
	}
	if !old.Active(c.Now()) || old.Active(c.Now().Add(time.Hour)) {
		t.Errorf("rotated key should work for exactly the grace period")
	}
	if _, _, err := db.RotateKey(k2.ID, "hash4", "mnop", 0); !errors.Is(err, store.ErrKeyRevoked) {
		t.Errorf("rotating a revoked key: %v, want ErrKeyRevoked", err)
	}
	keys, err := db.Keys(p.ID)
	if err != nil || len(keys) != 3 {
		t.Errorf("Keys = %d (%v), want 3", len(keys), err)
	}
	for _, key := range keys {
		if key.Hash == "" || key.Hint == "" {
			t.Errorf("key %s lacks hash or hint", key.ID)
		}
	}
}

// TestRotateTwiceRefuses: a key with a live replacement is not rotated
// again (that would make two live replacements); once the replacement is
// revoked, rotating again is allowed.
func TestRotateTwiceRefuses(t *testing.T) {
	db, _ := openDB(t)
	k, _, err := db.CreateKey("acme", "hash1", "abcd")
	if err != nil {
		t.Fatal(err)
	}
	_, first, err := db.RotateKey(k.ID, "hash2", "efgh", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := db.RotateKey(k.ID, "hash3", "ijkl", time.Hour)
	if !errors.Is(err, store.ErrKeyReplaced) || old.ReplacedBy != first.ID {
		t.Fatalf("second rotation: %v (replaced by %q), want ErrKeyReplaced naming %s", err, old.ReplacedBy, first.ID)
	}
	if _, err := db.KeyByHash("hash3"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("refused rotation stored a key: %v", err)
	}
	if _, err := db.RevokeKey(first.ID); err != nil {
		t.Fatal(err)
	}
	if _, second, err := db.RotateKey(k.ID, "hash4", "mnop", time.Hour); err != nil || second.ID == first.ID {
		t.Errorf("rotation after the replacement was revoked: %v", err)
	}
}

func TestPartnersListedByName(t *testing.T) {
	db, _ := openDB(t)
	for _, name := range []string{"zeta", "alpha", "mid"} {
		if _, _, err := db.EnsurePartner(name); err != nil {
			t.Fatal(err)
		}
	}
	ps, err := db.Partners()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	if len(names) != 3 || names[0] != "alpha" || names[1] != "mid" || names[2] != "zeta" {
		t.Errorf("Partners = %v, want alpha, mid, zeta", names)
	}
}
