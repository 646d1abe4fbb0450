package layout

import (
	"cmp"
	"math"
	"planreview/textmatch"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// RegionRole is what a region of a sheet is for, read from its structure
// alone: checks that read content (references, placeholders, statuses)
// skip the regions whose text only explains the drawing's conventions or
// records its history.
type RegionRole uint8

const (
	RoleNone RegionRole = iota
	// RoleKey is a legend or symbol key: a column of samples (symbols,
	// tags, sample callouts) beside a column of their meanings.
	RoleKey
	// RoleAbbreviations is an abbreviation list, or one definition
	// ("TBD = TO BE DETERMINED"): short tokens beside their expansions.
	RoleAbbreviations
	// RoleRevisions is a revision row: a mark, a description and a date.
	RoleRevisions
	// RoleNotes is running text: a paragraph of notes or conditions.
	RoleNotes
)

func (r RegionRole) String() string {
	switch r {
	case RoleKey:
		return "key"
	case RoleAbbreviations:
		return "abbreviations"
	case RoleRevisions:
		return "revisions"
	case RoleNotes:
		return "notes"
	}
	return "none"
}

// Region is a part of the page with one role.
type Region struct {
	Role  RegionRole
	Box   Box
	Lines []int // indexes into Page.Lines
	// Samples are the key's sample lines (RoleKey): what the legend shows
	// as an example, never content of the drawing.
	Samples []int
}

// Roles are the regions of one page by role, and each line's role.
type Roles struct {
	Regions []Region
	line    []RegionRole
}

// OfLine is the role of line li: the most specific of the regions holding it.
func (r *Roles) OfLine(li int) RegionRole {
	if r == nil || li < 0 || li >= len(r.line) {
		return RoleNone
	}
	return r.line[li]
}

// OfWords is the role of the words' lines when they all share one; none
// when any of them has another or none.
func (r *Roles) OfWords(p *Page, words []int) RegionRole {
	role := RoleNone
	for i, w := range words {
		if w < 0 || w >= len(p.LineOf) {
			return RoleNone
		}
		lr := r.OfLine(p.LineOf[w])
		if i > 0 && lr != role {
			return RoleNone
		}
		role = lr
	}
	return role
}

// Thresholds of role recognition, in multiples of the font size unless
// said otherwise.
const (
	keyMinRows     = 4    // meaning lines of a key column
	keyColumnTol   = 1.5  // points: left edges of one column
	keyRowGap      = 5.0  // widest white space between rows of a key
	keyMaxWords    = 7    // a meaning is a phrase, not a sentence
	keySampleReach = 18.0 // how far left of the meanings the samples sit
	keyCellGap     = 3.0  // text this close after a meaning makes it a table cell
	abbrevMinRows  = 3    // pairs of an abbreviation list
	abbrevReach    = 15.0 // widest gap between a token and its expansion
	abbrevMaxToken = 8    // runes of an abbreviation
	revisionWords  = 10   // a revision row is short
	paragraphWords = 12   // running text of a notes paragraph
)

// FindRoles recognises the page's legends and symbol keys, abbreviation
// lists, revision rows and notes paragraphs from their structure: columns,
// alignment, the shape of tokens and dates. No heading or word list gates
// a region, so a key with any heading (or none) is found.
// A page made by Analyze finds them once; callers only read them.
func FindRoles(p *Page) *Roles {
	if p != nil {
		p.Complete() // roles read the tables
	}
	if p != nil && p.roles != nil {
		p.roles.once.Do(func() { p.roles.r = findRoles(p) })
		return p.roles.r
	}
	return findRoles(p)
}

type rolesOnce struct {
	once sync.Once
	r    *Roles
}

func findRoles(p *Page) *Roles {
	r := &Roles{line: make([]RegionRole, len(p.Lines))}
	if p == nil || len(p.Lines) == 0 {
		return r
	}
	rows := newRowIndex(p)
	r.Regions = append(r.Regions, findKeys(p, rows)...)
	r.Regions = append(r.Regions, findAbbreviations(p, rows)...)
	r.Regions = append(r.Regions, findRevisionRows(p)...)
	r.Regions = append(r.Regions, findParagraphs(p)...)
	// The most specific role wins: a key or definition inside a notes
	// block is still a key.
	rank := func(role RegionRole) int {
		switch role {
		case RoleKey, RoleAbbreviations:
			return 3
		case RoleRevisions:
			return 2
		case RoleNotes:
			return 1
		}
		return 0
	}
	for _, g := range r.Regions {
		for _, li := range g.Lines {
			if rank(g.Role) > rank(r.line[li]) {
				r.line[li] = g.Role
			}
		}
	}
	return r
}

// upright reports whether line l is drawing text read left to right.
func upright(l *Line) bool { return l.Angle == 0 && l.Layer == LayerText }

// rowIndex finds the upright lines on a row band quickly: lines sorted by
// their vertical centre.
type rowIndex struct {
	p     *Page
	order []int
	cy    []float64
}

func newRowIndex(p *Page) *rowIndex {
	ri := &rowIndex{p: p}
	for li := range p.Lines {
		if upright(&p.Lines[li]) {
			ri.order = append(ri.order, li)
		}
	}
	slices.SortFunc(ri.order, func(a, b int) int { return cmp.Compare(cy(p.Lines[a].Box), cy(p.Lines[b].Box)) })
	ri.cy = make([]float64, len(ri.order))
	for i, li := range ri.order {
		ri.cy[i] = cy(p.Lines[li].Box)
	}
	return ri
}

func cy(b Box) float64 { return (b.Y0 + b.Y1) / 2 }

// each calls f for every upright line whose centre lies in [y0, y1].
func (ri *rowIndex) each(y0, y1 float64, f func(li int)) {
	i, _ := slices.BinarySearch(ri.cy, y0)
	for ; i < len(ri.order) && ri.cy[i] <= y1; i++ {
		f(ri.order[i])
	}
}

// descriptive reports whether text reads as a phrase: mostly letters, with
// at least one word of three letters.
func descriptive(text string) bool {
	letters, other, word, longest := 0, 0, 0, 0
	for _, c := range text {
		switch {
		case unicode.IsLetter(c):
			letters++
			word++
			longest = max(longest, word)
		case unicode.IsSpace(c):
			word = 0
		default:
			other++
			word = 0
		}
	}
	return longest >= 3 && letters*10 >= (letters+other)*7
}

// findKeys finds legends and symbol keys: a column of short phrases with
// one left edge and one type size (the meanings), each ending its row,
// with short texts in a strip to their left (the samples). A numbered list
// (1, 2, 3 … beside its notes) is notes, not a key.
func findKeys(p *Page, rows *rowIndex) []Region {
	var cands []int
	for li := range p.Lines {
		l := &p.Lines[li]
		if !upright(l) || l.FontSize <= 0 {
			continue
		}
		if n := WordCount(l.Text); n > 0 && n <= keyMaxWords+3 && descriptive(l.Text) {
			cands = append(cands, li)
		}
	}
	slices.SortFunc(cands, func(a, b int) int { return cmp.Compare(p.Lines[a].Box.X0, p.Lines[b].Box.X0) })
	var out []Region
	for start := 0; start < len(cands); {
		end := start + 1
		for end < len(cands) && p.Lines[cands[end]].Box.X0-p.Lines[cands[start]].Box.X0 <= keyColumnTol {
			end++
		}
		column := slices.Clone(cands[start:end])
		start = end
		if len(column) < keyMinRows {
			continue
		}
		for _, run := range columnRuns(p, column) {
			if g, ok := keyOf(p, rows, run); ok {
				out = append(out, g)
			}
		}
	}
	return out
}

// columnRuns splits the lines of one left edge into runs of one type size
// whose rows follow each other closely.
func columnRuns(p *Page, column []int) [][]int {
	slices.SortFunc(column, func(a, b int) int {
		la, lb := &p.Lines[a], &p.Lines[b]
		return cmp.Or(cmp.Compare(sizeClass(la.FontSize), sizeClass(lb.FontSize)), cmp.Compare(la.Box.Y0, lb.Box.Y0))
	})
	var runs [][]int
	var cur []int
	for _, li := range column {
		l := &p.Lines[li]
		if len(cur) > 0 {
			prev := &p.Lines[cur[len(cur)-1]]
			if sizeClass(prev.FontSize) != sizeClass(l.FontSize) || l.Box.Y0-prev.Box.Y1 > keyRowGap*prev.FontSize {
				if len(cur) >= keyMinRows {
					runs = append(runs, cur)
				}
				cur = nil
			}
		}
		cur = append(cur, li)
	}
	if len(cur) >= keyMinRows {
		runs = append(runs, cur)
	}
	return runs
}

// sizeClass buckets type sizes so that sizes within about 12 % share one.
func sizeClass(fs float64) int {
	c := 0
	for v := max(fs, 0.5); v > 1.12; v /= 1.12 {
		c++
	}
	return c
}

// keyOf decides whether the meaning column run is a key, and finds its
// samples.
func keyOf(p *Page, rows *rowIndex, run []int) (Region, bool) {
	fs := p.Lines[run[0]].FontSize
	box := p.Lines[run[0]].Box
	long, cells := 0, 0
	for _, li := range run {
		l := &p.Lines[li]
		box = box.Union(l.Box)
		if WordCount(l.Text) > keyMaxWords {
			long++
		}
		// A meaning ends its row: text right after it makes the column a
		// table's (a schedule's cells are content).
		next := len(l.Runs) > 1 // cells joined into one line across a gap
		rows.each(l.Box.Y0, l.Box.Y1, func(o int) {
			ob := p.Lines[o].Box
			if o != li && ob.X0 > l.Box.X1 && ob.X0-l.Box.X1 <= keyCellGap*fs {
				next = true
			}
		})
		if next {
			cells++
		}
	}
	if long*4 > len(run) || cells*3 > len(run) || runningText(p, run) {
		return Region{}, false
	}
	x0 := box.X0
	strip := Box{X0: x0 - keySampleReach*fs, Y0: box.Y0 - 1.5*fs, X1: x0 - 0.4*fs, Y1: box.Y1 + 1.5*fs}
	inStrip := func(b Box) bool {
		x, y := b.center()
		return strip.ContainsPoint(x, y)
	}
	// Running text in the strip (another column's meanings, a note) bounds
	// it: the samples lie between that text and the meanings.
	var near []int
	rows.each(strip.Y0, strip.Y1, func(li int) {
		if inStrip(p.Lines[li].Box) {
			near = append(near, li)
		}
	})
	for _, li := range near {
		l := &p.Lines[li]
		if n := WordCount(l.Text); n > 3 || utf8.RuneCountInString(l.Text) > 14 {
			strip.X0 = max(strip.X0, l.Box.X1)
		}
	}
	var samples []int
	for _, li := range near {
		l := &p.Lines[li]
		if l.Box.X0 < strip.X0 {
			continue
		}
		if WordCount(l.Text) <= 3 && utf8.RuneCountInString(l.Text) <= 14 {
			samples = append(samples, li)
		}
	}
	tags := 0
	for _, li := range samples {
		if t := strings.TrimSpace(p.Lines[li].Text); utf8.RuneCountInString(t) <= 4 || strings.ContainsAny(t, "0123456789") {
			tags++
		}
	}
	if tags < 2 || numberedList(p, samples) {
		return Region{}, false
	}
	g := Region{Role: RoleKey, Box: box, Lines: slices.Clone(run), Samples: samples}
	for _, li := range samples {
		g.Box = g.Box.Union(p.Lines[li].Box)
	}
	g.Lines = append(g.Lines, samples...)
	return g, true
}

// runningText reports whether a column's lines read as wrapped sentences
// (keynotes, notes) rather than a key's phrases: a median of five words or
// more a line, or a third of the lines closing a sentence or clause.
func runningText(p *Page, run []int) bool {
	counts := make([]int, len(run))
	closing := 0
	for i, li := range run {
		t := strings.TrimSpace(p.Lines[li].Text)
		counts[i] = WordCount(t)
		if strings.HasSuffix(t, ".") || strings.HasSuffix(t, ",") || strings.HasSuffix(t, ";") {
			closing++
		}
	}
	slices.Sort(counts)
	n := len(counts)
	median := float64(counts[(n-1)/2]+counts[n/2]) / 2
	return median >= 5 || closing*3 >= len(run)
}

// enumeratorRe is a list item's number or letter: "1", "2.", "A.", "(b)", "3)".
var enumeratorRe = textmatch.MustCompile(`^\(?([0-9]{1,3}|[A-Za-z])[.)]?$`)

// numberedList reports whether the samples are a list's enumerators in
// order (1, 2, 3 or A, B, C from top to bottom): keynotes and numbered
// notes, whose text is content.
func numberedList(p *Page, samples []int) bool {
	var seq []int
	byY := slices.Clone(samples)
	slices.SortFunc(byY, func(a, b int) int { return cmp.Compare(p.Lines[a].Box.Y0, p.Lines[b].Box.Y0) })
	for _, li := range byY {
		m := enumeratorRe.FindStringSubmatch(strings.TrimSpace(p.Lines[li].Text))
		if m == nil {
			continue
		}
		if n, err := strconv.Atoi(m[1]); err == nil {
			seq = append(seq, n)
		} else {
			seq = append(seq, int(unicode.ToUpper(rune(m[1][0]))-'A'+1))
		}
	}
	if len(seq) < 3 {
		return false
	}
	steps := 0
	for i := 1; i < len(seq); i++ {
		if seq[i] == seq[i-1]+1 {
			steps++
		}
	}
	return steps*3 >= (len(seq)-1)*2
}

// Abbreviates reports whether token abbreviates expansion: its letters and
// digits appear in the expansion's in order, the first letters agree, and
// the expansion is longer ("ACOUS." ACOUSTICAL, "TBD" TO BE DETERMINED,
// "A/E" ARCHITECT/ENGINEER, "CL" CENTERLINE). A structural test of a
// definition, with no list of abbreviations.
func Abbreviates(token, expansion string) bool {
	var tb, eb [64]rune // on the stack for all but long texts
	t := alnumUpper(tb[:0], token)
	e := alnumUpper(eb[:0], expansion)
	if len(t) == 0 || len(t) > abbrevMaxToken || len(e) <= len(t) || t[0] != e[0] || !descriptive(expansion) {
		return false
	}
	if !slices.ContainsFunc(t, unicode.IsLetter) {
		return false
	}
	i := 0
	for _, c := range e {
		if i < len(t) && c == t[i] {
			i++
		}
	}
	return i == len(t)
}

// alnumUpper appends the letters and digits of s, in capitals, to out.
// Rune by rune, as strings.ToUpper maps them, without the upper-cased
// copy.
func alnumUpper(out []rune, s string) []rune {
	for _, c := range s {
		if c = unicode.ToUpper(c); unicode.IsLetter(c) || unicode.IsDigit(c) {
			out = append(out, c)
		}
	}
	return out
}

// definitionSepRe splits a one-line definition: "TBD = TO BE DETERMINED",
// "N.I.C. - NOT IN CONTRACT", "AFF: ABOVE FINISHED FLOOR".
var definitionSepRe = textmatch.MustCompile(`^\s*(\S{1,10})\s*(?:=|:|\s[-–—]\s)\s*(\S.*)$`)

// definitionLine reports whether the line is one definition: a token, a
// separator and its expansion, or a token and the words its letters begin.
func definitionLine(text string) bool {
	if strings.ContainsAny(text, "=:-–—") {
		if m := definitionSepRe.FindStringSubmatch(text); m != nil && Abbreviates(m[1], m[2]) && WordCount(m[2]) <= keyMaxWords {
			return true
		}
	}
	f := strings.Fields(text)
	if len(f) < 3 || len(f) > 7 {
		return false
	}
	var tb, rb [64]rune
	t := alnumUpper(tb[:0], f[0])
	if len(t) != len(f)-1 || len(t) < 2 {
		return false
	}
	for i, w := range f[1:] {
		r := alnumUpper(rb[:0], w)
		if len(r) == 0 || r[0] != t[i] {
			return false
		}
	}
	return descriptive(strings.Join(f[1:], " "))
}

// findAbbreviations finds abbreviation lists (three or more tokens in one
// column, each beside the expansion it abbreviates on its row; the rows
// between them that fail the test belong to the list too) and single
// definitions on one line. A list inside a small ruled table takes the
// whole table, its heading sample ("XXX") included.
func findAbbreviations(p *Page, rows *rowIndex) []Region {
	var pairs []abbrevPair
	var defs []int
	var out []Region
	for li := range p.Lines {
		l := &p.Lines[li]
		if !upright(l) || l.FontSize <= 0 {
			continue
		}
		if definitionLine(l.Text) {
			defs = append(defs, li)
			continue
		}
		f := strings.Fields(l.Text)
		if len(f) == 0 || utf8.RuneCountInString(f[0]) > abbrevMaxToken+2 {
			continue
		}
		// Token and expansion close enough to read as one line.
		if len(f) > 1 {
			if len(f) <= keyMaxWords+1 && Abbreviates(f[0], strings.Join(f[1:], " ")) {
				pairs = append(pairs, abbrevPair{li, li})
			}
			continue
		}
		// The expansion: the nearest line to the right on the token's baseline.
		best, bestGap := -1, abbrevReach*l.FontSize
		rows.each(l.Box.Y0, l.Box.Y1, func(o int) {
			ol := &p.Lines[o]
			gap := ol.Box.X0 - l.Box.X1
			if o == li || gap <= 0 || gap > bestGap || math.Abs(ol.Box.Y1-l.Box.Y1) > 0.35*l.FontSize {
				return
			}
			best, bestGap = o, gap
		})
		if best >= 0 && Abbreviates(f[0], p.Lines[best].Text) {
			pairs = append(pairs, abbrevPair{li, best})
		}
	}
	out = append(out, definitionLists(p, rows, defs)...)
	// Columns of pairs: tokens sharing a left edge.
	slices.SortFunc(pairs, func(a, b abbrevPair) int {
		la, lb := p.Lines[a.tok].Box, p.Lines[b.tok].Box
		return cmp.Or(cmp.Compare(la.X0, lb.X0), cmp.Compare(la.Y0, lb.Y0))
	})
	for start := 0; start < len(pairs); {
		end := start + 1
		for end < len(pairs) && p.Lines[pairs[end].tok].Box.X0-p.Lines[pairs[start].tok].Box.X0 <= 2*keyColumnTol {
			end++
		}
		col := slices.Clone(pairs[start:end])
		start = end
		slices.SortFunc(col, func(a, b abbrevPair) int { return cmp.Compare(p.Lines[a.tok].Box.Y0, p.Lines[b.tok].Box.Y0) })
		for i := 0; i < len(col); {
			j := i + 1
			for j < len(col) {
				prev, cur := p.Lines[col[j-1].tok], p.Lines[col[j].tok]
				if cur.Box.Y0-prev.Box.Y1 > 4*keyRowGap*prev.FontSize {
					break
				}
				j++
			}
			if j-i >= abbrevMinRows {
				out = append(out, abbreviationList(p, rows, col[i:j]))
			}
			i = j
		}
	}
	return out
}

// definitionLists makes the regions of one-line definitions: each alone,
// or stacked ones with one left edge as a list, which then takes the short
// lines that continue its column above and below (its heading, an entry
// whose expansion is missing).
func definitionLists(p *Page, rows *rowIndex, defs []int) []Region {
	slices.SortFunc(defs, func(a, b int) int {
		la, lb := p.Lines[a].Box, p.Lines[b].Box
		return cmp.Or(cmp.Compare(math.Round(la.X0/(2*keyColumnTol)), math.Round(lb.X0/(2*keyColumnTol))), cmp.Compare(la.Y0, lb.Y0))
	})
	var out []Region
	for i := 0; i < len(defs); {
		j := i + 1
		for j < len(defs) {
			prev, cur := p.Lines[defs[j-1]], p.Lines[defs[j]]
			if math.Abs(cur.Box.X0-prev.Box.X0) > 2*keyColumnTol || cur.Box.Y0-prev.Box.Y1 > 2*prev.FontSize {
				break
			}
			j++
		}
		g := Region{Role: RoleAbbreviations, Box: p.Lines[defs[i]].Box, Lines: slices.Clone(defs[i:j])}
		for _, li := range defs[i:j] {
			g.Box = g.Box.Union(p.Lines[li].Box)
		}
		if j-i >= 2 {
			extendColumn(p, rows, &g)
		}
		out = append(out, g)
		i = j
	}
	return out
}

// extendColumn adds to a list the short lines that continue its column
// above and below, one row spacing at a time.
func extendColumn(p *Page, rows *rowIndex, g *Region) {
	first := p.Lines[g.Lines[0]]
	step := 2 * first.FontSize
	for grown := true; grown; {
		grown = false
		rows.each(g.Box.Y0-step-first.FontSize, g.Box.Y1+step+first.FontSize, func(li int) {
			l := &p.Lines[li]
			if slices.Contains(g.Lines, li) || math.Abs(l.Box.X0-g.Box.X0) > 2*keyColumnTol || WordCount(l.Text) > 4 {
				return
			}
			if (l.Box.Y1 <= g.Box.Y0 && g.Box.Y0-l.Box.Y1 <= step) || (l.Box.Y0 >= g.Box.Y1 && l.Box.Y0-g.Box.Y1 <= step) {
				g.Lines = append(g.Lines, li)
				g.Box = g.Box.Union(l.Box)
				grown = true
			}
		})
	}
}

// abbrevPair is a token line and the expansion line beside it.
type abbrevPair struct{ tok, exp int }

// abbreviationList is the region of a column of pairs: every line between
// the first token and the last, from the tokens' edge to the widest
// expansion; inside a small ruled table, the table.
func abbreviationList(p *Page, rows *rowIndex, col []abbrevPair) Region {
	box := p.Lines[col[0].tok].Box
	for _, c := range col {
		box = box.Union(p.Lines[c.tok].Box).Union(p.Lines[c.exp].Box)
	}
	for _, t := range p.Tables {
		if !t.Ruled || !t.Box.ContainsPoint(box.center()) {
			continue
		}
		if area(t.Box) <= 4*area(box) {
			box = box.Union(t.Box)
		}
	}
	g := Region{Role: RoleAbbreviations, Box: box}
	tokX := p.Lines[col[0].tok].Box.X0
	rows.each(box.Y0, box.Y1, func(li int) {
		b := p.Lines[li].Box
		// Inside the list, or a row of the token column whose expansion
		// is wider than the others (or does not abbreviate in letters).
		if b.X0 >= box.X0-1 && b.X1 <= box.X1+1 || math.Abs(b.X0-tokX) <= 2*keyColumnTol {
			g.Lines = append(g.Lines, li)
			g.Box = g.Box.Union(b)
		}
	})
	return g
}

func area(b Box) float64 { return max(b.X1-b.X0, 0) * max(b.Y1-b.Y0, 0) }

// dateRe is a date as revision rows print it: 6/10/20, 03.06.2020,
// 2024-10-03.
var dateRe = textmatch.MustCompile(`^(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})|\d{4}-\d{2}-\d{2})$`)

// findRevisionRows finds revision rows: a short line with a date at one
// end and a description of words, optionally led by a short mark
// ("1 ADDENDUM 1 6/10/20", "ADDENDUM 1 6/10/20", "B 2024-10-03 ISSUED FOR
// REVIEW"). A caption and its date ("DATE: 6/10/20") is a field, not a row.
func findRevisionRows(p *Page) []Region {
	var out []Region
	for li := range p.Lines {
		l := &p.Lines[li]
		if !upright(l) {
			continue
		}
		f := strings.Fields(l.Text)
		if len(f) < 2 || len(f) > revisionWords {
			continue
		}
		var rest []string
		switch {
		case dateRe.MatchString(f[len(f)-1]):
			rest = f[:len(f)-1]
		case dateRe.MatchString(f[0]):
			rest = f[1:]
		case len(f) > 2 && len([]rune(f[0])) <= 3 && dateRe.MatchString(f[1]):
			rest = f[2:]
		default:
			continue
		}
		if len(rest) > 1 && len([]rune(rest[0])) <= 3 && !dateRe.MatchString(rest[0]) {
			rest = rest[1:] // the mark
		}
		desc := strings.Join(rest, " ")
		if strings.ContainsAny(desc, ":") || !descriptive(desc) {
			continue
		}
		out = append(out, Region{Role: RoleRevisions, Box: l.Box, Lines: []int{li}})
	}
	return out
}

// findParagraphs finds running text: a block of two or more lines and at
// least paragraphWords words, most lines four words or more (a general
// note, a conditions paragraph), or one line that is a long sentence.
func findParagraphs(p *Page) []Region {
	var out []Region
	for _, b := range p.Blocks {
		words, full := 0, 0
		for _, li := range b.Lines {
			n := WordCount(p.Lines[li].Text)
			words += n
			if n >= 4 {
				full++
			}
		}
		switch {
		case len(b.Lines) >= 2 && words >= paragraphWords && full*2 >= len(b.Lines):
			out = append(out, Region{Role: RoleNotes, Box: b.Box, Lines: slices.Clone(b.Lines)})
		case len(b.Lines) == 1 && words >= paragraphWords:
			out = append(out, Region{Role: RoleNotes, Box: b.Box, Lines: slices.Clone(b.Lines)})
		}
	}
	return out
}
