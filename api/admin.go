package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"planreview/api/apikey"
	"planreview/store"
	"planreview/store/backup"
)

// AdminStore is what operator commands need of the database.
type AdminStore interface {
	CreateKey(partnerName, hash, hint string) (store.Key, store.Partner, error)
	Keys(partnerID string) ([]store.Key, error)
	Key(id string) (store.Key, error)
	Partner(id string) (store.Partner, error)
	PartnerByName(name string) (store.Partner, error)
	RevokeKey(id string) (store.Key, error)
	RotateKey(oldID, newHash, newHint string, grace time.Duration) (store.Key, store.Key, error)
	UpdatePartner(name string, change func(*store.Partner)) (store.Partner, error)
	Partners() ([]store.Partner, error)
	VerifyAudit(jobID string) (store.AuditVerification, error)
	backup.Snapshotter
}

// Admin carries out the operator's commands (keys, partners, backup). The
// command line calls it directly when no server runs, and through the admin
// socket when one does, so both paths share this code.
type Admin struct {
	Store AdminStore
	Laws  LawsStore // local-law snapshots (laws_admin.go)
	Now   func() time.Time
	// Changed is called after a key or partner changed, so a running
	// server drops what it cached of them.
	Changed func()
	// LawsChanged is called after a snapshot was imported or certified,
	// so a running server compiles it before scans need it.
	LawsChanged func()
	// Blobs, SigningKeyPath and Version are what a backup copies besides
	// the database, and the version it records.
	Blobs          backup.Blobs
	SigningKeyPath string
	Version        string
	// Webhooks is the outbox (webhooks_admin.go); WebhooksChanged wakes
	// the delivery workers after a retry was queued.
	Webhooks        WebhookAdminStore
	WebhooksChanged func()
}

func (a *Admin) changed() {
	if a.Changed != nil {
		a.Changed()
	}
}

// IssuedKey is a new key: the only time its secret is shown.
type IssuedKey struct {
	KeyID     string `json:"keyId"`
	PartnerID string `json:"partnerId"`
	Partner   string `json:"partner"`
	Key       string `json:"key"`
}

// RotatedKey is the key a rotation issued and when the old one stops.
type RotatedKey struct {
	IssuedKey
	OldKeyID        string `json:"oldKeyId"`
	OldKeyExpiresAt int64  `json:"oldKeyExpiresAt"`
}

// KeyInfo describes a key without its secret.
type KeyInfo struct {
	KeyID      string     `json:"keyId"`
	PartnerID  string     `json:"partnerId"`
	Partner    string     `json:"partner"`
	Hint       string     `json:"hint"`
	Status     string     `json:"status"` // active, expiring (rotated, in grace), revoked
	CreatedAt  time.Time  `json:"createdAt"`
	RevokedAt  *time.Time `json:"revokedAt,omitempty"`
	ExpiresAt  *int64     `json:"expiresAt,omitempty"`
	ReplacedBy string     `json:"replacedBy,omitempty"`
}

// PartnerSettings changes a partner; nil fields stay as they are.
// ResetLimits puts quota, rate and burst back to the appliance defaults
// before the fields given apply; ClearFrameOrigins empties the list. An
// unknown name is refused unless Create, so a typo does not make a partner.
type PartnerSettings struct {
	ScanQuota         *int     `json:"scanQuota,omitempty"`
	RateLimit         *float64 `json:"rateLimit,omitempty"`
	RateBurst         *int     `json:"rateBurst,omitempty"`
	FrameOrigins      []string `json:"frameOrigins,omitempty"`
	ClearFrameOrigins bool     `json:"clearFrameOrigins,omitempty"`
	ResetLimits       bool     `json:"resetLimits,omitempty"`
	Create            bool     `json:"create,omitempty"`
	Jurisdiction      *string  `json:"jurisdiction,omitempty"` // default jurisdictionId of new jobs; "" clears
	// LaterRoundsLifeSafetyOnly: see store.Partner.
	LaterRoundsLifeSafetyOnly *bool `json:"laterRoundsLifeSafetyOnly,omitempty"`
}

// PartnerInfo is a partner as operators see it (0 = appliance default).
type PartnerInfo struct {
	PartnerID    string   `json:"partnerId"`
	Name         string   `json:"name"`
	ScanQuota    int      `json:"scanQuota"`
	RateLimit    float64  `json:"rateLimit"`
	RateBurst    int      `json:"rateBurst"`
	FrameOrigins []string `json:"frameOrigins"`
	Jurisdiction *string  `json:"jurisdiction"`
	// LaterRoundsLifeSafetyOnly: a later round's letter leaves out new
	// findings that are not life safety on sheets that did not change.
	LaterRoundsLifeSafetyOnly bool      `json:"laterRoundsLifeSafetyOnly"`
	CreatedAt                 time.Time `json:"createdAt"`
}

// PartnerDetail is one partner with its keys (never their secrets).
type PartnerDetail struct {
	PartnerInfo
	Keys []KeyInfo `json:"keys"`
}

func partnerInfo(p store.Partner) PartnerInfo {
	origins := p.FrameOrigins
	if origins == nil {
		origins = []string{}
	}
	return PartnerInfo{PartnerID: p.ID, Name: p.Name, ScanQuota: p.ScanQuota, RateLimit: p.RateLimit,
		RateBurst: p.RateBurst, FrameOrigins: origins, Jurisdiction: optional(p.Jurisdiction),
		LaterRoundsLifeSafetyOnly: p.LaterRoundsLifeSafetyOnly, CreatedAt: p.CreatedAt}
}

// AdminError is an operator mistake (unknown key, bad value), as opposed to
// a failure of the appliance.
type AdminError struct{ Msg string }

func (e *AdminError) Error() string { return e.Msg }

func (a *Admin) now() time.Time {
	if a.Now != nil {
		return a.Now()
	}
	return time.Now()
}

func checkPartnerName(name string) error {
	if strings.TrimSpace(name) == "" || utf8.RuneCountInString(name) > 100 || strings.ContainsFunc(name, isControl) {
		return &AdminError{"partner name must be 1-100 printable characters"}
	}
	return nil
}

// IssueKey creates a key for a partner (created if new).
func (a *Admin) IssueKey(_ context.Context, partner string) (IssuedKey, error) {
	if err := checkPartnerName(partner); err != nil {
		return IssuedKey{}, err
	}
	secret, err := apikey.Generate()
	if err != nil {
		return IssuedKey{}, err
	}
	k, p, err := a.Store.CreateKey(partner, apikey.Hash(secret), apikey.Hint(secret))
	if err != nil {
		return IssuedKey{}, err
	}
	return IssuedKey{KeyID: k.ID, PartnerID: p.ID, Partner: p.Name, Key: secret}, nil
}

// partnerIDOf is the id of the partner named name; "" for "" (all).
func (a *Admin) partnerIDOf(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	p, err := a.Store.PartnerByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return "", &AdminError{fmt.Sprintf("no partner named %q", name)}
	}
	if err != nil {
		return "", err
	}
	return p.ID, nil
}

// ListKeys lists keys, of one partner or ("" ) of all.
func (a *Admin) ListKeys(_ context.Context, partner string) ([]KeyInfo, error) {
	partnerID, err := a.partnerIDOf(partner)
	if err != nil {
		return nil, err
	}
	keys, err := a.Store.Keys(partnerID)
	if err != nil {
		return nil, err
	}
	names := map[string]string{}
	out := make([]KeyInfo, 0, len(keys))
	for _, k := range keys {
		if _, ok := names[k.PartnerID]; !ok {
			if p, err := a.Store.Partner(k.PartnerID); err == nil {
				names[k.PartnerID] = p.Name
			}
		}
		out = append(out, a.keyInfo(k, names[k.PartnerID]))
	}
	return out, nil
}

func (a *Admin) keyInfo(k store.Key, partner string) KeyInfo {
	info := KeyInfo{KeyID: k.ID, PartnerID: k.PartnerID, Partner: partner, Hint: "…" + k.Hint,
		CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt, ReplacedBy: k.ReplacedBy}
	now := a.now()
	switch {
	case !k.Active(now):
		info.Status = "revoked"
	case k.ExpiresAt != nil:
		info.Status = "expiring"
	default:
		info.Status = "active"
	}
	if k.ExpiresAt != nil {
		exp := k.ExpiresAt.Unix()
		info.ExpiresAt = &exp
	}
	return info
}

// RevokeKey stops a key at once.
func (a *Admin) RevokeKey(_ context.Context, keyID string) (KeyInfo, error) {
	k, err := a.Store.RevokeKey(keyID)
	a.changed()
	if errors.Is(err, store.ErrNotFound) {
		return KeyInfo{}, &AdminError{fmt.Sprintf("no key %s", keyID)}
	}
	if err != nil {
		return KeyInfo{}, err
	}
	p, _ := a.Store.Partner(k.PartnerID)
	return a.keyInfo(k, p.Name), nil
}

// RotateKey issues a replacement key; the old one works until grace ends.
func (a *Admin) RotateKey(_ context.Context, keyID string, grace time.Duration) (RotatedKey, error) {
	if grace < 0 {
		return RotatedKey{}, &AdminError{"grace must not be negative"}
	}
	secret, err := apikey.Generate()
	if err != nil {
		return RotatedKey{}, err
	}
	old, replacement, err := a.Store.RotateKey(keyID, apikey.Hash(secret), apikey.Hint(secret), grace)
	a.changed()
	switch {
	case errors.Is(err, store.ErrNotFound):
		return RotatedKey{}, &AdminError{fmt.Sprintf("no key %s", keyID)}
	case errors.Is(err, store.ErrKeyRevoked):
		return RotatedKey{}, &AdminError{fmt.Sprintf("key %s is revoked or expired; issue a new key instead", keyID)}
	case errors.Is(err, store.ErrKeyReplaced):
		return RotatedKey{}, &AdminError{fmt.Sprintf("key %s already has a live replacement, %s; hand that one out, or revoke it and rotate again",
			keyID, old.ReplacedBy)}
	case err != nil:
		return RotatedKey{}, err
	}
	p, _ := a.Store.Partner(old.PartnerID)
	return RotatedKey{
		IssuedKey: IssuedKey{KeyID: replacement.ID, PartnerID: p.ID, Partner: p.Name, Key: secret},
		OldKeyID:  old.ID, OldKeyExpiresAt: old.ExpiresAt.Unix(),
	}, nil
}

// SetPartner creates or changes a partner's limits and frame origins.
func (a *Admin) SetPartner(_ context.Context, name string, set PartnerSettings) (PartnerInfo, error) {
	if err := checkPartnerName(name); err != nil {
		return PartnerInfo{}, err
	}
	if set.ClearFrameOrigins && len(set.FrameOrigins) > 0 {
		return PartnerInfo{}, &AdminError{"clearing the frame origins and setting them at once: choose one"}
	}
	if !set.Create {
		_, err := a.Store.PartnerByName(name)
		if errors.Is(err, store.ErrNotFound) {
			return PartnerInfo{}, &AdminError{fmt.Sprintf("no partner named %q (partners list shows them); to create it, repeat with --create", name)}
		}
		if err != nil {
			return PartnerInfo{}, err
		}
	}
	switch {
	case set.ScanQuota != nil && *set.ScanQuota < 1:
		return PartnerInfo{}, &AdminError{"scan quota must be at least 1 per 24 hours"}
	case set.RateLimit != nil && *set.RateLimit <= 0:
		return PartnerInfo{}, &AdminError{"rate limit must be above 0 requests per second"}
	case set.RateBurst != nil && *set.RateBurst < 1:
		return PartnerInfo{}, &AdminError{"rate burst must be at least 1"}
	}
	if set.Jurisdiction != nil && *set.Jurisdiction != "" && checkJurisdiction("jurisdiction", set.Jurisdiction) != nil {
		return PartnerInfo{}, &AdminError{fmt.Sprintf("--jurisdiction %q is not an Open Civic Data division id such as ocd-division/country:us/state:ca/county:marin (at most 200 characters)", *set.Jurisdiction)}
	}
	for _, o := range set.FrameOrigins {
		if !ValidOrigin(o) {
			return PartnerInfo{}, &AdminError{fmt.Sprintf("%q is not an origin like https://permits.example.gov", o)}
		}
	}
	defer a.changed()
	p, err := a.Store.UpdatePartner(name, func(p *store.Partner) {
		if set.ResetLimits {
			p.ScanQuota, p.RateLimit, p.RateBurst = 0, 0, 0
		}
		if set.ClearFrameOrigins {
			p.FrameOrigins = nil
		}
		if set.ScanQuota != nil {
			p.ScanQuota = *set.ScanQuota
		}
		if set.RateLimit != nil {
			p.RateLimit = *set.RateLimit
		}
		if set.RateBurst != nil {
			p.RateBurst = *set.RateBurst
		}
		if set.FrameOrigins != nil {
			p.FrameOrigins = set.FrameOrigins
		}
		if set.Jurisdiction != nil {
			p.Jurisdiction = *set.Jurisdiction
		}
		if set.LaterRoundsLifeSafetyOnly != nil {
			p.LaterRoundsLifeSafetyOnly = *set.LaterRoundsLifeSafetyOnly
		}
	})
	if err != nil {
		return PartnerInfo{}, err
	}
	return partnerInfo(p), nil
}

// ListPartners lists every partner by name.
func (a *Admin) ListPartners(_ context.Context) ([]PartnerInfo, error) {
	ps, err := a.Store.Partners()
	if err != nil {
		return nil, err
	}
	out := make([]PartnerInfo, 0, len(ps))
	for _, p := range ps {
		out = append(out, partnerInfo(p))
	}
	return out, nil
}

// ShowPartner is one partner's settings and keys.
func (a *Admin) ShowPartner(ctx context.Context, name string) (PartnerDetail, error) {
	p, err := a.Store.PartnerByName(name)
	if errors.Is(err, store.ErrNotFound) {
		return PartnerDetail{}, &AdminError{fmt.Sprintf("no partner named %q (partners list shows them)", name)}
	}
	if err != nil {
		return PartnerDetail{}, err
	}
	keys, err := a.ListKeys(ctx, name)
	if err != nil {
		return PartnerDetail{}, err
	}
	return PartnerDetail{PartnerInfo: partnerInfo(p), Keys: keys}, nil
}

// Backup writes the whole appliance as one archive (store/backup): a
// consistent database snapshot, every upload and marked-up copy it
// references, and the signing key. It returns the bytes written.
func (a *Admin) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if a.Blobs == nil {
		return 0, errors.New("backup: no blob store configured")
	}
	cw := &countingWriter{w: w}
	_, err := backup.Write(ctx, cw, backup.Source{DB: a.Store, Blobs: a.Blobs,
		SigningKeyPath: a.SigningKeyPath, AppVersion: a.Version})
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// AdminHandler serves Admin over the admin socket. The socket file's mode
// (0600) is the access control: whoever may open it is the operator.
func AdminHandler(a *Admin, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, v any, err error) {
		var ae *AdminError
		switch {
		case errors.As(err, &ae):
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": ae.Msg})
		case err != nil:
			log.Error("admin command failed", "error", err)
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		default:
			writeJSON(w, http.StatusOK, v)
		}
	}
	decode := func(r *http.Request, v any) error {
		if err := json.NewDecoder(io.LimitReader(r.Body, maxBodyBytes)).Decode(v); err != nil {
			return &AdminError{"bad request body: " + err.Error()}
		}
		return nil
	}
	mux.HandleFunc("POST /v1/audit/{jobId}/verify", func(w http.ResponseWriter, r *http.Request) {
		res, err := a.VerifyAudit(r.Context(), r.PathValue("jobId"))
		reply(w, res, err)
	})
	mux.HandleFunc("POST /v1/keys", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Partner string }
		if err := decode(r, &req); err != nil {
			reply(w, nil, err)
			return
		}
		k, err := a.IssueKey(r.Context(), req.Partner)
		log.Info("admin: key issued", "key_id", k.KeyID, "partner_id", k.PartnerID, "ok", err == nil)
		reply(w, k, err)
	})
	mux.HandleFunc("GET /v1/keys", func(w http.ResponseWriter, r *http.Request) {
		keys, err := a.ListKeys(r.Context(), r.URL.Query().Get("partner"))
		reply(w, keys, err)
	})
	mux.HandleFunc("POST /v1/keys/{id}/revoke", func(w http.ResponseWriter, r *http.Request) {
		k, err := a.RevokeKey(r.Context(), r.PathValue("id"))
		log.Info("admin: key revoked", "key_id", r.PathValue("id"), "ok", err == nil)
		reply(w, k, err)
	})
	mux.HandleFunc("POST /v1/keys/{id}/rotate", func(w http.ResponseWriter, r *http.Request) {
		var req struct{ GraceSeconds int64 }
		if err := decode(r, &req); err != nil {
			reply(w, nil, err)
			return
		}
		k, err := a.RotateKey(r.Context(), r.PathValue("id"), time.Duration(req.GraceSeconds)*time.Second)
		log.Info("admin: key rotated", "key_id", r.PathValue("id"), "new_key_id", k.KeyID, "ok", err == nil)
		reply(w, k, err)
	})
	mux.HandleFunc("PUT /v1/partners/{name}", func(w http.ResponseWriter, r *http.Request) {
		var set PartnerSettings
		if err := decode(r, &set); err != nil {
			reply(w, nil, err)
			return
		}
		p, err := a.SetPartner(r.Context(), r.PathValue("name"), set)
		log.Info("admin: partner set", "partner", r.PathValue("name"), "ok", err == nil)
		reply(w, p, err)
	})
	lawsRoutes(mux, a, log, reply)
	webhooksAdminRoutes(mux, a, log, reply)
	mux.HandleFunc("GET /v1/partners", func(w http.ResponseWriter, r *http.Request) {
		ps, err := a.ListPartners(r.Context())
		reply(w, ps, err)
	})
	mux.HandleFunc("GET /v1/partners/{name}", func(w http.ResponseWriter, r *http.Request) {
		p, err := a.ShowPartner(r.Context(), r.PathValue("name"))
		reply(w, p, err)
	})
	mux.HandleFunc("GET /v1/backup", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		if _, err := a.Backup(r.Context(), w); err != nil {
			log.Error("admin: backup failed", "error", err)
			panic(http.ErrAbortHandler) // cut the stream so the client sees a failure
		}
	})
	return mux
}

// ValidOrigin reports whether s is scheme://host[:port] and nothing more.
func ValidOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" &&
		u.Path == "" && u.RawQuery == "" && u.Fragment == "" && u.User == nil
}
