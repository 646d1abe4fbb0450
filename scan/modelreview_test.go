package scan

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"planreview/chat"
	"planreview/scan/layout"
	"planreview/scan/plangen"
)

type quietProgress struct{}

func (quietProgress) Stage(string)   {}
func (quietProgress) Pages(int, int) {}

// modelServer is an OpenAI-compatible chat-completions server (real HTTP
// and JSON) whose reply is made from the sheet text it is sent.
func modelServer(t *testing.T, reply func(lines []string) (content string, status int, delay time.Duration)) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct{ Role, Content string }
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		user := req.Messages[1].Content
		start, end := strings.Index(user, "<sheet_text>\n"), strings.Index(user, "\n</sheet_text>")
		var lines []string
		if start < 0 || end < start || json.Unmarshal([]byte(user[start+len("<sheet_text>\n"):end]), &lines) != nil {
			http.Error(w, "no sheet text", http.StatusBadRequest)
			return
		}
		content, status, delay := reply(lines)
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		if status != 0 {
			w.WriteHeader(status)
			fmt.Fprint(w, `{"error":{"message":"overloaded","type":"server_error"}}`)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
			"model": req.Model, "choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func generatedSet(t *testing.T) []Input {
	t.Helper()
	set, err := plangen.Generate(plangen.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "set.pdf")
	if err := os.WriteFile(path, set.Files[0].PDF, 0o600); err != nil {
		t.Fatal(err)
	}
	return []Input{{FileID: "file_a", Name: "set.pdf", Path: path}}
}

func TestModelReviewPass(t *testing.T) {
	inputs := generatedSet(t)
	p, err := NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := p.Review(context.Background(), inputs, quietProgress{})
	if err != nil {
		t.Fatal(err)
	}
	// Text the rules already anchored on: a model finding quoting it is a
	// duplicate.
	var ruleAnchors []string
	for _, f := range plain.Findings {
		for _, a := range f.Anchors {
			if len(strings.Fields(a.Text)) >= 3 {
				ruleAnchors = append(ruleAnchors, a.Text)
			}
		}
	}
	var mu sync.Mutex
	var quoted []string
	srv := modelServer(t, func(lines []string) (string, int, time.Duration) {
		var good string
		for _, l := range lines {
			if f := strings.Fields(l); len(f) >= 3 {
				good = strings.Join(f[:min(4, len(f))], " ")
				break
			}
		}
		dup := "NO SUCH WORDS HERE"
		for _, a := range ruleAnchors {
			for _, l := range lines {
				if strings.Contains(l, a) {
					dup = a
				}
			}
		}
		mu.Lock()
		quoted = append(quoted, good)
		mu.Unlock()
		out, _ := json.Marshal(map[string]any{"findings": []map[string]any{
			{"kind": "terminology", "title": "Misspelled term", "quote": strings.ToLower(good), "explanation": "The term is misspelled.",
				"severity": "high", "confidence": 0.9, "topic": ""},
			{"kind": "contradiction", "title": "Invented quote", "quote": "THE STAIRS ARE MADE OF CHEESE", "explanation": "x", "severity": "medium"},
			{"kind": "superseded_code", "title": "Duplicate of a rule", "quote": dup, "explanation": "x", "severity": "low"},
			{"kind": "vibes", "title": "Unknown kind", "quote": good, "explanation": "x"},
		}})
		return string(out), 0, 0
	})
	p.Model = chat.NewModel(chat.ModelConfig{BaseURL: srv.URL + "/v1", Name: "fake-7b", Timeout: 10 * time.Second, MaxConcurrency: 2})
	p.ModelConcurrency = 2
	res, err := p.Review(context.Background(), inputs, quietProgress{})
	if err != nil {
		t.Fatal(err)
	}
	pass := res.ModelPass
	if pass == nil || pass.Status != PassDone || pass.Sheets != len(res.Files[0].Pages) || pass.SheetsSkipped != 0 {
		t.Fatalf("pass %+v", pass)
	}
	var model int
	for _, f := range res.Findings {
		if f.Source != "model" {
			continue
		}
		model++
		if f.Confidence > ModelConfidenceCap || f.Severity != "low" || f.RuleID != "model.terminology" || f.Topic != "completeness.references" {
			t.Errorf("model finding %+v", f)
		}
		if len(f.Anchors) != 1 || f.Anchors[0].BBox.Width <= 0 || f.Anchors[0].Page != f.Sheet.Page {
			t.Errorf("model finding not anchored: %+v", f.Anchors)
		}
		found := false
		for _, q := range quoted {
			found = found || q != "" && f.Anchors[0].Text == q
		}
		if !found {
			t.Errorf("anchor %q is not a quote the model gave", f.Anchors[0].Text)
		}
	}
	if model == 0 || model != pass.Findings {
		t.Fatalf("%d model findings delivered, pass says %d (%+v), quotes %q", model, pass.Findings, pass, quoted)
	}
	// Each sheet: the invented quote and the unknown kind are dropped, and
	// the duplicate where the sheet has rule anchors.
	if pass.Dropped < 2*pass.Sheets {
		t.Errorf("dropped %d over %d sheets", pass.Dropped, pass.Sheets)
	}
	for _, f := range res.Findings {
		if f.Title == "Invented quote" || f.Title == "Duplicate of a rule" || f.Title == "Unknown kind" {
			t.Errorf("unverifiable model finding delivered: %+v", f)
		}
	}
	if len(res.Findings) != len(plain.Findings)+model {
		t.Errorf("%d findings, want the rules' %d plus %d", len(res.Findings), len(plain.Findings), model)
	}
}

func TestModelReviewFailingModelNeverFailsTheScan(t *testing.T) {
	inputs := generatedSet(t)
	for _, tc := range []struct {
		name   string
		status int
		delay  time.Duration
		reply  string
		reason string
	}{
		{name: "server error", status: http.StatusInternalServerError, reason: "500"},
		{name: "slow", delay: 5 * time.Second, reason: "model.timeout"},
		{name: "malformed", reply: "I found no problems!", reason: "not the JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := modelServer(t, func([]string) (string, int, time.Duration) { return tc.reply, tc.status, tc.delay })
			p, err := NewPipeline([]string{"ibc-2021", "irc-2021"}, "", 2000)
			if err != nil {
				t.Fatal(err)
			}
			p.Model = chat.NewModel(chat.ModelConfig{BaseURL: srv.URL + "/v1", Name: "m", Timeout: 300 * time.Millisecond, MaxConcurrency: 2})
			p.ModelConcurrency = 2
			start := time.Now()
			res, err := p.Review(context.Background(), inputs, quietProgress{})
			if err != nil {
				t.Fatalf("the scan failed with the model: %v", err)
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("the pass took %s", took)
			}
			pass := res.ModelPass
			if pass == nil || pass.Status != PassSkipped || pass.SheetsSkipped != pass.Sheets || !strings.Contains(pass.Reason, tc.reason) {
				t.Fatalf("pass %+v, want skipped because %q", pass, tc.reason)
			}
			for _, f := range res.Findings {
				if f.Source == "model" {
					t.Errorf("model finding from a failing model: %+v", f)
				}
			}
		})
	}
}

func TestAnchorQuote(t *testing.T) {
	set, err := plangen.Generate(plangen.Options{Seed: 3, SkipPDF: true})
	if err != nil {
		t.Fatal(err)
	}
	page := set.Files[0].Pages[0].TextPage()
	lp := layout.AnalyzeLines(&page)
	lines := pageLines(lp)
	var line string
	for _, l := range lines {
		if len(strings.Fields(l)) >= 4 {
			line = l
			break
		}
	}
	words := strings.Fields(line)
	for _, tc := range []struct {
		quote string
		ok    bool
	}{
		{strings.Join(words[:3], " "), true},
		{strings.ToLower(strings.Join(words[1:4], "  ")), true}, // case and spacing do not matter
		{strings.Join(words[:2], " "), false},                   // too short to pin a place
		{"WORDS THAT ARE NOWHERE", false},
	} {
		a, ok := anchorQuote(&page, lp, tc.quote)
		if ok != tc.ok || ok && normWords(a.Text) != normWords(tc.quote) {
			t.Errorf("anchorQuote(%q) = %q, %t; want %t", tc.quote, a.Text, ok, tc.ok)
		}
	}
}
