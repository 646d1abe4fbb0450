package cmd

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestOversizedHeadersGetJSON: headers over the limit, however large, are
// answered 431 in the contract's error envelope by the real server (net/http
// alone answers plain text), and the server keeps serving.
func TestOversizedHeadersGetJSON(t *testing.T) {
	t.Parallel()
	dir := newDataDir(t)
	srv := startServer(t, dir)
	key := issueKey(t, dir, "Big Headers")
	for _, size := range []int{80 << 10, 2 << 20} {
		req, err := http.NewRequest(http.MethodGet, srv.base+"/api/v1/ping", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key.Key)
		req.Header.Set("X-Padding", strings.Repeat("p", size))
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
		if err != nil {
			t.Fatalf("%d-byte header: %v", size, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var env struct {
			Error struct{ Code, Message, RequestID string }
		}
		if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") ||
			json.Unmarshal(body, &env) != nil || env.Error.Code != "invalid_request" || env.Error.Message == "" ||
			env.Error.RequestID == "" || env.Error.RequestID != resp.Header.Get("X-Request-Id") {
			t.Errorf("%d-byte header: %d %v\n%s", size, resp.StatusCode, resp.Header, body)
		}
	}
	// A malformed request line is the same envelope with 400.
	conn, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, _ = conn.Write([]byte("GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n"))
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw, _ := io.ReadAll(conn)
	if !strings.HasPrefix(string(raw), "HTTP/1.1 400 ") || !strings.Contains(string(raw), `"code":"invalid_request"`) {
		t.Errorf("malformed header answered:\n%s", raw)
	}
	if ping(t, srv.base, key.Key) != http.StatusOK {
		t.Errorf("ping after oversized headers failed")
	}
	if !srv.logged("status=431", 5*time.Second) {
		t.Errorf("no access log line for the 431")
	}
}
