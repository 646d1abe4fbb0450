package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestModelCheck runs `planreview model check` against an
// OpenAI-compatible server started here.
func TestModelCheck(t *testing.T) {
	var reply atomic.Value
	reply.Store(`{"ok": true}`)
	var auth atomic.Value
	auth.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		auth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1,
			"model": "llama3.1:8b-instruct", "choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": reply.Load().(string)}}}})
	}))
	defer srv.Close()
	dir := newDataDir(t)
	keyFile := filepath.Join(dir, "model.key")
	if err := os.WriteFile(keyFile, []byte("sk-local-123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf("model:\n  base_url: %s/v1\n  name: llama3.1\n  api_key_file: %s\n  timeout: 5s\n", srv.URL, keyFile)), 0o600); err != nil {
		t.Fatal(err)
	}
	res := mustCLI(t, dir, "model", "check", "--config", config)
	for _, want := range []string{"model:      llama3.1:8b-instruct (requested llama3.1)", "valid JSON: true", "latency:"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, res.stdout)
		}
	}
	if got := auth.Load(); got != "Bearer sk-local-123" {
		t.Errorf("Authorization %q", got)
	}
	if strings.Contains(res.stdout+res.stderr, "sk-local-123") {
		t.Errorf("the key was printed")
	}
	var out struct {
		Model     string `json:"model"`
		LatencyMS int64  `json:"latencyMs"`
		ValidJSON bool   `json:"validJson"`
	}
	js := mustCLI(t, dir, "model", "check", "--config", config, "--json")
	if err := json.Unmarshal([]byte(js.stdout), &out); err != nil || out.Model != "llama3.1:8b-instruct" || !out.ValidJSON {
		t.Errorf("--json output %q: %v", js.stdout, err)
	}

	reply.Store("Sure! Here is some JSON: {ok}")
	if res := runCLI(t, dir, "model", "check", "--config", config); res.code != 1 || !strings.Contains(res.stdout, "valid JSON: false") {
		t.Errorf("non-JSON reply: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res := runCLI(t, dir, "model", "check"); res.code != 2 || !strings.Contains(res.stderr, "no model configured") {
		t.Errorf("no model: exit %d\n%s", res.code, res.stderr)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("model:\n  base_url: ftp://x\n"), 0o600)
	if res := runCLI(t, dir, "model", "check", "--config", bad); res.code != 2 || !strings.Contains(res.stderr, "model.base_url") || !strings.Contains(res.stderr, "model.name") {
		t.Errorf("bad config: exit %d\n%s", res.code, res.stderr)
	}
}
