package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"planreview/api"
)

type embedLinkJSON struct {
	URL          string   `json:"url"`
	ExpiresAt    int64    `json:"expiresAt"`
	FrameOrigins []string `json:"frameOrigins"`
}

func (h *harness) embedLink(p partner, screen, jobID string) embedLinkJSON {
	h.t.Helper()
	body := map[string]any{"screen": screen}
	if jobID != "" {
		body["jobId"] = jobID
	}
	r := h.post(p.Key, "/api/v1/embed", body)
	wantStatus(h.t, r, http.StatusOK)
	return decode[embedLinkJSON](h.t, r)
}

// tokenOf returns the t parameter of an embed link.
func tokenOf(t *testing.T, link string) string {
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("t")
}

func TestEmbedEndpoint(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.newPartner("Alice"), h.newPartner("Bob")
	job := h.createJob(alice, map[string]any{"name": "A"})
	bobJob := h.createJob(bob, map[string]any{"name": "B"})

	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"no screen", map[string]any{}, 400, "invalid_screen"},
		{"unknown screen", map[string]any{"screen": "admin"}, 400, "invalid_screen"},
		{"screen not a string", map[string]any{"screen": 3}, 400, "invalid_request"},
		{"job without jobId", map[string]any{"screen": "job"}, 400, "missing_job_id"},
		{"chat with empty jobId", map[string]any{"screen": "chat", "jobId": ""}, 400, "missing_job_id"},
		{"other partner's job", map[string]any{"screen": "job", "jobId": bobJob.JobID}, 404, "not_found"},
		{"unknown job", map[string]any{"screen": "chat", "jobId": "job_01JZZZZZZZZZZZZZZZZZZZZZZZ"}, 404, "not_found"},
		{"malformed job id", map[string]any{"screen": "job", "jobId": "nope"}, 404, "not_found"},
		{"unknown field", map[string]any{"screen": "login", "x": 1}, 400, "invalid_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, h.post(alice.Key, "/api/v1/embed", tc.body), tc.status, tc.code, "")
		})
	}
	wantError(t, h.post("", "/api/v1/embed", map[string]any{"screen": "login"}), 401, "unauthorized", "")

	now := h.clock.Now().Unix()
	for screen, path := range map[string]string{
		"login": "/embed/login?t=", "job": "/embed/job/" + job.JobID + "?t=", "chat": "/embed/chat/" + job.JobID + "?t=",
	} {
		l := h.embedLink(alice, screen, job.JobID)
		if !strings.HasPrefix(l.URL, h.srv.URL+path) {
			t.Errorf("%s link %s, want prefix %s", screen, l.URL, h.srv.URL+path)
		}
		if l.ExpiresAt != now+30*60 {
			t.Errorf("%s expiresAt %d, want now+1800 (%d)", screen, l.ExpiresAt, now+1800)
		}
		if again := h.embedLink(alice, screen, job.JobID); again.URL == l.URL {
			t.Errorf("two links for %s are equal; each call mints a fresh one", screen)
		}
	}
}

// TestEmbedRefusals walks every /embed/ and /embed/api/ route with a
// tampered token, an expired one, one for another screen, one for another
// job, and a login token on another partner's job.
func TestEmbedRefusals(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.newPartner("Alice"), h.newPartner("Bob")
	if _, err := h.admin.SetPartner(context.Background(), "Alice", api.PartnerSettings{FrameOrigins: []string{"http://127.0.0.2:9999"}}); err != nil {
		t.Fatal(err)
	}
	job := h.createJob(alice, map[string]any{"name": "A"})
	other := h.createJob(alice, map[string]any{"name": "A2"})
	bobJob := h.createJob(bob, map[string]any{"name": "B"})
	file := h.registerFile(alice, job.JobID, "plans.pdf", 100)

	jobTok := tokenOf(t, h.embedLink(alice, "job", job.JobID).URL)
	chatTok := tokenOf(t, h.embedLink(alice, "chat", job.JobID).URL)
	loginTok := tokenOf(t, h.embedLink(alice, "login", "").URL)
	expiredTok := tokenOf(t, h.embedLink(alice, "job", job.JobID).URL)
	expiredLogin := tokenOf(t, h.embedLink(alice, "login", "").URL)

	type route struct {
		method, path string // {job} and {file} filled in below
		screens      []string
		html         bool
	}
	routes := []route{
		{"GET", "/embed/login", []string{"login"}, true},
		{"GET", "/embed/job/{job}", []string{"job", "login"}, true},
		{"GET", "/embed/chat/{job}", []string{"chat"}, true},
		{"GET", "/embed/api/jobs", []string{"login"}, false},
		{"GET", "/embed/api/jobs/{job}", []string{"job", "chat", "login"}, false},
		{"GET", "/embed/api/jobs/{job}/files", []string{"job", "login"}, false},
		{"POST", "/embed/api/jobs/{job}/files", []string{"job", "login"}, false},
		{"POST", "/embed/api/jobs/{job}/scan", []string{"job", "login"}, false},
		{"GET", "/embed/api/jobs/{job}/findings", []string{"job", "login"}, false},
		{"GET", "/embed/api/jobs/{job}/export/csv", []string{"job", "login"}, false},
		{"GET", "/embed/api/jobs/{job}/files/{file}/annotated", []string{"job", "login"}, false},
		{"GET", "/embed/api/jobs/{job}/files/{file}/pages/1", []string{"job", "chat", "login"}, false},
		{"GET", "/embed/api/jobs/{job}/files/{file}/pages/1/words", []string{"job", "chat", "login"}, false},
		{"GET", "/embed/api/jobs/{job}/files/{file}/pages/1/tiles/1/0/0", []string{"job", "chat", "login"}, false},
		{"POST", "/embed/api/jobs/{job}/chat", []string{"chat"}, false},
		{"POST", "/embed/api/jobs/{job}/chat-link", []string{"job", "login"}, false},
	}
	tokens := map[string]string{"job": jobTok, "chat": chatTok, "login": loginTok}
	h.clock.Advance(29 * time.Minute)
	type attempt struct {
		name, token, jobID string
		status             int
		code               string
	}
	fill := func(path, jobID string) string {
		return strings.NewReplacer("{job}", jobID, "{file}", file.FileID).Replace(path)
	}
	send := func(rt route, path, token string) response {
		r := req{Method: rt.method, Path: path, Header: map[string]string{"X-Embed-Token": token}}
		if rt.method == "POST" {
			r.Body = map[string]any{}
		}
		return h.send(r)
	}
	check := func(t *testing.T, rt route, a attempt) {
		t.Helper()
		resp := send(rt, fill(rt.path, a.jobID), a.token)
		if resp.Status != a.status {
			t.Fatalf("%s %s with %s: %d %s, want %d", rt.method, rt.path, a.name, resp.Status, resp.Body, a.status)
		}
		if c := resp.Header.Get("Set-Cookie"); c != "" {
			t.Errorf("Set-Cookie %q", c)
		}
		if rp := resp.Header.Get("Referrer-Policy"); rp != "no-referrer" {
			t.Errorf("Referrer-Policy %q", rp)
		}
		if rt.html {
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("screen answered %s, want HTML", ct)
			}
			if a.status == 403 && !strings.Contains(string(resp.Body), "planreview:expired") && !strings.Contains(string(resp.Body), "expired.js") {
				t.Errorf("403 page does not post the expiry: %s", resp.Body)
			}
			return
		}
		if a.code != "" {
			wantError(t, resp, a.status, a.code, "")
		}
	}
	for _, rt := range routes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			tamperedBase := tokens[rt.screens[0]]
			tampered := tamperedBase[:len(tamperedBase)-2] + "xx"
			check(t, rt, attempt{"tampered token", tampered, job.JobID, 403, "signature_invalid"})
			check(t, rt, attempt{"no token", "", job.JobID, 403, "signature_invalid"})
			for screen, tok := range tokens {
				granted := false
				for _, s := range rt.screens {
					granted = granted || s == screen
				}
				if !granted {
					check(t, rt, attempt{screen + " token (wrong screen)", tok, job.JobID, 403, "signature_invalid"})
				}
			}
			if strings.Contains(rt.path, "{job}") {
				own := rt.screens[0]
				if own != "login" {
					check(t, rt, attempt{"token for another job", tokens[own], other.JobID, 403, "signature_invalid"})
				}
				if contains(rt.screens, "login") {
					check(t, rt, attempt{"login token on another partner's job", loginTok, bobJob.JobID, 404, "not_found"})
				}
			}
		})
	}
	// Expiry: past the 30 minutes of the first links.
	h.clock.Advance(2 * time.Minute)
	for _, rt := range routes {
		tok := map[string]string{"job": expiredTok, "login": expiredLogin}[rt.screens[0]]
		if tok == "" {
			tok = chatTok
		}
		check(t, rt, attempt{"expired token", tok, job.JobID, 403, "url_expired"})
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestEmbedScreenHeaders(t *testing.T) {
	h := newHarness(t)
	alice := h.newPartner("Alice")
	if _, err := h.admin.SetPartner(context.Background(), "Alice", api.PartnerSettings{FrameOrigins: []string{"http://127.0.0.2:9999"}}); err != nil {
		t.Fatal(err)
	}
	job := h.createJob(alice, map[string]any{"name": "A"})
	r := h.get("", h.embedLink(alice, "job", job.JobID).URL)
	wantStatus(t, r, http.StatusOK)
	csp := r.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "frame-ancestors http://127.0.0.2:9999"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(string(r.Body), "<script>") {
		t.Errorf("inline script allowed or present")
	}
	if r.Header.Get("Set-Cookie") != "" {
		t.Error("Set-Cookie on a screen")
	}
	// Job list search by name or external id.
	h.createJob(alice, map[string]any{"name": "Main St ADU", "externalId": "BLD-77"})
	login := tokenOf(t, h.embedLink(alice, "login", "").URL)
	for q, want := range map[string]int{"main st": 1, "bld-77": 1, "zzz": 0, "": 2} {
		resp := h.send(req{Method: "GET", Path: "/embed/api/jobs?q=" + url.QueryEscape(q), Header: map[string]string{"X-Embed-Token": login}})
		wantStatus(t, resp, http.StatusOK)
		if got := len(decode[jobListJSON](t, resp).Jobs); got != want {
			t.Errorf("q=%q: %d jobs, want %d", q, got, want)
		}
	}
}

// TestEmbedChatLink: a job screen (or the job list) opens its job's chat
// with a chat link minted from its own link, for that job only, ending
// when its own link ends; the embed answer lists the frame origins.
func TestEmbedChatLink(t *testing.T) {
	h := newHarness(t)
	alice := h.newPartner("Alice")
	job := h.createJob(alice, map[string]any{"name": "A"})
	if l := h.embedLink(alice, "job", job.JobID); l.FrameOrigins == nil || len(l.FrameOrigins) != 0 {
		t.Errorf("frameOrigins with none set: %#v", l.FrameOrigins)
	}
	if _, err := h.admin.SetPartner(context.Background(), "Alice", api.PartnerSettings{FrameOrigins: []string{"https://portal.example.org"}}); err != nil {
		t.Fatal(err)
	}
	for _, screen := range []string{"job", "login"} {
		own := h.embedLink(alice, screen, job.JobID)
		if len(own.FrameOrigins) != 1 || own.FrameOrigins[0] != "https://portal.example.org" {
			t.Errorf("frameOrigins %v", own.FrameOrigins)
		}
		h.clock.Advance(10 * time.Minute)
		resp := h.send(req{Method: "POST", Path: "/embed/api/jobs/" + job.JobID + "/chat-link", Header: map[string]string{"X-Embed-Token": tokenOf(t, own.URL)}})
		wantStatus(t, resp, http.StatusOK)
		chat := decode[embedLinkJSON](t, resp)
		if !strings.HasPrefix(chat.URL, h.srv.URL+"/embed/chat/"+job.JobID+"?t=") || chat.ExpiresAt != own.ExpiresAt {
			t.Errorf("%s screen's chat link %s until %d; want the job's chat until %d", screen, chat.URL, chat.ExpiresAt, own.ExpiresAt)
		}
		tok := tokenOf(t, chat.URL)
		wantStatus(t, h.send(req{Method: "GET", Path: "/embed/chat/" + job.JobID + "?t=" + tok}), http.StatusOK)
		if r := h.send(req{Method: "GET", Path: "/embed/job/" + job.JobID + "?t=" + tok}); r.Status != http.StatusForbidden {
			t.Errorf("a chat link opened the job screen: %d", r.Status)
		}
	}
}
