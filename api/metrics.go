package api

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"time"
)

// Metrics receives what the API measures; *metrics.Metrics implements it.
type Metrics interface {
	Request(route, method string, status int, took time.Duration)
	UploadBytes(n int64)
	Refused(code, limit string)
}

type noMetrics struct{}

func (noMetrics) Request(string, string, int, time.Duration) {}
func (noMetrics) UploadBytes(int64)                          {}
func (noMetrics) Refused(string, string)                     {}

// unmatchedRoute is the route label of requests no route pattern matched
// (404s and 405s), so scanners probing random paths cannot grow the label set.
const unmatchedRoute = "unmatched"

// routeLabel is the path of the mux pattern that served r ("GET
// /api/v1/jobs/{jobId}" gives "/api/v1/jobs/{jobId}"). The mux sets
// r.Pattern on the request observe passed it.
func routeLabel(r *http.Request) string {
	_, path, ok := strings.Cut(r.Pattern, " ")
	if !ok {
		path = r.Pattern
	}
	if path == "" || path == "/" {
		return unmatchedRoute
	}
	return path
}

// methodLabel bounds the method label the same way: a client may send any
// token as a method.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

// metricsEndpoint serves /metrics on the main listener to a scraper that
// sends the configured token (metrics.token_file). Without a token it does
// not exist here (404): the metrics then live on metrics.listen, if at all.
func (s *Server) metricsEndpoint(w http.ResponseWriter, r *http.Request) error {
	if s.opts.MetricsHandler == nil || s.opts.MetricsToken == "" {
		return errNotFound
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") ||
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(token)), []byte(s.opts.MetricsToken)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
		return errorf(http.StatusUnauthorized, "unauthorized", "Send Authorization: Bearer with the token of metrics.token_file.")
	}
	s.opts.MetricsHandler.ServeHTTP(w, r)
	return nil
}
