package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"planreview/api/apikey"
	"planreview/embed"
	"planreview/store"
)

type ctxKey int

const (
	ctxRequestInfo ctxKey = iota
	ctxPrincipal
	ctxIdempotency
)

// requestInfo collects what the access log line reports; inner layers fill
// it in as they learn (auth sets the key, writeError the code).
type requestInfo struct {
	id        string
	keyID     string
	partnerID string
	code      string
	client    string // address of the caller (behind trusted proxies: theirs)
	scheme    string // http or https, as the caller used it
}

func requestInfoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(ctxRequestInfo).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

// principal is the authenticated caller of a partner API request.
type principal struct {
	key     store.Key
	partner store.Partner
	// link is the embed link's claims on /embed/api/ (nil for a key).
	link *embed.Claims
}

func principalFrom(ctx context.Context) principal {
	p, _ := ctx.Value(ctxPrincipal).(principal)
	return p
}

func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

// statusWriter records the status and size of a response for the access log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// ReadFrom keeps sendfile for file downloads through the wrapper.
func (w *statusWriter) ReadFrom(r io.Reader) (int64, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := io.Copy(w.ResponseWriter, r)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// observe is the outermost layer: request id, panic recovery and one access
// log line per request. The log names the key id, never the secret, and of
// the path only the route pattern and well-formed ids (loggedPath), never
// the query (signed URLs carry their signature there).
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{id: newRequestID()}
		info.client, info.scheme = s.proxies.client(r)
		r = r.WithContext(context.WithValue(r.Context(), ctxRequestInfo, info))
		sw := &statusWriter{ResponseWriter: w}
		sw.Header().Set("X-Request-Id", info.id)
		defer func() {
			route, path := loggedPath(r)
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "request_id", info.id, "panic", v, "route", route, "path", path)
				if sw.status == 0 {
					s.writeError(sw, r, errorf(http.StatusInternalServerError, "internal", "Internal error; quote the request id when reporting it."))
				}
			}
			attrs := []slog.Attr{
				slog.String("method", r.Method), slog.String("route", route), slog.String("path", path),
				slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.String("request_id", info.id), slog.String("remote", info.client),
			}
			if info.scheme != "http" {
				attrs = append(attrs, slog.String("scheme", info.scheme))
			}
			if peer := peerHost(r.RemoteAddr); peer != info.client {
				attrs = append(attrs, slog.String("via", peer)) // the trusted proxy
			}
			if info.keyID != "" {
				attrs = append(attrs, slog.String("key_id", info.keyID), slog.String("partner_id", info.partnerID))
			}
			if info.code != "" {
				attrs = append(attrs, slog.String("code", info.code))
			}
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
			s.metrics.Request(routeLabel(r), methodLabel(r.Method), sw.status, time.Since(start))
		}()
		next.ServeHTTP(sw, r)
	})
}

// clientIP is the caller's address as observe resolved it (through
// trusted proxies).
func clientIP(r *http.Request) string {
	if info := requestInfoFrom(r.Context()); info.client != "" {
		return info.client
	}
	return peerHost(r.RemoteAddr)
}

var errUnauthorized = errorf(http.StatusUnauthorized, "unauthorized",
	"Missing or invalid API key. Send Authorization: Bearer prk_live_...")

// partnerAPI authenticates the bearer key and applies the key's rate
// limit. Callers without a valid key are limited per client address
// instead, which also slows down key guessing.
func (s *Server) partnerAPI(next handlerFunc) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		p, authErr := s.authenticate(r)
		if authErr != nil {
			if err := s.limitByAddress(w, r); err != nil {
				return err
			}
			return authErr
		}
		rate, burst := s.opts.RateLimit, s.opts.RateBurst
		if p.partner.RateLimit > 0 {
			rate = p.partner.RateLimit
		}
		if p.partner.RateBurst > 0 {
			burst = p.partner.RateBurst
		}
		if err := s.limit(w, "key:"+p.key.ID, rate, burst); err != nil {
			s.metrics.Refused("rate_limited", "key")
			return err
		}
		info := requestInfoFrom(r.Context())
		info.keyID, info.partnerID = p.key.ID, p.partner.ID
		return next(w, r.WithContext(context.WithValue(r.Context(), ctxPrincipal, p)))
	})
}

// publicAPI serves an /api/v1 route that needs no key, limited per client
// address like every /api/v1 request.
func (s *Server) publicAPI(next handlerFunc) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		if err := s.limitByAddress(w, r); err != nil {
			return err
		}
		return next(w, r)
	})
}

func (s *Server) limitByAddress(w http.ResponseWriter, r *http.Request) error {
	err := s.limit(w, "ip:"+clientIP(r), s.opts.RateLimit, s.opts.RateBurst)
	if err != nil {
		s.metrics.Refused("rate_limited", "address")
	}
	return err
}

// limit takes a token from a bucket and sets the RateLimit-* headers that
// every /api/v1 response carries; an empty bucket is 429 rate_limited.
func (s *Server) limit(w http.ResponseWriter, bucketKey string, rate float64, burst int) error {
	d := s.limiter.take(bucketKey, rate, burst)
	h := w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(d.limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(d.remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(d.reset))
	if !d.allowed {
		return &Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "Too many requests; retry after the Retry-After interval.", RetryAfter: d.retryAfter}
	}
	return nil
}

// authenticate checks the bearer key: shape and checksum first (no lookup
// for junk), then the stored hash, then that key and partner are active.
func (s *Server) authenticate(r *http.Request) (principal, error) {
	scheme, secret, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return principal{}, errUnauthorized
	}
	secret = strings.TrimSpace(secret)
	if apikey.Check(secret) != nil {
		return principal{}, errUnauthorized
	}
	hash := apikey.Hash(secret)
	p, ok := s.auth.get(hash)
	if !ok {
		key, err := s.store.KeyByHash(hash)
		if errors.Is(err, store.ErrNotFound) {
			return principal{}, errUnauthorized
		}
		if err != nil {
			return principal{}, err
		}
		partner, err := s.store.Partner(key.PartnerID)
		if err != nil {
			return principal{}, err
		}
		p = principal{key: key, partner: partner}
		s.auth.put(hash, p)
	}
	// Checked on every request, cached or not: a rotated key's grace ends
	// on time without any cache change.
	if !p.key.Active(s.now()) {
		return principal{}, errUnauthorized
	}
	return p, nil
}

// authCache keeps the keys (with their partners) that authenticated
// recently, by secret hash, so a request costs no database read. Every
// change to keys or partners goes through this process (the admin socket
// while serving) and clears it, so a revocation still takes effect at once.
type authCache struct {
	mu      sync.RWMutex
	entries map[string]principal
}

// maxAuthEntries bounds the cache; past it the cache starts over.
const maxAuthEntries = 10000

func (c *authCache) get(hash string) (principal, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p, ok := c.entries[hash]
	return p, ok
}

func (c *authCache) put(hash string, p principal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxAuthEntries {
		c.entries = make(map[string]principal)
	}
	c.entries[hash] = p
}

func (c *authCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = nil
}

// KeysChanged drops every cached key and partner; the admin commands call
// it after they change either.
func (s *Server) KeysChanged() { s.auth.clear() }

// handlerFunc is a handler that returns its error for writeError to render.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

func (s *Server) handle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	})
}
