package api_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"planreview/api"
)

func wantRateLimitHeaders(t *testing.T, r response) (limit, remaining, reset int) {
	t.Helper()
	get := func(name string) int {
		t.Helper()
		v := r.Header.Get(name)
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			t.Errorf("%s = %q, want a non-negative integer (status %d)", name, v, r.Status)
		}
		return n
	}
	return get("RateLimit-Limit"), get("RateLimit-Remaining"), get("RateLimit-Reset")
}

func TestEveryPartnerAPIResponseCarriesRateLimitHeaders(t *testing.T) {
	h := newHarnessWith(t, harnessConfig{RateLimit: 10, RateBurst: 500})
	acme := h.newPartner("acme")
	job := h.createJob(acme, nil)
	tests := []struct {
		name   string
		r      req
		status int
	}{
		{"ping", req{Method: "GET", Path: "/api/v1/ping", Key: acme.Key}, 200},
		{"ping without key", req{Method: "GET", Path: "/api/v1/ping"}, 401},
		{"ping with broken key", req{Method: "GET", Path: "/api/v1/ping", Key: flipLastChar(acme.Key)}, 401},
		{"create job", req{Method: "POST", Path: "/api/v1/jobs", Key: acme.Key, Body: map[string]any{"name": "x"}}, 201},
		{"create job invalid", req{Method: "POST", Path: "/api/v1/jobs", Key: acme.Key, Body: "{"}, 400},
		{"list jobs", req{Method: "GET", Path: "/api/v1/jobs", Key: acme.Key}, 200},
		{"list jobs bad limit", req{Method: "GET", Path: "/api/v1/jobs?limit=0", Key: acme.Key}, 400},
		{"get job", req{Method: "GET", Path: "/api/v1/jobs/" + job.JobID, Key: acme.Key}, 200},
		{"get missing job", req{Method: "GET", Path: "/api/v1/jobs/job_x", Key: acme.Key}, 404},
		{"register file", req{Method: "POST", Path: "/api/v1/jobs/" + job.JobID + "/files", Key: acme.Key,
			Body: map[string]any{"fileName": "a.pdf", "fileSize": 1, "contentType": "application/pdf"}}, 201},
		{"register file too large", req{Method: "POST", Path: "/api/v1/jobs/" + job.JobID + "/files", Key: acme.Key,
			Body: map[string]any{"fileName": "a.pdf", "fileSize": 104857601, "contentType": "application/pdf"}}, 400},
		{"list files", req{Method: "GET", Path: "/api/v1/jobs/" + job.JobID + "/files", Key: acme.Key}, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.send(tc.r)
			wantStatus(t, r, tc.status)
			limit, remaining, _ := wantRateLimitHeaders(t, r)
			if limit != 500 || remaining >= limit {
				t.Errorf("RateLimit-Limit %d Remaining %d, want 500 and fewer", limit, remaining)
			}
		})
	}
}

func TestRateLimitRemainingCountsDownAndResetIsSeconds(t *testing.T) {
	h := newHarnessWith(t, harnessConfig{RateLimit: 2, RateBurst: 10})
	acme := h.newPartner("acme")
	for i := range 4 {
		r := h.get(acme.Key, "/api/v1/ping")
		wantStatus(t, r, http.StatusOK)
		limit, remaining, reset := wantRateLimitHeaders(t, r)
		if limit != 10 || remaining != 9-i {
			t.Errorf("request %d: limit %d remaining %d, want 10 and %d", i, limit, remaining, 9-i)
		}
		// (i+1) tokens used at 2 per second: ceil((i+1)/2) seconds to refill.
		if want := (i + 2) / 2; reset != want {
			t.Errorf("request %d: RateLimit-Reset %d, want %d", i, reset, want)
		}
	}
}

func TestOverTheRateLimitIs429WithRetryAfter(t *testing.T) {
	h := newHarness(t)
	slow := h.newPartner("slow")
	fast := h.newPartner("fast")
	rate, burst := 0.5, 3
	if _, err := h.admin.SetPartner(t.Context(), slow.Name, api.PartnerSettings{RateLimit: &rate, RateBurst: &burst}); err != nil {
		t.Fatal(err)
	}
	for i := range burst {
		wantStatus(t, h.get(slow.Key, "/api/v1/ping"), http.StatusOK)
		_ = i
	}
	r := h.get(slow.Key, "/api/v1/ping")
	wantError(t, r, http.StatusTooManyRequests, "rate_limited", "")
	retry, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || retry != 2 { // one token at 0.5/s
		t.Errorf("Retry-After %q, want the integer 2", r.Header.Get("Retry-After"))
	}
	limit, remaining, reset := wantRateLimitHeaders(t, r)
	if limit != burst || remaining != 0 || reset < retry {
		t.Errorf("429 headers limit %d remaining %d reset %d", limit, remaining, reset)
	}
	// Every partner route is limited, not only ping.
	wantError(t, h.get(slow.Key, "/api/v1/jobs"), http.StatusTooManyRequests, "rate_limited", "")
	wantError(t, h.post(slow.Key, "/api/v1/jobs", map[string]any{"name": "x"}), http.StatusTooManyRequests, "rate_limited", "")

	// Another partner's key has its own bucket.
	wantStatus(t, h.get(fast.Key, "/api/v1/ping"), http.StatusOK)

	// Waiting Retry-After seconds is enough.
	h.clock.Advance(time.Duration(retry) * time.Second)
	wantStatus(t, h.get(slow.Key, "/api/v1/ping"), http.StatusOK)
	wantError(t, h.get(slow.Key, "/api/v1/ping"), http.StatusTooManyRequests, "rate_limited", "")
}

func TestCallersWithoutAValidKeyAreLimitedByAddress(t *testing.T) {
	h := newHarnessWith(t, harnessConfig{RateLimit: 1, RateBurst: 2})
	acme := h.newPartner("acme")
	for range 2 {
		wantError(t, h.get(flipLastChar(acme.Key), "/api/v1/ping"), http.StatusUnauthorized, "unauthorized", "")
	}
	r := h.get(flipLastChar(acme.Key), "/api/v1/ping")
	wantError(t, r, http.StatusTooManyRequests, "rate_limited", "")
	if r.Header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", r.Header.Get("Retry-After"))
	}
	// The real key has its own bucket.
	wantStatus(t, h.get(acme.Key, "/api/v1/ping"), http.StatusOK)
}

// TestZeroOptionsUseTheContractsDefaultLimits: a server built without rate
// settings applies the contract's defaults (20/s, burst 100) instead of
// refusing every request.
func TestZeroOptionsUseTheContractsDefaultLimits(t *testing.T) {
	h := newHarness(t)
	acme := h.newPartner("acme")
	srv := api.New(api.Options{Store: h.store, Blobs: h.blobs, PublicURL: h.srv.URL})
	h.current.Store(srv)
	r := h.get(acme.Key, "/api/v1/ping")
	wantStatus(t, r, http.StatusOK)
	if limit, _, _ := wantRateLimitHeaders(t, r); limit != 100 {
		t.Errorf("RateLimit-Limit %d, want the default burst 100", limit)
	}
}

// TestRateLimitHeadersOnEveryAPIResponse: also the /api/v1 answers that
// reach no partner route carry the RateLimit-* headers.
func TestRateLimitHeadersOnEveryAPIResponse(t *testing.T) {
	h := newHarness(t)
	for _, r := range []req{
		{Method: http.MethodGet, Path: "/api/v1/openapi.json"},
		{Method: http.MethodGet, Path: "/api/v1/nothing-here"},
		{Method: http.MethodDelete, Path: "/api/v1/jobs"},
	} {
		resp := h.send(r)
		for _, name := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
			if resp.Header.Get(name) == "" {
				t.Errorf("%s %s (%d) lacks %s", r.Method, r.Path, resp.Status, name)
			}
		}
	}
}
