package pdftext

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Word-breaking constants, the same as poppler's TextOutputDev so that word
// boundaries agree with pdftotext: a gap wider than minWordBreakSpace × font
// size starts a new word, a glyph drawn back onto the previous one (fake
// bold, overprinting) starts one too.
const (
	minWordBreakSpace  = 0.1
	minDupBreakOverlap = 0.2
	dupMaxPriDelta     = 0.1
	dupMaxSecDelta     = 0.2
	maxBaseDrift       = 0.5 // points of baseline change that still continue a word
)

// rawWord is a word in device space (displayed page, top-left origin).
type rawWord struct {
	rot                    int // 0–3: text direction in quarter turns
	vertical               bool
	xMin, xMax, yMin, yMax float64
	base                   float64
	lastEdge               float64 // start of the last glyph along the text direction
	fontSize               float64
	ascent, descent        float64 // of the font, per unit of font size
	font                   *font
	// charStart and charEnd delimit the word's glyphs in drawing order;
	// words that touch in that order may be merged back (see mergeWords).
	charStart, charEnd int
	// angle is the true baseline direction in degrees (rot rounds it to
	// quarter turns); bx0…by1 the baseline from the first glyph's origin
	// to the last glyph's advance, in device space.
	angle              float64
	bx0, by0, bx1, by1 float64
	// The word's text is wordBuilder.text[textStart:textEnd] while the
	// page is read (one buffer for the page, written by one word at a
	// time), and text once finish has made the page's string.
	textStart, textEnd int
	text               string
	n                  int
}

// wordBuilder turns placed glyphs into words the way poppler does.
type wordBuilder struct {
	device        matrix // user space → displayed page
	width, height float64
	cur           *rawWord
	lastOverlap   bool
	words         []*rawWord
	text          []byte // the text of every word, in the order drawn
	slab          []rawWord
	scratch       *pageScratch // the reader's buffers for finish
	charPos       int          // glyphs seen on the page, in drawing order
	dropped       bool         // words beyond maxWordsPerPage were dropped: a hostile page
	actual        *actualSpan
	// hidden counts the open marked-content spans of layers that are off:
	// their glyphs advance the text position but make no words.
	hidden int
}

// actualSpan collects the glyphs of a marked-content span with an
// /ActualText: like poppler, the span's text is placed once, over the
// extent of all its glyphs, when the span closes.
type actualSpan struct {
	text              string
	started           bool
	x0, y0, x1, y1    float64
	fontSize, rawSize float64
	trm               matrix
	font              *font
}

func (wb *wordBuilder) inActualText() bool { return wb.actual != nil }

func (wb *wordBuilder) beginActualText(text string) { wb.actual = &actualSpan{text: text} }

func (wb *wordBuilder) endActualText() {
	a := wb.actual
	wb.actual = nil
	if a == nil || !a.started {
		return
	}
	wb.place(a.text, a.x0, a.y0, a.x1-a.x0, a.y1-a.y0, a.fontSize, a.trm, a.font, a.rawSize, true)
}

// isSpaceText reports whether a glyph's text is one white-space character,
// which ends a word instead of joining it.
func isSpaceText(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	if size != len(s) || size == 0 {
		return false
	}
	return unicode.IsSpace(r) || r == 0x200B || r == 0x3000 || r == 0xA0
}

// addChar places one glyph: x, y is its origin on the device, dx, dy its
// advance without character and word spacing, fontSize the device font size.
// The rules are poppler's (TextPage::addChar), so words split where
// pdftotext splits them.
func (wb *wordBuilder) addChar(text string, x, y, dx, dy, fontSize float64, trm matrix, f *font, rawSize float64) {
	if wb.hidden > 0 {
		return
	}
	if a := wb.actual; a != nil {
		if !a.started {
			a.started, a.x0, a.y0 = true, x, y
		}
		a.x1, a.y1 = x+dx, y+dy
		a.fontSize, a.rawSize, a.trm, a.font = fontSize, rawSize, trm, f
		return
	}
	wb.place(text, x, y, dx, dy, fontSize, trm, f, rawSize, false)
}

// place adds one glyph's text (or an ActualText span's) to the words.
func (wb *wordBuilder) place(text string, x, y, dx, dy, fontSize float64, trm matrix, f *font, rawSize float64, actual bool) {
	pos := wb.charPos
	wb.charPos++
	if !finite(x) || !finite(y) || !finite(dx) || !finite(dy) {
		return
	}
	if x+dx < 0 || x > wb.width || y+dy < 0 || y > wb.height {
		return // off the page: poppler drops these too
	}
	if isSpaceText(text) || (actual && strings.TrimSpace(text) == "") {
		wb.endWord()
		return
	}
	if text == "\x00" {
		return
	}
	if wb.cur != nil && wb.cur.n > 0 {
		w := wb.cur
		var base, sp, delta float64
		switch w.rot {
		case 0:
			base, sp, delta = y, x-w.xMax, x-w.lastEdge
		case 1:
			base, sp, delta = x, y-w.yMax, y-w.lastEdge
		case 2:
			base, sp, delta = y, w.xMin-x, w.lastEdge-x
		case 3:
			base, sp, delta = x, w.yMin-y, w.lastEdge-y
		}
		overlap := abs(delta) < dupMaxPriDelta*w.fontSize && abs(base-w.base) < dupMaxSecDelta*w.fontSize
		if overlap || wb.lastOverlap || sp < -minDupBreakOverlap*w.fontSize || sp > minWordBreakSpace*w.fontSize ||
			abs(base-w.base) > maxBaseDrift || fontSize != w.fontSize || f.vertical != w.vertical {
			wb.endWord()
		}
		wb.lastOverlap = overlap
	} else {
		wb.lastOverlap = false
	}
	if text == "" {
		return // no Unicode: breaks words like a glyph, adds nothing
	}
	if wb.cur == nil {
		wb.beginWord(trm, f, rawSize, fontSize)
	}
	// Text drawn backwards (mirrored or rotated against its direction):
	// each glyph becomes a word of its own, with its box turned around.
	if r := wb.cur.rot; (r == 0 && dx < 0) || (r == 1 && dy < 0) || (r == 2 && dx > 0) || (r == 3 && dy > 0) {
		wb.endWord()
		wb.beginWord(trm, f, rawSize, fontSize)
		x, y, dx, dy = x+dx, y+dy, -dx, -dy
	}
	if wb.cur.n == 0 {
		wb.cur.charStart = pos
	}
	wb.cur.charEnd = pos + 1
	n := utf8.RuneCountInString(text)
	if n > 1 {
		dx /= float64(n)
		dy /= float64(n)
	}
	for _, r := range text {
		wb.cur.addRune(r, x, y, dx, dy)
		wb.text = utf8.AppendRune(wb.text, r)
		x += dx
		y += dy
	}
	wb.cur.textEnd = len(wb.text)
}

func (wb *wordBuilder) beginWord(trm matrix, f *font, rawSize, fontSize float64) {
	m := [4]float64{trm[0] * rawSize, trm[1] * rawSize, trm[2] * rawSize, trm[3] * rawSize}
	if f.kind == fontType3 {
		fm := f.fontMatrix
		m = [4]float64{
			fm[0]*m[0] + fm[1]*m[2], fm[0]*m[1] + fm[1]*m[3],
			fm[2]*m[0] + fm[3]*m[2], fm[2]*m[1] + fm[3]*m[3],
		}
	}
	rot := 0
	if abs(m[0]*m[3]) > abs(m[1]*m[2]) {
		if !(m[0] > 0 || m[3] < 0) {
			rot = 2
		}
	} else if m[2] > 0 {
		rot = 1
	} else {
		rot = 3
	}
	// The baseline's true direction: text space x on the device (y down,
	// so counter-clockwise is -y), or text space -y for vertical fonts.
	angle := math.Atan2(-m[1], m[0])
	if f.vertical {
		rot = (rot + 1) & 3
		angle = math.Atan2(m[3], -m[2])
	}
	wb.cur = wb.newWord()
	*wb.cur = rawWord{rot: rot, vertical: f.vertical, fontSize: fontSize, font: f, angle: normAngle(angle * 180 / math.Pi),
		textStart: len(wb.text), textEnd: len(wb.text)}
	wb.cur.ascent, wb.cur.descent = f.ascent, f.descent
}

// newWord takes a word from a slab: words come in their thousands per
// page and are allocated a growing chunk at a time, not one by one.
func (wb *wordBuilder) newWord() *rawWord {
	if len(wb.slab) == cap(wb.slab) {
		wb.slab = make([]rawWord, 0, min(max(2*cap(wb.slab), 16), 1024))
	}
	wb.slab = wb.slab[:len(wb.slab)+1]
	return &wb.slab[len(wb.slab)-1]
}

func (w *rawWord) addRune(r rune, x, y, dx, dy float64) {
	if w.n == 0 {
		w.setInitialBounds(x, y)
		w.bx0, w.by0 = x, y
	}
	w.bx1, w.by1 = x+dx, y+dy
	fs := w.fontSize
	if w.vertical {
		switch w.rot {
		case 0:
			w.lastEdge, w.xMax = x-fs, x
		case 1:
			w.lastEdge, w.yMax = y-fs, y
		case 2:
			w.lastEdge, w.xMin = x+fs, x
		case 3:
			w.lastEdge, w.yMin = y+fs, y
		}
	} else {
		switch w.rot {
		case 0:
			w.lastEdge, w.xMax = x, x+dx
		case 1:
			w.lastEdge, w.yMax = y, y+dy
		case 2:
			w.lastEdge, w.xMin = x, x+dx
		case 3:
			w.lastEdge, w.yMin = y, y+dy
		}
	}
	w.n++
}

func (w *rawWord) setInitialBounds(x, y float64) {
	asc, desc, fs := w.ascent*w.fontSize, w.descent*w.fontSize, w.fontSize
	if w.vertical {
		switch w.rot {
		case 0:
			w.xMin, w.yMin, w.yMax = x-fs, y-fs, y
		case 1:
			w.xMin, w.yMin, w.xMax = x, y-fs, x+fs
		case 2:
			w.yMin, w.xMin, w.xMax = y, x, x+fs
		case 3:
			w.xMax, w.yMin, w.yMax = x+fs, y, y+fs
		}
		w.base = y
		if w.rot == 1 || w.rot == 3 {
			w.base = x
		}
		return
	}
	switch w.rot {
	case 0:
		w.xMin, w.xMax, w.yMin, w.yMax, w.base = x, x, y-asc, y-desc, y
		if w.yMin == w.yMax {
			w.yMin, w.yMax = y, y+1
		}
	case 1:
		w.xMin, w.xMax, w.yMin, w.yMax, w.base = x+desc, x+asc, y, y, x
		if w.xMin == w.xMax {
			w.xMin, w.xMax = x, x+1
		}
	case 2:
		w.xMin, w.xMax, w.yMin, w.yMax, w.base = x, x, y+desc, y+asc, y
		if w.yMin == w.yMax {
			w.yMin, w.yMax = y, y+1
		}
	case 3:
		w.xMin, w.xMax, w.yMin, w.yMax, w.base = x-asc, x-desc, y, y, x
		if w.xMin == w.xMax {
			w.xMin, w.xMax = x, x+1
		}
	}
}

func (wb *wordBuilder) endWord() {
	w := wb.cur
	wb.cur = nil
	if w == nil || w.n == 0 {
		return
	}
	if len(wb.words) >= maxWordsPerPage {
		wb.dropped = true
		return
	}
	wb.words = append(wb.words, w)
}

// dedupe removes words drawn twice at (nearly) the same place, such as fake
// bold or overprinted labels, as poppler does before output. The words
// kept of each text and direction are chained (seen holds the last one's
// index, chain the one before), in maps and slices the reader keeps.
func (wb *wordBuilder) dedupe() []*rawWord {
	sc := wb.scratch
	if sc.seen == nil {
		sc.seen = map[dedupeKey]int{}
	}
	seen, chain := sc.seen, sc.chain[:0]
	words := wb.words
	out := words[:0]
	for _, w := range words {
		k := dedupeKey{w.text, w.rot}
		head, ok := seen[k]
		if !ok {
			head = -1
		}
		dup := false
		for i := head; i >= 0; i = chain[i] {
			o := out[i]
			px, py := dupMaxPriDelta*o.fontSize, dupMaxSecDelta*o.fontSize
			if o.rot == 1 || o.rot == 3 {
				px, py = py, px
			}
			if abs(o.xMin-w.xMin) < px && abs(o.xMax-w.xMax) < px && abs(o.yMin-w.yMin) < py && abs(o.yMax-w.yMax) < py {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		chain = append(chain, head)
		seen[k] = len(out)
		out = append(out, w)
	}
	if len(seen) > scratchKeys {
		sc.seen = nil // a map keeps its size: not a hostile page's
	} else {
		clear(seen)
	}
	sc.chain = keptScratch(chain)
	return out
}

type dedupeKey struct {
	text string
	rot  int
}

// scratchKeys bounds the words' map kept between pages.
const scratchKeys = 1 << 14

// Poppler's line-level merge (TextLine::coalesce): words split only by the
// overlap rule or a small baseline drift, but drawn one right after the
// other in the same font, are joined again when the gap between them is
// below the line's space threshold.
const (
	maxCharSpacing        = 0.03
	maxWideCharSpacingMul = 1.3
	maxWideCharSpacing    = 0.4
	maxIntraLineDelta     = 0.5
	maxWordFontSizeDelta  = 0.05
	// minCharSpacing: a word overlapping the previous one by more than
	// this (× font size) starts a new line in poppler, so never merges.
	minCharSpacing = -0.5
	// maxWordSpacing: the largest gap (× font size) across which poppler
	// pulls the next word into a line.
	maxWordSpacing = 1.5
)

func primaryDelta(a, b *rawWord) float64 {
	switch a.rot {
	case 1:
		return b.yMin - a.yMax
	case 2:
		return a.xMin - b.xMax
	case 3:
		return a.yMin - b.yMax
	}
	return b.xMin - a.xMax
}

// primaryStart is where a word starts along its text direction.
func primaryStart(w *rawWord) float64 {
	switch w.rot {
	case 1:
		return w.yMin
	case 2:
		return -w.xMax
	case 3:
		return -w.yMax
	}
	return w.xMin
}

// mergeable reports whether b follows a on the same line (the line of
// first) directly, in drawing order and along the text direction (poppler
// sorts a line's words by position and only merges neighbours).
func mergeable(first, a, b *rawWord) bool {
	return b.charStart == a.charEnd && primaryStart(b) >= primaryStart(a) &&
		primaryDelta(a, b) >= minCharSpacing*a.fontSize && a.rot == b.rot && a.font == b.font && a.vertical == b.vertical &&
		abs(a.fontSize-b.fontSize) < maxWordFontSizeDelta*a.fontSize &&
		abs(first.base-b.base) <= maxIntraLineDelta*first.fontSize
}

func mergeWords(words []*rawWord, page string) []*rawWord {
	byBase := slices.Clone(words)
	slices.SortFunc(byBase, func(a, b *rawWord) int {
		if a.rot != b.rot {
			return a.rot - b.rot
		}
		return cmp.Compare(a.base, b.base)
	})
	out := words[:0]
	for i := 0; i < len(words); {
		// A chain of words drawn back to back on one line.
		j := i + 1
		for j < len(words) && mergeable(words[i], words[j-1], words[j]) {
			j++
		}
		chain := words[i:j]
		space := maxCharSpacing * chain[0].fontSize
		if len(chain) > 1 && chain[0].n == 1 && chain[1].n == 1 {
			if minSpace := lineMinSpace(byBase, chain); minSpace > 0 {
				space = min(maxWideCharSpacingMul*minSpace, maxWideCharSpacing*chain[0].fontSize)
			}
		}
		cur := chain[0]
		for _, next := range chain[1:] {
			if primaryDelta(cur, next) < space {
				cur.merge(next, page)
				continue
			}
			out = append(out, cur)
			cur = next
		}
		out = append(out, cur)
		i = j
	}
	return out
}

// lineMinSpace approximates poppler's inter-word space estimate for the
// line holding chain: the smallest gap between neighbouring words of the
// line, or 0 when any of them has several characters or two overlap. Only
// a line made of spaced single characters (a letter-spaced title) gets the
// wide merge threshold. The line is the run of words on the chain's
// baseline (within maxIntraLineDelta) whose gaps stay below poppler's
// maxWordSpacing, the limit for pulling a word into a line.
func lineMinSpace(byBase []*rawWord, chain []*rawWord) float64 {
	first := chain[0]
	fs := first.fontSize
	// byBase is sorted by direction, then baseline: the line's candidates
	// are one window of it.
	start, _ := slices.BinarySearchFunc(byBase, first, func(w, f *rawWord) int {
		if w.rot != f.rot {
			return w.rot - f.rot
		}
		return cmp.Compare(w.base, f.base-maxIntraLineDelta*fs)
	})
	var cands []*rawWord
	for _, w := range byBase[start:] {
		if w.rot != first.rot || w.base > first.base+maxIntraLineDelta*fs {
			break
		}
		cands = append(cands, w)
	}
	slices.SortFunc(cands, func(a, b *rawWord) int { return cmp.Compare(primaryStart(a), primaryStart(b)) })
	at := slices.Index(cands, first)
	if at < 0 {
		return 0
	}
	linked := func(a, b *rawWord) bool {
		d := primaryDelta(a, b)
		return d >= minCharSpacing*fs && d < maxWordSpacing*fs
	}
	lo, hi := at, at
	for lo > 0 && linked(cands[lo-1], cands[lo]) {
		lo--
	}
	for hi+1 < len(cands) && linked(cands[hi], cands[hi+1]) {
		hi++
	}
	line := cands[lo : hi+1]
	minSpace := math.Inf(1)
	for k, w := range line {
		if w.n > 1 {
			return 0
		}
		if k > 0 {
			minSpace = min(minSpace, primaryDelta(line[k-1], w))
		}
	}
	if math.IsInf(minSpace, 1) {
		return 0
	}
	return minSpace
}

// merge appends o to w; page is the page's text, of which both words'
// texts are pieces: when o's follows w's there, w's grows in place.
func (w *rawWord) merge(o *rawWord, page string) {
	w.xMin, w.xMax = min(w.xMin, o.xMin), max(w.xMax, o.xMax)
	w.yMin, w.yMax = min(w.yMin, o.yMin), max(w.yMax, o.yMax)
	if w.textEnd == o.textStart && w.textStart >= 0 {
		w.text, w.textEnd = page[w.textStart:o.textEnd], o.textEnd
	} else {
		w.text, w.textStart, w.textEnd = w.text+o.text, -1, -1
	}
	w.n += o.n
	w.charEnd = o.charEnd
	w.lastEdge = o.lastEdge
	w.bx1, w.by1 = o.bx1, o.by1
}

// normAngle brings degrees into [0, 360), to 0.01°, with angles within
// 0.01° of a quarter turn snapped onto it (rounding noise of the matrix).
func normAngle(deg float64) float64 {
	if !finite(deg) {
		return 0
	}
	deg = math.Mod(deg, 360)
	if deg < 0 {
		deg += 360
	}
	deg = math.Round(deg*100) / 100
	if q := math.Round(deg/90) * 90; math.Abs(deg-q) <= 0.01 {
		deg = q
	}
	if deg >= 360 {
		deg -= 360
	}
	return deg
}
