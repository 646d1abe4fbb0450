package model

import (
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"planreview/scan/layout"
	"planreview/textmatch"
)

// Project data as typed fields: the number of stories, the building
// height and the areas (per floor, total, footprint, lot, coverage) a set
// states, each with its value, unit, label as printed and the words it
// came from. They are read from the layout: a label and its value on one
// line ("BUILDING HEIGHT: 24'-6\"", "NEW 1ST FLOOR AREA 109sqm"), a label
// line with its value to its right or under it (a data block whose values
// sit in a column of their own, a label wrapped over two lines), the
// layout's label/value pairs, and table rows (a level's name, then its
// area). A label is only project data when its words say so (a level's
// name, TOTAL, GROSS, LOT …) and its value has the unit the kind needs;
// a note ("2-STORY WOOD FRAME") or a room tag is not.

// Kinds of project fact.
const (
	FactStories           = "stories"
	FactStoriesBelowGrade = "stories_below_grade"
	FactBuildingHeight    = "building_height"
	FactArea              = "area"
)

// Area kinds.
const (
	AreaFloor     = "floor"     // one level's area
	AreaTotal     = "total"     // total, gross or conditioned area
	AreaFootprint = "footprint" // building area, footprint
	AreaLot       = "lot"       // lot, parcel or site area
	AreaCoverage  = "coverage"  // lot coverage
	AreaOther     = "other"     // garage, deck, tented area …
	AreaRoom      = "room"      // a room or space named by its own name (KITCHEN 120 SF), or an area without a label
)

// ProjectFact is one statement of project data on a sheet, with its
// evidence: the label's and the value's words and their bounds.
type ProjectFact struct {
	Kind, AreaKind string
	Level          string // a floor's level, normalised: FIRST, SECOND, GROUND, MAIN, BASEMENT, LEVEL 2 …
	Qualifier      string // "", "existing", "new", "proposed", "allowable", "removed"
	AboveGrade     bool   // the total counts the floors above grade only
	ListTotal      bool   // the total of an area list (projectdata_lists.go)
	Label, Value   string // as printed
	Text           string // label and value as printed
	Measure        Measure
	Sheet          *Sheet
	LabelWords     []int
	ValueWords     []int
	Box            layout.Box
	// State is Read for every fact a sheet states; Source says where its
	// value stood (SourceLine …), for a reader weighing it.
	State  State
	Source string
}

// Where a fact's value was read.
const (
	SourceLine     = "line"      // label and value on one line
	SourceBeside   = "beside"    // a label alone, its value right of it or under it
	SourcePair     = "pair"      // the layout's label/value pair
	SourceTableRow = "table row" // a label cell and the value cell of its row
	SourceRoomTag  = "room tag"  // an area alone on its line, named by the line above
	SourceList     = "area list" // a column of areas under a header naming its unit
)

// numberWords are the number words a value may be written in ("TWO
// STORIES"): the words of wordNumbers, which storiesValueRe reads.
var numberWords = slices.Collect(maps.Keys(wordNumbers))

// mayHoldValue reports whether s can hold a project-data value: every one
// (area, height, stories, level mark) has a digit or a number word.
func mayHoldValue(s string) bool {
	return strings.ContainsAny(s, "0123456789") || hasKeyword(s, numberWords)
}

// hasKeyword reports whether s holds one of the upper-case ASCII keywords
// in any case, without making an upper-case copy of s: every label of
// project data holds one, so lines, pairs and cells without are not read.
func hasKeyword(s string, keywords []string) bool {
	first := keywordFirsts(keywords)
	return hasKeywordFrom(s, keywords, &first)
}

// keywordFirsts marks the first bytes of keywords, for hasKeywordFrom.
func keywordFirsts(keywords []string) (first [256]bool) {
	for _, k := range keywords {
		first[k[0]] = true
	}
	return first
}

// hasKeywordFrom is hasKeyword with the keywords' first bytes marked once
// for many texts.
func hasKeywordFrom(s string, keywords []string, first *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] &^ 0x20 // ASCII upper case (letters only are compared)
		if !first[c] {
			continue
		}
		for _, k := range keywords {
			if c != k[0] || len(s)-i < len(k) {
				continue
			}
			j := 1
			for j < len(k) && s[i+j]&^0x20 == k[j] {
				j++
			}
			if j == len(k) {
				return true
			}
		}
	}
	return false
}

// Words are the fact's label words, then its value words.
func (f *ProjectFact) Words() []int {
	return append(append([]int{}, f.LabelWords...), f.ValueWords...)
}

var (
	// factKeywords preselect the lines worth reading (upper case): every
	// project-data label holds one.
	factKeywords    = []string{"AREA", "STOR", "HEIGHT", "FLOOR", "LEVEL", "BASEMENT", "CELLAR", "COVERAGE", "TOTAL", "GROSS", "GFA", "FOOTPRINT", "LOT", "PARCEL", "SITE", "PLOT"}
	allowableWordRe = textmatch.MustCompile(`\b(?:ALLOWABLE|ALLOWED|PERMITTED|PERMISSIBLE|MAX(?:IMUM)?|MIN(?:IMUM)?|REQUIRED|LIMIT|ZONING)\b\.?`)
	existingWordRe  = textmatch.MustCompile(`\b(?:EXISTING|EXIST\.?|EX\.)(?:\s|$)`)
	newWordRe       = textmatch.MustCompile(`\b(?:NEW|ADDITION|ADDED|ADDITIONAL)\b`)
	proposedWordRe  = textmatch.MustCompile(`\bPROPOSED\b`)
	removedWordRe   = textmatch.MustCompile(`\b(?:DEMOLISHED|DEMO|REMOVED|TO\s+BE\s+REMOVED)\b`)
	unitHintRe      = textmatch.MustCompile(`\s*[\(\[](?:SF|S\.F\.|SQ\.?\s*FT\.?|FT2|FT²|M2|M²|SQM|SQ\.?\s*M|FT|FEET|M|IN)[\)\]]`)

	storiesLabelRe = textmatch.MustCompile(`^(?:(?:TOTAL\s+)?(?:NUMBER|NO\.?|#)\s*OF\s+(?:STORIES|STOREYS|STORYS|FLOORS|LEVELS)|(?:BUILDING\s+)?(?:STORIES|STOREYS)|(?:BUILDING\s+)?HEIGHT\s*(?:\(\s*STORIES\s*\)|IN\s+STORIES|-\s*STORIES))(?:\s+(ABOVE|BELOW)\s+(?:GRADE(?:\s+PLANE)?|GROUND))?$`)
	heightLabelRe  = textmatch.MustCompile(`^(?:(?:BUILDING|BLDG\.?|OVERALL(?:\s+BUILDING)?|TOTAL\s+BUILDING)\s+HEIGHT(?:\s*\((?:FEET|FT|M|METRES|METERS)\))?|HEIGHT\s+OF\s+(?:THE\s+)?BUILDING|(?:BUILDING\s+)?HEIGHT\s+ABOVE\s+(?:GRADE(?:\s+PLANE)?|GROUND))$`)
	coverageWordRe = textmatch.MustCompile(`\bCOVERAGE\b`)
	lotLabelRe     = textmatch.MustCompile(`^(?:TOTAL\s+|GROSS\s+|NET\s+)?(?:LOT|PARCEL|SITE|PROPERTY|PLOT|STAND|ERF)\s+(?:AREA|SIZE)$`)
	footprintRe    = textmatch.MustCompile(`\bFOOTPRINT\b|^(?:TOTAL\s+)?(?:BUILDING|BLDG\.?)\s+(?:AREA|COVERAGE\s+AREA)$`)
	levelRe        = textmatch.MustCompile(`\b(BASEMENT|CELLAR|GROUND|MAIN|UPPER|LOWER|FIRST|SECOND|THIRD|FOURTH|FIFTH|1ST|2ND|3RD|4TH|5TH)\s+(?:FLOOR|LEVEL|STOREY|STORY)\b|\bLEVEL\s+(\d{1,2})\b|\b(BASEMENT|CELLAR)\b`)
	partOfFloorRe  = textmatch.MustCompile(`\b(?:DECK|PORCH|GARAGE|BALCONY|PATIO|VERANDAH?|TERRACE|CARPORT|WINDOW|WALL|ROOF|OPENING|GLAZING|TENTED|STAIR|ROOM|KITCHEN|BATH|BEDROOM|OFFICE|STORAGE|COMMON|CORRIDOR|LOBBY|UNIT|RETAIL|OPEN\s+SPACE|LANDSCAPE|HARDSCAPE|PAVED|IMPERVIOUS|PERVIOUS|DRIVEWAY|LOFT|DISTURB(?:ED|ANCE)?|GREEN|PARKING|SIDEWALK|WALKWAY|POOL|SHED|VENT(?:ILATION)?|ATTIC|FENESTRATION|SKYLIGHT|DOOR|ENVELOPE|SIGN(?:AGE)?|CANOPY|EASEMENT|BUFFER|SETBACK|DEDICATION|WETLAND)\b`)
	// measureRe: what an area measures; two statements are compared only
	// when they measure the same thing.
	measureRe = textmatch.MustCompile(`\b(CONDITIONED|HEATED|LIVING|HABITABLE|GROSS|NET|UNFINISHED|UNDEVELOPED|FINISHED|USABLE|RENTABLE)\b`)
	// LIVING, HEATED … alone name rooms ("LIVING 320 SF"); with AREA or
	// SPACE after them they are the dwelling's total.
	totalWordRe = textmatch.MustCompile(`\b(?:TOTAL|GROSS|GFA)\b|^(?:BUILDING\s+)?FLOOR\s+AREA$|\b(?:CONDITIONED|HEATED|LIVING|HABITABLE)\s+(?:FLOOR\s+)?(?:AREA|SPACE|SQ)`)
	// A label holding a measured value is two statements run together.
	// tagShapeRe: a room number or finish tag (134A, CE-4, T1) above an
	// area is not the room's name.
	tagShapeRe   = textmatch.MustCompile(`^[A-Z]{0,3}-?\d+[A-Z]?$`)
	labelValueRe = textmatch.MustCompile(`\d\s*(?:SQ|SF|S\.F|M2|M²|SQM|FT|'|"|%)`)
	aboveGradeRe = textmatch.MustCompile(`\bABOVE\s+(?:GRADE|GROUND)\b`)
	areaWordRe   = textmatch.MustCompile(`\bAREAS?\b|\bSQUARE\s+FOOTAGE\b|\bGFA\b`)
	// A label holds no value of its own: digits only in a level's name.
	labelDigitsRe = textmatch.MustCompile(`\b(?:1ST|2ND|3RD|\d{1,2}TH|LEVEL\s+\d{1,2}|L\d{1,2})\b`)
	levelWords    = map[string]string{"1ST": "FIRST", "2ND": "SECOND", "3RD": "THIRD", "4TH": "FOURTH", "5TH": "FIFTH", "CELLAR": "BASEMENT"}
)

// normaliseLabel upper-cases a printed label, drops a trailing colon or
// dash and a unit hint ("AREA (SF)"), and collapses its spaces.
func normaliseLabel(s string) string {
	t := strings.ToUpper(strings.Join(strings.Fields(s), " "))
	t = unitHintRe.ReplaceAllString(t, "")
	return strings.TrimSpace(strings.TrimRight(t, ":=-–. "))
}

// readFact reads one label and value as project data, or says it is not.
func readFact(label, value string) (ProjectFact, bool) {
	return readLabel(label).read(value)
}

// How a label's value is read.
const (
	valueArea = iota
	valueRoomArea
	valueStories
	valueHeight
	valueCoverage
)

// labelReading is what a label says of the fact it names, before its
// value is read: all of readFact that depends on the label alone.
type labelReading struct {
	ok               bool // the label can name a fact
	label, qualifier string
	how              int    // value* above
	belowGrade       bool   // stories below grade
	areaKind, level  string // for valueArea
	aboveGrade       bool
}

// readLabel reads a label for readFact.
func readLabel(label string) labelReading {
	l := normaliseLabel(label)
	if l == "" || layout.WordCount(l) > 9 || !strings.ContainsAny(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return labelReading{}
	}
	if labelValueRe.MatchString(l) {
		return labelReading{}
	}
	// Digits other than a level's number ("BEDROOM 2") leave only a
	// room's area.
	numbered := strings.ContainsAny(labelDigitsRe.ReplaceAllString(l, ""), "0123456789")
	r := labelReading{ok: true, label: strings.TrimSpace(strings.TrimRight(strings.TrimSpace(label), ":"))}
	switch {
	case allowableWordRe.MatchString(l):
		r.qualifier = "allowable"
	case removedWordRe.MatchString(l):
		r.qualifier = "removed"
	case existingWordRe.MatchString(l):
		r.qualifier = "existing"
	case newWordRe.MatchString(l):
		r.qualifier = "new"
	case proposedWordRe.MatchString(l):
		r.qualifier = "proposed"
	}
	// The kind is read from the label without its qualifiers.
	core := strings.Join(strings.Fields(proposedWordRe.ReplaceAllString(newWordRe.ReplaceAllString(
		existingWordRe.ReplaceAllString(allowableWordRe.ReplaceAllString(l, " "), " "), " "), " ")), " ")
	if numbered {
		r.how = valueRoomArea
		return r
	}
	if m := storiesLabelRe.FindStringSubmatch(core); m != nil {
		r.how, r.belowGrade = valueStories, m[1] == "BELOW"
		return r
	}
	if heightLabelRe.MatchString(core) {
		r.how = valueHeight
		return r
	}
	if coverageWordRe.MatchString(core) {
		r.how = valueCoverage
		return r
	}
	r.how = valueArea
	switch {
	case lotLabelRe.MatchString(core):
		r.areaKind = AreaLot
	case footprintRe.MatchString(core):
		r.areaKind = AreaFootprint
	case partOfFloorRe.MatchString(core):
		r.areaKind = AreaOther
		if !areaWordRe.MatchString(core) {
			r.areaKind = AreaRoom
		}
	case levelRe.MatchString(core):
		m := levelRe.FindStringSubmatch(core)
		switch {
		case m[1] != "":
			r.level = m[1]
		case m[2] != "":
			r.level = "LEVEL " + strings.TrimLeft(m[2], "0")
		default:
			r.level = m[3]
		}
		if w, ok := levelWords[r.level]; ok {
			r.level = w
		}
		r.areaKind = AreaFloor
	case totalWordRe.MatchString(core):
		r.areaKind = AreaTotal
		r.aboveGrade = aboveGradeRe.MatchString(core)
	case areaWordRe.MatchString(core):
		r.areaKind = AreaOther
	default:
		r.areaKind = AreaRoom
	}
	return r
}

// read reads the label's value.
func (r labelReading) read(value string) (ProjectFact, bool) {
	if !r.ok {
		return ProjectFact{}, false
	}
	f := ProjectFact{Label: r.label, Value: strings.TrimSpace(value), Qualifier: r.qualifier, State: Read}
	switch r.how {
	case valueRoomArea:
		v, ok := parseAreaValue(value)
		if !ok {
			return ProjectFact{}, false
		}
		f.Kind, f.AreaKind, f.Measure = FactArea, AreaRoom, v
		return f, true
	case valueStories:
		v, ok := parseStoriesValue(value)
		if !ok {
			return ProjectFact{}, false
		}
		f.Kind, f.Measure = FactStories, v
		if r.belowGrade {
			f.Kind = FactStoriesBelowGrade
		}
		return f, true
	case valueHeight:
		v, ok := parseHeightValue(value)
		if !ok {
			return ProjectFact{}, false
		}
		f.Kind, f.Measure = FactBuildingHeight, v
		return f, true
	case valueCoverage:
		v, ok := parsePercentValue(value)
		if !ok {
			if v, ok = parseAreaValue(value); !ok {
				return ProjectFact{}, false
			}
		}
		f.Kind, f.AreaKind, f.Measure = FactArea, AreaCoverage, v
		return f, true
	}
	v, ok := parseAreaValue(value)
	if !ok {
		return ProjectFact{}, false
	}
	f.Kind, f.Measure = FactArea, v
	f.AreaKind, f.Level, f.AboveGrade = r.areaKind, r.level, r.aboveGrade
	return f, true
}

// ProjectFacts are the project facts the sheet states, read on first use
// (each value once; an area list's total is a fact of its own, not also a
// room's area). A page that is not readable states none.
func (s *Sheet) ProjectFacts() []ProjectFact {
	s.readProjectData()
	return s.project.facts
}

// AreaLists are the sheet's area lists (projectdata_lists.go), read with
// its project facts.
func (s *Sheet) AreaLists() []AreaList {
	s.readProjectData()
	return s.project.lists
}

// sheetProjectData is what a sheet states of the project.
type sheetProjectData struct {
	once  sync.Once
	facts []ProjectFact
	lists []AreaList
	// claimed holds the words the facts read (UnreadNumberIn).
	claimedOnce sync.Once
	claimed     map[int]bool
}

func (s *Sheet) readProjectData() {
	s.project.once.Do(func() {
		if !s.Readable {
			return
		}
		facts := s.pageProjectFacts(s.factMemo())
		lists := s.pageAreaLists()
		// A list's total is its own fact, not also a room's area.
		inList := map[int]bool{}
		for _, l := range lists {
			inList[l.Total.ValueWords[0]] = true
		}
		for _, f := range facts {
			if !(f.AreaKind == AreaRoom && inList[f.ValueWords[0]]) {
				s.project.facts = append(s.project.facts, f)
			}
		}
		for _, l := range lists {
			s.project.lists = append(s.project.lists, l)
			s.project.facts = append(s.project.facts, l.Total)
		}
	})
}

// factMemo is the set's memo of label and value readings, shared by its
// sheets (a sheet built alone has its own).
func (s *Sheet) factMemo() *factMemo {
	if s.set == nil {
		return newFactMemo()
	}
	s.set.memoOnce.Do(func() { s.set.memo = newFactMemo() })
	return s.set.memo
}

// upright reports whether a layout line is horizontal drawing text.
func upright(l layout.Line) bool {
	return l.Layer == layout.LayerText && (l.Angle < 1.5 || l.Angle > 358.5)
}

// lineWordStarts maps each word of a layout line to its byte offset in
// the line's text.
func lineWordStarts(lp *layout.Page, l layout.Line) []int {
	starts := make([]int, len(l.Words))
	at := 0
	for i, wi := range l.Words {
		w := lp.Words[wi].Text
		if k := strings.Index(l.Text[at:], w); k >= 0 {
			at += k
		}
		starts[i] = at
		at += len(w)
		if at > len(l.Text) {
			at = len(l.Text)
		}
	}
	return starts
}

// factMemo remembers what readFact and the value test made of a text
// over one set's sheets: a set prints its title block and data labels
// on every sheet, and reading a label runs a dozen expressions. Both are
// pure functions of their text, so a remembered reading is the reading.
type factMemo struct {
	// mu guards the maps: the sheets of one set are read on every core.
	// Two readers may read one text at once; both read it alike.
	mu     sync.Mutex
	facts  map[[2]string]factReading
	labels map[string]labelReading
	values map[string]bool
}

type factReading struct {
	f  ProjectFact
	ok bool
}

func newFactMemo() *factMemo {
	return &factMemo{facts: map[[2]string]factReading{}, labels: map[string]labelReading{}, values: map[string]bool{}}
}

func (m *factMemo) readFact(label, value string) (ProjectFact, bool) {
	// Every fact readFact reads has a value one of the value parsers
	// reads; the test, remembered by text, spares the label's expressions
	// on the tails of a line that are not values.
	if !m.isValue(value) {
		return ProjectFact{}, false
	}
	key := [2]string{label, value}
	m.mu.Lock()
	known, seen := m.facts[key]
	r, ok := m.labels[label]
	m.mu.Unlock()
	if seen {
		return known.f, known.ok
	}
	if !ok {
		r = readLabel(label)
		m.mu.Lock()
		m.labels[label] = r
		m.mu.Unlock()
	}
	f, ok := r.read(value)
	m.mu.Lock()
	m.facts[key] = factReading{f, ok}
	m.mu.Unlock()
	return f, ok
}

func (m *factMemo) isValue(t string) bool {
	if !mayBeValue(t) {
		return false
	}
	m.mu.Lock()
	v, ok := m.values[t]
	m.mu.Unlock()
	if ok {
		return v
	}
	_, a := parseAreaValue(t)
	_, h := parseHeightValue(t)
	_, p := parsePercentValue(t)
	_, s := parseStoriesValue(t)
	v = a || h || p || s
	m.mu.Lock()
	m.values[t] = v
	m.mu.Unlock()
	return v
}

// mayBeValue is a necessary condition for the value parsers (area,
// height, percent, stories): each needs an ASCII digit or a number word.
// Text with other than ASCII is left to them (case folding may match a
// number word hasKeyword does not see).
func mayBeValue(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] >= 0x80 {
			return true
		}
	}
	return mayHoldValue(t)
}

// pageProjectFacts reads one page's project facts, each value once.
func (s *Sheet) pageProjectFacts(memo *factMemo) []ProjectFact {
	facts := s.readPageFacts(factKeywords, memo.readFact, memo.isValue)
	return append(facts, s.roomAreas(facts)...)
}

// roomAreas reads the areas standing alone on their line that no label
// claimed: room tags ("KITCHEN" over "26 m²"), labelled by the line just
// above in the same block when it reads as a name. They are facts of their own, and the
// area-total check counts them among what a total may include.
func (s *Sheet) roomAreas(claimed []ProjectFact) []ProjectFact {
	lp := s.Layout()
	used := map[int]bool{}
	for _, f := range claimed {
		for _, w := range f.ValueWords {
			used[w] = true
		}
	}
	var out []ProjectFact
	for li, l := range lp.Lines {
		t := strings.TrimSpace(l.Text)
		if !upright(l) || len(l.Words) == 0 || used[l.Words[0]] || t == "" || !strings.ContainsAny(t, "0123456789") {
			continue
		}
		if strings.IndexByte("2TtFfMm.)\xb2", t[len(t)-1]) < 0 { // last byte of a unit (² ends in 0xB2)
			continue
		}
		v, ok := parseAreaValue(t)
		if !ok {
			continue
		}
		f := ProjectFact{Kind: FactArea, AreaKind: AreaRoom, Value: t, Measure: v, Sheet: s, ValueWords: l.Words, State: Read, Source: SourceRoomTag}
		size := max(l.FontSize, 1)
		best, bestGap := -1, 1.5*size
		for ai, a := range lp.Lines {
			gap := l.Box.Y0 - a.Box.Y1
			if !upright(a) || a.Block != l.Block || gap < -0.3*size || gap >= bestGap || a.Box.X1 < l.Box.X0 || a.Box.X0 > l.Box.X1 {
				continue
			}
			best, bestGap = ai, gap
		}
		// A room tag stacks the name over finishes and the area
		// (EX. KITCHEN / EX. TILES / FP CEILING / 26 m²): the name is the
		// tag's first line.
		if best >= 0 && l.Block >= 0 && l.Block < len(lp.Blocks) {
			if b := lp.Blocks[l.Block]; len(b.Lines) <= 5 && len(b.Lines) > 0 && b.Lines[0] != li {
				best = b.Lines[0]
			}
		}
		if best >= 0 {
			name := strings.TrimSpace(lp.Lines[best].Text)
			upper := strings.ToUpper(name)
			if n := layout.WordCount(name); n <= 5 && strings.ContainsAny(upper, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && !labelValueRe.MatchString(upper) && !tagShapeRe.MatchString(upper) {
				f.Label, f.LabelWords = name, lp.Lines[best].Words
			}
		}
		f.Box = factBox(lp, f.Words())
		texts := make([]string, 0, len(f.LabelWords)+len(f.ValueWords))
		for _, wi := range f.Words() {
			texts = append(texts, lp.Words[wi].Text)
		}
		f.Text = strings.Join(texts, " ")
		out = append(out, f)
	}
	return out
}

// readPageFacts reads the label/value statements of a page that read
// accepts, each value once: on one line, a label line with its value
// beside or under it, the layout's pairs, table rows. A line is tried only
// when it holds one of keywords (in upper case); isValueText says whether
// a line's text is a value.
func (s *Sheet) readPageFacts(keywords []string, read func(label, value string) (ProjectFact, bool), isValueText func(string) bool) []ProjectFact {
	lp := s.Layout()
	readFact := read
	var out []ProjectFact
	used := map[int]bool{} // value words already read
	add := func(f ProjectFact, labelWords, valueWords []int, source string) {
		if len(valueWords) == 0 || used[valueWords[0]] {
			return
		}
		for _, w := range valueWords {
			used[w] = true
		}
		f.Sheet, f.LabelWords, f.ValueWords, f.Source = s, labelWords, valueWords, source
		f.Box = factBox(lp, f.Words())
		texts := make([]string, 0, len(labelWords)+len(valueWords))
		for _, wi := range f.Words() {
			texts = append(texts, lp.Words[wi].Text)
		}
		f.Text = strings.Join(texts, " ")
		out = append(out, f)
	}
	isValue := func(li int) bool { return isValueText(lp.Lines[li].Text) }
	near := &linesByHeight{lp: lp} // ordered on first use: most pages hold no label
	first := keywordFirsts(keywords)
	for li, l := range lp.Lines {
		if !upright(l) || !hasKeywordFrom(l.Text, keywords, &first) {
			continue
		}
		starts := lineWordStarts(lp, l)
		// A second value further along the baseline (existing and
		// proposed columns without a header): which one the line's label
		// means cannot be told.
		// Asked only once a fact is read (most keyword lines hold none).
		secondValue := func() bool {
			n := nextOnBaseline(lp, near, li)
			return n >= 0 && isValue(n)
		}
		// A label and its value on one line: at a colon, else the
		// shortest tail of words that reads as the label's value. Every
		// value holds a digit or a number word, so a line without either
		// is only looked at as a label alone.
		sameLine := mayHoldValue(l.Text)
		if c := strings.IndexByte(l.Text, ':'); sameLine && c > 0 && c < len(l.Text)-1 {
			k := 0
			for k < len(starts) && starts[k] <= c {
				k++
			}
			if k < len(l.Words) {
				if f, ok := readFact(l.Text[:c], l.Text[c+1:]); ok {
					if !secondValue() {
						add(f, l.Words[:k], l.Words[k:], SourceLine)
					}
					continue
				}
			}
		}
		found := false
		for k := len(l.Words) - 1; sameLine && k >= 1 && len(l.Words)-k <= 5; k-- {
			if f, ok := readFact(l.Text[:starts[k]], l.Text[starts[k]:]); ok {
				if !secondValue() {
					add(f, l.Words[:k], l.Words[k:], SourceLine)
				}
				found = true
				break
			}
		}
		if found {
			continue
		}
		// A label alone on its line: its value to its right on its
		// baseline, else under it.
		vi := valueBeside(lp, near, li, isValue)
		if vi < 0 {
			continue
		}
		v := lp.Lines[vi]
		label, labelWords := l.Text, l.Words
		// A label wrapped over two lines ("GROSS SECOND FLOOR" over
		// "AREA:", "MAXIMUM PARCEL" over "COVERAGE:") is read whole when
		// its last line is a single word.
		if ai := wrappedLabelAbove(lp, li); ai >= 0 && layout.WordCount(normaliseLabel(label)) == 1 {
			label = lp.Lines[ai].Text + " " + label
			labelWords = append(append([]int{}, lp.Lines[ai].Words...), labelWords...)
		}
		if f, ok := readFact(label, v.Text); ok {
			add(f, labelWords, v.Words, SourceBeside)
		}
	}
	for _, pr := range lp.Pairs {
		if len(pr.ValueWords) == 0 || !hasKeywordFrom(pr.Label, keywords, &first) {
			continue
		}
		if last := pr.ValueWords[len(pr.ValueWords)-1]; last < len(lp.LineOf) && lp.LineOf[last] >= 0 {
			if n := nextOnBaseline(lp, near, lp.LineOf[last]); n >= 0 && isValue(n) {
				continue
			}
		}
		if f, ok := readFact(pr.Label, pr.Value); ok {
			add(f, pr.LabelWords, pr.ValueWords, SourcePair)
		}
	}
	// Table rows: a label cell and the one cell of the row that reads
	// as its value. A row with two values (allowed and proposed, existing
	// and new) is read only under a header row that names the columns;
	// otherwise which column the fact is cannot be told.
	for _, t := range lp.Tables {
		var header []columnHead
		for _, row := range t.Rows {
			if h := columnHeads(row); len(h) >= 2 {
				header = h
				continue
			}
			for ci := 0; ci+1 < len(row.Cells); ci++ {
				if !hasKeywordFrom(row.Cells[ci].Text, keywords, &first) {
					continue
				}
				f, ok := readFact(row.Cells[ci].Text, row.Cells[ci+1].Text)
				if !ok {
					continue
				}
				var valueCells []int
				for cj := ci + 1; cj < len(row.Cells); cj++ {
					if _, ok := readFact(row.Cells[ci].Text, row.Cells[cj].Text); ok {
						valueCells = append(valueCells, cj)
					}
				}
				if len(valueCells) == 1 {
					add(f, row.Cells[ci].Words, row.Cells[ci+1].Words, SourceTableRow)
					break
				}
				for _, cj := range valueCells {
					c := row.Cells[cj]
					q := columnOf(header, (c.Box.X0+c.Box.X1)/2)
					if q == "" {
						continue
					}
					g, _ := readFact(row.Cells[ci].Text, c.Text)
					if g.Qualifier == "" {
						g.Qualifier = q
					}
					add(g, row.Cells[ci].Words, c.Words, SourceTableRow)
				}
				break
			}
		}
	}
	return out
}

// columnHead is a header cell naming what its column states.
type columnHead struct {
	x0, x1    float64
	qualifier string
}

var columnHeadRe = textmatch.MustCompile(`(?i)^\s*(PROPOSED|PROVIDED|ACTUAL|DESIGN|ALLOWED|ALLOWABLE|PERMITTED|REQUIRED|MAX(?:IMUM)?\.?|EXISTING|NEW)\b`)

// columnHeads reads a header row's column names.
func columnHeads(row layout.Row) []columnHead {
	var out []columnHead
	for _, c := range row.Cells {
		m := columnHeadRe.FindStringSubmatch(c.Text)
		if m == nil {
			continue
		}
		q := "proposed"
		switch strings.TrimRight(strings.ToUpper(m[1]), ".") {
		case "ALLOWED", "ALLOWABLE", "PERMITTED", "REQUIRED", "MAX", "MAXIMUM":
			q = "allowable"
		case "EXISTING":
			q = "existing"
		case "NEW":
			q = "new"
		}
		out = append(out, columnHead{x0: c.Box.X0, x1: c.Box.X1, qualifier: q})
	}
	return out
}

// columnOf is the qualifier of the header column over x, "" when none.
func columnOf(heads []columnHead, x float64) string {
	for _, h := range heads {
		if x >= h.x0 && x <= h.x1 {
			return h.qualifier
		}
	}
	return ""
}

// valueBeside finds the value of a label alone on line li: the first line
// to its right on its baseline (within 30 × its size, only one such value:
// a row with more is a table of several columns), else the nearest line
// under it that overlaps it along the text. -1 when there is none.
func valueBeside(lp *layout.Page, near *linesByHeight, li int, isValue func(int) bool) int {
	l := lp.Lines[li]
	size := max(l.FontSize, 1)
	cy := (l.Box.Y0 + l.Box.Y1) / 2
	type beside struct {
		line int
		dist float64
	}
	var band []beside
	below, belowDist := -1, math.Inf(1)
	// Lines on the baseline have their middle within half a size of this
	// one's; lines under it start within 1.5 sizes of its bottom.
	for _, vi := range near.between(min(cy-0.5*size, l.Box.Y1-0.3*size), max(cy+0.5*size, l.Box.Y1+1.5*size+near.maxHalf)) {
		v := lp.Lines[vi]
		if vi == li || !upright(v) {
			continue
		}
		vcy := (v.Box.Y0 + v.Box.Y1) / 2
		if math.Abs(vcy-cy) < 0.5*size && v.Box.X0 >= l.Box.X1-0.5 && v.Box.X0-l.Box.X1 < 30*size {
			band = append(band, beside{vi, v.Box.X0 - l.Box.X1})
			continue
		}
		gap := v.Box.Y0 - l.Box.Y1
		if gap > -0.3*size && gap < 1.5*size && v.Box.X0 < l.Box.X1+4*size && v.Box.X1 > l.Box.X0 && gap < belowDist {
			below, belowDist = vi, gap
		}
	}
	// To the right: the nearest line, when it is a value and the next one
	// is not a second value (two columns of values for one label: which is
	// meant cannot be told). A label next ends the row: what follows it is
	// its own.
	sort.Slice(band, func(i, j int) bool { return band[i].dist < band[j].dist })
	if len(band) > 0 {
		if !isValue(band[0].line) {
			if below >= 0 && isValue(below) {
				return below
			}
			return -1
		}
		if len(band) > 1 && isValue(band[1].line) {
			return -1
		}
		return band[0].line
	}
	if below >= 0 && isValue(below) {
		return below
	}
	return -1
}

// nextOnBaseline is the nearest line to the right of line li on its
// baseline (within 30 × its size), or -1.
func nextOnBaseline(lp *layout.Page, near *linesByHeight, li int) int {
	l := lp.Lines[li]
	size := max(l.FontSize, 1)
	cy := (l.Box.Y0 + l.Box.Y1) / 2
	best, bestDist := -1, 30*size
	for _, vi := range near.between(cy-0.5*size, cy+0.5*size) {
		v := lp.Lines[vi]
		if vi == li || !upright(v) || math.Abs((v.Box.Y0+v.Box.Y1)/2-cy) >= 0.5*size || v.Box.X0 < l.Box.X1-0.5 {
			continue
		}
		if d := v.Box.X0 - l.Box.X1; d < bestDist {
			best, bestDist = vi, d
		}
	}
	return best
}

// wrappedLabelAbove returns the line just above li in its block that
// starts where it starts and reads as the first part of a label (no
// digits, no colon), or -1.
func wrappedLabelAbove(lp *layout.Page, li int) int {
	l := lp.Lines[li]
	size := max(l.FontSize, 1)
	best, bestGap := -1, math.Inf(1)
	for ai, a := range lp.Lines {
		if ai == li || a.Block != l.Block || !upright(a) {
			continue
		}
		gap := l.Box.Y0 - a.Box.Y1
		if gap < -0.3*size || gap > 0.9*size || math.Abs(a.Box.X0-l.Box.X0) > size {
			continue
		}
		if strings.ContainsAny(a.Text, "0123456789:") {
			continue
		}
		if gap < bestGap {
			best, bestGap = ai, gap
		}
	}
	return best
}

// factBox is the bounds of a fact's words in displayed page points.
func factBox(lp *layout.Page, words []int) layout.Box {
	b := layout.Box{X0: math.Inf(1), Y0: math.Inf(1), X1: math.Inf(-1), Y1: math.Inf(-1)}
	for _, wi := range words {
		w := lp.Words[wi].BBox
		x0, y0 := w.Left*lp.Width, w.Top*lp.Height
		b.X0, b.Y0 = min(b.X0, x0), min(b.Y0, y0)
		b.X1, b.Y1 = max(b.X1, x0+w.Width*lp.Width), max(b.Y1, y0+w.Height*lp.Height)
	}
	return b
}

// linesByHeight orders a page's lines by the height of their middles, so
// the lines near one line are found without looking at every line of the
// page (a label's value is beside or under it).
type linesByHeight struct {
	lp      *layout.Page
	order   []int     // line indexes by middle height
	middles []float64 // their middles, ascending
	maxHalf float64   // half the tallest line's height
	out     []int
}

func (n *linesByHeight) build() {
	lp := n.lp
	n.order, n.middles = make([]int, len(lp.Lines)), make([]float64, len(lp.Lines))
	for i, l := range lp.Lines {
		n.order[i] = i
		n.maxHalf = max(n.maxHalf, (l.Box.Y1-l.Box.Y0)/2)
	}
	mid := func(i int) float64 { return (lp.Lines[i].Box.Y0 + lp.Lines[i].Box.Y1) / 2 }
	sort.SliceStable(n.order, func(a, b int) bool { return mid(n.order[a]) < mid(n.order[b]) })
	for i, li := range n.order {
		n.middles[i] = mid(li)
	}
}

// between returns, in page order (as a scan of every line would meet
// them), the lines whose middle lies within [lo, hi]. The slice is reused
// by the next call.
func (n *linesByHeight) between(lo, hi float64) []int {
	if n.order == nil {
		n.build()
	}
	i := sort.SearchFloat64s(n.middles, lo)
	n.out = n.out[:0]
	for ; i < len(n.middles) && n.middles[i] <= hi; i++ {
		n.out = append(n.out, n.order[i])
	}
	slices.Sort(n.out)
	return n.out
}

// LevelName is a level's name as the project data normalises it: 1ST is
// FIRST, CELLAR is BASEMENT; other names are kept.
func LevelName(level string) string {
	if w, ok := levelWords[level]; ok {
		return w
	}
	return level
}

// Measures is what an area's label says it measures (CONDITIONED, GROSS,
// NET …), "" when it does not say: LIVING and HEATED are read as
// CONDITIONED, UNDEVELOPED as UNFINISHED. Two areas are compared only
// when they measure the same thing.
func (f *ProjectFact) Measures() string {
	m := measureRe.FindString(strings.ToUpper(f.Label))
	switch m {
	case "HEATED", "LIVING", "HABITABLE":
		return "CONDITIONED"
	case "UNDEVELOPED":
		return "UNFINISHED"
	}
	return m
}

// UnreadNumberIn returns the text of an upright line holding a number,
// its middle inside box, none of whose words a project fact of the sheet
// read: an area printed without a unit, or a label not understood, that
// may be part of what the facts in box add up to.
func (s *Sheet) UnreadNumberIn(box layout.Box) (string, bool) {
	s.readProjectData()
	s.project.claimedOnce.Do(func() {
		s.project.claimed = map[int]bool{}
		for _, f := range s.project.facts {
			for _, w := range f.Words() {
				s.project.claimed[w] = true
			}
		}
	})
	claimed := s.project.claimed
	lp := s.Layout()
	for _, l := range lp.Lines {
		cx, cy := (l.Box.X0+l.Box.X1)/2, (l.Box.Y0+l.Box.Y1)/2
		if !upright(l) || cx < box.X0 || cx > box.X1 || cy < box.Y0 || cy > box.Y1 || !strings.ContainsAny(l.Text, "0123456789") {
			continue
		}
		read := false
		for _, w := range l.Words {
			if claimed[w] {
				read = true
				break
			}
		}
		if !read {
			return l.Text, true
		}
	}
	return "", false
}
