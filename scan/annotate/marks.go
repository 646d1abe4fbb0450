package annotate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/font"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Author is the /T of every annotation planreview writes. Together with /NM
// it lets a later run recognise, and replace, marks from an earlier one.
const Author = "planreview"

type rgb [3]float64

func (c rgb) fill() string { return num(c[0]) + " " + num(c[1]) + " " + num(c[2]) + " rg" }
func (c rgb) array() types.Array {
	return pdfNumbers(c[0], c[1], c[2])
}

type severityStyle struct {
	label string
	color rgb
	// ink is the tag's text colour: white reads poorly on amber.
	ink  rgb
	rank int
}

var (
	white = rgb{1, 1, 1}
	black = rgb{0, 0, 0}
)

// severityStyles maps the contract's severities to their colours. The hues
// are far apart so that a grey-scale photocopy still separates them by
// lightness, and so that a test can tell them apart in rendered pixels.
var severityStyles = map[string]severityStyle{
	"critical": {label: "CRITICAL", color: rgb{0.86, 0.08, 0.08}, ink: white, rank: 0},
	"high":     {label: "HIGH", color: rgb{0.95, 0.45, 0.05}, ink: white, rank: 1},
	"medium":   {label: "MEDIUM", color: rgb{1.0, 0.76, 0.0}, ink: black, rank: 2},
	"low":      {label: "LOW", color: rgb{0.12, 0.42, 0.90}, ink: white, rank: 3},
	"info":     {label: "INFO", color: rgb{0.50, 0.50, 0.50}, ink: white, rank: 4},
}

// SeverityColor returns the RGB colour (0–1 components) used for a severity,
// for callers that want to show the same colours elsewhere.
func SeverityColor(severity string) (r, g, b float64, ok bool) {
	s, ok := severityStyles[strings.ToLower(severity)]
	return s.color[0], s.color[1], s.color[2], ok
}

const (
	tagFontName  = "Helvetica-Bold"
	tagFontKey   = "F1"
	tintStateKey = "GS0"
	// tintOpacity is the fill behind the evidence: enough to find the words on
	// a busy sheet, little enough to keep them readable underneath.
	tintOpacity = 0.15
	// helveticaBoldCapHeight is from the Helvetica-Bold AFM, per 1000 units.
	helveticaBoldCapHeight = 718.0
)

// markStyle is the size of a mark's parts; it scales with the sheet so a tag
// keeps the same size relative to the sheet on Letter and on A1.
type markStyle struct {
	lineWidth, margin, tagFontSize, tagPad float64
}

func styleFor(g pageGeometry) markStyle {
	short := g.shortSide()
	lw := clamp(short/400, 1.5, 4)
	fs := clamp(short/80, 7, 16)
	return markStyle{lineWidth: lw, margin: lw + 1.5, tagFontSize: fs, tagPad: fs * 0.3}
}

// markLayout is where a mark's parts go. Display boxes are in the page's
// display space (see pageGeometry.toDisplay); rect and square in user space.
type markLayout struct {
	rect, square    box
	rectD, squareD  box
	tagD            box
	tagText         string
	tagTextWidth    float64
	tagFontSize     float64
	rectDifferences [4]float64 // /RD: left, top, right, bottom insets
	popupRect       box
	style           markStyle
	// sideWidth is the left and right border's width, edgeWidth the top and
	// bottom's: the latter lie between text lines, so they follow the
	// evidence's height (see layoutMark).
	sideWidth, edgeWidth float64
	// sheetLevel marks a finding about the sheet as a whole: the tag alone,
	// in the margin, with no square.
	sheetLevel   bool
	formW, formH float64
	formMatrix   [6]float64
}

// minTagFontSize keeps a tag beside a line of small print legible.
const minTagFontSize = 5.0

// layoutMark places the square around the evidence and the number tag
// beside it, at its left as displayed (else at its right when the square
// reaches the page's left edge, else over the square's top-left corner).
//
// A sheet's words sit in lines, often a line's height apart (a sheet index,
// a general notes column): whatever reaches above or below the evidence
// runs through the neighbouring line and makes it read as struck out. So
// the square's padding above and below, its top and bottom borders and the
// tag's height all follow the evidence's height, and the tag stays within
// the square's band; the sides, between words of one line, keep the full
// padding and border.
//
// The tag is part of the Square's own appearance, so the annotation's
// /Rect is the union of both and /RD tells viewers where the square is.
func layoutMark(g pageGeometry, evidence box, number int) markLayout {
	st := styleFor(g)
	l := markLayout{style: st, tagText: strconv.Itoa(number)}
	evD := g.boxToDisplay(evidence)
	h := evD.height()
	l.sideWidth = st.lineWidth
	l.edgeWidth = clamp(0.12*h, 0.75, st.lineWidth)
	vertical := min(st.margin, l.edgeWidth+0.05*h)
	l.squareD = box{evD.llx - st.margin, evD.lly - vertical, evD.urx + st.margin, evD.ury + vertical}
	l.square = g.boxFromDisplay(l.squareD)

	l.tagFontSize = max(minTagFontSize, min(st.tagFontSize, l.squareD.height()/1.3))
	tw, err := font.TextWidthFloat(l.tagText, tagFontName, l.tagFontSize)
	if err != nil {
		tw = float64(len(l.tagText)) * l.tagFontSize * 0.6
	}
	l.tagTextWidth = tw
	pad := l.tagFontSize * 0.3
	tagW := tw + 2*pad
	tagH := l.tagFontSize * 1.3
	pageW, pageH := g.displaySize()

	sq := l.squareD
	var x float64
	switch {
	case sq.llx-tagW >= 0:
		x = sq.llx - tagW
	case sq.urx+tagW <= pageW:
		x = sq.urx
	default:
		x = max(0, min(sq.llx, pageW-tagW))
	}
	y := (sq.lly + sq.ury - tagH) / 2
	y = max(0, min(y, pageH-tagH))
	l.tagD = box{x, y, x + tagW, y + tagH}
	l.finish(g)
	return l
}

// layoutSheetTag places the tag of a finding about a whole sheet (one no
// words anchor, such as a title block with no sheet number) in the sheet's
// top-right margin, the slot-th from the top when several share the sheet.
func layoutSheetTag(g pageGeometry, number, slot int) markLayout {
	st := styleFor(g)
	l := markLayout{style: st, tagText: strconv.Itoa(number) + " (sheet)", sheetLevel: true, tagFontSize: st.tagFontSize}
	tw, err := font.TextWidthFloat(l.tagText, tagFontName, l.tagFontSize)
	if err != nil {
		tw = float64(len(l.tagText)) * l.tagFontSize * 0.6
	}
	l.tagTextWidth = tw
	pad := l.tagFontSize * 0.3
	tagW, tagH := tw+2*pad, l.tagFontSize*1.3
	pageW, pageH := g.displaySize()
	inset := st.margin
	x := max(0, pageW-inset-tagW)
	y := max(0, pageH-inset-tagH-float64(slot)*(tagH+inset/2))
	l.tagD = box{x, y, x + tagW, y + tagH}
	l.squareD = l.tagD
	l.square = g.boxFromDisplay(l.squareD)
	l.finish(g)
	return l
}

// finish derives the annotation's rectangle, /RD, form and popup from the
// square and the tag.
func (l *markLayout) finish(g pageGeometry) {
	pageW, pageH := g.displaySize()
	l.rectD = l.squareD.union(l.tagD)
	l.rect = g.boxFromDisplay(l.rectD)
	l.rectDifferences = [4]float64{
		l.square.llx - l.rect.llx,
		l.rect.ury - l.square.ury,
		l.rect.urx - l.square.urx,
		l.square.lly - l.rect.lly,
	}
	l.formW, l.formH = l.rectD.width(), l.rectD.height()
	l.formMatrix = g.formMatrix()
	l.popupRect = g.boxFromDisplay(popupPlacement(l.rectD, pageW, pageH))
}

// popupPlacement puts the note window beside the mark, on the side with room.
func popupPlacement(mark box, pageW, pageH float64) box {
	w := clamp(pageW*0.3, 180, 320)
	h := w * 0.6
	x := mark.urx + 4
	if x+w > pageW {
		x = mark.llx - 4 - w
	}
	if x < 0 {
		x = max(0, pageW-w)
	}
	top := min(mark.ury, pageH)
	if top-h < 0 {
		top = min(h, pageH)
	}
	return box{x, top - h, x + w, top}
}

// appearance is the Square's normal appearance: a tinted fill, the border
// and the number tag, drawn upright in display orientation; the form's
// /Matrix turns it with the page. A sheet-level mark is the tag alone.
func (l markLayout) appearance(sev severityStyle) []byte {
	ox, oy := l.rectD.llx, l.rectD.lly
	sq := box{l.squareD.llx - ox, l.squareD.lly - oy, l.squareD.urx - ox, l.squareD.ury - oy}
	tag := box{l.tagD.llx - ox, l.tagD.lly - oy, l.tagD.urx - ox, l.tagD.ury - oy}
	fs := l.tagFontSize

	var b strings.Builder
	b.Grow(400)
	if !l.sheetLevel {
		fmt.Fprintf(&b, "q /%s gs %s %s %s %s %s re f Q\n", tintStateKey, sev.color.fill(),
			num(sq.llx), num(sq.lly), num(sq.width()), num(sq.height()))
		// The border as four filled bands, inside the square: the sides
		// sideWidth wide, top and bottom edgeWidth high.
		sw, ew := l.sideWidth, l.edgeWidth
		fmt.Fprintf(&b, "q %s %s %s %s %s re %s %s %s %s re %s %s %s %s re %s %s %s %s re f Q\n", sev.color.fill(),
			num(sq.llx), num(sq.lly), num(sw), num(sq.height()),
			num(sq.urx-sw), num(sq.lly), num(sw), num(sq.height()),
			num(sq.llx), num(sq.lly), num(sq.width()), num(ew),
			num(sq.llx), num(sq.ury-ew), num(sq.width()), num(ew))
	}
	fmt.Fprintf(&b, "q %s %s %s %s %s re f Q\n", sev.color.fill(),
		num(tag.llx), num(tag.lly), num(tag.width()), num(tag.height()))
	tx := tag.llx + (tag.width()-l.tagTextWidth)/2
	ty := tag.lly + (tag.height()-fs*helveticaBoldCapHeight/1000)/2
	fmt.Fprintf(&b, "BT /%s %s Tf %s %s %s Td (%s) Tj ET\n", tagFontKey, num(fs), sev.ink.fill(),
		num(tx), num(ty), escapeLiteral([]byte(l.tagText)))
	return []byte(b.String())
}
