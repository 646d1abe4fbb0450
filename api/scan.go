package api

import (
	"errors"
	"math"
	"net/http"
	"time"

	"planreview/store"
)

// quotaWindow is the contract's rolling scan-quota window.
const quotaWindow = 24 * time.Hour

type scanResponse struct {
	JobID     string         `json:"jobId"`
	VersionID string         `json:"versionId"`
	Status    string         `json:"status"`
	Pipeline  store.Pipeline `json:"pipeline"`
}

// startScan queues the current version's scan. Repeats while it is queued,
// running or complete answer its state and start nothing; a failed scan is
// queued again.
func (s *Server) startScan(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	p := principalFrom(r.Context())
	quota := s.opts.ScanQuota
	if p.partner.ScanQuota > 0 {
		quota = p.partner.ScanQuota
	}
	answer := replyTo(r, http.StatusOK, func(v store.Version) any {
		return scanResponse{JobID: jobID, VersionID: v.ID, Status: v.Status, Pipeline: v.Pipeline}
	})
	_, queued, err := s.store.StartScan(store.ScanRequest{PartnerID: p.partner.ID, JobID: jobID, Quota: quota, Window: quotaWindow,
		Reply: &answer.Reply})
	var quotaErr *store.QuotaError
	switch {
	case errors.Is(err, store.ErrNoFiles):
		return errorf(http.StatusBadRequest, "no_files", "The job's current version has no files; register and upload a PDF first.")
	case errors.Is(err, store.ErrFileNotUploaded):
		return errorf(http.StatusBadRequest, "file_not_uploaded", "A file of the current version has not been uploaded yet.")
	case errors.As(err, &quotaErr):
		return &Error{Status: http.StatusTooManyRequests, Code: "quota_exceeded",
			Message:    "The partner's scan quota for the last 24 hours is used up.",
			RetryAfter: max(1, int(math.Ceil(quotaErr.RetryAfter.Seconds())))}
	case err != nil:
		return err
	}
	if queued && s.opts.ScanQueued != nil {
		s.opts.ScanQueued()
	}
	answer.send(w)
	return nil
}
