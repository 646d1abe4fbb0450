package model

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"planreview/lazyregexp"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// The sheet index read against the set: when the heading-and-column parser
// (sheets.ParseIndexLines, full NCS numbers) finds no index, the set's own
// title-block numbers say what an index row looks like, under any heading
// or none. A row is a number of the set (or a range of them, "21-23") with
// a title on its baseline to the left or right; rows stand in a column
// (numbers aligned), possibly under discipline headings; one number may
// head several rows (a sheet with two subjects).
var (
	numberRangeRe = lazyregexp.New(`^(\d{1,3})\s*[-–]\s*(\d{1,3})$`)
	hasLetterRe   = lazyregexp.New(`\pL{2,}`)
	// placeholderTitleRe is an index title left as its template's
	// placeholder: the template's caption ("SHEET TITLE", "DRAWING NAME"),
	// TBD, x's, dashes, question marks. "RESERVED", "NOT USED" and
	// "INTENTIONALLY LEFT BLANK" are deliberate (a number kept free in the
	// numbering), and a bare "TITLE" is the title sheet's own name ("G-001
	// Title"), so neither is one.
	placeholderTitleRe = lazyregexp.New(`(?i)^\s*(?:(?:SHEET|DRAWING|DWG\.?)\s+(?:TITLE|NAME)|TBD|T\.B\.D\.?|TO\s+BE\s+DETERMINED|X{2,}|[-–—_.]{2,}|\?{1,3}|UNTITLED|PLACEHOLDER)\s*$`)
)

// IsIndexHeading reports whether a line's text holds a sheet-index heading
// ("SHEET INDEX", "LIST OF DRAWINGS", "CONTENTS", a bare "INDEX").
func IsIndexHeading(text string) bool { return sheets.IsIndexHeading(text) }

// IsPlaceholderTitle reports whether an index row's title is a placeholder.
func IsPlaceholderTitle(t string) bool { return placeholderTitleRe.MatchString(t) }

// HasWordOfLetters reports whether s holds a word of two letters or more.
func HasWordOfLetters(s string) bool { return hasLetterRe.MatchString(s) }

type indexCandidate struct {
	word  int
	keys  []string // the set's sheet keys the number (or range) lists
	text  string
	title string
	words []int // title words
	box   sheets.Box
}

// readSetIndex reads an index page against the set's sheet keys; nil when
// the page holds no column of the set's numbers with titles.
func readSetIndex(s *Sheet, setKeys map[string]bool) []sheets.IndexEntry {
	heading := false
	for li := range s.Lines {
		if sheets.IsIndexHeading(s.Lines[li].Text) {
			heading = true
			break
		}
	}
	// A heading supports an index but is not required: what makes one is
	// its shape (a column of the set's numbers with titles beside them)
	// confirmed by the sheets it lists, whatever it is called.
	if len(setKeys) < 3 {
		return nil
	}
	p := s.Page
	box := func(i int) sheets.Box { return sheets.WordBox(p, i) }
	// Numbers shaped like the set's own are candidates too: an index row
	// may list a sheet that is missing.
	shapes := map[string]bool{}
	for k := range setKeys {
		shapes[FineShape(k)] = true
	}
	// Where a number shares its reading line with text, the line decides
	// the title: "A-101 FLOOR PLAN" (title after) or "DECK DETAILS AND PLAN
	// 12" (title before). A number alone on its line takes the text on its
	// baseline (rowTitle).
	lineOf := map[int]int{}
	for li, l := range s.Lines {
		for _, wi := range l.Words {
			lineOf[wi] = li
		}
	}
	lineTitle := func(i int) (string, []int, bool) {
		li, ok := lineOf[i]
		if !ok || len(s.Lines[li].Words) < 2 {
			return "", nil, false
		}
		ws := s.Lines[li].Words
		var rest []int
		switch i {
		case ws[0]:
			rest = ws[1:]
		case ws[len(ws)-1]:
			rest = ws[:len(ws)-1]
		default:
			return "", nil, false
		}
		var texts []string
		for _, j := range rest {
			texts = append(texts, sheets.WordText(p.Words[j]))
		}
		t := strings.Join(texts, " ")
		return t, rest, hasLetterRe.MatchString(t) || IsPlaceholderTitle(t)
	}
	var cands []indexCandidate
	for i, w := range p.Words {
		raw := sheets.WordText(w)
		if raw == "" {
			continue
		}
		// "1." and "2)" are a list's markers (numbered notes), not
		// sheet numbers, where the set's sheets print their numbers bare.
		if last := raw[len(raw)-1]; (last == '.' || last == ')') && !setKeys[sheets.NumberKey(raw)] && isDigits(strings.TrimRight(raw, ".)")) {
			continue
		}
		t := strings.Trim(raw, ".,;:")
		var keys []string
		if m := numberRangeRe.FindStringSubmatch(t); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			if b <= a || b-a > 30 {
				continue
			}
			for n := a; n <= b; n++ {
				keys = append(keys, strconv.Itoa(n))
			}
		} else if k := sheets.NumberKey(t); setKeys[k] || shapes[FineShape(k)] && k != "" {
			keys = []string{k}
		} else {
			continue
		}
		title, words, ok := lineTitle(i)
		if !ok {
			title, words = rowTitle(p, i, box)
		}
		if title == "" {
			continue
		}
		cands = append(cands, indexCandidate{word: i, keys: keys, text: t, title: title, words: words, box: box(i)})
	}
	// Columns: numbers whose right edges (or left edges) align.
	var best []indexCandidate
	for _, edge := range []func(b sheets.Box) float64{
		func(b sheets.Box) float64 { return b.X1 }, func(b sheets.Box) float64 { return b.X0 },
	} {
		groups := map[int][]indexCandidate{}
		for _, c := range cands {
			h := c.box.Y1 - c.box.Y0
			groups[int(math.Round(edge(c.box)/math.Max(h, 4)))] = append(groups[int(math.Round(edge(c.box)/math.Max(h, 4)))], c)
		}
		var col []indexCandidate
		for _, g := range groups {
			if len(g) >= 3 {
				col = append(col, g...)
			}
		}
		if len(col) > len(best) {
			best = col
		}
	}
	listed := map[string]bool{}
	for _, c := range best {
		for _, k := range c.keys {
			listed[k] = true
		}
	}
	inSet := 0
	for k := range listed {
		if setKeys[k] {
			inSet++
		}
	}
	if inSet*2 < len(setKeys) || inSet*5 < len(listed)*3 {
		return nil
	}
	// Without a heading, the column must list at least three of the set's
	// own sheets: a handful of callouts that happen to align is no index.
	if !heading && inSet < 3 {
		return nil
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].box.X0 != best[j].box.X0 && math.Abs(best[i].box.X0-best[j].box.X0) > 50 {
			return best[i].box.X0 < best[j].box.X0
		}
		return best[i].box.Y0 < best[j].box.Y0
	})
	var out []sheets.IndexEntry
	for _, c := range best {
		for _, k := range c.keys {
			number := k // a range's members: digits, as printed
			if len(c.keys) == 1 {
				number = c.text
			}
			out = append(out, sheets.IndexEntry{Number: number, Key: k, Title: c.title, Words: append([]int{c.word}, c.words...)})
		}
	}
	return out
}

// rowTitle is the text on the number's baseline, just left of it (titles
// before numbers) or else just right of it: a run of words with letters,
// gaps under three type heights, its nearer end within a quarter of the
// page's width of the number.
func rowTitle(p *pdftext.Page, i int, box func(int) sheets.Box) (string, []int) {
	nb := box(i)
	h := nb.Y1 - nb.Y0
	if h <= 0 {
		return "", nil
	}
	cy := (nb.Y0 + nb.Y1) / 2
	var left, right []int
	for j := range p.Words {
		if j == i {
			continue
		}
		b := box(j)
		if math.Abs((b.Y0+b.Y1)/2-cy) > 0.4*h || math.Abs((b.Y1-b.Y0)-h) > 0.5*h {
			continue
		}
		switch {
		case b.X1 <= nb.X0:
			left = append(left, j)
		case b.X0 >= nb.X1:
			right = append(right, j)
		}
	}
	sort.Slice(left, func(a, b int) bool { return box(left[a]).X0 > box(left[b]).X0 }) // nearest first
	sort.Slice(right, func(a, b int) bool { return box(right[a]).X0 < box(right[b]).X0 })
	maxReach := 0.25 * p.Width
	run := func(ws []int, leftward bool) (string, []int) {
		var got []int
		edge := nb.X0
		if !leftward {
			edge = nb.X1
		}
		for k, j := range ws {
			b := box(j)
			gap := edge - b.X1
			if !leftward {
				gap = b.X0 - edge
			}
			if k == 0 && gap > maxReach || k > 0 && gap > 3*h {
				break
			}
			if k == 0 && numberRangeRe.MatchString(sheets.WordText(p.Words[j])) {
				break
			}
			got = append(got, j)
			if leftward {
				edge = b.X0
			} else {
				edge = b.X1
			}
		}
		if leftward {
			for a, b := 0, len(got)-1; a < b; a, b = a+1, b-1 {
				got[a], got[b] = got[b], got[a]
			}
		}
		var texts []string
		for _, j := range got {
			texts = append(texts, sheets.WordText(p.Words[j]))
		}
		t := strings.Join(texts, " ")
		if !hasLetterRe.MatchString(t) && !IsPlaceholderTitle(t) {
			return "", nil
		}
		return t, got
	}
	if t, ws := run(left, true); t != "" {
		return t, ws
	}
	return run(right, false)
}

// readSetIndexes gives every file without a parsed sheet index the index
// its own numbers reveal (readSetIndex), on the first page that holds one.
func (set *Set) readSetIndexes() {
	for _, f := range set.Files {
		fp := f.Sheets
		keys := map[string]bool{}
		has := false
		for _, s := range fp {
			has = has || len(s.Index) > 0
			if s.Ident.Key != "" {
				keys[s.Ident.Key] = true
			}
		}
		if has {
			preferSetIndex(fp, keys)
			continue
		}
		for _, s := range fp {
			if !s.Readable {
				continue
			}
			if entries := readSetIndex(s, keys); len(entries) > 0 {
				s.Index = entries
				break
			}
		}
	}
}

// preferSetIndex reads each parsed index page again against the set's own
// numbers and keeps that reading when it lists more of the set: the
// heading-and-column parser drops a column holding one short number (E1)
// beside full NCS numbers, and its rows would then read as unlisted.
func preferSetIndex(fp []*Sheet, keys map[string]bool) {
	for _, s := range fp {
		if len(s.Index) == 0 || !s.Readable {
			continue
		}
		entries := readSetIndex(s, keys)
		if inSetKeys(entries, keys) > inSetKeys(s.Index, keys) {
			s.Index = entries
		}
	}
}

func inSetKeys(entries []sheets.IndexEntry, keys map[string]bool) int {
	n := map[string]bool{}
	for _, e := range entries {
		if keys[e.Key] {
			n[e.Key] = true
		}
	}
	return len(n)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// FineShape is a sheet number's shape with its lengths: letters "A",
// digits "9", one per character, hyphens of any kind "-". "AF101" and
// "A1015" (an equipment code) differ here though both are letters then
// digits.
func FineShape(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case unicode.IsLetter(r):
			sb.WriteByte('A')
		case unicode.IsDigit(r):
			sb.WriteByte('9')
		case r == '\u2010' || r == '\u2011' || r == '\u2012' || r == '\u2013' || r == '\u2212':
			sb.WriteByte('-')
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
