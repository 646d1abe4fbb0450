package scan_test

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"planreview/scan/pdftext"
)

// The planted-defect test finds where to plant from the text layer alone, by
// structure that any plan set shares: a column of scheme-shaped numbers with
// titles beside them (the sheet index), a column of enumerators (a notes
// block), the largest scheme-shaped number in the title-block corner (the
// sheet number). No coordinates or phrases of a particular file.

// tword is a horizontal word in displayed points, origin top-left.
type tword struct {
	text           string
	x0, y0, x1, y1 float64
	size           float64
}

func (w tword) cy() float64 { return (w.y0 + w.y1) / 2 }
func (w tword) h() float64  { return w.y1 - w.y0 }

// segment is a run of words on one row with word-sized gaps: one cell of
// text (a title, a number, a note line), never two columns.
type segment struct {
	words          []tword
	x0, y0, x1, y1 float64
	size           float64
}

func (s segment) text() string {
	parts := make([]string, len(s.words))
	for i, w := range s.words {
		parts[i] = w.text
	}
	return strings.Join(parts, " ")
}

func (s segment) cy() float64 { return (s.y0 + s.y1) / 2 }

// textPage is one page's horizontal words and segments.
type textPage struct {
	number        int
	width, height float64
	words         []tword
	segments      []segment
}

func readTextPage(p pdftext.Page) textPage {
	tp := textPage{number: p.Number, width: p.Width, height: p.Height}
	for _, w := range p.Words {
		if w.Angle != 0 || strings.TrimSpace(w.Text) == "" {
			continue
		}
		tw := tword{text: dashes.Replace(w.Text), x0: w.BBox.Left * p.Width, y0: w.BBox.Top * p.Height,
			x1: (w.BBox.Left + w.BBox.Width) * p.Width, y1: (w.BBox.Top + w.BBox.Height) * p.Height, size: w.FontSize}
		if tw.size <= 0 {
			tw.size = tw.h()
		}
		tp.words = append(tp.words, tw)
	}
	tp.segments = segmentsOf(tp.words)
	return tp
}

// dashes are the hyphens and dashes sheet numbers are printed with.
var dashes = strings.NewReplacer("\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2212", "-")

// segmentsOf joins words that share a row (centres within half a height)
// and follow each other with at most a wide space between them.
func segmentsOf(words []tword) []segment {
	ws := append([]tword(nil), words...)
	sort.Slice(ws, func(i, j int) bool {
		if math.Abs(ws[i].cy()-ws[j].cy()) > 0.5*math.Min(ws[i].h(), ws[j].h()) {
			return ws[i].cy() < ws[j].cy()
		}
		return ws[i].x0 < ws[j].x0
	})
	used := make([]bool, len(ws))
	var out []segment
	for i := range ws {
		if used[i] {
			continue
		}
		used[i] = true
		seg := []tword{ws[i]}
		last := ws[i]
		for {
			best := -1
			for j := range ws {
				if used[j] || ws[j].x0 < last.x1-0.2*last.size {
					continue
				}
				if math.Abs(ws[j].cy()-last.cy()) > 0.35*math.Max(last.h(), ws[j].h()) {
					continue
				}
				if ratio := ws[j].size / last.size; ratio < 0.7 || ratio > 1.4 {
					continue
				}
				if ws[j].x0-last.x1 > 1.2*math.Max(last.size, ws[j].size) {
					continue
				}
				if best < 0 || ws[j].x0 < ws[best].x0 {
					best = j
				}
			}
			if best < 0 {
				break
			}
			used[best] = true
			seg = append(seg, ws[best])
			last = ws[best]
		}
		out = append(out, newSegment(seg))
	}
	sort.Slice(out, func(i, j int) bool {
		if math.Abs(out[i].cy()-out[j].cy()) > 0.5*math.Min(out[i].size, out[j].size) {
			return out[i].cy() < out[j].cy()
		}
		return out[i].x0 < out[j].x0
	})
	return out
}

func newSegment(ws []tword) segment {
	s := segment{words: ws, x0: ws[0].x0, y0: ws[0].y0, x1: ws[0].x1, y1: ws[0].y1}
	sizes := make([]float64, len(ws))
	for i, w := range ws {
		s.x0, s.y0 = math.Min(s.x0, w.x0), math.Min(s.y0, w.y0)
		s.x1, s.y1 = math.Max(s.x1, w.x1), math.Max(s.y1, w.y1)
		sizes[i] = w.size
	}
	sort.Float64s(sizes)
	s.size = sizes[len(sizes)/2]
	return s
}

// sheetNumberShape is a sheet number of any common scheme: an optional
// discipline prefix of one to three letters, an optional separator, digits
// with an optional decimal or dash part and an optional letter suffix
// (A-101, G001, S2.01, FP2.20, E201A, 12).
var sheetNumberShape = regexp.MustCompile(`^(?:[A-Z]{1,3}[-.]?)?\d{1,4}(?:[.\-]\d{1,3}){0,2}[A-Z]?$`)

// scheme is a number's shape with every digit made 9: A-101 -> A-999, the
// number of a sheet that follows the set's scheme and is unlikely to exist.
func schemeNumber(number string, digit rune) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return digit
		}
		return r
	}, number)
}

// normNumber compares sheet numbers across punctuation: A-101 == A101.
func normNumber(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		}
		return -1
	}, s)
}

// indexRow is one row of a sheet index: its number word and the row's
// segments (the number's and the title's).
type indexRow struct {
	number tword
	title  segment // the title beside the number
	before bool    // the title is printed before (left of) the number
}

// sheetIndex is a run of index rows on one page.
type sheetIndex struct {
	page int
	rows []indexRow
}

func (ix *sheetIndex) numbers() []string {
	out := make([]string, len(ix.rows))
	for i, r := range ix.rows {
		out[i] = r.number.text
	}
	return out
}

// findIndexColumns returns the candidate indexes on a page: runs of three or
// more scheme-shaped numbers, each a cell of its own or the first word of
// its cell, aligned on their left or right edge, at a steady row pitch, each
// with a title of at least one letter-word beside it on the same row.
func findIndexColumns(tp textPage) []sheetIndex {
	type cand struct {
		row indexRow
	}
	var cands []cand
	for si, s := range tp.segments {
		first := s.words[0]
		if last := s.words[len(s.words)-1]; len(s.words) > 1 && isNumberWord(last.text) && !isNumberWord(first.text) &&
			hasLetters(s.words[:len(s.words)-1]) {
			// The title first, the number closing its cell.
			cands = append(cands, cand{row: indexRow{number: last, title: newSegment(s.words[:len(s.words)-1]), before: true}})
			continue
		}
		if !isNumberWord(first.text) {
			continue
		}
		// The title: the rest of this segment, or the nearest segment on
		// the row to the right, or else to the left (titles first).
		var title segment
		before := false
		if len(s.words) > 1 && hasLetters(s.words[1:]) {
			title = newSegment(s.words[1:])
		} else if len(s.words) == 1 {
			if t, ok := rowNeighbour(tp.segments, si, +1); ok {
				title = t
			} else if t, ok := rowNeighbour(tp.segments, si, -1); ok {
				title, before = t, true
			} else {
				continue
			}
		} else {
			continue
		}
		cands = append(cands, cand{row: indexRow{number: first, title: title, before: before}})
	}
	// Group by aligned left edges (or right edges for right-aligned numbers).
	var out []sheetIndex
	seen := map[int]bool{}
	for i := range cands {
		if seen[i] {
			continue
		}
		a := cands[i].row.number
		var col []indexRow
		var idx []int
		for j := range cands {
			b := cands[j].row.number
			tol := 0.6 * a.size
			if math.Abs(b.x0-a.x0) <= tol || math.Abs(b.x1-a.x1) <= tol {
				if r := b.size / a.size; r > 0.75 && r < 1.33 && cands[j].row.before == cands[i].row.before {
					col = append(col, cands[j].row)
					idx = append(idx, j)
				}
			}
		}
		sort.Slice(col, func(x, y int) bool { return col[x].number.y0 < col[y].number.y0 })
		for _, runRows := range steadyRuns(col) {
			if len(runRows) >= 3 {
				out = append(out, sheetIndex{page: tp.number, rows: runRows})
			}
		}
		for _, j := range idx {
			seen[j] = true
		}
	}
	return out
}

func isNumberWord(s string) bool {
	return sheetNumberShape.MatchString(s) && strings.ContainsAny(s, "0123456789")
}

func hasLetters(ws []tword) bool {
	for _, w := range ws {
		letters := 0
		for _, r := range w.text {
			if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' {
				letters++
			}
		}
		if letters >= 2 {
			return true
		}
	}
	return false
}

// rowNeighbour is the nearest segment with letters on the same row as
// segments[i], in direction dir, within a title's reach.
func rowNeighbour(segs []segment, i, dir int) (segment, bool) {
	s := segs[i]
	best, bestGap := -1, math.Inf(1)
	for j, o := range segs {
		if j == i || !hasLetters(o.words) || math.Abs(o.cy()-s.cy()) > 0.4*s.size {
			continue
		}
		var gap float64
		if dir > 0 {
			gap = o.x0 - s.x1
		} else {
			gap = s.x0 - o.x1
		}
		if gap < 0 || gap > 40*s.size {
			continue
		}
		if gap < bestGap {
			best, bestGap = j, gap
		}
	}
	if best < 0 {
		return segment{}, false
	}
	return segs[best], true
}

// steadyRuns splits a column into runs whose row gaps stay within a few
// row heights of each other.
func steadyRuns(col []indexRow) [][]indexRow {
	var runs [][]indexRow
	var cur []indexRow
	for i, r := range col {
		if i > 0 {
			gap := r.number.y0 - col[i-1].number.y0
			if gap < 0.8*r.number.size || gap > 3.5*r.number.size {
				runs = append(runs, cur)
				cur = nil
			}
		}
		cur = append(cur, r)
	}
	return append(runs, cur)
}

// titleBlockNumber is the page's sheet number: the largest word of sheet
// number shape outside the page's central area (title blocks run along the
// right or bottom edge) that is one of known (the index's numbers), or,
// with no index, that has a discipline prefix and at least two digits and
// lies in the bottom-right quadrant.
func titleBlockNumber(tp textPage, known map[string]bool, exclude *sheetIndex) (tword, bool) {
	outer := func(w tword) bool { return w.x0 >= 0.5*tp.width || w.y0 >= 0.7*tp.height }
	// The title block's number is printed large: among the number-shaped
	// words of the title-block zone, near the largest.
	largest := 0.0
	for _, w := range tp.words {
		if outer(w) && isNumberWord(w.text) && (exclude == nil || !inIndex(exclude, w)) {
			largest = math.Max(largest, w.size)
		}
	}
	// A sheet number is a field of its own: alone in its cell, after a
	// caption or before a title, never inside a line of text (an
	// address's postal code).
	own := map[tword]bool{}
	for _, s := range tp.segments {
		for i, w := range s.words {
			own[w] = i == 0 || i == len(s.words)-1
		}
	}
	var best tword
	found := false
	for _, w := range tp.words {
		if exclude != nil && inIndex(exclude, w) {
			continue
		}
		if !isNumberWord(w.text) || !outer(w) || !own[w] {
			continue
		}
		if known != nil {
			if !known[normNumber(w.text)] || w.size < 0.7*largest {
				continue
			}
		} else {
			if !prefixedNumber.MatchString(w.text) && !partedNumber.MatchString(w.text) ||
				w.x0 < 0.55*tp.width || w.y0 < 0.55*tp.height {
				continue
			}
		}
		if !found || w.size > best.size+0.01 || (math.Abs(w.size-best.size) <= 0.01 && w.y0 > best.y0) {
			best, found = w, true
		}
	}
	return best, found
}

// prefixedNumber: a discipline prefix and at least two digits (A01,
// S2.01, E-201): what a sheet number looks like without an index to
// confirm it.
var prefixedNumber = regexp.MustCompile(`^[A-Z]{1,3}[-.]?\d[-.]?\d`)

// partedNumber: digits in two or three parts (201-00, 5.1.00), a drawing
// number without a discipline prefix; not a decimal (1.5) nor a date.
var partedNumber = regexp.MustCompile(`^\d{1,4}(?:-\d{2,3}|\.\d{1,2}\.\d{2,3})$`)

func inIndex(ix *sheetIndex, w tword) bool {
	for _, r := range ix.rows {
		if r.number == w {
			return true
		}
	}
	return false
}

// notesBlock is a column of three or more enumerated items (1. 2. 3. or
// A. B. C.), left-aligned: a notes block, general or keyed.
type notesBlock struct {
	page  int
	items []segment // the segment each item starts with
	size  float64
}

var enumerator = regexp.MustCompile(`^\(?(?:\d{1,2}|[A-Z])[.)]$`)

func findNotesBlocks(tp textPage) []notesBlock {
	var starts []segment
	for i, s := range tp.segments {
		if !enumerator.MatchString(s.words[0].text) {
			continue
		}
		if len(s.words) >= 3 {
			starts = append(starts, s)
			continue
		}
		// An enumerator set apart from its text by a hanging indent.
		if len(s.words) == 1 {
			if t, ok := rowNeighbour(tp.segments, i, +1); ok && t.x0-s.x1 < 6*s.size && len(t.words) >= 2 {
				starts = append(starts, newSegment(append([]tword{s.words[0]}, t.words...)))
			}
		}
	}
	var out []notesBlock
	used := make([]bool, len(starts))
	for i := range starts {
		if used[i] {
			continue
		}
		var col []segment
		for j := range starts {
			if !used[j] && math.Abs(starts[j].x0-starts[i].x0) <= 0.6*starts[i].size &&
				starts[j].size/starts[i].size > 0.75 && starts[j].size/starts[i].size < 1.33 {
				col = append(col, starts[j])
				used[j] = true
			}
		}
		sort.Slice(col, func(a, b int) bool { return col[a].y0 < col[b].y0 })
		// Split where items are farther apart than a long note would be.
		var cur []segment
		flush := func() {
			if len(cur) >= 3 {
				out = append(out, notesBlock{page: tp.number, items: cur, size: cur[0].size})
			}
			cur = nil
		}
		for k, s := range col {
			if k > 0 && s.y0-col[k-1].y0 > 15*s.size {
				flush()
			}
			cur = append(cur, s)
		}
		flush()
	}
	return out
}

// free reports whether no word of the page overlaps the box.
func (tp textPage) free(x0, y0, x1, y1 float64) bool {
	if x0 < 0 || y0 < 0 || x1 > tp.width || y1 > tp.height {
		return false
	}
	for _, w := range tp.words {
		if w.x1 > x0 && w.x0 < x1 && w.y1 > y0 && w.y0 < y1 {
			return false
		}
	}
	return true
}

// noteSlot is where text can be appended to a note: after the end of one of
// its lines, where the row is free for the text's width. It tries the
// lines of each item in turn (an item's last line is usually short).
func noteSlot(tp textPage, nb notesBlock, width func(size float64) float64) (x, baseline, size float64, ok bool) {
	for k, item := range nb.items {
		// The item's lines: segments starting at or right of the item's
		// text, between this item and the next.
		yEnd := item.y1 + 6*item.size
		if k+1 < len(nb.items) {
			yEnd = nb.items[k+1].y0
		}
		textX := item.words[min(1, len(item.words)-1)].x0
		var lines []segment
		for _, s := range tp.segments {
			if s.y0 >= item.y0-0.2*item.size && s.y1 <= yEnd+0.2*item.size &&
				s.x0 >= item.x0-0.5*item.size && s.x0 <= textX+0.5*item.size &&
				math.Abs(s.size-item.size) < 0.25*item.size {
				lines = append(lines, s)
			}
		}
		for i := len(lines) - 1; i >= 0; i-- {
			l := lines[i]
			w := width(l.size)
			gx := l.x1 + 0.5*l.size
			if tp.free(gx-0.1*l.size, l.y0, gx+w+1.5*l.size, l.y1) {
				return gx, baselineOf(l), l.size, true
			}
		}
	}
	return 0, 0, 0, false
}

// baselineOf estimates a segment's baseline: text boxes run from ascent to
// descent, the baseline about a fifth of the height above the bottom.
func baselineOf(s segment) float64 { return s.y1 - 0.21*(s.y1-s.y0) }

// freeArea finds an empty box of the given size in the drawing area (left
// three quarters, away from the edges), scanning from the page's centre
// outwards.
func freeArea(tp textPage, w, h float64) (x, y float64, ok bool) {
	cx, cy := 0.4*tp.width, 0.45*tp.height
	step := math.Max(h, 10)
	for r := 0.0; r < tp.width; r += step {
		for _, d := range [][2]float64{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
			x, y := cx+d[0]*r-w/2, cy+d[1]*r-h/2
			if x < 0.05*tp.width || x+w > 0.75*tp.width || y < 0.08*tp.height || y+h > 0.9*tp.height {
				continue
			}
			if tp.free(x-h, y-h, x+w+h, y+2*h) {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}
