package rules

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"planreview/scan/pdftext"
	"planreview/scan/sheets"
)

// The sheet index read against the set: when the heading-and-column parser
// (sheets.ParseIndexLines, full NCS numbers) finds no index, the set's own
// title-block numbers say what an index row looks like, under any heading
// or none. A row is a number
// of the set (or a range of them, "21-23") with a title on its baseline to
// the left or right; rows stand in a column (numbers aligned), possibly
// under discipline headings; one number may head several rows (a sheet with
// two subjects).
var (
	setIndexHeadingRe = lineSet.MustCompile(`(?i)\b(?:SHEET\s+INDEX|DRAWINGS?\s+INDEX|INDEX\s+(?:OF|TO)\s+(?:DRAWINGS|SHEETS)|SCHEDULE\s+OF\s+DRAWINGS|DRAWING\s+(?:LIST|SCHEDULE)|LIST\s+OF\s+(?:DRAWINGS|SHEETS)|SHEET\s+(?:LIST|SCHEDULE)|CONTENTS)\b|^\s*INDEX\s*$`)
	numberRangeRe     = regexp.MustCompile(`^(\d{1,3})\s*[-–]\s*(\d{1,3})$`)
	hasLetterRe       = regexp.MustCompile(`\pL{2,}`)
	titleWordRe       = regexp.MustCompile(`[\pL\pN]+(?:\.[\pN]+)?`)
	// An explicit title caption: "Drawing Name:", "SHEET TITLE", "TITLE:".
	// A bare "Title" may be a row of the index itself.
	titleCaptionRe = regexp.MustCompile(`(?i)\b(?:DRAWING|SHEET|DWG\.?)\s+(?:NAME|TITLE)\b|\bTITLE\s*:`)
)

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
func readSetIndex(pv *pageView, setKeys map[string]bool) []sheets.IndexEntry {
	heading := false
	for li := range pv.lines {
		// The line's literal scan first (no heading word, no heading).
		if pv.find(setIndexHeadingRe, li) != nil {
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
	p := pv.page
	box := func(i int) sheets.Box { return sheets.WordBox(p, i) }
	// Numbers shaped like the set's own are candidates too: an index row
	// may list a sheet that is missing.
	shapes := map[string]bool{}
	for k := range setKeys {
		shapes[fineShape(k)] = true
	}
	// Where a number shares its reading line with text, the line decides
	// the title: "A-101 FLOOR PLAN" (title after) or "DECK DETAILS AND PLAN
	// 12" (title before). A number alone on its line takes the text on its
	// baseline (rowTitle).
	lineOf := map[int]int{}
	for li, l := range pv.lines {
		for _, wi := range l.Words {
			lineOf[wi] = li
		}
	}
	lineTitle := func(i int) (string, []int, bool) {
		li, ok := lineOf[i]
		if !ok || len(pv.lines[li].Words) < 2 {
			return "", nil, false
		}
		ws := pv.lines[li].Words
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
		return t, rest, hasLetterRe.MatchString(t) || isPlaceholderTitle(t)
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
		} else if k := sheets.NumberKey(t); setKeys[k] || shapes[fineShape(k)] && k != "" {
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
		if !hasLetterRe.MatchString(t) && !isPlaceholderTitle(t) {
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
func readSetIndexes(pages []*pageView) {
	byFile := map[int][]*pageView{}
	for _, pv := range pages {
		byFile[pv.fileIndex] = append(byFile[pv.fileIndex], pv)
	}
	for _, fp := range byFile {
		keys := map[string]bool{}
		has := false
		for _, pv := range fp {
			has = has || len(pv.index) > 0
			if pv.sheet.Key != "" {
				keys[pv.sheet.Key] = true
			}
		}
		if has {
			preferSetIndex(fp, keys)
			continue
		}
		for _, pv := range fp {
			if !pv.readable {
				continue
			}
			if entries := readSetIndex(pv, keys); len(entries) > 0 {
				pv.index = entries
				break
			}
		}
	}
}

// titleTokens are a title's words for comparison: upper case, without
// punctuation and the words that join ("AND", "&", "OF").
func titleTokens(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range titleWordRe.FindAllString(strings.ToUpper(s), -1) {
		switch t {
		case "AND", "OF", "THE", "A", "TO", "FOR":
			continue
		}
		out[t] = true
	}
	return out
}

// titleTerm is a word of a title as compared across its spellings:
// ordinals spelled out (1ST → FIRST), plurals singular, and whether it was
// printed as an abbreviation (a period after letters: "ELECT.", "INT.").
type titleTerm struct {
	word   string
	abbrev bool
}

var (
	titleTermRe = regexp.MustCompile(`[\pL\pN]+(?:\.[\pN]+)?(\.)?`)
	ordinals    = map[string]string{"1ST": "FIRST", "2ND": "SECOND", "3RD": "THIRD", "4TH": "FOURTH", "5TH": "FIFTH", "6TH": "SIXTH"}
)

func titleTerms(s string) []titleTerm {
	var out []titleTerm
	seen := map[string]bool{}
	for _, m := range titleTermRe.FindAllStringSubmatch(strings.ToUpper(s), -1) {
		w := strings.TrimSuffix(m[0], ".")
		switch w {
		case "AND", "OF", "THE", "A", "TO", "FOR":
			continue
		}
		if o, ok := ordinals[w]; ok {
			w = o
		}
		if len(w) > 3 && strings.HasSuffix(w, "S") && !strings.HasSuffix(w, "SS") {
			w = strings.TrimSuffix(w, "S")
		}
		if seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, titleTerm{word: w, abbrev: m[1] != "" && hasLetterRe.MatchString(w)})
	}
	return out
}

// abbreviates reports whether short is an abbreviation of long: the same
// first letter and its letters in order ("ELECT" of "ELECTRICAL", "FNDN"
// of "FOUNDATION", "ELEV" of "ELEVATION"). Without a period only a short
// word (at most 5 letters) against a longer one counts.
func abbreviates(short titleTerm, long string) bool {
	s := short.word
	if len(s) < 2 || len(s) >= len(long) || s[0] != long[0] || !short.abbrev && (len(s) > 5 || len(long) < len(s)+2) {
		return false
	}
	i := 0
	for j := 0; j < len(long) && i < len(s); j++ {
		if long[j] == s[i] {
			i++
		}
	}
	return i == len(s)
}

// sharedTerms counts the terms of a that b holds, spelled either way.
func sharedTerms(a, b []titleTerm) int {
	n := 0
	for _, x := range a {
		for _, y := range b {
			if x.word == y.word || abbreviates(x, y.word) || abbreviates(y, x.word) {
				n++
				break
			}
		}
	}
	return n
}

func subsetOf(a, b map[string]bool) bool {
	for t := range a {
		if !b[t] {
			return false
		}
	}
	return true
}

// captionTitle is the sheet's title when the title block printed it under
// a title caption ("Drawing Name:", "SHEET TITLE"): the only titles firm
// enough to contradict an index.
func (pv *pageView) captionTitle() string {
	if pv.model == nil || pv.model.SheetTitle == "" {
		return ""
	}
	for _, f := range pv.model.Fields {
		if f.Kind == sheets.FieldTitle && titleCaptionRe.MatchString(f.Caption) && strings.Contains(strings.ToUpper(f.Value), strings.ToUpper(pv.model.SheetTitle)) {
			return pv.model.SheetTitle
		}
	}
	return ""
}

// checkIndexTitleMismatch reports an index row whose title contradicts the
// title block of the sheet it lists: neither title holds the other's words
// and they share fewer than half of them.
func checkIndexTitleMismatch(rv *review, r *Rule) []observation {
	present := rv.presentSheets()
	var out []observation
	for _, ip := range rv.indexPages() {
		for _, e := range ip.index {
			pv, ok := present[e.Key]
			// A placeholder title is index_placeholder_title's finding.
			if !ok || e.Title == "" || isPlaceholderTitle(e.Title) {
				continue
			}
			tb := pv.captionTitle()
			if tb == "" || listsTitle(ip.index, e.Key, tb) {
				continue
			}
			// "CAL GREEN" and "CALGREEN", "T-24" and "T24": the same
			// letters and digits spaced or joined otherwise.
			if sa, sb := lettersAndDigits(e.Title), lettersAndDigits(tb); strings.Contains(sa, sb) || strings.Contains(sb, sa) {
				continue
			}
			a, b := titleTokens(e.Title), titleTokens(tb)
			if len(a) == 0 || len(b) == 0 || subsetOf(a, b) || subsetOf(b, a) {
				continue
			}
			// The same words written short or long ("ELECT. PLAN",
			// "1ST FLOOR PLAN", "INT. ELEVS.") are the same title.
			ta, tt := titleTerms(e.Title), titleTerms(tb)
			shared := sharedTerms(ta, tt)
			if shared == len(ta) || shared == len(tt) || 2*shared > len(ta)+len(tt)-shared {
				continue
			}
			// On the sheet whose title block the index contradicts, where
			// the correction is made.
			out = append(out, observation{page: pv, words: pv.model.TitleWords,
				vars:     map[string]string{"listed": e.Number, "indexTitle": e.Title, "sheetTitle": tb, "indexSheet": ip.sheetNumberOr()},
				evidence: "index title " + e.Key + " " + strings.ToUpper(e.Title)})
		}
	}
	return out
}

// preferSetIndex reads each parsed index page again against the set's own
// numbers and keeps that reading when it lists more of the set: the
// heading-and-column parser drops a column holding one short number (E1)
// beside full NCS numbers, and its rows would then read as unlisted.
func preferSetIndex(fp []*pageView, keys map[string]bool) {
	for _, pv := range fp {
		if len(pv.index) == 0 || !pv.readable {
			continue
		}
		entries := readSetIndex(pv, keys)
		if inSetKeys(entries, keys) > inSetKeys(pv.index, keys) {
			pv.index = entries
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

// listsTitle reports whether a row of the index lists the key with the
// title (or part of it): a second row of the same number with another
// title is then index_duplicate_entry's finding, not a contradiction.
func listsTitle(index []sheets.IndexEntry, key, title string) bool {
	tb := titleTokens(title)
	for _, e := range index {
		if e.Key != key {
			continue
		}
		t := titleTokens(e.Title)
		if len(t) > 0 && (subsetOf(t, tb) || subsetOf(tb, t)) {
			return true
		}
	}
	return false
}

// lettersAndDigits is s in upper case without spaces or punctuation.
func lettersAndDigits(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToUpper(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			sb.WriteRune(r)
		}
	}
	return sb.String()
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
