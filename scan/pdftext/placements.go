package pdftext

import (
	"math"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Box is an axis-aligned area of the displayed page in points (top-left
// origin, y down: the space of Segment and Word.Baseline).
type Box struct {
	X0, Y0, X1, Y1 float64
}

// maxImagesPerPage bounds the image placements kept per page: the first
// ones in drawing order (Page.ImagesDropped says more were drawn). A seal,
// a logo or a scanned sheet is one placement; thousands are tiles.
const maxImagesPerPage = 4096

// placeImage records the image painted now (an image XObject by Do, or an
// inline image): the unit square through the current transformation, as
// the hull of its corners on the displayed page, clipped to the page.
func (in *interp) placeImage() {
	if in.words.hidden > 0 {
		return
	}
	in.sawImage = true
	if len(in.marks.images) >= maxImagesPerPage {
		in.marks.imagesDropped = true
		return
	}
	m := in.gs.ctm.mul(in.path.device)
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
		x, y := m.apply(c[0], c[1])
		if !finite(x) || !finite(y) {
			return
		}
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	w, h := in.path.width, in.path.height
	x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
	if x1 <= x0 || y1 <= y0 {
		return // off the page, or no area
	}
	in.marks.images = append(in.marks.images, Box{X0: round4(x0), Y0: round4(y0), X1: round4(x1), Y1: round4(y1)})
}

// inkCells is the side of the page's ink grid, in cells: fine enough that a
// seal box on an E-size sheet spans a dozen cells or more.
const inkCells = 256

// maxInkPoints bounds the points one path keeps until it is painted: a
// path of more is a drawing, its first points mark enough of it.
const maxInkPoints = 4096

// Ink says where the page has drawn vector marks: a coarse grid over the
// displayed page whose cell is set when a painted path has a point there
// (the ends of its straight pieces and of its curves, a rectangle's
// corners), marked by the path builder as it paints. Hatching and drawn seals, signatures
// and text as outlines mark the cells they are drawn in; a long rule
// marks only its ends. Unlike Segments it keeps curves and the shortest
// strokes, and it is bounded whatever the page draws.
type Ink struct {
	width, height float64
	bits          []uint64 // inkCells × inkCells, row-major; nil: no ink
}

// Cells counts the marked cells lying wholly inside the box (displayed
// points): the amount of drawing inside it, its edges left out.
func (k *Ink) Cells(b Box) int {
	if k == nil || k.bits == nil || k.width <= 0 || k.height <= 0 {
		return 0
	}
	cw, ch := k.width/inkCells, k.height/inkCells
	c0, c1 := int(math.Ceil(b.X0/cw)), int(math.Floor(b.X1/cw))-1
	r0, r1 := int(math.Ceil(b.Y0/ch)), int(math.Floor(b.Y1/ch))-1
	c0, r0 = max(c0, 0), max(r0, 0)
	c1, r1 = min(c1, inkCells-1), min(r1, inkCells-1)
	n := 0
	for r := r0; r <= r1; r++ {
		for c := c0; c <= c1; c++ {
			i := r*inkCells + c
			if k.bits[i/64]&(1<<(i%64)) != 0 {
				n++
			}
		}
	}
	return n
}

// mark sets the cell of a point in displayed points.
func (k *Ink) mark(x, y float64) {
	if !finite(x) || !finite(y) || x < 0 || y < 0 || x >= k.width || y >= k.height {
		return
	}
	if k.bits == nil {
		k.bits = make([]uint64, inkCells*inkCells/64)
	}
	c, r := int(x/k.width*inkCells), int(y/k.height*inkCells)
	i := min(r, inkCells-1)*inkCells + min(c, inkCells-1)
	k.bits[i/64] |= 1 << (i % 64)
}

// pageMarks is what the interpreter records of the page's images and
// signed fields (Page.Images, Page.Signatures); the ink is the path
// builder's.
type pageMarks struct {
	images        []Box
	imagesDropped bool
	signatures    []Box
}

// maxSignaturesPerPage bounds the signature fields kept per page.
const maxSignaturesPerPage = 64

// signature records a signed signature field (a Widget whose field type,
// its own or inherited, is Sig, with a value): where a seal or signature
// was applied digitally, with or without an appearance. A field not yet
// signed is not recorded.
func (in *interp) signature(ad types.Dict) {
	o := in.doc.obj
	if o.name(ad["Subtype"]) != "Widget" || len(in.marks.signatures) >= maxSignaturesPerPage {
		return
	}
	field := ad
	for depth := 0; field != nil && depth < 8; depth++ {
		if ft := o.name(field["FT"]); ft != "" {
			if ft != "Sig" || o.resolve(field["V"]) == nil {
				return
			}
			break
		}
		field = o.dict(field["Parent"])
	}
	if field == nil || o.name(field["FT"]) != "Sig" {
		return
	}
	r := o.numbers(ad["Rect"])
	var b Box
	if len(r) == 4 {
		x0, y0 := in.path.device.apply(r[0], r[1])
		x1, y1 := in.path.device.apply(r[2], r[3])
		if finite(x0) && finite(y0) && finite(x1) && finite(y1) {
			b = Box{X0: round4(min(x0, x1)), Y0: round4(min(y0, y1)), X1: round4(max(x0, x1)), Y1: round4(max(y0, y1))}
		}
	}
	in.marks.signatures = append(in.marks.signatures, b)
}
