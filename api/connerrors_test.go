package api

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestListenerAnswersNetHTTPErrorsInJSON runs a real http.Server on the
// wrapped loopback listener: net/http's own 431 and 400 arrive as the
// error envelope, everything else byte for byte as the handlers wrote it.
func TestListenerAnswersNetHTTPErrorsInJSON(t *testing.T) {
	var logs bytes.Buffer
	s := New(Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	ts := httptest.NewUnstartedServer(s)
	ts.Listener = s.Listener(ts.Listener)
	ts.Config.MaxHeaderBytes = MaxHeaderBytes
	ts.Start()
	defer ts.Close()

	raw := func(request string) string {
		t.Helper()
		conn, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		go func() { _, _ = io.WriteString(conn, request) }()
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		out, _ := io.ReadAll(conn)
		return string(out)
	}
	for _, c := range []struct {
		name, request, status string
	}{
		{"headers over the limit", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + strings.Repeat("p", 3*MaxHeaderBytes) + "\r\n\r\n", "431 Request Header Fields Too Large"},
		{"malformed header", "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", "400 Bad Request"},
		{"missing Host", "GET /healthz HTTP/1.1\r\n\r\n", "400 Bad Request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := raw(c.request)
			head, body, ok := strings.Cut(out, "\r\n\r\n")
			if !ok || !strings.HasPrefix(head, "HTTP/1.1 "+c.status+"\r\n") ||
				!strings.Contains(head, "Content-Type: application/json") || !strings.Contains(head, "X-Request-Id: req_") {
				t.Fatalf("answer:\n%s", out)
			}
			var env errorBody
			if err := json.Unmarshal([]byte(body), &env); err != nil || env.Error.Code != "invalid_request" ||
				!strings.Contains(head, "X-Request-Id: "+env.Error.RequestID+"\r\n") {
				t.Errorf("body %q (%v)", body, err)
			}
		})
	}
	// A handler's answer passes through untouched, also as plain text.
	resp, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.TrimSpace(string(body)) != `{"status":"ok"}` {
		t.Errorf("healthz through the wrapper: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(logs.String(), `"status":431`) {
		t.Errorf("no log line for the 431:\n%s", logs.String())
	}
}

func TestParseGoErrorOnlyMatchesWholeAnswers(t *testing.T) {
	for _, c := range []struct {
		write string
		want  int
	}{
		{"HTTP/1.1 431 Request Header Fields Too Large" + goErrorHeaders + "431 Request Header Fields Too Large", 431},
		{"HTTP/1.1 400 Bad Request: missing required Host header" + goErrorHeaders + "400 Bad Request: missing required Host header", 400},
		{"HTTP/1.1 400 Bad Request" + goErrorHeaders + "400 Bad Request", 400},
		{"HTTP/1.1 501 Not Implemented" + goErrorHeaders + "Unsupported transfer encoding", 0},
		{"HTTP/1.1 431 Request Header Fields Too Large" + goErrorHeaders + "something else", 0},
		{"HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nDate: x\r\n\r\nhi", 0},
		{"%PDF-1.7 HTTP/1.1 431", 0},
	} {
		status, _, ok := parseGoError([]byte(c.write))
		if (c.want == 0) == ok || status != c.want {
			t.Errorf("%q: %d %v, want %d", c.write, status, ok, c.want)
		}
	}
}
