package pdftext

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/adler32"
	"io"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// objects wraps pdfcpu's cross-reference table with lenient accessors: a
// wrong type or a dangling reference reads as "absent", the way viewers treat
// them, instead of failing the page.
type objects struct {
	// xref is shared by the workers that extract pages at once: it is
	// safe for concurrent use.
	xref *xrefTable
	// maxDecoded bounds one decoded stream (a defence against flate bombs).
	maxDecoded int64
	// cmaps caches parsed CMap streams by object number: producers often
	// share one ToUnicode map among many fonts.
	cmaps map[int]*cmap
	// meter counts the current page's decoded bytes and lookups against
	// its budgets; nil counts nothing.
	meter *meter
	// file is the PDF itself, for streams whose /Length does not land on
	// endstream; nil when the file is encrypted (its raw bytes would need
	// decrypting) or not at hand.
	file *lengthRecovery
}

// cmapStream parses a CMap stream once per object.
func (o objects) cmapStream(obj types.Object) *cmap {
	id := objectID(obj)
	if c, ok := o.cmaps[id]; ok && id != 0 {
		return c
	}
	_, data, err := o.stream(obj)
	if err != nil && len(data) == 0 {
		return nil
	}
	c := parseCMap(data)
	if id != 0 && o.cmaps != nil {
		o.cmaps[id] = c
	}
	return c
}

func (o objects) resolve(obj types.Object) types.Object {
	for range 8 { // reference chains longer than this are hostile
		ref, ok := obj.(types.IndirectRef)
		if !ok {
			return obj
		}
		if o.meter != nil {
			o.meter.resolved()
		}
		r, err := o.xref.dereference(ref)
		if err != nil {
			return nil
		}
		obj = r
	}
	return nil
}

func (o objects) dict(obj types.Object) types.Dict {
	switch v := o.resolve(obj).(type) {
	case types.Dict:
		return v
	case types.StreamDict:
		return v.Dict
	}
	return nil
}

func (o objects) array(obj types.Object) types.Array {
	a, _ := o.resolve(obj).(types.Array)
	return a
}

func (o objects) name(obj types.Object) string {
	n, _ := o.resolve(obj).(types.Name)
	return string(n)
}

func (o objects) number(obj types.Object) (float64, bool) {
	switch v := o.resolve(obj).(type) {
	case types.Integer:
		return float64(v), true
	case types.Float:
		return float64(v), true
	}
	return 0, false
}

func (o objects) numberOr(obj types.Object, def float64) float64 {
	if v, ok := o.number(obj); ok {
		return v
	}
	return def
}

func (o objects) numbers(obj types.Object) []float64 {
	a := o.array(obj)
	out := make([]float64, 0, len(a))
	for _, e := range a {
		v, _ := o.number(e)
		out = append(out, v)
	}
	return out
}

// text is pdfcpu's DereferenceText.
func (o objects) text(obj types.Object) (string, error) {
	return o.xref.text(obj)
}

// objectID identifies an indirect object for caching; 0 for direct objects.
func objectID(obj types.Object) int {
	if ref, ok := obj.(types.IndirectRef); ok {
		return ref.ObjectNumber.Value()
	}
	return 0
}

// stream returns a stream object's dictionary and decoded content, in a
// fresh buffer the caller may keep (fonts and CMaps are cached).
func (o objects) stream(obj types.Object) (types.Dict, []byte, error) {
	return o.streamAppend(nil, obj)
}

// streamAppend appends a stream object's decoded content to dst. The
// decoded bytes never go back into pdfcpu's table, which keeps only the
// encoded form: memory stays bounded by what one page uses. A stream that
// fails half way appends what decoded before the failure, as viewers (and
// poppler) show truncated flate data.
//
// With a meter, the page's remaining decode budget bounds the stream too,
// and crossing it is an ErrTooComplex error (also kept in the meter, for
// callers that skip a stream that fails).
func (o objects) streamAppend(dst []byte, obj types.Object) (types.Dict, []byte, error) {
	sd, ok := o.resolve(obj).(types.StreamDict)
	if !ok {
		return nil, dst, fmt.Errorf("%w: not a stream", ErrInvalid)
	}
	sd = o.xref.withData(obj, sd)
	if o.file != nil {
		sd = o.file.recover(sd, o.maxDecoded)
	}
	limit, metered := o.maxDecoded, false
	if o.meter != nil && o.meter.decodeRoom() <= limit {
		limit, metered = o.meter.decodeRoom(), true
	}
	start := len(dst)
	d, out, err := o.decodeAppend(dst, sd, limit)
	if o.meter != nil {
		o.meter.addDecoded(len(out) - start)
	}
	if metered && (errors.Is(err, errDecodedOverLimit) || errors.Is(err, filter.ErrDecodeLimitExceeded)) {
		return d, out[:start], o.meter.overDecoded()
	}
	return d, out, err
}

func (o objects) decodeAppend(dst []byte, sd types.StreamDict, limit int64) (types.Dict, []byte, error) {
	if sd.Content != nil {
		if int64(len(sd.Content)) > limit {
			return sd.Dict, dst, fmt.Errorf("%w: %w", ErrInvalid, errDecodedOverLimit)
		}
		return sd.Dict, append(dst, sd.Content...), nil
	}
	switch {
	case len(sd.FilterPipeline) == 0:
		if int64(len(sd.Raw)) > limit {
			return sd.Dict, dst, fmt.Errorf("%w: %w", ErrInvalid, errDecodedOverLimit)
		}
		return sd.Dict, append(dst, sd.Raw...), nil
	case len(sd.FilterPipeline) == 1 && sd.FilterPipeline[0].Name == "FlateDecode" && plainFlate(sd.FilterPipeline[0].DecodeParms):
		data, err := inflate(dst, sd.Raw, limit)
		return sd.Dict, data, err
	case streamingPipeline(sd.FilterPipeline):
		// Flate over flate, hex or ASCII85 over flate: each stage streams
		// into the next (filters.go), so only the last one's output,
		// bounded by limit, is ever held.
		data, err := decodeStreaming(dst, sd.Raw, sd.FilterPipeline, limit)
		return sd.Dict, data, err
	}
	local := sd
	local.Content = nil
	data, err := local.DecodeLengthWithLimit(-1, limit)
	if err != nil {
		return sd.Dict, append(dst, local.Content...), err
	}
	return sd.Dict, append(dst, data...), nil
}

// errDecodedOverLimit: a stream decoded to more than it may.
var errDecodedOverLimit = errors.New("decoded stream over its limit")

// plainFlate reports whether flate parameters leave the data as is (no PNG
// or TIFF predictor), so the fast path can decode it.
func plainFlate(parms types.Dict) bool {
	if parms == nil {
		return true
	}
	p, ok := parms["Predictor"].(types.Integer)
	return !ok || p <= 1
}

var flateReaders sync.Pool

// inflate appends the zlib-decoded src to dst, bounded by limit. The
// deflate data is read without zlib's reader: its Adler-32 checksum costs
// a pass over every byte, and the data is kept whether it matches or not
// (as viewers keep it), so the trailer is only looked at when the stream
// gives no data, where a bad or missing one is the error zlib would give.
// Readers are pooled: their 32 KiB windows would otherwise be allocated per
// stream.
func inflate(dst, src []byte, limit int64) ([]byte, error) {
	body, ok := zlibBody(src)
	if !ok {
		// Some producers write raw deflate without the zlib header.
		body = src
	}
	br := bytes.NewReader(body)
	var fr io.ReadCloser
	if r, ok := flateReaders.Get().(io.ReadCloser); ok {
		if r.(flate.Resetter).Reset(br, nil) == nil {
			fr = r
		}
	}
	if fr == nil {
		fr = flate.NewReader(br)
	}
	defer flateReaders.Put(fr)
	start := len(dst)
	out, err := readAllBounded(dst, fr, limit, len(src))
	if ok && err == nil && len(out) == start {
		trailer := body[len(body)-br.Len():]
		switch {
		case len(trailer) < 4:
			err = fmt.Errorf("%w: flate: %v", ErrInvalid, io.ErrUnexpectedEOF)
		case binary.BigEndian.Uint32(trailer) != adler32.Checksum(nil):
			err = fmt.Errorf("%w: flate: %v", ErrInvalid, zlib.ErrChecksum)
		}
	}
	return out, err
}

// zlibBody is the deflate data after a zlib header (RFC 1950), where
// zlib.NewReader with no dictionary would start reading it; ok is false
// where that fails (our caller then reads raw deflate, as before).
func zlibBody(src []byte) (body []byte, ok bool) {
	if len(src) < 2 {
		return nil, false
	}
	const deflate, maxWindow, presetDict = 8, 7, 0x20
	h := uint(src[0])<<8 | uint(src[1])
	if src[0]&0x0f != deflate || src[0]>>4 > maxWindow || h%31 != 0 {
		return nil, false
	}
	if src[1]&presetDict == 0 {
		return src[2:], true
	}
	// A preset dictionary's id must be that of none (zlib is given nil).
	if len(src) < 6 || binary.BigEndian.Uint32(src[2:6]) != adler32.Checksum(nil) {
		return nil, false
	}
	return src[6:], true
}

func readAllBounded(dst []byte, r io.Reader, limit int64, srcLen int) ([]byte, error) {
	start := len(dst)
	if cap(dst)-len(dst) < srcLen {
		want := int64(len(dst)) + min(int64(srcLen)*4+512, limit+1)
		// At least double: a page's content streams (dozens on some
		// sheets) are appended one by one to the same buffer, and growing
		// by each one's size alone copied the buffer once per stream.
		want = max(want, min(2*int64(cap(dst)), int64(start)+limit+1))
		grown := make([]byte, len(dst), want)
		copy(grown, dst)
		dst = grown
	}
	for {
		if len(dst) == cap(dst) {
			// Grow by doubling, but never past the limit (plus the one
			// byte that tells "exactly at the limit" from "over it"), so a
			// bomb costs at most its limit in memory.
			want := min(int64(cap(dst))*2+512, int64(start)+limit+1)
			grown := make([]byte, len(dst), max(want, int64(len(dst))+1))
			copy(grown, dst)
			dst = grown
		}
		end := min(cap(dst), start+int(limit)+1)
		n, err := r.Read(dst[len(dst):end])
		dst = dst[:len(dst)+n]
		if int64(len(dst)-start) > limit {
			return dst[:start+int(limit)], fmt.Errorf("%w: %w (%d bytes)", ErrInvalid, errDecodedOverLimit, limit)
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			if len(dst) > start && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, zlib.ErrChecksum)) {
				return dst, nil // truncated or bad checksum: keep the data, like viewers
			}
			return dst, fmt.Errorf("%w: flate: %v", ErrInvalid, err)
		}
	}
}
