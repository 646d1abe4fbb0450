// Package api serves the partner API (/api/v1), the signed upload and
// download URLs, and health checks.
package api

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"sync/atomic"
	"time"

	"planreview/api/signing"
	"planreview/chat"
	"planreview/scan/pdftext"
	"planreview/store"
	"planreview/store/blob"
	"planreview/webhooks"
)

// Store is what the API needs of the database.
type Store interface {
	Ping() error
	KeyByHash(hash string) (store.Key, error)
	Partner(id string) (store.Partner, error)
	CreateJobWithReply(j store.Job, reply *store.Reply[store.JobWithVersion]) (store.Job, store.Version, error)
	Job(partnerID, jobID string) (store.Job, []store.Version, error)
	Jobs(partnerID string, q store.JobQuery) ([]store.JobWithVersion, string, error)
	RegisterFileWithReply(partnerID, jobID string, f store.File, maxPerVersion int, reply *store.Reply[store.File]) (store.File, error)
	Files(partnerID, jobID, versionID string) ([]store.File, error)
	File(fileID string) (store.File, error)
	UploadTarget(fileID string) (store.File, error)
	CommitUpload(fileID string, size int64, sha256 string) (store.File, string, error)
	Idempotency(partnerID, key string) (store.IdempotencyRecord, error)
	PurgeIdempotency(cutoff time.Time) (int, error)
	StartScan(req store.ScanRequest) (store.Version, bool, error)
	Findings(partnerID, jobID, versionID string) (store.Version, []store.Finding, error)
	Compare(partnerID, jobID, fromID, toID string) (store.Comparison, error)
	JobFile(partnerID, jobID, fileID string) (store.File, store.Version, error)
	DeleteFile(partnerID, jobID, fileID string) (store.File, error)
	ChatIndex(partnerID, jobID, versionID string, need func(versionID string) bool) (store.Version, []byte, bool, error)

	UpdateFinding(partnerID, jobID, findingID string, ch store.FindingChange) (store.ChangedFinding, error)
	AddExaminerFinding(partnerID, jobID string, f store.Finding, actor store.Actor, reply *store.Reply[store.ChangedFinding]) (store.ChangedFinding, error)
	Audit(partnerID, jobID string, q store.AuditQuery) ([]store.AuditEvent, string, error)
	CreateTemplate(t store.CommentTemplate, reply *store.Reply[store.CommentTemplate]) (store.CommentTemplate, error)
	Templates(partnerID string) ([]store.CommentTemplate, error)
	Template(partnerID, templateID string) (store.CommentTemplate, error)
	DeleteTemplate(partnerID, templateID string) error
	VersionFindings(versionID string) (store.Version, []store.Finding, error)
	SetAnnotatedRevision(fileID string, revision int) error
}

// Blobs is what the API needs of the blob store.
type Blobs interface {
	Put(fileID string, r io.Reader, size int64) (blob.Stored, error)
	Prune(fileID, keep string) error
	AnnotatedPath(fileID string) string
	Remove(fileID string) error
	Path(fileID, sum string) string
}

// Options configure a Server.
type Options struct {
	Store     Store
	Blobs     Blobs
	Signer    *signing.Signer
	Logger    *slog.Logger
	PublicURL string // scheme://host[:port], no trailing slash
	Version   string // of the binary, shown on the front page

	UploadURLTTL   time.Duration
	DownloadURLTTL time.Duration // marked-up PDF links
	CORSOrigins    []string      // origins allowed to PUT uploads from a browser

	RateLimit float64 // default requests per second per key
	RateBurst int     // default bucket size per key
	ScanQuota int     // default scans per partner per rolling 24 h

	// Metrics receives request counts and timings; nil measures nothing.
	Metrics Metrics
	// MetricsHandler serves GET /metrics on this listener to callers with
	// MetricsToken; without a token the route is 404.
	MetricsHandler http.Handler
	MetricsToken   string
	// TrustedProxies are the peers whose Forwarded / X-Forwarded-For
	// headers name the client (rate limits and logs use that address).
	TrustedProxies []netip.Prefix
	EmbedLinkTTL   time.Duration // hosted-screen links (endpoint 12)
	Pages          PageImages    // sheet images of the screens; nil: none
	// PDFBudgets bound the extractor when a screen asks where words are
	// on a page (scan.budgets, as for scans; zero fields: the defaults).
	PDFBudgets pdftext.Budgets

	// ScanQueued is called after a scan was queued, to wake the runner.
	ScanQueued func()
	// Chat answers chat questions (nil: the built-in answerer, no model).
	Chat Chat
	// Webhooks configure POST /webhooks (webhooks.go).
	Webhooks WebhookOptions

	Now func() time.Time
}

// Server is the HTTP face of the appliance.
type Server struct {
	opts     Options
	store    Store
	blobs    Blobs
	signer   *signing.Signer
	log      *slog.Logger
	limiter  *limiter
	auth     authCache
	idem     *idempotency
	now      func() time.Time
	handler  http.Handler
	draining atomic.Bool

	metrics    Metrics
	proxies    proxies
	openAPIDoc []byte // the document with servers naming PublicURL
	chatter    Chat

	webhookSealer *webhooks.Sealer // nil: no webhook routes (no signer)
}

// maxFilesPerVersion is the contract's limit on files in one version.
const maxFilesPerVersion = 100

// New builds the server and its routes.
func New(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// The contract's lifetimes, unless configured otherwise.
	if opts.UploadURLTTL == 0 {
		opts.UploadURLTTL = time.Hour
	}
	if opts.DownloadURLTTL == 0 {
		opts.DownloadURLTTL = 15 * time.Minute
	}
	if opts.EmbedLinkTTL == 0 {
		opts.EmbedLinkTTL = 30 * time.Minute
	}
	if opts.ScanQuota == 0 {
		opts.ScanQuota = 200
	}
	// Zero rate settings would refuse every request (an empty bucket that
	// never refills); they mean the contract's defaults.
	if opts.RateLimit <= 0 {
		opts.RateLimit = 20
	}
	if opts.RateBurst <= 0 {
		opts.RateBurst = 100
	}
	s := &Server{
		opts: opts, store: opts.Store, blobs: opts.Blobs, signer: opts.Signer,
		log: opts.Logger, limiter: newLimiter(opts.Now), now: opts.Now,
	}
	s.idem = newIdempotency(opts.Store, opts.Now)
	s.metrics, s.proxies = opts.Metrics, proxies(opts.TrustedProxies)
	if s.metrics == nil {
		s.metrics = noMetrics{}
	}
	s.openAPIDoc = openAPIFor(opts.PublicURL)
	s.chatter = opts.Chat
	if s.chatter == nil {
		s.chatter = chat.NewResponder(nil, opts.Logger)
	}
	s.webhookSealer = opts.Webhooks.Sealer
	if s.webhookSealer == nil && opts.Signer != nil {
		s.webhookSealer, _ = webhooks.SealerFromSigner(opts.Signer) // a signer's key is 32+ bytes: never fails
	}
	s.handler = s.observe(s.routes())
	return s
}

// ServeHTTP serves every route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Drain makes /readyz fail so a load balancer stops sending work while the
// server shuts down.
func (s *Server) Drain() { s.draining.Store(true) }

// RunMaintenance purges expired idempotency records and idle rate-limit
// buckets until ctx ends.
func (s *Server) RunMaintenance(ctx context.Context) {
	tick := time.NewTicker(10 * time.Minute)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.limiter.sweep(time.Hour)
			if n, err := s.store.PurgeIdempotency(s.now().Add(-idempotencyTTL)); err != nil {
				s.log.Error("purge idempotency records", "error", err)
			} else if n > 0 {
				s.log.Info("purged idempotency records", "count", n)
			}
		}
	}
}
