package annotate

import (
	"bytes"
	"compress/zlib"
	"sort"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// objectSet adds objects to a parsed document and remembers which object
// numbers are new or changed: exactly what an incremental update must carry.
type objectSet struct {
	xt   *model.XRefTable
	next int
	// dirty holds the objects to write, by number. They are kept here rather
	// than re-read from the table, where an entry may still hold a lazily
	// decoded object-stream member.
	dirty map[int]dirtyObject
	// deflater is reused for every compressed stream: a fresh zlib writer
	// allocates over a megabyte of state, which on a long summary was most
	// of the render's garbage.
	deflater *zlib.Writer
}

type dirtyObject struct {
	gen int
	obj types.Object
}

func newObjectSet(xt *model.XRefTable) *objectSet {
	next := 1
	if xt.Size != nil && *xt.Size > next {
		next = *xt.Size
	}
	for nr := range xt.Table {
		if nr >= next {
			next = nr + 1
		}
	}
	return &objectSet{xt: xt, next: next, dirty: map[int]dirtyObject{}}
}

// add stores obj under a fresh object number. Free numbers of the original
// are never recycled: reusing one in an update needs a bumped generation and
// buys nothing.
func (s *objectSet) add(obj types.Object) types.IndirectRef {
	nr := s.next
	s.next++
	s.xt.Table[nr] = model.NewXRefTableEntryGen0(obj)
	size := s.next
	s.xt.Size = &size
	s.dirty[nr] = dirtyObject{obj: obj}
	return *types.NewIndirectRef(nr, 0)
}

// replace records obj as the new value of the object behind ref.
func (s *objectSet) replace(ref types.IndirectRef, obj types.Object) {
	nr := ref.ObjectNumber.Value()
	if e, ok := s.xt.Table[nr]; ok {
		e.Object = obj
	}
	s.dirty[nr] = dirtyObject{gen: ref.GenerationNumber.Value(), obj: obj}
}

func (s *objectSet) sortedDirty() []int {
	nrs := make([]int, 0, len(s.dirty))
	for nr := range s.dirty {
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
			s.deflater = zlib.NewWriter(&buf)
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
