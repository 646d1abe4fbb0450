package model

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"planreview/internal/perpage"
	"planreview/scan/pdftext"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// The sheet index read against the set: the set's own title-block numbers
// say what an index row looks like, under any heading or none; a file too
// small to show a scheme of its own reads the set's, and a set too small
// to show one, full NCS numbers under an index heading. A row is a number of the set's scheme
// (or a range of them, "21-23") with a title on its baseline to the left or
// right, the same side for the whole column; rows stand in a column
// (numbers aligned), possibly under discipline headings; one number may
// head several rows (a sheet with two subjects). The sheets confirm a
// column: by their titles, which its rows repeat, or by how much of the
// set it lists.
var (
	// indexHeadingRe is a sheet index's heading: "SHEET INDEX", "DRAWINGS
	// INDEX", "INDEX TO SHEETS", "SCHEDULE OF DRAWINGS", "LIST OF
	// DRAWINGS", "CONTENTS", a bare "INDEX".
	indexHeadingRe = textmatch.MustCompile(`(?i)\b(?:SHEET\s+INDEX|DRAWINGS?\s+INDEX|INDEX\s+(?:OF|TO)\s+(?:DRAWINGS|SHEETS)|SCHEDULE\s+OF\s+DRAWINGS|DRAWING\s+(?:LIST|SCHEDULE)|LIST\s+OF\s+(?:DRAWINGS|SHEETS)|SHEET\s+(?:LIST|SCHEDULE)|CONTENTS)\b|^\s*INDEX\s*$`)
	numberRangeRe  = textmatch.MustCompile(`^(\d{1,3})\s*[-–]\s*(\d{1,3})$`)
	hasLetterRe    = textmatch.MustCompile(`\pL{2,}`)
	// placeholderTitleRe is an index title left as its template's
	// placeholder: the template's caption ("SHEET TITLE", "DRAWING NAME"),
	// TBD, x's, dashes, question marks. "RESERVED", "NOT USED" and
	// "INTENTIONALLY LEFT BLANK" are deliberate (a number kept free in the
	// numbering), and a bare "TITLE" is the title sheet's own name ("G-001
	// Title"), so neither is one.
	placeholderTitleRe = textmatch.MustCompile(`(?i)^\s*(?:(?:SHEET|DRAWING|DWG\.?)\s+(?:TITLE|NAME)|TBD|T\.B\.D\.?|TO\s+BE\s+DETERMINED|X{2,}|[-–—_.]{2,}|\?{1,3}|UNTITLED|PLACEHOLDER)\s*$`)
)

// IsIndexHeading reports whether a line's text holds a sheet-index heading
// ("SHEET INDEX", "LIST OF DRAWINGS", "CONTENTS", a bare "INDEX").
func IsIndexHeading(text string) bool {
	return mayBeIndexHeading(text) && indexHeadingRe.MatchString(text)
}

// mayBeIndexHeading is a necessary condition for indexHeadingRe, cheap
// enough for every line of every page: each of its headings holds INDEX,
// LIST, SCHEDULE or CONTENTS ("SHEET" and "DRAWING" alone, on every title
// block, do not). Those with an S are left to the expression when the
// text holds U+017F.
func mayBeIndexHeading(s string) bool {
	u := strings.ToUpper(s)
	return strings.Contains(u, "INDEX") || strings.Contains(u, "LIST") || strings.Contains(u, "SCHEDULE") ||
		strings.Contains(u, "CONTENTS") || strings.Contains(s, "\u017f")
}

// IndexEntry is one row of a sheet index (drawing list).
type IndexEntry struct {
	Number string // as printed
	Key    string // sheets.NumberKey(Number)
	Title  string
	// Words are the row's word indexes on the index page: the number first.
	Words []int
}

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
	side  int   // where the title stands: -1 left of the number, +1 right
	box   sheets.Box
}

// How a column of numbers was confirmed as the set's index.
type indexConfirm int

const (
	// noColumn: the page holds no column of numbers shaped like the set's.
	noColumn indexConfirm = iota
	// notIndex: it holds one, but the set does not confirm it.
	notIndex
	// byCoverage: the column lists at least half of the set's sheets,
	// and most of what it lists are sheets of the set; or it lists every
	// sheet of a set whose numbers carry designators.
	byCoverage
	// byTitles: its rows for sheets of the set give those sheets' own
	// titles (as their title blocks print them), whatever else it lists.
	byTitles
	// byHeading: a set too small to confirm a column lists full NCS
	// numbers under an index heading.
	byHeading
)

// readSetIndex reads an index page against the set's sheet keys and the
// titles their title blocks print (titles, by key): the rows of its column
// of the set's numbers with titles and how the sheets confirmed them, or
// nil and noColumn or notIndex.
func readSetIndex(s *Sheet, setKeys map[string]bool, titles map[string]string) ([]IndexEntry, indexConfirm) {
	// A heading supports an index but is not required: what makes one is
	// its shape (a column of the set's numbers with titles beside them)
	// confirmed by the sheets it lists, whatever it is called.
	//
	// Where the set holds too few numbers to show its scheme (a single
	// sheet), the scheme is the national standard's: a column of full
	// NCS numbers (A-101, A1.1, not the finish tag P-1) under an index
	// heading, which nothing else confirms.
	byNCS := len(setKeys) < 3
	if byNCS && !hasIndexHeading(s) {
		return nil, noColumn
	}
	p := s.Page
	rows := &pageRows{p: p}
	// Numbers shaped like the set's own are candidates too: an index row
	// may list a sheet that is missing.
	shapes := schemeShapes(setKeys)
	// Words without a digit are told apart at once where every sheet
	// number of the set holds one (nearly every scheme).
	lettersOnly := false
	for k := range setKeys {
		lettersOnly = lettersOnly || !strings.ContainsAny(k, "0123456789")
	}
	// Where a number shares its reading line with text, the line decides
	// the title: "A-101 FLOOR PLAN" (title after) or "DECK DETAILS AND PLAN
	// 12" (title before). A number alone on its line takes the text on its
	// baseline (rowTitle).
	var lineOf []int32 // built on first use: most pages hold no column
	lineTitle := func(i int) (string, []int, int, bool) {
		if lineOf == nil {
			lineOf = make([]int32, len(p.Words))
			for k := range lineOf {
				lineOf[k] = -1
			}
			for li, l := range s.Lines {
				for _, wi := range l.Words {
					lineOf[wi] = int32(li)
				}
			}
		}
		li := int(lineOf[i])
		if li < 0 || len(s.Lines[li].Words) < 2 {
			return "", nil, 0, false
		}
		ws := s.Lines[li].Words
		var rest []int
		side := 0
		switch i {
		case ws[0]:
			rest, side = ws[1:], 1
		case ws[len(ws)-1]:
			rest, side = ws[:len(ws)-1], -1
		default:
			return "", nil, 0, false
		}
		var texts []string
		for _, j := range rest {
			texts = append(texts, sheets.WordText(p.Words[j]))
		}
		t := strings.Join(texts, " ")
		return t, rest, side, hasLetterRe.MatchString(t) || IsPlaceholderTitle(t)
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
		if !strings.ContainsAny(t, "0123456789") && !lettersOnly {
			continue
		}
		var keys []string
		if m := rangeOf(t); m != nil {
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			if b <= a || b-a > 30 {
				continue
			}
			for n := a; n <= b; n++ {
				keys = append(keys, strconv.Itoa(n))
			}
		} else if k := sheets.NumberKey(t); setKeys[k] || shapes[FineShape(k)] && k != "" || byNCS && isFullNCS(t) {
			keys = []string{k}
		} else {
			continue
		}
		cands = append(cands, indexCandidate{word: i, keys: keys, text: t, box: sheets.WordBox(p, i)})
	}
	// Only numbers standing in a column can be rows: titles are looked
	// for beside those alone (a page of schedules holds many numbers).
	all := cands
	in, _ := alignedColumns(all)
	var titled []indexCandidate
	for k, c := range all {
		if !in[0][k] && !in[1][k] {
			continue
		}
		title, words, side, ok := lineTitle(c.word)
		if !ok {
			title, words, side = rowTitle(rows, c.word, 0)
		}
		if title == "" {
			continue
		}
		c.title, c.words, c.side = title, words, side
		titled = append(titled, c)
	}
	// The index is the larger of the columns by right edges and by left
	// edges, with its rows titled.
	in, n := alignedColumns(titled)
	e := 0
	if n[1] > n[0] {
		e = 1
	}
	if n[e] == 0 {
		return nil, noColumn
	}
	best := make([]indexCandidate, 0, n[e])
	for k, c := range titled {
		if in[e][k] {
			best = append(best, c)
		}
	}
	sameSide(rows, best)
	best = extendAtPitch(rows, best, all)
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
	// Without a heading, the column must list at least three of the set's
	// own sheets: a handful of callouts that happen to align is no index.
	if inSet < 3 && !byNCS && !hasIndexHeading(s) {
		return nil, notIndex
	}
	confirm := notIndex
	switch {
	case byNCS:
		// A column that is mostly repeats is callouts, not a list of
		// sheets; a number listed twice in a list is the index's own
		// error, which the review reports.
		if 4*(len(best)-len(listed)) > len(best) {
			return nil, notIndex
		}
		confirm = byHeading
	case titlesAgree(best, titles) >= 2:
		confirm = byTitles
	case inSet*2 >= len(setKeys) && inSet*5 >= len(listed)*3, inSet == len(setKeys) && designated(setKeys):
		confirm = byCoverage
	default:
		return nil, notIndex
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].box.X0 != best[j].box.X0 && math.Abs(best[i].box.X0-best[j].box.X0) > 50 {
			return best[i].box.X0 < best[j].box.X0
		}
		return best[i].box.Y0 < best[j].box.Y0
	})
	var out []IndexEntry
	for _, c := range best {
		for _, k := range c.keys {
			number := k // a range's members: digits, as printed
			if len(c.keys) == 1 {
				number = c.text
			}
			out = append(out, IndexEntry{Number: number, Key: k, Title: c.title, Words: append([]int{c.word}, c.words...)})
		}
	}
	return out, confirm
}

// designated reports whether every sheet number of the set carries a
// letter (a discipline designator, as in G-001 or A1): a column listing
// every such sheet of the set, and more of the same scheme, is the set's
// index whatever else it lists, where a column of bare numbers 1..n lists
// the sheets of any short set numbered 1..n by chance (notes, schedules).
func designated(setKeys map[string]bool) bool {
	for k := range setKeys {
		if !strings.ContainsFunc(k, unicode.IsLetter) {
			return false
		}
	}
	return true
}

// hasIndexHeading reports whether a line of the page reads as an index
// heading (IsIndexHeading).
func hasIndexHeading(s *Sheet) bool {
	for li := range s.Lines {
		if IsIndexHeading(s.Lines[li].Text) {
			return true
		}
	}
	return false
}

// isFullNCS reports whether a word is a full National CAD Standard sheet
// number (A-101, A1.1): the scheme of a set too small to show its own.
func isFullNCS(t string) bool {
	n, ok := sheets.ParseNumber(t)
	return ok && n.Strong
}

// rangeOf is numberRangeRe's submatches of a word that may be a range of
// sheet numbers ("21-23"), nil otherwise; most words are not, and are told
// apart without the expression.
func rangeOf(t string) []string {
	if t == "" || t[0] < '0' || t[0] > '9' || !strings.ContainsAny(t, "-–") {
		return nil
	}
	return numberRangeRe.FindStringSubmatch(t)
}

// alignedColumns marks the numbers that stand in columns of three or
// more, grouped by their right edges (in[0]) and, apart, by their left
// edges (in[1]), in steps of their type height, and counts them.
func alignedColumns(cands []indexCandidate) (in [2][]bool, n [2]int) {
	steps := make([]int, len(cands))
	for e := range in {
		count := map[int]int{}
		for i, c := range cands {
			edge := c.box.X1
			if e == 1 {
				edge = c.box.X0
			}
			steps[i] = int(math.Round(edge / math.Max(c.box.Y1-c.box.Y0, 4)))
			count[steps[i]]++
		}
		in[e] = make([]bool, len(cands))
		for i := range cands {
			if count[steps[i]] >= 3 {
				in[e][i], n[e] = true, n[e]+1
			}
		}
	}
	return in, n
}

// extendAtPitch adds to a column the rows that continue it but were set in
// another type (a row typed in later, in another font, gives its number a
// box of another height, so the column grouping left it out): a number
// aligned with the column's numbers, one row pitch (baseline to baseline)
// below its last row or above its first, with its title on the column's
// side starting where the column's titles start.
func extendAtPitch(rows *pageRows, col, all []indexCandidate) []indexCandidate {
	p, box := rows.p, rows.box
	if len(col) < 3 {
		return col
	}
	baseline := func(i int) float64 { return p.Words[i].Baseline[1] }
	sort.Slice(col, func(a, b int) bool { return baseline(col[a].word) < baseline(col[b].word) })
	var steps []float64
	for k := 1; k < len(col); k++ {
		steps = append(steps, baseline(col[k].word)-baseline(col[k-1].word))
	}
	sort.Float64s(steps)
	pitch := steps[len(steps)/2]
	side := col[0].side
	if pitch <= 0 || side == 0 {
		return col
	}
	tol := 0.005 * p.Width
	// Where the column's numbers and titles start (left edges) or end
	// (right edges, titles before numbers): the median of its rows.
	edgeOf := func(b sheets.Box, right bool) float64 {
		if right {
			return b.X1
		}
		return b.X0
	}
	median := func(xs []float64) float64 { sort.Float64s(xs); return xs[len(xs)/2] }
	var numL, numR, titleX []float64
	for _, c := range col {
		numL, numR = append(numL, c.box.X0), append(numR, c.box.X1)
		if len(c.words) > 0 {
			w := c.words[0]
			if side < 0 {
				w = c.words[len(c.words)-1]
			}
			titleX = append(titleX, edgeOf(box(w), side < 0))
		}
	}
	if len(titleX) == 0 {
		return col
	}
	left, right, title := median(numL), median(numR), median(titleX)
	taken := map[int]bool{}
	for _, c := range col {
		taken[c.word] = true
	}
	fits := func(c indexCandidate, want float64) (indexCandidate, bool) {
		if taken[c.word] || math.Abs(baseline(c.word)-want) > 0.25*pitch ||
			math.Abs(c.box.X0-left) > tol && math.Abs(c.box.X1-right) > tol {
			return c, false
		}
		t, ws, got := rowTitle(rows, c.word, side)
		if t == "" || got != side {
			return c, false
		}
		w := ws[0]
		if side < 0 {
			w = ws[len(ws)-1]
		}
		if math.Abs(edgeOf(box(w), side < 0)-title) > tol {
			return c, false
		}
		c.title, c.words, c.side = t, ws, got
		return c, true
	}
	for grown := true; grown; {
		grown = false
		for _, c := range all {
			if e, ok := fits(c, baseline(col[len(col)-1].word)+pitch); ok {
				col, grown, taken[c.word] = append(col, e), true, true
			} else if e, ok := fits(c, baseline(col[0].word)-pitch); ok {
				col, grown, taken[c.word] = append([]indexCandidate{e}, col...), true, true
			}
		}
	}
	return col
}

// sameSide gives every row of a column its title on the side most rows
// have theirs: a row whose reading line starts with text from a
// neighbouring block (a note left of the index, level with its first row)
// would otherwise take that text as its title.
func sameSide(rows *pageRows, col []indexCandidate) {
	n := 0
	for _, c := range col {
		n += c.side
	}
	if n == 0 {
		return
	}
	side := 1
	if n < 0 {
		side = -1
	}
	for i := range col {
		if col[i].side == side {
			continue
		}
		if t, ws, got := rowTitle(rows, col[i].word, side); t != "" {
			col[i].title, col[i].words, col[i].side = t, ws, got
		}
	}
}

// titlesAgree counts the column's rows for sheets of the set whose title
// agrees with the title the sheet's title block prints; none when the
// titles disagree more often than they agree (a schedule's marks that
// happen to be the set's numbers).
func titlesAgree(col []indexCandidate, titles map[string]string) int {
	agree, disagree := 0, 0
	seen := map[string]bool{}
	for _, c := range col {
		if len(c.keys) != 1 || seen[c.keys[0]] {
			continue
		}
		seen[c.keys[0]] = true
		t, ok := titles[c.keys[0]]
		if !ok {
			continue
		}
		if sameTitle(c.title, t) {
			agree++
		} else {
			disagree++
		}
	}
	if agree < disagree {
		return 0
	}
	return agree
}

// sameTitle reports whether an index row's title names the sheet its title
// block titles: the two share at least half their words (Dice coefficient
// over words of two characters or more, case aside), so "BLOCK PLAN &
// STREETSCAPE" names "BLOCK PLAN AND STREETSCAPE PLAN" and "NORTH
// ELEVATION" names "NORTH ELEVATION RIGHT SIDE".
func sameTitle(a, b string) bool {
	wa, wb := titleWords(a), titleWords(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	common := 0
	for w := range wa {
		if wb[w] {
			common++
		}
	}
	return common > 0 && 4*common >= len(wa)+len(wb)
}

func titleWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToUpper(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if len([]rune(w)) >= 2 {
			out[w] = true
		}
	}
	return out
}

// schemeShapes are the shapes (FineShape) an index row's number may take
// in a set numbered with setKeys: the set's own, and where a shape's digit
// run is shorter than three digits, that run one digit longer or any
// shorter. Sheets numbered in sequence (1..23, A1..A12) run from one digit
// to two, whichever of them the file holds; three-digit numbers (A101) are
// codes of level and series whose length does not vary.
func schemeShapes(setKeys map[string]bool) map[string]bool {
	shapes := map[string]bool{}
	for k := range setKeys {
		if k == "" {
			continue
		}
		sh := FineShape(k)
		shapes[sh] = true
		for i := 0; i < len(sh); {
			if sh[i] != '9' {
				i++
				continue
			}
			j := i
			for j < len(sh) && sh[j] == '9' {
				j++
			}
			if j-i < 3 {
				for n := 1; n <= j-i+1; n++ {
					shapes[sh[:i]+strings.Repeat("9", n)+sh[j:]] = true
				}
			}
			i = j
		}
	}
	return shapes
}

// rowTitle is the text on the number's baseline, just left of it (titles
// before numbers) or else just right of it: a run of words with letters,
// gaps under three type heights, its nearer end within a quarter of the
// page's width of the number. side -1 or +1 looks on that side only; the
// side found is returned with the title.
func rowTitle(rows *pageRows, i int, side int) (string, []int, int) {
	p, box := rows.p, rows.box
	nb := box(i)
	h := nb.Y1 - nb.Y0
	if h <= 0 {
		return "", nil, 0
	}
	cy := (nb.Y0 + nb.Y1) / 2
	var left, right []int
	for _, j := range rows.level(cy, 0.4*h) {
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
	if side <= 0 {
		if t, ws := run(left, true); t != "" {
			return t, ws, -1
		}
	}
	if side >= 0 {
		if t, ws := run(right, false); t != "" {
			return t, ws, 1
		}
	}
	return "", nil, 0
}

// pageRows holds a page's word boxes, and its words by the height of
// their centres, so that the words level with a number are found by
// binary search rather than by reading the whole page for every number
// (a CAD sheet aligns hundreds of them). Built on first use: most pages
// hold no column.
type pageRows struct {
	p       *pdftext.Page
	boxes   []sheets.Box
	byLevel []int     // word indices by centre height
	levels  []float64 // their centre heights
	scratch []int
}

func (r *pageRows) build() {
	r.boxes = make([]sheets.Box, len(r.p.Words))
	r.byLevel = make([]int, len(r.p.Words))
	for i := range r.p.Words {
		r.boxes[i] = sheets.WordBox(r.p, i)
		r.byLevel[i] = i
	}
	slices.SortFunc(r.byLevel, func(a, b int) int {
		return cmp.Compare(r.boxes[a].Y0+r.boxes[a].Y1, r.boxes[b].Y0+r.boxes[b].Y1)
	})
	r.levels = make([]float64, len(r.byLevel))
	for k, i := range r.byLevel {
		r.levels[k] = (r.boxes[i].Y0 + r.boxes[i].Y1) / 2
	}
}

func (r *pageRows) box(i int) sheets.Box {
	if r.boxes == nil {
		r.build()
	}
	return r.boxes[i]
}

// level returns, in page order, the words whose centre height may lie
// within tol of cy (a little margin either side: callers test exactly).
// The slice is reused by the next call.
func (r *pageRows) level(cy, tol float64) []int {
	if r.boxes == nil {
		r.build()
	}
	margin := 1e-9 * (math.Abs(cy) + tol + 1)
	lo := sort.SearchFloat64s(r.levels, cy-tol-margin)
	r.scratch = r.scratch[:0]
	for k := lo; k < len(r.levels) && r.levels[k] <= cy+tol+margin; k++ {
		r.scratch = append(r.scratch, r.byLevel[k])
	}
	slices.Sort(r.scratch)
	return r.scratch
}

// readSetIndexes reads each file's pages for the indexes its own numbers
// reveal (readSetIndex). A page whose column the sheets confirm by their
// titles holds an index, however many such pages there are (a set index
// and a discipline's own); a column confirmed only by how much of the set
// it lists is the file's index on the first page that holds one, where no
// page has an index otherwise. A file of fewer than three numbered sheets
// (a cover sheet filed apart) is read against the whole set's numbers, and
// failing those against the national standard's (readSetIndex). Once the
// file has an index, its rows confirm a further index as the sheets do: a
// discipline's own list in a file that holds few of its sheets repeats the
// set index's rows.
func (set *Set) readSetIndexes() {
	fileKeys := make([]map[string]bool, len(set.Files))
	fileTitles := make([]map[string]string, len(set.Files))
	setKeys, setTitles := map[string]bool{}, map[string]string{}
	for fi, f := range set.Files {
		fileKeys[fi], fileTitles[fi] = map[string]bool{}, map[string]string{}
		for _, s := range f.Sheets {
			if s.Ident.Key == "" {
				continue
			}
			fileKeys[fi][s.Ident.Key], setKeys[s.Ident.Key] = true, true
			// Titles the title block printed, or the set model read,
			// not those taken from an index (titlesFromIndex), which
			// would confirm themselves.
			title, words := s.Ident.Title, s.Ident.TitleWords
			if title == "" && s.Model != nil {
				title, words = s.Model.SheetTitle, s.Model.TitleWords
			}
			if title != "" && len(words) > 0 {
				fileTitles[fi][s.Ident.Key], setTitles[s.Ident.Key] = title, title
			}
		}
	}
	for fi, f := range set.Files {
		keys, titles := fileKeys[fi], fileTitles[fi]
		small := len(keys) < 3
		if small {
			keys, titles = setKeys, setTitles
		}
		has := false
		var first *Sheet
		var firstEntries []IndexEntry
		var rejected []*Sheet
		// Each page is read against the file's numbers alone; what the
		// readings decide together follows, in page order.
		type reading struct {
			entries []IndexEntry
			confirm indexConfirm
		}
		readings := make([]reading, len(f.Sheets))
		perpage.Each(len(f.Sheets), func(i int) {
			s := f.Sheets[i]
			if !s.Readable {
				return
			}
			r := &readings[i]
			r.entries, r.confirm = readSetIndex(s, keys, titles)
			if small && r.confirm < byCoverage {
				r.entries, r.confirm = readSetIndex(s, nil, nil)
			}
		})
		for i, s := range f.Sheets {
			if !s.Readable {
				continue
			}
			entries, confirm := readings[i].entries, readings[i].confirm
			switch {
			case confirm == byTitles, confirm == byHeading:
				s.Index = entries
				has = true
			case confirm == byCoverage && first == nil:
				first, firstEntries = s, entries
			case confirm != noColumn:
				rejected = append(rejected, s)
			}
		}
		if first != nil && !has {
			first.Index = firstEntries
			has = true
		} else if first != nil {
			rejected = append(rejected, first)
		}
		if !has {
			continue
		}
		listedKeys, listedTitles := maps.Clone(keys), maps.Clone(titles)
		for _, s := range f.Sheets {
			for _, e := range s.Index {
				listedKeys[e.Key] = true
				if _, ok := listedTitles[e.Key]; !ok && e.Title != "" {
					listedTitles[e.Key] = e.Title
				}
			}
		}
		for _, s := range rejected {
			if entries, confirm := readSetIndex(s, listedKeys, listedTitles); confirm == byTitles {
				s.Index = entries
			}
		}
	}
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
