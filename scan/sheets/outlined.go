package sheets

import (
	"math"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// Text drawn as outlines (glyphs converted to paths, SHX fonts stroked as
// lines) leaves no words in the text layer, only many short strokes. Where
// a sheet's number should be and the text layer has nothing, such strokes
// say the number is printed but could not be read: a different outcome
// from a title block that prints none.

// minGlyphStrokes is how many short strokes, with no word among them, make
// a place read as outlined text: a few characters' worth of strokes. A
// box, a rule or a border is a handful of long ones.
const minGlyphStrokes = 12

// markOutlinedNumbers marks, on each page without a number, whether the
// place the set prints its numbers holds outlined text. The place is where
// the other sheets' numbers are (as fractions of the sheet as displayed);
// a file with none read looks at the bottom-right corner, where title
// blocks put it.
func markOutlinedNumbers(pages []*pdftext.Page, models []PageModel) {
	var sumX0, sumY0, sumX1, sumY1 float64
	n := 0
	for i := range models {
		pm := &models[i]
		p := pages[i]
		if pm.SheetNumber == "" || p == nil || len(pm.NumberWords) == 0 {
			continue
		}
		pw, ph := pageScale(p)
		b := WordBox(p, pm.NumberWords[0])
		for _, w := range pm.NumberWords[1:] {
			b = b.Union(WordBox(p, w))
		}
		sumX0, sumY0, sumX1, sumY1 = sumX0+b.X0/pw, sumY0+b.Y0/ph, sumX1+b.X1/pw, sumY1+b.Y1/ph
		n++
	}
	for i := range models {
		pm := &models[i]
		p := pages[i]
		if pm.SheetNumber != "" || p == nil || len(p.Segments) == 0 {
			continue
		}
		pw, ph := pageScale(p)
		var slot, place Box
		if n > 0 {
			// The slot, and for the strokes the slot grown by half its
			// size each way: sheets do not place their number to the
			// point.
			f := float64(n)
			x0, y0, x1, y1 := sumX0/f, sumY0/f, sumX1/f, sumY1/f
			dx, dy := (x1-x0)/2, (y1-y0)/2
			slot = Box{X0: x0 * pw, Y0: y0 * ph, X1: x1 * pw, Y1: y1 * ph}
			place = Box{X0: (x0 - dx) * pw, Y0: (y0 - dy) * ph, X1: (x1 + dx) * pw, Y1: (y1 + dy) * ph}
		} else {
			slot = Box{X0: 0.85 * pw, Y0: 0.88 * ph, X1: pw, Y1: ph}
			place = slot
		}
		if outlinedText(p, slot, place) {
			pm.Unread = append(pm.Unread, FieldNumber)
			pm.UnreadAt = append(pm.UnreadAt, slot)
		}
	}
}

// outlinedText reports whether a place holds text drawn as outlines: no
// word of the text layer centred in the slot (a caption beside it may
// be), and at least minGlyphStrokes strokes inside the place b, each
// shorter than it is tall and than large type (24 pt): glyph strokes, not
// the lines of the title block's grid.
func outlinedText(p *pdftext.Page, slot, b Box) bool {
	for i := range p.Words {
		if slot.Encloses(WordBox(p, i)) {
			return false
		}
	}
	short := 0
	for _, s := range p.Segments {
		if !b.ContainsPoint(s.X0, s.Y0) || !b.ContainsPoint(s.X1, s.Y1) {
			continue
		}
		if math.Hypot(s.X1-s.X0, s.Y1-s.Y0) < min(b.Height(), 24) {
			short++
		}
	}
	return short >= minGlyphStrokes
}

// partlyOutlined returns the page's regions of outlined text when they
// are a meaningful share of its text: the layout's, when the page was laid
// out (the search is page work, done where the page is analysed), else
// searched here.
func partlyOutlined(p *pdftext.Page, lp *layout.Page) []layout.OutlinedText {
	if lp != nil {
		return lp.Outlined
	}
	return layout.PartlyOutlined(p)
}
