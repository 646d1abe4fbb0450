package api

import (
	"bytes"
	"context"
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

// idempotent wraps a POST handler: with an Idempotency-Key, a repeat of
// the request replays its first successful response and the same key with
// another request is a conflict. The handler stores the response under the
// key in the same transaction as its write (see replyTo), so a crash
// leaves both or neither. Failed requests are not stored, so a corrected
// retry may reuse the key.
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
		pending := idempotencyKey{
			partnerID: principalFrom(r.Context()).partner.ID, key: key, fingerprint: requestFingerprint(r, body),
		}

		// Held until the handler's transaction committed: a concurrent
		// retry then finds the record.
		defer s.idem.lock(pending.partnerID + "\x00" + key)()
		rec, err := s.store.Idempotency(pending.partnerID, key)
		switch {
		case err == nil && s.now().Sub(rec.CreatedAt) < idempotencyTTL:
			if rec.RequestHash != pending.fingerprint {
				return errorf(http.StatusConflict, "idempotency_conflict",
					"This Idempotency-Key was used with a different request in the last 24 hours.")
			}
			w.Header().Set("Idempotent-Replayed", "true")
			writeRawJSON(w, rec.Status, rec.Body)
			return nil
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return err
		}
		return next(w, r.WithContext(context.WithValue(r.Context(), ctxIdempotency, pending)))
	}
}

// idempotencyKey is the Idempotency-Key of a request being answered for
// the first time, for its handler's write to store the answer under.
type idempotencyKey struct {
	partnerID, key, fingerprint string
}

// reply is a handler's JSON answer, rendered inside its write's transaction
// (and stored there under the request's Idempotency-Key, if any), then sent
// as exactly the bytes a replay will send.
type reply[T any] struct {
	store.Reply[T]
	status int
	body   []byte
}

// replyTo prepares the answer status + view(result) to r's write.
func replyTo[T any](r *http.Request, status int, view func(T) any) *reply[T] {
	rp := &reply[T]{}
	if k, ok := r.Context().Value(ctxIdempotency).(idempotencyKey); ok {
		rp.PartnerID, rp.Key, rp.RequestHash = k.partnerID, k.key, k.fingerprint
	}
	// A batched write may run more than once; the last run is the one
	// committed, and so the one sent.
	rp.Render = func(result T) (int, []byte, error) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(view(result)); err != nil {
			return 0, nil, err
		}
		rp.status, rp.body = status, buf.Bytes()
		return rp.status, rp.body, nil
	}
	return rp
}

// send writes the answer rendered in the transaction.
func (rp *reply[T]) send(w http.ResponseWriter) { writeRawJSON(w, rp.status, rp.body) }

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

func writeRawJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
