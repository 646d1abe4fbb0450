package api

import (
	_ "embed"
	"net/http"
)

// openAPIDocument describes every route; openapi_test.go fails when a route
// exists that it lacks.
//
//go:embed openapi.json
var openAPIDocument []byte

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, err := w.Write(openAPIDocument)
	return err
}
