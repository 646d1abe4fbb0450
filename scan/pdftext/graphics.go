package pdftext

import "math"

// Segment is a straight stroked line, or one edge of a stroked or filled
// rectangle, in displayed page points (top-left origin, y down: the space of
// Word.Baseline and of BBox × page size). The layout reads ruled tables,
// title-block frames and revision grids from them.
type Segment struct {
	X0, Y0, X1, Y1 float64
	Width          float64 // stroke width in points (a thin filled bar's thickness)
}

// maxSegmentsPerPage bounds the segments kept per page: the first ones
// (of at least minSegment) in drawing order are kept, the rest dropped (Page.SegmentsDropped). Title
// blocks, frames and schedules are drawn in the first few thousand; a
// hatched or detailed drawing can have millions of strokes the layout has
// no use for.
const maxSegmentsPerPage = 20000

// minSegment is the shortest stroke kept (points): shorter ones are
// hatching, flattened curves and text drawn as outlines, which would fill
// the per-page budget before the title block's frame is drawn.
const minSegment = 2.0

// thinFill is the thickness under which a filled rectangle is a drawn rule
// (CAD exports draw heavy lines as thin filled bars), not an area.
const thinFill = 2.0

// pathSeg is one straight piece of the path being built, in device space.
type pathSeg struct {
	x0, y0, x1, y1 float64
	rect           bool // an edge of a rectangle (re, or a closed 4-edge axis polygon)
}

// pathBuilder collects the current path's straight pieces between path
// construction and the painting operator. Curves only move the pen.
type pathBuilder struct {
	segs          []pathSeg
	subStart      int // index in segs of the current subpath's first piece
	sx, sy        float64
	cx, cy        float64
	open          bool // a current point exists
	subCurved     bool // the current subpath has a curve: not a rectangle
	out           []Segment
	dropped       bool
	device        matrix
	width, height float64
	// ink marks where painted paths have points; curveEnds holds the
	// current path's curve ends (its straight pieces are in segs).
	ink       Ink
	curveEnds [][2]float64
	// ctmDevice is ctm × device for the CTM last asked for: a path's
	// points come by the thousand under one CTM.
	ctm, ctmDevice matrix
	ctmKnown       bool
	// small records the painted subpaths no larger than a glyph.
	small smallPathTracker
}

// toDevice is ctm followed by the page's device transform.
func (pb *pathBuilder) toDevice(ctm matrix) matrix {
	if !pb.ctmKnown || !sameBits(ctm, pb.ctm) {
		pb.ctm, pb.ctmDevice, pb.ctmKnown = ctm, ctm.mul(pb.device), true
	}
	return pb.ctmDevice
}

// sameBits compares bit for bit (a -0 or NaN is not another matrix's 0
// or NaN), so a cached product is exactly the one computed afresh.
func sameBits(a, b matrix) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func (pb *pathBuilder) reset() {
	pb.segs = pb.segs[:0]
	pb.curveEnds = pb.curveEnds[:0]
	pb.subStart = 0
	pb.open = false
	pb.subCurved = false
}

func (pb *pathBuilder) moveTo(x, y float64) {
	pb.endSubpath()
	pb.small.finish(pb.width, pb.height)
	pb.small.start(x, y)
	pb.sx, pb.sy, pb.cx, pb.cy, pb.open = x, y, x, y, true
	pb.subStart = len(pb.segs)
	pb.subCurved = false
}

func (pb *pathBuilder) lineTo(x, y float64) {
	if !pb.open {
		pb.moveTo(x, y)
		return
	}
	pb.small.piece(pb.cx, pb.cy, x, y, false)
	if len(pb.segs) < maxSegmentsPerPage {
		pb.segs = append(pb.segs, pathSeg{x0: pb.cx, y0: pb.cy, x1: x, y1: y})
	} else {
		pb.dropped = true
	}
	pb.cx, pb.cy = x, y
}

func (pb *pathBuilder) curveTo(x, y float64) {
	if !pb.open {
		pb.moveTo(x, y)
		return
	}
	pb.small.piece(pb.cx, pb.cy, x, y, true)
	pb.cx, pb.cy = x, y
	pb.subCurved = true
	if len(pb.curveEnds) < maxInkPoints {
		pb.curveEnds = append(pb.curveEnds, [2]float64{x, y})
	}
}

func (pb *pathBuilder) closePath() {
	if !pb.open {
		return
	}
	if pb.cx != pb.sx || pb.cy != pb.sy {
		pb.lineTo(pb.sx, pb.sy)
	}
	pb.endSubpath()
	pb.small.finish(pb.width, pb.height)
	pb.small.start(pb.sx, pb.sy)
	pb.cx, pb.cy = pb.sx, pb.sy
	pb.subStart = len(pb.segs)
}

// endSubpath marks a closed four-edge axis-aligned polygon as a rectangle,
// as producers that draw boxes with m/l/l/l/h instead of re.
func (pb *pathBuilder) endSubpath() {
	sub := pb.segs[min(pb.subStart, len(pb.segs)):]
	if pb.subCurved || len(sub) != 4 {
		return
	}
	for _, s := range sub {
		if !axisAligned(s) {
			return
		}
	}
	if sub[0].x0 != sub[3].x1 || sub[0].y0 != sub[3].y1 {
		return
	}
	for i := range sub {
		sub[i].rect = true
	}
}

func axisAligned(s pathSeg) bool {
	return math.Abs(s.x0-s.x1) < 0.01 || math.Abs(s.y0-s.y1) < 0.01
}

func (pb *pathBuilder) rect(m matrix, x, y, w, h float64) {
	pb.endSubpath()
	pb.small.finish(pb.width, pb.height)
	ax, ay := m.apply(x, y)
	bx, by := m.apply(x+w, y)
	cx, cy := m.apply(x+w, y+h)
	dx, dy := m.apply(x, y+h)
	if len(pb.segs)+4 <= maxSegmentsPerPage {
		pb.segs = append(pb.segs,
			pathSeg{ax, ay, bx, by, true}, pathSeg{bx, by, cx, cy, true},
			pathSeg{cx, cy, dx, dy, true}, pathSeg{dx, dy, ax, ay, true})
	} else {
		pb.dropped = true
	}
	pb.sx, pb.sy, pb.cx, pb.cy, pb.open = ax, ay, ax, ay, true
	pb.subStart = len(pb.segs)
	pb.subCurved = false
	pb.small.start(ax, ay) // a rectangle is a frame or a fill, never a glyph
}

// paint ends the path: stroked paths give all their straight pieces;
// filled-only paths give their rectangles (a thin one as its centre line).
func (pb *pathBuilder) paint(stroke, fill bool, lineWidth float64) {
	pb.endSubpath()
	defer pb.reset()
	pb.small.finish(pb.width, pb.height)
	pb.small.paint(stroke || fill, fill)
	if !stroke && !fill {
		return
	}
	pb.markInk()
	segs := pb.segs
	for i := 0; i < len(segs); i++ {
		s := segs[i]
		if stroke {
			pb.emit(s.x0, s.y0, s.x1, s.y1, lineWidth)
			continue
		}
		if !s.rect || i+3 >= len(segs) || !segs[i+1].rect {
			continue
		}
		// A filled rectangle: its four edges, or its centre line when thin.
		a, b := segs[i], segs[i+1]
		w, h := math.Hypot(a.x1-a.x0, a.y1-a.y0), math.Hypot(b.x1-b.x0, b.y1-b.y0)
		switch {
		case h <= thinFill && w > h:
			pb.emit((a.x0+segs[i+3].x0)/2, (a.y0+segs[i+3].y0)/2, (a.x1+b.x1)/2, (a.y1+b.y1)/2, h)
		case w <= thinFill && h > w:
			pb.emit((a.x0+a.x1)/2, (a.y0+a.y1)/2, (segs[i+2].x0+segs[i+2].x1)/2, (segs[i+2].y0+segs[i+2].y1)/2, w)
		default:
			for _, e := range segs[i : i+4] {
				pb.emit(e.x0, e.y0, e.x1, e.y1, 0)
			}
		}
		i += 3
	}
}

// markInk marks the painted path's points on the page's ink.
func (pb *pathBuilder) markInk() {
	if pb.ink.width == 0 {
		pb.ink.width, pb.ink.height = pb.width, pb.height
	}
	for i := range pb.segs {
		pb.ink.mark(pb.segs[i].x0, pb.segs[i].y0)
		pb.ink.mark(pb.segs[i].x1, pb.segs[i].y1)
	}
	for _, p := range pb.curveEnds {
		pb.ink.mark(p[0], p[1])
	}
}

// emit keeps one segment in displayed points if it is on the page.
func (pb *pathBuilder) emit(x0, y0, x1, y1, width float64) {
	if !finite(x0) || !finite(y0) || !finite(x1) || !finite(y1) || math.Hypot(x1-x0, y1-y0) < minSegment {
		return
	}
	if max(x0, x1) < 0 || min(x0, x1) > pb.width || max(y0, y1) < 0 || min(y0, y1) > pb.height {
		return
	}
	if len(pb.out) >= maxSegmentsPerPage {
		pb.dropped = true
		return
	}
	pb.out = append(pb.out, Segment{X0: round4(x0), Y0: round4(y0), X1: round4(x1), Y1: round4(y1), Width: round4(width)})
}

// pathOp runs one path construction or painting operator; it reports
// whether op was one.
func (in *interp) pathOp(op string, ops []token) bool {
	pb := &in.path
	gs := &in.gs
	switch op {
	case "m", "l":
		if a, ok := lastNums(ops, 2); ok {
			x, y := pb.toDevice(gs.ctm).apply(a[0].num, a[1].num)
			if op == "m" {
				pb.moveTo(x, y)
			} else {
				pb.lineTo(x, y)
			}
		}
	case "c":
		if a, ok := lastNums(ops, 6); ok {
			m := pb.toDevice(gs.ctm)
			pb.curveTo(m.apply(a[4].num, a[5].num))
			// The control points bound the curve: a glyph's bowl.
			pb.small.extend(m.apply(a[0].num, a[1].num))
			pb.small.extend(m.apply(a[2].num, a[3].num))
		}
	case "v", "y":
		if a, ok := lastNums(ops, 4); ok {
			m := pb.toDevice(gs.ctm)
			pb.curveTo(m.apply(a[2].num, a[3].num))
			pb.small.extend(m.apply(a[0].num, a[1].num))
		}
	case "h":
		pb.closePath()
	case "re":
		if a, ok := lastNums(ops, 4); ok {
			pb.rect(pb.toDevice(gs.ctm), a[0].num, a[1].num, a[2].num, a[3].num)
		}
	case "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n":
		if op == "s" || op == "b" || op == "b*" {
			pb.closePath()
		}
		stroke := op == "S" || op == "s" || op[0] == 'B' || op[0] == 'b'
		fill := op != "S" && op != "s" && op != "n"
		if in.words.hidden > 0 {
			stroke, fill = false, false // a layer that is off
		}
		width := 0.0 // only strokes are given a width
		if stroke {
			width = in.lineWidth()
		}
		pb.paint(stroke, fill, width)
	case "w":
		if a, ok := lastNums(ops, 1); ok {
			gs.lineWidth = a[0].num
		}
	default:
		return false
	}
	return true
}

// lineWidth is the current stroke width in displayed points (the CTM's
// mean scale; a zero width is the thinnest line the device draws).
func (in *interp) lineWidth() float64 {
	m := in.path.toDevice(in.gs.ctm)
	scale := math.Sqrt(math.Abs(m[0]*m[3] - m[1]*m[2]))
	w := in.gs.lineWidth * scale
	if !finite(w) {
		return 0
	}
	return w
}
