package pdftext

import (
	"errors"
	"fmt"
)

// ErrTooComplex: the file asks for more work than a budget allows (a
// decompression bomb, a Form XObject fan-out, a page tree of millions of
// nodes). The scan runner maps it to the too_complex code. Budgets are
// counted while decoding and interpreting, so a hostile file stops as soon
// as it crosses one, never after the damage is done.
var ErrTooComplex = errors.New("PDF over a processing budget")

// Budgets bound the work one file may cause. Pages are budgeted one by one
// (decoded bytes, operators, forms, inline images, objects resolved); the
// file as a whole by its page-tree nodes and objects. The defaults sit far
// above anything measured on real plan sheets (docs/budgets.md has the
// corpus figures and the margins) and far below what hurts the appliance.
type Budgets struct {
	// ContentBytesPerPage: decoded bytes of every stream one page decodes
	// (all /Contents parts together, its Form XObjects, appearance
	// streams, CMaps), and the bound of any single decoded stream.
	ContentBytesPerPage int64
	// OpsPerPage: content-stream operators executed for one page, forms
	// included.
	OpsPerPage int
	// FormDepth: Form XObjects nested inside each other.
	FormDepth int
	// FormsPerPage: Form XObject invocations on one page.
	FormsPerPage int
	// InlineImagesPerPage: BI … EI inline images on one page.
	InlineImagesPerPage int
	// ResolvesPerPage: indirect objects looked up while extracting a page.
	ResolvesPerPage int
	// PageTreeNodes: nodes of the page tree (pages and intermediate
	// nodes, inline ones included).
	PageTreeNodes int
	// Objects: indirect objects in the file. pdfcpu holds about 1.3 KB
	// per parsed object (measured), so this is the budget that bounds the
	// parse itself: 200,000 objects are some 260 MB.
	Objects int
	// ObjectSpan: bytes from an object's header ("12 0 obj") to the
	// keyword that ends its dictionary part ("stream" or "endobj"). A
	// real object's dictionary is small; a span of megabytes is a file of
	// junk (random bytes after %PDF-) or one object built to exhaust the
	// parser (millions of inline page dictionaries), which pdfcpu would
	// otherwise read into memory.
	ObjectSpan int64
}

// DefaultBudgets are the budgets the appliance runs with unless configured.
func DefaultBudgets() Budgets {
	return Budgets{
		ContentBytesPerPage: 64 << 20,
		OpsPerPage:          20_000_000,
		FormDepth:           16,
		FormsPerPage:        100_000,
		InlineImagesPerPage: 200_000,
		ResolvesPerPage:     5_000_000,
		PageTreeNodes:       100_000,
		Objects:             200_000,
		ObjectSpan:          8 << 20,
	}
}

// withDefaults fills unset (zero or negative) budgets with the defaults.
func (b Budgets) withDefaults() Budgets {
	d := DefaultBudgets()
	if b.ContentBytesPerPage <= 0 {
		b.ContentBytesPerPage = d.ContentBytesPerPage
	}
	if b.OpsPerPage <= 0 {
		b.OpsPerPage = d.OpsPerPage
	}
	if b.FormDepth <= 0 {
		b.FormDepth = d.FormDepth
	}
	if b.FormsPerPage <= 0 {
		b.FormsPerPage = d.FormsPerPage
	}
	if b.InlineImagesPerPage <= 0 {
		b.InlineImagesPerPage = d.InlineImagesPerPage
	}
	if b.ResolvesPerPage <= 0 {
		b.ResolvesPerPage = d.ResolvesPerPage
	}
	if b.PageTreeNodes <= 0 {
		b.PageTreeNodes = d.PageTreeNodes
	}
	if b.Objects <= 0 {
		b.Objects = d.Objects
	}
	if b.ObjectSpan <= 0 {
		b.ObjectSpan = d.ObjectSpan
	}
	return b
}

// Usage is what a document used of its budgets so far: per-page figures
// are the largest page's, the others the file's. The corpus measurements
// in docs/budgets.md come from it.
type Usage struct {
	ContentBytes  int64 `json:"contentBytes"`
	Ops           int   `json:"ops"`
	FormDepth     int   `json:"formDepth"`
	Forms         int   `json:"forms"`
	InlineImages  int   `json:"inlineImages"`
	Resolves      int   `json:"resolves"`
	PageTreeNodes int   `json:"pageTreeNodes"`
	Objects       int   `json:"objects"`
	ObjectSpan    int64 `json:"objectSpan"`
}

// Usage reports the budgets used so far (pages extracted until now).
func (d *Document) Usage() Usage { return d.usage }

// meter counts what a page decodes and resolves. It hangs off objects by
// pointer, as the lenient accessors (resolve, a font's streams) have no
// error to return: the first budget crossed is kept in exceeded and the
// interpreter stops at its next check.
type meter struct {
	decoded, decodeLimit   int64
	resolves, resolveLimit int
	exceeded               error
}

// reset starts a page.
func (m *meter) reset(b Budgets) {
	*m = meter{decodeLimit: b.ContentBytesPerPage, resolveLimit: b.ResolvesPerPage}
}

// resolved counts one object lookup.
func (m *meter) resolved() {
	m.resolves++
	if m.resolves > m.resolveLimit && m.exceeded == nil {
		m.exceeded = fmt.Errorf("%w: more than %d objects resolved on one page", ErrTooComplex, m.resolveLimit)
	}
}

// decodeRoom is how many decoded bytes the page may still produce.
func (m *meter) decodeRoom() int64 { return max(0, m.decodeLimit-m.decoded) }

// addDecoded counts n decoded bytes.
func (m *meter) addDecoded(n int) { m.decoded += int64(n) }

// overDecoded records that a stream was cut at the page's decode budget.
func (m *meter) overDecoded() error {
	if m.exceeded == nil {
		m.exceeded = fmt.Errorf("%w: more than %d decoded content bytes on one page", ErrTooComplex, m.decodeLimit)
	}
	return m.exceeded
}

// pageUsage folds one page's counts into the document's usage.
func (d *Document) pageUsage(in *interp) {
	u := &d.usage
	if m := d.obj.meter; m != nil {
		u.ContentBytes = max(u.ContentBytes, m.decoded)
		u.Resolves = max(u.Resolves, m.resolves)
	}
	u.Ops = max(u.Ops, in.ops)
	u.FormDepth = max(u.FormDepth, in.maxDepth)
	u.Forms = max(u.Forms, in.forms)
	u.InlineImages = max(u.InlineImages, in.inlineImages)
}

// checkBudgets is the interpreter's periodic check: the context, the
// page's operators, and what the meter counted (decoded bytes, lookups).
func (in *interp) checkBudgets() error {
	if err := in.ctx.Err(); err != nil {
		return err
	}
	if in.ops > in.budgets.OpsPerPage {
		return fmt.Errorf("%w: more than %d operators on one page", ErrTooComplex, in.budgets.OpsPerPage)
	}
	if m := in.doc.obj.meter; m != nil {
		return m.exceeded
	}
	return nil
}
