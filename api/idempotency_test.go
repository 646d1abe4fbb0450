package api_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// postKeyed sends a POST with an Idempotency-Key and a raw JSON body.
func (h *harness) postKeyed(p partner, path, key, body string) response {
	h.t.Helper()
	return h.send(req{Method: http.MethodPost, Path: path, Key: p.Key, Body: body,
		Header: map[string]string{"Idempotency-Key": key}})
}

func (h *harness) jobCount(p partner) int {
	h.t.Helper()
	return len(decode[jobListJSON](h.t, h.get(p.Key, "/api/v1/jobs?limit=200")).Jobs)
}

func TestIdempotentCreateJobReplaysTheFirstResponse(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	first := h.postKeyed(acme, "/api/v1/jobs", "create-1", `{"name": "Plan set", "externalId": "P-1"}`)
	wantStatus(t, first, http.StatusCreated)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("first response marked as replayed")
	}

	replays := []struct{ name, body string }{
		{"same bytes", `{"name": "Plan set", "externalId": "P-1"}`},
		{"same JSON, other spacing and field order", `{ "externalId":"P-1",   "name":"Plan set" }`},
	}
	for _, tc := range replays {
		t.Run(tc.name, func(t *testing.T) {
			h.clock.Advance(time.Minute)
			r := h.postKeyed(acme, "/api/v1/jobs", "create-1", tc.body)
			if r.Status != first.Status || string(r.Body) != string(first.Body) {
				t.Errorf("replay = %s, want the first response %s", r, first)
			}
			if r.Header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("Idempotent-Replayed = %q, want true", r.Header.Get("Idempotent-Replayed"))
			}
			if r.Header.Get("X-Request-Id") == "" || r.Header.Get("X-Request-Id") == first.Header.Get("X-Request-Id") {
				t.Errorf("a replay needs its own X-Request-Id")
			}
		})
	}
	if n := h.jobCount(acme); n != 1 {
		t.Errorf("%d jobs exist, want 1", n)
	}
}

func TestIdempotencyKeyReusedWithAnotherRequestIs409(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	wantStatus(t, h.postKeyed(acme, "/api/v1/jobs", "k", `{"name": "A"}`), http.StatusCreated)

	tests := []struct{ name, path, body string }{
		{"different body", "/api/v1/jobs", `{"name": "B"}`},
		{"same body plus a field", "/api/v1/jobs", `{"name": "A", "description": "d"}`},
		{"another route", "/api/v1/jobs/" + job.JobID + "/files", `{"name": "A"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, h.postKeyed(acme, tc.path, "k", tc.body), http.StatusConflict, "idempotency_conflict", "")
		})
	}
	if n := h.jobCount(acme); n != 2 {
		t.Errorf("%d jobs, want 2", n)
	}
}

func TestIdempotencyKeysArePerPartner(t *testing.T) {
	h := newHarness(t)
	acme, other := h.newPartner("acme"), h.newPartner("other")
	a := h.postKeyed(acme, "/api/v1/jobs", "shared-key", `{"name": "A"}`)
	b := h.postKeyed(other, "/api/v1/jobs", "shared-key", `{"name": "A"}`)
	wantStatus(t, a, http.StatusCreated)
	wantStatus(t, b, http.StatusCreated)
	if b.Header.Get("Idempotent-Replayed") != "" || decode[jobJSON](t, a).JobID == decode[jobJSON](t, b).JobID {
		t.Errorf("another partner's key replayed acme's response")
	}
	// A different body from the other partner is no conflict either.
	wantStatus(t, h.postKeyed(other, "/api/v1/jobs", "shared-key-2", `{"name": "B"}`), http.StatusCreated)
	wantStatus(t, h.postKeyed(acme, "/api/v1/jobs", "shared-key-2", `{"name": "C"}`), http.StatusCreated)
}

func TestIdempotencyKeyLength(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	wantError(t, h.postKeyed(acme, "/api/v1/jobs", strings.Repeat("k", 256), `{"name": "A"}`),
		http.StatusBadRequest, "invalid_request", "Idempotency-Key")
	if n := h.jobCount(acme); n != 0 {
		t.Errorf("rejected key still created %d jobs", n)
	}
	wantStatus(t, h.postKeyed(acme, "/api/v1/jobs", strings.Repeat("k", 255), `{"name": "A"}`), http.StatusCreated)
}

func TestFailedRequestDoesNotBurnTheKey(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	wantError(t, h.postKeyed(acme, "/api/v1/jobs", "retry-me", `{"name": ""}`), http.StatusBadRequest, "invalid_request", "name")
	r := h.postKeyed(acme, "/api/v1/jobs", "retry-me", `{"name": "fixed"}`)
	wantStatus(t, r, http.StatusCreated)
	if r.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("corrected retry was answered as a replay")
	}
}

func TestIdempotencyKeyExpiresAfter24Hours(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	first := decode[jobJSON](t, h.postKeyed(acme, "/api/v1/jobs", "daily", `{"name": "A"}`))

	h.clock.Advance(23 * time.Hour)
	r := h.postKeyed(acme, "/api/v1/jobs", "daily", `{"name": "A"}`)
	if r.Header.Get("Idempotent-Replayed") != "true" || decode[jobJSON](t, r).JobID != first.JobID {
		t.Fatalf("within 24 h: %s, want a replay", r)
	}
	h.clock.Advance(time.Hour + time.Second)
	r = h.postKeyed(acme, "/api/v1/jobs", "daily", `{"name": "A"}`)
	wantStatus(t, r, http.StatusCreated)
	if r.Header.Get("Idempotent-Replayed") != "" || decode[jobJSON](t, r).JobID == first.JobID {
		t.Errorf("after 24 h the key still replays")
	}
	// After 24 h a different body is no conflict either.
	h.clock.Advance(25 * time.Hour)
	wantStatus(t, h.postKeyed(acme, "/api/v1/jobs", "daily", `{"name": "other"}`), http.StatusCreated)
}

func TestIdempotentRegisterFileReplaysTheSameFile(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	path := "/api/v1/jobs/" + job.JobID + "/files"
	body := `{"fileName": "a.pdf", "fileSize": 10, "contentType": "application/pdf"}`
	first := h.postKeyed(acme, path, "file-1", body)
	wantStatus(t, first, http.StatusCreated)
	again := h.postKeyed(acme, path, "file-1", body)
	if again.Status != http.StatusCreated || string(again.Body) != string(first.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay = %s, want %s", again, first)
	}
	if n := len(h.files(acme, job.JobID)); n != 1 {
		t.Errorf("%d files registered, want 1", n)
	}
}

// TestConcurrentRetriesCreateOneJob: many identical requests racing with one
// key create exactly one job and all see the same answer.
func TestConcurrentRetriesCreateOneJob(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	const n = 8
	bodies := make([]string, n)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			hr, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/api/v1/jobs", strings.NewReader(`{"name": "race"}`))
			hr.Header.Set("Authorization", "Bearer "+acme.Key)
			hr.Header.Set("Idempotency-Key", "race")
			resp, err := h.srv.Client().Do(hr)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var sb strings.Builder
			buf := make([]byte, 4096)
			for {
				k, err := resp.Body.Read(buf)
				sb.Write(buf[:k])
				if err != nil {
					break
				}
			}
			bodies[i], statuses[i] = sb.String(), resp.StatusCode
		})
	}
	wg.Wait()
	for i := range n {
		if statuses[i] != http.StatusCreated || bodies[i] != bodies[0] {
			t.Errorf("request %d: %d %s, want 201 %s", i, statuses[i], bodies[i], bodies[0])
		}
	}
	if got := h.jobCount(acme); got != 1 {
		t.Errorf("%d jobs created, want 1", got)
	}
}

func TestIdempotentRequestOverOneMiBIs400(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	body := `{"name": "x", "description": "` + strings.Repeat("a", 1<<20) + `"}`
	wantError(t, h.postKeyed(acme, "/api/v1/jobs", "big", body), http.StatusBadRequest, "invalid_request", "")
	wantStatus(t, h.postKeyed(acme, "/api/v1/jobs", "big", `{"name": "x"}`), http.StatusCreated)
}
