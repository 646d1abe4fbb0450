package model

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"planreview/scan/layout"
	"planreview/textmatch"
)

// Project-data fields printed with their label and no value: "OCCUPANCY:
// --", "CONSTRUCTION TYPE: TBD", "BUILDING HEIGHT: FT", an "APN" cell with
// nothing beside it in a filled data table. A form whose labels are
// printed reads as stated to a reader skimming it, so the model has to
// tell a blank from a value.
//
// A text is a label by its place in the layout, not by its words: a colon
// label with its value on its line, a cell of a table whose next cell
// holds the value, a label in a column of labels whose other labels have
// values beside them. Its words only say which field it is (occupancy,
// construction type, sprinklers, stories, height, areas, owner, APN,
// address, legal description, zoning). A value is blank by its shape:
// nothing, only dashes or underscores, only a unit ("FT", "SF"), or only a
// placeholder ("TBD", "XX", "???", "XX FT"). "N/A", "NONE" and "NOT
// REQUIRED" are answers, not blanks (an examiner accepts "N/A" for
// sprinklers in a building that needs none); a lone "X" may be a check
// mark, and a bare dash in an area cell is the usual "none" of a level
// that has no area, so neither is a blank there.
//
// Fields inside the title block are the title block's (its own values):
// the project data read here is printed in the drawing area, and legends,
// symbol keys and abbreviation lists are not project data.
//

// BlankField is one project-data field printed with its label and no
// value (State Blank), with its evidence.
type BlankField struct {
	Sheet        *Sheet
	Field, Label string // Field* below; the label as printed
	Value        string // as printed: "", "--", "FT", "TBD"
	Words        []int  // the label's words, then the value's
	Placement    string // "beside it", "and nothing beside it", "in its table row"
	// For an area: the kind (AreaLot, AreaTotal, AreaFloor …) and level
	// its label names.
	AreaKind, Level string
	State           State
}

// sheetBlankFields holds a sheet's blank fields once read.
type sheetBlankFields struct {
	once   sync.Once
	fields []BlankField
}

// BlankFields are the project-data fields the sheet prints with their
// label and no value, read on first use: colon labels on their line,
// table rows, and labels standing alone in a column of labels. A page
// not read in full has none read (what it prints could not be read).
func (s *Sheet) BlankFields() []BlankField {
	s.blanks.once.Do(func() {
		if s.ReadInFull() {
			s.blanks.fields = s.pageBlankFields()
		}
	})
	return s.blanks.fields
}

// Project-data fields a blank is read for.
const (
	FieldOccupancy    = "occupancy"
	FieldConstruction = "construction_type"
	FieldSprinklers   = "sprinklers"
	FieldStories      = "stories"
	FieldHeight       = "building height"
	FieldArea         = "area"
	FieldOwner        = "owner"
	FieldParcel       = "parcel number"
	FieldAddress      = "address"
	FieldLegal        = "legal description"
	FieldZoning       = "zoning"
)

var (
	ownerLabelRe   = textmatch.MustCompile(`^(?:PROPERTY\s+|BUILDING\s+)?OWNER(?:'?S)?(?:\s+NAME)?$`)
	parcelLabelRe  = textmatch.MustCompile(`^(?:APN|A\.\s?P\.\s?N\.?|PIN|(?:ASSESSOR'?S?\s+)?PARCEL\s+(?:NO\.?|NUMBER|#|ID)|ASSESSOR'?S?\s+PARCEL|TAX\s+(?:MAP|LOT|PARCEL|ID)(?:\s+(?:NO\.?|NUMBER|#))?)$`)
	addressLabelRe = textmatch.MustCompile(`^(?:PROJECT|SITE|PROPERTY|JOB|STREET|BUILDING)\s+ADDRESS$`)
	legalLabelRe   = textmatch.MustCompile(`^LEGAL\s+(?:DESCRIPTION|DESC\.?)$`)
	zoningLabelRe  = textmatch.MustCompile(`^(?:ZONING|ZONE)(?:\s+(?:DISTRICT|DESIGNATION|CLASSIFICATION))?$`)
	// blankUnits are what a value may print without a number: the unit
	// a form prints for its value to be written before.
	blankUnits = map[string]bool{"FT": true, "FEET": true, "SF": true, "S.F": true, "SQ": true, "SQFT": true, "SQ.FT": true,
		"M": true, "M2": true, "M²": true, "SQM": true, "SQ.M": true, "%": true, "IN": true, "AC": true, "ACRES": true,
		"STORIES": true, "STORY": true, "STOREYS": true, "GSF": true}
	// answerRe: values that answer the question without a figure.
	answerRe = textmatch.MustCompile(`^(?:N/?A|NONE|NOT\s+(?:APPLICABLE|REQUIRED|PROVIDED)|NO|YES)$`)
)

// projectFieldOf says which project-data field a label names, or "".
func projectFieldOf(label string) string {
	if !mayNameField(label) {
		return ""
	}
	l := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(label), ":"))
	if l == "" || layout.WordCount(l) > 6 {
		return ""
	}
	switch {
	case occupancyLabelRe.MatchString(l) && !strings.EqualFold(l, "GROUP"):
		return FieldOccupancy
	case constructionLabelRe.MatchString(l) && !strings.EqualFold(l, "CONSTRUCTION"):
		return FieldConstruction
	case sprinklerLabelRe.MatchString(l):
		return FieldSprinklers
	}
	n := normaliseLabel(l)
	switch {
	case storiesLabelRe.MatchString(n):
		return FieldStories
	case heightLabelRe.MatchString(n):
		return FieldHeight
	case lotLabelRe.MatchString(n):
		return FieldArea
	case ownerLabelRe.MatchString(n):
		return FieldOwner
	case parcelLabelRe.MatchString(n):
		return FieldParcel
	case addressLabelRe.MatchString(n):
		return FieldAddress
	case legalLabelRe.MatchString(n):
		return FieldLegal
	case zoningLabelRe.MatchString(n):
		return FieldZoning
	}
	// The area word first: it is cheap and rules out almost every text.
	if !areaWordRe.MatchString(n) {
		return ""
	}
	if r := readLabel(n); r.ok && r.how == valueArea && r.qualifier != "allowable" && r.areaKind != AreaRoom && r.areaKind != AreaOther {
		return FieldArea
	}
	return ""
}

// fieldLabelWords is the union of the prefilters of the expressions
// projectFieldOf reads a label with: every label it names holds one of
// their literals. Every line of every page is asked whether its first
// words name a field, and almost none hold any; one pass over a label
// rules it out before a dozen expressions and normaliseLabel each look at
// it. nil: an expression has no literal, or one holds a space (labels are
// looked at word by word, and normaliseLabel folds runs of spaces), and
// every label is read.
var fieldLabelWords = sync.OnceValue(func() *textmatch.Any {
	union := textmatch.AnyOf(occupancyLabelRe, constructionLabelRe, sprinklerLabelRe, storiesLabelRe,
		heightLabelRe, lotLabelRe, ownerLabelRe, parcelLabelRe, addressLabelRe, legalLabelRe, zoningLabelRe, areaWordRe)
	lits := union.Required()
	if len(lits) == 0 || slices.ContainsFunc(lits, func(l string) bool { return strings.ContainsFunc(l, unicode.IsSpace) }) {
		return nil
	}
	return union
})

// mayNameField is a necessary condition for projectFieldOf(label) != "".
// Text that normaliseLabel could reshape into a new literal (a bracketed
// unit hint removed from its middle) or that upper-casing reads otherwise
// (non-ASCII: the long s becomes S) is always read in full.
func mayNameField(label string) bool {
	words := fieldLabelWords()
	if words == nil || strings.ContainsAny(label, "([") || strings.ContainsFunc(label, func(r rune) bool { return r >= 0x80 }) {
		return true
	}
	return words.MayMatch(label)
}

// Value shapes.
const (
	valueFilled = iota
	valueBlank  // nothing, dashes, a unit or a placeholder
)

// valueShape tells a value from a blank by its shape, for a field.
func valueShape(field, v string) int {
	v = strings.TrimSpace(v)
	if v == "" {
		return valueBlank
	}
	u := strings.ToUpper(strings.Join(strings.Fields(v), " "))
	if answerRe.MatchString(strings.Trim(u, ".")) {
		return valueFilled
	}
	dashesOnly := true
	for _, tok := range strings.Fields(u) {
		core := strings.Trim(tok, "-_.:;,()[]{}'\"–—=")
		switch {
		case core == "":
			continue
		case blankUnits[core]:
			dashesOnly = false
		case placeholderToken(core):
			dashesOnly = false
		default:
			return valueFilled
		}
	}
	// A dash alone in an area's place is the "none" of a level without
	// area; for every other field it is a blank.
	if dashesOnly && field == FieldArea && strings.Trim(u, "-–— ") == "" && len(strings.Trim(u, " ")) <= 2 {
		return valueFilled
	}
	return valueBlank
}

// placeholderToken: a token that stands for a value not yet written.
func placeholderToken(t string) bool {
	switch t {
	case "TBD", "TBC", "TBA", "TBV", "UNKNOWN":
		return true
	}
	if len(t) >= 2 && strings.Trim(t, "X") == "" {
		return true // XX, XXX
	}
	if strings.Trim(t, "?") == "" {
		return true
	}
	// XX'-XX", XX.X, XXX SF written with the unit attached.
	stripped := strings.Map(func(r rune) rune {
		if strings.ContainsRune("X'\"-./²", r) {
			return -1
		}
		return r
	}, t)
	return strings.Count(t, "X") >= 2 && (stripped == "" || blankUnits[stripped])
}

// pageBlankFields reads one page's blank fields: colon labels on their
// line, table rows, and labels standing alone in a column of labels.
func (s *Sheet) pageBlankFields() []BlankField {
	lp := s.Layout()
	tb := layout.Box{}
	if s.Model != nil {
		tb = s.Model.TitleBlock
	}
	skip := func(words []int) bool {
		if len(words) == 0 {
			return true
		}
		if tb != (layout.Box{}) && tb.Encloses(factBox(lp, words)) {
			return true
		}
		return s.Explains(words)
	}
	var out []BlankField
	seen := map[int]bool{} // label's first word
	add := func(b BlankField) {
		if len(b.Words) == 0 || seen[b.Words[0]] {
			return
		}
		seen[b.Words[0]] = true
		b.Sheet, b.State = s, Blank
		if b.Field == FieldArea {
			// Which area: its kind (lot, total, a floor) and level.
			lr := readLabel(normaliseLabel(b.Label))
			b.AreaKind, b.Level = lr.areaKind, lr.level
		}
		out = append(out, b)
	}
	// Label rows (a colon label, or a field's label without a colon), and
	// the columns they stand in.
	var rows []colonRow
	isRow := map[int]bool{}
	for li := range lp.Lines {
		l := &lp.Lines[li]
		if l.Angle != 0 || l.Layer != layout.LayerText {
			continue
		}
		r, ok := readColonRow(lp, li)
		if !ok {
			continue
		}
		rows = append(rows, r)
		isRow[li] = true
	}
	// A label with nothing after it on its line may have its value set
	// apart in a column to its right (another line of the layout).
	var valueXs []float64 // left edges of the values set apart: the value column
	for i := range rows {
		if rows[i].value == "" {
			if vi := valueRightOf(lp, rows[i], isRow, nil); vi >= 0 {
				rows[i].value, rows[i].valueWords, rows[i].apart = lp.Lines[vi].Text, lp.Lines[vi].Words, true
				valueXs = append(valueXs, lp.Lines[vi].Box.X0)
			}
		}
	}
	// A short label far from the value column: a text on its baseline
	// that starts where the column's values start.
	for i := range rows {
		if rows[i].value == "" && len(valueXs) > 0 {
			if vi := valueRightOf(lp, rows[i], isRow, valueXs); vi >= 0 {
				rows[i].value, rows[i].valueWords, rows[i].apart = lp.Lines[vi].Text, lp.Lines[vi].Words, true
			}
		}
	}
	for i, r := range rows {
		field := projectFieldOf(r.label)
		if field == "" || skip(r.labelWords) {
			continue
		}
		if r.value != "" {
			// A value set apart is the label's only in a column of filled
			// labels: a text to the right of a lone caption may be
			// anything.
			if valueShape(field, r.value) == valueBlank && (!r.apart && r.colon || columnFilled(rows, i)) {
				add(BlankField{Field: field, Label: r.label, Value: r.value, Words: append(slices.Clone(r.labelWords), r.valueWords...), Placement: "beside it"})
			}
			continue
		}
		// Nothing beside the label: blank only when it stands in a
		// column of labels whose others have their values beside them,
		// and nothing under it is its value.
		if columnFilled(rows, i) && !valueUnder(lp, r, isRow) {
			add(BlankField{Field: field, Label: r.label, Words: slices.Clone(r.labelWords), Placement: "and nothing beside it"})
		}
	}
	// Table rows: a label cell and the cell after it, in a table whose
	// other label cells have values.
	for _, t := range lp.Tables {
		type labelCell struct {
			row, cell int
			field     string
		}
		var labels []labelCell
		filled := 0
		for ri, row := range t.Rows {
			for ci, c := range row.Cells {
				if ci+1 >= len(row.Cells) || len(c.Words) == 0 {
					continue
				}
				label, _ := strings.CutSuffix(strings.TrimSpace(c.Text), ":")
				if !cellLabelShape(label) {
					continue
				}
				next := row.Cells[ci+1]
				field := projectFieldOf(label)
				if field == "" {
					if len(next.Words) > 0 && valueShape("", next.Text) == valueFilled {
						filled++
					}
					continue
				}
				if valueShape(field, next.Text) == valueFilled {
					filled++
					continue
				}
				labels = append(labels, labelCell{ri, ci, field})
			}
		}
		if filled < 2 {
			continue // a blank form, or no form at all
		}
		for _, lc := range labels {
			c, next := t.Rows[lc.row].Cells[lc.cell], t.Rows[lc.row].Cells[lc.cell+1]
			if skip(c.Words) {
				continue
			}
			add(BlankField{Field: lc.field, Label: strings.TrimSuffix(strings.TrimSpace(c.Text), ":"), Value: strings.TrimSpace(next.Text),
				Words: append(slices.Clone(c.Words), next.Words...), Placement: "in its table row"})
		}
	}
	return out
}

// cellLabelShape: a table cell that can be a field's label: a few words
// with letters, no figure.
func cellLabelShape(s string) bool {
	return s != "" && layout.WordCount(s) <= 6 && hasLetters(s) && !strings.ContainsAny(s, "0123456789")
}

func hasLetters(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' })
}

// colonRow is a line that begins with a colon label: the label, and what
// follows the colon on the line.
type colonRow struct {
	line                   int
	label, value           string
	labelWords, valueWords []int
	box                    layout.Box // the line's
	size                   float64
	colon                  bool // the label ends in a colon
	apart                  bool // the value is a line of its own to the right
}

// readColonRow reads line li as "LABEL: value" (the value may be
// empty), or, without a colon, as a field's label followed by its value
// ("OCCUPANCY --", "BUILDING HEIGHT FT"): the longest run of first words
// that names a project-data field.
func readColonRow(lp *layout.Page, li int) (colonRow, bool) {
	l := &lp.Lines[li]
	row := func(k int, colon bool) (colonRow, bool) {
		var label, value []string
		for _, x := range l.Words[:k] {
			label = append(label, lp.Words[x].Text)
		}
		for _, x := range l.Words[k:] {
			value = append(value, lp.Words[x].Text)
		}
		lt := strings.TrimSpace(strings.TrimSuffix(strings.Join(label, " "), ":"))
		if !hasLetters(lt) || len(value) > 8 {
			return colonRow{}, false
		}
		return colonRow{line: li, label: lt, value: strings.Join(value, " "),
			labelWords: slices.Clone(l.Words[:k]), valueWords: slices.Clone(l.Words[k:]),
			box: l.Box, size: max(l.Box.Height(), 1), colon: colon}, true
	}
	for k, w := range l.Words {
		if strings.HasSuffix(lp.Words[w].Text, ":") {
			if k >= 6 {
				return colonRow{}, false
			}
			return row(k+1, true)
		}
	}
	// Each run of first words is a prefix of the longest: when none of
	// those words holds a field's literal (literals hold no space, so
	// one lies within a word), no run names a field.
	label := make([]string, 0, 6)
	named := false
	for k := 0; k < len(l.Words) && k < 6; k++ {
		t := lp.Words[l.Words[k]].Text
		label = append(label, t)
		named = named || mayNameField(t)
	}
	if !named {
		return colonRow{}, false
	}
	best := 0
	for k := range label {
		if projectFieldOf(strings.Join(label[:k+1], " ")) != "" {
			best = k + 1
		}
	}
	if best == 0 {
		return colonRow{}, false
	}
	return row(best, false)
}

// columnFilled reports whether row i stands in a column of colon labels
// (left edges aligned, at most three line heights apart from one to the
// next) of which at least two others have a filled value on their line.
func columnFilled(rows []colonRow, i int) bool {
	r := rows[i]
	var col []colonRow
	for _, o := range rows {
		if math.Abs(o.box.X0-r.box.X0) <= 0.6*r.size && math.Abs(o.size-r.size) <= 0.3*r.size {
			col = append(col, o)
		}
	}
	slices.SortFunc(col, func(a, b colonRow) int { return int(math.Copysign(1, a.box.Y0-b.box.Y0)) })
	at := slices.IndexFunc(col, func(o colonRow) bool { return o.line == r.line })
	if at < 0 {
		return false
	}
	// The contiguous run around the row.
	lo, hi := at, at
	for lo > 0 && col[lo].box.Y0-col[lo-1].box.Y1 <= 3*r.size {
		lo--
	}
	for hi+1 < len(col) && col[hi+1].box.Y0-col[hi].box.Y1 <= 3*r.size {
		hi++
	}
	filled := 0
	for k := lo; k <= hi; k++ {
		if k != at && col[k].value != "" && valueShape(projectFieldOf(col[k].label), col[k].value) == valueFilled {
			filled++
		}
	}
	return filled >= 2
}

// valueRightOf returns the line right of the label on its baseline that
// is not itself a label row: the value set apart in a column of its own
// (-1 when there is none). It is within a few label heights, or, given the
// left edges of a column's values, starts at one of them.
func valueRightOf(lp *layout.Page, r colonRow, isRow map[int]bool, columnXs []float64) int {
	h := r.size
	best, gap := -1, 0.0
	for li := range lp.Lines {
		l := &lp.Lines[li]
		if li == r.line || l.Angle != 0 || l.Layer != layout.LayerText {
			continue
		}
		if math.Abs(l.Box.CenterY()-r.box.CenterY()) > 0.5*h || l.Box.X0 < r.box.X1-0.5*h {
			continue
		}
		inColumn := slices.ContainsFunc(columnXs, func(x float64) bool { return math.Abs(l.Box.X0-x) <= h })
		if l.Box.X0-r.box.X1 > 12*h && !inColumn {
			continue
		}
		if g := l.Box.X0 - r.box.X1; best < 0 || g < gap {
			best, gap = li, g
		}
	}
	if best >= 0 && isRow[best] {
		return -1 // the next label of the row, not a value
	}
	return best
}

// valueUnder reports whether a line just under the label, starting within
// it and not itself a label row, may be its value.
func valueUnder(lp *layout.Page, r colonRow, isRow map[int]bool) bool {
	h := r.size
	for li := range lp.Lines {
		l := &lp.Lines[li]
		if li == r.line || l.Angle != 0 || isRow[li] {
			continue
		}
		if l.Box.Y0 >= r.box.Y1-0.2*h && l.Box.Y0-r.box.Y1 <= 1.2*h && l.Box.X0 >= r.box.X0-h && l.Box.X0 <= r.box.X1 {
			return true
		}
	}
	return false
}
