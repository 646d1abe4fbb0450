package scan_test

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"planreview/scan"
)

// setStructure is what the planter reads from a file's text layer.
type setStructure struct {
	pages   []textPage
	index   *sheetIndex        // the confirmed sheet index, nil if none
	listed  map[string]bool    // normalised numbers the index lists
	numbers map[int]tword      // page -> its title-block sheet number
	notes   *notesBlock        // the largest notes block of the set
	counts  map[string]int     // normalised number -> pages printing it
	pageW   map[int][2]float64 // page -> displayed size
}

func readStructure(base scan.Result) setStructure {
	st := setStructure{numbers: map[int]tword{}, counts: map[string]int{}, pageW: map[int][2]float64{}}
	for _, p := range base.Files[0].Pages {
		st.pages = append(st.pages, readTextPage(p))
		st.pageW[p.Number] = [2]float64{p.Width, p.Height}
	}
	// The index: the candidate column whose numbers are printed as the
	// largest such word on the most other pages (at least two): confirmed
	// by the sheets it matches.
	bestMatched := 0
	var columns []sheetIndex
	for _, tp := range st.pages {
		columns = append(columns, findIndexColumns(tp)...)
	}
	// A column is confirmed by distinct numbers on distinct other pages,
	// each page its own; the index is the page whose confirmed columns
	// (discipline groups, side-by-side columns) match the most sheets.
	confirmed := make([]map[string]bool, len(columns))
	for ci, cand := range columns {
		known := map[string]bool{}
		for _, n := range cand.numbers() {
			known[normNumber(n)] = true
		}
		seen := map[string]bool{}
		pagesMatched := 0
		for _, other := range st.pages {
			if other.number == cand.page {
				continue
			}
			if w, ok := titleBlockNumber(other, known, nil); ok {
				pagesMatched++
				seen[normNumber(w.text)] = true
			}
		}
		if len(seen) >= 2 && float64(len(seen)) >= 0.75*float64(pagesMatched) {
			confirmed[ci] = seen
		}
	}
	byPage := map[int]map[string]bool{}
	for ci, seen := range confirmed {
		if seen == nil {
			continue
		}
		if byPage[columns[ci].page] == nil {
			byPage[columns[ci].page] = map[string]bool{}
		}
		for n := range seen {
			byPage[columns[ci].page][n] = true
		}
	}
	indexPage := 0
	for page, seen := range byPage {
		if len(seen) > bestMatched || len(seen) == bestMatched && page < indexPage {
			indexPage, bestMatched = page, len(seen)
		}
	}
	if indexPage > 0 {
		merged := sheetIndex{page: indexPage}
		for ci, cand := range columns {
			if confirmed[ci] != nil && cand.page == indexPage {
				merged.rows = append(merged.rows, cand.rows...)
			}
		}
		st.index = &merged
		st.listed = map[string]bool{}
		for _, n := range st.index.numbers() {
			st.listed[normNumber(n)] = true
		}
	}
	for _, tp := range st.pages {
		var w tword
		var ok bool
		if st.index != nil {
			w, ok = titleBlockNumber(tp, st.listed, st.index)
		} else {
			w, ok = titleBlockNumber(tp, nil, nil)
		}
		if ok {
			st.numbers[tp.number] = w
			st.counts[normNumber(w.text)]++
		}
	}
	// With no index, a number is a sheet number only if the set's pages
	// agree on the scheme: drop numbers printed the same on every page of
	// a multi-page set (a project number, not a sheet number).
	if st.index == nil && len(st.pages) > 1 {
		for p, w := range st.numbers {
			if st.counts[normNumber(w.text)] == len(st.pages) {
				delete(st.numbers, p)
			}
		}
	}
	for _, tp := range st.pages {
		for _, nb := range findNotesBlocks(tp) {
			if st.notes == nil || len(nb.items) > len(st.notes.items) {
				n := nb
				st.notes = &n
			}
		}
	}
	return st
}

// numberRange is an index row for several sheets (21-23).
var numberRange = regexp.MustCompile(`^\d+-\d+$`)

// unusedNumber is a number of the set's scheme (from an example number of
// the set) that no page prints and the index does not list.
func (st setStructure) unusedNumber(example string) string {
	for _, d := range []rune{'9', '8', '7'} {
		n := schemeNumber(example, d)
		if !st.listed[normNumber(n)] && st.counts[normNumber(n)] == 0 && !st.printed(n) {
			return n
		}
	}
	return ""
}

func (st setStructure) printed(n string) bool {
	want := normNumber(n)
	for _, tp := range st.pages {
		for _, w := range tp.words {
			if normNumber(w.text) == want {
				return true
			}
		}
	}
	return false
}

// exampleNumber is a sheet number of the set: the index's last, else the
// first page's that has one.
func (st setStructure) exampleNumber() string {
	if st.index != nil {
		for i := len(st.index.rows) - 1; i >= 0; i-- {
			if n := st.index.rows[i].number.text; !numberRange.MatchString(n) {
				return n
			}
		}
	}
	pages := st.numberedPages()
	if len(pages) > 0 {
		return st.numbers[pages[0]].text
	}
	return ""
}

func (st setStructure) numberedPages() []int {
	var out []int
	for p := range st.numbers {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

// planPlants reads the file's structure and plans one variant per kind.
// fileOrder alternates the unfinished-text placeholder (XX, ???).
func planPlants(base scan.Result, fileOrder int) ([]plant, string) {
	st := readStructure(base)
	nPages := len(st.pages)
	var plants []plant

	// One sheet removed: a page whose number the index lists, printed on
	// that page only, not the index's own page.
	removed := plant{kind: kindRemoved}
	switch {
	case nPages < 2:
		removed.na = "one sheet"
	case st.index == nil:
		removed.na = "no sheet index in the text layer"
	default:
		pages := st.numberedPages()
		for i := len(pages) - 1; i >= 0; i-- {
			p := pages[i]
			n := st.numbers[p].text
			if p == st.index.page || st.counts[normNumber(n)] != 1 {
				continue
			}
			removed.what, removed.names = n, []string{normNumber(n)}
			removed.where = fmt.Sprintf("page %d removed", p)
			removed.make = func(in, out string) error { return removePage(in, out, p) }
			break
		}
		if removed.make == nil {
			removed.na = "no indexed sheet other than the index's own page"
		}
	}
	plants = append(plants, removed)

	// An index row for a sheet that does not exist: a new row in the
	// index's column, one row pitch below its last row (or above its
	// first), number of the set's scheme and a title, at the rows' size.
	phantom := plant{kind: kindPhantom}
	if st.index == nil {
		phantom.na = "no sheet index in the text layer"
	} else {
		phantom = planPhantomRow(st, phantom)
	}
	plants = append(plants, phantom)

	// A PRELIMINARY / NOT FOR CONSTRUCTION stamp at 45 degrees over the
	// title block of a page whose review has no status finding.
	plants = append(plants, planStamp(st, base))

	// XX or ??? appended to a line of the set's largest notes block.
	unfinished := plant{kind: kindUnfinished}
	placeholder := "???"
	if fileOrder%2 == 1 {
		placeholder = "XX"
	}
	if st.notes == nil {
		unfinished.na = "no numbered notes block in the text layer"
	} else {
		tp := st.pages[st.notes.page-1]
		x, baseline, size, ok := noteSlot(tp, *st.notes, func(s float64) float64 { return helveticaWidth(placeholder) * s })
		if !ok {
			unfinished.na = "no room after any line of the notes block"
		} else {
			s := textStamp{text: placeholder, x: x, baseline: baseline, size: size, color: "#000000", opacity: 1}
			unfinished = textPlant(st, unfinished, tp.number, s)
			unfinished.raw = placeholder
		}
	}
	plants = append(plants, unfinished)

	// A callout to a sheet not in the set, in the set's scheme: after a
	// note line, else in an empty spot of a drawing area.
	callout := plant{kind: kindCallout}
	example := st.exampleNumber()
	missing := ""
	if example != "" {
		missing = st.unusedNumber(example)
	}
	if missing == "" {
		callout.na = "no sheet-number scheme in the text layer"
	} else {
		text := "SEE 3/" + missing
		width := func(s float64) float64 { return helveticaWidth(text) * s }
		placed := false
		if st.notes != nil {
			tp := st.pages[st.notes.page-1]
			if x, baseline, size, ok := noteSlot(tp, *st.notes, width); ok {
				callout = textPlant(st, callout, tp.number, textStamp{text: text, x: x, baseline: baseline, size: size, color: "#000000", opacity: 1})
				callout.where += " (after a note line)"
				placed = true
			}
		}
		if !placed {
			pages := st.numberedPages()
			p := 1
			if len(pages) > 0 {
				p = pages[0]
			}
			tp := st.pages[p-1]
			size := medianSize(tp)
			if x, y, ok := freeArea(tp, width(size), 1.2*size); ok {
				callout = textPlant(st, callout, p, textStamp{text: text, x: x, baseline: y + size, size: size, color: "#000000", opacity: 1})
				callout.where += " (empty spot of the drawing)"
				placed = true
			}
		}
		if !placed {
			callout.na = "no room for a callout"
		}
		callout.names = []string{normNumber(missing)}
	}
	plants = append(plants, callout)

	// A sheet number duplicated: a page printed twice, right after itself.
	dup := plant{kind: kindDuplicate}
	pages := st.numberedPages()
	if len(pages) == 0 {
		dup.na = "no sheet number in the text layer"
	} else {
		p := pages[len(pages)/2]
		n := st.numbers[p].text
		dup.what, dup.names, dup.copies = n, []string{normNumber(n)}, []int{p, p + 1}
		dup.where = fmt.Sprintf("page %d printed twice (pages %d and %d)", p, p, p+1)
		dup.make = func(in, out string) error { return duplicatePage(in, out, p, nPages) }
	}
	plants = append(plants, dup)
	return plants, st.describe()
}

// describe says what the planter read, for the test's log.
func (st setStructure) describe() string {
	var b strings.Builder
	if st.index != nil {
		fmt.Fprintf(&b, "index p%d %v; ", st.index.page, st.index.numbers())
	} else {
		b.WriteString("no index; ")
	}
	b.WriteString("numbers")
	for _, p := range st.numberedPages() {
		fmt.Fprintf(&b, " p%d=%s", p, st.numbers[p].text)
	}
	if st.notes != nil {
		fmt.Fprintf(&b, "; notes p%d with %d items from %q", st.notes.page, len(st.notes.items), st.notes.items[0].text())
	}
	return b.String()
}

func medianSize(tp textPage) float64 {
	var s []float64
	for _, w := range tp.words {
		s = append(s, w.size)
	}
	if len(s) == 0 {
		return 10
	}
	sort.Float64s(s)
	return math.Max(4, s[len(s)/2])
}

// textPlant is a plant that stamps one text on one page.
func textPlant(st setStructure, p plant, page int, s textStamp) plant {
	dim := st.pageW[page]
	p.what, p.page = s.text, page
	p.where = fmt.Sprintf("page %d at (%.0f, %.0f) pt, %.1f pt", page, s.x, s.baseline, s.size)
	if s.rotation != 0 {
		p.where += fmt.Sprintf(", %.0f°", s.rotation)
	}
	stamp := s
	p.check = &stamp
	p.make = func(in, out string) error {
		return stampTexts(in, out, dim[0], dim[1], map[int][]textStamp{page: {s}})
	}
	return p
}

func planPhantomRow(st setStructure, p plant) plant {
	ix := st.index
	rows := ix.rows
	last := rows[len(rows)-1]
	example := last.number.text
	for i := len(rows) - 1; i >= 0; i-- {
		if !numberRange.MatchString(rows[i].number.text) {
			example = rows[i].number.text
			break
		}
	}
	number := st.unusedNumber(example)
	if number == "" {
		p.na = "no unused number in the set's scheme"
		return p
	}
	gaps := make([]float64, 0, len(rows))
	for i := 1; i < len(rows); i++ {
		gaps = append(gaps, rows[i].number.y0-rows[i-1].number.y0)
	}
	sort.Float64s(gaps)
	pitch := gaps[len(gaps)/2]
	size := last.number.size
	title := "ENLARGED DETAILS"
	numW := helveticaWidth(number) * size
	titleW := helveticaWidth(title) * last.title.size
	// Left- or right-aligned numbers: the edge the rows agree on.
	var spreadL, spreadR float64
	for _, r := range rows {
		spreadL = math.Max(spreadL, math.Abs(r.number.x0-rows[0].number.x0))
		spreadR = math.Max(spreadR, math.Abs(r.number.x1-rows[0].number.x1))
	}
	numX := last.number.x0
	if spreadR < spreadL {
		numX = last.number.x1 - numW
	}
	titleX := last.title.x0
	if !last.before && len(last.title.words) > 0 && last.title.x0 < last.number.x1 {
		titleX = last.number.x1 + 0.6*size // the title shared the number's cell
	}
	tp := st.pages[ix.page-1]
	try := func(top float64) (bool, float64) {
		// The new row's glyphs, from cap height to descent: text boxes
		// (Ghostscript's) can be taller than the row pitch and overlap.
		x0, x1 := math.Min(numX, titleX), math.Max(numX+numW, titleX+titleW)
		baseline := top + 0.79*last.number.h()
		return tp.free(x0, baseline-0.75*size, x1, baseline+0.2*size), top
	}
	top := last.number.y0 + pitch
	ok, _ := try(top)
	if !ok {
		top = rows[0].number.y0 - pitch
		ok, _ = try(top)
	}
	if !ok {
		p.na = "no free row above or below the index"
		return p
	}
	baseline := top + 0.79*last.number.h()
	dim := st.pageW[ix.page]
	numStamp := textStamp{text: number, x: numX, baseline: baseline, size: size, color: "#000000", opacity: 1}
	titleStamp := textStamp{text: title, x: titleX, baseline: baseline, size: last.title.size, color: "#000000", opacity: 1}
	p.what, p.names, p.page = number+" "+title, []string{normNumber(number)}, 0
	p.where = fmt.Sprintf("index on page %d, new row at (%.0f, %.0f) pt, %.1f pt, after %s", ix.page, numX, baseline, size, last.number.text)
	check := numStamp
	p.check = &check
	page := ix.page
	p.make = func(in, out string) error {
		return stampTexts(in, out, dim[0], dim[1], map[int][]textStamp{page: {numStamp, titleStamp}})
	}
	p.checkPage = page
	return p
}

const stampText = "PRELIMINARY - NOT FOR CONSTRUCTION"

func planStamp(st setStructure, base scan.Result) plant {
	p := plant{kind: kindStamp, names: []string{"PRELIMINARY", "CONSTRUCTION"}}
	// A page whose base review already reports a stamp is no place for
	// another. An issue status read from the title block does not stop
	// one: the plant is scored by a finding naming the stamp that the
	// base review does not have.
	hasStatus := map[int]bool{}
	for _, f := range base.Findings {
		if f.RuleID == "completeness-preliminary-stamp" {
			hasStatus[f.Sheet.Page] = true
		}
	}
	page := 0
	for _, n := range st.numberedPages() {
		if !hasStatus[n] {
			page = n
			break
		}
	}
	if page == 0 {
		for _, tp := range st.pages {
			if !hasStatus[tp.number] && len(tp.words) > 0 {
				page = tp.number
				break
			}
		}
	}
	if page == 0 || hasStatus[0] {
		p.na = "the base review already reports an issue status on every page"
		return p
	}
	tp := st.pages[page-1]
	size := math.Max(8, 0.012*math.Max(tp.width, tp.height))
	half := diagonalExtent(helveticaWidth(stampText)*size, size)
	// Over the title-block number when it is in the title-block corner,
	// else over the corner itself.
	cx, cy := 0.86*tp.width, 0.86*tp.height
	w, numbered := st.numbers[page]
	numbered = numbered && w.x0 > 0.6*tp.width && w.y0 > 0.6*tp.height
	if numbered {
		cx, cy = (w.x0+w.x1)/2, (w.y0+w.y1)/2-half/2
	}
	cx = math.Min(math.Max(cx, half+0.02*tp.width), 0.98*tp.width-half)
	cy = math.Min(math.Max(cy, half+0.02*tp.height), 0.98*tp.height-half)
	p = textPlant(st, p, page, textStamp{text: stampText, x: cx, baseline: cy, size: size, rotation: 45, color: "#CC0000", opacity: 0.6})
	p.names = []string{"PRELIMINARY", "CONSTRUCTION"}
	if numbered {
		p.where += " (over the title-block number " + w.text + ")"
	} else {
		p.where += " (over the bottom-right corner)"
	}
	return p
}
