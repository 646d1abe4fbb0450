package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"planreview/store"
	"planreview/webhooks"
)

// WebhookStore is what the webhook routes need of the database; *store.DB
// implements it.
type WebhookStore interface {
	CreateWebhook(w store.Webhook) (store.Webhook, error)
	Webhooks(partnerID string) ([]store.Webhook, error)
	Webhook(partnerID, id string) (store.Webhook, error)
	DeleteWebhook(partnerID, id string) error
	RotateWebhookSecret(partnerID, id string, sealed []byte, grace time.Duration) (store.Webhook, error)
	Events(partnerID, after string, since time.Time, limit int) ([]store.Event, bool, error)
	EventByID(partnerID, id string) (store.Event, error)
}

// WebhookOptions configure the webhook routes.
type WebhookOptions struct {
	// Policy is webhooks.allowed_hosts; nil or empty refuses every URL.
	Policy *webhooks.Policy
	// Sealer encrypts endpoint secrets at rest; nil derives it from Signer.
	Sealer *webhooks.Sealer
}

// Rotation grace periods: the default, and the longest a leaked secret
// may stay valid after its replacement.
const (
	defaultSecretGrace = 24 * time.Hour
	maxSecretGrace     = 7 * 24 * time.Hour
	maxWebhookURL      = 2048
)

func (s *Server) webhookStore() (WebhookStore, error) {
	ws, ok := s.store.(WebhookStore)
	if !ok || s.webhookSealer == nil {
		return nil, errNotFound
	}
	return ws, nil
}

// webhookView is a webhook as the API shows it; Secret only in the answers
// that created it (POST) or rotated it.
type webhookView struct {
	WebhookID               string    `json:"webhookId"`
	URL                     string    `json:"url"`
	Events                  []string  `json:"events"`
	Secret                  string    `json:"secret,omitempty"`
	PreviousSecretExpiresAt *int64    `json:"previousSecretExpiresAt"`
	CreatedAt               time.Time `json:"createdAt"`
}

func (s *Server) viewWebhook(w store.Webhook, secret string) webhookView {
	v := webhookView{WebhookID: w.ID, URL: w.URL, Events: w.Events, Secret: secret, CreatedAt: w.CreatedAt}
	if w.PreviousSecretExpiresAt != nil && s.now().Before(*w.PreviousSecretExpiresAt) {
		exp := w.PreviousSecretExpiresAt.Unix()
		v.PreviousSecretExpiresAt = &exp
	}
	return v
}

type createWebhookRequest struct {
	URL    *string  `json:"url"`
	Events []string `json:"events"`
}

func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request) error {
	ws, err := s.webhookStore()
	if err != nil {
		return err
	}
	var req createWebhookRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := checkText("url", req.URL, true, maxWebhookURL); err != nil {
		return err
	}
	if req.Events == nil {
		return invalidParam("events", "events is required: a list of %s.", strings.Join(store.EventTypes, ", "))
	}
	var events []string
	for _, e := range req.Events {
		if !slices.Contains(store.EventTypes, e) {
			return invalidParam("events", "%q is not an event type; they are %s.", e, strings.Join(store.EventTypes, ", "))
		}
		if !slices.Contains(events, e) {
			events = append(events, e)
		}
	}
	if len(events) == 0 {
		return invalidParam("events", "events must name at least one of %s.", strings.Join(store.EventTypes, ", "))
	}
	policy := s.opts.Webhooks.Policy
	if policy == nil {
		policy, _ = webhooks.ParsePolicy(nil)
	}
	if err := policy.CheckURL(r.Context(), *req.URL); err != nil {
		return invalidParam("url", "%s.", upperFirst(err.Error()))
	}
	secret, sealed, err := s.newWebhookSecret()
	if err != nil {
		return err
	}
	partner := principalFrom(r.Context()).partner
	hook, err := ws.CreateWebhook(store.Webhook{PartnerID: partner.ID, URL: *req.URL, Events: events, Secret: sealed})
	if errors.Is(err, store.ErrWebhookLimit) {
		return invalidParam("url", "A partner has at most %d webhooks; delete one first.", store.MaxWebhooks)
	}
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.opts.PublicURL+"/api/v1/webhooks/"+hook.ID)
	writeJSON(w, http.StatusCreated, s.viewWebhook(hook, secret))
	return nil
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request) error {
	ws, err := s.webhookStore()
	if err != nil {
		return err
	}
	hooks, err := ws.Webhooks(principalFrom(r.Context()).partner.ID)
	if err != nil {
		return err
	}
	out := struct {
		Webhooks []webhookView `json:"webhooks"`
	}{Webhooks: make([]webhookView, len(hooks))}
	for i, h := range hooks {
		out.Webhooks[i] = s.viewWebhook(h, "")
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) ownWebhook(r *http.Request) (WebhookStore, store.Webhook, error) {
	ws, err := s.webhookStore()
	if err != nil {
		return nil, store.Webhook{}, err
	}
	id := r.PathValue("webhookId")
	if !store.ValidID(id, store.PrefixWebhook) {
		return nil, store.Webhook{}, errNotFound
	}
	hook, err := ws.Webhook(principalFrom(r.Context()).partner.ID, id)
	return ws, hook, err
}

func (s *Server) getWebhook(w http.ResponseWriter, r *http.Request) error {
	_, hook, err := s.ownWebhook(r)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.viewWebhook(hook, ""))
	return nil
}

func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request) error {
	ws, hook, err := s.ownWebhook(r)
	if err != nil {
		return err
	}
	if err := ws.DeleteWebhook(hook.PartnerID, hook.ID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type rotateSecretRequest struct {
	GracePeriodSeconds *json.Number `json:"gracePeriodSeconds"`
}

// rotateWebhookSecret issues a new secret; the old one keeps signing
// deliveries beside it for the grace period (default 24 h, 0 ends it now).
func (s *Server) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) error {
	ws, hook, err := s.ownWebhook(r)
	if err != nil {
		return err
	}
	body, err := readBody(r)
	if err != nil {
		return err
	}
	grace := defaultSecretGrace
	if len(bytes.TrimSpace(body)) > 0 {
		var req rotateSecretRequest
		if err := decodeJSONBytes(body, &req); err != nil {
			return err
		}
		if req.GracePeriodSeconds != nil {
			n, err := strconv.ParseInt(req.GracePeriodSeconds.String(), 10, 64)
			if err != nil || n < 0 || time.Duration(n)*time.Second > maxSecretGrace {
				return invalidParam("gracePeriodSeconds", "gracePeriodSeconds must be a whole number from 0 to %d.", int64(maxSecretGrace/time.Second))
			}
			grace = time.Duration(n) * time.Second
		}
	}
	secret, sealed, err := s.newWebhookSecret()
	if err != nil {
		return err
	}
	hook, err = ws.RotateWebhookSecret(hook.PartnerID, hook.ID, sealed, grace)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.viewWebhook(hook, secret))
	return nil
}

// eventView is an event as GET /events lists it and deliveries send it.
type eventView struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

func viewEvent(ev store.Event) eventView {
	return eventView{ID: ev.ID, Type: ev.Type, CreatedAt: ev.CreatedAt.UTC(), Data: ev.Data}
}

// listEvents answers the partner's events of the last 30 days, oldest
// first, after the event id in after; nextCursor is the after of the next
// page (null on the last).
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) error {
	ws, err := s.webhookStore()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	limit := 50
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 200 {
			return invalidParam("limit", "limit must be a whole number from 1 to 200.")
		}
		limit = n
	}
	after := q.Get("after")
	if after != "" && !store.ValidID(after, store.PrefixEvent) {
		return invalidParam("after", "after must be an event id (evt_…).")
	}
	events, more, err := ws.Events(principalFrom(r.Context()).partner.ID, after, s.now().Add(-webhooks.EventRetention), limit)
	if err != nil {
		return err
	}
	out := struct {
		Events     []eventView `json:"events"`
		NextCursor *string     `json:"nextCursor"`
	}{Events: make([]eventView, len(events))}
	for i, ev := range events {
		out.Events[i] = viewEvent(ev)
	}
	if more && len(events) > 0 {
		out.NextCursor = &events[len(events)-1].ID
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) getEvent(w http.ResponseWriter, r *http.Request) error {
	ws, err := s.webhookStore()
	if err != nil {
		return err
	}
	id := r.PathValue("eventId")
	if !store.ValidID(id, store.PrefixEvent) {
		return errNotFound
	}
	ev, err := ws.EventByID(principalFrom(r.Context()).partner.ID, id)
	if err != nil {
		return err
	}
	if ev.CreatedAt.Before(s.now().Add(-webhooks.EventRetention)) {
		return errNotFound
	}
	writeJSON(w, http.StatusOK, viewEvent(ev))
	return nil
}

// newWebhookSecret mints a signing secret and seals it for the store: the
// clear secret is shown to the partner once and never stored.
func (s *Server) newWebhookSecret() (secret string, sealed []byte, err error) {
	if secret, err = webhooks.NewSecret(); err != nil {
		return "", nil, err
	}
	sealed, err = s.webhookSealer.Seal(secret)
	return secret, sealed, err
}
