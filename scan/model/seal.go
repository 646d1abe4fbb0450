package model

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"planreview/scan/layout"
	"planreview/scan/pdftext"
)

// A seal block is the part of a sheet's title block reserved for the design
// professional's seal or stamp: a box of drawn rules (a title-block cell)
// inside or beside the title block, captioned as a seal or stamp ("SEAL",
// "STAMPS/SEALS", "P.E. STAMP", "Consultants/Seals:", "TIMBRO E FIRMA").
// What fills it is read without words: a seal is placed as an image or
// drawn as paths (a circle, a signature, lettering as outlines) as often
// as it is typed, so the block is filled when anything is inside it other
// than its caption: words, an image, vector marks, or a signed signature
// field (on the box, or invisible on the page).
//
// The caption names the box, the drawing finds it: a caption with no box
// drawn around it, or a box on a page whose rules were not all kept, is a
// region the model could not read, never an empty one.

// SealState says what a seal block holds.
type SealState uint8

const (
	// SealEmpty: the box holds nothing but its caption.
	SealEmpty SealState = iota + 1
	// SealFilled: the box holds words, an image or a drawing.
	SealFilled
	// SealUnreadable: a seal caption is in the title block, but the box
	// it names could not be read (no box drawn around it, the page's
	// rules not all kept, the page read only in part).
	SealUnreadable
)

func (s SealState) String() string {
	switch s {
	case SealEmpty:
		return "empty"
	case SealFilled:
		return "filled"
	case SealUnreadable:
		return "could not read"
	}
	return "none"
}

// SealBlock is one seal block of a sheet with its evidence.
type SealBlock struct {
	State SealState
	// Caption is the caption as printed, CaptionWords its words.
	Caption      string
	CaptionWords []int
	// Box is the box reserved for the seal (displayed points); zero when
	// unreadable for want of a box.
	Box layout.Box
	// What the box holds: words other than the caption, images placed
	// over it, and the cells of the page's ink grid marked inside it.
	ContentWords []int
	Images       []pdftext.Box
	InkCells     int
	// Signed: a signed signature field lies over the box, or the page
	// carries an invisible one (a seal applied digitally).
	Signed bool
	// Reason says why an unreadable block could not be read.
	Reason     string
	Confidence float64
}

// sealWords are the words that name a seal or stamp, in the languages the
// model reads captions in: English, German, Italian, French, Spanish,
// Slovenian.
var sealWords = map[string]bool{
	"SEAL": true, "SEALS": true, "STAMP": true, "STAMPS": true,
	"STEMPEL": true, "SIEGEL": true, "TIMBRO": true, "TIMBRI": true,
	"SCEAU": true, "CACHET": true, "SELLO": true, "ŽIG": true,
}

// Sizes, in displayed points unless said otherwise.
const (
	// sealMinSide: a box smaller than this on either side holds no seal
	// (a seal is an inch and a half across; a caption's own cell is
	// smaller).
	sealMinSide = 28.0
	// sealCaptionTokens: a caption is a short label, not a sentence.
	sealCaptionTokens = 6
	// sealInkCells: marked ink cells inside a box that make a drawing
	// (a corner of a rule touching its edge marks one or two).
	sealInkCells = 3
	// ruleCover: the share of a side of a box its drawn rules must cover.
	ruleCover = 0.6
)

// SealBlocks returns the sheet's seal blocks: none when its title block
// has no seal caption; one unreadable block, without a box, when the page
// was not read in full or its title block's fields are drawn as outlines
// and no caption was read, so a check can say "could not read".
func (s *Sheet) SealBlocks() []SealBlock {
	if !s.ReadInFull() {
		return []SealBlock{{State: SealUnreadable, Reason: "the page's text was not read in full", Confidence: confPageAlone}}
	}
	if s.Model == nil {
		return nil
	}
	// No seal caption read where the title block's own fields are drawn
	// as outlines: its caption may be too.
	outlined := SealBlock{State: SealUnreadable, Reason: "the title block is drawn as outlines", Confidence: confPageAlone}
	if s.Model.TitleBlock == (layout.Box{}) {
		if len(s.Model.Unread) > 0 {
			return []SealBlock{outlined}
		}
		return nil // a seal block is part of a title block
	}
	var out []SealBlock
	taken := map[int]bool{}
	for _, l := range s.Lines {
		for _, w := range l.Words {
			if taken[w] || !namesSeal(s.Page.Words[w].Text) {
				continue
			}
			b, ok := s.sealBlockAt(l.Words, w)
			if !ok {
				continue
			}
			for _, cw := range b.CaptionWords {
				taken[cw] = true
			}
			out = append(out, b)
		}
	}
	if len(out) == 0 && len(s.Model.Unread) > 0 {
		out = append(out, outlined)
	}
	return out
}

// namesSeal reports whether a word holds a seal word as a whole token
// ("SEAL:", "STAMPS/SEALS", "Consultants/Seals:"), not as part of one
// ("SEALANT", "SEALED").
func namesSeal(text string) bool {
	for _, t := range tokens(text) {
		if sealWords[t] {
			return true
		}
	}
	return false
}

// tokens splits a text into upper-case letter runs.
func tokens(text string) []string {
	return strings.FieldsFunc(strings.ToUpper(text), func(r rune) bool { return !unicode.IsLetter(r) })
}

// sealBlockAt reads the seal block whose caption holds word w of a line:
// the box of drawn rules around the word, the caption as the line's words
// inside that box, and what else the box holds.
func (s *Sheet) sealBlockAt(line []int, w int) (SealBlock, bool) {
	wb := s.wordsBox([]int{w})
	framed := s.inEdgeStrip(wb) && s.repeatedOnSiblings(w)
	if !s.inTitleBlockZone(wb) && !framed || s.Explains([]int{w}) || s.History([]int{w}) {
		return SealBlock{}, false
	}
	cell, found := cellAround(s.Page.Segments, wb)
	// The caption: the line's words in the cell (the whole line when no
	// cell was found), a short label whose seal word closes it or which
	// is no more than three words ("SEAL AND SIGNATURE").
	var caption []int
	for _, x := range line {
		if !found || cell.Encloses(s.wordsBox([]int{x})) {
			caption = append(caption, x)
		}
	}
	if !isSealCaption(s.Page, caption) {
		return SealBlock{}, false
	}
	b := SealBlock{CaptionWords: caption, Caption: wordsText(s.Page, caption), Confidence: 0.9}
	cb := s.wordsBox(caption)
	if found && tooSmall(cell, cb) {
		// The caption has a cell of its own: the seal's box is the one
		// below it (a header row), else above it, between the same walls.
		var ok bool
		if cell, ok = adjacentCell(s.Page.Segments, cell, +1); !ok || tooSmall(cell, layout.Box{}) {
			cell, ok = adjacentCell(s.Page.Segments, cell, -1)
		}
		found = ok && !tooSmall(cell, layout.Box{})
		b.Confidence = 0.85
	}
	if !found {
		b.State, b.Confidence = SealUnreadable, confPageAlone
		b.Reason = "no box is drawn around the caption"
		if s.Page.SegmentsDropped {
			b.Reason = "the page draws more rules than were kept"
		}
		return b, true
	}
	b.Box = cell
	s.readSealContent(&b, cb)
	return b, true
}

// isSealCaption reports whether the words make a seal caption: at most
// sealCaptionTokens letter tokens, with a seal word among the last three
// ("ARCHITECT'S SEAL", "P.E. STAMP BOX", "STAMPS/SEALS") or three tokens
// at most ("SEAL AND SIGNATURE"), and no figures. A sentence that mentions
// sealing ("AND SEAL AT TOP AND BOTTOM") is no caption.
func isSealCaption(p *pdftext.Page, words []int) bool {
	var toks []string
	for _, w := range words {
		// A label carries no figures: "SEAL BEACH, CA 90740" is an
		// address.
		if strings.ContainsFunc(p.Words[w].Text, unicode.IsDigit) {
			return false
		}
		toks = append(toks, tokens(p.Words[w].Text)...)
	}
	if len(toks) == 0 || len(toks) > sealCaptionTokens {
		return false
	}
	for i, t := range toks {
		if sealWords[t] && (i >= len(toks)-3 || len(toks) <= 3) {
			return true
		}
	}
	return false
}

// inTitleBlockZone reports whether a box lies in the title block or beside
// it: inside its bounds grown by a tenth of the page, or along the strip
// of the page edge it stands on (a bottom strip's cells run the sheet's
// width, a right strip's its height).
func (s *Sheet) inTitleBlockZone(b layout.Box) bool {
	tb := s.Model.TitleBlock
	w, h := s.Page.Width, s.Page.Height
	cx, cy := b.CenterX(), b.CenterY()
	grown := layout.Box{X0: tb.X0 - 0.1*w, Y0: tb.Y0 - 0.1*h, X1: tb.X1 + 0.1*w, Y1: tb.Y1 + 0.1*h}
	switch {
	case grown.Encloses(b):
		return true
	case tb.Y0 > 0.6*h && cy >= tb.Y0-0.05*h:
		return true // the bottom strip
	case tb.X0 > 0.6*w && cx >= tb.X0-0.05*w:
		return true // the right strip
	}
	return false
}

// inEdgeStrip reports whether a box lies along the right or bottom edge of
// the page, where title strips stand.
func (s *Sheet) inEdgeStrip(b layout.Box) bool {
	return b.CenterX() > 0.7*s.Page.Width || b.CenterY() > 0.8*s.Page.Height
}

// siblingsCompared is how many of a file's other sheets repeatedOnSiblings
// looks at: enough to tell the set's frame from one sheet's text.
const siblingsCompared = 8

// repeatedOnSiblings reports whether word w is printed, same text, same
// place (within a hundredth of the page), on most of the file's nearest
// other sheets of the same size: then, along the page's edge, it is part of
// the set's frame, its title strip, wherever the sheet's own title-block
// fields were found. A legend repeated in the drawing area is not.
func (s *Sheet) repeatedOnSiblings(w int) bool {
	if s.File == nil {
		return false
	}
	me := s.Page.Words[w]
	compared, same := 0, 0
	idx := -1
	for i, o := range s.File.Sheets {
		if o == s {
			idx = i
		}
	}
	for d := 1; compared < siblingsCompared && d < len(s.File.Sheets); d++ {
		for _, i := range []int{idx - d, idx + d} {
			if i < 0 || i >= len(s.File.Sheets) || compared >= siblingsCompared {
				continue
			}
			o := s.File.Sheets[i]
			if !o.Readable || math.Abs(o.Page.Width-s.Page.Width) > 1 || math.Abs(o.Page.Height-s.Page.Height) > 1 {
				continue
			}
			compared++
			for _, ow := range o.Page.Words {
				if ow.Text == me.Text && math.Abs(ow.BBox.Left-me.BBox.Left) < 0.01 && math.Abs(ow.BBox.Top-me.BBox.Top) < 0.01 {
					same++
					break
				}
			}
		}
	}
	return same > 0 && same*2 >= compared
}

// tooSmall reports whether a cell, less the caption, leaves no room for a
// seal.
func tooSmall(cell, caption layout.Box) bool {
	room := cell.Height()
	if caption != (layout.Box{}) {
		room = max(caption.Y0-cell.Y0, cell.Y1-caption.Y1)
	}
	return cell.Width() < sealMinSide || room < sealMinSide
}

// readSealContent reads what the seal block holds, apart from its caption
// (cb): words, images and vector marks inside the box.
func (s *Sheet) readSealContent(b *SealBlock, cb layout.Box) {
	inner := shrink(b.Box, 2)
	caption := map[int]bool{}
	for _, w := range b.CaptionWords {
		caption[w] = true
	}
	for i := range s.Page.Words {
		if !caption[i] && inner.Encloses(s.wordsBox([]int{i})) {
			b.ContentWords = append(b.ContentWords, i)
		}
	}
	for _, im := range s.Page.Images {
		ib := layout.Box{X0: im.X0, Y0: im.Y0, X1: im.X1, Y1: im.Y1}
		if overlapArea(ib, inner) > 0 {
			b.Images = append(b.Images, im)
		}
	}
	// Ink: the box less its edges and the caption's band (a caption
	// underline, a rule under the caption row).
	if s.Page.Ink != nil {
		pad := max(2.0, 1.5*s.Page.Width/256, 1.5*s.Page.Height/256)
		area := shrink(b.Box, pad)
		band := layout.Box{X0: area.X0, X1: area.X1, Y0: cb.Y0 - pad, Y1: cb.Y1 + pad}
		b.InkCells = s.Page.Ink.Cells(toPdfBox(area)) - s.Page.Ink.Cells(toPdfBox(intersect(band, area)))
	}
	for _, sg := range s.Page.Signatures {
		sb := layout.Box{X0: sg.X0, Y0: sg.Y0, X1: sg.X1, Y1: sg.Y1}
		if sb.Width() <= 0 || sb.Height() <= 0 || overlapArea(sb, b.Box) > 0 {
			b.Signed = true
		}
	}
	b.State = SealEmpty
	if len(b.ContentWords) > 0 || len(b.Images) > 0 || b.InkCells >= sealInkCells || b.Signed {
		b.State = SealFilled
	}
}

// cellAround finds the box of drawn rules around a word: the nearest walls
// left and right of it, then the nearest rules above and below that span
// most of the width between them, then checks that the walls span most of
// the height between those. Collinear pieces of a rule count together.
func cellAround(segs []pdftext.Segment, wb layout.Box) (layout.Box, bool) {
	const tol = 1.0
	hs, vs := rules(segs)
	cy := wb.CenterY()
	left, right := math.Inf(-1), math.Inf(1)
	for _, v := range vs {
		if v.lo > cy || v.hi < cy {
			continue
		}
		if v.at <= wb.X0+tol && v.at > left {
			left = v.at
		}
		if v.at >= wb.X1-tol && v.at < right {
			right = v.at
		}
	}
	if math.IsInf(left, 0) || math.IsInf(right, 0) {
		return layout.Box{}, false
	}
	top, bottom := math.Inf(-1), math.Inf(1)
	for _, r := range hs {
		if cover(hs, r.at, left, right) < ruleCover {
			continue
		}
		if r.at <= wb.Y0+tol && r.at > top {
			top = r.at
		}
		if r.at >= wb.Y1-tol && r.at < bottom {
			bottom = r.at
		}
	}
	if math.IsInf(top, 0) || math.IsInf(bottom, 0) {
		return layout.Box{}, false
	}
	if cover(vs, left, top, bottom) < ruleCover || cover(vs, right, top, bottom) < ruleCover {
		return layout.Box{}, false
	}
	return layout.Box{X0: left, Y0: top, X1: right, Y1: bottom}, true
}

// adjacentCell is the cell below (dir +1) or above (dir -1) a cell,
// between the same walls: from its bottom (top) rule to the next rule
// that spans most of its width.
func adjacentCell(segs []pdftext.Segment, cell layout.Box, dir int) (layout.Box, bool) {
	hs, vs := rules(segs)
	edge := cell.Y1
	if dir < 0 {
		edge = cell.Y0
	}
	next := math.Inf(dir)
	for _, r := range hs {
		if cover(hs, r.at, cell.X0, cell.X1) < ruleCover {
			continue
		}
		if dir > 0 && r.at > edge+1 && r.at < next || dir < 0 && r.at < edge-1 && r.at > next {
			next = r.at
		}
	}
	if math.IsInf(next, 0) {
		return layout.Box{}, false
	}
	out := layout.Box{X0: cell.X0, X1: cell.X1, Y0: min(edge, next), Y1: max(edge, next)}
	if cover(vs, out.X0, out.Y0, out.Y1) < ruleCover || cover(vs, out.X1, out.Y0, out.Y1) < ruleCover {
		return layout.Box{}, false
	}
	return out, true
}

// rule is a drawn straight rule: horizontal at y = at from lo to hi, or
// vertical at x = at.
type rule struct{ at, lo, hi float64 }

// rules splits the page's segments into horizontal and vertical rules.
func rules(segs []pdftext.Segment) (hs, vs []rule) {
	for _, g := range segs {
		switch {
		case math.Abs(g.Y0-g.Y1) < 0.5:
			hs = append(hs, rule{(g.Y0 + g.Y1) / 2, min(g.X0, g.X1), max(g.X0, g.X1)})
		case math.Abs(g.X0-g.X1) < 0.5:
			vs = append(vs, rule{(g.X0 + g.X1) / 2, min(g.Y0, g.Y1), max(g.Y0, g.Y1)})
		}
	}
	return hs, vs
}

// cover is the share of [lo, hi] the rules at `at` (within half a point)
// cover, gaps of up to two points between pieces bridged.
func cover(rs []rule, at, lo, hi float64) float64 {
	if hi <= lo {
		return 0
	}
	var spans [][2]float64
	for _, r := range rs {
		if math.Abs(r.at-at) <= 0.5 && r.hi > lo && r.lo < hi {
			spans = append(spans, [2]float64{max(r.lo, lo), min(r.hi, hi)})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	covered := 0.0
	for i := 0; i < len(spans); {
		a, b := spans[i][0], spans[i][1]
		j := i + 1
		for ; j < len(spans) && spans[j][0] <= b+2; j++ {
			b = max(b, spans[j][1])
		}
		covered += b - a
		i = j
	}
	return min(1, covered/(hi-lo))
}

func shrink(b layout.Box, d float64) layout.Box {
	return layout.Box{X0: b.X0 + d, Y0: b.Y0 + d, X1: b.X1 - d, Y1: b.Y1 - d}
}

func intersect(a, b layout.Box) layout.Box {
	out := layout.Box{X0: max(a.X0, b.X0), Y0: max(a.Y0, b.Y0), X1: min(a.X1, b.X1), Y1: min(a.Y1, b.Y1)}
	if out.X1 <= out.X0 || out.Y1 <= out.Y0 {
		return layout.Box{}
	}
	return out
}

func overlapArea(a, b layout.Box) float64 {
	i := intersect(a, b)
	return i.Width() * i.Height()
}

func toPdfBox(b layout.Box) pdftext.Box { return pdftext.Box{X0: b.X0, Y0: b.Y0, X1: b.X1, Y1: b.Y1} }

// wordsText joins the words' texts.
func wordsText(p *pdftext.Page, words []int) string {
	parts := make([]string, 0, len(words))
	for _, w := range words {
		parts = append(parts, p.Words[w].Text)
	}
	return strings.Join(parts, " ")
}
