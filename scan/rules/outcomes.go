package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"planreview/scan/model"
	"planreview/scan/sheets"
	"planreview/textmatch"
)

// Every check has three outcomes (issue 10, item 9): a finding; "missing",
// saying where the thing should have been; and "could not read", when the
// sheets that would show it were not read in full. The first two are
// findings of their rules; the third is folded, per file, into one
// coverage info finding (coverage-checks-not-covered) that says which
// checks did not cover which sheets and why, in a few sentences.

// filePages groups the review's pages by file, in registration order.
func (rv *review) filePages() [][]*pageView {
	var order []int
	by := map[int][]*pageView{}
	for _, pv := range rv.pages {
		if _, ok := by[pv.FileIndex]; !ok {
			order = append(order, pv.FileIndex)
		}
		by[pv.FileIndex] = append(by[pv.FileIndex], pv)
	}
	out := make([][]*pageView, 0, len(order))
	for _, fi := range order {
		out = append(out, by[fi])
	}
	return out
}

// pageName names a page for a coverage sentence: "page 3 (sheet A-101)".
func (pv *pageView) pageName() string {
	if pv.Ident.Number != "" {
		return fmt.Sprintf("page %d (sheet %s)", pv.Page.Number, pv.Ident.Number)
	}
	return fmt.Sprintf("page %d", pv.Page.Number)
}

// --- sheet index: missing, could not read, duplicate rows, placeholders ----

// coverTitleRe names a cover or title sheet, where a set's index belongs.
var coverTitleRe = textmatch.MustCompile(`(?i)\b(?:COVER(?:\s+SHEET)?|TITLE\s+SHEET)\b`)

// isCover reports whether the page is the set's cover or a general sheet:
// where a sheet index is printed.
func (pv *pageView) isCover() bool {
	return pv.Ident.Type == sheets.TypeGeneral || coverTitleRe.MatchString(pv.Ident.Title)
}

// indexHeadingLine returns the page's first line that is a sheet-index
// heading standing alone (at most five words: "DRAWING INDEX", "LIST OF
// DRAWINGS"), or -1. A heading word inside a note ("CONTENTS OF THE
// PACKAGE") is not one.
func (pv *pageView) indexHeadingLine() int {
	if !pv.Readable {
		return -1
	}
	for li, l := range pv.Lines {
		if len(l.Words) <= 5 && model.IsIndexHeading(l.Text) {
			return li
		}
	}
	return -1
}

// indexState is what the review knows about one file's sheet index.
type indexState struct {
	pages   []*pageView
	keys    map[string]bool // the file's sheet numbers read from title blocks
	index   *pageView       // the page whose index rows were read
	heading *pageView       // a page with an index heading (rows read or not)
	cover   *pageView       // a cover or general sheet read in full
	unread  *pageView       // a cover or general sheet not read in full
	// names is a cover that names three or more of the set's other sheet
	// numbers without an index heading or rows read: a list the engine
	// could not read as an index, not a set without one.
	names *pageView
}

// fileIndexState is the file's index state, read once per file (all pages
// of a file are reviewed together: scope is decided per file).
func fileIndexState(pages []*pageView) indexState {
	fm := pages[0].set
	if fm == nil {
		return readIndexState(pages)
	}
	fm.indexOnce.Do(func() { fm.index = readIndexState(pages) })
	return fm.index
}

func readIndexState(pages []*pageView) indexState {
	st := indexState{pages: pages, keys: map[string]bool{}}
	for _, pv := range pages {
		if pv.Ident.Key != "" {
			st.keys[pv.Ident.Key] = true
		}
		if st.index == nil && len(pv.Index) > 0 {
			st.index = pv
		}
		if st.heading == nil && pv.indexHeadingLine() >= 0 {
			st.heading = pv
		}
		if !pv.isCover() {
			continue
		}
		if pv.ReadInFull() && pv.drawingAreaWords() >= 10 {
			if st.cover == nil {
				st.cover = pv
			}
		} else if st.unread == nil {
			st.unread = pv
		}
	}
	for _, pv := range pages {
		if st.names == nil && pv.isCover() && pv.Readable && pv.namesSheets(st.keys) >= 3 {
			st.names = pv
		}
	}
	return st
}

// namesSheets counts the set's sheet numbers, other than its own, that the
// page prints as rows of a list: a short line (at most eight words) that
// starts or ends with the number and has a word of letters beside it
// ("A-101 FLOOR PLAN", "SITE PLAN 2"). A numbered note ("1. ALL WORK …") is
// not a row.
func (pv *pageView) namesSheets(keys map[string]bool) int {
	seen := map[string]bool{}
	for _, l := range pv.Lines {
		n := len(l.Words)
		if n < 2 || n > 8 || !model.HasWordOfLetters(l.Text) {
			continue
		}
		first := sheets.WordText(pv.Page.Words[l.Words[0]])
		last := sheets.WordText(pv.Page.Words[l.Words[n-1]])
		for _, w := range []string{first, last} {
			if w == first && strings.HasSuffix(w, ".") || strings.HasSuffix(w, ")") {
				continue
			}
			k := sheets.NumberKey(strings.Trim(w, ".,;:"))
			if k != "" && k != pv.Ident.Key && keys[k] {
				seen[k] = true
			}
		}
	}
	return len(seen)
}

// permitSet reports whether the file is a permit set of at least three
// numbered sheets: a set that lists its sheets.
func (st indexState) permitSet() bool {
	pv := st.pages[0]
	return pv.set != nil && pv.set.DocType == sheets.DocPermitSet && len(st.keys) >= 3
}

// checkIndexAbsent is the sheet index's "missing" outcome: a permit set of
// three or more numbered sheets whose cover or general sheet was read in
// full, with no index heading or index rows on any page. Where a page of
// the set could not be read in full the index may be on it: that is the
// "could not read" outcome (indexCoverage), not a finding.
func checkIndexAbsent(rv *review, r *Rule) []observation {
	var out []observation
	for _, pages := range rv.filePages() {
		st := fileIndexState(pages)
		if !st.permitSet() || st.index != nil || st.heading != nil || st.names != nil || st.cover == nil {
			continue
		}
		all := true
		for _, pv := range pages {
			all = all && pv.ReadInFull()
		}
		if !all {
			continue
		}
		out = append(out, observation{page: st.cover, words: st.cover.Ident.TitleWords,
			vars:     map[string]string{"where": st.cover.sheetNumberOr(), "count": fmt.Sprint(len(pages))},
			evidence: "no sheet index"})
	}
	return out
}

// indexCoverage is the sheet index's "could not read" outcome for one
// file: an index heading whose rows could not be matched to sheet numbers,
// or a permit set without an index whose cover or other pages were not
// read in full.
func indexCoverage(pages []*pageView) string {
	st := fileIndexState(pages)
	if st.index != nil || len(pages) < 3 {
		return ""
	}
	if st.heading != nil {
		li := st.heading.indexHeadingLine()
		return fmt.Sprintf("The sheet index under %q on %s could not be read as rows of sheet numbers with titles, so the set was not checked against it.",
			strings.TrimSpace(st.heading.Lines[li].Text), st.heading.pageName())
	}
	if !st.permitSet() {
		return ""
	}
	if st.names != nil {
		return fmt.Sprintf("The cover %s prints %d of the set's sheet numbers beside titles, but under no index heading the engine knows, so they were not read as the set's index and the set was not checked against them.",
			st.names.pageName(), st.names.namesSheets(st.keys))
	}
	if st.cover != nil && allReadInFull(pages) {
		return ""
	}
	// Only a cover whose text layer says it was not read: a cover read in
	// full with little text outside its title-block zone may simply print
	// its text there (no claim either way, and no finding).
	if st.unread != nil && !st.unread.ReadInFull() {
		what := "could not be read"
		if st.unread.Readable {
			what = "holds only scattered readable words"
		}
		return fmt.Sprintf("No sheet index was found, and the cover %s %s, so whether the set lists its sheets was not checked.", st.unread.pageName(), what)
	}
	return ""
}

func allReadInFull(pages []*pageView) bool {
	for _, pv := range pages {
		if !pv.ReadInFull() {
			return false
		}
	}
	return true
}

// unnumberedCandidates returns the pages, other than the index page, that
// may be the sheet an index row lists although no sheet carries its number:
// pages whose number was not read and that were not read in full, carry no
// title read, or carry the row's title.
func (rv *review) unnumberedCandidates(ip *pageView, e model.IndexEntry) []*pageView {
	var out []*pageView
	want := titleTokens(e.Title)
	for _, pv := range rv.pages {
		if pv == ip || pv.Ident.Key != "" {
			continue
		}
		got := titleTokens(pv.Ident.Title)
		if !pv.ReadInFull() || len(got) == 0 || len(want) > 0 && (subsetOf(want, got) || subsetOf(got, want)) {
			out = append(out, pv)
		}
	}
	return out
}

// indexUndecided is the "could not read" outcome of an index row whose
// sheet is not among the numbers read while some page's number could not
// be read: one sentence for the index page's file.
func (rv *review) indexUndecided() map[int][]string {
	out := map[int][]string{}
	present := rv.presentSheets()
	reported := map[string]bool{}
	for _, ip := range rv.indexPages() {
		var listed []string
		candidates := map[*pageView]bool{}
		var pages []*pageView
		for _, e := range ip.Index {
			if _, ok := present[e.Key]; ok || reported[e.Key] || notExpected(e) {
				continue
			}
			reported[e.Key] = true
			cs := rv.unnumberedCandidates(ip, e)
			if len(cs) == 0 {
				continue
			}
			listed = append(listed, e.Number)
			for _, pv := range cs {
				if !candidates[pv] {
					candidates[pv] = true
					pages = append(pages, pv)
				}
			}
		}
		if len(listed) == 0 {
			continue
		}
		sort.Slice(pages, func(i, j int) bool {
			if pages[i].FileIndex != pages[j].FileIndex {
				return pages[i].FileIndex < pages[j].FileIndex
			}
			return pages[i].Page.Number < pages[j].Page.Number
		})
		if len(listed) > 6 {
			listed = append(listed[:6], "…")
		}
		out[ip.FileIndex] = append(out[ip.FileIndex], fmt.Sprintf(
			"The sheet index on %s lists %s, not among the sheet numbers read; %s %s no sheet number that could be read, so whether %s missing was not decided.",
			ip.sheetNumberOr(), joinAnd(listed), pageList(pages), map[bool]string{true: "has", false: "have"}[len(pages) == 1],
			map[bool]string{true: "that sheet is", false: "those sheets are"}[len(listed) == 1]))
	}
	return out
}

// reservedTitleRe is an index row that keeps its number free on purpose:
// the sheet is not expected in the set.
var reservedTitleRe = textmatch.MustCompile(`(?i)^\W*(?:RESERVED|NOT\s+USED|(?:INTENTIONALLY\s+)?(?:LEFT\s+)?BLANK|VOID|DELETED|OMITTED)\W*$`)

// elsewhereTitleRe is an index row whose title says the sheet is not part
// of this submittal: "GRADING PLAN (BY OTHERS)", "FIRE SPRINKLER PLAN -
// DEFERRED SUBMITTAL", "SITE UTILITIES (UNDER SEPARATE PERMIT)", "SURVEY
// (FOR REFERENCE ONLY)".
var elsewhereTitleRe = textmatch.MustCompile(`(?i)\bBY\s+OTHERS\b|\b(?:UNDER\s+)?SEPARATE\s+(?:SUBMITTAL|SUBMISSION|PERMIT|COVER|PACKAGE|CONTRACT)\b|\(\s*DEFERRED\b|[-–]\s*DEFERRED\b|\bFOR\s+REFERENCE\b|\bNOT\s+(?:INCLUDED|IN\s+(?:THIS\s+)?(?:SET|SUBMITTAL|CONTRACT))\b|\bN\.\s?I\.\s?C\.?(?:\W|$)`)

// notExpected reports whether an index row names a sheet this set is not
// meant to hold: a number kept free, or a sheet submitted separately.
func notExpected(e model.IndexEntry) bool {
	return reservedTitleRe.MatchString(e.Title) || elsewhereTitleRe.MatchString(e.Title)
}

// checkIndexPlaceholder reports an index row whose title is a template's
// placeholder ("SHEET TITLE", "TBD", "XXX", "---"), on the row. The rest of
// the index is checked as usual.
func checkIndexPlaceholder(rv *review, r *Rule) []observation {
	var out []observation
	for _, ip := range rv.indexPages() {
		own := map[int]bool{}
		for _, w := range ip.Ident.NumberWords {
			own[w] = true
		}
		for _, e := range ip.Index {
			if !model.IsPlaceholderTitle(e.Title) || len(e.Words) == 0 || own[e.Words[0]] {
				continue
			}
			out = append(out, observation{page: ip, words: e.Words,
				vars:     map[string]string{"listed": e.Number, "indexTitle": strings.TrimSpace(e.Title), "indexSheet": ip.sheetNumberOr()},
				evidence: "placeholder title " + e.Key})
		}
	}
	return out
}

// checkIndexDuplicate reports a sheet number an index lists twice. Rows
// with the same title are a plain repeat, reported on the second row. Rows
// with different titles may be one sheet with two subjects ("GENERAL
// NOTES" and "CONSTRUCTION ASSEMBLIES" for "GENERAL NOTES & CONSTRUCTION
// ASSEMBLIES"), so they are reported only when one row's title is the
// title of another sheet of the set that the index does not list: the row
// was meant for that sheet, reported on that row. An index repeated whole
// on its page (most numbers twice) is a second copy of the list, not an
// error of its rows.
func checkIndexDuplicate(rv *review, r *Rule) []observation {
	var out []observation
	for _, ip := range rv.indexPages() {
		rows := map[string][]model.IndexEntry{}
		var keys []string
		for _, e := range ip.Index {
			if _, ok := rows[e.Key]; !ok {
				keys = append(keys, e.Key)
			}
			rows[e.Key] = append(rows[e.Key], e)
		}
		var repeated []string
		for _, k := range keys {
			if len(rows[k]) > 1 && !sameRow(rows[k]) {
				repeated = append(repeated, k)
			}
		}
		if len(repeated) == 0 || 2*len(repeated) > len(keys) {
			continue
		}
		for _, k := range repeated {
			es := rows[k]
			vars := map[string]string{"listed": es[1].Number, "first": strings.TrimSpace(es[0].Title),
				"second": strings.TrimSpace(es[1].Title), "indexSheet": ip.sheetNumberOr(), "meant": ""}
			if sameTitles(es) {
				out = append(out, observation{page: ip, words: es[1].Words, vars: vars, evidence: "index twice " + k})
				continue
			}
			e, other := rv.rowMeantFor(es, rows)
			if other == nil {
				continue
			}
			vars["meant"] = fmt.Sprintf(" \"%s\" is the title of sheet %s, which the index does not list.", strings.TrimSpace(e.Title), other.Ident.Number)
			out = append(out, observation{page: ip, words: e.Words, vars: vars, evidence: "index twice " + k})
		}
	}
	return out
}

// rowMeantFor returns the row among es whose title is the title-block
// title of a sheet of the set the index does not list, and that sheet.
func (rv *review) rowMeantFor(es []model.IndexEntry, listed map[string][]model.IndexEntry) (model.IndexEntry, *pageView) {
	for _, e := range es {
		want := titleTokens(e.Title)
		if len(want) == 0 {
			continue
		}
		for _, pv := range rv.pages {
			if pv.Ident.Key == "" || pv.Ident.Key == e.Key || pv.Ident.Title == "" {
				continue
			}
			if _, ok := listed[pv.Ident.Key]; ok {
				continue
			}
			got := titleTokens(pv.Ident.Title)
			if subsetOf(want, got) && subsetOf(got, want) {
				return e, pv
			}
		}
	}
	return model.IndexEntry{}, nil
}

// sameRow reports whether the entries are the members of one printed range
// row ("21-23" lists each number once, from one word).
func sameRow(es []model.IndexEntry) bool {
	for _, e := range es[1:] {
		if len(e.Words) == 0 || len(es[0].Words) == 0 || e.Words[0] != es[0].Words[0] {
			return false
		}
	}
	return true
}

func sameTitles(es []model.IndexEntry) bool {
	first := titleTokens(es[0].Title)
	for _, e := range es[1:] {
		t := titleTokens(e.Title)
		if !subsetOf(t, first) || !subsetOf(first, t) {
			return false
		}
	}
	return true
}

// --- door and window tags: could not read ---------------------------------

// doorWindowTagRe is a tag of the door and window families that sets
// commonly use when no schedule says which families there are: D1, W12,
// DR3, WD2A.
var doorWindowTagRe = textmatch.MustCompile(`^(?:D|W|DR|WD|WIN)\d{1,3}[A-Z]?$`)

// openingCoverage is the door and window check's "could not read" outcome,
// per file: a schedule found whose marks could not be read, a schedule read
// whose marks no plan tag matched, or plans tagged with door and window
// marks and no schedule found in the set.
func (rv *review) openingCoverage() map[int][]string {
	out := map[int][]string{}
	present := rv.presentSheets()
	var schedules []*pageView
	marks := map[string]bool{}
	for _, pv := range rv.pages {
		if !pv.Readable || !pv.IsOpeningSchedule() {
			continue
		}
		schedules = append(schedules, pv)
		for _, h := range pv.marks(present) {
			marks[h.mark] = true
		}
	}
	var plans []*pageView
	for _, pv := range rv.pages {
		if pv.Readable && pv.IsFloorPlan() && !pv.IsOpeningSchedule() {
			plans = append(plans, pv)
		}
	}
	switch {
	case len(schedules) > 0 && len(marks) < 3:
		s := schedules[0]
		out[s.FileIndex] = append(out[s.FileIndex], fmt.Sprintf(
			"The door or window schedule on %s was found, but its marks could not be read as marks of letters and digits standing alone (W1, D3A; numbered marks are not compared, since room numbers and keynotes share their shape), so its openings were not compared with the tags on the plans.", s.pageName()))
	case len(schedules) > 0:
		_, _, ok := rv.openingTags()
		if ok {
			break
		}
		s := schedules[0]
		out[s.FileIndex] = append(out[s.FileIndex], fmt.Sprintf(
			"The schedule on %s lists %d marks, but no floor plan of the set shows two or more of them as tags standing alone, so the schedule and the plans were not compared.", s.pageName(), len(marks)))
	case len(plans) > 0 && rv.namedOpeningSchedule() != nil:
		// A schedule heading on a sheet not titled as a schedule: the
		// schedule exists but was not read as one.
		s := rv.namedOpeningSchedule()
		out[s.FileIndex] = append(out[s.FileIndex], fmt.Sprintf(
			"A door or window schedule is headed on %s, but that sheet is not titled as a schedule, so the schedule was not read and the tags on the plans were not compared with it.", s.pageName()))
	default:
		// One sentence per file, however many plans it tags.
		tagged := map[int][]*pageView{}
		tags := map[int]map[string]bool{}
		for _, pv := range plans {
			own := map[string]bool{}
			for _, l := range pv.Lines {
				// A tag is one short word: most lines are ruled out
				// before the expression runs.
				if len(l.Words) != 1 || len(l.Text) > 8 {
					continue
				}
				t := strings.TrimSpace(l.Text)
				if t == "" || t[0] != 'D' && t[0] != 'W' {
					continue
				}
				if _, isSheet := present[t]; !isSheet && doorWindowTagRe.MatchString(t) {
					own[t] = true
				}
			}
			if len(own) < 3 {
				continue
			}
			tagged[pv.FileIndex] = append(tagged[pv.FileIndex], pv)
			if tags[pv.FileIndex] == nil {
				tags[pv.FileIndex] = map[string]bool{}
			}
			for t := range own {
				tags[pv.FileIndex][t] = true
			}
		}
		for fi, pvs := range tagged {
			names := make([]string, 0, len(tags[fi]))
			for t := range tags[fi] {
				names = append(names, t)
			}
			sort.Strings(names)
			if len(names) > 4 {
				names = append(names[:4], "…")
			}
			subject, verb := "The plan on "+pageList(pvs), "tags"
			if len(pvs) > 1 {
				subject, verb = "The plans on "+pageList(pvs), "tag"
			}
			out[fi] = append(out[fi], fmt.Sprintf(
				"%s %s doors or windows (%s), but no door or window schedule was found in the set, so the tags were not checked against one.", subject, verb, strings.Join(names, ", ")))
		}
	}
	return out
}

// openingScheduleHeadingRe is a door or window schedule's heading standing
// alone on its line ("WINDOW SCHEDULE", "DOOR AND FRAME SCHEDULE"), not a
// note pointing at one ("SEE WINDOW SCHEDULE").
var openingScheduleHeadingRe = lineSet.MustCompile(`(?i)^\s*(?:EXTERIOR\s+|INTERIOR\s+)?(?:DOORS?|WINDOWS?|OPENINGS?|GLAZING|ALUMINIUM|ALUMINUM)(?:\s+(?:AND|&)\s+(?:DOORS?|WINDOWS?|FRAMES?|HARDWARE))?\s+SCHEDULES?\s*:?\s*$`)

// namedOpeningSchedule returns the first readable page that heads a door
// or window schedule although the page is not read as a schedule sheet.
func (rv *review) namedOpeningSchedule() *pageView {
	for _, pv := range rv.pages {
		if !pv.Readable || pv.IsOpeningSchedule() {
			continue
		}
		for li := range pv.Lines {
			if pv.matches(openingScheduleHeadingRe, li) {
				return pv
			}
		}
	}
	return nil
}

// pageList names pages for a coverage sentence: each with its sheet
// number while there are few ("page 2 (sheet A-101) and page 3 (sheet
// A-102)"), else as page numbers with runs joined ("pages 1–5, 8 and 9").
func pageList(pvs []*pageView) string {
	if len(pvs) <= 4 {
		names := make([]string, len(pvs))
		for i, pv := range pvs {
			names[i] = pv.pageName()
		}
		return joinAnd(names)
	}
	return pageNumbers(pvs)
}

// pageNumbers is pageList with page numbers only, runs joined.
func pageNumbers(pvs []*pageView) string {
	var parts []string
	for i := 0; i < len(pvs); {
		j := i
		for j+1 < len(pvs) && pvs[j+1].Page.Number == pvs[j].Page.Number+1 && pvs[j+1].FileIndex == pvs[i].FileIndex {
			j++
		}
		if j-i >= 2 {
			parts = append(parts, fmt.Sprintf("%d–%d", pvs[i].Page.Number, pvs[j].Page.Number))
		} else {
			for k := i; k <= j; k++ {
				parts = append(parts, fmt.Sprint(pvs[k].Page.Number))
			}
		}
		i = j + 1
	}
	if len(pvs) == 1 {
		return "page " + joinAnd(parts)
	}
	return "pages " + joinAnd(parts)
}

func joinAnd(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// --- the coverage finding ---------------------------------------------------

// numberCoverage is the "could not read" outcome of the checks that work
// on sheet numbers (index against the set, duplicate numbers, references
// to other sheets) for a file of several readable pages none of whose
// sheet numbers could be read.
func numberCoverage(pages []*pageView) string {
	readable := 0
	for _, pv := range pages {
		if pv.Ident.Key != "" {
			return ""
		}
		if pv.Readable {
			readable++
		}
	}
	if readable < 2 {
		return ""
	}
	return "No sheet number could be read on any page, so the sheet index, repeated sheet numbers and references to other sheets were not checked against the set."
}

// outlinedNumberCoverage names the pages whose sheet number is drawn as
// outlines: printed, but not in the text layer, so it could not be read.
func outlinedNumberCoverage(pages []*pageView) string {
	var outlined []*pageView
	for _, pv := range pages {
		if pv.Readable && pv.Model != nil && pv.Ident.Number == "" && pv.Model.FieldUnread(sheets.FieldNumber) {
			outlined = append(outlined, pv)
		}
	}
	if len(outlined) == 0 {
		return ""
	}
	verb := agreeing(outlined, "is", "are")
	return fmt.Sprintf("The sheet number of %s %s drawn as outlines, not text, so it could not be read; the sheet index, repeated sheet numbers and references were not checked against it.",
		pageList(outlined), verb)
}

// partialCoverage names the pages of a file read only in part, and the
// checks that therefore did not cover them: those with a meaningful share
// of their text drawn as outlines, those whose words lose letters, and
// those read as scattered words.
func partialCoverage(pages []*pageView) string {
	var outlined, lossy, scattered []*pageView
	for _, pv := range pages {
		switch {
		case !pv.Readable || pv.ReadInFull():
		case pv.Model != nil && pv.Model.PartlyOutlined:
			outlined = append(outlined, pv)
		case pv.Model != nil && pv.Model.LostLetters:
			lossy = append(lossy, pv)
		default:
			scattered = append(scattered, pv)
		}
	}
	var out []string
	if len(outlined) > 0 {
		verb := agreeing(outlined, "draws", "draw")
		out = append(out, fmt.Sprintf("%s %s part of the text as outlines, not text (notes, labels or schedules in %s), which could not be read: sheet references, documents relied on, issue status, unfinished text and title-block fields printed there were not checked.",
			upperFirst(pageList(outlined)), verb, outlinedPlaces(outlined)))
	}
	if len(lossy) > 0 {
		verb := agreeing(lossy, "sets", "set")
		out = append(out, fmt.Sprintf("%s %s text in fonts some of whose letters do not read back as text (words come out missing letters), so sheet references, documents relied on, issue status, unfinished text and the title block could not be checked there in full.",
			upperFirst(pageList(lossy)), verb))
	}
	if len(scattered) > 0 {
		verb := agreeing(scattered, "holds", "hold")
		out = append(out, fmt.Sprintf("%s %s only scattered readable words (the rest of the text is drawn as images or outlines, or in a font that does not read back as text), so sheet references, documents relied on, issue status, unfinished text and the title block could not be checked there.",
			upperFirst(pageList(scattered)), verb))
	}
	return strings.Join(out, " ")
}

// outlinedPlaces counts the regions of outlined text on the pages.
func outlinedPlaces(pages []*pageView) string {
	n := 0
	for _, pv := range pages {
		n += len(pv.Model.Outlined)
	}
	if n == 1 {
		return "one place"
	}
	return strconv.Itoa(n) + " places"
}

// agreeing is the verb agreeing with a list of pages: one for a single
// page, many for several.
func agreeing(pages []*pageView, one, many string) string {
	if len(pages) > 1 {
		return many
	}
	return one
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// checkNotCovered is the folded "could not read" outcome: one info finding
// per file, on its first page, saying which checks did not cover which of
// its sheets and why. Pages with no text at all have their own
// coverage-unreadable-page finding and are not repeated here; files out of
// scope are not reviewed at all (their scope finding says so).
func checkNotCovered(rv *review, r *Rule) []observation {
	openings := rv.openingCoverage()
	undecided := rv.indexUndecided()
	var out []observation
	files := rv.filePages()
	setLevel := firstInScopeFile(rv, files)
	for _, pages := range files {
		fi := pages[0].FileIndex
		if fi < len(rv.scopes) && rv.scopes[fi].Class == ScopeOutOfScope {
			continue
		}
		var parts []string
		for _, s := range []string{partialCoverage(pages), outlinedNumberCoverage(pages), numberCoverage(pages), indexCoverage(pages)} {
			if s != "" {
				parts = append(parts, s)
			}
		}
		parts = append(parts, undecided[fi]...)
		parts = append(parts, openings[fi]...)
		parts = append(parts, rv.stairCoverage(pages)...)
		parts = append(parts, rv.guardCoverage(pages)...)
		parts = append(parts, rv.doorCoverage(pages)...)
		parts = append(parts, rv.sitePlanCoverage(pages)...)
		parts = append(parts, rv.sealCoverage(pages)...)
		if s := rv.projectDataCoverage(fi, fi == setLevel); s != "" {
			parts = append(parts, s)
		}
		if len(parts) == 0 {
			continue
		}
		first := pages[0]
		for _, pv := range pages {
			if pv.Readable {
				first = pv
				break
			}
		}
		out = append(out, observation{page: first,
			vars:     map[string]string{"what": strings.Join(parts, " ")},
			evidence: fmt.Sprintf("not covered file%d", fi)})
	}
	return out
}

// --- stairs: could not read -------------------------------------------------

var (
	stairTitleRe = textmatch.MustCompile(`(?i)\bSTAIRS?\b`)
	// An arrow label of a stair on a plan: "UP", "DN", "DOWN" standing alone.
	stairArrowRe = lineSet.MustCompile(`(?i)^\s*(?:UP|DN|DOWN)\s*$`)
	stairLineRe  = lineSet.MustCompile(`(?i)\bSTAIRS?\b`)
)

// drawsStairs reports whether a sheet draws a stair: its title names one,
// or it labels a stair arrow (UP/DN standing alone) and names a stair.
func (pv *pageView) drawsStairs() bool {
	if !pv.Readable {
		return false
	}
	if stairTitleRe.MatchString(pv.Ident.Title) {
		return true
	}
	arrow, word := false, false
	for li := range pv.Lines {
		arrow = arrow || pv.matches(stairArrowRe, li)
		word = word || pv.matches(stairLineRe, li)
		if arrow && word {
			return true
		}
	}
	return false
}

// stairRulesActive reports whether a stair rule of the adopted packs
// applies to this review (in scope, occupancy known): only then is an
// unread stair a check that did not run for want of values.
func (rv *review) stairRulesActive() bool {
	for _, r := range rv.eng.rules {
		if r.Topic == "life-safety.stairs" && rv.eng.packKind(r.Pack) != "completeness" && rv.occupancyApplies(r) {
			return true
		}
	}
	return false
}

// stairValuesRead reports whether a riser height or tread depth can be
// read on the page: a riser count or total rise the stair checks read, or
// a stair quantity of the model (not an existing stair's).
func (rv *review) stairValuesRead(pv *pageView) bool {
	for li := range pv.Lines {
		if pv.find(riserCountRe, li) != nil || pv.find(totalRiseRe, li) != nil {
			return true
		}
	}
	for _, q := range pv.Quantities() {
		switch q.Kind {
		case model.RiserHeight, model.TreadDepth, model.Headroom, model.HandrailHeight, model.StairWidth, model.FlightRise:
			if !q.Has(model.TagExisting) {
				return true
			}
		}
	}
	return false
}

// stairCoverage is the code values' "could not read" outcome for a file in
// scope: sheets that draw a stair while no sheet of the set gives a riser
// height or tread depth the stair rules could read.
func (rv *review) stairCoverage(pages []*pageView) []string {
	fi := pages[0].FileIndex
	if fi >= len(rv.scopes) || rv.scopes[fi].Class != ScopeInScope || !rv.stairRulesActive() {
		return nil
	}
	var stairs []*pageView
	for _, pv := range pages {
		if pv.drawsStairs() && !model.NamesExisting(pv.Ident.Title) {
			stairs = append(stairs, pv)
		}
	}
	if len(stairs) == 0 {
		return nil
	}
	for _, pv := range rv.pages {
		if pv.Readable && rv.stairValuesRead(pv) {
			return nil
		}
	}
	verb := agreeing(stairs, "draws", "draw")
	return []string{fmt.Sprintf("%s %s a stair, but no riser height or tread depth could be read on any sheet, so the stair rules were not checked.",
		upperFirst(pageList(stairs)), verb)}
}

// --- doors: could not read --------------------------------------------------

// doorScheduleTitleRe is a door schedule's title standing as a heading.
var doorScheduleTitleRe = textmatch.MustCompile(`(?i)^\s*(?:[A-Z0-9]+\s+)?DOOR\s+(?:AND\s+(?:FRAME|HARDWARE)\s+)?SCHEDULE\s*$`)

// doorRulesActive reports whether a door-width rule of the adopted packs
// applies to this review.
func (rv *review) doorRulesActive() bool {
	for _, r := range rv.eng.rules {
		if r.Topic == "egress.doors" && rv.occupancyApplies(r) {
			if r.Measure == model.DoorClearWidth {
				return true
			}
		}
	}
	return false
}

// doorCoverage is the door rules' "could not read" outcome for a file in
// scope: a sheet titled with a door schedule whose table, or whose width
// or size column, the layout did not read (a schedule drawn without rules,
// or one whose sizes are in a column the engine does not name).
func (rv *review) doorCoverage(pages []*pageView) []string {
	fi := pages[0].FileIndex
	if fi >= len(rv.scopes) || rv.scopes[fi].Class != ScopeInScope || !rv.doorRulesActive() {
		return nil
	}
	var out []string
	for _, pv := range pages {
		if !pv.ReadInFull() {
			continue
		}
		titled := false
		for _, l := range pv.Lines {
			if len(l.Words) <= 6 && doorScheduleTitleRe.MatchString(l.Text) {
				titled = true
				break
			}
		}
		if !titled {
			continue
		}
		table, sized := pv.DoorSchedules()
		switch {
		case !table:
			out = append(out, fmt.Sprintf("The door schedule on %s could not be read as a table, so door widths were not checked.", pv.pageName()))
		case !sized:
			out = append(out, fmt.Sprintf("The door schedule on %s has no width or size column the engine could read, so door widths were not checked.", pv.pageName()))
		}
	}
	return out
}

// --- guards: could not read -------------------------------------------------

// guardLineRe names a guard on a sheet ("GUARDRAIL", "42" GUARD").
var guardLineRe = lineSet.MustCompile(`(?i)\bGUARD\s*RAILS?\b|\bGUARDS?\b`)

// guardHeightRules returns the adopted guard-height rules that apply to
// this review (in scope, occupancy known).
func (rv *review) guardHeightRules() []*Rule {
	var out []*Rule
	for _, r := range rv.eng.rules {
		if r.Topic == "life-safety.guards" && strings.Contains(r.ID, "guard-height") && rv.occupancyApplies(r) {
			out = append(out, r)
		}
	}
	return out
}

// guardCoverage is the guard rules' "could not read" outcome for a file in
// scope: sheets that name a guard while no sheet of the set gives a guard
// height the rules judge (a height beside a stair is not judged there: 34
// in is allowed on a stair's open side).
func (rv *review) guardCoverage(pages []*pageView) []string {
	fi := pages[0].FileIndex
	if fi >= len(rv.scopes) || rv.scopes[fi].Class != ScopeInScope {
		return nil
	}
	rules := rv.guardHeightRules()
	if len(rules) == 0 {
		return nil
	}
	var named []*pageView
	for _, pv := range pages {
		if !pv.Readable || model.NamesExisting(pv.Ident.Title) {
			continue
		}
		for li, l := range pv.Lines {
			if pv.matches(guardLineRe, li) && !model.GuardLookAlike(l.Text) {
				named = append(named, pv)
				break
			}
		}
	}
	if len(named) == 0 {
		return nil
	}
	for _, pv := range rv.pages {
		if !pv.Readable {
			continue
		}
		for _, q := range pv.QuantitiesOf(model.GuardHeight) {
			for _, r := range rules {
				if r.judges(q) {
					return nil
				}
			}
		}
	}
	verb := agreeing(named, "names", "name")
	return []string{fmt.Sprintf("%s %s a guard, but no guard height could be read on any sheet (a height beside a stair is not judged), so the guard-height rules were not checked.",
		upperFirst(pageList(named)), verb)}
}

// --- project data: could not compare ------------------------------------

// projectDataCoverage is the sentence naming the project-data comparisons
// the checks could not make in file fi (and, for setLevel, those that
// concern the set as a whole). It reads what the checks recorded and reads
// no project data of its own when none was read.
func (rv *review) projectDataCoverage(fi int, setLevel bool) string {
	if rv.project == nil {
		return ""
	}
	var reasons []string
	for _, u := range rv.project.unread {
		if u.file == fi || (u.file < 0 && setLevel) {
			reasons = append(reasons, u.reason)
		}
	}
	if len(reasons) == 0 {
		return ""
	}
	return "The project data could not be compared with the drawings: " + strings.Join(reasons, "; ") + "."
}

// firstInScopeFile is the file set-level coverage sentences go with: the
// first file of the review that is not out of scope (else the first).
func firstInScopeFile(rv *review, files [][]*pageView) int {
	for _, fp := range files {
		fi := fp[0].FileIndex
		if fi >= len(rv.scopes) || rv.scopes[fi].Class != ScopeOutOfScope {
			return fi
		}
	}
	if len(files) == 0 {
		return -1
	}
	return files[0][0].FileIndex
}
