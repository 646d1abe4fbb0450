package sheets

import (
	"regexp"
	"sort"
	"strings"

	"planreview/scan/pdftext"
)

// IndexEntry is one row of a sheet index (drawing list).
type IndexEntry struct {
	Number string // as printed
	Key    string // NumberKey(Number)
	Title  string
	// Words are the row's word indexes on the index page: the number first.
	Words []int
}

var indexHeadingRe = regexp.MustCompile(`(?i)\b(?:SHEET\s+INDEX|DRAWING\s+INDEX|INDEX\s+OF\s+(?:DRAWINGS|SHEETS)|DRAWING\s+LIST|LIST\s+OF\s+(?:DRAWINGS|SHEETS)|SHEET\s+LIST|CONTENTS)\b`)

// ParseIndex reads the sheet index of a page: sheet numbers stacked in a
// column (same left edge, same text height), each followed on its row by the
// sheet title. A column needs three rows, or two under an index heading such
// as "SHEET INDEX" or "DRAWING LIST"; the page's own title-block number never
// counts. It returns nil when the page has no index.
func ParseIndex(p *pdftext.Page) []IndexEntry {
	if len(p.Words) == 0 {
		return nil
	}
	pw, _ := pageScale(p)
	lines := Lines(p)
	heading := false
	for _, l := range lines {
		if indexHeadingRe.MatchString(l.Text) {
			heading = true
			break
		}
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
	type column struct{ words []int }
	var cols []column
	for _, i := range nums {
		bi := WordBox(p, i)
		placed := false
		for c := range cols {
			b0 := WordBox(p, cols[c].words[0])
			if abs(b0.X0-bi.X0) < 0.005*pw && abs(b0.height()-bi.height()) < 0.25*bi.height() {
				cols[c].words = append(cols[c].words, i)
				placed = true
				break
			}
		}
		if !placed {
			cols = append(cols, column{words: []int{i}})
		}
	}
	need := 3
	if heading {
		need = 2
	}
	colStarts := map[int]bool{}
	for _, c := range cols {
		if len(c.words) >= need {
			for _, i := range c.words {
				colStarts[i] = true
			}
		}
	}
	var entries []IndexEntry
	for _, c := range cols {
		if len(c.words) < need {
			continue
		}
		for _, i := range c.words {
			entries = append(entries, indexRow(p, i, colStarts))
		}
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
		if b.X0 < nb.X1-1 || abs(b.centerY()-nb.centerY()) > 0.35*nb.height() {
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
		if colStarts[j] || b.X0-prevX1 > 8*nb.height() {
			break
		}
		words = append(words, j)
		title = append(title, WordText(p.Words[j]))
		prevX1 = b.X1
	}
	n, _ := ParseNumber(WordText(p.Words[num]))
	return IndexEntry{Number: n.Text, Key: n.Key, Title: strings.Join(title, " "), Words: words}
}
