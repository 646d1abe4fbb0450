package api

import (
	"net/http"
	"slices"
	"strings"
)

// routes lists every route of the appliance in one place.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()

	mux.Handle("GET /api/v1/ping", s.partnerAPI(s.ping))
	mux.Handle("POST /api/v1/jobs", s.partnerAPI(s.idempotent(s.createJob)))
	mux.Handle("GET /api/v1/jobs", s.partnerAPI(s.listJobs))
	mux.Handle("GET /api/v1/jobs/{jobId}", s.partnerAPI(s.getJob))
	mux.Handle("POST /api/v1/jobs/{jobId}/files", s.partnerAPI(s.idempotent(s.registerFile)))
	mux.Handle("GET /api/v1/jobs/{jobId}/files", s.partnerAPI(s.listFiles))
	mux.Handle("GET /api/v1/openapi.json", s.handle(s.openAPI))

	mux.Handle("PUT /uploads/{fileId}", s.handle(s.upload))
	mux.Handle("OPTIONS /uploads/{fileId}", s.handle(s.uploadPreflight))

	mux.Handle("GET /healthz", s.handle(s.healthz))
	mux.Handle("GET /readyz", s.handle(s.readyz))

	// Everything else: a JSON 404, or a JSON 405 when the path exists for
	// another method (the mux's own answers are plain text).
	mux.Handle("/", s.handle(func(w http.ResponseWriter, r *http.Request) error {
		if allow := allowedMethods(mux, r); len(allow) > 0 {
			return &Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
				Message: "Method " + r.Method + " is not allowed here.", Allow: strings.Join(allow, ", ")}
		}
		return errNotFound
	}))
	return mux
}

// allowedMethods asks the mux which methods have a route for r's path.
func allowedMethods(mux *http.ServeMux, r *http.Request) []string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if slices.Contains(allow, http.MethodGet) {
		allow = append(allow, http.MethodHead)
	}
	return allow
}
