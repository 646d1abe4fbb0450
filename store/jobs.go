package store

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Version and job statuses. A job's status is its current version's.
const (
	StatusCreated    = "created"
	StatusQueued     = "queued"
	StatusProcessing = "processing"
	StatusComplete   = "complete"
	StatusFailed     = "failed"
)

// Pipeline stages in the order a scan passes them.
const (
	StageNotStarted  = "not_started"
	StageQueued      = "queued"
	StagePreparing   = "preparing"
	StageExtracting  = "extracting"
	StageClassifying = "classifying"
	StageReviewing   = "reviewing"
	StageIndexing    = "indexing" // the chat index
	StageAnnotating  = "annotating"
	StageDone        = "done"
	StageFailed      = "failed"
)

// WorkStages are the stages that do work, each listed in Pipeline.Stages.
var WorkStages = []string{StagePreparing, StageExtracting, StageClassifying, StageReviewing, StageIndexing, StageAnnotating}

// Job is one plan set of a partner.
type Job struct {
	ID               string    `json:"id"`
	PartnerID        string    `json:"partnerId"`
	Name             string    `json:"name"`
	Description      string    `json:"description"`
	ExternalID       string    `json:"externalId"`
	ApplicationDate  string    `json:"applicationDate"` // YYYY-MM-DD
	CurrentVersionID string    `json:"currentVersionId"`
	CreatedAt        time.Time `json:"createdAt"`
	UpdatedAt        time.Time `json:"updatedAt"`

	JurisdictionID string `json:"jurisdictionId,omitempty"` // OCD division id; "" = none
	// LastCompletedVersionID is the newest version whose scan completed
	// ("" before any did).
	LastCompletedVersionID string `json:"lastCompletedVersionId,omitempty"`
}

// Version is one submittal round of a job's plan set.
type Version struct {
	ID               string          `json:"id"`
	JobID            string          `json:"jobId"`
	Number           int             `json:"number"`
	Status           string          `json:"status"`
	Pipeline         Pipeline        `json:"pipeline"`
	FindingCounts    FindingCounts   `json:"findingCounts"`
	LocalLawCoverage json.RawMessage `json:"localLawCoverage,omitempty"`
	CodeBasis        json.RawMessage `json:"codeBasis,omitempty"`
	CreatedAt        time.Time       `json:"createdAt"`
	UpdatedAt        time.Time       `json:"updatedAt"`
	// ScanAttempts counts the claims of the current scan that did not end
	// (a crash during it); RecoverScans fails the scan after too many.
	ScanAttempts int `json:"scanAttempts,omitempty"`
	// FindingsRevision counts the changes people made to the findings
	// (dispositions, edits, comments); a marked-up copy drawn for an older
	// revision is drawn again.
	FindingsRevision int `json:"findingsRevision,omitempty"`
	// ProjectAddress is the project's address as the scan read it from
	// the sheets ("" when none was read).
	ProjectAddress string `json:"projectAddress,omitempty"`
	// Round is what the completed scan's comparison with the previous
	// completed version found (nil before the scan completed).
	Round *RoundSummary `json:"round,omitempty"`
}

// Open reports whether files may still be registered and uploaded.
func (v Version) Open() bool { return v.Status == StatusCreated }

// Pipeline is the progress of a version's scan, in the contract's shape.
type Pipeline struct {
	CurrentStage   string     `json:"currentStage"`
	Stages         []Stage    `json:"stages,omitempty"`
	Progress       float64    `json:"progress"`
	PagesTotal     int        `json:"pagesTotal"`
	PagesProcessed int        `json:"pagesProcessed"`
	StartedAt      *time.Time `json:"startedAt"`
	FinishedAt     *time.Time `json:"finishedAt"`
	Error          *Problem   `json:"error"`
	// ModelReview records the optional model review pass (omitted when
	// no model is configured).
	ModelReview *ModelPass `json:"modelReview,omitempty"`
}

// Stage is one pipeline stage's state: pending, running, done, failed.
type Stage struct {
	Name       string     `json:"name"`
	Status     string     `json:"status"`
	StartedAt  *time.Time `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"`
}

// Problem is a machine-readable failure: code plus human message.
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// FindingCounts counts a version's findings by severity.
type FindingCounts struct {
	Critical int `json:"critical"`
	High     int `json:"high"`
	Medium   int `json:"medium"`
	Low      int `json:"low"`
	Info     int `json:"info"`
}

// NewPipeline is the pipeline of a version not scanned yet.
func NewPipeline() Pipeline {
	p := Pipeline{CurrentStage: StageNotStarted, Stages: make([]Stage, len(WorkStages))}
	for i, name := range WorkStages {
		p.Stages[i] = Stage{Name: name, Status: "pending"}
	}
	return p
}

// JobWithVersion is a job and its current version, as listings need them.
type JobWithVersion struct {
	Job     Job
	Current Version
}

// CreateJob stores a new job with its first version. It runs in a bbolt
// batch so concurrent creations share one commit; ids are made before the
// batch so the function is safe to run again.
func (db *DB) CreateJob(j Job) (Job, Version, error) { return db.CreateJobWithReply(j, nil) }

// CreateJobWithReply is CreateJob answering reply in the same transaction.
func (db *DB) CreateJobWithReply(j Job, reply *Reply[JobWithVersion]) (Job, Version, error) {
	now := db.now().UTC()
	j.ID = NewID(PrefixJob)
	j.CreatedAt, j.UpdatedAt = now, now
	v := Version{ID: NewID(PrefixVersion), JobID: j.ID, Number: 1, Status: StatusCreated,
		Pipeline: NewPipeline(), CreatedAt: now, UpdatedAt: now}
	j.CurrentVersionID = v.ID
	err := db.bolt.Batch(func(tx *bolt.Tx) error {
		if err := putJSON(tx.Bucket(bucketJobs), j.ID, j); err != nil {
			return err
		}
		if err := tx.Bucket(bucketPartnerJobs).Put(indexKey(j.PartnerID, j.ID), nil); err != nil {
			return err
		}
		if err := putVersion(tx, v); err != nil {
			return err
		}
		return reply.answer(tx, JobWithVersion{Job: j, Current: v}, now)
	})
	return j, v, err
}

func putVersion(tx *bolt.Tx, v Version) error {
	if err := putJSON(tx.Bucket(bucketVersions), v.ID, v); err != nil {
		return err
	}
	return tx.Bucket(bucketJobVersions).Put(indexKey(v.JobID, v.ID), nil)
}

// ownedJob loads a job and hides other partners' jobs behind ErrNotFound, so
// a foreign id is indistinguishable from a missing one.
func ownedJob(tx *bolt.Tx, partnerID, jobID string) (Job, error) {
	var j Job
	if err := getJSON(tx.Bucket(bucketJobs), jobID, &j); err != nil {
		return j, err
	}
	if j.PartnerID != partnerID {
		return Job{}, ErrNotFound
	}
	return j, nil
}

// cachedOwnedJob is ownedJob through the decode cache (a Job has no shared
// parts, so every caller may change its copy).
func (db *DB) cachedOwnedJob(tx *bolt.Tx, partnerID, jobID string) (Job, error) {
	raw := tx.Bucket(bucketJobs).Get([]byte(jobID))
	if raw == nil {
		return Job{}, ErrNotFound
	}
	j, err := db.jobCache.decode(jobID, raw)
	if err != nil {
		return Job{}, err
	}
	if j.PartnerID != partnerID {
		return Job{}, ErrNotFound
	}
	return j, nil
}

// cachedVersions lists a job's versions, oldest first, through the decode
// cache; the versions share their stage slices, so callers only read them.
func (db *DB) cachedVersions(tx *bolt.Tx, jobID string) ([]Version, error) {
	var out []Version
	prefix := indexKey(jobID, "")
	versions := tx.Bucket(bucketVersions)
	c := tx.Bucket(bucketJobVersions).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		id := string(k[len(prefix):])
		raw := versions.Get([]byte(id))
		if raw == nil {
			return nil, ErrNotFound
		}
		v, err := db.versionCache.decode(id, raw)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Job returns a partner's job with all its versions, oldest first. The
// versions are shared with other readers: read them, do not change them.
func (db *DB) Job(partnerID, jobID string) (Job, []Version, error) {
	var j Job
	var versions []Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		if j, err = db.cachedOwnedJob(tx, partnerID, jobID); err != nil {
			return err
		}
		versions, err = db.cachedVersions(tx, jobID)
		return err
	})
	return j, versions, err
}

// versionIDs lists a job's version ids, oldest first, from the index alone.
func versionIDs(tx *bolt.Tx, jobID string) []string {
	var out []string
	prefix := indexKey(jobID, "")
	c := tx.Bucket(bucketJobVersions).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		out = append(out, string(k[len(prefix):]))
	}
	return out
}

// JobQuery filters and pages a partner's job list.
type JobQuery struct {
	Limit      int    // items per page; 0 or less means defaultJobLimit
	After      string // job id of the last item of the previous page
	Status     string
	ExternalID string

	JurisdictionID string // only jobs of this jurisdiction
	Search         string // only jobs whose name or external id holds it (any case)
}

// defaultJobLimit is the page size of a JobQuery without a limit (the
// contract's default for GET /jobs).
const defaultJobLimit = 50

// Jobs lists a partner's jobs newest first. next is the id to pass as After
// for the following page, or "" on the last page.
func (db *DB) Jobs(partnerID string, q JobQuery) (items []JobWithVersion, next string, err error) {
	if q.Limit <= 0 {
		q.Limit = defaultJobLimit // a zero limit would index items[-1]
	}
	err = db.bolt.View(func(tx *bolt.Tx) error {
		prefix := indexKey(partnerID, "")
		c := tx.Bucket(bucketPartnerJobs).Cursor()
		// Walk backwards from just below start: the cursor's job, or (0xff
		// sorting after every id character) past the partner's newest job.
		start := append(indexKey(partnerID, ""), 0xff)
		if q.After != "" {
			start = indexKey(partnerID, q.After)
		}
		k, _ := c.Seek(start)
		if k == nil {
			k, _ = c.Last()
		} else {
			k, _ = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Prev() {
			var item JobWithVersion
			if err := getJSON(tx.Bucket(bucketJobs), string(k[len(prefix):]), &item.Job); err != nil {
				return err
			}
			if q.ExternalID != "" && item.Job.ExternalID != q.ExternalID {
				continue
			}
			if q.JurisdictionID != "" && item.Job.JurisdictionID != q.JurisdictionID {
				continue
			}
			if q.Search != "" && !containsFold(item.Job.Name, q.Search) && !containsFold(item.Job.ExternalID, q.Search) {
				continue
			}
			if err := getJSON(tx.Bucket(bucketVersions), item.Job.CurrentVersionID, &item.Current); err != nil {
				return err
			}
			if q.Status != "" && item.Current.Status != q.Status {
				continue
			}
			if len(items) == q.Limit {
				next = items[len(items)-1].Job.ID
				return nil
			}
			items = append(items, item)
		}
		return nil
	})
	return items, next, err
}

// Version returns a version of a partner's job.
func (db *DB) Version(partnerID, jobID, versionID string) (Version, error) {
	var v Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		if _, err := ownedJob(tx, partnerID, jobID); err != nil {
			return err
		}
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return err
		}
		if v.JobID != jobID {
			return ErrNotFound
		}
		return nil
	})
	return v, err
}

// sortByID orders records whose ids are time-ordered, oldest first.
func sortByID[T any](items []T, id func(T) string) {
	sort.Slice(items, func(i, j int) bool { return id(items[i]) < id(items[j]) })
}

// containsFold reports whether s holds sub, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
