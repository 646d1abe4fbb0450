package model

import (
	"strings"

	"planreview/scan/layout"
	"planreview/textmatch"
)

// Schedules as tables: a ruled table whose header row names four or more
// columns. What kind of table it is decides what its blank cells mean: a
// revision or issue table is blank until the set is revised, a form filled
// in the field (an installation certificate, a special inspection log) is
// blank for whoever installs or inspects, and a remarks column is blank by
// design; a schedule's other blanks are values the designer left out.
var (
	revisionHeaderRe  = textmatch.MustCompile(`(?i)\b(?:REV(?:ISION)?S?|ISSUES?|DATE|DESCRIPTION|BY|APPROVED|CHK'?D|NO\.?)\b`)
	remarksHeaderRe   = textmatch.MustCompile(`(?i)\b(?:REMARKS?|COMMENTS?|NOTES?)\b`)
	fieldFormHeaderRe = textmatch.MustCompile(`(?i)\b(?:INSTALLER|INSPECTOR|INSPECTED|INITIALS?|SIGNATURE|SIGNED|VERIFIED|PASS\s*(?:/|OR)\s*FAIL|COMPLETED)\b`)
)

// ScheduleKind is what a schedule-shaped table is.
type ScheduleKind int

const (
	// ScheduleOfValues: the designer's schedule (doors, conductors,
	// fixtures): its cells are values to fill.
	ScheduleOfValues ScheduleKind = iota
	// ScheduleOfRevisions: a revision or issue table.
	ScheduleOfRevisions
	// ScheduleFieldForm: a form filled in the field.
	ScheduleFieldForm
)

// Schedule is a ruled table with a header row.
type Schedule struct {
	Table       *layout.Table
	Header      int      // the header row's index in Table.Rows
	Columns     []string // the header cells' text
	HeaderWords []int
	Kind        ScheduleKind
	// Remarks marks the columns blank by design (remarks, comments,
	// notes).
	Remarks []bool
}

// Schedules are the sheet's ruled tables with a header row, read on first
// use. A page with fewer than twelve drawn segments has no ruled grid,
// so its layout's tables are not built for this.
func (s *Sheet) Schedules() []Schedule {
	if s.schedulesRead {
		return s.schedules
	}
	s.schedulesRead = true
	if len(s.Page.Segments) < 12 {
		return nil
	}
	lp := s.Layout()
	for ti := range lp.Tables {
		t := &lp.Tables[ti]
		if !t.Ruled {
			continue
		}
		header := -1
		for ri, row := range t.Rows {
			if len(row.Cells) >= 4 && filledCells(row) == len(row.Cells) {
				header = ri
				break
			}
		}
		if header < 0 {
			continue
		}
		sc := Schedule{Table: t, Header: header}
		for _, c := range t.Rows[header].Cells {
			sc.Columns = append(sc.Columns, c.Text)
			sc.HeaderWords = append(sc.HeaderWords, c.Words...)
			sc.Remarks = append(sc.Remarks, remarksHeaderRe.MatchString(c.Text))
		}
		switch {
		case revisionHeaderRe.MatchString(strings.Join(sc.Columns, " ")) && len(sc.Columns) <= 6:
			sc.Kind = ScheduleOfRevisions
		case fieldFormHeaderRe.MatchString(strings.Join(sc.Columns, " | ")):
			sc.Kind = ScheduleFieldForm
		}
		s.schedules = append(s.schedules, sc)
	}
	return s.schedules
}

// Body is the schedule's rows under its header that have the header's
// columns and name an item in one of their first two cells.
func (sc Schedule) Body() []layout.Row {
	var rows []layout.Row
	for _, row := range sc.Table.Rows[sc.Header+1:] {
		if len(row.Cells) != len(sc.Columns) || strings.TrimSpace(row.Cells[0].Text) == "" && strings.TrimSpace(row.Cells[1].Text) == "" {
			continue
		}
		rows = append(rows, row)
	}
	return rows
}

func filledCells(row layout.Row) int {
	n := 0
	for _, c := range row.Cells {
		if strings.TrimSpace(c.Text) != "" {
			n++
		}
	}
	return n
}
