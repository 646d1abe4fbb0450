package api

import "net/http"

// healthz answers while the process serves HTTP at all.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// readyz answers 200 only while the server takes work: not while draining
// for shutdown, and not when the database does not answer.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	if s.draining.Load() {
		return errorf(http.StatusServiceUnavailable, "unavailable", "Shutting down.")
	}
	if err := s.store.Ping(); err != nil {
		s.log.Error("readiness: database", "error", err)
		return errorf(http.StatusServiceUnavailable, "unavailable", "The database does not answer.")
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	return nil
}
