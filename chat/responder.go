package chat

import (
	"container/list"
	"context"
	"errors"
	"log/slog"
	"sync"
)

// Responder answers chat questions for any scanned version: it decodes a
// version's stored index once (an LRU of recent versions; a scanned
// version's index never changes) and answers with the model when one is
// configured, else, or when the model fails, with the built-in answerer.
// It is safe for concurrent use.
type Responder struct {
	model *Model
	log   *slog.Logger

	mu    sync.Mutex
	lru   *list.List // of *cached, most recent first
	byID  map[string]*list.Element
	limit int
}

type cached struct {
	versionID string
	index     *Index
}

// DefaultCacheVersions is how many decoded indexes a Responder keeps.
const DefaultCacheVersions = 32

// NewResponder makes a Responder; model may be nil (answers without one).
func NewResponder(model *Model, log *slog.Logger) *Responder {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Responder{model: model, log: log, lru: list.New(), byID: map[string]*list.Element{}, limit: DefaultCacheVersions}
}

// Cached reports whether a version's index is held decoded (Index and Ask
// then need no stored form).
func (r *Responder) Cached(versionID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.byID[versionID]
	return ok
}

// ErrNotCached is returned when no stored form was given for a version
// whose decoded index has meanwhile left the cache: read it and ask again.
var ErrNotCached = errors.New("chat index not cached")

// Index returns the decoded index of a version from its stored form (nil
// when it is cached).
func (r *Responder) Index(versionID string, stored []byte) (*Index, error) {
	r.mu.Lock()
	if el, ok := r.byID[versionID]; ok {
		r.lru.MoveToFront(el)
		ix := el.Value.(*cached).index
		r.mu.Unlock()
		return ix, nil
	}
	r.mu.Unlock()
	if stored == nil {
		return nil, ErrNotCached
	}
	ix, err := Decode(stored)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if el, ok := r.byID[versionID]; ok { // decoded meanwhile by another call
		return el.Value.(*cached).index, nil
	}
	r.byID[versionID] = r.lru.PushFront(&cached{versionID: versionID, index: ix})
	for r.lru.Len() > r.limit {
		old := r.lru.Back()
		r.lru.Remove(old)
		delete(r.byID, old.Value.(*cached).versionID)
	}
	return ix, nil
}

// Ask answers a question about one version. With a model, its answer is
// used only when at least one of its citations checks out; otherwise the
// built-in answer is returned and the log says why.
func (r *Responder) Ask(ctx context.Context, versionID string, stored []byte, question string, history []Message) (Answer, error) {
	ix, err := r.Index(versionID, stored)
	if err != nil {
		return Answer{}, err
	}
	if r.model == nil {
		return ix.Answer(question, history), nil
	}
	a, err := r.model.Answer(ctx, ix, question, history)
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err() // the caller went away; nothing to answer
		}
		r.log.Warn("chat model answer not used; answering without the model", "version_id", versionID, "reason", err.Error())
		return ix.Answer(question, history), nil
	}
	return a, nil
}
