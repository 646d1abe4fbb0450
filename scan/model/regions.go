package model

import (
	"math"
	"strings"

	"planreview/scan/layout"
)

// The regions of a sheet by role (legends, abbreviation lists, revision
// rows, notes paragraphs), recognised by the layout from structure: the
// checks that read content ask them whether text is content at all.

// Roles is the page's regions by role, found on first use.
func (s *Sheet) Roles() *layout.Roles {
	if s.roles == nil {
		s.roles = layout.FindRoles(s.Layout())
	}
	return s.roles
}

// RoleOf is the role of the words' lines when they share one.
func (s *Sheet) RoleOf(words []int) layout.RegionRole {
	if len(words) == 0 {
		return layout.RoleNone
	}
	return s.Roles().OfWords(s.Layout(), words)
}

// Explains reports whether any of the words lies in a legend, symbol key
// or abbreviation list: text that shows the drawing's conventions (a
// sample callout, an "XX" tag, "TBD = TO BE DETERMINED") and so is neither
// a reference nor a placeholder.
func (s *Sheet) Explains(words []int) bool {
	if len(words) == 0 {
		return false
	}
	lp, r := s.Layout(), s.Roles()
	for _, w := range words {
		if w < 0 || w >= len(lp.LineOf) {
			continue
		}
		switch r.OfLine(lp.LineOf[w]) {
		case layout.RoleKey, layout.RoleAbbreviations:
			return true
		}
	}
	return false
}

// History reports whether most of the words lie in revision rows or notes
// paragraphs: text that records an earlier issue or states a condition,
// never the sheet's issue status. A row's mark may stand apart from it, so
// most words decide, not all.
func (s *Sheet) History(words []int) bool {
	lp, r := s.Layout(), s.Roles()
	n := 0
	for _, w := range words {
		if w < 0 || w >= len(lp.LineOf) {
			continue
		}
		switch r.OfLine(lp.LineOf[w]) {
		case layout.RoleRevisions, layout.RoleNotes:
			n++
		}
	}
	return len(words) > 0 && n*2 >= len(words)
}

// A Stamp is text laid over the drawing: large type over other text or
// type at an odd angle (layout.LayerOverlay). Its glyphs often extract as
// fragments ("PR" "EL" "IM" …); the layout puts them back together along
// their angle and baseline, so a stamp is read from the layout's runs, not
// from the page's text lines.
type Stamp struct {
	Text  string
	Words []int
	Box   layout.Box
	// Place names the stamp by its text and its place on the sheet (in
	// tenths of the page): the same stamp at the same place on many
	// sheets is one stamp on the set.
	Place StampPlace
}

// StampPlace is a stamp's compacted text and its centre in tenths of the
// page.
type StampPlace struct {
	Text string
	X, Y int
}

// Stamps are the page's overlay runs whose text the page's lines do not
// already hold, found on first use.
func (s *Sheet) Stamps() []Stamp {
	if s.stampsRead {
		return s.stamps
	}
	s.stampsRead = true
	lp := s.lines()          // runs and lines are enough
	var read map[string]bool // built for the page's first overlay run
	w, h := max(s.Page.Width, 1), max(s.Page.Height, 1)
	for _, r := range lp.Runs {
		if r.Layer != layout.LayerOverlay {
			continue
		}
		text := strings.Join(strings.Fields(r.Text), " ")
		if len(text) < 3 {
			continue
		}
		if read == nil {
			read = s.readLineTexts(lp)
		}
		key := compactText(text)
		if read[key] {
			continue
		}
		s.stamps = append(s.stamps, Stamp{Text: text, Words: r.Words, Box: r.Box,
			Place: StampPlace{Text: key,
				X: int(math.Round(10 * (r.Box.X0 + r.Box.X1) / 2 / w)), Y: int(math.Round(10 * (r.Box.Y0 + r.Box.Y1) / 2 / h))}})
	}
	return s.stamps
}

// readLineTexts is what the checks already read from the lines,
// compacted (compactText): a stamp printed upright is a line of text like
// any other; text at an odd angle, whose glyphs the lines hold one by
// one, is not.
func (s *Sheet) readLineTexts(lp *layout.Page) map[string]bool {
	read := map[string]bool{}
	for _, l := range s.Lines {
		if len(l.Words) > 0 && l.Words[0] < len(lp.LineOf) {
			if li := lp.LineOf[l.Words[0]]; li >= 0 && math.Mod(lp.Lines[li].Angle, 90) != 0 {
				continue
			}
		}
		read[compactText(l.Text)] = true
	}
	return read
}

// compactText is s upper-cased without its white space.
func compactText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for f := range strings.FieldsSeq(s) {
		b.WriteString(f)
	}
	return strings.ToUpper(b.String())
}

// SetStamp is one stamp of the set: the same text at the same place on
// one sheet or several (a PRELIMINARY stamp on every sheet is one).
type SetStamp struct {
	Place StampPlace
	Text  string
	// Sheets carry it, in set order; Words are its words on each.
	Sheets []*Sheet
	Words  [][]int
}

// Stamps are the set's stamps, each once, in the order of the first sheet
// that carries it.
func (set *Set) Stamps() []SetStamp {
	var out []SetStamp
	at := map[StampPlace]int{}
	for _, s := range set.Sheets {
		if !s.Readable {
			continue
		}
		for _, st := range s.Stamps() {
			i, ok := at[st.Place]
			if !ok {
				i = len(out)
				at[st.Place] = i
				out = append(out, SetStamp{Place: st.Place, Text: st.Text})
			}
			out[i].Sheets = append(out[i].Sheets, s)
			out[i].Words = append(out[i].Words, st.Words)
		}
	}
	return out
}
