package chat

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// The stored form (BestSpeed DEFLATE: on the 100-page bench set 8 ms
// instead of BestCompression's 88 ms for 1.16 times the bytes, far under
// the 25%-of-the-PDF budget): a 5-byte header ("PRCI" and a format version), then a
// DEFLATE stream of uvarints and length-prefixed strings. A passage stores
// only its line range (its text is the page's lines); postings store
// delta-coded unit numbers and term frequencies.
const (
	magic         = "PRCI"
	formatVersion = 1
	// maxDecoded bounds what a stored index may expand to (a corrupted or
	// hostile value never allocates without limit).
	maxDecoded = 128 << 20
)

// ErrCorrupt is returned for a stored index that cannot be read.
var ErrCorrupt = errors.New("chat index is corrupt")

// Encode returns the index's stored form.
func (ix *Index) Encode() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(magic)
	buf.WriteByte(formatVersion)
	// The uncompressed form is appended to one slice and compressed in one
	// call: writing it value by value through a buffered writer cost as
	// much as the compression.
	w := &writer{}
	files := map[string]int{}
	var fileIDs []string
	for _, p := range ix.Pages {
		if _, ok := files[p.FileID]; !ok {
			files[p.FileID] = len(fileIDs)
			fileIDs = append(fileIDs, p.FileID)
		}
	}
	w.strs(fileIDs)
	w.uint(len(ix.Pages))
	for _, p := range ix.Pages {
		w.uint(files[p.FileID])
		w.uint(p.Page)
		w.str(p.SheetNumber)
		w.str(p.SheetType)
		w.str(p.SheetTitle)
		w.strs(p.Lines)
	}
	w.uint(len(ix.Units))
	for _, u := range ix.Units {
		w.uint(int(u.Kind))
		w.uint(u.Page)
		if u.Kind == KindPassage {
			w.uint(u.First)
			w.uint(u.Last - u.First)
			continue
		}
		w.str(u.Label)
		w.str(u.Value)
		w.str(u.Excerpt)
	}
	w.uint(len(ix.Findings))
	for _, f := range ix.Findings {
		for _, s := range []string{f.ID, f.Severity, f.Title, f.Rationale, f.GoverningRefs, f.Topic, f.Source} {
			w.str(s)
		}
		w.uint(f.Page + 1)
		w.strs(f.Anchors)
	}
	w.strs(ix.HeldTopics)
	terms := make([]string, 0, len(ix.postings))
	for t := range ix.postings {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	w.uint(len(terms))
	for _, t := range terms {
		ps := ix.postings[t]
		w.str(t)
		w.uint(len(ps))
		prev := 0
		for _, p := range ps {
			w.uint(int(p.unit) - prev)
			w.uint(int(p.tf))
			prev = int(p.unit)
		}
	}
	zw, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(w.b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Decode reads an index from its stored form.
func Decode(data []byte) (*Index, error) {
	if len(data) < len(magic)+1 || string(data[:len(magic)]) != magic {
		return nil, ErrCorrupt
	}
	if data[len(magic)] != formatVersion {
		return nil, fmt.Errorf("%w: format %d", ErrCorrupt, data[len(magic)])
	}
	zr := flate.NewReader(bytes.NewReader(data[len(magic)+1:]))
	defer zr.Close()
	r := &reader{r: bufio.NewReader(io.LimitReader(zr, maxDecoded))}
	ix := &Index{}
	fileIDs := r.strs()
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
		p.Lines = r.strs()
	}
	for n := r.count(); len(ix.Units) < n && r.err == nil; {
		ix.Units = append(ix.Units, Unit{})
		u := &ix.Units[len(ix.Units)-1]
		u.Kind = Kind(r.uint())
		u.Page = r.uint()
		if u.Page >= len(ix.Pages) {
			r.fail()
			break
		}
		if u.Kind == KindPassage {
			u.First = r.uint()
			u.Last = u.First + r.uint()
			lines := ix.Pages[u.Page].Lines
			if u.Last >= len(lines) {
				r.fail()
				break
			}
			u.Excerpt = strings.Join(lines[u.First:u.Last+1], " ")
			continue
		}
		u.Label, u.Value, u.Excerpt = r.str(), r.str(), r.str()
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
	nTerms := r.count()
	for range nTerms {
		if r.err != nil {
			break
		}
		t := r.str()
		var ps []posting
		unit := 0
		for n := r.count(); len(ps) < n && r.err == nil; {
			unit += r.uint()
			tf := r.uint()
			if unit >= len(ix.Units) || tf > math.MaxUint16 {
				r.fail()
				break
			}
			ps = append(ps, posting{unit: int32(unit), tf: uint16(tf)})
			ix.unitLen[unit] += tf
		}
		ix.postings[t] = ps
		if r.err != nil {
			break
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, r.err)
	}
	ix.setAvgLen()
	ix.pageTexts()
	return ix, nil
}

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

type reader struct {
	r   *bufio.Reader
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = errors.New("value out of range")
	}
}

func (r *reader) uint() int {
	if r.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(r.r)
	if err != nil {
		r.err = err
		return 0
	}
	if v > maxDecoded {
		r.fail()
		return 0
	}
	return int(v)
}

// count reads a length that must be backed by at least one byte each.
func (r *reader) count() int {
	n := r.uint()
	if n > maxDecoded/8 {
		r.fail()
		return 0
	}
	return n
}

func (r *reader) str() string {
	n := r.uint()
	if r.err != nil || n == 0 {
		return ""
	}
	var sb strings.Builder
	if _, err := io.CopyN(&sb, r.r, int64(n)); err != nil {
		r.err = err
		return ""
	}
	return sb.String()
}

func (r *reader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, 0, min(n, 64))
	for range n {
		out = append(out, r.str())
		if r.err != nil {
			return nil
		}
	}
	return out
}
