package chat

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"planreview/scan/layout"
	"planreview/textmatch"

	"planreview/scan/sheets"
)

// Fact is one typed statement of the plans: what it is (Kind), its label
// and value as printed, and the page text it was read from (Excerpt, text
// of page Page). A fact whose Value is empty is a label the plans print
// with nothing filled in ("OWNER:"): chat says the plans leave it blank.
//
// Kinds: the review engine's (occupancy, construction_type, sprinklers,
// code, stories, stories_below_grade, building_height, area/<kind>), and
// those read here from labels, title blocks and the page's columns
// (address, parcel, owner, architect, engineer, designer, project,
// zoning, scale, sheet_title, date, revision, issue_status, code, phone,
// email).
type Fact struct {
	Kind      string
	Label     string
	Value     string
	Qualifier string
	Page      int // index into Index.Pages
	Excerpt   string
}

// Fact kinds read from labels.
const (
	FactAddress    = "address"
	FactParcel     = "parcel"
	FactOwner      = "owner"
	FactArchitect  = "architect"
	FactEngineer   = "engineer"
	FactDesigner   = "designer"
	FactProject    = "project"
	FactZoning     = "zoning"
	FactScale      = "scale"
	FactSheetTitle = "sheet_title"
	FactDate       = "date"
	FactRevision   = "revision"
	FactStatus     = "issue_status"
	FactCode       = "code"
	// FactPhone is a party's telephone number, read from the column a
	// party's caption heads ("MEP" over "IMEG", its address and phone);
	// the caption is its label.
	FactPhone = "phone"
	FactEmail = "email"
)

// labelKinds classify a printed label by its words, most specific first.
// Every label of every page is tried against them, so they carry
// textmatch's prefilter: most labels hold none of a kind's words.
// A label is a short caption, so a kind's word anywhere in it decides
// (unless an excluding word is there too: "OWNER PHONE" is a phone).
var labelKinds = []struct {
	kind    string
	re      *textmatch.Regexp
	exclude *textmatch.Regexp
}{
	{FactParcel, textmatch.MustCompile(`(?i)\b(parcel|a\.?p\.?n\.?|assessor'?s?|tax\s*(map|lot|id)|folio|roll\s*(no|number|#)|p\.?i\.?n\.?)\b`),
		textmatch.MustCompile(`(?i)\b(area|coverage|size|depth|width|line)\b`)},
	{FactAddress, textmatch.MustCompile(`(?i)\b(address|site\s*location|project\s*location|property\s*location|municipal\s*address)\b`),
		textmatch.MustCompile(`(?i)\b(e-?mail|web|phone|tel|fax|ip|mac)\b`)},
	{FactArchitect, textmatch.MustCompile(`(?i)\barchitects?\b`), textmatch.MustCompile(`(?i)\b(landscape|phone|e-?mail|address|tel|fax|license|lic|no|number|stamp|seal)\b`)},
	{FactEngineer, textmatch.MustCompile(`(?i)\b(engineer(ing)?\s+of\s+record|engineers?|eor|structural\s+engineer)\b`), textmatch.MustCompile(`(?i)\b(phone|e-?mail|address|tel|fax|license|lic|no|number|stamp|seal)\b`)},
	{FactOwner, textmatch.MustCompile(`(?i)\b(owners?|client|applicant|property\s+owner)\b`), textmatch.MustCompile(`(?i)\b(phone|e-?mail|address|tel|fax|signature|sign|date|furnished|installed|supplied|provided)\b`)},
	{FactDesigner, textmatch.MustCompile(`(?i)\b(designer|designed\s+by|prepared\s+by|drawn\s+by|design\s+firm)\b`), textmatch.MustCompile(`(?i)\b(phone|e-?mail|address|tel|fax)\b`)},
	{FactZoning, textmatch.MustCompile(`(?i)\b(zoning|land\s+use\s+district|zone\s+district|zone)\b`), textmatch.MustCompile(`(?i)\b(fire|flood|seismic|wind|climate|time)\b`)},
	{FactDate, textmatch.MustCompile(`(?i)\b(printed|plotted|print\s+date|plot\s+date)\b`), nil},
	{FactProject, textmatch.MustCompile(`(?i)^\s*(project(\s+(name|title))?|job\s+name)(\s+(and|&)\s+\w+(\s+\w+)?)?\s*$`), nil},
	// "BUILDING CODE:", "APPLICABLE CODES:" over the code's name: a code
	// the engine did not read as one of its own (a state's code).
	{FactCode, textmatch.MustCompile(`(?i)\bcodes?\b`),
		textmatch.MustCompile(`(?i)\b(zip|postal|area|colou?r|sheet|analysis|summary|section|sections|key|type|item|number|no|compliance|review|official|enforcement)\b`)},
}

// labelKind classifies a label (empty: not a kind chat answers from).
func labelKind(label string) string {
	if len(label) > 60 || layout.WordCount(label) > 5 {
		return ""
	}
	for _, lk := range labelKinds {
		if lk.re.MatchString(label) && (lk.exclude == nil || !lk.exclude.MatchString(label)) {
			return lk.kind
		}
	}
	return ""
}

// kindMemo remembers labelKind per label, for the pages of one index
// being built at once.
type kindMemo struct {
	mu   sync.Mutex
	kind map[string]string
}

func newKindMemo() *kindMemo { return &kindMemo{kind: map[string]string{}} }

// labelKind is the package's labelKind, remembered per label.
func (ix *Index) labelKind(label string) string {
	if ix.kinds == nil {
		ix.kinds = newKindMemo()
	}
	k := ix.kinds
	k.mu.Lock()
	kind, ok := k.kind[label]
	k.mu.Unlock()
	if !ok {
		kind = labelKind(label)
		k.mu.Lock()
		k.kind[label] = kind
		k.mu.Unlock()
	}
	return kind
}

// AddFact adds a fact read by the review engine, on the page of fileID
// numbered page, read from text. It is kept only when its words are on that
// page (so its citation checks out); the excerpt is the text, else its
// value.
func (ix *Index) AddFact(f Fact, fileID string, page int, text string) {
	pi := ix.PageIndex(fileID, page)
	if pi < 0 || strings.TrimSpace(f.Value) == "" {
		return
	}
	f.Page = pi
	f.Label, f.Value = normalizeSpace(f.Label), normalizeSpace(f.Value)
	for _, ex := range []string{text, f.Label + " " + f.Value, f.Value} {
		if ex = ix.fitExcerpt(pi, normalizeSpace(ex)); ex != "" && ix.Verify(pi, ex) {
			f.Excerpt = cutWords(ex, maxExcerpt)
			ix.Facts = append(ix.Facts, f)
			return
		}
	}
}

// labelFacts reads the facts a page states by labels: its layout's
// label/value pairs and title-block fields, and captions printed with
// nothing after them (blank).
func (ix *Index) labelFacts(pi int, blockLast []int, boxes []layout.Box, angles []float64, pairs []Unit, fields []sheets.Field, fieldUnits []Unit) {
	valued := map[string]bool{}
	lines := ix.Pages[pi].Lines
	// A caption ending its line ("Site address:") whose value is the lines
	// under it in its block: the whole value, where a pair holds its
	// nearest line only.
	byLines := map[string]bool{}
	for i, line := range lines {
		captions := blankCaptions(line)
		if len(captions) == 0 {
			continue
		}
		label := captions[len(captions)-1]
		kind := ix.labelKind(label)
		if kind == "" || i >= len(blockLast) {
			continue
		}
		var value []string
		for j := i + 1; j <= blockLast[i] && j <= i+3 && j < len(lines); j++ {
			if strings.Contains(lines[j], ":") {
				break
			}
			value = append(value, lines[j])
		}
		v := strings.Join(value, " ")
		ex := label + ": " + v
		if len(value) == 0 {
			// A caption alone in its block: its value may be set apart
			// beside it in its row ("BUILDING CODE:" … "INDIANA
			// BUILDING CODE" over "2014 EDITION").
			value = valueBeside(lines, boxes, angles, i)
			v = strings.Join(value, " ")
			ex = label + ":" + Sep + strings.Join(value, Sep)
			if len(value) > 0 && ix.verifyLines(pi, label+": "+v) {
				ex = label + ": " + v
			}
		}
		if isBlankValue(v) || !plausibleValue(kind, v) {
			continue
		}
		if !ix.verifyAll(pi, ex) {
			continue
		}
		valued[kind] = true
		byLines[strings.ToLower(label)] = true
		ix.Facts = append(ix.Facts, Fact{Kind: kind, Label: label, Value: v, Page: pi, Excerpt: cutWords(ex, maxExcerpt)})
	}
	// A "label" and "value" that are one printed line with no colon and
	// no figure ("PROJECT OVERVIEW", "OWNER FURNISHED-CONTRACTOR") are a
	// heading or a phrase, not a field: a caption without a colon is set
	// apart from its value.
	var whole map[string]bool
	phrase := func(u Unit) bool {
		if strings.Contains(u.Excerpt, ":") || strings.ContainsAny(u.Value, "0123456789") {
			return false
		}
		if whole == nil {
			whole = make(map[string]bool, len(lines))
			for _, l := range lines {
				whole[strings.ToLower(normalizeSpace(l))] = true
			}
		}
		return whole[strings.ToLower(normalizeSpace(u.Label+" "+u.Value))]
	}
	for _, u := range pairs {
		kind := ix.labelKind(u.Label)
		if kind == "" || isBlankValue(u.Value) || byLines[strings.ToLower(u.Label)] || !plausibleValue(kind, u.Value) || phrase(u) {
			continue
		}
		valued[kind] = true
		ix.Facts = append(ix.Facts, Fact{Kind: kind, Label: u.Label, Value: u.Value, Page: pi, Excerpt: u.Excerpt})
	}
	for i, f := range fields {
		var kind string
		switch f.Kind {
		case sheets.FieldScale:
			kind = FactScale
		case sheets.FieldTitle:
			kind = FactSheetTitle
		case sheets.FieldDate:
			kind = FactDate
		case sheets.FieldRevision:
			kind = FactRevision
		case sheets.FieldStatus:
			kind = FactStatus
		default:
			kind = ix.labelKind(f.Caption)
		}
		if kind == "" || i >= len(fieldUnits) || fieldUnits[i].Excerpt == "" || isBlankValue(fieldUnits[i].Value) ||
			!plausibleValue(kind, fieldUnits[i].Value) || phrase(fieldUnits[i]) {
			continue
		}
		u := fieldUnits[i]
		valued[kind] = true
		ix.Facts = append(ix.Facts, Fact{Kind: kind, Label: u.Label, Value: u.Value, Page: pi, Excerpt: u.Excerpt})
	}
	// The page's columns are found once for both readings.
	c := newColumns(lines, boxes, angles)
	ix.contactFacts(pi, c)
	ix.sectionFacts(pi, c, valued)
	// Blank captions: a line ending in "LABEL:" (or a line of captions
	// only, "PHONE: ADDRESS:") states a label whose value was never
	// filled in, unless the page gives that kind a value elsewhere.
	seen := map[string]bool{}
	for i, line := range lines {
		captions := blankCaptions(line)
		// One caption alone ending a block may have its value in the
		// next column: blank only when a caption follows in the block
		// (a form left unfilled) or the line holds several.
		if len(captions) == 1 && !(i+1 <= blockLast[i] && i+1 < len(lines) && len(blankCaptions(lines[i+1])) > 0) &&
			!emptyFormCell(lines, boxes, i) {
			continue
		}
		for _, label := range captions {
			kind := ix.labelKind(label)
			if kind == "" || valued[kind] || seen[kind] {
				continue
			}
			seen[kind] = true
			ix.Facts = append(ix.Facts, Fact{Kind: kind, Label: label, Page: pi, Excerpt: label + ":"})
		}
	}
}

// dateValue is what a date reads: day, month and year in figures
// ("10/3/2024", "10.03.2024", "2020-05-22"), or a month's name, or a year
// ("MAY 22, 2020", "June 2019"); not a scale ("1:200") or a row of
// figures ("2 3 4").
var dateValue = textmatch.MustCompile(`(?i)\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d|\d\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(19|20)\d{2}\b`)

// scaleValue is what a scale reads: a ratio or an equation of lengths
// ("1:100", "1/4\" = 1'-0\""), or a word for none ("NTS", "AS NOTED");
// a lone figure beside the caption is a drawing number.
var scaleValue = textmatch.MustCompile(`(?i)=|\d\s*:\s*\d|\bn\.?\s*t\.?\s*s\b|not\s+to\s+scale|\bas\s+(noted|shown|indicated)\b|\b(none|varies|full|half)\b`)

var captionInValue = textmatch.MustCompile(`[A-Za-z#.)]\s*:(\s|$)`)

var dottedAbbrev = textmatch.MustCompile(`^([A-Z]{1,4}\.|([A-Z]\.){2,}[A-Z]?)$`)

// plausibleValue rejects what a label's neighbour may be without being
// its value: another caption ("CLIENT PROJ. #: C.40"), a run of an
// abbreviation list ("FT. FOOT/FEET JT. JOINT"), or, for a name or a
// place, text with no letters (a dimension).
func plausibleValue(kind, v string) bool {
	if captionInValue.MatchString(v) {
		return false
	}
	dotted := 0
	for _, w := range strings.Fields(v) {
		if dottedAbbrev.MatchString(w) {
			dotted++
		}
	}
	if dotted >= 2 {
		return false
	}
	switch kind {
	case FactDate:
		return dateValue.MatchString(v)
	case FactScale:
		return scaleValue.MatchString(v)
	case FactAddress, FactOwner, FactArchitect, FactEngineer, FactDesigner, FactProject, FactCode:
		letters := 0
		for _, r := range v {
			if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' {
				letters++
			}
		}
		return letters >= 2
	}
	return true
}

// emptyFormCell: the caption of line i heads a column of captions with
// nothing beside or between them (a title block's "Client:", "Project
// Address:", "Date:" left unfilled): the nearest line under it in its
// column, within sixteen line heights (form rows are spaced for handwriting), is another caption, and no line
// starts to its right at its height.
func emptyFormCell(lines []string, boxes []layout.Box, i int) bool {
	if i >= len(boxes) {
		return false
	}
	b := boxes[i]
	h := b.Y1 - b.Y0
	if h <= 0 {
		return false
	}
	below, belowGap := -1, math.Inf(1)
	for j, o := range boxes {
		if j == i || j >= len(lines) || o.X1 <= b.X0 || o.X0 >= b.X1+4*h {
			continue
		}
		if o.Y0 > b.Y0+0.5*h && o.Y0-b.Y1 < 16*h && o.X0 < b.X1 {
			if gap := o.Y0 - b.Y1; gap < belowGap {
				below, belowGap = j, gap
			}
		}
		// Beside: a line at the caption's height starting to its right.
		if o.X0 >= b.X1 && o.X0 < b.X1+20*h && math.Abs((o.Y0+o.Y1)/2-(b.Y0+b.Y1)/2) < 0.6*h {
			return false
		}
	}
	return below >= 0 && len(blankCaptions(lines[below])) > 0
}

// valueBeside is the value of the caption on line i set apart in its row:
// the nearest line of its direction starting after it at its height
// (within twenty line heights), with the lines aligned under that line's
// start that follow it closely (at most two, none holding a colon).
// Nothing when no such line exists or it is itself a caption. Rotated
// text ("SHEET PRINTED:" up a sheet's edge, its date past a drawn rule)
// is read in its own direction.
func valueBeside(lines []string, boxes []layout.Box, angles []float64, i int) []string {
	if i >= len(boxes) || i >= len(angles) {
		return nil
	}
	angle := angles[i]
	frame := func(j int) (layout.Box, bool) {
		if j >= len(lines) || j >= len(boxes) || j >= len(angles) || lines[j] == "" || angles[j] != angle {
			return layout.Box{}, false
		}
		return textFrame(boxes[j], angle), true
	}
	b, _ := frame(i)
	h := b.Y1 - b.Y0
	if h <= 0 {
		return nil
	}
	mid := (b.Y0 + b.Y1) / 2
	best, bestX := -1, math.Inf(1)
	for j := range boxes {
		o, ok := frame(j)
		if j == i || !ok {
			continue
		}
		if o.X0 >= b.X1 && o.X0-b.X1 < 20*h && math.Abs((o.Y0+o.Y1)/2-mid) < 0.6*h && o.X0 < bestX {
			best, bestX = j, o.X0
		}
	}
	if best < 0 || strings.Contains(lines[best], ":") && !phoneOrTime.MatchString(lines[best]) {
		return nil
	}
	out := []string{lines[best]}
	last, _ := frame(best)
	for n := 0; n < 2; n++ {
		next := -1
		for j := range boxes {
			o, ok := frame(j)
			if !ok || math.Abs(o.X0-last.X0) > 0.5*h {
				continue
			}
			if gap := o.Y0 - last.Y1; gap >= -0.2*h && gap < 0.6*h {
				next = j
				break
			}
		}
		if next < 0 || strings.Contains(lines[next], ":") {
			break
		}
		out = append(out, lines[next])
		last, _ = frame(next)
	}
	return out
}

// phoneOrTime: a colon inside a value that is a time of day ("12:59:19")
// or a ratio, not a caption's.
var phoneOrTime = textmatch.MustCompile(`^[^:]*\d:\d`)

// textFrame is a line's box in the frame of its text: X along the reading
// direction, Y across it, growing towards the next line.
func textFrame(b layout.Box, angle float64) layout.Box {
	switch {
	case math.Abs(angle-90) < 1: // reads upwards
		return layout.Box{X0: -b.Y1, Y0: b.X0, X1: -b.Y0, Y1: b.X1}
	case math.Abs(angle-270) < 1: // reads downwards
		return layout.Box{X0: b.Y0, Y0: -b.X1, X1: b.Y1, Y1: -b.X0}
	}
	return b
}

// verifyAll is verifyLines for each fragment of an excerpt (split at
// Sep).
func (ix *Index) verifyAll(pi int, excerpt string) bool {
	for _, part := range strings.Split(excerpt, Sep) {
		if !ix.verifyLines(pi, part) {
			return false
		}
	}
	return true
}

// isBlankValue: a value that is only filler (underscores, dashes, dots).
func isBlankValue(v string) bool {
	return strings.Trim(v, " _-.:…") == ""
}

// blankCaptions are the captions of a line printed with no value: the last
// caption of a line ending in a colon, and every caption of a line made of
// short captions only.
func blankCaptions(line string) []string {
	if !strings.HasSuffix(strings.TrimSpace(line), ":") {
		return nil
	}
	parts := strings.Split(strings.TrimSpace(line), ":")
	parts = parts[:len(parts)-1] // the empty text after the last colon
	var out []string
	allCaptions := true
	for _, p := range parts {
		if n := layout.WordCount(p); n == 0 || n > 4 || strings.ContainsAny(p, "0123456789") {
			allCaptions = false
		}
	}
	if allCaptions {
		for _, p := range parts {
			out = append(out, normalizeSpace(p))
		}
		return out
	}
	last := normalizeSpace(parts[len(parts)-1])
	if n := layout.WordCount(last); n > 0 && n <= 4 {
		out = append(out, last)
	}
	return out
}

// fitExcerpt returns text as an excerpt of page pi: itself when it is a run
// of the page's text, else its words cut into the longest runs that are
// (joined by Sep), or "" when some word is not on the page. Anchors and
// facts read across cells ("A-401 INTERIOR ELEVATIONS" from two cells of
// an index) are cited this way.
func (ix *Index) fitExcerpt(pi int, text string) string {
	text = normalizeSpace(text)
	if text == "" || ix.Verify(pi, text) {
		return text
	}
	words := strings.Fields(text)
	var runs []string
	for i := 0; i < len(words); {
		j := i + 1
		if !ix.Verify(pi, words[i]) {
			return ""
		}
		for j < len(words) && ix.Verify(pi, strings.Join(words[i:j+1], " ")) {
			j++
		}
		runs = append(runs, strings.Join(words[i:j], " "))
		i = j
	}
	return strings.Join(runs, Sep)
}

// verifyLines is Verify on page text still being built (the page's text
// cache is made once all pages are in).
func (ix *Index) verifyLines(pi int, excerpt string) bool {
	// A page's facts verify dozens of excerpts against its text: join it
	// once per page (and again only if lines were added since).
	if v := &ix.verifying; v.text == nil || v.page != pi || v.lines != len(ix.Pages[pi].Lines) {
		text := joinNormalized(ix.Pages[pi].Lines)
		*v = verifyText{page: pi, lines: len(ix.Pages[pi].Lines), text: &text}
	}
	return strings.Contains(*ix.verifying.text, normalizeSpace(excerpt))
}

// verifyText is the joined text of the page verifyLines read last.
type verifyText struct {
	page, lines int
	text        *string
}

// coverTitle is the largest text of a file's first page: the project's
// name on a cover, when the other sheets' title blocks repeat it.
type coverTitle struct {
	page int // index into Index.Pages
	text string
}

// Postal address lines: a street ("915 Mitch Daniels Blvd") and a city
// with its state or province and postal code ("West Lafayette, IN 47907",
// "Calgary, AB T2S 2A3").
var (
	streetLine = textmatch.MustCompile(`^\d{1,6}[A-Za-z]?\s+(\S+\s+){0,6}\S*[A-Za-z]{2,}\S*\.?$`)
	cityLine   = textmatch.MustCompile(`^[A-Za-z][A-Za-z .'-]{1,40}(,\s*|\s+)[A-Z]{2}\.?,?\s+(\d{5}(-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d)$`)
)

// largestText is the text set in the page's largest type, when that type
// is at least twice the page's usual size and its lines (at most three,
// consecutive in reading order, at most fourteen words) read as a name.
func largestText(lp *layout.Page, lineOf []int, pi int, lines []string) (coverTitle, bool) {
	var sizes []float64
	maxSize := 0.0
	for _, l := range lp.Lines {
		if l.Layer != layout.LayerText || l.Angle != 0 || letterRun(l.Text) < 2 {
			continue
		}
		sizes = append(sizes, l.FontSize)
		maxSize = max(maxSize, l.FontSize)
	}
	if len(sizes) < 5 {
		return coverTitle{}, false
	}
	slices.Sort(sizes)
	if maxSize < 2*sizes[len(sizes)/2] {
		return coverTitle{}, false
	}
	var big []int // page lines
	for li, l := range lp.Lines {
		if l.Layer == layout.LayerText && l.Angle == 0 && l.FontSize >= 0.85*maxSize && li < len(lineOf) {
			big = append(big, lineOf[li])
		}
	}
	slices.Sort(big)
	if len(big) == 0 || len(big) > 3 || big[len(big)-1]-big[0] != len(big)-1 {
		return coverTitle{}, false
	}
	text := strings.Join(lines[big[0]:big[len(big)-1]+1], " ")
	if n := layout.WordCount(text); n == 0 || n > 14 || letterRun(text) < 3 || !plausibleValue(FactProject, text) {
		return coverTitle{}, false
	}
	return coverTitle{page: pi, text: text}, true
}

// letterRun is the longest run of letters in s.
func letterRun(s string) int {
	best, n := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// addCoverTitle adds the cover's largest text as the project's name when
// the title blocks of at least half of the file's other pages (and one at
// least) hold three quarters of its words: a sheet's own big title or a
// logo is not repeated from sheet to sheet.
func (ix *Index) addCoverTitle(t coverTitle) {
	words := titleWords(t.text)
	if len(words) == 0 {
		return
	}
	m := newTitleMatch(words)
	others, repeat := 0, 0
	for pi, p := range ix.Pages {
		if pi == t.page || p.FileID != ix.Pages[t.page].FileID || len(p.Lines) == 0 {
			continue
		}
		others++
		if 4*m.count(p.Lines) >= 3*len(words) {
			repeat++
		}
	}
	if repeat == 0 || 2*repeat < others || !ix.verifyLines(t.page, t.text) {
		return
	}
	ix.Facts = append(ix.Facts, Fact{Kind: FactProject, Value: normalizeSpace(t.text), Page: t.page, Excerpt: cutWords(normalizeSpace(t.text), maxExcerpt)})
}

// titleMatch finds a title's words among a page's: each word of the
// page is looked up among the title's few as it is read, not gathered
// first (on a large set that was most of the serial part of building the
// index).
type titleMatch struct {
	words []string
	slot  map[string]int // a distinct word of the title → its place in found
	found []bool
	lower []byte
}

func newTitleMatch(words []string) *titleMatch {
	m := &titleMatch{words: words, slot: map[string]int{}}
	for _, w := range words {
		if _, ok := m.slot[w]; !ok {
			m.slot[w] = len(m.slot)
		}
	}
	m.found = make([]bool, len(m.slot))
	return m
}

// count is how many of the title's words (each time it has one) are
// among the titleWords of lines.
func (m *titleMatch) count(lines []string) int {
	clear(m.found)
	left := len(m.found)
	for _, l := range lines {
		for w := range strings.FieldsSeq(l) {
			var k int
			var ok bool
			if isASCII(w) {
				// titleWords' lower-casing and trimming, in a buffer.
				m.lower = append(m.lower[:0], w...)
				for i, c := range m.lower {
					if 'A' <= c && c <= 'Z' {
						m.lower[i] = c + 'a' - 'A'
					}
				}
				b := bytes.Trim(m.lower, titleTrim)
				if len(b) < 3 {
					continue
				}
				k, ok = m.slot[string(b)]
			} else {
				w = strings.Trim(strings.ToLower(w), titleTrim)
				if len(w) < 3 {
					continue
				}
				k, ok = m.slot[w]
			}
			if ok && !m.found[k] {
				m.found[k] = true
				left--
			}
			if left == 0 {
				break
			}
		}
		if left == 0 {
			break
		}
	}
	n := 0
	for _, w := range m.words {
		if m.found[m.slot[w]] {
			n++
		}
	}
	return n
}

// titleTrim is cut from both ends of a title's words.
const titleTrim = ".,;:()\"'"

// titleWords are the lower-cased words of s with at least three letters
// or digits.
func titleWords(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, titleTrim)
		if len(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

// Party captions heading a column of name, address and phone in a title
// block: the kinds of labelKind that are parties, and the consultants a
// set lists by discipline.
var (
	partyCaption = textmatch.MustCompile(`(?i)^(m\.?e\.?p\.?|m/e/p|structural|civil|mechanical|electrical|plumbing|landscape|fire\s+protection|geotechnical)(\s+(engineer(ing|s)?|consultants?))?$|^(consultants?|contractor|general\s+contractor|surveyor)$`)
	phoneNumber  = textmatch.MustCompile(`(\+\d{1,3}[ .-]?)?(\(\d{2,4}\)|\d{3})[ .-]?\d{3}[ .-]\d{4}\b`)
	emailAddress = textmatch.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)
)

func isPartyCaption(line string) (string, bool) {
	caption := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ":"))
	if caption == "" || layout.WordCount(caption) > 3 {
		return "", false
	}
	switch labelKind(caption) {
	case FactArchitect, FactEngineer, FactOwner, FactDesigner:
		return caption, true
	}
	return caption, partyCaption.MatchString(caption)
}

// columns finds, for the lines of a page, the line stacked right under
// and right over each in its text direction: aligned with it (start, end
// or middle within 0.6 line heights), less than 1.5 heights of white
// space apart.
type columns struct {
	lines  []string
	frames []layout.Box
	angles []float64
}

func newColumns(lines []string, boxes []layout.Box, angles []float64) columns {
	c := columns{lines: lines, frames: make([]layout.Box, len(lines)), angles: angles}
	for j := range lines {
		if j < len(boxes) && j < len(angles) {
			c.frames[j] = textFrame(boxes[j], angles[j])
		}
	}
	return c
}

// next is the line under i (dir 1) or over it (dir -1), or -1.
func (c columns) next(i, dir int) int {
	if i >= len(c.angles) {
		return -1
	}
	b := c.frames[i]
	h := b.Y1 - b.Y0
	if h <= 0 {
		return -1
	}
	best, bestGap := -1, math.Inf(1)
	for j, o := range c.frames {
		if j == i || j >= len(c.angles) || c.lines[j] == "" || c.angles[j] != c.angles[i] {
			continue
		}
		// Flush left, flush right or centred.
		if math.Abs(o.X0-b.X0) > 0.6*h && math.Abs(o.X1-b.X1) > 0.6*h && math.Abs(o.X0+o.X1-b.X0-b.X1) > 1.2*h {
			continue
		}
		gap := o.Y0 - b.Y1
		if dir < 0 {
			gap = b.Y0 - o.Y1
		}
		if gap >= -0.3*h && gap < 1.5*h && gap < bestGap {
			best, bestGap = j, gap
		}
	}
	return best
}

// contactFacts reads the telephone numbers and e-mail addresses a page
// lists, and the postal addresses that are no party's. A contact line
// ("(317) 848-5045", "info@firm.com") belongs to the column over it: its
// party caption ("ARCHITECT", "MEP") within five lines up, else the
// column's first line (the firm's name). A street line over a city line
// ("907 Orchid Way" / "Carlsbad CA 92011") is the project's address when
// its column holds no contact line and no party caption (a firm's address
// comes with its phone).
func (ix *Index) contactFacts(pi int, c columns) {
	lines := c.lines
	for i, line := range lines {
		// Cheap tests first: a phone number has ten figures at least
		// (seven with its area code in brackets), an e-mail address an @.
		var kind, m string
		if digits(line) >= 7 {
			kind, m = FactPhone, phoneNumber.FindString(line)
		}
		if m == "" && strings.IndexByte(line, '@') >= 0 {
			kind, m = FactEmail, emailAddress.FindString(line)
		}
		if m == "" || layout.WordCount(line) > 6 {
			continue
		}
		if m == "" {
			continue
		}
		label, top := "", i
		for n, j := 0, c.next(i, -1); n < 5 && j >= 0; n, j = n+1, c.next(j, -1) {
			if caption, ok := isPartyCaption(lines[j]); ok {
				label = caption
				break
			}
			top = j
		}
		if label == "" && top != i && !phoneNumber.MatchString(lines[top]) && !emailAddress.MatchString(lines[top]) {
			label = normalizeSpace(lines[top])
		}
		ex := line
		if label != "" {
			ex = label + Sep + line
		}
		if ix.verifyAll(pi, ex) {
			ix.Facts = append(ix.Facts, Fact{Kind: kind, Label: label, Value: m, Page: pi, Excerpt: ex})
		}
	}
	for i, line := range lines {
		if line == "" || line[0] < '0' || line[0] > '9' {
			continue
		}
		street := normalizeSpace(line)
		if !streetLine.MatchString(street) {
			continue
		}
		j := c.next(i, 1)
		if j < 0 || !cityLine.MatchString(normalizeSpace(lines[j])) {
			continue
		}
		party := false
		for _, dir := range []int{-1, 1} {
			k := i
			if dir > 0 {
				k = j
			}
			for n, k := 0, c.next(k, dir); n < 4 && k >= 0 && !party; n, k = n+1, c.next(k, dir) {
				_, caption := isPartyCaption(lines[k])
				party = caption || phoneNumber.MatchString(lines[k]) || emailAddress.MatchString(lines[k])
			}
		}
		city := normalizeSpace(lines[j])
		ex := street + " " + city
		if !ix.verifyLines(pi, ex) {
			ex = street + Sep + city
		}
		if !party && ix.verifyAll(pi, ex) {
			ix.Facts = append(ix.Facts, Fact{Kind: FactAddress, Value: street + " " + city, Page: pi, Excerpt: ex})
		}
	}
}

// digits counts the figures of s.
func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

// sectionFacts reads the title-block sections headed by a caption with no
// colon ("PROJECT TITLE AND SCHOOL LOCATION", "COMMISSIONED ARCHITECT")
// for the kinds the page gives no value otherwise: the caption, in
// capitals, alone on its row, heads the text under it; its value is the
// first line under it
// (within fifteen caption heights, starting within the caption's width
// of its start) set at least as large as the caption, with the lines of
// that size stacked under it (three lines at most).
func (ix *Index) sectionFacts(pi int, c columns, valued map[string]bool) {
	lines, angles := c.lines, c.angles
	for i, line := range lines {
		caption := normalizeSpace(line)
		// Most lines fail here: tested without making a copy of each.
		if caption == "" || strings.ContainsAny(caption, ":0123456789") || !isUpper(caption) ||
			strings.Count(caption, " ") > 5 || i >= len(c.frames) {
			continue
		}
		kind := ix.labelKind(caption)
		switch kind {
		case FactProject, FactArchitect, FactEngineer, FactOwner:
		default:
			continue
		}
		if valued[kind] {
			continue
		}
		b := c.frames[i]
		h := b.Y1 - b.Y0
		if h <= 0 {
			continue
		}
		value, valueAt := -1, math.Inf(1)
		alone := true
		for j, o := range c.frames {
			if j == i || j >= len(angles) || lines[j] == "" || angles[j] != angles[i] {
				continue
			}
			if o.X0 >= b.X1 && math.Abs((o.Y0+o.Y1)/2-(b.Y0+b.Y1)/2) < 0.6*h && o.X0-b.X1 < 20*h {
				alone = false // a value beside it: a pair, read elsewhere
				break
			}
			if o.Y0 > b.Y1 && o.Y0-b.Y1 < 15*h && o.X0 >= b.X0-0.6*h && o.X0 < b.X1 && o.Y0 < valueAt {
				value, valueAt = j, o.Y0
			}
		}
		if !alone || value < 0 {
			continue
		}
		// The first line under it is no value when it is smaller, or a
		// caption of the next section (starting where it starts, the
		// same size).
		v := c.frames[value]
		vh := v.Y1 - v.Y0
		if vh < 0.95*h || math.Abs(v.X0-b.X0) <= 0.6*h && vh < 1.05*h {
			continue
		}
		parts := []string{lines[value]}
		for n, j := 0, c.next(value, 1); n < 2 && j >= 0; n, j = n+1, c.next(j, 1) {
			if o := c.frames[j]; math.Abs((o.Y1-o.Y0)-vh) > 0.1*vh {
				break
			}
			parts = append(parts, lines[j])
		}
		val := normalizeSpace(strings.Join(parts, " "))
		if !plausibleValue(kind, val) {
			continue
		}
		ex := caption + Sep + strings.Join(parts, " ")
		if !ix.verifyAll(pi, ex) {
			ex = caption + Sep + strings.Join(parts, Sep)
		}
		if ix.verifyAll(pi, ex) {
			valued[kind] = true
			ix.Facts = append(ix.Facts, Fact{Kind: kind, Label: caption, Value: val, Page: pi, Excerpt: ex})
		}
	}
}

// isUpper reports whether s is its own upper case (strings.ToUpper(s) ==
// s) without making the upper-case copy for ASCII text.
func isUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return s == strings.ToUpper(s)
		}
		if 'a' <= c && c <= 'z' {
			return false
		}
	}
	return true
}
