package api

import (
	"context"
	"errors"

	"planreview/store"
)

// AuditReport is the result of `planreview audit verify`: the chain of one
// job's audit trail recomputed from the stored events.
type AuditReport struct {
	JobID  string `json:"jobId"`
	Valid  bool   `json:"valid"`
	Events int    `json:"events"` // events checked (through the broken one)
	Head   string `json:"head"`   // hash of the last good event
	// The first broken event: its id (empty when its record is not even
	// readable), its 1-based position in the trail, and why.
	BrokenEventID  string `json:"brokenEventId,omitempty"`
	BrokenPosition int    `json:"brokenPosition,omitempty"`
	Reason         string `json:"reason,omitempty"`
}

// VerifyAudit recomputes a job's audit hash chain (any partner's job: the
// operator's check).
func (a *Admin) VerifyAudit(_ context.Context, jobID string) (AuditReport, error) {
	if !store.ValidID(jobID, store.PrefixJob) {
		return AuditReport{}, &AdminError{"not a job id: " + jobID}
	}
	res, err := a.Store.VerifyAudit(jobID)
	if errors.Is(err, store.ErrNotFound) {
		return AuditReport{}, &AdminError{"no such job: " + jobID}
	}
	if err != nil {
		return AuditReport{}, err
	}
	rep := AuditReport{JobID: jobID, Valid: res.Broken == nil, Events: res.Events, Head: res.Head}
	if b := res.Broken; b != nil {
		rep.BrokenEventID, rep.BrokenPosition, rep.Reason = b.EventID, b.Index+1, b.Reason
	}
	return rep, nil
}
