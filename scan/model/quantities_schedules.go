package model

import (
	"strconv"
	"strings"

	"planreview/scan/layout"
	"planreview/scan/units"
	"planreview/textmatch"
)

// The schedule reader: a table's column named by its header cell, read on
// the rows the kind identifies: door schedules (the width of entry and
// exit doors), window schedules (the net clear opening of the rows marked
// as escape openings), room schedules (each room's ceiling height).

// scheduleTitleRows: rows at the top of a table that may hold its title.
const scheduleTitleRows = 3

var (
	// A door schedule's size column: the door (leaf) size or width, or its
	// clear opening; never the frame, a rough or masonry opening, glass.
	doorSizeHeaderRe = textmatch.MustCompile(`(?i)^\s*(?:DOOR\s+|NOMINAL\s+|NOM\.?\s+)?(?:SIZE|WIDTH|WD\.?|W)\s*(?:\(.*\))?\s*$|\bCLEAR\s+(?:WIDTH|OPENING)\b`)
	doorNotSizeRe    = textmatch.MustCompile(`(?i)FRAME|ROUGH|\bR\.?\s?O\.?\b|MASONRY|GLASS|GLAZ|LITE|LOUVER|PANEL|THICK|HARDWARE`)
	doorMarkHeaderRe = textmatch.MustCompile(`(?i)\b(?:DOOR|MARK|NO\.?|NUMBER|TAG|LOCATION|ROOM|TYPE)\b`)
	doorScheduleRe   = textmatch.MustCompile(`(?i)\bDOOR\b`)
	egressDoorRe     = textmatch.MustCompile(`(?i)\b(?:ENTRY|ENTRANCE|FRONT\s+DOOR|MAIN\s+DOOR|EGRESS|EXIT)\b`)
	notEgressDoorRe  = textmatch.MustCompile(`(?i)\bCLOSET|\bCLO\b|\bPANTRY|\bBATH|\bTOILET|\bSTOR|\bACCESS\s+(?:DOOR|PANEL)|\bATTIC|\bCRAWL|\bPAIR\b|\bPR\.?\b|\(2\)|\bDOUBLE\b|\bDBL\b|\bSLIDING|\bBI-?FOLD|\bPOCKET|\bGARAGE|\bOVERHEAD|\bO\.?H\.?\b`)
	doorSizePairRe   = textmatch.MustCompile(`(?i)^\s*(` + units.ImperialLengthPattern + `)\s*[X×]\s*(` + units.ImperialLengthPattern + `)`)
	doorShorthandRe  = textmatch.MustCompile(`^\s*([1-4])([0-9])([6-9])([0-9])\s*$`)
	clearWidthHeadRe = textmatch.MustCompile(`(?i)\bCLEAR\b`)
	lengthOnlyRe     = textmatch.MustCompile(`(?i)^\s*(` + units.ImperialLengthPattern + `)\s*(?:A\.?F\.?F\.?)?\s*$`)

	// The net clear opening column of a window schedule, in square feet
	// (by its header or its cells); never a width-by-height pair, a rough
	// opening or a unit size.
	netClearHeaderRe  = textmatch.MustCompile(`(?i)\bNET\s+CLEAR\s+(?:OPENING|AREA)|\bCLEAR\s+OPENING\s+AREA|\bEGRESS\s+(?:OPENING\s+)?AREA|\bN\.?C\.?O\.?(?:\s|$|\()`)
	netClearNotRe     = textmatch.MustCompile(`(?i)\bW\b|WIDTH|HEIGHT|\bH\b|\sX\s|ROUGH|\bR\.?O\.?\b|UNIT|M²|M2\b|SQ\.?\s?M\b`)
	sqftHeaderRe      = textmatch.MustCompile(`(?i)\bS\.?F\.?\b|SQ\.?\s?FT|FT²|FT2\b|SQUARE\s+FEET`)
	plainAreaRe       = textmatch.MustCompile(`^\s*(\d{1,2}(?:\.\d{1,2})?)\s*$`)
	windowScheduleRe  = textmatch.MustCompile(`(?i)\bWINDOW`)
	egressColumnRe    = textmatch.MustCompile(`(?i)^\s*(?:EGRESS|E\.?E\.?R\.?O\.?|ESCAPE)\s*\??\s*$`)
	egressYesRe       = textmatch.MustCompile(`(?i)^\s*(?:YES|Y|X|✓|✔|●)\s*$`)
	egressRowRe       = textmatch.MustCompile(`(?i)\bEGRESS\b|\bE\.?E\.?R\.?O\.?\b|\bESCAPE\b`)
	notEgressWindowRe = textmatch.MustCompile(`(?i)\bNON[-\s]?EGRESS|\bNOT\s+(?:AN\s+)?EGRESS`)

	ceilingHeaderRe  = textmatch.MustCompile(`(?i)\b(?:CEILING|CLG)\.?\s*(?:HEIGHT|HT|HGT)\b`)
	roomNameOnlyRe   = textmatch.MustCompile(`(?i)\bNAME\b`)
	roomNameHeaderRe = textmatch.MustCompile(`(?i)\b(?:ROOM|SPACE|NAME|AREA)\b`)
)

func (pt *pageText) readSchedules() []Quantity {
	if len(pt.lp.Tables) == 0 {
		return nil
	}
	var out []Quantity
	if pt.keys&maskOf("DOOR") != 0 {
		out = append(out, pt.readDoorSchedules()...)
	}
	if pt.keys&maskOf("WINDOW") != 0 {
		out = append(out, pt.readEscapeOpenings()...)
	}
	if pt.keys&maskOf("CLG", "CEIL") != 0 {
		out = append(out, pt.readRoomCeilings()...)
	}
	return out
}

// scheduleColumns names the header row of a table and the boxes of the
// columns a reader wants.
type scheduleColumns struct {
	headerRow    int
	value, other layout.Box
}

// headerColumns finds, in the table's first rows, a header cell matching
// valueRe and another matching otherRe; nil if the table has none.
func (pt *pageText) headerColumns(tb layout.Table, valueRe, otherRe *textmatch.Regexp) *scheduleColumns {
	for ri, row := range tb.Rows {
		if ri > 3 {
			break
		}
		vc, oc := -1, -1
		for ci, c := range row.Cells {
			t := pt.text(c.Words)
			switch {
			case vc < 0 && valueRe.MatchString(t):
				vc = ci
			case oc < 0 && otherRe.MatchString(t):
				oc = ci
			}
		}
		if vc >= 0 && oc >= 0 {
			return &scheduleColumns{headerRow: ri, value: row.Cells[vc].Box, other: row.Cells[oc].Box}
		}
	}
	return nil
}

// scheduleOf: the table's first rows, or the line just above it, match re.
func (pt *pageText) scheduleOf(tb layout.Table, re *textmatch.Regexp) bool {
	for ri, row := range tb.Rows {
		if ri >= scheduleTitleRows {
			break
		}
		if re.MatchString(pt.rowText(row)) {
			return true
		}
	}
	for _, l := range pt.lp.Lines {
		h := l.Box.Y1 - l.Box.Y0
		if l.Box.Y1 <= tb.Box.Y0+1 && l.Box.Y1 >= tb.Box.Y0-3*h && l.Box.X0 < tb.Box.X1 && l.Box.X1 > tb.Box.X0 &&
			re.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// DoorSchedules reports whether the sheet's layout holds a door schedule
// as a table (tables) and whether one of them has a width or size column
// the readers read (sized): a door schedule the reader cannot read is a
// check that could not run, not a compliant door.
func (s *Sheet) DoorSchedules() (tables, sized bool) {
	pt := &pageText{s: s, lp: s.Layout()}
	for _, tb := range pt.lp.Tables {
		if !pt.scheduleOf(tb, doorScheduleRe) {
			continue
		}
		tables = true
		if pt.headerColumns(tb, doorSizeHeaderRe, doorMarkHeaderRe) != nil {
			sized = true
		}
	}
	return tables, sized
}

// readDoorSchedules reads the width of entry and exit doors from door
// schedules: the WIDTH column, the width of a SIZE ("3'-0" X 6'-8"",
// "3068"), or a CLEAR WIDTH column. A leaf narrower than a required clear
// width cannot give it, so a leaf is given as is (Where says which was
// read); rows of doors not named as entries or exits are not read.
func (pt *pageText) readDoorSchedules() []Quantity {
	var out []Quantity
	for _, tb := range pt.lp.Tables {
		if !pt.scheduleOf(tb, doorScheduleRe) {
			continue
		}
		cols := pt.headerColumns(tb, doorSizeHeaderRe, doorMarkHeaderRe)
		if cols == nil {
			continue
		}
		header, _ := cellUnder(tb.Rows[cols.headerRow], cols.value)
		headerText := pt.text(header.Words)
		if doorNotSizeRe.MatchString(headerText) {
			continue
		}
		where := "leaf width in the door schedule"
		if clearWidthHeadRe.MatchString(headerText) {
			where = "clear width in the door schedule"
		}
		for _, row := range tb.Rows[cols.headerRow+1:] {
			rowText := pt.rowText(row)
			if !egressDoorRe.MatchString(rowText) || notEgressDoorRe.MatchString(rowText) {
				continue
			}
			cell, ok := cellUnder(row, cols.value)
			if !ok {
				continue
			}
			ct := strings.TrimSpace(pt.text(cell.Words))
			width, raw, ok := DoorWidth(ct)
			if !ok {
				continue
			}
			out = append(out, Quantity{Kind: DoorClearWidth, Value: round(width), Printed: raw, Text: ct, Where: where,
				Words: cell.Words, Printing: PrintedSchedule, Tags: pt.tags(rowText, rowText) | TagEgress})
		}
	}
	return out
}

// DoorWidth reads a door's width from a size or width cell: a single
// length, "W X H" (the smaller of the two: doors are taller than wide), or
// the trade shorthand "3068" (3'-0" by 6'-8"). Metric sizes are not read.
func DoorWidth(s string) (float64, string, bool) {
	if m := lengthOnlyRe.FindStringSubmatch(s); m != nil {
		v, err := units.ParseImperialLength(m[1])
		return v, strings.TrimSpace(m[1]), err == nil
	}
	if m := doorSizePairRe.FindStringSubmatch(s); m != nil {
		a, err1 := units.ParseImperialLength(m[1])
		b, err2 := units.ParseImperialLength(m[2])
		if err1 != nil || err2 != nil {
			return 0, "", false
		}
		if a <= b {
			return a, strings.TrimSpace(m[1]), true
		}
		return b, strings.TrimSpace(m[2]), true
	}
	if m := doorShorthandRe.FindStringSubmatch(s); m != nil {
		ft, _ := strconv.Atoi(m[1])
		in, _ := strconv.Atoi(m[2])
		return float64(12*ft + in), m[1] + "'-" + strconv.Itoa(in) + `"`, true
	}
	return 0, "", false
}

// readEscapeOpenings reads, from window schedules with a net clear opening
// column in square feet, the openings of the rows marked as emergency
// escape openings (an EGRESS column checked, or the row naming egress).
// Rows not marked are not read: only sleeping rooms and basements need one.
func (pt *pageText) readEscapeOpenings() []Quantity {
	var out []Quantity
	for _, tb := range pt.lp.Tables {
		if !pt.scheduleOf(tb, windowScheduleRe) {
			continue
		}
		for hi, hrow := range tb.Rows {
			if hi > 3 {
				break
			}
			var area, egress *layout.Cell
			for ci := range hrow.Cells {
				t := pt.text(hrow.Cells[ci].Words)
				switch {
				case area == nil && netClearHeaderRe.MatchString(t) && !netClearNotRe.MatchString(t):
					area = &hrow.Cells[ci]
				case egress == nil && egressColumnRe.MatchString(t):
					egress = &hrow.Cells[ci]
				}
			}
			if area == nil {
				continue
			}
			sqftHeader := sqftHeaderRe.MatchString(pt.text(area.Words))
			for _, row := range tb.Rows[hi+1:] {
				rowText := pt.rowText(row)
				marked := egressRowRe.MatchString(rowText) && !notEgressWindowRe.MatchString(rowText)
				if egress != nil {
					c, ok := cellUnder(row, egress.Box)
					marked = ok && egressYesRe.MatchString(pt.text(c.Words))
				}
				if !marked {
					continue
				}
				cell, ok := cellUnder(row, area.Box)
				if !ok {
					continue
				}
				ct := strings.TrimSpace(pt.text(cell.Words))
				v, err := units.ParseAreaSqFt(ct)
				if err != nil && sqftHeader && plainAreaRe.MatchString(ct) {
					v, err = strconv.ParseFloat(ct, 64)
				}
				if err != nil {
					continue
				}
				raw := ct
				if !strings.ContainsAny(strings.ToUpper(ct), "SF") {
					raw = ct + " SF"
				}
				out = append(out, Quantity{Kind: EscapeOpeningArea, Value: round(v), Printed: raw, Text: ct,
					Where: "net clear opening in the window schedule", Words: cell.Words, Printing: PrintedSchedule,
					Tags: pt.tags(rowText, rowText) | TagEgress})
			}
			break
		}
	}
	return out
}

// readRoomCeilings reads the ceiling-height column of room schedules, with
// the room's name (its kind of space is typed from it).
func (pt *pageText) readRoomCeilings() []Quantity {
	var out []Quantity
	for _, tb := range pt.lp.Tables {
		cols := pt.headerColumns(tb, ceilingHeaderRe, roomNameOnlyRe)
		if cols == nil {
			cols = pt.headerColumns(tb, ceilingHeaderRe, roomNameHeaderRe)
		}
		if cols == nil {
			continue
		}
		for _, row := range tb.Rows[cols.headerRow+1:] {
			cell, ok := cellUnder(row, cols.value)
			if !ok {
				continue
			}
			m := lengthOnlyRe.FindStringSubmatch(pt.text(cell.Words))
			if m == nil {
				continue
			}
			nc, ok := cellUnder(row, cols.other)
			name := strings.TrimSpace(pt.text(nc.Words))
			if !ok || name == "" {
				continue
			}
			v, err := units.ParseImperialLength(m[1])
			if err != nil {
				continue
			}
			rowText := pt.rowText(row)
			words := append(append([]int{}, nc.Words...), cell.Words...)
			out = append(out, Quantity{Kind: CeilingHeight, Value: round(v), Printed: strings.TrimSpace(m[1]),
				Text: name + " " + strings.TrimSpace(pt.text(cell.Words)), Where: name + ", room schedule",
				Words: words, Printing: PrintedSchedule, Tags: pt.tags(rowText, rowText)})
		}
	}
	return out
}
