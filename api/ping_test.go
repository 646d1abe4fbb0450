package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"planreview/api/apikey"
)

func TestPingAnswersWithThePartnerOfTheKey(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")

	r := h.get(acme.Key, "/api/v1/ping")
	wantStatus(t, r, http.StatusOK)
	got := decode[struct {
		OK        bool   `json:"ok"`
		PartnerID string `json:"partnerId"`
		KeyID     string `json:"keyId"`
	}](t, r)
	if !got.OK || got.PartnerID != acme.ID || got.KeyID != acme.KeyID {
		t.Errorf("ping = %+v, want ok with partner %s and key %s", got, acme.ID, acme.KeyID)
	}
	if strings.Contains(string(r.Body), acme.Key) {
		t.Errorf("ping echoes the secret key: %s", r.Body)
	}
}

func TestBearerSchemeIsCaseInsensitive(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	r := h.send(req{Method: http.MethodGet, Path: "/api/v1/ping", Header: map[string]string{"Authorization": "bearer " + acme.Key}})
	wantStatus(t, r, http.StatusOK)
}

// flipLastChar breaks a key's checksum while keeping its shape.
func flipLastChar(key string) string {
	last := key[len(key)-1]
	repl := byte('A')
	if last == 'A' {
		repl = 'B'
	}
	return key[:len(key)-1] + string(repl)
}

func TestMissingOrInvalidKeyIs401Unauthorized(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	unissued, err := apikey.Generate() // right shape and checksum, never stored
	if err != nil {
		t.Fatal(err)
	}
	revoked := h.newPartner("revoked-co")
	if _, err := h.admin.RevokeKey(context.Background(), revoked.KeyID); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name          string
		authorization string // "" sends no header
		wantLookups   int64  // KeyByHash calls the request may make
	}{
		{"no Authorization header", "", 0},
		{"empty bearer", "Bearer ", 0},
		{"basic scheme", "Basic " + acme.Key, 0},
		{"no scheme", acme.Key, 0},
		{"checksum broken", "Bearer " + flipLastChar(acme.Key), 0},
		{"random part changed", "Bearer " + acme.Key[:12] + flipLastChar(acme.Key[12:20]) + acme.Key[20:], 0},
		{"truncated", "Bearer " + acme.Key[:len(acme.Key)-1], 0},
		{"extra character", "Bearer " + acme.Key + "0", 0},
		{"wrong prefix", "Bearer prk_test_" + acme.Key[len("prk_live_"):], 0},
		{"not base62", "Bearer " + acme.Key[:20] + "-" + acme.Key[21:], 0},
		{"well-formed but never issued", "Bearer " + unissued, 1},
		{"revoked", "Bearer " + revoked.Key, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := h.store.keyLookups.Load()
			hdr := map[string]string{}
			if tc.authorization != "" {
				hdr["Authorization"] = tc.authorization
			}
			r := h.send(req{Method: http.MethodGet, Path: "/api/v1/ping", Header: hdr})
			wantError(t, r, http.StatusUnauthorized, "unauthorized", "")
			if n := h.store.keyLookups.Load() - before; n != tc.wantLookups {
				t.Errorf("KeyByHash called %d times, want %d", n, tc.wantLookups)
			}
		})
	}
}

func TestEveryPartnerRouteRequiresAKey(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	routes := []struct{ method, path string }{
		{http.MethodGet, "/api/v1/ping"},
		{http.MethodPost, "/api/v1/jobs"},
		{http.MethodGet, "/api/v1/jobs"},
		{http.MethodGet, "/api/v1/jobs/" + job.JobID},
		{http.MethodPost, "/api/v1/jobs/" + job.JobID + "/files"},
		{http.MethodGet, "/api/v1/jobs/" + job.JobID + "/files"},
	}
	for _, rt := range routes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			r := h.send(req{Method: rt.method, Path: rt.path, Body: map[string]any{"name": "x"}})
			wantError(t, r, http.StatusUnauthorized, "unauthorized", "")
			r = h.send(req{Method: rt.method, Path: rt.path, Key: flipLastChar(acme.Key), Body: map[string]any{"name": "x"}})
			wantError(t, r, http.StatusUnauthorized, "unauthorized", "")
		})
	}
}

func TestRotatedKeyWorksUntilGraceEndsAndNewKeyWorks(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	rotated, err := h.admin.RotateKey(context.Background(), acme.KeyID, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, h.get(acme.Key, "/api/v1/ping"), http.StatusOK)
	wantStatus(t, h.get(rotated.Key, "/api/v1/ping"), http.StatusOK)

	h.clock.Advance(time.Hour + time.Second)
	wantError(t, h.get(acme.Key, "/api/v1/ping"), http.StatusUnauthorized, "unauthorized", "")
	r := h.get(rotated.Key, "/api/v1/ping")
	wantStatus(t, r, http.StatusOK)
	if got := decode[struct{ PartnerID string }](t, r).PartnerID; got != acme.ID {
		t.Errorf("new key belongs to %s, want %s", got, acme.ID)
	}
}

// TestRevokeDropsCachedKey: a key that has just authenticated (and is
// cached) stops working at the next request after its revocation.
func TestRevokeDropsCachedKey(t *testing.T) {
	h := newHarness(t)
	p := h.newPartner("cached")
	for range 3 {
		wantStatus(t, h.get(p.Key, "/api/v1/ping"), http.StatusOK)
	}
	lookups := h.store.keyLookups.Load()
	wantStatus(t, h.get(p.Key, "/api/v1/ping"), http.StatusOK)
	if h.store.keyLookups.Load() != lookups {
		t.Error("a cached key was looked up in the database again")
	}
	if _, err := h.admin.RevokeKey(t.Context(), p.KeyID); err != nil {
		t.Fatal(err)
	}
	wantError(t, h.get(p.Key, "/api/v1/ping"), http.StatusUnauthorized, "unauthorized", "")
}
