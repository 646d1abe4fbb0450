package api

import (
	"encoding/json"
	"time"

	"planreview/store"
)

// jobView is a job as GET /jobs/{jobId} shows it; lists omit versions and
// pipeline stages.
type jobView struct {
	JobID            string              `json:"jobId"`
	VersionID        string              `json:"versionId"`
	Name             string              `json:"name"`
	Description      *string             `json:"description"`
	ExternalID       *string             `json:"externalId"`
	ApplicationDate  string              `json:"applicationDate"`
	JurisdictionID   *string             `json:"jurisdictionId"`
	Status           string              `json:"status"`
	Pipeline         store.Pipeline      `json:"pipeline"`
	FindingCounts    store.FindingCounts `json:"findingCounts"`
	LocalLawCoverage json.RawMessage     `json:"localLawCoverage"`
	// LastCompletedVersionID is the newest version whose scan completed:
	// its results stand while a newer version is open or scanning.
	LastCompletedVersionID *string       `json:"lastCompletedVersionId"`
	Versions               []versionView `json:"versions,omitempty"`
	CreatedAt              time.Time     `json:"createdAt"`
	UpdatedAt              time.Time     `json:"updatedAt"`
}

type versionView struct {
	VersionID string    `json:"versionId"`
	Number    int       `json:"number"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
	// Round is the version's comparison with the previous completed
	// version, once its scan completed.
	Round *store.RoundSummary `json:"round,omitempty"`
}

// viewJob renders a job with its current version; versions may be nil (lists).
func viewJob(j store.Job, current store.Version, versions []store.Version) jobView {
	v := jobView{
		JobID: j.ID, VersionID: current.ID, Name: j.Name,
		Description: optional(j.Description), ExternalID: optional(j.ExternalID),
		ApplicationDate: j.ApplicationDate, JurisdictionID: optional(j.JurisdictionID), Status: current.Status,
		Pipeline: current.Pipeline, FindingCounts: current.FindingCounts,
		LocalLawCoverage: current.LocalLawCoverage,
		CreatedAt:        j.CreatedAt, UpdatedAt: latest(j.UpdatedAt, current.UpdatedAt),
	}
	v.LastCompletedVersionID = optional(j.LastCompletedVersionID)
	if current.Status == store.StatusComplete {
		v.LastCompletedVersionID = optional(current.ID)
	}
	if len(v.LocalLawCoverage) == 0 {
		v.LocalLawCoverage = json.RawMessage("null")
	}
	if versions == nil {
		v.Pipeline.Stages = nil
		return v
	}
	v.Versions = make([]versionView, len(versions))
	for i, ver := range versions {
		v.Versions[i] = versionView{VersionID: ver.ID, Number: ver.Number, Status: ver.Status, CreatedAt: ver.CreatedAt}
		if ver.Status == store.StatusComplete {
			v.Versions[i].Round = ver.Round
		}
	}
	// Versions completed before the job recorded its last completed one.
	if last := store.LastCompletedVersion(versions); last != "" {
		v.LastCompletedVersionID = &last
	}
	return v
}

// fileView is a file as GET /jobs/{jobId}/files lists it.
type fileView struct {
	FileID      string         `json:"fileId"`
	VersionID   string         `json:"versionId"`
	FileName    string         `json:"fileName"`
	FileSize    int64          `json:"fileSize"`
	ContentType string         `json:"contentType"`
	FileTag     *string        `json:"fileTag"`
	Status      string         `json:"status"`
	SHA256      *string        `json:"sha256"`
	PageCount   *int           `json:"pageCount"`
	Error       *store.Problem `json:"error,omitempty"`
	CreatedAt   time.Time      `json:"createdAt"`
	UploadedAt  *time.Time     `json:"uploadedAt"`
}

func viewFile(f store.File) fileView {
	return fileView{
		FileID: f.ID, VersionID: f.VersionID, FileName: f.FileName, FileSize: f.FileSize,
		ContentType: f.ContentType, FileTag: optional(f.FileTag), Status: f.Status,
		SHA256: optional(f.SHA256), PageCount: f.PageCount, Error: f.Error,
		CreatedAt: f.CreatedAt, UploadedAt: f.UploadedAt,
	}
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
