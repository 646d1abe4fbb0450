package pdftext

import "math"

// SmallPath is one painted subpath no larger than a large glyph: the
// strokes of text drawn as lines (SHX fonts) or glyph outlines filled, and
// as well the small marks of a drawing (ticks, hatching pieces, fixture
// details). The reader tells text from the rest by how the marks line up;
// the extractor only records them.
type SmallPath struct {
	// Box is the subpath's hull in displayed points (top-left origin).
	X0, Y0, X1, Y1 float32
	// Pieces is how many straight pieces and curves the subpath has.
	Pieces uint16
	// Shape holds the directions of its straight pieces (ShapeHorizontal
	// … ShapeFalling) and ShapeCurved, ShapeFilled.
	Shape uint8
}

// SmallPath shape bits.
const (
	ShapeHorizontal uint8 = 1 << iota
	ShapeVertical
	ShapeRising  // a diagonal going up to the right (on the displayed page)
	ShapeFalling // a diagonal going down to the right
	ShapeCurved
	ShapeFilled
)

// ShapeDirections masks the straight pieces' directions.
const ShapeDirections = ShapeHorizontal | ShapeVertical | ShapeRising | ShapeFalling

// maxSmallPath is the largest side (points) of a recorded subpath: a
// capital of the largest type a sheet sets its notes and titles in.
const maxSmallPath = 16.0

// maxSmallPathsPerPage bounds the small paths kept per page, the first in
// drawing order (Page.SmallPathsDropped says more were drawn): notes are
// tens of thousands of strokes; a page of fine hatching has millions. At
// twice this, a server reading a page of millions of tiny strokes went
// over its 512 MB bound (the hostile suite's operators_9m case: 498-522
// MB, against 471 MB now and 478-481 MB before small paths were kept);
// no corpus reading changes.
const maxSmallPathsPerPage = 1 << 16

// smallPathTracker follows the subpath being built: its hull, its pieces'
// directions. No allocation per path: finished subpaths wait in pending
// (reused) until the paint operator says whether the path was painted.
type smallPathTracker struct {
	x0, y0, x1, y1 float64
	pieces         int
	shape          uint8
	pending        []SmallPath
	out            []SmallPath
	dropped        bool
}

// start begins a subpath at a point.
func (t *smallPathTracker) start(x, y float64) {
	t.x0, t.y0, t.x1, t.y1 = x, y, x, y
	t.pieces, t.shape = 0, 0
}

// piece adds a straight piece (curve false) or a curve ending at x, y.
func (t *smallPathTracker) piece(fromX, fromY, x, y float64, curve bool) {
	t.x0, t.y0, t.x1, t.y1 = min(t.x0, x), min(t.y0, y), max(t.x1, x), max(t.y1, y)
	t.pieces++
	if curve {
		t.shape |= ShapeCurved
		return
	}
	dx, dy := math.Abs(x-fromX), math.Abs(y-fromY)
	switch {
	case dx == 0 && dy == 0:
	case dy <= 0.27*dx:
		t.shape |= ShapeHorizontal
	case dx <= 0.27*dy:
		t.shape |= ShapeVertical
	case (x-fromX)*(y-fromY) < 0: // y grows downwards
		t.shape |= ShapeRising
	default:
		t.shape |= ShapeFalling
	}
}

// extend widens the current subpath's hull to a curve's control point.
func (t *smallPathTracker) extend(x, y float64) {
	if t.pieces > 0 {
		t.x0, t.y0, t.x1, t.y1 = min(t.x0, x), min(t.y0, y), max(t.x1, x), max(t.y1, y)
	}
}

// finish closes the current subpath: kept, until the paint, when it is
// small and on the page.
func (t *smallPathTracker) finish(width, height float64) {
	n := t.pieces
	if n == 0 {
		return
	}
	t.pieces = 0
	w, h := t.x1-t.x0, t.y1-t.y0
	if !(w <= maxSmallPath && h <= maxSmallPath) || max(w, h) < 0.2 || t.x1 < 0 || t.y1 < 0 || t.x0 > width || t.y0 > height {
		return // NaN sides fail the first test
	}
	if len(t.pending)+len(t.out) >= maxSmallPathsPerPage {
		t.dropped = true
		return
	}
	t.pending = append(t.pending, SmallPath{
		X0: float32(t.x0), Y0: float32(t.y0), X1: float32(t.x1), Y1: float32(t.y1),
		Pieces: uint16(min(n, math.MaxUint16)), Shape: t.shape,
	})
}

// paint keeps the path's small subpaths when the path is painted.
func (t *smallPathTracker) paint(painted, filled bool) {
	if painted {
		for _, s := range t.pending {
			if filled {
				s.Shape |= ShapeFilled
			}
			t.out = append(t.out, s)
		}
	}
	t.pending = t.pending[:0]
}
