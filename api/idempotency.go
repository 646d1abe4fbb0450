package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"planreview/store"
)

// idempotencyTTL is how long a key replays its first response.
const idempotencyTTL = 24 * time.Hour

const maxIdempotencyKey = 255

// idempotency serialises requests that share a key, so two concurrent
// retries cannot both create a job.
type idempotency struct {
	store Store
	now   func() time.Time
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	sync.Mutex
	users int
}

func newIdempotency(st Store, now func() time.Time) *idempotency {
	return &idempotency{store: st, now: now, locks: make(map[string]*keyLock)}
}

func (i *idempotency) lock(key string) (unlock func()) {
	i.mu.Lock()
	l, ok := i.locks[key]
	if !ok {
		l = &keyLock{}
		i.locks[key] = l
	}
	l.users++
	i.mu.Unlock()
	l.Lock()
	return func() {
		l.Unlock()
		i.mu.Lock()
		if l.users--; l.users == 0 {
			delete(i.locks, key)
		}
		i.mu.Unlock()
	}
}

// idempotent wraps a POST handler: with an Idempotency-Key, the first
// successful response is stored before it is sent and replayed for the same
// request; the same key with another request is a conflict. Failed requests
// are not stored, so a corrected retry may reuse the key.
func (s *Server) idempotent(next handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			return next(w, r)
		}
		if len(key) > maxIdempotencyKey {
			return invalidParam("Idempotency-Key", "Idempotency-Key is longer than %d characters.", maxIdempotencyKey)
		}
		body, err := readBody(r)
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		fingerprint := requestFingerprint(r, body)
		partnerID := principalFrom(r.Context()).partner.ID

		defer s.idem.lock(partnerID + "\x00" + key)()
		rec, err := s.store.Idempotency(partnerID, key)
		switch {
		case err == nil && s.now().Sub(rec.CreatedAt) < idempotencyTTL:
			if rec.RequestHash != fingerprint {
				return errorf(http.StatusConflict, "idempotency_conflict",
					"This Idempotency-Key was used with a different request in the last 24 hours.")
			}
			w.Header().Set("Idempotent-Replayed", "true")
			writeRawJSON(w, rec.Status, rec.Body)
			return nil
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return err
		}

		rec2 := &bufferedResponse{header: make(http.Header)}
		if err := next(rec2, r); err != nil {
			return err
		}
		if rec2.status >= 200 && rec2.status < 300 {
			err := s.store.PutIdempotency(partnerID, key, store.IdempotencyRecord{
				RequestHash: fingerprint, Status: rec2.status, Body: rec2.body.Bytes(), CreatedAt: s.now().UTC(),
			})
			if err != nil {
				return err
			}
		}
		rec2.sendTo(w)
		return nil
	}
}

// requestFingerprint identifies a request by route and body. JSON bodies are
// re-encoded with sorted keys first, so spacing or field order are not a
// "different request".
func requestFingerprint(r *http.Request, body []byte) string {
	h := sha256.New()
	h.Write([]byte(r.Method + " " + r.URL.Path + "\n"))
	var v any
	if json.Unmarshal(body, &v) == nil {
		canonical, _ := json.Marshal(v)
		h.Write(canonical)
	} else {
		h.Write(body)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// bufferedResponse holds a response until its idempotency record is durable.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }
func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}
func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

func (b *bufferedResponse) sendTo(w http.ResponseWriter) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body.Bytes())
}

func writeRawJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
