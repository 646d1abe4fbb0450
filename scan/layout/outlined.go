package layout

import (
	"math"
	"math/bits"
	"slices"
	"sync"
	"unicode/utf8"

	"planreview/scan/pdftext"
)

// Text drawn as outlines (glyphs converted to paths, SHX fonts stroked as
// lines) leaves no words in the text layer, only many small painted
// paths. Found on each page as it is laid out, in the extraction workers,
// where its small paths are fresh; the pipeline lets them go after.

// An OutlinedText region is text drawn as strokes or glyph outlines with
// no words of the text layer over it: lines of small marks of one height,
// set close along a baseline, in three or more stroke directions. Its
// text could not be read.
type OutlinedText struct {
	Box   Box // displayed points
	Lines int
	// Chars estimates the characters the region holds (its lines'
	// length over their height): what it weighs against the words read.
	Chars int
}

// Shape of a line of outlined text.
const (
	// minLineMarks: a line is at least a short word's worth of strokes.
	minLineMarks = 6
	// minLineLength: a line is at least this many times its height long.
	minLineLength = 3.0
	// minLineHeight (points): below, marks are hatching dots and ticks.
	minLineHeight = 1.5
	// minDirections: glyphs go three ways or more (a capital A, a 4, a
	// K); hatching goes one way, a grid or a table's rules two.
	minDirections = 3
	// maxOneKind: in tenths, the most of a line's marks that may be
	// strokes of one and the same direction.
	maxOneKind = 6
	// minCover: the share of a line's length its marks cover.
	minCover = 0.45
)

// mark is a small path seen along one axis: a runs along the line, b
// across it (x and y for a horizontal line, y and x for a turned one).
// float32s, as the extractor records them: a page holds tens of
// thousands, swept twice.
type mark struct {
	a0, b0, a1, b1 float32
	shape          uint8
}

// turn is the mark seen up the page.
func (m mark) turn() mark {
	return mark{a0: m.b0, b0: m.a0, a1: m.b1, b1: m.a1, shape: turnShape(m.shape)}
}

// textLine is a line of marks being built, and then judged.
type textLine struct {
	a0, b0, a1, b1 float64
	marks          int32
	curvedFilled   int32
	shape          uint8
	// size is the line's height across it (set when it is kept).
	size float64
}

// lineCounts are what the second sweep counts of a line's marks.
type lineCounts struct {
	spanning, wide int32
	// covered is the length of the line its marks cover, up to coverEnd.
	covered, coverEnd float64
	// byDirections counts the marks by the directions of their pieces.
	byDirections [16]int32
}

func (l *textLine) height() float64 { return l.b1 - l.b0 }

// FindOutlinedText finds the page's regions of text drawn as strokes or
// outlines: its small painted paths away from the text layer's words, put
// into lines read across and read up the page, the lines that look like
// text grouped into regions.
func FindOutlinedText(p *pdftext.Page) []OutlinedText {
	if p == nil || len(p.SmallPaths) < minLineMarks {
		return nil
	}
	sc := outlinePool.Get().(*outlineScratch)
	defer outlinePool.Put(sc)
	return outlinedIn(unworded(p, sc), sc)
}

// PartlyOutlined returns the page's regions of outlined text when they
// are a meaningful share of its text (minOutlinedShare), else nil. A
// line of outlined text holds no more characters than marks (textShaped:
// a stroke per character at least), so a page whose marks outside the
// words are too few to make that share is told at once, without the
// line search, which is most of the work on a drawing of many small
// paths.
func PartlyOutlined(p *pdftext.Page) []OutlinedText {
	if p == nil || len(p.SmallPaths) < minLineMarks {
		return nil
	}
	sc := outlinePool.Get().(*outlineScratch)
	defer outlinePool.Put(sc)
	marks := unworded(p, sc)
	if float64(len(marks)) < minOutlinedShare/(1-minOutlinedShare)*float64(readChars(p)) {
		return nil
	}
	regions := outlinedIn(marks, sc)
	if outlinedShare(p, regions) < minOutlinedShare {
		return nil
	}
	return regions
}

// outlineScratch holds the search's working arrays, reused from page to
// page and from one pass to the next: a page of tens of thousands of small
// paths, searched in the extraction workers while other pages are read,
// would otherwise add some 15 MB of garbage to the heap at its peak.
// Nothing the search returns points into it.
type outlineScratch struct {
	marks   []mark
	buckets [][]int32
	boxes   []Box
	used    []bool
	keys    []uint64
	tmp     []uint64
	sorted  []mark
	open    [][]openLine
	lines   []textLine
	at      []linePlace
	lineOf  []int32
	countOf []int32
	counts  []lineCounts
}

var outlinePool = sync.Pool{New: func() any { return &outlineScratch{} }}

// openLine is an open line's entry in its band's bucket: what the sweep
// tests, so that the lines themselves are touched only to grow.
type openLine struct {
	b0, b1, a1, reach float64
	line              int32
}

// linePlace is where a line's entry is: its bucket and its place in it.
type linePlace struct{ bucket, slot int32 }

// outlinedIn finds the regions of text among marks.
func outlinedIn(marks []mark, sc *outlineScratch) []OutlinedText {
	if len(marks) < minLineMarks {
		return nil
	}
	// Lines across the page first: a paragraph's letters stacked one
	// above the other are no line up the page.
	used := zeroed(&sc.used, len(marks))
	lines := textLines(marks, used, false, sc)
	lines = append(lines, textLines(marks, used, true, sc)...)
	return outlinedRegions(lines)
}

// unworded is the page's small paths that no word of the text layer
// covers, along the x axis (a along x, b along y).
func unworded(p *pdftext.Page, sc *outlineScratch) []mark {
	const cell = 32.0 // points: a bucket of the word index
	pw, ph := p.Width, p.Height
	if !(pw > 0 && ph > 0) {
		pw, ph = 1000, 1000 // as the set reading scales a page with no size
	}
	cols, rows := int(pw/cell)+1, int(ph/cell)+1
	if cap(sc.buckets) < cols*rows {
		sc.buckets = make([][]int32, cols*rows)
	}
	buckets := sc.buckets[:cols*rows]
	for i := range buckets {
		buckets[i] = buckets[i][:0]
	}
	boxes := zeroed(&sc.boxes, len(p.Words))
	for i := range p.Words {
		b := wordBox(p.Words[i].BBox, pw, ph)
		grow := 0.2 * min(b.Width(), b.Height())
		b = Box{X0: b.X0 - grow, Y0: b.Y0 - grow, X1: b.X1 + grow, Y1: b.Y1 + grow}
		boxes[i] = b
		for r := max(int(b.Y0/cell), 0); r <= min(int(b.Y1/cell), rows-1); r++ {
			for c := max(int(b.X0/cell), 0); c <= min(int(b.X1/cell), cols-1); c++ {
				buckets[r*cols+c] = append(buckets[r*cols+c], int32(i))
			}
		}
	}
	out := sc.marks[:0]
	if cap(out) < len(p.SmallPaths) {
		out = make([]mark, 0, len(p.SmallPaths))
	}
next:
	for _, s := range p.SmallPaths {
		x, y := float64(s.X0+s.X1)/2, float64(s.Y0+s.Y1)/2
		c, r := int(x/cell), int(y/cell)
		if c >= 0 && r >= 0 && c < cols && r < rows {
			for _, w := range buckets[r*cols+c] {
				if boxes[w].ContainsPoint(x, y) {
					continue next
				}
			}
		}
		out = append(out, mark{a0: s.X0, b0: s.Y0, a1: s.X1, b1: s.Y1, shape: s.Shape})
	}
	sc.marks = out
	return out
}

// textLines puts the marks not yet used into lines along one axis
// (turned: up the page), keeps those shaped like text and marks their
// marks used.
func textLines(marks []mark, used []bool, turned bool, sc *outlineScratch) []textLine {
	// The marks not used, in order of where they start along the axis
	// (ties in the page's order), copied out contiguous for the sweeps.
	keys := sc.keys[:0]
	if cap(keys) < len(marks) {
		keys = make([]uint64, 0, len(marks))
	}
	for i := range marks {
		if !used[i] {
			a := marks[i].a0
			if turned {
				a = marks[i].b0
			}
			keys = append(keys, uint64(orderedBits(a))<<32|uint64(i))
		}
	}
	sc.keys = keys
	if len(keys) > 0 {
		keys = radixSort(keys, zeroed(&sc.tmp, len(keys)), 32)
	}
	sorted := zeroed(&sc.sorted, len(keys))
	for k, key := range keys {
		m := marks[uint32(key)]
		if turned {
			m = m.turn()
		}
		sorted[k] = m
	}
	const band = 4.0 // points: a bucket of open lines by their middle
	bandOf := func(m *mark) int { return int(math.Floor((float64(m.b0) + float64(m.b1)) / 2 / band)) }
	// The buckets of open lines, by band across the axis: a slice over
	// the marks' extent, two spare bands either side.
	lo, hi := 0, -1
	for k := range sorted {
		b := bandOf(&sorted[k])
		if k == 0 || b < lo {
			lo = b
		}
		if k == 0 || b > hi {
			hi = b
		}
	}
	bands := max(hi-lo+5, 0)
	if cap(sc.open) < bands {
		sc.open = make([][]openLine, bands)
	}
	open := sc.open[:bands]
	for i := range open {
		open[i] = open[i][:0]
	}
	lines := sc.lines[:0]
	at := sc.at[:0]
	lineOf := zeroed(&sc.lineOf, len(sorted))
	for k := range sorted {
		m := &sorted[k]
		a0, b0, a1, b1 := float64(m.a0), float64(m.b0), float64(m.a1), float64(m.b1)
		c := bandOf(m) - lo + 2
		best, bestA1 := int32(-1), 0.0
		for kk := c - 2; kk <= c+2; kk++ {
			bucket := open[kk]
			for j := 0; j < len(bucket); j++ {
				e := &bucket[j]
				if e.reach < a0 {
					// Marks come in order along the axis: a line this far
					// behind is closed for good.
					last := bucket[len(bucket)-1]
					bucket[j] = last
					at[last.line].slot = int32(j)
					bucket = bucket[:len(bucket)-1]
					j--
					continue
				}
				if joins(e.b0, e.b1, b0, b1) && (best < 0 || e.a1 > bestA1) {
					best, bestA1 = e.line, e.a1
				}
			}
			open[kk] = bucket
		}
		if best < 0 {
			best = int32(len(lines))
			lines = append(lines, textLine{a0: a0, b0: b0, a1: a1, b1: b1})
			at = append(at, linePlace{int32(c), int32(len(open[c]))})
			open[c] = append(open[c], openLine{line: best})
		}
		lineOf[k] = best
		l := &lines[best]
		l.a0, l.b0, l.a1, l.b1 = min(l.a0, a0), min(l.b0, b0), max(l.a1, a1), max(l.b1, b1)
		e := &open[at[best].bucket][at[best].slot]
		e.b0, e.b1, e.a1, e.reach = l.b0, l.b1, l.a1, l.a1+maxGap(l)
		l.marks++
		l.shape |= m.shape
		if m.shape&(pdftext.ShapeCurved|pdftext.ShapeFilled) == pdftext.ShapeCurved|pdftext.ShapeFilled {
			l.curvedFilled++
		}
	}
	sc.lines, sc.at = lines, at
	// With the lines' bands known: the marks that span the band, top to
	// bottom (a capital's stems and diagonals), and those wider than a
	// character. Most lines are a stray mark or two: only those long
	// enough to be kept are counted (countOf: their place in counts, else
	// -1; after judging, -1 for every line not kept).
	countOf := zeroed(&sc.countOf, len(lines))
	candidates := 0
	for li := range lines {
		countOf[li] = -1
		if lines[li].marks >= minLineMarks {
			countOf[li] = int32(candidates)
			candidates++
		}
	}
	counts := zeroed(&sc.counts, candidates)
	for k := range sorted {
		li := lineOf[k]
		if countOf[li] < 0 {
			continue
		}
		l := &lines[li]
		m, n := &sorted[k], &counts[countOf[li]]
		a0, b0, a1, b1 := float64(m.a0), float64(m.b0), float64(m.a1), float64(m.b1)
		// The marks come in order along the line: the length they cover.
		if a0 > n.coverEnd || n.covered == 0 {
			n.covered += a1 - a0
			n.coverEnd = a1
		} else if a1 > n.coverEnd {
			n.covered += a1 - n.coverEnd
			n.coverEnd = a1
		}
		n.byDirections[m.shape&pdftext.ShapeDirections]++
		h, tol := l.height(), 0.15*l.height()
		// A comma or a quote may stretch the band at one edge: a stroke
		// spans it standing on one edge and reaching nearly the other.
		if mh := b1 - b0; mh >= 0.75*h && (b0-l.b0 <= tol || l.b1-b1 <= tol) {
			n.spanning++
		}
		if a1-a0 > 1.2*h {
			n.wide++
		}
	}
	var kept []textLine
	for li := range lines {
		l := lines[li]
		if countOf[li] < 0 || !textShaped(&l, &counts[countOf[li]]) {
			countOf[li] = -1
			continue
		}
		l.size = l.height()
		if turned {
			l.a0, l.b0, l.a1, l.b1 = l.b0, l.a0, l.b1, l.a1
		}
		kept = append(kept, l)
	}
	for k, key := range keys {
		if countOf[lineOf[k]] >= 0 {
			used[uint32(key)] = true
		}
	}
	return kept
}

// orderedBits maps a float32 to a uint32 in the same order (negatives
// below positives), for a radix sort.
func orderedBits(f float32) uint32 {
	u := math.Float32bits(f)
	if u&(1<<31) != 0 {
		return ^u
	}
	return u | 1<<31
}

// maxGap is the widest space a line's next mark may leave: a word space.
func maxGap(l *textLine) float64 { return max(1.5, 1.6*l.height()) }

// joins reports whether a mark across mb0-mb1, starting within a
// letter space of a line's end, continues the line across lb0-lb1: it
// lies in the line's band, which it may widen only a little.
func joins(lb0, lb1, mb0, mb1 float64) bool {
	h, mh := lb1-lb0, mb1-mb0
	// A mark with height of its own (not a bar, a dash or a dot) is of
	// the line's size: a 4 pt word does not run into the 10 pt bubble
	// in front of it.
	if mh >= minLineHeight && h >= minLineHeight && (mh < 0.6*h || mh > 1.5*h) {
		return false
	}
	// The band the two make, and the taller of the two; plain
	// comparisons, not min and max, keep this within the inliner's
	// budget on the sweep's hottest path (the coordinates are finite).
	if mb0 < lb0 {
		lb0 = mb0
	}
	if mb1 > lb1 {
		lb1 = mb1
	}
	if mh > h {
		h = mh
	}
	return lb1-lb0 <= 1.15*h+0.5 && lb1-lb0 <= 16
}

// textShaped reports whether a line of marks reads as text: long for its
// height, dense, strokes in three directions or more (or glyph outlines
// filled).
func textShaped(l *textLine, n *lineCounts) bool {
	h, w := l.height(), l.a1-l.a0
	if h < minLineHeight || w < minLineLength*h {
		return false
	}
	if float64(l.marks) < w/h {
		return false // sparser than a stroke per character
	}
	// Capitals and figures stand on the baseline and reach the cap
	// line: most characters have a stroke that spans the line; symbols
	// and furniture in a row have not. No glyph is much wider than tall.
	if float64(n.spanning) < w/(1.5*h) || 10*n.wide > l.marks {
		return false
	}
	// Letters are set close: the marks cover most of the line, word
	// spaces apart. A column of tags or a row of symbols is more gap
	// than mark.
	if n.covered < minCover*w {
		return false
	}
	// Glyph outlines filled (a font converted to paths) are curves.
	if 2*l.curvedFilled >= l.marks {
		return true
	}
	// Stroked glyphs go three ways or more. Hatching is strokes of one
	// direction (each spanning the band of a hatched wall): in text no
	// one kind of stroke is most of the marks.
	dirs := bits.OnesCount8(l.shape & pdftext.ShapeDirections)
	return dirs >= minDirections && 10*slices.Max(n.byDirections[:]) <= maxOneKind*l.marks
}

// turnShape swaps horizontal and vertical strokes for a line read up the
// page.
func turnShape(s uint8) uint8 {
	out := s &^ (pdftext.ShapeHorizontal | pdftext.ShapeVertical)
	if s&pdftext.ShapeHorizontal != 0 {
		out |= pdftext.ShapeVertical
	}
	if s&pdftext.ShapeVertical != 0 {
		out |= pdftext.ShapeHorizontal
	}
	return out
}

// outlinedRegions groups lines of outlined text into regions: lines that
// overlap or lie within three line heights of each other (the items of a notes list).
func outlinedRegions(lines []textLine) []OutlinedText {
	parent := make([]int, len(lines))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := range lines {
		for j := i + 1; j < len(lines); j++ {
			a, b := &lines[i], &lines[j]
			g := 3 * min(a.size, b.size)
			if a.a0-g <= b.a1 && b.a0-g <= a.a1 && a.b0-g <= b.b1 && b.b0-g <= a.b1 {
				parent[find(i)] = find(j)
			}
		}
	}
	byRoot := map[int]int{}
	var out []OutlinedText
	for i, l := range lines {
		r := find(i)
		k, ok := byRoot[r]
		if !ok {
			k = len(out)
			byRoot[r] = k
			out = append(out, OutlinedText{Box: Box{X0: l.a0, Y0: l.b0, X1: l.a1, Y1: l.b1}})
		}
		o := &out[k]
		o.Box = o.Box.Union(Box{X0: l.a0, Y0: l.b0, X1: l.a1, Y1: l.b1})
		o.Lines++
		o.Chars += int(max(l.a1-l.a0, l.b1-l.b0) / l.size)
	}
	return out
}

// minOutlinedShare is the share of a page's text drawn as outlines that
// makes its text layer partial: a fifth of what the sheet prints is a
// notes block or a schedule the checks cannot read. On the corpus the
// sheets with text in the text layer draw at most a tenth as outlines
// (a logo, a north arrow's letter, symbols read as text); a sheet whose
// key notes are strokes a quarter and more.
const minOutlinedShare = 0.2

// outlinedShare is the outlined regions' characters over all the page's
// characters, read and outlined.
func outlinedShare(p *pdftext.Page, regions []OutlinedText) float64 {
	outlined := 0
	for _, r := range regions {
		outlined += r.Chars
	}
	if outlined == 0 {
		return 0
	}
	read := readChars(p)
	return float64(outlined) / float64(outlined+read)
}

// readChars counts the characters the text layer reads, with the space
// after each word.
func readChars(p *pdftext.Page) int {
	read := 0
	for i := range p.Words {
		read += utf8.RuneCountInString(p.Words[i].Text) + 1
	}
	return read
}
