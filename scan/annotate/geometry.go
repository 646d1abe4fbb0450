package annotate

import (
	"math"

	"planreview/scan/pdftext"
)

// box is an axis-aligned rectangle, always normalised so that llx <= urx and
// lly <= ury.
type box struct{ llx, lly, urx, ury float64 }

func boxFromRect(r pdftext.Rect) box {
	return box{
		llx: math.Min(r[0], r[2]), lly: math.Min(r[1], r[3]),
		urx: math.Max(r[0], r[2]), ury: math.Max(r[1], r[3]),
	}
}

func (b box) width() float64  { return b.urx - b.llx }
func (b box) height() float64 { return b.ury - b.lly }
func (b box) empty() bool     { return b.width() <= 0 || b.height() <= 0 }

func (b box) union(o box) box {
	return box{
		llx: math.Min(b.llx, o.llx), lly: math.Min(b.lly, o.lly),
		urx: math.Max(b.urx, o.urx), ury: math.Max(b.ury, o.ury),
	}
}

func (b box) intersect(o box) box {
	return box{
		llx: math.Max(b.llx, o.llx), lly: math.Max(b.lly, o.lly),
		urx: math.Min(b.urx, o.urx), ury: math.Min(b.ury, o.ury),
	}
}

func (b box) contains(o box) bool {
	return b.llx <= o.llx && b.lly <= o.lly && b.urx >= o.urx && b.ury >= o.ury
}

// pageGeometry is what placement needs to know about a page: the visible
// area in user space and how a viewer turns it.
type pageGeometry struct {
	media  box
	crop   box // CropBox clipped to MediaBox: what a viewer shows
	rotate int // clockwise display rotation: 0, 90, 180 or 270
}

// normaliseRotate turns any /Rotate value into 0, 90, 180 or 270. Values
// that are not multiples of 90 are invalid PDF; viewers ignore them, so do we.
func normaliseRotate(r int) int {
	r %= 360
	if r < 0 {
		r += 360
	}
	if r%90 != 0 {
		return 0
	}
	return r
}

// displaySize is the page's width and height as a viewer shows it.
func (g pageGeometry) displaySize() (w, h float64) {
	if g.rotate == 90 || g.rotate == 270 {
		return g.crop.height(), g.crop.width()
	}
	return g.crop.width(), g.crop.height()
}

// toDisplay maps a user-space point into display space: origin at the
// bottom-left corner of the page as shown (after CropBox and /Rotate), y up,
// in points. The contract's top-left bbox is this with y flipped.
func (g pageGeometry) toDisplay(x, y float64) (float64, float64) {
	c := g.crop
	switch g.rotate {
	case 90:
		return y - c.lly, c.urx - x
	case 180:
		return c.urx - x, c.ury - y
	case 270:
		return c.ury - y, x - c.llx
	default:
		return x - c.llx, y - c.lly
	}
}

// fromDisplay is the inverse of toDisplay.
func (g pageGeometry) fromDisplay(dx, dy float64) (float64, float64) {
	c := g.crop
	switch g.rotate {
	case 90:
		return c.urx - dy, c.lly + dx
	case 180:
		return c.urx - dx, c.ury - dy
	case 270:
		return c.llx + dy, c.ury - dx
	default:
		return c.llx + dx, c.lly + dy
	}
}

func (g pageGeometry) boxToDisplay(b box) box {
	x1, y1 := g.toDisplay(b.llx, b.lly)
	x2, y2 := g.toDisplay(b.urx, b.ury)
	return boxFromRect(pdftext.Rect{x1, y1, x2, y2})
}

func (g pageGeometry) boxFromDisplay(b box) box {
	x1, y1 := g.fromDisplay(b.llx, b.lly)
	x2, y2 := g.fromDisplay(b.urx, b.ury)
	return boxFromRect(pdftext.Rect{x1, y1, x2, y2})
}

// formMatrix is the /Matrix of an appearance stream drawn upright in display
// orientation: it turns display-space vectors into user-space vectors, i.e. a
// counter-clockwise rotation by the page's clockwise /Rotate.
func (g pageGeometry) formMatrix() [6]float64 {
	switch g.rotate {
	case 90:
		return [6]float64{0, 1, -1, 0, 0, 0}
	case 180:
		return [6]float64{-1, 0, 0, -1, 0, 0}
	case 270:
		return [6]float64{0, -1, 1, 0, 0, 0}
	default:
		return [6]float64{1, 0, 0, 1, 0, 0}
	}
}

// shortSide is the visible page's shorter edge; marks scale with it so a tag
// on an A1 sheet is as legible, relative to the sheet, as one on Letter.
func (g pageGeometry) shortSide() float64 {
	return math.Min(g.crop.width(), g.crop.height())
}

func clamp(v, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, v))
}
