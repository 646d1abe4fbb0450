package api

import (
	"net/http"
	"slices"
	"strings"

	"planreview/embed"
)

// route is one method and path pattern of the appliance.
type route struct {
	method, path string
	handler      http.Handler
}

// routeTable lists every route of the appliance in one place; the OpenAPI
// test walks it to make sure the document describes each one.
func (s *Server) routeTable() []route {
	return []route{
		{"GET", "/api/v1/ping", s.partnerAPI(s.ping)},
		{"POST", "/api/v1/jobs", s.partnerAPI(s.idempotent(s.createJob))},
		{"GET", "/api/v1/jobs", s.partnerAPI(s.listJobs)},
		{"GET", "/api/v1/jobs/{jobId}", s.partnerAPI(s.getJob)},
		{"POST", "/api/v1/jobs/{jobId}/files", s.partnerAPI(s.idempotent(s.registerFile))},
		{"GET", "/api/v1/jobs/{jobId}/files", s.partnerAPI(s.listFiles)},
		{"GET", "/api/v1/jobs/{jobId}/files/{fileId}", s.partnerAPI(s.getFile)},
		{"DELETE", "/api/v1/jobs/{jobId}/files/{fileId}", s.partnerAPI(s.deleteFile)},
		{"POST", "/api/v1/jobs/{jobId}/scan", s.partnerAPI(s.idempotent(s.startScan))},
		{"GET", "/api/v1/jobs/{jobId}/findings", s.partnerAPI(s.getFindings)},
		{"POST", "/api/v1/jobs/{jobId}/findings", s.partnerAPI(s.idempotent(s.createComment))},
		{"PATCH", "/api/v1/jobs/{jobId}/findings/{findingId}", s.partnerAPI(s.patchFinding)},
		{"GET", "/api/v1/jobs/{jobId}/audit", s.partnerAPI(s.getAudit)},
		{"GET", "/api/v1/jobs/{jobId}/letter", s.partnerAPI(s.getLetter)},
		{"GET", "/api/v1/jobs/{jobId}/compare", s.partnerAPI(s.compareVersions)},
		{"GET", "/api/v1/comment-templates", s.partnerAPI(s.listTemplates)},
		{"POST", "/api/v1/comment-templates", s.partnerAPI(s.idempotent(s.createTemplate))},
		{"DELETE", "/api/v1/comment-templates/{templateId}", s.partnerAPI(s.deleteTemplate)},
		{"GET", "/api/v1/jobs/{jobId}/export/csv", s.partnerAPI(s.exportCSV)},
		{"GET", "/api/v1/jobs/{jobId}/files/{fileId}/annotated", s.partnerAPI(s.annotatedURL)},
		{"POST", "/api/v1/jobs/{jobId}/chat", s.partnerAPI(s.chat)},
		{"GET", "/api/v1/openapi.json", s.publicAPI(s.openAPI)},
		{"POST", "/api/v1/embed", s.partnerAPI(s.createEmbed)},
		{"POST", "/api/v1/webhooks", s.partnerAPI(s.createWebhook)},
		{"GET", "/api/v1/webhooks", s.partnerAPI(s.listWebhooks)},
		{"GET", "/api/v1/webhooks/{webhookId}", s.partnerAPI(s.getWebhook)},
		{"DELETE", "/api/v1/webhooks/{webhookId}", s.partnerAPI(s.deleteWebhook)},
		{"POST", "/api/v1/webhooks/{webhookId}/rotate-secret", s.partnerAPI(s.rotateWebhookSecret)},
		{"GET", "/api/v1/events", s.partnerAPI(s.listEvents)},
		{"GET", "/api/v1/events/{eventId}", s.partnerAPI(s.getEvent)},

		// Hosted screens (embed.go): pages answer HTML, /embed/api/ JSON.
		{"GET", "/embed/login", s.handle(wrapHTTP(s.embedScreen(embed.ScreenLogin)))},
		{"GET", "/embed/job/{jobId}", s.handle(wrapHTTP(s.embedScreen(embed.ScreenJob)))},
		{"GET", "/embed/chat/{jobId}", s.handle(wrapHTTP(s.embedScreen(embed.ScreenChat)))},
		{"GET", "/embed/api/jobs", s.embedAPI(s.listEmbedJobs, embed.ScreenLogin)},
		{"GET", "/embed/api/jobs/{jobId}", s.embedAPI(s.getJob, embed.ScreenJob, embed.ScreenChat)},
		{"GET", "/embed/api/jobs/{jobId}/files", s.embedAPI(s.listFiles, embed.ScreenJob)},
		{"POST", "/embed/api/jobs/{jobId}/files", s.embedAPI(s.registerFile, embed.ScreenJob)},
		{"POST", "/embed/api/jobs/{jobId}/scan", s.embedAPI(s.startScan, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/findings", s.embedAPI(s.getFindings, embed.ScreenJob)},
		{"POST", "/embed/api/jobs/{jobId}/findings", s.embedAPI(s.createComment, embed.ScreenJob)},
		{"PATCH", "/embed/api/jobs/{jobId}/findings/{findingId}", s.embedAPI(s.patchFinding, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/audit", s.embedAPI(s.getAudit, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/letter", s.embedAPI(s.getLetter, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/compare", s.embedAPI(s.compareVersions, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/comment-templates", s.embedAPI(s.listTemplates, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/export/csv", s.embedAPI(s.exportCSVDownload, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/files/{fileId}/annotated", s.embedAPI(s.annotatedURL, embed.ScreenJob)},
		{"GET", "/embed/api/jobs/{jobId}/files/{fileId}/pages/{page}", s.embedAPI(s.pageImage, embed.ScreenJob, embed.ScreenChat)},
		{"GET", "/embed/api/jobs/{jobId}/files/{fileId}/pages/{page}/tiles/{level}/{x}/{y}", s.embedAPI(s.pageTile, embed.ScreenJob, embed.ScreenChat)},
		{"GET", "/embed/api/jobs/{jobId}/files/{fileId}/pages/{page}/words", s.embedAPI(s.citedWords, embed.ScreenJob, embed.ScreenChat)},
		{"POST", "/embed/api/jobs/{jobId}/chat", s.embedAPI(s.chat, embed.ScreenChat)},
		{"POST", "/embed/api/jobs/{jobId}/chat-link", s.embedAPI(s.chatLink, embed.ScreenJob)},

		{"PUT", "/uploads/{fileId}", s.handle(s.upload)},
		{"OPTIONS", "/uploads/{fileId}", s.handle(s.uploadPreflight)},
		{"GET", "/downloads/{fileId}/marked-up.pdf", s.handle(s.download)},

		{"GET", "/{$}", s.handle(s.home)},
		{"GET", "/assets/{name}", s.handle(s.asset)},
		{"GET", "/healthz", s.handle(s.healthz)},
		{"GET", "/readyz", s.handle(s.readyz)},
		{"GET", "/metrics", s.handle(s.metricsEndpoint)},
	}
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range s.routeTable() {
		mux.Handle(rt.method+" "+rt.path, rt.handler)
	}
	// Everything else: a JSON 404, or a JSON 405 when the path exists for
	// another method (the mux's own answers are plain text).
	mux.Handle("/", s.handle(func(w http.ResponseWriter, r *http.Request) error {
		if strings.HasPrefix(r.URL.Path, "/api/v1/") {
			if err := s.limitByAddress(w, r); err != nil {
				return err
			}
		}
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

// wrapHTTP lets a plain handler sit in the route table.
func wrapHTTP(h http.Handler) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		h.ServeHTTP(w, r)
		return nil
	}
}
