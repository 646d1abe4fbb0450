package pdftext

import (
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// objects wraps pdfcpu's cross-reference table with lenient accessors: a
// wrong type or a dangling reference reads as "absent", the way viewers treat
// them, instead of failing the page.
type objects struct {
	xref *model.XRefTable
	// maxDecoded bounds one decoded stream (a defence against flate bombs).
	maxDecoded int64
}

func (o objects) resolve(obj types.Object) types.Object {
	for range 8 { // reference chains longer than this are hostile
		ref, ok := obj.(types.IndirectRef)
		if !ok {
			return obj
		}
		r, err := o.xref.Dereference(ref)
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

// objectID identifies an indirect object for caching; 0 for direct objects.
func objectID(obj types.Object) int {
	if ref, ok := obj.(types.IndirectRef); ok {
		return ref.ObjectNumber.Value()
	}
	return 0
}

// stream returns a stream object's dictionary and decoded content. The
// decoded bytes live on a copy of the stream dict, so pdfcpu's table keeps
// only the encoded form and memory stays bounded by what the page uses.
func (o objects) stream(obj types.Object) (types.Dict, []byte, error) {
	sd, ok := o.resolve(obj).(types.StreamDict)
	if !ok {
		return nil, nil, fmt.Errorf("%w: not a stream", ErrInvalid)
	}
	if sd.Content != nil {
		return sd.Dict, sd.Content, nil
	}
	local := sd
	local.Content = nil
	data, err := local.DecodeLengthWithLimit(-1, o.maxDecoded)
	if err != nil {
		// Keep what a broken filter produced before failing: viewers show
		// truncated flate data, and so does poppler.
		return sd.Dict, local.Content, err
	}
	return sd.Dict, data, nil
}
