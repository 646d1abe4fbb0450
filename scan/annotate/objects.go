package annotate

import (
	"bytes"
	"compress/zlib"
	"io"
	"sort"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// objectSet adds objects to a parsed document and remembers which object
// numbers are new or changed: exactly what an incremental update carries.
//
// For an incremental update, new objects are serialised the moment they are
// complete and only their bytes are kept: a parsed annotation is a handful of
// Go maps costing ten times its PDF text, and with hundreds of marks those
// maps, not the document, would dominate the stage's memory. For a whole
// rewrite they go into pdfcpu's table, which its writer walks.
type objectSet struct {
	xt   *model.XRefTable
	next int

	incremental bool
	written     bytes.Buffer  // new objects, serialised (incremental only)
	offsets     map[int]int64 // object number -> offset within written

	// changed holds existing objects given a new value, by number; they are
	// serialised last because they change until the end.
	changed map[int]changedObject

	// deflater is reused for every compressed stream: a fresh zlib writer
	// allocates over a megabyte of state.
	deflater *zlib.Writer
}

type changedObject struct {
	gen int
	obj types.Object
}

// newObjectSet prepares for marks marks whose objects will take about
// sizeHint bytes, so the buffer of new objects is allocated once.
func newObjectSet(xt *model.XRefTable, incremental bool, marks, sizeHint int) *objectSet {
	next := 1
	if xt.Size != nil && *xt.Size > next {
		next = *xt.Size
	}
	for nr, e := range xt.Table {
		if nr >= next {
			next = nr + 1
		}
		// A reference to an object the file lost (cut off by a
		// truncation) must not come to mean a new object.
		if e != nil {
			if r := maxReference(e.Object, 0); r < maxObjectNumber {
				next = max(next, r+1)
			}
		}
	}
	if !incremental {
		// pdfcpu's writer numbers the objects it adds (object streams)
		// from /Size on.
		xt.Size = &next
	}
	s := &objectSet{
		xt: xt, next: next, incremental: incremental,
		offsets: make(map[int]int64, 3*marks+16), changed: map[int]changedObject{},
	}
	if incremental {
		s.written.Grow(sizeHint)
	}
	return s
}

// maxObjectNumber is ISO 32000-1's implementation limit on object numbers
// (Annex C): a reference beyond it is junk, and numbering past it would
// give the copy a cross-reference /Size readers may refuse or allocate for.
const maxObjectNumber = 8_388_607

// maxReference is the highest object number obj refers to directly (not
// through the objects it refers to). Parsed objects are trees, but a
// hostile file can nest deeply: beyond maxPageTreeDepth levels nothing
// more is looked at.
func maxReference(obj types.Object, depth int) int {
	if depth > maxPageTreeDepth {
		return 0
	}
	switch o := obj.(type) {
	case types.IndirectRef:
		return o.ObjectNumber.Value()
	case types.Dict:
		n := 0
		for _, v := range o {
			n = max(n, maxReference(v, depth+1))
		}
		return n
	case types.Array:
		n := 0
		for _, v := range o {
			n = max(n, maxReference(v, depth+1))
		}
		return n
	case types.StreamDict:
		return maxReference(o.Dict, depth+1)
	case types.ObjectStreamDict:
		return maxReference(o.Dict, depth+1)
	}
	return 0
}

// reserve hands out a fresh object number, for objects that must be
// referenced before they are complete. Free numbers of the original are
// never recycled: reusing one in an update needs a bumped generation and
// buys nothing.
func (s *objectSet) reserve() types.IndirectRef {
	nr := s.next
	s.next++
	return *types.NewIndirectRef(nr, 0)
}

// define gives a reserved number its object.
func (s *objectSet) define(ref types.IndirectRef, obj types.Object) {
	nr := ref.ObjectNumber.Value()
	if s.incremental {
		s.offsets[nr] = int64(s.written.Len())
		writeObject(&s.written, nr, 0, obj)
		return
	}
	s.xt.Table[nr] = model.NewXRefTableEntryGen0(obj)
	size := s.next
	s.xt.Size = &size
}

// add stores a complete new object.
func (s *objectSet) add(obj types.Object) types.IndirectRef {
	ref := s.reserve()
	s.define(ref, obj)
	return ref
}

// addEditable stores a new object that later steps still change (through
// the parsed table, like an existing one): it is serialised with the
// changed objects, at the end.
func (s *objectSet) addEditable(obj types.Object) types.IndirectRef {
	ref := s.reserve()
	s.xt.Table[ref.ObjectNumber.Value()] = model.NewXRefTableEntryGen0(obj)
	if !s.incremental {
		size := s.next
		s.xt.Size = &size
	}
	s.replace(ref, obj)
	return ref
}

// replace records obj as the new value of the existing object behind ref.
func (s *objectSet) replace(ref types.IndirectRef, obj types.Object) {
	nr := ref.ObjectNumber.Value()
	if e, ok := s.xt.Table[nr]; ok {
		e.Object = obj
	}
	s.changed[nr] = changedObject{gen: ref.GenerationNumber.Value(), obj: obj}
}

func (s *objectSet) sortedChanged() []int {
	nrs := make([]int, 0, len(s.changed))
	for nr := range s.changed {
		nrs = append(nrs, nr)
	}
	sort.Ints(nrs)
	return nrs
}

// newStream builds a stream object. Small streams (appearances) stay
// uncompressed: deflate costs more than it saves on a few hundred bytes.
func (s *objectSet) newStream(d types.Dict, content []byte, compress bool) (types.StreamDict, error) {
	raw := content
	var pipeline []types.PDFFilter
	if compress {
		var buf bytes.Buffer
		buf.Grow(len(content)/3 + 64)
		if s.deflater == nil {
			// BestSpeed: the streams are summary-page text, which it packs
			// nearly as tightly as the default level at a third of the CPU.
			s.deflater, _ = zlib.NewWriterLevel(&buf, zlib.BestSpeed)
		} else {
			s.deflater.Reset(&buf)
		}
		if _, err := s.deflater.Write(content); err != nil {
			return types.StreamDict{}, err
		}
		if err := s.deflater.Close(); err != nil {
			return types.StreamDict{}, err
		}
		raw = buf.Bytes()
		pipeline = []types.PDFFilter{{Name: "FlateDecode"}}
		d.Insert("Filter", types.Name("FlateDecode"))
	}
	length := int64(len(raw))
	d.Insert("Length", types.Integer(len(raw)))
	return types.StreamDict{
		Dict:           d,
		Raw:            raw,
		Content:        content,
		StreamLength:   &length,
		FilterPipeline: pipeline,
	}, nil
}

// releaseDeflater frees the compressor's state once the bulk of the
// compressed streams is written.
func (s *objectSet) releaseDeflater() { s.deflater = nil }

// pdfWriter is a bytes.Buffer or the update's countingWriter; objects are
// serialised straight into its free space (AvailableBuffer) to spare a copy.
type pdfWriter interface {
	io.Writer
	io.StringWriter
	AvailableBuffer() []byte
}

// writeObject serialises one indirect object.
func writeObject(w pdfWriter, nr, gen int, obj types.Object) {
	b := w.AvailableBuffer()
	b = strconv.AppendInt(b, int64(nr), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(gen), 10)
	b = append(b, " obj\n"...)
	if sd, ok := obj.(types.StreamDict); ok {
		sd.Dict.Update("Length", types.Integer(len(sd.Raw)))
		b = appendObject(b, sd.Dict)
		b = append(b, "\nstream\n"...)
		_, _ = w.Write(b)
		_, _ = w.Write(sd.Raw)
		_, _ = w.WriteString("\nendstream\nendobj\n")
		return
	}
	b = appendObject(b, obj)
	b = append(b, "\nendobj\n"...)
	_, _ = w.Write(b)
}

// appendObject appends obj's PDF syntax to b. pdfcpu's PDFString builds a
// string per value through fmt; with hundreds of annotations that garbage
// was most of what the stage allocated, so the common types are written
// here directly (dictionary keys sorted, as pdfcpu does, for stable output).
func appendObject(b []byte, obj types.Object) []byte {
	switch o := obj.(type) {
	case nil:
		return append(b, "null"...)
	case types.Dict:
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, "<<"...)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, '/')
			b = append(b, types.EncodeName(k)...)
			b = append(b, ' ')
			b = appendObject(b, o[k])
		}
		return append(b, ">>"...)
	case types.Array:
		b = append(b, '[')
		for i, e := range o {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendObject(b, e)
		}
		return append(b, ']')
	case types.Name:
		return append(b, o.PDFString()...)
	case types.Integer:
		return strconv.AppendInt(b, int64(o), 10)
	case types.Float:
		return append(b, num(float64(o))...)
	case types.Boolean:
		return strconv.AppendBool(b, bool(o))
	case types.StringLiteral:
		b = append(b, '(')
		b = append(b, o...)
		return append(b, ')')
	case types.HexLiteral:
		b = append(b, '<')
		b = append(b, o...)
		return append(b, '>')
	case types.IndirectRef:
		b = strconv.AppendInt(b, int64(o.ObjectNumber), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(o.GenerationNumber), 10)
		return append(b, " R"...)
	default:
		return append(b, obj.PDFString()...)
	}
}
