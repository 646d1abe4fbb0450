package model

import (
	"strings"

	"planreview/textmatch"
)

// Marks: labels standing alone on their line (a tag bubble) shaped like a
// schedule mark, letters then digits (AG01, W12, D3A). Numeric tags (101,
// 102A) are not tags here: room numbers, keynotes and grid lines share
// their shape.
var (
	markRe          = textmatch.MustCompile(`^[A-Z]{1,3}\d{1,3}[A-Z]?$`)
	markPrefixRe    = textmatch.MustCompile(`^[A-Z]+`)
	openingSchedRe  = textmatch.MustCompile(`(?i)\b(?:WINDOWS?|DOORS?|ALUMINIUM|ALUMINUM|GLAZING|OPENINGS?|FENESTRATION)\s+(?:AND\s+(?:DOORS?|WINDOWS?)\s+)?SCHEDULES?\b`)
	scheduleWordRe  = textmatch.MustCompile(`(?i)\bSCHEDULES?\b`)
	planTitleRe     = textmatch.MustCompile(`(?i)\bPLANS?\b`)
	notFloorPlansRe = textmatch.MustCompile(`(?i)\b(?:SITE|ROOF|CEILING|RCP|ELECTRICAL|LIGHTING|POWER|PLUMBING|MECHANICAL|FOUNDATION|FOOTING|FRAMING|LANDSCAPE)\b`)
)

// Mark is a mark-shaped label alone on its line: a door or window tag on
// a plan, a mark in a schedule's first column.
type Mark struct {
	Text  string
	Line  int   // index in Sheet.Lines
	Words []int // the line's words
}

// Family is the mark's letter prefix: the kind of opening a schedule
// numbers (W for windows, D for doors, AG for aluminium glazing).
func (m Mark) Family() string { return markPrefixRe.FindString(m.Text) }

// Marks are the sheet's mark-shaped labels, read on first use. A sheet
// number of the set is mark-shaped too; the set-level checks drop those.
func (s *Sheet) Marks() []Mark {
	if s.marksRead {
		return s.marks
	}
	s.marksRead = true
	for li, l := range s.Lines {
		t := strings.TrimSpace(l.Text)
		if markRe.MatchString(t) {
			s.marks = append(s.marks, Mark{Text: t, Line: li, Words: l.Words})
		}
	}
	return s.marks
}

// IsOpeningSchedule reports whether the sheet is a door or window
// schedule: its title says so, or a sheet titled a schedule heads one.
func (s *Sheet) IsOpeningSchedule() bool {
	if openingSchedRe.MatchString(s.Ident.Title) {
		return true
	}
	if !scheduleWordRe.MatchString(s.Ident.Title) {
		return false
	}
	for _, l := range s.Lines {
		if openingSchedRe.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// IsFloorPlan reports whether the sheet's title names a floor plan: a
// plan, and not a site, roof, ceiling, structural or building-services
// plan.
func (s *Sheet) IsFloorPlan() bool {
	return planTitleRe.MatchString(s.Ident.Title) && !notFloorPlansRe.MatchString(s.Ident.Title)
}
