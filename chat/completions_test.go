package chat

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestCompletionsProtocol drives the hand-written client against a real
// HTTP server: the request it sends (path, headers, body), the reply it
// reads, and each way a server can fail.
func TestCompletionsProtocol(t *testing.T) {
	type seen struct {
		path, auth, contentType string
		body                    map[string]any
	}
	var last seen
	reply := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"model":"served-7b","choices":[{"index":0,"message":{"role":"assistant","content":"`+"```json\\n{\\\"ok\\\": true}\\n```"+`"}}]}`)
	}
	handler := reply
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last = seen{path: r.URL.Path, auth: r.Header.Get("Authorization"), contentType: r.Header.Get("Content-Type")}
		json.NewDecoder(r.Body).Decode(&last.body)
		handler(w)
	}))
	defer srv.Close()

	m := NewModel(ModelConfig{BaseURL: srv.URL + "/v1/", Name: "m", APIKey: "sk-local", Timeout: 5 * time.Second})
	got, err := m.CompleteJSON(context.Background(), []ModelMessage{SystemMessage("s"), UserMessageWithImage("look", "data:image/png;base64,AA==")})
	if err != nil || got != `{"ok": true}` {
		t.Fatalf("CompleteJSON = %q, %v; want the fenced object unwrapped", got, err)
	}
	if last.path != "/v1/chat/completions" || last.auth != "Bearer sk-local" || last.contentType != "application/json" {
		t.Errorf("request: %+v", last)
	}
	if last.body["model"] != "m" || last.body["temperature"] != 0.0 ||
		last.body["response_format"].(map[string]any)["type"] != "json_object" {
		t.Errorf("body: %v", last.body)
	}
	msgs := last.body["messages"].([]any)
	parts := msgs[1].(map[string]any)["content"].([]any)
	if msgs[0].(map[string]any)["content"] != "s" || len(parts) != 2 ||
		parts[1].(map[string]any)["image_url"].(map[string]any)["url"] != "data:image/png;base64,AA==" {
		t.Errorf("messages: %v", msgs)
	}

	// No key configured: no Authorization header at all, never one taken
	// from the environment.
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	keyless := NewModel(ModelConfig{BaseURL: srv.URL + "/v1", Name: "m", Timeout: 5 * time.Second})
	if _, err := keyless.CompleteJSON(context.Background(), []ModelMessage{UserMessage("q")}); err != nil || last.auth != "" {
		t.Errorf("keyless call: err %v, Authorization %q", err, last.auth)
	}

	for _, tc := range []struct {
		name    string
		handler func(http.ResponseWriter)
		want    string
	}{
		{"error status with an OpenAI error body", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, `{"error":{"message":"model overloaded","type":"server_error"}}`)
		}, "503 Service Unavailable: model overloaded"},
		{"error status with a plain body", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "404 page not found\n")
		}, "404 Not Found: 404 page not found"},
		{"a reply that is not JSON", func(w http.ResponseWriter) { io.WriteString(w, "<html>proxy login</html>") }, "not chat-completions JSON"},
		{"no choices", func(w http.ResponseWriter) { io.WriteString(w, `{"choices":[]}`) }, "no choices"},
	} {
		handler = tc.handler
		_, err := m.CompleteJSON(context.Background(), []ModelMessage{UserMessage("q")})
		if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "sk-local") {
			t.Errorf("%s: err %v; want ErrModel naming %q and never the key", tc.name, err, tc.want)
		}
	}

	handler = reply
	if res := m.Check(context.Background()); res.Model != "served-7b" || !res.ValidJSON || res.Error != "" {
		t.Errorf("Check = %+v", res)
	}
}
