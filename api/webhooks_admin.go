package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"

	"planreview/store"
)

// WebhookAdminStore is what the operator's webhook commands need of the
// database; *store.DB implements it.
type WebhookAdminStore interface {
	Webhooks(partnerID string) ([]store.Webhook, error)
	Deliveries(eventID, status string, limit int) ([]store.Delivery, error)
	EventByID(partnerID, id string) (store.Event, error)
	RetryEvent(eventID string) ([]store.Delivery, error)
}

// WebhookInfo is a partner's endpoint as operators see it (never its
// secret), with its deliveries waiting and given up.
type WebhookInfo struct {
	WebhookID               string    `json:"webhookId"`
	PartnerID               string    `json:"partnerId"`
	Partner                 string    `json:"partner"`
	URL                     string    `json:"url"`
	Events                  []string  `json:"events"`
	Pending                 int       `json:"pending"`
	Failed                  int       `json:"failed"`
	PreviousSecretExpiresAt *int64    `json:"previousSecretExpiresAt"`
	CreatedAt               time.Time `json:"createdAt"`
}

// DeliveryInfo is one event's delivery to one endpoint.
type DeliveryInfo struct {
	EventID       string     `json:"eventId"`
	EventType     string     `json:"eventType"`
	WebhookID     string     `json:"webhookId"`
	PartnerID     string     `json:"partnerId"`
	URL           string     `json:"url"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	LastAttemptAt *time.Time `json:"lastAttemptAt"`
	LastStatus    int        `json:"lastStatus"`
	LastError     string     `json:"lastError"`
	DeliveredAt   *time.Time `json:"deliveredAt"`
	RetryUntil    time.Time  `json:"retryUntil"`
}

// deliveryStates are the --status values.
var deliveryStates = []string{store.DeliveryPending, store.DeliveryDelivered, store.DeliveryFailed, store.DeliveryCanceled}

func (a *Admin) webhookStore() (WebhookAdminStore, error) {
	if a.Webhooks == nil {
		return nil, errors.New("webhooks: no store configured")
	}
	return a.Webhooks, nil
}

// ListWebhooks lists the endpoints of one partner or ("") of all.
func (a *Admin) ListWebhooks(_ context.Context, partner string) ([]WebhookInfo, error) {
	ws, err := a.webhookStore()
	if err != nil {
		return nil, err
	}
	partnerID, err := a.partnerIDOf(partner)
	if err != nil {
		return nil, err
	}
	hooks, err := ws.Webhooks(partnerID)
	if err != nil {
		return nil, err
	}
	pending, failed := map[string]int{}, map[string]int{}
	for _, st := range []string{store.DeliveryPending, store.DeliveryFailed} {
		ds, err := ws.Deliveries("", st, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			if st == store.DeliveryPending {
				pending[d.WebhookID]++
			} else {
				failed[d.WebhookID]++
			}
		}
	}
	names := map[string]string{}
	out := make([]WebhookInfo, 0, len(hooks))
	now := a.now()
	for _, h := range hooks {
		if _, ok := names[h.PartnerID]; !ok {
			if p, err := a.Store.Partner(h.PartnerID); err == nil {
				names[h.PartnerID] = p.Name
			}
		}
		info := WebhookInfo{WebhookID: h.ID, PartnerID: h.PartnerID, Partner: names[h.PartnerID], URL: h.URL,
			Events: h.Events, Pending: pending[h.ID], Failed: failed[h.ID], CreatedAt: h.CreatedAt}
		if h.PreviousSecretExpiresAt != nil && now.Before(*h.PreviousSecretExpiresAt) {
			exp := h.PreviousSecretExpiresAt.Unix()
			info.PreviousSecretExpiresAt = &exp
		}
		out = append(out, info)
	}
	return out, nil
}

// ListDeliveries lists deliveries, newest event first: of one event, or
// of all ("") in one state ("": any), at most limit (0: 100).
func (a *Admin) ListDeliveries(_ context.Context, eventID, status string, limit int) ([]DeliveryInfo, error) {
	ws, err := a.webhookStore()
	if err != nil {
		return nil, err
	}
	if status != "" && !slices.Contains(deliveryStates, status) {
		return nil, &AdminError{fmt.Sprintf("--status %q is not one of %v", status, deliveryStates)}
	}
	if limit <= 0 {
		limit = 100
	}
	if eventID != "" && !store.ValidID(eventID, store.PrefixEvent) {
		return nil, &AdminError{fmt.Sprintf("%q is not an event id (evt_…)", eventID)}
	}
	ds, err := ws.Deliveries(eventID, status, limit)
	if err != nil {
		return nil, err
	}
	return a.deliveryInfos(ws, ds)
}

func (a *Admin) deliveryInfos(ws WebhookAdminStore, ds []store.Delivery) ([]DeliveryInfo, error) {
	hooks, err := ws.Webhooks("")
	if err != nil {
		return nil, err
	}
	urls := map[string]string{}
	for _, h := range hooks {
		urls[h.ID] = h.URL
	}
	types := map[string]string{}
	out := make([]DeliveryInfo, 0, len(ds))
	for _, d := range ds {
		if _, ok := types[d.EventID]; !ok {
			if ev, err := ws.EventByID("", d.EventID); err == nil {
				types[d.EventID] = ev.Type
			}
		}
		out = append(out, DeliveryInfo{EventID: d.EventID, EventType: types[d.EventID], WebhookID: d.WebhookID,
			PartnerID: d.PartnerID, URL: urls[d.WebhookID], Status: d.Status, Attempts: d.Attempts,
			NextAttemptAt: d.NextAttemptAt, LastAttemptAt: d.LastAttemptAt, LastStatus: d.LastStatus,
			LastError: d.LastError, DeliveredAt: d.DeliveredAt, RetryUntil: d.RetryUntil})
	}
	return out, nil
}

// RetryEvent sends an event again, now, to every endpoint it was for
// (whatever became of the earlier attempts), with a fresh 72 h of retries.
func (a *Admin) RetryEvent(_ context.Context, eventID string) ([]DeliveryInfo, error) {
	ws, err := a.webhookStore()
	if err != nil {
		return nil, err
	}
	if !store.ValidID(eventID, store.PrefixEvent) {
		return nil, &AdminError{fmt.Sprintf("%q is not an event id (evt_…)", eventID)}
	}
	ds, err := ws.RetryEvent(eventID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &AdminError{fmt.Sprintf("no event %s (events are kept 30 days)", eventID)}
	}
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return nil, &AdminError{fmt.Sprintf("event %s has no endpoint to go to: no webhook subscribed to it when it happened, or each was deleted since", eventID)}
	}
	if a.WebhooksChanged != nil {
		a.WebhooksChanged()
	}
	return a.deliveryInfos(ws, ds)
}

func webhooksAdminRoutes(mux *http.ServeMux, a *Admin, log *slog.Logger, reply func(http.ResponseWriter, any, error)) {
	mux.HandleFunc("GET /v1/webhooks", func(w http.ResponseWriter, r *http.Request) {
		hooks, err := a.ListWebhooks(r.Context(), r.URL.Query().Get("partner"))
		reply(w, hooks, err)
	})
	mux.HandleFunc("GET /v1/webhooks/deliveries", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		ds, err := a.ListDeliveries(r.Context(), q.Get("event"), q.Get("status"), limit)
		reply(w, ds, err)
	})
	mux.HandleFunc("POST /v1/webhooks/events/{id}/retry", func(w http.ResponseWriter, r *http.Request) {
		ds, err := a.RetryEvent(r.Context(), r.PathValue("id"))
		log.Info("admin: webhook event retried", "event_id", r.PathValue("id"), "deliveries", len(ds), "ok", err == nil)
		reply(w, ds, err)
	})
}
