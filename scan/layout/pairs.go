package layout

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Label/value pairing is conservative: a label ends with a colon, or is a
// short caption in capitals without digits ("SCALE", "DWG NO") that sits
// in a ruled cell beside its value or above a value in larger type. A
// value is at most maxValueWords words; a longer text after a colon is a
// note, not a field.
const (
	maxLabelWords   = 5
	maxCaptionWords = 3
	maxCaptionRunes = 24
	maxValueWords   = 8
	belowGap        = 1.2  // × the label's font size of white space down to its value
	maxLabelQueries = 4000 // label lines per page that look for a value away from them
	maxRightGap     = 8    // × the label's font size from a label to a value set apart on its right
)

// colonLabel reports whether s is a label ending in a colon ("DWG NO:",
// "Occupancy Type:"), and returns it without the colon.
func colonLabel(s string) (string, bool) {
	s = strings.TrimSpace(s)
	var body string
	switch {
	case strings.HasSuffix(s, ":"):
		body = strings.TrimSpace(strings.TrimSuffix(s, ":"))
	case strings.HasSuffix(s, "："):
		body = strings.TrimSpace(strings.TrimSuffix(s, "："))
	default:
		return "", false
	}
	if body == "" || utf8.RuneCountInString(body) > 40 || wordCount(body) > maxLabelWords {
		return "", false
	}
	if strings.ContainsAny(body, ":：") && !strings.HasSuffix(body, ".") {
		return "", false // "1:50:" is not a label
	}
	letters := 0
	for _, r := range body {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return body, letters >= 2
}

// captionLike reports whether s reads as a caption of a field: a few
// words in capitals, no digits ("SCALE", "DWG NO", "DRAWN BY").
func captionLike(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" || utf8.RuneCountInString(s) > maxCaptionRunes || wordCount(s) > maxCaptionWords {
		return false
	}
	letters := 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			if unicode.IsLower(r) {
				return false
			}
			letters++
		case unicode.IsDigit(r):
			return false
		case unicode.IsSpace(r) || strings.ContainsRune(".#/&-'’", r):
		default:
			return false
		}
	}
	return letters >= 2
}

// wordCount counts space-separated words without allocating.
func wordCount(s string) int {
	n, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// labelish is a word that may open a multi-word label: letters only, with
// the punctuation of abbreviations.
func labelish(s string) bool {
	letters := 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
		case strings.ContainsRune(".#/&-'’()", r):
		default:
			return false
		}
	}
	return letters > 0
}

func hasAlnum(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// pairer remembers which words already serve as labels or values.
type pairer struct {
	a       *analysis
	queries int // label lines looked around, at most maxLabelQueries
	label   map[int]bool
	value   map[int]bool
	frames  []lineFrame
}

func (a *analysis) pairs() {
	pr := &pairer{a: a, label: map[int]bool{}, value: map[int]bool{}}
	pr.cellPairs()
	for li := range a.page.Lines {
		pr.rightPairs(li)
	}
	pr.frames = a.lineFrames()
	for li := range a.page.Lines {
		pr.rightOfLine(li, true)
	}
	for li := range a.page.Lines {
		pr.belowPair(li)
	}
	for li := range a.page.Lines {
		pr.rightOfLine(li, false)
	}
}

func (pr *pairer) add(label string, lw, vw []int, place Placement) bool {
	if len(lw) == 0 || len(vw) == 0 {
		return false
	}
	for _, w := range lw {
		if pr.label[w] || pr.value[w] {
			return false
		}
	}
	for _, w := range vw {
		if pr.label[w] {
			return false
		}
	}
	value := pr.a.join(vw)
	if !hasAlnum(value) {
		return false
	}
	for _, w := range vw {
		if t := pr.a.words[w].Text; (strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) && hasLetter(t) {
			return false // a value holding a label is two fields
		}
	}
	p := Pair{Label: label, LabelWords: lw, Value: value, ValueWords: vw, Placement: place, Box: pr.a.g[lw[0]].box}
	for _, w := range lw {
		pr.label[w] = true
		p.Box = p.Box.Union(pr.a.g[w].box)
	}
	for _, w := range vw {
		pr.value[w] = true
		p.Box = p.Box.Union(pr.a.g[w].box)
	}
	pr.a.page.Pairs = append(pr.a.page.Pairs, p)
	return true
}

// cellPairs pairs a ruled cell holding only a label with the next cell
// of its row ("DWG NO:" | "100-00", "SCALE" | "NOTED"), or, for a colon
// label with nothing to its right, with the cell below it. Captions
// without a colon pair only in rows that read label, value, label, value
// …, with a value that has a digit or is set in larger type than its
// caption: a schedule's header row ("NO." | "POSITION") and a data row
// give no pairs.
func (pr *pairer) cellPairs() {
	a := pr.a
	for ti := range a.page.Tables {
		t := &a.page.Tables[ti]
		if !t.Ruled {
			continue
		}
		for ri, row := range t.Rows {
			var filled []int
			for ci, c := range row.Cells {
				if len(c.Words) > 0 {
					filled = append(filled, ci)
				}
			}
			// Colon labels: the next cell, else the cell below.
			for ci, c := range row.Cells {
				label, colon := colonLabel(c.Text)
				if !colon || len(c.Words) == 0 {
					continue
				}
				if ci+1 < len(row.Cells) && len(row.Cells[ci+1].Words) > 0 {
					if n := row.Cells[ci+1]; len(n.Words) <= maxValueWords && !isColonLabelText(n.Text) {
						pr.add(label, c.Words, n.Words, PlaceCell)
					}
					continue
				}
				if ri+1 < len(t.Rows) {
					for _, n := range t.Rows[ri+1].Cells {
						if math.Abs(n.Box.X0-c.Box.X0) <= 2 && math.Abs(n.Box.Y0-c.Box.Y1) <= 2 &&
							len(n.Words) > 0 && len(n.Words) <= maxValueWords && !isColonLabelText(n.Text) {
							pr.add(label, c.Words, n.Words, PlaceCell)
							break
						}
					}
				}
			}
			// Captions: only in an alternating row.
			if len(filled) < 2 || len(filled)%2 != 0 {
				continue
			}
			alternating := true
			for k := 0; k < len(filled); k += 2 {
				l, v := row.Cells[filled[k]], row.Cells[filled[k+1]]
				if filled[k+1] != filled[k]+1 || !captionLike(l.Text) || isColonLabelText(v.Text) || len(v.Words) > maxValueWords {
					alternating = false
					break
				}
			}
			if !alternating {
				continue
			}
			for k := 0; k < len(filled); k += 2 {
				l, v := row.Cells[filled[k]], row.Cells[filled[k+1]]
				// A value has a digit or is set larger than its caption;
				// else the row is more likely a header ("NAME" | "FINISH").
				if !hasDigit(v.Text) && a.maxSize(l.Words) >= 0.9*a.maxSize(v.Words) {
					continue
				}
				pr.add(strings.TrimSpace(l.Text), l.Words, v.Words, PlaceCell)
			}
		}
	}
}

func (a *analysis) maxSize(words []int) float64 {
	m := 0.0
	for _, w := range words {
		m = max(m, a.g[w].fs)
	}
	return m
}

func isColonLabelText(s string) bool {
	_, ok := colonLabel(s)
	return ok
}

// rightPairs pairs colon labels with the words after them on their line:
// the rest of the label's run, or the next run when the label ends its
// run ("Occupancy Type:      R-3"), up to the next label.
func (pr *pairer) rightPairs(li int) {
	a := pr.a
	ln := &a.page.Lines[li]
	if ln.Layer != LayerText {
		return
	}
	words := ln.Words
	var ends []int
	for i, wi := range words {
		t := a.words[wi].Text
		if (strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：")) && (hasLetter(t) || (t == ":" && i > 0)) {
			ends = append(ends, i)
		}
	}
	if len(ends) == 0 {
		return
	}
	starts := make([]int, len(ends))
	for k, e := range ends {
		lower, prevSameRun := 0, false
		if k > 0 {
			lower = ends[k-1] + 2 // the previous value keeps at least one word
			prevSameRun = a.g[words[ends[k-1]]].run == a.g[words[e]].run
		}
		limit := 3
		if prevSameRun {
			limit = 0
			if letterCount(a.words[words[e]].Text) <= 3 {
				limit = 1 // "DRAWN BY:", "SHEET NO:" after another field
			}
		}
		s := e
		for s-1 >= lower && e-(s-1) <= limit && a.g[words[s-1]].run == a.g[words[e]].run &&
			labelish(a.words[words[s-1]].Text) && !strings.HasSuffix(a.words[words[s-1]].Text, ":") {
			s--
		}
		starts[k] = s
	}
	for k, e := range ends {
		end := len(words)
		if k+1 < len(ends) {
			end = starts[k+1]
		}
		if e+1 >= end {
			continue
		}
		// The value: the rest of the label's run, else the next run.
		vrun := a.g[words[e+1]].run
		var vw []int
		for i := e + 1; i < end && a.g[words[i]].run == vrun; i++ {
			vw = append(vw, words[i])
		}
		if len(vw) > maxValueWords {
			continue
		}
		lw := words[starts[k] : e+1]
		label, ok := colonLabel(a.join(lw))
		if !ok {
			continue
		}
		pr.add(label, append([]int(nil), lw...), vw, PlaceRight)
	}
}

func hasDigit(s string) bool {
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func letterCount(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// rightOfLine pairs a line that is only a colon label with the nearest
// line to its right in the same band ("Drawing Scale:" … "1:400" set apart
// or in another size), with no rule between them.
// With sameBase, only a value on the label's own baseline is taken.
func (pr *pairer) rightOfLine(li int, sameBase bool) {
	a := pr.a
	ln := &a.page.Lines[li]
	f := pr.frames[li]
	if !f.ok {
		return
	}
	// A caption without a colon takes a value on its baseline only inside
	// its own ruled cell ("DATE      12/31/2024" in a title block row).
	label, colon := colonLabel(ln.Text)
	cell := int32(0)
	if !colon {
		if !sameBase || !captionLike(ln.Text) {
			return
		}
		if cell = a.cellOfWord(ln.Words[0]); cell == 0 {
			return
		}
		label = strings.TrimSpace(ln.Text)
	}
	for _, w := range ln.Words {
		if pr.label[w] || pr.value[w] {
			return
		}
	}
	if pr.queries++; pr.queries > maxLabelQueries {
		return
	}
	a.ensureLineGrid()
	// Inside a ruled cell the cell bounds the search, else maxRightGap.
	gapLimit := maxRightGap * f.fs
	if cell != 0 {
		gapLimit = 4 * gapLimit
	}
	reach := Box{ln.Box.X0 - gapLimit, ln.Box.Y0 - gapLimit, ln.Box.X1 + gapLimit, ln.Box.Y1 + gapLimit}
	best, bestP := -1, math.Inf(1)
	a.lineGrid.query(reach, func(lj int) bool {
		g := pr.frames[lj]
		if lj == li || !g.ok || g.key != f.key || g.p0 < f.p1 || g.p0 >= bestP || g.p0-f.p1 > gapLimit {
			return true
		}
		// In the label's band: the value's middle within the label's
		// height, or the baselines within a third of the size.
		mid := (g.t0 + g.t1) / 2
		if sameBase && math.Abs(g.s-f.s) > baselineTol*f.fs {
			return true
		}
		if !(mid >= f.t0 && mid <= f.t1) && math.Abs(g.s-f.s) > 0.33*f.fs {
			return true
		}
		if a.rules.crossAlong(f.key, f.p1, g.p0, (max(f.t0, g.t0)+min(f.t1, g.t1))/2) {
			return true
		}
		if cell != 0 && a.cellOfWord(a.page.Lines[lj].Words[0]) != cell {
			return true
		}
		best, bestP = lj, g.p0
		return true
	})
	if best < 0 {
		return
	}
	v := &a.page.Lines[best]
	if len(v.Words) > maxValueWords || isColonLabelText(v.Text) {
		return
	}
	// A caption's value is not another caption of the same type: it has a
	// digit, is not set in capitals, or is larger ("DESIGNED" | "DRAWN" is
	// a row of captions).
	if !colon && captionLike(v.Text) && !hasDigit(v.Text) && v.FontSize < 1.05*ln.FontSize {
		return
	}
	pr.add(label, append([]int(nil), ln.Words...), append([]int(nil), v.Words...), PlaceRight)
}

func (a *analysis) cellOfWord(w int) int32 {
	if a.cellOf == nil {
		return 0
	}
	return a.cellOf[w]
}

func (a *analysis) ensureLineGrid() {
	if a.lineGrid == nil {
		a.lineGrid = newBoxGrid(a.page.Width, a.page.Height, 48, len(a.page.Lines), func(lj int) (Box, bool) {
			return a.page.Lines[lj].Box, true
		})
	}
}

// lineFrame is a line's extent in its text direction's frame.
type lineFrame struct {
	p0, p1, t0, t1, s, fs float64
	key                   int
	ok                    bool // axis text of the drawing layer
}

func (a *analysis) lineFrames() []lineFrame {
	out := zeroed(&a.sc.frames, len(a.page.Lines))
	for li, ln := range a.page.Lines {
		r0 := &a.rb[ln.Runs[0]]
		f := lineFrame{p0: r0.p0, p1: r0.p1, t0: r0.t0, t1: r0.t1, s: r0.s, fs: ln.FontSize, key: r0.key,
			ok: !r0.diagonal && ln.Layer == LayerText}
		for _, ri := range ln.Runs[1:] {
			r := &a.rb[ri]
			f.p0, f.p1, f.t0, f.t1 = min(f.p0, r.p0), max(f.p1, r.p1), min(f.t0, r.t0), max(f.t1, r.t1)
		}
		out[li] = f
	}
	return out
}

// belowPair pairs a line that is only a label with the line under it
// ("Occupancy Type:" above "R-3"; a caption in small capitals above a
// value in larger type), with no rule between them. A line of several
// colon labels ("DWG NO:   REV:") pairs each with the words under it.
func (pr *pairer) belowPair(li int) {
	a := pr.a
	ln := &a.page.Lines[li]
	f := pr.frames[li]
	if !f.ok {
		return
	}
	if label, colon := colonLabel(ln.Text); colon || captionLike(ln.Text) {
		if !colon {
			label = strings.TrimSpace(ln.Text)
		}
		pr.below(li, label, colon, ln.Words, f.p0, f.p1, math.Inf(1))
		return
	}
	// Several colon labels and nothing else.
	last := ln.Words[len(ln.Words)-1]
	if !strings.HasSuffix(a.words[last].Text, ":") {
		return
	}
	var groups [][]int
	start := 0
	for i, wi := range ln.Words {
		t := a.words[wi].Text
		if strings.HasSuffix(t, ":") || strings.HasSuffix(t, "：") {
			groups = append(groups, ln.Words[start:i+1])
			start = i + 1
		}
	}
	for _, g := range groups {
		if _, ok := colonLabel(a.join(g)); !ok {
			return
		}
		for _, wi := range g[:len(g)-1] {
			if !labelish(a.words[wi].Text) {
				return
			}
		}
	}
	for k, g := range groups {
		label, _ := colonLabel(a.join(g))
		limit := math.Inf(1)
		if k+1 < len(groups) {
			limit = a.g[groups[k+1][0]].p0
		}
		pr.below(li, label, true, g, a.g[g[0]].p0, a.g[g[len(g)-1]].p1, limit)
	}
}

// below pairs label words lw (spanning p0…p1 on line li) with the
// nearest line under them; only the value words before pLimit are taken.
func (pr *pairer) below(li int, label string, colon bool, lw []int, p0, p1, pLimit float64) {
	a := pr.a
	ln := &a.page.Lines[li]
	f := pr.frames[li]
	for _, w := range lw {
		if pr.label[w] || pr.value[w] {
			return
		}
	}
	if pr.queries++; pr.queries > maxLabelQueries {
		return
	}
	a.ensureLineGrid()
	m := (belowGap + 1.5) * max(f.fs, 2*a.med)
	reach := Box{ln.Box.X0 - m, ln.Box.Y0 - m, ln.Box.X1 + m, ln.Box.Y1 + m}
	best, bestS := -1, math.Inf(1)
	a.lineGrid.query(reach, func(lj int) bool {
		g := pr.frames[lj]
		if lj == li || !g.ok || g.key != f.key || g.s <= f.s+0.5*f.fs || g.s >= bestS {
			return true
		}
		white := g.t0 - f.t1
		if white > belowGap*max(f.fs, g.fs) || white < -0.3*f.fs {
			return true
		}
		// Under the label: overlapping it along the text, starting no
		// further left than a couple of characters.
		if g.p1 <= p0 || g.p0 >= min(p1, pLimit) || g.p0 < p0-2*f.fs {
			return true
		}
		if a.rules.crossAcross(f.key, f.t1, g.t0, (max(p0, g.p0)+min(p1, g.p1))/2) {
			return true
		}
		best, bestS = lj, g.s
		return true
	})
	if best < 0 {
		return
	}
	v := &a.page.Lines[best]
	var vw []int
	for _, wi := range v.Words {
		if c := (a.g[wi].p0 + a.g[wi].p1) / 2; c >= p0-2*f.fs && c < pLimit {
			vw = append(vw, wi)
		}
	}
	if len(vw) == 0 || len(vw) > maxValueWords || isColonLabelText(a.join(vw)) {
		return
	}
	if !colon && v.FontSize < 1.1*ln.FontSize {
		return // a caption's value is set in larger type than the caption
	}
	if ln.FontSize > 1.3*v.FontSize {
		return // a heading over text ("GENERAL NOTES:" over note 1)
	}
	// The first line of a paragraph under a heading ("GENERAL NOTES:") is
	// not a value: the value line ends its block or has one line after it.
	blk := a.page.Blocks[v.Block].Lines
	if k := slices.Index(blk, best); k >= 0 && len(blk)-k-1 >= 2 {
		return
	}
	// A value line that itself holds a pair ("SCALE: 1:50") is not a value.
	for _, w := range vw {
		if pr.label[w] {
			return
		}
	}
	pr.add(label, append([]int(nil), lw...), vw, PlaceBelow)
}
