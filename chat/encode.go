package chat

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
)

// The stored form (BestSpeed DEFLATE: on the 100-page bench set 8 ms
// instead of BestCompression's 88 ms for 1.16 times the bytes, far under
// the 25%-of-the-PDF budget): a 5-byte header ("PRCI" and a format
// version), then a DEFLATE stream of uvarints and length-prefixed strings.
// A passage stores only its line range (its text is the page's lines);
// postings store delta-coded unit numbers and term frequencies.
//
// Format 2 (written since format 1's postings and units were most of what
// was compressed) stores the same index in fewer bytes:
//   - a page line seen before on any page is stored as its number (title
//     blocks, notes and tags repeat from sheet to sheet): a line is one
//     uvarint, its length times 2 with its bytes following, or its number
//     times 2 plus 1;
//   - a unit's head is one uvarint: its page as a (zigzag) step from the
//     previous unit's, its kind, and for a passage whether it starts where
//     the page's previous passage ended (else the step follows) and how
//     many lines it spans after its first (3: more, the count follows),
//     for other units whether the excerpt repeats the value (a table row);
//     a passage is thus mostly one byte;
//   - a posting is one uvarint, the unit's step from the previous one and
//     a code: term frequency 1, frequency following, or a run of
//     consecutive units each holding the term once (a sheet title's terms
//     are in every unit of its page), its length following.
//
// Format 3 is format 2 followed by the set's typed facts (kind, label,
// value, qualifier, page, excerpt each), after the postings.
//
// Formats 1 and 2 are still read: indexes stored before answer as they did
// (with no typed facts: questions about project data are then answered by
// retrieval).
const (
	magic         = "PRCI"
	formatVersion = 3
	// maxDecoded bounds what a stored index may expand to (a corrupted or
	// hostile value never allocates without limit).
	maxDecoded = 128 << 20
	// maxPostings bounds the postings a stored index may expand to: format
	// 1 spends at least two bytes on each, format 2's runs fewer.
	maxPostings = maxDecoded / 2
)

// Posting codes of format 2 (the low two bits of an entry).
const (
	postingOne  = 0 // one unit, the term once
	postingTF   = 1 // one unit, the term frequency follows
	postingRun  = 2 // units unit, unit+1, …, each the term once; run length - 2 follows
	postingBits = 2
)

// Unit heads of format 2: kind - 1 in the low two bits, then these, then
// the page step.
const (
	unitFollows     = 4 // a passage: it starts where the page's previous one ended
	unitSameExcerpt = 4 // another unit: its excerpt is its value
	unitHeadBits    = 5 // bits 3-4: a passage's span after its first line, 3: more
)

// ErrCorrupt is returned for a stored index that cannot be read.
var ErrCorrupt = errors.New("chat index is corrupt")

// Encode returns the index's stored form.
func (ix *Index) Encode() ([]byte, error) {
	e, err := ix.StartEncode()
	if err != nil {
		return nil, err
	}
	return e.Finish()
}

// Encoding is an index's stored form part written: StartEncode writes
// what depends on the pages alone (pages, units, postings, the pages'
// facts), so that a scan does it while its checks run and only the
// findings, held topics and the facts added since are left for Finish.
type Encoding struct {
	ix *Index
	// pages, units and facts are the index's counts when it started: the
	// pages and units are written, and the first facts encoded.
	pages, units, facts int
	buf                 *bytes.Buffer
	zw                  *flate.Writer
	// tail is the uncompressed postings followed, from factsAt, by the
	// first facts: they come after the findings in the stored form.
	tail    []byte
	factsAt int
}

// flateWriters are BestSpeed compressors kept between encodings: each
// one holds about a megabyte of tables and window, which a new writer
// would allocate and clear for every index. A reset writer writes the
// same stream as a new one.
var flateWriters sync.Pool

// StartEncode writes the part of the stored form that depends on the
// index's pages and units alone, compressing as much of it as already
// fills the compressor's blocks. After it, the pages and units (and the
// facts already there) must not change; findings, held topics and facts
// may be added until Finish.
func (ix *Index) StartEncode() (*Encoding, error) {
	e, err := ix.startPages()
	if err != nil {
		return nil, err
	}
	e.writePostings()
	return e, nil
}

// startPages writes the pages and units; it only reads the index, so
// the postings may be built meanwhile.
func (ix *Index) startPages() (*Encoding, error) {
	// The uncompressed form is appended to one slice and compressed in
	// large writes: writing it value by value through a buffered writer
	// cost as much as the compression.
	w := &writer{}
	files := map[string]int{}
	var fileIDs []string
	lines := 0
	for _, p := range ix.Pages {
		if _, ok := files[p.FileID]; !ok {
			files[p.FileID] = len(fileIDs)
			fileIDs = append(fileIDs, p.FileID)
		}
		lines += len(p.Lines)
	}
	w.strs(fileIDs)
	w.uint(len(ix.Pages))
	lineIDs := make(map[string]int, lines)
	for _, p := range ix.Pages {
		w.uint(files[p.FileID])
		w.uint(p.Page)
		w.str(p.SheetNumber)
		w.str(p.SheetType)
		w.str(p.SheetTitle)
		w.uint(len(p.Lines))
		for _, l := range p.Lines {
			if id, ok := lineIDs[l]; ok {
				w.uint(id<<1 | 1)
				continue
			}
			lineIDs[l] = len(lineIDs)
			w.uint(len(l) << 1)
			w.b = append(w.b, l...)
		}
	}
	w.encodeUnits(ix.Units)
	e := &Encoding{ix: ix, pages: len(ix.Pages), units: len(ix.Units), buf: &bytes.Buffer{}}
	// About what BestSpeed makes of the pages, units and postings (the
	// postings are about as long as the rest).
	e.buf.Grow(len(w.b)*2/3 + 64)
	e.buf.WriteString(magic)
	e.buf.WriteByte(formatVersion)
	if zw, ok := flateWriters.Get().(*flate.Writer); ok {
		zw.Reset(e.buf)
		e.zw = zw
	} else {
		zw, err := flate.NewWriter(e.buf, flate.BestSpeed)
		if err != nil {
			return nil, err
		}
		e.zw = zw
	}
	if _, err := e.zw.Write(w.b); err != nil {
		return nil, err
	}
	// The compressor has copied the pages and units: their slice is
	// reused for the postings and facts.
	e.tail = w.b[:0]
	return e, nil
}

// writePostings encodes the postings and the facts there are so far
// after the pages and units.
func (e *Encoding) writePostings() {
	e.tail, e.factsAt, e.facts = e.ix.encodePostings(e.tail)
}

// encodePostings appends the postings and the facts there are so far to
// b, returning where the facts start and how many there are.
func (ix *Index) encodePostings(b []byte) (tail []byte, factsAt, facts int) {
	w := &writer{b: b}
	w.encodePostings(ix.postings)
	factsAt, facts = len(w.b), len(ix.Facts)
	w.encodeFacts(ix.Facts)
	return w.b, factsAt, facts
}

// Finish writes the findings, held topics and facts the index holds now
// after what StartEncode wrote, and returns the stored form.
func (e *Encoding) Finish() ([]byte, error) {
	ix := e.ix
	if e.zw == nil {
		return nil, errors.New("chat index: encoding finished twice")
	}
	if len(ix.Pages) != e.pages || len(ix.Units) != e.units || len(ix.Facts) < e.facts {
		return nil, errors.New("chat index: pages, units or facts changed while it was encoded")
	}
	w := &writer{}
	w.uint(len(ix.Findings))
	for _, f := range ix.Findings {
		for _, s := range []string{f.ID, f.Severity, f.Title, f.Rationale, f.GoverningRefs, f.Topic, f.Source} {
			w.str(s)
		}
		w.uint(f.Page + 1)
		w.strs(f.Anchors)
	}
	w.strs(ix.HeldTopics)
	facts := &writer{}
	facts.uint(len(ix.Facts))
	more := &writer{}
	more.encodeFacts(ix.Facts[e.facts:])
	// In the stored form's order: the compressed stream does not depend
	// on how its input is cut into writes.
	for _, b := range [][]byte{w.b, e.tail[:e.factsAt], facts.b, e.tail[e.factsAt:], more.b} {
		if _, err := e.zw.Write(b); err != nil {
			return nil, err
		}
	}
	if err := e.zw.Close(); err != nil {
		return nil, err
	}
	// Kept without the stored form it wrote to.
	e.zw.Reset(io.Discard)
	flateWriters.Put(e.zw)
	e.zw = nil
	return e.buf.Bytes(), nil
}

// encodeUnits appends format 2's units.
func (w *writer) encodeUnits(units []Unit) {
	w.uint(len(units))
	page, next := 0, 0 // the previous unit's page; the line after its last passage
	for _, u := range units {
		if u.Page != page {
			next = 0
		}
		head := zigzag(u.Page-page)<<unitHeadBits | uint64(u.Kind-1)&3
		page = u.Page
		if u.Kind == KindPassage {
			span := u.Last - u.First
			if u.First == next {
				head |= unitFollows
			}
			head |= uint64(min(span, 3)) << 3
			w.b = binary.AppendUvarint(w.b, head)
			if u.First != next {
				w.b = binary.AppendUvarint(w.b, zigzag(u.First-next))
			}
			if span >= 3 {
				w.uint(span - 3)
			}
			next = u.Last + 1
			continue
		}
		sameExcerpt := u.Excerpt == u.Value
		if sameExcerpt {
			head |= unitSameExcerpt
		}
		w.b = binary.AppendUvarint(w.b, head)
		w.str(u.Label)
		w.str(u.Value)
		if !sameExcerpt {
			w.str(u.Excerpt)
		}
	}
}

// encodePostings appends format 2's postings, terms in order.
func (w *writer) encodePostings(postings map[string][]posting) {
	terms := make([]string, 0, len(postings))
	for t := range postings {
		terms = append(terms, t)
	}
	slices.Sort(terms)
	w.uint(len(terms))
	for _, t := range terms {
		ps := postings[t]
		w.str(t)
		w.uint(len(ps))
		prev := 0
		for i := 0; i < len(ps); {
			p := ps[i]
			step := uint64(int(p.unit) - prev)
			run := 1
			for p.tf == 1 && i+run < len(ps) && ps[i+run].tf == 1 && ps[i+run].unit == p.unit+int32(run) {
				run++
			}
			switch {
			case run > 1:
				w.b = binary.AppendUvarint(w.b, step<<postingBits|postingRun)
				w.uint(run - 2)
			case p.tf == 1:
				w.b = binary.AppendUvarint(w.b, step<<postingBits|postingOne)
			default:
				w.b = binary.AppendUvarint(w.b, step<<postingBits|postingTF)
				w.uint(int(p.tf))
			}
			i += run
			prev = int(ps[i-1].unit)
		}
	}
}

// encodeFacts appends facts (their count is written apart: the facts of
// the pages are encoded before the review's are known).
func (w *writer) encodeFacts(facts []Fact) {
	for _, f := range facts {
		w.str(f.Kind)
		w.str(f.Label)
		w.str(f.Value)
		w.str(f.Qualifier)
		w.uint(f.Page)
		w.str(f.Excerpt)
	}
}

func zigzag(v int) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int { return int(u>>1) ^ -int(u&1) }

// Decode reads an index from its stored form, format 1 or 2.
func Decode(data []byte) (*Index, error) {
	if len(data) < len(magic)+1 || string(data[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	version := data[len(magic)]
	if version < 1 || version > formatVersion {
		return nil, fmt.Errorf("%w: format %d", ErrCorrupt, version)
	}
	zr := flate.NewReader(bytes.NewReader(data[len(magic)+1:]))
	defer zr.Close()
	raw, err := io.ReadAll(io.LimitReader(zr, maxDecoded+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if len(raw) > maxDecoded {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrCorrupt, maxDecoded)
	}
	// Strings are cut from one copy of the data rather than copied one by
	// one.
	r := &reader{s: string(raw)}
	ix := &Index{}
	fileIDs := r.strs()
	var lines []string // format 2: distinct page lines as first stored
	// Slices grow as values are read, never from a stored count alone: a
	// damaged count cannot allocate more than the data behind it.
	for n := r.count(); len(ix.Pages) < n && r.err == nil; {
		ix.Pages = append(ix.Pages, Page{})
		p := &ix.Pages[len(ix.Pages)-1]
		if fi := r.uint(); fi < len(fileIDs) {
			p.FileID = fileIDs[fi]
		} else {
			r.fail()
		}
		p.Page = r.uint()
		p.SheetNumber, p.SheetType, p.SheetTitle = r.str(), r.str(), r.str()
		if version == 1 {
			p.Lines = r.strs()
			continue
		}
		n := r.count()
		p.Lines = make([]string, 0, n)
		for range n {
			x := r.uint()
			if x&1 == 0 {
				p.Lines = append(p.Lines, r.bytes(x>>1))
				lines = append(lines, p.Lines[len(p.Lines)-1])
			} else if id := x >> 1; id < len(lines) {
				p.Lines = append(p.Lines, lines[id])
			} else {
				r.fail()
			}
			if r.err != nil {
				break
			}
		}
	}
	if version == 1 {
		ix.decodeUnitsV1(r)
	} else {
		ix.decodeUnits(r)
	}
	for n := r.count(); len(ix.Findings) < n && r.err == nil; {
		ix.Findings = append(ix.Findings, Finding{})
		f := &ix.Findings[len(ix.Findings)-1]
		f.ID, f.Severity, f.Title, f.Rationale, f.GoverningRefs, f.Topic, f.Source = r.str(), r.str(), r.str(), r.str(), r.str(), r.str(), r.str()
		f.Page = r.uint() - 1
		f.Anchors = r.strs()
	}
	ix.HeldTopics = r.strs()
	ix.postings = map[string][]posting{}
	ix.unitLen = make([]int, len(ix.Units))
	total := 0 // postings so far, against maxPostings
	nTerms := r.count()
	for range nTerms {
		if r.err != nil {
			break
		}
		t := r.str()
		// Not a count backed by a byte each (a run is a few bytes); a term
		// is at most once in a unit.
		n := r.uint()
		if n > len(ix.Units) || total+n > maxPostings {
			r.fail()
			break
		}
		total += n
		ps := make([]posting, 0, min(n, len(r.s)-r.i+1))
		unit := -1
		add := func(step, tf int) {
			if unit += step; (unit < 0 || step == 0 && len(ps) > 0) || unit >= len(ix.Units) || tf < 1 || tf > math.MaxUint16 || len(ps) >= n {
				r.fail()
				return
			}
			ps = append(ps, posting{unit: int32(unit), tf: uint16(tf)})
			ix.unitLen[unit] += tf
		}
		for len(ps) < n && r.err == nil {
			if version == 1 {
				step := r.uint()
				if len(ps) == 0 {
					step++ // from unit -1
				}
				add(step, r.uint())
				continue
			}
			e := r.uint64()
			step := int(min(e>>postingBits, maxDecoded))
			if len(ps) == 0 {
				step++
			}
			switch e & (1<<postingBits - 1) {
			case postingOne:
				add(step, 1)
			case postingTF:
				add(step, r.uint())
			case postingRun:
				run := r.uint() + 2
				add(step, 1)
				for k := 1; k < run && r.err == nil; k++ {
					add(1, 1)
				}
			default:
				r.fail()
			}
		}
		ix.postings[t] = ps
	}
	if version >= 3 {
		for n := r.count(); len(ix.Facts) < n && r.err == nil; {
			f := Fact{Kind: r.str(), Label: r.str(), Value: r.str(), Qualifier: r.str(), Page: r.uint(), Excerpt: r.str()}
			if f.Page >= len(ix.Pages) {
				r.fail()
				break
			}
			ix.Facts = append(ix.Facts, f)
		}
	}
	if r.err == nil && r.i != len(r.s) {
		r.err = errors.New("data after the index")
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, r.err)
	}
	ix.setAvgLen()
	ix.pageTexts()
	return ix, nil
}

// decodeUnits reads format 2's units.
func (ix *Index) decodeUnits(r *reader) {
	page, next := 0, 0
	n := r.count()
	// Each unit takes at least one byte: the count is backed by the data.
	ix.Units = make([]Unit, 0, n)
	for len(ix.Units) < n && r.err == nil {
		head := r.uint64()
		p := page + unzigzag(head>>unitHeadBits)
		if p < 0 || p >= len(ix.Pages) {
			r.fail()
			return
		}
		if p != page {
			next = 0
		}
		page = p
		ix.Units = append(ix.Units, Unit{Kind: Kind(head&3) + 1, Page: p})
		u := &ix.Units[len(ix.Units)-1]
		if u.Kind == KindPassage {
			u.First = next
			if head&unitFollows == 0 {
				u.First += unzigzag(r.uint64())
			}
			span := int(head>>3) & 3
			if span == 3 {
				span += r.uint()
			}
			u.Last = u.First + span
			lines := ix.Pages[p].Lines
			if u.First < 0 || u.Last >= len(lines) || u.Last < u.First {
				r.fail()
				return
			}
			u.Excerpt = joinLines(lines[u.First : u.Last+1])
			next = u.Last + 1
			continue
		}
		u.Label, u.Value = r.str(), r.str()
		if head&unitSameExcerpt != 0 {
			u.Excerpt = u.Value
		} else {
			u.Excerpt = r.str()
		}
	}
}

// decodeUnitsV1 reads format 1's units.
func (ix *Index) decodeUnitsV1(r *reader) {
	for n := r.count(); len(ix.Units) < n && r.err == nil; {
		ix.Units = append(ix.Units, Unit{})
		u := &ix.Units[len(ix.Units)-1]
		u.Kind = Kind(r.uint())
		u.Page = r.uint()
		if u.Page >= len(ix.Pages) {
			r.fail()
			return
		}
		if u.Kind == KindPassage {
			u.First = r.uint()
			u.Last = u.First + r.uint()
			lines := ix.Pages[u.Page].Lines
			if u.Last >= len(lines) {
				r.fail()
				return
			}
			u.Excerpt = joinLines(lines[u.First : u.Last+1])
			continue
		}
		u.Label, u.Value, u.Excerpt = r.str(), r.str(), r.str()
	}
}

// joinLines is a passage's text: its lines joined by spaces.
func joinLines(lines []string) string { return strings.Join(lines, " ") }

// writer appends the uncompressed stored form.
type writer struct{ b []byte }

func (w *writer) uint(v int) { w.b = binary.AppendUvarint(w.b, uint64(max(v, 0))) }

func (w *writer) str(s string) {
	w.uint(len(s))
	w.b = append(w.b, s...)
}

func (w *writer) strs(ss []string) {
	w.uint(len(ss))
	for _, s := range ss {
		w.str(s)
	}
}

// reader reads the uncompressed stored form; the first error sticks and
// every later read returns zero values.
type reader struct {
	s   string
	i   int
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errors.New("value out of range")
	}
}

func (r *reader) uint64() uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	for shift := 0; ; shift += 7 {
		if r.i >= len(r.s) {
			r.err = io.ErrUnexpectedEOF
			return 0
		}
		b := r.s[r.i]
		r.i++
		if shift == 63 && b > 1 || shift > 63 {
			r.err = errors.New("varint overflows 64 bits")
			return 0
		}
		v |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return v
		}
	}
}

func (r *reader) uint() int {
	v := r.uint64()
	if v > maxDecoded {
		r.fail()
		return 0
	}
	return int(v)
}

// count reads a length that must be backed by at least one byte each.
func (r *reader) count() int {
	n := r.uint()
	if n > len(r.s)-r.i {
		r.fail()
		return 0
	}
	return n
}

func (r *reader) str() string { return r.bytes(r.uint()) }

// bytes reads a string of n bytes.
func (r *reader) bytes(n int) string {
	if r.err != nil || n == 0 {
		return ""
	}
	if n > len(r.s)-r.i {
		r.err = io.ErrUnexpectedEOF
		return ""
	}
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
}

func (r *reader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, r.str())
		if r.err != nil {
			return nil
		}
	}
	return out
}
