package pdftext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// xrefTable is the file's objects by number. A file held in memory whose
// cross-reference sections read cleanly is opened lazily: the open reads
// the xref sections, the trailer and what the page tree needs, and every
// other object is parsed when first resolved, its stream data a slice of
// the file. pdfcpu's whole-file read parses every object and copies every
// stream, most of which a text extractor never looks at (images, fonts'
// glyph programs, metadata), and did so on one core before the pages were
// read on all of them.
//
// Objects are parsed by pdfcpu's own object parser, so a lazily parsed
// object is the object the whole-file read would have made. What that read
// would have repaired is left to it: anything unusual at open (encryption,
// a section that does not parse, an offset that does not hold its object)
// opens the file with pdfcpu's read, and an object that fails to parse
// later switches the table to that read, made once, for every object from
// then on. Where that read refuses the file, an open that met the object
// fails as before; past the open, the object is missing and the pages
// read what they can, as poppler (which reads lazily too) does.
type xrefTable struct {
	// data is the file read whole, during the open only (sections, the
	// objects the page tree needs); after it, objects are read through
	// source, so that the Document does not hold every byte of the file
	// (images, old revisions) for the few it reads.
	data    []byte
	source  io.ReaderAt
	size    int64
	entries map[int]*xrefEntry
	streams map[int]*objectStream
	// parser is the template of the context pdfcpu parses objects with:
	// its configuration and an empty table. Each parse takes a copy with a
	// reader of its own, so that workers parse at once.
	parser *model.Context
	limits model.ResourceLimits

	// The whole-file read: from the start, or once a lazily parsed object
	// fails (and the read succeeds). fullMu serialises its lookups, which
	// write to it (the current object, objects of object streams decoded
	// on first use).
	useFull   atomic.Bool
	fullTried atomic.Bool
	fullOnce  sync.Once
	readFull  func(io.ReaderAt) (*model.XRefTable, error)
	full      *model.XRefTable
	fullErr   error
	fullMu    sync.Mutex
}

type entryKind uint8

const (
	entryNull       entryKind = iota // listed, holds nothing (resolves to null)
	entryFree                        // free
	entryOffset                      // an object at offset in the file
	entryCompressed                  // an object in an object stream
)

type xrefEntry struct {
	kind   entryKind
	gen    int
	offset int64
	stream int // object stream number (entryCompressed)
	index  int // index within it
	parsed atomic.Pointer[parsedObject]
}

// parsedObject boxes a parsed object (nil included) for an atomic pointer.
type parsedObject struct{ obj types.Object }

// objectStream is an object stream: its dictionary and the offsets of its
// objects, read at open; its content is decoded on first need.
type objectStream struct {
	osd     types.ObjectStreamDict
	offsets []int // object i spans offsets[i] to offsets[i+1] (the last, to the end)
	once    sync.Once
	content []byte
	err     error
}

// errNotLazy: the file has something the lazy open leaves to pdfcpu's
// whole-file read. It never leaves this file.
var errNotLazy = errors.New("pdftext: not opened lazily")

func notLazy(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errNotLazy}, args...)...)
}

// fullTable wraps pdfcpu's whole-file read.
func fullTable(xref *model.XRefTable) *xrefTable {
	t := &xrefTable{full: xref}
	t.fullOnce.Do(func() {})
	t.useFull.Store(true)
	return t
}

// count is the number of objects the table lists.
func (t *xrefTable) count() int {
	if t.entries == nil {
		return len(t.full.Table)
	}
	return len(t.entries)
}

// encrypted: the file's raw bytes are encrypted (only ever read whole).
func (t *xrefTable) encrypted() bool {
	return t.entries == nil && t.full.Encrypt != nil
}

// dereference returns the object ref points to; nil for a free or missing
// object.
func (t *xrefTable) dereference(ref types.IndirectRef) (types.Object, error) {
	if !t.useFull.Load() {
		e := t.entries[ref.ObjectNumber.Value()]
		if e == nil || e.kind == entryFree || e.kind == entryNull {
			return nil, nil
		}
		if p := e.parsed.Load(); p != nil {
			return p.obj, nil
		}
		obj, err := t.parse(ref.ObjectNumber.Value(), e)
		if err != nil {
			if _, fullErr := t.fullRead(); fullErr != nil {
				// pdfcpu refuses the file: past the open, the pages read
				// what they can (as poppler, which reads lazily too), and
				// this object is missing.
				e.parsed.CompareAndSwap(nil, &parsedObject{})
				return nil, err
			}
			t.useFull.Store(true)
		} else {
			// Two workers may parse the same object at once: both made the
			// same object, and the first one stored is the one kept.
			e.parsed.CompareAndSwap(nil, &parsedObject{obj})
			return e.parsed.Load().obj, nil
		}
	}
	xref, err := t.fullRead()
	if err != nil {
		return nil, err
	}
	t.fullMu.Lock()
	defer t.fullMu.Unlock()
	return xref.Dereference(ref)
}

// reader reads the file: from memory during the open, then from source.
func (t *xrefTable) reader() io.ReaderAt {
	if t.data != nil {
		return memFile(t.data)
	}
	return t.source
}

// release drops the file's bytes at the end of the open: nothing parsed
// keeps a reference to them (parsed text and stream data are copies).
func (t *xrefTable) release() {
	if t.entries != nil {
		t.data = nil
		t.parser.Read.RS = nil
	}
}

// readAt reads n bytes at off into a buffer of their own; nil if the file
// has fewer.
func (t *xrefTable) readAt(off, n int64) []byte {
	if off < 0 || n < 0 || off+n > t.size {
		return nil
	}
	buf := make([]byte, n)
	if got, err := t.reader().ReadAt(buf, off); int64(got) != n && err != nil {
		return nil
	}
	return buf
}

// withData is sd with its encoded bytes read from the file: a lazily
// parsed stream is held without them until it is first decoded (images,
// never decoded, are never read). Read through ref (obj), they are kept
// with the object, so that a stream many pages share (or a page repeats)
// is read once.
func (t *xrefTable) withData(obj types.Object, sd types.StreamDict) types.StreamDict {
	if sd.Raw != nil || sd.Content != nil || sd.StreamLength == nil || t.entries == nil {
		return sd
	}
	var e *xrefEntry
	var cached *parsedObject
	if ref, ok := obj.(types.IndirectRef); ok {
		if e = t.entries[ref.ObjectNumber.Value()]; e != nil {
			cached = e.parsed.Load()
		}
	}
	var c types.StreamDict
	keep := false
	if cached != nil {
		c, keep = cached.obj.(types.StreamDict)
		keep = keep && c.StreamOffset == sd.StreamOffset
	}
	if keep && c.Raw != nil {
		return c
	}
	if sd.Raw = t.readAt(sd.StreamOffset, *sd.StreamLength); sd.Raw == nil {
		sd.Raw = []byte{}
	}
	if keep {
		e.parsed.CompareAndSwap(cached, &parsedObject{sd})
	}
	return sd
}

// encodedLength is a stream's encoded size, its data read or not.
func encodedLength(sd types.StreamDict) int {
	if sd.Raw == nil && sd.StreamLength != nil {
		return int(*sd.StreamLength)
	}
	return len(sd.Raw)
}

// wholeFile is pdfcpu's whole-file read, used for every lookup from now on.
func (t *xrefTable) wholeFile() (*model.XRefTable, error) {
	xref, err := t.fullRead()
	if err == nil {
		t.useFull.Store(true)
	}
	return xref, err
}

func (t *xrefTable) fullRead() (*model.XRefTable, error) {
	t.fullOnce.Do(func() {
		t.full, t.fullErr = t.readFull(t.reader())
		t.fullTried.Store(true)
	})
	return t.full, t.fullErr
}

// openFailure is the whole-file read's error when the lazy table needed
// it during the open and it failed: the open then fails as it would have
// without the lazy table.
func (t *xrefTable) openFailure() error {
	if !t.fullTried.Load() {
		return nil
	}
	_, err := t.fullRead()
	return err
}

// text resolves obj (one reference, as pdfcpu's DereferenceText) to a
// string.
func (t *xrefTable) text(obj types.Object) (string, error) {
	if ref, ok := obj.(types.IndirectRef); ok {
		var err error
		if obj, err = t.dereference(ref); err != nil {
			return "", err
		}
	}
	return model.Text(obj)
}

// parse reads object n from the file.
func (t *xrefTable) parse(n int, e *xrefEntry) (types.Object, error) {
	if e.kind == entryCompressed {
		return t.compressed(e)
	}
	if s := t.streams[n]; s != nil {
		return s.osd, nil // the whole-file read keeps an object stream as one
	}
	obj, err := t.parseAt(e.offset, n, e.gen)
	if err != nil {
		return nil, err
	}
	if sd, ok := obj.(types.StreamDict); ok {
		if err := t.attachData(&sd); err != nil {
			return nil, err
		}
		obj = sd
	}
	return obj, nil
}

// parseAt parses object n, generation gen, at off in the file.
func (t *xrefTable) parseAt(off int64, n, gen int) (types.Object, error) {
	if obj, ok := t.parseInPlace(off); ok {
		return obj, nil
	}
	return pdfcpu.ParseObjectWithContext(context.Background(), t.parseContext(), off, n, gen)
}

// objectWindow is how much of the file pdfcpu's object parser reads first:
// an object whose end (endobj, or stream after the dictionary) lies within
// it is parsed from these bytes alone.
const objectWindow = 1 << 10

// parseInPlace parses the object at off the way pdfcpu's ParseObjectWithContext
// does, from the file's bytes where that reads them through a buffered
// reader and three copies (about 10 KB of garbage an object, a quarter of
// what a page's extraction allocated). It takes the common case only: an
// object whose end is in the first window pdfcpu reads, a stream whose
// filter is one name with direct parameters or none; ok is false for
// anything else, which pdfcpu's parser then reads.
func (t *xrefTable) parseInPlace(off int64) (types.Object, bool) {
	buf := t.readAt(off, objectWindow)
	if buf == nil {
		return nil, false // pdfcpu pads a window past the end of the file
	}
	// The window is this object's own and never written to: the parsed
	// object may keep strings that point into it.
	window := unsafe.String(unsafe.SliceData(buf), len(buf))
	endInd, streamInd, err := model.DetectKeywordsWithContext(context.Background(), window)
	if err != nil {
		return nil, false
	}
	var text string
	var streamOffset int
	switch {
	case endInd > 0 && (streamInd < 0 || streamInd > endInd):
		text = window[:endInd]
	case streamInd > 0:
		head := strings.TrimSpace(window[:streamInd])
		if !strings.HasSuffix(head, ">>") {
			return nil, false // "stream" inside the dictionary
		}
		if streamOffset = streamDataOffset(window, streamInd); streamOffset < 0 {
			return nil, false
		}
		text = window[:streamInd]
	default:
		return nil, false
	}
	if _, _, err := model.ParseObjectAttributes(&text); err != nil {
		return nil, false
	}
	if text = strings.TrimSpace(text); text == "" {
		return nil, true
	}
	obj, err := model.ParseObjectContext(context.Background(), &text, 0, t.limits.MaxRecursionDepth)
	if err != nil {
		return nil, false
	}
	d, isDict := obj.(types.Dict)
	if !isDict || streamInd < 0 || (endInd > 0 && streamInd > endInd) {
		return obj, true
	}
	var filters []types.PDFFilter
	if f, found := d.Find("Filter"); found {
		name, isName := f.(types.Name)
		if !isName || inlineFilterAlias(string(name)) {
			return nil, false
		}
		filter := types.PDFFilter{Name: string(name)}
		if p, found := d.Find("DecodeParms"); found {
			parms, isDict := p.(types.Dict)
			if !isDict {
				return nil, false
			}
			if len(parms) > 0 {
				filter.DecodeParms = parms
			}
		}
		filters = []types.PDFFilter{filter}
	}
	length, lengthRef := d.Length()
	return types.NewStreamDict(d, off+int64(streamOffset), length, lengthRef, filters), true
}

// streamDataOffset is where a stream's data starts after the keyword at
// streamInd: past spaces and one end of line, as pdfcpu reads it; -1 where
// that runs to the end of the window.
func streamDataOffset(window string, streamInd int) int {
	i := streamInd + len("stream")
	for i < len(window) && window[i] == ' ' {
		i++
	}
	switch {
	case i >= len(window):
		return -1
	case window[i] == '\n':
		return i + 1
	case window[i] == '\r':
		if i+1 < len(window) && window[i+1] == '\n' {
			return i + 2
		}
		return i + 1
	}
	return i
}

// inlineFilterAlias: the abbreviations of inline images, which pdfcpu
// renames in a stream's dictionary.
func inlineFilterAlias(name string) bool {
	switch name {
	case "AHx", "A85", "LZW", "Fl", "RL", "CCF", "DCT":
		return true
	}
	return false
}

// parseContext is a copy of the parser's context reading the file through
// a reader of its own.
func (t *xrefTable) parseContext() *model.Context {
	c := *t.parser
	rc := *t.parser.Read
	rc.RS = io.NewSectionReader(t.reader(), 0, t.size)
	c.Read = &rc
	return &c
}

// attachData points a stream's Raw at its bytes in the file, where pdfcpu
// would copy them (its loadEncodedStreamContent). Lengths it would
// repair (none, unreadable, past the end of the file) are left to it.
func (t *xrefTable) attachData(sd *types.StreamDict) error {
	if sd.StreamLength == nil && sd.StreamLengthObjNr != nil {
		l, err := t.lengthObject(*sd.StreamLengthObjNr)
		if err != nil {
			return err
		}
		sd.StreamLength = &l
	}
	if sd.StreamLength == nil || *sd.StreamLength <= 0 {
		return t.attachToEndstream(sd)
	}
	if *sd.StreamLength > t.limits.MaxStreamBytes {
		return notLazy("stream length out of range")
	}
	if sd.StreamOffset < 0 || sd.StreamOffset+*sd.StreamLength > t.size {
		return notLazy("stream data past the end of the file")
	}
	return nil // the data is read when the stream is decoded (withData)
}

// lengthObject reads the integer object n that holds a stream's length.
// It is parsed here rather than resolved, so that a length object that is
// itself a stream (whose length would be read first) is refused instead
// of recursing.
func (t *xrefTable) lengthObject(n int) (int64, error) {
	e := t.entries[n]
	if e == nil || e.kind == entryFree || e.kind == entryNull {
		return 0, notLazy("stream length object %d missing", n)
	}
	var obj types.Object
	var err error
	switch p := e.parsed.Load(); {
	case p != nil:
		obj = p.obj
	case e.kind == entryCompressed:
		obj, err = t.compressed(e)
	default:
		obj, err = t.parseAt(e.offset, n, e.gen)
	}
	l, ok := obj.(types.Integer)
	if err != nil || !ok {
		return 0, notLazy("stream length object %d not an integer", n)
	}
	return int64(l), nil
}

// attachToEndstream takes a stream without a usable length up to its
// endstream keyword, less the end of line before it, and writes that
// length into its dictionary, as pdfcpu does.
func (t *xrefTable) attachToEndstream(sd *types.StreamDict) error {
	if sd.StreamOffset < 0 || sd.StreamOffset > t.size {
		return notLazy("stream data past the end of the file")
	}
	raw, ok := readToEndstream(t.reader(), t.size, sd.StreamOffset, t.limits.MaxStreamBytes)
	if !ok {
		return notLazy("stream without endstream")
	}
	sd.Raw = raw[:len(raw):len(raw)]
	if raw == nil {
		sd.Raw = []byte{}
	}
	if l := int64(len(raw)); sd.StreamLength == nil || *sd.StreamLength != l {
		sd.StreamLength = &l
		sd.Dict["Length"] = types.Integer(l)
	}
	if len(sd.Raw) == 0 {
		sd.Content = sd.Raw // what pdfcpu makes of an empty stream
	}
	return nil
}

// compressed parses an object of an object stream, decoding the stream
// on first need.
func (t *xrefTable) compressed(e *xrefEntry) (types.Object, error) {
	s := t.streams[e.stream]
	if s == nil { // an object stream's length inside itself, read at open
		return nil, notLazy("object stream %d not read yet", e.stream)
	}
	s.once.Do(func() {
		sd := t.withData(nil, s.osd.StreamDict)
		sd.Content = nil
		s.err = sd.DecodeWithLimit(s.osd.MaxDecodeBytes)
		s.content = sd.Content
	})
	if s.err != nil {
		return nil, s.err
	}
	start, end := s.offsets[e.index], len(s.content)
	if e.index+1 < len(s.offsets) {
		end = s.offsets[e.index+1]
	}
	if start > end || end > len(s.content) {
		return nil, notLazy("object stream offsets out of range")
	}
	// The decoded content is never written to: the parsed object may keep
	// strings that point into it.
	str := unsafe.String(unsafe.SliceData(s.content[start:end]), end-start)
	o, err := model.ParseObjectContext(context.Background(), &str, 0)
	if err != nil {
		return nil, err
	}
	if d, ok := o.(types.Dict); ok {
		if l, ref := d.Length(); l != nil || ref != nil {
			return nil, notLazy("a stream inside an object stream")
		}
	}
	return o, nil
}

// openLazy reads data's cross-reference sections (classic tables, xref
// streams, hybrid files, the /Prev chain of incremental updates, later
// sections winning) into a lazy table. It fails with errNotLazy where the
// file needs pdfcpu's whole-file read, and with ErrTooComplex over the
// object budget.
//
// data is the whole file, read from source, which reads it after the open
// (release).
func openLazy(ctx context.Context, data []byte, source io.ReaderAt, conf *model.Configuration, readFull func(io.ReaderAt) (*model.XRefTable, error)) (*xrefTable, *types.IndirectRef, error) {
	if !validHeader(data) {
		return nil, nil, notLazy("header")
	}
	parser, err := model.NewContext(bytes.NewReader(data), conf)
	if err != nil {
		return nil, nil, err
	}
	t := &xrefTable{
		data:     data,
		source:   source,
		size:     int64(len(data)),
		entries:  map[int]*xrefEntry{},
		streams:  map[int]*objectStream{},
		parser:   parser,
		limits:   conf.Limits,
		readFull: readFull,
	}
	off, err := lastXRefOffset(data)
	if err != nil {
		return nil, nil, err
	}
	r := xrefReader{t: t, maxEntries: conf.Limits.MaxXRefEntries}
	seen := map[int64]bool{}
	for off >= 0 {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if seen[off] {
			return nil, nil, notLazy("xref sections in a loop")
		}
		seen[off] = true
		if off, err = r.section(off); err != nil {
			return nil, nil, err
		}
	}
	if r.classic == 1 && t.entries[0] == nil {
		// pdfcpu renumbers such a table (an off-by-one first subsection).
		return nil, nil, notLazy("single xref table without object 0")
	}
	if r.root == nil {
		return nil, nil, notLazy("no root")
	}
	if err := t.checkOffsets(); err != nil {
		return nil, nil, err
	}
	if err := t.readObjectStreams(); err != nil {
		return nil, nil, err
	}
	if err := t.checkLinearization(); err != nil {
		return nil, nil, err
	}
	catalog, _ := t.lookup(*r.root).(types.Dict)
	if catalog == nil || t.fullTried.Load() {
		return nil, nil, notLazy("catalog")
	}
	if v, ok := catalog["Version"]; ok {
		if _, isName := v.(types.Name); !isName {
			return nil, nil, notLazy("catalog version")
		}
	}
	return t, r.root, nil
}

// lookup is dereference without the error.
func (t *xrefTable) lookup(ref types.IndirectRef) types.Object {
	o, _ := t.dereference(ref)
	return o
}

// validHeader: %PDF-1.x or %PDF-2.0 at the very start (pdfcpu shifts every
// offset by junk before the header).
func validHeader(data []byte) bool {
	if len(data) < 9 || !bytes.HasPrefix(data, []byte("%PDF-")) {
		return false
	}
	_, err := model.PDFVersion(string(data[5:8]))
	return err == nil && bytes.IndexAny(data[8:min(len(data), 1024)], "\r\n") >= 0
}

// lastXRefOffset reads the offset after the last startxref.
func lastXRefOffset(data []byte) (int64, error) {
	tail := data[max(0, len(data)-1024):]
	j := bytes.LastIndex(tail, []byte("startxref"))
	if j < 0 {
		return 0, notLazy("no startxref")
	}
	rest := tail[j+len("startxref"):]
	k := bytes.Index(rest, []byte("%%EOF"))
	if k < 0 {
		return 0, notLazy("no %%EOF")
	}
	off, err := strconv.ParseInt(string(bytes.TrimSpace(rest[:k])), 10, 64)
	if err != nil || off <= 0 || off >= int64(len(data)) {
		return 0, notLazy("startxref offset")
	}
	return off, nil
}

// xrefReader reads the sections of one file into t, newest first: an
// object a newer section lists is not read again from an older one.
type xrefReader struct {
	t          *xrefTable
	maxEntries int
	classic    int // classic sections read (for pdfcpu's renumbering case)
	root       *types.IndirectRef
	haveSize   bool
}

// section reads the section at off and returns the offset of the previous
// one, or -1.
func (r *xrefReader) section(off int64) (int64, error) {
	lines := lineReader{data: r.t.data, pos: off}
	first := lines.next()
	if strings.TrimSpace(first) == "xref" {
		return r.classicSection(&lines)
	}
	if _, ok := objectHeader(r.t.data, off); ok {
		prev, err := r.xrefStream(off)
		if err != nil {
			return 0, err
		}
		return prev, nil
	}
	return 0, notLazy("no xref section at %d", off)
}

func (r *xrefReader) classicSection(lines *lineReader) (int64, error) {
	r.classic++
	var trailerAt int64
	for {
		line := lines.next()
		if line == "" {
			return 0, notLazy("blank line in an xref table")
		}
		if t := strings.TrimLeft(line, " "); strings.HasPrefix(t, "trailer") {
			trailerAt = lines.start + int64(len(line)-len(t))
			break
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return 0, notLazy("xref subsection header")
		}
		start, err1 := strconv.Atoi(f[0])
		count, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || start < 0 || count < 0 || count > r.maxEntries {
			return 0, notLazy("xref subsection header")
		}
		for i := range count {
			if err := r.classicEntry(start+i, lines.next()); err != nil {
				return 0, err
			}
		}
	}
	// The trailer dictionary runs from "<<" up to the next startxref.
	rest := r.t.data[trailerAt+int64(len("trailer")):]
	end := bytes.Index(rest, []byte("startxref"))
	if end < 0 {
		return 0, notLazy("trailer without startxref")
	}
	begin := bytes.Index(rest[:end], []byte("<<"))
	if begin < 0 {
		return 0, notLazy("trailer without a dictionary")
	}
	s := string(rest[begin:end])
	o, err := model.ParseObjectContext(context.Background(), &s, 0, r.t.limits.MaxRecursionDepth)
	trailer, ok := o.(types.Dict)
	if err != nil || !ok {
		return 0, notLazy("trailer")
	}
	if err := r.trailer(trailer); err != nil {
		return 0, err
	}
	prev := int64(-1)
	if p := trailer.Prev(); p != nil {
		prev = *p
	}
	if stm, ok := trailer["XRefStm"]; ok {
		// A hybrid file: its xref stream lists the objects the table
		// leaves out, and comes before the previous section.
		n, ok := stm.(types.Integer)
		if !ok {
			return 0, notLazy("XRefStm")
		}
		if _, err := r.xrefStream(int64(n)); err != nil {
			return 0, err
		}
	}
	if prev == 0 {
		return 0, notLazy("Prev 0")
	}
	return prev, nil
}

func (r *xrefReader) classicEntry(n int, line string) error {
	f := strings.Fields(line)
	if len(f) != 3 || len(f[0]) != 10 || len(f[1]) > 5 || !allDigits(f[0]) || !allDigits(f[1]) || (f[2] != "n" && f[2] != "f") {
		return notLazy("xref entry %q", line)
	}
	if r.t.entries[n] != nil {
		return nil
	}
	off, _ := strconv.ParseInt(f[0], 10, 64)
	gen, _ := strconv.Atoi(f[1])
	switch {
	case f[2] == "f", off == 0 && n == 0:
		return r.add(n, &xrefEntry{kind: entryFree, gen: gen})
	case off < 9:
		return nil // pdfcpu leaves such an entry out
	}
	return r.add(n, &xrefEntry{kind: entryOffset, gen: gen, offset: off})
}

func (r *xrefReader) add(n int, e *xrefEntry) error {
	if len(r.t.entries) >= r.maxEntries {
		return fmt.Errorf("%w: more than %d objects", ErrTooComplex, r.maxEntries)
	}
	r.t.entries[n] = e
	return nil
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// trailer takes what the newest section's trailer says.
func (r *xrefReader) trailer(d types.Dict) error {
	if _, ok := d["Encrypt"]; ok {
		return notLazy("encrypted")
	}
	if !r.haveSize {
		if d.Size() == nil {
			return notLazy("trailer without Size")
		}
		r.haveSize = true
	}
	if r.root == nil {
		if r.root = d.IndirectRefEntry("Root"); r.root == nil {
			return notLazy("trailer without Root")
		}
	}
	if id, ok := d["ID"]; ok {
		if a, isArray := id.(types.Array); !isArray || (len(a) != 1 && len(a) != 2) {
			return notLazy("trailer ID")
		}
	}
	return nil
}

// xrefStream reads the xref stream at off and returns its /Prev, or -1.
func (r *xrefReader) xrefStream(off int64) (int64, error) {
	n, ok := objectHeader(r.t.data, off)
	if !ok {
		return 0, notLazy("xref stream header")
	}
	o, err := r.t.parseAt(off, n, 0)
	sd, isStream := o.(types.StreamDict)
	if err != nil || !isStream || sd.StreamLength == nil {
		return 0, notLazy("xref stream")
	}
	if err := r.t.attachData(&sd); err != nil {
		return 0, err
	}
	sd = r.t.withData(nil, sd)
	if err := sd.DecodeWithLimit(model.DefaultResourceLimits().MaxDecodeBytes); err != nil {
		return 0, notLazy("xref stream data: %v", err)
	}
	xsd, err := model.ParseXRefStreamDictRelaxedWithLimits(&sd, r.t.limits)
	if err != nil {
		return 0, notLazy("xref stream dictionary: %v", err)
	}
	if err := r.trailer(xsd.Dict); err != nil {
		return 0, err
	}
	w0, w1, w2 := xsd.W[0], xsd.W[1], xsd.W[2]
	size := w0 + w1 + w2
	if size == 0 || len(xsd.Content)%size != 0 || len(xsd.Content) < len(xsd.Objects)*size {
		return 0, notLazy("xref stream entries")
	}
	field := func(b []byte) int64 {
		var v int64
		for _, c := range b {
			v = v<<8 | int64(c)
		}
		return v
	}
	for j, objNr := range xsd.Objects {
		if r.t.entries[objNr] != nil {
			continue
		}
		row := xsd.Content[j*size : (j+1)*size]
		typ := int64(1)
		if w0 > 0 {
			typ = field(row[:w0])
		}
		c2, c3 := field(row[w0:w0+w1]), field(row[w0+w1:])
		var e *xrefEntry
		switch typ {
		case 0:
			e = &xrefEntry{kind: entryFree, gen: int(c3)}
		case 1:
			e = &xrefEntry{kind: entryOffset, gen: int(c3), offset: c2}
			if c2 == 0 {
				e.kind = entryNull // pdfcpu skips such an object
			}
		case 2:
			e = &xrefEntry{kind: entryCompressed, stream: int(c2), index: int(c3)}
		default:
			e = &xrefEntry{kind: entryNull}
		}
		if err := r.add(objNr, e); err != nil {
			return 0, err
		}
	}
	if entry := r.t.entries[n]; entry != nil && entry.kind == entryOffset && entry.offset == off {
		// pdfcpu keeps the xref stream itself as the object.
		entry.parsed.Store(&parsedObject{*xsd})
	}
	if xsd.PreviousOffset == nil {
		return -1, nil
	}
	if *xsd.PreviousOffset == 0 {
		return 0, notLazy("Prev 0")
	}
	return *xsd.PreviousOffset, nil
}

// checkOffsets makes sure every listed object starts where its entry says,
// with its own number: pdfcpu rebuilds the table from a scan of the file
// when one does not.
func (t *xrefTable) checkOffsets() error {
	for n, e := range t.entries {
		if e.kind != entryOffset {
			continue
		}
		if got, ok := objectHeader(t.data, e.offset); !ok || got != n {
			return notLazy("object %d not at offset %d", n, e.offset)
		}
	}
	return nil
}

// objectHeader reads "N G obj" at off.
func objectHeader(data []byte, off int64) (int, bool) {
	if off <= 0 || off >= int64(len(data)) {
		return 0, false
	}
	b := data[off:min(int64(len(data)), off+48)]
	i := 0
	num := func() (int, bool) {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		v, err := strconv.Atoi(string(b[j:i]))
		return v, err == nil && i > j
	}
	space := func() bool {
		j := i
		for i < len(b) && isWhite(b[i]) {
			i++
		}
		return i > j
	}
	n, ok := num()
	if !ok || !space() {
		return 0, false
	}
	if _, ok := num(); !ok {
		return 0, false
	}
	space()
	if !bytes.HasPrefix(b[i:], []byte("obj")) {
		return 0, false
	}
	return n, true
}

// readObjectStreams reads the dictionary and object offsets of every object
// stream an entry points into, as pdfcpu does at open (the content itself
// is decoded on first need).
func (t *xrefTable) readObjectStreams() error {
	for _, e := range t.entries {
		if e.kind != entryCompressed {
			continue
		}
		s := t.streams[e.stream]
		if s == nil {
			var err error
			if s, err = t.readObjectStream(e.stream); err != nil {
				return err
			}
			t.streams[e.stream] = s
		}
		if e.index < 0 || e.index >= len(s.offsets) {
			return notLazy("object stream index out of range")
		}
	}
	return nil
}

func (t *xrefTable) readObjectStream(n int) (*objectStream, error) {
	e := t.entries[n]
	if e == nil || e.kind != entryOffset {
		return nil, notLazy("object stream %d not in the file", n)
	}
	o, err := t.parseAt(e.offset, n, e.gen)
	sd, ok := o.(types.StreamDict)
	if err != nil || !ok {
		return nil, notLazy("object stream %d", n)
	}
	if err := t.attachData(&sd); err != nil {
		return nil, err
	}
	if sd = t.withData(nil, sd); len(sd.Raw) == 0 || !sd.IsObjStm() {
		return nil, notLazy("object stream %d", n)
	}
	osd, err := model.ObjectStreamDictWithLimits(&sd, t.limits)
	if err != nil {
		return nil, notLazy("object stream %d: %v", n, err)
	}
	prolog, err := osd.DecodeLengthWithLimit(int64(osd.FirstObjOffset), t.limits.MaxDecodeBytes)
	if err != nil || osd.FirstObjOffset > len(prolog) {
		return nil, notLazy("object stream %d prolog", n)
	}
	prolog = prolog[:osd.FirstObjOffset]
	if i := bytes.IndexByte(prolog, '%'); i >= 0 {
		prolog = prolog[:i]
	}
	fields := strings.Fields(strings.ReplaceAll(string(prolog), "\x00", " "))
	if len(fields)%2 != 0 || len(fields)/2 > t.limits.MaxObjectStreamCount {
		return nil, notLazy("object stream %d prolog", n)
	}
	s := &objectStream{osd: *osd}
	for i := 1; i < len(fields); i += 2 {
		off, err := strconv.Atoi(fields[i])
		if err != nil || off < 0 || (len(s.offsets) > 0 && off+osd.FirstObjOffset < s.offsets[len(s.offsets)-1]) {
			return nil, notLazy("object stream %d prolog", n)
		}
		s.offsets = append(s.offsets, off+osd.FirstObjOffset)
	}
	return s, nil
}

// checkLinearization checks the linearization dictionary, first in the
// file when there is one: pdfcpu refuses a file whose dictionary is
// malformed.
func (t *xrefTable) checkLinearization() error {
	first, firstOff := -1, int64(len(t.data))
	for n, e := range t.entries {
		if e.kind == entryOffset && e.offset < firstOff {
			first, firstOff = n, e.offset
		}
	}
	if first < 0 {
		return nil
	}
	d, ok := t.lookup(types.IndirectRef{ObjectNumber: types.Integer(first)}).(types.Dict)
	if !ok || !d.IsLinearizationParmDict() {
		return nil
	}
	h := d.ArrayEntry("H")
	if len(h) != 2 && len(h) != 4 {
		return notLazy("linearization dictionary")
	}
	for i := 0; i < len(h); i += 2 {
		if _, ok := h[i].(types.Integer); !ok {
			return notLazy("linearization dictionary")
		}
	}
	return nil
}

// lineReader reads lines the way pdfcpu's xref scanner does: ended by \n,
// \r or \r\n.
type lineReader struct {
	data  []byte
	pos   int64
	start int64 // where the last line read starts
}

func (l *lineReader) next() string {
	l.start = l.pos
	if l.pos >= int64(len(l.data)) {
		return ""
	}
	rest := l.data[l.pos:]
	i := bytes.IndexAny(rest, "\r\n")
	if i < 0 {
		l.pos = int64(len(l.data))
		return string(rest)
	}
	line := rest[:i]
	l.pos += int64(i) + 1
	if rest[i] == '\r' && i+1 < len(rest) && rest[i+1] == '\n' {
		l.pos++
	}
	return string(line)
}
