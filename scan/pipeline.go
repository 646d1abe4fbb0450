// Package scan reviews plan sets: the pipeline (validate, extract, classify,
// review, annotate) and the background runner that takes queued scans from
// the store. The `review` command runs the same pipeline on local files.
package scan

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"time"

	"planreview/chat"
	"planreview/rounds"
	"planreview/scan/annotate"
	"planreview/scan/codebasis"
	"planreview/scan/layout"
	"planreview/scan/pdftext"
	"planreview/scan/rules"
	"planreview/scan/sheets"
	"planreview/store"
)

// Failure codes of a scan (pipeline.error.code), as the contract names them.
const (
	CodeInvalidPDF   = "invalid_pdf"
	CodeEncryptedPDF = "encrypted_pdf"
	CodeEmptyPDF     = "empty_pdf"
	CodeTooManyPages = "too_many_pages"
	// CodeTooComplex: the file crossed a processing budget (a decompression
	// bomb, a Form XObject fan-out, a page tree of millions of nodes, or a
	// scan that needed more memory than scan.memory_limit_mb allows).
	CodeTooComplex = "too_complex"
	CodeTimeout    = "timeout"
	CodeInternal   = "internal"
)

// Error is a scan failure with its contract code. FileID names the file at
// fault when there is one.
type Error struct {
	Code    string
	Message string
	FileID  string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Input is one PDF of a plan set, in registration order.
type Input struct {
	FileID string
	Name   string
	Path   string
	// Opening, when set, gives the file already opened (the review
	// command opens it while the rule library loads); the pipeline takes
	// the document and closes it. Nil: the pipeline opens Path.
	Opening func() (*pdftext.Document, error)
}

// Reviewed is one file of a reviewed set.
type Reviewed struct {
	Input
	Pages  []pdftext.Page
	Sheets []sheets.Sheet // per page
	// Layouts is each page's layout, analysed once right after its
	// extraction and read by the checks and the chat index; the pipeline
	// drops it once the index is built (nil in a returned Result).
	Layouts []*layout.Page
}

// Result is a reviewed plan set.
type Result struct {
	Files    []Reviewed
	Findings []store.Finding // delivered findings, contract order, numbered from 1
	// Held counts the findings withheld because the certified local law
	// does not cover their topic.
	Held int
	// ModelPass records the model review pass (nil: no model configured).
	ModelPass *store.ModelPass
	CodeBasis CodeBasis
	// ChatIndex is the version's chat index in its stored form.
	ChatIndex []byte
	// Sheets are the set's pages as the next round compares them.
	Sheets []rounds.Sheet
	// ProjectAddress is the first street address the set prints, in
	// file and reading order ("" when it prints none): the correction
	// letter shows it as read.
	ProjectAddress string
}

// CodeBasis is the findings answer's codeBasis object; its
// localLawCoverage is the version's LocalLawCoverage (nil without a
// jurisdiction).
type CodeBasis = codebasis.CodeBasis

// Law selects the law a review applies: the job's jurisdiction (an OCD
// division id, "" for none) and application date (YYYY-MM-DD).
type Law = codebasis.Case

// Progress is told when a stage starts and as pages are extracted.
type Progress interface {
	Stage(name string)
	Pages(done, total int)
}

// Pipeline holds what every review shares; it is safe for concurrent use.
type Pipeline struct {
	Engine       *rules.Engine // the configured adopted codes: reviews without a local-law snapshot
	Library      *rules.Library
	MaxPages     int
	Jurisdiction string
	// Laws holds the imported local-law snapshots (nil: none); Settings
	// and Now (nil: time.Now) judge their freshness.
	Laws     codebasis.Snapshots
	Settings codebasis.Settings
	Now      func() time.Time

	plannerOnce sync.Once
	planner     *codebasis.Planner // from the fields above, on first use
	// PageWorkers is how many pages the scans running on this pipeline
	// extract and lay out at once, all together (NewPipeline: GOMAXPROCS
	// then, before serve gives requests extra Ps; 0: GOMAXPROCS at the
	// first scan). A scan takes what is free when it starts a
	// file, and always has one: a lone scan (the review command, a quiet
	// appliance) reads on every core, while scans running side by side in
	// serve share the cores instead of each asking for all of them.
	PageWorkers  int
	pagePoolOnce sync.Once
	pagePool     chan struct{}
	// Budgets bound the extractor's work per page and per file (zero
	// fields: pdftext's defaults).
	Budgets pdftext.Budgets
	// HeapLimit, when set, is the live heap (bytes) past which a scan
	// stops between two pages with too_complex, after one collection
	// failed to bring it back under.
	HeapLimit uint64
	// ExternalMemory, when set, is what other stages of the process hold
	// outside the Go heap right now (PDFium rendering sheet images); it
	// counts against HeapLimit with the heap.
	ExternalMemory func() uint64
	// Model, when set, runs the model review pass with at most
	// ModelConcurrency sheets in flight (each call also holds one of the
	// model's own slots, shared with chat). Log receives the pass's record.
	Model            *chat.Model
	ModelConcurrency int
	Log              *slog.Logger
	// NoChatIndex: the caller keeps only the findings (the review
	// command), so the chat index, which only serve's chat reads, is not
	// built and Result.ChatIndex stays nil.
	NoChatIndex bool
	// PageImage, when set (model.vision), renders a page (1-based) of the
	// PDF at path as PNG for the model review pass.
	PageImage func(ctx context.Context, path string, page int) ([]byte, error)
}

// NewPipeline loads the embedded rule packs for the adopted codes. A pack
// that fails validation is an error naming its file and line.
func NewPipeline(adopted []string, jurisdiction string, maxPages int) (*Pipeline, error) {
	lib, err := rules.LoadLibrary(rules.Packs())
	if err != nil {
		return nil, fmt.Errorf("rule packs: %w", err)
	}
	engine, err := lib.Engine(adopted)
	if err != nil {
		return nil, fmt.Errorf("rule packs: %w", err)
	}
	return &Pipeline{Engine: engine, Library: lib, MaxPages: maxPages, Jurisdiction: jurisdiction, PageWorkers: runtime.GOMAXPROCS(0)}, nil
}

// takePageWorkers takes the page workers free in the pipeline's pool for
// one file's extraction and returns how many it took (0 when none is
// free: the file is then read on the scan's own goroutine).
func (p *Pipeline) takePageWorkers() int {
	p.pagePoolOnce.Do(func() {
		n := p.PageWorkers
		if n <= 0 {
			n = runtime.GOMAXPROCS(0)
		}
		p.pagePool = make(chan struct{}, n)
	})
	taken := 0
	for taken < cap(p.pagePool) {
		select {
		case p.pagePool <- struct{}{}:
			taken++
			continue
		default:
		}
		break
	}
	return taken
}

// releasePageWorkers gives back what takePageWorkers took.
func (p *Pipeline) releasePageWorkers(n int) {
	for range n {
		<-p.pagePool
	}
}

func (p *Pipeline) lawPlanner() *codebasis.Planner {
	p.plannerOnce.Do(func() {
		p.planner = &codebasis.Planner{Library: p.Library, Fallback: p.Engine, Snapshots: p.Laws, Settings: p.Settings}
	})
	return p.planner
}

// WarmLaws compiles every certified local-law snapshot ahead of the scans
// that will use it (at start-up and after an import or certification), so
// a scan does not pay for decoding a large snapshot.
func (p *Pipeline) WarmLaws() error {
	return p.lawPlanner().Warm()
}

func (p *Pipeline) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Review runs the pipeline for a set with no jurisdiction (see ReviewLaw).
func (p *Pipeline) Review(ctx context.Context, inputs []Input, progress Progress) (Result, error) {
	return p.ReviewLaw(ctx, Law{}, inputs, progress)
}

// ReviewLaw runs the preparing, extracting, classifying, reviewing and
// indexing stages under the law of the job's jurisdiction on its application date.
// Findings on topics the certified local law does not cover are withheld
// (Result.Held); document-completeness findings are always delivered.
// Panics are recovered into an internal failure: one broken file must not
// take the appliance down.
func (p *Pipeline) ReviewLaw(ctx context.Context, law Law, inputs []Input, progress Progress) (res Result, err error) {
	current := "" // the file being read, to reject it if a panic happens there
	defer func() {
		if v := recover(); v != nil {
			err = &Error{Code: CodeInternal, FileID: current, Message: fmt.Sprintf("review failed: %v\n%s", v, debug.Stack())}
		}
	}()
	progress.Stage(store.StagePreparing)
	first, counts, err := p.prepare(ctx, inputs)
	if err != nil {
		return Result{}, err
	}

	// Extract file by file, so memory holds one parsed file at a time: the
	// first stays open from preparing, the others are opened in turn. Each
	// page's layout is analysed here, once, for every reader after.
	progress.Stage(store.StageExtracting)
	total := 0
	for _, n := range counts {
		total += n
	}
	res.Files = make([]Reviewed, len(inputs))
	done := 0
	for i, in := range inputs {
		current = in.FileID
		doc := first
		if i > 0 {
			if doc, err = pdftext.OpenWithBudgets(ctx, in.Path, p.Budgets); err != nil {
				return Result{}, openError(in, err)
			}
		}
		res.Files[i] = Reviewed{Input: in}
		if err := p.extractFile(ctx, doc, &res.Files[i], progress, &done, total); err != nil {
			return Result{}, err
		}
	}
	current = ""

	// The stages after extraction work on what it left in memory; they
	// are held to the same ceiling, looked at as each ends.
	progress.Stage(store.StageClassifying)
	set := rules.PlanSet{Files: make([]rules.File, len(res.Files))}
	for i, f := range res.Files {
		set.Files[i] = rules.File{ID: f.FileID, Pages: f.Pages, Layouts: f.Layouts}
	}
	classified, err := rules.Classify(ctx, set)
	if err != nil {
		return Result{}, err
	}
	for i, sheets := range classified.Sheets() {
		res.Files[i].Sheets = sheets
	}
	res.ProjectAddress = firstAddress(classified.Models())
	if err := p.checkSetHeap(res.Files); err != nil {
		return Result{}, err
	}

	progress.Stage(store.StageReviewing)
	classified.Model().ReadRegions()
	// The pages are indexed for chat while the checks run: the two only
	// read the pages and their layouts.
	var chatPages *chatIndexing
	if !p.NoChatIndex {
		chatPages = indexPagesForChat(ctx, res, classified.Models())
		defer chatPages.wait()
	}
	plan, err := p.lawPlanner().Plan(law, p.now())
	if err != nil {
		return Result{}, err
	}
	// The file's own statements and the job's jurisdiction decide what is
	// reviewed: never the configured codes alone.
	classified.Job = rules.JobContext{Jurisdiction: law.JurisdictionID}
	if classified.Job.Jurisdiction == "" {
		classified.Job.Jurisdiction = p.Jurisdiction
	}
	if table, err := codebasis.Adoptions(); err == nil {
		classified.Job.Base = table.Base
		// A job that names no jurisdiction (and an appliance configured
		// with none) is reviewed under the law the plans point to.
		if classified.Job.Jurisdiction == "" {
			date := law.ApplicationDate
			if date == "" {
				date = p.now().Format(time.DateOnly)
			}
			if classified.Job.NotHeld, err = plan.Presume(table.Presume(classified.Place(), date), table); err != nil {
				return Result{}, err
			}
		}
	}
	report, err := plan.Engine.ReviewReport(ctx, classified)
	if err != nil {
		return Result{}, err
	}
	if p.Model != nil {
		found, pass := p.modelReview(ctx, res.Files, report.Findings, report.Topics, plan.Engine.CodeBasis())
		res.ModelPass = pass
		report.Findings = append(report.Findings, found...)
		for _, f := range found {
			if !slices.Contains(report.Topics, f.Topic) {
				report.Topics = append(report.Topics, f.Topic)
			}
		}
		rules.SortFindings(report.Findings)
	}
	topics := make([]string, len(report.Findings))
	for i, f := range report.Findings {
		topics[i] = f.Topic
	}
	plan.NoteOccupancy(report.Occupancy)
	verdict := plan.Judge(report.Topics, topics, plan.Engine.CodeBasis(), p.Jurisdiction)
	delivered := report.Findings[:0:0]
	for i, f := range report.Findings {
		if verdict.Delivered[i] {
			delivered = append(delivered, f)
		}
	}
	res.Held = len(report.Findings) - len(delivered)
	res.Findings = toStoreFindings(delivered)
	res.CodeBasis = verdict.CodeBasis
	if err := p.checkSetHeap(res.Files); err != nil {
		return Result{}, err
	}

	// Chat reads no PDF: what it searches is indexed now, from the words
	// and models already in memory.
	if !p.NoChatIndex {
		progress.Stage(store.StageIndexing)
		if res.ChatIndex, err = finishChatIndex(chatPages, res, classified.Model().Facts()); err != nil {
			return Result{}, err
		}
		if err := p.checkSetHeap(res.Files); err != nil {
			return Result{}, err
		}
	}
	res.Sheets = roundSheets(res.Files)
	// The layouts served the checks, the index and the round's sheets;
	// what comes after (storing, annotating) reads the words only.
	for i := range res.Files {
		res.Files[i].Layouts = nil
	}
	return res, nil
}

// extractFile extracts and lays out the pages of one open file into f,
// and closes it. Without a heap limit, pages are extracted and laid out
// on several cores at once (as many page workers as the pipeline has
// free) and taken here in page order: what follows reads them exactly as
// if they had been read one after another.
func (p *Pipeline) extractFile(ctx context.Context, doc *pdftext.Document, f *Reviewed, progress Progress, done *int, total int) error {
	defer doc.Close()
	// The heap limit is checked between pages, so it holds only while one
	// page is read at a time: pages read side by side, each within its
	// own budget, would together need a multiple of what the limit
	// allows. A memory-bounded pipeline (serve) reads pages one after
	// another; the review command reads them on every core.
	workers := 0
	if p.HeapLimit == 0 {
		workers = p.takePageWorkers()
		defer p.releasePageWorkers(workers)
	}
	n := doc.NumPages()
	f.Pages, f.Layouts = make([]pdftext.Page, 0, n), make([]*layout.Page, 0, n)
	layouts := make([]*layout.Page, n)
	// A page's small paths serve only its layout's search for outlined
	// text; they go once it is laid out (up to a megabyte a page).
	analyse := func(page *pdftext.Page) {
		if page.Number >= 1 && page.Number <= n {
			layouts[page.Number-1] = layout.Analyze(page)
			page.SmallPaths = nil
		}
	}
	for page := range doc.PagesConcurrently(ctx, max(1, workers), analyse) {
		if errors.Is(page.Err, pdftext.ErrTooComplex) {
			return tooComplex(f.Input, page.Err)
		}
		if page.Err != nil && !page.Readable {
			page.Reason = "extraction_failed"
		}
		f.Pages = append(f.Pages, *page)
		// The layout shares the page's words, not the page itself, so the
		// one made in the worker serves the copy kept here.
		var lp *layout.Page
		if page.Number >= 1 && page.Number <= n {
			lp = layouts[page.Number-1]
		}
		if lp == nil {
			lp = layout.Analyze(&f.Pages[len(f.Pages)-1])
			f.Pages[len(f.Pages)-1].SmallPaths = nil
		}
		f.Layouts = append(f.Layouts, lp)
		*done++
		progress.Pages(*done, total)
		if err := p.checkHeap(f.Input); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// prepare opens every file to check it is a readable PDF with pages, and
// the set's page count, before any long work. It returns the first file
// still open (a one-file set, the common case, is parsed once) and each
// file's page count.
func (p *Pipeline) prepare(ctx context.Context, inputs []Input) (first *pdftext.Document, counts []int, err error) {
	defer func() {
		if err != nil && first != nil {
			first.Close()
			first = nil
		}
	}()
	total := 0
	for i, in := range inputs {
		open := func() (*pdftext.Document, error) { return pdftext.OpenWithBudgets(ctx, in.Path, p.Budgets) }
		if in.Opening != nil {
			open = in.Opening
		}
		doc, err := open()
		if err != nil {
			return first, nil, openError(in, err)
		}
		n := doc.NumPages()
		if i == 0 {
			first = doc
		} else {
			doc.Close()
		}
		if n == 0 {
			return first, nil, &Error{Code: CodeEmptyPDF, FileID: in.FileID, Message: fmt.Sprintf("%s has no pages.", in.Name)}
		}
		counts = append(counts, n)
		total += n
	}
	if total > p.MaxPages {
		return first, nil, &Error{Code: CodeTooManyPages,
			Message: fmt.Sprintf("The plan set has %d pages; this appliance reviews at most %d (scan.max_pages).", total, p.MaxPages)}
	}
	return first, counts, nil
}

func openError(in Input, err error) error {
	switch {
	case errors.Is(err, pdftext.ErrEncrypted):
		return &Error{Code: CodeEncryptedPDF, FileID: in.FileID,
			Message: fmt.Sprintf("%s is protected by a password; upload it without one.", in.Name)}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, pdftext.ErrTooComplex):
		return tooComplex(in, err)
	case !errors.Is(err, pdftext.ErrInvalid) && !errors.Is(err, pdftext.ErrNotPDF):
		// Not the file's content: the upload went missing or the disk
		// failed. The appliance's fault, so internal, and the file is
		// still named so it is marked rejected.
		return &Error{Code: CodeInternal, FileID: in.FileID, Message: fmt.Sprintf("%s could not be opened: %v", in.Name, err)}
	default:
		return &Error{Code: CodeInvalidPDF, FileID: in.FileID,
			Message: fmt.Sprintf("%s cannot be read as a PDF: %v", in.Name, err)}
	}
}

func tooComplex(in Input, err error) *Error {
	return &Error{Code: CodeTooComplex, FileID: in.FileID,
		Message: fmt.Sprintf("%s needs more work than this appliance allows for one file (%v); simplify or split it.", in.Name, err)}
}

// checkHeap is the scan's memory ceiling, looked at between pages: the
// decoder's budgets bound one page, this bounds what pages and parsed
// files add up to. Garbage is not a reason to fail: over the limit in heap
// objects, the bytes the last collection found live decide first (the
// runtime's memory limit, set just above this one, keeps collections
// coming as the heap nears it); only when those are over too does one
// forced collection decide. A forced collection stops the world for as
// long as the running scans take to stop (over 200 ms was seen with two
// workers on a 2-vCPU machine), which every request waits on, so it is
// not run for garbage.
func (p *Pipeline) checkHeap(in Input) error {
	if p.HeapLimit == 0 {
		return nil
	}
	var outside uint64
	if p.ExternalMemory != nil {
		outside = p.ExternalMemory()
	}
	objects, live := heapNow()
	if objects+outside <= p.HeapLimit || live+outside <= p.HeapLimit {
		return nil
	}
	runtime.GC()
	if objects, _ = heapNow(); objects+outside > p.HeapLimit {
		return &Error{Code: CodeTooComplex, FileID: in.FileID,
			Message: fmt.Sprintf("%s needs more memory than this appliance allows for a scan (%d MiB, scan.memory_limit_mb); simplify or split it.", in.Name, p.HeapLimit>>20)}
	}
	return nil
}

// checkSetHeap is checkHeap after a stage that works on the whole set:
// the file with the most words is the one named (and rejected), as the
// one that brought the most into memory.
func (p *Pipeline) checkSetHeap(files []Reviewed) error {
	if p.HeapLimit == 0 || len(files) == 0 {
		return nil
	}
	heaviest, most := 0, -1
	for i, f := range files {
		words := 0
		for j := range f.Pages {
			words += len(f.Pages[j].Words)
		}
		if words > most {
			heaviest, most = i, words
		}
	}
	return p.checkHeap(files[heaviest].Input)
}

var heapSample = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"}, // live and not yet swept
	{Name: "/gc/heap/live:bytes"},                // marked live by the last collection
}
var heapSampleMu sync.Mutex

// heapNow reads, without stopping the world, the bytes of heap objects
// (live and not yet swept) and the bytes the last collection found live.
func heapNow() (objects, live uint64) {
	heapSampleMu.Lock()
	defer heapSampleMu.Unlock()
	metrics.Read(heapSample)
	objects = heapSample[0].Value.Uint64()
	live = objects
	if heapSample[1].Value.Kind() == metrics.KindUint64 {
		live = heapSample[1].Value.Uint64()
	}
	return objects, live
}

// toStoreFindings gives engine findings ids and numbers, in the engine's
// (contract) order.
func toStoreFindings(found []rules.Finding) []store.Finding {
	out := make([]store.Finding, len(found))
	for i, f := range found {
		sf := store.Finding{
			ID: store.NewID(store.PrefixFinding), Number: i + 1, RuleID: f.RuleID, Title: f.Title,
			Severity: f.Severity, Confidence: f.Confidence, Rationale: f.Rationale, GoverningRefs: f.GoverningRefs,
			Topic: f.Topic, Source: f.Source, FileID: f.FileID, Fingerprint: f.Fingerprint,
			Sheet:   store.SheetRef{Page: f.Page, SheetNumber: f.SheetNumber, SheetTitle: f.SheetTitle, SheetType: f.SheetType},
			Anchors: make([]store.Anchor, len(f.Anchors)),
		}
		for j, a := range f.Anchors {
			sf.Anchors[j] = store.Anchor{Page: a.Page, Text: a.Text, Rect: a.Rect,
				BBox: store.BBox{Left: a.BBox.Left, Top: a.BBox.Top, Width: a.BBox.Width, Height: a.BBox.Height}.Rounded()}
		}
		out[i] = sf
	}
	return out
}

// Annotate writes the marked-up copy of one file of a reviewed set.
func (p *Pipeline) Annotate(ctx context.Context, res Result, file Reviewed, dstPath string, sum annotate.Summary) error {
	sum.FileName = file.Name
	sum.CodeBasis = res.CodeBasis.Lines
	return annotate.RenderFile(ctx, file.Path, dstPath, annotate.MarksFor(res.Findings, file.FileID), sum)
}

// roundSheets is what the next round compares of each page: its number
// and title as classified, its words with their boxes, and the text of its
// title-block revision rows.
func roundSheets(files []Reviewed) []rounds.Sheet {
	var out []rounds.Sheet
	for _, f := range files {
		for i, page := range f.Pages {
			s := rounds.Sheet{FileID: f.FileID, Page: page.Number, Words: make([]rounds.Word, len(page.Words))}
			if s.Page == 0 {
				s.Page = i + 1
			}
			if i < len(f.Sheets) {
				s.Number, s.Title = f.Sheets[i].Number, f.Sheets[i].Title
			}
			for j, w := range page.Words {
				s.Words[j] = rounds.Word{Text: w.Text, Left: float32(w.BBox.Left), Top: float32(w.BBox.Top),
					Width: float32(w.BBox.Width), Height: float32(w.BBox.Height)}
			}
			if i < len(f.Layouts) && f.Layouts[i] != nil {
				s.Revision = revisionText(f.Layouts[i])
			}
			out = append(out, s)
		}
	}
	return out
}

// revisionText is the text of a page's revision rows, top to bottom.
func revisionText(lp *layout.Page) string {
	var rows []string
	for _, r := range layout.FindRoles(lp).Regions {
		if r.Role != layout.RoleRevisions {
			continue
		}
		for _, li := range r.Lines {
			if li >= 0 && li < len(lp.Lines) {
				rows = append(rows, lp.Lines[li].Text)
			}
		}
	}
	return strings.Join(rows, "\n")
}

// firstAddress is the first address hint of the set's files.
func firstAddress(models []sheets.SetModel) string {
	for _, m := range models {
		for _, h := range m.JurisdictionHints {
			if a, ok := strings.CutPrefix(h, "address: "); ok {
				return a
			}
		}
	}
	return ""
}
