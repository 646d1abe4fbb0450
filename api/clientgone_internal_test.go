package api

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestClientGoneIsNotAnError: a request its client abandoned (a browser
// cancels the sheet images it scrolled past) ends as 499 in the access log
// with no ERROR line; the same cancellation with the client still there
// (the handler's own deadline) is a server fault.
func TestClientGoneIsNotAnError(t *testing.T) {
	var logged bytes.Buffer
	s := &Server{log: slog.New(slog.NewTextHandler(&logged, nil))}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest(http.MethodGet, "/embed/api/jobs/x/files/y/pages/1", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	s.writeError(w, r, fmt.Errorf("render: %w", context.Canceled))
	if w.Code != statusClientClosed || logged.Len() != 0 {
		t.Errorf("abandoned request: status %d, log %q", w.Code, logged.String())
	}

	r = httptest.NewRequest(http.MethodGet, "/embed/api/jobs/x/files/y/pages/1", nil)
	w = httptest.NewRecorder()
	s.writeError(w, r, fmt.Errorf("render: %w", context.DeadlineExceeded))
	if w.Code != http.StatusInternalServerError || !bytes.Contains(logged.Bytes(), []byte("level=ERROR")) {
		t.Errorf("own deadline: status %d, log %q", w.Code, logged.String())
	}
}
