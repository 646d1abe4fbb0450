package cmd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"planreview/api"
	"planreview/api/signing"
	"planreview/chat"
	"planreview/embed/sheetimage"
	"planreview/metrics"
	"planreview/scan"
	"planreview/store"
	"planreview/store/blob"
	"planreview/store/durable"
)

func newServeCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the appliance: partner API, uploads and scans",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := a.config(cmd)
			if err != nil {
				return err
			}
			logs := newLogBuffer(cmd.ErrOrStderr())
			defer logs.Close()
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			log := newLogger(cfg, logs)
			warnUnknownEnv(log.Warn)
			return serve(ctx, cfg, log)
		},
	}
	cmd.Flags().String("listen", "", "address to listen on (default 127.0.0.1:8080)")
	cmd.Flags().String("public-url", "", "URL partners and browsers use to reach this server (default http://LISTEN)")
	return cmd
}

// serve runs the appliance until ctx ends, then shuts down in order.
func serve(ctx context.Context, cfg Config, log *slog.Logger) error {
	ap, err := startAppliance(cfg, log)
	if err != nil {
		return err
	}
	// SIGHUP reloads the TLS certificate; listened for before the serving
	// line, so a reload sent as soon as it appears cannot kill the process.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	log.Info("planreview serving", "addr", ap.Addr(), "public_url", ap.publicURL,
		"data_dir", cfg.Data.Dir, "admin_socket", cfg.AdminSocket(), "metrics_addr", ap.metricsAddr)
wait:
	for {
		select {
		case <-hup:
			ap.reloadCertificate()
		case <-ctx.Done():
			log.Info("shutting down", "timeout", cfg.Server.ShutdownTimeout)
			break wait
		case err = <-ap.failed:
			log.Error("server failed", "error", err)
			break wait
		}
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.Server.ShutdownTimeout)
	defer cancel()
	return errors.Join(err, ap.Shutdown(shutdownCtx))
}

// appliance is a running server: listeners, background workers, database.
type appliance struct {
	log       *slog.Logger
	db        *store.DB
	api       *api.Server
	http      *http.Server
	admin     *http.Server
	listener  net.Listener
	publicURL string
	socket    string
	workers   sync.WaitGroup
	stopWork  context.CancelFunc
	pipeline  *scan.Pipeline
	failed    chan error
	closeOnce sync.Once

	cert        *certReloader // TLS pair, reloaded on SIGHUP; nil without TLS
	metricsHTTP *http.Server  // on metrics.listen; nil when not set
	metricsAddr string
	pages       *sheetimage.Renderer
}

// sheetImageModuleCache, when set, is where wazero keeps compiled PDFium
// instead of the data folder: tests share one across temp data folders.
var sheetImageModuleCache string

// startAppliance opens the data folder and starts serving. Every resource
// opened before a failure is closed again.
func startAppliance(cfg Config, log *slog.Logger) (_ *appliance, err error) {
	netw, err := loadNetwork(cfg)
	if err != nil {
		return nil, err
	}
	if err := cfg.ensureDataDir(); err != nil {
		return nil, err
	}
	// A crash during a durable write leaves its temp file; the target file
	// is intact, so the temp is only litter.
	if err := durable.RemoveTemps(cfg.Data.Dir); err != nil {
		log.Warn("remove temp files left by a crash", "error", err)
	}
	db, err := store.Open(cfg.DBPath(), store.Options{})
	if errors.Is(err, store.ErrDatabaseLocked) {
		return nil, fmt.Errorf("%w: is another planreview serving %s?", err, cfg.Data.Dir)
	}
	if err != nil {
		return nil, err
	}
	ap := &appliance{log: log, db: db, failed: make(chan error, 3), cert: netw.cert}
	defer func() {
		if err != nil {
			ap.Shutdown(context.Background())
		}
	}()
	signer, err := signing.LoadOrCreate(cfg.SecretPath())
	if err != nil {
		return nil, err
	}
	blobs, err := blob.Open(cfg.FilesDir())
	if err != nil {
		return nil, err
	}
	sweepBlobs(cfg, db, blobs, log, time.Now())
	pipeline, err := scan.NewPipeline(cfg.Codes.Adopted, cfg.Codes.Jurisdiction, cfg.Scan.MaxPages)
	if err != nil {
		return nil, fmt.Errorf("codes.adopted: %w", err)
	}
	pipeline.Budgets = cfg.Scan.Budgets.PDFBudgets()
	pipeline.HeapLimit = uint64(cfg.Scan.MemoryLimitMB) << 20
	// One memory ceiling for the process: the scans' heap and the sheet
	// images' PDFium memory (outside the Go heap) draw from it together.
	renderMemory := &sheetimage.MemoryBudget{Ceiling: pipeline.HeapLimit}
	pipeline.ExternalMemory = renderMemory.InUse
	if os.Getenv("GOMEMLIMIT") == "" {
		// The collector works harder as memory nears the ceiling (plus
		// room for stacks and runtime structures), so garbage does not
		// push the process past it between the scans' heap checks, which
		// do not force a collection for garbage. Plus 32 MiB collected so
		// often that the API's p99 latency doubled under scans. What
		// PDFium holds is outside the Go heap, so the heap's share shrinks
		// by it while a page renders.
		softLimit := int64(cfg.Scan.MemoryLimitMB+64) << 20
		debug.SetMemoryLimit(softLimit)
		renderMemory.Changed = func(inUse uint64) { debug.SetMemoryLimit(softLimit - int64(inUse)) }
	}
	if ap.listener, err = net.Listen("tcp", cfg.Server.Listen); err != nil {
		return nil, fmt.Errorf("server.listen: %w", err)
	}
	if cfg.Server.PublicURL == "" {
		// The bound address, not the configured one: with port 0 only the
		// listener knows the port that signed URLs must name.
		cfg.Server.PublicURL = cfg.ListenScheme() + "://" + ap.listener.Addr().String()
	}
	if ap.cert != nil {
		ap.listener = tls.NewListener(ap.listener, ap.cert.tlsConfig())
	}
	ap.publicURL = cfg.PublicBaseURL()
	pipeline.Laws, pipeline.Settings = db, cfg.LawSettings()
	model, err := newModel(cfg, log)
	if err != nil {
		ap.listener.Close()
		ap.listener = nil
		return nil, err
	}
	pipeline.Model, pipeline.ModelConcurrency, pipeline.Log = model, cfg.Model.MaxConcurrency, log
	ap.pipeline = pipeline
	meters := metrics.New(version, db.ScanQueueDepth)
	if ap.cert != nil {
		meters.CertificateExpiry(ap.cert.notAfter)
	}
	runner := &scan.Runner{Store: db, Blobs: blobs, Pipeline: pipeline, Workers: cfg.ScanWorkers(),
		Timeout: cfg.Scan.Timeout, MaxAttempts: cfg.Scan.MaxAttempts, Log: log, Busy: reserveProcsForRequests(), Observer: meters}
	// Sheet images for the hosted screens: PDFium (WebAssembly) compiles
	// in the background so start-up does not wait for it.
	ap.pages = &sheetimage.Renderer{CacheDir: filepath.Join(cfg.Data.Dir, "sheet-images"),
		ModuleCacheDir: cfg.Embed.PDFiumCacheDir, Compile: compilePDFiumOutOfProcess, Memory: renderMemory}
	if sheetImageModuleCache != "" {
		// In-process test servers: the test binary is not planreview, so
		// it compiles here, once, into a folder the tests share.
		ap.pages.ModuleCacheDir, ap.pages.Compile = sheetImageModuleCache, nil
	}
	ap.pages.Start()
	runner.Completed = func(ctx context.Context, files []store.File) {
		for _, f := range files {
			if f.SHA256 == "" || f.PageCount == nil {
				continue
			}
			path, sum, pages := blobs.Path(f.ID, f.SHA256), f.SHA256, *f.PageCount
			ap.goWork("sheet images", func() { ap.pages.Prerender(ctx, path, sum, pages) })
		}
	}
	if cfg.Model.Vision {
		pipeline.PageImage = func(ctx context.Context, path string, page int) ([]byte, error) {
			// Uploads are stored as <sha256>.pdf: the name is the cache key.
			return ap.pages.Page(ctx, path, strings.TrimSuffix(filepath.Base(path), ".pdf"), page, sheetimage.SizeScreen)
		}
	}
	deliverer, webhookOpts, err := newDeliverer(cfg, db, signer, meters, log)
	if err != nil {
		ap.listener.Close()
		ap.listener = nil
		return nil, err
	}
	ap.api = api.New(api.Options{
		Store: db, Blobs: blobs, Signer: signer, Logger: log, PublicURL: cfg.PublicBaseURL(), Version: version,
		UploadURLTTL: cfg.Uploads.URLTTL, DownloadURLTTL: cfg.Downloads.URLTTL, CORSOrigins: cfg.Uploads.CORSOrigins,
		RateLimit: cfg.Limits.RateLimit, RateBurst: cfg.Limits.RateBurst, ScanQuota: cfg.Limits.ScanQuota,
		ScanQueued: runner.Wake,
		Metrics:    meters, MetricsHandler: meters.Handler(), MetricsToken: netw.metricsToken,
		TrustedProxies: netw.trustedProxies,
		Chat:           chat.NewResponder(model, log),
		EmbedLinkTTL:   cfg.Embed.LinkTTL, Pages: ap.pages, PDFBudgets: pipeline.Budgets,
		Webhooks: webhookOpts,
	})
	if err := ap.startMetricsListener(cfg, meters, netw.metricsToken, log); err != nil {
		ap.listener.Close()
		ap.listener = nil
		return nil, err
	}
	adminListener, err := listenAdminSocket(cfg.AdminSocket())
	if err != nil {
		ap.listener.Close()
		ap.listener = nil
		return nil, err
	}
	ap.socket = cfg.AdminSocket() // ours now: Shutdown removes it
	errorLog := slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	ap.http = &http.Server{
		Handler:           ap.api,
		ReadHeaderTimeout: cfg.Server.ReadHeaderTimeout,
		ReadTimeout:       cfg.Server.ReadTimeout,
		WriteTimeout:      cfg.Server.WriteTimeout,
		IdleTimeout:       cfg.Server.IdleTimeout,
		MaxHeaderBytes:    api.MaxHeaderBytes,
		ErrorLog:          errorLog,
	}
	ap.admin = &http.Server{
		Handler: api.AdminHandler(&api.Admin{Store: db, Laws: db, Changed: ap.api.KeysChanged, LawsChanged: ap.warmLaws, Blobs: blobs, SigningKeyPath: cfg.SecretPath(), Version: version,
			Webhooks: db, WebhooksChanged: deliverer.Wake}, log),
		ReadHeaderTimeout: cfg.Server.ReadHeaderTimeout,
		ErrorLog:          errorLog,
	}
	go ap.serveOn(ap.http, ap.api.Listener(ap.listener)) // JSON bodies for net/http's own 400/431
	go ap.serveOn(ap.admin, adminListener)

	workCtx, stopWork := context.WithCancel(context.Background())
	ap.stopWork = stopWork
	ap.goWork("maintenance", func() { ap.api.RunMaintenance(workCtx) })
	ap.goWork("scan runner", func() { runner.Run(workCtx) })
	ap.goWork("webhook delivery", func() { deliverer.Run(workCtx) })
	ap.warmLaws()
	return ap, nil
}

// warmLaws compiles the certified local-law snapshots in the background
// (at start and after laws import/certify), so no scan waits for it.
func (ap *appliance) warmLaws() {
	ap.goWork("warm local-law snapshots", func() {
		if err := ap.pipeline.WarmLaws(); err != nil {
			ap.log.Warn("compile local-law snapshots", "error", err)
		}
	})
}

func (ap *appliance) serveOn(srv *http.Server, ln net.Listener) {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		ap.failed <- err
	}
}

// goWork runs a background worker that shutdown waits for. A panic is
// logged instead of taking the server down.
func (ap *appliance) goWork(name string, fn func()) {
	ap.workers.Add(1)
	go func() {
		defer ap.workers.Done()
		defer func() {
			if v := recover(); v != nil {
				ap.log.Error("background worker panicked", "worker", name, "panic", v)
			}
		}()
		fn()
	}()
}

// Addr is the address the partner API listens on.
func (ap *appliance) Addr() string { return ap.listener.Addr().String() }

// Shutdown stops in dependency order: HTTP first (in-flight requests
// finish), then background workers, then the database.
func (ap *appliance) Shutdown(ctx context.Context) error {
	var errs []error
	ap.closeOnce.Do(func() {
		if ap.api != nil {
			ap.api.Drain()
		}
		for _, srv := range []*http.Server{ap.http, ap.admin, ap.metricsHTTP} {
			if srv == nil {
				continue
			}
			if err := srv.Shutdown(ctx); err != nil {
				errs = append(errs, fmt.Errorf("http shutdown: %w", err))
				srv.Close()
			}
		}
		if ap.stopWork != nil {
			ap.stopWork()
		}
		ap.workers.Wait()
		if ap.pages != nil {
			ap.pages.Close()
		}
		if ap.db != nil {
			if err := ap.db.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		if ap.socket != "" {
			os.Remove(ap.socket)
		}
	})
	return errors.Join(errs...)
}

// reserveProcsForRequests returns the runner's Busy hook: while scans run,
// the Go scheduler gets one extra P per running scan (up to the CPU
// count). Scans are CPU-bound and would otherwise hold every P, leaving API
// requests to wait for a 10 ms scheduler slice (measured: GET p99 45-76 ms
// during two scans on 2 cores, 8-18 ms with the extra Ps; docs/bench-scan.md).
// When no scan runs the default comes back, since extra Ps cost request
// throughput. An explicit GOMAXPROCS in the environment is left alone.
func reserveProcsForRequests() func(running int) {
	if os.Getenv("GOMAXPROCS") != "" {
		return nil
	}
	base := runtime.GOMAXPROCS(0) // already fitted to the CPU quota
	return func(running int) {
		runtime.GOMAXPROCS(base + min(running, base))
	}
}

// listenAdminSocket listens on the admin socket, private to the service
// user (0600). A socket left by a crashed server is replaced; one that
// answers belongs to a live server and is an error.
func listenAdminSocket(path string) (net.Listener, error) {
	if conn, err := net.DialTimeout("unix", path, time.Second); err == nil {
		conn.Close()
		return nil, fmt.Errorf("admin socket %s: another planreview is serving this data folder", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("admin socket %s: %w (a data folder path over ~100 characters is too long for a socket)", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	return ln, nil
}
