package sheets

import (
	"sort"
	"strings"

	"planreview/scan/pdftext"
	"planreview/scan/textmatch"
)

// IndexEntry is one row of a sheet index (drawing list).
type IndexEntry struct {
	Number string // as printed
	Key    string // NumberKey(Number)
	Title  string
	// Words are the row's word indexes on the index page: the number first.
	Words []int
}

// indexHeadingRe is a sheet index's heading: "SHEET INDEX", "DRAWINGS
// INDEX", "INDEX TO SHEETS", "SCHEDULE OF DRAWINGS", "LIST OF DRAWINGS",
// "CONTENTS", a bare "INDEX".
var indexHeadingRe = textmatch.MustCompile(`(?i)\b(?:SHEET\s+INDEX|DRAWINGS?\s+INDEX|INDEX\s+(?:OF|TO)\s+(?:DRAWINGS|SHEETS)|SCHEDULE\s+OF\s+DRAWINGS|DRAWING\s+(?:LIST|SCHEDULE)|LIST\s+OF\s+(?:DRAWINGS|SHEETS)|SHEET\s+(?:LIST|SCHEDULE)|CONTENTS)\b|^\s*INDEX\s*$`)

// IsIndexHeading reports whether a line's text holds a sheet-index
// heading.
func IsIndexHeading(text string) bool {
	return mayBeIndexHeading(text) && indexHeadingRe.MatchString(text)
}

// ParseIndexLines reads the sheet index of a page from its lines: sheet
// numbers stacked in a column (same left edge, same text height) under an
// index heading (IsIndexHeading), each followed on its row by the sheet
// title. Schedules look alike (finish tags P-1, P-1, RB-1; door numbers;
// footing marks BP1), so a column counts only when it sits under a
// heading, has at least two rows, uses full sheet numbers (A-101, A1.1,
// not P-1), never repeats a number and gives most rows a title. The page's
// own title-block number never counts. It returns nil when the page has no
// index; the document model reads the set's other indexes by its own
// numbers.
func ParseIndexLines(p *pdftext.Page, lines []Line) []IndexEntry {
	if len(p.Words) == 0 {
		return nil
	}
	pw, _ := pageScale(p)
	var headings []Box
	for _, l := range lines {
		if IsIndexHeading(l.Text) {
			headings = append(headings, l.Box)
		}
	}
	if len(headings) == 0 {
		return nil
	}
	own := -1
	if i, ok := bestNumber(p, lines); ok {
		own = i
	}
	var nums []int
	for i, w := range p.Words {
		if i == own {
			continue
		}
		if _, ok := ParseNumber(WordText(w)); ok {
			nums = append(nums, i)
		}
	}
	// Group candidates into columns by left edge and height.
	var cols [][]int
	for _, i := range nums {
		bi := WordBox(p, i)
		placed := false
		for c := range cols {
			b0 := WordBox(p, cols[c][0])
			if abs(b0.X0-bi.X0) < 0.005*pw && abs(b0.Height()-bi.Height()) < 0.25*bi.Height() {
				cols[c] = append(cols[c], i)
				placed = true
				break
			}
		}
		if !placed {
			cols = append(cols, []int{i})
		}
	}
	colStarts := map[int]bool{}
	for _, c := range cols {
		for _, i := range c {
			colStarts[i] = true
		}
	}
	underHeading := func(first Box) bool {
		for _, h := range headings {
			above := h.Y1 <= first.Y0+1 && first.Y0-h.Y1 < 12*first.Height()
			near := h.X1 > first.X0-0.02*pw && h.X0 < first.X0+0.3*pw
			if above && near {
				return true
			}
		}
		return false
	}
	var columns [][]IndexEntry
	var accepted []Box // first number of each accepted column
	// A long list wraps into further columns that start level with an
	// accepted column rather than under the heading: a second pass.
	levelWithAccepted := func(first Box) bool {
		for _, a := range accepted {
			if abs(a.Y0-first.Y0) < 0.5*a.Height() && abs(a.Height()-first.Height()) < 0.25*a.Height() {
				return true
			}
		}
		return false
	}
	for _, anchored := range []func(Box) bool{underHeading, levelWithAccepted} {
		for ci, c := range cols {
			if c == nil {
				continue
			}
			if rows := indexColumn(p, c, anchored, colStarts); rows != nil {
				columns = append(columns, rows)
				accepted = append(accepted, WordBox(p, rows[0].Words[0]))
				cols[ci] = nil
			}
		}
	}
	taken := map[int]bool{}
	for _, rows := range columns {
		for _, e := range rows {
			taken[e.Words[0]] = true
		}
	}
	var entries []IndexEntry
	for _, rows := range columns {
		entries = append(entries, extendAtPitch(p, rows, nums, taken, colStarts)...)
	}
	sort.SliceStable(entries, func(a, b int) bool {
		ba, bb := WordBox(p, entries[a].Words[0]), WordBox(p, entries[b].Words[0])
		if abs(ba.X0-bb.X0) > 0.005*pw {
			return ba.X0 < bb.X0
		}
		return ba.Y0 < bb.Y0
	})
	return entries
}

// extendAtPitch adds to an accepted column the rows that continue it but
// were set in another type (a row typed in later, in another font, gives
// its number a box of another height, so the column grouping left it out):
// a number in the column's number column, with its title starting in the
// column's title column, one row pitch (baseline to baseline) above the
// first row or below the last.
func extendAtPitch(p *pdftext.Page, rows []IndexEntry, nums []int, taken map[int]bool, colStarts map[int]bool) []IndexEntry {
	if len(rows) < 3 {
		return rows
	}
	pw, _ := pageScale(p)
	baseline := func(i int) float64 { return p.Words[i].Baseline[1] }
	var steps []float64
	for k := 1; k < len(rows); k++ {
		steps = append(steps, baseline(rows[k].Words[0])-baseline(rows[k-1].Words[0]))
	}
	sort.Float64s(steps)
	pitch := steps[len(steps)/2]
	if pitch <= 0 {
		return rows
	}
	numX := WordBox(p, rows[0].Words[0]).X0
	titleX, titled := 0.0, 0
	for _, e := range rows {
		if len(e.Words) > 1 {
			titleX += WordBox(p, e.Words[1]).X0
			titled++
		}
	}
	if titled == 0 {
		return rows
	}
	titleX /= float64(titled)
	inColumns := func(i int, want float64) (IndexEntry, bool) {
		if taken[i] || abs(WordBox(p, i).X0-numX) > 0.005*pw || abs(baseline(i)-want) > 0.25*pitch {
			return IndexEntry{}, false
		}
		if n, _ := ParseNumber(WordText(p.Words[i])); !n.Strong {
			return IndexEntry{}, false
		}
		e := indexRow(p, i, colStarts)
		if len(e.Words) < 2 || !hasTitleWord(e.Title) || abs(WordBox(p, e.Words[1]).X0-titleX) > 0.005*pw {
			return IndexEntry{}, false
		}
		return e, true
	}
	for grown := true; grown; {
		grown = false
		for _, i := range nums {
			if e, ok := inColumns(i, baseline(rows[len(rows)-1].Words[0])+pitch); ok {
				rows, grown, taken[i] = append(rows, e), true, true
			} else if e, ok := inColumns(i, baseline(rows[0].Words[0])-pitch); ok {
				rows, grown, taken[i] = append([]IndexEntry{e}, rows...), true, true
			}
		}
	}
	return rows
}

// indexColumn validates one column of numbers as a drawing list and returns
// its rows, or nil. anchored says whether the column's first number sits
// where a list starts (under a heading, or level with an accepted column).
func indexColumn(p *pdftext.Page, col []int, anchored func(first Box) bool, colStarts map[int]bool) []IndexEntry {
	if len(col) < 2 {
		return nil
	}
	sort.Slice(col, func(a, b int) bool { return WordBox(p, col[a]).Y0 < WordBox(p, col[b]).Y0 })
	if !anchored(WordBox(p, col[0])) {
		return nil
	}
	seen := map[string]bool{}
	titled, repeated := 0, 0
	var rows []IndexEntry
	for _, i := range col {
		n, _ := ParseNumber(WordText(p.Words[i]))
		if !n.Strong {
			return nil
		}
		// A number listed twice is the index's own error (reported by the
		// review), not a reason to drop the column; a column that is
		// mostly repeats is callouts, not a list of sheets.
		if seen[n.Key] {
			repeated++
		}
		seen[n.Key] = true
		e := indexRow(p, i, colStarts)
		if hasTitleWord(e.Title) {
			titled++
		}
		rows = append(rows, e)
	}
	if 2*titled < len(rows) || 4*repeated > len(rows) {
		return nil
	}
	return rows
}

// indexRow collects the title words to the right of a number on its row, up
// to a wide gap or the next column of numbers.
func indexRow(p *pdftext.Page, num int, colStarts map[int]bool) IndexEntry {
	nb := WordBox(p, num)
	pw, _ := pageScale(p)
	var row []int
	for j := range p.Words {
		if j == num {
			continue
		}
		b := WordBox(p, j)
		if b.X0 < nb.X1-1 || abs(b.CenterY()-nb.CenterY()) > 0.35*nb.Height() {
			continue
		}
		if b.X0-nb.X1 > 0.35*pw {
			continue
		}
		row = append(row, j)
	}
	sort.Slice(row, func(a, b int) bool { return WordBox(p, row[a]).X0 < WordBox(p, row[b]).X0 })
	words := []int{num}
	var title []string
	prevX1 := nb.X1
	for _, j := range row {
		b := WordBox(p, j)
		if colStarts[j] || b.X0-prevX1 > 8*nb.Height() {
			break
		}
		words = append(words, j)
		title = append(title, WordText(p.Words[j]))
		prevX1 = b.X1
	}
	n, _ := ParseNumber(WordText(p.Words[num]))
	return IndexEntry{Number: n.Text, Key: n.Key, Title: strings.Join(title, " "), Words: words}
}
