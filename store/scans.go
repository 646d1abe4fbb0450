package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"planreview/rounds"

	bolt "go.etcd.io/bbolt"
)

// Scan errors, mapped by the API to 400 no_files / file_not_uploaded and
// 429 quota_exceeded.
var (
	ErrNoFiles          = errors.New("version has no files")
	ErrFileNotUploaded  = errors.New("a file of the version is not uploaded")
	ErrNoScanInProgress = errors.New("version is not being scanned")
)

// QuotaError is returned when a partner's rolling scan quota is used up.
type QuotaError struct {
	RetryAfter time.Duration // until the oldest scan in the window leaves it
}

func (e *QuotaError) Error() string { return "scan quota exceeded" }

var (
	bucketScanQueue  = []byte("scan_queue")  // seq (8 bytes BE) -> version id
	bucketScanActive = []byte("scan_active") // version id -> nil while processing
	bucketScanEvents = []byte("scan_events") // partner id 0x00 unix-nanos (8 bytes BE) -> version id
	bucketFindings   = []byte("findings")    // version id 0x00 seq (4 bytes BE) -> Finding
	bucketScanTurns  = []byte("scan_turns")  // partner id -> claim seq (8 bytes BE) of its last claimed scan
)

// ScanRequest is what StartScan needs to know of the partner's quota.
type ScanRequest struct {
	PartnerID, JobID string
	Quota            int           // scans per window
	Window           time.Duration // rolling, 24 h by contract
	// Reply answers the request in StartScan's transaction (nil: none).
	Reply *Reply[Version]
}

// StartScan queues the job's current version for scanning, once. A version
// already queued, processing or complete is returned as it is; a failed
// one is queued again (a retry). Only a scan actually queued uses quota.
func (db *DB) StartScan(req ScanRequest) (v Version, queued bool, err error) {
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		j, err := ownedJob(tx, req.PartnerID, req.JobID)
		if err != nil {
			return err
		}
		if err := getJSON(tx.Bucket(bucketVersions), j.CurrentVersionID, &v); err != nil {
			return err
		}
		if v.Status != StatusCreated && v.Status != StatusFailed {
			return req.Reply.answer(tx, v, db.now())
		}
		files, err := versionFiles(tx, v.ID)
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return ErrNoFiles
		}
		for _, f := range files {
			if f.Status == FilePendingUpload {
				return ErrFileNotUploaded
			}
		}
		now := db.now().UTC()
		if err := takeQuota(tx, req, v.ID, now); err != nil {
			return err
		}
		v.Status = StatusQueued
		v.Pipeline = NewPipeline()
		v.Pipeline.CurrentStage = StageQueued
		v.UpdatedAt = now
		v.FindingCounts = FindingCounts{}
		v.ScanAttempts = 0
		if err := putJSON(tx.Bucket(bucketVersions), v.ID, v); err != nil {
			return err
		}
		j.UpdatedAt = now
		if err := putJSON(tx.Bucket(bucketJobs), j.ID, j); err != nil {
			return err
		}
		queued = true
		if err := enqueue(tx, v.ID); err != nil {
			return err
		}
		return req.Reply.answer(tx, v, now)
	})
	return v, queued, err
}

// takeQuota records one scan for the partner unless the window is full.
func takeQuota(tx *bolt.Tx, req ScanRequest, versionID string, now time.Time) error {
	b := tx.Bucket(bucketScanEvents)
	prefix := indexKey(req.PartnerID, "")
	windowStart := now.Add(-req.Window)
	c := b.Cursor()
	var inWindow []time.Time
	var stale [][]byte
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		at := time.Unix(0, int64(binary.BigEndian.Uint64(k[len(prefix):])))
		if at.After(windowStart) {
			inWindow = append(inWindow, at)
		} else {
			stale = append(stale, append([]byte(nil), k...))
		}
	}
	for _, k := range stale { // keep the bucket as small as the window
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	if len(inWindow) >= req.Quota {
		// Events are in time order: the (len-quota)th frees the next slot.
		frees := inWindow[len(inWindow)-req.Quota].Add(req.Window)
		return &QuotaError{RetryAfter: frees.Sub(now)}
	}
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], uint64(now.UnixNano()))
	return b.Put(append(prefix, ts[:]...), []byte(versionID))
}

func enqueue(tx *bolt.Tx, versionID string) error {
	b := tx.Bucket(bucketScanQueue)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	return b.Put(k[:], []byte(versionID))
}

// claimWindow is how many queued scans ClaimScan looks at to pick a fair
// one: far more than partners ever have scans running at once.
const claimWindow = 1000

// ClaimScan takes a queued version and marks it processing; ok is false
// when the queue is empty. The pick is fair between partners: a partner
// with fewer scans running goes first (so one partner's slow scans never
// hold every worker while another's wait), ties go to the partner whose
// last scan was claimed longest ago (round robin), then to the oldest
// queued scan. The claim is durable: a crash leaves the version in
// scan_active, and RecoverScans queues it again (or fails it, after too
// many crashes).
func (db *DB) ClaimScan() (v Version, ok bool, err error) {
	err = db.bolt.Update(func(tx *bolt.Tx) error {
		partners := partnerLookup(tx)
		running := map[string]int{}
		if err := tx.Bucket(bucketScanActive).ForEach(func(k, _ []byte) error {
			if p, ok := partners(string(k)); ok {
				running[p]++
			}
			return nil
		}); err != nil {
			return err
		}
		turns := tx.Bucket(bucketScanTurns)
		lastTurn := func(partner string) uint64 {
			if raw := turns.Get([]byte(partner)); len(raw) == 8 {
				return binary.BigEndian.Uint64(raw)
			}
			return 0
		}
		type pick struct {
			key                []byte
			versionID, partner string
			running            int
			turn               uint64
		}
		var best *pick
		var dangling [][]byte
		c := tx.Bucket(bucketScanQueue).Cursor()
		seen := 0
		for k, id := c.First(); k != nil && seen < claimWindow; k, id = c.Next() {
			seen++
			partner, ok := partners(string(id))
			if !ok {
				dangling = append(dangling, append([]byte(nil), k...))
				continue
			}
			p := pick{key: append([]byte(nil), k...), versionID: string(id), partner: partner,
				running: running[partner], turn: lastTurn(partner)}
			if best == nil || p.running < best.running || (p.running == best.running && p.turn < best.turn) {
				best = &p
			}
		}
		for _, k := range dangling { // entries whose version is gone
			if err := tx.Bucket(bucketScanQueue).Delete(k); err != nil {
				return err
			}
		}
		if best == nil {
			return nil
		}
		if err := tx.Bucket(bucketScanQueue).Delete(best.key); err != nil {
			return err
		}
		seq, err := turns.NextSequence()
		if err != nil {
			return err
		}
		var turn [8]byte
		binary.BigEndian.PutUint64(turn[:], seq)
		if err := turns.Put([]byte(best.partner), turn[:]); err != nil {
			return err
		}
		if err := getJSON(tx.Bucket(bucketVersions), best.versionID, &v); err != nil {
			return err
		}
		now := db.now().UTC()
		v.Status = StatusProcessing
		v.Pipeline.StartedAt = &now
		v.UpdatedAt = now
		v.ScanAttempts++
		if err := putJSON(tx.Bucket(bucketVersions), v.ID, v); err != nil {
			return err
		}
		ok = true
		return tx.Bucket(bucketScanActive).Put([]byte(v.ID), nil)
	})
	return v, ok, err
}

// partnerLookup resolves a version id to its job's partner, caching jobs
// for the transaction; ok is false for a version or job that is gone.
func partnerLookup(tx *bolt.Tx) func(versionID string) (string, bool) {
	jobs := map[string]string{}
	return func(versionID string) (string, bool) {
		var v Version
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return "", false
		}
		if p, ok := jobs[v.JobID]; ok {
			return p, true
		}
		var j Job
		if err := getJSON(tx.Bucket(bucketJobs), v.JobID, &j); err != nil {
			return "", false
		}
		jobs[v.JobID] = j.PartnerID
		return j.PartnerID, true
	}
}

// RequeueScan puts a claimed version back at the end of the queue with a
// fresh pipeline (shutdown: not an attempt that failed).
func (db *DB) RequeueScan(versionID string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		return requeue(tx, versionID, db.now().UTC(), false)
	})
}

// requeue queues a claimed version again. crashed keeps the claim counted
// as an attempt; a shutdown gives it back.
func requeue(tx *bolt.Tx, versionID string, now time.Time, crashed bool) error {
	var v Version
	if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
		return err
	}
	if err := tx.Bucket(bucketScanActive).Delete([]byte(versionID)); err != nil {
		return err
	}
	v.Status = StatusQueued
	v.Pipeline = NewPipeline()
	v.Pipeline.CurrentStage = StageQueued
	v.UpdatedAt = now
	if !crashed && v.ScanAttempts > 0 {
		v.ScanAttempts--
	}
	if err := putJSON(tx.Bucket(bucketVersions), v.ID, v); err != nil {
		return err
	}
	return enqueue(tx, v.ID)
}

// Recovery is what RecoverScans did at start-up.
type Recovery struct {
	Requeued int
	// Failed lists the versions whose scan was interrupted maxAttempts
	// times (the process died during it each time): they end failed with
	// code internal instead of taking the appliance down again.
	Failed []string
	// Dropped counts claims whose version record could not be read; they
	// are removed so start-up goes on.
	Dropped int
}

// crashMessage is the pipeline error of a scan failed by RecoverScans.
const crashMessage = "The appliance stopped %d times while scanning this version; the scan was given up. The operator's log has the details."

// RecoverScans queues again every version a crash left processing, or
// fails it (code internal) when it had already been claimed maxAttempts
// times: a file that kills the process must not kill it at every start.
// Call it at start-up, before workers run; a record it cannot read is
// dropped, never a reason to stop.
func (db *DB) RecoverScans(maxAttempts int) (Recovery, error) {
	var rec Recovery
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		rec = Recovery{}
		var ids []string
		if err := tx.Bucket(bucketScanActive).ForEach(func(k, _ []byte) error {
			ids = append(ids, string(k))
			return nil
		}); err != nil {
			return err
		}
		now := db.now().UTC()
		for _, id := range ids {
			var v Version
			if err := getJSON(tx.Bucket(bucketVersions), id, &v); err != nil {
				rec.Dropped++
				if err := tx.Bucket(bucketScanActive).Delete([]byte(id)); err != nil {
					return err
				}
				continue
			}
			if maxAttempts > 0 && v.ScanAttempts >= maxAttempts {
				if err := db.failCrashed(tx, v, now); err != nil {
					return err
				}
				rec.Failed = append(rec.Failed, id)
				continue
			}
			if err := requeue(tx, id, now, true); err != nil {
				return err
			}
			rec.Requeued++
		}
		return nil
	})
	return rec, err
}

// failCrashed ends a version's scan failed with code internal. A version
// of one file has that file marked rejected (it is the one that crashed
// the scan); with several, which one did is not known.
func (db *DB) failCrashed(tx *bolt.Tx, v Version, now time.Time) error {
	problem := &Problem{Code: "internal", Message: fmt.Sprintf(crashMessage, v.ScanAttempts)}
	files, err := versionFiles(tx, v.ID)
	if err != nil {
		return err
	}
	if len(files) == 1 {
		f := files[0]
		f.Status, f.Error = FileRejected, problem
		if err := putJSON(tx.Bucket(bucketFiles), f.ID, f); err != nil {
			return err
		}
	}
	for i := range v.Pipeline.Stages {
		if st := &v.Pipeline.Stages[i]; st.Status == "running" {
			st.Status, st.FinishedAt = "failed", &now
		}
	}
	v.Status = StatusFailed
	v.Pipeline.CurrentStage, v.Pipeline.FinishedAt, v.Pipeline.Error = StageFailed, &now, problem
	v.UpdatedAt = now
	if err := putJSON(tx.Bucket(bucketVersions), v.ID, v); err != nil {
		return err
	}
	if err := db.recordScanEvent(tx, v); err != nil {
		return err
	}
	return tx.Bucket(bucketScanActive).Delete([]byte(v.ID))
}

// ScanFiles returns a version's files in registration order, for the runner.
func (db *DB) ScanFiles(versionID string) ([]File, error) {
	var out []File
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		out, err = versionFiles(tx, versionID)
		return err
	})
	return out, err
}

// VersionByID returns a version without a partner check, for the runner.
func (db *DB) VersionByID(versionID string) (Version, error) {
	var v Version
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return getJSON(tx.Bucket(bucketVersions), versionID, &v)
	})
	return v, err
}

// UpdatePipeline applies change to a processing version's pipeline.
func (db *DB) UpdatePipeline(versionID string, change func(*Pipeline)) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		var v Version
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return err
		}
		if v.Status != StatusProcessing {
			return ErrNoScanInProgress
		}
		change(&v.Pipeline)
		v.UpdatedAt = db.now().UTC()
		return putJSON(tx.Bucket(bucketVersions), v.ID, v)
	})
}

// ScanResult is what a finished scan stores, all in one transaction.
type ScanResult struct {
	Findings         []Finding
	Files            []File // files with pageCount/status/error set by the scan
	LocalLawCoverage []byte // JSON or nil
	CodeBasis        []byte // JSON or nil
	ChatIndex        []byte // the chat index (package chat's encoding) or nil
	ProjectAddress   string // as read from the sheets; "" when none
	// Sheets are the set's pages as the next round compares them (nil:
	// the round is compared by the sheet numbers its findings name).
	Sheets []rounds.Sheet
}

// CompleteScan stores a scan's findings and marks the version complete.
// Findings the version had (from an interrupted earlier run) are replaced,
// never duplicated.
func (db *DB) CompleteScan(versionID string, res ScanResult, pipeline Pipeline) error {
	return db.finishScan(versionID, StatusComplete, pipeline, &res)
}

// FailScan marks the version failed with the pipeline's error set.
func (db *DB) FailScan(versionID string, files []File, pipeline Pipeline) error {
	return db.finishScan(versionID, StatusFailed, pipeline, &ScanResult{Files: files})
}

func (db *DB) finishScan(versionID, status string, pipeline Pipeline, res *ScanResult) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		var v Version
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return err
		}
		if v.Status != StatusProcessing {
			return ErrNoScanInProgress
		}
		now := db.now().UTC()
		v.Round = nil
		if status == StatusComplete {
			var err error
			if res.Findings, v.Round, err = db.matchRound(tx, v, res.Findings, res.Sheets, now); err != nil {
				return err
			}
			if res.Sheets != nil {
				if err := putRoundSheets(tx, versionID, res.Sheets); err != nil {
					return err
				}
			}
		}
		if err := replaceFindings(tx, versionID, res.Findings); err != nil {
			return err
		}
		if err := putChatIndex(tx, versionID, res.ChatIndex); err != nil {
			return err
		}
		for _, f := range res.Files {
			if f.VersionID == versionID {
				if err := putJSON(tx.Bucket(bucketFiles), f.ID, f); err != nil {
					return err
				}
			}
		}
		v.Status = status
		v.Pipeline = pipeline
		v.FindingCounts = countFindings(res.Findings)
		v.LocalLawCoverage = res.LocalLawCoverage
		v.CodeBasis = res.CodeBasis
		v.ProjectAddress = res.ProjectAddress
		v.FindingsRevision = 0
		v.UpdatedAt = now
		if err := putJSON(tx.Bucket(bucketVersions), v.ID, v); err != nil {
			return err
		}
		if status == StatusComplete {
			var j Job
			if err := getJSON(tx.Bucket(bucketJobs), v.JobID, &j); err != nil {
				return err
			}
			if err := recordLastCompleted(tx, j, v); err != nil {
				return err
			}
		}
		if err := db.recordScanEvent(tx, v); err != nil {
			return err
		}
		return tx.Bucket(bucketScanActive).Delete([]byte(versionID))
	})
}

// recordLastCompleted notes on the job that v is its newest completed
// version (unless a newer one completed already).
func recordLastCompleted(tx *bolt.Tx, j Job, v Version) error {
	if j.LastCompletedVersionID != "" && j.LastCompletedVersionID != v.ID {
		var last Version
		if err := getJSON(tx.Bucket(bucketVersions), j.LastCompletedVersionID, &last); err == nil && last.Number > v.Number {
			return nil
		}
	}
	j.LastCompletedVersionID = v.ID
	return putJSON(tx.Bucket(bucketJobs), j.ID, j)
}

func replaceFindings(tx *bolt.Tx, versionID string, findings []Finding) error {
	b := tx.Bucket(bucketFindings)
	prefix := indexKey(versionID, "")
	var old [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		old = append(old, append([]byte(nil), k...))
	}
	for _, k := range old {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	for i, f := range findings {
		var seq [4]byte
		binary.BigEndian.PutUint32(seq[:], uint32(i))
		raw, err := marshal(f)
		if err != nil {
			return err
		}
		if err := b.Put(append(append([]byte(nil), prefix...), seq[:]...), raw); err != nil {
			return err
		}
	}
	return nil
}

func countFindings(findings []Finding) FindingCounts {
	var c FindingCounts
	for _, f := range findings {
		switch f.Severity {
		case "critical":
			c.Critical++
		case "high":
			c.High++
		case "medium":
			c.Medium++
		case "low":
			c.Low++
		default:
			c.Info++
		}
	}
	return c
}

// Findings returns a version of a partner's job with its findings in the
// order they were stored (the runner stores them in contract order).
func (db *DB) Findings(partnerID, jobID, versionID string) (Version, []Finding, error) {
	var v Version
	var out []Finding
	err := db.bolt.View(func(tx *bolt.Tx) error {
		j, err := ownedJob(tx, partnerID, jobID)
		if err != nil {
			return err
		}
		if versionID == "" {
			versionID = j.CurrentVersionID
		}
		if err := getJSON(tx.Bucket(bucketVersions), versionID, &v); err != nil {
			return err
		}
		if v.JobID != jobID {
			return ErrNotFound
		}
		prefix := indexKey(versionID, "")
		c := tx.Bucket(bucketFindings).Cursor()
		for k, raw := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, raw = c.Next() {
			var f Finding
			if err := unmarshal(raw, &f); err != nil {
				return err
			}
			out = append(out, f)
		}
		out, err = inContractOrder(tx, versionID, out)
		return err
	})
	return v, out, err
}
