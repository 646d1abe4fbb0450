package scan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"planreview/scan/annotate"
	"planreview/store"
)

// Store is what the runner needs of the database.
type Store interface {
	ClaimScan() (store.Version, bool, error)
	RequeueScan(versionID string) error
	RecoverScans(maxAttempts int) (store.Recovery, error)
	ScanFiles(versionID string) ([]store.File, error)
	JobByID(jobID string) (store.Job, error)
	UpdatePipeline(versionID string, change func(*store.Pipeline)) error
	CompleteScan(versionID string, res store.ScanResult, p store.Pipeline) error
	FailScan(versionID string, files []store.File, p store.Pipeline) error
}

// Blobs locates a file's uploaded and marked-up bytes.
type Blobs interface {
	Path(fileID, sum string) string
	AnnotatedPath(fileID string) string
}

// Runner takes queued scans from the store and runs them on a pool of
// workers. Queue and claims live in the database, so a crash loses no scan:
// RecoverScans queues again whatever was running.
type Runner struct {
	Store    Store
	Blobs    Blobs
	Pipeline *Pipeline
	Workers  int
	Timeout  time.Duration
	// MaxAttempts is how many times a scan may be interrupted by a crash
	// before start-up fails it (code internal) instead of running it again.
	MaxAttempts int
	Log         *slog.Logger
	// Busy, if set, is told how many scans run each time the number
	// changes (serve gives request handling scheduler room meanwhile).
	Busy func(running int)
	// Observer, if set, is told when scans and their stages end (metrics).
	Observer Observer
	// Completed, if set, is called with a version's files once its scan
	// is stored as complete (serve renders the first sheet images).
	Completed func(ctx context.Context, files []store.File)

	wakeOnce  sync.Once
	wake      chan struct{}
	runningMu sync.Mutex
	running   int
}

// Observer receives the timings of scans and stages.
type Observer interface {
	ScanStarted()
	// ScanEnded: outcome is complete, failed (code is the pipeline error
	// code) or interrupted (stopped by shutdown and queued again).
	ScanEnded(outcome, code string, took time.Duration)
	StageEnded(stage string, took time.Duration)
}

// idlePoll is how often an idle worker looks at the queue without a wake-up
// (a scan queued through another path, or a missed wake).
const idlePoll = 2 * time.Second

func (r *Runner) wakeCh() chan struct{} {
	r.wakeOnce.Do(func() { r.wake = make(chan struct{}, max(1, r.Workers)) })
	return r.wake
}

// Wake tells an idle worker that a scan was queued.
func (r *Runner) Wake() {
	select {
	case r.wakeCh() <- struct{}{}:
	default:
	}
}

// Run recovers interrupted scans and works the queue until ctx ends. Scans
// running then are stopped and queued again; Run returns when every worker
// has stopped.
func (r *Runner) Run(ctx context.Context) {
	// Start-up goes on whatever this finds: the workers and the API are
	// worth more than one scan record.
	if rec, err := r.Store.RecoverScans(r.MaxAttempts); err != nil {
		r.Log.Error("recover interrupted scans", "error", err)
	} else {
		if rec.Requeued > 0 {
			r.Log.Info("requeued scans interrupted by a stop", "count", rec.Requeued)
		}
		for _, id := range rec.Failed {
			r.Log.Error("scan failed: the appliance stopped during it too many times", "version_id", id, "attempts", r.MaxAttempts)
		}
		if rec.Dropped > 0 {
			r.Log.Error("dropped unreadable scan claims", "count", rec.Dropped)
		}
	}
	var wg sync.WaitGroup
	for i := range max(1, r.Workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx, i)
		}()
	}
	wg.Wait()
}

func (r *Runner) work(ctx context.Context, worker int) {
	wake := r.wakeCh()
	for ctx.Err() == nil {
		v, ok, err := r.Store.ClaimScan()
		if err != nil {
			r.Log.Error("claim scan", "worker", worker, "error", err)
		}
		if err != nil || !ok {
			select {
			case <-ctx.Done():
				return
			case <-wake:
			case <-time.After(idlePoll):
			}
			continue
		}
		r.scan(ctx, v)
	}
}

// track counts running scans for Busy; call the result when the scan ends.
func (r *Runner) track() (done func()) {
	change := func(by int) {
		r.runningMu.Lock()
		defer r.runningMu.Unlock()
		r.running += by
		if r.Busy != nil {
			r.Busy(r.running)
		}
	}
	change(1)
	return func() { change(-1) }
}

// scan runs one claimed version to complete, failed, or (on shutdown) back
// into the queue.
func (r *Runner) scan(ctx context.Context, v store.Version) {
	defer r.track()()
	log := r.Log.With("version_id", v.ID, "job_id", v.JobID)
	started := time.Now()
	tracker := &tracker{store: r.Store, versionID: v.ID, pipeline: v.Pipeline, log: log, observer: r.Observer}
	if r.Observer != nil {
		r.Observer.ScanStarted()
	}
	ended := func(outcome, code string) {
		if r.Observer != nil {
			r.Observer.ScanEnded(outcome, code, time.Since(started))
		}
	}
	scanCtx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()

	files, err := r.Store.ScanFiles(v.ID)
	var res Result
	if err == nil {
		res, err = r.run(scanCtx, v, files, tracker)
	}
	if ctx.Err() != nil { // shutting down: not this scan's fault
		if err := r.Store.RequeueScan(v.ID); err != nil {
			log.Error("requeue scan on shutdown", "error", err)
		} else {
			log.Info("scan stopped by shutdown; queued again")
		}
		ended("interrupted", "")
		return
	}
	if err != nil {
		problem := asProblem(err, r.Timeout)
		level := slog.LevelInfo
		if problem.Code == CodeInternal {
			level = slog.LevelError
		}
		log.Log(ctx, level, "scan failed", "code", problem.Code, "error", err, "seconds", time.Since(started).Seconds())
		tracker.fail(problem)
		if err := r.Store.FailScan(v.ID, markFiles(files, res, err), tracker.pipeline); err != nil {
			log.Error("store failed scan", "error", err)
		}
		ended("failed", problem.Code)
		return
	}
	tracker.pipeline.ModelReview = res.ModelPass
	tracker.finish()
	coverage, basis := encodeBasis(res.CodeBasis)
	err = r.Store.CompleteScan(v.ID, store.ScanResult{
		Findings: res.Findings, Files: markFiles(files, res, nil), LocalLawCoverage: coverage, CodeBasis: basis,
		ChatIndex: res.ChatIndex, ProjectAddress: res.ProjectAddress, Sheets: res.Sheets,
	}, tracker.pipeline)
	if err != nil {
		log.Error("store completed scan", "error", err)
		ended("failed", CodeInternal)
		return
	}
	ended("complete", "")
	if r.Completed != nil {
		r.Completed(ctx, markFiles(files, res, nil))
	}
	log.Info("scan complete", "findings", len(res.Findings), "held", res.Held, "pages", tracker.pipeline.PagesTotal,
		"seconds", time.Since(started).Seconds())
}

// run is the whole pipeline for one version, panics included.
func (r *Runner) run(ctx context.Context, v store.Version, files []store.File, t *tracker) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Code: CodeInternal, Message: fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}
		}
	}()
	inputs := make([]Input, len(files))
	for i, f := range files {
		inputs[i] = Input{FileID: f.ID, Name: f.FileName, Path: r.Blobs.Path(f.ID, f.SHA256)}
	}
	job, err := r.Store.JobByID(v.JobID)
	if err != nil {
		return res, fmt.Errorf("job of version %s: %w", v.ID, err)
	}
	law := Law{JurisdictionID: job.JurisdictionID, ApplicationDate: job.ApplicationDate}
	if res, err = r.Pipeline.ReviewLaw(ctx, law, inputs, t); err != nil {
		return res, err
	}
	t.Stage(store.StageAnnotating)
	for _, file := range res.Files {
		sum := annotate.Summary{JobID: v.JobID, VersionID: v.ID}
		if err := r.Pipeline.Annotate(ctx, res, file, r.Blobs.AnnotatedPath(file.FileID), sum); err != nil {
			return res, annotateError(file.Input, err)
		}
		// pdfcpu read the whole file again beside the set's words.
		if err := r.Pipeline.checkHeap(file.Input); err != nil {
			return res, err
		}
	}
	return res, nil
}

// annotateError names the file a failed marked-up copy belongs to, so it
// is marked rejected. A file the extractor read but pdfcpu cannot rewrite
// is the file's fault (invalid_pdf); anything else is the appliance's.
func annotateError(in Input, err error) error {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, annotate.ErrUnreadablePDF):
		return &Error{Code: CodeInvalidPDF, FileID: in.FileID,
			Message: fmt.Sprintf("%s cannot be read as a PDF: %v", in.Name, err)}
	}
	return &Error{Code: CodeInternal, FileID: in.FileID, Message: fmt.Sprintf("annotate %s: %v", in.FileID, err)}
}

// asProblem maps a pipeline error to the contract's pipeline.error.
func asProblem(err error, timeout time.Duration) *store.Problem {
	var se *Error
	switch {
	case errors.As(err, &se):
		msg := se.Message
		if se.Code == CodeInternal {
			msg = "The review failed inside the appliance; the operator's log has the details."
		}
		return &store.Problem{Code: se.Code, Message: msg}
	case errors.Is(err, context.DeadlineExceeded):
		return &store.Problem{Code: CodeTimeout, Message: fmt.Sprintf("The scan took longer than %s (scan.timeout).", timeout)}
	default:
		return &store.Problem{Code: CodeInternal, Message: "The review failed inside the appliance; the operator's log has the details."}
	}
}

// markFiles sets each file's page count and status after a scan; the file
// that made a scan fail is marked rejected with the reason.
func markFiles(files []store.File, res Result, scanErr error) []store.File {
	pages := map[string]int{}
	for _, f := range res.Files {
		pages[f.FileID] = len(f.Pages)
	}
	var se *Error
	errors.As(scanErr, &se)
	out := make([]store.File, len(files))
	for i, f := range files {
		if n, ok := pages[f.ID]; ok {
			f.PageCount = &n
		}
		switch {
		case se != nil && se.FileID == f.ID:
			f.Status, f.Error = store.FileRejected, asProblem(se, 0) // no internals for internal
		case scanErr == nil:
			f.Status = store.FileScanned
		}
		out[i] = f
	}
	return out
}

func encodeBasis(cb CodeBasis) (coverage, basis []byte) {
	basis, _ = json.Marshal(cb)
	if cb.LocalLawCoverage != nil {
		coverage, _ = json.Marshal(cb.LocalLawCoverage)
	}
	return coverage, basis
}

// tracker records stage changes and page progress in the version's
// pipeline. Page progress is written at most every progressEvery, so a
// 500-page set costs a handful of writes, not one per page.
type tracker struct {
	store     Store
	versionID string
	pipeline  store.Pipeline
	log       *slog.Logger
	lastWrite time.Time
	observer  Observer
}

const progressEvery = 500 * time.Millisecond

// stageWeight is each stage's share of the progress bar; extraction
// dominates the time of a scan.
var stageWeight = map[string][2]float64{ // start, end
	store.StagePreparing:   {0, 0.05},
	store.StageExtracting:  {0.05, 0.70},
	store.StageClassifying: {0.70, 0.75},
	store.StageReviewing:   {0.75, 0.83},
	store.StageIndexing:    {0.83, 0.85},
	store.StageAnnotating:  {0.85, 0.99},
}

func (t *tracker) Stage(name string) {
	now := time.Now().UTC()
	for i := range t.pipeline.Stages {
		st := &t.pipeline.Stages[i]
		if st.Status == "running" {
			st.Status, st.FinishedAt = "done", &now
			t.stageEnded(st)
		}
		if st.Name == name {
			st.Status, st.StartedAt = "running", &now
		}
	}
	t.pipeline.CurrentStage = name
	t.pipeline.Progress = stageWeight[name][0]
	t.save(true)
}

func (t *tracker) Pages(done, total int) {
	t.pipeline.PagesProcessed, t.pipeline.PagesTotal = done, total
	w := stageWeight[store.StageExtracting]
	if total > 0 {
		t.pipeline.Progress = w[0] + (w[1]-w[0])*float64(done)/float64(total)
	}
	t.save(done == total)
}

func (t *tracker) save(force bool) {
	if !force && time.Since(t.lastWrite) < progressEvery {
		return
	}
	t.lastWrite = time.Now()
	snapshot := t.pipeline
	snapshot.Stages = append([]store.Stage(nil), t.pipeline.Stages...)
	if err := t.store.UpdatePipeline(t.versionID, func(p *store.Pipeline) { *p = snapshot }); err != nil {
		t.log.Warn("save scan progress", "error", err)
	}
}

func (t *tracker) finish() {
	now := time.Now().UTC()
	for i := range t.pipeline.Stages {
		if st := &t.pipeline.Stages[i]; st.Status == "running" {
			st.Status, st.FinishedAt = "done", &now
			t.stageEnded(st)
		}
	}
	t.pipeline.CurrentStage, t.pipeline.Progress, t.pipeline.FinishedAt = store.StageDone, 1, &now
}

func (t *tracker) fail(p *store.Problem) {
	now := time.Now().UTC()
	for i := range t.pipeline.Stages {
		if st := &t.pipeline.Stages[i]; st.Status == "running" {
			st.Status, st.FinishedAt = "failed", &now
			t.stageEnded(st)
		}
	}
	t.pipeline.CurrentStage, t.pipeline.FinishedAt, t.pipeline.Error = store.StageFailed, &now, p
}

// stageEnded reports a stage that just ended to the observer.
func (t *tracker) stageEnded(st *store.Stage) {
	if t.observer != nil && st.StartedAt != nil && st.FinishedAt != nil {
		t.observer.StageEnded(st.Name, st.FinishedAt.Sub(*st.StartedAt))
	}
}
