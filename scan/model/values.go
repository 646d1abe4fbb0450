package model

import (
	"planreview/scan/layout"
	"planreview/scan/sheets"
)

// State says what became of a value the sheet might print.
type State uint8

const (
	// NotPrinted: the sheet's text layer was read and holds no such value.
	NotPrinted State = iota
	// Read: the value was read; Text, Words and Box say what and where.
	Read
	// Unreadable: the value is printed where the text layer cannot be read
	// (glyphs drawn as outlines, a raster page, a page read only in part),
	// so "could not read", never "missing".
	Unreadable
	// Blank: the value's label is printed and its value left blank
	// (nothing, dashes, a unit alone, a placeholder such as TBD).
	Blank
)

func (s State) String() string {
	switch s {
	case Read:
		return "read"
	case Unreadable:
		return "could not read"
	case Blank:
		return "blank"
	}
	return "not printed"
}

// Value is one value of a sheet with its evidence: the words it was read
// from, their bounds, how it was found and how sure the reading is.
type Value struct {
	Text  string
	Words []int
	Box   layout.Box
	State State
	// Source says how the value was found: "set scheme" (the varying
	// title-block field whose values follow the set's numbering),
	// "title block", "index" (the set's sheet index), "page alone" (the
	// page's own strongest candidate, no siblings to compare), "line" (a
	// statement on the sheet), "views" (the views' own scales).
	Source string
	// Confidence is the chance the reading is right, from how it was
	// found: a value the set confirms beats one a single page suggests.
	Confidence float64
}

// Values are a sheet's typed values: number, title, scale, issue status
// and date, and the title block's bounds.
type Values struct {
	Number, Title, Scale, Status, Date Value
	TitleBlock                         layout.Box
}

// Confidence by source. The set's scheme is confirmed by its siblings; a
// title-block caption by its frame; an index row by the sheet it lists; a
// page read alone has nothing to confirm it.
const (
	confSetScheme  = 0.95
	confTitleBlock = 0.9
	confLine       = 0.85
	confIndex      = 0.8
	confPageAlone  = 0.7
)

// Values returns the sheet's typed values, read from its identity and its
// file's set reading.
func (s *Sheet) Values() Values {
	var v Values
	m := s.Model
	unread := !s.ReadInFull()
	if m != nil {
		v.TitleBlock = m.TitleBlock
	}
	// Number.
	switch {
	case s.Ident.Number != "" && m != nil && m.SheetNumber == s.Ident.Number:
		conf := confTitleBlock
		if s.File.SchemeLearned() {
			v.Number = s.value(s.Ident.Number, s.Ident.NumberWords, "set scheme", confSetScheme)
			break
		}
		v.Number = s.value(s.Ident.Number, s.Ident.NumberWords, "title block", conf)
	case s.Ident.Number != "":
		v.Number = s.value(s.Ident.Number, s.Ident.NumberWords, "page alone", confPageAlone)
	default:
		v.Number = s.missing(unread || m.FieldUnread(sheets.FieldNumber))
		if m != nil {
			for i, kind := range m.Unread {
				if kind == sheets.FieldNumber && i < len(m.UnreadAt) {
					v.Number.Box = m.UnreadAt[i]
				}
			}
		}
	}
	// Title.
	switch {
	case s.Ident.Title == "":
		v.Title = s.missing(unread || m.FieldUnread(sheets.FieldTitle))
	case m != nil && m.SheetTitle == s.Ident.Title:
		v.Title = s.value(s.Ident.Title, s.Ident.TitleWords, "title block", confTitleBlock)
	case len(s.Ident.TitleWords) == 0:
		v.Title = s.value(s.Ident.Title, nil, "index", confIndex)
	default:
		v.Title = s.value(s.Ident.Title, s.Ident.TitleWords, "page alone", confPageAlone)
	}
	// Scale: the set reading's (title block, else the views' own), which
	// knows the title block, before a scale statement anywhere on the
	// sheet.
	switch {
	case m != nil && m.Scale != "" && len(m.ViewScales) > 0 && !sameWords(m.ScaleWords, s.Ident.ScaleWords) && !inTitleBlock(m):
		v.Scale = s.value(m.Scale, m.ScaleWords, "views", confIndex)
	case m != nil && m.Scale != "":
		v.Scale = s.value(m.Scale, m.ScaleWords, "title block", confTitleBlock)
	case s.Ident.Scale != "":
		v.Scale = s.value(s.Ident.Scale, s.Ident.ScaleWords, "line", confLine)
	default:
		v.Scale = s.missing(unread || m.FieldUnread(sheets.FieldScale))
	}
	// Status and date.
	if m != nil && m.IssueStatus != "" {
		v.Status = s.value(m.IssueStatus, m.StatusWords, "title block", confTitleBlock)
	} else {
		v.Status = s.missing(unread || m.FieldUnread(sheets.FieldStatus))
	}
	if s.Ident.Date != "" {
		v.Date = s.value(s.Ident.Date, s.Ident.DateWords, "line", confLine)
	} else {
		v.Date = s.missing(unread || m.FieldUnread(sheets.FieldDate))
	}
	return v
}

func (s *Sheet) value(text string, words []int, source string, conf float64) Value {
	return Value{Text: text, Words: words, Box: s.wordsBox(words), State: Read, Source: source, Confidence: conf}
}

// missing is a value the sheet does not show: not printed when its text
// was read in full, could not read otherwise. Either way the statement is
// as sure as the page was read.
func (s *Sheet) missing(unreadable bool) Value {
	if unreadable {
		return Value{State: Unreadable, Confidence: confPageAlone}
	}
	return Value{State: NotPrinted, Confidence: confLine}
}

// wordsBox is the bounds of the words in displayed page points.
func (s *Sheet) wordsBox(words []int) layout.Box {
	var b layout.Box
	for i, w := range words {
		if w < 0 || w >= len(s.Page.Words) {
			continue
		}
		wb := sheets.WordBox(s.Page, w)
		if i == 0 || b == (layout.Box{}) {
			b = wb
			continue
		}
		b.X0, b.Y0, b.X1, b.Y1 = min(b.X0, wb.X0), min(b.Y0, wb.Y0), max(b.X1, wb.X1), max(b.Y1, wb.Y1)
	}
	return b
}

func sameWords(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Region is a part of the sheet by role, with its words' lines.
type Region struct {
	Role  string
	Box   layout.Box
	Lines []int // indexes into the layout's lines
}

// Regions are the sheet's regions by role: the title block (from the set
// reading), then the layout's legends and symbol keys, abbreviation lists,
// revision rows and notes blocks, and the schedules (its tables).
func (s *Sheet) Regions() []Region {
	var out []Region
	if s.Model != nil && s.Model.TitleBlock != (sheets.Box{}) {
		out = append(out, Region{Role: "title block", Box: s.Model.TitleBlock})
	}
	out = append(out, s.UnreadRegions()...)
	if !s.Readable {
		return out
	}
	for _, g := range s.Roles().Regions {
		out = append(out, Region{Role: g.Role.String(), Box: g.Box, Lines: g.Lines})
	}
	for _, t := range s.Layout().Tables {
		out = append(out, Region{Role: "table", Box: t.Box})
	}
	return out
}

// inTitleBlock reports whether the set reading took the scale from a
// title-block field.
func inTitleBlock(m *sheets.PageModel) bool {
	for _, f := range m.Fields {
		if f.Kind == sheets.FieldScale && f.Value != "" {
			return true
		}
	}
	return false
}

// RoleOutlinedText is the role of a region of text drawn as strokes or
// glyph outlines, which could not be read.
const RoleOutlinedText = "could not read (text drawn as outlines)"

// UnreadRegions are the parts of the sheet whose text could not be read:
// the whole page when it has no text layer or only a few words over a
// raster or outlined drawing, each region of text drawn as outlines on a
// page that reads but for them, and each title-block field printed as
// outlines.
func (s *Sheet) UnreadRegions() []Region {
	var out []Region
	switch {
	case s.Model != nil && s.Model.PartlyOutlined:
		// The rest of the page reads: the outlined text is what could not.
		for _, o := range s.Model.Outlined {
			out = append(out, Region{Role: RoleOutlinedText, Box: o.Box})
		}
	case !s.ReadInFull():
		layer := sheets.TextNone
		if s.Model != nil {
			layer = s.Model.TextLayer
		}
		out = append(out, Region{Role: "could not read (text layer " + layer + ")",
			Box: layout.Box{X1: s.Page.Width, Y1: s.Page.Height}})
	}
	if s.Model != nil {
		for i, kind := range s.Model.Unread {
			if i < len(s.Model.UnreadAt) {
				out = append(out, Region{Role: "could not read (" + kind + " drawn as outlines)", Box: s.Model.UnreadAt[i]})
			}
		}
	}
	return out
}
