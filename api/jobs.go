package api

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"planreview/store"
)

type createJobRequest struct {
	Name            *string `json:"name"`
	Description     *string `json:"description"`
	ExternalID      *string `json:"externalId"`
	ApplicationDate *string `json:"applicationDate"`
	JurisdictionID  *string `json:"jurisdictionId"`
}

func (req createJobRequest) validate() error {
	if err := checkText("name", req.Name, true, 200); err != nil {
		return err
	}
	if req.Name != nil && strings.ContainsAny(*req.Name, "\r\n\t") {
		return invalidParam("name", "name must be a single line.")
	}
	if err := checkText("description", req.Description, false, 4000); err != nil {
		return err
	}
	if err := checkText("externalId", req.ExternalID, false, 200); err != nil {
		return err
	}
	if req.ApplicationDate != nil {
		if _, err := time.Parse(time.DateOnly, *req.ApplicationDate); err != nil {
			return invalidParam("applicationDate", "applicationDate must be a date as YYYY-MM-DD.")
		}
	}
	return checkJurisdiction("jurisdictionId", req.JurisdictionID)
}

func (s *Server) createJob(w http.ResponseWriter, r *http.Request) error {
	var req createJobRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := req.validate(); err != nil {
		return err
	}
	appDate := s.now().UTC().Format(time.DateOnly)
	if req.ApplicationDate != nil {
		appDate = *req.ApplicationDate
	}
	partner := principalFrom(r.Context()).partner
	jurisdiction := partner.Jurisdiction // the partner's default, set by the operator
	if req.JurisdictionID != nil {
		jurisdiction = *req.JurisdictionID
	}
	answer := replyTo(r, http.StatusCreated, func(jv store.JobWithVersion) any {
		return viewJob(jv.Job, jv.Current, []store.Version{jv.Current})
	})
	job, _, err := s.store.CreateJobWithReply(store.Job{
		PartnerID: partner.ID, Name: *req.Name,
		Description: deref(req.Description), ExternalID: deref(req.ExternalID), ApplicationDate: appDate,
		JurisdictionID: jurisdiction,
	}, &answer.Reply)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.opts.PublicURL+"/api/v1/jobs/"+job.ID)
	answer.send(w)
	return nil
}

func (s *Server) getJob(w http.ResponseWriter, r *http.Request) error {
	jobID := r.PathValue("jobId")
	if !store.ValidID(jobID, store.PrefixJob) {
		return errNotFound
	}
	job, versions, err := s.store.Job(principalFrom(r.Context()).partner.ID, jobID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewJob(job, currentVersion(job, versions), versions))
	return nil
}

func currentVersion(j store.Job, versions []store.Version) store.Version {
	for _, v := range versions {
		if v.ID == j.CurrentVersionID {
			return v
		}
	}
	return store.Version{}
}

type jobList struct {
	Jobs       []jobView `json:"jobs"`
	NextCursor *string   `json:"nextCursor"`
}

var jobStatuses = []string{store.StatusCreated, store.StatusQueued, store.StatusProcessing, store.StatusComplete, store.StatusFailed}

func (s *Server) listJobs(w http.ResponseWriter, r *http.Request) error {
	q, err := parseJobQuery(r)
	if err != nil {
		return err
	}
	return s.writeJobList(w, r, q)
}

// writeJobList answers one page of the partner's jobs (the API's list and
// the login screen's).
func (s *Server) writeJobList(w http.ResponseWriter, r *http.Request, q store.JobQuery) error {
	items, next, err := s.store.Jobs(principalFrom(r.Context()).partner.ID, q)
	if err != nil {
		return err
	}
	out := jobList{Jobs: make([]jobView, len(items))}
	for i, it := range items {
		out.Jobs[i] = viewJob(it.Job, it.Current, nil)
	}
	if next != "" {
		c := encodeCursor(next)
		out.NextCursor = &c
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func parseJobQuery(r *http.Request) (store.JobQuery, error) {
	query := r.URL.Query()
	q := store.JobQuery{Limit: 50, Status: query.Get("status"), ExternalID: query.Get("externalId")}
	if raw := query.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 200 {
			return q, invalidParam("limit", "limit must be a whole number from 1 to 200.")
		}
		q.Limit = n
	}
	if raw := query.Get("cursor"); raw != "" {
		id, ok := decodeCursor(raw)
		if !ok {
			return q, invalidParam("cursor", "cursor is not one this API returned.")
		}
		q.After = id
	}
	if raw := query.Get("jurisdictionId"); raw != "" {
		if err := checkJurisdiction("jurisdictionId", &raw); err != nil {
			return q, err
		}
		q.JurisdictionID = raw
	}
	if q.Status != "" && !slices.Contains(jobStatuses, q.Status) {
		return q, invalidParam("status", "status must be one of %s.", strings.Join(jobStatuses, ", "))
	}
	return q, nil
}

// Cursors are opaque to clients; today they wrap the last job id seen.
func encodeCursor(jobID string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(jobID))
}

func decodeCursor(c string) (string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !store.ValidID(string(raw), store.PrefixJob) {
		return "", false
	}
	return string(raw), true
}
