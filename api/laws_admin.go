package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"planreview/scan/codebasis"
	"planreview/store"
)

// LawsStore is what the laws commands need of the database.
type LawsStore interface {
	PutLawSnapshot(s store.LawSnapshot) (store.LawSnapshot, bool, error)
	LawSnapshot(id string) (store.LawSnapshot, error)
	LawSnapshots(jurisdictionID string, withContent bool) ([]store.LawSnapshot, error)
	CertifyLawSnapshot(id, certificateID string, scope []string) (store.LawSnapshot, error)
	VerifyLawSnapshot(id string) (store.LawSnapshot, error)
}

// ImportedLaw is `laws import --json`, exactly the contract's object.
type ImportedLaw struct {
	SnapshotID     string  `json:"snapshotId"`
	JurisdictionID string  `json:"jurisdictionId"`
	EffectiveFrom  string  `json:"effectiveFrom"`
	EffectiveUntil *string `json:"effectiveUntil"`
	Status         string  `json:"status"` // imported
	// Created is false when the same content was stored already (the
	// command says so; the JSON stays the contract's).
	Created bool `json:"-"`
}

// LawInfo is a stored snapshot as `laws list` and `laws certify` show it.
type LawInfo struct {
	SnapshotID         string     `json:"snapshotId"`
	JurisdictionID     string     `json:"jurisdictionId"`
	Name               string     `json:"name"`
	EffectiveFrom      string     `json:"effectiveFrom"`
	EffectiveUntil     *string    `json:"effectiveUntil"`
	SHA256             string     `json:"sha256"`
	Status             string     `json:"status"` // imported, certified
	CertificateID      *string    `json:"certificateId"`
	CertifiedScope     []string   `json:"certifiedScope"`
	CertifiedAt        *time.Time `json:"certifiedAt"`
	FreshnessCheckedAt *time.Time `json:"freshnessCheckedAt"`
	ImportedAt         time.Time  `json:"importedAt"`
}

// VerifiedLaw is `laws verify --json`.
type VerifiedLaw struct {
	SnapshotID         string     `json:"snapshotId"`
	Status             string     `json:"status"` // verified, failed
	SHA256             string     `json:"sha256"`
	FreshnessCheckedAt *time.Time `json:"freshnessCheckedAt"`
	Reason             string     `json:"reason,omitempty"`
}

// ErrVerifyFailed wraps a verification failure (exit status 1, nothing
// changed).
var ErrVerifyFailed = errors.New("snapshot verification failed")

func lawInfo(s store.LawSnapshot) LawInfo {
	info := LawInfo{SnapshotID: s.ID, JurisdictionID: s.JurisdictionID, Name: s.Name, EffectiveFrom: s.EffectiveFrom,
		EffectiveUntil: optional(s.EffectiveUntil), SHA256: s.SHA256, Status: "imported",
		CertifiedScope: s.CertifiedScope, CertifiedAt: s.CertifiedAt, FreshnessCheckedAt: s.FreshnessCheckedAt, ImportedAt: s.ImportedAt}
	if s.Certified() {
		info.Status, info.CertificateID = "certified", optional(s.CertificateID)
	}
	if info.CertifiedScope == nil {
		info.CertifiedScope = []string{}
	}
	return info
}

func (a *Admin) lawsChanged() {
	if a.LawsChanged != nil {
		a.LawsChanged()
	}
}

func (a *Admin) laws() (LawsStore, error) {
	if a.Laws == nil {
		return nil, errors.New("laws: no snapshot store configured")
	}
	return a.Laws, nil
}

// ImportLaw validates a snapshot file and stores its canonical content.
// The same content imported twice is one snapshot (same id, nothing
// changed).
func (a *Admin) ImportLaw(_ context.Context, fileName string, data []byte) (ImportedLaw, error) {
	st, err := a.laws()
	if err != nil {
		return ImportedLaw{}, err
	}
	lib, err := codebasis.Library()
	if err != nil {
		return ImportedLaw{}, err
	}
	snap, err := codebasis.Parse(fileName, data, lib)
	if err != nil {
		return ImportedLaw{}, &AdminError{err.Error()}
	}
	rec := store.LawSnapshot{JurisdictionID: snap.JurisdictionID, Name: snap.Name,
		EffectiveFrom: snap.EffectiveFrom, Content: snap.Canonical()}
	if snap.EffectiveUntil != nil {
		rec.EffectiveUntil = *snap.EffectiveUntil
	}
	stored, created, err := st.PutLawSnapshot(rec)
	if err != nil {
		return ImportedLaw{}, err
	}
	a.lawsChanged()
	return ImportedLaw{SnapshotID: stored.ID, JurisdictionID: stored.JurisdictionID, EffectiveFrom: stored.EffectiveFrom,
		EffectiveUntil: optional(stored.EffectiveUntil), Status: "imported", Created: created}, nil
}

// ListLaws lists the stored snapshots.
func (a *Admin) ListLaws(_ context.Context) ([]LawInfo, error) {
	st, err := a.laws()
	if err != nil {
		return nil, err
	}
	all, err := st.LawSnapshots("", false)
	if err != nil {
		return nil, err
	}
	out := make([]LawInfo, len(all))
	for i, s := range all {
		out[i] = lawInfo(s)
	}
	return out, nil
}

// LawSnapshots returns one jurisdiction's snapshots with their content,
// for `review --jurisdiction` while a server holds the database.
func (a *Admin) LawSnapshots(_ context.Context, jurisdictionID string) ([]store.LawSnapshot, error) {
	st, err := a.laws()
	if err != nil {
		return nil, err
	}
	return st.LawSnapshots(jurisdictionID, true)
}

// CertifyLaw records the operator's attestation that the snapshot is
// complete and current for scope (default: the snapshot's topics). A scope
// topic must be one of the snapshot's topics or below one.
func (a *Admin) CertifyLaw(_ context.Context, id, certificateID string, scope []string) (LawInfo, error) {
	st, err := a.laws()
	if err != nil {
		return LawInfo{}, err
	}
	if strings.TrimSpace(certificateID) == "" || utf8.RuneCountInString(certificateID) > 100 || strings.ContainsFunc(certificateID, isControl) {
		return LawInfo{}, &AdminError{"--certificate must be 1-100 printable characters"}
	}
	s, err := st.LawSnapshot(id)
	if errors.Is(err, store.ErrNotFound) {
		return LawInfo{}, &AdminError{fmt.Sprintf("no snapshot %s (planreview laws list shows the stored ones)", id)}
	}
	if err != nil {
		return LawInfo{}, err
	}
	snap, err := codebasis.Decode(s.Content)
	if err != nil {
		return LawInfo{}, &AdminError{fmt.Sprintf("snapshot %s cannot be read (%v); run planreview laws verify %s", id, err, id)}
	}
	if len(scope) == 0 {
		scope = snap.Topics
	}
	seen := map[string]bool{}
	var clean []string
	for _, t := range scope {
		if !codebasis.ValidTopic(t) {
			return LawInfo{}, &AdminError{fmt.Sprintf("--scope %q is not a topic name (life-safety.stairs)", t)}
		}
		covered := false
		for _, have := range snap.Topics {
			covered = covered || codebasis.Covers(have, t)
		}
		if !covered {
			return LawInfo{}, &AdminError{fmt.Sprintf("--scope %q is not among the snapshot's topics (%s): a certification cannot cover what the snapshot does not",
				t, strings.Join(snap.Topics, ", "))}
		}
		if !seen[t] {
			seen[t] = true
			clean = append(clean, t)
		}
	}
	s, err = st.CertifyLawSnapshot(id, certificateID, clean)
	if errors.Is(err, store.ErrSnapshotTampered) {
		return LawInfo{}, &AdminError{fmt.Sprintf("snapshot %s: %v; import the file again instead of certifying it", id, err)}
	}
	if err != nil {
		return LawInfo{}, err
	}
	a.lawsChanged()
	return lawInfo(s), nil
}

// VerifyLaw re-checks the stored content hash and, when it holds, records
// freshnessCheckedAt = now. A failure changes nothing and wraps
// ErrVerifyFailed.
func (a *Admin) VerifyLaw(_ context.Context, id string) (VerifiedLaw, error) {
	st, err := a.laws()
	if err != nil {
		return VerifiedLaw{}, err
	}
	s, err := st.VerifyLawSnapshot(id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return VerifiedLaw{}, &AdminError{fmt.Sprintf("no snapshot %s (planreview laws list shows the stored ones)", id)}
	case errors.Is(err, store.ErrSnapshotTampered):
		return VerifiedLaw{SnapshotID: id, Status: "failed", Reason: "the stored content no longer matches its SHA-256 and id; nothing was changed"},
			fmt.Errorf("%w: %s: the stored content no longer matches its SHA-256 and id; nothing was changed", ErrVerifyFailed, id)
	case err != nil:
		return VerifiedLaw{}, err
	}
	return VerifiedLaw{SnapshotID: s.ID, Status: "verified", SHA256: s.SHA256, FreshnessCheckedAt: s.FreshnessCheckedAt}, nil
}

// maxSnapshotBytes bounds a snapshot file sent over the admin socket
// (a 5,000-amendment snapshot is about 1 MB).
const maxSnapshotBytes = 64 << 20

// lawsRoutes serves the laws commands on the admin socket.
func lawsRoutes(mux *http.ServeMux, a *Admin, log *slog.Logger, reply func(http.ResponseWriter, any, error)) {
	mux.HandleFunc("POST /v1/laws", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			FileName string `json:"fileName"`
			Content  string `json:"content"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, maxSnapshotBytes)).Decode(&req); err != nil {
			reply(w, nil, &AdminError{"bad request body: " + err.Error()})
			return
		}
		res, err := a.ImportLaw(r.Context(), req.FileName, []byte(req.Content))
		log.Info("admin: law snapshot imported", "snapshot_id", res.SnapshotID, "created", res.Created, "ok", err == nil)
		reply(w, struct {
			ImportedLaw
			Created bool `json:"created"`
		}{res, res.Created}, err)
	})
	mux.HandleFunc("GET /v1/laws", func(w http.ResponseWriter, r *http.Request) {
		if j := r.URL.Query().Get("jurisdiction"); j != "" {
			all, err := a.LawSnapshots(r.Context(), j)
			reply(w, all, err)
			return
		}
		all, err := a.ListLaws(r.Context())
		reply(w, all, err)
	})
	mux.HandleFunc("POST /v1/laws/{id}/certify", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			CertificateID string   `json:"certificateId"`
			Scope         []string `json:"scope"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, maxBodyBytes)).Decode(&req); err != nil {
			reply(w, nil, &AdminError{"bad request body: " + err.Error()})
			return
		}
		info, err := a.CertifyLaw(r.Context(), r.PathValue("id"), req.CertificateID, req.Scope)
		log.Info("admin: law snapshot certified", "snapshot_id", r.PathValue("id"), "ok", err == nil)
		reply(w, info, err)
	})
	mux.HandleFunc("POST /v1/laws/{id}/verify", func(w http.ResponseWriter, r *http.Request) {
		res, err := a.VerifyLaw(r.Context(), r.PathValue("id"))
		log.Info("admin: law snapshot verified", "snapshot_id", r.PathValue("id"), "ok", err == nil)
		if errors.Is(err, ErrVerifyFailed) {
			writeJSON(w, http.StatusConflict, map[string]any{"error": err.Error(), "result": res})
			return
		}
		reply(w, res, err)
	})
}
