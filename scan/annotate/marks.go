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

func (c rgb) fill() string   { return num(c[0]) + " " + num(c[1]) + " " + num(c[2]) + " rg" }
func (c rgb) stroke() string { return num(c[0]) + " " + num(c[1]) + " " + num(c[2]) + " RG" }
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
	rectDifferences [4]float64 // /RD: left, top, right, bottom insets
	popupRect       box
	style           markStyle
	formW, formH    float64
	formMatrix      [6]float64
}

// layoutMark places the square around the evidence and the number tag on the
// square's top-left corner as displayed, above it when there is room on the
// visible page, else below, else inside, and shifted sideways onto the page
// when the square reaches past its edge. The tag is part of the Square's own
// appearance, so the annotation's /Rect is the union of both and /RD tells
// viewers where the square itself is.
func layoutMark(g pageGeometry, evidence box, number int) markLayout {
	st := styleFor(g)
	l := markLayout{style: st, tagText: strconv.Itoa(number)}
	l.square = evidence.grow(st.margin)
	l.squareD = g.boxToDisplay(l.square)

	tw, err := font.TextWidthFloat(l.tagText, tagFontName, st.tagFontSize)
	if err != nil {
		tw = float64(len(l.tagText)) * st.tagFontSize * 0.6
	}
	l.tagTextWidth = tw
	tagW := tw + 2*st.tagPad
	tagH := st.tagFontSize * 1.3
	pageW, pageH := g.displaySize()

	sq := l.squareD
	// Keep the tag on the visible page when the square runs off its side.
	x := max(0, min(sq.llx, pageW-tagW))
	var y float64
	switch {
	case sq.ury+tagH <= pageH:
		y = sq.ury
	case sq.lly-tagH >= 0:
		y = sq.lly - tagH
	default:
		y = sq.ury - tagH
	}
	l.tagD = box{x, y, x + tagW, y + tagH}
	l.rectD = sq.union(l.tagD)
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
	return l
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
// /Matrix turns it with the page.
func (l markLayout) appearance(sev severityStyle) []byte {
	ox, oy := l.rectD.llx, l.rectD.lly
	sq := box{l.squareD.llx - ox, l.squareD.lly - oy, l.squareD.urx - ox, l.squareD.ury - oy}
	tag := box{l.tagD.llx - ox, l.tagD.lly - oy, l.tagD.urx - ox, l.tagD.ury - oy}
	lw := l.style.lineWidth
	fs := l.style.tagFontSize

	var b strings.Builder
	b.Grow(320)
	fmt.Fprintf(&b, "q /%s gs %s %s %s %s %s re f Q\n", tintStateKey, sev.color.fill(),
		num(sq.llx), num(sq.lly), num(sq.width()), num(sq.height()))
	fmt.Fprintf(&b, "q %s %s w 0 J 0 j [] 0 d %s %s %s %s re S Q\n", sev.color.stroke(), num(lw),
		num(sq.llx+lw/2), num(sq.lly+lw/2), num(sq.width()-lw), num(sq.height()-lw))
	fmt.Fprintf(&b, "q %s %s %s %s %s re f Q\n", sev.color.fill(),
		num(tag.llx), num(tag.lly), num(tag.width()), num(tag.height()))
	tx := tag.llx + (tag.width()-l.tagTextWidth)/2
	ty := tag.lly + (tag.height()-fs*helveticaBoldCapHeight/1000)/2
	fmt.Fprintf(&b, "BT /%s %s Tf %s %s %s Td (%s) Tj ET\n", tagFontKey, num(fs), sev.ink.fill(),
		num(tx), num(ty), escapeLiteral([]byte(l.tagText)))
	return []byte(b.String())
}
