package api

import (
	"net/http"

	"planreview/ui"
)

// home shows operators and integrators what this server is.
func (s *Server) home(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
	return ui.Home(ui.HomeInfo{Version: s.opts.Version, APIVersion: APIVersion, PublicURL: s.opts.PublicURL}).Render(r.Context(), w)
}

// APIVersion is the published contract's version.
const APIVersion = "1.0.0"

var assetServer = http.FileServerFS(ui.Assets())

// asset serves the embedded stylesheets and scripts of the HTML pages.
func (s *Server) asset(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "public, max-age=3600")
	http.StripPrefix("/assets", assetServer).ServeHTTP(w, r)
	return nil
}
