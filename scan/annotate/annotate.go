// Package annotate writes the marked-up copy of an uploaded plan PDF: one
// Square annotation per finding anchor, coloured by severity, with its number
// tag drawn in an explicit appearance stream, a Popup carrying the finding,
// and a findings summary appended as the last page or pages.
//
// The copy is the original file byte for byte followed by one incremental
// update (ISO 32000-1, 7.5.6) that adds the new objects. The upload itself is
// never written to, every earlier revision stays intact inside the copy, and
// digital signatures on sealed drawings still verify for the revision they
// sign. Files that an update cannot safely extend (encrypted ones, ones
// whose cross-reference data had to be repaired, ones with bytes before the
// %PDF- header) are rewritten whole by pdfcpu instead.
//
// Identification: every annotation has /T "planreview" and /NM set to the
// finding id; the second and later anchors of one finding get "<id>#2",
// "<id>#3", … in the order the marks are given. Popups carry no /NM; they are
// found through /Parent. When the input already carries planreview
// annotations (a marked-up copy uploaded again) they are removed from the
// new revision before the new ones are added, and so are the summary pages
// at its end (recognised by their /PieceInfo), so marks never pile up.
//
// The number tag is drawn inside the Square's own appearance, not as a
// separate FreeText annotation: it prints with the square, moves with it in
// an editor, and the page's comment list shows one entry per anchor. The
// annotation's /Rect therefore covers square and tag; /RD gives the square.
package annotate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"planreview/scan/pdftext"
)

// Mark is one finding anchor to draw.
type Mark struct {
	// Page is 1-based. Page 0 lists the finding in the summary only: a
	// finding of this file with no evidence box still belongs on the list.
	Page int
	// Rect is the evidence box in the page's default user space. A zero
	// Rect on a page is a finding about the sheet as a whole (no words
	// anchor it: a title block with no sheet number): it gets a tag in the
	// sheet's margin, which the summary's row links to like any other.
	Rect pdftext.Rect
	// Number is the tag shown on the sheet and in the summary table; all
	// anchors of one finding share it.
	Number int
	// FindingID becomes /NM (see the package documentation for repeats).
	FindingID string
	// Severity is one of critical, high, medium, low, info.
	Severity                        string
	Title, GoverningRefs, Rationale string
	SheetNumber                     string
}

// SheetLevel reports a mark about its sheet as a whole (see Rect).
func (m Mark) SheetLevel() bool { return m.Page > 0 && m.Rect == pdftext.Rect{} }

// Summary is what the appended summary page says about the review.
type Summary struct {
	JobID, VersionID, FileName string
	// CodeBasis holds the human-readable code basis lines, one per layer.
	CodeBasis []string
	// GeneratedAt stamps the summary and the annotations' dates; zero means now.
	GeneratedAt time.Time
}

var (
	// ErrInvalidMark reports a mark that cannot be drawn; nothing is written.
	ErrInvalidMark = errors.New("annotate: invalid mark")
	// ErrUnreadablePDF reports an input pdfcpu cannot parse.
	ErrUnreadablePDF = errors.New("annotate: unreadable PDF")
)

// Render reads the PDF in src and writes its marked-up copy to dst. src is
// only read. On error dst may hold a partial copy; RenderFile does not leave
// one behind.
func Render(ctx context.Context, src io.ReadSeeker, dst io.Writer, marks []Mark, sum Summary) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("annotate: internal error: %v\n%s", r, debug.Stack())
		}
	}()
	if err := validateMarks(marks); err != nil {
		return err
	}
	marks = slices.Clone(marks) // the caller's marks are never written to
	if sum.GeneratedAt.IsZero() {
		sum.GeneratedAt = time.Now()
	}
	pctx, err := readPDF(ctx, src)
	if err != nil {
		return err
	}
	kind := updateKind(pctx, src)
	if kind != xrefUnusable {
		dropStreamData(pctx.XRefTable)
	}
	added, err := buildMarkedUp(pctx, marks, sum, kind != xrefUnusable)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if kind != xrefUnusable {
		return writeIncrement(src, dst, pctx, added, kind)
	}
	return writeWhole(dst, pctx)
}

// RenderFile renders srcPath into dstPath atomically: the copy is written to
// a temporary file beside dstPath, synced, and renamed into place, so readers
// see either the previous file or the complete new one.
func RenderFile(ctx context.Context, srcPath, dstPath string, marks []Mark, sum Summary) (err error) {
	src, err := os.Open(srcPath)
	if err != nil {
		return err
	}
	defer src.Close()
	if srcInfo, err := src.Stat(); err == nil {
		if dstInfo, err := os.Stat(dstPath); err == nil && os.SameFile(srcInfo, dstInfo) {
			return fmt.Errorf("annotate: %s: the marked-up copy would replace the original", dstPath)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(dstPath), "."+filepath.Base(dstPath)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = Render(ctx, src, tmp, marks, sum); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), dstPath); err != nil {
		return err
	}
	if d, derr := os.Open(filepath.Dir(dstPath)); derr == nil {
		// Persist the rename; a failure here loses nothing already written.
		_ = d.Sync()
		d.Close()
	}
	return nil
}

func validateMarks(marks []Mark) error {
	numberOf := map[string]int{}
	findingOf := map[int]string{}
	for i, m := range marks {
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%w: mark %d (finding %q): %s", ErrInvalidMark, i, m.FindingID, fmt.Sprintf(format, a...))
		}
		if strings.TrimSpace(m.FindingID) == "" {
			return bad("empty finding id")
		}
		if _, ok := severityStyles[strings.ToLower(m.Severity)]; !ok {
			return bad("unknown severity %q", m.Severity)
		}
		if m.Number < 1 {
			return bad("number %d is not positive", m.Number)
		}
		if n, seen := numberOf[m.FindingID]; seen && n != m.Number {
			return bad("number %d differs from %d on an earlier anchor of the same finding", m.Number, n)
		}
		if id, seen := findingOf[m.Number]; seen && id != m.FindingID {
			// A printed tag must lead to one row of the summary.
			return bad("number %d is already finding %q's", m.Number, id)
		}
		numberOf[m.FindingID], findingOf[m.Number] = m.Number, m.FindingID
		if m.Page < 0 {
			return bad("page %d", m.Page)
		}
		if m.Page == 0 {
			continue
		}
		for _, v := range m.Rect {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e6 {
				return bad("rect %v is not a finite page coordinate", m.Rect)
			}
		}
	}
	return nil
}

// An appliance must not read or create a pdfcpu config in the service
// user's home: pdfcpu's built-in defaults, process-wide, set while packages
// initialise so that no reader races the write. (pdfcpu's api package does
// the same behind a mutex, but importing it links its form filler, whose
// width tables cost every command of the binary tens of milliseconds at
// start-up.)
var _ = func() bool { model.ConfigPath = "disable"; return true }()

func readConfiguration() *model.Configuration {
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.Cmd = model.ADDANNOTATIONS
	conf.Optimize = false
	conf.OptimizeBeforeWriting = false
	conf.OptimizeResourceDicts = false
	conf.OptimizeDuplicateContentStreams = false
	conf.DecodeAllStreams = false
	return conf
}

// readPDF parses without validating: the scan stage has already accepted the
// file, and validation walks every object of the document, which costs time
// and memory this stage has no use for.
func readPDF(ctx context.Context, src io.ReadSeeker) (*model.Context, error) {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	pctx, err := pdfcpu.ReadWithContext(ctx, src, readConfiguration())
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %v", ErrUnreadablePDF, err)
	}
	return pctx, nil
}

// dropStreamData lets the collector have the original's stream bytes, which
// pdfcpu reads eagerly: an update never rewrites an existing stream, and
// without them the stage's peak memory is the parse, not parse plus marks.
// Object streams stay: objects not yet decoded from them still need them.
func dropStreamData(xt *model.XRefTable) {
	for _, e := range xt.Table {
		if e == nil {
			continue
		}
		if sd, ok := e.Object.(types.StreamDict); ok {
			sd.Raw, sd.Content = nil, nil
			e.Object = sd
		}
	}
}

// buildMarkedUp adds the marks and the summary to the parsed document and
// returns what it added, for the writer.
func buildMarkedUp(pctx *model.Context, marks []Mark, sum Summary, incremental bool) (*objectSet, error) {
	xt := pctx.XRefTable
	tree, err := walkPageTree(xt)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadablePDF, err)
	}
	objs := newObjectSet(xt, incremental, len(marks), estimateSize(marks))
	if tree.orphaned {
		// The extractor read these pages though no tree lists them (the
		// root was lost); the copy gets a tree over them, in the same
		// order, so the marks and the summary have pages to go on.
		if err := adoptOrphans(xt, objs, &tree); err != nil {
			return nil, err
		}
	}
	pages, pagesRoot, repaired := tree.pages, tree.root, tree.repaired
	// A marked-up copy uploaded again ends in an earlier run's summary; it
	// goes, like that run's annotations, so the copy never carries two.
	sheets := len(pages)
	for sheets > 1 && len(pages[sheets-1].ancestors) > 0 && isGeneratedSummary(xt, pages[sheets-1].dict) {
		sheets--
	}
	staleSummary := pages[sheets:]
	pages = pages[:sheets]
	for i, m := range marks {
		if m.Page > len(pages)+len(staleSummary) {
			return nil, fmt.Errorf("%w: mark %d (finding %q): page %d of %d", ErrInvalidMark, i, m.FindingID, m.Page, len(pages))
		}
		if m.Page > len(pages) || (m.Page > 0 && !pages[m.Page-1].writable) {
			// Evidence found on the old summary itself (the page is going
			// away), or on a page no update can reach (a kid the file
			// lost, an inline page): the finding stays on the summary.
			marks[i].Page = 0
		}
	}
	if !incremental {
		// Written whole, the copy gets the tree as repaired (an update
		// leaves the original's objects as they are, and viewers repair
		// them again).
		for ref, kids := range repaired {
			if node, err := xt.DereferenceDict(ref); err == nil && node != nil {
				node.Update("Kids", kids)
				objs.replace(ref, node)
			}
		}
	}
	b := &builder{objs: objs, xt: xt, date: pdfDate(sum.GeneratedAt)}
	if err := b.removePages(staleSummary); err != nil {
		return nil, err
	}
	b.sharedResources()

	newAnnots := make([][]types.Object, len(pages))
	anchorsSeen := map[string]int{}
	sheetTags := map[int]int{} // page -> sheet-level tags placed on it
	for _, m := range marks {
		if m.Page == 0 {
			continue
		}
		anchorsSeen[m.FindingID]++
		nm := m.FindingID
		if n := anchorsSeen[m.FindingID]; n > 1 {
			nm += "#" + strconv.Itoa(n)
		}
		p := pages[m.Page-1]
		slot := sheetTags[m.Page]
		if m.SheetLevel() {
			sheetTags[m.Page]++
		}
		sq, pop, err := b.addMark(p, m, nm, slot)
		if err != nil {
			return nil, err
		}
		newAnnots[m.Page-1] = append(newAnnots[m.Page-1], sq, pop)
	}
	for i, p := range pages {
		if !p.writable {
			continue
		}
		kept, removed := b.withoutOwnAnnotations(p.dict)
		if !removed && len(newAnnots[i]) == 0 {
			continue
		}
		annots := append(kept, newAnnots[i]...)
		if len(annots) == 0 {
			p.dict.Delete("Annots")
		} else {
			p.dict.Update("Annots", types.Array(annots))
		}
		objs.replace(p.ref, p.dict)
	}
	if err := b.appendSummary(pagesRoot, pages, marks, sum); err != nil {
		return nil, err
	}
	b.ensureVersion(pctx)
	return objs, nil
}

// estimateSize guesses the bytes the new objects take: a square, its
// appearance and its popup need about 1.6 kB besides the note, which both
// square and popup carry, as hex UTF-16 (four bytes a character) when it is
// not plain ASCII.
func estimateSize(marks []Mark) int {
	n := 16 << 10 // fonts, resources, catalog and page tree changes
	for _, m := range marks {
		text := len(m.Title) + len(m.GoverningRefs) + len(m.Rationale) + len(m.SheetNumber) + len(m.FindingID) + 64
		if !isPlainASCII(m.Title + m.GoverningRefs + m.Rationale + m.SheetNumber + m.FindingID) {
			text *= 4
		}
		n += 1600 + 2*text
	}
	return n
}

func pdfDate(t time.Time) types.StringLiteral {
	return types.StringLiteral(t.UTC().Format("D:20060102150405Z"))
}
