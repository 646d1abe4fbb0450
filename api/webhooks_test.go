package api_test

import (
	"net/http"
	"strings"
	"testing"

	"planreview/api"
	"planreview/webhooks"
)

func TestWebhooksRefusedWithoutAllowedHosts(t *testing.T) {
	h := newHarness(t) // webhooks.allowed_hosts empty, the default
	p := h.newPartner("acme")
	r := h.post(p.Key, "/api/v1/webhooks", map[string]any{"url": "https://hooks.example.gov/x", "events": []string{"scan.completed"}})
	e := wantError(t, r, http.StatusBadRequest, "invalid_request", "url")
	if !strings.Contains(e.Error.Message, "webhooks.allowed_hosts") {
		t.Errorf("message does not name the setting: %s", e.Error.Message)
	}
}

func TestWebhookRequestsValidated(t *testing.T) {
	policy, err := webhooks.ParsePolicy([]string{"hooks.example.gov"})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, harnessConfig{Webhooks: api.WebhookOptions{Policy: policy}})
	p, other := h.newPartner("acme"), h.newPartner("other")
	good := map[string]any{"url": "https://hooks.example.gov/x", "events": []string{"scan.completed", "scan.completed"}}
	for _, tc := range []struct {
		body        any
		code, param string
	}{
		{"{", "invalid_json", ""},
		{map[string]any{"url": "https://hooks.example.gov/x"}, "invalid_request", "events"},
		{map[string]any{"url": "https://hooks.example.gov/x", "events": []string{}}, "invalid_request", "events"},
		{map[string]any{"url": "https://hooks.example.gov/x", "events": []string{"scan.started"}}, "invalid_request", "events"},
		{map[string]any{"events": []string{"scan.completed"}}, "invalid_request", "url"},
		{map[string]any{"url": "https://other.example.gov/x", "events": []string{"scan.completed"}}, "invalid_request", "url"},
		{map[string]any{"url": "hooks.example.gov/x", "events": []string{"scan.completed"}}, "invalid_request", "url"},
		{map[string]any{"url": "https://hooks.example.gov/x", "events": []string{"scan.completed"}, "secret": "mine"}, "invalid_request", "secret"},
	} {
		wantError(t, h.post(p.Key, "/api/v1/webhooks", tc.body), http.StatusBadRequest, tc.code, tc.param)
	}
	r := h.post(p.Key, "/api/v1/webhooks", good)
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %s", r)
	}
	created := decode[map[string]any](t, r)
	id, secret := created["webhookId"].(string), created["secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") || len(created["events"].([]any)) != 1 || r.Header.Get("Location") == "" {
		t.Fatalf("created: %s", r.Body)
	}
	if r := h.get(p.Key, "/api/v1/webhooks"); r.Status != http.StatusOK || strings.Contains(string(r.Body), "whsec_") || !strings.Contains(string(r.Body), id) {
		t.Fatalf("list: %s", r)
	}
	wantError(t, h.get(other.Key, "/api/v1/webhooks/"+id), http.StatusNotFound, "not_found", "")
	wantError(t, h.send(req{Method: http.MethodDelete, Path: "/api/v1/webhooks/" + id, Key: other.Key}), http.StatusNotFound, "not_found", "")
	wantError(t, h.post(p.Key, "/api/v1/webhooks/"+id+"/rotate-secret", map[string]any{"gracePeriodSeconds": -1}), http.StatusBadRequest, "invalid_request", "gracePeriodSeconds")
	wantError(t, h.post(p.Key, "/api/v1/webhooks/"+id+"/rotate-secret", map[string]any{"gracePeriodSeconds": 604801}), http.StatusBadRequest, "invalid_request", "gracePeriodSeconds")
	rotated := h.send(req{Method: http.MethodPost, Path: "/api/v1/webhooks/" + id + "/rotate-secret", Key: p.Key})
	if rotated.Status != http.StatusOK {
		t.Fatalf("rotate with no body: %s", rotated)
	}
	rb := decode[map[string]any](t, rotated)
	if rb["secret"] == secret || rb["previousSecretExpiresAt"] == nil {
		t.Fatalf("rotated: %s", rotated.Body)
	}
	wantError(t, h.get(p.Key, "/api/v1/events?limit=0"), http.StatusBadRequest, "invalid_request", "limit")
	wantError(t, h.get(p.Key, "/api/v1/events?after=job_1"), http.StatusBadRequest, "invalid_request", "after")
	if r := h.get(p.Key, "/api/v1/events"); r.Status != http.StatusOK || string(r.Body) != "{\"events\":[],\"nextCursor\":null}\n" {
		t.Fatalf("events: %s", r)
	}
	wantError(t, h.get(p.Key, "/api/v1/events/evt_01JDQ41X9Y8W7V6T5S4R3Q2P1N"), http.StatusNotFound, "not_found", "")
	if r := h.send(req{Method: http.MethodDelete, Path: "/api/v1/webhooks/" + id, Key: p.Key}); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %s", r)
	}
	wantError(t, h.send(req{Method: http.MethodDelete, Path: "/api/v1/webhooks/" + id, Key: p.Key}), http.StatusNotFound, "not_found", "")
}
