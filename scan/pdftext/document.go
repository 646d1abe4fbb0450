package pdftext

// How the extractor works, and why:
//
//   - The open reads the cross-reference sections, trailer, catalog and page
//     tree; every other object is parsed (with pdfcpu's object parser) when
//     a page first needs it (xref.go). Files that need repair or
//     decryption (RC4/AES-128/AES-256 with an empty user password) are
//     read whole by pdfcpu instead. A page's content is inflated into a
//     reused buffer and dropped; pages are extracted one at a time, or on
//     several workers (PagesConcurrently) that share the parsed objects and
//     keep their own buffers and caches.
//   - The content stream is read by a small allocation-free lexer and a
//     text-only interpreter (text state, Tm/Td/TD/T*, CTM, Form XObjects,
//     annotation appearances, ActualText); paths are skipped, images only
//     noted for the unreadable-page reason.
//   - Fonts are resolved once per font object: widths (Widths, W/DW,
//     standard 14 AFM metrics from pdfcpu, a substitute for fonts without
//     widths), text per code (ToUnicode, encodings and Differences, glyph
//     names), ascent and descent. A font switch is a map lookup.
//   - Words are built with poppler's TextOutputDev rules (word breaks,
//     duplicate removal, line-level merging, box extents from font ascent
//     and descent), because pdftotext -bbox is the reference the agreement
//     tests hold us to; lines and blocks come from a simpler sweep.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Typed errors, for the scan runner to map to contract codes
// (encrypted_pdf, invalid_pdf). Every error about a file's content wraps
// exactly one of them, so errors.Is picks the code; I/O errors (a missing
// file) and context errors come through as they are.
var (
	// ErrNotPDF: the input is not a PDF at all (no %PDF header), such as an
	// HTML page saved with a .pdf name.
	ErrNotPDF = errors.New("not a PDF file")
	// ErrInvalid: a PDF that is malformed beyond repair or truncated.
	ErrInvalid = errors.New("malformed PDF")
	// ErrEncrypted: the PDF needs a user password to open.
	ErrEncrypted = errors.New("PDF is encrypted with a user password")
)

// objectStreamLimit bounds a decoded object stream while pdfcpu parses the
// file: real ones hold a few hundred small objects (kilobytes), and every
// decoded byte turns into parsed objects, many times its size in memory.
const objectStreamLimit = 64 << 20

// Document is an open PDF. It is not safe for concurrent use: extract pages
// from one goroutine, or with PagesConcurrently, which reads pages on
// several workers, each with reader state of its own.
type Document struct {
	obj    objects
	closer io.Closer

	pages     []pageEntry
	hidden    map[int]bool // optional content groups off by default
	fonts     map[int]*font
	formRes   map[int]*resources
	pageCount int
	// contentBuf is reused from page to page: a page's content is only
	// needed while the page is interpreted.
	contentBuf []byte
	// scratch holds the last page's working buffers, reused by the next.
	scratch pageScratch
	// forms caches decoded Form XObject content (symbols and title blocks
	// are drawn many times), within formCacheBudget bytes.
	forms     map[int][]byte
	formBytes int

	budgets Budgets
	usage   Usage
}

// Open opens the PDF at path. ctx bounds the parse (a hostile file with a
// huge cross-reference table stops when ctx is done).
func Open(ctx context.Context, path string) (*Document, error) {
	return OpenWithBudgets(ctx, path, DefaultBudgets())
}

// OpenWithBudgets opens the PDF at path with the given budgets (zero
// fields take the defaults). A file over a budget fails with an error
// wrapping ErrTooComplex, here or on the page that crosses it.
func OpenWithBudgets(ctx context.Context, path string, b Budgets) (*Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	d, err := open(ctx, f, st.Size(), b.withDefaults())
	if err != nil {
		f.Close()
		return nil, err
	}
	d.closer = f
	return d, nil
}

// inMemoryBytes: files up to this size are read into memory at once, and
// opened lazily (xref.go).
const inMemoryBytes = 32 << 20

// memFile is a file read whole into memory. It reads like bytes.Reader's
// ReadAt; preflight scans it in place instead of copying it in chunks.
type memFile []byte

func (m memFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("pdftext: negative offset")
	}
	if off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// OpenReader opens a PDF of size bytes read through r.
func OpenReader(ctx context.Context, r io.ReaderAt, size int64) (*Document, error) {
	return open(ctx, r, size, DefaultBudgets())
}

// OpenReaderWithBudgets is OpenReader with the given budgets.
func OpenReaderWithBudgets(ctx context.Context, r io.ReaderAt, size int64, b Budgets) (*Document, error) {
	return open(ctx, r, size, b.withDefaults())
}

// Close releases the file opened by Open.
func (d *Document) Close() error {
	if d.closer == nil {
		return nil
	}
	err := d.closer.Close()
	d.closer = nil
	return err
}

// NumPages is the number of pages; 0 means an empty PDF.
func (d *Document) NumPages() int { return d.pageCount }

// headerWindow is how far into the file the %PDF- header may start; Acrobat
// accepts junk before it, within 1 KiB.
const headerWindow = 1024

func open(ctx context.Context, r io.ReaderAt, size int64, b Budgets) (doc *Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, fmt.Errorf("%w: parser failure: %v", ErrInvalid, p)
		}
	}()
	if size <= 0 {
		return nil, fmt.Errorf("%w: empty file", ErrNotPDF)
	}
	head := make([]byte, min(size, headerWindow))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if !bytes.Contains(head, []byte("%PDF-")) {
		return nil, fmt.Errorf("%w: no %%PDF- header", ErrNotPDF)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// source reads the file after the open; r reads it during the open,
	// from memory when it fits.
	source := r
	if _, inMemory := r.(memFile); !inMemory && size <= inMemoryBytes {
		// The parser reads in small pieces, hundreds of system calls per
		// file; one read of the whole file spares them.
		buf := make([]byte, size)
		if n, err := r.ReadAt(buf, 0); n == len(buf) && (err == nil || errors.Is(err, io.EOF)) {
			r = memFile(buf)
		}
	}
	usage, err := preflight(ctx, r, size, b)
	if err != nil {
		return nil, err
	}
	// The whole-file read, for files the lazy table leaves to it and for
	// the lazy table's fallback: made at most once.
	var fullOnce sync.Once
	var full *model.XRefTable
	var fullErr error
	readFull := func(r io.ReaderAt) (*model.XRefTable, error) {
		fullOnce.Do(func() {
			var pdf *model.Context
			if pdf, fullErr = pdfcpu.ReadWithContext(ctx, io.NewSectionReader(r, 0, size), readConfig(b)); fullErr == nil {
				full = pdf.XRefTable
			}
		})
		return full, fullErr
	}
	var xref *xrefTable
	var root *types.IndirectRef
	if data, inMemory := r.(memFile); inMemory {
		xref, root, err = openLazy(ctx, data, source, readConfig(b), readFull)
		if err != nil && (errors.Is(err, ErrTooComplex) || ctx.Err() != nil) {
			return nil, err
		}
	}
	if xref == nil {
		full, err := readFull(r)
		if err != nil {
			return nil, classifyOpenError(ctx, err)
		}
		if n := len(full.Table); n > b.Objects {
			return nil, fmt.Errorf("%w: %d objects, over the budget of %d", ErrTooComplex, n, b.Objects)
		}
		xref, root = fullTable(full), full.Root
	}
	usage.Objects = max(usage.Objects, xref.count())
	m := &meter{}
	m.reset(b)
	obj := objects{xref: xref, maxDecoded: b.ContentBytesPerPage, cmaps: map[int]*cmap{}, meter: m}
	if !xref.encrypted() {
		obj.file = newLengthRecovery(source, size)
	}
	var catalog types.Dict
	if root != nil {
		catalog = obj.dict(*root)
	}
	if catalog == nil {
		return nil, fmt.Errorf("%w: no document catalog", ErrInvalid)
	}
	pages, nodes, err := obj.pageTree(catalog["Pages"], b.PageTreeNodes)
	usage.PageTreeNodes = nodes
	if errors.Is(err, ErrTooComplex) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: page tree: %v", ErrInvalid, err)
	}
	if len(pages) == 0 && obj.dict(catalog["Pages"]) == nil {
		// No page tree and no page objects to rebuild one from: damage, not
		// an empty document (which has a page tree with no kids).
		return nil, fmt.Errorf("%w: no page tree and no pages", ErrInvalid)
	}
	hidden := obj.hiddenLayers(catalog)
	if err := xref.openFailure(); err != nil {
		// The lazy table fell back to the whole-file read, which refuses
		// the file: so does the open.
		return nil, classifyOpenError(ctx, err)
	}
	xref.release()
	return &Document{
		obj:       obj,
		pages:     pages,
		hidden:    hidden,
		fonts:     map[int]*font{},
		formRes:   map[int]*resources{},
		forms:     map[int][]byte{},
		pageCount: len(pages),
		budgets:   b,
		usage:     usage,
	}, nil
}

// readConfig is pdfcpu's reading configuration, built here rather than with
// model.NewDefaultConfiguration, which installs a config directory under the
// user's home: an appliance must not write there.
func readConfig(b Budgets) *model.Configuration {
	limits := model.DefaultResourceLimits()
	limits.MaxDecodeBytes = objectStreamLimit
	// An xref stream declaring more objects than the budget is refused
	// before pdfcpu allocates its table.
	limits.MaxObjectCount = b.Objects
	limits.MaxXRefEntries = b.Objects
	return &model.Configuration{
		Reader15:                  true,
		DecodeAllStreams:          false,
		ValidationMode:            model.ValidationRelaxed,
		UnsupportedResourcePolicy: model.UnsupportedResourceSkip,
		Eol:                       types.EolLF,
		Limits:                    limits,
		Cmd:                       model.EXTRACTCONTENT,
		Offline:                   true,
	}
}

func classifyOpenError(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, pdfcpu.ErrWrongPassword), errors.Is(err, pdfcpu.ErrEncrypted):
		return ErrEncrypted
	case strings.Contains(err.Error(), "encryption"):
		// An unsupported security handler (certificates, unknown crypt
		// filters): the file is encrypted and cannot be opened, which is
		// what the contract's encrypted_pdf tells a partner.
		return fmt.Errorf("%w: %v", ErrEncrypted, err)
	case errors.Is(err, filter.ErrDecodeLimitExceeded), strings.Contains(err.Error(), "exceeds limit"):
		return fmt.Errorf("%w: %v", ErrTooComplex, err)
	case errors.Is(err, pdfcpu.ErrEmptyInput):
		return fmt.Errorf("%w: empty file", ErrNotPDF)
	}
	return fmt.Errorf("%w: %v", ErrInvalid, err)
}

// Page extracts page n (1-based). A page that fails on its own comes back
// with Page.Err set (wrapping ErrInvalid; words read before the failure are
// kept); the returned error is only for an out-of-range page or a done ctx,
// in which case the partial page is returned too.
func (d *Document) Page(ctx context.Context, n int) (*Page, error) {
	if n < 1 || n > d.pageCount {
		return nil, fmt.Errorf("page %d out of range 1–%d", n, d.pageCount)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := d.extract(ctx, n)
	if p.Err != nil && (errors.Is(p.Err, context.Canceled) || errors.Is(p.Err, context.DeadlineExceeded)) {
		return p, p.Err
	}
	return p, nil
}

// PageSize is page n's displayed size in points (CropBox after /Rotate)
// and its rotation, without extracting it: the page inventory a scan takes
// before extraction.
func (d *Document) PageSize(n int) (width, height float64, rotate int, err error) {
	if n < 1 || n > d.pageCount {
		return 0, 0, 0, fmt.Errorf("page %d out of range 1–%d", n, d.pageCount)
	}
	g := d.geometry(d.pages[n-1])
	return round4(g.width), round4(g.height), g.rotate, nil
}

// Pages streams the pages in order, one at a time, so memory is bounded by
// one page. It stops early when ctx is done (the last page yielded then
// carries the context error) or when the consumer stops.
func (d *Document) Pages(ctx context.Context) iter.Seq[*Page] {
	return func(yield func(*Page) bool) {
		for n := 1; n <= d.pageCount; n++ {
			p, err := d.Page(ctx, n)
			if p == nil {
				p = &Page{Number: n, Err: err, Words: []Word{}}
			}
			if !yield(p) || err != nil {
				return
			}
		}
	}
}

func (d *Document) font(ref types.Object) *font {
	id := objectID(ref)
	if id != 0 {
		if f, ok := d.fonts[id]; ok {
			return f
		}
	}
	f := d.obj.loadFont(ref)
	if id != 0 {
		d.fonts[id] = f
	}
	return f
}

// formCacheBudget bounds the decoded form content kept between uses.
const formCacheBudget = 16 << 20

// formContent returns a form's decoded content, cached by object.
func (d *Document) formContent(ref types.Object) ([]byte, error) {
	id := objectID(ref)
	if c, ok := d.forms[id]; ok && id != 0 {
		return c, nil
	}
	_, c, err := d.obj.stream(ref)
	if err == nil && id != 0 && d.formBytes+len(c) <= formCacheBudget {
		d.forms[id] = c
		d.formBytes += len(c)
	}
	return c, err
}

// resourcesFor returns the cached resources of a form XObject, so a symbol
// drawn hundreds of times resolves its fonts once.
func (d *Document) resourcesFor(ref types.Object, rd types.Dict) *resources {
	id := objectID(ref)
	if id == 0 {
		return newResources(rd)
	}
	if r, ok := d.formRes[id]; ok {
		return r
	}
	r := newResources(rd)
	d.formRes[id] = r
	return r
}

// pageGeometry is the displayed page: its CropBox (clipped to the MediaBox)
// after /Rotate, and the transform from user space onto it (top-left origin,
// y down), the same device space pdftotext reports in.
type pageGeometry struct {
	rotate        int
	width, height float64
	device        matrix
}

func (d *Document) geometry(pe pageEntry) pageGeometry {
	media := [4]float64{0, 0, 612, 792} // US Letter when the file gives none
	if r, ok := d.obj.rectOf(pe.mediaBox); ok {
		media = r
	}
	crop := media
	if c, ok := d.obj.rectOf(pe.cropBox); ok {
		crop = [4]float64{max(c[0], media[0]), max(c[1], media[1]), min(c[2], media[2]), min(c[3], media[3])}
		if crop[2] <= crop[0] || crop[3] <= crop[1] {
			crop = media
		}
	}
	rot := ((pe.rotate % 360) + 360) % 360
	rot = rot / 90 * 90
	g := pageGeometry{rotate: rot}
	x1, y1, x2, y2 := crop[0], crop[1], crop[2], crop[3]
	switch rot {
	case 0:
		g.width, g.height = x2-x1, y2-y1
		g.device = matrix{1, 0, 0, -1, -x1, y2}
	case 90:
		g.width, g.height = y2-y1, x2-x1
		g.device = matrix{0, 1, 1, 0, -y1, -x1}
	case 180:
		g.width, g.height = x2-x1, y2-y1
		g.device = matrix{-1, 0, 0, 1, x2, -y1}
	case 270:
		g.width, g.height = y2-y1, x2-x1
		g.device = matrix{0, -1, -1, 0, y2, x2}
	}
	return g
}

func (d *Document) extract(ctx context.Context, n int) (p *Page) {
	p = &Page{Number: n, Words: []Word{}}
	defer func() {
		if r := recover(); r != nil {
			p.Words, p.Segments, p.Readable = []Word{}, nil, false
			p.Err = fmt.Errorf("%w: page %d: extractor failure: %v", ErrInvalid, n, r)
		}
	}()
	pe := d.pages[n-1]
	pageDict := pe.dict
	g := d.geometry(pe)
	p.Width, p.Height, p.Rotate = round4(g.width), round4(g.height), g.rotate
	if pageDict == nil {
		p.Err = fmt.Errorf("%w: page %d: page object missing", ErrInvalid, n)
		return p
	}

	if d.obj.meter != nil {
		d.obj.meter.reset(d.budgets)
	}
	in := &interp{
		ctx:         ctx,
		budgets:     d.budgets,
		doc:         d,
		words:       &wordBuilder{device: g.device, width: g.width, height: g.height, words: d.scratch.words[:0], text: d.scratch.text[:0], slab: d.scratch.slab[:0], scratch: &d.scratch},
		gs:          gstate{ctm: identity, hScale: 1, lineWidth: 1},
		path:        pathBuilder{device: g.device, width: g.width, height: g.height, out: d.scratch.segs[:0], segs: d.scratch.path[:0], small: smallPathTracker{out: d.scratch.small[:0], pending: d.scratch.smallPending[:0]}},
		tm:          identity,
		tlm:         identity,
		formsActive: map[int]bool{},
	}
	res := newResources(pe.resources)
	content, contentErr := d.pageContent(pageDict)
	runErr := in.run(content, res)
	if runErr == nil {
		runErr = in.annotations(pageDict)
	}
	if runErr == nil && in.words.dropped {
		runErr = errTooComplex
	}
	if runErr == nil && d.obj.meter != nil {
		runErr = d.obj.meter.exceeded
	}
	d.pageUsage(in)
	if errors.Is(contentErr, ErrTooComplex) {
		runErr = contentErr
	}
	in.words.finish(p)
	if len(in.path.out) > 0 {
		p.Segments = slices.Clone(in.path.out)
	}
	p.SegmentsDropped = in.path.dropped
	if len(in.path.small.out) > 0 {
		p.SmallPaths = slices.Clone(in.path.small.out)
	}
	p.SmallPathsDropped = in.path.small.dropped
	p.Glyphs, p.UnmappedGlyphs = in.shown, in.unmapped
	p.Images, p.ImagesDropped, p.Signatures = in.marks.images, in.marks.imagesDropped, in.marks.signatures
	if in.path.ink.bits != nil {
		ink := in.path.ink // a copy: the page must not hold the interpreter
		p.Ink = &ink
	}
	d.scratch.keep(in)

	switch {
	case runErr != nil && (errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded)):
		p.Err = runErr
	case errors.Is(runErr, ErrTooComplex):
		p.Words = []Word{}
		p.Err = fmt.Errorf("%w: page %d: %v", ErrTooComplex, n, runErr)
	case runErr != nil:
		p.Err = fmt.Errorf("%w: page %d: %v", ErrInvalid, n, runErr)
	case contentErr != nil && len(p.Words) == 0:
		p.Err = fmt.Errorf("%w: page %d: content: %v", ErrInvalid, n, contentErr)
	}
	p.Readable = len(p.Words) > 0
	if !p.Readable && p.Err == nil {
		switch {
		case in.unmapped > 0:
			p.Reason = ReasonUnmappedText
		case in.sawImage:
			p.Reason = ReasonImageOnly
		default:
			p.Reason = ReasonNoTextObjects
		}
	}
	return p
}

// pageScratch is a page's working buffers, kept for the next page read
// by the same reader: a page's segments and words grow there (and are
// copied out at their final size) instead of growing fresh slices page
// after page, thousands of elements each by doubling.
type pageScratch struct {
	segs  []Segment
	path  []pathSeg
	small []SmallPath
	// smallPending: a path's small subpaths until it is painted.
	smallPending []SmallPath
	words        []*rawWord
	text         []byte
	slab         []rawWord
	order        orderScratch
	seen         map[dedupeKey]int
	chain        []int
}

// scratchKept bounds each buffer kept between pages: a hostile page's
// half a million words are not held on to for the rest of the file.
const scratchKept = 1 << 20

func (s *pageScratch) keep(in *interp) {
	s.segs = keptScratch(in.path.out)
	s.path = keptScratch(in.path.segs)
	s.small, s.smallPending = keptScratch(in.path.small.out), keptScratch(in.path.small.pending)
	clear(in.words.words) // the page's words are done with: let them go
	s.words = keptScratch(in.words.words)
	s.text = keptScratch(in.words.text)
	s.slab = keptScratch(in.words.slab)
	o := &s.order
	o.items, o.lines, o.nextLine = keptScratch(o.items), keptScratch(o.lines), keptScratch(o.nextLine)
	o.blocks, o.active, o.order = keptScratch(o.blocks), keptScratch(o.active), keptScratch(o.order)
}

func keptScratch[T any](b []T) []T {
	var zero T
	if uintptr(cap(b))*unsafe.Sizeof(zero) > scratchKept {
		return nil
	}
	return b[:0]
}

// pageContent decodes the page's content streams into the document's
// reusable buffer (one page's content is dropped before the next page is
// read), joining an array of streams with newlines: operators may be split
// across them. A stream that fails to decode is skipped, its error reported
// only if nothing else reads, as viewers show the rest of the page.
func (d *Document) pageContent(pageDict types.Dict) ([]byte, error) {
	obj := pageDict["Contents"]
	if obj == nil {
		return nil, nil
	}
	parts := d.obj.array(obj)
	if parts == nil {
		parts = types.Array{obj}
	}
	buf := d.contentBuf[:0]
	var firstErr error
	for _, part := range parts {
		var err error
		if _, buf, err = d.obj.streamAppend(buf, part); err != nil && firstErr == nil {
			firstErr = err
		}
		if errors.Is(err, ErrTooComplex) {
			// All parts count against one budget: a /Contents array that
			// repeats one stream is a bomb, not a long page.
			d.contentBuf = nil
			return nil, err
		}
		buf = append(buf, '\n')
	}
	d.contentBuf = buf
	return buf, firstErr
}

// Annotation flags that hide an annotation on screen (PDF 32000-1 12.5.3).
const (
	annotHidden = 1 << 1
	annotNoView = 1 << 5
)

// annotations runs the normal appearance streams of the page's visible
// annotations (form fields, FreeText markups, stamps): pdftotext includes
// their text, and so must the evidence a reviewer sees.
func (in *interp) annotations(pageDict types.Dict) error {
	o := in.doc.obj
	for _, a := range o.array(pageDict["Annots"]) {
		ad := o.dict(a)
		if ad == nil || o.name(ad["Subtype"]) == "Popup" {
			continue
		}
		if flags := int(o.numberOr(ad["F"], 0)); flags&(annotHidden|annotNoView) != 0 || in.doc.ocHidden(ad["OC"]) {
			continue
		}
		in.signature(ad)
		if shx, err := in.shxText(ad); shx || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		ap := o.dict(ad["AP"])
		if ap == nil || ap["N"] == nil {
			if o.name(ad["Subtype"]) == "FreeText" {
				if err := in.freeTextAppearance(ad); err != nil {
					return err
				}
			}
			continue
		}
		normal := ap["N"]
		if states, ok := o.resolve(normal).(types.Dict); ok {
			normal = states[o.name(ad["AS"])]
		}
		form, ok := o.resolve(normal).(types.StreamDict)
		if !ok {
			continue
		}
		rect := o.numbers(ad["Rect"])
		if len(rect) != 4 {
			continue
		}
		_, content, err := o.stream(normal)
		if err != nil && len(content) == 0 {
			continue
		}
		m := identity
		if a := o.numbers(form.Dict["Matrix"]); len(a) == 6 {
			m = matrix{a[0], a[1], a[2], a[3], a[4], a[5]}
		}
		placement, ok := annotPlacement(m, o.numbers(form.Dict["BBox"]), rect)
		if !ok {
			continue
		}
		res := newResources(o.dict(form.Dict["Resources"]))
		in.gs = gstate{ctm: identity, hScale: 1}
		in.stack = in.stack[:0]
		if err := in.runForm(objectID(normal), content, res, m.mul(placement)); err != nil {
			return err
		}
	}
	return nil
}

// annotPlacement is the matrix that maps the appearance's transformed BBox
// onto the annotation's Rect (PDF 32000-1 12.5.5).
func annotPlacement(m matrix, bbox, rect []float64) (matrix, bool) {
	if len(bbox) != 4 {
		return identity, false
	}
	xs, ys := [4]float64{}, [4]float64{}
	corners := [4][2]float64{{bbox[0], bbox[1]}, {bbox[2], bbox[1]}, {bbox[0], bbox[3]}, {bbox[2], bbox[3]}}
	for i, c := range corners {
		xs[i], ys[i] = m.apply(c[0], c[1])
	}
	bx0, bx1 := min(xs[0], xs[1], xs[2], xs[3]), max(xs[0], xs[1], xs[2], xs[3])
	by0, by1 := min(ys[0], ys[1], ys[2], ys[3]), max(ys[0], ys[1], ys[2], ys[3])
	if bx1-bx0 == 0 || by1-by0 == 0 {
		return identity, false
	}
	rx0, rx1 := min(rect[0], rect[2]), max(rect[0], rect[2])
	ry0, ry1 := min(rect[1], rect[3]), max(rect[1], rect[3])
	sx, sy := (rx1-rx0)/(bx1-bx0), (ry1-ry0)/(by1-by0)
	return matrix{sx, 0, 0, sy, rx0 - bx0*sx, ry0 - by0*sy}, true
}

// UserRect maps a box given as fractions of page n as displayed (CropBox
// after /Rotate, top-left origin, as a Word's BBox) back to the page's
// default user space, where annotations are placed.
func (d *Document) UserRect(n int, b BBox) (Rect, error) {
	if n < 1 || n > d.pageCount {
		return Rect{}, fmt.Errorf("page %d out of range 1–%d", n, d.pageCount)
	}
	g := d.geometry(d.pages[n-1])
	inv, ok := g.device.invert()
	if !ok {
		return Rect{}, fmt.Errorf("page %d: its geometry cannot be inverted", n)
	}
	return userRect(inv, b.Left*g.width, b.Top*g.height, (b.Left+b.Width)*g.width, (b.Top+b.Height)*g.height), nil
}
